//! Strokkur: coded transaction broadcast with windowed LT codes (seed `004`, §4), built on
//! crate `ltcode`.
//!
//! - Each node keeps one coding window (its k most recent symbols, own or decoded) and, per
//!   peer, a stream of codewords drawn from it, paced by a timer at that peer's rate r.
//! - When a link comes up each side draws a fresh SipHash key and sends it (`Key`); the other
//!   side names symbols to it with that key. One decoder per node takes codewords from all
//!   peers jointly and re-keys each decoded symbol for every peer (§4.3).
//! - A codeword the decoder has not decoded within tau is a loss for its sender; the count
//!   goes back piggybacked on the receiver's next codeword to that sender (alone, in a
//!   two-byte report, while the receiver has nothing to code).
//! - Rate control per peer (§4.2, `rate`): r falls by alpha*gamma per codeword sent and rises
//!   by alpha per reported loss (so by r*alpha*(P_loss - gamma) per second), between a floor
//!   and a cap tied to the node's inflow.
//! - Txs of exactly l bytes are single symbols; others travel as fragments (§4.4, `symbols`).
//!   A decoded tx is delivered once its bytes check out.
//!
//! Adversaries (`NodeSetup.behaviour`): `Silent` and `WithholdOnRequest` send no codewords
//! (they still hand out keys, so their peers keep coding to them); `Censor` keeps the censored txs out of its coding window
//! (txs of one symbol: a longer tx's fragments are coded on before the tx they make up is whole);
//! `Corrupt` sends codewords with valid headers and random payloads; `LieAboutLoss` reports
//! every codeword it receives as lost; `PushCensor` (told of every tx at its creation) sends
//! each one it does not censor to every peer at once, alone in a codeword, and streams nothing
//! else (the attack of seed 004 §5.4 as the reference's `adv-censor` and `analysis.py` model it:
//! honest codewords then carry little but censored txs, so loss falls and the controllers
//! lower the honest rates). A sender accepts at most as many losses as codewords it
//! sent (`strokkur.excess_losses_reported`).
//!
//! Counters: `strokkur.codewords_sent`, `strokkur.losses` (codewords this node failed to
//! decode in time), `strokkur.corrupt_codewords`, `strokkur.rejected_codewords`,
//! `strokkur.invalid_symbols`, `strokkur.excess_losses_reported`, `strokkur.tx_too_long`,
//! `strokkur.relearned` (a tx decoded again after it left the peeling window),
//! `strokkur.rekeys`, `strokkur.forgotten_txs`,
//! `strokkur.bad_config`.

mod config;
pub mod counters;
mod msg;
mod rate;
mod stand_in;
mod symbols;

pub use config::{ConfigError, StrokkurConfig};
pub use ltcode::PeelStep;
pub use msg::StrokkurMsg;
pub use rate::{Inflow, RateControl};
pub use symbols::{SymbolKind, Symbols};

use crate::{
    Behaviour, Ctx, Dur, Input, NodeSetup, Payloads, PeerIdx, Protocol, RecentTxs, Time, TimerId,
};
use crate::{Tx, TxId};
use ltcode::wire::Message;
use ltcode::Peeling;
use ltcode::{
    Codeword, CodingWindow, Decoder, Encoder, Event, Form, LinkEncoder, LinkKey, SenderId,
};
use std::collections::BTreeMap;

impl ltcode::CodecRng for crate::Rng {
    fn next_u64(&mut self) -> u64 {
        crate::Rng::next_u64(self)
    }
}

/// Decoder timeouts are checked on a grid this coarse: one timer per node per step at most.
const POLL_STEP_US: u64 = 10_000;
/// Codeword buffers kept for reuse.
const SPARE_CODEWORDS: usize = 64;
/// A decoder sender handle that stands for no peer.
const NO_PEER: PeerIdx = PeerIdx(u32::MAX);

pub enum StrokkurTimer {
    /// Time for the next codeword to this peer.
    Send(PeerIdx),
    /// Undecoded codewords may have timed out.
    Poll,
}

/// The codec state of a node, built on its first input (the decoder's secret comes from the
/// node's RNG stream).
struct Codec {
    window: CodingWindow,
    encoder: Encoder,
    decoder: Decoder,
    symbols: Symbols,
}

impl Codec {
    fn new(cfg: &StrokkurConfig, form: Form, rng: &mut crate::Rng) -> Option<Codec> {
        let params = ltcode::Params {
            form,
            ..cfg.params()
        };
        Some(Codec {
            window: CodingWindow::new(&params).ok()?,
            encoder: Encoder::new(&params).ok()?,
            decoder: Decoder::new(&params, rng).ok()?,
            symbols: Symbols::new(cfg, form),
        })
    }
}

struct Peer {
    up: bool,
    /// The peer in our decoder (it codes with the key we sent it).
    sender: Option<SenderId>,
    /// That key (a watched decoder's view hashes with it too).
    key: Option<LinkKey>,
    /// Our codeword stream to the peer (coded with the key it sent us).
    link: Option<LinkEncoder>,
    rate: RateControl,
    /// The timer of the next codeword (at `next_at`); moving the schedule cancels it.
    send_timer: Option<TimerId>,
    next_at: Time,
    last_sent: Time,
    /// Losses to report on our next codeword to the peer.
    losses_to_report: u32,
    sent: u64,
    losses_heard: u64,
}

impl Peer {
    /// Schedules the next codeword to this peer (`me` is its index) at `at`, in place of any
    /// scheduled before.
    fn send_at(&mut self, me: PeerIdx, at: Time, cx: &mut Ctx<'_, Strokkur>) {
        self.cancel_send(cx);
        self.next_at = at;
        self.send_timer = Some(cx.set_timer(at, StrokkurTimer::Send(me)));
    }

    fn cancel_send(&mut self, cx: &mut Ctx<'_, Strokkur>) {
        if let Some(timer) = self.send_timer.take() {
            cx.cancel_timer(timer);
        }
    }

    fn new(cfg: &StrokkurConfig) -> Peer {
        Peer {
            up: false,
            sender: None,
            key: None,
            link: None,
            rate: RateControl::new(cfg),
            send_timer: None,
            next_at: Time::NEVER,
            last_sent: Time::ZERO,
            losses_to_report: 0,
            sent: 0,
            losses_heard: 0,
        }
    }
}

/// A decoder under watch (the page's peeling view): the same inputs fed to a `Peeling`, and the
/// tx each whole-tx symbol turned out to be.
struct Watch {
    peeling: Peeling,
    txs: BTreeMap<u64, TxId>,
}

pub struct Strokkur {
    cfg: StrokkurConfig,
    behaviour: Behaviour,
    /// Symbols' bytes, or stand-ins where the host allows them (`NodeSetup::payloads`).
    form: Form,
    codec: Option<Codec>,
    broken: bool,
    peers: Vec<Peer>,
    /// Decoder sender handle -> the peer it stands for.
    sender_peer: Vec<PeerIdx>,
    /// Txs known here (the newest `max_known_txs`).
    have: RecentTxs,
    inflow: Inflow,
    poll_at: Option<Time>,
    events: Vec<Event>,
    symbol: Vec<u8>,
    split: Vec<Vec<u8>>,
    done: Vec<Tx>,
    spare: Vec<Codeword>,
    /// When a symbol last entered the coding window.
    last_push: Time,
    idle_after: Dur,
    /// Some peer's stream is paused for want of new symbols.
    paused: bool,
    watch: Option<Box<Watch>>,
}

impl Strokkur {
    /// The codec, built on first use; None (and counted) if the config is invalid.
    fn ensure_codec(&mut self, cx: &mut Ctx<'_, Self>) -> bool {
        if self.codec.is_none() && !self.broken {
            self.codec = Codec::new(&self.cfg, self.form, cx.rng);
            if self.codec.is_none() {
                self.broken = true;
                cx.count(&counters::BAD_CONFIG, 1);
            }
        }
        self.codec.is_some()
    }

    fn peer_mut(&mut self, p: PeerIdx) -> &mut Peer {
        if self.peers.len() <= p.idx() {
            let cfg = &self.cfg;
            self.peers.resize_with(p.idx() + 1, || Peer::new(cfg));
        }
        &mut self.peers[p.idx()]
    }

    /// Whether the node streams codewords to its peers at their rates. Silent nodes do not;
    /// nor do nodes that withhold on request (Strokkur has no requests: not coding for peers is
    /// the one way to withhold, as in `004` Fig. 7), nor pushing censors (they only push).
    fn sends(&self) -> bool {
        !matches!(
            self.behaviour,
            Behaviour::Silent | Behaviour::WithholdOnRequest | Behaviour::PushCensor { .. }
        )
    }

    /// `PushCensor`: the symbol just pushed into the window goes to every peer now, alone in a
    /// codeword (degree 1: Strokkur's wire format, peeled on arrival), whatever the peer's rate.
    fn push_newest(&mut self, cx: &mut Ctx<'_, Self>) {
        let Some(codec) = self.codec.as_mut() else {
            return;
        };
        let Some(seq) = codec.window.pushed().checked_sub(1) else {
            return;
        };
        let newest = [codec.window.position(seq)];
        for (i, peer) in self.peers.iter_mut().enumerate() {
            let Some(link) = peer.link.as_mut().filter(|_| peer.up) else {
                continue;
            };
            let mut cw = self.spare.pop().unwrap_or_default();
            codec
                .encoder
                .encode_members(&codec.window, link, &newest, &mut cw);
            let losses = std::mem::take(&mut peer.losses_to_report);
            cx.send(PeerIdx(i as u32), StrokkurMsg::codeword(losses, cw));
            cx.count(&counters::CODEWORDS_SENT, 1);
            peer.sent += 1;
            peer.last_sent = cx.now;
        }
    }

    /// A peer arrived at index `p`: it starts with nothing of any peer that had the index
    /// before (fresh rate, no link, no losses to report, its own sender in the decoder).
    fn on_peer_up(&mut self, p: PeerIdx, cx: &mut Ctx<'_, Self>) {
        if self.peers.get(p.idx()).is_some_and(|peer| peer.up) {
            // Up again without going down: the index has a new peer all the same.
            self.on_peer_down(p, cx);
        }
        let key = LinkKey::random(&mut *cx.rng);
        let Some(codec) = self.codec.as_mut() else {
            return;
        };
        let sender = codec.decoder.add_sender(&key);
        let slot = sender as usize;
        if self.sender_peer.len() <= slot {
            self.sender_peer.resize(slot + 1, NO_PEER);
        }
        self.sender_peer[slot] = p;
        let fresh = Peer::new(&self.cfg);
        let peer = self.peer_mut(p);
        peer.cancel_send(cx);
        *peer = Peer {
            up: true,
            sender: Some(sender),
            key: Some(key),
            ..fresh
        };
        if let Some(w) = self.watch.as_mut() {
            w.peeling.add_sender(sender, &key);
        }
        cx.send(p, StrokkurMsg::key(key));
    }

    /// A peer left, and its index may go to another: its sender leaves the decoder (its
    /// pending codewords with it), its send timer is cancelled, and its state goes back to a
    /// new peer's.
    fn on_peer_down(&mut self, p: PeerIdx, cx: &mut Ctx<'_, Self>) {
        let Some(peer) = self.peers.get_mut(p.idx()) else {
            return;
        };
        peer.cancel_send(cx);
        let sender = peer.sender.take();
        *peer = Peer::new(&self.cfg);
        if let Some(sender) = sender {
            if let Some(codec) = self.codec.as_mut() {
                codec.decoder.remove_sender(sender);
            }
            if let Some(w) = self.watch.as_mut() {
                w.peeling.remove_sender(sender);
            }
            // The handle may go to another peer; until then it stands for nobody.
            if let Some(slot) = self.sender_peer.get_mut(sender as usize) {
                *slot = NO_PEER;
            }
        }
    }

    fn on_message(&mut self, from: PeerIdx, msg: StrokkurMsg, cx: &mut Ctx<'_, Self>) {
        if !self.peers.get(from.idx()).is_some_and(|p| p.up) {
            return;
        }
        self.on_losses_reported(from, msg.losses, cx);
        match msg.body {
            Some(Message::Key(key)) => self.on_key(from, key, cx),
            Some(Message::Codeword(cw)) => {
                self.on_codeword(from, &cw, cx);
                // Received codewords lend their buffers to the ones this node sends.
                if self.spare.len() < SPARE_CODEWORDS {
                    self.spare.push(cw);
                }
            }
            None => {}
        }
    }

    /// The peer's key: start (or re-key) our codeword stream to it. Only the peer's own stream
    /// is affected; a key after the first of a connection is counted.
    fn on_key(&mut self, from: PeerIdx, key: LinkKey, cx: &mut Ctx<'_, Self>) {
        let sends = self.sends();
        let peer = &mut self.peers[from.idx()];
        if peer.link.is_some() {
            cx.count(&counters::REKEYS, 1);
        }
        peer.link = Some(LinkEncoder::new(key, self.form));
        peer.cancel_send(cx);
        if sends {
            peer.send_at(from, cx.now + peer.rate.interval(), cx);
        }
    }

    fn on_codeword(&mut self, from: PeerIdx, cw: &Codeword, cx: &mut Ctx<'_, Self>) {
        let Some(sender) = self.peers[from.idx()].sender else {
            return;
        };
        let Some(codec) = self.codec.as_mut() else {
            return;
        };
        let mut events = std::mem::take(&mut self.events);
        let result = codec
            .decoder
            .receive(sender, cx.now.0, &cw.ids, &cw.payload, &mut events);
        if result.is_err() {
            cx.count(&counters::REJECTED_CODEWORDS, 1);
        }
        if let Some(w) = self.watch.as_mut() {
            let mut seen = Vec::new();
            match result {
                Ok(()) => w
                    .peeling
                    .receive(sender, cx.now.0, &cw.ids, &cw.payload, &mut seen),
                Err(_) => w.peeling.poll(cx.now.0, &mut seen),
            }
        }
        if self.behaviour == Behaviour::LieAboutLoss {
            let peer = &mut self.peers[from.idx()];
            peer.losses_to_report = peer.losses_to_report.saturating_add(1);
        }
        self.apply_events(&mut events, cx);
        self.events = events;
        self.arm_poll(cx);
    }

    /// `n` losses reported by the peer: believe at most as many as codewords we sent it.
    fn on_losses_reported(&mut self, from: PeerIdx, n: u32, cx: &mut Ctx<'_, Self>) {
        if n == 0 {
            return;
        }
        let cap = match self.cfg.rate_cap_per_inflow {
            f if f > 0.0 => (f * self.inflow.per_s(cx.now)).max(self.cfg.min_rate_per_s),
            _ => f64::INFINITY,
        };
        let sends = self.sends();
        let peer = &mut self.peers[from.idx()];
        let unreported = peer.sent.saturating_sub(peer.losses_heard);
        let believed = (n as u64).min(unreported) as u32;
        if believed < n {
            cx.count(&counters::EXCESS_LOSSES_REPORTED, (n - believed) as u64);
        }
        peer.losses_heard += believed as u64;
        peer.rate.on_losses(believed, cap);
        // A higher rate brings the next codeword forward.
        let due = peer.last_sent + peer.rate.interval();
        if peer.link.is_some() && due < peer.next_at && sends {
            peer.send_at(from, due.max(cx.now), cx);
        }
    }

    fn on_send_timer(&mut self, to: PeerIdx, cx: &mut Ctx<'_, Self>) {
        let corrupt = self.behaviour == Behaviour::Corrupt;
        let mut cw = self.spare.pop().unwrap_or_default();
        let Some(codec) = self.codec.as_mut() else {
            return;
        };
        let Some(peer) = self.peers.get_mut(to.idx()) else {
            return;
        };
        peer.send_timer = None;
        if !peer.up {
            return;
        }
        let Some(link) = peer.link.as_mut() else {
            return;
        };
        if codec
            .encoder
            .encode(&codec.window, link, &mut *cx.rng, &mut cw)
        {
            if corrupt {
                for b in cw.payload.iter_mut() {
                    *b = cx.rng.next_u32() as u8;
                }
            }
            let losses = std::mem::take(&mut peer.losses_to_report);
            cx.send(to, StrokkurMsg::codeword(losses, cw));
            cx.count(&counters::CODEWORDS_SENT, 1);
            peer.sent += 1;
            peer.rate.on_send();
            peer.last_sent = cx.now;
        } else if peer.losses_to_report > 0 {
            // Nothing to code yet: the loss count goes alone.
            let losses = std::mem::take(&mut peer.losses_to_report);
            cx.send(to, StrokkurMsg::report(losses));
        }
        // An empty window sends no codeword and leaves the rate alone; a stale one pauses.
        let idle = self.idle_after > Dur::ZERO && cx.now.since(self.last_push) > self.idle_after;
        if idle {
            peer.next_at = Time::NEVER;
            self.paused = true;
            return;
        }
        peer.send_at(to, cx.now + peer.rate.interval(), cx);
    }

    fn on_poll_timer(&mut self, cx: &mut Ctx<'_, Self>) {
        if self.poll_at.is_some_and(|t| t <= cx.now) {
            self.poll_at = None;
        }
        let Some(codec) = self.codec.as_mut() else {
            return;
        };
        let mut events = std::mem::take(&mut self.events);
        codec.decoder.poll(cx.now.0, &mut events);
        if let Some(w) = self.watch.as_mut() {
            w.peeling.poll(cx.now.0, &mut Vec::new());
        }
        self.apply_events(&mut events, cx);
        self.events = events;
        self.arm_poll(cx);
    }

    /// Make sure a poll timer is set for the decoder's next timeout (on a coarse grid).
    fn arm_poll(&mut self, cx: &mut Ctx<'_, Self>) {
        let Some(deadline) = self.codec.as_ref().and_then(|c| c.decoder.next_deadline()) else {
            return;
        };
        let at = Time(deadline.div_ceil(POLL_STEP_US).saturating_mul(POLL_STEP_US));
        if self.poll_at.is_none_or(|p| at < p) {
            self.poll_at = Some(at);
            cx.set_timer(at, StrokkurTimer::Poll);
        }
    }

    /// Remembers a tx as known; false if it was already.
    fn know(&mut self, tx: TxId, cx: &mut Ctx<'_, Self>) -> bool {
        let before = self.have.forgotten;
        let fresh = self.have.insert(tx);
        if self.have.forgotten > before {
            cx.count(&counters::FORGOTTEN_TXS, self.have.forgotten - before);
        }
        fresh
    }

    fn on_submit(&mut self, tx: Tx, cx: &mut Ctx<'_, Self>) {
        if !self.know(tx.id, cx) {
            return;
        }
        cx.deliver(tx);
        let Some(codec) = self.codec.as_mut() else {
            return;
        };
        let mut split = std::mem::take(&mut self.split);
        match codec.symbols.split(tx, &*cx.content, &mut split) {
            Ok(true) => {}
            Ok(false) => {
                cx.count(&counters::TX_WITHOUT_BYTES, 1);
                self.split = split;
                return;
            }
            Err(_) => {
                cx.count(&counters::TX_TOO_LONG, 1);
                self.split = split;
                return;
            }
        }
        let mut events = std::mem::take(&mut self.events);
        let coded = !self.behaviour.keeps_out(tx.id);
        let push = matches!(self.behaviour, Behaviour::PushCensor { .. });
        for value in &split {
            let Some(codec) = self.codec.as_mut() else {
                break;
            };
            // Known symbols peel codewords waiting on them (sizes match: no error).
            let _ = codec.decoder.insert_known(value, &mut events);
            if let Some(w) = self.watch.as_mut() {
                if split.len() == 1 {
                    w.txs.insert(w.peeling.learned(), tx.id);
                }
                w.peeling.insert_known(value, &mut Vec::new());
            }
            if coded && codec.window.push(value).is_ok() {
                self.on_window_push(cx);
                if push {
                    self.push_newest(cx);
                }
            }
            self.apply_events(&mut events, cx);
        }
        self.events = events;
        self.split = split;
        self.arm_poll(cx);
    }

    /// A new symbol entered the window: count it and wake paused streams.
    fn on_window_push(&mut self, cx: &mut Ctx<'_, Self>) {
        self.inflow.record(cx.now);
        self.last_push = cx.now;
        if !self.paused || !self.sends() {
            return;
        }
        self.paused = false;
        for (i, peer) in self.peers.iter_mut().enumerate() {
            if peer.up && peer.link.is_some() && peer.next_at == Time::NEVER {
                peer.send_at(PeerIdx(i as u32), cx.now + peer.rate.interval(), cx);
            }
        }
    }

    /// Acts on what the decoder reported: new symbols, losses to report, corrupt codewords.
    fn apply_events(&mut self, events: &mut Vec<Event>, cx: &mut Ctx<'_, Self>) {
        for event in events.drain(..) {
            match event {
                Event::Decoded { seq, .. } => self.on_decoded(seq, cx),
                Event::Loss { sender } => {
                    cx.count(&counters::LOSSES, 1);
                    let Some(&p) = self.sender_peer.get(sender as usize) else {
                        continue;
                    };
                    if let Some(peer) = self.peers.get_mut(p.idx()) {
                        peer.losses_to_report = peer.losses_to_report.saturating_add(1);
                    }
                }
                Event::Corrupt { .. } => cx.count(&counters::CORRUPT_CODEWORDS, 1),
            }
        }
    }

    fn on_decoded(&mut self, seq: u64, cx: &mut Ctx<'_, Self>) {
        let Some(codec) = self.codec.as_mut() else {
            return;
        };
        let Some(value) = codec.decoder.symbol(seq) else {
            return;
        };
        let digest = codec.decoder.digest(seq);
        self.symbol.clear();
        self.symbol.extend_from_slice(value);
        let kind = codec
            .symbols
            .identify(&self.symbol, &mut *cx.content, &mut self.done);
        if let (Some(w), SymbolKind::Tx(tx)) = (self.watch.as_mut(), kind) {
            w.txs.insert(seq, tx.id);
        }
        let coded = match kind {
            // A tx learned again after it left the peeling window is not coded twice.
            SymbolKind::Tx(tx) if self.have.contains(tx.id) => {
                cx.count(&counters::RELEARNED, 1);
                false
            }
            SymbolKind::Tx(tx) => {
                self.done.push(tx);
                !self.behaviour.keeps_out(tx.id)
            }
            SymbolKind::Fragment => true,
            SymbolKind::Invalid => {
                cx.count(&counters::INVALID_SYMBOLS, 1);
                false
            }
        };
        if coded
            && codec
                .window
                .push_digested(&self.symbol, digest.as_ref())
                .is_ok()
        {
            self.on_window_push(cx);
        }
        let mut done = std::mem::take(&mut self.done);
        for tx in done.drain(..) {
            if self.know(tx.id, cx) {
                cx.deliver(tx);
            }
        }
        self.done = done;
    }
}

impl Protocol for Strokkur {
    type Msg = StrokkurMsg;
    type Timer = StrokkurTimer;
    type Config = StrokkurConfig;

    fn new(config: &StrokkurConfig, setup: &NodeSetup) -> Self {
        Strokkur {
            cfg: config.clone(),
            behaviour: setup.behaviour.clone(),
            form: match setup.payloads {
                Payloads::Live => Form::Bytes,
                Payloads::Simulated => Form::DigestedBytes,
                Payloads::StandIns => Form::StandIn,
            },
            codec: None,
            broken: false,
            peers: Vec::new(),
            sender_peer: Vec::new(),
            have: RecentTxs::new(config.max_known_txs as usize),
            inflow: Inflow::default(),
            poll_at: None,
            events: Vec::new(),
            symbol: Vec::new(),
            split: Vec::new(),
            done: Vec::new(),
            spare: Vec::new(),
            last_push: Time::ZERO,
            idle_after: Dur::from_millis_f64(config.idle_after_ms),
            paused: false,
            watch: None,
        }
    }

    fn handle(&mut self, input: Input<StrokkurMsg, StrokkurTimer>, cx: &mut Ctx<'_, Self>) {
        if !self.ensure_codec(cx) {
            return;
        }
        match input {
            Input::PeerUp(p) => self.on_peer_up(p, cx),
            Input::PeerDown(p) => self.on_peer_down(p, cx),
            Input::Message(from, msg) => self.on_message(from, msg, cx),
            Input::Submit(tx) => self.on_submit(tx, cx),
            Input::Timer(StrokkurTimer::Send(peer)) => self.on_send_timer(peer, cx),
            Input::Timer(StrokkurTimer::Poll) => self.on_poll_timer(cx),
        }
    }

    /// The whole node: `warm_early` reads its peer list and decoder.
    #[cfg(not(target_arch = "wasm32"))]
    const WARM_LINES: usize = std::mem::size_of::<Self>().div_ceil(64) + 1;

    /// What `warm` reads through the node: the sender's peer entry and the decoder's masks.
    ///
    /// None of the warms are on WebAssembly: there a warm is a load, not a prefetch, and with
    /// these compiled in the 250-node WASM bench ran about 10% slower although the engine
    /// warms nothing below 4,096 nodes there.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    fn warm_early(&self, from: PeerIdx) {
        if let Some(peer) = self.peers.get(from.idx()) {
            crate::prefetch::prefetch_all(peer);
        }
        if let Some(codec) = &self.codec {
            codec.decoder.warm_early();
        }
    }

    /// What handling a codeword reads beyond what `warm_early` asked for: its ID list and
    /// payload and the slots its IDs hash to in the sender's table of the decoder.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    fn warm(&self, from: PeerIdx, msg: &StrokkurMsg) {
        let Some(Message::Codeword(cw)) = &msg.body else {
            return;
        };
        let sender = self.peers.get(from.idx()).and_then(|peer| peer.sender);
        if let (Some(codec), Some(sender)) = (&self.codec, sender) {
            codec.decoder.warm(sender, &cw.ids);
        }
    }

    /// Before a codeword is sent: the peer's entry, the spare buffer it will be written to and
    /// the encoder's degree table and scratch lists (4,000 nodes 5% faster, strokkur-250 3%).
    /// Not the whole coding window, which made the 250-node bench 3-6% slower: the encoder asks
    /// for the members it draws itself.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    fn warm_timer(&self, timer: &StrokkurTimer) {
        if let StrokkurTimer::Send(to) = timer {
            if let Some(peer) = self.peers.get(to.idx()) {
                crate::prefetch::prefetch_all(peer);
            }
            if let Some(spare) = self.spare.last() {
                crate::prefetch::prefetch(spare);
            }
            if let Some(codec) = &self.codec {
                codec.encoder.warm();
            }
        }
    }

    /// A codeword's ID list (which `warm` reads) and its payload.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    fn warm_message(msg: &StrokkurMsg) {
        use crate::prefetch::prefetch;
        if let Some(Message::Codeword(cw)) = &msg.body {
            prefetch(cw.ids.as_ptr());
            prefetch(cw.payload.as_ptr());
        }
    }

    /// A node that stops coding (silent, withholding) ends its streams; one that starts again
    /// resumes them at the rate each peer had.
    fn set_behaviour(&mut self, behaviour: &Behaviour, cx: &mut Ctx<'_, Self>) {
        let sent = self.sends();
        self.behaviour = behaviour.clone();
        match (sent, self.sends()) {
            (true, false) => {
                for peer in &mut self.peers {
                    peer.cancel_send(cx);
                    peer.next_at = Time::NEVER;
                }
            }
            (false, true) => {
                self.paused = false;
                for (i, peer) in self.peers.iter_mut().enumerate() {
                    if peer.up && peer.link.is_some() {
                        peer.send_at(PeerIdx(i as u32), cx.now + peer.rate.interval(), cx);
                    }
                }
            }
            _ => {}
        }
    }

    fn told_every_tx(&self) -> bool {
        matches!(self.behaviour, Behaviour::PushCensor { .. })
    }

    /// A tx travels as at most `max_fragments` fragments of `symbol_bytes` less their header.
    fn max_tx_bytes(config: &StrokkurConfig) -> Option<usize> {
        Some(config.fragment_params().max_tx_len())
    }

    fn tx_status(&self, tx: TxId) -> crate::TxStatus {
        match self.have.contains(tx) {
            true => crate::TxStatus::Have,
            false => crate::TxStatus::Unknown,
        }
    }

    fn describe_timer(timer: &StrokkurTimer) -> crate::TimerNote {
        match timer {
            StrokkurTimer::Send(_) => crate::TimerNote::of("codeword due", None),
            StrokkurTimer::Poll => crate::TimerNote::of("decoder timeouts", None),
        }
    }

    /// Per link: the codeword rate the peer's loss reports have set, what went each way, and
    /// what the decoder made of the peer's codewords (those still in its peeling window
    /// waiting on a missing symbol among them).
    fn detail(&self, _now: Time) -> crate::Detail {
        use crate::{Cell, Table};
        let mut table = Table::new(
            "links",
            &[
                "rate (/s)",
                "codewords sent",
                "losses it reported",
                "losses to report",
                "codewords received",
                "decoded from",
                "waiting to peel",
                "lost (timed out)",
            ],
        );
        for (i, peer) in self.peers.iter().enumerate() {
            if !peer.up {
                continue;
            }
            let decoder = self.codec.as_ref().map(|c| &c.decoder);
            let stats = peer
                .sender
                .and_then(|s| decoder?.stats(s).cloned())
                .unwrap_or_default();
            let waiting = peer
                .sender
                .and_then(|s| Some(decoder?.pending_from(s)))
                .unwrap_or(0);
            let rate = if peer.link.is_some() {
                peer.rate.rate()
            } else {
                0.0
            };
            table.peer(
                PeerIdx(i as u32),
                vec![
                    Cell::from(rate),
                    Cell::Num(peer.sent as f64),
                    Cell::Num(peer.losses_heard as f64),
                    Cell::Num(peer.losses_to_report as f64),
                    Cell::Num(stats.received as f64),
                    Cell::Num(stats.decoded as f64),
                    Cell::Num(waiting as f64),
                    Cell::Num(stats.lost as f64),
                ],
            );
        }
        crate::Detail {
            groups: Vec::new(),
            tables: vec![table],
        }
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        let up: Vec<&Peer> = self.peers.iter().filter(|p| p.up).collect();
        let rates: f64 = up
            .iter()
            .filter(|p| p.link.is_some())
            .map(|p| p.rate.rate())
            .sum();
        let (window, pending, learned) = match &self.codec {
            Some(c) => (c.window.len(), c.decoder.pending(), c.decoder.learned()),
            None => (0, 0, 0),
        };
        vec![
            ("peers up", up.len().to_string()),
            ("txs known", self.have.len().to_string()),
            ("symbols learned", learned.to_string()),
            ("coding window", window.to_string()),
            ("codewords pending", pending.to_string()),
            ("codeword rate, all peers (/s)", format!("{rates:.1}")),
        ]
    }
}

impl Strokkur {
    /// From now on, feed this node's decoder inputs to a `Peeling` too, for the page's peeling
    /// view. Only before the decoder has learned a symbol (false after): the view starts from
    /// an empty graph.
    pub fn watch_decoder(&mut self) -> bool {
        let Some(codec) = self.codec.as_ref() else {
            return false;
        };
        if codec.decoder.learned() > 0 {
            return false;
        }
        let params = ltcode::Params {
            form: self.form,
            ..self.cfg.params()
        };
        let mut peeling = Peeling::new(&params);
        for peer in self.peers.iter().filter(|p| p.up) {
            if let (Some(sender), Some(key)) = (peer.sender, peer.key.as_ref()) {
                peeling.add_sender(sender, key);
            }
        }
        let txs = BTreeMap::new();
        self.watch = Some(Box::new(Watch { peeling, txs }));
        true
    }

    /// The watched decoder's steps so far, and the tx each named symbol is.
    pub fn peeling(&self) -> Option<(&[PeelStep], &BTreeMap<u64, TxId>)> {
        let w = self.watch.as_ref()?;
        Some((w.peeling.steps(), &w.txs))
    }

    /// The peer a decoder sender handle stands for now.
    pub fn sender_peer(&self, sender: SenderId) -> Option<PeerIdx> {
        self.sender_peer
            .get(sender as usize)
            .copied()
            .filter(|&p| p != NO_PEER)
    }

    /// Codeword rate to each peer (0 for a peer that is down or sent no key), for traces.
    pub fn rates(&self) -> Vec<f64> {
        self.peers
            .iter()
            .map(|p| match p.up && p.link.is_some() {
                true => p.rate.rate(),
                false => 0.0,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
