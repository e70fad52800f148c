use super::*;
use crate::testnet::{many_peers_run, step, TestNet};
use crate::{Action, Time};

fn tx(id: u64) -> Tx {
    Tx {
        id: TxId(id),
        len: 128,
    }
}

fn timeout(ms: u64) -> ShrecConfig {
    ShrecConfig {
        request_timeout_ms: ms,
        ..ShrecConfig::default()
    }
}

#[test]
fn defaults_are_the_production_timeout() {
    assert_eq!(ShrecConfig::default().request_timeout_ms, 30_000);
}

#[test]
fn one_request_per_tx_across_peers() {
    let mut net: TestNet<Shrec> = TestNet::random(&timeout(30_000), 30, 8, &[], 4);
    for i in 0..10 {
        net.submit_at(Time(500_000 + i * 1_000_000), (i * 3) as usize, tx(i));
    }
    net.run_until(Time(40_000_000));
    for i in 0..10 {
        assert_eq!(net.reached(TxId(i)), 30);
    }
    assert_eq!(net.counter(&counters::REQUESTS), 29 * 10);
    assert_eq!(
        net.copies.iter().sum::<u64>(),
        29 * 10,
        "no duplicate copies"
    );
    assert_eq!(net.counter(&counters::DUPLICATE_TXS), 0);
}

/// Median over honest nodes and txs of the arrival latency.
fn honest_median(net: &TestNet<Shrec>, bad: &[(usize, Behaviour)], starts: &[Time]) -> Dur {
    let mut l = Vec::new();
    for (node, got) in net.delivered.iter().enumerate() {
        if bad.iter().any(|(b, _)| *b == node) {
            continue;
        }
        for (i, &start) in starts.iter().enumerate() {
            l.push(
                got.get(&TxId(i as u64))
                    .map_or(Dur(u64::MAX), |&t| t - start),
            );
        }
    }
    l.sort();
    l[l.len() / 2]
}

#[test]
fn withholding_peers_cost_a_timeout_each() {
    let n = 40;
    let bad: Vec<(usize, Behaviour)> = (0..n)
        .filter(|i| i % 3 == 1)
        .map(|i| (i, Behaviour::WithholdOnRequest))
        .collect();
    let starts: Vec<Time> = (0..8).map(|i| Time(500_000 + i * 100_000)).collect();
    let run = |ms: u64, bad: &[(usize, Behaviour)]| {
        let mut net: TestNet<Shrec> = TestNet::random(&timeout(ms), n, 8, bad, 6);
        for (i, &at) in starts.iter().enumerate() {
            net.submit_at(at, i * 3, tx(i as u64));
        }
        net.run_until(Time(600_000_000));
        net
    };
    let honest = run(30_000, &[]);
    let tuned = run(500, &bad);
    let production = run(30_000, &bad);
    let (h, t, p) = (
        honest_median(&honest, &[], &starts),
        honest_median(&tuned, &bad, &starts),
        honest_median(&production, &bad, &starts),
    );
    assert!(h < t && t < p, "honest {h}, tuned {t}, production {p}");
    assert!(p > Dur::from_secs(30), "production {p}");
    assert!(production.counter(&counters::RETRIES) > 0);
    // Every honest node still gets every tx.
    for i in 0..starts.len() {
        assert_eq!(production.reached(TxId(i as u64)), n, "tx {i}");
    }
}

#[test]
fn a_timeout_below_the_round_trip_fetches_spurious_copies() {
    let mut net: TestNet<Shrec> = TestNet::random(&timeout(20), 30, 8, &[], 4);
    for i in 0..5 {
        net.submit_at(Time(500_000 + i * 1_000_000), i as usize, tx(i));
    }
    net.run_until(Time(10_000_000));
    assert!(net.counter(&counters::DUPLICATE_TXS) > 0);
    assert!(net.counter(&counters::RETRIES) > 0);
}

#[test]
fn bad_input_is_counted() {
    let mut node = Shrec::new(&ShrecConfig::default(), &NodeSetup::default());
    let out = step(
        &mut node,
        Time(0),
        Input::Message(PeerIdx(0), ShrecMsg::Request(vec![ShortId(1)].into())),
    );
    assert!(out
        .iter()
        .any(|a| matches!(a, Action::Count(c, 1) if *c == &counters::UNKNOWN_KEY)));
    step(&mut node, Time(0), Input::PeerUp(PeerIdx(0)));
    step(
        &mut node,
        Time(0),
        Input::Message(
            PeerIdx(0),
            ShrecMsg::Hello {
                key: LinkKey([3; 16]),
            },
        ),
    );
    let out = step(
        &mut node,
        Time(0),
        Input::Message(PeerIdx(0), ShrecMsg::Request(vec![ShortId(1)].into())),
    );
    assert!(out
        .iter()
        .any(|a| matches!(a, Action::Count(c, 1) if *c == &counters::REQUEST_UNKNOWN)));
    let big = ShrecMsg::Tx(Tx {
        id: TxId(1),
        len: (1 << 20) + 1,
    });
    let out = step(&mut node, Time(0), Input::Message(PeerIdx(0), big));
    assert!(out
        .iter()
        .any(|a| matches!(a, Action::Count(c, 1) if *c == &counters::OVERSIZED_TXS)));
    assert!(!out.iter().any(|a| matches!(a, Action::Deliver(_))));
}

#[test]
fn spam_is_counted_as_unrequested() {
    let ms = Dur::from_millis;
    let edges = [(0, 1, ms(10)), (1, 2, ms(10))];
    let mut net: TestNet<Shrec> = TestNet::new(
        &ShrecConfig::default(),
        3,
        &edges,
        &[(1, Behaviour::Spam)],
        1,
    );
    net.submit_at(Time(100_000), 0, tx(2));
    net.run_until(Time(1_000_000));
    assert_eq!(net.counter(&counters::UNREQUESTED_TXS), 1);
    assert_eq!(net.reached(TxId(2)), 3);
    assert_eq!(net.counter(&counters::REQUESTS), 1);
}

#[test]
fn a_reused_peer_index_starts_with_nothing() {
    use crate::testnet::Solo;
    let (old, next, mute) = (PeerIdx(0), PeerIdx(1), PeerIdx(2));
    let delay = Behaviour::DelayReplies { delay_ms: 500.0 };
    let mut node: Solo<Shrec> = Solo::new(&ShrecConfig::default(), delay, 1);
    for p in [old, next, mute] {
        node.input(Input::PeerUp(p));
    }
    // The key the node gave each peer, which the peer names txs with.
    let given = |node: &Solo<Shrec>, p: PeerIdx| {
        node.sent_to(p).iter().rev().find_map(|m| match m {
            ShrecMsg::Hello { key } => Some(*key),
            _ => None,
        })
    };
    let (k_old, k_next) = (given(&node, old).unwrap(), given(&node, next).unwrap());
    // The keys the peers gave the node. The mute peer never says Hello.
    let (to_old, to_next) = (LinkKey([1; 16]), LinkKey([2; 16]));
    node.input(Input::Message(old, ShrecMsg::Hello { key: to_old }));
    node.input(Input::Message(next, ShrecMsg::Hello { key: to_next }));

    // The old peer announces txs 1 and 2 and is asked for both; peer 1 announces tx 1 too.
    let ids = vec![k_old.short_id(TxId(1)), k_old.short_id(TxId(2))];
    node.input(Input::Message(old, ShrecMsg::Announce(ids.clone().into())));
    let tx1_from_next = k_next.short_id(TxId(1));
    node.input(Input::Message(
        next,
        ShrecMsg::Announce(vec![tx1_from_next].into()),
    ));
    // Tx 3 is announced to the old peer, waits for the mute one's Hello, and the old peer
    // asks for it (the reply is late).
    node.input(Input::Submit(tx(3)));
    let tx3_to_old = to_old.short_id(TxId(3));
    node.input(Input::Message(
        old,
        ShrecMsg::Request(vec![tx3_to_old].into()),
    ));
    let sent = node.take_sent();
    assert!(sent.contains(&(old, ShrecMsg::Request(ids.into()))));
    assert!(sent.contains(&(old, ShrecMsg::Announce(vec![tx3_to_old].into()))));
    assert_eq!(node.counter(&counters::REQUESTS), 2);

    // Both leave, and new peers get their indices.
    node.run_until(Time(10_000));
    node.input(Input::PeerDown(old));
    node.input(Input::PeerDown(mute));
    // What was in flight to the old peer moves on at once: tx 1 to its other announcer
    // (with the ID it announced), tx 2 has none.
    let request = ShrecMsg::Request(vec![tx1_from_next].into());
    assert_eq!(node.take_sent(), [(next, request)]);
    assert_eq!(node.counter(&counters::RETRIES), 1);
    assert_eq!(node.counter(&counters::NO_PEER_FOR_TX), 1);
    node.input(Input::PeerUp(old));
    node.input(Input::PeerUp(mute));
    let k_new = given(&node, old).unwrap();
    assert_ne!(k_new, k_old, "a fresh key for the new peer");

    // The new peer sends tx 2, which nobody asked it for; tx 1 comes from peer 1. Both are
    // announced to the new peers (not to a peer known to have them), once they say Hello.
    node.input(Input::Message(old, ShrecMsg::Tx(tx(2))));
    assert_eq!(node.counter(&counters::UNREQUESTED_TXS), 1);
    node.input(Input::Message(next, ShrecMsg::Tx(tx(1))));
    node.run_until(Time(100_000_000));
    let to_new = LinkKey([4; 16]);
    node.input(Input::Message(old, ShrecMsg::Hello { key: to_new }));
    node.input(Input::Message(mute, ShrecMsg::Hello { key: to_new }));

    // The new peers hear of tx 1 with their own key, and of nothing meant for the old ones:
    // no tx 3, no late reply, no request.
    for p in [old, mute] {
        let heard: Vec<&ShrecMsg> = node
            .sent_to(p)
            .into_iter()
            .filter(|m| !matches!(m, ShrecMsg::Hello { .. }))
            .collect();
        // The peer at index 2 also hears of tx 2, in the order the txs arrived.
        let ids: &[u64] = if p == old { &[1] } else { &[2, 1] };
        let ids = ids.iter().map(|&i| to_new.short_id(TxId(i))).collect();
        assert_eq!(heard, [&ShrecMsg::Announce(ids)], "peer {p:?}");
    }
}

/// The same run whatever the ids: the simulator's dense sequence numbers, or scattered 64-bit
/// ones as on a real network (the held table's hashed part), with most nodes past 64 peers.
#[test]
fn scattered_ids_and_many_peers_give_the_same_run() {
    let dense = many_peers_run::<Shrec>(&timeout(300), 128, false);
    assert!(dense.1[counters::RETRIES.name] > 0);
    assert_eq!(dense, many_peers_run::<Shrec>(&timeout(300), 128, true));
}

/// Each event in the simulator's queue is as large as its largest timer or message.
#[test]
fn a_timer_is_no_larger_than_three_words() {
    assert!(std::mem::size_of::<ShrecTimer>() <= 24);
}
