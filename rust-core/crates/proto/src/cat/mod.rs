//! CAT, the content-addressable transaction pool (Celestia ADR 009, seed `000`, and
//! celestia-core's `mempool/cat/spec.md` and reactor as first shipped).
//!
//! - A tx submitted locally goes in full to every peer; no SeenTx for it (unless the pool
//!   drops unrequested txs, as later versions do: then it is announced by SeenTx).
//! - A node that accepts a tx from a peer sends SeenTx to every peer not known to have it,
//!   after a jitter (a whole number of 10 ms steps below 100 ms).
//! - On SeenTx for a tx it lacks and is not already requesting, a node sends WantTx to that
//!   peer; if no tx arrives within 200 ms it asks the next peer known to have it that it has
//!   not asked yet, and gives up when there is none until another SeenTx arrives.
//! - WantTx is answered with the tx if the node has it, ignored otherwise.
//! - A peer that connects is sent SeenTx for the newest `announce_on_connect` txs of the pool
//!   (celestia's CAT sends every key it has: `sendAllTxKeys`), so it can fetch what it missed
//!   while it was away.
//! - Txs leave a node's queue on a link before SeenTx/WantTx (`WireMsg::priority`).
//! - CAT2 (`from_field`): SeenTx names the node a broadcast tx came from (+40 bytes); a node
//!   connected to that node waits for the tx from it before requesting.
//!
//! ADR 009's metrics are counters: `cat.successful_txs` (accepted into the pool; there are
//! no blocks here, so this is the baseline the ADR takes committed txs for),
//! `cat.already_seen_txs`, `cat.requested_txs` (first request per tx), `cat.rerequested_txs`
//! (every later request). Rejections: `cat.bad_key`, `cat.oversized_txs`, `cat.want_unknown`,
//! `cat.duplicate_seen_tx`, `cat.unrequested_txs`, `cat.no_peer_for_tx`.
//!
//! Budgets (txcast's, for a live network where peers may lie): a tx a peer announced that we
//! lack is charged to that peer until it arrives or the peer leaves (`max_pending_per_peer`,
//! `max_pending` in all: `cat.seen_tx_over_budget`, `cat.pending_full`); a tx announced only
//! by peers that left is forgotten; the pool remembers its newest `max_pool_txs` txs
//! (`cat.forgotten_txs`); a WantTx for a tx already sent to that peer is not answered again
//! (`cat.want_repeated`), so a small request cannot draw the same bytes out of a node twice.
//!
//! Adversaries (`NodeSetup.behaviour`): `Silent` sends nothing; `WithholdOnRequest` announces
//! but never answers a request; `DelayReplies` answers late; `Spam` also pushes every new tx in
//! full to the peers not known to have it; `Censor` leaves a share of txs out of everything.

pub mod counters;
mod msg;

pub use msg::{CatMsg, NodeAddr, WireKey, KEY_LEN, NODE_ID_LEN};

use crate::pull::{forget_peer, millis, PeerSession, Peers, Wanted};
use crate::{Behaviour, Budget, Ctx, Dur, IdMap, Input, Ledger, NodeSetup, Over, PeerIdx};
use crate::{Cell, Detail, Protocol, Recent, Table, Time, TimerNote, Tx, TxId, TxStatus};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct CatConfig {
    /// Wait this long for a WantTx to be answered before asking the next peer that has seen
    /// the tx (ADR 009: 200 ms, "an estimation of network round trip time").
    pub request_timeout_ms: u64,
    /// SeenTx is delayed by a uniform whole number of steps in 0..seen_jitter_steps
    /// (first shipped: 10 steps of 10 ms, 0 to 90 ms; ADR 009: upper bound 100 ms).
    pub seen_jitter_steps: u32,
    pub seen_jitter_step_ms: u64,
    /// CAT2: SeenTx carries the ID of the node a broadcast tx came from (ADR 009, +40 bytes).
    pub from_field: bool,
    /// CAT2: how long a node connected to that node waits for the tx before requesting it.
    pub from_wait_ms: u64,
    /// Drop txs that were not requested (later celestia-core); first shipped accepted them.
    /// With this set, a locally submitted tx is announced by SeenTx instead of pushed.
    pub drop_unrequested: bool,
    /// Largest tx accepted; a peer sending a bigger one is disconnected, as an oversized
    /// message on a Tendermint channel is (later celestia-core: 1 MiB).
    pub max_tx_bytes: u32,
    /// Txs a peer announced that this node lacks, charged to that peer until they arrive or it
    /// leaves: a SeenTx beyond this many is ignored (a peer cannot make the node track txs
    /// that never come without bound).
    pub max_pending_per_peer: u32,
    /// The same, for all peers together.
    pub max_pending: u32,
    /// Txs the pool remembers; beyond this the oldest are forgotten (one announced again
    /// later is fetched again).
    pub max_pool_txs: u32,
    /// A peer that connects is sent SeenTx for this many of the newest txs in the pool.
    pub announce_on_connect: u32,
}

impl Default for CatConfig {
    fn default() -> Self {
        CatConfig {
            request_timeout_ms: 200,
            seen_jitter_steps: 10,
            seen_jitter_step_ms: 10,
            from_field: false,
            from_wait_ms: 200,
            drop_unrequested: false,
            max_tx_bytes: 1 << 20,
            max_pending_per_peer: 4096,
            max_pending: 65_536,
            max_pool_txs: 1 << 18,
            announce_on_connect: 1024,
        }
    }
}

impl CatConfig {
    /// The config's budget rules (a zero budget would fetch nothing).
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        let positive = [
            ("max_pending_per_peer", self.max_pending_per_peer),
            ("max_pending", self.max_pending),
            ("max_pool_txs", self.max_pool_txs),
            ("max_tx_bytes", self.max_tx_bytes),
        ];
        match positive.into_iter().find(|(_, v)| *v == 0) {
            Some((field, _)) => Err((field, "must be at least 1".into())),
            None => Ok(()),
        }
    }
}

/// Who was sent which tx in full, remembered for this many (peer, tx) pairs.
const SERVED_MEMORY: usize = 1 << 16;

/// Timers that name a peer carry its session: one set for a peer that has left does nothing,
/// even if another peer has its index by then.
pub enum CatTimer {
    /// Time to send SeenTx for a tx accepted earlier.
    SeenTx(TxId),
    /// A WantTx may have gone unanswered.
    Request(TxId),
    /// CAT2: stop waiting for the From node (`from`) and request the tx.
    FromWait { tx: TxId, from: PeerSession },
    /// A delayed answer to a WantTx (DelayReplies adversary).
    Reply { to: PeerSession, tx: Tx },
}

/// A tx being fetched, or accepted and waiting for its SeenTx to go out.
#[derive(Default)]
struct Pending {
    /// Peers known to have the tx, in the order we learned it; requests walk this list.
    known: Wanted,
    /// While the tx is missing, each of `known` is charged for it in `Cat::missing`.
    charged: bool,
    /// CAT2: the node the tx reached us from by broadcast, or we are waiting for.
    came_from: Option<PeerIdx>,
    waiting_for_from: bool,
}

pub struct Cat {
    cfg: CatConfig,
    behaviour: Behaviour,
    me: NodeAddr,
    peers: Peers,
    /// Txs in the pool, with their size (the newest `max_pool_txs`).
    have: Recent<TxId, u32>,
    pending: IdMap<TxId, Pending>,
    /// Announcements of txs we lack, charged to their announcers.
    missing: Ledger,
    /// Txs sent in full in answer to a WantTx, by the session of the peer that asked.
    served: Recent<(PeerSession, TxId)>,
    /// CAT2: each peer's node ID, from its Hello.
    peer_addr: Vec<Option<NodeAddr>>,
    addr_peer: IdMap<NodeAddr, PeerIdx>,
}

impl Cat {
    fn silent(&self) -> bool {
        self.behaviour == Behaviour::Silent
    }

    fn may_send_about(&self, tx: TxId) -> bool {
        !self.silent() && !self.behaviour.censors(tx)
    }

    fn accept(&mut self, tx: Tx, cx: &mut Ctx<'_, Self>) {
        self.settle(tx.id);
        let before = self.have.forgotten;
        self.have.insert(tx.id, tx.len);
        if self.have.forgotten > before {
            cx.count(&counters::FORGOTTEN_TXS, self.have.forgotten - before);
        }
        cx.deliver(tx);
        cx.count(&counters::SUCCESSFUL_TXS, 1);
    }

    /// The tx is here: its announcers are no longer charged for it.
    fn settle(&mut self, id: TxId) {
        let Some(entry) = self.pending.get_mut(&id).filter(|e| e.charged) else {
            return;
        };
        entry.charged = false;
        for &p in entry.known.announcer_list() {
            self.missing.refund(p);
        }
    }

    /// `from` says it has `id`, which we lack: charge it, or say (counted) that it is over
    /// its budget or that all peers are. A peer already listed is not charged again.
    fn charge_announcer(&mut self, from: PeerIdx, id: TxId, cx: &mut Ctx<'_, Self>) -> bool {
        if self
            .pending
            .get(&id)
            .is_some_and(|e| e.known.announced_by(from))
        {
            return true;
        }
        match self.missing.charge(from) {
            Ok(()) => {
                let entry = self.pending.entry(id).or_default();
                entry.charged = true;
                entry.known.add(from);
                true
            }
            Err(Over::Peer) => {
                cx.count(&counters::SEEN_TX_OVER_BUDGET, 1);
                false
            }
            Err(Over::Total) => {
                cx.count(&counters::PENDING_FULL, 1);
                false
            }
        }
    }

    fn on_submit(&mut self, tx: Tx, cx: &mut Ctx<'_, Self>) {
        if self.have.contains(&tx.id) {
            cx.count(&counters::ALREADY_SEEN_TXS, 1);
            return;
        }
        self.accept(tx, cx);
        // Nothing is fetched or announced for it any more (our own txs get no SeenTx timer).
        self.pending.remove(&tx.id);
        if self.may_send_about(tx.id) {
            for p in self.peers.iter_up() {
                // A pool that drops unrequested txs is announced to, not pushed to.
                let msg = match self.cfg.drop_unrequested {
                    false => CatMsg::Txs(tx),
                    true => CatMsg::SeenTx {
                        key: WireKey::of(tx.id),
                        from: None,
                    },
                };
                cx.send(p, msg);
            }
        }
    }

    fn on_txs(&mut self, from: PeerIdx, tx: Tx, cx: &mut Ctx<'_, Self>) {
        if tx.len > self.cfg.max_tx_bytes {
            cx.count(&counters::OVERSIZED_TXS, 1);
            cx.disconnect(from);
            return;
        }
        if self.have.contains(&tx.id) {
            cx.count(&counters::ALREADY_SEEN_TXS, 1);
            if let Some(p) = self.pending.get_mut(&tx.id) {
                p.known.add(from);
            }
            return;
        }
        let requested = self
            .pending
            .get(&tx.id)
            .is_some_and(|e| e.known.asked(from));
        if !requested {
            cx.count(&counters::UNREQUESTED_TXS, 1);
            if self.cfg.drop_unrequested {
                // Dropped, but the peer has it: an announcement, with its charge.
                self.charge_announcer(from, tx.id, cx);
                return;
            }
        }
        self.accept(tx, cx);
        let entry = self.pending.entry(tx.id).or_default();
        entry.known.add(from);
        if !requested {
            entry.came_from = Some(from);
        }
        entry.known.in_flight = None;
        if !self.may_send_about(tx.id) {
            self.pending.remove(&tx.id);
            return;
        }
        let steps = self.cfg.seen_jitter_steps.max(1) as u64;
        let jitter = millis(
            cx.rng
                .below(steps)
                .saturating_mul(self.cfg.seen_jitter_step_ms),
        );
        cx.set_timer_in(jitter, CatTimer::SeenTx(tx.id));
        if self.behaviour == Behaviour::Spam {
            // Push the tx in full to everyone not known to have it, unasked.
            let known = &self.pending[&tx.id].known;
            for p in self.peers.iter_up().filter(|&p| !known.announced_by(p)) {
                cx.send(p, CatMsg::Txs(tx));
            }
        }
    }

    fn on_seen_tx(
        &mut self,
        from: PeerIdx,
        key: WireKey,
        origin: Option<NodeAddr>,
        cx: &mut Ctx<'_, Self>,
    ) {
        let Some(id) = key.tx() else {
            cx.count(&counters::BAD_KEY, 1);
            cx.disconnect(from);
            return;
        };
        if self.have.contains(&id) {
            if let Some(p) = self.pending.get_mut(&id) {
                if !p.known.add(from) {
                    cx.count(&counters::DUPLICATE_SEEN_TX, 1);
                }
            }
            return;
        }
        if self
            .pending
            .get(&id)
            .is_some_and(|e| e.known.announced_by(from))
        {
            cx.count(&counters::DUPLICATE_SEEN_TX, 1);
        } else if !self.charge_announcer(from, id, cx) {
            return;
        }
        let Some(entry) = self.pending.get_mut(&id) else {
            return;
        };
        if entry.known.in_flight.is_some() || entry.waiting_for_from {
            return;
        }
        if self.cfg.from_field {
            // CAT2: the tx is on its way from the node that broadcast it, if we are its peer.
            let origin_peer = origin.and_then(|a| self.addr_peer.get(&a).copied());
            if let Some(q) = origin_peer.filter(|&q| q != from && self.peers.is_up(q)) {
                if entry.came_from.is_none() {
                    entry.came_from = Some(q);
                    entry.waiting_for_from = true;
                    cx.count(&counters::FROM_WAITS, 1);
                    let timer = CatTimer::FromWait {
                        tx: id,
                        from: self.peers.session(q),
                    };
                    cx.set_timer_in(millis(self.cfg.from_wait_ms), timer);
                    return;
                }
            }
        }
        let first = entry.known.requests() == 0;
        if entry.known.ask(from, cx.timers) {
            self.send_want(from, id, first, cx);
        }
    }

    fn send_want(&mut self, to: PeerIdx, id: TxId, first: bool, cx: &mut Ctx<'_, Self>) {
        if self.silent() {
            return;
        }
        cx.count(
            if first {
                &counters::REQUESTED_TXS
            } else {
                &counters::REREQUESTED_TXS
            },
            1,
        );
        cx.send(
            to,
            CatMsg::WantTx {
                key: WireKey::of(id),
            },
        );
        let timeout = cx.set_timer_in(millis(self.cfg.request_timeout_ms), CatTimer::Request(id));
        if let Some(entry) = self.pending.get_mut(&id) {
            entry.known.set_timeout(timeout);
        }
    }

    /// Ask the next peer known to have the tx, if any.
    fn request_next(&mut self, id: TxId, cx: &mut Ctx<'_, Self>) {
        let Some(entry) = self.pending.get_mut(&id) else {
            return;
        };
        let first = entry.known.requests() == 0;
        match entry.known.ask_next(|p| self.peers.is_up(p), cx.timers) {
            Some(p) => self.send_want(p, id, first, cx),
            None => cx.count(&counters::NO_PEER_FOR_TX, 1),
        }
    }

    fn on_request_timer(&mut self, id: TxId, cx: &mut Ctx<'_, Self>) {
        if self.have.contains(&id) {
            return;
        }
        let Some(entry) = self.pending.get_mut(&id) else {
            return;
        };
        if entry.known.in_flight.is_none() {
            return;
        }
        entry.known.in_flight = None;
        self.request_next(id, cx);
    }

    fn on_from_wait_timer(&mut self, id: TxId, from: PeerSession, cx: &mut Ctx<'_, Self>) {
        if self.have.contains(&id) {
            return;
        }
        let Some(entry) = self.pending.get_mut(&id) else {
            return;
        };
        // A wait that ended when the From node left, or a later wait, is not this timer's.
        let ours = entry.came_from == Some(from.peer) && self.peers.is_current(from);
        if !entry.waiting_for_from || !ours {
            return;
        }
        entry.waiting_for_from = false;
        if entry.known.in_flight.is_none() {
            self.request_next(id, cx);
        }
    }

    fn on_want_tx(&mut self, from: PeerIdx, key: WireKey, cx: &mut Ctx<'_, Self>) {
        let Some(id) = key.tx() else {
            cx.count(&counters::BAD_KEY, 1);
            cx.disconnect(from);
            return;
        };
        let Some(&len) = self.have.get(&id) else {
            cx.count(&counters::WANT_UNKNOWN, 1);
            return;
        };
        if let Some(p) = self.pending.get_mut(&id) {
            p.known.add(from);
        }
        if !self.may_send_about(id) {
            return;
        }
        if !self.served.insert((self.peers.session(from), id), ()) {
            cx.count(&counters::WANT_REPEATED, 1);
            return;
        }
        let tx = Tx { id, len };
        match self.behaviour {
            Behaviour::WithholdOnRequest => {}
            Behaviour::DelayReplies { delay_ms } => {
                cx.set_timer_in(
                    Dur::from_millis_f64(delay_ms),
                    CatTimer::Reply {
                        to: self.peers.session(from),
                        tx,
                    },
                );
            }
            _ => cx.send(from, CatMsg::Txs(tx)),
        }
    }

    fn on_seen_tx_timer(&mut self, id: TxId, cx: &mut Ctx<'_, Self>) {
        let Some(entry) = self.pending.remove(&id) else {
            return;
        };
        // The node may have turned silent or censoring since it set the timer.
        if !self.may_send_about(id) {
            return;
        }
        let from = if self.cfg.from_field {
            entry
                .came_from
                .and_then(|p| self.peer_addr.get(p.idx()).copied().flatten())
        } else {
            None
        };
        let key = WireKey::of(id);
        for p in self
            .peers
            .iter_up()
            .filter(|&p| !entry.known.announced_by(p))
        {
            cx.send(p, CatMsg::SeenTx { key, from });
        }
    }

    fn on_hello(&mut self, from: PeerIdx, node: NodeAddr) {
        self.forget_addr(from);
        if self.peer_addr.len() <= from.idx() {
            self.peer_addr.resize(from.idx() + 1, None);
        }
        self.peer_addr[from.idx()] = Some(node);
        self.addr_peer.insert(node, from);
    }

    /// Forgets the node ID a peer gave in its Hello.
    fn forget_addr(&mut self, p: PeerIdx) {
        let Some(addr) = self.peer_addr.get_mut(p.idx()).and_then(Option::take) else {
            return;
        };
        if self.addr_peer.get(&addr) == Some(&p) {
            self.addr_peer.remove(&addr);
        }
    }

    /// A peer connected: it hears of the newest txs of the pool (and, in CAT2, our node ID).
    fn on_peer_up(&mut self, p: PeerIdx, cx: &mut Ctx<'_, Self>) {
        self.peers.set(p, true);
        if self.silent() {
            return;
        }
        if self.cfg.from_field {
            cx.send(p, CatMsg::Hello { node: self.me });
        }
        for id in self.have.newest(self.cfg.announce_on_connect as usize) {
            if self.may_send_about(id) {
                let key = WireKey::of(id);
                cx.send(p, CatMsg::SeenTx { key, from: None });
            }
        }
    }

    /// A peer left, and its index may go to another: forget its node ID and every list it is
    /// in, and its charges. A broadcast tx that came from it no longer names it in SeenTx (the
    /// index will name someone else). A tx we lack that no one else announced is forgotten. A
    /// tx whose WantTx was in flight to it, or that we were waiting to get from it (CAT2), is
    /// asked of the next peer known to have it at once.
    fn on_peer_down(&mut self, p: PeerIdx, cx: &mut Ctx<'_, Self>) {
        self.peers.set(p, false);
        self.forget_addr(p);
        self.missing.clear(p);
        let lists = self.pending.iter_mut().map(|(id, e)| (id, &mut e.known));
        let mut stalled = forget_peer(lists, p);
        // Whether kept or not, the outcome does not depend on the map's order.
        self.pending
            .retain(|_, e| !(e.charged && e.known.announcers() == 0));
        for (&id, entry) in self.pending.iter_mut() {
            if entry.came_from == Some(p) {
                entry.came_from = None;
                if std::mem::take(&mut entry.waiting_for_from) {
                    stalled.push(id);
                }
            }
        }
        stalled.sort_unstable();
        stalled.dedup();
        for id in stalled {
            if !self.have.contains(&id) {
                self.request_next(id, cx);
            }
        }
    }
}

impl Protocol for Cat {
    type Msg = CatMsg;
    type Timer = CatTimer;
    type Config = CatConfig;

    /// Larger txs are dropped (`max_tx_bytes`).
    fn max_tx_bytes(config: &CatConfig) -> Option<usize> {
        Some(config.max_tx_bytes as usize)
    }

    fn new(config: &CatConfig, setup: &NodeSetup) -> Self {
        Cat {
            cfg: config.clone(),
            behaviour: setup.behaviour.clone(),
            me: NodeAddr::of_node(setup.node),
            peers: Peers::default(),
            have: Recent::new(config.max_pool_txs as usize),
            pending: IdMap::default(),
            missing: Ledger::new(Budget {
                per_peer: config.max_pending_per_peer,
                total: config.max_pending,
            }),
            served: Recent::new(SERVED_MEMORY),
            peer_addr: Vec::new(),
            addr_peer: IdMap::default(),
        }
    }

    fn handle(&mut self, input: Input<CatMsg, CatTimer>, cx: &mut Ctx<'_, Self>) {
        match input {
            Input::PeerUp(p) => self.on_peer_up(p, cx),
            Input::PeerDown(p) => self.on_peer_down(p, cx),
            Input::Submit(tx) => self.on_submit(tx, cx),
            Input::Message(from, msg) => match msg {
                CatMsg::Txs(tx) => self.on_txs(from, tx, cx),
                CatMsg::SeenTx { key, from: origin } => self.on_seen_tx(from, key, origin, cx),
                CatMsg::WantTx { key } => self.on_want_tx(from, key, cx),
                CatMsg::Hello { node } => self.on_hello(from, node),
            },
            Input::Timer(t) => match t {
                CatTimer::SeenTx(id) => self.on_seen_tx_timer(id, cx),
                CatTimer::Request(tx) => self.on_request_timer(tx, cx),
                CatTimer::FromWait { tx, from } => self.on_from_wait_timer(tx, from, cx),
                CatTimer::Reply { to, tx } => {
                    if self.peers.is_current(to) && self.may_send_about(tx.id) {
                        cx.send(to.peer, CatMsg::Txs(tx));
                    }
                }
            },
        }
    }

    fn set_behaviour(&mut self, behaviour: &Behaviour, cx: &mut Ctx<'_, Self>) {
        let was_silent = self.silent();
        self.behaviour = behaviour.clone();
        // CAT2 nodes name themselves as peers connect; one that was silent then does it now.
        if was_silent && !self.silent() && self.cfg.from_field {
            for p in self.peers.iter_up() {
                cx.send(p, CatMsg::Hello { node: self.me });
            }
        }
    }

    fn tx_status(&self, tx: TxId) -> TxStatus {
        if self.have.contains(&tx) {
            return TxStatus::Have;
        }
        self.pending
            .get(&tx)
            .map_or(TxStatus::Unknown, |p| p.known.status())
    }

    fn describe_timer(timer: &CatTimer) -> TimerNote {
        match timer {
            CatTimer::SeenTx(tx) => TimerNote::of("SeenTx delay", Some(*tx)),
            CatTimer::Request(tx) => TimerNote::of("WantTx timeout", Some(*tx)),
            CatTimer::FromWait { tx, .. } => TimerNote::of("From wait", Some(*tx)),
            CatTimer::Reply { tx, .. } => TimerNote::of("delayed reply", Some(tx.id)),
        }
    }

    /// Pending wants and who has seen what: per tx being fetched (or whose SeenTx waits),
    /// the peer asked and every peer known to have it.
    fn detail(&self, _now: Time) -> Detail {
        let mut table = Table::new(
            "pending wants and who has seen what",
            &["in pool", "WantTx in flight to", "seen by", "requests sent"],
        );
        let mut ids: Vec<TxId> = self.pending.keys().copied().collect();
        ids.sort_unstable();
        for id in ids {
            let p = &self.pending[&id];
            let have = if self.have.contains(&id) { "yes" } else { "no" };
            let asked = p.known.in_flight.map_or(Cell::from("-"), Cell::Peer);
            let seen = Cell::Peers(p.known.announcer_list().to_vec());
            let sent = Cell::from(p.known.requests() as usize);
            table.tx(id, vec![Cell::from(have), asked, seen, sent]);
        }
        Detail {
            groups: Vec::new(),
            tables: vec![table],
        }
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        vec![
            ("txs in pool", self.have.len().to_string()),
            ("txs pending", self.pending.len().to_string()),
            ("peers up", self.peers.count_up().to_string()),
        ]
    }
}

#[cfg(test)]
mod tests;
