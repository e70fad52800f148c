//! A scenario run that the page steps through: advance in bounded slices, take what happened
//! as flat typed arrays (transferable to the UI thread), inspect a node, and get the report.

use crate::{guarded, performance_now};
use sim::engine::{EngineOptions, TraceEvent};
use sim::network::Network;
use sim::registry::start_run;
use sim::run::{Prepared, Started};
use sim::workload::TxPlan;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// What the trace sink collects between two `take_*` calls.
#[derive(Default)]
struct Captured {
    kinds: Vec<&'static str>,
    /// t_us, from, to, kind index, bytes, payload bytes, arrive_us, lost (0/1), tx (-1: none).
    sends: Vec<f64>,
    /// t_us, node, tx.
    deliveries: Vec<f64>,
    /// t_us, node, tx.
    duplicates: Vec<f64>,
    /// t_us, node, counter index, n.
    counts: Vec<f64>,
    counter_names: Vec<&'static str>,
    capture_sends: bool,
}

fn index_of(names: &mut Vec<&'static str>, name: &'static str) -> f64 {
    match names.iter().position(|&n| n == name) {
        Some(i) => i as f64,
        None => {
            names.push(name);
            (names.len() - 1) as f64
        }
    }
}

impl Captured {
    fn take(&mut self, event: &TraceEvent) {
        match *event {
            TraceEvent::Send {
                tx,
                t_us,
                from,
                to,
                kind,
                bytes,
                payload,
                arrive_us,
                lost,
            } => {
                if self.capture_sends {
                    let k = index_of(&mut self.kinds, kind);
                    self.sends.extend_from_slice(&[
                        t_us as f64,
                        from as f64,
                        to as f64,
                        k,
                        bytes as f64,
                        payload as f64,
                        arrive_us as f64,
                        lost as u8 as f64,
                        tx.map_or(-1.0, |t| t as f64),
                    ]);
                }
            }
            TraceEvent::Deliver { t_us, node, tx } => {
                self.deliveries
                    .extend_from_slice(&[t_us as f64, node as f64, tx as f64])
            }
            TraceEvent::Duplicate { t_us, node, tx } => {
                self.duplicates
                    .extend_from_slice(&[t_us as f64, node as f64, tx as f64])
            }
            TraceEvent::Count {
                t_us,
                node,
                name,
                n,
            } => {
                let c = index_of(&mut self.counter_names, name);
                self.counts
                    .extend_from_slice(&[t_us as f64, node as f64, c, n as f64]);
            }
        }
    }
}

#[wasm_bindgen]
pub struct Simulation {
    prep: Prepared,
    /// This run's network and load (the scenario's, unless the run overrides them).
    net: Rc<Network>,
    plan: Rc<TxPlan>,
    started: Option<Started>,
    captured: Rc<RefCell<Captured>>,
    wall_ms: f64,
}

#[wasm_bindgen]
impl Simulation {
    /// Prepare run `run` (an index into the scenario's `protocols`) of a scenario given as JSON
    /// text, optionally under another seed. Throws with the JSON path of what is wrong.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str, run: u32, seed: Option<u64>) -> Result<Simulation, JsError> {
        guarded("Simulation", || {
            let scenario = sim::parse_scenario(scenario_json).map_err(|e| e.to_string())?;
            let prep = Prepared::with_seed(scenario, seed).map_err(|e| e.to_string())?;
            let index = run as usize;
            if index >= prep.scenario.protocols.len() {
                return Err(format!(
                    "run {run} does not exist; the scenario has {}",
                    prep.scenario.protocols.len()
                ));
            }
            let mut started =
                start_run(&prep, index, &EngineOptions::default()).map_err(|e| e.to_string())?;
            let captured: Rc<RefCell<Captured>> = Default::default();
            let sink = Rc::clone(&captured);
            started
                .run
                .set_trace(Box::new(move |ev| sink.borrow_mut().take(ev)));
            Ok(Simulation {
                prep,
                net: Rc::clone(&started.net),
                plan: Rc::clone(&started.plan),
                started: Some(started),
                captured,
                wall_ms: 0.0,
            })
        })
    }

    /// Collect every message sent (off by default: they are many).
    pub fn capture_sends(&mut self, on: bool) {
        self.captured.borrow_mut().capture_sends = on;
    }

    /// Process events up to `until_us` of simulated time, at most `max_events` of them.
    /// Returns false once the run is over.
    pub fn advance(&mut self, until_us: f64, max_events: f64) -> Result<bool, JsError> {
        let Some(started) = self.started.as_mut() else {
            return Err(JsError::new("this run has finished"));
        };
        let t0 = performance_now();
        let more = guarded("advance", || {
            Ok(started
                .run
                .run_bounded(until_us.max(0.0) as u64, max_events.max(1.0) as u64))
        })?;
        self.wall_ms += performance_now() - t0;
        Ok(more)
    }

    #[wasm_bindgen(getter)]
    pub fn label(&self) -> String {
        self.started
            .as_ref()
            .map(|s| s.label.clone())
            .unwrap_or_default()
    }
    #[wasm_bindgen(getter)]
    pub fn protocol(&self) -> String {
        self.started
            .as_ref()
            .map(|s| s.protocol.clone())
            .unwrap_or_default()
    }
    #[wasm_bindgen(getter)]
    pub fn now_us(&self) -> f64 {
        self.started
            .as_ref()
            .map(|s| s.run.now_us() as f64)
            .unwrap_or(f64::NAN)
    }
    #[wasm_bindgen(getter)]
    pub fn end_us(&self) -> f64 {
        self.started
            .as_ref()
            .map(|s| s.run.end_us() as f64)
            .unwrap_or(f64::NAN)
    }
    #[wasm_bindgen(getter)]
    pub fn events(&self) -> f64 {
        self.started
            .as_ref()
            .map(|s| s.run.events() as f64)
            .unwrap_or(f64::NAN)
    }
    #[wasm_bindgen(getter)]
    pub fn nodes(&self) -> u32 {
        self.net.nodes as u32
    }
    #[wasm_bindgen(getter)]
    pub fn txs(&self) -> u32 {
        self.plan.count() as u32
    }

    /// Flattened undirected links: a0, b0, a1, b1, ...
    pub fn edges(&self) -> Vec<u32> {
        self.prep
            .net
            .links
            .iter()
            .flat_map(|&(a, b)| [a, b])
            .collect()
    }
    /// 1 for each adversarial node, 0 for honest ones.
    pub fn adversaries(&self) -> Vec<u8> {
        self.prep
            .net
            .behaviour
            .iter()
            .map(|b| !b.is_honest() as u8)
            .collect()
    }
    /// Latitude and longitude per node (lat0, lon0, lat1, ...) for geographic scenarios; empty
    /// otherwise.
    pub fn coordinates(&self) -> Vec<f64> {
        let Some(cities) = &self.net.city else {
            return Vec::new();
        };
        cities
            .iter()
            .flat_map(|&c| [sim::cities::CITIES[c].lat, sim::cities::CITIES[c].lon])
            .collect()
    }
    /// Per tx: creation time (us) and origin node, interleaved.
    pub fn tx_plan(&self) -> Vec<f64> {
        let plan = &self.plan;
        (0..plan.count())
            .flat_map(|i| [plan.created_us[i] as f64, plan.origin[i] as f64])
            .collect()
    }

    /// Message kinds, indexed as in `take_sends`.
    pub fn kinds(&self) -> Vec<String> {
        self.captured
            .borrow()
            .kinds
            .iter()
            .map(|k| k.to_string())
            .collect()
    }
    /// Counter names, indexed as in `take_counts`.
    pub fn counter_names(&self) -> Vec<String> {
        self.captured
            .borrow()
            .counter_names
            .iter()
            .map(|k| k.to_string())
            .collect()
    }
    /// Sends since the last call, 9 numbers each: t_us, from, to, kind, bytes, payload,
    /// arrive_us, lost, tx (-1 when the message carries no single full tx).
    pub fn take_sends(&mut self) -> Vec<f64> {
        std::mem::take(&mut self.captured.borrow_mut().sends)
    }
    /// First arrivals since the last call: t_us, node, tx.
    pub fn take_deliveries(&mut self) -> Vec<f64> {
        std::mem::take(&mut self.captured.borrow_mut().deliveries)
    }
    /// Duplicate full copies since the last call: t_us, node, tx.
    pub fn take_duplicates(&mut self) -> Vec<f64> {
        std::mem::take(&mut self.captured.borrow_mut().duplicates)
    }
    /// Counter moves since the last call: t_us, node, counter, n.
    pub fn take_counts(&mut self) -> Vec<f64> {
        std::mem::take(&mut self.captured.borrow_mut().counts)
    }

    /// A node's protocol state and counters, as JSON `{"state": [[k, v]...], "stats": {...}}`.
    pub fn inspect(&self, node: u32) -> Result<String, JsError> {
        let Some(started) = self.started.as_ref() else {
            return Err(JsError::new("this run has finished"));
        };
        let v = node as usize;
        if v >= self.net.nodes {
            return Err(JsError::new(&format!("no node {node}")));
        }
        guarded("inspect", || {
            let state = started.run.inspect(v);
            let s = &started.run.metrics().node[v];
            let counters: serde_json::Map<String, serde_json::Value> = started
                .run
                .metrics()
                .counters
                .iter()
                .map(|(k, per_node)| (k.to_string(), serde_json::json!(per_node[v])))
                .collect();
            Ok(serde_json::json!({
                "node": node,
                "behaviour": format!("{:?}", self.net.behaviour[v]),
                "peers": self.net.degree(v),
                "state": state,
                "stats": {
                    "delivered": s.delivered, "duplicates": s.duplicates,
                    "bytes_up": s.up_payload + s.up_control, "bytes_down": s.down_payload + s.down_control,
                },
                "counters": counters,
            })
            .to_string())
        })
    }

    /// Finish the run (whatever is left is not simulated) and return its report as JSON:
    /// the same `RunReport` that `txsim run` writes, with the same digest.
    pub fn finish(&mut self) -> Result<String, JsError> {
        let Some(started) = self.started.take() else {
            return Err(JsError::new("this run has finished"));
        };
        let wall_ms = self.wall_ms;
        guarded("finish", || {
            let report = started.report(&self.prep, wall_ms);
            serde_json::to_string(&report).map_err(|e| e.to_string())
        })
    }
}
