//! Reading outcomes: finding runs by label and formatting numbers for the tables.

use super::super::Outcome;

pub fn find<'a>(outs: &'a [Outcome], label: &str) -> Option<&'a Outcome> {
    outs.iter().find(|o| o.report.label == label)
}

pub fn fmt(v: f64, digits: usize) -> String {
    if v.is_finite() {
        format!("{v:.digits$}")
    } else {
        "-".into()
    }
}

pub fn pct(v: f64) -> String {
    if v.is_finite() {
        format!("{:.1}%", v * 100.0)
    } else {
        "-".into()
    }
}

pub fn secs(ms: f64) -> String {
    if ms.is_finite() {
        format!("{:.2} s", ms / 1e3)
    } else {
        "-".into()
    }
}

/// Mean bytes downloaded per node, payload and control.
pub fn down_bytes(o: &Outcome) -> f64 {
    o.report.summary.bytes_down.payload.mean + o.report.summary.bytes_down.control.mean
}

pub fn get(o: Option<&Outcome>, f: impl Fn(&Outcome) -> f64) -> f64 {
    o.map_or(f64::NAN, f)
}

pub fn cols(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}
