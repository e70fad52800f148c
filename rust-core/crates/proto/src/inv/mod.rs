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
mod msg;

pub use msg::{
    compact_size_len, InvMsg, HEADER_LEN, INV_VECTOR_LEN, MAX_INV_ENTRIES, MAX_PAYLOAD_BYTES,
};

use crate::pull::{forget_peer, millis, PeerSession, Peers, Wanted};
use crate::{Behaviour, Ctx, Dur, IdMap, Input, NodeSetup, PeerIdx, Protocol, Tx, TxId};
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
    /// Announce one hash to one peer (uniform jitter).
    Announce { tx: TxId, peer: PeerSession },
    /// A request may have gone unanswered (`dedup_requests`).
    Retry(TxId),
    /// One copy of a tx has been verified.
    Verified(Tx),
    /// A delayed answer (DelayReplies adversary).
    Reply { to: PeerSession, tx: Tx },
}

#[derive(Default)]
struct TxState {
    /// Peers known to have the tx: they announced or sent it, or we did to them.
    known: Wanted,
    verifying: u32,
    verified_copies: u32,
    held: bool,
}

pub struct Inv {
    cfg: InvConfig,
    behaviour: Behaviour,
    peers: Peers,
    txs: IdMap<TxId, TxState>,
    held: IdMap<TxId, u32>,
    /// Hashes waiting for each peer's Poisson timer, and whether that timer is armed.
    queued: Vec<Vec<TxId>>,
    armed: Vec<bool>,
}

impl Inv {
    fn may_send_about(&self, tx: TxId) -> bool {
        self.behaviour != Behaviour::Silent && !self.behaviour.censors(tx)
    }

    fn hold(&mut self, tx: Tx, cx: &mut Ctx<'_, Self>) {
        self.held.insert(tx.id, tx.len);
        self.txs.entry(tx.id).or_default().held = true;
        cx.deliver(tx);
        if !self.may_send_about(tx.id) {
            return;
        }
        if self.behaviour == Behaviour::Spam {
            // Push the tx in full, unasked, to every peer not known to have it.
            let known = &self.txs[&tx.id].known;
            for p in self.peers.iter_up().filter(|&p| !known.announced_by(p)) {
                cx.send(p, InvMsg::Tx(tx));
            }
        }
        self.announce(tx.id, cx);
    }

    fn announce(&mut self, id: TxId, cx: &mut Ctx<'_, Self>) {
        let known = &self.txs[&id].known;
        let targets: Vec<PeerIdx> = self
            .peers
            .iter_up()
            .filter(|&p| !known.announced_by(p))
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
                Trickle::UniformJitter { max_ms } => {
                    let wait = Dur::from_millis_f64(cx.rng.unit() * max_ms);
                    if wait == Dur::ZERO {
                        self.send_inv(p, vec![id], cx);
                    } else {
                        let peer = self.peers.session(p);
                        cx.set_timer_in(wait, InvTimer::Announce { tx: id, peer });
                    }
                }
            }
        }
    }

    /// Sends the hashes the peer is still not known to have, and marks it as having them.
    fn send_inv(&mut self, peer: PeerIdx, ids: Vec<TxId>, cx: &mut Ctx<'_, Self>) {
        if !self.peers.is_up(peer) {
            return;
        }
        let mut fresh = Vec::with_capacity(ids.len());
        for id in ids {
            // The node may have turned silent or censoring since it queued them.
            if !self.may_send_about(id) {
                continue;
            }
            if let Some(s) = self.txs.get_mut(&id) {
                if s.known.add(peer) {
                    fresh.push(id);
                }
            }
        }
        for chunk in fresh.chunks(MAX_INV_ENTRIES) {
            cx.send(peer, InvMsg::Inv(chunk.to_vec()));
        }
    }

    fn on_inv(&mut self, from: PeerIdx, ids: Vec<TxId>, cx: &mut Ctx<'_, Self>) {
        if ids.len() > MAX_INV_ENTRIES {
            cx.count(&counters::OVERSIZED_INV, 1);
            cx.disconnect(from);
            return;
        }
        let mut want = Vec::new();
        for id in ids {
            let s = self.txs.entry(id).or_default();
            if !s.known.add(from) {
                cx.count(&counters::DUPLICATE_INV, 1);
            }
            if s.held {
                continue;
            }
            let busy = s.verifying > 0 || s.known.in_flight.is_some();
            if self.cfg.dedup_requests && busy {
                cx.count(&counters::REQUESTS_SAVED, 1);
                continue;
            }
            if s.known.ask(from, cx.timers) {
                want.push(id);
            }
        }
        if want.is_empty() || self.behaviour == Behaviour::Silent {
            return;
        }
        cx.count(&counters::REQUESTS, want.len() as u64);
        if self.cfg.dedup_requests {
            let wait = millis(self.cfg.retry_timeout_ms);
            for &tx in &want {
                let timeout = cx.set_timer_in(wait, InvTimer::Retry(tx));
                if let Some(s) = self.txs.get_mut(&tx) {
                    s.known.set_timeout(timeout);
                }
            }
        }
        cx.send(from, InvMsg::GetData(want));
    }

    fn on_get_data(&mut self, from: PeerIdx, ids: Vec<TxId>, cx: &mut Ctx<'_, Self>) {
        if ids.len() > MAX_INV_ENTRIES {
            cx.count(&counters::OVERSIZED_INV, 1);
            cx.disconnect(from);
            return;
        }
        for id in ids {
            let Some(&len) = self.held.get(&id) else {
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
                            tx,
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
        let s = self.txs.entry(tx.id).or_default();
        if !s.known.asked(from) {
            cx.count(&counters::UNREQUESTED_TXS, 1);
        }
        s.known.add(from);
        if s.known.in_flight == Some(from) {
            s.known.in_flight = None;
        }
        if self.cfg.fail_fast && (s.held || s.verifying > 0) {
            cx.count(&counters::FAIL_FAST_DROPS, 1);
            return;
        }
        s.verifying += 1;
        s.verified_copies += 1;
        cx.count(&counters::VERIFICATIONS, 1);
        if s.verified_copies == 2 {
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
        let Some(s) = self.txs.get_mut(&tx.id) else {
            return;
        };
        s.verifying = s.verifying.saturating_sub(1);
        if !s.held {
            self.hold(tx, cx);
        }
    }

    fn on_retry(&mut self, id: TxId, cx: &mut Ctx<'_, Self>) {
        let Some(s) = self.txs.get_mut(&id) else {
            return;
        };
        if s.held || s.verifying > 0 || s.known.in_flight.is_none() {
            return;
        }
        s.known.in_flight = None;
        self.request_next(id, cx);
    }

    /// Asks the next announcer of a tx we lack, after a request went unanswered or the peer
    /// it went to left.
    fn request_next(&mut self, id: TxId, cx: &mut Ctx<'_, Self>) {
        if self.behaviour == Behaviour::Silent {
            return;
        }
        let Some(s) = self.txs.get_mut(&id) else {
            return;
        };
        match s.known.ask_next(|p| self.peers.is_up(p), cx.timers) {
            Some(p) => {
                cx.count(&counters::RETRIES, 1);
                cx.count(&counters::REQUESTS, 1);
                cx.send(p, InvMsg::GetData(vec![id]));
                let wait = millis(self.cfg.retry_timeout_ms);
                s.known
                    .set_timeout(cx.set_timer_in(wait, InvTimer::Retry(id)));
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
        let stalled = forget_peer(self.txs.iter_mut().map(|(id, s)| (id, &mut s.known)), p);
        if !self.cfg.dedup_requests || self.behaviour == Behaviour::Silent {
            // Every announcer was asked as it announced, or none is asked at all.
            return;
        }
        for id in stalled {
            let s = &self.txs[&id];
            if !s.held && s.verifying == 0 {
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
        self.send_inv(p, ids, cx);
    }
}

impl Protocol for Inv {
    type Msg = InvMsg;
    type Timer = InvTimer;
    type Config = InvConfig;

    fn new(config: &InvConfig, setup: &NodeSetup) -> Self {
        Inv {
            cfg: config.clone(),
            behaviour: setup.behaviour.clone(),
            peers: Peers::default(),
            txs: IdMap::default(),
            held: IdMap::default(),
            queued: Vec::new(),
            armed: Vec::new(),
        }
    }

    fn handle(&mut self, input: Input<InvMsg, InvTimer>, cx: &mut Ctx<'_, Self>) {
        match input {
            Input::PeerUp(p) => self.peers.set(p, true),
            Input::PeerDown(p) => self.on_peer_down(p, cx),
            Input::Submit(tx) => {
                if !self.held.contains_key(&tx.id) {
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
                InvTimer::Announce { tx, peer } => {
                    if self.peers.is_current(peer) {
                        self.send_inv(peer.peer, vec![tx], cx);
                    }
                }
                InvTimer::Retry(tx) => self.on_retry(tx, cx),
                InvTimer::Verified(tx) => self.on_verified(tx, cx),
                InvTimer::Reply { to, tx } => {
                    if self.peers.is_current(to) && self.may_send_about(tx.id) {
                        cx.send(to.peer, InvMsg::Tx(tx));
                    }
                }
            },
        }
    }

    fn set_behaviour(&mut self, behaviour: &Behaviour, _: &mut Ctx<'_, Self>) {
        self.behaviour = behaviour.clone();
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        vec![
            ("txs held", self.held.len().to_string()),
            ("txs tracked", self.txs.len().to_string()),
            ("peers up", self.peers.count_up().to_string()),
        ]
    }
}

#[cfg(test)]
mod tests;
