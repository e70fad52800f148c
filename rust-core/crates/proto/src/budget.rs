//! Budgets for what remote peers can make a node keep. On a live network any peer can name
//! txs that never come, ask for the same bytes again and again, or reconnect under fresh ids;
//! every structure such input grows is bounded here, per peer and in total, and what is
//! refused or forgotten is counted by the protocol that keeps the structure.
//!
//! - [`Ledger`]: items charged to the peer that made us keep them (a tx it announced that we
//!   lack, a message of it waiting for validation), refunded when the item goes, and all of a
//!   peer's charges cleared when it leaves (its index may go to another peer, which starts
//!   with a clean slate).
//! - [`Recent`]: a set or map that keeps its newest entries only (txs known, bytes already
//!   sent to a peer): past its capacity the oldest are forgotten.
//! - [`RecentTxs`]: the same for a set of tx ids, kept as a [`TxIdSet`]: a bit per simulator
//!   id in place of a hashed entry (77 MB less in a Strokkur run of strokkur-250.json).

use crate::{IdBuild, PeerIdx, TxId, TxIdSet};
use std::collections::{HashMap, VecDeque};
use std::hash::Hash;

/// At most `per_peer` items charged to any one peer, and `total` to all peers together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub per_peer: u32,
    pub total: u32,
}

/// Why a charge was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    /// This peer has used its share.
    Peer,
    /// All peers together have used the whole budget.
    Total,
}

/// Items charged per peer against a [`Budget`].
#[derive(Clone, Debug)]
pub struct Ledger {
    budget: Budget,
    used: Vec<u32>,
    total: u32,
}

impl Ledger {
    pub fn new(budget: Budget) -> Ledger {
        Ledger {
            budget,
            used: Vec::new(),
            total: 0,
        }
    }

    /// Charges one item to `peer`, or says which limit it would break.
    pub fn charge(&mut self, peer: PeerIdx) -> Result<(), Over> {
        if self.used(peer) >= self.budget.per_peer {
            return Err(Over::Peer);
        }
        if self.total >= self.budget.total {
            return Err(Over::Total);
        }
        if self.used.len() <= peer.idx() {
            self.used.resize(peer.idx() + 1, 0);
        }
        self.used[peer.idx()] += 1;
        self.total += 1;
        Ok(())
    }

    /// One item charged to `peer` is gone.
    pub fn refund(&mut self, peer: PeerIdx) {
        if let Some(n) = self.used.get_mut(peer.idx()).filter(|n| **n > 0) {
            *n -= 1;
            self.total -= 1;
        }
    }

    /// The peer left: its charges end with it (the caller forgets the items).
    pub fn clear(&mut self, peer: PeerIdx) {
        if let Some(n) = self.used.get_mut(peer.idx()) {
            self.total -= *n;
            *n = 0;
        }
    }

    pub fn used(&self, peer: PeerIdx) -> u32 {
        self.used.get(peer.idx()).copied().unwrap_or(0)
    }

    pub fn total(&self) -> u32 {
        self.total
    }
}

/// A map that keeps its newest `capacity` entries: inserting a new key beyond that forgets
/// the oldest. With `V = ()` it is a set.
#[derive(Clone, Debug)]
pub struct Recent<K, V = ()> {
    map: HashMap<K, V, IdBuild>,
    /// Keys in insertion order, oldest first (some may have been removed meanwhile).
    order: VecDeque<K>,
    capacity: usize,
    /// Entries forgotten to stay within the capacity.
    pub forgotten: u64,
}

impl<K: Copy + Eq + Hash, V> Recent<K, V> {
    pub fn new(capacity: usize) -> Self {
        Recent {
            map: HashMap::default(),
            order: VecDeque::new(),
            capacity: capacity.max(1),
            forgotten: 0,
        }
    }

    /// Inserts or replaces; a new key may push out the oldest. True if the key was new.
    pub fn insert(&mut self, key: K, value: V) -> bool {
        if self.map.insert(key, value).is_some() {
            return false;
        }
        self.order.push_back(key);
        while self.map.len() > self.capacity {
            let Some(oldest) = self.order.pop_front() else {
                break;
            };
            if self.map.remove(&oldest).is_some() {
                self.forgotten += 1;
            }
        }
        // Removed keys leave stale places in the order; drop them once they dominate.
        if self.order.len() > 2 * self.capacity {
            let map = &self.map;
            self.order.retain(|k| map.contains_key(k));
        }
        true
    }

    pub fn get(&self, key: &K) -> Option<&V> {
        self.map.get(key)
    }

    pub fn contains(&self, key: &K) -> bool {
        self.map.contains_key(key)
    }

    pub fn remove(&mut self, key: &K) -> Option<V> {
        self.map.remove(key)
    }

    /// Keeps the entries `keep` says to (whatever the order it visits them in, the outcome
    /// is the same set).
    pub fn retain(&mut self, keep: impl FnMut(&K, &mut V) -> bool) {
        self.map.retain(keep);
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The newest `n` keys, oldest of them first.
    pub fn newest(&self, n: usize) -> Vec<K> {
        let mut out: Vec<K> = self
            .order
            .iter()
            .rev()
            .filter(|k| self.map.contains_key(k))
            .take(n)
            .copied()
            .collect();
        out.reverse();
        out
    }
}

/// The tx ids seen most recently: the newest `capacity` stay, inserting past that forgets the
/// oldest. `Recent<TxId>` without removal, in a [`TxIdSet`] plus the order they came in.
#[derive(Clone, Debug)]
pub struct RecentTxs {
    known: TxIdSet,
    /// Ids in insertion order, oldest first: exactly the ones in `known`.
    order: VecDeque<TxId>,
    capacity: usize,
    /// Ids forgotten to stay within the capacity.
    pub forgotten: u64,
}

impl RecentTxs {
    pub fn new(capacity: usize) -> Self {
        RecentTxs {
            known: TxIdSet::default(),
            order: VecDeque::new(),
            capacity: capacity.max(1),
            forgotten: 0,
        }
    }

    /// Adds `id`, which may push out the oldest; true if it was new.
    pub fn insert(&mut self, id: TxId) -> bool {
        if !self.known.insert(id) {
            return false;
        }
        self.order.push_back(id);
        if self.order.len() > self.capacity {
            if let Some(oldest) = self.order.pop_front() {
                self.known.remove(oldest);
                self.forgotten += 1;
            }
        }
        true
    }

    pub fn contains(&self, id: TxId) -> bool {
        self.known.contains(id)
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ledger_holds_each_peer_and_all_of_them_to_the_budget() {
        let mut l = Ledger::new(Budget {
            per_peer: 2,
            total: 3,
        });
        let (a, b, c) = (PeerIdx(0), PeerIdx(5), PeerIdx(2));
        assert_eq!(l.charge(a), Ok(()));
        assert_eq!(l.charge(a), Ok(()));
        assert_eq!(l.charge(a), Err(Over::Peer));
        assert_eq!(l.charge(b), Ok(()));
        assert_eq!(l.charge(c), Err(Over::Total));
        l.refund(a);
        assert_eq!(l.charge(c), Ok(()));
        assert_eq!((l.used(a), l.used(b), l.used(c), l.total()), (1, 1, 1, 3));
        l.clear(a);
        l.refund(a); // nothing left to refund: no underflow
        assert_eq!((l.used(a), l.total()), (0, 2));
        l.refund(PeerIdx(99));
        assert_eq!(l.total(), 2);
    }

    #[test]
    fn recent_forgets_the_oldest_beyond_its_capacity() {
        let mut r: Recent<u64> = Recent::new(3);
        for k in 0..5 {
            assert!(r.insert(k, ()));
        }
        assert!(!r.insert(4, ()), "a key already there is not new");
        assert_eq!(r.len(), 3);
        assert!(!r.contains(&0) && !r.contains(&1) && r.contains(&2));
        assert_eq!(r.forgotten, 2);
        // A removed key leaves a stale place in the order: the next eviction skips it.
        r.remove(&3);
        r.insert(5, ());
        r.insert(6, ());
        assert!(r.contains(&4) && r.contains(&5) && r.contains(&6) && !r.contains(&2));
        assert_eq!(r.newest(2), [5, 6]);
        assert_eq!(r.newest(9), [4, 5, 6]);
        // Many removals and inserts keep the order bounded.
        for k in 10..1_000 {
            r.insert(k, ());
            r.remove(&k);
        }
        assert!(r.order.len() <= 2 * 3 + 1, "{}", r.order.len());
    }

    /// `RecentTxs` keeps what `Recent<TxId>` keeps, for dense ids and scattered ones alike.
    #[test]
    fn recent_txs_agrees_with_recent() {
        let mut rng = crate::Rng::from_seed(7);
        for capacity in [1, 3, 64, 1_000] {
            let (mut fast, mut model) = (RecentTxs::new(capacity), Recent::<TxId>::new(capacity));
            for _ in 0..20_000 {
                // Dense ids, repeats among them, and ids past the dense range.
                let r = rng.next_u64();
                let id = TxId(match r % 4 {
                    0 => r >> 40,
                    1 => (r >> 8) % 2_000,
                    _ => (r >> 8) % 300,
                });
                assert_eq!(fast.insert(id), model.insert(id, ()), "insert {id:?}");
                let probe = TxId((rng.next_u64() >> 8) % 2_000);
                assert_eq!(fast.contains(probe), model.contains(&probe), "{probe:?}");
                assert_eq!(fast.len(), model.len());
                assert_eq!(fast.forgotten, model.forgotten);
            }
        }
    }
}
