//! The message cache (gossipsub v1.0 `mcache`): messages of the last `mcache_len`
//! heartbeat windows, served to IWANT and INEED, and whose ids of the last `mcache_gossip`
//! windows are gossiped in IHAVE. Windows are reused vectors, so shifting allocates nothing.

use crate::{IdMap, PeerIdx, Tx, TxId};
use std::collections::VecDeque;

struct Entry {
    tx: Tx,
    /// How often each peer was sent this message on request (go-libp2p's GetForPeer):
    /// caps IWANT retransmissions. Empty for almost every message.
    served: Vec<(PeerIdx, u32)>,
}

pub(crate) struct MessageCache {
    entries: IdMap<TxId, Entry>,
    /// Newest window first.
    windows: VecDeque<Vec<TxId>>,
    gossip: usize,
}

impl MessageCache {
    pub fn new(len: usize, gossip: usize) -> Self {
        let len = len.max(1);
        MessageCache {
            entries: IdMap::default(),
            windows: (0..len).map(|_| Vec::new()).collect(),
            gossip: gossip.min(len),
        }
    }

    pub fn put(&mut self, tx: Tx) {
        if self
            .entries
            .insert(
                tx.id,
                Entry {
                    tx,
                    served: Vec::new(),
                },
            )
            .is_none()
        {
            if let Some(w) = self.windows.front_mut() {
                w.push(tx.id);
            }
        }
    }

    #[cfg(test)]
    pub fn contains(&self, id: TxId) -> bool {
        self.entries.contains_key(&id)
    }

    /// The message for a request from `peer`, with how many times (this one included)
    /// that peer has been sent it on request.
    pub fn serve(&mut self, id: TxId, peer: PeerIdx) -> Option<(Tx, u32)> {
        let e = self.entries.get_mut(&id)?;
        let count = match e.served.iter_mut().find(|(p, _)| *p == peer) {
            Some((_, c)) => {
                *c = c.saturating_add(1);
                *c
            }
            None => {
                e.served.push((peer, 1));
                1
            }
        };
        Some((e.tx, count))
    }

    /// Appends the ids of the gossip windows, newest first.
    pub fn gossip_ids(&self, out: &mut Vec<TxId>) {
        for w in self.windows.iter().take(self.gossip) {
            out.extend_from_slice(w);
        }
    }

    /// Starts a new window and forgets the oldest.
    pub fn shift(&mut self) {
        if let Some(mut oldest) = self.windows.pop_back() {
            for id in oldest.drain(..) {
                self.entries.remove(&id);
            }
            self.windows.push_front(oldest);
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tx(i: u64) -> Tx {
        Tx {
            id: TxId(i),
            len: 100,
        }
    }

    #[test]
    fn windows_expire_and_gossip_covers_the_newest() {
        let mut c = MessageCache::new(3, 2);
        c.put(tx(1));
        c.shift();
        c.put(tx(2));
        c.shift();
        c.put(tx(3));
        let mut ids = Vec::new();
        c.gossip_ids(&mut ids);
        assert_eq!(ids, vec![TxId(3), TxId(2)]);
        assert!(c.contains(TxId(1)));
        c.shift();
        assert!(!c.contains(TxId(1)), "the oldest window is dropped");
        assert!(c.contains(TxId(2)));
    }

    #[test]
    fn serve_counts_per_peer() {
        let mut c = MessageCache::new(2, 1);
        c.put(tx(7));
        c.put(tx(7));
        assert_eq!(c.len(), 1);
        assert_eq!(c.serve(TxId(7), PeerIdx(1)).map(|x| x.1), Some(1));
        assert_eq!(c.serve(TxId(7), PeerIdx(1)).map(|x| x.1), Some(2));
        assert_eq!(c.serve(TxId(7), PeerIdx(2)).map(|x| x.1), Some(1));
        assert_eq!(c.serve(TxId(8), PeerIdx(2)), None);
    }
}
