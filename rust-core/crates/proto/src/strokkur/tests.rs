use super::*;
use crate::testnet::TestNet;
use crate::{Action, Dur, Rng, WireMsg};

fn step(
    node: &mut Strokkur,
    now: Time,
    input: Input<StrokkurMsg, StrokkurTimer>,
) -> Vec<Action<StrokkurMsg, StrokkurTimer>> {
    let mut rng = Rng::from_seed(1);
    let mut out = Vec::new();
    node.handle(input, &mut Ctx::new(now, &mut rng, &mut out));
    out
}

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
        matches!(a, Action::SetTimer { at, timer: StrokkurTimer::Send { .. } }
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
    assert!(net.counter("strokkur.codewords_sent") > 0);
    assert_eq!(net.counter("strokkur.invalid_symbols"), 0);
    assert_eq!(net.counter("strokkur.corrupt_codewords"), 0);
    // Some codewords time out: that is the rate controller's signal.
    assert!(net.counter("strokkur.losses") > 0);
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
    assert!(net.counter("strokkur.corrupt_codewords") > 0);
    assert_eq!(net.counter("strokkur.invalid_symbols"), 0);
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
    let early = net.counter("strokkur.codewords_sent");
    // About idle_after_ms of codewords at 100/s per direction, then nothing.
    assert!((20..=160).contains(&early), "{early}");
    net.run_until(Time(10_000_000));
    assert_eq!(net.counter("strokkur.codewords_sent"), early);
    net.submit_at(
        Time(10_000_000),
        1,
        Tx {
            id: TxId(1),
            len: 128,
        },
    );
    net.run_until(Time(11_000_000));
    assert!(net.counter("strokkur.codewords_sent") > early);
    assert_eq!(net.reached(TxId(1)), 2);
}
