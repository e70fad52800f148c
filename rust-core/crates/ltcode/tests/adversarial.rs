//! Adversarial senders next to an honest one: corrupt payloads, forged headers, duplicates and
//! replays, and short-ID collisions with and without secret keys. The receiver must never
//! output a transaction nobody sent, and the honest sender's transactions must still decode.

mod common;

use std::collections::HashMap;

use common::{random_symbols, small_params, Receiver, Sender};
use ltcode::{short_id, CodecRng, Codeword, LinkKey, ShortIdHasher, SplitMix64};

const K: usize = 50;
const LEN: usize = 32;

/// The honest transactions and a receiver connected to an honest sender and an adversary.
struct Scene {
    rng: SplitMix64,
    txs: Vec<Vec<u8>>,
    honest: Sender,
    adversary: Sender,
    rx: Receiver,
    h: u32,
    a: u32,
    now: u64,
}

impl Scene {
    fn new(seed: u64, count: usize) -> Scene {
        let params = small_params(K, LEN);
        let mut rng = SplitMix64::new(seed);
        let txs = random_symbols(&mut rng, count, LEN);
        let (key_h, key_a) = (LinkKey::random(&mut rng), LinkKey::random(&mut rng));
        let mut rx = Receiver::new(&params, &mut rng);
        let h = rx.decoder.add_sender(&key_h);
        let a = rx.decoder.add_sender(&key_a);
        Scene {
            honest: Sender::new(&params, key_h),
            adversary: Sender::new(&params, key_a),
            rng,
            txs,
            rx,
            h,
            a,
            now: 0,
        }
    }

    /// Streams every transaction through both senders; the honest one sends `ratio`
    /// codewords per transaction, `attack` turns each adversary codeword into its forgery.
    fn run(
        &mut self,
        ratio: usize,
        mut attack: impl FnMut(&mut Codeword, &mut SplitMix64, &Sender),
    ) {
        for i in 0..self.txs.len() + 2 * K {
            if let Some(tx) = self.txs.get(i) {
                self.honest.window.push(tx).unwrap();
                self.adversary.window.push(tx).unwrap();
            }
            self.now += 100;
            for _ in 0..ratio {
                let cw = self.honest.next(&mut self.rng);
                self.rx.take(self.h, self.now, &cw).unwrap();
            }
            let mut forged = self.adversary.next(&mut self.rng);
            attack(&mut forged, &mut self.rng, &self.adversary);
            let _ = self.rx.take(self.a, self.now, &forged);
        }
    }

    fn assert_nothing_wrong_and_all_decoded(&self) {
        let mut all = self.txs.clone();
        all.sort();
        let mut decoded = self.rx.decoded.clone();
        decoded.sort();
        for d in &decoded {
            assert!(
                all.binary_search(d).is_ok(),
                "a transaction nobody sent came out"
            );
        }
        decoded.dedup();
        assert_eq!(
            decoded.len(),
            self.rx.decoded.len(),
            "a transaction came out twice"
        );
        assert_eq!(
            decoded.len(),
            self.txs.len(),
            "honest transactions went missing"
        );
        assert_eq!(self.rx.decoder.stats(self.h).unwrap().corrupt, 0);
    }
}

#[test]
fn corrupt_payloads_are_caught_and_discarded() {
    let mut scene = Scene::new(21, 1_500);
    scene.run(2, |cw, rng, _| {
        let bit = ltcode::rng::below(rng, (cw.payload.len() * 8) as u64) as usize;
        cw.payload[bit / 8] ^= 1 << (bit % 8);
    });
    scene.assert_nothing_wrong_and_all_decoded();
    let stats = scene.rx.decoder.stats(scene.a).unwrap();
    assert!(stats.corrupt > 100, "corrupt {}", stats.corrupt);
    assert_eq!(stats.decoded, 0);
}

#[test]
fn forged_headers_are_caught_and_discarded() {
    let mut scene = Scene::new(22, 1_500);
    let mut round = 0;
    scene.run(2, |cw, rng, adversary| {
        round += 1;
        match round % 3 {
            // Name one more real member than the payload holds.
            0 => {
                let mut probe = adversary.link.clone();
                let pos = ltcode::rng::below(rng, adversary.window.len() as u64) as usize;
                let id = probe.id_of(&adversary.window, pos);
                if !cw.ids.contains(&id) {
                    cw.ids.push(id);
                }
                cw.ids.truncate(K);
            }
            // Drop a member from the header but keep it in the payload.
            1 if cw.ids.len() > 1 => {
                cw.ids.pop();
            }
            // Random IDs over a real payload.
            _ => {
                for id in cw.ids.iter_mut() {
                    *id = rng.next_u64() as u32;
                }
            }
        }
    });
    scene.assert_nothing_wrong_and_all_decoded();
    assert!(scene.rx.decoder.stats(scene.a).unwrap().corrupt > 50);
}

#[test]
fn duplicated_and_replayed_codewords_decode_nothing_twice() {
    let params = small_params(K, LEN);
    let mut rng = SplitMix64::new(23);
    let txs = random_symbols(&mut rng, 800, LEN);
    let key = LinkKey::random(&mut rng);
    let mut tx = Sender::new(&params, key);
    let mut rx = Receiver::new(&params, &mut rng);
    let from = rx.decoder.add_sender(&key);
    let mut sent = Vec::new();
    for (i, t) in txs.iter().enumerate() {
        tx.window.push(t).unwrap();
        for _ in 0..2 {
            let cw = tx.next(&mut rng);
            rx.take(from, i as u64, &cw).unwrap();
            rx.take(from, i as u64, &cw).unwrap();
            sent.push(cw);
        }
    }
    for _ in 0..3 * K {
        let cw = tx.next(&mut rng);
        rx.take(from, txs.len() as u64, &cw).unwrap();
    }
    let before = rx.decoded.len();
    for cw in &sent {
        rx.take(from, txs.len() as u64, cw).unwrap();
    }
    assert_eq!(rx.decoded.len(), before, "replays decoded something new");
    let mut decoded = rx.decoded.clone();
    decoded.sort();
    decoded.dedup();
    assert_eq!(decoded.len(), rx.decoded.len());
    assert_eq!(decoded.len(), txs.len());
    let stats = rx.decoder.stats(from).unwrap();
    assert_eq!(stats.corrupt, 0);
    assert!(stats.redundant as usize >= sent.len());
}

/// Short transactions keep the attacker's brute force (2^32 / targets hashes) quick in tests.
const ATTACK_LEN: usize = 8;

/// Finds a transaction whose short ID under `key` equals that of one of `targets`.
fn forge_collision(key: &LinkKey, targets: &[Vec<u8>], seed: u64) -> (Vec<u8>, usize) {
    let hasher = ShortIdHasher::new(key);
    let wanted: HashMap<u32, usize> = targets
        .iter()
        .enumerate()
        .map(|(i, t)| (hasher.id(t), i))
        .collect();
    let mut rng = SplitMix64::new(seed);
    let mut candidate = vec![0u8; ATTACK_LEN];
    let start = rng.next_u64();
    for counter in 0u64..200_000_000 {
        candidate.copy_from_slice(&start.wrapping_add(counter).to_le_bytes());
        if let Some(&target) = wanted.get(&hasher.id(&candidate)) {
            if candidate != targets[target] {
                return (candidate, target);
            }
        }
    }
    panic!("no collision found");
}

/// The attack of §4.3: the adversary gets the victim to decode a transaction whose short ID
/// collides with an honest one, so every honest codeword naming the honest one is mis-peeled.
/// Returns (target decoded?, all other honest decoded?, honest corrupt count).
fn collision_attack(keyed: bool) -> (bool, bool, u64) {
    let params = small_params(K, ATTACK_LEN);
    let mut rng = SplitMix64::new(31);
    let txs = random_symbols(&mut rng, 8_000, ATTACK_LEN);
    let public = LinkKey([0; 16]);
    let (key_h, key_a) = if keyed {
        (LinkKey::random(&mut rng), LinkKey::random(&mut rng))
    } else {
        (public, public)
    };
    // The adversary knows its own link key (the victim sent it) but not the honest one's.
    let (forged, target) = forge_collision(&key_a, &txs, 99);
    assert_eq!(short_id(&key_a, &forged), short_id(&key_a, &txs[target]));

    let mut rx = Receiver::new(&params, &mut rng);
    let h = rx.decoder.add_sender(&key_h);
    let a = rx.decoder.add_sender(&key_a);
    let plant = Codeword::new(vec![short_id(&key_a, &forged)], forged.clone());
    rx.take(a, 0, &plant).unwrap();
    assert_eq!(rx.decoded, vec![forged.clone()]);

    let mut honest = Sender::new(&params, key_h);
    for (i, t) in txs.iter().enumerate() {
        honest.window.push(t).unwrap();
        for _ in 0..2 {
            let cw = honest.next(&mut rng);
            rx.take(h, i as u64 + 1, &cw).unwrap();
        }
    }
    for _ in 0..3 * K {
        let cw = honest.next(&mut rng);
        rx.take(h, txs.len() as u64 + 1, &cw).unwrap();
    }
    let mut all = txs.clone();
    all.push(forged);
    all.sort();
    for d in &rx.decoded {
        assert!(
            all.binary_search(d).is_ok(),
            "a transaction nobody sent came out"
        );
    }
    let got = |t: &Vec<u8>| rx.decoded.contains(t);
    let others = txs
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != target)
        .all(|(_, t)| got(t));
    (
        got(&txs[target]),
        others,
        rx.decoder.stats(h).unwrap().corrupt,
    )
}

#[test]
fn forced_collision_censors_a_transaction_when_ids_are_unkeyed() {
    let (target_decoded, others_decoded, corrupt) = collision_attack(false);
    assert!(
        !target_decoded,
        "the attack should have censored the target"
    );
    assert!(
        corrupt > 0,
        "honest codewords naming the target should fail their check"
    );
    // Still no wrong output (checked inside) and the rest of the stream is unharmed.
    assert!(others_decoded);
}

#[test]
fn keyed_ids_defeat_the_collision_attack() {
    let (target_decoded, others_decoded, corrupt) = collision_attack(true);
    assert!(
        target_decoded,
        "the keyed receiver must decode the targeted transaction"
    );
    assert!(others_decoded);
    assert_eq!(corrupt, 0);
}

/// A sender whose codewords name symbols nobody has never gets them decoded: it can hold at
/// most its share of the pending codewords, the honest sender's txs still all decode.
#[test]
fn a_sender_of_codewords_that_never_decode_keeps_to_its_share() {
    let params = ltcode::Params {
        max_pending: 4_000,
        max_pending_per_sender: 200,
        ..small_params(K, LEN)
    };
    let mut rng = SplitMix64::new(11);
    let txs = random_symbols(&mut rng, 300, LEN);
    let (key_h, key_a) = (LinkKey::random(&mut rng), LinkKey::random(&mut rng));
    let mut rx = Receiver::new(&params, &mut rng);
    let h = rx.decoder.add_sender(&key_h);
    let a = rx.decoder.add_sender(&key_a);
    let mut honest = Sender::new(&params, key_h);
    let mut now = 0;
    // Every tx, then two windows' worth of rounds for the last ones to decode.
    for i in 0..txs.len() + 2 * K {
        if let Some(tx) = txs.get(i) {
            honest.window.push(tx).unwrap();
        }
        now += 100;
        for _ in 0..3 {
            let cw = honest.next(&mut rng);
            rx.take(h, now, &cw).unwrap();
        }
        // Ten codewords of three random IDs each per honest tx, all still within tau.
        for _ in 0..10 {
            let ids = vec![rng.next_u64() as u32, rng.next_u64() as u32, i as u32];
            let mut payload = vec![0u8; LEN];
            rng.fill(&mut payload);
            let _ = rx.take(a, now, &Codeword::new(ids, payload));
        }
        assert!(rx.decoder.pending_from(a) <= 200);
    }
    assert_eq!(rx.decoder.pending_from(a), 200);
    assert!(rx.losses.iter().filter(|&&s| s == a).count() >= 3_000 - 200);
    assert!(
        rx.losses.iter().all(|&s| s == a),
        "no honest codeword was dropped"
    );
    let missing = txs.iter().filter(|t| !rx.decoded.contains(t)).count();
    assert_eq!((missing, rx.decoded.len()), (0, txs.len()));
}

/// A sender that connects late gets only the newest `rekey_window` known symbols under its
/// key: a codeword naming an older one waits (that symbol would be decoded again), one naming
/// a recent one peels at once.
#[test]
fn a_new_sender_is_rekeyed_with_the_newest_symbols_only() {
    let params = ltcode::Params {
        rekey_window: 10,
        ..small_params(K, LEN)
    };
    let mut rng = SplitMix64::new(12);
    let known = random_symbols(&mut rng, 100, LEN);
    let mut rx = Receiver::new(&params, &mut rng);
    for s in &known {
        rx.insert(s);
    }
    let key = LinkKey::random(&mut rng);
    let late = rx.decoder.add_sender(&key);
    let hasher = ShortIdHasher::new(&key);
    let fresh = random_symbols(&mut rng, 2, LEN);
    let pair = |old: &[u8], new: &[u8]| {
        let payload: Vec<u8> = old.iter().zip(new).map(|(a, b)| a ^ b).collect();
        Codeword::new(vec![hasher.id(old), hasher.id(new)], payload)
    };
    rx.take(late, 1, &pair(&known[95], &fresh[0])).unwrap();
    assert!(rx.decoded.contains(&fresh[0]), "a recent symbol peels");
    rx.take(late, 2, &pair(&known[5], &fresh[1])).unwrap();
    assert!(
        !rx.decoded.contains(&fresh[1]),
        "an old one is not known to this sender"
    );
    assert_eq!(rx.decoder.pending_from(late), 1);
}
