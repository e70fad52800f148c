//! The test network every protocol's unit tests run on: nodes joined by links of fixed
//! latency and optional per-link bandwidth, one time-ordered queue (`EventQueue`), a timer
//! table per node, and a record of deliveries, full copies received and counters. Messages
//! travel as they are (`Direct`) or through a `Wire` that encodes them into frames and decodes
//! them into the receiver's store, so a live codec is tested with its protocol. The real
//! simulator lives in crate `sim`.

use crate::{Action, Behaviour, Content, Counter, Ctx, Dur, Input, NodeSetup, Payloads, PeerIdx};
use crate::{EventQueue, Synthetic, Time, TimerId, TimerTable, Tx, TxId, WireMsg};
use crate::{Protocol, Rng};
use std::collections::BTreeMap;

/// A host call on a node (a validation verdict, a publish), run like an input.
pub type HostCall<P> = Box<dyn FnOnce(&mut P, &mut Ctx<'_, P>)>;

/// How messages cross a link, and where a node's transaction bytes live.
pub trait Wire<P: Protocol> {
    type Frame;
    /// Whether one step's messages to a peer go out together (`encode` sees them all).
    const BATCH: bool;
    fn content(&mut self, node: usize) -> &mut dyn Content;
    /// Frames carrying what node `from` sends one peer, in order, with their sizes in bytes.
    fn encode(&mut self, from: usize, sender: &P, msgs: Vec<P::Msg>) -> Vec<(Self::Frame, usize)>;
    /// The messages a frame holds, as the receiver reads them.
    fn decode(&mut self, to: usize, receiver: &mut P, frame: Self::Frame) -> Vec<P::Msg>;
    /// What the node's host does after each step (judge messages waiting for validation).
    fn host_calls(&mut self, _node: usize, _protocol: &mut P) -> Vec<HostCall<P>> {
        Vec::new()
    }
}

/// Messages carried as they are, over synthetic content: the simulator's way.
#[derive(Default)]
pub struct Direct(Synthetic);

impl<P: Protocol> Wire<P> for Direct {
    type Frame = P::Msg;
    const BATCH: bool = false;
    fn content(&mut self, _: usize) -> &mut dyn Content {
        &mut self.0
    }
    fn encode(&mut self, _: usize, _: &P, msgs: Vec<P::Msg>) -> Vec<(P::Msg, usize)> {
        msgs.into_iter()
            .map(|m| {
                let len = m.wire_len();
                (m, len)
            })
            .collect()
    }
    fn decode(&mut self, _: usize, _: &mut P, frame: P::Msg) -> Vec<P::Msg> {
        vec![frame]
    }
}

enum Event<P: Protocol, F> {
    Frame {
        to: usize,
        from: PeerIdx,
        frame: F,
    },
    Timer {
        node: usize,
        timer: P::Timer,
        id: TimerId,
    },
    Submit {
        node: usize,
        tx: Tx,
    },
}

/// One direction of a link, as the sending node sees it.
struct Link {
    to: usize,
    /// The sender's index at the receiving node.
    back: PeerIdx,
    latency: Dur,
    up: bool,
    busy_until: Time,
}

pub struct TestNet<P: Protocol, W: Wire<P> = Direct> {
    pub nodes: Vec<P>,
    pub wire: W,
    rngs: Vec<Rng>,
    timers: Vec<TimerTable>,
    links: Vec<Vec<Link>>,
    queue: EventQueue<Event<P, W::Frame>>,
    pub now: Time,
    /// Upload bandwidth of every link in bytes per second; 0 = unlimited.
    pub link_bytes_per_sec: u64,
    /// First arrival of each tx at each node.
    pub delivered: Vec<BTreeMap<TxId, Time>>,
    /// Full copies of txs each node received (including the first).
    pub copies: Vec<u64>,
    /// Bytes of messages sent, and of frames (the same with `Direct`).
    pub bytes_sent: u64,
    pub frame_bytes_sent: u64,
    pub payload_bytes_sent: u64,
    pub counters: BTreeMap<&'static str, u64>,
    pub sent_kinds: BTreeMap<&'static str, u64>,
}

impl<P: Protocol> TestNet<P> {
    /// `edges` are undirected (a, b, latency).
    pub fn new(
        config: &P::Config,
        n: usize,
        edges: &[(usize, usize, Dur)],
        behaviours: &[(usize, Behaviour)],
        seed: u64,
    ) -> Self {
        TestNet::with_wire(config, n, edges, behaviours, seed, Direct::default())
    }

    /// A random graph where each node links to `d` others (a union of random perfect
    /// matchings, duplicates skipped), with latencies between 20 and 120 ms.
    pub fn random(
        config: &P::Config,
        n: usize,
        d: usize,
        behaviours: &[(usize, Behaviour)],
        seed: u64,
    ) -> Self {
        let mut rng = Rng::derive(seed, crate::stream::TOPOLOGY, 0);
        let mut edges: Vec<(usize, usize, Dur)> = Vec::new();
        let mut order: Vec<usize> = (0..n).collect();
        // A ring first, so the graph is connected.
        for i in 0..n {
            edges.push((i, (i + 1) % n, Dur::from_millis(20 + rng.below(100))));
        }
        for _ in 0..d.saturating_sub(2).div_ceil(2) {
            rng.shuffle(&mut order);
            for pair in order.chunks_exact(2) {
                let (a, b) = (pair[0].min(pair[1]), pair[0].max(pair[1]));
                let dup = edges
                    .iter()
                    .any(|&(x, y, _)| (x.min(y), x.max(y)) == (a, b));
                if !dup {
                    edges.push((a, b, Dur::from_millis(20 + rng.below(100))));
                }
            }
        }
        TestNet::new(config, n, &edges, behaviours, seed)
    }
}

/// What a run shows: each node's first arrival of each tx, the counters, the kinds sent.
pub type Outcome = (
    Vec<Vec<Option<Time>>>,
    BTreeMap<&'static str, u64>,
    BTreeMap<&'static str, u64>,
);

/// Twelve txs of `len` bytes on 100 nodes, most of them with more than 64 peers and five
/// withholding what they announce, named by dense ids (the simulator's sequence numbers) or
/// by ids scattered over 64 bits (as a real network's hash prefixes are). A protocol that
/// keeps its state by id gives the same outcome either way.
pub fn many_peers_run<P: Protocol>(config: &P::Config, len: u32, scatter: bool) -> Outcome {
    let id = |i: u64| match scatter {
        true => TxId(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1 << 63),
        false => TxId(i),
    };
    let withholds = [7, 21, 42, 63, 88].map(|v| (v, Behaviour::WithholdOnRequest));
    let mut net: TestNet<P> = TestNet::random(config, 100, 196, &withholds, 9);
    assert!(net.links.iter().any(|l| l.len() > 64));
    for i in 0..12 {
        let tx = Tx { id: id(i), len };
        net.submit_at(Time(i * 150_000), (i * 7 % 100) as usize, tx);
    }
    net.run_until(Time(20_000_000));
    let arrivals = net
        .delivered
        .iter()
        .map(|d| (0..12).map(|i| d.get(&id(i)).copied()).collect())
        .collect();
    (arrivals, net.counters, net.sent_kinds)
}

impl<P: Protocol, W: Wire<P>> TestNet<P, W> {
    /// `edges` are undirected (a, b, latency); a node's peers are numbered in edge order.
    pub fn with_wire(
        config: &P::Config,
        n: usize,
        edges: &[(usize, usize, Dur)],
        behaviours: &[(usize, Behaviour)],
        seed: u64,
        wire: W,
    ) -> Self {
        let nodes = (0..n)
            .map(|i| {
                let behaviour = behaviours
                    .iter()
                    .find(|(j, _)| *j == i)
                    .map(|(_, b)| b.clone())
                    .unwrap_or_default();
                P::new(
                    config,
                    &NodeSetup {
                        node: i as u32,
                        behaviour,
                        payloads: Payloads::Live,
                    },
                )
            })
            .collect();
        let mut links: Vec<Vec<Link>> = (0..n).map(|_| Vec::new()).collect();
        for &(a, b, latency) in edges {
            let (ia, ib) = (links[a].len() as u32, links[b].len() as u32);
            let link = |to, back| Link {
                to,
                back: PeerIdx(back),
                latency,
                up: true,
                busy_until: Time(0),
            };
            links[a].push(link(b, ib));
            links[b].push(link(a, ia));
        }
        let mut net = TestNet {
            nodes,
            wire,
            rngs: (0..n)
                .map(|i| Rng::derive(seed, crate::stream::NODE, i as u64))
                .collect(),
            timers: (0..n).map(|_| TimerTable::default()).collect(),
            links,
            queue: EventQueue::new(),
            now: Time(0),
            link_bytes_per_sec: 0,
            delivered: vec![BTreeMap::new(); n],
            copies: vec![0; n],
            bytes_sent: 0,
            frame_bytes_sent: 0,
            payload_bytes_sent: 0,
            counters: BTreeMap::new(),
            sent_kinds: BTreeMap::new(),
        };
        for node in 0..n {
            for p in 0..net.links[node].len() {
                net.input(node, Input::PeerUp(PeerIdx(p as u32)));
            }
        }
        net
    }

    pub fn submit_at(&mut self, at: Time, node: usize, tx: Tx) {
        self.queue.push(at.0, Event::Submit { node, tx });
    }

    /// The peer `node` knows as `peer`: its node index and the index it has for `node`.
    pub fn peer(&self, node: usize, peer: PeerIdx) -> (usize, PeerIdx) {
        let link = &self.links[node][peer.idx()];
        (link.to, link.back)
    }

    pub fn input(&mut self, node: usize, input: Input<P::Msg, P::Timer>) {
        self.call(node, |protocol, cx| protocol.handle(input, cx));
    }

    /// Runs `f` on a node now, as its host would, and carries out what it asks for.
    pub fn call(&mut self, node: usize, f: impl FnOnce(&mut P, &mut Ctx<'_, P>)) {
        let mut out = Vec::new();
        let mut cx = Ctx::with_content(
            self.now,
            &mut self.rngs[node],
            &mut self.timers[node],
            self.wire.content(node),
            &mut out,
        );
        f(&mut self.nodes[node], &mut cx);
        let mut batch: Vec<(PeerIdx, P::Msg)> = Vec::new();
        for action in out {
            match action {
                Action::Send { to, msg } if W::BATCH => batch.push((to, msg)),
                Action::Send { to, msg } => self.send(node, to, vec![msg]),
                Action::SetTimer { at, timer, id } => {
                    self.queue.push(at.0, Event::Timer { node, timer, id })
                }
                Action::Deliver(tx) => {
                    self.delivered[node].entry(tx.id).or_insert(self.now);
                }
                Action::Disconnect(p) => {
                    self.flush(node, &mut batch);
                    self.disconnect(node, p);
                }
                Action::Count(c, n) => *self.counters.entry(c.name).or_default() += n,
            }
        }
        self.flush(node, &mut batch);
        for call in self.wire.host_calls(node, &mut self.nodes[node]) {
            self.call(node, call);
        }
    }

    /// Sends one step's batched messages, peer by peer in the order first addressed.
    fn flush(&mut self, node: usize, batch: &mut Vec<(PeerIdx, P::Msg)>) {
        while let Some(&(peer, _)) = batch.first() {
            let (to_peer, rest) = std::mem::take(batch)
                .into_iter()
                .partition(|(p, _)| *p == peer);
            *batch = rest;
            let to_peer: Vec<(PeerIdx, P::Msg)> = to_peer;
            self.send(node, peer, to_peer.into_iter().map(|(_, m)| m).collect());
        }
    }

    fn send(&mut self, node: usize, to: PeerIdx, msgs: Vec<P::Msg>) {
        match self.links[node].get(to.idx()) {
            Some(link) if link.up => {}
            _ => return,
        }
        for msg in &msgs {
            self.bytes_sent += msg.wire_len() as u64;
            self.payload_bytes_sent += msg.payload_len() as u64;
            *self.sent_kinds.entry(msg.kind()).or_default() += 1;
        }
        let frames = self.wire.encode(node, &self.nodes[node], msgs);
        let link = &mut self.links[node][to.idx()];
        for (frame, len) in frames {
            self.frame_bytes_sent += len as u64;
            let start = link.busy_until.max(self.now);
            let tx_time = match self.link_bytes_per_sec {
                0 => Dur(0),
                bw => Dur(len as u64 * 1_000_000 / bw),
            };
            link.busy_until = start + tx_time;
            let at = link.busy_until + link.latency;
            let (to, from) = (link.to, link.back);
            self.queue.push(at.0, Event::Frame { to, from, frame });
        }
    }

    fn disconnect(&mut self, node: usize, p: PeerIdx) {
        let Some(link) = self.links[node].get_mut(p.idx()) else {
            return;
        };
        if !link.up {
            return;
        }
        link.up = false;
        let (other, back) = (link.to, link.back);
        self.links[other][back.idx()].up = false;
        self.input(node, Input::PeerDown(p));
        self.input(other, Input::PeerDown(back));
    }

    /// Runs events until the queue is empty or the next one is after `until`.
    pub fn run_until(&mut self, until: Time) {
        while let Some((at, event)) = self.queue.pop_until(until.0) {
            self.now = Time(at);
            match event {
                Event::Frame { to, from, frame } => {
                    if !self.links[to][from.idx()].up {
                        continue;
                    }
                    for msg in self.wire.decode(to, &mut self.nodes[to], frame) {
                        if msg.full_tx().is_some() {
                            self.copies[to] += 1;
                        }
                        self.input(to, Input::Message(from, msg));
                    }
                }
                Event::Timer { node, timer, id } => {
                    if self.timers[node].fire(id) {
                        self.input(node, Input::Timer(timer));
                    }
                }
                Event::Submit { node, tx } => self.input(node, Input::Submit(tx)),
            }
        }
        self.now = self.now.max(until);
    }

    pub fn counter(&self, counter: &Counter) -> u64 {
        self.counters.get(counter.name).copied().unwrap_or(0)
    }

    /// Nodes that received `tx`.
    pub fn reached(&self, tx: TxId) -> usize {
        self.delivered
            .iter()
            .filter(|d| d.contains_key(&tx))
            .count()
    }

    /// Median over nodes (that got it) of the time `tx` took to arrive after `start`.
    pub fn median_latency(&self, tx: TxId, start: Time) -> Dur {
        let mut l: Vec<Dur> = self
            .delivered
            .iter()
            .filter_map(|d| d.get(&tx))
            .map(|&t| t - start)
            .collect();
        l.sort();
        l.get(l.len() / 2).copied().unwrap_or(Dur(u64::MAX))
    }
}

/// Hands one input to `node` at `now` and returns every action it took, timers and counts
/// included, for tests that check a single decision.
pub fn step<P: Protocol>(
    node: &mut P,
    now: Time,
    input: Input<P::Msg, P::Timer>,
) -> Vec<Action<P::Msg, P::Timer>> {
    let mut rng = Rng::from_seed(1);
    let mut out = Vec::new();
    node.handle(
        input,
        &mut Ctx::new(now, &mut rng, &mut TimerTable::default(), &mut out),
    );
    out
}

/// One node driven by hand, for tests of what it does with each peer: inputs go in at `now`,
/// what it sends is recorded, and its timers wait until `run_until` fires them in order.
pub struct Solo<P: Protocol> {
    pub node: P,
    rng: Rng,
    pub now: Time,
    queue: EventQueue<(P::Timer, TimerId)>,
    timers: TimerTable,
    /// Messages sent since the last `take_sent`, in order.
    pub sent: Vec<(PeerIdx, P::Msg)>,
    pub delivered: Vec<TxId>,
    pub counters: BTreeMap<&'static str, u64>,
}

impl<P: Protocol> Solo<P> {
    pub fn new(config: &P::Config, behaviour: Behaviour, seed: u64) -> Self {
        let setup = NodeSetup {
            behaviour,
            ..NodeSetup::default()
        };
        Solo {
            node: P::new(config, &setup),
            rng: Rng::derive(seed, crate::stream::NODE, 0),
            now: Time(0),
            queue: EventQueue::new(),
            timers: TimerTable::default(),
            sent: Vec::new(),
            delivered: Vec::new(),
            counters: BTreeMap::new(),
        }
    }

    pub fn input(&mut self, input: Input<P::Msg, P::Timer>) {
        let mut out = Vec::new();
        let mut cx = Ctx::new(self.now, &mut self.rng, &mut self.timers, &mut out);
        self.node.handle(input, &mut cx);
        for action in out {
            match action {
                Action::Send { to, msg } => self.sent.push((to, msg)),
                Action::SetTimer { at, timer, id } => self.queue.push(at.0, (timer, id)),
                Action::Deliver(tx) => self.delivered.push(tx.id),
                Action::Disconnect(_) => {}
                Action::Count(c, n) => *self.counters.entry(c.name).or_default() += n,
            }
        }
    }

    /// Fires the timers due by `until`, earliest first, then moves the clock to `until`.
    pub fn run_until(&mut self, until: Time) {
        while let Some((at, (timer, id))) = self.queue.pop_until(until.0) {
            self.now = self.now.max(Time(at));
            if self.timers.fire(id) {
                self.input(Input::Timer(timer));
            }
        }
        self.now = self.now.max(until);
    }

    pub fn take_sent(&mut self) -> Vec<(PeerIdx, P::Msg)> {
        std::mem::take(&mut self.sent)
    }

    /// Messages sent to `peer` since the last `take_sent`.
    pub fn sent_to(&self, peer: PeerIdx) -> Vec<&P::Msg> {
        self.sent
            .iter()
            .filter(|(to, _)| *to == peer)
            .map(|(_, m)| m)
            .collect()
    }

    pub fn counter(&self, counter: &Counter) -> u64 {
        self.counters.get(counter.name).copied().unwrap_or(0)
    }
}
