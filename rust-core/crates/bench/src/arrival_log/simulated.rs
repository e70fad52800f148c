//! The `arrivals` bench on a real simulator run: flooding 100,000 txs through 1,000 nodes, then
//! the arrival logs the engine kept (in the tickets encoding) measured by [`super::headline`].

use super::RunArrivals;
use crate::{Clock, Figures, Say};
use arrivals::{Arrival, ArrivalLog};
use sim::engine::EngineOptions;
use sim::registry::start_run;
use sim::run::Prepared;
use sim::scenario::*;

/// 1,000 nodes on a random regular graph of degree 3 with log-normal latency (median 70 ms),
/// 100,000 txs of 128 B at 400 tps (about 250 s). Flooding delivers every tx everywhere, so
/// every node's log is full, as a closed run's is; degree 3 keeps the run to ~2 * 10^8
/// messages, and its longer paths give delays of up to about a second.
pub fn scenario() -> Scenario {
    Scenario {
        name: "arrivals bench, 1,000 nodes, 100,000 txs".into(),
        description: String::new(),
        seed: 11,
        nodes: 1_000,
        topology: Topology::RandomRegular(RandomRegular { degree: 3 }),
        latency: Latency::default(),
        bandwidth: Bandwidth::default(),
        links: LinkOptions::default(),
        processing_delay_ms: 0.0,
        workload: Workload::Poisson(Poisson {
            total_tps: 400.0,
            duration_ms: 300_000.0,
            max_txs: Some(100_000),
            tx_bytes: 128,
            tx_size: None,
            rate_steps: Vec::new(),
        }),
        adversaries: Vec::new(),
        events: Vec::new(),
        drain_ms: 5_000.0,
        protocols: vec![ProtocolSpec::named("flood")],
    }
}

/// The logs of a finished run with the creation times they are relative to.
pub struct SimArrivals {
    pub created_us: Vec<u64>,
    pub logs: Vec<ArrivalLog>,
}

impl RunArrivals for SimArrivals {
    fn nodes(&self) -> u32 {
        self.logs.len() as u32
    }
    fn creation_us(&self) -> &[u64] {
        &self.created_us
    }
    fn node_arrivals(&self, node: u32, out: &mut Vec<Arrival>) {
        out.clear();
        out.resize(self.created_us.len(), Arrival::Never);
        if let Some(log) = self.logs.get(node as usize) {
            for (seq, arrival) in log.scan(0..self.created_us.len() as u64) {
                out[seq as usize] = arrival;
            }
        }
    }
}

/// Runs `scenario` to the end and keeps its arrival logs.
fn run(scenario: Scenario) -> Result<(SimArrivals, u64), String> {
    let prep = Prepared::new(scenario).map_err(|e| e.to_string())?;
    let mut started = start_run(&prep, 0, &EngineOptions::default()).map_err(|e| e.to_string())?;
    let created_us = started.plan.created_us.clone();
    started.run.run_until(u64::MAX);
    let (report, metrics) = started.report_and_metrics(&prep, 0.0);
    let logs = metrics.logs;
    Ok((SimArrivals { created_us, logs }, report.events))
}

/// Runs the scenario, then the arrivals headline on its logs; adds the run's size and time.
pub fn headline(now_s: Clock, say: Say) -> Result<Figures, String> {
    say("flooding 100,000 txs through 1,000 nodes, keeping every arrival");
    let t0 = now_s();
    let (run, events) = run(scenario())?;
    let run_s = now_s() - t0;
    say("measuring the run's arrival logs: sizes, shard balance, scans, writes");
    let mut figures = super::headline(&run, now_s);
    figures.extend([
        ("run_nodes", f64::from(run.nodes())),
        ("run_txs", run.created_us.len() as f64),
        ("run_events", events as f64),
        ("run_wall_s", run_s),
    ]);
    Ok(figures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_flooding_run_fills_every_log() {
        let mut small = scenario();
        small.nodes = 40;
        small.workload = Workload::Poisson(Poisson {
            total_tps: 400.0,
            duration_ms: 2_000.0,
            max_txs: Some(300),
            tx_bytes: 128,
            tx_size: None,
            rate_steps: Vec::new(),
        });
        let (run, events) = run(small).unwrap();
        assert!(events > 0);
        let txs = run.creation_us().len();
        assert_eq!(txs, 300);
        let mut arrivals = Vec::new();
        let mut at_origin = 0;
        for node in 0..run.nodes() {
            run.node_arrivals(node, &mut arrivals);
            assert_eq!(arrivals.len(), txs);
            assert!(
                !arrivals.contains(&Arrival::Never),
                "flooding reaches every node"
            );
            at_origin += arrivals
                .iter()
                .filter(|a| **a == Arrival::AfterUs(0))
                .count();
        }
        // Each tx is at its own origin at once (nobody else gets it with no delay).
        assert_eq!(at_origin, txs);
        let sizes = crate::arrival_log::size::measure(&run, arrivals::Layout::default());
        assert_eq!(sizes.records, 40 * 300);
    }
}
