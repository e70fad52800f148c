//! Links shared like TCP's (`links.sharing` "fair"): a node's uplink is shared equally among
//! its connections that have bytes to send, and its downlink among those with bytes arriving
//! (max-min fairness on one link, where no connection asks for less than an equal share);
//! messages on one connection go in order. With `links.tcp`, a connection sends at most its
//! congestion window per round trip, and the window grows by what was sent in the round before
//! (slow start, from the initial window; again from it after an idle spell).
//!
//! Exact and event-driven: rates are integers (bits per second), what is left of a message is
//! counted in bit-microseconds per second, so rate times time is exact, and a port (one node's
//! uplink or downlink) is looked at again only when something on it changes: a message starts
//! or ends, a window runs out or a round trip ends. The engine keeps the time and the queue;
//! this module says when to look at a port next and what left it.
//!
//! As in the FIFO model, a message crosses the uplink, the link's latency and then the
//! downlink, each stage after the one before has the whole message.

use crate::network::Network;
use crate::scenario::Tcp;
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
/// The rate of a link without a bandwidth limit.
const INSTANT: u64 = u64::MAX;

/// A message waiting on, or crossing, one stage of a link.
pub struct Item<M> {
    pub msg: M,
    pub bytes: u32,
    pub priority: u8,
    pub lost: bool,
    pub jitter_us: u64,
}

/// One connection's side of a port: its messages in order and the head's progress.
struct Stage<M> {
    queue: VecDeque<Item<M>>,
    /// What is left of the head message, in bit-microseconds per second.
    left: u64,
    rate: u64,
}

/// A connection's congestion window (only for uplink stages, only with slow start).
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
    /// Stages with a message, in the order they became busy.
    active: Vec<u32>,
    updated_us: u64,
    /// The event the engine holds for this port: only the latest generation counts.
    generation: u32,
    next_us: Option<u64>,
}

pub struct FairLinks<M> {
    edges: usize,
    /// The sender of each directed edge.
    from: Vec<u32>,
    /// Uplink stage of edge e at `e`, downlink stage at `edges + e`.
    stages: Vec<Stage<M>>,
    /// Node v's uplink at `v`, its downlink at `nodes + v`.
    ports: Vec<Port>,
    /// Per directed edge, with slow start only.
    windows: Vec<Window>,
    initial_window: u64,
}

/// The event to hold for a port: look at it again at `at_us` if its generation is still current.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wake {
    pub port: u32,
    pub generation: u32,
    pub at_us: u64,
}

impl<M> FairLinks<M> {
    pub fn new(net: &Network, tcp: Option<&Tcp>) -> FairLinks<M> {
        let edges = net.edges.len();
        let mut from = vec![0u32; edges];
        for v in 0..net.nodes {
            for e in net.edges_of(v) {
                from[e] = v as u32;
            }
        }
        let port = |bps: u64| Port {
            bps,
            active: Vec::new(),
            updated_us: 0,
            generation: 0,
            next_us: None,
        };
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
            edges,
            from,
            stages: (0..2 * edges)
                .map(|_| Stage {
                    queue: VecDeque::new(),
                    left: 0,
                    rate: 0,
                })
                .collect(),
            ports: net
                .up_bps
                .iter()
                .chain(&net.down_bps)
                .map(|&bps| port(bps))
                .collect(),
            windows,
            initial_window,
        }
    }

    /// The stage of edge `e` on its sender's uplink or its receiver's downlink.
    pub fn stage(&self, e: usize, uplink: bool) -> usize {
        if uplink {
            e
        } else {
            self.edges + e
        }
    }

    fn port_of(&self, stage: usize, net: &Network) -> usize {
        if stage < self.edges {
            self.from[stage] as usize
        } else {
            net.nodes + net.edges[stage - self.edges].peer as usize
        }
    }

    /// Queues a message on a stage at `now`. A stage that was idle starts at once, which
    /// changes every share on its port: the port must be looked at now (the returned wake).
    pub fn enqueue(
        &mut self,
        net: &Network,
        stage: usize,
        item: Item<M>,
        now: u64,
    ) -> Option<Wake> {
        let s = &mut self.stages[stage];
        if !s.queue.is_empty() {
            // Behind the message being sent; ahead of queued ones less urgent.
            let at = (1..=s.queue.len())
                .rev()
                .find(|&i| s.queue[i - 1].priority >= item.priority)
                .unwrap_or(1);
            s.queue.insert(at, item);
            return None;
        }
        s.left = item.bytes as u64 * 8 * BIT;
        s.rate = 0;
        s.queue.push_back(item);
        if stage < self.edges && !self.windows.is_empty() {
            let w = &mut self.windows[stage];
            if w.idle_since_us
                .is_none_or(|t| now > t + w.rtt_us + RTO_MIN_US)
            {
                w.cwnd = self.initial_window;
                w.growing = w.rtt_us > 0;
            }
            w.sent = 0;
            w.round_end_us = now + w.rtt_us;
        }
        let port = self.port_of(stage, net);
        self.ports[port].active.push(stage as u32);
        self.wake_now(port, now)
    }

    /// Asks for the port to be looked at now, unless that is already asked.
    fn wake_now(&mut self, port: usize, now: u64) -> Option<Wake> {
        let p = &mut self.ports[port];
        if p.next_us == Some(now) {
            return None;
        }
        p.generation = p.generation.wrapping_add(1);
        p.next_us = Some(now);
        Some(Wake {
            port: port as u32,
            generation: p.generation,
            at_us: now,
        })
    }

    /// Drops whatever is queued on both directions of a link that went down; the connection
    /// starts afresh when the link comes back. Returns the ports to look at now.
    pub fn drop_link(&mut self, net: &Network, e: usize, now: u64, wakes: &mut Vec<Wake>) {
        for edge in [e, net.reverse(e)] {
            for uplink in [true, false] {
                let stage = self.stage(edge, uplink);
                if self.stages[stage].queue.is_empty() {
                    continue;
                }
                let port = self.port_of(stage, net);
                self.advance(port, now);
                let s = &mut self.stages[stage];
                s.queue.clear();
                s.left = 0;
                s.rate = 0;
                self.ports[port].active.retain(|&x| x as usize != stage);
                wakes.extend(self.wake_now(port, now));
            }
            if let Some(w) = self.windows.get_mut(edge) {
                w.idle_since_us = None;
            }
        }
    }

    /// Applies the port's rates from its last update to `now`.
    fn advance(&mut self, port: usize, now: u64) {
        let dt = now - self.ports[port].updated_us;
        self.ports[port].updated_us = now;
        for i in 0..self.ports[port].active.len() {
            let stage = self.ports[port].active[i] as usize;
            let s = &mut self.stages[stage];
            if s.rate == 0 {
                continue;
            }
            let mut sent = if s.rate == INSTANT {
                s.left
            } else {
                (s.rate as u128 * dt as u128).min(s.left as u128) as u64
            };
            if let Some(w) = self.windows.get_mut(stage).filter(|w| w.growing) {
                sent = sent.min(window_left(w));
                w.sent += sent;
            }
            s.left -= sent;
        }
    }

    /// Looks at a port at `now` (the engine's event for `wake` came up): messages that are
    /// through go to `done` as (through an uplink?, directed edge, item), windows grow at the end of their rounds, the
    /// link is shared again among the stages that can send, and the next look is returned.
    /// A stale wake does nothing.
    pub fn wake(
        &mut self,
        port: u32,
        generation: u32,
        now: u64,
        done: &mut Vec<(bool, u32, Item<M>)>,
    ) -> Option<Wake> {
        let p = port as usize;
        if self.ports[p].generation != generation {
            return None;
        }
        self.ports[p].next_us = None;
        self.advance(p, now);
        let bps = self.ports[p].bps;
        let mut active = std::mem::take(&mut self.ports[p].active);
        let edges = self.edges;
        active.retain(|&stage| {
            let stage = stage as usize;
            let s = &mut self.stages[stage];
            while s.left == 0 {
                let Some(item) = s.queue.pop_front() else {
                    break;
                };
                done.push(match stage < edges {
                    true => (true, stage as u32, item),
                    false => (false, (stage - edges) as u32, item),
                });
                if let Some(next) = s.queue.front() {
                    s.left = next.bytes as u64 * 8 * BIT;
                }
            }
            let busy = !s.queue.is_empty();
            if let Some(w) = self.windows.get_mut(stage) {
                if w.growing && (!busy || now >= w.round_end_us) {
                    // The round's bytes are (or will be) acknowledged: slow start adds them.
                    w.cwnd = (w.cwnd + w.sent / (8 * BIT)).min(MAX_WINDOW_BYTES);
                    w.sent = 0;
                    w.round_end_us = now + w.rtt_us;
                    // Once a round trip's worth at the link's full rate fits, it never limits.
                    let full =
                        bps != 0 && w.cwnd as u128 * 8_000_000 >= bps as u128 * w.rtt_us as u128;
                    if full || w.cwnd == MAX_WINDOW_BYTES {
                        w.growing = false;
                    }
                }
                if !busy {
                    w.idle_since_us = Some(now);
                }
            }
            busy
        });
        // Equal shares among the stages whose window has room.
        let can_send = |stage: u32, windows: &[Window]| {
            windows
                .get(stage as usize)
                .is_none_or(|w| !w.growing || window_left(w) > 0)
        };
        let senders = active
            .iter()
            .filter(|&&s| can_send(s, &self.windows))
            .count() as u64;
        let share = match (bps, senders) {
            (_, 0) => 0,
            (0, _) => INSTANT,
            (bps, n) => (bps / n).max(1),
        };
        let mut next: Option<u64> = None;
        for &stage in &active {
            let s = &mut self.stages[stage as usize];
            let w = self.windows.get(stage as usize).filter(|w| w.growing);
            s.rate = if can_send(stage, &self.windows) {
                share
            } else {
                0
            };
            let mut at = w.map(|w| w.round_end_us);
            if s.rate != 0 {
                let through = now + time_us(s.left, s.rate);
                let window = w.map(|w| now + time_us(window_left(w), s.rate));
                at = [at, Some(through), window].into_iter().flatten().min();
            }
            next = earliest(next, at);
        }
        self.ports[p].active = active;
        let at_us = next?;
        let p = &mut self.ports[p];
        p.generation = p.generation.wrapping_add(1);
        p.next_us = Some(at_us);
        Some(Wake {
            port,
            generation: p.generation,
            at_us,
        })
    }
}

fn earliest(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        _ => a.or(b),
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
