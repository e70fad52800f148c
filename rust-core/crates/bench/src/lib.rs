//! Headline benchmarks behind `txsim bench NAME` and the WASM module's `bench(NAME)`. The host
//! passes its clock in (`now_s`, seconds), so the same code measures natively and in WASM, and
//! a `say` that shows the user what is being measured.
//! Kept out of the library crates they measure (sim, ltcode, arrivals), which hold no benches.

pub mod arrival_log;
pub mod codec;
pub mod strokkur;

use sim::engine::EngineOptions;
use sim::registry::start_run;
use sim::run::Prepared;
use sim::scenario::*;

pub type Clock<'a> = &'a mut dyn FnMut() -> f64;
/// Where a bench says what it measures next: one takes seconds, another a minute or two.
pub type Say<'a> = &'a mut dyn FnMut(&str);
pub type Figures = Vec<(&'static str, f64)>;

/// Names `run` accepts.
pub const BENCHES: &[&str] = &["engine", "codec", "arrivals", "gossipsub", "strokkur"];

pub fn run(name: &str, now_s: Clock, say: Say) -> Result<Figures, String> {
    match name {
        "engine" => Ok(engine(now_s, say)),
        "codec" => {
            say("the LT codec on 128-byte symbols: encoding, block decoding (k = 50, 500), streaming");
            Ok(codec::headline(now_s))
        }
        "arrivals" => arrival_log::simulated::headline(now_s, say),
        "gossipsub" => {
            say("GossipSub: the 64-message runs of gossipsub-v2-multi.json (1,000 nodes, D_announce 0, 7 and 8)");
            gossipsub(now_s)
        }
        "strokkur" => {
            say("Strokkur on the paper's 250-node network, one run");
            Ok(strokkur::headline(now_s))
        }
        other => Err(format!(
            "unknown benchmark `{other}`; known: {}",
            BENCHES.join(", ")
        )),
    }
}

/// The engine bench's network: flooding 100 txs of 128 B over a degree-16 random regular
/// graph with log-normal latency and unlimited bandwidth.
pub fn engine_scenario(nodes: u32) -> Scenario {
    network_scenario(nodes, 100, "flood")
}

/// `txs` txs of 128 B under `protocol` over a degree-16 random regular graph of `nodes` with
/// log-normal latency and unlimited bandwidth (scenarios/flood-1000.json at another size).
pub fn network_scenario(nodes: u32, txs: u64, protocol: &str) -> Scenario {
    Scenario {
        name: format!("engine bench, {nodes} nodes"),
        description: String::new(),
        seed: 7,
        nodes,
        topology: Topology::RandomRegular(RandomRegular { degree: 16 }),
        latency: Latency::default(),
        bandwidth: Bandwidth::default(),
        links: LinkOptions::default(),
        processing_delay_ms: 0.0,
        workload: Workload::Poisson(Poisson {
            total_tps: 100.0,
            duration_ms: 2_000.0,
            max_txs: Some(txs),
            tx_bytes: 128,
            tx_size: None,
            rate_steps: Vec::new(),
        }),
        adversaries: Vec::new(),
        events: Vec::new(),
        drain_ms: 10_000.0,
        protocols: vec![ProtocolSpec::named(protocol)],
    }
}

/// Events per second of one full run (setup excluded).
fn events_per_s(scenario: Scenario, now_s: Clock) -> f64 {
    let prep = match Prepared::new(scenario) {
        Ok(p) => p,
        Err(_) => return f64::NAN,
    };
    let Ok(started) = start_run(&prep, 0, &EngineOptions::default()) else {
        return f64::NAN;
    };
    let mut run = started.run;
    let t0 = now_s();
    run.run_until(u64::MAX);
    let elapsed = now_s() - t0;
    run.events() as f64 / elapsed.max(1e-9)
}

/// Runs per size; the best counts. The machines are shared and noisy, and in WASM the first
/// run also pays for growing the module's memory.
const ENGINE_RUNS: usize = 3;

fn engine(now_s: Clock, say: Say) -> Figures {
    say("GossipSub, 20 txs over 100,000 nodes: one run of about 20 million events");
    let gossipsub = events_per_s(network_scenario(100_000, 20, "gossipsub"), now_s);
    let mut best = |nodes: u32, written: &str, now_s: Clock| {
        say(&format!(
            "flooding 100 txs over {written} nodes, best of {ENGINE_RUNS} runs"
        ));
        (0..ENGINE_RUNS)
            .map(|_| events_per_s(engine_scenario(nodes), now_s))
            .fold(f64::NAN, f64::max)
    };
    let mut figures = vec![
        ("events_per_s_1k", best(1_000, "1,000", now_s)),
        ("events_per_s_10k", best(10_000, "10,000", now_s)),
        ("gossipsub_events_per_s_100k", gossipsub),
    ];
    say("the page's big case: flood, CAT and GossipSub over 50,000 nodes");
    figures.extend(page_50k(now_s));
    figures
}

/// The page's big case (e2e/perf.spec.ts): flood, CAT and GossipSub over 50,000 nodes of
/// degree 8 with 20 txs, one after another, as one worker would compute them.
const PAGE_50K: &str = r#"{"name": "perf: flood, cat, gossipsub on 50000 nodes", "seed": 5, "nodes": 50000,
  "topology": {"kind": "random_regular", "degree": 8},
  "latency": {"kind": "lognormal", "median_ms": 70, "sigma": 0.5},
  "workload": {"kind": "poisson", "total_tps": 20, "duration_ms": 1000, "tx_bytes": 250},
  "drain_ms": 2000,
  "protocols": [{"label": "flood", "protocol": "flood"}, {"label": "cat", "protocol": "cat"},
                {"label": "gossipsub", "protocol": "gossipsub"}]}"#;

/// Wall time of each run of `PAGE_50K` (its network built included) and of all three, in seconds.
fn page_50k(now_s: Clock) -> Figures {
    let keys = ["flood_s_50k", "cat_s_50k", "gossipsub_s_50k"];
    let Ok(prep) = sim::parse_scenario(PAGE_50K).and_then(Prepared::new) else {
        return keys.iter().map(|&k| (k, f64::NAN)).collect();
    };
    let mut figures: Figures = Vec::new();
    let mut total = 0.0;
    for (i, key) in keys.into_iter().enumerate() {
        let t0 = now_s();
        let wall = match start_run(&prep, i, &EngineOptions::default()) {
            Ok(started) => {
                let mut run = started.run;
                run.run_until(u64::MAX);
                now_s() - t0
            }
            Err(_) => f64::NAN,
        };
        total += wall;
        figures.push((key, wall));
    }
    figures.push(("three_protocols_s_50k", total));
    figures
}

/// The GossipSub v2.0 study's 1,000-node, 64-message scenario, built into the binary so the
/// WASM module can run it too.
const GOSSIPSUB_MULTI: &str = include_str!("../../../../scenarios/gossipsub-v2-multi.json");

/// Wall time of the scenario's 64-message runs (D_announce 0, 7 and 8), network setup
/// included, in seconds.
fn gossipsub(now_s: Clock) -> Result<Figures, String> {
    let t0 = now_s();
    let prep = sim::parse_scenario(GOSSIPSUB_MULTI)
        .and_then(Prepared::new)
        .map_err(|e| e.to_string())?;
    let runs: Vec<usize> = (0..prep.scenario.protocols.len())
        .filter(|&i| prep.scenario.protocols[i].label().ends_with(", 64 msgs"))
        .collect();
    let mut events = 0;
    for &i in &runs {
        let mut run = start_run(&prep, i, &EngineOptions::default())
            .map_err(|e| e.to_string())?
            .run;
        run.run_until(u64::MAX);
        events += run.events();
    }
    let wall = now_s() - t0;
    Ok(vec![
        ("wall_s_1000x64", wall),
        ("runs", runs.len() as f64),
        ("events_per_s", events as f64 / wall.max(1e-9)),
    ])
}
