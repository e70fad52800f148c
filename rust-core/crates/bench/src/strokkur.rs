//! The `strokkur` bench: how fast the simulator runs Strokkur in the paper's main setting.

use crate::{Clock, Figures};
use sim::engine::EngineOptions;
use sim::registry::start_run;
use sim::run::Prepared;
use sim::scenario::*;

/// The paper's main network (`004` §5.3: 250 nodes in world cities, degree 16, 10 tps per node
/// of 128-byte txs), for 2 simulated seconds of load and half a second of drain, with Strokkur
/// configured as in scenarios/strokkur-250.json (codeword rates start at their operating point).
pub fn scenario() -> Scenario {
    Scenario {
        name: "strokkur bench, 250 nodes".into(),
        description: String::new(),
        seed: 4,
        nodes: 250,
        topology: Topology::RandomRegular(RandomRegular { degree: 16 }),
        latency: Latency::Geographic(GeographicLatency {
            stretch: None,
            base_ms: 0.0,
        }),
        bandwidth: Bandwidth::default(),
        links: LinkOptions::default(),
        processing_delay_ms: 0.0,
        workload: Workload::Poisson(Poisson {
            total_tps: 2_500.0,
            duration_ms: 2_000.0,
            max_txs: None,
            tx_bytes: 128,
            tx_size: None,
            rate_steps: Vec::new(),
        }),
        adversaries: Vec::new(),
        events: Vec::new(),
        drain_ms: 500.0,
        protocols: vec![ProtocolSpec {
            config: serde_json::json!({
                "peel_window_symbols": 4096,
                "initial_rate_per_s": 219.0
            }),
            ..ProtocolSpec::named("strokkur")
        }],
    }
}

/// Simulated seconds per wall second of one run (setup excluded).
pub fn headline(now_s: Clock) -> Figures {
    let rate = (|| {
        let prep = Prepared::new(scenario()).ok()?;
        let mut run = start_run(&prep, 0, &EngineOptions::default()).ok()?.run;
        let t0 = now_s();
        run.run_until(u64::MAX);
        let elapsed = now_s() - t0;
        Some(run.now_us() as f64 / 1e6 / elapsed.max(1e-9))
    })();
    vec![("sim_s_per_wall_s_250", rate.unwrap_or(f64::NAN))]
}
