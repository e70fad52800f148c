//! A Strokkur node whose decoder is watched: the peeling view's steps account for every tx the
//! node delivered (its own as known symbols, the others released from codewords), name the
//! codewords' senders by node, and watching changes nothing the run does.

use proto::strokkur::PeelStep;
use serde_json::json;
use sim::engine::{EngineOptions, TraceEvent};
use sim::registry::start_run;
use sim::run::Prepared;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

fn scenario(protocol: &str) -> String {
    json!({
        "name": "peeling", "seed": 2, "nodes": 10,
        "topology": { "kind": "random_regular", "degree": 3 },
        "workload": { "kind": "poisson", "total_tps": 20.0, "duration_ms": 600.0, "tx_bytes": 128 },
        "drain_ms": 2_000.0,
        "protocols": [{ "protocol": protocol, "config": if protocol == "strokkur" {
            json!({ "symbol_bytes": 128, "window_symbols": 8, "initial_rate_per_s": 30 })
        } else { json!({}) } }]
    })
    .to_string()
}

#[test]
fn a_watched_decoder_accounts_for_every_tx_its_node_delivered() {
    let prep = Prepared::new(sim::parse_scenario(&scenario("strokkur")).unwrap()).unwrap();
    let plain = {
        let mut s = start_run(&prep, 0, &EngineOptions::default()).unwrap();
        s.run.run_until(u64::MAX);
        s.report(&prep, 0.0)
    };
    let mut started = start_run(&prep, 0, &EngineOptions::default()).unwrap();
    let node = 4;
    let delivered: Rc<RefCell<BTreeSet<u64>>> = Default::default();
    let sink = Rc::clone(&delivered);
    started.run.set_trace(Box::new(move |ev| {
        if let TraceEvent::Deliver { node: 4, tx, .. } = *ev {
            sink.borrow_mut().insert(tx);
        }
    }));
    assert!(started.run.watch_decoder(node));
    assert!(started.run.peeling(3).is_none(), "only the watched node");
    started.run.run_until(u64::MAX);
    let view = started.run.peeling(node).unwrap();
    let neighbours: BTreeSet<u32> = prep
        .net
        .edges_of(node)
        .map(|e| prep.net.edges[e].peer)
        .collect();
    let mut named: BTreeSet<u64> = BTreeSet::new();
    let (mut arrived, mut released) = (0, 0);
    for step in &view.steps {
        match *step {
            PeelStep::Arrived { sender, .. } => {
                assert!(neighbours.contains(&view.senders[sender as usize]));
                arrived += 1;
            }
            PeelStep::Released { seq, .. } | PeelStep::Known { seq } => {
                released += matches!(step, PeelStep::Released { .. }) as usize;
                if let Some(&tx) = view.txs.get(&seq) {
                    named.insert(tx);
                }
            }
            _ => {}
        }
    }
    assert!(
        arrived > 20 && released > 5,
        "{arrived} arrived, {released} released"
    );
    // Every tx the node delivered is a symbol of the view: its own known, the others released.
    assert_eq!(named, *delivered.borrow());
    let report = started.report(&prep, 0.0);
    assert_eq!(report.digest, plain.digest, "watching changes nothing");
}

#[test]
fn only_strokkur_decoders_can_be_watched() {
    let prep = Prepared::new(sim::parse_scenario(&scenario("flood")).unwrap()).unwrap();
    let mut started = start_run(&prep, 0, &EngineOptions::default()).unwrap();
    assert!(!started.run.watch_decoder(0));
    assert!(started.run.peeling(0).is_none());
}
