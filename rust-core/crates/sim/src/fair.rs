//! Links shared like TCP's (`links.sharing` "fair", "max_min"): every connection (directed
//! link) with bytes to send is one flow through its sender's uplink and its receiver's
//! downlink. Each of those ports is shared equally among the flows through it, and a flow goes
//! at the lesser of its two shares. Messages on one connection go in order and stream through
//! both ends at the flow's rate, so the last bit arrives one link latency after it left (TCP
//! pipelines; there is no store-and-forward at the receiver). With `links.tcp`, a connection
//! sends at most its congestion window per round trip, and the window grows by what was sent in
//! the round before (slow start, from the initial window; again from it after an idle spell).
//!
//! Equal shares are not max-min fair across the network: a flow held back at one end leaves
//! the other end's share unused rather than handing it to the other flows there. Sharing
//! "max_min" hands it over (`max_min`), but in a gossiping network the busy ports are all
//! coupled: each start or stop rates again every flow linked to it (some 20,000 flows on the
//! 1,000 nodes of seed 002's bursts, 200-290x slower), where equal shares change only the
//! flows on the two ports of the flow that started or stopped.
//!
//! Exact and event-driven: rates are integers (bits per second), what is left of a message is
//! counted in bit-microseconds per second, so rate times time is exact. Rates change only when
//! a flow starts or stops (a message starts on an idle connection, the last one ends, a window
//! runs out or opens again). Each connection has at most one live event in the engine's queue
//! (its message through, its window out, its round over): a later finish keeps the event it
//! has, which then looks again; only an earlier one replaces it (the old one goes stale).

use crate::max_min::{self, MaxMin};
use crate::network::Network;
use crate::scenario::{Sharing, Tcp};
use std::collections::VecDeque;

/// TCP's maximum segment size on Ethernet.
pub const MSS_BYTES: u64 = 1_460;
/// Linux's least retransmission timeout: a connection idle for longer than its round trip plus
/// this starts again from the initial window (RFC 5681 §4.1).
pub const RTO_MIN_US: u64 = 200_000;
/// The largest window (where a link has no bandwidth limit, the window stops growing here).
pub const MAX_WINDOW_BYTES: u64 = 64 << 20;
/// One bit, in the units `left` counts in.
const BIT: u64 = 1_000_000;
/// The rate of a flow between two ports without a bandwidth limit.
const INSTANT: u64 = u64::MAX;

/// A message waiting on, or crossing, a connection.
pub struct Item<M> {
    pub msg: M,
    pub bytes: u32,
    pub priority: u8,
    pub lost: bool,
    pub jitter_us: u64,
}

/// One connection: its messages in order and the head's progress.
struct Conn<M> {
    queue: VecDeque<Item<M>>,
    /// What is left of the head message, in bit-microseconds per second.
    left: u64,
    rate: u64,
    /// When `left` was last brought up to date.
    updated_us: u64,
    /// The event the engine holds for this connection: only the latest generation counts.
    generation: u32,
    /// When that event comes up (None: no live event).
    pending_us: Option<u64>,
    /// In its ports' `flows`: it has a message and room in its window.
    sending: bool,
}

/// A connection's congestion window (only with slow start).
#[derive(Clone, Copy)]
struct Window {
    cwnd: u64,
    rtt_us: u64,
    /// Sent in the current round, in bit-microseconds per second.
    sent: u64,
    round_end_us: u64,
    /// When the connection last ran out of messages (None: never used).
    idle_since_us: Option<u64>,
    /// Still in slow start: the window may limit it.
    growing: bool,
}

struct Port {
    bps: u64,
    /// The connections sending through this port.
    flows: Vec<u32>,
}

impl Port {
    /// Each flow's equal share of the port.
    fn share(&self) -> u64 {
        match (self.bps, self.flows.len() as u64) {
            (0, _) => INSTANT,
            (_, 0) => 0,
            (bps, n) => (bps / n).max(1),
        }
    }
}

pub struct FairLinks<M> {
    nodes: usize,
    /// The sender and the receiver of each directed edge.
    from: Vec<u32>,
    to: Vec<u32>,
    conns: Vec<Conn<M>>,
    /// Node v's uplink at `v`, its downlink at `nodes + v`.
    ports: Vec<Port>,
    /// Per directed edge, with slow start only.
    windows: Vec<Window>,
    initial_window: u64,
    /// Max-min sharing's filling (None: equal shares per port).
    max_min: Option<MaxMin>,
    /// The rates a filling gave, to apply.
    filled: Vec<(u32, u64)>,
    /// The events for the engine to hold, taken by `drain_wakes`.
    wakes: Vec<Wake>,
}

/// The event to hold for a connection: look at it again at `at_us` if its generation is
/// still current.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wake {
    pub conn: u32,
    pub generation: u32,
    pub at_us: u64,
}

impl<M> FairLinks<M> {
    pub fn new(net: &Network, sharing: Sharing, tcp: Option<&Tcp>) -> FairLinks<M> {
        let edges = net.edges.len();
        let mut from = vec![0u32; edges];
        for v in 0..net.nodes {
            for e in net.edges_of(v) {
                from[e] = v as u32;
            }
        }
        let slow_start = tcp.filter(|t| t.slow_start);
        let initial_window = slow_start.map_or(0, |t| t.initial_window_segments as u64 * MSS_BYTES);
        let windows = match slow_start {
            Some(_) => net
                .edges
                .iter()
                .map(|edge| Window {
                    cwnd: initial_window,
                    rtt_us: 2 * edge.latency_us,
                    sent: 0,
                    round_end_us: 0,
                    idle_since_us: None,
                    growing: edge.latency_us > 0,
                })
                .collect(),
            None => Vec::new(),
        };
        FairLinks {
            nodes: net.nodes,
            from,
            to: net.edges.iter().map(|e| e.peer).collect(),
            conns: (0..edges)
                .map(|_| Conn {
                    queue: VecDeque::new(),
                    left: 0,
                    rate: 0,
                    updated_us: 0,
                    generation: 0,
                    pending_us: None,
                    sending: false,
                })
                .collect(),
            ports: net
                .up_bps
                .iter()
                .chain(&net.down_bps)
                .map(|&bps| Port {
                    bps,
                    flows: Vec::new(),
                })
                .collect(),
            windows,
            initial_window,
            max_min: (sharing == Sharing::MaxMin).then(|| MaxMin::new(2 * net.nodes, edges)),
            filled: Vec::new(),
            wakes: Vec::new(),
        }
    }

    /// The events the last calls asked the engine to hold.
    pub fn drain_wakes(&mut self) -> std::vec::Drain<'_, Wake> {
        self.wakes.drain(..)
    }

    /// The sender's uplink and the receiver's downlink of connection `e`.
    fn ports_of(&self, e: usize) -> [usize; 2] {
        [self.from[e] as usize, self.nodes + self.to[e] as usize]
    }

    /// Queues a message on connection `e` at `now`.
    pub fn send(&mut self, e: usize, item: Item<M>, now: u64) {
        let c = &mut self.conns[e];
        if !c.queue.is_empty() {
            // Behind the message being sent; ahead of queued ones less urgent.
            let at = (1..=c.queue.len())
                .rev()
                .find(|&i| c.queue[i - 1].priority >= item.priority)
                .unwrap_or(1);
            c.queue.insert(at, item);
            return;
        }
        c.left = item.bytes as u64 * 8 * BIT;
        c.updated_us = now;
        c.queue.push_back(item);
        if let Some(w) = self.windows.get_mut(e) {
            if w.idle_since_us
                .is_none_or(|t| now > t + w.rtt_us + RTO_MIN_US)
            {
                w.cwnd = self.initial_window;
                w.growing = w.rtt_us > 0;
            }
            w.sent = 0;
            w.round_end_us = now + w.rtt_us;
        }
        self.refresh(e, now);
    }

    /// Drops whatever is queued on both directions of a link that went down; the connection
    /// starts afresh when the link comes back.
    pub fn drop_link(&mut self, net: &Network, e: usize, now: u64) {
        for edge in [e, net.reverse(e)] {
            if let Some(w) = self.windows.get_mut(edge) {
                w.idle_since_us = None;
            }
            if self.conns[edge].queue.is_empty() {
                continue;
            }
            self.advance(edge, now);
            let c = &mut self.conns[edge];
            c.queue.clear();
            c.left = 0;
            self.refresh(edge, now);
        }
    }

    /// Looks at connection `conn` at `now` (the engine's event for it came up): messages that
    /// are through go to `done` as (directed edge, item), its window grows at the end of a
    /// round, and the shares change if it starts or stops sending. False for a stale event.
    pub fn wake(
        &mut self,
        conn: u32,
        generation: u32,
        now: u64,
        done: &mut Vec<(u32, Item<M>)>,
    ) -> bool {
        let e = conn as usize;
        if self.conns[e].generation != generation {
            return false;
        }
        self.conns[e].pending_us = None;
        self.advance(e, now);
        let c = &mut self.conns[e];
        while c.left == 0 {
            let Some(item) = c.queue.pop_front() else {
                break;
            };
            done.push((conn, item));
            if let Some(next) = c.queue.front() {
                c.left = next.bytes as u64 * 8 * BIT;
            }
        }
        let busy = !c.queue.is_empty();
        let [up, down] = self.ports_of(e);
        // The window needs no growing once a round trip at the slower end's full rate fits.
        let bps = match (self.ports[up].bps, self.ports[down].bps) {
            (0, b) | (b, 0) => b,
            (a, b) => a.min(b),
        };
        if let Some(w) = self.windows.get_mut(e) {
            if w.growing && (!busy || now >= w.round_end_us) {
                // The round's bytes are (or will be) acknowledged: slow start adds them.
                w.cwnd = (w.cwnd + w.sent / (8 * BIT)).min(MAX_WINDOW_BYTES);
                w.sent = 0;
                w.round_end_us = now + w.rtt_us;
                let full = bps != 0 && w.cwnd as u128 * 8_000_000 >= bps as u128 * w.rtt_us as u128;
                if full || w.cwnd == MAX_WINDOW_BYTES {
                    w.growing = false;
                }
            }
            if !busy {
                w.idle_since_us = Some(now);
            }
        }
        self.refresh(e, now);
        true
    }

    /// Brings connection `e`'s progress (and its window's count) up to `now`.
    fn advance(&mut self, e: usize, now: u64) {
        let c = &mut self.conns[e];
        let dt = now - c.updated_us;
        c.updated_us = now;
        if c.rate == 0 || dt == 0 && c.rate != INSTANT {
            return;
        }
        let mut sent = if c.rate == INSTANT {
            c.left
        } else {
            (c.rate as u128 * dt as u128).min(c.left as u128) as u64
        };
        if let Some(w) = self.windows.get_mut(e).filter(|w| w.growing) {
            sent = sent.min(window_left(w));
            w.sent += sent;
        }
        c.left -= sent;
    }

    /// After connection `e` changed at `now` (it is up to date): if it starts or stops
    /// sending, the flows sharing a port with it are rated again; then its next look.
    fn refresh(&mut self, e: usize, now: u64) {
        let room = self
            .windows
            .get(e)
            .is_none_or(|w| !w.growing || window_left(w) > 0);
        let sending = !self.conns[e].queue.is_empty() && room;
        if sending != self.conns[e].sending {
            self.conns[e].sending = sending;
            if !sending {
                self.conns[e].rate = 0;
            }
            let ends = self.ports_of(e);
            for p in ends {
                let flows = &mut self.ports[p].flows;
                if sending {
                    flows.push(e as u32);
                } else if let Some(i) = flows.iter().position(|&f| f as usize == e) {
                    flows.swap_remove(i);
                }
                if self.max_min.is_none() {
                    self.share_equally(p, now);
                }
            }
            if self.max_min.is_some() {
                self.fill_max_min(ends, now);
            }
        }
        self.schedule(e, now);
    }

    /// Equal shares: rates the flows through port `p` again, each at the lesser of its shares.
    fn share_equally(&mut self, p: usize, now: u64) {
        for i in 0..self.ports[p].flows.len() {
            let f = self.ports[p].flows[i] as usize;
            let [up, down] = self.ports_of(f);
            let rate = self.ports[up].share().min(self.ports[down].share());
            self.set_rate(f, rate, now);
        }
    }

    /// Max-min: rates every flow linked to the ports `ends` again. Out of line: equal shares,
    /// the common case, pay nothing for it.
    #[inline(never)]
    fn fill_max_min(&mut self, ends: [usize; 2], now: u64) {
        let Some(mut filling) = self.max_min.take() else {
            return;
        };
        let mut filled = std::mem::take(&mut self.filled);
        filling.fill(&*self, &ends, |f, rate| filled.push((f as u32, rate)));
        self.max_min = Some(filling);
        for (f, rate) in filled.drain(..) {
            self.set_rate(f as usize, rate, now);
        }
        self.filled = filled;
    }

    /// A sending flow's new rate.
    fn set_rate(&mut self, f: usize, rate: u64, now: u64) {
        if rate != self.conns[f].rate {
            self.advance(f, now);
            self.conns[f].rate = rate;
            self.schedule(f, now);
        }
    }

    /// Connection `e`'s next look: its message through, its window out or its round over.
    /// An event already held for no later than that stays (it looks again when it comes up).
    fn schedule(&mut self, e: usize, now: u64) {
        let c = &mut self.conns[e];
        let w = self.windows.get(e).filter(|w| w.growing);
        let mut at = None;
        if !c.queue.is_empty() {
            at = w.map(|w| w.round_end_us);
            if c.rate != 0 {
                let through = now + time_us(c.left, c.rate);
                let window = w.map(|w| now + time_us(window_left(w), c.rate));
                at = [at, Some(through), window].into_iter().flatten().min();
            }
        }
        match (at, c.pending_us) {
            (Some(at), Some(held)) if held <= at => {}
            (None, None) => {}
            (at, _) => {
                c.generation = c.generation.wrapping_add(1);
                c.pending_us = at;
                if let Some(at_us) = at {
                    self.wakes.push(Wake {
                        conn: e as u32,
                        generation: c.generation,
                        at_us,
                    });
                }
            }
        }
    }
}

/// The ports and their flows, as max-min filling reads them.
impl<M> max_min::Ports for FairLinks<M> {
    fn bps(&self, p: usize) -> u64 {
        self.ports[p].bps
    }
    fn flows(&self, p: usize) -> &[u32] {
        &self.ports[p].flows
    }
    fn ports_of(&self, f: usize) -> [usize; 2] {
        FairLinks::ports_of(self, f)
    }
}

/// What the window still lets through this round, in bit-microseconds per second.
fn window_left(w: &Window) -> u64 {
    (w.cwnd * 8 * BIT).saturating_sub(w.sent)
}

/// How long `left` takes at `rate`, rounded up to whole µs.
fn time_us(left: u64, rate: u64) -> u64 {
    if rate == INSTANT {
        0
    } else {
        left.div_ceil(rate)
    }
}
