//! The WebAssembly face of the core: thin wrappers over `sim`, with every error turned into a
//! JS exception at this edge and no panic allowed across it. ARCHITECTURE.md follows a
//! scenario and a peer's frame through these bindings.

pub mod arrival_store;
#[cfg(target_arch = "wasm32")]
mod grow_ahead;
pub mod layout;
pub mod live_node;
mod simulation;
mod steps;

pub use live_node::LiveNode;
pub use simulation::Simulation;
use std::panic::{catch_unwind, AssertUnwindSafe};
use wasm_bindgen::prelude::*;

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static HEAP: grow_ahead::GrowAhead = grow_ahead::GrowAhead;

/// Run `f` with its error as a JS exception. Natively (in tests) a panic also becomes an
/// error; on wasm32 a panic aborts, and `install_panic_report` says why before the trap.
fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T, String>) -> Result<T, JsError> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(msg)) => Err(JsError::new(&msg)),
        Err(_) => Err(JsError::new(&format!(
            "internal error in {what}; please report it"
        ))),
    }
}

#[wasm_bindgen]
extern "C" {
    /// The host's monotonic clock in milliseconds (performance.now in browsers and Node).
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
    /// What `bench` tells, before each measurement, what it measures next.
    #[wasm_bindgen(typescript_type = "((what: string) => void)")]
    pub type BenchProgress;
    #[wasm_bindgen(method, catch, js_name = call)]
    fn call(this: &BenchProgress, this_arg: &JsValue, what: &str) -> Result<(), JsValue>;
}

/// On WebAssembly a panic cannot unwind: it traps. Say what went wrong before it does, so the
/// host can report it and start a fresh instance.
#[wasm_bindgen(start)]
pub fn install_panic_report() {
    std::panic::set_hook(Box::new(|info| {
        console_error(&format!("txcast core panicked: {info}"))
    }));
}

/// The core's version.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// One transaction flooded over a seeded random regular graph.
#[wasm_bindgen]
pub struct DemoRun(sim::demo::DemoRun);

#[wasm_bindgen]
impl DemoRun {
    #[wasm_bindgen(getter)]
    pub fn digest(&self) -> String {
        self.0.digest.clone()
    }
    #[wasm_bindgen(getter)]
    pub fn events(&self) -> f64 {
        self.0.events as f64
    }
    #[wasm_bindgen(getter)]
    pub fn nodes(&self) -> u32 {
        self.0.nodes
    }
    #[wasm_bindgen(getter)]
    pub fn origin(&self) -> u32 {
        self.0.origin
    }
    /// Flattened undirected links: a0, b0, a1, b1, ...
    pub fn edges(&self) -> Vec<u32> {
        self.0.edges.clone()
    }
    /// First arrival per node in microseconds; -1 where the tx never arrived.
    pub fn arrival_us(&self) -> Vec<f64> {
        self.0.arrival_us.clone()
    }
}

#[wasm_bindgen]
pub fn demo_flood(seed: u64, nodes: u32, degree: u32) -> Result<DemoRun, JsError> {
    guarded("demo_flood", || {
        sim::demo::demo_flood(seed, nodes, degree)
            .map(DemoRun)
            .map_err(|e| e.to_string())
    })
}

/// A headline benchmark, as one JSON object of numbers; `progress`, if given, is called with
/// what is measured next (a bench takes seconds to minutes).
#[wasm_bindgen]
pub fn bench(name: &str, progress: Option<BenchProgress>) -> Result<String, JsError> {
    guarded("bench", || {
        let mut clock = || performance_now() / 1000.0;
        let mut say = |what: &str| {
            if let Some(progress) = &progress {
                // A progress function that throws costs the user its lines, not the figures.
                let _ = progress.call(&JsValue::NULL, what);
            }
        };
        let figures = bench::run(name, &mut clock, &mut say)?;
        let map: serde_json::Map<String, serde_json::Value> = figures
            .into_iter()
            .map(|(k, v)| (k.to_string(), serde_json::json!(v)))
            .collect();
        Ok(serde_json::Value::Object(map).to_string())
    })
}

/// Check a scenario; returns a summary as JSON (with `notes`: behaviours a run's protocol
/// ignores) or throws with the JSON path of the problem.
#[wasm_bindgen]
pub fn check_scenario(scenario_json: &str) -> Result<String, JsError> {
    guarded("check_scenario", || {
        let scenario = sim::parse_scenario(scenario_json).map_err(|e| e.to_string())?;
        let prep = sim::Prepared::new(scenario).map_err(|e| e.to_string())?;
        let mut runs = Vec::new();
        let mut notes = Vec::new();
        for (i, p) in prep.scenario.protocols.iter().enumerate() {
            let config = sim::registry::check_run(&prep, i).map_err(|e| e.to_string())?;
            runs.push(
                serde_json::json!({"label": p.label(), "protocol": p.protocol, "config": config}),
            );
            notes.extend(
                sim::registry::ignored(&prep, i)
                    .iter()
                    .map(|n| n.to_string()),
            );
        }
        Ok(serde_json::json!({
            "name": prep.scenario.name, "nodes": prep.net.nodes, "links": prep.net.links.len(),
            "txs": prep.plan.count(), "runs": runs, "notes": notes,
        })
        .to_string())
    })
}

/// Run every protocol of a scenario to the end; returns the report JSON that `txsim run
/// --out` writes (wall times aside).
#[wasm_bindgen]
pub fn run_scenario(scenario_json: &str, seed: Option<u64>) -> Result<String, JsError> {
    let mut scenario =
        sim::parse_scenario(scenario_json).map_err(|e| JsError::new(&e.to_string()))?;
    if let Some(seed) = seed {
        scenario.seed = seed;
    }
    let mut runs = Vec::with_capacity(scenario.protocols.len());
    for i in 0..scenario.protocols.len() {
        let mut simulation = Simulation::new(scenario_json, i as u32, seed)?;
        while simulation.advance(f64::MAX, 1e6)? {}
        let report: serde_json::Value = serde_json::from_str(&simulation.finish()?)
            .map_err(|e| JsError::new(&e.to_string()))?;
        runs.push(report);
    }
    Ok(serde_json::json!({ "scenario": scenario, "runs": runs }).to_string())
}

/// The scenario JSON Schema (the same as scenarios/schema.json).
#[wasm_bindgen]
pub fn scenario_schema() -> String {
    sim::schema::scenario_schema_text()
}

/// A protocol of the registry, as the page shows it.
#[wasm_bindgen(getter_with_clone)]
pub struct ProtocolEntry {
    pub name: String,
    /// One line.
    pub summary: String,
    /// A few sentences, for the glossary.
    pub about: String,
    /// Whether the light node and the relay can run it.
    pub live: bool,
    /// Every counter it may report.
    pub counters: Vec<CounterEntry>,
}

/// A protocol counter, as the page describes it.
#[wasm_bindgen(getter_with_clone)]
#[derive(Clone)]
pub struct CounterEntry {
    /// `<protocol>.<what>`: the key in reports and `counter_names`.
    pub name: String,
    /// What one unit is ("txs", "messages", ...).
    pub unit: String,
    /// One sentence: what it counts and why it matters.
    pub about: String,
    /// The adversary effect it records ("withheld", "corrupt"), if any.
    pub effect: Option<String>,
}

/// Every protocol, in the order lists show them.
#[wasm_bindgen]
pub fn protocols() -> Vec<ProtocolEntry> {
    proto::registry::PROTOCOLS
        .iter()
        .map(|p| ProtocolEntry {
            name: p.name.into(),
            summary: p.summary.into(),
            about: p.about.into(),
            live: p.live,
            counters: p.counters.iter().map(|c| counter_entry(c)).collect(),
        })
        .collect()
}

fn counter_entry(c: &proto::Counter) -> CounterEntry {
    CounterEntry {
        name: c.name.into(),
        unit: c.unit.name().into(),
        about: c.about.into(),
        effect: c.effect.map(|e| e.name().into()),
    }
}

/// A kind of message a protocol sends, as the page's legend and lessons show it.
#[wasm_bindgen(getter_with_clone)]
pub struct MessageEntry {
    /// As the simulation's `kinds()` name it.
    pub kind: String,
    /// As the protocol's spec writes it ("IHAVE").
    pub label: String,
    /// One line: what it says and when it is sent.
    pub about: String,
}

/// Every kind of message `protocol` sends (none for a name not in the registry).
#[wasm_bindgen]
pub fn messages(protocol: &str) -> Vec<MessageEntry> {
    let Some(info) = proto::registry::info(protocol) else {
        return Vec::new();
    };
    info.messages
        .iter()
        .map(|m| MessageEntry {
            kind: m.kind.into(),
            label: m.label.into(),
            about: m.about.into(),
        })
        .collect()
}

/// Every counter a run or a light node can report, each once: the protocols' (in registry
/// order), the simulator engine's and the light node's.
#[wasm_bindgen]
pub fn counters() -> Vec<CounterEntry> {
    let protocols = proto::registry::PROTOCOLS.iter().flat_map(|p| p.counters);
    let hosts = sim::engine::COUNTERS.iter().chain(live_node::COUNTERS);
    let mut seen = std::collections::BTreeSet::new();
    protocols
        .chain(hosts)
        .filter(|c| seen.insert(c.name))
        .map(|c| counter_entry(c))
        .collect()
}
