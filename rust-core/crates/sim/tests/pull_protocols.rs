//! The pull-based protocols (`inv`, `shrec`, `cat`) in the simulator: the direction of each
//! result the seeds report. Smaller networks than the scenario files, so the tests stay fast.

use serde_json::{json, Value};
use sim::engine::EngineOptions;
use sim::registry::start_run;
use sim::run::{Prepared, RunReport};

/// A scenario as its JSON file would say it; tests adjust fields before running it.
fn scenario(
    nodes: u32,
    degree: u32,
    txs: u64,
    tx_bytes: u32,
    protocol: &str,
    config: Value,
) -> Value {
    json!({
        "name": "pull check",
        "seed": 5,
        "nodes": nodes,
        "topology": { "kind": "random_regular", "degree": degree },
        "latency": { "kind": "lognormal", "median_ms": 70.0, "sigma": 0.5 },
        "workload": {
            "kind": "poisson", "total_tps": 20.0, "duration_ms": 60_000.0,
            "max_txs": txs, "tx_bytes": tx_bytes
        },
        "drain_ms": 30_000.0,
        "protocols": [{ "protocol": protocol, "config": config }]
    })
}

fn run(s: Value) -> RunReport {
    let prep = Prepared::new(sim::parse_scenario(&s.to_string()).unwrap()).unwrap();
    let mut started = start_run(&prep, 0, &EngineOptions::default()).unwrap();
    started.run.run_until(u64::MAX);
    started.report(&prep, 0.0)
}

fn counter(r: &RunReport, name: &str) -> u64 {
    r.counters.get(name).map_or(0, |c| c.total)
}

/// Copies of each tx a node receives, the ADR's duplication factor.
fn duplication(r: &RunReport) -> f64 {
    r.summary.duplicates.copies_mean
}

#[test]
fn cat_receives_each_tx_about_once_and_flooding_about_degree_times() {
    let (nodes, degree, txs) = (60, 10, 60);
    let s = |protocol, config| scenario(nodes, degree, txs, 4000, protocol, config);
    let flood = run(s("flood", json!({})));
    let cat = run(s("cat", json!({})));
    let cat2 = run(s("cat", json!({ "from_field": true })));
    for r in [&flood, &cat, &cat2] {
        assert!(
            r.summary.delivery.mean > 0.999,
            "{}: {:?}",
            r.label,
            r.summary.delivery
        );
    }
    let (f, c, c2) = (duplication(&flood), duplication(&cat), duplication(&cat2));
    assert!(f > degree as f64 - 1.5, "flood {f}");
    assert!(c < 2.0 && c2 < 2.5, "CAT {c}, CAT2 {c2}");
    assert!(flood.summary.bytes_down.payload.mean > 4.0 * cat.summary.bytes_down.payload.mean);
    // ADR 009's counters: every copy received is either the first or an already-seen one.
    let received = counter(&cat, "cat.successful_txs") + counter(&cat, "cat.already_seen_txs");
    assert!(counter(&cat, "cat.requested_txs") > 0);
    assert_eq!(counter(&cat, "cat.successful_txs"), txs * nodes as u64);
    assert!(received as f64 >= c * (txs * (nodes as u64 - 1)) as f64 * 0.99);
    // Pull costs a round trip per hop: CAT is slower than flooding.
    assert!(cat.summary.latency_ms.mean > flood.summary.latency_ms.mean);
}

#[test]
fn fail_fast_stops_verifying_a_tx_twice() {
    // Announcements close together: no trickle delay, short links with little spread,
    // verification slower than the spread.
    let s = |fail_fast: bool| {
        let config = json!({
            "trickle": { "kind": "uniform_jitter", "max_ms": 0.0 },
            "validate_ms": 30.0,
            "fail_fast": fail_fast,
        });
        let mut s = scenario(30, 8, 40, 250, "inv", config);
        s["latency"] = json!({ "kind": "constant", "ms": 10.0 });
        s["links"] = json!({ "jitter_ms": 5.0 });
        s
    };
    let before = run(s(false));
    let after = run(s(true));
    let twice = |r: &RunReport| counter(r, "inv.txs_processed_twice");
    assert!(twice(&before) > 0);
    assert_eq!(twice(&after), 0);
    assert!(counter(&after, "inv.fail_fast_drops") > 0);
    assert!(counter(&after, "inv.verifications") < counter(&before, "inv.verifications"));
    assert!(after.summary.delivery.mean > 0.999 && before.summary.delivery.mean > 0.999);
}

#[test]
fn inv_jitter_trades_duplicates_for_latency() {
    let s = |max_ms: f64| {
        scenario(
            60,
            8,
            40,
            250,
            "inv",
            json!({ "trickle": { "kind": "uniform_jitter", "max_ms": max_ms } }),
        )
    };
    let fast = run(s(0.0));
    let slow = run(s(1000.0));
    assert!(fast.summary.overhead.mean > slow.summary.overhead.mean);
    assert!(fast.summary.latency_ms.mean < slow.summary.latency_ms.mean);
}

#[test]
fn shrec_latency_grows_with_withholding_peers_and_the_timeout() {
    let s = |fraction: f64, timeout_ms: u64| {
        let mut s = scenario(
            80,
            8,
            30,
            128,
            "shrec",
            json!({ "request_timeout_ms": timeout_ms }),
        );
        if fraction > 0.0 {
            let behaviour = json!({ "kind": "withhold_on_request" });
            s["adversaries"] = json!([{ "fraction": fraction, "behaviour": behaviour }]);
        }
        s["drain_ms"] = json!(600_000.0);
        s
    };
    // `004` Fig. 7 reports the 95th percentile over nodes of each node's mean latency.
    let lat = |r: &RunReport| r.summary.latency_ms.p95;
    let honest = run(s(0.0, 30_000));
    let tuned = run(s(0.2, 1_000));
    let production_low = run(s(0.04, 30_000));
    let production = run(s(0.2, 30_000));
    assert_eq!(counter(&honest, "shrec.duplicate_txs"), 0);
    let (h, t, pl, p) = (
        lat(&honest),
        lat(&tuned),
        lat(&production_low),
        lat(&production),
    );
    assert!(
        h < t && t < pl && pl < p,
        "honest {h}, tuned {t}, 4% {pl}, 20% {p} ms"
    );
    assert!(counter(&production, "shrec.retries") > counter(&production_low, "shrec.retries"));
    assert!(production.summary.latency_ms.p99 > 30_000.0);
    assert!(production.summary.delivery.mean > 0.99);
}
