use super::*;
use crate::testnet::TestNet;
use crate::{Action, Rng, Time};

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
    assert_eq!(net.counter("shrec.requests"), 29 * 10);
    assert_eq!(
        net.copies.iter().sum::<u64>(),
        29 * 10,
        "no duplicate copies"
    );
    assert_eq!(net.counter("shrec.duplicate_txs"), 0);
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
    assert!(production.counter("shrec.retries") > 0);
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
    assert!(net.counter("shrec.duplicate_txs") > 0);
    assert!(net.counter("shrec.retries") > 0);
}

fn step(node: &mut Shrec, input: Input<ShrecMsg, ShrecTimer>) -> Vec<Action<ShrecMsg, ShrecTimer>> {
    let mut rng = Rng::from_seed(3);
    let mut out = Vec::new();
    node.handle(input, &mut Ctx::new(Time(0), &mut rng, &mut out));
    out
}

#[test]
fn bad_input_is_counted() {
    let mut node = Shrec::new(&ShrecConfig::default(), &NodeSetup::default());
    let out = step(
        &mut node,
        Input::Message(PeerIdx(0), ShrecMsg::Request(vec![ShortId(1)])),
    );
    assert!(out
        .iter()
        .any(|a| matches!(a, Action::Count("shrec.unknown_key", 1))));
    step(&mut node, Input::PeerUp(PeerIdx(0)));
    step(
        &mut node,
        Input::Message(
            PeerIdx(0),
            ShrecMsg::Hello {
                key: LinkKey([3; 16]),
            },
        ),
    );
    let out = step(
        &mut node,
        Input::Message(PeerIdx(0), ShrecMsg::Request(vec![ShortId(1)])),
    );
    assert!(out
        .iter()
        .any(|a| matches!(a, Action::Count("shrec.request_unknown", 1))));
    let big = ShrecMsg::Tx(Tx {
        id: TxId(1),
        len: (1 << 20) + 1,
    });
    let out = step(&mut node, Input::Message(PeerIdx(0), big));
    assert!(out
        .iter()
        .any(|a| matches!(a, Action::Count("shrec.oversized_txs", 1))));
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
    assert_eq!(net.counter("shrec.unrequested_txs"), 1);
    assert_eq!(net.reached(TxId(2)), 3);
    assert_eq!(net.counter("shrec.requests"), 1);
}
