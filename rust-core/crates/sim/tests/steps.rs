//! The steps a run records for narration (`sim::step`) tell what the engine did: every send,
//! delivery and counter move of the trace is an action of some step, every kind of message is
//! described in the registry, and what a node knew of a tx is what its decision followed.

use serde_json::{json, Value};
use sim::engine::{EngineOptions, TraceEvent};
use sim::registry::{start_run, PROTOCOLS};
use sim::run::Prepared;
use sim::step::{Knew, Step, StepAction, StepInput};
use std::cell::RefCell;
use std::rc::Rc;

fn scenario(protocol: &str, config: Value, degree: u32) -> String {
    json!({
        "name": "steps", "seed": 5, "nodes": 16,
        "topology": { "kind": "random_regular", "degree": degree },
        "latency": { "kind": "lognormal", "median_ms": 40.0, "sigma": 0.4 },
        "workload": { "kind": "poisson", "total_tps": 8.0, "duration_ms": 1_500.0, "tx_bytes": 128 },
        "drain_ms": 3_000.0,
        "protocols": [{ "protocol": protocol, "config": config }]
    })
    .to_string()
}

/// The run's steps and its trace.
fn record(protocol: &str, config: Value, degree: u32) -> (Vec<Step>, Vec<TraceEvent>) {
    let text = scenario(protocol, config, degree);
    let prep = Prepared::new(sim::parse_scenario(&text).unwrap()).unwrap();
    let mut started = start_run(&prep, 0, &EngineOptions::default()).unwrap();
    let steps: Rc<RefCell<Vec<Step>>> = Default::default();
    let trace: Rc<RefCell<Vec<TraceEvent>>> = Default::default();
    let (s, t) = (Rc::clone(&steps), Rc::clone(&trace));
    started
        .run
        .set_steps(Box::new(move |step| s.borrow_mut().push(step.clone())));
    started
        .run
        .set_trace(Box::new(move |ev| t.borrow_mut().push(ev.clone())));
    started.run.run_until(u64::MAX);
    let out = (steps.borrow().clone(), trace.borrow().clone());
    out
}

fn sorted<T: Ord>(mut v: Vec<T>) -> Vec<T> {
    v.sort();
    v
}

#[test]
fn every_send_delivery_and_count_is_a_step_action_and_every_kind_is_described() {
    for p in PROTOCOLS {
        let config = match p.name {
            "strokkur" => json!({ "peel_window_symbols": 1024, "symbol_bytes": 128 }),
            _ => json!({}),
        };
        let (steps, trace) = record(p.name, config, 4);
        assert!(steps.len() > 50, "{}: {} steps", p.name, steps.len());
        let mut decided = Vec::new();
        let mut delivered = Vec::new();
        let mut counted = Vec::new();
        for step in &steps {
            for a in &step.actions {
                match *a {
                    StepAction::Send { to, kind, .. } => decided.push((step.node, to, kind)),
                    StepAction::Deliver { tx } => delivered.push((step.node, tx)),
                    StepAction::Count { name, n } => counted.push((step.node, name, n)),
                    _ => {}
                }
            }
        }
        let mut sent = Vec::new();
        let mut firsts = Vec::new();
        let mut counts = Vec::new();
        for ev in &trace {
            match *ev {
                TraceEvent::Send { from, to, kind, .. } => sent.push((from, to, kind)),
                TraceEvent::Deliver { node, tx, .. } => firsts.push((node, tx)),
                TraceEvent::Count { node, name, n, .. } => counts.push((node, name, n)),
                TraceEvent::Duplicate { .. } => {}
            }
        }
        assert_eq!(sorted(decided.clone()), sorted(sent), "{}: sends", p.name);
        assert_eq!(sorted(delivered), sorted(firsts), "{}: deliveries", p.name);
        assert_eq!(sorted(counted), sorted(counts), "{}: counts", p.name);
        for (_, _, kind) in decided {
            assert!(
                proto::registry::message(p.name, kind).is_some(),
                "{}: message kind `{kind}` is not described in the registry",
                p.name
            );
        }
    }
}

#[test]
fn messages_name_who_sent_them_and_their_tx() {
    let (steps, trace) = record("flood", json!({}), 4);
    let sends: Vec<(u32, u32)> = trace
        .iter()
        .filter_map(|ev| match *ev {
            TraceEvent::Send { from, to, .. } => Some((from, to)),
            _ => None,
        })
        .collect();
    let mut handled = 0;
    for step in &steps {
        if let StepInput::Message { from, kind, tx, .. } = step.input {
            assert_eq!(kind, "tx");
            assert!(tx.is_some());
            assert!(
                sends.contains(&(from, step.node)),
                "{from} -> {}",
                step.node
            );
            handled += 1;
        }
    }
    assert!(handled > 100);
}

/// CAT asks for a tx it has not seen, once: a SeenTx for a tx it already requested or holds
/// asks nothing, and the step says which it was.
#[test]
fn cat_decides_on_seen_tx_by_what_it_knew() {
    let (steps, _) = record("cat", json!({}), 4);
    let (mut asked, mut skipped) = (0, 0);
    for step in &steps {
        let StepInput::Message {
            from,
            kind: "SeenTx",
            ..
        } = step.input
        else {
            continue;
        };
        let wants: Vec<u32> = step
            .actions
            .iter()
            .filter_map(|a| match *a {
                StepAction::Send {
                    to, kind: "WantTx", ..
                } => Some(to),
                _ => None,
            })
            .collect();
        match step.knew {
            Some(Knew::Unknown) => {
                assert_eq!(wants, vec![from], "a first SeenTx is answered with WantTx");
                asked += 1;
            }
            Some(Knew::Have) | Some(Knew::Requested { .. }) => {
                assert!(wants.is_empty());
                skipped += 1;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert!(
        asked > 10 && skipped > 10,
        "{asked} asked, {skipped} skipped"
    );
}

/// GossipSub answers IHAVE with IWANT for the messages it has not seen: never for the IHAVE's
/// first id (its subject) when it had seen that one.
#[test]
fn gossipsub_answers_ihave_by_what_it_had_seen() {
    // More peers than a mesh holds, so that some get gossip.
    let (steps, _) = record("gossipsub", json!({ "version": "v1.1" }), 10);
    let (mut wanted, mut ignored) = (0, 0);
    for step in &steps {
        let StepInput::Message {
            from,
            kind: "ihave",
            tx,
            ..
        } = step.input
        else {
            continue;
        };
        let asked: Vec<Option<u64>> = step
            .actions
            .iter()
            .filter_map(|a| match *a {
                StepAction::Send {
                    to,
                    kind: "iwant",
                    tx,
                    ..
                } if to == from => Some(tx),
                _ => None,
            })
            .collect();
        let iwant = !asked.is_empty();
        match step.knew {
            Some(Knew::Have) => {
                assert!(!asked.contains(&tx), "asked again for {tx:?}");
                ignored += 1;
            }
            Some(Knew::Unknown) if iwant => wanted += 1,
            _ => {}
        }
    }
    assert!(
        wanted > 0 && ignored > 0,
        "{wanted} wanted, {ignored} ignored"
    );
}
