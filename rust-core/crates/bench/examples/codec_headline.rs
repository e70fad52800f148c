//! Prints the codec headline figures natively: `cargo run --release -p bench --example codec_headline`.
//! With an argument (`encode`, `block`, `stream [RATIO]`), runs only that part, longer.

use std::time::Instant;

fn main() {
    // A benchmark binary is where wall time belongs; the codec itself never reads a clock.
    #[allow(clippy::disallowed_methods)]
    let origin = Instant::now();
    let mut now_s = || origin.elapsed().as_secs_f64();
    let started = now_s();
    let part = std::env::args().nth(1);
    let figures = match part.as_deref() {
        Some("encode") => vec![(
            "encode_codewords_per_s",
            bench::codec::encode_rate(&mut now_s, 4_000_000, 1),
        )],
        Some("block") => {
            let r = bench::codec::block_decode(&mut now_s, 50, 20_000, 2);
            vec![
                ("block_decode_tx_per_s", r.tx_per_s),
                ("block_codewords_per_tx", r.codewords_per_tx),
            ]
        }
        Some("stream") => {
            let ratio = std::env::args().nth(2).and_then(|r| r.parse().ok());
            let ratio = ratio.unwrap_or(bench::codec::STREAM_RATIO);
            let r = bench::codec::stream(&mut now_s, 50, 1_000_000, ratio, 3);
            vec![
                ("stream_tx_per_s", r.tx_per_s),
                ("stream_codewords_per_tx", r.codewords_per_tx),
                ("stream_decoded_fraction", r.decoded_fraction),
            ]
        }
        _ => bench::codec::headline(&mut now_s),
    };
    for (name, value) in figures {
        println!("{name:<26} {value:>14.4}");
    }
    println!("{:<26} {:>14.4}", "wall_s", now_s() - started);
}
