//! Tests that drive GossipSub instances directly: single-node checks of each rule, and a
//! tiny network harness (fixed per-link latency, no bandwidth) of live nodes, in which every
//! entry is batched into RPC bytes and decoded again on arrival, so the router and the live
//! codec are tested together.

use super::*;
use crate::testnet::{HostCall, TestNet, Wire};
use crate::{
    Action, Behaviour, Content, Ctx, Input, NodeSetup, PeerIdx, Protocol, Rng, Time, TimerTable,
    Tx, TxId, WireMsg,
};

type Act = Action<Rpc, GossipsubTimer>;

const T0: TopicId = TopicId(0);

/// A message on the first topic as the simulator sends it: judged valid or not in-band.
fn publish(tx: Tx, valid: bool) -> Rpc {
    let check = if valid { Check::Valid } else { Check::Invalid };
    Rpc::Publish(Message {
        tx,
        topic: T0,
        envelope: 0,
        check,
    })
}

fn ms(v: u64) -> Time {
    Time(v * 1_000)
}

// ---------------------------------------------------------------- one node

/// One instance driven by hand.
struct Solo {
    node: Gossipsub,
    rng: Rng,
    timers: TimerTable,
    now: Time,
}

impl Solo {
    fn new(config: GossipsubConfig, behaviour: Behaviour) -> Solo {
        let setup = NodeSetup {
            behaviour,
            ..NodeSetup::default()
        };
        Solo {
            node: Gossipsub::new(&config, &setup),
            rng: Rng::from_seed(3),
            timers: TimerTable::default(),
            now: Time::ZERO,
        }
    }
    fn input(&mut self, at: Time, input: Input<Rpc, GossipsubTimer>) -> Vec<Act> {
        self.now = at;
        let mut out = Vec::new();
        let mut cx = Ctx::new(at, &mut self.rng, &mut self.timers, &mut out);
        self.node.handle(input, &mut cx);
        out
    }
    /// Runs a host call (a verdict, a peer's version) like an input.
    fn call(
        &mut self,
        at: Time,
        f: impl FnOnce(&mut Gossipsub, &mut Ctx<'_, Gossipsub>),
    ) -> Vec<Act> {
        self.now = at;
        let mut out = Vec::new();
        let mut cx = Ctx::new(at, &mut self.rng, &mut self.timers, &mut out);
        f(&mut self.node, &mut cx);
        out
    }
    fn msg(&mut self, at: Time, from: u32, rpc: Rpc) -> Vec<Act> {
        self.input(at, Input::Message(PeerIdx(from), rpc))
    }
    /// Connects peer `p`, which then subscribes to `T0`.
    fn connect_subscribed(&mut self, p: u32) {
        self.input(Time::ZERO, Input::PeerUp(PeerIdx(p)));
        let subscribe = Rpc::Subscribe {
            topic: T0,
            subscribe: true,
        };
        self.msg(Time::ZERO, p, subscribe);
    }
    /// Connects `n` subscribed peers and runs the first heartbeat: all of them are grafted
    /// when n <= D.
    fn with_mesh(config: GossipsubConfig, behaviour: Behaviour, n: u32) -> Solo {
        let mut s = Solo::new(config, behaviour);
        for p in 0..n {
            s.connect_subscribed(p);
        }
        s.input(ms(100), Input::Timer(GossipsubTimer::Heartbeat));
        s
    }
}

fn sends(actions: &[Act]) -> Vec<(u32, Rpc)> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Send { to, msg } => Some((to.0, msg.clone())),
            _ => None,
        })
        .collect()
}

fn timers(actions: &[Act]) -> Vec<(Time, GossipsubTimer)> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::SetTimer { at, timer, .. } => Some((*at, timer.clone())),
            _ => None,
        })
        .collect()
}

fn delivered(actions: &[Act]) -> Vec<TxId> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Deliver(tx) => Some(tx.id),
            _ => None,
        })
        .collect()
}

fn v2(d_announce: u32) -> GossipsubConfig {
    GossipsubConfig {
        d: 8,
        d_lo: 6,
        d_hi: 12,
        d_announce,
        ..Default::default()
    }
}

#[test]
fn first_heartbeat_grafts_subscribed_peers_only() {
    let mut s = Solo::new(GossipsubConfig::default(), Behaviour::Honest);
    let up = s.input(Time::ZERO, Input::PeerUp(PeerIdx(0)));
    assert_eq!(
        sends(&up),
        vec![(
            0,
            Rpc::Subscribe {
                topic: T0,
                subscribe: true
            }
        )]
    );
    let first = timers(&up);
    assert_eq!(first.len(), 1);
    assert!(
        (ms(100)..ms(1_100)).contains(&first[0].0),
        "initial delay plus a random phase"
    );
    s.input(Time::ZERO, Input::PeerUp(PeerIdx(1)));
    s.msg(
        Time::ZERO,
        1,
        Rpc::Subscribe {
            topic: T0,
            subscribe: true,
        },
    );
    let hb = s.input(ms(100), Input::Timer(GossipsubTimer::Heartbeat));
    assert_eq!(sends(&hb), vec![(1, Rpc::Graft { topic: T0 })]);
    assert_eq!(s.node.mesh(), &[PeerIdx(1)]);
    assert_eq!(timers(&hb), vec![(ms(1_100), GossipsubTimer::Heartbeat)]);
}

#[test]
fn graft_on_subscribe_fills_the_mesh_to_d_lo_without_a_heartbeat() {
    let config = GossipsubConfig {
        d: 8,
        d_lo: 3,
        graft_on_subscribe: true,
        ..Default::default()
    };
    let mut s = Solo::new(config.clone(), Behaviour::Honest);
    let subscribe = Rpc::Subscribe {
        topic: T0,
        subscribe: true,
    };
    let mut grafted = Vec::new();
    for p in 0..5 {
        s.input(Time::ZERO, Input::PeerUp(PeerIdx(p)));
        grafted.extend(sends(&s.msg(ms(10), p, subscribe.clone())));
    }
    // The first D_lo peers to subscribe are grafted at once; the rest wait for the heartbeat.
    let graft = |p| (p, Rpc::Graft { topic: T0 });
    assert_eq!(grafted, vec![graft(0), graft(1), graft(2)]);
    assert_eq!(s.node.mesh(), &[PeerIdx(0), PeerIdx(1), PeerIdx(2)]);
    // Without the option (the specs), subscribing grafts nobody.
    let mut spec = Solo::new(
        GossipsubConfig {
            graft_on_subscribe: false,
            ..config
        },
        Behaviour::Honest,
    );
    spec.input(Time::ZERO, Input::PeerUp(PeerIdx(0)));
    assert!(sends(&spec.msg(ms(10), 0, subscribe)).is_empty());
    assert!(spec.node.mesh().is_empty());
}

#[test]
fn ineed_goes_to_the_first_announcer_then_the_next_after_the_timeout() {
    let mut s = Solo::with_mesh(v2(8), Behaviour::Honest, 3);
    let id = TxId(11);
    let a = s.msg(ms(200), 0, Rpc::IAnnounce { topic: T0, id });
    assert_eq!(sends(&a), vec![(0, Rpc::INeed(id))]);
    let t = timers(&a);
    assert_eq!(t, vec![(ms(600), GossipsubTimer::INeedTimeout(id))]);
    assert!(
        sends(&s.msg(ms(250), 1, Rpc::IAnnounce { topic: T0, id })).is_empty(),
        "one INEED in flight"
    );
    assert!(sends(&s.msg(ms(260), 2, Rpc::IAnnounce { topic: T0, id })).is_empty());
    let to = s.input(ms(600), Input::Timer(t[0].1.clone()));
    assert_eq!(
        sends(&to),
        vec![(1, Rpc::INeed(id))],
        "the next announcer in order"
    );
    assert!(
        s.node.peer_score(PeerIdx(0)) < 0.0,
        "the timeout down-scores"
    );
    assert_eq!(s.node.peer_score(PeerIdx(1)), 0.0);
    let got = s.msg(ms(700), 1, publish(Tx { id, len: 2_000 }, true));
    assert_eq!(delivered(&got), vec![id]);
    // The message came: its INEED's timeout is cancelled, and even a late one sends no
    // third INEED.
    let second_timeout = to.iter().find_map(|a| match a {
        Action::SetTimer { id, .. } => Some(*id),
        _ => None,
    });
    assert!(!s.timers.fire(second_timeout.unwrap()), "cancelled");
    let late = s.input(ms(1_000), Input::Timer(GossipsubTimer::INeedTimeout(id)));
    assert!(sends(&late).is_empty());
    assert!(
        sends(&s.msg(ms(1_001), 2, Rpc::IAnnounce { topic: T0, id })).is_empty(),
        "seen: no INEED"
    );
}

#[test]
fn ineed_timeout_penalty_can_be_turned_off() {
    let config = GossipsubConfig {
        ineed_timeout_penalty: 0.0,
        ..v2(8)
    };
    let mut s = Solo::with_mesh(config, Behaviour::Honest, 2);
    let id = TxId(3);
    s.msg(ms(200), 0, Rpc::IAnnounce { topic: T0, id });
    s.input(ms(600), Input::Timer(GossipsubTimer::INeedTimeout(id)));
    assert_eq!(s.node.peer_score(PeerIdx(0)), 0.0);
}

#[test]
fn iannounce_only_from_mesh_peers_and_only_in_v2() {
    let mut s = Solo::with_mesh(v2(8), Behaviour::Honest, 1);
    s.input(Time::ZERO, Input::PeerUp(PeerIdx(5)));
    s.msg(
        Time::ZERO,
        5,
        Rpc::Subscribe {
            topic: T0,
            subscribe: true,
        },
    );
    assert!(!s.node.mesh().contains(&PeerIdx(5)));
    assert!(sends(&s.msg(
        ms(200),
        5,
        Rpc::IAnnounce {
            topic: T0,
            id: TxId(1)
        }
    ))
    .is_empty());
    let mut v12 = Solo::with_mesh(
        GossipsubConfig {
            version: Version::V1_2,
            ..v2(8)
        },
        Behaviour::Honest,
        1,
    );
    assert!(sends(&v12.msg(
        ms(200),
        0,
        Rpc::IAnnounce {
            topic: T0,
            id: TxId(1)
        }
    ))
    .is_empty());
}

#[test]
fn forwarding_follows_the_coin_and_idontwant() {
    // D_announce = D: every mesh peer gets IANNOUNCE on forward.
    let mut s = Solo::with_mesh(v2(8), Behaviour::Honest, 4);
    s.msg(ms(150), 2, Rpc::IDontWant(TxId(9)));
    let tx = Tx {
        id: TxId(9),
        len: 4_000,
    };
    let out = sends(&s.msg(ms(200), 0, publish(tx, true)));
    let announced: Vec<u32> = out
        .iter()
        .filter(|(_, m)| {
            *m == Rpc::IAnnounce {
                topic: T0,
                id: tx.id,
            }
        })
        .map(|x| x.0)
        .collect();
    let mut announced = announced;
    announced.sort();
    assert_eq!(
        announced,
        vec![1, 3],
        "not to the source, not to the peer that said IDONTWANT"
    );
    let mut idw: Vec<u32> = out
        .iter()
        .filter(|(_, m)| *m == Rpc::IDontWant(tx.id))
        .map(|x| x.0)
        .collect();
    idw.sort();
    assert_eq!(
        idw,
        vec![1, 2, 3],
        "IDONTWANT to every mesh peer but the source"
    );
    // D_announce = 0: full messages, and no IDONTWANT below the size threshold.
    let mut s = Solo::with_mesh(v2(0), Behaviour::Honest, 3);
    let small = Tx {
        id: TxId(1),
        len: 500,
    };
    let out = sends(&s.msg(ms(200), 0, publish(small, true)));
    assert_eq!(out.len(), 2);
    assert!(out.iter().all(|(_, m)| matches!(m, Rpc::Publish(_))));
}

#[test]
fn v1_1_ignores_idontwant() {
    let config = GossipsubConfig {
        version: Version::V1_1,
        ..v2(0)
    };
    let mut s = Solo::with_mesh(config, Behaviour::Honest, 3);
    s.msg(ms(150), 2, Rpc::IDontWant(TxId(9)));
    let tx = Tx {
        id: TxId(9),
        len: 4_000,
    };
    let out = sends(&s.msg(ms(200), 0, publish(tx, true)));
    assert_eq!(
        out.len(),
        2,
        "full copies to peers 1 and 2, no IDONTWANT sent"
    );
    assert!(out.iter().all(|(_, m)| matches!(m, Rpc::Publish(_))));
}

#[test]
fn publisher_floods_and_sends_full_copies_unless_d_announce_is_d() {
    // A mesh of peers 0-2, and peers 3-5 subscribed after the heartbeat that grafted it.
    let with_others = |config| {
        let mut s = Solo::with_mesh(config, Behaviour::Honest, 3);
        for p in 3..6 {
            s.connect_subscribed(p);
        }
        s
    };
    let tx = Tx {
        id: TxId(1),
        len: 4_000,
    };
    let out = sends(&with_others(v2(7)).input(ms(200), Input::Submit(tx)));
    assert_eq!(out.len(), 6, "flood publish reaches non-mesh peers too");
    assert!(out.iter().all(|(_, m)| matches!(m, Rpc::Publish(_))));
    // D_announce = D: the mesh is announced to, and a peer outside it still gets the message.
    let out = sends(&with_others(v2(8)).input(ms(200), Input::Submit(tx)));
    assert_eq!(out.len(), 6);
    for (p, m) in out {
        let announce = Rpc::IAnnounce {
            topic: T0,
            id: tx.id,
        };
        match p < 3 {
            true => assert_eq!(m, announce, "mesh peer {p}"),
            false => assert!(matches!(m, Rpc::Publish(_)), "non-mesh peer {p}: {m:?}"),
        }
    }
}

#[test]
fn invalid_messages_cost_score_and_do_not_block_the_real_one() {
    let mut s = Solo::with_mesh(v2(0), Behaviour::Honest, 2);
    let tx = Tx {
        id: TxId(4),
        len: 2_000,
    };
    let bad = s.msg(ms(200), 0, publish(tx, false));
    assert!(delivered(&bad).is_empty());
    assert!(s.node.peer_score(PeerIdx(0)) < 0.0);
    let good = s.msg(ms(210), 1, publish(tx, true));
    assert_eq!(delivered(&good), vec![tx.id]);
}

/// A message of 100 bytes the host must judge.
fn host(id: u64) -> Rpc {
    let tx = Tx {
        id: TxId(id),
        len: 100,
    };
    Rpc::Publish(Message {
        tx,
        topic: T0,
        envelope: 0,
        check: Check::Host,
    })
}

#[test]
fn messages_wait_for_the_host_and_follow_its_verdict() {
    let mut s = Solo::with_mesh(v2(0), Behaviour::Honest, 3);
    // Peer 3 subscribes after the mesh formed: not in the mesh.
    s.input(ms(150), Input::PeerUp(PeerIdx(3)));
    s.msg(
        ms(150),
        3,
        Rpc::Subscribe {
            topic: T0,
            subscribe: true,
        },
    );
    let parked = s.msg(ms(200), 0, host(5));
    assert!(
        delivered(&parked).is_empty() && sends(&parked).is_empty(),
        "nothing before the verdict"
    );
    assert_eq!(s.node.take_validation_requests(), vec![TxId(5)]);
    assert!(
        sends(&s.msg(ms(201), 1, host(5))).is_empty(),
        "a copy during validation is a duplicate"
    );
    assert!(s.node.take_validation_requests().is_empty());
    // The sender leaves before the verdict: the message is forwarded on the mesh, not flooded
    // as if it were ours, and no one is blamed.
    s.input(ms(210), Input::PeerDown(PeerIdx(0)));
    let ok = s.call(ms(220), |gs, cx| {
        gs.handle_validated(TxId(5), Verdict::Accept, cx)
    });
    assert_eq!(delivered(&ok), vec![TxId(5)]);
    let mut to: Vec<u32> = sends(&ok).iter().map(|(p, _)| *p).collect();
    to.sort();
    assert_eq!(to, vec![1, 2]);
    // Rejected: P4 for the sender, nothing delivered; ignored: no blame.
    s.msg(ms(300), 1, host(6));
    s.msg(ms(300), 2, host(7));
    assert_eq!(s.node.take_validation_requests(), vec![TxId(6), TxId(7)]);
    let bad = s.call(ms(310), |gs, cx| {
        gs.handle_validated(TxId(6), Verdict::Reject, cx)
    });
    let meh = s.call(ms(310), |gs, cx| {
        gs.handle_validated(TxId(7), Verdict::Ignore, cx)
    });
    assert!(delivered(&bad).is_empty() && delivered(&meh).is_empty());
    assert!(s.node.peer_score(PeerIdx(1)) < 0.0);
    assert_eq!(s.node.peer_score(PeerIdx(2)), 0.0);
    // A verdict on a message never asked about does nothing.
    assert!(s
        .call(ms(320), |gs, cx| gs.handle_validated(
            TxId(99),
            Verdict::Accept,
            cx
        ))
        .is_empty());
}

#[test]
fn one_peer_cannot_fill_the_validation_queue_for_the_others() {
    let mut s = Solo::with_mesh(v2(0), Behaviour::Honest, 3);
    // A flood from peer 0 the host never judges: its share waits, the rest is dropped.
    let mut full = 0;
    for i in 0..2 * VALIDATING.per_peer as u64 {
        let out = s.msg(ms(200), 0, host(1_000 + i));
        full += out
            .iter()
            .filter(|a| matches!(a, Action::Count(c, _) if **c == counters::VALIDATION_PEER_FULL))
            .count();
    }
    assert_eq!(full, VALIDATING.per_peer as usize);
    assert_eq!(
        s.node.take_validation_requests().len(),
        VALIDATING.per_peer as usize
    );
    // An honest peer's message is still taken for validation, and delivered when accepted.
    s.msg(ms(210), 1, host(7));
    assert_eq!(s.node.take_validation_requests(), vec![TxId(7)]);
    let ok = s.call(ms(220), |gs, cx| {
        gs.handle_validated(TxId(7), Verdict::Accept, cx)
    });
    assert_eq!(delivered(&ok), vec![TxId(7)]);
    // Once the flooder leaves, its share is free again.
    s.input(ms(230), Input::PeerDown(PeerIdx(0)));
    s.input(ms(230), Input::PeerUp(PeerIdx(0)));
    s.msg(ms(240), 0, host(9));
    assert_eq!(s.node.take_validation_requests(), vec![TxId(9)]);
}

#[test]
fn a_peer_speaking_an_older_version_gets_no_newer_messages() {
    let mut s = Solo::with_mesh(v2(8), Behaviour::Honest, 3);
    s.call(ms(150), |gs, _| {
        gs.set_peer_version(PeerIdx(1), Version::V1_2)
    });
    s.call(ms(150), |gs, _| {
        gs.set_peer_version(PeerIdx(2), Version::V1_1)
    });
    let tx = Tx {
        id: TxId(3),
        len: 2_000,
    };
    let out = sends(&s.msg(ms(200), 0, publish(tx, true)));
    let kinds = |p: u32| {
        out.iter()
            .filter(|(q, _)| *q == p)
            .map(|(_, m)| m.kind())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        kinds(1),
        ["idontwant", "publish"],
        "v1.2: IDONTWANT, and the message in full"
    );
    assert_eq!(
        kinds(2),
        ["publish"],
        "v1.1: neither IDONTWANT nor IANNOUNCE"
    );
}

#[test]
fn graylisted_peers_are_ignored() {
    let mut s = Solo::with_mesh(v2(0), Behaviour::Honest, 2);
    for i in 0..2 {
        s.msg(
            ms(200),
            0,
            publish(
                Tx {
                    id: TxId(i),
                    len: 100,
                },
                false,
            ),
        );
    }
    let got = s.msg(
        ms(300),
        0,
        publish(
            Tx {
                id: TxId(9),
                len: 100,
            },
            true,
        ),
    );
    assert!(
        delivered(&got).is_empty(),
        "score -400 is below the graylist threshold"
    );
}

#[test]
fn broken_iwant_promises_are_penalized() {
    let mut s = Solo::new(GossipsubConfig::default(), Behaviour::Honest);
    for p in 0..2 {
        s.connect_subscribed(p);
    }
    let out = sends(&s.msg(
        ms(50),
        0,
        Rpc::IHave {
            topic: T0,
            ids: vec![TxId(1)].into(),
        },
    ));
    assert_eq!(out, vec![(0, Rpc::IWant(vec![TxId(1)]))]);
    let before = s.input(ms(100), Input::Timer(GossipsubTimer::Heartbeat));
    assert_eq!(s.node.peer_score(PeerIdx(0)), 0.0, "not yet expired");
    assert_eq!(
        broken_promises(&before),
        None,
        "nothing is counted, not even 0"
    );
    let after = s.input(ms(3_100), Input::Timer(GossipsubTimer::Heartbeat));
    assert!(s.node.peer_score(PeerIdx(0)) < 0.0);
    assert_eq!(broken_promises(&after), Some(1));
    // A promise kept costs nothing.
    let out = sends(&s.msg(
        ms(3_200),
        1,
        Rpc::IHave {
            topic: T0,
            ids: vec![TxId(2), TxId(2)].into(),
        },
    ));
    assert_eq!(
        out,
        vec![(1, Rpc::IWant(vec![TxId(2)]))],
        "duplicate ids asked once"
    );
    s.msg(
        ms(3_300),
        1,
        publish(
            Tx {
                id: TxId(2),
                len: 10,
            },
            true,
        ),
    );
    let kept = s.input(ms(6_300), Input::Timer(GossipsubTimer::Heartbeat));
    assert_eq!(s.node.peer_score(PeerIdx(1)), 0.0);
    assert_eq!(broken_promises(&kept), None);
}

/// What a heartbeat counted as broken promises, if it counted any.
fn broken_promises(actions: &[Act]) -> Option<u64> {
    actions.iter().find_map(|a| match a {
        Action::Count(c, n) if **c == counters::BROKEN_PROMISES => Some(*n),
        _ => None,
    })
}

#[test]
fn ihave_floods_and_iwant_repeats_are_capped() {
    let config = GossipsubConfig {
        max_ihave_messages: 2,
        ..Default::default()
    };
    let mut s = Solo::with_mesh(config, Behaviour::Honest, 1);
    let mut asked = 0;
    for i in 0..5 {
        asked += sends(&s.msg(
            ms(200),
            0,
            Rpc::IHave {
                topic: T0,
                ids: vec![TxId(100 + i)].into(),
            },
        ))
        .len();
    }
    assert_eq!(asked, 2);
    // IWANT for a cached message is served gossip_retransmission (3) times.
    let tx = Tx {
        id: TxId(5),
        len: 100,
    };
    s.input(ms(300), Input::Submit(tx));
    let served: usize = (0..6)
        .map(|_| sends(&s.msg(ms(310), 0, Rpc::IWant(vec![tx.id]))).len())
        .sum();
    assert_eq!(served, 3);
}

#[test]
fn graft_in_backoff_is_pruned_and_penalized() {
    let mut s = Solo::with_mesh(GossipsubConfig::default(), Behaviour::Honest, 1);
    s.msg(
        ms(200),
        0,
        Rpc::Prune {
            topic: T0,
            backoff_s: Some(60),
        },
    );
    assert!(s.node.mesh().is_empty());
    assert!(s.node.backed_off(PeerIdx(0), ms(200)));
    let out = sends(&s.msg(ms(300), 0, Rpc::Graft { topic: T0 }));
    assert!(matches!(
        out[..],
        [(
            0,
            Rpc::Prune {
                topic: T0,
                backoff_s: Some(60)
            }
        )]
    ));
    assert!(s.node.peer_score(PeerIdx(0)) < 0.0);
    assert!(s.node.mesh().is_empty());
}

#[test]
fn an_oversubscribed_mesh_is_pruned_back_to_d() {
    let mut s = Solo::with_mesh(GossipsubConfig::default(), Behaviour::Honest, 14);
    assert_eq!(s.node.mesh().len(), 6, "the first heartbeat grafts D");
    for p in 0..14 {
        s.msg(ms(200), p, Rpc::Graft { topic: T0 });
    }
    assert_eq!(s.node.mesh().len(), 14, "GRAFTs are accepted above D_hi");
    let hb = s.input(ms(1_100), Input::Timer(GossipsubTimer::Heartbeat));
    assert_eq!(s.node.mesh().len(), 6);
    let pruned: Vec<u32> = sends(&hb)
        .into_iter()
        .filter(|(_, m)| {
            matches!(
                m,
                Rpc::Prune {
                    topic: T0,
                    backoff_s: Some(60)
                }
            )
        })
        .map(|(p, _)| p)
        .collect();
    assert_eq!(pruned.len(), 8);
    for p in pruned {
        assert!(s.node.backed_off(PeerIdx(p), ms(1_200)));
        assert!(!s.node.mesh().contains(&PeerIdx(p)));
    }
}

#[test]
fn negative_peers_leave_the_mesh_at_the_heartbeat() {
    let mut s = Solo::with_mesh(GossipsubConfig::default(), Behaviour::Honest, 3);
    s.msg(
        ms(200),
        1,
        publish(
            Tx {
                id: TxId(1),
                len: 100,
            },
            false,
        ),
    );
    let hb = s.input(ms(1_100), Input::Timer(GossipsubTimer::Heartbeat));
    assert!(sends(&hb).contains(&(
        1,
        Rpc::Prune {
            topic: T0,
            backoff_s: Some(60)
        }
    )));
    assert!(!s.node.mesh().contains(&PeerIdx(1)));
    let regraft = s.input(ms(2_100), Input::Timer(GossipsubTimer::Heartbeat));
    assert!(
        !sends(&regraft).contains(&(1, Rpc::Graft { topic: T0 })),
        "no GRAFT to a backed-off peer"
    );
}

#[test]
fn a_pure_publisher_uses_a_fanout_that_expires() {
    let config = GossipsubConfig {
        subscribe: false,
        flood_publish: false,
        ..Default::default()
    };
    let mut s = Solo::new(config, Behaviour::Honest);
    for p in 0..10 {
        let up = s.input(Time::ZERO, Input::PeerUp(PeerIdx(p)));
        assert!(
            sends(&up).is_empty(),
            "no SUBSCRIBE from a node that does not subscribe"
        );
        s.msg(
            Time::ZERO,
            p,
            Rpc::Subscribe {
                topic: T0,
                subscribe: true,
            },
        );
    }
    let out = sends(&s.input(
        ms(50),
        Input::Submit(Tx {
            id: TxId(1),
            len: 100,
        }),
    ));
    assert_eq!(out.len(), 6, "D fanout peers");
    assert!(
        sends(&s.msg(ms(60), 0, Rpc::Graft { topic: T0 })).is_empty(),
        "GRAFT ignored when not subscribed"
    );
    s.input(ms(100), Input::Timer(GossipsubTimer::Heartbeat));
    let ihave = sends(&s.input(ms(1_100), Input::Timer(GossipsubTimer::Heartbeat)));
    assert!(ihave
        .iter()
        .all(|(p, m)| matches!(m, Rpc::IHave { .. }) && out.iter().all(|(q, _)| q != p)));
    assert_eq!(s.node.fanout().len(), 6);
    // After fanout_ttl without publishing, the fanout is dropped, and made again on publish.
    s.input(ms(62_000), Input::Timer(GossipsubTimer::Heartbeat));
    assert!(s.node.fanout().is_empty());
    let again = sends(&s.input(
        ms(62_100),
        Input::Submit(Tx {
            id: TxId(2),
            len: 100,
        }),
    ));
    assert_eq!(again.len(), 6);
    assert_eq!(s.node.fanout().len(), 6);
}

#[test]
fn remote_backoff_is_clamped() {
    let mut s = Solo::with_mesh(GossipsubConfig::default(), Behaviour::Honest, 1);
    s.msg(
        Time(u64::MAX - 5),
        0,
        Rpc::Prune {
            topic: T0,
            backoff_s: Some(u64::MAX),
        },
    );
    assert!(
        s.node.backed_off(PeerIdx(0), Time(u64::MAX - 1)),
        "saturates instead of wrapping"
    );
    let mut s = Solo::with_mesh(GossipsubConfig::default(), Behaviour::Honest, 1);
    s.msg(
        ms(200),
        0,
        Rpc::Prune {
            topic: T0,
            backoff_s: Some(u64::MAX),
        },
    );
    let cap = ms(200) + crate::Dur::from_secs(MAX_REMOTE_BACKOFF_S);
    assert!(s.node.backed_off(PeerIdx(0), Time(cap.0 - 1)));
    assert!(!s.node.backed_off(PeerIdx(0), cap));
}

#[test]
fn withholding_and_silent_nodes_do_not_answer() {
    for b in [Behaviour::WithholdOnRequest, Behaviour::Silent] {
        let mut s = Solo::with_mesh(v2(8), b.clone(), 2);
        let tx = Tx {
            id: TxId(1),
            len: 2_000,
        };
        let fwd = sends(&s.msg(ms(200), 0, publish(tx, true)));
        assert!(
            sends(&s.msg(ms(210), 1, Rpc::INeed(tx.id))).is_empty(),
            "{b:?}"
        );
        assert!(
            sends(&s.msg(ms(210), 1, Rpc::IWant(vec![tx.id]))).is_empty(),
            "{b:?}"
        );
        if b == Behaviour::Silent {
            assert!(fwd.is_empty(), "silent: no forwarding, no IDONTWANT");
        } else {
            assert!(
                fwd.iter().any(|(_, m)| *m
                    == Rpc::IAnnounce {
                        topic: T0,
                        id: tx.id
                    }),
                "withholder still announces"
            );
        }
    }
}

// ---------------------------------------------------------------- a small network

/// GossipSub as live nodes run it: each node's entries for a peer are batched into RPCs by
/// the live codec, decoded into the peer's store, and validated by a host check (the data
/// must be a well-formed body).
struct GossipWire {
    codec: Codec,
    stores: Vec<crate::TxStore>,
}

impl Wire<Gossipsub> for GossipWire {
    type Frame = Vec<u8>;
    const BATCH: bool = true;
    fn content(&mut self, node: usize) -> &mut dyn Content {
        &mut self.stores[node]
    }
    fn encode(&mut self, from: usize, sender: &Gossipsub, msgs: Vec<Rpc>) -> Vec<(Vec<u8>, usize)> {
        let mut frames = Vec::new();
        let skipped =
            self.codec
                .encode(&msgs, sender.topic_names(), &self.stores[from], &mut frames);
        assert_eq!(skipped, 0, "node {from} lost an entry: {msgs:?}");
        frames
            .into_iter()
            .map(|f| {
                let len = f.bytes.len();
                (f.bytes, len)
            })
            .collect()
    }
    fn decode(&mut self, to: usize, receiver: &mut Gossipsub, frame: Vec<u8>) -> Vec<Rpc> {
        let mut rpcs = Vec::new();
        self.codec
            .decode(
                &frame,
                receiver.topic_names_mut(),
                &mut self.stores[to],
                &mut rpcs,
            )
            .unwrap();
        rpcs
    }
    fn host_calls(&mut self, node: usize, gs: &mut Gossipsub) -> Vec<HostCall<Gossipsub>> {
        gs.take_validation_requests()
            .into_iter()
            .map(|id| {
                let data = self.stores[node].payload(id).unwrap_or_default();
                let verdict = match crate::Synthetic.admit(data) {
                    Some(_) => Verdict::Accept,
                    None => Verdict::Reject,
                };
                let call: HostCall<Gossipsub> =
                    Box::new(move |gs, cx| gs.handle_validated(id, verdict, cx));
                call
            })
            .collect()
    }
}

type Net = TestNet<Gossipsub, GossipWire>;

/// `n` nodes on a ring plus random chords up to `degree`; link latency 5 to 60 ms by link.
fn network(
    n: usize,
    degree: usize,
    config: &GossipsubConfig,
    behaviours: &[Behaviour],
    seed: u64,
) -> Net {
    let mut rng = Rng::from_seed(seed);
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    let latency = |a: usize, b: usize| {
        crate::Dur(5_000 + ((a.min(b) * 7919 + a.max(b) * 104_729) % 55) as u64 * 1_000)
    };
    let mut edges = Vec::new();
    let mut link = |adj: &mut Vec<Vec<usize>>, a: usize, b: usize| {
        adj[a].push(b);
        adj[b].push(a);
        edges.push((a, b, latency(a, b)));
    };
    for i in 0..n {
        link(&mut adj, i, (i + 1) % n);
    }
    for i in 0..n {
        while adj[i].len() < degree {
            let j = rng.index(n);
            if j != i && !adj[i].contains(&j) {
                link(&mut adj, i, j);
            }
        }
    }
    let behaviours: Vec<(usize, Behaviour)> = behaviours.iter().cloned().enumerate().collect();
    let wire = GossipWire {
        codec: Codec::new(config, Limits::default()),
        stores: (0..n).map(|_| crate::TxStore::default()).collect(),
    };
    TestNet::with_wire(config, n, &edges, &behaviours, seed, wire)
}

/// Node `node` publishes `count` messages of `len` bytes at `at`.
fn publish_many(net: &mut Net, node: usize, at: Time, count: u64, len: u32) {
    net.run_until(at);
    for i in 0..count {
        let mut data = Vec::new();
        crate::Synthetic.body(
            Tx {
                id: TxId(1_000 + i),
                len,
            },
            &mut data,
        );
        let names = net.nodes[node].topic_names();
        let msg = net
            .wire
            .codec
            .own_message(T0, names, &data, None, &mut net.wire.stores[node])
            .unwrap();
        net.call(node, |gs, cx| gs.publish(msg, cx));
    }
}

/// Nodes (among `who`) that received every one of `count` messages.
fn complete(net: &Net, who: impl Iterator<Item = usize>, count: usize) -> usize {
    who.filter(|&i| net.delivered[i].len() >= count).count()
}

/// Full copies received beyond the first, per node and message.
fn duplicates_per_message(net: &Net, count: usize) -> f64 {
    let n = net.nodes.len() as f64;
    let total: u64 = net.copies.iter().sum();
    let firsts: u64 = net.delivered.iter().map(|a| a.len() as u64).sum();
    (total as f64 - (firsts as f64 - count as f64)) / (n * count as f64)
}

fn run(config: &GossipsubConfig, behaviours: &[Behaviour], seed: u64, msgs: u64) -> Net {
    let mut net = network(40, 12, config, behaviours, seed);
    publish_many(&mut net, 0, ms(3_000), msgs, 2_000);
    net.run_until(ms(12_000));
    net
}

#[test]
fn the_mesh_forms_symmetric_and_within_bounds() {
    let config = GossipsubConfig::default();
    let mut net = network(40, 12, &config, &[], 1);
    net.run_until(ms(5_000));
    for (i, node) in net.nodes.iter().enumerate() {
        let m = node.mesh().len();
        assert!(
            (config.d_lo as usize..=config.d_hi as usize).contains(&m),
            "node {i}: mesh {m}"
        );
        for &p in node.mesh() {
            let (j, back) = net.peer(i, p);
            assert!(
                net.nodes[j].mesh().contains(&back),
                "mesh link {i}-{j} is one-sided"
            );
        }
    }
}

#[test]
fn every_version_delivers_to_every_node() {
    for (version, d_announce) in [
        (Version::V1_1, 0),
        (Version::V1_2, 0),
        (Version::V2_0, 7),
        (Version::V2_0, 8),
    ] {
        let config = GossipsubConfig {
            version,
            ..v2(d_announce)
        };
        let net = run(&config, &[], 2, 5);
        assert_eq!(
            complete(&net, 0..40, 5),
            40,
            "{version:?} D_announce={d_announce}"
        );
    }
}

#[test]
fn lazy_propagation_cuts_duplicates() {
    let dup = |version, d_announce| {
        let config = GossipsubConfig {
            version,
            ..v2(d_announce)
        };
        duplicates_per_message(&run(&config, &[], 4, 5), 5)
    };
    let v11 = dup(Version::V1_1, 0);
    let v12 = dup(Version::V1_2, 0);
    let v20 = dup(Version::V2_0, 8);
    assert!(v12 <= v11, "IDONTWANT never adds copies: {v12} vs {v11}");
    assert!(v20 < v12 / 3.0, "v2.0 D_announce=D: {v20} vs v1.2 {v12}");
}

#[test]
fn withholders_cause_timeouts_but_honest_nodes_still_get_everything() {
    let mut behaviours = vec![Behaviour::Honest; 40];
    for i in (1..40).step_by(5) {
        behaviours[i] = Behaviour::WithholdOnRequest;
    }
    // With a 2.9 s heartbeat, gossip seldom rescues a message before an INEED to a
    // withholder times out.
    let config = GossipsubConfig {
        heartbeat_ms: 2_900,
        ..v2(8)
    };
    let net = run(&config, &behaviours, 5, 3);
    assert!(net.counter(&counters::INEED_TIMEOUT) > 0);
    let honest = (0..40).filter(|&i| behaviours[i] == Behaviour::Honest);
    assert_eq!(complete(&net, honest, 3), 32);
}

#[test]
fn censors_and_silent_nodes_are_routed_around() {
    let mut behaviours = vec![Behaviour::Honest; 40];
    for i in (2..40).step_by(6) {
        behaviours[i] = Behaviour::Censor { fraction: 1.0 };
        behaviours[i + 1] = Behaviour::Silent;
    }
    let net = run(&v2(7), &behaviours, 6, 3);
    let honest = (0..40).filter(|&i| behaviours[i] == Behaviour::Honest);
    assert_eq!(complete(&net, honest, 3), 26);
    // Censors still ask for what they miss; silent nodes never ask, so they only get what
    // is pushed to them.
    assert_eq!(complete(&net, (2..40).step_by(6), 3), 7);
}

#[test]
fn the_network_is_deterministic() {
    let a = run(&v2(7), &[], 9, 3);
    let b = run(&v2(7), &[], 9, 3);
    assert_eq!(a.delivered, b.delivered);
    assert_eq!(a.frame_bytes_sent, b.frame_bytes_sent);
    assert_eq!(a.counters, b.counters);
}
