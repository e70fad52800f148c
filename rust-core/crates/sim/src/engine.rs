//! The discrete-event engine: drives one protocol instance per node through the sans-IO
//! contract, carrying messages over links with latency, per-node bandwidth (FIFO, or shared
//! among connections as TCP shares it: `fair.rs`), loss and jitter, and firing timers, all in
//! (time, sequence) order.

use crate::bits::Bits;
use crate::digest::EventLog;
use crate::fair::{FairLinks, Item};
use crate::links::Links;
use crate::metrics::Metrics;
use crate::network::{Edge, Network};
use crate::step::{knew, note_actions, note_input, Step, StepSink};
use crate::timeline::What;
use crate::workload::TxPlan;
use proto::prefetch::{prefetch, prefetch_all, warm};
use proto::WireMsg;
use proto::{
    stream, Action, Behaviour, Ctx, Input, NodeSetup, Payloads, PeerIdx, Protocol, Rng, Time,
};
use proto::{Counter, EventQueue, MsgClass, TimerId, TimerTable, Unit};
use std::collections::BinaryHeap;
use std::sync::Arc;

/// A send or disconnect that names a peer index the node does not have.
pub const BAD_PEER_INDEX: Counter = Counter {
    name: "engine.bad_peer_index",
    unit: Unit::Events,
    about: "Sends and disconnects naming a peer index the node does not have; ignored, as they mean a protocol bug.",
    effect: None,
};

pub const DISCONNECTS: Counter = Counter {
    name: "engine.disconnects",
    unit: Unit::Peers,
    about: "Links a node tore down (a protocol disconnecting a misbehaving peer), counted at the node that did it.",
    effect: None,
};

/// The counters the engine keeps itself, besides the protocol's.
pub const COUNTERS: &[&Counter] = &[&BAD_PEER_INDEX, &DISCONNECTS];

/// Options that do not come from the scenario file.
#[derive(Clone, Debug, Default)]
pub struct EngineOptions {
    /// Partitioning of the per-node arrival logs (PQ, NP); the ADR's defaults if none.
    pub arrival_layout: Option<arrivals::Layout>,
    /// Carry transaction bytes in codewords even where no adversary corrupts them (otherwise
    /// protocols may carry stand-ins: `NodeSetup::payloads`). The events are the same either
    /// way; tests check that.
    pub real_payloads: bool,
}

/// One step of a run, for traces and the UI.
#[derive(Clone, Debug, PartialEq)]
pub enum TraceEvent {
    /// A message left `from` for `to`; it arrives at `arrive_us` unless `lost`. `tx` is the
    /// transaction it carries in full, if any; `subject` the one it is about (`WireMsg::subject`).
    /// With FIFO links `t_us` is when the protocol sent it; with fair sharing, when its last
    /// byte left the sender (what a connection sends depends on what comes after).
    Send {
        tx: Option<u64>,
        subject: Option<u64>,
        t_us: u64,
        from: u32,
        to: u32,
        kind: &'static str,
        class: MsgClass,
        bytes: u32,
        payload: u32,
        arrive_us: u64,
        lost: bool,
    },
    /// `node` accepted `tx` for the first time.
    Deliver { t_us: u64, node: u32, tx: u64 },
    /// `node` received a full copy of `tx` it already had.
    Duplicate { t_us: u64, node: u32, tx: u64 },
    /// A protocol counter moved (rejections, retries, ...).
    Count {
        t_us: u64,
        node: u32,
        name: &'static str,
        n: u64,
    },
}

pub type TraceSink = Box<dyn FnMut(&TraceEvent)>;

enum Event<M, T> {
    /// The next transaction of the plan is created.
    Submit,
    /// A message reaches the receiver's downlink over directed edge `edge`.
    Arrive {
        edge: u32,
        msg: M,
    },
    /// The receiver hands the message to its protocol.
    Handle {
        edge: u32,
        msg: M,
    },
    Timer {
        node: u32,
        timer: T,
        id: TimerId,
    },
    /// A node's uplink finished a message and can start the next queued one.
    UplinkFree {
        node: u32,
    },
    /// A link of `node` (its peer number `peer`) went down or came up.
    Peer {
        node: u32,
        peer: u32,
        up: bool,
    },
    /// The timeline's next change (`Engine::next_change`) is due.
    Change,
    /// Fair sharing: a connection's transfer is due for a look.
    Flow {
        edge: u32,
        generation: u32,
    },
}

/// A message waiting for a busy uplink, when the protocol uses priorities.
struct Queued<M> {
    priority: u8,
    seq: u64,
    edge: u32,
    msg: M,
}

impl<M> PartialEq for Queued<M> {
    fn eq(&self, o: &Self) -> bool {
        (self.priority, self.seq) == (o.priority, o.seq)
    }
}
impl<M> Eq for Queued<M> {}
impl<M> PartialOrd for Queued<M> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl<M> Ord for Queued<M> {
    /// Max-heap: higher priority first, then earlier sequence.
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.priority.cmp(&o.priority).then(o.seq.cmp(&self.seq))
    }
}

mod tag {
    pub const SUBMIT: u8 = 1;
    pub const ARRIVE: u8 = 2;
    pub const HANDLE: u8 = 3;
    pub const TIMER: u8 = 4;
    pub const UPLINK: u8 = 5;
    pub const DELIVER: u8 = 6;
    pub const PEER_DOWN: u8 = 7;
    pub const LOST: u8 = 8;
    pub const CHANGE: u8 = 9;
    pub const PEER_UP: u8 = 10;
    pub const FLOW: u8 = 11;
}

/// How many events ahead `warm_ahead` asks for an arrival's edge and message, then its receiver's
/// counters and protocol state (a timer's table and node state), then what an arrival's
/// protocol finds through that state (`Protocol::warm_early`), then what the protocol will
/// read there (`Protocol::warm`; the timer's slot and `Protocol::warm_timer`).
const AHEAD_EDGE: usize = 15;
const AHEAD_NODE: usize = 10;
const AHEAD_EARLY: usize = 7;
const AHEAD_PEER: usize = 5;
/// Without a prefetch instruction (WASM), warming ahead costs real loads and lookups: it pays
/// only once the nodes' state outgrows the CPU's caches (WASM engine bench: 6% slower at 1,000
/// nodes, 10% faster at 10,000).
const WARM_FROM_NODES: usize = 4_096;
/// From this many nodes on, an arrival also warms the receiver's row of counts and the
/// edges it may send on: on smaller networks they stay cached, and the prefetches only add
/// instructions (cachegrind, flood-1000).
const WARM_SENDS_FROM_NODES: usize = 4_096;

/// Events per call of `steps`. A WebAssembly engine (V8) compiles a hot function's optimised
/// code in the background, but a call already running stays in the baseline code: a run taken
/// in one call of `steps` (`run_until` to the end, as the benches do) ran all of it there (the
/// 250-node Strokkur bench in Node spent 4.0% of its time in `steps`' baseline code, 3.0% in
/// its optimised code once sliced).
const SLICE_EVENTS: u64 = 1 << 16;

/// Time to push `bytes` through a link of `bps` bits per second (0 = unlimited), rounded up.
#[inline]
pub fn serialization_us(bytes: usize, bps: u64) -> u64 {
    if bps == 0 {
        return 0;
    }
    ((bytes as u128 * 8_000_000).div_ceil(bps as u128)) as u64
}

pub struct Engine<P: Protocol> {
    net: Arc<Network>,
    plan: Arc<TxPlan>,
    nodes: Vec<P>,
    rngs: Vec<Rng>,
    timers: Vec<TimerTable>,
    queue: EventQueue<Event<P::Msg, P::Timer>>,
    actions: Vec<Action<P::Msg, P::Timer>>,
    up_free_us: Vec<u64>,
    down_free_us: Vec<u64>,
    /// No node's bandwidth is limited, so no message waits for a link and the per-node link
    /// figures above are never read (on large networks each read would be a cache miss).
    unlimited: bool,
    uplink_waiting: Vec<BinaryHeap<Queued<P::Msg>>>,
    uplink_scheduled: Vec<bool>,
    queued_seq: u64,
    /// Whether a send may not go straight onto a FIFO uplink: a protocol used priorities, or
    /// links are shared fairly (one test on the hot path for both).
    prioritized: bool,
    link_up: Bits,
    link_rng: Rng,
    loss: f64,
    jitter_us: u64,
    processing_us: u64,
    pub metrics: Metrics,
    log: EventLog,
    events: u64,
    now: u64,
    end_us: u64,
    next_submit: usize,
    /// Nodes told of every tx at its creation (`Protocol::told_every_tx`), in node order.
    told: Vec<u32>,
    /// Which links timed events want up; only for runs with events.
    links: Option<Box<Links>>,
    /// Links shared among connections (`links.sharing` "fair"); None for FIFO links.
    fair: Option<Box<FairLinks<P::Msg>>>,
    /// Messages a connection just got through (scratch).
    through: Vec<(u32, Item<P::Msg>)>,
    next_change: usize,
    trace: Option<TraceSink>,
    /// Every input handled and what it led to, for narration (off unless asked for).
    steps: Option<StepSink>,
}

impl<P: Protocol> Engine<P> {
    pub fn new(
        net: Arc<Network>,
        plan: Arc<TxPlan>,
        scenario: &crate::scenario::Scenario,
        config: &P::Config,
        options: &EngineOptions,
    ) -> Self {
        let n = net.nodes;
        // Bytes wherever a node corrupts them, from the start or after a timed switch.
        let corrupt = &Behaviour::Corrupt;
        let payloads = match options.real_payloads
            || net.behaviour.contains(corrupt)
            || net.timeline.ever(corrupt)
        {
            true => Payloads::Simulated,
            false => Payloads::StandIns,
        };
        let nodes = (0..n)
            .map(|v| {
                P::new(
                    config,
                    &NodeSetup {
                        node: v as u32,
                        behaviour: net.behaviour[v].clone(),
                        payloads,
                    },
                )
            })
            .collect();
        let rngs = (0..n)
            .map(|v| Rng::derive(scenario.seed, stream::NODE, v as u64))
            .collect();
        let mut engine = Engine {
            nodes,
            rngs,
            timers: (0..n).map(|_| TimerTable::default()).collect(),
            queue: EventQueue::new(),
            actions: Vec::new(),
            up_free_us: vec![0; n],
            down_free_us: vec![0; n],
            unlimited: net.up_bps.iter().chain(&net.down_bps).all(|&bps| bps == 0),
            uplink_waiting: (0..n).map(|_| BinaryHeap::new()).collect(),
            uplink_scheduled: vec![false; n],
            queued_seq: 0,
            prioritized: !scenario.links.sharing.is_fifo(),
            link_up: Bits::new(net.edges.len(), true),
            link_rng: Rng::derive(scenario.seed, stream::LINKS, 1),
            loss: scenario.links.loss,
            jitter_us: (scenario.links.jitter_ms * 1000.0).round() as u64,
            processing_us: (scenario.processing_delay_ms * 1000.0).round() as u64,
            metrics: Metrics::new(&net, &plan, options.arrival_layout.unwrap_or_default()),
            log: EventLog::default(),
            events: 0,
            now: 0,
            end_us: plan
                .end_us
                .saturating_add((scenario.drain_ms * 1000.0).round() as u64),
            next_submit: 0,
            told: Vec::new(),
            links: (!net.timeline.is_empty()).then(|| Box::new(Links::new(&net))),
            fair: (!scenario.links.sharing.is_fifo()).then(|| {
                Box::new(FairLinks::new(
                    &net,
                    scenario.links.sharing,
                    scenario.links.tcp.as_ref(),
                ))
            }),
            through: Vec::new(),
            next_change: 0,
            trace: None,
            steps: None,
            net,
            plan,
        };
        engine.told = (0..n)
            .filter(|&v| engine.nodes[v].told_every_tx())
            .map(|v| v as u32)
            .collect();
        // Links come up at time zero, node by node, peer by peer.
        for v in 0..n {
            for p in 0..engine.net.degree(v) {
                engine.dispatch(v, Input::PeerUp(PeerIdx(p as u32)));
            }
        }
        if let Some(&first) = engine.plan.created_us.first() {
            engine.queue.push(first, Event::Submit);
        }
        if let Some(first) = engine.net.timeline.changes.first() {
            engine.queue.push(first.at_us, Event::Change);
        }
        engine
    }

    /// Send every trace event to `sink`.
    pub fn set_trace(&mut self, sink: TraceSink) {
        self.trace = Some(sink);
    }

    /// Send every input a node handles, with what it did, to `sink` (from now on).
    pub fn set_steps(&mut self, sink: StepSink) {
        self.steps = Some(sink);
    }

    pub fn now_us(&self) -> u64 {
        self.now
    }

    pub fn end_us(&self) -> u64 {
        self.end_us
    }

    pub fn events(&self) -> u64 {
        self.events
    }

    pub fn network(&self) -> &Network {
        &self.net
    }

    pub fn node_mut(&mut self, v: usize) -> &mut P {
        &mut self.nodes[v]
    }

    pub fn node(&self, v: usize) -> &P {
        &self.nodes[v]
    }

    /// Process every event up to and including time `t_us` (capped at the run's end).
    /// Returns false once the run is over.
    pub fn run_until(&mut self, t_us: u64) -> bool {
        self.run_bounded(t_us, u64::MAX)
    }

    /// Like `run_until`, but stop after `max_events` events, so a host can stay responsive
    /// and show progress. Returns false once the run is over.
    pub fn run_bounded(&mut self, t_us: u64, max_events: u64) -> bool {
        let limit = t_us.min(self.end_us);
        let mut left = max_events;
        while left > 0 {
            let slice = left.min(SLICE_EVENTS);
            if self.steps(limit, slice) < slice {
                break;
            }
            left -= slice;
        }
        match self.queue.peek_time() {
            None => false,
            Some(t) if t > limit => {
                self.now = self.now.max(limit);
                limit < self.end_us
            }
            // The budget ran out with events still due.
            Some(_) => true,
        }
    }

    /// Takes up to `max_events` events due by `limit`; returns how many it took. Never
    /// inlined: it is the function that must return for its optimised code to take over.
    #[inline(never)]
    fn steps(&mut self, limit: u64, max_events: u64) -> u64 {
        let mut taken = 0;
        while taken < max_events {
            let Some((t, event)) = self.queue.pop_until(limit) else {
                break;
            };
            self.warm_ahead();
            self.step(t, event);
            taken += 1;
        }
        taken
    }

    /// The digest of the event log so far; consumes the engine's log.
    pub fn finish(mut self) -> (Metrics, String, u64) {
        self.metrics.flush_arrivals();
        (self.metrics, self.log.finish(), self.events)
    }

    /// Warms what upcoming message arrivals will read, in stages so each address is known by
    /// the time it is needed: the edge far ahead, then (from the edge, now cached) the
    /// receiver's counters and protocol state, then (from that state) what the protocol will
    /// read beyond it.
    #[inline]
    fn warm_ahead(&self) {
        // A constant on x86_64, where prefetching is always worth it.
        if !cfg!(target_arch = "x86_64") && self.nodes.len() < WARM_FROM_NODES {
            return;
        }
        let edges = &self.net.edges;
        let sends = self.nodes.len() >= WARM_SENDS_FROM_NODES;
        if let Some(Event::Arrive { edge, msg }) = self.queue.peek_ahead(AHEAD_EDGE) {
            if let Some(e) = edges.get(*edge as usize) {
                warm(e);
            }
            P::warm_message(msg);
        }
        match self.queue.peek_ahead(AHEAD_NODE) {
            Some(Event::Arrive { edge, msg }) => {
                if let Some(e) = edges.get(*edge as usize) {
                    let r = e.peer as usize;
                    if let Some(stats) = self.metrics.node.get(r) {
                        // The counts (72 bytes) span two lines for 5 nodes in 8: both are
                        // started natively; in WASM, with no prefetch, `warm` loads the first.
                        warm(stats);
                        prefetch_all(stats);
                        self.warm_node(r);
                        if sends {
                            self.warm_sends_early(r);
                        }
                        if let Some(word) = msg
                            .full_tx()
                            .and_then(|id| self.metrics.has_word(r, id.0 as usize))
                        {
                            warm(word);
                        }
                    }
                }
            }
            Some(Event::Timer { node, .. }) => {
                if let Some(table) = self.timers.get(*node as usize) {
                    warm(table);
                    self.warm_node(*node as usize);
                }
            }
            _ => {}
        }
        if let Some(Event::Arrive { edge, .. }) = self.queue.peek_ahead(AHEAD_EARLY) {
            if let Some(e) = edges.get(*edge as usize) {
                if let Some(node) = self.nodes.get(e.peer as usize) {
                    node.warm_early(PeerIdx(e.back));
                }
            }
        }
        match self.queue.peek_ahead(AHEAD_PEER) {
            Some(Event::Arrive { edge, msg }) => {
                if let Some(e) = edges.get(*edge as usize) {
                    if let Some(node) = self.nodes.get(e.peer as usize) {
                        node.warm(PeerIdx(e.back), msg);
                    }
                    if sends {
                        self.warm_out_edges(e.peer as usize);
                    }
                }
            }
            Some(Event::Timer { node, id, timer }) => {
                if let Some(table) = self.timers.get(*node as usize) {
                    table.prefetch(*id);
                }
                if let Some(node) = self.nodes.get(*node as usize) {
                    node.warm_timer(timer);
                }
            }
            _ => {}
        }
    }

    /// Where node `v`'s edges start, and its row of counts: what handling a message there
    /// reads when it sends and counts.
    #[inline(always)]
    fn warm_sends_early(&self, v: usize) {
        if let Some(at) = self.net.offsets.get(v) {
            warm(at);
        }
        if let Some(first) = self.metrics.counts_of(v).and_then(|row| row.first()) {
            warm(first);
        }
    }

    /// The edges node `v` sends on: a message it handles may go on to any of its peers.
    #[inline(always)]
    fn warm_out_edges(&self, v: usize) {
        let Some(&[start, end]) = self.net.offsets.get(v..v + 2) else {
            return;
        };
        if let Some(out) = self.net.edges.get(start as usize..end as usize) {
            prefetch_all(out);
        }
    }

    /// The first `P::WARM_LINES` cache lines of node `v`'s protocol state: what handling
    /// reads first may be in any of them.
    #[inline(always)]
    fn warm_node(&self, v: usize) {
        if let Some(node) = self.nodes.get(v) {
            let first = (node as *const P).cast::<u8>();
            for line in 0..P::WARM_LINES {
                prefetch(first.wrapping_add(64 * line));
            }
        }
    }

    #[inline]
    fn step(&mut self, t: u64, event: Event<P::Msg, P::Timer>) {
        self.now = t;
        self.events += 1;
        match event {
            Event::Submit => {
                let i = self.next_submit;
                self.next_submit += 1;
                if let Some(&next) = self.plan.created_us.get(self.next_submit) {
                    self.queue.push(next, Event::Submit);
                }
                let origin = self.plan.origin[i] as usize;
                self.log
                    .record(t, tag::SUBMIT, origin as u32, i as u32, self.plan.len[i]);
                self.dispatch(origin, Input::Submit(self.plan.tx(i)));
                if !self.told.is_empty() {
                    self.tell(origin, i);
                }
            }
            Event::Arrive { edge, msg } => self.on_arrive(edge, msg),
            Event::Handle { edge, msg } => {
                self.log
                    .record(t, tag::HANDLE, edge, msg.wire_len() as u32, 0);
                self.on_handle(edge, msg);
            }
            Event::Timer { node, timer, id } => {
                self.log.record(t, tag::TIMER, node, 0, 0);
                if self.timers[node as usize].fire(id) {
                    self.dispatch(node as usize, Input::Timer(timer));
                }
            }
            Event::UplinkFree { node } => {
                self.log.record(t, tag::UPLINK, node, 0, 0);
                self.on_uplink_free(node as usize);
            }
            Event::Peer { node, peer, up } => self.on_peer(node, peer, up),
            Event::Change => self.on_change(),
            Event::Flow { edge, generation } => self.on_flow(edge, generation),
        }
    }

    /// A link of `node` went down or came up; the node hears of it. Rare (timed events and
    /// disconnects): out of line, so `steps` keeps its registers for arrivals (inlined, it
    /// cost flood-1000 a register move an arrival, cachegrind).
    #[cold]
    #[inline(never)]
    fn on_peer(&mut self, node: u32, peer: u32, up: bool) {
        let (kind, input) = match up {
            false => (tag::PEER_DOWN, Input::PeerDown(PeerIdx(peer))),
            true => (tag::PEER_UP, Input::PeerUp(PeerIdx(peer))),
        };
        self.log.record(self.now, kind, node, peer, 0);
        self.dispatch(node as usize, input);
    }

    /// Fair sharing: a connection is looked at; what it got through crosses the link.
    #[cold]
    #[inline(never)]
    fn on_flow(&mut self, edge: u32, generation: u32) {
        let Some(fair) = &mut self.fair else {
            return;
        };
        let mut through = std::mem::take(&mut self.through);
        if fair.wake(edge, generation, self.now, &mut through) {
            self.log.record(self.now, tag::FLOW, edge, generation, 0);
            self.hold();
            for (e, item) in through.drain(..) {
                self.sent_fair(e as usize, item);
            }
        }
        self.through = through;
    }

    /// Puts the connections' next looks that fair sharing asked for in the queue.
    fn hold(&mut self) {
        let Some(fair) = self.fair.as_deref_mut() else {
            return;
        };
        for w in fair.drain_wakes() {
            self.queue.push(
                w.at_us,
                Event::Flow {
                    edge: w.conn,
                    generation: w.generation,
                },
            );
        }
    }

    /// Fair sharing: a message's last bit left its sender; it arrives a link latency later,
    /// through the receiver's downlink already (the flow's rate held on both ends).
    fn sent_fair(&mut self, e: usize, item: Item<P::Msg>) {
        let edge = self.net.edges[e];
        let arrive = self.now + edge.latency_us + item.jitter_us;
        let Item {
            msg, bytes, lost, ..
        } = item;
        let from = self.net.edges[self.net.reverse(e)].peer;
        self.cross_link((from, edge.peer), e, msg, bytes, lost, arrive);
    }

    /// Fair sharing: a message joins its connection's queue.
    #[cold]
    #[inline(never)]
    fn send_fair(&mut self, e: usize, msg: P::Msg, bytes: usize) {
        let lost = self.loss > 0.0 && self.link_rng.chance(self.loss);
        let jitter_us = if self.jitter_us > 0 {
            self.link_rng.below(self.jitter_us)
        } else {
            0
        };
        let Some(fair) = &mut self.fair else {
            return;
        };
        let item = Item {
            priority: msg.priority(),
            msg,
            bytes: bytes as u32,
            lost,
            jitter_us,
        };
        fair.send(e, item, self.now);
        self.hold();
    }

    /// Fair sharing: what was queued on links that went down is dropped.
    fn drop_fair(&mut self, edges: impl Iterator<Item = usize>) {
        let Some(fair) = &mut self.fair else {
            return;
        };
        for e in edges {
            fair.drop_link(&self.net, e, self.now);
        }
        self.hold();
    }

    /// Carries out the timeline's next change and schedules the one after it.
    #[cold]
    #[inline(never)]
    fn on_change(&mut self) {
        let net = Arc::clone(&self.net);
        let i = self.next_change;
        self.next_change += 1;
        let Some(change) = net.timeline.changes.get(i) else {
            return;
        };
        if let Some(next) = net.timeline.changes.get(i + 1) {
            self.queue.push(next.at_us, Event::Change);
        }
        self.log
            .record(self.now, tag::CHANGE, change.event, change.what.code(), 0);
        match &change.what {
            What::Behaviour { nodes, behaviour } => {
                for &v in nodes {
                    self.behave(v as usize, behaviour);
                }
                return;
            }
            What::Loss(p) => {
                self.loss = *p;
                return;
            }
            // The plan already creates txs at the new rate.
            What::Load(_) => return,
            What::Leave(_) | What::Join(_) | What::Partition(_) | What::Heal => {}
        }
        let Some(mut links) = self.links.take() else {
            return;
        };
        let (mut down, mut up) = (Vec::new(), Vec::new());
        // The directed edges out of `v` whose wanted state differs from what they are.
        let flips = |links: &Links, v: usize, want: bool, out: &mut Vec<(usize, usize)>| {
            for e in net.edges_of(v) {
                if self.link_up.get(e) != want && links.wanted(&net, v, e) == want {
                    out.push((v, e));
                }
            }
        };
        match &change.what {
            What::Leave(nodes) => {
                nodes.iter().for_each(|&v| links.set_away(v as usize, true));
                nodes
                    .iter()
                    .for_each(|&v| flips(&links, v as usize, false, &mut down));
            }
            What::Join(nodes) => {
                nodes
                    .iter()
                    .for_each(|&v| links.set_away(v as usize, false));
                nodes
                    .iter()
                    .for_each(|&v| flips(&links, v as usize, true, &mut up));
            }
            What::Partition(group) => {
                links.partition(group);
                group
                    .iter()
                    .for_each(|&v| flips(&links, v as usize, false, &mut down));
            }
            What::Heal => {
                // Only links with a cut-off end were cut by a partition.
                let healed = links.heal();
                healed
                    .iter()
                    .for_each(|&v| flips(&links, v as usize, true, &mut up));
            }
            What::Behaviour { .. } | What::Loss(_) | What::Load(_) => {}
        }
        self.links = Some(links);
        self.take_down(&down);
        self.bring_up(&up);
    }

    /// Links go down (both directions): what was in flight on them or waiting for an uplink
    /// is lost, and both ends hear of it.
    fn take_down(&mut self, edges: &[(usize, usize)]) {
        let Some(mut links) = self.links.take() else {
            return;
        };
        let cut = &mut links.going_down;
        for &(v, e) in edges {
            let rev = self.net.reverse(e);
            if !self.link_up.get(e) {
                continue; // both ends left: taken down from the other side already
            }
            self.link_up.set(e, false);
            self.link_up.set(rev, false);
            cut[e] = true;
            cut[rev] = true;
            let Edge { peer, back, .. } = self.net.edges[e];
            let p = (e - self.net.edges_of(v).start) as u32;
            self.queue.push(
                self.now,
                Event::Peer {
                    node: v as u32,
                    peer: p,
                    up: false,
                },
            );
            self.queue.push(
                self.now,
                Event::Peer {
                    node: peer,
                    peer: back,
                    up: false,
                },
            );
        }
        if !edges.is_empty() {
            if self.fair.is_some() {
                self.drop_fair(edges.iter().map(|&(_, e)| e));
            }
            self.queue.retain(|event| match event {
                Event::Arrive { edge, .. } | Event::Handle { edge, .. } => !cut[*edge as usize],
                _ => true,
            });
            for waiting in &mut self.uplink_waiting {
                if !waiting.is_empty() {
                    waiting.retain(|q| !cut[q.edge as usize]);
                }
            }
        }
        for &(_, e) in edges {
            cut[e] = false;
            cut[self.net.reverse(e)] = false;
        }
        self.links = Some(links);
    }

    /// Links come back (both directions) and both ends hear of it.
    fn bring_up(&mut self, edges: &[(usize, usize)]) {
        for &(v, e) in edges {
            let rev = self.net.reverse(e);
            if self.link_up.get(e) {
                continue;
            }
            self.link_up.set(e, true);
            self.link_up.set(rev, true);
            let Edge { peer, back, .. } = self.net.edges[e];
            let p = (e - self.net.edges_of(v).start) as u32;
            self.queue.push(
                self.now,
                Event::Peer {
                    node: v as u32,
                    peer: p,
                    up: true,
                },
            );
            self.queue.push(
                self.now,
                Event::Peer {
                    node: peer,
                    peer: back,
                    up: true,
                },
            );
        }
    }

    /// A node's behaviour changes; what it does about it is carried out.
    fn behave(&mut self, node: usize, behaviour: &Behaviour) {
        let mut cx: Ctx<'_, P> = Ctx::new(
            Time(self.now),
            &mut self.rngs[node],
            &mut self.timers[node],
            &mut self.actions,
        );
        self.nodes[node].set_behaviour(behaviour, &mut cx);
        self.apply_all(node);
        let v = node as u32;
        match (
            self.told.binary_search(&v),
            self.nodes[node].told_every_tx(),
        ) {
            (Err(at), true) => self.told.insert(at, v),
            (Ok(at), false) => {
                self.told.remove(at);
            }
            _ => {}
        }
    }

    /// Tx `i` was just created at `origin`: the nodes told of every tx get it as well.
    #[cold]
    #[inline(never)]
    fn tell(&mut self, origin: usize, i: usize) {
        for k in 0..self.told.len() {
            let v = self.told[k] as usize;
            if v != origin {
                self.dispatch(v, Input::Submit(self.plan.tx(i)));
            }
        }
    }

    fn on_arrive(&mut self, edge: u32, msg: P::Msg) {
        let e = edge as usize;
        let bytes = msg.wire_len();
        self.log
            .record(self.now, tag::ARRIVE, edge, bytes as u32, 0);
        if !self.link_up.get(e) {
            return;
        }
        let Edge { peer, back, .. } = self.net.edges[e];
        let r = peer as usize;
        let payload = msg.payload_len().min(bytes);
        let stats = &mut self.metrics.node[r];
        stats.down_payload += payload as u64;
        stats.down_control += (bytes - payload) as u64;
        // Nothing to wait for on an unlimited downlink, nor with fair links, where the
        // flow's rate already held on the downlink as it left the sender.
        let bps = match self.unlimited || self.fair.is_some() {
            true => 0,
            false => self.net.down_bps[r],
        };
        let done = if bps == 0 {
            self.now
        } else {
            let start = self.now.max(self.down_free_us[r]);
            let done = start + serialization_us(bytes, bps);
            self.down_free_us[r] = done;
            done
        };
        let at = done + self.processing_us;
        if at == self.now {
            // Handled at once: the link is still up and the edge already read.
            self.receive(r, back, msg);
        } else {
            self.queue.push(at, Event::Handle { edge, msg });
        }
    }

    fn on_handle(&mut self, edge: u32, msg: P::Msg) {
        let e = edge as usize;
        if !self.link_up.get(e) {
            return;
        }
        let Edge { peer, back, .. } = self.net.edges[e];
        self.receive(peer as usize, back, msg);
    }

    /// Node `r` takes in a message from its peer number `back`.
    #[inline(always)]
    fn receive(&mut self, r: usize, back: u32, msg: P::Msg) {
        if let Some(tx) = msg.full_tx() {
            let duplicate = self.metrics.has(r, tx.0 as usize);
            let stats = &mut self.metrics.node[r];
            stats.copies += 1;
            if duplicate {
                stats.duplicates += 1;
                if let Some(trace) = &mut self.trace {
                    trace(&TraceEvent::Duplicate {
                        t_us: self.now,
                        node: r as u32,
                        tx: tx.0,
                    });
                }
            }
        }
        self.dispatch(r, Input::Message(PeerIdx(back), msg));
    }

    fn on_uplink_free(&mut self, node: usize) {
        self.uplink_scheduled[node] = false;
        if let Some(q) = self.uplink_waiting[node].pop() {
            let bytes = q.msg.wire_len();
            self.transmit(node, q.edge as usize, q.msg, bytes);
        }
        if !self.uplink_waiting[node].is_empty() {
            self.queue.push(
                self.up_free_us[node],
                Event::UplinkFree { node: node as u32 },
            );
            self.uplink_scheduled[node] = true;
        }
    }

    /// Hand one input to a node's protocol and carry out what it asks for. The hot path keeps
    /// its own body: sharing it with `behave` through a closure cost 5.6% more instructions in
    /// a flooding run (cachegrind, flood-1000).
    #[inline(always)]
    fn dispatch(&mut self, node: usize, input: Input<P::Msg, P::Timer>) {
        if self.steps.is_some() {
            return self.dispatch_noted(node, input);
        }
        self.handle_at(node, input);
        // Most inputs (a copy already seen) ask for nothing.
        if !self.actions.is_empty() {
            self.apply_all(node);
        }
    }

    /// The node's protocol takes one input; its actions wait in `self.actions`.
    #[inline(always)]
    fn handle_at(&mut self, node: usize, input: Input<P::Msg, P::Timer>) {
        let mut cx: Ctx<'_, P> = Ctx::new(
            Time(self.now),
            &mut self.rngs[node],
            &mut self.timers[node],
            &mut self.actions,
        );
        self.nodes[node].handle(input, &mut cx);
    }

    /// `dispatch` for a run whose steps are recorded: the input, what the node knew of its
    /// tx, and what it asked for go to the step sink before the actions are carried out.
    #[cold]
    #[inline(never)]
    fn dispatch_noted(&mut self, node: usize, input: Input<P::Msg, P::Timer>) {
        let noted = note_input::<P>(&self.net, node, &input);
        let known = noted
            .tx()
            .map(|tx| knew(&self.net, node, &self.nodes[node], tx));
        self.handle_at(node, input);
        let step = Step {
            t_us: self.now,
            node: node as u32,
            input: noted,
            knew: known,
            actions: note_actions::<P>(&self.net, node, &self.actions),
        };
        if let Some(sink) = &mut self.steps {
            sink(&step);
        }
        self.apply_all(node);
    }

    /// Carries out the actions a node just asked for, in order.
    #[inline(never)]
    fn apply_all(&mut self, node: usize) {
        let mut actions = std::mem::take(&mut self.actions);
        for action in actions.drain(..) {
            self.apply(node, action);
        }
        self.actions = actions;
    }

    fn apply(&mut self, node: usize, action: Action<P::Msg, P::Timer>) {
        match action {
            Action::Send { to, msg } => self.send(node, to, msg),
            Action::SetTimer { at, timer, id } => self.queue.push(
                at.0.max(self.now),
                Event::Timer {
                    node: node as u32,
                    timer,
                    id,
                },
            ),
            Action::Deliver(tx) => {
                let i = tx.id.0 as usize;
                if self
                    .metrics
                    .on_deliver(&self.net, &self.plan, node, i, self.now)
                {
                    self.log
                        .record(self.now, tag::DELIVER, node as u32, i as u32, 0);
                    if let Some(trace) = &mut self.trace {
                        trace(&TraceEvent::Deliver {
                            t_us: self.now,
                            node: node as u32,
                            tx: tx.id.0,
                        });
                    }
                }
            }
            Action::Disconnect(p) => self.disconnect(node, p),
            Action::Count(counter, n) => {
                self.metrics.count(node, counter, n);
                if let Some(trace) = &mut self.trace {
                    trace(&TraceEvent::Count {
                        t_us: self.now,
                        node: node as u32,
                        name: counter.name,
                        n,
                    });
                }
            }
        }
    }

    /// A node tears down its link to peer `p`: both ends hear of it. Rare (a protocol
    /// disconnecting a misbehaving peer): out of line, so `apply_all`'s loop keeps a send's
    /// values in registers (inlined, it cost flood-1000 a spill and reloads a send, cachegrind).
    #[cold]
    #[inline(never)]
    fn disconnect(&mut self, node: usize, p: PeerIdx) {
        if p.idx() >= self.net.degree(node) {
            self.metrics.count(node, &BAD_PEER_INDEX, 1);
            return;
        }
        let e = self.net.edge(node, p.0);
        let rev = self.net.reverse(e);
        if let Some(links) = &mut self.links {
            links.tear(e, rev);
        }
        if self.link_up.get(e) {
            self.link_up.set(e, false);
            self.link_up.set(rev, false);
            if self.fair.is_some() {
                self.drop_fair(std::iter::once(e));
            }
            let edge = self.net.edges[e];
            let other = edge.peer;
            self.queue.push(
                self.now,
                Event::Peer {
                    node: node as u32,
                    peer: p.0,
                    up: false,
                },
            );
            self.queue.push(
                self.now,
                Event::Peer {
                    node: other,
                    peer: edge.back,
                    up: false,
                },
            );
            self.metrics.count(node, &DISCONNECTS, 1);
        }
    }

    #[inline(always)]
    fn send(&mut self, node: usize, to: PeerIdx, msg: P::Msg) {
        let out = self.net.edges_of(node);
        let e = out.start + to.idx();
        if e >= out.end {
            self.metrics.count(node, &BAD_PEER_INDEX, 1);
            return;
        }
        if !self.link_up.get(e) {
            return;
        }
        let bytes = msg.wire_len();
        let payload = msg.payload_len().min(bytes);
        let stats = &mut self.metrics.node[node];
        stats.up_payload += payload as u64;
        stats.up_control += (bytes - payload) as u64;
        let priority = msg.priority();
        self.prioritized |= priority != 0;
        if !self.prioritized {
            self.transmit(node, e, msg, bytes);
            return;
        }
        if self.fair.is_some() {
            return self.send_fair(e, msg, bytes);
        }
        if self.up_free_us[node] <= self.now && self.uplink_waiting[node].is_empty() {
            self.transmit(node, e, msg, bytes);
            return;
        }
        // Priorities in play and the uplink is busy: wait, so a later, more urgent message
        // can still go first.
        self.uplink_waiting[node].push(Queued {
            priority,
            seq: self.queued_seq,
            edge: e as u32,
            msg,
        });
        self.queued_seq += 1;
        if !self.uplink_scheduled[node] {
            self.queue.push(
                self.up_free_us[node],
                Event::UplinkFree { node: node as u32 },
            );
            self.uplink_scheduled[node] = true;
        }
    }

    /// Put a message on the wire now (after whatever the uplink is still sending).
    #[inline(always)]
    fn transmit(&mut self, node: usize, e: usize, msg: P::Msg, bytes: usize) {
        let done = if self.unlimited {
            self.now
        } else {
            let start = self.now.max(self.up_free_us[node]);
            let done = start + serialization_us(bytes, self.net.up_bps[node]);
            self.up_free_us[node] = done;
            done
        };
        let lost = self.loss > 0.0 && self.link_rng.chance(self.loss);
        let jitter = if self.jitter_us > 0 {
            self.link_rng.below(self.jitter_us)
        } else {
            0
        };
        let edge = self.net.edges[e];
        let arrive = done + edge.latency_us + jitter;
        self.cross_link((node as u32, edge.peer), e, msg, bytes as u32, lost, arrive);
    }

    /// A message is on link `e` between these nodes (FIFO or fair): traced as sent now, then
    /// lost or due at `arrive`.
    #[inline(always)]
    fn cross_link(
        &mut self,
        (from, to): (u32, u32),
        e: usize,
        msg: P::Msg,
        bytes: u32,
        lost: bool,
        arrive: u64,
    ) {
        if let Some(trace) = &mut self.trace {
            trace(&TraceEvent::Send {
                tx: msg.full_tx().map(|t| t.0),
                subject: msg.subject().map(|t| t.0),
                t_us: self.now,
                from,
                to,
                kind: msg.kind(),
                class: msg.class(),
                bytes,
                payload: msg.payload_len().min(bytes as usize) as u32,
                arrive_us: arrive,
                lost,
            });
        }
        if lost {
            self.log.record(self.now, tag::LOST, e as u32, bytes, 0);
            return;
        }
        self.queue.push(
            arrive,
            Event::Arrive {
                edge: e as u32,
                msg,
            },
        );
    }
}
