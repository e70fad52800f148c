//! A tiny network for unit tests of protocols: nodes joined by links of fixed latency and
//! optional per-link bandwidth, an event queue ordered by (time, sequence), and a record of
//! deliveries, full copies received and counters. The real simulator lives in crate `sim`.

use crate::{Action, Behaviour, Ctx, Dur, Input, NodeSetup, PeerIdx, Protocol, Rng, Time, Tx};
use crate::{TxId, WireMsg};
use std::collections::{BTreeMap, BinaryHeap};

enum Event<P: Protocol> {
    Message {
        to: usize,
        from: PeerIdx,
        msg: P::Msg,
    },
    Timer {
        node: usize,
        timer: P::Timer,
    },
    Submit {
        node: usize,
        tx: Tx,
    },
}

struct Queued<P: Protocol> {
    at: Time,
    seq: u64,
    event: Event<P>,
}

impl<P: Protocol> PartialEq for Queued<P> {
    fn eq(&self, o: &Self) -> bool {
        (self.at, self.seq) == (o.at, o.seq)
    }
}
impl<P: Protocol> Eq for Queued<P> {}
impl<P: Protocol> PartialOrd for Queued<P> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl<P: Protocol> Ord for Queued<P> {
    /// Reversed, so the max-heap pops the earliest event first.
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        (o.at, o.seq).cmp(&(self.at, self.seq))
    }
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

pub struct TestNet<P: Protocol> {
    pub nodes: Vec<P>,
    rngs: Vec<Rng>,
    links: Vec<Vec<Link>>,
    queue: BinaryHeap<Queued<P>>,
    seq: u64,
    pub now: Time,
    /// Upload bandwidth of every link in bytes per second; 0 = unlimited.
    pub link_bytes_per_sec: u64,
    /// First arrival of each tx at each node.
    pub delivered: Vec<BTreeMap<TxId, Time>>,
    /// Full copies of txs each node received (including the first).
    pub copies: Vec<u64>,
    pub bytes_sent: u64,
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
                    },
                )
            })
            .collect();
        let mut links: Vec<Vec<Link>> = (0..n).map(|_| Vec::new()).collect();
        for &(a, b, latency) in edges {
            let (ia, ib) = (links[a].len() as u32, links[b].len() as u32);
            links[a].push(Link {
                to: b,
                back: PeerIdx(ib),
                latency,
                up: true,
                busy_until: Time(0),
            });
            links[b].push(Link {
                to: a,
                back: PeerIdx(ia),
                latency,
                up: true,
                busy_until: Time(0),
            });
        }
        let mut net = TestNet {
            nodes,
            rngs: (0..n)
                .map(|i| Rng::derive(seed, crate::stream::NODE, i as u64))
                .collect(),
            links,
            queue: BinaryHeap::new(),
            seq: 0,
            now: Time(0),
            link_bytes_per_sec: 0,
            delivered: vec![BTreeMap::new(); n],
            copies: vec![0; n],
            bytes_sent: 0,
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

    fn push(&mut self, at: Time, event: Event<P>) {
        self.seq += 1;
        self.queue.push(Queued {
            at,
            seq: self.seq,
            event,
        });
    }

    pub fn submit_at(&mut self, at: Time, node: usize, tx: Tx) {
        self.push(at, Event::Submit { node, tx });
    }

    fn input(&mut self, node: usize, input: Input<P::Msg, P::Timer>) {
        let mut out = Vec::new();
        let mut cx = Ctx::new(self.now, &mut self.rngs[node], &mut out);
        self.nodes[node].handle(input, &mut cx);
        for action in out {
            match action {
                Action::Send { to, msg } => self.send(node, to, msg),
                Action::SetTimer { at, timer } => self.push(at, Event::Timer { node, timer }),
                Action::Deliver(tx) => {
                    self.delivered[node].entry(tx.id).or_insert(self.now);
                }
                Action::Disconnect(p) => self.disconnect(node, p),
                Action::Count(name, n) => *self.counters.entry(name).or_default() += n,
            }
        }
    }

    fn send(&mut self, node: usize, to: PeerIdx, msg: P::Msg) {
        let Some(link) = self.links[node].get_mut(to.idx()) else {
            return;
        };
        if !link.up {
            return;
        }
        let len = msg.wire_len() as u64;
        self.bytes_sent += len;
        self.payload_bytes_sent += msg.payload_len() as u64;
        *self.sent_kinds.entry(msg.kind()).or_default() += 1;
        let start = link.busy_until.max(self.now);
        let tx_time = match self.link_bytes_per_sec {
            0 => Dur(0),
            bw => Dur(len * 1_000_000 / bw),
        };
        link.busy_until = start + tx_time;
        let at = link.busy_until + link.latency;
        let (dest, back) = (link.to, link.back);
        self.push(
            at,
            Event::Message {
                to: dest,
                from: back,
                msg,
            },
        );
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
        while let Some(top) = self.queue.peek() {
            if top.at > until {
                break;
            }
            let Some(q) = self.queue.pop() else { break };
            self.now = q.at;
            match q.event {
                Event::Message { to, from, msg } => {
                    if !self.links[to][from.idx()].up {
                        continue;
                    }
                    if msg.full_tx().is_some() {
                        self.copies[to] += 1;
                    }
                    self.input(to, Input::Message(from, msg));
                }
                Event::Timer { node, timer } => self.input(node, Input::Timer(timer)),
                Event::Submit { node, tx } => self.input(node, Input::Submit(tx)),
            }
        }
        self.now = self.now.max(until);
    }

    pub fn counter(&self, name: &str) -> u64 {
        self.counters.get(name).copied().unwrap_or(0)
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

/// One node driven by hand, for tests of what it does with each peer: inputs go in at `now`,
/// what it sends is recorded, and its timers wait until `run_until` fires them in order.
pub struct Solo<P: Protocol> {
    pub node: P,
    rng: Rng,
    pub now: Time,
    timers: BinaryHeap<Queued<P>>,
    seq: u64,
    /// Messages sent since the last `take_sent`, in order.
    pub sent: Vec<(PeerIdx, P::Msg)>,
    pub delivered: Vec<TxId>,
    pub counters: BTreeMap<&'static str, u64>,
}

impl<P: Protocol> Solo<P> {
    pub fn new(config: &P::Config, behaviour: Behaviour, seed: u64) -> Self {
        let setup = NodeSetup { node: 0, behaviour };
        Solo {
            node: P::new(config, &setup),
            rng: Rng::derive(seed, crate::stream::NODE, 0),
            now: Time(0),
            timers: BinaryHeap::new(),
            seq: 0,
            sent: Vec::new(),
            delivered: Vec::new(),
            counters: BTreeMap::new(),
        }
    }

    pub fn input(&mut self, input: Input<P::Msg, P::Timer>) {
        let mut out = Vec::new();
        let mut cx = Ctx::new(self.now, &mut self.rng, &mut out);
        self.node.handle(input, &mut cx);
        for action in out {
            match action {
                Action::Send { to, msg } => self.sent.push((to, msg)),
                Action::SetTimer { at, timer } => {
                    self.seq += 1;
                    let event = Event::Timer { node: 0, timer };
                    let seq = self.seq;
                    self.timers.push(Queued { at, seq, event });
                }
                Action::Deliver(tx) => self.delivered.push(tx.id),
                Action::Disconnect(_) => {}
                Action::Count(name, n) => *self.counters.entry(name).or_default() += n,
            }
        }
    }

    /// Fires the timers due by `until`, earliest first, then moves the clock to `until`.
    pub fn run_until(&mut self, until: Time) {
        while self.timers.peek().is_some_and(|q| q.at <= until) {
            let Some(q) = self.timers.pop() else { break };
            self.now = self.now.max(q.at);
            if let Event::Timer { timer, .. } = q.event {
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

    pub fn counter(&self, name: &str) -> u64 {
        self.counters.get(name).copied().unwrap_or(0)
    }
}
