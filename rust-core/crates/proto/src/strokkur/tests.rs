use super::*;
use crate::testnet::{step, TestNet};
use crate::{Action, Dur, Rng, WireMsg};

/// `count` txs of `len` bytes at random honest nodes, `gap_ms` apart, then time to settle.
fn run_net(
    net: &mut TestNet<Strokkur>,
    nodes: usize,
    count: u64,
    len: u32,
    gap_ms: u64,
) -> Vec<TxId> {
    let mut rng = Rng::from_seed(5);
    let mut ids = Vec::new();
    for i in 0..count {
        let origin = loop {
            let v = rng.index(nodes);
            if net.nodes[v].behaviour.is_honest() {
                break v;
            }
        };
        let tx = Tx { id: TxId(i), len };
        net.submit_at(Time(i * gap_ms * 1000), origin, tx);
        ids.push(tx.id);
    }
    net.run_until(Time(count * gap_ms * 1000 + 5_000_000));
    ids
}

fn delivery(net: &TestNet<Strokkur>, ids: &[TxId], nodes: usize) -> f64 {
    let got: usize = ids.iter().map(|&id| net.reached(id)).sum();
    got as f64 / (ids.len() * nodes) as f64
}

#[test]
fn defaults_are_table_1_and_the_reference_values() {
    let c = StrokkurConfig::default();
    assert_eq!((c.window_symbols, c.peel_window_symbols), (50, 262_144));
    assert_eq!((c.soliton_c, c.soliton_delta), (0.03, 0.5));
    assert_eq!(
        (c.decode_timeout_ms, c.target_loss, c.rate_step),
        (500.0, 0.02, 0.1)
    );
    assert_eq!((c.min_rate_per_s, c.symbol_bytes), (1.0, 128));
    assert_eq!(c.validate(), Ok(()));
    let bad = StrokkurConfig {
        window_symbols: 0,
        ..StrokkurConfig::default()
    };
    assert_eq!(bad.validate().unwrap_err().field, "window_symbols");
    let bad = StrokkurConfig {
        target_loss: 1.5,
        ..StrokkurConfig::default()
    };
    assert_eq!(bad.validate().unwrap_err().field, "target_loss");
}

#[test]
fn a_link_coming_up_sends_a_fresh_key_and_a_key_starts_the_codeword_timer() {
    let mut node = Strokkur::new(&StrokkurConfig::default(), &NodeSetup::default());
    let out = step(&mut node, Time(0), Input::PeerUp(PeerIdx(0)));
    let key = out.iter().find_map(|a| match a {
        Action::Send { to, msg } if *to == PeerIdx(0) => Some(msg.clone()),
        _ => None,
    });
    let key = key.expect("a key goes to the peer");
    assert_eq!((key.kind(), key.wire_len()), ("key", 20));
    let out = step(&mut node, Time(0), Input::Message(PeerIdx(0), key));
    let timer = out.iter().any(|a| {
        matches!(a, Action::SetTimer { at, timer: StrokkurTimer::Send(_), .. }
            if *at == Time(10_000))
    });
    assert!(timer, "initial rate 100/s: next codeword in 10 ms");
}

#[test]
fn a_small_network_decodes_nearly_everything() {
    let cfg = StrokkurConfig::default();
    let mut net: TestNet<Strokkur> = TestNet::random(&cfg, 20, 6, &[], 3);
    let ids = run_net(&mut net, 20, 400, 128, 10);
    let d = delivery(&net, &ids, 20);
    assert!(d > 0.95, "delivery {d}");
    // No full copies: codewords only; each carries real coded bytes.
    assert_eq!(net.copies.iter().sum::<u64>(), 0);
    assert!(net.counter(&counters::CODEWORDS_SENT) > 0);
    assert_eq!(net.counter(&counters::INVALID_SYMBOLS), 0);
    assert_eq!(net.counter(&counters::CORRUPT_CODEWORDS), 0);
    // Few codewords time out (the rate controller's signal, which sim/tests/strokkur.rs sees
    // arrive): at one codeword per tx per link every tx is named before it leaves a window.
    assert!(net.counter(&counters::LOSSES) * 100 < net.counter(&counters::CODEWORDS_SENT));
}

#[test]
fn long_txs_travel_as_fragments() {
    let cfg = StrokkurConfig::default();
    let mut net: TestNet<Strokkur> = TestNet::random(&cfg, 12, 4, &[], 4);
    let ids = run_net(&mut net, 12, 60, 500, 50);
    let d = delivery(&net, &ids, 12);
    assert!(d > 0.9, "delivery {d}");
}

#[test]
fn corrupt_codewords_are_caught_and_honest_nodes_still_decode() {
    let cfg = StrokkurConfig::default();
    let bad: Vec<(usize, Behaviour)> = (0..4).map(|i| (i * 5, Behaviour::Corrupt)).collect();
    let mut net: TestNet<Strokkur> = TestNet::random(&cfg, 20, 6, &bad, 3);
    let ids = run_net(&mut net, 20, 300, 128, 10);
    assert!(net.counter(&counters::CORRUPT_CODEWORDS) > 0);
    assert_eq!(net.counter(&counters::INVALID_SYMBOLS), 0);
    let honest: Vec<usize> = (0..20).filter(|i| i % 5 != 0).collect();
    let got: usize = honest
        .iter()
        .map(|&v| {
            ids.iter()
                .filter(|id| net.delivered[v].contains_key(id))
                .count()
        })
        .sum();
    let d = got as f64 / (ids.len() * honest.len()) as f64;
    assert!(d > 0.9, "honest delivery {d}");
}

#[test]
fn lies_about_losses_are_bounded_by_codewords_sent() {
    let cfg = StrokkurConfig::default();
    let liars: Vec<(usize, Behaviour)> = vec![(0, Behaviour::LieAboutLoss)];
    let mut net: TestNet<Strokkur> = TestNet::random(&cfg, 10, 4, &liars, 6);
    run_net(&mut net, 10, 200, 128, 10);
    // The liar reports every codeword lost; the loss count of a real decoder stays bounded by
    // what was sent, and the rate cap keeps senders from running away.
    let rates = net.nodes[1..]
        .iter()
        .flat_map(|n| n.rates())
        .fold(0.0f64, f64::max);
    assert!(rates <= 3.0 * 100.0 + 100.0, "max rate {rates}");
}

#[test]
fn a_censoring_node_leaves_the_txs_out_of_its_codewords() {
    let cfg = StrokkurConfig::default();
    let censor = Behaviour::Censor { fraction: 1.0 };
    // A line 0 - 1 - 2: every tx from 0 must pass the censor at 1.
    let ms = Dur::from_millis;
    let edges = [(0, 1, ms(10)), (1, 2, ms(10))];
    let mut net: TestNet<Strokkur> = TestNet::new(&cfg, 3, &edges, &[(1, censor)], 2);
    for i in 0..50 {
        net.submit_at(
            Time(i * 10_000),
            0,
            Tx {
                id: TxId(i),
                len: 128,
            },
        );
    }
    net.run_until(Time(3_000_000));
    let at = |v: usize| {
        (0..50)
            .filter(|&i| net.delivered[v].contains_key(&TxId(i)))
            .count()
    };
    assert!(at(1) > 40, "the censor itself decodes: {}", at(1));
    assert_eq!(at(2), 0);
}

#[test]
fn streams_pause_when_no_new_symbol_comes_and_resume_with_the_next() {
    let cfg = StrokkurConfig::default();
    let ms = Dur::from_millis;
    let mut net: TestNet<Strokkur> = TestNet::new(&cfg, 2, &[(0, 1, ms(20))], &[], 1);
    net.submit_at(
        Time(0),
        0,
        Tx {
            id: TxId(0),
            len: 128,
        },
    );
    net.run_until(Time(3_000_000));
    let early = net.counter(&counters::CODEWORDS_SENT);
    // About idle_after_ms of codewords at 100/s per direction, then nothing.
    assert!((20..=160).contains(&early), "{early}");
    net.run_until(Time(10_000_000));
    assert_eq!(net.counter(&counters::CODEWORDS_SENT), early);
    net.submit_at(
        Time(10_000_000),
        1,
        Tx {
            id: TxId(1),
            len: 128,
        },
    );
    net.run_until(Time(11_000_000));
    assert!(net.counter(&counters::CODEWORDS_SENT) > early);
    assert_eq!(net.reached(TxId(1)), 2);
}

#[test]
fn a_reused_peer_index_starts_with_nothing() {
    let cfg = StrokkurConfig::default();
    let ms = Dur::from_millis;
    // Node 1 reports every codeword it gets as lost, so it owes node 0 a loss count between
    // a codeword from it and the next one to it (15 ms links keep the two out of step).
    let liar = [(1, Behaviour::LieAboutLoss)];
    let mut net: TestNet<Strokkur> = TestNet::new(&cfg, 2, &[(0, 1, ms(15))], &liar, 1);
    for i in 0..20 {
        let tx = Tx {
            id: TxId(i),
            len: 128,
        };
        net.submit_at(Time(i * 10_000), i as usize % 2, tx);
    }
    // Between a codeword's arrival at node 1 and node 1's next codeword to node 0.
    net.run_until(Time(203_000));
    let now = net.now;
    let node = &mut net.nodes[1];
    let p = PeerIdx(0);
    let fresh = RateControl::new(&cfg).rate();
    // Node 1's state for the old peer at index 0: a link, a rate moved by sending, losses
    // to report, a send timer pending.
    let old = &node.peers[p.idx()];
    assert!(old.link.is_some() && old.sent > 0 && old.losses_to_report > 0);
    assert_ne!(old.rate.rate(), fresh);
    assert!(old.send_timer.is_some());
    let stale_timer = StrokkurTimer::Send(p);

    step(node, now, Input::PeerDown(p));
    let gone = &node.peers[p.idx()];
    assert!(!gone.up && gone.sender.is_none() && gone.link.is_none());
    assert!(gone.send_timer.is_none(), "its send timer is cancelled");
    assert_eq!((gone.sent, gone.losses_to_report), (0, 0));
    assert!(
        !node.sender_peer.contains(&p),
        "no decoder sender stands for the old peer"
    );

    // A new peer gets index 0: a fresh key and decoder sender, nothing else yet.
    let out = step(node, now, Input::PeerUp(p));
    assert!(matches!(&out[..], [Action::Send { to, msg }] if *to == p && msg.kind() == "key"));
    let new = &node.peers[p.idx()];
    assert!(new.up && new.link.is_none() && new.sender.is_some());
    assert_eq!(node.sender_peer.iter().filter(|&&q| q == p).count(), 1);
    assert_eq!(node.rates()[p.idx()], 0.0, "no stream before its key");
    // Even delivered, the old peer's send timer sends nothing to the new one.
    let out = step(node, now + ms(5), Input::Timer(stale_timer));
    assert!(!out.iter().any(|a| matches!(a, Action::Send { .. })));
    // It was sent nothing, so no loss it reports is believed.
    let out = step(node, now, Input::Message(p, StrokkurMsg::report(5)));
    assert!(out
        .iter()
        .any(|a| matches!(a, Action::Count(c, 5) if *c == &counters::EXCESS_LOSSES_REPORTED)));
    // Its key starts a stream at the initial rate, and its first codeword reports no loss.
    let key = ltcode::LinkKey::random(&mut Rng::from_seed(9));
    let out = step(node, now, Input::Message(p, StrokkurMsg::key(key)));
    assert_eq!(node.rates()[p.idx()], fresh);
    let timer = out.into_iter().find_map(|a| match a {
        Action::SetTimer { at, timer, .. } => Some((at, timer)),
        _ => None,
    });
    let (at, timer) = timer.expect("a send timer");
    assert_eq!(at, now + ms(10));
    let out = step(node, at, Input::Timer(timer));
    let first = out.iter().find_map(|a| match a {
        Action::Send { to, msg } if *to == p => Some(msg),
        _ => None,
    });
    let first = first.expect("a codeword");
    assert_eq!((first.kind(), first.losses), ("codeword", 0));

    // A host that reports a peer up again without down: the index has a new peer all the
    // same, and the previous one's decoder sender goes.
    step(node, at, Input::PeerUp(p));
    assert_eq!(node.sender_peer.iter().filter(|&&q| q == p).count(), 1);
    assert!(node.peers[p.idx()].link.is_none());
}

fn counts(actions: &[Action<StrokkurMsg, StrokkurTimer>], counter: &crate::Counter) -> u64 {
    actions
        .iter()
        .map(|a| match a {
            Action::Count(c, n) if *c == counter => *n,
            _ => 0,
        })
        .sum()
}

#[test]
fn the_txs_known_are_the_newest_only_and_rekeys_are_counted() {
    let cfg = StrokkurConfig {
        max_known_txs: 10,
        ..StrokkurConfig::default()
    };
    let mut node = Strokkur::new(&cfg, &NodeSetup::default());
    let up = step(&mut node, Time(0), Input::PeerUp(PeerIdx(0)));
    let key = up.iter().find_map(|a| match a {
        Action::Send { msg, .. } => Some(msg.clone()),
        _ => None,
    });
    let key = key.expect("a key goes to the peer");
    let first = step(&mut node, Time(0), Input::Message(PeerIdx(0), key.clone()));
    assert_eq!(counts(&first, &counters::REKEYS), 0);
    let again = step(&mut node, Time(1), Input::Message(PeerIdx(0), key));
    assert_eq!(counts(&again, &counters::REKEYS), 1);
    let mut forgotten = 0;
    for i in 0..30 {
        let tx = Tx {
            id: TxId(i),
            len: 128,
        };
        forgotten += counts(
            &step(&mut node, Time(2), Input::Submit(tx)),
            &counters::FORGOTTEN_TXS,
        );
    }
    assert_eq!((node.have.len(), forgotten), (10, 20));
}
