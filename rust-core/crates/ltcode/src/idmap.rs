//! The decoder's map from short IDs to entries: open addressing with linear probing over one
//! flat array of (key, value) pairs, so a lookup is usually one multiply and one cache line.
//!
//! Short IDs in headers are chosen by peers, so the slot is taken from a product with
//! per-decoder secret words: a peer that does not know them cannot aim many IDs at one run
//! of slots. Nothing iterates the table in an order that could reach an output.

/// Marks an empty slot; no stored value may equal it.
pub const EMPTY: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub struct IdMap {
    /// `key | value << 32`; a slot is free when its value is `EMPTY`.
    slots: Vec<u64>,
    len: usize,
    shift: u32,
    seed: u64,
    multiplier: u64,
}

const MIN_BITS: u32 = 4;

impl IdMap {
    pub fn new(seed: u64, multiplier: u64) -> IdMap {
        IdMap {
            slots: vec![free_slot(); 1 << MIN_BITS],
            len: 0,
            shift: 64 - MIN_BITS,
            seed,
            multiplier: multiplier | 1,
        }
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Forgets every entry, keeping the allocation.
    pub fn clear(&mut self) {
        self.slots.fill(free_slot());
        self.len = 0;
    }

    #[inline]
    fn home(&self, key: u32) -> usize {
        (((key as u64) ^ self.seed).wrapping_mul(self.multiplier) >> self.shift) as usize
    }

    #[inline]
    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    /// Starts loading `key`'s home slot. A simulation's decoders together hold far more than
    /// the caches, even where each table is small; warming the home slots of a batch of keys
    /// first lets their cache misses overlap instead of each insert or lookup waiting alone.
    #[inline]
    pub fn warm(&self, key: u32) {
        crate::prefetch::warm(&self.slots[self.home(key)]);
    }

    #[inline]
    pub fn get(&self, key: u32) -> Option<u32> {
        let mask = self.mask();
        let mut i = self.home(key);
        loop {
            let slot = self.slots[i];
            let value = (slot >> 32) as u32;
            if value == EMPTY {
                return None;
            }
            if slot as u32 == key {
                return Some(value);
            }
            i = (i + 1) & mask;
        }
    }

    /// Sets `key` to `value` (never `EMPTY`), returning the previous value.
    #[inline]
    pub fn insert(&mut self, key: u32, value: u32) -> Option<u32> {
        let previous = self.place(key, value, never_stale);
        if previous.is_none() && self.over_limit() {
            self.grow();
        }
        previous
    }

    /// Like `insert`, for a table some of whose values `stale` gives up (when there is a
    /// `stale`): a new key takes the first stale slot on its probe path, and when it fills
    /// the table the stale entries are dropped first; it grows only if that leaves it full.
    #[inline]
    pub fn insert_or_sweep(
        &mut self,
        key: u32,
        value: u32,
        stale: Option<impl Fn(u32) -> bool>,
    ) -> Option<u32> {
        let Some(stale) = stale else {
            return self.insert(key, value);
        };
        let previous = self.place(key, value, &stale);
        if previous.is_none() && self.over_limit() {
            self.retain(|_, v| !stale(v));
            if self.over_limit() {
                self.grow();
            }
        }
        previous
    }

    /// Sets `key` to `value` (never `EMPTY`) without looking at the load, returning the
    /// previous value. A new key goes to the first slot on its probe path whose value is
    /// `stale`, if any: the slots from its home to there are all taken, so lookups still find
    /// it, and that slot stays taken for the runs that pass through it.
    #[inline]
    fn place(&mut self, key: u32, value: u32, stale: impl Fn(u32) -> bool) -> Option<u32> {
        debug_assert_ne!(value, EMPTY);
        let mask = self.mask();
        let mut i = self.home(key);
        let mut first_stale = None;
        loop {
            let slot = self.slots[i];
            let old = (slot >> 32) as u32;
            if old == EMPTY {
                match first_stale {
                    Some(s) => self.slots[s] = pack(key, value),
                    None => {
                        self.slots[i] = pack(key, value);
                        self.len += 1;
                    }
                }
                return None;
            }
            if slot as u32 == key {
                self.slots[i] = pack(key, value);
                return Some(old);
            }
            if first_stale.is_none() && stale(old) {
                first_stale = Some(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// Linear probing stays within a cache line or two up to 3/4 full (8 slots a line);
    /// fuller tables would double the memory of thousands of decoders.
    #[inline]
    fn over_limit(&self) -> bool {
        self.len * 4 > self.slots.len() * 3
    }

    /// Removes `key`, shifting later members of its run back so lookups need no tombstones.
    pub fn remove(&mut self, key: u32) -> Option<u32> {
        let mask = self.mask();
        let mut i = self.home(key);
        let value = loop {
            let slot = self.slots[i];
            let value = (slot >> 32) as u32;
            if value == EMPTY {
                return None;
            }
            if slot as u32 == key {
                break value;
            }
            i = (i + 1) & mask;
        };
        self.remove_at(i);
        Some(value)
    }

    /// Empties slot `i`, shifting later members of its run back so lookups need no tombstones.
    fn remove_at(&mut self, i: usize) {
        let mask = self.mask();
        let mut hole = i;
        let mut j = i;
        loop {
            j = (j + 1) & mask;
            let slot = self.slots[j];
            if (slot >> 32) as u32 == EMPTY {
                break;
            }
            let home = self.home(slot as u32);
            // Move the entry at j into the hole unless its home lies cyclically in (hole, j].
            let stays = if hole <= j {
                hole < home && home <= j
            } else {
                hole < home || home <= j
            };
            if !stays {
                self.slots[hole] = slot;
                hole = j;
            }
        }
        self.slots[hole] = free_slot();
        self.len -= 1;
    }

    /// Keeps the entries for which `keep(key, value)` holds, in place, one run of taken slots
    /// at a time: the run is emptied and its kept entries placed again in their old order. Each
    /// lands at or before its old slot and at or after its home (the ones placed before it sat
    /// before it), so lookups still find it; the pass costs one probe per kept entry, where
    /// removing entries one by one shifts the rest of the run back each time.
    pub fn retain(&mut self, mut keep: impl FnMut(u32, u32) -> bool) {
        let mask = self.mask();
        // The load limit leaves a quarter of the slots empty; starting after one, no run
        // wraps round to where the pass started.
        let Some(start) = self.slots.iter().position(|&s| (s >> 32) as u32 == EMPTY) else {
            return;
        };
        let mut kept = Vec::new();
        let mut i = (start + 1) & mask;
        while i != start {
            if (self.slots[i] >> 32) as u32 == EMPTY {
                i = (i + 1) & mask;
                continue;
            }
            kept.clear();
            while (self.slots[i] >> 32) as u32 != EMPTY {
                let slot = std::mem::replace(&mut self.slots[i], free_slot());
                match keep(slot as u32, (slot >> 32) as u32) {
                    true => kept.push(slot),
                    false => self.len -= 1,
                }
                i = (i + 1) & mask;
            }
            for &slot in &kept {
                let mut j = self.home(slot as u32);
                while (self.slots[j] >> 32) as u32 != EMPTY {
                    j = (j + 1) & mask;
                }
                self.slots[j] = slot;
            }
        }
    }

    fn grow(&mut self) {
        let doubled = vec![free_slot(); self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        self.shift -= 1;
        self.len = 0;
        for slot in old {
            if (slot >> 32) as u32 != EMPTY {
                self.place(slot as u32, (slot >> 32) as u32, never_stale);
            }
        }
    }
}

#[inline]
fn pack(key: u32, value: u32) -> u64 {
    key as u64 | (value as u64) << 32
}

/// For a table with no stale values.
#[inline]
fn never_stale(_: u32) -> bool {
    false
}

#[inline]
fn free_slot() -> u64 {
    pack(0, EMPTY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{CodecRng, SplitMix64};
    use std::collections::BTreeMap;

    #[test]
    fn behaves_like_a_btreemap_under_random_operations() {
        let mut rng = SplitMix64::new(12);
        let mut map = IdMap::new(rng.next_u64(), rng.next_u64());
        let mut model = BTreeMap::new();
        for step in 0..20_000u32 {
            // A small key space forces long runs, collisions and wrap-around.
            let key = ((rng.next_u64() % 300) as u32).wrapping_mul(0x0100_0001);
            let value = step;
            match rng.next_u64() % 4 {
                0 | 1 => assert_eq!(map.insert(key, value), model.insert(key, value)),
                2 => assert_eq!(map.remove(key), model.remove(&key)),
                _ => assert_eq!(map.get(key), model.get(&key).copied()),
            }
            assert_eq!(map.len(), model.len());
            if step % 500 == 499 {
                // Drop by value, as the decoder's sweep does: a scattered third of the runs.
                let cut = rng.next_u64() % 3;
                map.retain(|_, v| v as u64 % 3 != cut);
                model.retain(|_, v| *v as u64 % 3 != cut);
                assert_eq!(map.len(), model.len());
                for (key, value) in &model {
                    assert_eq!(map.get(*key), Some(*value), "step {step}");
                }
            }
        }
        for (key, value) in &model {
            assert_eq!(map.get(*key), Some(*value));
        }
        map.clear();
        assert_eq!((map.len(), map.get(0)), (0, None));
    }

    /// Entries live while among the last `WINDOW` values inserted, as the decoder's known
    /// entries are: every live entry stays readable whatever was swept or overwritten, a dead
    /// one reads as itself or as nothing, and the table stays sized to the live entries.
    #[test]
    fn insert_or_sweep_keeps_every_live_entry() {
        const WINDOW: u32 = 500;
        let mut rng = SplitMix64::new(13);
        let mut map = IdMap::new(rng.next_u64(), rng.next_u64());
        let mut model = BTreeMap::new();
        for step in 1..30_000u32 {
            let key = ((rng.next_u64() % 5_000) as u32).wrapping_mul(0x0100_0001);
            let stale = (step > WINDOW).then_some(move |v: u32| v < step - WINDOW);
            let previous = map.insert_or_sweep(key, step, stale);
            match model.insert(key, step) {
                Some(v) if v + WINDOW >= step => assert_eq!(previous, Some(v), "step {step}"),
                Some(v) => assert!(previous.is_none() || previous == Some(v), "step {step}"),
                None => assert_eq!(previous, None, "step {step}"),
            }
            if step % 97 == 0 {
                for (&k, &v) in &model {
                    match map.get(k) {
                        Some(found) => assert_eq!(found, v, "step {step}"),
                        None => assert!(v + WINDOW < step, "live key {k} lost at step {step}"),
                    }
                }
            }
        }
        assert!(
            map.slots.len() <= 4 * WINDOW as usize,
            "{} slots",
            map.slots.len()
        );
    }
}
