//! AtlasDB's tickets encoding (seed 001), as the per-node arrival logs use it: bytes per
//! record and how evenly live writes spread over shards, beside the ADR's claims.

use super::super::svg::Plot;
use super::super::{Analysis, Check, Mode, Outcome, Study, Table};
use super::edit::*;
use super::read::*;
use serde_json::{json, Value};

pub const ARRIVALS: Study = Study {
    id: "arrivals-tickets",
    title: "AtlasDB's tickets encoding: bytes per arrival and write spread over shards",
    source: "seed 001 (AtlasDB ADR 16: the tickets encoding of `_transactions2`), \"Choosing PQ and NP\" and the hot-spotting it fixes",
    files: &["arrivals-tickets.json"],
    adapt: adapt_arrivals,
    series: false,
    arrival_logs: true,
    analyse: analyse_arrivals,
    differences: "The ADR stores (start, commit) timestamp pairs in Cassandra; our logs store (tx, arrival delay) pairs in the same layout (PQ = 25,000,000, NP = 16), so a value is the arrival's delay after the tx's creation in microseconds (2 to 3 bytes, as the ADR expects of commit deltas) and \"never\" is the empty value. Bytes count the column key and the value (the row key once per row, as in an SSTable), without Cassandra's composite-buffer overhead that the ADR's 21-byte bound allows for. A shard is a contiguous range of encoded row keys (consistent hashing over byte-space); the spread is the busiest shard's share of 1,000 live writes over the mean, averaged over 4 nodes.",
};

fn adapt_arrivals(_: &str, s: &mut Value, mode: Mode) -> Vec<String> {
    let mut c = Vec::new();
    if mode == Mode::Quick {
        set(s, &["nodes"], json!(100), &mut c);
        set(s, &["workload", "max_txs"], json!(5_000), &mut c);
    }
    c
}

fn figure(o: &Outcome, name: &str) -> f64 {
    o.arrival_figures
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(f64::NAN, |(_, v)| *v)
}

fn analyse_arrivals(outs: &[Outcome]) -> Analysis {
    let Some(o) = outs.first() else {
        return Analysis::default();
    };
    let f = |name: &str| figure(o, name);
    let (tickets, varlong, json) = (
        f("bytes_per_record_tickets"),
        f("bytes_per_record_varlong"),
        f("bytes_per_record_json"),
    );
    let spread = |order: &str, shards: u32| f(&format!("shard_max_over_mean_{order}_{shards}"));
    let rows = vec![
        vec![
            "bytes per record, tickets".into(),
            fmt(tickets, 2),
            "at most 21 (12 column key + 9 value); values 2 to 3 bytes in practice".into(),
        ],
        vec![
            "bytes per record, VAR_LONG keys and values".into(),
            fmt(varlong, 2),
            "larger: full timestamps, -1 takes 10 bytes".into(),
        ],
        vec!["bytes per record, JSON".into(), fmt(json, 2), "-".into()],
        vec![
            "busiest of 8 shards / mean, tickets".into(),
            fmt(spread("tickets", 8), 2),
            "even (bit-reversed rows spread writes)".into(),
        ],
        vec![
            "busiest of 64 shards / mean, tickets".into(),
            fmt(spread("tickets", 64), 2),
            "NP = 16 rows per partition: at most 16 shards busy".into(),
        ],
        vec![
            "busiest of 8 shards / mean, consecutive keys".into(),
            fmt(spread("consecutive", 8), 2),
            "hot spot: most writes on one node".into(),
        ],
        vec![
            "busiest of 64 shards / mean, consecutive keys".into(),
            fmt(spread("consecutive", 64), 2),
            "hot spot".into(),
        ],
    ];
    let bars = vec![
        (
            "tickets".to_string(),
            vec![spread("tickets", 8), spread("tickets", 64)],
            false,
        ),
        (
            "consecutive keys".to_string(),
            vec![spread("consecutive", 8), spread("consecutive", 64)],
            false,
        ),
    ];
    Analysis {
        table: Table {
            head: cols(&["measure", "ours", "the ADR"]),
            rows,
        },
        plot: Some(Plot::Bars {
            title: "Busiest shard over the mean, live writes".into(),
            y_label: "max / mean (1 = even)".into(),
            groups: vec!["8 shards".into(), "64 shards".into()],
            bars,
        }),
        checks: vec![
            Check::new(
                format!("tickets take fewer bytes per record than VAR_LONG ({tickets:.2} vs {varlong:.2}) and JSON ({json:.2})"),
                tickets < varlong && tickets < json,
            ),
            Check::new(
                format!("tickets stay within the ADR's 21 bytes per record ({tickets:.2})"),
                tickets <= 21.0,
            ),
            Check::new(
                format!(
                    "tickets spread live writes over 8 shards, consecutive keys pile them on one ({:.2} vs {:.2})",
                    spread("tickets", 8),
                    spread("consecutive", 8)
                ),
                spread("tickets", 8) < 1.5 && spread("consecutive", 8) > 4.0,
            ),
        ],
    }
}
