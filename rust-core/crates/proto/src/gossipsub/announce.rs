//! v2.0 announce cache (`acache`): for each message not yet received, the mesh peers that
//! sent IANNOUNCE for it, in arrival order, and the one INEED in flight. When an INEED
//! times out the next announcer is asked; when the message arrives the entry is cleared.
//! Each announcement of a message not received is charged to its announcer until the message
//! comes, the entry expires or the peer leaves: announcements of messages that never come
//! cannot fill the cache for the others.

use crate::pull::Wanted;
use crate::{Budget, Dur, IdMap, Ledger, Over, PeerIdx, Time, TimerId, TimerTable, TxId};

/// Announcers remembered per message; more than a mesh's worth is never useful.
const MAX_ANNOUNCERS: usize = 64;
/// Announcements of messages not received, per peer and in all; beyond these new ones are
/// dropped (and counted).
const BUDGET: Budget = Budget {
    per_peer: 4_096,
    total: 100_000,
};

/// A message announced but not received: its announcers and INEEDs, the bookkeeping the pull
/// protocols keep for a tx they lack (`pull::Wanted`, which cancels an INEED's timeout when
/// the next one goes out).
struct Pending {
    wanted: Wanted,
    created: Time,
}

#[derive(Debug, PartialEq)]
pub(crate) enum Announced {
    /// Send an INEED to this peer now.
    Ask(PeerIdx),
    /// Queued behind an INEED in flight (or a repeat).
    Queued,
    /// The announcer has used its share of the cache.
    OverBudget,
    /// The cache is full.
    Dropped,
}

pub(crate) struct AnnounceCache {
    pending: IdMap<TxId, Pending>,
    charges: Ledger,
}

impl AnnounceCache {
    pub fn new() -> Self {
        AnnounceCache {
            pending: IdMap::default(),
            charges: Ledger::new(BUDGET),
        }
    }

    /// Ends the charges of a pending message's announcers.
    fn refund(charges: &mut Ledger, p: &Pending) {
        for &peer in p.wanted.announcer_list() {
            charges.refund(peer);
        }
    }

    pub fn announce(
        &mut self,
        id: TxId,
        peer: PeerIdx,
        now: Time,
        timers: &mut TimerTable,
    ) -> Announced {
        let listed = self
            .pending
            .get(&id)
            .map(|p| p.wanted.announcers() >= MAX_ANNOUNCERS || p.wanted.announced_by(peer));
        if listed == Some(true) {
            return Announced::Queued;
        }
        match self.charges.charge(peer) {
            Ok(()) => {}
            Err(Over::Peer) => return Announced::OverBudget,
            Err(Over::Total) => return Announced::Dropped,
        }
        let p = self.pending.entry(id).or_insert_with(|| Pending {
            wanted: Wanted::default(),
            created: now,
        });
        p.wanted.add(peer);
        if p.wanted.in_flight.is_some() {
            return Announced::Queued;
        }
        // Announcers that left are forgotten, so every one is up.
        p.wanted
            .ask_next(|_| true, timers)
            .map_or(Announced::Queued, Announced::Ask)
    }

    /// The timeout timer of the INEED just sent for `id`.
    pub fn set_timeout(&mut self, id: TxId, timer: TimerId) {
        if let Some(p) = self.pending.get_mut(&id) {
            p.wanted.set_timeout(timer);
        }
    }

    /// The latest INEED for `id` timed out: returns the peer that failed, and the next
    /// announcer to ask if one is waiting.
    pub fn timeout(
        &mut self,
        id: TxId,
        timers: &mut TimerTable,
    ) -> Option<(PeerIdx, Option<PeerIdx>)> {
        let w = &mut self.pending.get_mut(&id)?.wanted;
        let failed = w.in_flight.take()?;
        Some((failed, w.ask_next(|_| true, timers)))
    }

    /// Forgets a peer's announcements (its index may go to another peer). Where an INEED was
    /// in flight to it, the next announcer is asked at once: the INEEDs to send are appended
    /// to `asks`, in message-id order.
    pub fn forget(
        &mut self,
        peer: PeerIdx,
        asks: &mut Vec<(TxId, PeerIdx)>,
        timers: &mut TimerTable,
    ) {
        self.charges.clear(peer);
        let lists = self.pending.iter_mut().map(|(id, p)| (id, &mut p.wanted));
        for id in crate::pull::forget_peer(lists, peer) {
            if let Some(next) = self
                .pending
                .get_mut(&id)
                .and_then(|p| p.wanted.ask_next(|_| true, timers))
            {
                asks.push((id, next));
            }
        }
    }

    /// The message arrived: no more INEEDs for it.
    pub fn clear(&mut self, id: TxId, timers: &mut TimerTable) {
        if let Some(mut p) = self.pending.remove(&id) {
            p.wanted.cancel_timeout(timers);
            Self::refund(&mut self.charges, &p);
        }
    }

    /// Forgets announcements older than `ttl` whose message never came.
    pub fn expire(&mut self, now: Time, ttl: Dur, timers: &mut TimerTable) {
        if !self.pending.is_empty() {
            let charges = &mut self.charges;
            self.pending.retain(|_, p| {
                let keep = now.since(p.created) < ttl;
                if !keep {
                    p.wanted.cancel_timeout(timers);
                    Self::refund(charges, p);
                }
                keep
            });
        }
    }

    pub fn len(&self) -> usize {
        self.pending.len()
    }

    /// What the cache knows of a message not received yet: announced, or an INEED in flight.
    pub fn status(&self, id: TxId) -> Option<crate::TxStatus> {
        self.pending.get(&id).map(|p| p.wanted.status())
    }

    /// Per peer: messages it announced that we still lack, and INEEDs in flight to it.
    pub fn of_peer(&self, peer: PeerIdx) -> (usize, usize) {
        let mut announced = 0;
        let mut asked = 0;
        for p in self.pending.values() {
            announced += p.wanted.announced_by(peer) as usize;
            asked += (p.wanted.in_flight == Some(peer)) as usize;
        }
        (announced, asked)
    }

    /// Announcements of messages not received, charged to `peer`.
    #[cfg(test)]
    pub fn charged(&self, peer: PeerIdx) -> u32 {
        self.charges.used(peer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_ineed_in_flight_then_the_next_announcer_in_order() {
        let mut t = TimerTable::default();
        let mut a = AnnounceCache::new();
        let id = TxId(5);
        assert_eq!(
            a.announce(id, PeerIdx(2), Time(0), &mut t),
            Announced::Ask(PeerIdx(2))
        );
        let first = t.set();
        a.set_timeout(id, first);
        assert_eq!(
            a.announce(id, PeerIdx(7), Time(1), &mut t),
            Announced::Queued
        );
        assert_eq!(
            a.announce(id, PeerIdx(4), Time(2), &mut t),
            Announced::Queued
        );
        assert_eq!(
            a.announce(id, PeerIdx(7), Time(3), &mut t),
            Announced::Queued,
            "repeats are ignored"
        );
        assert!(t.fire(first));
        assert_eq!(a.timeout(id, &mut t), Some((PeerIdx(2), Some(PeerIdx(7)))));
        let second = t.set();
        a.set_timeout(id, second);
        assert_eq!(a.timeout(id, &mut t), Some((PeerIdx(7), Some(PeerIdx(4)))));
        assert!(
            !t.fire(second),
            "the next INEED cancelled the old one's timeout"
        );
        assert_eq!(a.timeout(id, &mut t), Some((PeerIdx(4), None)));
        assert_eq!(a.timeout(id, &mut t), None, "nothing in flight");
        // A late announcer is asked at once since nothing is in flight.
        assert_eq!(
            a.announce(id, PeerIdx(9), Time(4), &mut t),
            Announced::Ask(PeerIdx(9))
        );
        let last = t.set();
        a.set_timeout(id, last);
        a.clear(id, &mut t);
        assert!(
            !t.fire(last),
            "the message came: its INEED's timeout is cancelled"
        );
        assert_eq!(a.timeout(id, &mut t), None);
        assert_eq!(a.len(), 0);
    }

    #[test]
    fn a_departed_announcer_is_forgotten_and_the_next_one_asked() {
        let mut t = TimerTable::default();
        let mut a = AnnounceCache::new();
        let id = TxId(5);
        a.announce(id, PeerIdx(2), Time(0), &mut t);
        let old = t.set();
        a.set_timeout(id, old);
        a.announce(id, PeerIdx(3), Time(0), &mut t);
        a.announce(TxId(6), PeerIdx(3), Time(0), &mut t);
        let mut asks = Vec::new();
        a.forget(PeerIdx(2), &mut asks, &mut t);
        assert_eq!(asks, vec![(id, PeerIdx(3))]);
        assert!(!t.fire(old), "the old INEED's timer is cancelled");
        asks.clear();
        a.forget(PeerIdx(3), &mut asks, &mut t);
        assert!(asks.is_empty(), "no announcer left");
        // A new peer under index 3 announcing is asked as a first announcer.
        assert_eq!(
            a.announce(TxId(6), PeerIdx(3), Time(1), &mut t),
            Announced::Ask(PeerIdx(3))
        );
    }

    #[test]
    fn one_peer_cannot_fill_the_cache_for_the_others() {
        let mut t = TimerTable::default();
        let mut a = AnnounceCache::new();
        let (spammer, honest) = (PeerIdx(1), PeerIdx(2));
        for i in 0..BUDGET.per_peer as u64 {
            assert_ne!(
                a.announce(TxId(i), spammer, Time(0), &mut t),
                Announced::OverBudget
            );
        }
        assert_eq!(
            a.announce(TxId(1 << 40), spammer, Time(0), &mut t),
            Announced::OverBudget
        );
        assert_eq!(
            a.announce(TxId(1 << 40), honest, Time(0), &mut t),
            Announced::Ask(honest)
        );
        // The honest peer also announcing a spammed id is charged to it, not to the spammer.
        a.announce(TxId(3), honest, Time(0), &mut t);
        assert_eq!(
            (a.charged(spammer), a.charged(honest)),
            (BUDGET.per_peer, 2)
        );
        // A message that arrives ends every charge for it; a peer that leaves, all of its own.
        a.clear(TxId(3), &mut t);
        assert_eq!(
            (a.charged(spammer), a.charged(honest)),
            (BUDGET.per_peer - 1, 1)
        );
        a.forget(spammer, &mut Vec::new(), &mut t);
        assert_eq!(a.charged(spammer), 0);
        a.expire(Time(10), Dur(5), &mut t);
        assert_eq!((a.len(), a.charged(honest)), (0, 0));
    }

    #[test]
    fn old_entries_expire() {
        let mut t = TimerTable::default();
        let mut a = AnnounceCache::new();
        a.announce(TxId(1), PeerIdx(0), Time(0), &mut t);
        a.announce(TxId(2), PeerIdx(0), Time(10), &mut t);
        a.expire(Time(12), Dur(5), &mut t);
        assert_eq!(a.len(), 1);
    }
}
