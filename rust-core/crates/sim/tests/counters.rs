//! Every counter a run reports is described: each protocol of the registry runs briefly with
//! every kind of adversary, so that rarer counters fire too, and each name in its report must
//! be one of the protocol's `counters` or the engine's.

use serde_json::{json, Value};
use sim::engine::EngineOptions;
use sim::registry::{start_run, PROTOCOLS};
use sim::run::Prepared;
use std::collections::BTreeSet;

/// A small network where a few nodes of each adversary kind mix with honest ones.
fn scenario(protocol: &str, config: &Value) -> Value {
    let adversary =
        |fraction: f64, behaviour: Value| json!({ "fraction": fraction, "behaviour": behaviour });
    json!({
        "name": "counter check",
        "seed": 7,
        "nodes": 40,
        "topology": { "kind": "random_regular", "degree": 6 },
        "latency": { "kind": "lognormal", "median_ms": 70.0, "sigma": 0.5 },
        "workload": {
            "kind": "poisson", "total_tps": 30.0, "duration_ms": 3_000.0, "tx_bytes": 1_200
        },
        "adversaries": [
            adversary(0.1, json!({ "kind": "withhold_on_request" })),
            adversary(0.05, json!({ "kind": "silent" })),
            adversary(0.05, json!({ "kind": "spam" })),
            adversary(0.05, json!({ "kind": "corrupt" })),
            adversary(0.05, json!({ "kind": "lie_about_loss" })),
            adversary(0.05, json!({ "kind": "censor", "fraction": 0.3 })),
            adversary(0.05, json!({ "kind": "delay_replies", "delay_ms": 400.0 })),
        ],
        "drain_ms": 10_000.0,
        "protocols": [{ "protocol": protocol, "config": config }]
    })
}

/// Configs that switch on each protocol's optional paths (and their counters).
fn configs(protocol: &str) -> Vec<Value> {
    match protocol {
        "inv" => vec![
            json!({}),
            json!({ "dedup_requests": true, "fail_fast": true, "validate_ms": 20.0, "retry_timeout_ms": 300 }),
        ],
        // A timeout below the round trip, so that copies come twice.
        "shrec" => vec![json!({ "request_timeout_ms": 100 })],
        "cat" | "cat2" => vec![json!({}), json!({ "drop_unrequested": true })],
        "gossipsub" => vec![json!({}), json!({ "version": "v1.2" })],
        // A small peeling window keeps the decoders' memory small.
        "strokkur" => vec![json!({ "peel_window_symbols": 4_096, "initial_rate_per_s": 40.0 })],
        _ => vec![json!({})],
    }
}

fn counted(protocol: &str, config: &Value) -> BTreeSet<String> {
    let s = scenario(protocol, config).to_string();
    let prep = Prepared::new(sim::parse_scenario(&s).unwrap()).unwrap();
    let mut started = start_run(&prep, 0, &EngineOptions::default()).unwrap();
    started.run.run_until(u64::MAX);
    started.report(&prep, 0.0).counters.into_keys().collect()
}

#[test]
fn every_counter_a_run_reports_is_described() {
    for p in PROTOCOLS {
        let described = |name: &str| {
            let mut all = p.counters.iter().chain(sim::engine::COUNTERS);
            all.any(|c| c.name == name)
        };
        let mut seen = BTreeSet::new();
        for config in configs(p.name) {
            for name in counted(p.name, &config) {
                assert!(described(&name), "{}: `{name}` is not described", p.name);
                seen.insert(name);
            }
        }
        if !p.counters.is_empty() {
            assert!(!seen.is_empty(), "{}: no counter moved", p.name);
        }
        // What never fired here is worth knowing when a counter is added.
        let silent: Vec<&str> = p
            .counters
            .iter()
            .map(|c| c.name)
            .filter(|n| !seen.contains(*n))
            .collect();
        eprintln!("{}: {} counted, not seen: {silent:?}", p.name, seen.len());
    }
}
