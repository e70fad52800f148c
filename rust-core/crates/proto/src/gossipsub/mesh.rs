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
    pub mesh: Vec<PeerIdx>,
    pub fanout: Vec<PeerIdx>,
    pub last_publish: Time,
}

pub(crate) struct Peers {
    pub list: Vec<Peer>,
    /// Each peer's standing in every topic, peer by peer (`members[p * topics + t]`): what a
    /// message from a peer reads is one index away, not behind the topic's own allocation.
    members: Vec<Member>,
    pub topics: Vec<Topic>,
}

impl Peers {
    pub fn new() -> Self {
        Peers {
            list: Vec::new(),
            members: Vec::new(),
            topics: Vec::new(),
        }
    }

    /// The slot for `p`, created if the driver hands out a new index.
    #[inline]
    pub fn slot(&mut self, p: PeerIdx) -> &mut Peer {
        if self.list.len() <= p.idx() {
            self.make_slot(p);
        }
        &mut self.list[p.idx()]
    }

    /// Room for peers up to `p` (the rare part of `slot`, kept out of every message's way).
    #[cold]
    #[inline(never)]
    fn make_slot(&mut self, p: PeerIdx) {
        self.list.resize(p.idx() + 1, Peer::default());
        let members = self.list.len() * self.topics.len();
        self.members.resize(members, Member::default());
    }

    pub fn get(&self, p: PeerIdx) -> Option<&Peer> {
        self.list.get(p.idx())
    }

    pub fn topic(&self, t: TopicId) -> Option<&Topic> {
        self.topics.get(t.idx())
    }

    /// The state of topic `t`, created for a topic the names table just gave out (every
    /// peer's standing in it starts empty).
    pub fn topic_mut(&mut self, t: TopicId) -> &mut Topic {
        if self.topics.len() <= t.idx() {
            let (before, after) = (self.topics.len(), t.idx() + 1);
            let mut members = vec![Member::default(); self.list.len() * after];
            if before > 0 {
                for (old, new) in self.members.chunks(before).zip(members.chunks_mut(after)) {
                    new[..before].clone_from_slice(old);
                }
            }
            self.members = members;
            self.topics.resize(after, Topic::default());
        }
        &mut self.topics[t.idx()]
    }

    #[inline(always)]
    fn member_at(&self, t: TopicId, p: PeerIdx) -> Option<usize> {
        let known = t.idx() < self.topics.len() && p.idx() < self.list.len();
        known.then(|| p.idx() * self.topics.len() + t.idx())
    }

    pub fn member(&self, t: TopicId, p: PeerIdx) -> Option<&Member> {
        self.member_at(t, p).map(|i| &self.members[i])
    }

    /// The peer's standing in topic `t`, the topic and peer created if new.
    pub fn member_mut(&mut self, t: TopicId, p: PeerIdx) -> &mut Member {
        self.topic_mut(t);
        self.slot(p);
        let i = p.idx() * self.topics.len() + t.idx();
        &mut self.members[i]
    }

    /// Starts loading what a message from `p` about topic `t` reads of the peer.
    #[inline(always)]
    pub fn prefetch(&self, t: TopicId, p: PeerIdx) {
        use crate::prefetch::prefetch;
        if let Some(peer) = self.list.get(p.idx()) {
            prefetch(peer);
        }
        if let Some(i) = self.member_at(t, p) {
            prefetch(&self.members[i]);
        }
    }

    /// Starts loading every peer's entry and standing, and each topic with its mesh.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    pub fn prefetch_all_peers(&self) {
        use crate::prefetch::prefetch_all;
        prefetch_all(&self.list[..]);
        prefetch_all(&self.members[..]);
        prefetch_all(&self.topics[..]);
        for topic in &self.topics {
            prefetch_all(&topic.mesh[..]);
        }
    }

    /// Starts loading topic `t`'s flags and lists.
    #[inline(always)]
    pub fn prefetch_topic(&self, t: TopicId) {
        if let Some(topic) = self.topics.get(t.idx()) {
            crate::prefetch::prefetch(topic);
        }
    }

    pub fn in_mesh(&self, t: TopicId, p: PeerIdx) -> bool {
        self.member(t, p).is_some_and(|m| m.in_mesh)
    }

    pub fn add_to_mesh(&mut self, t: TopicId, p: PeerIdx) {
        let m = self.member_mut(t, p);
        if !m.in_mesh {
            m.in_mesh = true;
            self.topics[t.idx()].mesh.push(p);
        }
    }

    pub fn remove_from_mesh(&mut self, t: TopicId, p: PeerIdx) -> bool {
        match self.member_at(t, p) {
            Some(i) if self.members[i].in_mesh => {
                self.members[i].in_mesh = false;
                self.topics[t.idx()].mesh.retain(|&x| x != p);
                true
            }
            _ => false,
        }
    }

    pub fn add_to_fanout(&mut self, t: TopicId, p: PeerIdx) {
        let m = self.member_mut(t, p);
        if !m.in_fanout {
            m.in_fanout = true;
            self.topics[t.idx()].fanout.push(p);
        }
    }

    pub fn remove_from_fanout(&mut self, t: TopicId, p: PeerIdx) {
        if let Some(i) = self.member_at(t, p) {
            if self.members[i].in_fanout {
                self.members[i].in_fanout = false;
                self.topics[t.idx()].fanout.retain(|&x| x != p);
            }
        }
    }

    pub fn clear_fanout(&mut self, t: TopicId) {
        let stride = self.topics.len();
        let Some(topic) = self.topics.get_mut(t.idx()) else {
            return;
        };
        for p in topic.fanout.drain(..) {
            if let Some(m) = self.members.get_mut(p.idx() * stride + t.idx()) {
                m.in_fanout = false;
            }
        }
    }

    /// Forgets everything about a peer: the index may be handed to another peer next.
    pub fn forget(&mut self, p: PeerIdx) {
        for t in 0..self.topics.len() {
            let t = TopicId(t as u16);
            self.remove_from_mesh(t, p);
            self.remove_from_fanout(t, p);
        }
        if let Some(peer) = self.list.get_mut(p.idx()) {
            *peer = Peer::default();
            let stride = self.topics.len();
            self.members[p.idx() * stride..][..stride].fill(Member::default());
        }
    }

    /// Every peer with its standing in topic `t`, in index order (none for an unknown topic).
    fn standing(&self, t: TopicId) -> impl Iterator<Item = (PeerIdx, &Peer, &Member)> {
        let stride = self.topics.len().max(1);
        let members = self.members.get(t.idx()..).unwrap_or_default();
        let members = members.iter().step_by(stride);
        let known = t.idx() < self.topics.len();
        let list = self.list.iter().enumerate().take_while(move |_| known);
        list.zip(members)
            .map(|((i, p), m)| (PeerIdx(i as u32), p, m))
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
        out.extend(
            self.standing(t)
                .filter(|(_, p, m)| keep(p, m))
                .map(|(i, _, _)| i),
        );
    }

    /// Connected peers that subscribe to topic `t`.
    pub fn subscribers(&self, t: TopicId) -> usize {
        let subscribed = self
            .standing(t)
            .filter(|(_, p, m)| p.connected && m.subscribed);
        subscribed.count()
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
        p.add_to_mesh(t, PeerIdx(3));
        p.add_to_mesh(t, PeerIdx(1));
        p.add_to_mesh(t, PeerIdx(3));
        assert_eq!(p.topics[0].mesh, vec![PeerIdx(3), PeerIdx(1)]);
        assert!(p.in_mesh(t, PeerIdx(3)) && !p.in_mesh(t, PeerIdx(2)));
        assert!(!p.in_mesh(t, PeerIdx(99)) && !p.in_mesh(TopicId(5), PeerIdx(3)));
        assert!(p.remove_from_mesh(t, PeerIdx(3)));
        assert!(!p.remove_from_mesh(t, PeerIdx(3)));
        assert_eq!(p.topics[0].mesh, vec![PeerIdx(1)]);
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
            p.add_to_mesh(t, PeerIdx(2));
            p.add_to_fanout(t, PeerIdx(2));
            let m = p.member_mut(t, PeerIdx(2));
            m.subscribed = true;
            m.backoff_until = Time(99);
        }
        p.forget(PeerIdx(2));
        assert!(!p.get(PeerIdx(2)).unwrap().connected);
        for (i, topic) in p.topics.iter().enumerate() {
            assert!(topic.mesh.is_empty() && topic.fanout.is_empty());
            let m = p.member(TopicId(i as u16), PeerIdx(2)).unwrap();
            assert!(!m.subscribed && !m.in_mesh && !m.in_fanout && m.backoff_until == Time::ZERO);
        }
    }

    #[test]
    fn a_new_topic_keeps_every_peers_standing_in_the_others() {
        let mut p = Peers::new();
        for i in 0..3 {
            p.slot(PeerIdx(i));
        }
        p.member_mut(TopicId(0), PeerIdx(1)).subscribed = true;
        p.add_to_mesh(TopicId(0), PeerIdx(2));
        p.member_mut(TopicId(2), PeerIdx(0)).backoff_until = Time(7);
        p.slot(PeerIdx(4));
        assert!(p.member(TopicId(0), PeerIdx(1)).unwrap().subscribed);
        assert!(p.in_mesh(TopicId(0), PeerIdx(2)));
        assert_eq!(
            p.member(TopicId(2), PeerIdx(0)).unwrap().backoff_until,
            Time(7)
        );
        assert!(!p.member(TopicId(1), PeerIdx(1)).unwrap().subscribed);
        let mut out = Vec::new();
        p.select(TopicId(0), &mut out, |_, m| m.subscribed || m.in_mesh);
        assert_eq!(out, vec![PeerIdx(1), PeerIdx(2)]);
        p.select(TopicId(2), &mut out, |_, m| m.backoff_until > Time::ZERO);
        assert_eq!(out, vec![PeerIdx(0)]);
    }
}
