//! What an `inv` node keeps per tx for as long as it runs: a 12-byte record in a dense table,
//! so that the hash of a tx it already holds (most of what arrives) costs one read.
//!
//! A tx it lacks also has an entry in the node's map of txs being fetched (the announcers in
//! order, the request in flight, copies being verified); once it holds the tx, none of that is
//! read again and the record keeps only who is known to have it and whom it asked, as bits.
//!
//! The record has bits for 32 peers. A node with more keeps the marks of peers 32 to 63 in a
//! second dense table of the same bits, made only once such a peer is marked, and those of
//! peers 64 and up (rare) in a hashed set: a node of 16 peers pays 12 bytes a tx, not the 20
//! that bits for 64 would take, and one of 40 peers no more than it did with them.

use super::state::State;
use crate::{IdMap, IdSet, PeerIdx, Tx, TxId, TxIdMap};

/// Which of 32 peers have a mark on a held tx. The default is none.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Marks {
    /// Known to have it (they announced or sent it, or we did to them).
    known: u32,
    /// Asked for it.
    asked: u32,
}

/// A node's record of one tx. The default is a tx it knows nothing of.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct TxRecord {
    /// Once held: the marks of peers 0 to 31.
    marks: Marks,
    /// Whether it is held, copies verified, and once held its size, in the bits `state.rs`
    /// packs them in (12 bytes a record, not 16: one per tx and node for the whole run).
    state: State,
}

impl TxRecord {
    pub fn held(self) -> bool {
        self.state.held()
    }

    /// Counts a verified copy; the copies counted so far, up to 3 (`inv.txs_processed_twice`
    /// counts the second).
    pub fn add_copy(&mut self) -> u32 {
        self.state.add_copy()
    }
}

/// Peers a `Marks` holds.
const PEERS_PER_MARKS: u32 = u32::BITS;

/// What a peer is to a held tx.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Mark {
    Known,
    Asked,
}

impl Marks {
    fn bits(&mut self, mark: Mark) -> &mut u32 {
        match mark {
            Mark::Known => &mut self.known,
            Mark::Asked => &mut self.asked,
        }
    }

    fn has(&self, bit: u32, mark: Mark) -> bool {
        let bits = match mark {
            Mark::Known => self.known,
            Mark::Asked => self.asked,
        };
        bits & 1 << bit != 0
    }

    /// Sets the mark; false if it was set already.
    fn set(&mut self, bit: u32, mark: Mark) -> bool {
        let bits = self.bits(mark);
        let fresh = *bits & 1 << bit == 0;
        *bits |= 1 << bit;
        fresh
    }

    fn clear(&mut self, bit: u32) {
        self.known &= !(1 << bit);
        self.asked &= !(1 << bit);
    }
}

/// Every record of a node, the marks of its peers 32 to 63, those of peers 64 and up, and the
/// sizes of held txs too long for a record's bits.
#[derive(Default)]
pub(super) struct Records {
    txs: TxIdMap<TxRecord>,
    wide: TxIdMap<Marks>,
    high: IdSet<(TxId, PeerIdx, Mark)>,
    long: IdMap<TxId, u32>,
}

/// Where a peer's marks are kept: bit `b` of the record's marks, or of the wide table's.
enum Place {
    Record(u32),
    Wide(u32),
    High,
}

fn place(peer: PeerIdx) -> Place {
    match peer.0 {
        p if p < PEERS_PER_MARKS => Place::Record(p),
        p if p < 2 * PEERS_PER_MARKS => Place::Wide(p - PEERS_PER_MARKS),
        _ => Place::High,
    }
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

    /// Records that the node holds `tx`.
    pub fn hold(&mut self, tx: Tx) {
        if !self.txs.entry(tx.id).state.hold(tx.len) {
            self.long.insert(tx.id, tx.len);
        }
    }

    /// The size of `id`, if held.
    pub fn held_len(&self, id: TxId) -> Option<u32> {
        let state = self.get(id).state;
        if !state.held() {
            return None;
        }
        state.len().or_else(|| self.long.get(&id).copied())
    }

    /// Whether `peer` has `mark` on held tx `id`.
    pub fn has(&self, id: TxId, peer: PeerIdx, mark: Mark) -> bool {
        match place(peer) {
            Place::Record(bit) => self.get(id).marks.has(bit, mark),
            Place::Wide(bit) => self.wide.get(id).is_some_and(|m| m.has(bit, mark)),
            Place::High => self.high.contains(&(id, peer, mark)),
        }
    }

    /// Gives `peer` `mark` on held tx `id`; false if it had it already.
    pub fn set(&mut self, id: TxId, peer: PeerIdx, mark: Mark) -> bool {
        match place(peer) {
            Place::Record(bit) => self.txs.entry(id).marks.set(bit, mark),
            Place::Wide(bit) => self.wide.entry(id).set(bit, mark),
            Place::High => self.high.insert((id, peer, mark)),
        }
    }

    /// Takes every mark off a peer that left (its index may go to another peer).
    pub fn forget(&mut self, peer: PeerIdx) {
        match place(peer) {
            Place::Record(bit) => self.txs.values_mut().for_each(|r| r.marks.clear(bit)),
            Place::Wide(bit) => self.wide.values_mut().for_each(|m| m.clear(bit)),
            Place::High => self.high.retain(|&(_, p, _)| p != peer),
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
        assert_eq!(std::mem::size_of::<TxRecord>(), 12);
    }

    #[test]
    fn marks_of_peers_in_each_place_are_kept_apart_and_forgotten() {
        let mut r = Records::default();
        let peers = [
            PeerIdx(5),
            PeerIdx(31),
            PeerIdx(32),
            PeerIdx(63),
            PeerIdx(64),
        ];
        for p in peers {
            assert!(r.set(TxId(3), p, Mark::Known));
            assert!(!r.set(TxId(3), p, Mark::Known));
            assert!(r.has(TxId(3), p, Mark::Known));
            assert!(!r.has(TxId(3), p, Mark::Asked));
            assert!(!r.has(TxId(4), p, Mark::Known));
        }
        for (i, &p) in peers.iter().enumerate() {
            r.forget(p);
            assert!(!r.has(TxId(3), p, Mark::Known));
            assert!(peers[i + 1..]
                .iter()
                .all(|&q| r.has(TxId(3), q, Mark::Known)));
        }
    }

    #[test]
    fn a_node_of_few_peers_makes_no_wide_table() {
        let mut r = Records::default();
        for p in 0..32 {
            r.set(TxId(p as u64), PeerIdx(p), Mark::Asked);
        }
        assert!(r.wide.get(TxId(0)).is_none() && r.high.is_empty());
        assert!(r.set(TxId(0), PeerIdx(40), Mark::Asked));
        assert!(r.wide.get(TxId(0)).is_some());
    }
}
