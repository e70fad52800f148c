//! The decoder's bookkeeping: timeouts become losses, memory bounds, refusals, senders.

mod common;

use common::{random_symbols, small_params, Receiver, Sender};
use ltcode::{Codeword, LinkKey, Params, Reject, SenderId, SplitMix64};

/// A sender whose window holds `symbols`, in order.
fn sender_holding(params: &Params, key: LinkKey, symbols: &[Vec<u8>]) -> Sender {
    let mut tx = Sender::new(params, key);
    for s in symbols {
        tx.window.push(s).unwrap();
    }
    tx
}

/// `count` random symbols, a sender holding them and a receiver that added that sender, all
/// drawn from one generator seeded `seed`.
fn linked(params: &Params, seed: u64, count: usize) -> (Vec<Vec<u8>>, Sender, Receiver, SenderId) {
    let mut rng = SplitMix64::new(seed);
    let key = LinkKey::random(&mut rng);
    let syms = random_symbols(&mut rng, count, params.symbol_len);
    let tx = sender_holding(params, key, &syms);
    let mut rx = Receiver::new(params, &mut rng);
    let from = rx.decoder.add_sender(&key);
    (syms, tx, rx, from)
}

/// The codeword of window members `first` and `first + 1`.
fn pair_codeword(sender: &mut Sender, first: usize) -> Codeword {
    let mut cw = Codeword::default();
    sender.encoder.encode_members(
        &sender.window,
        &mut sender.link,
        &[first, first + 1],
        &mut cw,
    );
    cw
}

#[test]
fn undecoded_codewords_become_losses_after_tau() {
    let mut params = small_params(4, 16);
    params.timeout_us = 1_000;
    let (_, mut tx, mut rx, from) = linked(&params, 3, 4);
    rx.take(from, 100, &pair_codeword(&mut tx, 0)).unwrap();
    assert_eq!(rx.decoder.pending(), 1);
    assert_eq!(rx.decoder.next_deadline(), Some(1_100));
    rx.poll(1_099);
    assert!(rx.losses.is_empty());
    rx.poll(1_100);
    assert_eq!(rx.losses, vec![from]);
    assert_eq!(rx.decoder.pending(), 0);
    assert_eq!(rx.decoder.stats(from).unwrap().lost, 1);
}

#[test]
fn codewords_decoded_in_time_are_not_losses() {
    let mut params = small_params(4, 16);
    params.timeout_us = 1_000;
    let (syms, mut tx, mut rx, from) = linked(&params, 4, 4);
    rx.take(from, 0, &pair_codeword(&mut tx, 0)).unwrap();
    // The node learns member 0 by itself: the pending codeword yields member 1.
    rx.insert(&syms[0]);
    assert_eq!(rx.decoded, vec![syms[1].clone()]);
    rx.poll(10_000);
    assert!(rx.losses.is_empty());
}

#[test]
fn exactly_the_undecoded_codewords_time_out_also_after_the_queue_is_compacted() {
    let mut params = small_params(256, 16);
    params.timeout_us = 1_000_000;
    params.max_pending = 8;
    let (syms, mut tx, mut rx, from) = linked(&params, 7, 256);
    // A head that stays undecoded, then 100 codewords decoded behind it: the queue of
    // timeouts outgrows 2 * max_pending + 64 and is compacted.
    rx.take(from, 0, &pair_codeword(&mut tx, 0)).unwrap();
    for m in 1..=100 {
        rx.take(from, m, &pair_codeword(&mut tx, 2 * m as usize))
            .unwrap();
        rx.insert(&syms[2 * m as usize]);
    }
    assert_eq!(rx.decoded.len(), 100);
    // After the compaction: one decoded, one not.
    rx.take(from, 200, &pair_codeword(&mut tx, 240)).unwrap();
    rx.take(from, 201, &pair_codeword(&mut tx, 242)).unwrap();
    rx.insert(&syms[240]);
    assert_eq!(rx.decoder.pending(), 2);
    rx.poll(999_999);
    assert!(rx.losses.is_empty());
    rx.poll(1_000_000);
    assert_eq!(rx.losses, vec![from]);
    rx.poll(1_000_201);
    assert_eq!(rx.losses, vec![from, from]);
    assert_eq!(rx.decoder.pending(), 0);
    assert_eq!(rx.decoder.stats(from).unwrap().lost, 2);
}

#[test]
fn pending_codewords_are_bounded() {
    let mut params = small_params(4, 16);
    params.max_pending = 8;
    let mut rng = SplitMix64::new(5);
    let key = LinkKey::random(&mut rng);
    let mut rx = Receiver::new(&params, &mut rng);
    let from = rx.decoder.add_sender(&key);
    for i in 0..100u32 {
        let cw = Codeword::new(vec![2 * i, 2 * i + 1], vec![0; 16]);
        rx.take(from, i as u64, &cw).unwrap();
        assert!(rx.decoder.pending() <= 8);
    }
    assert_eq!(rx.losses.len(), 92);
}

#[test]
fn malformed_codewords_are_refused_and_counted() {
    let params = small_params(4, 16);
    let mut rng = SplitMix64::new(6);
    let key = LinkKey::random(&mut rng);
    let mut rx = Receiver::new(&params, &mut rng);
    let from = rx.decoder.add_sender(&key);
    let cases = [
        (Codeword::new(vec![], vec![0; 16]), Reject::DegreeZero),
        (
            Codeword::new(vec![1, 2, 3, 4, 5], vec![0; 16]),
            Reject::DegreeTooLarge { degree: 5, max: 4 },
        ),
        (
            Codeword::new(vec![1], vec![0; 15]),
            Reject::PayloadLength {
                expected: 16,
                got: 15,
            },
        ),
        (Codeword::new(vec![7, 7], vec![0; 16]), Reject::DuplicateId),
    ];
    for (cw, reject) in &cases {
        assert_eq!(rx.take(from, 0, cw), Err(*reject));
    }
    assert_eq!(
        rx.take(from + 1, 0, &cases[0].0),
        Err(Reject::UnknownSender)
    );
    let stats = rx.decoder.stats(from).unwrap();
    assert_eq!((stats.rejected, stats.received), (4, 0));
}

#[test]
fn removing_a_sender_drops_its_pending_codewords_quietly() {
    let params = small_params(4, 16);
    let mut rng = SplitMix64::new(7);
    let (key_a, key_b) = (LinkKey::random(&mut rng), LinkKey::random(&mut rng));
    let mut rx = Receiver::new(&params, &mut rng);
    let a = rx.decoder.add_sender(&key_a);
    let b = rx.decoder.add_sender(&key_b);
    let pending = Codeword::new(vec![1, 2], vec![0; 16]);
    rx.take(a, 0, &pending).unwrap();
    rx.take(b, 0, &pending).unwrap();
    rx.decoder.remove_sender(a);
    assert_eq!(rx.decoder.pending(), 1);
    assert!(rx.decoder.stats(a).is_none());
    assert_eq!(rx.take(a, 0, &pending), Err(Reject::UnknownSender));
    rx.poll(u64::MAX);
    assert_eq!(rx.losses, vec![b]);
    // The slot is reused by the next sender, which starts clean.
    let c = rx.decoder.add_sender(&key_a);
    assert_eq!(c, a);
    assert_eq!(rx.decoder.stats(c).unwrap().received, 0);
}

#[test]
fn a_late_sender_is_keyed_for_symbols_already_held() {
    let params = small_params(2, 16);
    let mut rng = SplitMix64::new(8);
    let syms = random_symbols(&mut rng, 2, 16);
    let mut rx = Receiver::new(&params, &mut rng);
    rx.insert(&syms[0]);
    let key = LinkKey::random(&mut rng);
    let from = rx.decoder.add_sender(&key);
    let mut tx = sender_holding(&params, key, &syms);
    rx.take(from, 0, &pair_codeword(&mut tx, 0)).unwrap();
    assert_eq!(rx.decoded, vec![syms[1].clone()]);
}

#[test]
fn the_peeling_window_forgets_old_symbols() {
    let mut params = small_params(2, 16);
    params.peel_window = 4;
    let mut rng = SplitMix64::new(9);
    let syms = random_symbols(&mut rng, 6, 16);
    let mut rx = Receiver::new(&params, &mut rng);
    let key = LinkKey::random(&mut rng);
    let from = rx.decoder.add_sender(&key);
    for s in &syms {
        rx.insert(s);
    }
    assert_eq!(rx.decoder.symbol(1), None);
    assert_eq!(rx.decoder.symbol(2), Some(&syms[2][..]));
    // A codeword naming a forgotten symbol no longer peels.
    let mut tx = Sender::new(&params, key);
    tx.window.push(&syms[0]).unwrap();
    tx.window.push(&syms[5]).unwrap();
    rx.take(from, 0, &pair_codeword(&mut tx, 0)).unwrap();
    assert_eq!(rx.decoded, vec![syms[0].clone()]);
}
