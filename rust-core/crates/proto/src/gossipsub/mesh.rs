//! Per-peer state in a vector indexed by `PeerIdx`, and the topic mesh kept both as flags
//! (for O(1) membership) and as a list (for forwarding in one pass).

use super::score::Score;
use crate::{PeerIdx, Time};

#[derive(Clone, Debug, Default)]
pub(crate) struct Peer {
    pub connected: bool,
    /// The peer told us it subscribes to the topic.
    pub subscribed: bool,
    pub in_mesh: bool,
    pub in_fanout: bool,
    /// No GRAFT to or from this peer before this time (v1.1 prune backoff).
    pub backoff_until: Time,
    /// A GRAFT before this time comes too fast after our PRUNE (extra penalty).
    pub graft_flood_until: Time,
    pub score: Score,
    /// Per-heartbeat counters for the flood protections of v1.1, v1.2 and v2.0.
    pub ihaves: u32,
    pub iasked: u32,
    pub idontwants: u32,
    pub iannounces: u32,
}

pub(crate) struct Peers {
    pub list: Vec<Peer>,
    pub mesh: Vec<PeerIdx>,
    pub fanout: Vec<PeerIdx>,
}

impl Peers {
    pub fn new() -> Self {
        Peers {
            list: Vec::new(),
            mesh: Vec::new(),
            fanout: Vec::new(),
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

    pub fn in_mesh(&self, p: PeerIdx) -> bool {
        self.get(p).is_some_and(|x| x.in_mesh)
    }

    pub fn add_to_mesh(&mut self, p: PeerIdx) {
        let peer = self.slot(p);
        if !peer.in_mesh {
            peer.in_mesh = true;
            self.mesh.push(p);
        }
    }

    pub fn remove_from_mesh(&mut self, p: PeerIdx) -> bool {
        match self.list.get_mut(p.idx()) {
            Some(peer) if peer.in_mesh => {
                peer.in_mesh = false;
                self.mesh.retain(|&m| m != p);
                true
            }
            _ => false,
        }
    }

    pub fn add_to_fanout(&mut self, p: PeerIdx) {
        let peer = self.slot(p);
        if !peer.in_fanout {
            peer.in_fanout = true;
            self.fanout.push(p);
        }
    }

    pub fn remove_from_fanout(&mut self, p: PeerIdx) {
        if let Some(peer) = self.list.get_mut(p.idx()) {
            if peer.in_fanout {
                peer.in_fanout = false;
                self.fanout.retain(|&m| m != p);
            }
        }
    }

    pub fn clear_fanout(&mut self) {
        for p in self.fanout.drain(..) {
            if let Some(peer) = self.list.get_mut(p.idx()) {
                peer.in_fanout = false;
            }
        }
    }

    /// Indices of peers matching `keep`, into `out` (cleared first), in index order.
    pub fn select(&self, out: &mut Vec<PeerIdx>, keep: impl Fn(&Peer) -> bool) {
        out.clear();
        out.extend(
            self.list
                .iter()
                .enumerate()
                .filter(|(_, p)| keep(p))
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
        p.add_to_mesh(PeerIdx(3));
        p.add_to_mesh(PeerIdx(1));
        p.add_to_mesh(PeerIdx(3));
        assert_eq!(p.mesh, vec![PeerIdx(3), PeerIdx(1)]);
        assert!(p.in_mesh(PeerIdx(3)) && !p.in_mesh(PeerIdx(2)) && !p.in_mesh(PeerIdx(99)));
        assert!(p.remove_from_mesh(PeerIdx(3)));
        assert!(!p.remove_from_mesh(PeerIdx(3)));
        assert_eq!(p.mesh, vec![PeerIdx(1)]);
        let mut out = Vec::new();
        p.select(&mut out, |x| x.in_mesh);
        assert_eq!(out, vec![PeerIdx(1)]);
    }
}
