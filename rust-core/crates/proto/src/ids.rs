//! Identifiers shared by every protocol.

use std::hash::{BuildHasherDefault, Hasher};

/// A transaction's identity. In the simulator it is the creation sequence number (dense,
/// increasing); on a real network it is a prefix of the transaction's hash.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TxId(pub u64);

impl TxId {
    /// An id no store hands out: what a key unknown here decodes to, so that no protocol
    /// state matches it.
    pub const UNKNOWN: TxId = TxId(u64::MAX);
}

/// A peer as one node sees it: an index into that node's peer list, given by the driver
/// when the link comes up. Protocols keep per-peer state in vectors indexed by it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PeerIdx(pub u32);

impl PeerIdx {
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

/// A transaction as protocols see it: its identity and its size on the wire.
/// Bodies are derived from the id where a protocol needs real bytes (see `Tx::fill_body`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Tx {
    pub id: TxId,
    pub len: u32,
}

impl Tx {
    /// Deterministic pseudo-random body bytes for this tx, for protocols that code over
    /// real content (Strokkur). The first 8 bytes carry the id so distinct txs differ.
    pub fn fill_body(&self, out: &mut Vec<u8>) {
        let len = self.len as usize;
        out.clear();
        out.reserve(len);
        out.extend_from_slice(&self.id.0.to_le_bytes()[..len.min(8)]);
        let mut z = self.id.0 ^ 0x5851_f42d_4c95_7f2d;
        while out.len() < len {
            z = z
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let take = (len - out.len()).min(8);
            out.extend_from_slice(&z.to_le_bytes()[..take]);
        }
    }
}

/// A fast, deterministic hasher for integer ids in hash sets and maps. Lookup only:
/// no output may depend on the iteration order of a hashed collection.
#[derive(Default, Clone, Copy)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u64(&mut self, n: u64) {
        // Fibonacci hashing, then fold the high bits down for hashbrown's top-7-bit tags.
        let h = (self.0 ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 29);
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64)
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64)
    }
}

pub type IdBuild = BuildHasherDefault<IdHasher>;
pub type IdSet<K> = std::collections::HashSet<K, IdBuild>;
pub type IdMap<K, V> = std::collections::HashMap<K, V, IdBuild>;

/// Ids below this are kept as bits (at most 2^20 / 8 = 128 KiB per set); larger ones hashed.
const DENSE_IDS: u64 = 1 << 20;

/// A set of tx ids for "have I seen it?": a bit per id for small ids (the simulator's dense
/// sequence numbers: one word covers 64 txs, no hashing, no probing), a hashed set for the
/// rest (random ids on a real network). Lookup only, like [`IdSet`]. The bits are never
/// given back: a set that forgets ids (`remove`) stays as large as its largest dense id.
#[derive(Clone, Debug, Default)]
#[repr(C)] // the bits first: a protocol that embeds the set may want them early in its state
pub struct TxIdSet {
    bits: Vec<u64>,
    sparse: IdSet<TxId>,
    len: usize,
}

impl TxIdSet {
    /// Adds `id`; false if it was there already.
    #[inline(always)]
    pub fn insert(&mut self, id: TxId) -> bool {
        let (word, bit) = ((id.0 / 64) as usize, 1u64 << (id.0 % 64));
        // The hot case (a dense id within the bits so far) inline; the rest out of line.
        let fresh = match self.bits.get_mut(word) {
            Some(w) if id.0 < DENSE_IDS => {
                let fresh = *w & bit == 0;
                *w |= bit;
                fresh
            }
            _ => return self.insert_cold(id),
        };
        self.len += fresh as usize;
        fresh
    }

    #[inline(never)]
    fn insert_cold(&mut self, id: TxId) -> bool {
        if id.0 >= DENSE_IDS {
            let fresh = self.sparse.insert(id);
            self.len += fresh as usize;
            return fresh;
        }
        // A dense id past the bits so far. Grow geometrically so a run of increasing ids
        // costs amortized O(1); then the hot path applies.
        let word = (id.0 / 64) as usize;
        let want = (word + 1)
            .max(self.bits.len() * 2)
            .min((DENSE_IDS / 64) as usize);
        self.bits.resize(want, 0);
        self.insert(id)
    }

    pub fn contains(&self, id: TxId) -> bool {
        if id.0 >= DENSE_IDS {
            return self.sparse.contains(&id);
        }
        self.bits
            .get((id.0 / 64) as usize)
            .is_some_and(|w| w & (1 << (id.0 % 64)) != 0)
    }

    /// Starts loading the word that holds `id`'s bit (nothing for a hashed id).
    #[inline(always)]
    pub fn prefetch(&self, id: TxId) {
        if let Some(w) = self.bits.get((id.0 / 64) as usize) {
            crate::prefetch::prefetch(w);
        }
    }

    /// Forgets `id`; false if it was not there.
    pub fn remove(&mut self, id: TxId) -> bool {
        let gone = if id.0 >= DENSE_IDS {
            self.sparse.remove(&id)
        } else if let Some(w) = self.bits.get_mut((id.0 / 64) as usize) {
            let bit = 1u64 << (id.0 % 64);
            let was = *w & bit != 0;
            *w &= !bit;
            was
        } else {
            false
        };
        self.len -= gone as usize;
        gone
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tx_id_set_matches_a_hashed_set() {
        let mut fast = TxIdSet::default();
        let mut reference = IdSet::default();
        let mut rng = crate::Rng::from_seed(1);
        for i in 0..5_000u64 {
            let z = rng.next_u64();
            // Dense ids, ids near the bit limit, and random 64-bit ids.
            let id = TxId(match i % 3 {
                0 => z % 3_000,
                1 => DENSE_IDS - 2 + z % 4,
                _ => z,
            });
            assert_eq!(fast.insert(id), reference.insert(id));
            assert!(fast.contains(id));
            assert_eq!(fast.len(), reference.len());
            // Every seventh step forgets an id seen earlier (or one never seen).
            if i % 7 == 0 {
                let old = TxId(z.rotate_left(17) % 3_000);
                assert_eq!(fast.remove(old), reference.remove(&old));
                assert!(!fast.contains(old));
                assert_eq!(fast.len(), reference.len());
            }
        }
        assert!(!fast.contains(TxId(3_000)));
        assert!(fast.bits.len() <= (DENSE_IDS / 64) as usize);
    }

    #[test]
    fn bodies_are_deterministic_and_distinct() {
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        Tx {
            id: TxId(1),
            len: 128,
        }
        .fill_body(&mut a);
        Tx {
            id: TxId(1),
            len: 128,
        }
        .fill_body(&mut b);
        Tx {
            id: TxId(2),
            len: 128,
        }
        .fill_body(&mut c);
        assert_eq!(a.len(), 128);
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
