//! Checks of the simulation model against what theory says it must give.

use sim::engine::{serialization_us, EngineOptions};
use sim::registry::start_run;
use sim::run::Prepared;
use sim::scenario::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

fn flood_scenario(nodes: u32, degree: u32, txs: u64) -> Scenario {
    Scenario {
        name: "flood check".into(),
        description: String::new(),
        seed: 11,
        nodes,
        topology: Topology::RandomRegular(RandomRegular { degree }),
        latency: Latency::Lognormal(LognormalLatency {
            median_ms: 70.0,
            sigma: 0.5,
        }),
        bandwidth: Bandwidth::default(),
        links: LinkOptions::default(),
        processing_delay_ms: 0.0,
        workload: Workload::Poisson(Poisson {
            total_tps: 50.0,
            duration_ms: 10_000.0,
            max_txs: Some(txs),
            tx_bytes: 128,
            tx_size: None,
            rate_steps: Vec::new(),
        }),
        adversaries: Vec::new(),
        events: Vec::new(),
        drain_ms: 20_000.0,
        protocols: vec![ProtocolSpec::named("flood")],
    }
}

/// One-way shortest-path latency from `src` to every node, over the network's links.
/// Run a prepared scenario's first protocol to the end and report it.
fn report(prep: &Prepared) -> sim::RunReport {
    let mut started = start_run(prep, 0, &EngineOptions::default()).unwrap();
    started.run.run_until(u64::MAX);
    started.report(prep, 0.0)
}

fn dijkstra(prep: &Prepared, src: usize) -> Vec<u64> {
    let net = &prep.net;
    let mut dist = vec![u64::MAX; net.nodes];
    let mut heap = BinaryHeap::new();
    dist[src] = 0;
    heap.push(Reverse((0u64, src)));
    while let Some(Reverse((d, v))) = heap.pop() {
        if d > dist[v] {
            continue;
        }
        for e in net.edges_of(v) {
            let w = net.edges[e].peer as usize;
            let nd = d + net.edges[e].latency_us;
            if nd < dist[w] {
                dist[w] = nd;
                heap.push(Reverse((nd, w)));
            }
        }
    }
    dist
}

#[test]
fn flooding_latency_is_the_shortest_path_latency() {
    let prep = Prepared::new(flood_scenario(300, 8, 20)).unwrap();
    let mut run = start_run(&prep, 0, &EngineOptions::default()).unwrap().run;
    run.run_until(u64::MAX);
    let done = run.finish();
    let arrivals: Vec<_> = done.metrics.arrivals(&prep.plan).collect();
    assert_eq!(arrivals.len(), 20 * 299, "every node gets every tx");
    let mut by_origin = std::collections::BTreeMap::new();
    for &(node, tx, t) in &arrivals {
        let origin = prep.plan.origin[tx as usize] as usize;
        let dist = by_origin
            .entry(origin)
            .or_insert_with(|| dijkstra(&prep, origin));
        let latency = t - prep.plan.created_us[tx as usize];
        assert_eq!(latency, dist[node as usize], "tx {tx} at node {node}");
    }
}

#[test]
fn flooding_gives_degree_minus_one_copies() {
    for degree in [4u32, 16] {
        let prep = Prepared::new(flood_scenario(400, degree, 30)).unwrap();
        let report = report(&prep);
        let d = degree as f64;
        // A node hears the tx from every peer except its children in the tx's shortest-path
        // tree (they got it from this node and do not echo it). The average node has one
        // child, so it receives d - 1 copies: the first plus d - 2 duplicates.
        let copies = report.summary.duplicates.copies_mean;
        let dups = report.summary.duplicates.mean;
        assert!(
            (copies - (d - 1.0)).abs() < 0.05 * d,
            "degree {degree}: {copies} copies"
        );
        assert!(
            (dups - (copies - 1.0)).abs() < 1e-9,
            "duplicates are the copies beyond the first"
        );
        assert!((report.summary.delivery.mean - 1.0).abs() < 1e-12);
        // Overhead: d - 1 copies of each tx downloaded, each with a 2-3 byte frame.
        let overhead = report.summary.overhead.mean;
        assert!(overhead > copies && overhead < copies * 1.05, "{overhead}");
    }
}

#[test]
fn same_seed_same_digest_other_seed_other_digest() {
    let digest = |seed: Option<u64>| {
        let prep = Prepared::with_seed(flood_scenario(200, 6, 10), seed).unwrap();
        report(&prep).digest
    };
    assert_eq!(digest(None), digest(None));
    assert_ne!(digest(None), digest(Some(12)));
}

#[test]
fn serialization_matches_the_design_example() {
    // DESIGN.md: a 128 KB message at 50 Mbit/s takes 21 ms to leave.
    let us = serialization_us(128 * 1024, 50_000_000);
    assert_eq!(us, 20_972);
    assert_eq!(serialization_us(1000, 0), 0);
}

#[test]
fn a_slow_uplink_delays_the_later_copies() {
    // A star of 10 leaves, 1 Mbit/s up: the k-th copy of a 12,500-byte tx leaves after
    // k * 100 ms.
    let mut s = flood_scenario(11, 10, 1);
    s.topology = Topology::Explicit(Explicit {
        edges: (1..11)
            .map(|b| ExplicitEdge {
                a: 0,
                b,
                latency_ms: None,
            })
            .collect(),
    });
    s.latency = Latency::Constant(ConstantLatency { ms: 10.0 });
    s.bandwidth.classes = vec![BandwidthClass {
        fraction: 1.0,
        up_mbps: 1.0,
        down_mbps: 1000.0,
    }];
    s.workload = Workload::Burst(Burst {
        publisher: 0,
        count: 1,
        tx_bytes: 12_500,
        interval_ms: 0.0,
        start_ms: 0.0,
    });
    let prep = Prepared::new(s).unwrap();
    let mut run = start_run(&prep, 0, &EngineOptions::default()).unwrap().run;
    run.run_until(u64::MAX);
    let mut times: Vec<u64> = run.metrics().arrivals(&prep.plan).map(|a| a.2).collect();
    times.sort();
    // 12,500 B + 3 B of framing at 1 Mbit/s = 100.024 ms each, plus 10 ms latency and the
    // receiver's 1 Gbit/s downlink (100 us).
    let per_copy = serialization_us(12_503, 1_000_000);
    let down = serialization_us(12_503, 1_000_000_000);
    for (k, t) in times.iter().enumerate() {
        assert_eq!(*t, per_copy * (k as u64 + 1) + 10_000 + down, "copy {k}");
    }
}

#[test]
fn lossy_links_lose_about_the_given_share() {
    let mut s = flood_scenario(200, 8, 20);
    s.links.loss = 0.3;
    let prep = Prepared::new(s).unwrap();
    let r = report(&prep);
    // Flooding routes around losses: delivery stays high, duplicates drop by about 30%.
    assert!(r.summary.delivery.mean > 0.99);
    let dups = r.summary.duplicates.mean;
    assert!(dups < 7.0 * 0.8 && dups > 7.0 * 0.55, "{dups}");
}
