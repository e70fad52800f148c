//! Scenario files: the committed ones load and run, bad ones are refused with the JSON path
//! and the rule, the committed schema is the generated one, and golden digests hold.

use sim::engine::EngineOptions;
use sim::registry::start_run;
use sim::run::Prepared;
use std::path::PathBuf;

fn scenarios_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../scenarios")
}

/// The error a scenario gets on its way to starting every run.
fn error_of(text: &str) -> String {
    let prepared = sim::parse_scenario(text).and_then(Prepared::new);
    let started = prepared.and_then(|prep| {
        (0..prep.scenario.protocols.len())
            .try_for_each(|i| start_run(&prep, i, &EngineOptions::default()).map(drop))
    });
    match started {
        Ok(()) => panic!("accepted: {text}"),
        Err(e) => e.to_string(),
    }
}

const BASE: &str = r#"{"name": "t", "nodes": 20, "topology": {"kind": "random_regular", "degree": 4},
  "workload": {"kind": "burst", "count": 1, "tx_bytes": 100}, "protocols": [{"protocol": "flood"}]}"#;

/// BASE with the field at `pointer` set (added if missing).
fn with(pointer: &str, value: serde_json::Value) -> String {
    let mut v: serde_json::Value = serde_json::from_str(BASE).unwrap();
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let parent = v.pointer_mut(parent).unwrap();
    match parent {
        serde_json::Value::Array(a) => a[key.parse::<usize>().unwrap()] = value,
        other => other[key] = value,
    }
    v.to_string()
}

#[test]
fn the_base_scenario_is_valid() {
    sim::parse_scenario(BASE).unwrap();
    // As some editors save it, with a byte-order mark first.
    sim::parse_scenario(&format!("\u{feff}{BASE}")).unwrap();
}

#[test]
fn bad_scenarios_name_the_path_and_the_rule() {
    use serde_json::json;
    let cases: Vec<(String, &str, &str)> = vec![
        (
            with("/topology/degree", json!(20)),
            "topology.degree",
            "below the node count",
        ),
        (
            BASE.replace("20,", "21,").replace("4}", "3}"),
            "topology.degree",
            "must be even",
        ),
        (
            with("/topology/degree", json!("four")),
            "topology.degree",
            "invalid type",
        ),
        (with("/nodes", json!(1_000_000)), "nodes", "between 2 and"),
        (
            with("/workload/tx_bytes", json!(0)),
            "workload.tx_bytes",
            "between 1",
        ),
        (
            with("/workload/publisher", json!(99)),
            "workload.publisher",
            "out of range",
        ),
        (
            with("/protocols/0/protocol", json!("nope")),
            "protocols[0].protocol",
            "unknown protocol",
        ),
        (
            with("/protocols/0/config", json!({"fanout": -1})),
            "protocols[0].config.fanout",
            "invalid value",
        ),
        (
            with("/protocols/0/config", json!({"speed": 1})),
            "protocols[0].config.speed",
            "unknown field",
        ),
        (with("/drain_ms", json!(1e12)), "drain_ms", "outside"),
        (
            with("/topology", json!({"kind": "torus"})),
            "topology",
            "unknown variant",
        ),
        (
            BASE.replace("\"name\"", "\"nmae\""),
            "",
            "unknown field `nmae`",
        ),
        (BASE.replace("100}", "1e999}"), "", "number out of range"),
        (format!("[{BASE}]"), "", "a scenario is one JSON object"),
        // Kept in whole bits per second, this would round to 0, which means unlimited.
        (
            with(
                "/bandwidth",
                json!({"classes": [{"fraction": 1, "up_mbps": 1e-9, "down_mbps": 1}]}),
            ),
            "bandwidth.classes[0].up_mbps",
            "outside [0.001,",
        ),
        // One fragment of a 128-byte symbol carries 93 bytes (35 are its header); every tx here is 100.
        (
            with(
                "/protocols/0",
                json!({"protocol": "strokkur", "config": {"max_fragments": 1}}),
            ),
            "protocols[0].config",
            "at most 93 bytes",
        ),
        (
            with(
                "/protocols/0",
                json!({"protocol": "push", "config": {"fanout": 0}}),
            ),
            "protocols[0].config.fanout",
            "at least 1",
        ),
        (
            with(
                "/adversaries",
                json!([{"fraction": 0.1, "behaviour": {"kind": "silent", "typo": 1}}]),
            ),
            "adversaries[0].behaviour",
            "unknown field `typo`",
        ),
        (
            with(
                "/protocols/0",
                json!({"protocol": "strokkur", "config": {"initial_rate_per_s": 0}}),
            ),
            "protocols[0].config.initial_rate_per_s",
            "positive",
        ),
        (
            with(
                "/protocols/0",
                json!({"protocol": "gossipsub", "config": {"d": 0}}),
            ),
            "protocols[0].config.d",
            "here d_lo 4, d 0, d_hi 12",
        ),
    ];
    for (text, path, rule) in cases {
        let msg = error_of(&text);
        assert!(msg.contains(rule), "{msg} should say {rule}");
        if !path.is_empty() {
            assert!(
                msg.contains(&format!("`{path}`")),
                "{msg} should name {path}"
            );
        }
    }
}

/// A run whose memory (its protocol's per (node, tx), per tx in flight at once and per link)
/// would pass `MAX_RUN_BYTES` is refused before it starts, saying what to shrink.
#[test]
fn runs_too_big_for_memory_are_refused_with_what_to_shrink() {
    use serde_json::json;
    let at_once = with(
        "/workload",
        json!({"kind": "burst", "count": 2_000_000, "tx_bytes": 100}),
    );
    let msg = error_of(&at_once);
    assert!(
        msg.contains("`protocols[0]`") && msg.contains("GB of memory"),
        "{msg}"
    );
    assert!(msg.contains("fewer txs or nodes"), "{msg}");
    // Spread over 2,000 s instead, the same txs fit.
    let spread = with(
        "/workload",
        json!({"kind": "burst", "count": 2_000_000, "tx_bytes": 100, "interval_ms": 1.0}),
    );
    let prep = Prepared::new(sim::parse_scenario(&spread).unwrap()).unwrap();
    sim::registry::check_run(&prep, 0).unwrap();
    let mut linked: serde_json::Value = serde_json::from_str(BASE).unwrap();
    linked["nodes"] = json!(30_000);
    linked["topology"]["degree"] = json!(40);
    linked["protocols"] = json!([{"protocol": "flood"}, {"protocol": "strokkur"}]);
    let msg = error_of(&linked.to_string());
    assert!(
        msg.contains("`protocols[1]`") && msg.contains("strokkur run"),
        "{msg}"
    );
    assert!(msg.contains("lower degree"), "{msg}");
}

#[test]
fn duplicate_labels_and_adversary_overflow_are_refused() {
    let mut v: serde_json::Value = serde_json::from_str(BASE).unwrap();
    v["protocols"] = serde_json::json!([{"protocol": "flood"}, {"protocol": "flood"}]);
    assert!(error_of(&v.to_string()).contains("used twice"));
    let mut v: serde_json::Value = serde_json::from_str(BASE).unwrap();
    v["adversaries"] = serde_json::json!([{"fraction": 1.0, "behaviour": {"kind": "silent"}}]);
    assert!(error_of(&v.to_string()).contains("adversaries"));
}

#[test]
fn oversized_files_are_refused_before_parsing() {
    let big = format!(
        "{{\"name\": \"{}\"}}",
        "x".repeat(sim::load::MAX_FILE_BYTES)
    );
    assert!(error_of(&big).contains("limit"));
}

#[test]
fn the_committed_schema_is_the_generated_one() {
    let committed = std::fs::read_to_string(scenarios_dir().join("schema.json")).unwrap();
    assert!(
        committed == sim::schema::scenario_schema_text(),
        "scenarios/schema.json is stale: run `npm run sim -- schema --out scenarios/schema.json`"
    );
}

#[test]
fn every_committed_scenario_loads() {
    let mut count = 0;
    for entry in std::fs::read_dir(scenarios_dir()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with(".json") || name == "schema.json" {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let prep = sim::parse_scenario(&text)
            .and_then(Prepared::new)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for i in 0..prep.scenario.protocols.len() {
            start_run(&prep, i, &EngineOptions::default())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        count += 1;
    }
    assert!(count >= 2);
}

/// Golden digests: a change to the engine, the RNG or a protocol that changes any event shows
/// up here. Update them only for an intended change of behaviour, and say so in the commit.
/// Scenario runs are pinned in `tests/goldens.json` (the WASM build checks the same file).
#[test]
fn golden_digests() {
    let demo = sim::demo::demo_flood(1, 300, 8).unwrap();
    assert_eq!(demo.digest, GOLDEN_DEMO_1_300_8);
    let goldens: serde_json::Value = serde_json::from_str(include_str!("goldens.json")).unwrap();
    let mut checked = 0;
    for (file, runs) in goldens.as_object().unwrap() {
        let Some(runs) = runs.as_object() else {
            continue;
        };
        let text = std::fs::read_to_string(scenarios_dir().join(file)).unwrap();
        let prep = Prepared::new(sim::parse_scenario(&text).unwrap()).unwrap();
        for (i, spec) in prep.scenario.protocols.iter().enumerate() {
            let Some(want) = runs.get(spec.label()) else {
                continue;
            };
            let mut s = start_run(&prep, i, &EngineOptions::default()).unwrap();
            s.run.run_until(u64::MAX);
            assert_eq!(
                s.report(&prep, 0.0).digest,
                want.as_str().unwrap(),
                "{file}: {}",
                spec.label()
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 7, "every pinned run exists");
}

/// A run taken in bounded calls, by time and by event budgets small and larger than the
/// engine's own slices, is the run taken in one call: same events, same digest.
#[test]
fn bounded_calls_take_the_same_run() {
    let text = std::fs::read_to_string(scenarios_dir().join("compare-300.json")).unwrap();
    let prep = Prepared::new(sim::parse_scenario(&text).unwrap()).unwrap();
    let strokkur = prep
        .scenario
        .protocols
        .iter()
        .position(|p| p.label() == "strokkur")
        .unwrap();
    let mut whole = start_run(&prep, strokkur, &EngineOptions::default()).unwrap();
    assert!(!whole.run.run_until(u64::MAX));
    let events = whole.run.events();
    assert!(events > 3 * 65_536, "the run spans several slices");
    let mut sliced = start_run(&prep, strokkur, &EngineOptions::default()).unwrap();
    let budgets = [1, 999, 65_535, 65_537, 200_000];
    let (mut calls, mut t_us) = (0, 0);
    loop {
        t_us += 97_000;
        let more = sliced.run.run_bounded(t_us, budgets[calls % budgets.len()]);
        calls += 1;
        if !more {
            break;
        }
    }
    assert!(calls > budgets.len());
    assert_eq!(sliced.run.events(), events);
    assert_eq!(
        sliced.report(&prep, 0.0).digest,
        whole.report(&prep, 0.0).digest
    );
}

const GOLDEN_DEMO_1_300_8: &str =
    "b9044c7a262e63991a52eb717579721345f6bd89110bcbd5c9c86bba5ad6aa28";

/// A run can bring its own adversaries or workload; the graph and seed stay the scenario's.
#[test]
fn runs_can_override_adversaries_and_workload() {
    let mut v: serde_json::Value = serde_json::from_str(BASE).unwrap();
    v["nodes"] = serde_json::json!(60);
    v["protocols"] = serde_json::json!([
        {"label": "all honest", "protocol": "flood"},
        {"label": "half silent", "protocol": "flood",
         "adversaries": [{"fraction": 0.5, "behaviour": {"kind": "silent"}}]},
        {"label": "three txs", "protocol": "flood",
         "workload": {"kind": "burst", "count": 3, "tx_bytes": 100, "interval_ms": 10}}
    ]);
    let prep = Prepared::new(sim::parse_scenario(&v.to_string()).unwrap()).unwrap();
    let mut reports = Vec::new();
    for i in 0..3 {
        let mut s = start_run(&prep, i, &EngineOptions::default()).unwrap();
        assert_eq!(s.net.links, prep.net.links, "same graph in every run");
        s.run.run_until(u64::MAX);
        reports.push(s.report(&prep, 0.0));
    }
    let silent = prep
        .for_run(1)
        .unwrap()
        .0
        .behaviour
        .iter()
        .filter(|b| !b.is_honest())
        .count();
    assert_eq!(silent, 30);
    assert!(
        prep.net.behaviour.iter().all(|b| b.is_honest()),
        "the scenario's own set is untouched"
    );
    assert_eq!((reports[0].txs, reports[2].txs), (1, 3));
    // Silent relays cut the copies honest nodes get.
    assert!(reports[1].summary.duplicates.copies_mean < reports[0].summary.duplicates.copies_mean);

    v["protocols"][1]["adversaries"][0]["fraction"] = serde_json::json!(1.5);
    assert!(error_of(&v.to_string()).contains("`protocols[1].adversaries[0].fraction`"));
    v["protocols"][1]["adversaries"][0]["fraction"] = serde_json::json!(0.5);
    v["protocols"][2]["workload"]["publisher"] = serde_json::json!(600);
    assert!(error_of(&v.to_string()).contains("`protocols[2].workload.publisher`"));
}
