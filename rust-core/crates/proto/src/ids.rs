//! Identifiers shared by every protocol.

use std::hash::{BuildHasherDefault, Hasher};

/// A transaction's identity. In the simulator it is the creation sequence number (dense,
/// increasing); on a real network it is a prefix of the transaction's hash.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TxId(pub u64);

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

#[cfg(test)]
mod tests {
    use super::*;

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
