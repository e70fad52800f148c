//! v1.1 gossip promises: for each IWANT we send, one of the requested ids (chosen at
//! random) must arrive from someone within `iwant_followup`, or the peer that advertised it
//! broke its promise and earns a behaviour penalty. The follow-up time is constant, so the
//! queue is in deadline order and checking it pops only expired promises.

use crate::{PeerIdx, Time, TxId};
use std::collections::VecDeque;

pub(crate) struct Promises {
    queue: VecDeque<(Time, TxId, PeerIdx)>,
}

impl Promises {
    pub fn new() -> Self {
        Promises {
            queue: VecDeque::new(),
        }
    }

    /// Starts loading the oldest promise, which a heartbeat checks.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    pub fn prefetch_heartbeat(&self) {
        if let Some(oldest) = self.queue.front() {
            crate::prefetch::prefetch(oldest);
        }
    }

    pub fn add(&mut self, peer: PeerIdx, id: TxId, deadline: Time) {
        self.queue.push_back((deadline, id, peer));
    }

    /// Appends to `out` the peers whose promises expired by `now` for messages that
    /// `arrived` says never came.
    pub fn broken(&mut self, now: Time, arrived: impl Fn(TxId) -> bool, out: &mut Vec<PeerIdx>) {
        while let Some(&(deadline, id, peer)) = self.queue.front() {
            if deadline > now {
                break;
            }
            self.queue.pop_front();
            if !arrived(id) {
                out.push(peer);
            }
        }
    }

    /// Drops a peer's promises (its index may go to another peer).
    pub fn forget(&mut self, peer: PeerIdx) {
        self.queue.retain(|&(_, _, p)| p != peer);
    }

    /// Promises a peer made that are still due.
    pub fn count_of(&self, peer: PeerIdx) -> usize {
        self.queue.iter().filter(|&&(_, _, p)| p == peer).count()
    }

    pub fn len(&self) -> usize {
        self.queue.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_expired_unfulfilled_promises_break() {
        let mut p = Promises::new();
        p.add(PeerIdx(1), TxId(10), Time(100));
        p.add(PeerIdx(2), TxId(11), Time(100));
        p.add(PeerIdx(3), TxId(12), Time(300));
        let mut out = Vec::new();
        p.broken(Time(99), |_| false, &mut out);
        assert!(out.is_empty());
        p.broken(Time(200), |id| id == TxId(11), &mut out);
        assert_eq!(out, vec![PeerIdx(1)]);
        assert_eq!(p.len(), 1);
        p.forget(PeerIdx(3));
        assert_eq!(p.len(), 0);
    }
}
