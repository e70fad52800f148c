//! v2.0 announce cache (`acache`): for each message not yet received, the mesh peers that
//! sent IANNOUNCE for it, in arrival order, and the one INEED in flight. When an INEED
//! times out the next announcer is asked; when the message arrives the entry is cleared.

use crate::pull::Wanted;
use crate::{Dur, IdMap, PeerIdx, Time, TxId};

/// Announcers remembered per message; more than a mesh's worth is never useful.
const MAX_ANNOUNCERS: usize = 64;
/// Messages pending at once; beyond this new announcements are dropped (and counted).
const MAX_PENDING: usize = 100_000;

/// A message announced but not received: its announcers and INEEDs, the bookkeeping the pull
/// protocols keep for a tx they lack (`pull::Wanted`, whose generation numbers the attempts).
struct Pending {
    wanted: Wanted,
    created: Time,
}

/// An INEED to send: to whom, and the attempt number its timeout timer must carry.
#[derive(Debug, PartialEq)]
pub(crate) struct Ask {
    pub peer: PeerIdx,
    pub attempt: u32,
}

#[derive(Debug, PartialEq)]
pub(crate) enum Announced {
    /// Send an INEED now.
    Ask(Ask),
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

    pub fn announce(&mut self, id: TxId, peer: PeerIdx, now: Time) -> Announced {
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
        Self::ask_next(&mut p.wanted).map_or(Announced::Queued, Announced::Ask)
    }

    /// The next announcer (announcers that left are forgotten, so every one is up).
    fn ask_next(w: &mut Wanted) -> Option<Ask> {
        let peer = w.ask_next(|_| true)?;
        Some(Ask {
            peer,
            attempt: w.generation,
        })
    }

    /// The INEED of `attempt` timed out: returns the peer that failed, and the next INEED
    /// to send if another announcer is waiting. None if the timer is stale.
    pub fn timeout(&mut self, id: TxId, attempt: u32) -> Option<(PeerIdx, Option<Ask>)> {
        let w = &mut self.pending.get_mut(&id)?.wanted;
        if w.generation != attempt {
            return None;
        }
        let failed = w.in_flight.take()?;
        Some((failed, Self::ask_next(w)))
    }

    /// Forgets a peer's announcements (its index may go to another peer). Where an INEED was
    /// in flight to it, the next announcer is asked at once: the INEEDs to send are appended
    /// to `asks`, in message-id order.
    pub fn forget(&mut self, peer: PeerIdx, asks: &mut Vec<(TxId, Ask)>) {
        let lists = self.pending.iter_mut().map(|(id, p)| (id, &mut p.wanted));
        for id in crate::pull::forget_peer(lists, peer) {
            if let Some(ask) = self
                .pending
                .get_mut(&id)
                .and_then(|p| Self::ask_next(&mut p.wanted))
            {
                asks.push((id, ask));
            }
        }
    }

    /// The message arrived: no more INEEDs for it.
    pub fn clear(&mut self, id: TxId) {
        self.pending.remove(&id);
    }

    /// Forgets announcements older than `ttl` whose message never came.
    pub fn expire(&mut self, now: Time, ttl: Dur) {
        if !self.pending.is_empty() {
            self.pending.retain(|_, p| now.since(p.created) < ttl);
        }
    }

    pub fn len(&self) -> usize {
        self.pending.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_ineed_in_flight_then_the_next_announcer_in_order() {
        let mut a = AnnounceCache::new();
        let id = TxId(5);
        assert_eq!(
            a.announce(id, PeerIdx(2), Time(0)),
            Announced::Ask(Ask {
                peer: PeerIdx(2),
                attempt: 1
            })
        );
        assert_eq!(a.announce(id, PeerIdx(7), Time(1)), Announced::Queued);
        assert_eq!(a.announce(id, PeerIdx(4), Time(2)), Announced::Queued);
        assert_eq!(
            a.announce(id, PeerIdx(7), Time(3)),
            Announced::Queued,
            "repeats are ignored"
        );
        assert_eq!(a.timeout(id, 0), None, "a stale timer does nothing");
        assert_eq!(
            a.timeout(id, 1),
            Some((
                PeerIdx(2),
                Some(Ask {
                    peer: PeerIdx(7),
                    attempt: 2
                })
            ))
        );
        assert_eq!(
            a.timeout(id, 2),
            Some((
                PeerIdx(7),
                Some(Ask {
                    peer: PeerIdx(4),
                    attempt: 3
                })
            ))
        );
        assert_eq!(a.timeout(id, 3), Some((PeerIdx(4), None)));
        assert_eq!(a.timeout(id, 3), None);
        // A late announcer is asked at once since nothing is in flight.
        assert_eq!(
            a.announce(id, PeerIdx(9), Time(4)),
            Announced::Ask(Ask {
                peer: PeerIdx(9),
                attempt: 4
            })
        );
        a.clear(id);
        assert_eq!(a.timeout(id, 4), None);
        assert_eq!(a.len(), 0);
    }

    #[test]
    fn a_departed_announcer_is_forgotten_and_the_next_one_asked() {
        let mut a = AnnounceCache::new();
        let id = TxId(5);
        a.announce(id, PeerIdx(2), Time(0));
        a.announce(id, PeerIdx(3), Time(0));
        a.announce(TxId(6), PeerIdx(3), Time(0));
        let mut asks = Vec::new();
        a.forget(PeerIdx(2), &mut asks);
        assert_eq!(
            asks,
            vec![(
                id,
                Ask {
                    peer: PeerIdx(3),
                    attempt: 2
                }
            )]
        );
        assert_eq!(a.timeout(id, 1), None, "the old INEED's timer is stale");
        asks.clear();
        a.forget(PeerIdx(3), &mut asks);
        assert!(asks.is_empty(), "no announcer left");
        // A new peer under index 3 announcing is asked as a first announcer.
        assert_eq!(
            a.announce(TxId(6), PeerIdx(3), Time(1)),
            Announced::Ask(Ask {
                peer: PeerIdx(3),
                attempt: 2
            })
        );
    }

    #[test]
    fn old_entries_expire() {
        let mut a = AnnounceCache::new();
        a.announce(TxId(1), PeerIdx(0), Time(0));
        a.announce(TxId(2), PeerIdx(0), Time(10));
        a.expire(Time(12), Dur(5));
        assert_eq!(a.len(), 1);
    }
}
