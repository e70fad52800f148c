//! What a run measures, per node and per transaction, and the summary the report gives:
//! percentiles across honest nodes, as the papers quote them.

use crate::hist::Histogram;
use crate::network::Network;
use crate::workload::TxPlan;
use arrivals::{Arrival, ArrivalLog, Layout};
use proto::Counter;
use serde::Serialize;
use std::collections::BTreeMap;

/// Everything counted per node, kept together so one event touches one cache line or two.
#[derive(Clone, Copy, Debug, Default)]
pub struct NodeStats {
    pub delivered: u32,
    /// Txs created at this node (they do not count as deliveries here).
    pub own: u32,
    pub delivered_bytes: u64,
    pub latency_sum_us: u64,
    pub up_payload: u64,
    pub up_control: u64,
    pub down_payload: u64,
    pub down_control: u64,
    /// Full payload copies received beyond the first.
    pub duplicates: u64,
    /// Full payload copies received, first ones included.
    pub copies: u64,
}

pub struct Metrics {
    nodes: usize,
    words: usize,
    /// Per node, a bit per tx: has the node accepted it?
    has: Vec<u64>,
    pub node: Vec<NodeStats>,
    latency: Histogram,
    /// Per tx: honest nodes (besides the origin) that have it, and when it reached 95% and all.
    reach: Vec<u32>,
    reach95_us: Vec<u64>,
    reach_all_us: Vec<u64>,
    honest_targets: u32,
    /// Per counter name (as reports key them), its column in `counts`.
    names: BTreeMap<&'static str, usize>,
    /// Each node's counts side by side, `width` columns a node, so a count touches the
    /// node's own row (which the engine warms ahead) rather than a column across all nodes.
    counts: Vec<u64>,
    width: usize,
    /// The column of each `Counter` constant counted so far, by its address: a count finds
    /// its column without comparing names. Bounded by the constants in the program.
    sites: Vec<(usize, usize)>,
    /// Per node, the first arrival of every tx, in the tickets encoding (seed `001`).
    /// Up to date once [`Metrics::flush_arrivals`] has run, as `Run::metrics` and the engine's
    /// `finish` do: a host stepping the engine in short slices writes many arrivals per node at
    /// once, not a few after every slice.
    pub logs: Vec<ArrivalLog>,
    /// First arrivals not yet written to `logs`: (node, tx, delay after creation in µs).
    pending: Vec<(u32, u32, u64)>,
}

pub const NOT_YET: u64 = u64::MAX;
/// First arrivals buffered before they are written to the logs (16 bytes each): about 256 a
/// node, so that a flush writes each of a node's rows (16 in the default layout) some 16 times
/// while its lines are cached (1,000 nodes flooding 100,000 txs: 28.3 s at 64 a node, 19.9 s
/// at 256), within 1 MB and 16 MB.
fn max_pending(nodes: usize) -> usize {
    nodes.saturating_mul(256).clamp(1 << 16, 1 << 20)
}

impl Metrics {
    pub fn new(net: &Network, plan: &TxPlan, layout: Layout) -> Metrics {
        let n = net.nodes;
        let txs = plan.count();
        let words = txs.div_ceil(64);
        let mut node = vec![NodeStats::default(); n];
        for &o in &plan.origin {
            node[o as usize].own += 1;
        }
        let honest = (0..n).filter(|&v| net.is_honest(v)).count() as u32;
        Metrics {
            nodes: n,
            words,
            has: vec![0; n * words],
            node,
            latency: Histogram::default(),
            reach: vec![0; txs],
            reach95_us: vec![NOT_YET; txs],
            reach_all_us: vec![NOT_YET; txs],
            honest_targets: honest.saturating_sub(1),
            names: BTreeMap::new(),
            counts: Vec::new(),
            width: 0,
            sites: Vec::new(),
            logs: (0..n).map(|_| ArrivalLog::new(layout)).collect(),
            pending: Vec::new(),
        }
    }

    #[inline]
    pub fn has(&self, node: usize, tx: usize) -> bool {
        tx < self.reach.len() && self.has[node * self.words + tx / 64] & (1 << (tx % 64)) != 0
    }

    /// The word `has(node, tx)` reads, to warm it (none for a tx past the plan).
    pub fn has_word(&self, node: usize, tx: usize) -> Option<&u64> {
        if tx >= self.reach.len() {
            return None;
        }
        self.has.get(node * self.words + tx / 64)
    }

    /// The node accepted `tx` at `now`; false if it already had it.
    pub fn on_deliver(
        &mut self,
        net: &Network,
        plan: &TxPlan,
        node: usize,
        tx: usize,
        now: u64,
    ) -> bool {
        if tx >= self.reach.len() || self.has(node, tx) {
            return false;
        }
        self.has[node * self.words + tx / 64] |= 1 << (tx % 64);
        let latency = now.saturating_sub(plan.created_us[tx]);
        // Buffered: writing the logs node by node later touches each log's rows once
        // instead of chasing its tree pointers on every delivery.
        self.pending.push((node as u32, tx as u32, latency));
        if self.pending.len() >= max_pending(self.nodes) {
            // A long step budget must not hold a whole run's arrivals in the buffer.
            self.flush_arrivals();
        }
        if plan.origin[tx] as usize == node {
            return true;
        }
        let stats = &mut self.node[node];
        stats.delivered += 1;
        stats.delivered_bytes += plan.len[tx] as u64;
        stats.latency_sum_us += latency;
        if net.is_honest(node) {
            self.latency.record(latency);
            self.reach[tx] += 1;
            let r = self.reach[tx];
            let target95 = (self.honest_targets as f64 * 0.95).ceil() as u32;
            if r == target95.max(1) {
                self.reach95_us[tx] = latency;
            }
            if r == self.honest_targets {
                self.reach_all_us[tx] = latency;
            }
        }
        true
    }

    /// Writes the buffered first arrivals to the logs, grouped by node (a counting sort, so
    /// each node's arrivals keep their order). The `has` bits already keep only the first
    /// arrival of each (node, tx), so every put here inserts.
    pub fn flush_arrivals(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        if pending.len() < 64 || pending.len() < self.nodes / 8 {
            for &(node, tx, latency) in &pending {
                self.logs[node as usize].put_unless_exists(tx as u64, Arrival::AfterUs(latency));
            }
        } else {
            let mut start = vec![0u32; self.nodes + 1];
            for &(node, ..) in &pending {
                start[node as usize + 1] += 1;
            }
            for v in 0..self.nodes {
                start[v + 1] += start[v];
            }
            let mut grouped = vec![(0u32, 0u32, 0u64); pending.len()];
            for &p in &pending {
                let slot = &mut start[p.0 as usize];
                grouped[*slot as usize] = p;
                *slot += 1;
            }
            for &(node, tx, latency) in &grouped {
                self.logs[node as usize].put_unless_exists(tx as u64, Arrival::AfterUs(latency));
            }
        }
        // Keep the buffer's memory for the next batch.
        self.pending = pending;
        self.pending.clear();
    }

    /// Every (node, tx, arrival time) at nodes other than the tx's origin, node by node in
    /// tx order, read back from the arrival logs as they are walked (a run's arrivals can
    /// number 100 million: 1.6 GB as a list).
    pub fn arrivals<'a>(&'a self, plan: &'a TxPlan) -> impl Iterator<Item = (u32, u32, u64)> + 'a {
        self.logs.iter().enumerate().flat_map(move |(node, log)| {
            log.scan(..).filter_map(move |(seq, arrival)| {
                let created = plan.created_us[seq as usize];
                match arrival.at(created) {
                    Some(t) if plan.origin[seq as usize] as usize != node => {
                        Some((node as u32, seq as u32, t))
                    }
                    _ => None,
                }
            })
        })
    }

    /// Adds `n` to the node's count of `counter`; a counter counted even by 0 is reported.
    #[inline]
    pub fn count(&mut self, node: usize, counter: &'static Counter, n: u64) {
        let site = counter as *const Counter as usize;
        let column = match self.sites.iter().find(|&&(s, _)| s == site) {
            Some(&(_, c)) => c,
            None => self.add_site(counter),
        };
        if n > 0 {
            self.counts[node * self.width + column] += n;
        }
    }

    /// The column of a counter seen for the first time at this address (one constant can
    /// have several), made if its name has none yet.
    #[cold]
    #[inline(never)]
    fn add_site(&mut self, counter: &'static Counter) -> usize {
        let next = self.names.len();
        let column = *self.names.entry(counter.name).or_insert(next);
        if column == self.width {
            self.widen();
        }
        self.sites
            .push((counter as *const Counter as usize, column));
        column
    }

    /// Room for 8 more counters in every node's row (a run counts a dozen or so).
    #[cold]
    fn widen(&mut self) {
        let width = self.width + 8;
        let mut counts = vec![0; self.nodes * width];
        if self.width > 0 {
            for (new, old) in counts
                .chunks_exact_mut(width)
                .zip(self.counts.chunks_exact(self.width))
            {
                new[..old.len()].copy_from_slice(old);
            }
        }
        self.counts = counts;
        self.width = width;
    }

    /// The count of each node of the counter named `name`, if anything counted it.
    pub fn counter(&self, name: &str) -> Option<Vec<u64>> {
        let &c = self.names.get(name)?;
        Some(self.column(c))
    }

    fn column(&self, c: usize) -> Vec<u64> {
        self.counts
            .chunks_exact(self.width)
            .map(|row| row[c])
            .collect()
    }

    /// Each counter's count per node, in name order.
    pub fn counters(&self) -> impl Iterator<Item = (&'static str, Vec<u64>)> + '_ {
        self.names.iter().map(|(&name, &c)| (name, self.column(c)))
    }

    /// One node's count of each counter, in name order.
    pub fn node_counts(&self, node: usize) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        let row = &self.counts[node * self.width..][..self.width];
        self.names.iter().map(move |(&name, &c)| (name, row[c]))
    }

    /// The node's row of counts, to warm it (none before anything counted).
    pub fn counts_of(&self, node: usize) -> Option<&[u64]> {
        self.counts.get(node * self.width..(node + 1) * self.width)
    }

    pub fn summary(&self, net: &Network, plan: &TxPlan) -> Summary {
        let honest: Vec<usize> = (0..self.nodes).filter(|&v| net.is_honest(v)).collect();
        let txs = plan.count() as f64;
        let per_node = |f: &dyn Fn(usize) -> Option<f64>| -> Vec<f64> {
            honest.iter().filter_map(|&v| f(v)).collect()
        };
        let stats = |v: usize| &self.node[v];
        let delivery = per_node(&|v| {
            let expected = txs - stats(v).own as f64;
            (expected > 0.0).then(|| stats(v).delivered as f64 / expected)
        });
        let latency = per_node(&|v| {
            let s = stats(v);
            (s.delivered > 0).then(|| s.latency_sum_us as f64 / s.delivered as f64 / 1000.0)
        });
        let overhead = per_node(&|v| {
            let s = stats(v);
            let down = (s.down_payload + s.down_control) as f64;
            (s.delivered_bytes > 0).then(|| down / s.delivered_bytes as f64)
        });
        let per_delivered = |f: fn(&NodeStats) -> u64| {
            per_node(&|v| {
                let s = stats(v);
                (s.delivered > 0).then(|| f(s) as f64 / s.delivered as f64)
            })
        };
        let duplicates = per_delivered(|s| s.duplicates);
        let copies = per_delivered(|s| s.copies);
        let bytes = |f: fn(&NodeStats) -> u64| Spread::of(&per_node(&|v| Some(f(stats(v)) as f64)));
        let lat = Spread::of(&latency);
        let ms = |q: f64| {
            self.latency
                .quantile(q)
                .map(|us| us / 1000.0)
                .unwrap_or(f64::NAN)
        };
        let reach95: Vec<f64> = self
            .reach95_us
            .iter()
            .filter(|&&t| t != NOT_YET)
            .map(|&t| t as f64 / 1000.0)
            .collect();
        let complete: Vec<f64> = self
            .reach_all_us
            .iter()
            .filter(|&&t| t != NOT_YET)
            .map(|&t| t as f64 / 1000.0)
            .collect();
        Summary {
            delivery: Spread::of(&delivery),
            latency_ms: LatencySummary {
                p5: lat.p5,
                mean: lat.mean,
                p95: lat.p95,
                p50: ms(0.5),
                p99: ms(0.99),
            },
            overhead: Spread::of(&overhead),
            duplicates: {
                let s = Spread::of(&duplicates);
                Dups {
                    mean: s.mean,
                    p95: s.p95,
                    copies_mean: Spread::of(&copies).mean,
                }
            },
            bytes_up: Split {
                payload: bytes(|s| s.up_payload),
                control: bytes(|s| s.up_control),
            },
            bytes_down: Split {
                payload: bytes(|s| s.down_payload),
                control: bytes(|s| s.down_control),
            },
            per_tx: PerTx {
                reach_95_ms: Spread::of(&reach95),
                reached_all: complete.len() as u64,
                reach_all_ms: Spread::of(&complete),
            },
        }
    }

    /// Honest nodes (besides the origin) `tx` reached, and how many there are to reach.
    pub fn reach(&self, tx: usize) -> (u32, u32) {
        (
            self.reach.get(tx).copied().unwrap_or(0),
            self.honest_targets,
        )
    }

    /// When `tx` reached 95% of the honest nodes, after its creation (None: never).
    pub fn reach_95_us(&self, tx: usize) -> Option<u64> {
        self.reach95_us.get(tx).copied().filter(|&t| t != NOT_YET)
    }

    /// Counters summed over all nodes and split by node, in name order.
    pub fn counter_report(&self) -> BTreeMap<String, CounterReport> {
        self.counters()
            .map(|(k, v)| {
                (
                    k.to_string(),
                    CounterReport {
                        total: v.iter().sum(),
                        per_node: v,
                    },
                )
            })
            .collect()
    }
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CounterReport {
    pub total: u64,
    pub per_node: Vec<u64>,
}

/// 5th percentile, mean and 95th percentile of a per-node quantity.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Spread {
    pub p5: f64,
    pub mean: f64,
    pub p95: f64,
}

impl Spread {
    pub fn of(values: &[f64]) -> Spread {
        if values.is_empty() {
            return Spread {
                p5: f64::NAN,
                mean: f64::NAN,
                p95: f64::NAN,
            };
        }
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        Spread {
            p5: percentile(&v, 0.05),
            mean: v.iter().sum::<f64>() / v.len() as f64,
            p95: percentile(&v, 0.95),
        }
    }
}

/// Linear interpolation between closest ranks, on sorted values.
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LatencySummary {
    pub p5: f64,
    pub mean: f64,
    pub p95: f64,
    /// Over all deliveries to honest nodes, not per node.
    pub p50: f64,
    pub p99: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Dups {
    /// Full payload copies beyond the first, per delivered tx.
    pub mean: f64,
    pub p95: f64,
    /// All full payload copies per delivered tx (the "duplication factor" of CAT's ADR).
    pub copies_mean: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Split {
    pub payload: Spread,
    pub control: Spread,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PerTx {
    /// Time for a tx to reach 95% of honest nodes (Strokkur's latency), across txs.
    pub reach_95_ms: Spread,
    /// Txs that reached every honest node, and how long that took.
    pub reached_all: u64,
    pub reach_all_ms: Spread,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    pub delivery: Spread,
    pub latency_ms: LatencySummary,
    pub overhead: Spread,
    pub duplicates: Dups,
    pub bytes_up: Split,
    pub bytes_down: Split,
    pub per_tx: PerTx,
}

#[cfg(test)]
mod tests {
    use super::*;
    use proto::Unit;

    const fn counter(name: &'static str) -> Counter {
        Counter {
            name,
            unit: Unit::Events,
            about: "",
            effect: None,
        }
    }

    /// Twelve counters (more than one widening) and a thirteenth constant that shares the
    /// first one's name from another address.
    static COUNTERS: [Counter; 12] = [
        counter("t.k"),
        counter("t.b"),
        counter("t.j"),
        counter("t.c"),
        counter("t.i"),
        counter("t.d"),
        counter("t.h"),
        counter("t.e"),
        counter("t.g"),
        counter("t.f"),
        counter("t.l"),
        counter("t.a"),
    ];
    static SAME_NAME: Counter = counter("t.k");

    fn metrics(nodes: u32) -> (Network, Metrics) {
        let text = format!(
            r#"{{"name": "m", "seed": 1, "nodes": {nodes},
              "topology": {{"kind": "random_regular", "degree": 2}},
              "workload": {{"kind": "burst", "count": 1, "tx_bytes": 100}},
              "protocols": [{{"protocol": "flood"}}]}}"#
        );
        let scenario = crate::parse_scenario(&text).unwrap();
        let net = Network::build(&scenario).unwrap();
        let plan = TxPlan::build(&scenario, &net);
        let metrics = Metrics::new(&net, &plan, Layout::default());
        (net, metrics)
    }

    #[test]
    fn counts_survive_widening_and_read_back_by_name_and_by_node() {
        let (_, mut m) = metrics(5);
        // Counter c at node v gets (c + 1) * 10 + v, counted in two steps around the
        // widenings; a count of zero moves nothing.
        for (c, counter) in COUNTERS.iter().enumerate() {
            for v in 0..5 {
                m.count(v, counter, (c as u64 + 1) * 10);
            }
        }
        for v in 0..5 {
            m.count(v, &SAME_NAME, v as u64);
            m.count(v, &COUNTERS[3], 0);
        }
        for (c, counter) in COUNTERS.iter().enumerate().skip(1) {
            for v in 0..5 {
                m.count(v, counter, v as u64);
            }
            let want: Vec<u64> = (0..5).map(|v| (c as u64 + 1) * 10 + v).collect();
            assert_eq!(m.counter(counter.name), Some(want), "{}", counter.name);
        }
        assert_eq!(m.counter("t.k"), Some(vec![10, 11, 12, 13, 14]));
        assert_eq!(m.counter("t.none"), None);
        let names: Vec<&str> = m.counters().map(|(name, _)| name).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!((names.len(), &names), (12, &sorted));
        let at_node_2: Vec<(&str, u64)> = m.node_counts(2).collect();
        assert_eq!(at_node_2[0], ("t.a", 122));
        assert_eq!(at_node_2[10], ("t.k", 12));
        let report = m.counter_report();
        assert_eq!(report["t.b"].total, 20 * 5 + 10);
        assert_eq!(report["t.b"].per_node, vec![20, 21, 22, 23, 24]);
    }
}
