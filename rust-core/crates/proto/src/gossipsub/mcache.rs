//! The message cache (gossipsub v1.0 `mcache`): messages of the last `mcache_len`
//! heartbeat windows, served to IWANT and INEED, and whose ids of the last `mcache_gossip`
//! windows are gossiped in IHAVE. Windows are reused vectors, so shifting allocates nothing.

use super::rpc::Message;
use super::topics::TopicId;
use crate::{IdMap, PeerIdx, TxId};
use std::collections::VecDeque;

pub(crate) struct MessageCache {
    entries: IdMap<TxId, Message>,
    /// How often a peer was sent a cached message on request (go-libp2p's GetForPeer), by
    /// (peer, message): caps IWANT retransmissions. Kept apart from the messages, since
    /// room for counts in every entry would double the cache for the few messages asked for.
    served: IdMap<(u32, u64), u32>,
    /// Newest window first.
    windows: VecDeque<Vec<(TxId, TopicId)>>,
    gossip: usize,
}

impl MessageCache {
    pub fn new(len: usize, gossip: usize) -> Self {
        let len = len.max(1);
        MessageCache {
            entries: IdMap::default(),
            served: IdMap::default(),
            windows: (0..len).map(|_| Vec::new()).collect(),
            gossip: gossip.min(len),
        }
    }

    /// Starts loading what a heartbeat reads: the windows, the first ids of those it gossips
    /// and of the oldest, which it forgets.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    pub fn prefetch_heartbeat(&self) {
        use crate::prefetch::{prefetch, prefetch_all};
        let (front, back) = self.windows.as_slices();
        prefetch_all(front);
        prefetch_all(back);
        let gossiped = self.windows.iter().take(self.gossip);
        for window in gossiped.chain(self.windows.back()) {
            if let Some(first) = window.first() {
                prefetch(first);
            }
        }
    }

    pub fn put(&mut self, msg: Message) {
        let id = msg.tx.id;
        match self.entries.insert(id, msg) {
            None => {
                if let Some(w) = self.windows.front_mut() {
                    w.push((id, msg.topic));
                }
            }
            // Cached again: its counts start over.
            Some(_) if !self.served.is_empty() => {
                self.served.retain(|&(_, served), _| served != id.0);
            }
            Some(_) => {}
        }
    }

    #[cfg(test)]
    pub fn contains(&self, id: TxId) -> bool {
        self.entries.contains_key(&id)
    }

    /// The message for a request from `peer`, with how many times (this one included)
    /// that peer has been sent it on request.
    pub fn serve(&mut self, id: TxId, peer: PeerIdx) -> Option<(Message, u32)> {
        let msg = *self.entries.get(&id)?;
        let count = self.served.entry((peer.0, id.0)).or_insert(0);
        *count = count.saturating_add(1);
        Some((msg, *count))
    }

    /// Forgets what was served to a peer (its index may go to another peer).
    pub fn forget(&mut self, peer: PeerIdx) {
        if !self.served.is_empty() {
            self.served.retain(|&(p, _), _| p != peer.0);
        }
    }

    /// Appends the ids of topic `topic` in the gossip windows, newest first.
    pub fn gossip_ids(&self, topic: TopicId, out: &mut Vec<TxId>) {
        for w in self.windows.iter().take(self.gossip) {
            out.extend(w.iter().filter(|(_, t)| *t == topic).map(|(id, _)| *id));
        }
    }

    /// Starts a new window and forgets the oldest.
    pub fn shift(&mut self) {
        if let Some(mut oldest) = self.windows.pop_back() {
            let left = !oldest.is_empty();
            for (id, _) in oldest.drain(..) {
                self.entries.remove(&id);
            }
            self.windows.push_front(oldest);
            // The counts of messages that left go with them (none left: nothing to look at).
            if left && !self.served.is_empty() {
                let entries = &self.entries;
                self.served
                    .retain(|&(_, id), _| entries.contains_key(&TxId(id)));
            }
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gossipsub::rpc::Check;
    use crate::Tx;

    fn tx(i: u64) -> Message {
        Message {
            tx: Tx {
                id: TxId(i),
                len: 100,
            },
            topic: TopicId(0),
            envelope: 0,
            check: Check::Valid,
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
        c.put(Message {
            topic: TopicId(1),
            ..tx(4)
        });
        let mut ids = Vec::new();
        c.gossip_ids(TopicId(0), &mut ids);
        assert_eq!(ids, vec![TxId(3), TxId(2)]);
        ids.clear();
        c.gossip_ids(TopicId(1), &mut ids);
        assert_eq!(ids, vec![TxId(4)]);
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
        c.put(tx(7));
        assert_eq!(c.serve(TxId(7), PeerIdx(1)).map(|x| x.1), Some(1));
        assert_eq!(c.serve(TxId(7), PeerIdx(1)).map(|x| x.1), Some(2));
        assert_eq!(c.serve(TxId(7), PeerIdx(2)).map(|x| x.1), Some(1));
        assert_eq!(c.serve(TxId(8), PeerIdx(2)), None);
        c.forget(PeerIdx(1));
        assert_eq!(
            c.serve(TxId(7), PeerIdx(1)).map(|x| x.1),
            Some(1),
            "a new peer starts over"
        );
        c.shift();
        c.shift();
        assert_eq!(c.serve(TxId(7), PeerIdx(2)), None);
        assert!(c.served.is_empty(), "counts leave with their message");
        c.put(tx(7));
        assert_eq!(
            c.serve(TxId(7), PeerIdx(2)).map(|x| x.1),
            Some(1),
            "a message cached again starts over"
        );
    }
}
