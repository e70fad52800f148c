//! The WebAssembly face of the core: thin wrappers over `sim`, with every error turned into a
//! JS exception at this edge and no panic allowed across it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use wasm_bindgen::prelude::*;

/// Run `f`, turning a panic into a JS error instead of a trap that kills the module.
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

/// A headline benchmark, as one JSON object of numbers.
#[wasm_bindgen]
pub fn bench(name: &str) -> Result<String, JsError> {
    guarded("bench", || {
        let mut clock = || performance_now() / 1000.0;
        let figures = sim::bench::run(name, &mut clock)?;
        let map: serde_json::Map<String, serde_json::Value> = figures
            .into_iter()
            .map(|(k, v)| (k.to_string(), serde_json::json!(v)))
            .collect();
        Ok(serde_json::Value::Object(map).to_string())
    })
}
