//! v1.2 `dont_send_message_ids`: which peer said IDONTWANT for which message. Entries live
//! for a number of heartbeats (go-libp2p: 3) in a ring of per-heartbeat buckets.

use crate::{IdSet, PeerIdx, TxId};
use std::collections::VecDeque;

pub(crate) struct DontWant {
    set: IdSet<(u32, u64)>,
    /// Newest bucket last; one bucket per heartbeat of the TTL.
    buckets: VecDeque<Vec<(u32, u64)>>,
}

impl DontWant {
    pub fn new(ttl_heartbeats: u32) -> Self {
        let n = ttl_heartbeats.max(1) as usize;
        DontWant {
            set: IdSet::default(),
            buckets: (0..n).map(|_| Vec::new()).collect(),
        }
    }

    /// Starts loading the oldest bucket and its first entry, which a heartbeat forgets.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    pub fn prefetch_heartbeat(&self) {
        use crate::prefetch::prefetch;
        if let Some(oldest) = self.buckets.front() {
            prefetch(oldest);
            if let Some(first) = oldest.first() {
                prefetch(first);
            }
        }
    }

    pub fn insert(&mut self, peer: PeerIdx, id: TxId) {
        let key = (peer.0, id.0);
        if self.set.insert(key) {
            if let Some(b) = self.buckets.back_mut() {
                b.push(key);
            }
        }
    }

    pub fn contains(&self, peer: PeerIdx, id: TxId) -> bool {
        !self.set.is_empty() && self.set.contains(&(peer.0, id.0))
    }

    /// How many messages a peer said IDONTWANT for (still remembered).
    pub fn count_of(&self, peer: PeerIdx) -> usize {
        self.buckets
            .iter()
            .map(|b| b.iter().filter(|(p, _)| *p == peer.0).count())
            .sum()
    }

    /// Forgets every IDONTWANT of a peer (its index may go to another peer).
    pub fn forget(&mut self, peer: PeerIdx) {
        if self.set.is_empty() {
            return;
        }
        self.set.retain(|(p, _)| *p != peer.0);
        for b in &mut self.buckets {
            b.retain(|(p, _)| *p != peer.0);
        }
    }

    /// One heartbeat passed: forget the oldest bucket.
    pub fn tick(&mut self) {
        if let Some(mut oldest) = self.buckets.pop_front() {
            for key in oldest.drain(..) {
                self.set.remove(&key);
            }
            self.buckets.push_back(oldest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_last_the_given_heartbeats() {
        let mut d = DontWant::new(2);
        d.insert(PeerIdx(3), TxId(9));
        assert!(d.contains(PeerIdx(3), TxId(9)));
        assert!(!d.contains(PeerIdx(4), TxId(9)));
        d.tick();
        assert!(d.contains(PeerIdx(3), TxId(9)));
        d.tick();
        assert!(!d.contains(PeerIdx(3), TxId(9)));
        d.insert(PeerIdx(3), TxId(1));
        d.insert(PeerIdx(4), TxId(1));
        d.forget(PeerIdx(3));
        assert!(!d.contains(PeerIdx(3), TxId(1)) && d.contains(PeerIdx(4), TxId(1)));
    }
}
