//! v2.0 announce cache (`acache`): for each message not yet received, the mesh peers that
//! sent IANNOUNCE for it, in arrival order, and the one INEED in flight. When an INEED
//! times out the next announcer is asked; when the message arrives the entry is cleared.

use crate::pull::Wanted;
use crate::{Dur, IdMap, PeerIdx, Time, TimerId, TimerTable, TxId};

/// Announcers remembered per message; more than a mesh's worth is never useful.
const MAX_ANNOUNCERS: usize = 64;
/// Messages pending at once; beyond this new announcements are dropped (and counted).
const MAX_PENDING: usize = 100_000;

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
    /// The cache is full.
    Dropped,
}

pub(crate) struct AnnounceCache {
    pending: IdMap<TxId, Pending>,
}

impl AnnounceCache {
    pub fn new() -> Self {
        AnnounceCache {
            pending: IdMap::default(),
        }
    }

    pub fn announce(
        &mut self,
        id: TxId,
        peer: PeerIdx,
        now: Time,
        timers: &mut TimerTable,
    ) -> Announced {
        if !self.pending.contains_key(&id) && self.pending.len() >= MAX_PENDING {
            return Announced::Dropped;
        }
        let p = self.pending.entry(id).or_insert_with(|| Pending {
            wanted: Wanted::default(),
            created: now,
        });
        if p.wanted.announcers() >= MAX_ANNOUNCERS || !p.wanted.add(peer) {
            return Announced::Queued;
        }
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
        }
    }

    /// Forgets announcements older than `ttl` whose message never came.
    pub fn expire(&mut self, now: Time, ttl: Dur, timers: &mut TimerTable) {
        if !self.pending.is_empty() {
            self.pending.retain(|_, p| {
                let keep = now.since(p.created) < ttl;
                if !keep {
                    p.wanted.cancel_timeout(timers);
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
    fn old_entries_expire() {
        let mut t = TimerTable::default();
        let mut a = AnnounceCache::new();
        a.announce(TxId(1), PeerIdx(0), Time(0), &mut t);
        a.announce(TxId(2), PeerIdx(0), Time(10), &mut t);
        a.expire(Time(12), Dur(5), &mut t);
        assert_eq!(a.len(), 1);
    }
}
