//! What the pull-based protocols (`inv`, `shrec`, `cat`) share: the set of peers that are up
//! (and the session of each index, as indices are reused), the 32-byte hash a tx is named by
//! on the wire, and the bookkeeping of who announced a tx we lack and whom we asked for it.

use crate::peer_list::PeerList;
use crate::{Dur, PeerIdx, TimerId, TimerTable, TxId};

/// The 32-byte hash that names a tx on the wire (Bitcoin's txid, CAT's SHA-256 tx key).
///
/// On a real network `TxId` is a prefix of that hash. In the simulator txs have no content,
/// so the hash is a stand-in: the id's 8 little-endian bytes followed by 24 bytes expanded
/// from the id (SplitMix64), which keeps "the id is the hash prefix" true in both worlds.
pub fn tx_hash(id: TxId) -> [u8; 32] {
    let mut out = [0u8; 32];
    out[..8].copy_from_slice(&id.0.to_le_bytes());
    let mut z = id.0;
    for chunk in out[8..].chunks_exact_mut(8) {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut x = z;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        chunk.copy_from_slice(&(x ^ (x >> 31)).to_le_bytes());
    }
    out
}

/// The `TxId` a 32-byte hash names: its first 8 bytes, little-endian.
pub fn id_of_hash(hash: &[u8; 32]) -> TxId {
    let mut b = [0u8; 8];
    b.copy_from_slice(&hash[..8]);
    TxId(u64::from_le_bytes(b))
}

/// The `TxId` of a tx body made by `Tx::fill_body`: its first 8 bytes, little-endian
/// (zero-padded for bodies shorter than 8 bytes).
pub fn id_of_body(body: &[u8]) -> TxId {
    let mut b = [0u8; 8];
    let n = body.len().min(8);
    b[..n].copy_from_slice(&body[..n]);
    TxId(u64::from_le_bytes(b))
}

/// A duration given in whole milliseconds by a config, saturating instead of overflowing.
pub fn millis(ms: u64) -> Dur {
    Dur::from_micros(ms.saturating_mul(1_000))
}

/// Which peers are connected, indexed by `PeerIdx`, and which session each index is in.
///
/// When a peer leaves, its index may go to the next peer that arrives. Every `PeerUp` starts a
/// new session of the index, so whatever was set up for the old peer and names it by index (a
/// timer) carries a `PeerSession` and can tell, when it comes due, that it no longer applies.
#[derive(Default)]
pub struct Peers {
    up: Vec<bool>,
    sessions: Vec<u32>,
}

/// A peer as it was when something was set up for it: its index and that index's session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PeerSession {
    pub peer: PeerIdx,
    session: u32,
}

impl Peers {
    /// Marks a peer up or down; up starts a new session of its index.
    pub fn set(&mut self, peer: PeerIdx, up: bool) {
        if self.up.len() <= peer.idx() {
            self.up.resize(peer.idx() + 1, false);
            self.sessions.resize(peer.idx() + 1, 0);
        }
        self.up[peer.idx()] = up;
        if up {
            self.sessions[peer.idx()] = self.sessions[peer.idx()].wrapping_add(1);
        }
    }
    pub fn is_up(&self, peer: PeerIdx) -> bool {
        self.up.get(peer.idx()).copied().unwrap_or(false)
    }
    /// The peer now at this index, to be checked later with `is_current`.
    pub fn session(&self, peer: PeerIdx) -> PeerSession {
        PeerSession {
            peer,
            session: self.sessions.get(peer.idx()).copied().unwrap_or(0),
        }
    }
    /// Whether that peer is still connected: up, and no other peer has had its index since.
    pub fn is_current(&self, s: PeerSession) -> bool {
        self.is_up(s.peer) && self.session(s.peer) == s
    }
    /// Connected peers in index order.
    pub fn iter_up(&self) -> impl Iterator<Item = PeerIdx> + '_ {
        self.up
            .iter()
            .enumerate()
            .filter(|(_, &u)| u)
            .map(|(i, _)| PeerIdx(i as u32))
    }
    pub fn count_up(&self) -> usize {
        self.up.iter().filter(|&&u| u).count()
    }
}

/// A tx we lack: the peers that announced it, in the order they did, and how far down
/// that list our requests have gone. `announcers[..next]` are the peers already asked.
#[derive(Default, Debug)]
pub struct Wanted {
    announcers: PeerList,
    next: usize,
    /// Requests sent so far (peers that left are no longer in `announcers[..next]`).
    sent: u32,
    /// The peer whose answer we are waiting for before asking anyone else, if any.
    pub in_flight: Option<PeerIdx>,
    /// The timeout of the latest request; the next request cancels it.
    timeout: Option<TimerId>,
}

impl Wanted {
    /// Records an announcement; false if this peer had already announced the tx.
    pub fn add(&mut self, peer: PeerIdx) -> bool {
        if self.announced_by(peer) {
            return false;
        }
        self.announcers.push(peer);
        true
    }

    /// The peers that announced it, in the order they did (the inspector lists them).
    pub fn announcer_list(&self) -> &[PeerIdx] {
        self.announcers.as_slice()
    }

    /// What a node lacking the tx knows of it: asked someone, or only heard of it.
    pub fn status(&self) -> crate::TxStatus {
        match self.in_flight {
            Some(p) => crate::TxStatus::Requested(p),
            None if self.announcer_list().is_empty() => crate::TxStatus::Unknown,
            None => crate::TxStatus::Announced,
        }
    }

    pub fn announced_by(&self, peer: PeerIdx) -> bool {
        self.announcer_list().contains(&peer)
    }

    /// Whether we have sent this peer a request for the tx (answered or not).
    pub fn asked(&self, peer: PeerIdx) -> bool {
        self.announcer_list()[..self.next].contains(&peer)
    }

    /// How many requests went out so far.
    pub fn requests(&self) -> u32 {
        self.sent
    }

    /// How many peers announced it (and are still remembered).
    pub fn announcers(&self) -> usize {
        self.announcer_list().len()
    }

    /// Picks the next announcer not yet asked that `up` says is still connected, marks the
    /// request as in flight and returns the peer; None when every announcer has been asked.
    /// A new request cancels the previous one's timeout.
    pub fn ask_next(
        &mut self,
        up: impl Fn(PeerIdx) -> bool,
        timers: &mut TimerTable,
    ) -> Option<PeerIdx> {
        while let Some(&p) = self.announcer_list().get(self.next) {
            self.next += 1;
            if up(p) {
                self.requested(p, timers);
                return Some(p);
            }
        }
        self.in_flight = None;
        None
    }

    /// The timeout set for the request just made.
    pub fn set_timeout(&mut self, timer: TimerId) {
        self.timeout = Some(timer);
    }

    /// Withdraws the latest request's timeout, if it has not fired.
    pub fn cancel_timeout(&mut self, timers: &mut TimerTable) {
        if let Some(old) = self.timeout.take() {
            timers.cancel(old);
        }
    }

    fn requested(&mut self, peer: PeerIdx, timers: &mut TimerTable) {
        self.in_flight = Some(peer);
        self.cancel_timeout(timers);
        self.sent = self.sent.saturating_add(1);
    }

    /// Asks one specific announcer (that has not been asked yet), out of order: used when
    /// every announcer is asked as soon as it announces. False if already asked or unknown.
    pub fn ask(&mut self, peer: PeerIdx, timers: &mut TimerTable) -> bool {
        let Some(pos) = self.announcer_list().iter().position(|&p| p == peer) else {
            return false;
        };
        if pos < self.next {
            return false;
        }
        self.announcers.as_mut_slice().swap(pos, self.next);
        self.next += 1;
        self.requested(peer, timers);
        true
    }

    /// Forgets a peer that left (its index may go to another peer): it is no longer an
    /// announcer, asked or not. True if our request to it was in flight: nothing will answer
    /// it, so the caller asks the next announcer (`ask_next`) at once instead of waiting for
    /// the timeout (which, when it comes, finds nothing in flight, or was cancelled).
    pub fn forget(&mut self, peer: PeerIdx) -> bool {
        if let Some(pos) = self.announcer_list().iter().position(|&p| p == peer) {
            self.announcers.remove(pos);
            if pos < self.next {
                self.next -= 1;
            }
        }
        if self.in_flight == Some(peer) {
            self.in_flight = None;
            return true;
        }
        false
    }
}

/// Forgets a peer that left in every list of a protocol's map (`Wanted::forget`) and returns
/// the keys whose request was in flight to it, sorted: the map's order is not deterministic,
/// and what the protocol then sends must be.
pub fn forget_peer<'a, K: Ord + Copy + 'a>(
    lists: impl Iterator<Item = (&'a K, &'a mut Wanted)>,
    peer: PeerIdx,
) -> Vec<K> {
    let mut stalled: Vec<K> = lists
        .filter_map(|(&key, wanted)| wanted.forget(peer).then_some(key))
        .collect();
    stalled.sort_unstable();
    stalled
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_keeps_the_id_as_prefix_and_differs_per_id() {
        let a = tx_hash(TxId(7));
        assert_eq!(id_of_hash(&a), TxId(7));
        assert_ne!(a, tx_hash(TxId(8)));
        assert_ne!(&a[8..16], &a[16..24]);
    }

    #[test]
    fn body_prefix_gives_back_the_id() {
        let mut body = Vec::new();
        crate::Tx {
            id: TxId(0x0102_0304_0506),
            len: 100,
        }
        .fill_body(&mut body);
        assert_eq!(id_of_body(&body), TxId(0x0102_0304_0506));
    }

    #[test]
    fn announcers_are_asked_in_order_skipping_down_peers() {
        let mut peers = Peers::default();
        for p in 0..3 {
            peers.set(PeerIdx(p), true);
        }
        peers.set(PeerIdx(1), false);
        let mut w = Wanted::default();
        assert!(w.add(PeerIdx(2)));
        assert!(w.add(PeerIdx(1)));
        assert!(w.add(PeerIdx(0)));
        assert!(
            !w.add(PeerIdx(2)),
            "a second announcement is not a new announcer"
        );
        let mut timers = TimerTable::default();
        assert_eq!(
            w.ask_next(|p| peers.is_up(p), &mut timers),
            Some(PeerIdx(2))
        );
        let first = timers.set();
        w.set_timeout(first);
        assert_eq!(
            w.ask_next(|p| peers.is_up(p), &mut timers),
            Some(PeerIdx(0)),
            "peer 1 is down and skipped"
        );
        assert!(
            !timers.fire(first),
            "the new request cancelled the old timeout"
        );
        assert_eq!(w.ask_next(|p| peers.is_up(p), &mut timers), None);
        assert_eq!(w.in_flight, None);
        assert!(w.asked(PeerIdx(2)) && w.asked(PeerIdx(0)));
    }

    #[test]
    fn a_session_ends_when_its_peer_leaves_even_if_the_index_is_reused() {
        let mut peers = Peers::default();
        let p = PeerIdx(3);
        peers.set(p, true);
        let first = peers.session(p);
        assert!(peers.is_current(first));
        peers.set(p, false);
        assert!(!peers.is_current(first));
        peers.set(p, true);
        assert!(!peers.is_current(first), "another peer has the index");
        assert!(peers.is_current(peers.session(p)));
    }

    #[test]
    fn a_forgotten_announcer_is_neither_asked_nor_waited_for() {
        let mut peers = Peers::default();
        for p in 0..3 {
            peers.set(PeerIdx(p), true);
        }
        let mut w = Wanted::default();
        let mut timers = TimerTable::default();
        for p in [0, 1, 2] {
            w.add(PeerIdx(p));
        }
        assert_eq!(
            w.ask_next(|p| peers.is_up(p), &mut timers),
            Some(PeerIdx(0))
        );
        assert!(!w.forget(PeerIdx(2)), "nothing was in flight to it");
        assert!(w.forget(PeerIdx(0)), "the request to it was in flight");
        assert_eq!(w.in_flight, None);
        assert!(!w.announced_by(PeerIdx(0)) && !w.asked(PeerIdx(0)));
        // A new peer at index 0 announces: it is a new announcer, asked after peer 1.
        assert!(w.add(PeerIdx(0)));
        assert_eq!(
            w.ask_next(|p| peers.is_up(p), &mut timers),
            Some(PeerIdx(1))
        );
        assert_eq!(
            w.ask_next(|p| peers.is_up(p), &mut timers),
            Some(PeerIdx(0))
        );
        assert_eq!(w.ask_next(|p| peers.is_up(p), &mut timers), None);
        assert_eq!(w.requests(), 3);
    }

    #[test]
    fn forgetting_everywhere_names_the_stalled_keys_in_order() {
        let mut lists: crate::IdMap<u32, Wanted> = crate::IdMap::default();
        let mut peers = Peers::default();
        peers.set(PeerIdx(0), true);
        let mut timers = TimerTable::default();
        for key in [9, 4, 7, 1] {
            let w = lists.entry(key).or_default();
            w.add(PeerIdx(0));
            if key != 7 {
                w.ask(PeerIdx(0), &mut timers);
            }
        }
        let stalled = forget_peer(lists.iter_mut(), PeerIdx(0));
        assert_eq!(stalled, [1, 4, 9]);
        assert!(lists.values().all(|w| !w.announced_by(PeerIdx(0))));
    }

    #[test]
    fn asking_out_of_order_marks_only_that_peer() {
        let mut w = Wanted::default();
        let mut timers = TimerTable::default();
        w.add(PeerIdx(4));
        w.add(PeerIdx(5));
        assert!(w.ask(PeerIdx(5), &mut timers));
        assert!(!w.ask(PeerIdx(5), &mut timers));
        assert!(w.asked(PeerIdx(5)) && !w.asked(PeerIdx(4)));
        assert_eq!(w.requests(), 1);
    }
}
