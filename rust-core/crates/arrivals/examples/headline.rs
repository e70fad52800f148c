//! Prints the arrivals headline as one JSON object (what `npm run bench -- arrivals` reports
//! once the lead wires it to `txsim bench arrivals`), then the explanatory details on stderr.
//! Run: `cargo run --release -p arrivals --example headline`.

use std::time::Instant;

fn main() {
    // A bench binary measures wall time: the one place a clock is read.
    #[allow(clippy::disallowed_methods)]
    let start = Instant::now();
    let mut now_s = move || start.elapsed().as_secs_f64();
    let figures = arrivals::bench::headline(&mut now_s);
    let fields: Vec<String> = figures
        .iter()
        .map(|(k, v)| format!("\"{k}\":{}", round(*v)))
        .collect();
    println!("{{{}}}", fields.join(","));
    eprintln!("headline time: {:.2} s", now_s());
    for (k, v) in arrivals::bench::details() {
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
