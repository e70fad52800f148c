//! What a run with timed events looks like before, during and after each of them: the run is
//! cut at every event's time (and a churn's end), and each phase reports the txs created in it,
//! how many honest nodes they reached and how fast. After a `heal`, a `join` or a churn's end
//! it also says how long the network took to spread txs as it did before the first event.

use crate::metrics::{percentile, Metrics};
use crate::network::Network;
use crate::workload::TxPlan;
use serde::Serialize;

/// Txs in a row whose median time to reach 95% of honest nodes says whether the network
/// spreads txs as it did before the first event...
pub const RECOVERED_RUN: usize = 5;
/// ...when it is at most this many times the median of the txs created before it.
pub const RECOVERED_WITHIN: f64 = 1.25;

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Phase {
    /// What began it: "start", or the kinds of the events at its start ("partition", "heal",
    /// "churn_end", ...), joined by "+".
    pub after: String,
    pub from_ms: f64,
    pub to_ms: f64,
    /// Txs created in it.
    pub txs: u64,
    /// Of the (honest node, tx) pairs of those txs, the share delivered by the end of the run.
    pub delivery: f64,
    /// Latency of those deliveries (null without any).
    pub latency_ms: Quantiles,
    /// Median over those txs of the time to reach 95% of the honest nodes; null when fewer than
    /// half of them ever did.
    pub reach_95_ms: f64,
    /// After a heal, a join or a churn's end: from the phase's start until the first of
    /// `RECOVERED_RUN` txs in a row created since whose median time to reach 95% of honest
    /// nodes is within `RECOVERED_WITHIN` times the median of the txs created before the first
    /// event. Null: not within the run's load (or no such median before).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovery_ms: Option<f64>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Quantiles {
    pub p50: f64,
    pub p95: f64,
}

/// Kinds of mark after which the network is expected to recover.
const RECOVERS: &[&str] = &["heal", "join", "churn_end"];

/// The phases of a run; none without events.
pub fn phases(net: &Network, plan: &TxPlan, metrics: &Metrics, end_us: u64) -> Vec<Phase> {
    let marks = &net.timeline.marks;
    if marks.is_empty() {
        return Vec::new();
    }
    // Phase boundaries: 0, each distinct mark time, the end.
    let mut starts: Vec<(u64, String)> = vec![(0, "start".to_string())];
    for m in marks {
        match starts.last_mut() {
            Some((t, label)) if *t == m.at_us => {
                if label == "start" {
                    label.clear();
                } else {
                    label.push('+');
                }
                label.push_str(m.kind);
            }
            _ => starts.push((m.at_us, m.kind.to_string())),
        }
    }
    let honest = (0..net.nodes).filter(|&v| net.is_honest(v)).count() as u64;
    let mut latencies: Vec<Vec<f64>> = vec![Vec::new(); starts.len()];
    let phase_of = |created: u64| starts.partition_point(|s| s.0 <= created).saturating_sub(1);
    for (node, tx, t) in metrics.arrivals(plan) {
        if net.is_honest(node as usize) {
            let created = plan.created_us[tx as usize];
            latencies[phase_of(created)].push((t.saturating_sub(created)) as f64 / 1000.0);
        }
    }
    let reach95: Vec<f64> = (0..plan.count())
        .map(|i| {
            metrics
                .reach_95_us(i)
                .map_or(f64::INFINITY, |t| t as f64 / 1000.0)
        })
        .collect();
    let baseline = threshold(&reach95, plan, starts.get(1).map_or(end_us, |s| s.0));
    starts
        .iter()
        .enumerate()
        .map(|(i, (from, after))| {
            let to = starts.get(i + 1).map_or(end_us, |s| s.0);
            let txs: Vec<usize> = (0..plan.count())
                .filter(|&k| phase_of(plan.created_us[k]) == i)
                .collect();
            let (mut reached, mut targets) = (0u64, 0u64);
            for &k in &txs {
                reached += metrics.reach(k).0 as u64;
                targets += honest - net.is_honest(plan.origin[k] as usize) as u64;
            }
            let lat = &mut latencies[i];
            lat.sort_by(f64::total_cmp);
            let mut times: Vec<f64> = txs.iter().map(|&k| reach95[k]).collect();
            times.sort_by(f64::total_cmp);
            let median = percentile(&times, 0.5);
            let recovers = after.split('+').any(|k| RECOVERS.contains(&k));
            Phase {
                after: after.clone(),
                from_ms: *from as f64 / 1000.0,
                to_ms: to as f64 / 1000.0,
                txs: txs.len() as u64,
                delivery: if targets == 0 {
                    f64::NAN
                } else {
                    reached as f64 / targets as f64
                },
                latency_ms: Quantiles {
                    p50: percentile(lat, 0.5),
                    p95: percentile(lat, 0.95),
                },
                reach_95_ms: if median.is_finite() { median } else { f64::NAN },
                recovery_ms: recovers.then(|| recovery(&reach95, plan, *from, baseline)),
            }
        })
        .collect()
}

/// The median of values (infinite ones included, sorted last).
fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    percentile(&v, 0.5)
}

/// `RECOVERED_WITHIN` times the median time to reach 95% of honest nodes of the txs created
/// before `until_us` (the first event); None when there were none, or half never got there.
fn threshold(reach95: &[f64], plan: &TxPlan, until_us: u64) -> Option<f64> {
    let before = plan.created_us.partition_point(|&t| t < until_us);
    let m = median(&reach95[..before]);
    m.is_finite().then_some(m * RECOVERED_WITHIN)
}

/// From `from_us` until the first tx created since that starts `RECOVERED_RUN` in a row (or
/// all that are left, if fewer) whose median meets the threshold, in ms; NaN if none does.
fn recovery(reach95: &[f64], plan: &TxPlan, from_us: u64, threshold: Option<f64>) -> f64 {
    let Some(limit) = threshold else {
        return f64::NAN;
    };
    let first = plan.created_us.partition_point(|&t| t < from_us);
    let after = &reach95[first..];
    (0..after.len())
        .find(|&j| median(&after[j..(j + RECOVERED_RUN).min(after.len())]) <= limit)
        .map_or(f64::NAN, |j| {
            (plan.created_us[first + j] - from_us) as f64 / 1000.0
        })
}
