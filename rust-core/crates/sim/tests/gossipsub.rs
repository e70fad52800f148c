//! GossipSub v2.0 against seed 002's Shadow study: the scenarios
//! `scenarios/gossipsub-v2-multi.json` (1 to 64 messages of 128 KiB, a run per count and
//! D_announce) and `scenarios/gossipsub-v2-single.json` (one message of 128 KiB to 8 MiB),
//! run scaled down here so that the directions the seed reports are checked on every test run.
//!
//! The full-size sweep (every run of both files at 1,000 nodes) prints the seed's tables next
//! to ours:
//! `GOSSIPSUB_SEED_SWEEP=1 cargo test --release -p sim --test gossipsub -- --nocapture sweep`
//! Without the variable that test runs one small point of each table.

use serde_json::{json, Value};
use sim::engine::EngineOptions;
use sim::registry::start_run;
use sim::run::Prepared;

/// A committed scenario as JSON, to be edited before it is parsed.
fn load(name: &str) -> Value {
    let path = format!("{}/../../../scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn prepare(s: &Value) -> Prepared {
    Prepared::new(sim::parse_scenario(&s.to_string()).unwrap()).unwrap()
}

/// Keeps only the runs with these labels, in this order.
fn keep_runs(s: &mut Value, labels: &[&str]) {
    let runs = s["protocols"].as_array().unwrap();
    let kept: Vec<Value> = labels
        .iter()
        .map(|l| {
            runs.iter()
                .find(|r| r["label"] == *l)
                .unwrap_or_else(|| panic!("no run labelled {l}"))
                .clone()
        })
        .collect();
    s["protocols"] = Value::Array(kept);
}

/// Every kept run's burst: message count and size.
fn set_burst(s: &mut Value, count: u32, bytes: u32) {
    for run in s["protocols"].as_array_mut().unwrap() {
        run["workload"]["count"] = json!(count);
        run["workload"]["tx_bytes"] = json!(bytes);
    }
}

struct Measured {
    /// Full copies beyond the first per node and message (honest nodes).
    duplicates: f64,
    /// Messages that reached every honest node within the deadline.
    within_deadline: usize,
    /// Time until every honest node had every message, if that happened (ms).
    all_done_ms: Option<f64>,
    ineed_timeouts: u64,
    /// Copies sent in answer to IWANT, per node and message: the gossip share of duplicates.
    iwant_served: f64,
}

fn measure(prep: &Prepared, run: usize, deadline_ms: f64) -> Measured {
    let mut started = start_run(prep, run, &EngineOptions::default()).unwrap();
    started.run.run_until(u64::MAX);
    let done = started.run.finish();
    // The run's own network and plan: its workload may differ from the scenario's.
    let (net, plan) = (&started.net, &started.plan);
    let summary = done.metrics.summary(net, plan);
    let honest = (0..net.nodes).filter(|&v| net.is_honest(v)).count();
    let txs = plan.count();
    // Per tx: how many honest nodes got it and when the last of them did.
    let mut reached = vec![0usize; txs];
    let mut last_us = vec![0u64; txs];
    for (node, tx, t) in done.metrics.arrivals(plan) {
        if net.is_honest(node as usize) {
            let tx = tx as usize;
            reached[tx] += 1;
            last_us[tx] = last_us[tx].max(t.saturating_sub(plan.created_us[tx]));
        }
    }
    let deadline_us = (deadline_ms * 1e3) as u64;
    // The origin's own delivery is not an arrival.
    let targets = |i: usize| honest - net.is_honest(plan.origin[i] as usize) as usize;
    let within_deadline = (0..txs)
        .filter(|&i| reached[i] == targets(i) && last_us[i] <= deadline_us)
        .count();
    let all = (0..txs).all(|i| reached[i] == targets(i));
    let total = |name: &str| {
        done.metrics
            .counter(name)
            .map_or(0, |v| v.iter().sum::<u64>())
    };
    let ineed_timeouts = total("gossipsub.ineed_timeout");
    let iwant_served = total("gossipsub.iwant_served") as f64 / (honest * txs.max(1)) as f64;
    Measured {
        duplicates: summary.duplicates.mean,
        within_deadline,
        all_done_ms: all.then(|| last_us.iter().copied().max().unwrap_or(0) as f64 / 1e3),
        ineed_timeouts,
        iwant_served,
    }
}

/// The seed's network at a smaller size: fewer nodes and peers.
fn shrink(mut s: Value, nodes: u32, degree: u32) -> Value {
    s["nodes"] = json!(nodes);
    s["topology"]["degree"] = json!(degree);
    s
}

const D_ANNOUNCE: [&str; 3] = ["D_announce=0", "D_announce=7", "D_announce=8"];

/// The label of a run in the multi-message file.
fn multi(d_announce: &str, count: u32) -> String {
    format!(
        "{d_announce}, {count} msg{}",
        if count == 1 { "" } else { "s" }
    )
}

/// The label of a run in the single-message file.
fn single(d_announce: &str, kib: u32) -> String {
    if kib < 1024 {
        format!("{d_announce}, {kib} KiB")
    } else {
        format!("{d_announce}, {} MiB", kib / 1024)
    }
}

fn run_index(prep: &Prepared, label: &str) -> usize {
    prep.scenario
        .protocols
        .iter()
        .position(|p| p.label() == label)
        .unwrap_or_else(|| panic!("no run labelled {label}"))
}

/// One 128 KiB message on the single-message file's network, scaled down.
fn single_128k(nodes: u32, degree: u32) -> Value {
    let mut s = shrink(load("gossipsub-v2-single.json"), nodes, degree);
    let labels: Vec<String> = D_ANNOUNCE.iter().map(|d| single(d, 128)).collect();
    keep_runs(
        &mut s,
        &labels.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    s
}

#[test]
fn lazy_push_cuts_duplicates_of_a_single_message() {
    let prep = prepare(&single_128k(150, 20));
    let d: Vec<f64> = (0..3)
        .map(|i| measure(&prep, i, 4_000.0).duplicates)
        .collect();
    // Seed 002, 128 KB: 4.515 / 0.598 / 0.192.
    assert!(d[0] > 2.0, "eager push gives several duplicates: {d:?}");
    assert!(
        d[1] < d[0] / 2.0 && d[2] < d[0] / 2.0,
        "lazy push cuts them: {d:?}"
    );
    assert!(
        d[2] <= d[1] + 0.2,
        "all-lazy is no worse than D_announce = 7: {d:?}"
    );
}

#[test]
fn lazy_push_gets_more_messages_through_by_the_deadline() {
    let mut s = shrink(load("gossipsub-v2-multi.json"), 80, 12);
    keep_runs(
        &mut s,
        &[&multi("D_announce=0", 32), &multi("D_announce=7", 32)],
    );
    // At this size, over links shared as TCP shares them, eager push gets 15 messages to
    // every node by 4 s however many are sent; lazy push gets all of 32 there.
    set_burst(&mut s, 32, 131_072);
    let prep = prepare(&s);
    let eager = measure(&prep, 0, 4_000.0);
    let lazy = measure(&prep, 1, 4_000.0);
    // Seed 002: 16 messages meet a 4 s deadline with D_announce = 0, 32 with 7 or 8.
    assert_eq!(lazy.within_deadline, 32);
    assert!(
        lazy.within_deadline > eager.within_deadline,
        "within 4 s: {} lazy vs {} eager",
        lazy.within_deadline,
        eager.within_deadline
    );
    assert!(lazy.duplicates < eager.duplicates / 2.0);
}

#[test]
fn idontwant_cuts_duplicates_of_v1_1() {
    let mut s = single_128k(150, 20);
    let base = s["protocols"][0].clone();
    let mut v11 = base.clone();
    v11["label"] = json!("v1.1");
    v11["config"]["version"] = json!("v1.1");
    let mut v12 = base;
    v12["label"] = json!("v1.2");
    v12["config"]["version"] = json!("v1.2");
    s["protocols"] = json!([v11, v12]);
    let prep = prepare(&s);
    let v11 = measure(&prep, 0, 4_000.0).duplicates;
    let v12 = measure(&prep, 1, 4_000.0).duplicates;
    assert!(
        v12 < v11 - 0.3,
        "IDONTWANT saves copies: v1.2 {v12} vs v1.1 {v11}"
    );
}

#[test]
fn withholding_ineed_costs_time_but_not_delivery() {
    let mut s = single_128k(150, 20);
    keep_runs(&mut s, &[&single("D_announce=8", 128)]);
    set_burst(&mut s, 4, 131_072);
    s["adversaries"] = json!([{ "fraction": 0.2, "behaviour": { "kind": "withhold_on_request" } }]);
    let prep = prepare(&s);
    let m = measure(&prep, 0, 60_000.0);
    assert!(m.ineed_timeouts > 0, "withholders make INEEDs time out");
    assert_eq!(
        m.within_deadline, 4,
        "every honest node still gets every message"
    );
}

#[test]
fn the_files_hold_the_seed_sweeps() {
    let multi_prep = prepare(&load("gossipsub-v2-multi.json"));
    let single_prep = prepare(&load("gossipsub-v2-single.json"));
    for d in D_ANNOUNCE {
        for count in COUNTS {
            let (_, plan) = multi_prep
                .for_run(run_index(&multi_prep, &multi(d, count)))
                .unwrap();
            assert_eq!(plan.count(), count as usize);
            assert!(plan.len.iter().all(|&l| l == 131_072));
        }
        for kib in SIZES_KIB {
            let (_, plan) = single_prep
                .for_run(run_index(&single_prep, &single(d, kib)))
                .unwrap();
            assert_eq!(plan.count(), 1);
            assert_eq!(plan.len[0], kib * 1024);
        }
    }
}

const COUNTS: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];
const SIZES_KIB: [u32; 7] = [128, 256, 512, 1024, 2048, 4096, 8192];
const SEED_MULTI: [[f64; 7]; 3] = [
    [4.515, 5.492, 5.658, 5.686, 6.161, 7.394, 9.232],
    [0.598, 0.565, 0.586, 1.259, 0.767, 1.482, 2.244],
    [0.192, 0.804, 0.179, 0.395, 0.769, 0.673, 1.236],
];
const SEED_SINGLE: [[f64; 7]; 3] = [
    [4.515, 4.749, 5.122, 5.832, 8.909, 11.022, 12.990],
    [0.598, 2.284, 1.163, 2.506, 4.078, 6.971, 9.275],
    [0.192, 1.777, 1.087, 1.950, 3.762, 5.927, 8.692],
];

/// The seed's two tables beside ours. Full size with GOSSIPSUB_SEED_SWEEP set (minutes in
/// release); otherwise one small point per table, so the code path stays tested.
#[test]
fn sweep() {
    let full = std::env::var_os("GOSSIPSUB_SEED_SWEEP").is_some();
    let counts: &[u32] = if full { &COUNTS } else { &[2] };
    let sizes_kib: &[u32] = if full { &SIZES_KIB } else { &[256] };
    let scale = |s: Value| if full { s } else { shrink(s, 60, 10) };

    println!("\nMultiple 128 KiB messages: duplicates per message, ours (seed 002), and messages within 4 s");
    let prep = prepare(&scale(load("gossipsub-v2-multi.json")));
    for (row, d) in D_ANNOUNCE.iter().enumerate() {
        let mut line = format!("{d:>13} |");
        for &count in counts {
            let m = measure(&prep, run_index(&prep, &multi(d, count)), 4_000.0);
            let col = count.trailing_zeros() as usize;
            let done = m
                .all_done_ms
                .map_or("never".to_string(), |t| format!("{:.0} ms", t));
            line += &format!(
                " {count}: {:.3} ({:.3}) iwant {:.2} {}/{count} in 4 s, all by {done} |",
                m.duplicates, SEED_MULTI[row][col], m.iwant_served, m.within_deadline
            );
            assert!(m.duplicates.is_finite());
        }
        println!("{line}");
    }
    println!("\nOne message: duplicates, ours (seed 002)");
    let prep = prepare(&scale(load("gossipsub-v2-single.json")));
    for (row, d) in D_ANNOUNCE.iter().enumerate() {
        let mut line = format!("{d:>13} |");
        for &kib in sizes_kib {
            let m = measure(&prep, run_index(&prep, &single(d, kib)), 60_000.0);
            let col = (kib / 128).trailing_zeros() as usize;
            line += &format!(
                " {kib} KiB: {:.3} ({:.3}) iwant {:.2} timeouts {} |",
                m.duplicates, SEED_SINGLE[row][col], m.iwant_served, m.ineed_timeouts
            );
            assert_eq!(m.within_deadline, 1, "{d}, {kib} KiB reaches every node");
        }
        println!("{line}");
    }
}
