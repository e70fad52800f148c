//! `inv`: Bitcoin-style hash flooding (seed `004` §2.1). A node that accepts a tx announces
//! its hash (`inv`) to every peer not known to have it after a random delay; a node that
//! hears of a hash it lacks asks for it (`getdata`); requests are answered with the tx.
//!
//! The delay is either Bitcoin Core's per-peer Poisson timer (hashes queue up and leave
//! together when it fires) or, as in `004`'s Fig. 6 sweep, a uniform jitter per hash and peer.
//!
//! As `004` models Bitcoin, a node asks every announcer that announces before the tx has
//! arrived. Two options follow the neo-go change notes (seed `003`) and the issue:
//! - `fail_fast`: a tx that arrives while another copy is being verified, or is already held,
//!   is dropped instead of being verified again (`inv.fail_fast_drops` counts the savings);
//! - `dedup_requests`: a hash already requested (or being verified) is not requested from
//!   another announcer (`inv.requests_saved`); if no tx comes within `retry_timeout_ms`, the
//!   next announcer is asked (`inv.retries`).
//!
//! Verification takes `validate_ms` per copy. `inv.verifications` counts every copy
//! verified, `inv.txs_processed_twice` every (node, tx) verified more than once.
//!
//! Adversaries (`NodeSetup.behaviour`): `Silent` sends nothing; `WithholdOnRequest` announces
//! but never answers a request; `DelayReplies` answers late; `Spam` also pushes every new tx in
//! full to the peers not known to have it; `Censor` leaves a share of txs out of everything.

pub mod counters;
mod jitter;
mod msg;
mod record;
mod state;

pub use msg::{
    compact_size_len, InvMsg, HEADER_LEN, INV_VECTOR_LEN, MAX_INV_ENTRIES, MAX_PAYLOAD_BYTES,
};

use crate::pull::{forget_peer, millis, PeerSession, Peers, Wanted};
use crate::{Behaviour, Ctx, Dur, Few, IdMap, Input, NodeSetup, PeerIdx, Protocol, Tx, TxId};
use crate::{Cell, Detail, Table, Time, TimerNote, TxStatus};
use record::{Mark, Records};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// When a node announces a hash to a peer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Trickle {
    /// Bitcoin Core: each peer has a Poisson timer; when it fires, every hash queued for that
    /// peer leaves in one inv. Means: 2 s to outbound peers, 5 s to inbound ones.
    Poisson { mean_ms: f64 },
    /// `004` Fig. 6: each hash waits a uniform random delay in [0, max_ms] per peer.
    UniformJitter { max_ms: f64 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct InvConfig {
    pub trickle: Trickle,
    /// neo-go: drop a tx already being verified or held instead of verifying it again.
    pub fail_fast: bool,
    /// Never request a hash already requested from another peer; retry after a timeout.
    pub dedup_requests: bool,
    /// With `dedup_requests`, ask the next announcer after this long (Bitcoin Core: 60 s).
    pub retry_timeout_ms: u64,
    /// Time to verify one copy of a tx (0: at once).
    pub validate_ms: f64,
    /// Largest tx accepted; bigger ones are dropped and counted (`inv.oversized_txs`).
    /// Default: Bitcoin's largest message payload, 4 MB.
    pub max_tx_bytes: u32,
}

impl Default for InvConfig {
    fn default() -> Self {
        InvConfig {
            trickle: Trickle::Poisson { mean_ms: 2_000.0 },
            fail_fast: false,
            dedup_requests: false,
            retry_timeout_ms: 60_000,
            validate_ms: 0.0,
            max_tx_bytes: MAX_PAYLOAD_BYTES as u32,
        }
    }
}

/// Timers that name a peer carry its session: one set for a peer that has left does nothing,
/// even if another peer has its index by then.
pub enum InvTimer {
    /// A peer's Poisson timer: send its queued hashes.
    Trickle(PeerSession),
    /// Announce a hash to a peer, its turn in the tx's chain of announcements (uniform
    /// jitter, `jitter.rs`; `key` gives the chain's delays).
    Announce {
        tx: TxId,
        peer: PeerSession,
        key: u32,
    },
    /// A request may have gone unanswered (`dedup_requests`).
    Retry(TxId),
    /// One copy of a tx has been verified.
    Verified(Tx),
    /// A delayed answer (DelayReplies adversary). The tx's fields side by side: the timer
    /// takes 24 bytes instead of 32, and every event in the simulator's queue with it.
    Reply { to: PeerSession, id: TxId, len: u32 },
}

/// A tx the node lacks: the peers known to have it, in order, and whom it asked; and how many
/// of its copies are being verified (which matters only until the node holds it).
#[derive(Default)]
struct Lacking {
    known: Wanted,
    /// Saturates: only 65,535 copies of one tx at once would reach it.
    verifying: u16,
}

pub struct Inv {
    cfg: InvConfig,
    behaviour: Behaviour,
    peers: Peers,
    /// Every tx the node has held or received a copy of (`record.rs`).
    txs: Records,
    /// Txs it lacks that a peer announced or sent. Handed over to the record's marks once it
    /// holds the tx.
    fetching: IdMap<TxId, Lacking>,
    held: usize,
    /// Hashes waiting for each peer's Poisson timer, and whether that timer is armed.
    queued: Vec<Vec<TxId>>,
    armed: Vec<bool>,
    /// When each peer index's current session began: a tx's jitter chain skips peers that
    /// connected after it was announced.
    up_since: Vec<Time>,
}

impl Inv {
    fn may_send_about(&self, tx: TxId) -> bool {
        self.behaviour != Behaviour::Silent && !self.behaviour.censors(tx)
    }

    fn hold(&mut self, tx: Tx, cx: &mut Ctx<'_, Self>) {
        self.txs.hold(tx);
        self.held += 1;
        // The announcers' order matters no more: keep who is known to have it, and whom we asked.
        if let Some(Lacking { known, .. }) = self.fetching.remove(&tx.id) {
            for &p in known.announcer_list() {
                self.txs.set(tx.id, p, Mark::Known);
                if known.asked(p) {
                    self.txs.set(tx.id, p, Mark::Asked);
                }
            }
        }
        cx.deliver(tx);
        if !self.may_send_about(tx.id) {
            return;
        }
        if self.behaviour == Behaviour::Spam {
            // Push the tx in full, unasked, to every peer not known to have it.
            for p in self.peers.iter_up() {
                if !self.txs.has(tx.id, p, Mark::Known) {
                    cx.send(p, InvMsg::Tx(tx));
                }
            }
        }
        self.announce(tx.id, cx);
    }

    fn announce(&mut self, id: TxId, cx: &mut Ctx<'_, Self>) {
        if let Trickle::UniformJitter { max_ms } = self.cfg.trickle {
            if max_ms > 0.0 {
                let key = cx.rng.next_u32();
                self.jitter_chain(id, key, cx.now, None, max_ms, cx);
                return;
            }
        }
        let targets: Vec<PeerIdx> = self
            .peers
            .iter_up()
            .filter(|&p| !self.txs.has(id, p, Mark::Known))
            .collect();
        for p in targets {
            match self.cfg.trickle {
                Trickle::Poisson { mean_ms } => {
                    if self.queued.len() <= p.idx() {
                        self.queued.resize_with(p.idx() + 1, Vec::new);
                        self.armed.resize(p.idx() + 1, false);
                    }
                    self.queued[p.idx()].push(id);
                    if !self.armed[p.idx()] {
                        self.armed[p.idx()] = true;
                        let wait = Dur::from_millis_f64(cx.rng.exponential(mean_ms));
                        cx.set_timer_in(wait, InvTimer::Trickle(self.peers.session(p)));
                    }
                }
                // Without jitter, at once (with it, `jitter_chain`).
                Trickle::UniformJitter { .. } => self.send_inv(p, id.into(), cx),
            }
        }
    }

    /// Goes down the chain of `id`'s announcements (announced at `at`, delays from `key`)
    /// from the turn `after`: sends those due by now and sets the timer of the next. The
    /// peers are those up since `at` that are not known to have the tx.
    fn jitter_chain(
        &mut self,
        id: TxId,
        key: u32,
        at: Time,
        mut after: Option<(Dur, PeerIdx)>,
        max_ms: f64,
        cx: &mut Ctx<'_, Self>,
    ) {
        loop {
            let candidates = self.peers.iter_up().filter(|&p| {
                self.up_since.get(p.idx()).is_some_and(|&t| t <= at)
                    && !self.txs.has(id, p, Mark::Known)
            });
            let Some((wait, p)) =
                jitter::next_turn(candidates, after, |p| jitter::delay(key, p, max_ms))
            else {
                return;
            };
            if at + wait > cx.now {
                let peer = self.peers.session(p);
                cx.set_timer(at + wait, InvTimer::Announce { tx: id, peer, key });
                return;
            }
            self.send_inv(p, id.into(), cx);
            after = Some((wait, p));
        }
    }

    /// A peer's turn in a tx's jitter chain: announces to it if it is still the peer the
    /// turn was for, and goes on down the chain.
    fn on_jitter_turn(&mut self, id: TxId, peer: PeerSession, key: u32, cx: &mut Ctx<'_, Self>) {
        let Trickle::UniformJitter { max_ms } = self.cfg.trickle else {
            return;
        };
        let wait = jitter::delay(key, peer.peer, max_ms);
        if self.peers.is_current(peer) {
            self.send_inv(peer.peer, id.into(), cx);
        }
        let at = jitter::announced_at(cx.now, wait);
        self.jitter_chain(id, key, at, Some((wait, peer.peer)), max_ms, cx);
    }

    /// Sends the hashes the peer is still not known to have, and marks it as having them.
    fn send_inv(&mut self, peer: PeerIdx, mut ids: Few<TxId>, cx: &mut Ctx<'_, Self>) {
        if !self.peers.is_up(peer) {
            return;
        }
        // Filtered in place (most invs name one hash): the node may have turned silent or
        // censoring since it queued them; then what the peer is not known to have (only held
        // txs are queued for announcing).
        ids.retain(|id| self.may_send_about(id));
        ids.retain(|id| self.txs.set(id, peer, Mark::Known));
        if ids.len() <= MAX_INV_ENTRIES {
            if !ids.is_empty() {
                cx.send(peer, InvMsg::Inv(ids));
            }
            return;
        }
        for chunk in ids.chunks(MAX_INV_ENTRIES) {
            cx.send(peer, InvMsg::Inv(chunk.to_vec().into()));
        }
    }

    fn on_inv(&mut self, from: PeerIdx, ids: Few<TxId>, cx: &mut Ctx<'_, Self>) {
        if ids.len() > MAX_INV_ENTRIES {
            cx.count(&counters::OVERSIZED_INV, 1);
            cx.disconnect(from);
            return;
        }
        let mut want = Few::default();
        for &id in ids.iter() {
            if self.txs.get(id).held() {
                if !self.txs.set(id, from, Mark::Known) {
                    cx.count(&counters::DUPLICATE_INV, 1);
                }
                continue;
            }
            let lacking = self.fetching.entry(id).or_default();
            if !lacking.known.add(from) {
                cx.count(&counters::DUPLICATE_INV, 1);
            }
            let busy = lacking.verifying > 0 || lacking.known.in_flight.is_some();
            if self.cfg.dedup_requests && busy {
                cx.count(&counters::REQUESTS_SAVED, 1);
                continue;
            }
            if lacking.known.ask(from, cx.timers) {
                want.push(id);
            }
        }
        if want.is_empty() || self.behaviour == Behaviour::Silent {
            return;
        }
        cx.count(&counters::REQUESTS, want.len() as u64);
        if self.cfg.dedup_requests {
            let wait = millis(self.cfg.retry_timeout_ms);
            for &tx in want.iter() {
                let timeout = cx.set_timer_in(wait, InvTimer::Retry(tx));
                if let Some(lacking) = self.fetching.get_mut(&tx) {
                    lacking.known.set_timeout(timeout);
                }
            }
        }
        cx.send(from, InvMsg::GetData(want));
    }

    fn on_get_data(&mut self, from: PeerIdx, ids: Few<TxId>, cx: &mut Ctx<'_, Self>) {
        if ids.len() > MAX_INV_ENTRIES {
            cx.count(&counters::OVERSIZED_INV, 1);
            cx.disconnect(from);
            return;
        }
        for &id in ids.iter() {
            let Some(len) = self.txs.held_len(id) else {
                cx.count(&counters::GETDATA_UNKNOWN, 1);
                continue;
            };
            if !self.may_send_about(id) {
                continue;
            }
            let tx = Tx { id, len };
            match self.behaviour {
                Behaviour::WithholdOnRequest => {}
                Behaviour::DelayReplies { delay_ms } => {
                    cx.set_timer_in(
                        Dur::from_millis_f64(delay_ms),
                        InvTimer::Reply {
                            to: self.peers.session(from),
                            id: tx.id,
                            len: tx.len,
                        },
                    );
                }
                _ => cx.send(from, InvMsg::Tx(tx)),
            }
        }
    }

    fn on_tx(&mut self, from: PeerIdx, tx: Tx, cx: &mut Ctx<'_, Self>) {
        if tx.len > self.cfg.max_tx_bytes {
            cx.count(&counters::OVERSIZED_TXS, 1);
            return;
        }
        let fail_fast = self.cfg.fail_fast;
        // With fail-fast, a copy of a tx held or being verified is dropped.
        let (requested, dropped) = if self.txs.get(tx.id).held() {
            let asked = self.txs.has(tx.id, from, Mark::Asked);
            self.txs.set(tx.id, from, Mark::Known);
            (asked, fail_fast)
        } else {
            let lacking = self.fetching.entry(tx.id).or_default();
            let asked = lacking.known.asked(from);
            lacking.known.add(from);
            if lacking.known.in_flight == Some(from) {
                lacking.known.in_flight = None;
            }
            let dropped = fail_fast && lacking.verifying > 0;
            if !dropped {
                lacking.verifying = lacking.verifying.saturating_add(1);
            }
            (asked, dropped)
        };
        if !requested {
            cx.count(&counters::UNREQUESTED_TXS, 1);
        }
        if dropped {
            cx.count(&counters::FAIL_FAST_DROPS, 1);
            return;
        }
        // Counted up to 3: the second copy is counted once, and later ones are not.
        let copies = self.txs.entry(tx.id).add_copy();
        cx.count(&counters::VERIFICATIONS, 1);
        if copies == 2 {
            cx.count(&counters::TXS_PROCESSED_TWICE, 1);
        }
        if self.cfg.validate_ms > 0.0 {
            cx.set_timer_in(
                Dur::from_millis_f64(self.cfg.validate_ms),
                InvTimer::Verified(tx),
            );
        } else {
            self.on_verified(tx, cx);
        }
    }

    fn on_verified(&mut self, tx: Tx, cx: &mut Ctx<'_, Self>) {
        // Copies of a tx held already are not counted (see `Lacking`).
        if let Some(lacking) = self.fetching.get_mut(&tx.id) {
            lacking.verifying = lacking.verifying.saturating_sub(1);
        }
        if !self.txs.get(tx.id).held() {
            self.hold(tx, cx);
        }
    }

    fn on_retry(&mut self, id: TxId, cx: &mut Ctx<'_, Self>) {
        let Some(lacking) = self.fetching.get_mut(&id) else {
            return;
        };
        if lacking.verifying > 0 || lacking.known.in_flight.take().is_none() {
            return;
        }
        self.request_next(id, cx);
    }

    /// Asks the next announcer of a tx we lack, after a request went unanswered or the peer
    /// it went to left.
    fn request_next(&mut self, id: TxId, cx: &mut Ctx<'_, Self>) {
        if self.behaviour == Behaviour::Silent {
            return;
        }
        let Some(Lacking { known, .. }) = self.fetching.get_mut(&id) else {
            return;
        };
        match known.ask_next(|p| self.peers.is_up(p), cx.timers) {
            Some(p) => {
                cx.count(&counters::RETRIES, 1);
                cx.count(&counters::REQUESTS, 1);
                cx.send(p, InvMsg::GetData(id.into()));
                let wait = millis(self.cfg.retry_timeout_ms);
                known.set_timeout(cx.set_timer_in(wait, InvTimer::Retry(id)));
            }
            None => cx.count(&counters::NO_PEER_FOR_TX, 1),
        }
    }

    /// A peer left, and its index may go to another: forget its queued hashes and every list
    /// it is in (its stale timers find another session). With `dedup_requests`, a tx whose
    /// request was in flight to it is asked of the next announcer at once.
    fn on_peer_down(&mut self, p: PeerIdx, cx: &mut Ctx<'_, Self>) {
        self.peers.set(p, false);
        if let Some(queued) = self.queued.get_mut(p.idx()) {
            queued.clear();
            self.armed[p.idx()] = false;
        }
        self.txs.forget(p);
        let stalled = forget_peer(
            self.fetching.iter_mut().map(|(id, l)| (id, &mut l.known)),
            p,
        );
        if !self.cfg.dedup_requests || self.behaviour == Behaviour::Silent {
            // Every announcer was asked as it announced, or none is asked at all.
            return;
        }
        for id in stalled {
            if self.fetching.get(&id).is_some_and(|l| l.verifying == 0) {
                self.request_next(id, cx);
            }
        }
    }

    /// A peer's Poisson timer: its queued hashes leave, unless it is another peer's by now.
    fn on_trickle_timer(&mut self, peer: PeerSession, cx: &mut Ctx<'_, Self>) {
        if !self.peers.is_current(peer) {
            return;
        }
        let p = peer.peer;
        self.armed[p.idx()] = false;
        let ids = std::mem::take(&mut self.queued[p.idx()]);
        self.send_inv(p, ids.into(), cx);
    }
}

impl Protocol for Inv {
    type Msg = InvMsg;
    type Timer = InvTimer;
    type Config = InvConfig;

    /// Larger txs are dropped (`max_tx_bytes`).
    fn max_tx_bytes(config: &InvConfig) -> Option<usize> {
        Some(config.max_tx_bytes as usize)
    }

    fn new(config: &InvConfig, setup: &NodeSetup) -> Self {
        Inv {
            cfg: config.clone(),
            behaviour: setup.behaviour.clone(),
            peers: Peers::default(),
            txs: Records::default(),
            fetching: IdMap::default(),
            held: 0,
            queued: Vec::new(),
            armed: Vec::new(),
            up_since: Vec::new(),
        }
    }

    fn handle(&mut self, input: Input<InvMsg, InvTimer>, cx: &mut Ctx<'_, Self>) {
        match input {
            Input::PeerUp(p) => {
                self.peers.set(p, true);
                if self.up_since.len() <= p.idx() {
                    self.up_since.resize(p.idx() + 1, Time::ZERO);
                }
                self.up_since[p.idx()] = cx.now;
            }
            Input::PeerDown(p) => self.on_peer_down(p, cx),
            Input::Submit(tx) => {
                if !self.txs.get(tx.id).held() {
                    self.hold(tx, cx);
                }
            }
            Input::Message(from, msg) => match msg {
                InvMsg::Inv(ids) => self.on_inv(from, ids, cx),
                InvMsg::GetData(ids) => self.on_get_data(from, ids, cx),
                InvMsg::Tx(tx) => self.on_tx(from, tx, cx),
            },
            Input::Timer(t) => match t {
                InvTimer::Trickle(peer) => self.on_trickle_timer(peer, cx),
                InvTimer::Announce { tx, peer, key } => self.on_jitter_turn(tx, peer, key, cx),
                InvTimer::Retry(tx) => self.on_retry(tx, cx),
                InvTimer::Verified(tx) => self.on_verified(tx, cx),
                InvTimer::Reply { to, id, len } => {
                    if self.peers.is_current(to) && self.may_send_about(id) {
                        cx.send(to.peer, InvMsg::Tx(Tx { id, len }));
                    }
                }
            },
        }
    }

    /// The hashes a message names, which `warm` reads.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    fn warm_message(msg: &InvMsg) {
        if let InvMsg::Inv(ids) | InvMsg::GetData(ids) = msg {
            crate::prefetch::prefetch(ids.as_ptr());
        }
    }

    /// The record of the (first) tx a message is about. Not on WebAssembly, where a warm is a
    /// load (see `Strokkur::warm`).
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    fn warm(&self, _from: PeerIdx, msg: &InvMsg) {
        let first = match msg {
            InvMsg::Inv(ids) | InvMsg::GetData(ids) => ids.first().copied(),
            InvMsg::Tx(tx) => Some(tx.id),
        };
        if let Some(id) = first {
            self.txs.prefetch(id);
        }
    }

    /// The record of the tx a timer is about.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    fn warm_timer(&self, timer: &InvTimer) {
        if let Some(id) = Self::describe_timer(timer).tx {
            self.txs.prefetch(id);
        }
    }

    fn set_behaviour(&mut self, behaviour: &Behaviour, _: &mut Ctx<'_, Self>) {
        self.behaviour = behaviour.clone();
    }

    fn tx_status(&self, tx: TxId) -> TxStatus {
        if self.txs.get(tx).held() {
            return TxStatus::Have;
        }
        match self.fetching.get(&tx) {
            Some(lacking) if lacking.verifying > 0 => TxStatus::Verifying,
            Some(lacking) => lacking.known.status(),
            None => TxStatus::Unknown,
        }
    }

    fn describe_timer(timer: &InvTimer) -> TimerNote {
        match timer {
            InvTimer::Trickle(_) => TimerNote::of("trickle", None),
            InvTimer::Announce { tx, .. } => TimerNote::of("announce", Some(*tx)),
            InvTimer::Retry(tx) => TimerNote::of("retry", Some(*tx)),
            InvTimer::Verified(tx) => TimerNote::of("verified", Some(tx.id)),
            InvTimer::Reply { id, .. } => TimerNote::of("delayed reply", Some(*id)),
        }
    }

    /// The txs this node lacks: whom it asked, who announced them; and the hashes queued
    /// for each peer's trickle.
    fn detail(&self, _now: Time) -> Detail {
        let mut wants = Table::new(
            "requests in flight",
            &["requested from", "announced by", "copies verifying"],
        );
        // The txs it lacks are those being fetched.
        let mut ids: Vec<TxId> = self.fetching.keys().copied().collect();
        ids.sort_unstable();
        for id in ids {
            let Lacking { known, verifying } = &self.fetching[&id];
            let from = known.in_flight.map_or(Cell::from("-"), Cell::Peer);
            let by = Cell::Peers(known.announcer_list().to_vec());
            wants.tx(id, vec![from, by, Cell::from(*verifying as usize)]);
        }
        let mut queued = Table::new("hashes queued for the trickle", &["hashes"]);
        for (p, q) in self.queued.iter().enumerate() {
            if !q.is_empty() {
                queued.peer(PeerIdx(p as u32), vec![Cell::from(q.len())]);
            }
        }
        Detail {
            groups: Vec::new(),
            tables: vec![wants, queued],
        }
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        vec![
            ("txs held", self.held.to_string()),
            ("txs tracked", (self.held + self.fetching.len()).to_string()),
            ("peers up", self.peers.count_up().to_string()),
        ]
    }
}

#[cfg(test)]
mod tests;
