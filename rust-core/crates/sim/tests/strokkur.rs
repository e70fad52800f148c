//! Strokkur in the simulator, on scaled-down versions of the paper's settings (`004` §5):
//! each test checks the direction of a result, not its size at 250 nodes (see the
//! scenarios/strokkur-*.json files for those).

use proto::{Behaviour, TxId};
use sim::engine::EngineOptions;
use sim::registry::start_run;
use sim::run::Prepared;
use sim::scenario::*;
use sim::RunReport;

const NODES: u32 = 40;

/// Codewords per second per link near the controller's operating point for this load (200
/// tps, degree 8: about 1.5 * 200 / 8), so a few simulated seconds show its steady state (the
/// controller moves a rate by alpha per loss: a few percent a second at most).
const RATE: f64 = 40.0;

fn config(extra: serde_json::Value) -> serde_json::Value {
    let mut c = serde_json::json!({ "initial_rate_per_s": RATE });
    if let (Some(c), Some(extra)) = (c.as_object_mut(), extra.as_object()) {
        c.extend(extra.clone());
    }
    c
}

fn scenario(protocols: &[(&str, &str, serde_json::Value)]) -> Scenario {
    Scenario {
        name: "strokkur check".into(),
        description: String::new(),
        seed: 3,
        nodes: NODES,
        topology: Topology::RandomRegular(RandomRegular { degree: 8 }),
        latency: Latency::Lognormal(LognormalLatency {
            median_ms: 70.0,
            sigma: 0.5,
        }),
        bandwidth: Bandwidth::default(),
        links: LinkOptions::default(),
        processing_delay_ms: 0.0,
        workload: Workload::Poisson(Poisson {
            total_tps: 200.0,
            duration_ms: 2_500.0,
            max_txs: None,
            tx_bytes: 128,
            tx_size: None,
            rate_steps: Vec::new(),
        }),
        adversaries: Vec::new(),
        events: Vec::new(),
        drain_ms: 1_500.0,
        protocols: protocols
            .iter()
            .map(|(label, protocol, config)| ProtocolSpec {
                label: Some(label.to_string()),
                config: config.clone(),
                ..ProtocolSpec::named(protocol)
            })
            .collect(),
    }
}

fn strokkur() -> Scenario {
    scenario(&[("strokkur", "strokkur", config(serde_json::json!({})))])
}

/// Honest nodes whose peers include a `fraction` that sends nothing useful (silent or
/// corrupt): the rest of their peers settle at 1 / (1 - fraction) of the honest rate, and the
/// runs start there (reaching it takes the controller tens of seconds; see the next test).
fn making_up_for(fraction: f64, behaviour: Behaviour) -> Scenario {
    let s = scenario(&[(
        "strokkur",
        "strokkur",
        serde_json::json!({ "initial_rate_per_s": RATE / (1.0 - fraction) }),
    )]);
    with_adversaries(s, fraction, behaviour)
}

fn with_adversaries(mut s: Scenario, fraction: f64, behaviour: Behaviour) -> Scenario {
    s.adversaries = vec![AdversarySet {
        fraction: Some(fraction),
        nodes: None,
        behaviour,
    }];
    s
}

fn run(prep: &Prepared, index: usize) -> RunReport {
    let mut started = start_run(prep, index, &EngineOptions::default()).unwrap();
    started.run.run_until(u64::MAX);
    started.report(prep, 0.0)
}

fn report(s: Scenario) -> RunReport {
    run(&Prepared::new(s).unwrap(), 0)
}

fn counter(r: &RunReport, name: &str) -> u64 {
    r.counters.get(name).map_or(0, |c| c.total)
}

#[test]
fn honest_strokkur_delivers_nearly_all_at_a_fraction_of_floodings_bytes() {
    let prep = Prepared::new(scenario(&[
        ("strokkur", "strokkur", config(serde_json::json!({}))),
        ("flood", "flood", serde_json::json!({})),
    ]))
    .unwrap();
    let (coded, flood) = (run(&prep, 0), run(&prep, 1));
    let s = &coded.summary;
    assert!(s.delivery.p5 > 0.93, "delivery {:?}", s.delivery);
    // Flooding downloads about degree - 1 = 7 copies; coding needs a fraction of that.
    assert!(
        flood.summary.overhead.mean > 2.0 * s.overhead.mean,
        "{:?} vs flood {:?}",
        s.overhead,
        flood.summary.overhead
    );
    // Push, like flooding: no request round trips. Coding waits for enough codewords, which at
    // this light load (a window of 50 spans 250 ms) costs a few times flooding's latency.
    assert!(
        s.latency_ms.mean < 8.0 * flood.summary.latency_ms.mean,
        "{:?} vs flood {:?}",
        s.latency_ms,
        flood.summary.latency_ms
    );
    assert_eq!(s.duplicates.copies_mean, 0.0, "no tx travels whole");
    assert!(
        counter(&coded, "strokkur.losses") > 0,
        "the controller's signal"
    );
    assert_eq!(counter(&coded, "strokkur.invalid_symbols"), 0);
}

#[test]
fn a_larger_window_waits_longer() {
    // `004` Fig. 6: a tx waits in a larger window longer before codewords pick it. (The
    // overhead side of the trade-off needs the paper's load; see scenarios/strokkur-250.json.)
    let prep = Prepared::new(scenario(&[
        (
            "k=10",
            "strokkur",
            config(serde_json::json!({ "window_symbols": 10 })),
        ),
        (
            "k=100",
            "strokkur",
            config(serde_json::json!({ "window_symbols": 100 })),
        ),
    ]))
    .unwrap();
    let (small, large) = (run(&prep, 0).summary, run(&prep, 1).summary);
    assert!(small.latency_ms.mean * 1.5 < large.latency_ms.mean);
    assert!(small.delivery.p5 > 0.9 && large.delivery.p5 > 0.9);
}

#[test]
fn silent_nodes_barely_move_latency() {
    // `004` Fig. 7: adversaries that send no codewords; Strokkur stays near its honest latency.
    let honest = report(strokkur()).summary;
    let attacked = report(making_up_for(0.3, Behaviour::WithholdOnRequest)).summary;
    assert!(attacked.delivery.p5 > 0.85, "{:?}", attacked.delivery);
    // At degree 8 (not the paper's 16) 30% silent peers leave some nodes few coding peers.
    assert!(
        attacked.latency_ms.mean < 1.5 * honest.latency_ms.mean,
        "{} vs {}",
        attacked.latency_ms.mean,
        honest.latency_ms.mean
    );
}

#[test]
fn honest_peers_raise_their_rates_to_make_up_for_silent_ones() {
    // `004` §4.2: "the other (honest) peers would compensate by increasing their rates".
    let load = |mut s: Scenario| {
        if let Workload::Poisson(p) = &mut s.workload {
            p.duration_ms = 20_000.0;
        }
        Prepared::new(s).unwrap()
    };
    let silent = Behaviour::WithholdOnRequest;
    let per_honest_node = |prep: &Prepared| {
        let r = run(prep, 0);
        let sent = &r.counters["strokkur.codewords_sent"].per_node;
        let nodes: Vec<usize> = (0..prep.net.nodes)
            .filter(|&v| prep.net.is_honest(v))
            .collect();
        nodes.iter().map(|&v| sent[v] as f64).sum::<f64>() / nodes.len() as f64
    };
    let fair = per_honest_node(&load(strokkur()));
    let raised = per_honest_node(&load(with_adversaries(strokkur(), 0.3, silent)));
    // Their rates to silent peers only fall (no losses come back), so the rise is in their
    // rates to honest peers (measured: 13% more codewords over 20 s).
    assert!(raised > 1.08 * fair, "{raised} vs {fair}");
}

#[test]
fn censored_txs_still_arrive() {
    // `004` Fig. 8: 30% of nodes leave half the txs out of their codewords.
    let censor = Behaviour::Censor { fraction: 0.5 };
    let prep = Prepared::new(with_adversaries(strokkur(), 0.3, censor.clone())).unwrap();
    let mut started = start_run(&prep, 0, &EngineOptions::default()).unwrap();
    started.run.run_until(u64::MAX);
    let done = started.run.finish();
    let net = &prep.net;
    let (mut got, mut lat_ms) = ([0u64; 2], [0f64; 2]);
    for (node, tx, t) in done.metrics.arrivals(&prep.plan) {
        if net.is_honest(node as usize) {
            let c = censor.censors(TxId(tx as u64)) as usize;
            got[c] += 1;
            lat_ms[c] += (t - prep.plan.created_us[tx as usize]) as f64 / 1000.0;
        }
    }
    let txs = |c: bool| {
        (0..prep.plan.count())
            .filter(|&i| censor.censors(TxId(i as u64)) == c)
            .count() as f64
    };
    let honest = (0..net.nodes).filter(|&v| net.is_honest(v)).count() as f64;
    let delivery = |c: usize| got[c] as f64 / (txs(c == 1) * (honest - 1.0));
    assert!(delivery(1) > 0.9, "censored {}", delivery(1));
    assert!(
        delivery(1) > delivery(0) - 0.1,
        "{} vs {}",
        delivery(1),
        delivery(0)
    );
    let latency = |c: usize| lat_ms[c] / got[c] as f64;
    assert!(
        latency(1) < 1.5 * latency(0),
        "{} vs {}",
        latency(1),
        latency(0)
    );
}

#[test]
fn corrupt_codewords_are_caught_and_cost_little() {
    let r = report(making_up_for(0.2, Behaviour::Corrupt));
    assert!(counter(&r, "strokkur.corrupt_codewords") > 0);
    assert_eq!(counter(&r, "strokkur.invalid_symbols"), 0);
    assert!(r.summary.delivery.p5 > 0.9, "{:?}", r.summary.delivery);
}

#[test]
fn lies_about_losses_are_bounded() {
    let honest = report(strokkur()).summary;
    let s = with_adversaries(strokkur(), 0.2, Behaviour::LieAboutLoss);
    let r = report(s);
    // Liars inflate what honest nodes send them, not what honest nodes download.
    assert!(
        r.summary.overhead.mean < 1.5 * honest.overhead.mean,
        "{} vs {}",
        r.summary.overhead.mean,
        honest.overhead.mean
    );
    let up = |s: &sim::metrics::Summary| s.bytes_up.payload.mean + s.bytes_up.control.mean;
    let (lied, fair) = (up(&r.summary), up(&honest));
    assert!(lied > fair, "the lies do raise rates");
    // ...but a sender believes no more losses than codewords it sent, and the rate to a peer
    // stays under a multiple of the sender's inflow.
    assert!(lied < 3.0 * fair, "{lied} vs {fair}");
}

/// `004` Fig. 9's setting at this scale: `NODES` honest nodes on a connected graph of degree 6
/// (a ring with chords) and one attacker node with zero-delay links to every one of them.
fn attacked_by_one(behaviour: Behaviour) -> Scenario {
    let mut s = strokkur();
    let honest = NODES;
    s.nodes = honest + 1;
    let mut edges = Vec::new();
    for v in 0..honest {
        for step in [1, 5, 13] {
            edges.push(ExplicitEdge {
                a: v,
                b: (v + step) % honest,
                latency_ms: None,
            });
        }
        edges.push(ExplicitEdge {
            a: v,
            b: honest,
            latency_ms: Some(0.0),
        });
    }
    s.topology = Topology::Explicit(Explicit { edges });
    s.adversaries = vec![AdversarySet {
        fraction: None,
        nodes: Some(vec![honest]),
        behaviour,
    }];
    s
}

#[test]
fn a_zero_latency_censor_linked_to_everyone_cannot_stop_txs() {
    // `004` Fig. 9: the attacker censors all.
    let r = report(attacked_by_one(Behaviour::Censor { fraction: 1.0 })).summary;
    assert!(r.delivery.p5 > 0.85, "{:?}", r.delivery);
}

#[test]
fn a_pushing_censor_hands_every_other_tx_to_every_node_as_it_is_created() {
    let push = Behaviour::PushCensor { fraction: 0.2 };
    let prep = Prepared::new(attacked_by_one(push.clone())).unwrap();
    let mut started = start_run(&prep, 0, &EngineOptions::default()).unwrap();
    started.run.run_until(u64::MAX);
    let done = started.run.finish();
    let plan = &prep.plan;
    let censored = |tx: u32| push.keeps_out(TxId(tx as u64));
    let (mut at_once, mut later) = ([0usize; 2], [0usize; 2]);
    for (node, tx, t) in done.metrics.arrivals(plan) {
        if node < NODES {
            let c = censored(tx) as usize;
            match t == plan.created_us[tx as usize] {
                true => at_once[c] += 1,
                false => later[c] += 1,
            }
        }
    }
    let kept = (0..plan.count() as u32).filter(|&i| !censored(i)).count();
    let left_out = plan.count() - kept;
    assert!(left_out > 20 && kept > 20, "{left_out} of {}", plan.count());
    // Every tx it does not censor reaches every honest node but the origin at its creation...
    assert_eq!((at_once[0], later[0]), (kept * (NODES as usize - 1), 0));
    // ...in one codeword of degree 1 per node, and the attacker sends nothing else.
    let sent = done.metrics.counter("strokkur.codewords_sent").unwrap();
    assert_eq!(sent[NODES as usize], (kept * NODES as usize) as u64);
    // The txs it censors travel only on honest codewords, which are slower.
    assert_eq!(at_once[1], 0);
    assert!(
        later[1] > left_out * (NODES as usize - 1) * 9 / 10,
        "{later:?}"
    );
}
