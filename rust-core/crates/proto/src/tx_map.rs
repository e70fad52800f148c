//! `TxIdMap`: per-tx state kept the way `TxIdSet` keeps its bits. The simulator's ids are
//! dense creation sequence numbers, so a node's state for tx `i` sits at index `i` of a paged
//! table: one event about a tx reads one place, with no hashing or probing, and no entry
//! carries a key. Ids on a real network are hash prefixes, scattered: they go to a hashed map.

use crate::{IdMap, TxId};

/// The dense part never covers ids past this (at most 2^20 entries).
const DENSE_IDS: u64 = 1 << 20;
/// Ids below this may always be kept densely (a few KiB), however few entries there are.
const DENSE_FLOOR: u64 = 1 << 10;
/// The dense part grows a page of 2^PAGE_BITS ids at a time: no copying of what it holds, and
/// no more than a page beyond the ids it covers (a doubling vector is up to half empty, and
/// holds both copies while it moves).
const PAGE_BITS: u32 = 10;
const PAGE: usize = 1 << PAGE_BITS;

/// A map from tx id to `V`. An entry that equals `V::default()` is the same as no entry.
///
/// Memory stays proportional to the entries made: the dense part grows to cover an id only
/// while it would stay at least half full (as many `entry` calls as half the ids it covers);
/// an id further out goes to the hashed part, and moves into the dense part once it grows
/// past it. A peer that names ids far apart thus costs what a hashed map costs, never a table
/// up to its ids.
#[derive(Clone, Debug, Default)]
pub struct TxIdMap<V> {
    /// Page `p` holds ids `p * PAGE ..`; together they cover ids below `pages.len() * PAGE`.
    pages: Vec<Box<[V]>>,
    sparse: IdMap<TxId, V>,
    /// `entry` calls that found no entry: what the dense part may grow to twice of.
    made: u64,
}

/// Where id `i` sits in the dense part, if it is covered: (page, index in the page).
#[inline(always)]
fn place(id: TxId, pages: usize) -> Option<(usize, usize)> {
    // Compared as u64 first: on 32-bit targets `as usize` would cut a large id short.
    let page = id.0 >> PAGE_BITS;
    (page < pages as u64).then_some((page as usize, id.0 as usize & (PAGE - 1)))
}

impl<V: Default + PartialEq> TxIdMap<V> {
    /// The entry for `id` (`None` where there is none: a default value there reads the same).
    #[inline(always)]
    pub fn get(&self, id: TxId) -> Option<&V> {
        match place(id, self.pages.len()) {
            Some((p, i)) => self.pages[p].get(i),
            None => self.sparse.get(&id),
        }
    }

    #[inline(always)]
    pub fn get_mut(&mut self, id: TxId) -> Option<&mut V> {
        match place(id, self.pages.len()) {
            Some((p, i)) => self.pages[p].get_mut(i),
            None => self.sparse.get_mut(&id),
        }
    }

    /// The entry for `id`, made (as `V::default()`) if there is none.
    #[inline(always)]
    pub fn entry(&mut self, id: TxId) -> &mut V {
        if let Some((p, i)) = place(id, self.pages.len()) {
            let v = &mut self.pages[p][i];
            self.made += (*v == V::default()) as u64;
            return v;
        }
        self.entry_cold(id)
    }

    #[inline(never)]
    fn entry_cold(&mut self, id: TxId) -> &mut V {
        let limit = (2 * (self.made + 1)).clamp(DENSE_FLOOR, DENSE_IDS);
        if id.0 < limit {
            // A page at a time, within the limit; a hashed entry the new pages cover moves in.
            self.grow((id.0 >> PAGE_BITS) as usize + 1);
            return self.entry(id);
        }
        let fresh = !self.sparse.contains_key(&id);
        self.made += fresh as u64;
        self.sparse.entry(id).or_default()
    }

    /// Adds pages until there are `pages`, and moves the hashed entries they cover there.
    fn grow(&mut self, pages: usize) {
        while self.pages.len() < pages {
            self.pages
                .push(std::iter::repeat_with(V::default).take(PAGE).collect());
        }
        if self.sparse.is_empty() {
            return;
        }
        let covered: Vec<(TxId, (usize, usize))> = self
            .sparse
            .keys()
            .filter_map(|&id| Some((id, place(id, pages)?)))
            .collect();
        for (id, (p, i)) in covered {
            if let Some(v) = self.sparse.remove(&id) {
                self.pages[p][i] = v;
            }
        }
    }

    /// Every entry, in no particular order: what callers do with them must not depend on it.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.pages
            .iter_mut()
            .flat_map(|page| page.iter_mut())
            .chain(self.sparse.values_mut())
    }

    /// Starts loading the entry for `id` if it is in the dense part (a hint, changes nothing).
    #[inline(always)]
    pub fn prefetch(&self, id: TxId) {
        if let Some((p, i)) = place(id, self.pages.len()) {
            crate::prefetch::prefetch_all(&self.pages[p][i]);
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

    /// Increasing ids take a page at a time: the dense part covers at most a page beyond the
    /// highest id, where a doubling vector would cover up to twice the ids.
    #[test]
    fn dense_ids_take_pages_as_needed() {
        let mut map: TxIdMap<u32> = TxIdMap::default();
        for i in 0..25_000u64 {
            *map.entry(TxId(i)) = 1;
        }
        assert_eq!(map.pages.len(), 25_000usize.div_ceil(PAGE));
        assert!(map.sparse.is_empty());
        assert_eq!(map.get(TxId(24_999)), Some(&1));
        assert_eq!(map.get(TxId(25_000)), Some(&0), "covered, never entered");
    }

    #[test]
    fn ids_named_far_apart_stay_hashed() {
        let mut map: TxIdMap<u64> = TxIdMap::default();
        for k in 0..20 {
            *map.entry(TxId((DENSE_FLOOR << k) - 1)) = 1;
        }
        assert!(
            map.pages.len() * PAGE <= DENSE_FLOOR as usize,
            "{}",
            map.pages.len()
        );
        assert_eq!(map.values_mut().filter(|v| **v == 1).count(), 20);
    }
}
