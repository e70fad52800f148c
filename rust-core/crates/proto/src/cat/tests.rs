use super::*;
use crate::flood::{Flood, FloodConfig};
use crate::testnet::{step, TestNet};
use crate::{Action, Counter, Rng, Time, WireMsg};

fn no_jitter() -> CatConfig {
    CatConfig {
        seen_jitter_steps: 1,
        ..CatConfig::default()
    }
}

fn tx(id: u64) -> Tx {
    Tx {
        id: TxId(id),
        len: 4000,
    }
}

fn counted(actions: &[Action<CatMsg, CatTimer>], counter: &Counter) -> bool {
    actions
        .iter()
        .any(|a| matches!(a, Action::Count(c, _) if *c == counter))
}

fn disconnected(actions: &[Action<CatMsg, CatTimer>]) -> bool {
    actions.iter().any(|a| matches!(a, Action::Disconnect(_)))
}

fn node_with_peers(cfg: &CatConfig, n: u32) -> Cat {
    let mut node = Cat::new(cfg, &NodeSetup::default());
    for p in 0..n {
        step(&mut node, Time(0), Input::PeerUp(PeerIdx(p)));
    }
    node
}

#[test]
fn defaults_are_the_documented_values() {
    let c = CatConfig::default();
    assert_eq!(c.request_timeout_ms, 200);
    assert_eq!(c.seen_jitter_steps as u64 * c.seen_jitter_step_ms, 100);
    assert!(!c.from_field && !c.drop_unrequested);
}

#[test]
fn a_line_fetches_by_seen_and_want() {
    let ms = Dur::from_millis;
    let mut net: TestNet<Cat> =
        TestNet::new(&no_jitter(), 3, &[(0, 1, ms(10)), (1, 2, ms(10))], &[], 1);
    net.submit_at(Time(0), 0, tx(1));
    net.run_until(Time(1_000_000));
    assert_eq!(net.reached(TxId(1)), 3);
    // Node 1 got the broadcast; node 2 fetched it: SeenTx, WantTx, Txs = 3 more hops.
    assert_eq!(net.delivered[2][&TxId(1)], Time(40_000));
    assert_eq!(net.counter(&counters::REQUESTED_TXS), 1);
    assert_eq!(net.counter(&counters::REREQUESTED_TXS), 0);
    assert_eq!(net.counter(&counters::SUCCESSFUL_TXS), 3);
    // Node 1 does not send SeenTx back to node 0, which it knows has the tx.
    assert_eq!(net.sent_kinds.get("SeenTx"), Some(&1));
    assert_eq!(net.copies, vec![0, 1, 1]);
}

#[test]
fn an_unanswered_want_is_retried_with_the_next_peer_after_the_timeout() {
    let ms = Dur::from_millis;
    // 0 broadcasts to 1 and 2; both tell 3, the withholding node 1 first.
    let edges = [
        (0, 1, ms(10)),
        (0, 2, ms(10)),
        (1, 3, ms(5)),
        (2, 3, ms(30)),
    ];
    let run = |behaviour: Behaviour| {
        let mut net: TestNet<Cat> = TestNet::new(&no_jitter(), 4, &edges, &[(1, behaviour)], 1);
        net.submit_at(Time(0), 0, tx(7));
        net.run_until(Time(2_000_000));
        net
    };
    let honest = run(Behaviour::Honest);
    let withheld = run(Behaviour::WithholdOnRequest);
    assert_eq!(honest.counter(&counters::REREQUESTED_TXS), 0);
    assert_eq!(withheld.counter(&counters::REREQUESTED_TXS), 1);
    assert_eq!(withheld.reached(TxId(7)), 4);
    let t_honest = honest.delivered[3][&TxId(7)];
    let t_withheld = withheld.delivered[3][&TxId(7)];
    assert!(
        t_withheld >= t_honest + Dur::from_millis(150),
        "{t_honest} {t_withheld}"
    );
}

#[test]
fn late_replies_delay_but_do_not_lose() {
    let ms = Dur::from_millis;
    let edges = [(0, 1, ms(10)), (1, 2, ms(10))];
    let delay = Behaviour::DelayReplies { delay_ms: 500.0 };
    let mut net: TestNet<Cat> = TestNet::new(&no_jitter(), 3, &edges, &[(1, delay)], 1);
    net.submit_at(Time(0), 0, tx(3));
    net.run_until(Time(2_000_000));
    assert!(net.delivered[2][&TxId(3)] > Time(500_000));
    // The only peer that has it was asked; there is nobody else to ask.
    assert_eq!(net.counter(&counters::NO_PEER_FOR_TX), 1);
}

#[test]
fn duplication_is_far_below_floodings() {
    let (n, d, txs) = (40, 8, 30);
    let mut cat: TestNet<Cat> = TestNet::random(&CatConfig::default(), n, d, &[], 3);
    let mut flood: TestNet<Flood> = TestNet::random(&FloodConfig::default(), n, d, &[], 3);
    for i in 0..txs {
        let at = Time(i * 50_000);
        cat.submit_at(at, (i as usize * 7) % n, tx(i));
        flood.submit_at(at, (i as usize * 7) % n, tx(i));
    }
    cat.run_until(Time(20_000_000));
    flood.run_until(Time(20_000_000));
    for i in 0..txs {
        assert_eq!(cat.reached(TxId(i)), n);
    }
    let per_node = |copies: &[u64]| copies.iter().sum::<u64>() as f64 / (n as f64 * txs as f64);
    let (c, f) = (per_node(&cat.copies), per_node(&flood.copies));
    assert!(c < 2.0, "CAT copies per node per tx {c}");
    assert!(f > 3.0 * c, "flood {f} vs CAT {c}");
    // ADR 009's counters agree with the copies counted on the links.
    let received =
        cat.counter(&counters::SUCCESSFUL_TXS) + cat.counter(&counters::ALREADY_SEEN_TXS);
    assert_eq!(received, cat.copies.iter().sum::<u64>() + txs);
    assert!(cat.bytes_sent < flood.bytes_sent);
}

#[test]
fn cat2_waits_for_the_broadcaster_instead_of_requesting() {
    let ms = Dur::from_millis;
    // 0 broadcasts; 1 hears first and tells 2, whose own copy from 0 is 100 ms away.
    let edges = [(0, 1, ms(10)), (0, 2, ms(100)), (1, 2, ms(10))];
    let run = |from_field: bool| {
        let cfg = CatConfig {
            from_field,
            ..no_jitter()
        };
        let mut net: TestNet<Cat> = TestNet::new(&cfg, 3, &edges, &[], 1);
        // After the handshakes have arrived.
        net.submit_at(Time(200_000), 0, tx(5));
        net.run_until(Time(1_000_000));
        net
    };
    let (cat, cat2) = (run(false), run(true));
    assert_eq!(
        cat.copies[2], 2,
        "CAT requests from 1 and then gets 0's broadcast too"
    );
    assert_eq!(cat2.copies[2], 1);
    assert_eq!(cat2.counter(&counters::REQUESTED_TXS), 0);
    assert_eq!(cat2.counter(&counters::FROM_WAITS), 1);
    let seen = |from| CatMsg::SeenTx {
        key: WireKey::of(TxId(5)),
        from,
    };
    assert_eq!(
        seen(Some(NodeAddr::of_node(0))).wire_len(),
        seen(None).wire_len() + 42
    );
}

#[test]
fn spam_is_counted_and_dropped_when_configured() {
    let ms = Dur::from_millis;
    let edges = [(0, 1, ms(10)), (1, 2, ms(10))];
    for drop_unrequested in [false, true] {
        let cfg = CatConfig {
            drop_unrequested,
            ..no_jitter()
        };
        let mut net: TestNet<Cat> = TestNet::new(&cfg, 3, &edges, &[(1, Behaviour::Spam)], 1);
        net.submit_at(Time(0), 0, tx(9));
        net.run_until(Time(1_000_000));
        // Node 1 pushes to 2 unasked; without the option node 0's broadcast is unasked too.
        let unasked = net.counter(&counters::UNREQUESTED_TXS);
        assert_eq!(unasked, if drop_unrequested { 1 } else { 2 });
        assert_eq!(net.reached(TxId(9)), 3);
        // Dropping the push, node 2 fetches the tx by request instead.
        assert_eq!(
            net.counter(&counters::REQUESTED_TXS),
            if drop_unrequested { 2 } else { 0 }
        );
    }
}

#[test]
fn bad_input_is_counted_and_handled_as_the_spec_says() {
    let mut node = node_with_peers(&no_jitter(), 2);
    let short = CatMsg::SeenTx {
        key: WireKey::short(20),
        from: None,
    };
    let out = step(&mut node, Time(0), Input::Message(PeerIdx(0), short));
    assert!(counted(&out, &counters::BAD_KEY) && disconnected(&out));

    let want = CatMsg::WantTx {
        key: WireKey::of(TxId(42)),
    };
    let out = step(&mut node, Time(0), Input::Message(PeerIdx(1), want));
    assert!(counted(&out, &counters::WANT_UNKNOWN) && !disconnected(&out));
    assert!(!out.iter().any(|a| matches!(a, Action::Send { .. })));

    let seen = || CatMsg::SeenTx {
        key: WireKey::of(TxId(3)),
        from: None,
    };
    let out = step(&mut node, Time(0), Input::Message(PeerIdx(1), seen()));
    assert!(out.iter().any(|a| matches!(
        a,
        Action::Send {
            msg: CatMsg::WantTx { .. },
            ..
        }
    )));
    let out = step(&mut node, Time(0), Input::Message(PeerIdx(1), seen()));
    assert!(counted(&out, &counters::DUPLICATE_SEEN_TX));
    assert!(
        !out.iter().any(|a| matches!(a, Action::Send { .. })),
        "one request at a time"
    );

    let big = CatMsg::Txs(Tx {
        id: TxId(3),
        len: (1 << 20) + 1,
    });
    let out = step(&mut node, Time(0), Input::Message(PeerIdx(1), big));
    assert!(counted(&out, &counters::OVERSIZED_TXS) && disconnected(&out));
    assert!(!out.iter().any(|a| matches!(a, Action::Deliver(_))));
}

#[test]
fn a_want_is_answered_with_the_tx_and_txs_go_first() {
    let mut node = node_with_peers(&no_jitter(), 1);
    step(&mut node, Time(0), Input::Submit(tx(8)));
    let want = CatMsg::WantTx {
        key: WireKey::of(TxId(8)),
    };
    let out = step(&mut node, Time(0), Input::Message(PeerIdx(0), want.clone()));
    let reply = out.iter().find_map(|a| match a {
        Action::Send { msg, .. } => Some(msg),
        _ => None,
    });
    assert_eq!(reply, Some(&CatMsg::Txs(tx(8))));
    assert!(CatMsg::Txs(tx(8)).priority() > want.priority());
}

#[test]
fn stale_request_timers_do_nothing() {
    let mut node = node_with_peers(&no_jitter(), 2);
    let seen = CatMsg::SeenTx {
        key: WireKey::of(TxId(3)),
        from: None,
    };
    step(&mut node, Time(0), Input::Message(PeerIdx(0), seen));
    step(
        &mut node,
        Time(10),
        Input::Message(PeerIdx(0), CatMsg::Txs(tx(3))),
    );
    let out = step(
        &mut node,
        Time(200_000),
        Input::Timer(CatTimer::Request(TxId(3))),
    );
    assert!(!out
        .iter()
        .any(|a| matches!(a, Action::Send { .. } | Action::Count(..))));
}

#[test]
fn drivers_exchanging_encoded_bytes_spread_a_tx() {
    use crate::{Driver, Output};
    // A line 0 - 1 - 2 as a light node would run it: real bytes between `Driver`s.
    let cfg = no_jitter();
    let mut d: Vec<Driver<Cat>> = (0..3)
        .map(|i| {
            let setup = NodeSetup {
                node: i,
                ..NodeSetup::default()
            };
            Driver::new(&cfg, &setup, Rng::from_seed(i as u64))
        })
        .collect();
    // (node, its peer index) -> (other node, the first node's index there)
    let link = |node: usize, p: PeerIdx| match (node, p.0) {
        (0, 0) => (1, PeerIdx(0)),
        (1, 0) => (0, PeerIdx(0)),
        (1, 1) => (2, PeerIdx(0)),
        _ => (1, PeerIdx(1)),
    };
    d[0].handle_input(Time(0), Input::PeerUp(PeerIdx(0)));
    d[1].handle_input(Time(0), Input::PeerUp(PeerIdx(0)));
    d[1].handle_input(Time(0), Input::PeerUp(PeerIdx(1)));
    d[2].handle_input(Time(0), Input::PeerUp(PeerIdx(0)));
    // The tx is bytes: filed in the first node's store, found by their hash everywhere else.
    let bytes: Vec<u8> = (0..300u32).map(|i| (i * 7) as u8).collect();
    let submitted = d[0].content_mut().admit(&bytes).unwrap();
    d[0].handle_input(Time(0), Input::Submit(submitted));
    let mut delivered = [false; 3];
    let mut kinds = Vec::new();
    let mut now = Time(0);
    for _ in 0..10 {
        let mut wire = Vec::new();
        for (n, driver) in d.iter_mut().enumerate() {
            let outputs: Vec<_> = driver.drain().collect();
            for out in outputs {
                match out {
                    Output::Send { to, msg } => {
                        let mut bytes = Vec::new();
                        assert!(msg.encode(driver.content(), &mut bytes));
                        kinds.push(msg.kind());
                        let (m, back) = link(n, to);
                        wire.push((m, back, bytes));
                    }
                    Output::Deliver(t) => {
                        delivered[n] = driver.content().payload(t.id) == Some(&bytes[..])
                    }
                    _ => {}
                }
            }
        }
        now += Dur::from_millis(10);
        for (m, back, bytes) in wire {
            let msg = CatMsg::decode(&bytes, 1 << 20, d[m].content_mut()).unwrap();
            d[m].handle_input(now, Input::Message(back, msg));
        }
        for driver in d.iter_mut() {
            driver.poll_timers(now);
        }
    }
    assert_eq!(delivered, [true; 3]);
    assert_eq!(kinds, ["Txs", "SeenTx", "WantTx", "Txs"]);
}

#[test]
fn a_reused_peer_index_starts_with_nothing() {
    use crate::testnet::Solo;
    let (old, next, other) = (PeerIdx(0), PeerIdx(1), PeerIdx(2));
    let (old_addr, new_addr) = (NodeAddr::of_node(10), NodeAddr::of_node(20));
    let cfg = CatConfig {
        from_field: true,
        ..CatConfig::default()
    };
    let delay = Behaviour::DelayReplies { delay_ms: 500.0 };
    let mut node: Solo<Cat> = Solo::new(&cfg, delay, 1);
    for p in [old, next, other] {
        node.input(Input::PeerUp(p));
    }
    let seen = |id: u64, from: Option<NodeAddr>| CatMsg::SeenTx {
        key: WireKey::of(TxId(id)),
        from,
    };
    let want = |id: u64| CatMsg::WantTx {
        key: WireKey::of(TxId(id)),
    };
    node.input(Input::Message(old, CatMsg::Hello { node: old_addr }));
    // The old peer has tx 1 and is asked for it; peer 1 has it too.
    node.input(Input::Message(old, seen(1, None)));
    node.input(Input::Message(next, seen(1, None)));
    // Peer 1 has tx 2, broadcast by the old peer: the node waits for it from the old peer.
    node.input(Input::Message(next, seen(2, Some(old_addr))));
    // Tx 3 comes by broadcast from the old peer; its SeenTx (naming it) is yet to go out.
    node.input(Input::Message(old, CatMsg::Txs(tx(3))));
    // Tx 4 is the node's own; the old peer asks for it and will get it late.
    node.input(Input::Submit(tx(4)));
    node.input(Input::Message(old, want(4)));
    let sent = node.take_sent();
    assert!(sent.contains(&(old, want(1))));
    assert_eq!(node.counter(&counters::FROM_WAITS), 1);

    node.run_until(Time(0));
    node.input(Input::PeerDown(old));
    // What was pending on the old peer moves on at once: tx 1 and tx 2 are asked of peer 1.
    assert_eq!(node.take_sent(), [(next, want(1)), (next, want(2))]);
    assert_eq!(node.counter(&counters::REREQUESTED_TXS), 1);
    assert_eq!(node.counter(&counters::REQUESTED_TXS), 2);

    // A new peer gets index 0, with another node ID; it hears of the txs in the pool.
    node.input(Input::PeerUp(old));
    let hello = CatMsg::Hello {
        node: NodeAddr::of_node(0),
    };
    assert_eq!(
        node.take_sent(),
        [(old, hello), (old, seen(3, None)), (old, seen(4, None))]
    );
    node.input(Input::Message(old, CatMsg::Hello { node: new_addr }));
    // A SeenTx naming the old peer as origin no longer makes the node wait for index 0.
    node.input(Input::Message(other, seen(5, Some(old_addr))));
    assert_eq!(node.counter(&counters::FROM_WAITS), 1);
    assert_eq!(node.take_sent(), [(other, want(5))]);
    node.run_until(Time(10_000_000));

    // The new peer hears of tx 3 (from nobody: the index no longer names its sender), gets no
    // late reply and no request.
    let seen_3 = seen(3, None);
    assert_eq!(node.sent_to(old), [&seen_3]);
    assert!(node.sent_to(other).contains(&&seen_3));
    // The old peer's timers did nothing: no more requests went out.
    assert_eq!(node.counter(&counters::REQUESTED_TXS), 3);
    assert_eq!(node.counter(&counters::REREQUESTED_TXS), 1);
}

fn seen_key(id: u64) -> CatMsg {
    CatMsg::SeenTx {
        key: WireKey::of(TxId(id)),
        from: None,
    }
}

#[test]
fn announcements_of_txs_that_never_come_are_held_to_each_peers_budget() {
    use crate::testnet::Solo;
    let cfg = CatConfig {
        max_pending_per_peer: 100,
        max_pending: 250,
        ..CatConfig::default()
    };
    let mut node: Solo<Cat> = Solo::new(&cfg, Behaviour::Honest, 1);
    let (spammer, honest, third) = (PeerIdx(0), PeerIdx(1), PeerIdx(2));
    for p in [spammer, honest, third] {
        node.input(Input::PeerUp(p));
    }
    // 10,000 SeenTx for txs that never come: 100 are tracked, the rest counted and ignored.
    for i in 0..10_000 {
        node.input(Input::Message(spammer, seen_key(1_000 + i)));
    }
    assert_eq!(node.node.pending.len(), 100);
    assert_eq!(node.counter(&counters::SEEN_TX_OVER_BUDGET), 9_900);
    assert_eq!(node.node.missing.used(spammer), 100);
    // An honest peer's announcements still go through, and its tx is fetched and delivered.
    node.input(Input::Message(honest, seen_key(7)));
    assert!(node.take_sent().contains(&(
        honest,
        CatMsg::WantTx {
            key: WireKey::of(TxId(7))
        }
    )));
    node.input(Input::Message(honest, CatMsg::Txs(tx(7))));
    assert!(node.delivered.contains(&TxId(7)));
    assert_eq!(
        node.node.missing.used(honest),
        0,
        "an arrived tx ends its charge"
    );
    // The total holds against several peers together.
    for i in 0..1_000 {
        node.input(Input::Message(honest, seen_key(50_000 + i)));
        node.input(Input::Message(third, seen_key(60_000 + i)));
    }
    assert_eq!(node.node.missing.total(), 250);
    assert!(node.counter(&counters::PENDING_FULL) > 0);
    // A peer that leaves takes its charges and the txs only it announced with it.
    node.input(Input::PeerDown(spammer));
    assert_eq!(node.node.missing.used(spammer), 0);
    assert_eq!(node.node.missing.total(), 150);
    // 150 announced txs, and tx 7 waiting for its SeenTx to go out.
    assert_eq!(node.node.pending.len(), 151);
}

#[test]
fn the_pool_remembers_its_newest_txs_only() {
    use crate::testnet::Solo;
    let cfg = CatConfig {
        max_pool_txs: 50,
        ..no_jitter()
    };
    let mut node: Solo<Cat> = Solo::new(&cfg, Behaviour::Honest, 1);
    node.input(Input::PeerUp(PeerIdx(0)));
    for i in 0..200 {
        node.input(Input::Message(PeerIdx(0), CatMsg::Txs(tx(i))));
        node.run_until(node.now);
    }
    assert_eq!(node.node.have.len(), 50);
    assert_eq!(node.counter(&counters::FORGOTTEN_TXS), 150);
    assert_eq!(node.counter(&counters::SUCCESSFUL_TXS), 200);
}

#[test]
fn a_repeated_want_tx_draws_the_bytes_once_per_connection() {
    use crate::testnet::Solo;
    let mut node: Solo<Cat> = Solo::new(&no_jitter(), Behaviour::Honest, 1);
    let p = PeerIdx(0);
    node.input(Input::PeerUp(p));
    node.input(Input::Submit(tx(9)));
    node.take_sent();
    let want = CatMsg::WantTx {
        key: WireKey::of(TxId(9)),
    };
    for _ in 0..1_000 {
        node.input(Input::Message(p, want.clone()));
    }
    assert_eq!(node.take_sent(), [(p, CatMsg::Txs(tx(9)))]);
    assert_eq!(node.counter(&counters::WANT_REPEATED), 999);
    // A new connection (even under the same index) may ask once more.
    node.input(Input::PeerDown(p));
    node.input(Input::PeerUp(p));
    node.take_sent();
    node.input(Input::Message(p, want));
    assert_eq!(node.take_sent(), [(p, CatMsg::Txs(tx(9)))]);
}

#[test]
fn hellos_keep_one_node_id_per_peer() {
    use crate::testnet::Solo;
    let cfg = CatConfig {
        from_field: true,
        ..CatConfig::default()
    };
    let mut node: Solo<Cat> = Solo::new(&cfg, Behaviour::Honest, 1);
    for p in 0..3 {
        node.input(Input::PeerUp(PeerIdx(p)));
    }
    for i in 0..10_000u32 {
        let hello = CatMsg::Hello {
            node: NodeAddr::of_node(i),
        };
        node.input(Input::Message(PeerIdx(i % 3), hello));
    }
    assert_eq!(node.node.addr_peer.len(), 3);
    node.input(Input::PeerDown(PeerIdx(1)));
    assert_eq!(node.node.addr_peer.len(), 2);
}

#[test]
fn a_peer_that_connects_hears_of_the_newest_txs_in_the_pool() {
    use crate::testnet::Solo;
    let cfg = CatConfig {
        announce_on_connect: 3,
        ..no_jitter()
    };
    let mut node: Solo<Cat> = Solo::new(&cfg, Behaviour::Honest, 1);
    for i in 0..5 {
        node.input(Input::Submit(tx(i)));
    }
    node.input(Input::PeerUp(PeerIdx(0)));
    assert_eq!(
        node.take_sent(),
        [
            (PeerIdx(0), seen_key(2)),
            (PeerIdx(0), seen_key(3)),
            (PeerIdx(0), seen_key(4))
        ]
    );
}
