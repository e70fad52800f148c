//! What an `inv` node keeps per tx for as long as it runs: a 16-byte record in a dense table,
//! so that the hash of a tx it already holds (most of what arrives) costs one read.
//!
//! A tx it lacks also has a `Wanted` (the announcers in order, the request in flight) in the
//! node's map of txs being fetched; once it holds the tx, that order is never read again and
//! the record keeps only who is known to have it and whom it asked, as bits.

use crate::{IdSet, PeerIdx, TxId, TxIdMap};

/// A node's record of one tx. The default is a tx it knows nothing of.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct TxRecord {
    /// Once held: peers below `LOW_PEERS` known to have it (they announced or sent it, or we
    /// did to them).
    known: u32,
    /// Once held: peers below `LOW_PEERS` we asked for it.
    asked: u32,
    /// Once held: its size.
    pub len: u32,
    /// Copies being verified. Saturates: only 65,535 copies of one tx at once would reach it.
    pub verifying: u16,
    /// Copies verified, counted up to two (`inv.txs_processed_twice` counts the second).
    pub copies: u8,
    pub held: bool,
}

/// Peers whose marks are bits in the record. 32, not 64: the record is kept for every tx
/// for the whole run (this saves 8 of its 24 bytes), and nodes seldom have more peers.
const LOW_PEERS: u32 = u32::BITS;

/// What a peer is to a held tx.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Mark {
    Known,
    Asked,
}

impl TxRecord {
    fn bits_of(&self, mark: Mark) -> u32 {
        match mark {
            Mark::Known => self.known,
            Mark::Asked => self.asked,
        }
    }

    fn bits(&mut self, mark: Mark) -> &mut u32 {
        match mark {
            Mark::Known => &mut self.known,
            Mark::Asked => &mut self.asked,
        }
    }
}

/// Every record of a node, and the marks of peers `LOW_PEERS` and up (on nodes with more
/// peers than that; rare, so a hashed set).
#[derive(Default)]
pub(super) struct Records {
    txs: TxIdMap<TxRecord>,
    high: IdSet<(TxId, PeerIdx, Mark)>,
}

impl Records {
    /// The record of `id` (the default one for a tx never recorded).
    #[inline(always)]
    pub fn get(&self, id: TxId) -> TxRecord {
        self.txs.get(id).copied().unwrap_or_default()
    }

    #[inline(always)]
    pub fn entry(&mut self, id: TxId) -> &mut TxRecord {
        self.txs.entry(id)
    }

    /// Whether `peer` has `mark` on held tx `id`.
    pub fn has(&self, id: TxId, peer: PeerIdx, mark: Mark) -> bool {
        if peer.0 < LOW_PEERS {
            return self.get(id).bits_of(mark) & 1 << peer.0 != 0;
        }
        self.high.contains(&(id, peer, mark))
    }

    /// Gives `peer` `mark` on held tx `id`; false if it had it already.
    pub fn set(&mut self, id: TxId, peer: PeerIdx, mark: Mark) -> bool {
        if peer.0 < LOW_PEERS {
            let bits = self.txs.entry(id).bits(mark);
            let fresh = *bits & 1 << peer.0 == 0;
            *bits |= 1 << peer.0;
            return fresh;
        }
        self.high.insert((id, peer, mark))
    }

    /// Takes every mark off a peer that left (its index may go to another peer).
    pub fn forget(&mut self, peer: PeerIdx) {
        if peer.0 < LOW_PEERS {
            let keep = !(1u32 << peer.0);
            for rec in self.txs.values_mut() {
                rec.known &= keep;
                rec.asked &= keep;
            }
        } else {
            self.high.retain(|&(_, p, _)| p != peer);
        }
    }

    /// Starts loading the record of `id` (a hint; changes nothing).
    /// Only natively, where the protocol's warming hooks are (see `Strokkur::warm`).
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    pub fn prefetch(&self, id: TxId) {
        self.txs.prefetch(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_stays_small() {
        assert_eq!(std::mem::size_of::<TxRecord>(), 16);
    }

    #[test]
    fn marks_of_low_and_high_peers_are_kept_apart_and_forgotten() {
        let mut r = Records::default();
        let (low, high) = (PeerIdx(LOW_PEERS - 1), PeerIdx(LOW_PEERS));
        for p in [low, high] {
            assert!(r.set(TxId(3), p, Mark::Known));
            assert!(!r.set(TxId(3), p, Mark::Known));
            assert!(r.has(TxId(3), p, Mark::Known));
            assert!(!r.has(TxId(3), p, Mark::Asked));
            assert!(!r.has(TxId(4), p, Mark::Known));
        }
        r.forget(low);
        assert!(!r.has(TxId(3), low, Mark::Known));
        assert!(r.has(TxId(3), high, Mark::Known));
        r.forget(high);
        assert!(!r.has(TxId(3), high, Mark::Known));
    }
}
