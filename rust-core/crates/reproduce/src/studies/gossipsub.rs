//! GossipSub v2.0's Shadow study (seed 002): duplicates and the 4 s deadline.

use super::super::svg::{Line, Plot};
use super::super::{Analysis, Check, Mode, Outcome, Study, Table};
use super::edit::*;
use super::read::*;
use serde_json::Value;

pub const GOSSIPSUB_MULTI: Study = Study {
    id: "gossipsub-multi",
    title: "GossipSub v2.0: many 128 KiB messages from one publisher",
    source: "seed 002 (Shadow study of IANNOUNCE/INEED), first table and 4 s deadline",
    files: &["gossipsub-v2-multi.json"],
    adapt: adapt_gossipsub_multi,
    series: false,
    arrival_logs: false,
    analyse: analyse_gossipsub_multi,
    differences: "Shadow ran go-libp2p over its own TCP (Reno, an initial window of 10 segments, slow start) with yamux; the scenarios share our links the same way (links.sharing \"fair\": each connection is one flow through the sender's uplink and the receiver's downlink at once, at the lesser of the equal shares the two give it, pipelined as TCP is; links.tcp slow start from 10 segments), so concurrent transfers split a 50 Mbit/s link and every idle connection starts again from its initial window. With FIFO links our duplicates barely grew with the burst (D_announce=0: 5.9 to 6.1 over 1 to 64 messages); now they grow as the seed's do (12 of 21 cells within 25% of the seed, 7 with FIFO; docs/notes-fair-links.md compares the link models cell by cell). The largest burst that reaches every node within 4 s is half the seed's (8 -> 16 where the seed has 16 -> 32; the doubling with lazy push holds). It is not store and forward: with messages pipelined through both ends it stays 8 -> 16 (it was 8 -> 16 when each message crossed the uplink, the latency and then the downlink). It is the 50 Mbit/s downlinks split among the copies arriving together: with unlimited downlinks D_announce=0 gets 32 messages to every node within 4 s, and FIFO links, whose downlink takes one copy at a time at full rate, give 16 -> 32 as the seed. Exact max-min sharing across the network (links.sharing \"max_min\", which hands a flow's unused share at one end to the other flows there) does not close it either: measured once on these runs (200-290x slower: 5 to 7 minutes a 64-message run), the largest bursts within 4 s stay 8 -> 16 / 16 (D_announce=0 gets 14 of 16 messages to every node within 4 s instead of 12, D_announce=7 29 of 32 instead of 26) and duplicates per message move by at most 0.25 (docs/notes-fair-links.md). But the seed does not say which nodes its deadline waits for: counted as in time once 95% of the nodes have it, our largest bursts are the seed's, 16 -> 32 / 32, and lazy push then gets more of 64 messages in time too (18 / 37 / 35), so the gap is in the last 5% of the nodes. The seed gives only those largest bursts, not how many of 64 messages arrive in time: ours at 64 messages, D_announce=8 gets as many messages to every node within 4 s as D_announce=0 (10) and fewer than D_announce=7 (16), with 17,905 INEED timeouts against D_announce=7's 11,344. That D_announce=7 does better than 8 is the seed's finding (\"much better\": forwarding only lazily waits a round trip at every hop, where 7 sends eagerly to one peer), and ours has the lower mean latency at every burst; our single message shows the round trips (mean latency 694 ms with D_announce=0, 874 with 7, 938 with 8). At 32 messages D_announce=8 still gets more messages to every node within 4 s than eager push (14 vs 9), as the seed's lazy push does; at 64 they tie. D_announce 7 and 8 keep more duplicates than the seed at most bursts below 64 (D_announce=8: 0.68 to 1.27 vs 0.18 to 0.80), most of them IWANT answers: a 128 KiB message needs about three round trips of slow start per hop, so heartbeat gossip (1.5 s) often reaches nodes before the INEED answer does. Our degree-35 random graph and city latencies follow the study's run script; its exact topology is not published.",
};

pub const GOSSIPSUB_SINGLE: Study = Study {
    id: "gossipsub-single",
    title: "GossipSub v2.0: one message of 128 KiB to 8 MiB",
    source: "seed 002, second table",
    files: &["gossipsub-v2-single.json"],
    adapt: adapt_gossipsub_single,
    series: false,
    arrival_logs: false,
    analyse: analyse_gossipsub_single,
    differences: "As for the multi-message table. Large messages take many round trips on an idle connection and split the links among concurrent copies, so INEED timeouts (1 s) and IWANT fetches fire as in Shadow and duplicates grow with the size; the drain is 60 s so that the copies still in flight of an 8 MiB message are counted (with 30 s they were cut off). 15 of 21 cells are within 25% of the seed (3 with FIFO links). Pipelining brought the largest sizes up to the seed's (8 MiB: D_announce=0 13.29 vs 12.99, D_announce=7 9.64 vs 9.28, where storing each message at the downlink left D_announce=7 a quarter low). Cells still more than 25% from the seed: lazy push at 128 KiB (IWANT answers, as in the multi-message table); 256 KiB with lazy push and D_announce=7 at 512 KiB, where the seed's own column falls as the size doubles (D_announce=7: 2.28 then 1.16; D_announce=8: 1.78 then 1.09; one Shadow run per cell) while ours grows; and D_announce=8 at 4 MiB, a third above the seed.",
};

fn adapt_gossipsub_multi(_: &str, s: &mut Value, mode: Mode) -> Vec<String> {
    quick_gossipsub(s, mode, &[", 1 msg", ", 64 msgs"])
}

fn adapt_gossipsub_single(_: &str, s: &mut Value, mode: Mode) -> Vec<String> {
    quick_gossipsub(s, mode, &[", 128 KiB", ", 2 MiB"])
}

/// Quick mode: 80 nodes, and only the runs whose labels end in one of `ends`.
fn quick_gossipsub(s: &mut Value, mode: Mode, ends: &[&str]) -> Vec<String> {
    let mut c = Vec::new();
    if mode == Mode::Quick {
        shrink(s, 80, 12, &mut c);
        keep_runs(s, |l| ends.iter().any(|e| l.ends_with(e)), &mut c);
    }
    c
}

/// The 250-node, 2,500 tps Strokkur files: 4 s of load in full mode (the metrics settle
/// within 2 s); 80 nodes at 800 tps for 2 s in quick mode.
const D_ANNOUNCE: [&str; 3] = ["D_announce=0", "D_announce=7", "D_announce=8"];
const SEED_MULTI: [[f64; 7]; 3] = [
    [4.515, 5.492, 5.658, 5.686, 6.161, 7.394, 9.232],
    [0.598, 0.565, 0.586, 1.259, 0.767, 1.482, 2.244],
    [0.192, 0.804, 0.179, 0.395, 0.769, 0.673, 1.236],
];
/// The largest burst the seed saw reach every node within 4 s.
const SEED_DEADLINE: [u32; 3] = [16, 32, 32];
const SEED_SINGLE: [[f64; 7]; 3] = [
    [4.515, 4.749, 5.122, 5.832, 8.909, 11.022, 12.990],
    [0.598, 2.284, 1.163, 2.506, 4.078, 6.971, 9.275],
    [0.192, 1.777, 1.087, 1.950, 3.762, 5.927, 8.692],
];

/// (D_announce row, burst count) of a multi-message run label like "D_announce=7, 16 msgs".
fn multi_label(label: &str) -> Option<(usize, u32)> {
    let (d, rest) = label.split_once(", ")?;
    let row = D_ANNOUNCE.iter().position(|x| *x == d)?;
    let count = rest.split(' ').next()?.parse().ok()?;
    Some((row, count))
}

fn analyse_gossipsub_multi(outs: &[Outcome]) -> Analysis {
    let mut rows = Vec::new();
    let mut lines: Vec<Line> = Vec::new();
    let mut largest = [0u32; 3];
    let mut largest_95 = [0u32; 3];
    // (burst, mean latency in ms) of each run, by D_announce row.
    let mut latency: [Vec<(u32, f64)>; 3] = Default::default();
    let mut dups_max = [f64::NAN; 3];
    let mut sizes_run = 0;
    for (row, d) in D_ANNOUNCE.iter().enumerate() {
        let mut ours = Vec::new();
        let mut seed = Vec::new();
        let mut runs: Vec<(u32, &Outcome)> = outs
            .iter()
            .filter_map(|o| {
                multi_label(&o.report.label)
                    .filter(|m| m.0 == row)
                    .map(|m| (m.1, o))
            })
            .collect();
        runs.sort_by_key(|r| r.0);
        sizes_run = sizes_run.max(runs.len());
        for &(count, o) in &runs {
            let col = count.trailing_zeros() as usize;
            let within = o.within(4_000.0);
            if within == count as usize {
                largest[row] = largest[row].max(count);
            }
            let within_95 = o.within_95(4_000.0);
            if within_95 == count as usize {
                largest_95[row] = largest_95[row].max(count);
            }
            latency[row].push((count, o.report.summary.latency_ms.mean));
            dups_max[row] = o.report.summary.duplicates.mean;
            rows.push(vec![
                d.to_string(),
                count.to_string(),
                fmt(o.report.summary.duplicates.mean, 3),
                fmt(SEED_MULTI[row][col], 3),
                format!("{within}/{count}"),
                format!("{within_95}/{count}"),
            ]);
            ours.push((count as f64, o.report.summary.duplicates.mean));
            seed.push((count as f64, SEED_MULTI[row][col]));
        }
        lines.push(Line::ours(format!("{d} (ours)"), ours, row));
        lines.push(Line::seed(format!("{d} (seed)"), seed, row));
    }
    let deadlines = [
        ("largest burst all within 4 s", largest),
        ("largest burst all at 95% of nodes within 4 s", largest_95),
    ];
    for (what, largest) in deadlines {
        for (row, d) in D_ANNOUNCE.iter().enumerate() {
            rows.push(vec![
                d.to_string(),
                what.into(),
                largest[row].to_string(),
                SEED_DEADLINE[row].to_string(),
                String::new(),
                String::new(),
            ]);
        }
    }
    // Only where the runs span the burst sizes (not in quick mode's 1 and 64 messages).
    let doubling = (sizes_run > 2).then(|| {
        Check::new(
            format!(
                "lazy push doubles the largest burst that meets the 4 s deadline (ours {} -> {} / {}; seed 16 -> 32)",
                largest[0], largest[1], largest[2]
            ),
            largest[0] > 0 && largest[1] >= 2 * largest[0] && largest[2] >= 2 * largest[0],
        )
    });
    // The seed does not say which nodes its deadline waits for; with 95% of them:
    let seed_at_95 = (sizes_run > 2).then(|| {
        Check::new(
            format!(
                "counting a message in time once 95% of the nodes have it, the largest bursts within 4 s are the seed's (ours {} -> {} / {}; seed 16 -> 32)",
                largest_95[0], largest_95[1], largest_95[2]
            ),
            largest_95 == SEED_DEADLINE,
        )
    });
    Analysis {
        table: Table {
            head: cols(&["D_announce", "messages", "duplicates per message (ours)", "seed", "within 4 s (ours)", "at 95% of nodes within 4 s (ours)"]),
            rows,
        },
        plot: Some(Plot::Lines {
            title: "Duplicates per 128 KiB message vs burst size".into(),
            x_label: "messages in the burst".into(),
            y_label: "duplicates per message".into(),
            log_x: true,
            log_y: false,
            lines,
        }),
        checks: vec![
            Check::new(
                format!("lazy push cuts duplicates at the largest burst (D_announce 0/7/8: {:.2} / {:.2} / {:.2})", dups_max[0], dups_max[1], dups_max[2]),
                dups_max[1] < dups_max[0] / 2.0 && dups_max[2] < dups_max[0] / 2.0,
            ),
            seven_beats_eight(&latency[1], &latency[2]),
        ]
        .into_iter()
        .chain(doubling)
        .chain(seed_at_95)
        .collect(),
    }
}

/// The seed: "D_announce=7 is also much better than D_announce=8 because with the latter, the
/// propagation can be delayed by the round-trip time from each hop". Better here: a lower mean
/// latency at every burst both ran.
fn seven_beats_eight(seven: &[(u32, f64)], eight: &[(u32, f64)]) -> Check {
    let pairs: Vec<(u32, f64, f64)> = seven
        .iter()
        .filter_map(|&(n, a)| eight.iter().find(|e| e.0 == n).map(|e| (n, a, e.1)))
        .collect();
    let largest = pairs.last().map_or("-".into(), |&(n, a, b)| {
        format!("{n} messages: {a:.0} vs {b:.0} ms")
    });
    Check::new(
        format!("D_announce=7 delivers faster than 8 at every burst, as the seed finds (mean latency; {largest})"),
        !pairs.is_empty() && pairs.iter().all(|&(_, a, b)| a < b),
    )
}

fn analyse_gossipsub_single(outs: &[Outcome]) -> Analysis {
    let mut rows = Vec::new();
    let mut lines = Vec::new();
    let mut lazy_wins = true;
    // Lazy push's mean latency over eager push's at the same size: the lowest, and where.
    let mut fastest_lazy = (f64::INFINITY, String::new());
    let sizes = [128u32, 256, 512, 1024, 2048, 4096, 8192];
    for (row, d) in D_ANNOUNCE.iter().enumerate() {
        let (mut ours, mut seed) = (Vec::new(), Vec::new());
        for (col, &kib) in sizes.iter().enumerate() {
            let size = if kib < 1024 {
                format!("{kib} KiB")
            } else {
                format!("{} MiB", kib / 1024)
            };
            let Some(o) = find(outs, &format!("{d}, {size}")) else {
                continue;
            };
            let dups = o.report.summary.duplicates.mean;
            let latency = o.report.summary.latency_ms.mean;
            if row > 0 {
                let eager = find(outs, &format!("D_announce=0, {size}"));
                lazy_wins &= dups < get(eager, |e| e.report.summary.duplicates.mean);
                let ratio = latency / get(eager, |e| e.report.summary.latency_ms.mean);
                if ratio < fastest_lazy.0 || ratio.is_nan() {
                    fastest_lazy = (ratio, format!("{d} at {size}"));
                }
            }
            rows.push(vec![
                d.to_string(),
                size,
                fmt(dups, 3),
                fmt(SEED_SINGLE[row][col], 3),
                fmt(latency, 0),
                o.counter("gossipsub.ineed_timeout").to_string(),
            ]);
            ours.push((kib as f64, dups));
            seed.push((kib as f64, SEED_SINGLE[row][col]));
        }
        lines.push(Line::ours(format!("{d} (ours)"), ours, row));
        lines.push(Line::seed(format!("{d} (seed)"), seed, row));
    }
    Analysis {
        table: Table {
            head: cols(&[
                "D_announce",
                "size",
                "duplicates per message (ours)",
                "seed",
                "latency mean ms",
                "INEED timeouts",
            ]),
            rows,
        },
        plot: Some(Plot::Lines {
            title: "Duplicates of one message vs its size".into(),
            x_label: "message size (KiB)".into(),
            y_label: "duplicates per message".into(),
            log_x: true,
            log_y: false,
            lines,
        }),
        checks: vec![
            Check::new(
                "lazy push (D_announce 7 and 8) has fewer duplicates than eager push at every size",
                lazy_wins,
            ),
            // The seed: "we don't gain any improvement from v2" for a single message; within
            // 10% of eager push's mean latency counts as no gain.
            Check::new(
                format!(
                    "a single message arrives no faster with lazy push, as the seed finds (lazy over eager mean latency at least 0.90 at every size; lowest {:.2}, {})",
                    fastest_lazy.0, fastest_lazy.1
                ),
                fastest_lazy.0 >= 0.9,
            ),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seven_beats_eight_only_where_faster_at_every_burst_both_ran() {
        let seven = [(1, 870.0), (16, 1390.0), (64, 2650.0)];
        let holds = seven_beats_eight(&seven, &[(1, 940.0), (16, 1570.0), (64, 2750.0)]);
        assert!(holds.holds);
        assert!(
            holds.claim.contains("64 messages: 2650 vs 2750 ms"),
            "{}",
            holds.claim
        );
        // Slower at one burst; a burst only one side ran is not compared.
        let slower = [(1, 940.0), (16, 1380.0), (32, 1000.0), (64, 2750.0)];
        assert!(!seven_beats_eight(&seven, &slower).holds);
        assert!(seven_beats_eight(&seven, &[(1, 940.0), (8, 1.0)]).holds);
        assert!(!seven_beats_eight(&seven, &[]).holds);
    }
}
