//! Timed events, per kind and per protocol: what each change does to the network, that every
//! protocol recovers when nodes come back or a partition heals, that what happened before a
//! change is the same with or without it (the page relies on it), and that bad events are
//! refused with their JSON path.

use serde_json::{json, Value};
use sim::engine::{EngineOptions, TraceEvent};
use sim::registry::start_run;
use sim::run::{Prepared, RunReport};
use sim::timeline::What;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

const NODES: usize = 60;
/// The load runs from 0 to 6 s; events fall inside it.
const LOAD_MS: f64 = 6000.0;

/// Every protocol. The load (60 txs of 128 bytes per second, one Strokkur symbol each) is
/// one Strokkur is made for: at a trickle its windows hold txs too few to decode them quickly.
fn protocols() -> Vec<(&'static str, Value)> {
    vec![
        ("flood", json!({})),
        ("push", json!({})),
        (
            "inv",
            json!({ "trickle": { "kind": "uniform_jitter", "max_ms": 100.0 } }),
        ),
        ("shrec", json!({})),
        ("cat", json!({})),
        ("cat2", json!({})),
        ("gossipsub", json!({})),
        ("strokkur", json!({})),
    ]
}

fn scenario(protocol: &str, config: &Value, events: Value) -> Value {
    json!({
        "name": "events check", "seed": 9, "nodes": NODES,
        "topology": { "kind": "random_regular", "degree": 6 },
        "latency": { "kind": "lognormal", "median_ms": 50.0, "sigma": 0.4 },
        "workload": { "kind": "poisson", "total_tps": 60.0, "duration_ms": LOAD_MS, "tx_bytes": 128 },
        "drain_ms": 3000.0,
        "events": events,
        "protocols": [{ "protocol": protocol, "config": config }]
    })
}

/// A finished run: its report, every trace event, the changes and the txs' creation.
struct Run {
    report: RunReport,
    trace: Vec<TraceEvent>,
    changes: Vec<(u64, What)>,
    created_us: Vec<u64>,
    origin: Vec<u32>,
}

fn run(s: &Value) -> Run {
    let prep = Prepared::new(sim::parse_scenario(&s.to_string()).unwrap()).unwrap();
    let mut started = start_run(&prep, 0, &EngineOptions::default()).unwrap();
    let trace: Rc<RefCell<Vec<TraceEvent>>> = Default::default();
    let sink = Rc::clone(&trace);
    started
        .run
        .set_trace(Box::new(move |e| sink.borrow_mut().push(e.clone())));
    let changes = started.net.timeline.changes.iter();
    let changes = changes.map(|c| (c.at_us, c.what.clone())).collect();
    let (created_us, origin) = (started.plan.created_us.clone(), started.plan.origin.clone());
    started.run.run_until(u64::MAX);
    let report = started.report(&prep, 0.0);
    let trace = trace.take();
    Run {
        report,
        trace,
        changes,
        created_us,
        origin,
    }
}

impl Run {
    /// The nodes of the first change of this kind, and its time.
    fn group(&self, pick: fn(&What) -> Option<&Vec<u32>>) -> (u64, BTreeSet<u32>) {
        let (t, nodes) = self
            .changes
            .iter()
            .find_map(|(t, w)| pick(w).map(|n| (*t, n)))
            .expect("the change is in the timeline");
        (t, nodes.iter().copied().collect())
    }

    /// Per tx, the nodes it reached (its origin included).
    fn reached(&self) -> Vec<BTreeSet<u32>> {
        let mut out = vec![BTreeSet::new(); self.created_us.len()];
        for e in &self.trace {
            if let TraceEvent::Deliver { node, tx, .. } = *e {
                out[tx as usize].insert(node);
            }
        }
        out
    }

    /// The mean share of `among` (less the origin) that txs created in [from, to) reached.
    fn reach(&self, from_us: u64, to_us: u64, among: &BTreeSet<u32>) -> f64 {
        let reached = self.reached();
        let shares: Vec<f64> = (0..self.created_us.len())
            .filter(|&k| (from_us..to_us).contains(&self.created_us[k]))
            .map(|k| {
                let targets: Vec<&u32> = among.iter().filter(|&&v| v != self.origin[k]).collect();
                let got = targets.iter().filter(|v| reached[k].contains(v)).count();
                got as f64 / targets.len().max(1) as f64
            })
            .collect();
        assert!(!shares.is_empty(), "txs were created in {from_us}..{to_us}");
        shares.iter().sum::<f64>() / shares.len() as f64
    }
}

fn all_nodes() -> BTreeSet<u32> {
    (0..NODES as u32).collect()
}

/// Push reaches fewer nodes than the others in any case: after a change it must do as well as
/// before it; the others must reach (almost) every node again.
fn recovered(label: &str, after: f64, before: f64) {
    let floor = if label == "push" { before - 0.05 } else { 0.99 };
    assert!(
        after >= floor,
        "{label}: reach {after:.3} after, {before:.3} before"
    );
}

#[test]
fn a_partition_cuts_every_link_across_and_a_heal_restores_spreading() {
    for (protocol, config) in protocols() {
        let events = json!([
            { "at_ms": 2000, "kind": "partition", "fraction": 0.5 },
            { "at_ms": 3500, "kind": "heal" }
        ]);
        let r = run(&scenario(protocol, &config, events));
        let (cut_us, group) = r.group(|w| match w {
            What::Partition(g) => Some(g),
            _ => None,
        });
        let heal_us = 3_500_000;
        assert_eq!((cut_us, group.len()), (2_000_000, NODES / 2));
        let side = |v: u32| group.contains(&v);
        // While cut, nothing crosses: no message, and no tx created then on the other side.
        for e in &r.trace {
            match *e {
                TraceEvent::Send { t_us, from, to, .. } if t_us > cut_us && t_us < heal_us => {
                    assert_eq!(side(from), side(to), "{protocol}: a send across at {t_us}")
                }
                TraceEvent::Deliver { t_us, node, tx } if t_us < heal_us => {
                    let k = tx as usize;
                    if r.created_us[k] > cut_us {
                        assert_eq!(side(node), side(r.origin[k]), "{protocol}: tx {tx} crossed");
                    }
                }
                _ => {}
            }
        }
        let before = r.reach(0, cut_us - 500_000, &all_nodes());
        let after = r.reach(heal_us + 1_000_000, 6_000_000, &all_nodes());
        recovered(protocol, after, before);
        let heal = r.report.phases.iter().find(|p| p.after == "heal").unwrap();
        let recovery = heal.recovery_ms.expect("a heal phase reports its recovery");
        assert!(recovery.is_finite(), "{protocol}: recovered after the heal");
    }
}

#[test]
fn nodes_that_leave_hear_nothing_the_rest_repair_and_they_catch_up_when_they_join() {
    for (protocol, config) in protocols() {
        let events = json!([
            { "at_ms": 2000, "kind": "leave", "fraction": 0.25 },
            { "at_ms": 3500, "kind": "join" }
        ]);
        let r = run(&scenario(protocol, &config, events));
        let (leave_us, gone) = r.group(|w| match w {
            What::Leave(g) => Some(g),
            _ => None,
        });
        let (join_us, back) = r.group(|w| match w {
            What::Join(g) => Some(g),
            _ => None,
        });
        assert_eq!(gone, back, "{protocol}: all that left come back");
        assert_eq!(gone.len(), 15);
        let away = |v: u32, t: u64| gone.contains(&v) && t > leave_us && t < join_us;
        for e in &r.trace {
            match *e {
                TraceEvent::Send { t_us, from, to, .. } => {
                    assert!(
                        !away(from, t_us) && !away(to, t_us),
                        "{protocol}: send at {t_us}"
                    )
                }
                TraceEvent::Deliver { t_us, node, .. } => {
                    assert!(
                        !away(node, t_us),
                        "{protocol}: node {node} got a tx at {t_us}"
                    )
                }
                _ => {}
            }
        }
        let present: BTreeSet<u32> = all_nodes().difference(&gone).copied().collect();
        let before = r.reach(0, leave_us - 500_000, &all_nodes());
        // The rest repair around the gap (GossipSub grafts new mesh peers, CAT and INV ask
        // other announcers, Strokkur codes over the links left).
        let during = r.reach(leave_us + 500_000, join_us - 500_000, &present);
        recovered(protocol, during, before);
        // Back: new txs reach them again (GossipSub grafts them in, Strokkur re-keys).
        let after = r.reach(join_us + 1_500_000, 6_000_000, &gone);
        recovered(protocol, after, before);
        let join = r.report.phases.iter().find(|p| p.after == "join").unwrap();
        assert!(join.recovery_ms.is_some_and(f64::is_finite), "{protocol}");
    }
}

#[test]
fn churned_nodes_hear_nothing_while_down_and_all_are_back_at_the_end() {
    for (protocol, config) in protocols() {
        let events = json!([{
            "at_ms": 500, "kind": "churn", "until_ms": 4000, "fraction": 0.2,
            "mean_up_ms": 800, "mean_down_ms": 400
        }]);
        let r = run(&scenario(protocol, &config, events));
        // Each node's down intervals, from the unrolled leaves and joins.
        let mut down: Vec<Vec<(u64, u64)>> = vec![Vec::new(); NODES];
        let mut since = vec![None; NODES];
        for (t, w) in &r.changes {
            match w {
                What::Leave(g) => g.iter().for_each(|&v| since[v as usize] = Some(*t)),
                What::Join(g) => g
                    .iter()
                    .for_each(|&v| down[v as usize].push((since[v as usize].take().unwrap(), *t))),
                other => panic!("churn made {other:?}"),
            }
        }
        assert!(since.iter().all(Option::is_none), "all back at until_ms");
        let churned = down.iter().filter(|d| !d.is_empty()).count();
        assert!(
            (8..=12).contains(&churned),
            "{churned} of 12 churned nodes went down"
        );
        assert!(r.changes.iter().all(|(t, _)| *t <= 4_000_000));
        for e in &r.trace {
            if let TraceEvent::Deliver { t_us, node, .. } = *e {
                let intervals = &down[node as usize];
                let is_down = intervals.iter().any(|&(a, b)| t_us > a && t_us < b);
                assert!(
                    !is_down,
                    "{protocol}: node {node} got a tx at {t_us} while down"
                );
            }
        }
        let before = r.reach(0, 400_000, &all_nodes());
        let after = r.reach(5_000_000, 6_000_000, &all_nodes());
        recovered(protocol, after, before);
    }
}

#[test]
fn nodes_made_silent_send_no_payload_until_they_are_made_honest_again() {
    for (protocol, config) in protocols() {
        let events = json!([
            { "at_ms": 2000, "kind": "behaviour", "fraction": 0.3, "behaviour": { "kind": "silent" } },
            { "at_ms": 3500, "kind": "behaviour", "behaviour": { "kind": "honest" } }
        ]);
        let r = run(&scenario(protocol, &config, events));
        let (from_us, silent) = r.group(|w| match w {
            What::Behaviour { nodes, behaviour } if !behaviour.is_honest() => Some(nodes),
            _ => None,
        });
        let (to_us, honest) = r.group(|w| match w {
            What::Behaviour { nodes, behaviour } if behaviour.is_honest() => Some(nodes),
            _ => None,
        });
        assert_eq!(silent.len(), 18);
        assert_eq!(silent, honest, "{protocol}: the attack ends for all");
        let payload_from = |lo: u64, hi: u64| {
            r.trace
                .iter()
                .filter(|e| {
                    matches!(e, TraceEvent::Send { t_us, from, payload, .. }
                        if *t_us > lo && *t_us < hi && *payload > 0 && silent.contains(from))
                })
                .count()
        };
        assert_eq!(payload_from(from_us, to_us), 0, "{protocol}");
        assert!(
            payload_from(0, from_us) > 0,
            "{protocol}: they did send before"
        );
        assert!(
            payload_from(to_us, u64::MAX) > 0,
            "{protocol}: and do again after"
        );
        // The report measures the nodes honest throughout.
        assert!(r.report.summary.delivery.mean > 0.5, "{protocol}");
    }
}

#[test]
fn loss_and_load_change_from_their_time_on() {
    let events = json!([
        { "at_ms": 2000, "kind": "loss", "loss": 0.3 },
        { "at_ms": 3000, "kind": "load", "total_tps": 180.0 }
    ]);
    let r = run(&scenario("flood", &json!({}), events));
    let lost_share = |lo: u64, hi: u64| {
        let sends = r.trace.iter().filter_map(|e| match e {
            TraceEvent::Send { t_us, lost, .. } if *t_us >= lo && *t_us < hi => Some(*lost),
            _ => None,
        });
        let (n, lost) = sends.fold((0, 0), |(n, l), x| (n + 1, l + x as u32));
        lost as f64 / n as f64
    };
    assert_eq!(lost_share(0, 2_000_000), 0.0);
    let share = lost_share(2_000_001, u64::MAX);
    assert!((0.27..0.33).contains(&share), "{share}");
    let created = |lo: u64, hi: u64| r.created_us.iter().filter(|&&t| t >= lo && t < hi).count();
    // 60 tps for 3 s, then 180 tps for 3 s (Poisson: well within these bounds).
    let (slow, fast) = (created(0, 3_000_000), created(3_000_000, 6_000_000));
    assert!((130..=230).contains(&slow), "{slow}");
    assert!((440..=640).contains(&fast), "{fast}");
}

/// What happened before a change is the same with the change or without it, event for event:
/// the page appends a user's change to the scenario and keeps what it showed up to then.
#[test]
fn a_change_leaves_everything_before_it_as_it_was() {
    for (protocol, config) in protocols() {
        let earlier = json!([
            { "at_ms": 1000, "kind": "leave", "nodes": [4, 5] },
            { "at_ms": 4000, "kind": "join" }
        ]);
        let mut later = earlier.clone();
        // Inserted between the two, in time order, as the page does.
        let added = json!({ "at_ms": 2500, "kind": "partition", "fraction": 0.4 });
        later.as_array_mut().unwrap().insert(1, added);
        let a = run(&scenario(protocol, &config, earlier));
        let b = run(&scenario(protocol, &config, later));
        let t = |e: &TraceEvent| match *e {
            TraceEvent::Send { t_us, .. }
            | TraceEvent::Deliver { t_us, .. }
            | TraceEvent::Duplicate { t_us, .. }
            | TraceEvent::Count { t_us, .. } => t_us,
        };
        let before = |r: &Run| -> Vec<TraceEvent> {
            r.trace
                .iter()
                .filter(|e| t(e) < 2_500_000)
                .cloned()
                .collect()
        };
        assert!(before(&a).len() > 100);
        assert_eq!(before(&a), before(&b), "{protocol}");
        assert_ne!(a.report.digest, b.report.digest, "{protocol}");
        let created_before = |r: &Run| r.created_us.iter().filter(|&&c| c < 2_500_000).count();
        assert_eq!(created_before(&a), created_before(&b));
    }
}

#[test]
fn the_same_events_and_seed_give_the_same_digest() {
    let events = json!([
        { "at_ms": 0, "kind": "churn", "until_ms": 3000, "fraction": 0.2, "mean_up_ms": 600, "mean_down_ms": 300 },
        { "at_ms": 1000, "kind": "behaviour", "fraction": 0.1, "behaviour": { "kind": "withhold_on_request" } },
        { "at_ms": 2000, "kind": "partition", "fraction": 0.3 },
        { "at_ms": 3000, "kind": "heal" }
    ]);
    let s = scenario("cat", &json!({}), events);
    let (a, b) = (run(&s), run(&s));
    assert_eq!(a.report.digest, b.report.digest);
    let json = |r: &Run| serde_json::to_string(&r.report.phases).unwrap();
    assert_eq!(json(&a), json(&b));
    let mut other = s.clone();
    other["seed"] = json!(10);
    assert_ne!(run(&other).report.digest, a.report.digest);
}

#[test]
fn a_run_may_bring_its_own_events() {
    let mut s = scenario("flood", &json!({}), json!([]));
    s["protocols"] = json!([
        { "label": "calm", "protocol": "flood" },
        { "label": "cut", "protocol": "flood", "events": [
            { "at_ms": 1000, "kind": "partition", "fraction": 0.5 },
            { "at_ms": 5000, "kind": "heal" }
        ] }
    ]);
    let prep = Prepared::new(sim::parse_scenario(&s.to_string()).unwrap()).unwrap();
    let report = |i| {
        let mut started = start_run(&prep, i, &EngineOptions::default()).unwrap();
        started.run.run_until(u64::MAX);
        started.report(&prep, 0.0)
    };
    let (calm, cut) = (report(0), report(1));
    assert!(calm.phases.is_empty());
    assert_eq!(cut.phases.len(), 3);
    assert!(cut.summary.delivery.mean < calm.summary.delivery.mean - 0.2);
}

/// A region picks the nodes placed in its cities: cutting off a continent cuts exactly them.
#[test]
fn a_continent_is_cut_off_by_region() {
    let mut s = scenario(
        "flood",
        &json!({}),
        json!([
            { "at_ms": 1000, "kind": "partition", "region": { "continent": "europe" } },
            { "at_ms": 3000, "kind": "heal" }
        ]),
    );
    s["latency"] = json!({ "kind": "geographic" });
    let prep = Prepared::new(sim::parse_scenario(&s.to_string()).unwrap()).unwrap();
    let cities = prep.net.city.as_ref().unwrap();
    let european: Vec<u32> = (0..NODES as u32)
        .filter(|&v| {
            sim::cities::CITIES[cities[v as usize]].continent == sim::events::Continent::Europe
        })
        .collect();
    assert!(!european.is_empty());
    let cut = prep
        .net
        .timeline
        .changes
        .iter()
        .find_map(|c| match &c.what {
            What::Partition(g) => Some(g.clone()),
            _ => None,
        });
    assert_eq!(cut, Some(european));
}

fn refused(events: Value) -> String {
    let mut s = scenario("flood", &json!({}), events);
    if s["events"].to_string().contains("region") {
        s["latency"] = json!({ "kind": "lognormal", "median_ms": 50.0, "sigma": 0.4 });
    }
    let text = s.to_string();
    let parsed = sim::parse_scenario(&text);
    let error = match parsed {
        Err(e) => e,
        Ok(scenario) => Prepared::new(scenario).err().expect("refused"),
    };
    error.to_string()
}

#[test]
fn bad_events_are_refused_with_their_json_path() {
    let cases = [
        (
            json!([{ "at_ms": 3000, "kind": "heal" }]),
            "at `events[0]`: a heal with no partition",
        ),
        (
            json!([{ "at_ms": 3000, "kind": "leave", "fraction": 0.1 }, { "at_ms": 1000, "kind": "join" }]),
            "at `events[1].at_ms`: 1000 ms comes before",
        ),
        (
            json!([{ "at_ms": 9001, "kind": "leave", "fraction": 0.1 }]),
            "at `events[0].at_ms`: 9001 ms is past the end of the run (9000 ms)",
        ),
        (
            json!([{ "at_ms": 10, "kind": "leave", "nodes": [3, 60] }]),
            "at `events[0].nodes`: node 60 out of range",
        ),
        (
            json!([{ "at_ms": 10, "kind": "join", "nodes": [3] }]),
            "at `events[0].nodes`: node 3 has not left",
        ),
        (
            json!([{ "at_ms": 10, "kind": "join" }]),
            "at `events[0]`: no node that left",
        ),
        (
            json!([{ "at_ms": 10, "kind": "leave", "nodes": [3] }, { "at_ms": 20, "kind": "leave", "nodes": [3] }]),
            "at `events[1].nodes`: node 3 has left already",
        ),
        (
            json!([{ "at_ms": 10, "kind": "partition", "region": { "continent": "asia" } }]),
            "at `events[0].region`: a region needs geographic latency",
        ),
        (
            json!([{ "at_ms": 10, "kind": "leave" }]),
            "at `events[0]`: pick nodes",
        ),
        (
            json!([{ "at_ms": 10, "kind": "partition", "fraction": 1.0 }]),
            "it must hold some, not all",
        ),
        (
            json!([{ "at_ms": 10, "kind": "load", "total_tps": 1e6 }]),
            "the limit is",
        ),
        (
            json!([{ "at_ms": 10, "kind": "churn", "until_ms": 5, "fraction": 0.1, "mean_up_ms": 1, "mean_down_ms": 1 }]),
            "at `events[0].until_ms`: must be after at_ms",
        ),
        (
            json!([{ "at_ms": 10, "kind": "teleport" }]),
            "at `events[0]`: unknown variant `teleport`",
        ),
        (
            json!([{ "at_ms": 10, "kind": "loss", "loss": 2 }]),
            "at `events[0].loss`: 2 is outside [0, 0.99]",
        ),
    ];
    for (events, want) in cases {
        let got = refused(events.clone());
        assert!(got.contains(want), "{events}: {got}");
    }
    // A city that is not in the table, under geographic latency.
    let mut s = scenario(
        "flood",
        &json!({}),
        json!([{ "at_ms": 10, "kind": "leave", "region": { "cities": ["Atlantis"] } }]),
    );
    s["latency"] = json!({ "kind": "geographic" });
    let e = sim::parse_scenario(&s.to_string()).unwrap_err().to_string();
    assert!(
        e.contains("at `events[0].region.cities[0]`: `Atlantis`"),
        "{e}"
    );
}

/// Events that would take much memory or time are refused before the run starts.
#[test]
fn events_too_many_or_too_fast_are_refused() {
    let churn = json!([{ "at_ms": 0, "kind": "churn", "until_ms": 9000, "fraction": 1.0, "mean_up_ms": 1, "mean_down_ms": 1 }]);
    assert!(refused(churn).contains("at `events[0]`: about 540000 leaves and joins"));
    // Every node switched a thousand times over.
    let mut s = scenario("flood", &json!({}), json!([]));
    s["nodes"] = json!(2000);
    let flips: Vec<Value> = (0..1001)
        .map(|i| {
            let kind = if i % 2 == 0 { "silent" } else { "honest" };
            json!({ "at_ms": i, "kind": "behaviour", "behaviour": { "kind": kind } })
        })
        .collect();
    s["events"] = json!(flips);
    let scenario = sim::parse_scenario(&s.to_string()).unwrap();
    let e = Prepared::new(scenario).err().expect("refused").to_string();
    assert!(
        e.contains("at `events[1000]`: the events change nodes more than 2000000 times"),
        "{e}"
    );
}

/// A behaviour a protocol does not interpret leaves its nodes honest: the run is the honest
/// run, event for event. One it interprets changes the run.
#[test]
fn each_protocol_interprets_the_behaviours_it_lists_and_no_other() {
    let digest = |protocol: &str, config: &Value, behaviour: Value| {
        let mut s = scenario(protocol, config, json!([]));
        s["workload"] = json!({ "kind": "burst", "publisher": 0, "count": 20, "tx_bytes": 128, "interval_ms": 50.0 });
        s["adversaries"] =
            json!([{ "nodes": [3, 8, 13, 21, 34, 40, 47, 55], "behaviour": behaviour }]);
        run(&s).report.digest
    };
    let samples = [
        json!({ "kind": "silent" }),
        json!({ "kind": "withhold_on_request" }),
        json!({ "kind": "censor", "fraction": 0.5 }),
        json!({ "kind": "corrupt" }),
        json!({ "kind": "delay_replies", "delay_ms": 300.0 }),
        json!({ "kind": "spam" }),
        json!({ "kind": "lie_about_loss" }),
        json!({ "kind": "push_censor", "fraction": 0.5 }),
    ];
    for (protocol, config) in protocols() {
        let info = proto::registry::info(protocol).unwrap();
        let honest = digest(protocol, &config, json!({ "kind": "honest" }));
        for b in &samples {
            let behaviour: proto::Behaviour = serde_json::from_value(b.clone()).unwrap();
            let same = digest(protocol, &config, b.clone()) == honest;
            assert_eq!(same, !info.interprets(&behaviour), "{protocol}: {b}");
        }
    }
}
