//! The `seen` cache of v1.0: ids of messages received recently, remembered for `seen_ttl`.
//! Ids are kept in buckets that close at each heartbeat; a bucket is dropped whole once its
//! closing time is `seen_ttl` old, so expiry costs one pass over the expired ids and the
//! bucket vectors are reused. At most `MAX_SEEN` ids are kept: past that the oldest bucket
//! goes early (a message seen again after that is a duplicate the host can still tell by its
//! hash), so a flood of messages cannot grow the cache beyond it for two minutes.

use crate::{Dur, Time, TxId, TxIdSet};
use std::collections::VecDeque;

/// Ids remembered at most (the open bucket, one heartbeat's worth, may add to it).
pub const MAX_SEEN: usize = 1 << 18;

/// The set first (`repr(C)`): the router's `warm` reads where its bits are.
#[repr(C)]
pub(crate) struct SeenCache {
    /// A bit per id in the simulator (dense ids), hashed on a real network.
    set: TxIdSet,
    open: Vec<TxId>,
    closed: VecDeque<(Time, Vec<TxId>)>,
    spare: Vec<Vec<TxId>>,
    /// Ids forgotten before their time to stay within `MAX_SEEN`.
    pub forgotten: u64,
}

impl SeenCache {
    pub fn new() -> Self {
        SeenCache {
            set: TxIdSet::default(),
            open: Vec::new(),
            closed: VecDeque::new(),
            spare: Vec::new(),
            forgotten: 0,
        }
    }

    /// Starts loading the oldest bucket, which a heartbeat checks for expiry.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    pub fn prefetch_heartbeat(&self) {
        if let Some(oldest) = self.closed.front() {
            crate::prefetch::prefetch(oldest);
        }
    }

    /// Records `id`; false if it was already seen.
    pub fn insert(&mut self, id: TxId) -> bool {
        if self.set.len() >= MAX_SEEN && !self.set.contains(id) {
            self.drop_oldest();
        }
        let fresh = self.set.insert(id);
        if fresh {
            self.open.push(id);
        }
        fresh
    }

    pub fn contains(&self, id: TxId) -> bool {
        self.set.contains(id)
    }

    /// Starts loading what `contains(id)` reads.
    #[inline(always)]
    pub fn prefetch(&self, id: TxId) {
        self.set.prefetch(id);
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
            self.drop_oldest_closed();
        }
    }

    /// Forgets the oldest closed bucket before its time (counted).
    fn drop_oldest(&mut self) {
        let before = self.set.len();
        self.drop_oldest_closed();
        self.forgotten += (before - self.set.len()) as u64;
    }

    fn drop_oldest_closed(&mut self) {
        if let Some((_, mut ids)) = self.closed.pop_front() {
            for id in ids.drain(..) {
                self.set.remove(id);
            }
            self.spare.push(ids);
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

    #[test]
    fn a_flood_is_bounded_by_dropping_the_oldest_bucket_early() {
        let mut s = SeenCache::new();
        let per_bucket = MAX_SEEN as u64 / 4;
        for bucket in 0..8u64 {
            for i in 0..per_bucket {
                s.insert(TxId(bucket * per_bucket + i));
            }
            s.rotate(Time(bucket), Dur::from_secs(120));
            assert!(s.len() <= MAX_SEEN, "{}", s.len());
        }
        assert_eq!(s.forgotten, 4 * per_bucket);
        assert!(s.contains(TxId(8 * per_bucket - 1)));
        assert!(!s.contains(TxId(0)));
    }
}
