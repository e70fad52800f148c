//! Round trips over seeded random inputs. (The code's overhead against the LT bound is tested
//! with the codec bench that measures it, in crates/bench/tests/codec_overhead.rs.)

mod common;

use common::{random_symbols, small_params, Receiver, Sender};
use ltcode::{LinkKey, SplitMix64};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

fn sorted(mut v: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    v.sort();
    v
}

proptest! {
    // A fixed seed: the same cases on every run, so a statistical bound cannot flake.
    #![proptest_config(ProptestConfig { cases: 24, rng_seed: RngSeed::Fixed(24), ..ProptestConfig::default() })]

    /// A block of k symbols always comes back exactly, from a finite codeword stream.
    #[test]
    fn block_round_trip(seed in any::<u64>(), k in 1usize..80, symbol_len in 8usize..160) {
        let params = small_params(k, symbol_len);
        let mut rng = SplitMix64::new(seed);
        let symbols = random_symbols(&mut rng, k, symbol_len);
        let key = LinkKey::random(&mut rng);
        let mut sender = Sender::new(&params, key);
        for s in &symbols {
            sender.window.push(s).unwrap();
        }
        let mut rx = Receiver::new(&params, &mut rng);
        let from = rx.decoder.add_sender(&key);
        let mut sent = 0;
        while rx.decoded.len() < k && sent < 40 * k + 100 {
            let cw = sender.next(&mut rng);
            prop_assert!(!cw.ids.is_empty() && cw.ids.len() <= k);
            rx.take(from, sent as u64, &cw).unwrap();
            sent += 1;
        }
        prop_assert_eq!(sorted(rx.decoded.clone()), sorted(symbols));
        prop_assert!(rx.corrupt.is_empty());
        prop_assert_eq!(rx.decoder.stats(from).unwrap().received, sent as u64);
    }

    /// Streaming: symbols enter a sliding window of k; the receiver decodes nearly all,
    /// outputs each at most once and nothing that was not sent.
    #[test]
    fn stream_round_trip(seed in any::<u64>(), k in 4usize..60, count in 100usize..400) {
        let params = small_params(k, 24);
        let mut rng = SplitMix64::new(seed);
        let symbols = random_symbols(&mut rng, count, 24);
        let key = LinkKey::random(&mut rng);
        let mut sender = Sender::new(&params, key);
        let mut rx = Receiver::new(&params, &mut rng);
        let from = rx.decoder.add_sender(&key);
        let mut now = 0;
        for s in &symbols {
            sender.window.push(s).unwrap();
            // Generous: with a small k a transaction meets few codewords (about
            // exp(-mean degree * ratio) of them meet none), and this checks correctness.
            for _ in 0..3 {
                now += 10;
                let cw = sender.next(&mut rng);
                rx.take(from, now, &cw).unwrap();
            }
        }
        for _ in 0..3 * k {
            let cw = sender.next(&mut rng);
            rx.take(from, now, &cw).unwrap();
        }
        let decoded = sorted(rx.decoded.clone());
        let mut unique = decoded.clone();
        unique.dedup();
        prop_assert_eq!(unique.len(), decoded.len());
        let all = sorted(symbols);
        for d in &decoded {
            prop_assert!(all.binary_search(d).is_ok());
        }
        prop_assert!(decoded.len() * 100 >= count * 95, "decoded {} of {}", decoded.len(), count);
    }
}

/// Two senders whose windows overlap: the receiver decodes jointly, and a symbol decoded
/// from one sender is re-keyed to peel the other's codewords.
#[test]
fn joint_decoding_across_senders_with_different_keys() {
    let params = small_params(20, 32);
    let mut rng = SplitMix64::new(11);
    let shared = random_symbols(&mut rng, 300, 32);
    let only_a = random_symbols(&mut rng, 100, 32);
    let only_b = random_symbols(&mut rng, 100, 32);
    let (key_a, key_b) = (LinkKey::random(&mut rng), LinkKey::random(&mut rng));
    let mut a = Sender::new(&params, key_a);
    let mut b = Sender::new(&params, key_b);
    let mut rx = Receiver::new(&params, &mut rng);
    let from_a = rx.decoder.add_sender(&key_a);
    let from_b = rx.decoder.add_sender(&key_b);
    let mut now = 0;
    for i in 0..400 {
        if i < 300 {
            a.window.push(&shared[i]).unwrap();
            b.window.push(&shared[i]).unwrap();
        }
        if i % 4 == 0 {
            a.window.push(&only_a[i / 4]).unwrap();
            b.window.push(&only_b[i / 4]).unwrap();
        }
        now += 10;
        // Each sender alone sends too little for its window; together they suffice.
        let cw = a.next(&mut rng);
        rx.take(from_a, now, &cw).unwrap();
        let cw = b.next(&mut rng);
        rx.take(from_b, now, &cw).unwrap();
    }
    for _ in 0..60 {
        let cw = a.next(&mut rng);
        rx.take(from_a, now, &cw).unwrap();
        let cw = b.next(&mut rng);
        rx.take(from_b, now, &cw).unwrap();
    }
    let total = shared.len() + only_a.len() + only_b.len();
    let mut all: Vec<Vec<u8>> = shared
        .iter()
        .chain(&only_a)
        .chain(&only_b)
        .cloned()
        .collect();
    all.sort();
    for d in &rx.decoded {
        assert!(all.binary_search(d).is_ok());
    }
    assert!(
        rx.decoded.len() * 100 >= total * 95,
        "decoded {} of {total}",
        rx.decoded.len()
    );
    let (sa, sb) = (
        rx.decoder.stats(from_a).unwrap(),
        rx.decoder.stats(from_b).unwrap(),
    );
    assert!(sa.decoded > 0 && sb.decoded > 0);
    // Joint decoding: some codewords of each sender resolved redundant because the other
    // sender's symbols peeled them.
    assert!(sa.redundant > 0 && sb.redundant > 0);
}

/// A symbol decoded from sender A completes a codeword pending from sender B.
#[test]
fn decoded_symbol_is_rekeyed_for_other_senders() {
    let params = small_params(2, 16);
    let mut rng = SplitMix64::new(5);
    let syms = random_symbols(&mut rng, 2, 16);
    let (key_a, key_b) = (LinkKey::random(&mut rng), LinkKey::random(&mut rng));
    let mut a = Sender::new(&params, key_a);
    let mut b = Sender::new(&params, key_b);
    for s in &syms {
        a.window.push(s).unwrap();
        b.window.push(s).unwrap();
    }
    let mut rx = Receiver::new(&params, &mut rng);
    let from_a = rx.decoder.add_sender(&key_a);
    let from_b = rx.decoder.add_sender(&key_b);
    let mut both = ltcode::Codeword::default();
    b.encoder
        .encode_members(&b.window, &mut b.link, &[0, 1], &mut both);
    rx.take(from_b, 0, &both).unwrap();
    assert_eq!(rx.decoder.pending(), 1);
    assert_eq!(
        (
            rx.decoder.pending_from(from_a),
            rx.decoder.pending_from(from_b)
        ),
        (0, 1)
    );
    let mut first = ltcode::Codeword::default();
    a.encoder
        .encode_members(&a.window, &mut a.link, &[0], &mut first);
    rx.take(from_a, 1, &first).unwrap();
    assert_eq!(sorted(rx.decoded.clone()), sorted(syms));
    assert_eq!(rx.decoder.pending(), 0);
    assert_eq!(rx.decoder.pending_from(from_b), 0);
    assert_eq!(rx.decoder.stats(from_b).unwrap().decoded, 1);
}
