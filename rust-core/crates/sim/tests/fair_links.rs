//! Links shared as TCP shares them (`links.sharing` "fair", `links.tcp`): the times they give,
//! worked out by hand, and how they meet timed events and loss. A message streams through the
//! sender's uplink and the receiver's downlink at once, so it arrives one latency after its
//! last bit left.

use sim::engine::{serialization_us, EngineOptions};
use sim::registry::start_run;
use sim::run::Prepared;
use sim::scenario::*;

/// Flooding's framing around a tx (see model.rs).
const FRAMING: u32 = 3;

/// A star: node 0 linked to nodes 1..=leaves, `latency_ms` on every link, node 0 sending up
/// at `up_mbps`, every downlink at 1 Gbit/s; node 0 publishes `count` txs of `bytes`,
/// `interval_ms` apart.
fn star(
    leaves: u32,
    latency_ms: f64,
    up_mbps: f64,
    bytes: u32,
    count: u32,
    interval_ms: f64,
) -> Scenario {
    Scenario {
        name: "star".into(),
        description: String::new(),
        seed: 5,
        nodes: leaves + 1,
        topology: Topology::Explicit(Explicit {
            edges: (1..=leaves)
                .map(|b| ExplicitEdge {
                    a: 0,
                    b,
                    latency_ms: None,
                })
                .collect(),
        }),
        latency: Latency::Constant(ConstantLatency { ms: latency_ms }),
        bandwidth: Bandwidth {
            classes: vec![BandwidthClass {
                fraction: 1.0,
                up_mbps,
                down_mbps: 1000.0,
            }],
            overrides: Vec::new(),
        },
        links: LinkOptions {
            sharing: Sharing::Fair,
            ..LinkOptions::default()
        },
        processing_delay_ms: 0.0,
        workload: Workload::Burst(Burst {
            publisher: 0,
            count,
            tx_bytes: bytes,
            interval_ms,
            start_ms: 0.0,
        }),
        adversaries: Vec::new(),
        events: Vec::new(),
        drain_ms: 5_000.0,
        protocols: vec![ProtocolSpec::named("flood")],
    }
}

/// (node, tx, time) of every first arrival, by time.
fn arrivals(s: Scenario) -> Vec<(u32, u32, u64)> {
    let prep = Prepared::new(s).unwrap();
    let mut run = start_run(&prep, 0, &EngineOptions::default()).unwrap().run;
    run.run_until(u64::MAX);
    let mut a: Vec<_> = run.metrics().arrivals(&prep.plan).collect();
    a.sort_by_key(|&(node, tx, t)| (t, tx, node));
    a
}

fn digest(s: Scenario) -> String {
    let prep = Prepared::new(s).unwrap();
    let mut run = start_run(&prep, 0, &EngineOptions::default()).unwrap().run;
    run.run_until(u64::MAX);
    run.finish().digest
}

#[test]
fn an_uplink_is_shared_equally_among_its_connections() {
    // FIFO sends the 10 copies one after the other (model.rs); fair sharing sends them side by
    // side at a tenth of the rate each, so all arrive together, when FIFO's last one would
    // have left the uplink, plus the latency.
    let a = arrivals(star(10, 10.0, 1.0, 12_500, 1, 0.0));
    assert_eq!(a.len(), 10);
    let bytes = 12_500 + FRAMING as usize;
    let together = 10 * serialization_us(bytes, 1_000_000) + 10_000;
    for &(node, _, t) in &a {
        assert_eq!(t, together, "node {node}");
    }
}

#[test]
fn a_downlink_is_shared_among_the_connections_arriving_on_it() {
    // Two publishers send one tx each at once to node 2, whose downlink (1 Mbit/s) is the
    // bottleneck: both copies take twice as long as one alone would.
    let mut s = star(2, 10.0, 1000.0, 12_500, 1, 0.0);
    s.topology = Topology::Explicit(Explicit {
        edges: vec![
            ExplicitEdge {
                a: 0,
                b: 2,
                latency_ms: None,
            },
            ExplicitEdge {
                a: 1,
                b: 2,
                latency_ms: None,
            },
        ],
    });
    s.bandwidth.overrides = vec![BandwidthOverride {
        node: 2,
        up_mbps: 1000.0,
        down_mbps: 1.0,
    }];
    s.workload = Workload::Poisson(Poisson {
        total_tps: 1e6,
        duration_ms: 1.0,
        max_txs: Some(2),
        tx_bytes: 12_500,
        tx_size: None,
        rate_steps: Vec::new(),
    });
    let prep = Prepared::new(s.clone()).unwrap();
    let origins: Vec<u32> = prep.plan.origin.clone();
    let created: Vec<u64> = prep.plan.created_us.clone();
    let a = arrivals(s);
    let mut at_2: Vec<u64> = a.iter().filter(|x| x.0 == 2).map(|x| x.2).collect();
    at_2.sort();
    // Created a few µs apart at nodes 0 and 1 (the plan's Poisson draw), they meet on node 2's
    // downlink: the first goes alone at 1 Mbit/s, then both at 500 kbit/s (each uplink could
    // do 1 Gbit/s: the lesser share counts), then the second alone again.
    assert!(
        origins[0] != origins[1] && origins.iter().all(|&o| o < 2),
        "{origins:?}"
    );
    let (c0, c1) = (
        *created.iter().min().unwrap(),
        *created.iter().max().unwrap(),
    );
    assert!(c1 > c0, "{created:?}");
    let bits = (12_500 + FRAMING as u64) * 8 * 1_000_000; // bit-µs per s, as fair.rs counts
    let first_done = c1 + (bits - (c1 - c0) * 1_000_000).div_ceil(500_000);
    let second_done = first_done + (bits - (first_done - c1) * 500_000).div_ceil(1_000_000);
    assert_eq!(at_2, vec![first_done + 10_000, second_done + 10_000]);
    // Both copies together take as long as they would one after the other.
    let alone = serialization_us(12_503, 1_000_000);
    assert!(second_done.abs_diff(c0 + 2 * alone) <= 1, "{second_done}");
}

/// Node 0 sends one tx up a 2 Mbit/s uplink to nodes 1 and 2; node 1's downlink takes only
/// 0.5 Mbit/s. When (node, tx, time) each copy arrives.
fn one_end_held_back(sharing: Sharing) -> Vec<(u32, u32, u64)> {
    let mut s = star(2, 10.0, 2.0, 12_500, 1, 0.0);
    s.links.sharing = sharing;
    s.bandwidth.overrides = vec![BandwidthOverride {
        node: 1,
        up_mbps: 1000.0,
        down_mbps: 0.5,
    }];
    arrivals(s)
}

#[test]
fn a_flow_held_back_at_one_end_leaves_its_share_of_the_other_unused() {
    // Node 0's uplink gives each of its two connections 1 Mbit/s. The rest of what node 1's
    // connection cannot take is not handed to node 2's: each goes at its lesser share.
    let bytes = 12_500 + FRAMING as usize;
    assert_eq!(
        one_end_held_back(Sharing::Fair),
        vec![
            (2, 0, serialization_us(bytes, 1_000_000) + 10_000),
            (1, 0, serialization_us(bytes, 500_000) + 10_000),
        ]
    );
}

#[test]
fn max_min_hands_the_share_a_flow_leaves_at_one_end_to_the_others_there() {
    // Node 1's connection takes the 0.5 Mbit/s its downlink allows, node 2's the other 1.5.
    let bytes = 12_500 + FRAMING as usize;
    assert_eq!(
        one_end_held_back(Sharing::MaxMin),
        vec![
            (2, 0, serialization_us(bytes, 1_500_000) + 10_000),
            (1, 0, serialization_us(bytes, 500_000) + 10_000),
        ]
    );
}

/// Slow start: 100,003 bytes over a 1 Gbit/s link with a 100 ms round trip and 10 segments of
/// 1,460 bytes to start with.
#[test]
fn slow_start_sends_a_window_per_round_trip_and_the_window_doubles() {
    let mut s = star(1, 50.0, 1000.0, 100_000, 1, 0.0);
    s.links.tcp = Some(Tcp {
        slow_start: true,
        initial_window_segments: 10,
    });
    let a = arrivals(s);
    let bytes = 100_000 + FRAMING as u64;
    // Rounds send 14,600, then 29,200 (the window doubled), then the rest from 200 ms on.
    let rest = bytes - 14_600 - 29_200;
    let left_sender = 200_000 + serialization_us(rest as usize, 1_000_000_000);
    let expected = left_sender + 50_000;
    assert_eq!(a, vec![(1, 0, expected)]);
}

#[test]
fn a_connection_keeps_its_window_for_a_while_and_starts_again_after_an_idle_spell() {
    let tcp = Some(Tcp {
        slow_start: true,
        initial_window_segments: 10,
    });
    let bytes = 100_000 + FRAMING as u64;
    let one = |interval_ms: f64| {
        let mut s = star(1, 50.0, 1000.0, 100_000, 2, interval_ms);
        s.links.tcp = tcp.clone();
        arrivals(s)
    };
    let first = 200_000 + serialization_us((bytes - 43_800) as usize, 1_000_000_000);
    let latency = 50_000;
    // 100 ms after the first left, the window (58,400 + the 56,203 of the last round) holds
    // the whole second tx: it goes at the link's rate.
    let soon = one(300.0);
    assert_eq!(soon[0].2, first + latency);
    assert_eq!(
        soon[1].2,
        300_000 + serialization_us(bytes as usize, 1_000_000_000) + latency
    );
    // A second later (idle longer than the round trip plus 200 ms) it starts from 10 segments.
    let later = one(1_300.0);
    assert_eq!(later[1].2, 1_300_000 + first + latency);
}

#[test]
fn a_link_that_goes_down_mid_transfer_drops_it_and_frees_the_uplink() {
    // Node 0 sends a 12.5 kB tx to nodes 1 and 2 at 1 Mbit/s (about 200 ms for both); node 1
    // leaves at 50 ms and comes back at 2 s. Node 2's copy then has the uplink to itself.
    let mut s = star(2, 10.0, 1.0, 12_500, 2, 3_000.0);
    s.events = serde_json::from_value(serde_json::json!([
        { "at_ms": 50, "kind": "leave", "nodes": [1] },
        { "at_ms": 2000, "kind": "join", "nodes": [1] },
    ]))
    .unwrap();
    let a = arrivals(s);
    let bits = (12_500 + FRAMING as u64) * 8;
    // Until 50 ms each connection had 500 kbit/s; then node 2's has all of it.
    let sent_by_50 = 50_000 * 500_000; // bit-µs per s
    let rest_us = (bits * 1_000_000 - sent_by_50).div_ceil(1_000_000);
    let latency = 10_000;
    assert_eq!(a[0], (2, 0, 50_000 + rest_us + latency));
    // Node 1 never gets tx 0 (flooding does not send again); tx 1, after the rejoin, reaches
    // both together over a free uplink.
    let tx1: Vec<_> = a.iter().filter(|x| x.1 == 1).collect();
    assert_eq!(tx1.len(), 2);
    let both = 3_000_000 + 2 * serialization_us(12_503, 1_000_000) + latency;
    assert!(tx1.iter().all(|x| x.2 == both), "{tx1:?} vs {both}");
    assert!(!a.iter().any(|x| x.0 == 1 && x.1 == 0));
}

#[test]
fn lost_messages_still_take_their_share_of_the_uplink() {
    let mut s = star(10, 10.0, 1.0, 12_500, 1, 0.0);
    s.links.loss = 0.5;
    let a = arrivals(s);
    assert!(!a.is_empty() && a.len() < 10, "{} of 10 arrived", a.len());
    let bytes = 12_500 + FRAMING as usize;
    let together = 10 * serialization_us(bytes, 1_000_000) + 10_000;
    assert!(a.iter().all(|x| x.2 == together));
}

#[test]
fn fair_links_are_deterministic_and_differ_from_fifo() {
    let mut s = star(10, 10.0, 1.0, 12_500, 3, 50.0);
    s.links.tcp = Some(Tcp {
        slow_start: true,
        initial_window_segments: 4,
    });
    let fair = digest(s.clone());
    assert_eq!(fair, digest(s.clone()));
    s.links = LinkOptions::default();
    assert_ne!(fair, digest(s));
}

#[test]
fn a_window_without_fair_sharing_is_refused() {
    let text = |links: &str| {
        format!(
            r#"{{"name": "x", "nodes": 4, "topology": {{"kind": "random_regular", "degree": 2}},
            "links": {links}, "workload": {{"kind": "burst", "count": 1, "tx_bytes": 100}},
            "protocols": [{{"protocol": "flood"}}]}}"#
        )
    };
    let e = sim::parse_scenario(&text(r#"{"tcp": {"slow_start": true}}"#)).unwrap_err();
    assert_eq!(e.path, "links.tcp");
    let e = sim::parse_scenario(&text(
        r#"{"sharing": "fair", "tcp": {"initial_window_segments": 0}}"#,
    ))
    .unwrap_err();
    assert_eq!(e.path, "links.tcp.initial_window_segments");
    let e = sim::parse_scenario(&text(r#"{"sharing": "round_robin"}"#)).unwrap_err();
    assert_eq!(e.path, "links.sharing");
    let ok = sim::parse_scenario(&text(r#"{"sharing": "fair", "tcp": {}}"#)).unwrap();
    assert_eq!(
        ok.links.tcp,
        Some(Tcp {
            slow_start: true,
            initial_window_segments: 10
        })
    );
}
