//! The load a scenario asks for is the load it gets.

use sim::run::Prepared;

fn plan_of(workload: serde_json::Value) -> sim::workload::TxPlan {
    let text = serde_json::json!({
        "name": "w", "nodes": 50, "topology": {"kind": "random_regular", "degree": 4},
        "workload": workload, "protocols": [{"protocol": "flood"}]
    })
    .to_string();
    let prep = Prepared::new(sim::parse_scenario(&text).unwrap()).unwrap();
    std::sync::Arc::try_unwrap(prep.plan).ok().unwrap()
}

#[test]
fn poisson_rate_follows_the_steps() {
    // 1,000 tps for 10 s, 3,000 tps for 10 s, 1,000 tps for 10 s.
    let plan = plan_of(serde_json::json!({
        "kind": "poisson", "total_tps": 1000, "duration_ms": 30000, "tx_bytes": 128,
        "rate_steps": [{"at_ms": 10000, "total_tps": 3000}, {"at_ms": 20000, "total_tps": 1000}]
    }));
    let count = |lo: u64, hi: u64| {
        plan.created_us
            .iter()
            .filter(|&&t| t >= lo && t < hi)
            .count() as f64
    };
    let (a, b, c) = (
        count(0, 10_000_000),
        count(10_000_000, 20_000_000),
        count(20_000_000, 30_000_000),
    );
    // Poisson counts: mean 10,000 or 30,000, standard deviation 100 or 173.
    assert!((a - 10_000.0).abs() < 500.0, "{a}");
    assert!((b - 30_000.0).abs() < 900.0, "{b}");
    assert!((c - 10_000.0).abs() < 500.0, "{c}");
    assert!(plan.created_us.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn sizes_follow_the_distribution() {
    let plan = plan_of(serde_json::json!({
        "kind": "poisson", "total_tps": 1000, "duration_ms": 10000, "tx_bytes": 100,
        "tx_size": {"kind": "uniform", "max_bytes": 300}
    }));
    assert!(plan.len.iter().all(|&l| (100..=300).contains(&l)));
    let mean = plan.len.iter().map(|&l| l as f64).sum::<f64>() / plan.len.len() as f64;
    assert!((mean - 200.0).abs() < 5.0, "{mean}");

    let plan = plan_of(serde_json::json!({
        "kind": "poisson", "total_tps": 1000, "duration_ms": 10000, "tx_bytes": 500,
        "tx_size": {"kind": "lognormal", "sigma": 1.0, "max_bytes": 100000}
    }));
    let mut sizes = plan.len.clone();
    sizes.sort();
    let median = sizes[sizes.len() / 2] as f64;
    assert!((median - 500.0).abs() < 30.0, "{median}");
    assert!(sizes.iter().all(|&l| (1..=100_000).contains(&l)));
}

#[test]
fn bad_steps_and_sizes_are_refused() {
    let bad = |workload: serde_json::Value, path: &str| {
        let text = serde_json::json!({
            "name": "w", "nodes": 50, "topology": {"kind": "random_regular", "degree": 4},
            "workload": workload, "protocols": [{"protocol": "flood"}]
        })
        .to_string();
        let e = sim::parse_scenario(&text).unwrap_err();
        assert_eq!(e.path, path, "{e}");
    };
    bad(
        serde_json::json!({"kind": "poisson", "total_tps": 10, "duration_ms": 1000, "tx_bytes": 1,
            "rate_steps": [{"at_ms": 500, "total_tps": 5}, {"at_ms": 100, "total_tps": 5}]}),
        "workload.rate_steps[1].at_ms",
    );
    bad(
        serde_json::json!({"kind": "poisson", "total_tps": 10, "duration_ms": 1000, "tx_bytes": 100,
            "tx_size": {"kind": "uniform", "max_bytes": 50}}),
        "workload.tx_size.max_bytes",
    );
    bad(
        serde_json::json!({"kind": "poisson", "total_tps": 10, "duration_ms": 1000, "tx_bytes": 100,
            "tx_size": {"kind": "zipf"}}),
        "workload.tx_size",
    );
}
