//! Pull protocols: Celestia's CAT against flooding (seed 000) and neo-go's de-duplication
//! (seed 003).

use super::super::svg::Plot;
use super::super::{Analysis, Check, Mode, Outcome, Study, Table};
use super::edit::*;
use super::read::*;
use serde_json::Value;

pub const CAT_VS_FLOOD: Study = Study {
    id: "cat-vs-flood",
    title: "CAT vs flooding: copies of each transaction per node",
    source: "seed 000 (Celestia ADR 009), duplication table",
    files: &["cat-vs-flood.json"],
    adapt: adapt_cat,
    series: false,
    arrival_logs: false,
    analyse: analyse_cat,
    differences: "ADR 009 measured a loaded testnet (about 100 MB/s per node) where WantTx answers often lose the race with the 200 ms retry; our default network is unloaded, so CAT's extra copies are rarer (scenarios/cat-under-load.json shows them rise under load). Flooding's copies are degree - 1 on our 10-regular graph (a node's children in the shortest-path tree never echo back), while the ADR's peers had more neighbours.",
};

pub const NEO_GO: Study = Study {
    id: "neo-go",
    title: "neo-go: transactions verified more than once, with and without fail-fast",
    source: "seed 003 (neo-go de-duplication)",
    files: &["neo-go-fail-fast.json"],
    adapt: adapt_neo,
    series: false,
    arrival_logs: false,
    analyse: analyse_neo,
    differences: "The seed reports CPU (-18%) and throughput (+13%) on real nodes; a simulator has no CPU model beyond a fixed verification delay, so we report the causes those gains come from: repeated verifications and duplicate copies.",
};

fn adapt_cat(_: &str, s: &mut Value, mode: Mode) -> Vec<String> {
    let mut c = Vec::new();
    if mode == Mode::Quick {
        load_ms(s, 5_000.0, 5_000.0, &mut c);
    }
    c
}

fn adapt_neo(_: &str, s: &mut Value, mode: Mode) -> Vec<String> {
    let mut c = Vec::new();
    if mode == Mode::Quick {
        load_ms(s, 8_000.0, 3_000.0, &mut c);
    }
    c
}

fn analyse_cat(outs: &[Outcome]) -> Analysis {
    let seed = [("flood", 17.61), ("cat", 1.75), ("cat2", 1.85)];
    let cat_down = get(find(outs, "cat"), down_bytes);
    let rows = outs
        .iter()
        .map(|o| {
            let s = seed.iter().find(|(l, _)| *l == o.report.label);
            vec![
                o.report.label.clone(),
                fmt(o.report.summary.duplicates.copies_mean, 2),
                s.map_or("-".into(), |s| fmt(s.1, 2)),
                fmt(down_bytes(o) / 1e6, 2),
                fmt(down_bytes(o) / cat_down, 2),
            ]
        })
        .collect();
    let copies = |l| get(find(outs, l), |o| o.report.summary.duplicates.copies_mean);
    let ratio = get(find(outs, "flood"), down_bytes) / cat_down;
    Analysis {
        table: Table {
            head: cols(&[
                "run",
                "copies per tx per node",
                "seed",
                "MB down per node",
                "download / CAT's",
            ]),
            rows,
        },
        plot: Some(Plot::Bars {
            title: "Copies of each tx received per node".into(),
            y_label: "copies".into(),
            groups: seed.iter().map(|s| s.0.to_string()).collect(),
            bars: vec![
                (
                    "ours".into(),
                    seed.iter().map(|s| copies(s.0)).collect(),
                    false,
                ),
                ("seed 000".into(), seed.iter().map(|s| s.1).collect(), true),
            ],
        }),
        checks: vec![
            Check::new(
                format!(
                    "CAT receives under 2 copies per tx (ours {:.2}, seed 1.75)",
                    copies("cat")
                ),
                copies("cat") < 2.0,
            ),
            Check::new(
                format!(
                    "flooding receives over 4x CAT's copies (ours {:.1}x, seed 10x)",
                    copies("flood") / copies("cat")
                ),
                copies("flood") > 4.0 * copies("cat"),
            ),
            Check::new(
                format!("flooding downloads over 4x CAT's bytes (ours {ratio:.1}x, seed 9.9x)"),
                ratio > 4.0,
            ),
        ],
    }
}

fn analyse_neo(outs: &[Outcome]) -> Analysis {
    let rows = outs
        .iter()
        .map(|o| {
            vec![
                o.report.label.clone(),
                o.counter("inv.verifications").to_string(),
                o.counter("inv.txs_processed_twice").to_string(),
                fmt(o.report.summary.duplicates.copies_mean, 2),
                secs(o.report.summary.latency_ms.mean),
            ]
        })
        .collect();
    let twice = |l| {
        get(find(outs, l), |o| {
            o.counter("inv.txs_processed_twice") as f64
        })
    };
    let verifs = |l| get(find(outs, l), |o| o.counter("inv.verifications") as f64);
    let copies = |l| get(find(outs, l), |o| o.report.summary.duplicates.copies_mean);
    let one = "fail-fast + one request in flight";
    Analysis {
        table: Table {
            head: cols(&[
                "run",
                "verifications",
                "(node, tx) verified twice or more",
                "copies per tx",
                "latency mean",
            ]),
            rows,
        },
        plot: None,
        checks: vec![
            Check::new(
                format!(
                    "fail-fast removes repeated verifications ({} -> {})",
                    twice("baseline"),
                    twice("fail-fast")
                ),
                twice("fail-fast") * 10.0 < twice("baseline").max(1.0),
            ),
            Check::new(
                format!(
                    "fail-fast verifies less ({:.0}% fewer; seed: 18% less CPU)",
                    100.0 * (1.0 - verifs("fail-fast") / verifs("baseline"))
                ),
                verifs("fail-fast") < verifs("baseline"),
            ),
            Check::new(
                format!(
                    "one request in flight cuts copies ({:.2} -> {:.2})",
                    copies("fail-fast"),
                    copies(one)
                ),
                copies(one) < copies("fail-fast"),
            ),
        ],
    }
}
