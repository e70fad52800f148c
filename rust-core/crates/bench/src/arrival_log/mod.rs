//! The measurements behind `npm run bench -- arrivals` (`txsim bench arrivals`, and the WASM
//! build): bytes per record (size.rs), shard balance of live writes (shards.rs), and the
//! throughput of range scans and put-unless-exists on one node's log.
//!
//! The arrivals come from any [`RunArrivals`]: `txsim bench arrivals` passes a 1,000-node,
//! 100,000-tx simulator run (simulated.rs); the synthetic run of synth.rs serves the tests and
//! the `arrivals_headline` example.

pub mod shards;
pub mod simulated;
pub mod size;
pub mod synth;

use std::hint::black_box;

use arrivals::{Arrival, ArrivalLog, Layout};
use shards::{KeyOrder, Sharding};

/// A finished run's arrivals, as the bench reads them.
pub trait RunArrivals {
    fn nodes(&self) -> u32;
    /// Creation time of each seq, microseconds from the start of the run.
    fn creation_us(&self) -> &[u64];
    /// The arrival of every seq at `node`, indexed by seq ("never" where it did not come).
    fn node_arrivals(&self, node: u32, out: &mut Vec<Arrival>);
}

/// Writes in the shard-load window: ~2.5 s of a live run at 400 tps.
pub const SHARD_WINDOW_WRITES: usize = 1_000;
/// Nodes whose logs the shard and throughput figures average over.
pub const SAMPLED_NODES: u32 = 4;
/// Seqs per range scan in the throughput figure: a timeline seek of ~2.5 s.
pub const SCAN_SEQS: u64 = 1_000;
/// Minimum measured time per throughput figure.
const MIN_TIMED_S: f64 = 0.25;

/// The nine headline figures, in this order: the seven of [`layout_figures`], then
/// `range_scan_records_per_s`, `put_unless_exists_per_s`.
/// `now_s` is the caller's clock in seconds; it is only read around the timed loops.
pub fn headline(run: &dyn RunArrivals, now_s: &mut dyn FnMut() -> f64) -> Vec<(&'static str, f64)> {
    let mut figures = layout_figures(run);
    let (scan_rate, put_rate) = throughput(run, Layout::default(), now_s);
    figures.push(("range_scan_records_per_s", scan_rate));
    figures.push(("put_unless_exists_per_s", put_rate));
    figures
}

/// What the encoding gives, untimed: `bytes_per_record_{tickets,varlong,json}` (bytes) and
/// `shard_max_over_mean_{tickets,consecutive}_{8,64}` (ratio, 1 = even).
pub fn layout_figures(run: &dyn RunArrivals) -> Vec<(&'static str, f64)> {
    let layout = Layout::default();
    let sizes = size::measure(run, layout);
    let live = live_writes(run, 0..SAMPLED_NODES);
    let balance = |order: KeyOrder, shards: usize| mean_balance(run, &live, order, shards);
    vec![
        ("bytes_per_record_tickets", sizes.per_record(sizes.tickets)),
        ("bytes_per_record_varlong", sizes.per_record(sizes.varlong)),
        ("bytes_per_record_json", sizes.per_record(sizes.json)),
        (
            "shard_max_over_mean_tickets_8",
            balance(KeyOrder::Tickets(layout), 8),
        ),
        (
            "shard_max_over_mean_tickets_64",
            balance(KeyOrder::Tickets(layout), 64),
        ),
        (
            "shard_max_over_mean_consecutive_8",
            balance(KeyOrder::Consecutive, 8),
        ),
        (
            "shard_max_over_mean_consecutive_64",
            balance(KeyOrder::Consecutive, 64),
        ),
    ]
}

/// Figures that explain the headline: the row key counted per cell, NP = 64 against 64
/// shards, and the whole-run balance (one window of all writes) that hides the hot spot.
pub fn details(run: &dyn RunArrivals) -> Vec<(&'static str, f64)> {
    let layout = Layout::default();
    let sizes = size::measure(run, layout);
    let live = live_writes(run, 0..SAMPLED_NODES);
    let np64 = Layout::new(layout.partitioning_quantum(), 64).unwrap_or(layout);
    let whole = |order: KeyOrder, shards: usize| {
        let txs = run.creation_us().len() as u64;
        let sharding = Sharding::balanced(order, txs, shards);
        let n = live.len().max(1) as f64;
        live.iter()
            .map(|w| sharding.windowed_max_over_mean(w, w.len()))
            .sum::<f64>()
            / n
    };
    vec![
        (
            "bytes_per_record_tickets_flat",
            sizes.per_record(sizes.tickets_flat),
        ),
        ("records", sizes.records as f64),
        (
            "shard_max_over_mean_tickets_np64_64",
            mean_balance(run, &live, KeyOrder::Tickets(np64), 64),
        ),
        (
            "shard_max_over_mean_whole_run_tickets_64",
            whole(KeyOrder::Tickets(layout), 64),
        ),
        (
            "shard_max_over_mean_whole_run_consecutive_64",
            whole(KeyOrder::Consecutive, 64),
        ),
    ]
}

/// Each sampled node's arrivals as written live: seqs in arrival-time order, no "never"s.
fn live_writes(run: &dyn RunArrivals, nodes: std::ops::Range<u32>) -> Vec<Vec<u64>> {
    let mut arrivals = Vec::new();
    nodes
        .map(|node| {
            run.node_arrivals(node, &mut arrivals);
            let mut timed: Vec<(u64, u64)> = arrivals
                .iter()
                .enumerate()
                .filter_map(|(seq, a)| a.at(run.creation_us()[seq]).map(|t| (t, seq as u64)))
                .collect();
            timed.sort_unstable();
            timed.into_iter().map(|(_, seq)| seq).collect()
        })
        .collect()
}

fn mean_balance(run: &dyn RunArrivals, live: &[Vec<u64>], order: KeyOrder, shards: usize) -> f64 {
    let sharding = Sharding::balanced(order, run.creation_us().len() as u64, shards);
    let total: f64 = live
        .iter()
        .map(|w| sharding.windowed_max_over_mean(w, SHARD_WINDOW_WRITES))
        .sum();
    total / live.len().max(1) as f64
}

/// (range-scan records per second, put-unless-exists per second) on node 0's log.
fn throughput(run: &dyn RunArrivals, layout: Layout, now_s: &mut dyn FnMut() -> f64) -> (f64, f64) {
    let writes = live_writes(run, 0..1).pop().unwrap_or_default();
    let mut arrivals = Vec::new();
    run.node_arrivals(0, &mut arrivals);
    let in_order: Vec<(u64, Arrival)> = writes.iter().map(|&s| (s, arrivals[s as usize])).collect();

    let (mut puts, start) = (0u64, now_s());
    let mut log;
    loop {
        log = ArrivalLog::new(layout);
        for &(seq, arrival) in &in_order {
            black_box(log.put_unless_exists(seq, arrival));
        }
        puts += in_order.len() as u64;
        if now_s() - start >= MIN_TIMED_S {
            break;
        }
    }
    let put_rate = puts as f64 / (now_s() - start).max(1e-9);

    let txs = run.creation_us().len() as u64;
    let _ = log.fill_never(0..txs);
    let (mut records, start) = (0u64, now_s());
    loop {
        let mut from = 0;
        while from < txs {
            records += black_box(log.scan(from..from + SCAN_SEQS)).count() as u64;
            from += SCAN_SEQS;
        }
        if now_s() - start >= MIN_TIMED_S {
            break;
        }
    }
    let scan_rate = records as f64 / (now_s() - start).max(1e-9);
    (scan_rate, put_rate)
}
