use super::*;
use crate::testnet::{many_peers_run, TestNet};
use crate::Time;

fn jitter(max_ms: f64) -> InvConfig {
    InvConfig {
        trickle: Trickle::UniformJitter { max_ms },
        ..InvConfig::default()
    }
}

fn tx(id: u64) -> Tx {
    Tx {
        id: TxId(id),
        len: 250,
    }
}

fn per_node(net: &TestNet<Inv>, txs: u64) -> f64 {
    net.copies.iter().sum::<u64>() as f64 / ((net.nodes.len() as u64 - 1) * txs) as f64
}

#[test]
fn defaults_are_bitcoin_cores() {
    let c = InvConfig::default();
    assert_eq!(c.trickle, Trickle::Poisson { mean_ms: 2_000.0 });
    assert_eq!(c.retry_timeout_ms, 60_000);
    assert!(!c.fail_fast && !c.dedup_requests);
}

#[test]
fn a_hash_travels_inv_getdata_tx() {
    let ms = Dur::from_millis;
    let mut net: TestNet<Inv> =
        TestNet::new(&jitter(0.0), 3, &[(0, 1, ms(10)), (1, 2, ms(10))], &[], 1);
    net.submit_at(Time(0), 0, tx(1));
    net.run_until(Time(1_000_000));
    assert_eq!(net.reached(TxId(1)), 3);
    // Three one-way trips per hop.
    assert_eq!(net.delivered[2][&TxId(1)], Time(60_000));
    assert_eq!(
        net.sent_kinds["Inv"], 2,
        "nobody announces back to the peer it got the tx from"
    );
    assert_eq!(net.sent_kinds["GetData"], 2);
}

#[test]
fn poisson_trickle_batches_hashes() {
    let ms = Dur::from_millis;
    let mut net: TestNet<Inv> = TestNet::new(&InvConfig::default(), 2, &[(0, 1, ms(10))], &[], 1);
    for i in 0..20 {
        net.submit_at(Time(i * 1_000), 0, tx(i));
    }
    net.run_until(Time(60_000_000));
    assert_eq!(net.delivered[1].len(), 20);
    assert!(net.sent_kinds["Inv"] < 10, "{:?}", net.sent_kinds);
}

#[test]
fn jitter_trades_duplicates_for_latency() {
    let run = |max_ms: f64| {
        let mut net: TestNet<Inv> = TestNet::random(&jitter(max_ms), 30, 8, &[], 5);
        for i in 0..10 {
            net.submit_at(Time(i * 3_000_000), (i as usize * 3) % 30, tx(i));
        }
        net.run_until(Time(100_000_000));
        let lat: u64 = (0..10)
            .map(|i| net.median_latency(TxId(i), Time(i * 3_000_000)).0)
            .sum();
        (per_node(&net, 10), lat / 10)
    };
    let (dup0, lat0) = run(0.0);
    let (dup2, lat2) = run(2_000.0);
    eprintln!("copies per node: {dup0} -> {dup2}, latency {lat0} -> {lat2} us");
    assert!(
        dup0 > 1.5,
        "no jitter: announcers heard at once are all asked ({dup0})"
    );
    assert!(dup2 < dup0 * 0.8, "{dup2} vs {dup0}");
    assert!(lat2 > lat0 * 2, "{lat2} vs {lat0}");
}

#[test]
fn deduplicated_requests_fetch_each_tx_once() {
    let base = jitter(0.0);
    let dedup = InvConfig {
        dedup_requests: true,
        ..jitter(0.0)
    };
    let mut a: TestNet<Inv> = TestNet::random(&base, 20, 6, &[], 2);
    let mut b: TestNet<Inv> = TestNet::random(&dedup, 20, 6, &[], 2);
    for net in [&mut a, &mut b] {
        for i in 0..5 {
            net.submit_at(Time(i * 2_000_000), i as usize, tx(i));
        }
        net.run_until(Time(30_000_000));
    }
    assert_eq!(per_node(&b, 5), 1.0);
    assert!(per_node(&a, 5) > 1.5);
    assert!(b.counter(&counters::REQUESTS_SAVED) > 0);
    assert_eq!(b.counter(&counters::REQUESTS), 19 * 5);
}

#[test]
fn a_withheld_request_is_retried_with_another_announcer() {
    let ms = Dur::from_millis;
    let cfg = InvConfig {
        dedup_requests: true,
        retry_timeout_ms: 500,
        ..jitter(0.0)
    };
    let edges = [
        (0, 1, ms(10)),
        (0, 2, ms(10)),
        (1, 3, ms(5)),
        (2, 3, ms(30)),
    ];
    let mut net: TestNet<Inv> =
        TestNet::new(&cfg, 4, &edges, &[(1, Behaviour::WithholdOnRequest)], 1);
    net.submit_at(Time(0), 0, tx(4));
    net.run_until(Time(5_000_000));
    assert_eq!(net.reached(TxId(4)), 4);
    assert_eq!(net.counter(&counters::RETRIES), 1);
    assert!(net.delivered[3][&TxId(4)] > Time(500_000));
}

#[test]
fn fail_fast_stops_verifying_copies_twice() {
    let run = |fail_fast: bool| {
        let cfg = InvConfig {
            fail_fast,
            validate_ms: 100.0,
            ..jitter(0.0)
        };
        let mut net: TestNet<Inv> = TestNet::random(&cfg, 20, 8, &[], 3);
        for i in 0..5 {
            net.submit_at(Time(i * 3_000_000), i as usize, tx(i));
        }
        net.run_until(Time(20_000_000));
        for i in 0..5 {
            assert_eq!(net.reached(TxId(i)), 20);
        }
        net
    };
    let (slow, fast) = (run(false), run(true));
    assert!(slow.counter(&counters::TXS_PROCESSED_TWICE) > 0);
    assert_eq!(fast.counter(&counters::TXS_PROCESSED_TWICE), 0);
    let saved = slow.counter(&counters::VERIFICATIONS) - fast.counter(&counters::VERIFICATIONS);
    assert_eq!(saved, fast.counter(&counters::FAIL_FAST_DROPS));
    assert_eq!(fast.counter(&counters::VERIFICATIONS), 19 * 5);
}

#[test]
fn oversized_input_is_counted() {
    let cfg = InvConfig {
        max_tx_bytes: 100,
        ..jitter(0.0)
    };
    let ms = Dur::from_millis;
    let mut net: TestNet<Inv> = TestNet::new(&cfg, 2, &[(0, 1, ms(10))], &[], 1);
    net.submit_at(Time(0), 0, tx(1));
    net.run_until(Time(1_000_000));
    assert_eq!(net.counter(&counters::OVERSIZED_TXS), 1);
    assert_eq!(net.reached(TxId(1)), 1);
}

#[test]
fn a_tx_too_long_for_the_record_bits_is_relayed_at_its_size() {
    let cfg = InvConfig {
        max_tx_bytes: u32::MAX,
        ..jitter(0.0)
    };
    let ms = Dur::from_millis;
    let edges = [(0, 1, ms(10)), (1, 2, ms(10))];
    for len in [3_000_000_000, 250] {
        let mut net: TestNet<Inv> = TestNet::new(&cfg, 3, &edges, &[], 1);
        net.submit_at(Time(0), 0, Tx { id: TxId(1), len });
        net.run_until(Time(1_000_000));
        assert_eq!(net.reached(TxId(1)), 3);
        // Node 1 answers node 2's GETDATA with the size it was sent.
        assert_eq!(net.payload_bytes_sent, 2 * u64::from(len));
    }
}

#[test]
fn spam_is_counted_as_unrequested() {
    let ms = Dur::from_millis;
    let edges = [(0, 1, ms(10)), (1, 2, ms(10))];
    let mut net: TestNet<Inv> = TestNet::new(&jitter(0.0), 3, &edges, &[(1, Behaviour::Spam)], 1);
    net.submit_at(Time(0), 0, tx(2));
    net.run_until(Time(1_000_000));
    assert_eq!(net.counter(&counters::UNREQUESTED_TXS), 1);
    assert_eq!(net.reached(TxId(2)), 3);
    // Node 2 got the tx pushed before the hash arrived, so it never asked for it.
    assert_eq!(net.counter(&counters::REQUESTS), 1);
}

/// The tx ids of every Inv in `msgs`.
fn announced(msgs: &[&InvMsg]) -> Vec<TxId> {
    let mut ids: Vec<TxId> = msgs
        .iter()
        .filter_map(|m| match m {
            InvMsg::Inv(ids) => Some(ids.to_vec()),
            _ => None,
        })
        .flatten()
        .collect();
    ids.sort();
    ids
}

#[test]
fn a_reused_peer_index_starts_with_nothing() {
    use crate::testnet::Solo;
    let ms = |t: u64| Time(t * 1_000);
    let (old, next, other) = (PeerIdx(0), PeerIdx(1), PeerIdx(2));
    for trickle in [
        Trickle::Poisson { mean_ms: 2_000.0 },
        Trickle::UniformJitter { max_ms: 2_000.0 },
    ] {
        let cfg = InvConfig {
            trickle: trickle.clone(),
            dedup_requests: true,
            ..InvConfig::default()
        };
        let delay = Behaviour::DelayReplies { delay_ms: 500.0 };
        let mut node: Solo<Inv> = Solo::new(&cfg, delay, 1);
        for p in [old, next, other] {
            node.input(Input::PeerUp(p));
        }
        // The old peer announces txs 1 and 2 and is asked for both; peer 1 announces tx 1
        // too. Tx 3 waits to be announced to everyone, and the old peer asks for it (a reply
        // it will get late).
        node.input(Input::Message(
            old,
            InvMsg::Inv(vec![TxId(1), TxId(2)].into()),
        ));
        node.input(Input::Message(next, InvMsg::Inv(vec![TxId(1)].into())));
        node.input(Input::Submit(tx(3)));
        node.input(Input::Message(old, InvMsg::GetData(vec![TxId(3)].into())));
        let asked = node.take_sent();
        assert_eq!(
            asked,
            [(old, InvMsg::GetData(vec![TxId(1), TxId(2)].into()))],
            "one request per tx"
        );

        node.run_until(ms(10));
        node.input(Input::PeerDown(old));
        // What was in flight to it moves on at once: tx 1 to its other announcer; tx 2 has none.
        assert_eq!(
            node.take_sent(),
            [(next, InvMsg::GetData(vec![TxId(1)].into()))]
        );
        assert_eq!(node.counter(&counters::RETRIES), 1);
        assert_eq!(node.counter(&counters::NO_PEER_FOR_TX), 1);

        // A new peer gets index 0. It sends tx 2, which nobody asked it for.
        node.input(Input::PeerUp(old));
        node.input(Input::Message(old, InvMsg::Tx(tx(2))));
        assert_eq!(node.counter(&counters::UNREQUESTED_TXS), 1);
        node.input(Input::Message(next, InvMsg::Tx(tx(1))));
        node.input(Input::Submit(tx(4)));
        node.run_until(ms(100_000));

        // It hears of tx 1 (the old peer had announced it, not this one) and tx 4, not of
        // tx 3, queued for the old peer; it gets no late reply and no request.
        let to_new = node.sent_to(old);
        assert_eq!(announced(&to_new), [TxId(1), TxId(4)], "{trickle:?}");
        assert!(
            to_new.iter().all(|m| matches!(m, InvMsg::Inv(_))),
            "{trickle:?}"
        );
        // The timers of the other peers were not disturbed.
        assert_eq!(
            announced(&node.sent_to(other)),
            [TxId(1), TxId(2), TxId(3), TxId(4)]
        );
        assert_eq!(node.delivered, [TxId(3), TxId(2), TxId(1), TxId(4)]);
    }
}

/// The same run whatever the ids: the simulator's dense sequence numbers, or scattered 64-bit
/// ones as on a real network (the records' hashed part), with most nodes past 64 peers (the
/// marks kept outside the records' bits).
#[test]
fn scattered_ids_and_many_peers_give_the_same_run() {
    let retrying = InvConfig {
        dedup_requests: true,
        retry_timeout_ms: 300,
        validate_ms: 5.0,
        ..jitter(200.0)
    };
    let failing_fast = InvConfig {
        fail_fast: true,
        validate_ms: 20.0,
        ..jitter(0.0)
    };
    for cfg in [jitter(0.0), retrying, failing_fast] {
        let dense = many_peers_run::<Inv>(&cfg, 250, false);
        assert!(dense.1[counters::REQUESTS.name] > 0);
        // No node gets a copy it did not ask for (the asked marks hold, past 64 peers too).
        assert!(
            !dense.1.contains_key(counters::UNREQUESTED_TXS.name),
            "{cfg:?}"
        );
        assert_eq!(dense, many_peers_run::<Inv>(&cfg, 250, true), "{cfg:?}");
    }
}

/// A run keeps hundreds of thousands of timers queued (jitter: one per hash); each event in
/// the simulator's queue is as large as its largest timer or message.
#[test]
fn a_timer_is_no_larger_than_three_words() {
    assert!(std::mem::size_of::<InvTimer>() <= 24);
}

/// Under uniform jitter every peer up when a tx is held hears of it once, each at its own
/// time within the jitter, and a peer that connects later does not: as when every (tx, peer)
/// pair had a timer of its own, though a tx's announcements now wait on one timer.
#[test]
fn a_jitter_chain_announces_once_to_each_peer_up_at_the_start_and_spreads_out() {
    use crate::testnet::Solo;
    let mut node: Solo<Inv> = Solo::new(&jitter(1_000.0), Behaviour::Honest, 4);
    for p in 0..16 {
        node.input(Input::PeerUp(PeerIdx(p)));
    }
    node.input(Input::Submit(tx(7)));
    node.input(Input::Submit(tx(8)));
    node.run_until(Time(1_000));
    node.input(Input::PeerUp(PeerIdx(16)));
    let mut per_tenth = Vec::new();
    for tenth in 1..=10 {
        node.run_until(Time(tenth * 100_000));
        per_tenth.push(node.sent.len());
    }
    for p in 0..16 {
        assert_eq!(
            announced(&node.sent_to(PeerIdx(p))),
            [TxId(7), TxId(8)],
            "peer {p}"
        );
    }
    assert!(node.sent_to(PeerIdx(16)).is_empty(), "it connected after");
    // 32 announcements, spread over the second: every tenth of it saw some.
    assert_eq!(node.sent.len(), 32);
    assert!(
        per_tenth.windows(2).all(|w| w[1] > w[0]) && per_tenth[0] > 0,
        "{per_tenth:?}"
    );
    node.run_until(Time(60_000_000));
    assert_eq!(node.sent.len(), 32, "nothing more");
}
