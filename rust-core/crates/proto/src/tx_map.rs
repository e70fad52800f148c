//! `TxIdMap`: per-tx state kept the way `TxIdSet` keeps its bits. The simulator's ids are
//! dense creation sequence numbers, so a node's state for tx `i` sits at index `i` of a vector:
//! one event about a tx reads one place, with no hashing or probing, and no entry carries a key.
//! Ids on a real network are hash prefixes, scattered: they go to a hashed map.

use crate::{IdMap, TxId};

/// The dense part never covers ids past this (at most 2^20 entries).
const DENSE_IDS: u64 = 1 << 20;
/// Ids below this may always be kept densely (a few KiB), however few entries there are.
const DENSE_FLOOR: u64 = 1 << 10;

/// A map from tx id to `V`. An entry that equals `V::default()` is the same as no entry.
///
/// Memory stays proportional to the entries made: the vector grows to cover an id only while
/// it would stay at least half full (as many `entry` calls as half its length); an id further
/// out goes to the hashed part, and moves into the vector once it grows past it. A peer that
/// names ids far apart thus costs what a hashed map costs, never a vector up to its ids.
#[derive(Clone, Debug, Default)]
pub struct TxIdMap<V> {
    dense: Vec<V>,
    sparse: IdMap<TxId, V>,
    /// `entry` calls that found no entry: what the dense part may grow to twice of.
    made: u64,
}

impl<V: Default + PartialEq> TxIdMap<V> {
    /// The entry for `id` (`None` where there is none: a default value there reads the same).
    #[inline(always)]
    pub fn get(&self, id: TxId) -> Option<&V> {
        // Compared as u64 first: on 32-bit targets `as usize` would cut a large id short.
        if id.0 < self.dense.len() as u64 {
            return self.dense.get(id.0 as usize);
        }
        self.sparse.get(&id)
    }

    #[inline(always)]
    pub fn get_mut(&mut self, id: TxId) -> Option<&mut V> {
        if id.0 < self.dense.len() as u64 {
            return self.dense.get_mut(id.0 as usize);
        }
        self.sparse.get_mut(&id)
    }

    /// The entry for `id`, made (as `V::default()`) if there is none.
    #[inline(always)]
    pub fn entry(&mut self, id: TxId) -> &mut V {
        if id.0 < self.dense.len() as u64 {
            let v = &mut self.dense[id.0 as usize];
            self.made += (*v == V::default()) as u64;
            return v;
        }
        self.entry_cold(id)
    }

    #[inline(never)]
    fn entry_cold(&mut self, id: TxId) -> &mut V {
        let limit = (2 * (self.made + 1)).clamp(DENSE_FLOOR, DENSE_IDS);
        if id.0 < limit {
            // Grow geometrically (amortized O(1) for increasing ids), within the limit.
            let len = (id.0 + 1).max(2 * self.dense.len() as u64).min(limit);
            self.grow(len as usize);
            return self.entry(id);
        }
        let fresh = !self.sparse.contains_key(&id);
        self.made += fresh as u64;
        self.sparse.entry(id).or_default()
    }

    /// Extends the dense part to `len` ids and moves the hashed entries it now covers there.
    fn grow(&mut self, len: usize) {
        self.dense.resize_with(len, V::default);
        if self.sparse.is_empty() {
            return;
        }
        let covered: Vec<TxId> = self
            .sparse
            .keys()
            .copied()
            .filter(|id| id.0 < len as u64)
            .collect();
        for id in covered {
            if let Some(v) = self.sparse.remove(&id) {
                self.dense[id.0 as usize] = v;
            }
        }
    }

    /// Every entry, in no particular order: what callers do with them must not depend on it.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.dense.iter_mut().chain(self.sparse.values_mut())
    }

    /// Starts loading the entry for `id` if it is in the dense part (a hint, changes nothing).
    #[inline(always)]
    pub fn prefetch(&self, id: TxId) {
        if id.0 < self.dense.len() as u64 {
            crate::prefetch::prefetch_all(&self.dense[id.0 as usize]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_a_hashed_map() {
        let mut fast: TxIdMap<u32> = TxIdMap::default();
        let mut reference: IdMap<TxId, u32> = IdMap::default();
        let mut rng = crate::Rng::from_seed(7);
        for i in 0..20_000u64 {
            let z = rng.next_u64();
            // Mostly increasing dense ids, some far ahead of them, some random 64-bit ids.
            let id = TxId(match i % 5 {
                0 => z,
                1 => i * 3 + z % 5_000,
                _ => i / 2,
            });
            *fast.entry(id) += 1;
            *reference.entry(id).or_default() += 1;
            assert_eq!(fast.get(id), reference.get(&id));
        }
        for (&id, &n) in &reference {
            assert_eq!(fast.get(id).copied(), Some(n), "{id:?}");
        }
        let entries = fast.values_mut().filter(|v| **v != 0).count();
        assert_eq!(entries, reference.len());
    }

    #[test]
    fn ids_named_far_apart_stay_hashed() {
        let mut map: TxIdMap<u64> = TxIdMap::default();
        for k in 0..20 {
            *map.entry(TxId((DENSE_FLOOR << k) - 1)) = 1;
        }
        assert!(map.dense.len() as u64 <= DENSE_FLOOR, "{}", map.dense.len());
        assert_eq!(map.values_mut().filter(|v| **v == 1).count(), 20);
    }
}
