//! The first screen's toy run: one transaction flooding over a seeded random regular graph,
//! through the real engine. Small enough to run on page load.

use crate::engine::EngineOptions;
use crate::load::{validate, ScenarioError};
use crate::registry::start_run;
use crate::run::Prepared;
use crate::scenario::*;
use proto::{stream, Rng};

pub struct DemoRun {
    pub digest: String,
    pub events: u64,
    pub nodes: u32,
    pub origin: u32,
    /// Flattened undirected links: a0, b0, a1, b1, ...
    pub edges: Vec<u32>,
    /// First arrival per node in microseconds; -1 where the tx never arrived.
    pub arrival_us: Vec<f64>,
}

pub fn demo_scenario(seed: u64, nodes: u32, degree: u32) -> Scenario {
    let origin = Rng::derive(seed, stream::WORKLOAD, 1).below(nodes.max(1) as u64) as u32;
    Scenario {
        name: "Flooding one transaction".into(),
        description: "One tx from one node, flooded over a random regular graph.".into(),
        seed,
        nodes,
        topology: Topology::RandomRegular(RandomRegular { degree }),
        latency: Latency::default(),
        bandwidth: Bandwidth::default(),
        links: LinkOptions::default(),
        processing_delay_ms: 0.0,
        workload: Workload::Burst(Burst {
            publisher: origin,
            count: 1,
            tx_bytes: 250,
            interval_ms: 0.0,
            start_ms: 0.0,
        }),
        adversaries: Vec::new(),
        events: Vec::new(),
        drain_ms: 10_000.0,
        protocols: vec![ProtocolSpec::named("flood")],
    }
}

pub fn demo_flood(seed: u64, nodes: u32, degree: u32) -> Result<DemoRun, ScenarioError> {
    let scenario = demo_scenario(seed, nodes, degree);
    validate(&scenario)?;
    let origin = match scenario.workload {
        Workload::Burst(Burst { publisher, .. }) => publisher,
        _ => 0,
    };
    let prep = Prepared::new(scenario)?;
    let started = start_run(&prep, 0, &EngineOptions::default())?;
    let mut run = started.run;
    run.run_until(u64::MAX);
    let done = run.finish();
    let mut arrival_us = vec![-1.0; nodes as usize];
    arrival_us[origin as usize] = 0.0;
    for (node, _, t) in done.metrics.arrivals(&prep.plan) {
        arrival_us[node as usize] = t as f64;
    }
    Ok(DemoRun {
        digest: done.digest,
        events: done.events,
        nodes,
        origin,
        edges: prep.net.links.iter().flat_map(|&(a, b)| [a, b]).collect(),
        arrival_us,
    })
}
