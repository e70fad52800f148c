//! Prints the arrivals headline for the synthetic run as one JSON object, then the explanatory
//! details on stderr (`txsim bench arrivals` measures a simulator run the same way).
//! Run: `cargo run --release -p bench --example arrivals_headline`.

use bench::arrival_log::synth::{SynthConfig, SynthRun};
use std::time::Instant;

fn main() {
    // A bench binary measures wall time: the one place a clock is read.
    #[allow(clippy::disallowed_methods)]
    let start = Instant::now();
    let mut now_s = move || start.elapsed().as_secs_f64();
    let run = SynthRun::generate(SynthConfig::default());
    let figures = bench::arrival_log::headline(&run, &mut now_s);
    let fields: Vec<String> = figures
        .iter()
        .map(|(k, v)| format!("\"{k}\":{}", round(*v)))
        .collect();
    println!("{{{}}}", fields.join(","));
    eprintln!("headline time: {:.2} s", now_s());
    for (k, v) in bench::arrival_log::details(&run) {
        eprintln!("{k}: {}", round(v));
    }
    eprintln!("total time: {:.2} s", now_s());
}

fn round(v: f64) -> f64 {
    if v.abs() >= 1000.0 {
        v.round()
    } else {
        (v * 10_000.0).round() / 10_000.0
    }
}
