//! Shrec (Han et al., SoCC 2020, as `004` §2.1 and §5.3 describe it): hash flooding with
//! short keyed IDs in which a node sends one request per unknown tx across all its peers, and
//! asks another announcer only after a timeout. The timeout is the weak spot `004` measures:
//! a value tuned to the topology, or Conflux's production 30 s, which makes latency grow
//! quickly with the share of peers that announce but never answer.
//!
//! Each node gives every peer a SipHash key in a `Hello`; the peer names txs to it with that
//! key, and requests echo the IDs they were announced with. Counters: `shrec.requests`,
//! `shrec.retries`, `shrec.duplicate_txs` (spurious copies), `shrec.no_peer_for_tx`,
//! `shrec.unrequested_txs`, `shrec.request_unknown`, `shrec.oversized_txs`, `shrec.unknown_key`,
//! `shrec.backlog_full`.
//!
//! Adversaries (`NodeSetup.behaviour`): `Silent` sends nothing; `WithholdOnRequest` announces
//! but never answers a request; `DelayReplies` answers late; `Spam` also pushes every new tx in
//! full to the peers not known to have it; `Censor` leaves a share of txs out of everything.

pub mod counters;
mod held;
mod msg;

pub use msg::{prefix_of, LinkKey, ShortId, ShrecMsg, MAX_IDS, SHORT_ID_LEN};

use crate::pull::{forget_peer, millis, PeerSession, Peers, Wanted};
use crate::{Behaviour, Ctx, Dur, Few, IdMap, Input, NodeSetup, PeerIdx, Protocol, Tx, TxId};
use held::HeldTxs;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct ShrecConfig {
    /// Wait this long for a requested tx before asking the next announcer. Default: 30 s,
    /// Conflux's production value (`004` §5.3); the "ideal" setting there is the smallest
    /// value with no spurious retransmissions on the topology.
    pub request_timeout_ms: u64,
    /// Announce a new tx after a uniform random delay in [0, this] (0: at once).
    pub announce_jitter_max_ms: f64,
    /// Largest tx accepted (txcast's cap; Shrec sets none). Bigger ones are dropped.
    pub max_tx_bytes: u32,
}

impl Default for ShrecConfig {
    fn default() -> Self {
        ShrecConfig {
            request_timeout_ms: 30_000,
            announce_jitter_max_ms: 0.0,
            max_tx_bytes: 1 << 20,
        }
    }
}

pub enum ShrecTimer {
    /// A request for the tx with this short-ID prefix may have gone unanswered.
    Request(u32),
    Announce(TxId),
    /// A delayed answer (DelayReplies adversary), for that peer only, not for a later one
    /// with its index. The tx's fields side by side: the timer takes 24 bytes instead of
    /// 32, and every event in the simulator's queue with it.
    Reply {
        to: PeerSession,
        id: TxId,
        len: u32,
    },
}

/// A tx being fetched (keyed by its short-ID prefix, as the tx itself is not known yet), or
/// accepted and waiting to be announced.
#[derive(Default)]
struct Fetch {
    known: Wanted,
    /// The short ID each announcer used, to echo in a request to it.
    ids: Vec<(PeerIdx, ShortId)>,
    done: bool,
}

pub struct Shrec {
    cfg: ShrecConfig,
    behaviour: Behaviour,
    peers: Peers,
    /// The key we gave each peer (it names txs to us with it).
    my_keys: Vec<Option<LinkKey>>,
    /// The key each peer gave us (we name txs to it with it).
    their_keys: Vec<Option<LinkKey>>,
    /// Announcements waiting for a peer's Hello.
    backlog: Vec<Vec<TxId>>,
    held: HeldTxs,
    fetching: IdMap<u32, Fetch>,
}

fn slot<T: Default + Clone>(v: &mut Vec<T>, p: PeerIdx) -> &mut T {
    if v.len() <= p.idx() {
        v.resize(p.idx() + 1, T::default());
    }
    &mut v[p.idx()]
}

impl Shrec {
    fn may_send_about(&self, tx: TxId) -> bool {
        self.behaviour != Behaviour::Silent && !self.behaviour.censors(tx)
    }

    /// The held tx a short ID names under `key`, if any.
    fn held_match(&self, sid: ShortId, key: &LinkKey) -> Option<Tx> {
        self.held
            .under(sid.prefix())
            .find(|tx| key.short_id(tx.id) == sid)
    }

    fn accept(&mut self, tx: Tx, from: Option<PeerIdx>, cx: &mut Ctx<'_, Self>) {
        self.held.insert(tx);
        cx.deliver(tx);
        let fetch = self.fetching.entry(prefix_of(tx.id)).or_default();
        fetch.done = true;
        fetch.known.in_flight = None;
        if let Some(p) = from {
            fetch.known.add(p);
        }
        if !self.may_send_about(tx.id) {
            self.fetching.remove(&prefix_of(tx.id));
            return;
        }
        if self.behaviour == Behaviour::Spam {
            // Push the tx in full, unasked, to every peer not known to have it.
            let known = &self.fetching[&prefix_of(tx.id)].known;
            for p in self.peers.iter_up().filter(|&p| !known.announced_by(p)) {
                cx.send(p, ShrecMsg::Tx(tx));
            }
        }
        if self.cfg.announce_jitter_max_ms > 0.0 {
            let wait = Dur::from_millis_f64(cx.rng.unit() * self.cfg.announce_jitter_max_ms);
            cx.set_timer_in(wait, ShrecTimer::Announce(tx.id));
        } else {
            self.announce(tx.id, cx);
        }
    }

    fn announce(&mut self, id: TxId, cx: &mut Ctx<'_, Self>) {
        let Some(fetch) = self.fetching.remove(&prefix_of(id)) else {
            return;
        };
        // The node may have turned silent or censoring since it set the timer.
        if !self.may_send_about(id) {
            return;
        }
        let targets: Vec<PeerIdx> = self
            .peers
            .iter_up()
            .filter(|&p| !fetch.known.announced_by(p))
            .collect();
        for p in targets {
            match self.their_keys.get(p.idx()).copied().flatten() {
                Some(key) => cx.send(p, ShrecMsg::Announce(key.short_id(id).into())),
                None => {
                    // A peer that never says Hello (a silent one) must not grow this forever.
                    let waiting = slot(&mut self.backlog, p);
                    if waiting.len() < MAX_IDS {
                        waiting.push(id);
                    } else {
                        cx.count(&counters::BACKLOG_FULL, 1);
                    }
                }
            }
        }
    }

    fn on_hello(&mut self, from: PeerIdx, key: LinkKey, cx: &mut Ctx<'_, Self>) {
        *slot(&mut self.their_keys, from) = Some(key);
        let waiting = std::mem::take(slot(&mut self.backlog, from));
        if !waiting.is_empty() && self.peers.is_up(from) {
            let ids = waiting
                .into_iter()
                .map(|id| key.short_id(id))
                .collect::<Vec<_>>();
            for chunk in ids.chunks(MAX_IDS) {
                cx.send(from, ShrecMsg::Announce(chunk.to_vec().into()));
            }
        }
    }

    fn on_announce(&mut self, from: PeerIdx, sids: Few<ShortId>, cx: &mut Ctx<'_, Self>) {
        let Some(key) = self.my_keys.get(from.idx()).copied().flatten() else {
            cx.count(&counters::UNKNOWN_KEY, 1);
            return;
        };
        let mut ask = Few::default();
        for &sid in sids.iter() {
            if self.held_match(sid, &key).is_some() {
                continue;
            }
            let fetch = self.fetching.entry(sid.prefix()).or_default();
            if fetch.done {
                continue;
            }
            if fetch.known.add(from) {
                fetch.ids.push((from, sid));
            }
            if fetch.known.in_flight.is_some() {
                continue;
            }
            if fetch.known.ask(from, cx.timers) {
                ask.push(sid);
                let wait = millis(self.cfg.request_timeout_ms);
                let timeout = cx.set_timer_in(wait, ShrecTimer::Request(sid.prefix()));
                fetch.known.set_timeout(timeout);
            }
        }
        if !ask.is_empty() && self.behaviour != Behaviour::Silent {
            cx.count(&counters::REQUESTS, ask.len() as u64);
            cx.send(from, ShrecMsg::Request(ask));
        }
    }

    fn on_request(&mut self, from: PeerIdx, sids: Few<ShortId>, cx: &mut Ctx<'_, Self>) {
        let Some(key) = self.their_keys.get(from.idx()).copied().flatten() else {
            cx.count(&counters::UNKNOWN_KEY, 1);
            return;
        };
        for &sid in sids.iter() {
            let Some(tx) = self.held_match(sid, &key) else {
                cx.count(&counters::REQUEST_UNKNOWN, 1);
                continue;
            };
            if !self.may_send_about(tx.id) {
                continue;
            }
            match self.behaviour {
                Behaviour::WithholdOnRequest => {}
                Behaviour::DelayReplies { delay_ms } => {
                    cx.set_timer_in(
                        Dur::from_millis_f64(delay_ms),
                        ShrecTimer::Reply {
                            to: self.peers.session(from),
                            id: tx.id,
                            len: tx.len,
                        },
                    );
                }
                _ => cx.send(from, ShrecMsg::Tx(tx)),
            }
        }
    }

    fn on_tx(&mut self, from: PeerIdx, tx: Tx, cx: &mut Ctx<'_, Self>) {
        if tx.len > self.cfg.max_tx_bytes {
            cx.count(&counters::OVERSIZED_TXS, 1);
            return;
        }
        if self.held.contains(tx.id) {
            cx.count(&counters::DUPLICATE_TXS, 1);
            return;
        }
        let requested = self
            .fetching
            .get(&prefix_of(tx.id))
            .is_some_and(|f| f.known.asked(from));
        if !requested {
            cx.count(&counters::UNREQUESTED_TXS, 1);
        }
        self.accept(tx, Some(from), cx);
    }

    fn on_request_timer(&mut self, prefix: u32, cx: &mut Ctx<'_, Self>) {
        let Some(fetch) = self.fetching.get_mut(&prefix) else {
            return;
        };
        if fetch.done || fetch.known.in_flight.is_none() {
            return;
        }
        fetch.known.in_flight = None;
        self.request_next(prefix, cx);
    }

    /// Asks the next announcer of a tx we lack, after a request went unanswered or the peer
    /// it went to left.
    fn request_next(&mut self, prefix: u32, cx: &mut Ctx<'_, Self>) {
        if self.behaviour == Behaviour::Silent {
            return;
        }
        let Some(fetch) = self.fetching.get_mut(&prefix) else {
            return;
        };
        let Some(p) = fetch.known.ask_next(|p| self.peers.is_up(p), cx.timers) else {
            cx.count(&counters::NO_PEER_FOR_TX, 1);
            return;
        };
        let Some(&(_, sid)) = fetch.ids.iter().find(|(q, _)| *q == p) else {
            return;
        };
        cx.count(&counters::RETRIES, 1);
        cx.count(&counters::REQUESTS, 1);
        cx.send(p, ShrecMsg::Request(sid.into()));
        let wait = millis(self.cfg.request_timeout_ms);
        fetch
            .known
            .set_timeout(cx.set_timer_in(wait, ShrecTimer::Request(prefix)));
    }

    /// A peer left, and its index may go to another: forget both link keys, the announcements
    /// waiting for its Hello, and every fetch it is in (its short IDs too). A fetch whose
    /// request was in flight to it asks the next announcer at once.
    fn on_peer_down(&mut self, p: PeerIdx, cx: &mut Ctx<'_, Self>) {
        self.peers.set(p, false);
        *slot(&mut self.my_keys, p) = None;
        *slot(&mut self.their_keys, p) = None;
        slot(&mut self.backlog, p).clear();
        for fetch in self.fetching.values_mut() {
            fetch.ids.retain(|&(q, _)| q != p);
        }
        let lists = self.fetching.iter_mut().map(|(k, f)| (k, &mut f.known));
        for prefix in forget_peer(lists, p) {
            if !self.fetching[&prefix].done {
                self.request_next(prefix, cx);
            }
        }
    }
}

impl Protocol for Shrec {
    type Msg = ShrecMsg;
    type Timer = ShrecTimer;
    type Config = ShrecConfig;

    /// Larger txs are dropped (`max_tx_bytes`).
    fn max_tx_bytes(config: &ShrecConfig) -> Option<usize> {
        Some(config.max_tx_bytes as usize)
    }

    fn new(config: &ShrecConfig, setup: &NodeSetup) -> Self {
        Shrec {
            cfg: config.clone(),
            behaviour: setup.behaviour.clone(),
            peers: Peers::default(),
            my_keys: Vec::new(),
            their_keys: Vec::new(),
            backlog: Vec::new(),
            held: HeldTxs::default(),
            fetching: IdMap::default(),
        }
    }

    fn handle(&mut self, input: Input<ShrecMsg, ShrecTimer>, cx: &mut Ctx<'_, Self>) {
        match input {
            Input::PeerUp(p) => {
                self.peers.set(p, true);
                let key = LinkKey::random(cx.rng);
                *slot(&mut self.my_keys, p) = Some(key);
                if self.behaviour != Behaviour::Silent {
                    cx.send(p, ShrecMsg::Hello { key });
                }
            }
            Input::PeerDown(p) => self.on_peer_down(p, cx),
            Input::Submit(tx) => {
                if !self.held.contains(tx.id) {
                    self.accept(tx, None, cx);
                }
            }
            Input::Message(from, msg) => match msg {
                ShrecMsg::Hello { key } => self.on_hello(from, key, cx),
                ShrecMsg::Announce(sids) => self.on_announce(from, sids, cx),
                ShrecMsg::Request(sids) => self.on_request(from, sids, cx),
                ShrecMsg::Tx(tx) => self.on_tx(from, tx, cx),
            },
            Input::Timer(t) => match t {
                ShrecTimer::Request(prefix) => self.on_request_timer(prefix, cx),
                ShrecTimer::Announce(id) => self.announce(id, cx),
                ShrecTimer::Reply { to, id, len } => {
                    if self.peers.is_current(to) && self.may_send_about(id) {
                        cx.send(to.peer, ShrecMsg::Tx(Tx { id, len }));
                    }
                }
            },
        }
    }

    /// The short IDs a message names, which `warm` reads.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    fn warm_message(msg: &ShrecMsg) {
        if let ShrecMsg::Announce(sids) | ShrecMsg::Request(sids) = msg {
            crate::prefetch::prefetch(sids.as_ptr());
        }
    }

    /// Where the held tx the message names (the first one) would be. Not on WebAssembly,
    /// where a warm is a load (see `Strokkur::warm`).
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    fn warm(&self, _from: PeerIdx, msg: &ShrecMsg) {
        let prefix = match msg {
            ShrecMsg::Announce(sids) | ShrecMsg::Request(sids) => sids.first().map(|s| s.prefix()),
            ShrecMsg::Tx(tx) => Some(prefix_of(tx.id)),
            ShrecMsg::Hello { .. } => None,
        };
        if let Some(prefix) = prefix {
            self.held.prefetch(prefix);
        }
    }

    fn set_behaviour(&mut self, behaviour: &Behaviour, cx: &mut Ctx<'_, Self>) {
        let was_silent = self.behaviour == Behaviour::Silent;
        self.behaviour = behaviour.clone();
        // A silent node gave its peers no key to name txs to it with: it does so now.
        if was_silent && self.behaviour != Behaviour::Silent {
            for p in self.peers.iter_up() {
                if let Some(key) = self.my_keys.get(p.idx()).copied().flatten() {
                    cx.send(p, ShrecMsg::Hello { key });
                }
            }
        }
    }

    fn tx_status(&self, tx: TxId) -> crate::TxStatus {
        if self.held.contains(tx) {
            return crate::TxStatus::Have;
        }
        self.fetching
            .get(&prefix_of(tx))
            .map_or(crate::TxStatus::Unknown, |f| f.known.status())
    }

    fn describe_timer(timer: &ShrecTimer) -> crate::TimerNote {
        use crate::TimerNote;
        match timer {
            ShrecTimer::Request(_) => TimerNote::of("request timeout", None),
            ShrecTimer::Announce(tx) => TimerNote::of("announce", Some(*tx)),
            ShrecTimer::Reply { id, .. } => TimerNote::of("delayed reply", Some(*id)),
        }
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        vec![
            ("txs held", self.held.len().to_string()),
            ("txs being fetched", self.fetching.len().to_string()),
            ("peers up", self.peers.count_up().to_string()),
        ]
    }
}

#[cfg(test)]
mod tests;
