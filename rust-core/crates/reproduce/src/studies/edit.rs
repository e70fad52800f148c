//! Edits a study makes to a scenario before running it, each recorded for the results page.

use serde_json::{json, Value};

pub fn set(s: &mut Value, path: &[&str], value: Value, changes: &mut Vec<String>) {
    let mut at = &mut *s;
    for key in path {
        at = &mut at[*key];
    }
    if *at != value {
        changes.push(format!("{} {} -> {}", path.join("."), at, value));
        *at = value;
    }
}

/// Fewer nodes (and a smaller degree) on a random regular graph.
pub fn shrink(s: &mut Value, nodes: u64, degree: u64, changes: &mut Vec<String>) {
    if s["topology"]["kind"] == "random_regular" {
        set(s, &["nodes"], json!(nodes), changes);
        set(s, &["topology", "degree"], json!(degree), changes);
    }
}

/// A shorter Poisson load (and its drain).
pub fn load_ms(s: &mut Value, duration_ms: f64, drain_ms: f64, changes: &mut Vec<String>) {
    if s["workload"]["kind"] == "poisson" {
        set(s, &["workload", "duration_ms"], json!(duration_ms), changes);
    }
    set(s, &["drain_ms"], json!(drain_ms), changes);
}

pub fn keep_runs(s: &mut Value, keep: impl Fn(&str) -> bool, changes: &mut Vec<String>) {
    let runs = s["protocols"].as_array().cloned().unwrap_or_default();
    let kept: Vec<Value> = runs
        .iter()
        .filter(|r| keep(r["label"].as_str().unwrap_or("")))
        .cloned()
        .collect();
    if kept.len() < runs.len() {
        changes.push(format!("{} of {} runs", kept.len(), runs.len()));
    }
    s["protocols"] = Value::Array(kept);
}
