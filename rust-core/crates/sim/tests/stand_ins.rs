//! Strokkur peels stand-ins for transaction bytes where no adversary corrupts payloads
//! (`NodeSetup::stand_ins`, `ltcode::form`). That must change nothing but the work: each run
//! here is made twice, on stand-ins and on real bytes (`EngineOptions::real_payloads`), and
//! the two must agree to the digest of the event log, the counters and the summary.

use proto::Behaviour;
use sim::engine::EngineOptions;
use sim::registry::start_run;
use sim::run::Prepared;
use sim::scenario::*;
use sim::RunReport;

fn scenario(workload: Poisson, adversaries: Vec<AdversarySet>) -> Scenario {
    Scenario {
        name: "stand-ins against bytes".into(),
        description: String::new(),
        seed: 11,
        nodes: 40,
        topology: Topology::RandomRegular(RandomRegular { degree: 8 }),
        latency: Latency::Lognormal(LognormalLatency {
            median_ms: 70.0,
            sigma: 0.5,
        }),
        bandwidth: Bandwidth::default(),
        // Lost codewords and reordering exercise timeouts and loss reports.
        links: LinkOptions {
            loss: 0.01,
            jitter_ms: 5.0,
            ..LinkOptions::default()
        },
        processing_delay_ms: 0.0,
        workload: Workload::Poisson(workload),
        adversaries,
        events: Vec::new(),
        drain_ms: 1_000.0,
        protocols: vec![ProtocolSpec {
            // A peeling window a few hundred symbols long: symbols leave it, and the short-ID
            // tables sweep them out, many times over.
            config: serde_json::json!({ "initial_rate_per_s": 40.0, "peel_window_symbols": 300 }),
            ..ProtocolSpec::named("strokkur")
        }],
    }
}

fn load(tx_bytes: u32, tx_size: Option<TxSize>) -> Poisson {
    Poisson {
        total_tps: 200.0,
        duration_ms: 1_500.0,
        max_txs: None,
        tx_bytes,
        tx_size,
        rate_steps: Vec::new(),
    }
}

fn some(fraction: f64, behaviour: Behaviour) -> Vec<AdversarySet> {
    vec![AdversarySet {
        fraction: Some(fraction),
        nodes: None,
        behaviour,
    }]
}

fn run(s: &Scenario, real_payloads: bool) -> RunReport {
    let prep = Prepared::new(s.clone()).unwrap();
    let options = EngineOptions {
        real_payloads,
        ..EngineOptions::default()
    };
    let mut started = start_run(&prep, 0, &options).unwrap();
    started.run.run_until(u64::MAX);
    started.report(&prep, 0.0)
}

fn assert_same(s: Scenario) {
    let (stand_ins, bytes) = (run(&s, false), run(&s, true));
    assert_eq!(stand_ins.digest, bytes.digest, "{}", s.name);
    assert_eq!(stand_ins.events, bytes.events);
    assert_eq!(stand_ins.counters, bytes.counters);
    assert_eq!(stand_ins.summary, bytes.summary);
    // Not a vacuous run: txs went round and codewords went unanswered.
    assert!(
        stand_ins.summary.delivery.mean > 0.5,
        "{:?}",
        stand_ins.summary.delivery
    );
    let losses = stand_ins
        .counters
        .get("strokkur.losses")
        .map_or(0, |c| c.total);
    assert!(losses > 0);
}

#[test]
fn honest_nodes_peel_stand_ins_as_they_peel_bytes() {
    assert_same(scenario(load(128, None), Vec::new()));
}

#[test]
fn adversaries_that_leave_payloads_alone_change_nothing_either() {
    for behaviour in [
        Behaviour::Silent,
        Behaviour::WithholdOnRequest,
        Behaviour::Censor { fraction: 0.5 },
        Behaviour::LieAboutLoss,
        Behaviour::PushCensor { fraction: 0.5 },
    ] {
        assert_same(scenario(load(128, None), some(0.2, behaviour)));
    }
}

#[test]
fn links_that_go_down_and_come_back_change_nothing() {
    // Churn: peers leave (the decoder forgets them and their codewords) and come back under
    // new keys with symbols already known (a stand-in decoder's one table serves them at once).
    let mut s = scenario(load(128, None), Vec::new());
    s.events = vec![sim::events::TimedEvent::Churn(sim::events::Churn {
        at_ms: 200.0,
        nodes: None,
        fraction: Some(0.3),
        region: None,
        until_ms: 1_300.0,
        mean_up_ms: 300.0,
        mean_down_ms: 100.0,
    })];
    assert_same(s.clone());
    let churned = run(&s, false).digest;
    s.events.clear();
    assert_ne!(churned, run(&s, false).digest, "the churn changed the run");
}

#[test]
fn fragmented_txs_reassemble_the_same_from_stand_ins() {
    // 40 to 600 bytes: one to seven 93-byte fragments, 3.5 on average, so a quarter the txs
    // make about the same symbols per second.
    let sizes = TxSize::Uniform(UniformSize { max_bytes: 600 });
    let workload = Poisson {
        total_tps: 60.0,
        ..load(40, Some(sizes))
    };
    assert_same(scenario(workload, Vec::new()));
}

#[test]
fn corrupt_adversaries_keep_real_bytes() {
    // With a node that corrupts payloads there is nothing to swap in: both runs carry bytes.
    let s = scenario(load(128, None), some(0.1, Behaviour::Corrupt));
    assert_bytes_carried_and_corrupted(&s);
}

#[test]
fn a_timed_switch_to_corrupt_keeps_real_bytes_too() {
    // Honest at the start, a tenth of the nodes corrupt from 500 ms: the engine must carry
    // bytes from the start. (A corrupt node overwrites a codeword's payload with draws from
    // its stream, so stand-ins would draw fewer and the digests would part.)
    let mut s = scenario(load(128, None), Vec::new());
    s.events = vec![sim::events::TimedEvent::Behaviour(
        sim::events::BehaviourChange {
            at_ms: 500.0,
            nodes: None,
            fraction: Some(0.1),
            region: None,
            behaviour: Behaviour::Corrupt,
        },
    )];
    assert_bytes_carried_and_corrupted(&s);
}

/// The run is the same whether or not real bytes are asked for (so it carried them anyway),
/// and corrupt codewords were seen.
fn assert_bytes_carried_and_corrupted(s: &Scenario) {
    let r = run(s, false);
    assert_eq!(r.digest, run(s, true).digest);
    assert!(
        r.counters
            .get("strokkur.corrupt_codewords")
            .map_or(0, |c| c.total)
            > 0
    );
}
