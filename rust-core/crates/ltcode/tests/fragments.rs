//! Variable-size transactions (§4.4): fragment, send through the codec, reassemble; and an
//! adversary's conflicting fragments neither splice into honest chains nor blow up the work.

mod common;

use common::{small_params, Receiver, Sender};
use ltcode::fragment::{self, FragmentError, FragmentParams, Reassembler, FIRST, HASH_LEN, LAST};
use ltcode::{LinkKey, SplitMix64};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

const L: usize = 128;

fn params() -> FragmentParams {
    FragmentParams {
        symbol_len: L,
        max_fragments: 64,
        capacity: 10_000,
    }
}

fn random_tx(rng: &mut SplitMix64, len: usize) -> Vec<u8> {
    let mut tx = vec![0u8; len];
    rng.fill(&mut tx);
    tx
}

proptest! {
    // A fixed seed: the same cases on every run, so a statistical bound cannot flake.
    #![proptest_config(ProptestConfig { cases: 32, rng_seed: RngSeed::Fixed(32), ..ProptestConfig::default() })]

    /// Any order of arrival reassembles every transaction exactly once.
    #[test]
    fn fragments_reassemble_in_any_order(seed in any::<u64>(), lens in prop::collection::vec(0usize..2_000, 1..8)) {
        let mut rng = SplitMix64::new(seed);
        let txs: Vec<Vec<u8>> = lens.iter().map(|&n| random_tx(&mut rng, n)).collect();
        let mut frags: Vec<Vec<u8>> = Vec::new();
        for tx in &txs {
            let f = fragment::fragment(tx, &params()).unwrap();
            prop_assert_eq!(f.len(), tx.len().div_ceil(params().data_per_fragment()).max(1));
            prop_assert!(f.iter().all(|x| x.len() == L));
            frags.extend(f);
        }
        // Shuffle deterministically from the seed.
        for i in (1..frags.len()).rev() {
            let j = ltcode::rng::below(&mut rng, i as u64 + 1) as usize;
            frags.swap(i, j);
        }
        let mut re = Reassembler::new(params()).unwrap();
        let mut out = Vec::new();
        for f in &frags {
            out.extend(re.push(f).unwrap());
        }
        let mut expected = txs.clone();
        expected.sort();
        expected.dedup();
        out.sort();
        prop_assert_eq!(out, expected);
    }
}

#[test]
fn fragments_travel_through_the_codec() {
    let mut rng = SplitMix64::new(41);
    let codec = small_params(50, L);
    let key = LinkKey::random(&mut rng);
    let mut tx_side = Sender::new(&codec, key);
    let mut rx = Receiver::new(&codec, &mut rng);
    let from = rx.decoder.add_sender(&key);
    let txs: Vec<Vec<u8>> = (0..200)
        .map(|i| random_tx(&mut rng, 40 + (i * 37) % 900))
        .collect();
    let mut now = 0;
    for tx in &txs {
        for f in fragment::fragment(tx, &params()).unwrap() {
            tx_side.window.push(&f).unwrap();
            for _ in 0..2 {
                now += 1;
                let cw = tx_side.next(&mut rng);
                rx.take(from, now, &cw).unwrap();
            }
        }
    }
    for _ in 0..150 {
        let cw = tx_side.next(&mut rng);
        rx.take(from, now, &cw).unwrap();
    }
    let mut re = Reassembler::new(params()).unwrap();
    let mut out = Vec::new();
    for symbol in &rx.decoded {
        out.extend(re.push(symbol).unwrap());
    }
    assert_eq!(out.len(), txs.len());
    let mut expected = txs.clone();
    expected.sort();
    out.sort();
    assert_eq!(out, expected);
}

/// Conflicting fragments: for every honest fragment the adversary sends forks (same
/// predecessor, other data) including fake LAST and FIRST ones. The honest transaction comes
/// out exactly as sent, every other output is a chain that ends in an adversary's LAST
/// fragment, and the chain-following work stays linear in what was received.
#[test]
fn conflicting_fragments_cannot_corrupt_or_blow_up_reassembly() {
    let mut rng = SplitMix64::new(43);
    let p = params();
    let honest = random_tx(&mut rng, 20 * p.data_per_fragment());
    let frags = fragment::fragment(&honest, &p).unwrap();
    assert_eq!(frags.len(), 20);
    let mut forged = Vec::new();
    for (i, f) in frags.iter().enumerate() {
        for variant in 0..4u8 {
            let mut fake = f.clone();
            fake[fragment::HEADER_LEN] ^= variant + 1;
            if variant % 2 == 1 && fake[0] & LAST == 0 {
                // A fake last fragment: only the final fragment may be short.
                fake[0] |= LAST;
            }
            if variant == 3 && i > 0 {
                // A fake first fragment (it has no predecessor).
                fake[0] = FIRST;
                fake[1..1 + HASH_LEN].fill(0);
            }
            forged.push(fake);
        }
    }
    let mut re = Reassembler::new(p).unwrap();
    let mut out = Vec::new();
    // Adversary first, then the honest fragments last-to-first (worst order for waiting).
    for f in forged.iter().chain(frags.iter().rev()) {
        out.extend(re.push(f).unwrap());
    }
    assert_eq!(out.iter().filter(|t| **t == honest).count(), 1);
    // Every other output is a chain ending in one of the adversary's own LAST fragments.
    let forged_lasts = forged.iter().filter(|f| f[0] & LAST != 0).count();
    assert!(out.len() <= 1 + forged_lasts);
    let received = (forged.len() + frags.len()) as u64;
    let stats = re.stats();
    assert!(
        stats.steps <= received * p.max_fragments as u64,
        "steps {}",
        stats.steps
    );
    // Much less in fact: each chain is followed once.
    assert!(stats.steps <= 20 * received, "steps {}", stats.steps);
}

#[test]
fn malformed_fragments_are_refused() {
    let p = params();
    let mut rng = SplitMix64::new(44);
    let f = fragment::fragment(&random_tx(&mut rng, 300), &p).unwrap();
    let mut re = Reassembler::new(p).unwrap();
    assert_eq!(
        re.push(&f[0][..L - 1]),
        Err(FragmentError::WrongLength {
            expected: L,
            got: L - 1
        })
    );
    let mut bad = f[1].clone();
    bad[0] |= 0x80;
    assert_eq!(re.push(&bad), Err(FragmentError::Flags(0x80)));
    let mut bad = f[0].clone();
    bad[5] ^= 1;
    assert_eq!(re.push(&bad), Err(FragmentError::FirstWithPrev));
    let mut bad = f[1].clone();
    bad[1 + HASH_LEN] = 1;
    assert!(matches!(re.push(&bad), Err(FragmentError::DataLen(_))));
    let mut bad = f.last().unwrap().clone();
    bad[L - 1] = 9;
    assert_eq!(re.push(&bad), Err(FragmentError::Padding));
    let too_long = vec![0u8; p.max_tx_len() + 1];
    assert!(matches!(
        fragment::fragment(&too_long, &p),
        Err(FragmentError::TooLong { .. })
    ));
    let tiny = FragmentParams {
        symbol_len: fragment::HEADER_LEN,
        ..p
    };
    assert_eq!(
        Reassembler::new(tiny).err(),
        Some(FragmentError::SymbolLen(fragment::HEADER_LEN))
    );
}

#[test]
fn chains_longer_than_the_limit_are_dropped() {
    let mut rng = SplitMix64::new(45);
    let long = FragmentParams {
        max_fragments: 10,
        ..params()
    };
    let frags =
        fragment::fragment(&random_tx(&mut rng, 10 * long.data_per_fragment()), &long).unwrap();
    let short = FragmentParams {
        max_fragments: 5,
        ..params()
    };
    let mut re = Reassembler::new(short).unwrap();
    let mut out = Vec::new();
    for f in &frags {
        out.extend(re.push(f).unwrap());
    }
    assert!(out.is_empty());
    assert_eq!(re.stats().too_long, 1);
}

/// Found by the fuzzer: a short fragment flagged FIRST|LAST named as the predecessor of a
/// LAST one would rebuild the same bytes as the honest two-fragment chain. Only the final
/// fragment of a chain may be LAST, so the bytes come out once.
#[test]
fn a_last_fragment_cannot_stand_in_for_a_middle_one() {
    let p = FragmentParams {
        symbol_len: 48,
        max_fragments: 8,
        capacity: 64,
    };
    let per = p.data_per_fragment();
    let tx: Vec<u8> = (0..per as u8 + 5).collect();
    let honest = fragment::fragment(&tx, &p).unwrap();
    assert_eq!(honest.len(), 2);
    let mut fake_first = honest[0].clone();
    fake_first[0] = FIRST | LAST;
    let mut fake_last = honest[1].clone();
    fake_last[1..1 + HASH_LEN].copy_from_slice(&fragment::full_hash(&fake_first));
    let mut re = Reassembler::new(p).unwrap();
    let mut out = Vec::new();
    for f in [&fake_first, &fake_last, &honest[1], &honest[0]] {
        out.extend(re.push(f).unwrap());
    }
    assert_eq!(out.iter().filter(|t| **t == tx).count(), 1);
    assert_eq!(re.stats().broken, 1);
}
