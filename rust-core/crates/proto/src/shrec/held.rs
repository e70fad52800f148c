//! The txs a Shrec node holds, found by the short-ID prefix that announcements and requests
//! name them by: one read in a dense table (`TxIdMap`, by prefix; in the simulator the prefix
//! is the id itself) for the first tx held under a prefix, and a list for the rare later ones.

use super::msg::PREFIX_BITS;
use super::prefix_of;
use crate::{Tx, TxId, TxIdMap};

/// The first tx held under a prefix. The default is no tx.
///
/// Packed (10 bytes, not 16): there is one per tx a node holds, kept for the whole run, and
/// its fields are only ever copied out. The id's low bits are the prefix the entry sits
/// under, so only the bits above it are kept.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, packed)]
struct First {
    /// The id's bits above the prefix, little-endian.
    high: [u8; HIGH_BYTES],
    len: u32,
    held: bool,
}

const HIGH_BYTES: usize = (u64::BITS - PREFIX_BITS) as usize / 8;

impl First {
    fn new(tx: Tx) -> First {
        let mut high = [0; HIGH_BYTES];
        high.copy_from_slice(&(tx.id.0 >> PREFIX_BITS).to_le_bytes()[..HIGH_BYTES]);
        First {
            high,
            len: tx.len,
            held: true,
        }
    }

    fn tx(self, prefix: u32) -> Tx {
        let mut high = [0; 8];
        high[..HIGH_BYTES].copy_from_slice(&self.high);
        Tx {
            id: TxId(u64::from_le_bytes(high) << PREFIX_BITS | u64::from(prefix)),
            len: self.len,
        }
    }
}

#[derive(Default)]
pub(super) struct HeldTxs {
    by_prefix: TxIdMap<First>,
    /// Held txs whose prefix an earlier held tx already took (rare).
    clashes: Vec<Tx>,
    len: usize,
}

impl HeldTxs {
    /// Adds a tx not held yet.
    pub fn insert(&mut self, tx: Tx) {
        let first = self.by_prefix.entry(TxId(prefix_of(tx.id) as u64));
        if !first.held {
            *first = First::new(tx);
        } else {
            self.clashes.push(tx);
        }
        self.len += 1;
    }

    /// Every held tx under `prefix`: the first one, then the clashes.
    pub fn under(&self, prefix: u32) -> impl Iterator<Item = Tx> + '_ {
        let first = self
            .by_prefix
            .get(TxId(prefix as u64))
            .filter(|f| f.held)
            .map(|f| f.tx(prefix));
        first.into_iter().chain(
            self.clashes
                .iter()
                .copied()
                .filter(move |c| prefix_of(c.id) == prefix),
        )
    }

    /// The held tx with this id.
    pub fn get(&self, id: TxId) -> Option<Tx> {
        self.under(prefix_of(id)).find(|tx| tx.id == id)
    }

    pub fn contains(&self, id: TxId) -> bool {
        self.get(id).is_some()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Starts loading the entry for `prefix` (a hint; changes nothing).
    /// Only natively, where the protocol's warming hooks are (see `Strokkur::warm`).
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    pub fn prefetch(&self, prefix: u32) {
        self.by_prefix.prefetch(TxId(prefix as u64));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_stays_small() {
        assert_eq!(std::mem::size_of::<First>(), 10);
    }

    #[test]
    fn txs_sharing_a_prefix_are_all_found() {
        let mut held = HeldTxs::default();
        let a = Tx {
            id: TxId(0x0100_0005),
            len: 10,
        };
        let b = Tx {
            id: TxId(0x0200_0005),
            len: 20,
        };
        // The first held under the prefix: every bit of its id above the prefix comes back.
        let c = Tx {
            id: TxId(0xfedc_ba98_7600_0005),
            len: u32::MAX,
        };
        held.insert(c);
        held.insert(a);
        held.insert(b);
        assert_eq!(held.get(a.id), Some(a));
        assert_eq!(held.get(b.id), Some(b));
        assert_eq!(held.get(c.id), Some(c));
        assert!(!held.contains(TxId(5)));
        assert_eq!(held.under(5).collect::<Vec<_>>(), [c, a, b]);
        assert_eq!(held.len(), 3);
    }
}
