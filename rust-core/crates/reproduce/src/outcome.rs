//! One finished run as the studies see it: its report, plus the few figures the papers use
//! that a report does not hold (deadlines, censored transactions, rates over time).

use bench::arrival_log::simulated::SimArrivals;
use proto::{Behaviour, TxId};
use sim::engine::{EngineOptions, TraceEvent};
use sim::metrics::Metrics;
use sim::network::Network;
use sim::registry::start_run;
use sim::run::{Prepared, RunReport};
use sim::workload::TxPlan;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// Width of a time-series bin, in microseconds.
pub const BIN_US: u64 = 1_000_000;

pub struct Outcome {
    pub report: RunReport,
    /// Per tx: when (µs after creation) the last honest node that is not its origin got it,
    /// or None if some never did.
    pub reach_all_us: Vec<Option<u64>>,
    /// Per tx: when (µs after creation) it had reached 95% of the honest nodes, or None.
    pub reach_95_us: Vec<Option<u64>>,
    /// Delivery and latency of the transactions the adversaries censor, if any do.
    pub censored: Option<Censored>,
    /// Per-second rates, for the studies that ask for them.
    pub series: Option<Series>,
    /// The arrival logs measured (`bench::arrival_log::layout_figures`), for the studies
    /// that ask for them; empty otherwise.
    pub arrival_figures: Vec<(&'static str, f64)>,
}

#[derive(Clone, Debug)]
pub struct Censored {
    pub txs: usize,
    /// Fraction of (honest node, censored tx) pairs delivered, origins excluded.
    pub delivery: f64,
    /// Mean latency of those deliveries, in ms.
    pub latency_ms: f64,
    /// The censored txs by the second they were created in.
    pub by_second: Vec<CensoredBin>,
}

/// Censored txs created in one stretch of time, and their deliveries.
#[derive(Clone, Copy, Debug, Default)]
pub struct CensoredBin {
    pub txs: u64,
    /// (honest node, censored tx) pairs expected, origins excluded, and delivered.
    pub expected: u64,
    pub got: u64,
}

impl CensoredBin {
    pub fn sum(bins: &[CensoredBin]) -> CensoredBin {
        bins.iter()
            .fold(CensoredBin::default(), |a, b| CensoredBin {
                txs: a.txs + b.txs,
                expected: a.expected + b.expected,
                got: a.got + b.got,
            })
    }

    pub fn delivery(&self) -> f64 {
        self.got as f64 / self.expected.max(1) as f64
    }
}

/// Per 1 s bin: transactions created in the whole network, and at the watched node the
/// transactions accepted and the codewords received.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Series {
    pub watched: u32,
    pub created: Vec<u64>,
    pub delivered: Vec<u64>,
    pub received: Vec<u64>,
}

impl Outcome {
    /// Transactions that reached every honest node within `deadline_ms` of their creation.
    pub fn within(&self, deadline_ms: f64) -> usize {
        count_within(&self.reach_all_us, deadline_ms)
    }

    /// Transactions that reached 95% of the honest nodes within `deadline_ms`.
    pub fn within_95(&self, deadline_ms: f64) -> usize {
        count_within(&self.reach_95_us, deadline_ms)
    }

    pub fn counter(&self, name: &str) -> u64 {
        self.report.counters.get(name).map_or(0, |c| c.total)
    }
}

/// Runs entry `index` of the scenario to the end. `on_progress` gets the simulated fraction
/// done from time to time; `series` records per-second rates (slower: every send is traced);
/// `arrival_logs` measures the nodes' arrival logs at the end.
pub fn run_one(
    scenario_json: &str,
    index: usize,
    series: bool,
    arrival_logs: bool,
    now_ms: fn() -> f64,
    on_progress: &mut dyn FnMut(f64),
) -> Result<Outcome, String> {
    let scenario = sim::parse_scenario(scenario_json).map_err(|e| e.to_string())?;
    let prep = Prepared::new(scenario).map_err(|e| e.to_string())?;
    let t0 = now_ms();
    let mut started =
        start_run(&prep, index, &EngineOptions::default()).map_err(|e| e.to_string())?;
    let watched = (0..started.net.nodes)
        .find(|&v| started.net.is_honest(v))
        .unwrap_or(0) as u32;
    let recorder = series.then(|| {
        Rc::new(RefCell::new(Series {
            watched,
            ..Series::default()
        }))
    });
    if let Some(rec) = &recorder {
        let rec = Rc::clone(rec);
        started
            .run
            .set_trace(Box::new(move |event| record(&mut rec.borrow_mut(), event)));
    }
    let end = started.run.end_us();
    const STEPS: u64 = 50;
    for step in 1..=STEPS {
        started.run.run_until(end / STEPS * step);
        on_progress(step as f64 / STEPS as f64);
    }
    started.run.run_until(u64::MAX);
    let (net, plan) = (Arc::clone(&started.net), Arc::clone(&started.plan));
    let (report, metrics) = started.report_and_metrics(&prep, now_ms() - t0);
    let series = recorder.map(|rec| {
        let mut s = rec.borrow().clone();
        for &t in &plan.created_us {
            bump(&mut s.created, t);
        }
        s
    });
    let reach_all_us = reach_all(&net, &plan, &metrics);
    let reach_95_us = (0..plan.count()).map(|i| metrics.reach_95_us(i)).collect();
    let censored = censored(&net, &plan, &metrics);
    let arrival_figures = if arrival_logs {
        let run = SimArrivals {
            created_us: plan.created_us.clone(),
            logs: metrics.logs,
        };
        bench::arrival_log::layout_figures(&run)
    } else {
        Vec::new()
    };
    Ok(Outcome {
        report,
        reach_all_us,
        reach_95_us,
        censored,
        series,
        arrival_figures,
    })
}

fn count_within(reach_us: &[Option<u64>], deadline_ms: f64) -> usize {
    let deadline_us = (deadline_ms * 1e3) as u64;
    reach_us
        .iter()
        .filter(|r| r.is_some_and(|t| t <= deadline_us))
        .count()
}

fn bump(bins: &mut Vec<u64>, t_us: u64) {
    let bin = (t_us / BIN_US) as usize;
    if bins.len() <= bin {
        bins.resize(bin + 1, 0);
    }
    bins[bin] += 1;
}

fn record(s: &mut Series, event: &TraceEvent) {
    match *event {
        TraceEvent::Send {
            to,
            arrive_us,
            lost: false,
            kind: "codeword",
            ..
        } if to == s.watched => bump(&mut s.received, arrive_us),
        TraceEvent::Deliver { t_us, node, .. } if node == s.watched => bump(&mut s.delivered, t_us),
        _ => {}
    }
}

/// Honest nodes that should receive tx `i`: all but its origin.
fn targets(net: &Network, plan: &TxPlan, honest: usize, i: usize) -> usize {
    honest - net.is_honest(plan.origin[i] as usize) as usize
}

fn reach_all(net: &Network, plan: &TxPlan, metrics: &Metrics) -> Vec<Option<u64>> {
    let honest = (0..net.nodes).filter(|&v| net.is_honest(v)).count();
    let txs = plan.count();
    let mut reached = vec![0usize; txs];
    let mut last = vec![0u64; txs];
    for (node, tx, t) in metrics.arrivals(plan) {
        let tx = tx as usize;
        if net.is_honest(node as usize) && node != plan.origin[tx] {
            reached[tx] += 1;
            last[tx] = last[tx].max(t.saturating_sub(plan.created_us[tx]));
        }
    }
    (0..txs)
        .map(|i| (reached[i] >= targets(net, plan, honest, i)).then_some(last[i]))
        .collect()
}

fn censored(net: &Network, plan: &TxPlan, metrics: &Metrics) -> Option<Censored> {
    let censor = net
        .behaviour
        .iter()
        .find(|b| matches!(b, Behaviour::Censor { .. } | Behaviour::PushCensor { .. }))?;
    let is_censored: Vec<bool> = (0..plan.count())
        .map(|i| censor.keeps_out(TxId(i as u64)))
        .collect();
    let honest = (0..net.nodes).filter(|&v| net.is_honest(v)).count();
    let bin = |tx: usize| (plan.created_us[tx] / BIN_US) as usize;
    let bins = plan
        .created_us
        .last()
        .map_or(0, |&t| (t / BIN_US) as usize + 1);
    let mut by_second = vec![CensoredBin::default(); bins];
    for i in (0..plan.count()).filter(|&i| is_censored[i]) {
        by_second[bin(i)].txs += 1;
        by_second[bin(i)].expected += targets(net, plan, honest, i) as u64;
    }
    let mut latency_us = 0u64;
    for (node, tx, t) in metrics.arrivals(plan) {
        let tx = tx as usize;
        if is_censored[tx] && net.is_honest(node as usize) && node != plan.origin[tx] {
            by_second[bin(tx)].got += 1;
            latency_us += t.saturating_sub(plan.created_us[tx]);
        }
    }
    let all = CensoredBin::sum(&by_second);
    Some(Censored {
        txs: all.txs as usize,
        delivery: all.delivery(),
        latency_ms: latency_us as f64 / 1e3 / all.got.max(1) as f64,
        by_second,
    })
}
