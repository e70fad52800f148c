//! The `seen` cache of v1.0: ids of messages received recently, remembered for `seen_ttl`.
//! Ids are kept in buckets that close at each heartbeat; a bucket is dropped whole once its
//! closing time is `seen_ttl` old, so expiry costs one pass over the expired ids and the
//! bucket vectors are reused.

use crate::{Dur, IdSet, Time, TxId};
use std::collections::VecDeque;

pub(crate) struct SeenCache {
    set: IdSet<TxId>,
    open: Vec<TxId>,
    closed: VecDeque<(Time, Vec<TxId>)>,
    spare: Vec<Vec<TxId>>,
}

impl SeenCache {
    pub fn new() -> Self {
        SeenCache {
            set: IdSet::default(),
            open: Vec::new(),
            closed: VecDeque::new(),
            spare: Vec::new(),
        }
    }

    /// Records `id`; false if it was already seen.
    pub fn insert(&mut self, id: TxId) -> bool {
        let fresh = self.set.insert(id);
        if fresh {
            self.open.push(id);
        }
        fresh
    }

    pub fn contains(&self, id: TxId) -> bool {
        self.set.contains(&id)
    }

    /// Closes the current bucket at `now` and forgets buckets closed `ttl` or longer ago.
    pub fn rotate(&mut self, now: Time, ttl: Dur) {
        if !self.open.is_empty() {
            let fresh = self.spare.pop().unwrap_or_default();
            let full = std::mem::replace(&mut self.open, fresh);
            self.closed.push_back((now, full));
        }
        while let Some((closed_at, _)) = self.closed.front() {
            if now.since(*closed_at) < ttl {
                break;
            }
            if let Some((_, mut ids)) = self.closed.pop_front() {
                for id in ids.drain(..) {
                    self.set.remove(&id);
                }
                self.spare.push(ids);
            }
        }
    }

    pub fn len(&self) -> usize {
        self.set.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_expire_after_the_ttl_not_before() {
        let mut s = SeenCache::new();
        assert!(s.insert(TxId(1)));
        assert!(!s.insert(TxId(1)));
        s.rotate(Time(1_000), Dur(5_000));
        s.insert(TxId(2));
        s.rotate(Time(2_000), Dur(5_000));
        s.rotate(Time(5_999), Dur(5_000));
        assert!(s.contains(TxId(1)));
        s.rotate(Time(6_000), Dur(5_000));
        assert!(!s.contains(TxId(1)));
        assert!(s.contains(TxId(2)));
        s.rotate(Time(7_000), Dur(5_000));
        assert_eq!(s.len(), 0);
        assert!(s.insert(TxId(1)), "an expired id is new again");
    }
}
