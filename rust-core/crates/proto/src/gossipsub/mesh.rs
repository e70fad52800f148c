//! The router's view of its peers: per peer (connection, negotiated version, score, flood
//! counters) and per topic and peer (subscription, mesh and fanout membership, backoff), in
//! vectors indexed by `PeerIdx`. A topic's mesh is kept both as flags (O(1) membership) and
//! as a list (forwarding in one pass).

use super::config::Version;
use super::score::Score;
use super::topics::TopicId;
use crate::{PeerIdx, Time};

#[derive(Clone, Debug, Default)]
pub(crate) struct Peer {
    pub connected: bool,
    /// The protocol version spoken with this peer (the lower of both sides').
    pub version: Version,
    pub score: Score,
    /// Per-heartbeat counters for the flood protections of v1.1, v1.2 and v2.0.
    pub ihaves: u32,
    pub iasked: u32,
    pub idontwants: u32,
    pub iannounces: u32,
}

/// A peer's standing in one topic.
#[derive(Clone, Debug, Default)]
pub(crate) struct Member {
    /// The peer told us it subscribes to the topic.
    pub subscribed: bool,
    pub in_mesh: bool,
    pub in_fanout: bool,
    /// No GRAFT to or from this peer before this time (v1.1 prune backoff).
    pub backoff_until: Time,
    /// A GRAFT before this time comes too fast after our PRUNE (extra penalty).
    pub graft_flood_until: Time,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Topic {
    /// We route it: we joined it or publish to it (otherwise only peers subscribe to it).
    pub routed: bool,
    /// We subscribe to it (and keep a mesh); otherwise we publish to it through a fanout.
    pub joined: bool,
    pub members: Vec<Member>,
    pub mesh: Vec<PeerIdx>,
    pub fanout: Vec<PeerIdx>,
    pub last_publish: Time,
}

impl Topic {
    pub fn member(&self, p: PeerIdx) -> Option<&Member> {
        self.members.get(p.idx())
    }

    /// The peer's entry, created if the driver hands out a new index.
    pub fn member_mut(&mut self, p: PeerIdx) -> &mut Member {
        if self.members.len() <= p.idx() {
            self.members.resize(p.idx() + 1, Member::default());
        }
        &mut self.members[p.idx()]
    }

    pub fn in_mesh(&self, p: PeerIdx) -> bool {
        self.member(p).is_some_and(|m| m.in_mesh)
    }

    pub fn add_to_mesh(&mut self, p: PeerIdx) {
        let m = self.member_mut(p);
        if !m.in_mesh {
            m.in_mesh = true;
            self.mesh.push(p);
        }
    }

    pub fn remove_from_mesh(&mut self, p: PeerIdx) -> bool {
        match self.members.get_mut(p.idx()) {
            Some(m) if m.in_mesh => {
                m.in_mesh = false;
                self.mesh.retain(|&x| x != p);
                true
            }
            _ => false,
        }
    }

    pub fn add_to_fanout(&mut self, p: PeerIdx) {
        let m = self.member_mut(p);
        if !m.in_fanout {
            m.in_fanout = true;
            self.fanout.push(p);
        }
    }

    pub fn remove_from_fanout(&mut self, p: PeerIdx) {
        if let Some(m) = self.members.get_mut(p.idx()) {
            if m.in_fanout {
                m.in_fanout = false;
                self.fanout.retain(|&x| x != p);
            }
        }
    }

    pub fn clear_fanout(&mut self) {
        for p in self.fanout.drain(..) {
            if let Some(m) = self.members.get_mut(p.idx()) {
                m.in_fanout = false;
            }
        }
    }

    /// Forgets everything about a peer in this topic.
    pub fn forget(&mut self, p: PeerIdx) {
        self.remove_from_mesh(p);
        self.remove_from_fanout(p);
        if let Some(m) = self.members.get_mut(p.idx()) {
            *m = Member::default();
        }
    }
}

pub(crate) struct Peers {
    pub list: Vec<Peer>,
    pub topics: Vec<Topic>,
}

impl Peers {
    pub fn new() -> Self {
        Peers {
            list: Vec::new(),
            topics: Vec::new(),
        }
    }

    /// The slot for `p`, created if the driver hands out a new index.
    pub fn slot(&mut self, p: PeerIdx) -> &mut Peer {
        if self.list.len() <= p.idx() {
            self.list.resize(p.idx() + 1, Peer::default());
        }
        &mut self.list[p.idx()]
    }

    pub fn get(&self, p: PeerIdx) -> Option<&Peer> {
        self.list.get(p.idx())
    }

    pub fn topic(&self, t: TopicId) -> Option<&Topic> {
        self.topics.get(t.idx())
    }

    /// The state of topic `t`, created for a topic the names table just gave out.
    pub fn topic_mut(&mut self, t: TopicId) -> &mut Topic {
        if self.topics.len() <= t.idx() {
            self.topics.resize(t.idx() + 1, Topic::default());
        }
        &mut self.topics[t.idx()]
    }

    pub fn in_mesh(&self, t: TopicId, p: PeerIdx) -> bool {
        self.topic(t).is_some_and(|x| x.in_mesh(p))
    }

    /// Forgets everything about a peer: the index may be handed to another peer next.
    pub fn forget(&mut self, p: PeerIdx) {
        if let Some(peer) = self.list.get_mut(p.idx()) {
            *peer = Peer::default();
        }
        for topic in &mut self.topics {
            topic.forget(p);
        }
    }

    /// Peers matching `keep` (given the peer and its standing in topic `t`), into `out`
    /// (cleared first), in index order.
    pub fn select(
        &self,
        t: TopicId,
        out: &mut Vec<PeerIdx>,
        keep: impl Fn(&Peer, &Member) -> bool,
    ) {
        out.clear();
        let Some(topic) = self.topic(t) else {
            return;
        };
        out.extend(
            self.list
                .iter()
                .zip(&topic.members)
                .enumerate()
                .filter(|(_, (p, m))| keep(p, m))
                .map(|(i, _)| PeerIdx(i as u32)),
        );
    }

    pub fn reset_heartbeat_counters(&mut self) {
        for p in &mut self.list {
            p.ihaves = 0;
            p.iasked = 0;
            p.idontwants = 0;
            p.iannounces = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mesh_list_and_flags_agree() {
        let mut p = Peers::new();
        let t = TopicId(0);
        for i in 0..4 {
            p.slot(PeerIdx(i));
        }
        let topic = p.topic_mut(t);
        topic.add_to_mesh(PeerIdx(3));
        topic.add_to_mesh(PeerIdx(1));
        topic.add_to_mesh(PeerIdx(3));
        assert_eq!(topic.mesh, vec![PeerIdx(3), PeerIdx(1)]);
        assert!(p.in_mesh(t, PeerIdx(3)) && !p.in_mesh(t, PeerIdx(2)));
        assert!(!p.in_mesh(t, PeerIdx(99)) && !p.in_mesh(TopicId(5), PeerIdx(3)));
        let topic = p.topic_mut(t);
        assert!(topic.remove_from_mesh(PeerIdx(3)));
        assert!(!topic.remove_from_mesh(PeerIdx(3)));
        assert_eq!(topic.mesh, vec![PeerIdx(1)]);
        let mut out = Vec::new();
        p.select(t, &mut out, |_, m| m.in_mesh);
        assert_eq!(out, vec![PeerIdx(1)]);
    }

    #[test]
    fn a_forgotten_peer_leaves_no_trace_in_any_topic() {
        let mut p = Peers::new();
        p.slot(PeerIdx(2)).connected = true;
        p.slot(PeerIdx(2)).score.add_penalty(3.0);
        for t in [TopicId(0), TopicId(1)] {
            let topic = p.topic_mut(t);
            topic.add_to_mesh(PeerIdx(2));
            topic.add_to_fanout(PeerIdx(2));
            let m = topic.member_mut(PeerIdx(2));
            m.subscribed = true;
            m.backoff_until = Time(99);
        }
        p.forget(PeerIdx(2));
        assert!(!p.get(PeerIdx(2)).unwrap().connected);
        for topic in &p.topics {
            assert!(topic.mesh.is_empty() && topic.fanout.is_empty());
            let m = topic.member(PeerIdx(2)).unwrap();
            assert!(!m.subscribed && !m.in_mesh && !m.in_fanout && m.backoff_until == Time::ZERO);
        }
    }
}
