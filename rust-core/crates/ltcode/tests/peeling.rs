//! The peeling view (`Peeling`) fed the inputs a decoder gets reports the decoder's events, call
//! by call and in order, and its steps add up: every symbol released is a decoded event, every
//! codeword ends released, redundant, corrupt or lost, and degrees only fall.

mod common;

use common::{random_symbols, small_params, Sender};
use ltcode::{CodecRng, Decoder, Event, LinkKey, PeelStep, Peeling, SplitMix64};
use std::collections::BTreeMap;

/// Several senders coding overlapping windows to one node, which also has symbols of its own;
/// some codewords corrupt, some late enough to time out.
fn run(seed: u64) -> (Vec<Vec<Event>>, Vec<Vec<Event>>, Peeling) {
    let params = small_params(8, 32);
    let mut rng = SplitMix64::new(seed);
    let symbols = random_symbols(&mut rng, 40, params.symbol_len);
    let mut decoder = Decoder::new(&params, &mut rng).unwrap();
    let mut peeling = Peeling::new(&params);
    let mut senders = Vec::new();
    for _ in 0..3 {
        let key = LinkKey::random(&mut rng);
        let id = decoder.add_sender(&key);
        peeling.add_sender(id, &key);
        senders.push((id, Sender::new(&params, key)));
    }
    let (mut got, mut want) = (Vec::new(), Vec::new());
    let mut now = 0u64;
    let mut next = 0usize;
    for round in 0..300u32 {
        now += 1 + rng.next_u64() % 40_000;
        let (mut a, mut b) = (Vec::new(), Vec::new());
        match rng.next_u64() % 10 {
            // A new symbol reaches every sender's window (and, sometimes, the node itself).
            0 | 1 if next < symbols.len() => {
                for (_, s) in &mut senders {
                    s.window.push(&symbols[next]).unwrap();
                }
                if rng.next_u64().is_multiple_of(3) {
                    decoder.insert_known(&symbols[next], &mut a).unwrap();
                    peeling.insert_known(&symbols[next], &mut b);
                }
                next += 1;
            }
            // Now and then a long quiet spell: codewords still waiting time out.
            2 => {
                now += (rng.next_u64() % 2) * 600_000;
                decoder.poll(now, &mut a);
                peeling.poll(now, &mut b);
            }
            _ if next > 0 => {
                let k = (rng.next_u64() % senders.len() as u64) as usize;
                let (id, s) = &mut senders[k];
                let mut cw = s.next(&mut rng);
                if round.is_multiple_of(17) {
                    cw.payload[0] ^= 0x5a;
                }
                match decoder.receive(*id, now, &cw.ids, &cw.payload, &mut a) {
                    Ok(()) => peeling.receive(*id, now, &cw.ids, &cw.payload, &mut b),
                    Err(_) => peeling.poll(now, &mut b),
                }
            }
            _ => {}
        }
        want.push(a);
        got.push(b);
    }
    (got, want, peeling)
}

#[test]
fn the_peeling_view_reports_the_decoders_events_call_by_call() {
    for seed in 1..=12 {
        let (got, want, peeling) = run(seed);
        assert_eq!(got, want, "seed {seed}");
        let decoded = want
            .iter()
            .flatten()
            .filter(|e| matches!(e, Event::Decoded { .. }));
        let released = peeling
            .steps()
            .iter()
            .filter(|s| matches!(s, PeelStep::Released { .. }));
        assert_eq!(decoded.count(), released.count(), "seed {seed}");
    }
}

#[test]
fn every_codeword_settles_once_and_its_degree_only_falls() {
    let (mut losses, mut corrupt) = (0, 0);
    for seed in 1..=12 {
        let (_, want, peeling) = run(seed);
        let events = want.iter().flatten();
        losses += events
            .clone()
            .filter(|e| matches!(e, Event::Loss { .. }))
            .count();
        corrupt += events
            .filter(|e| matches!(e, Event::Corrupt { .. }))
            .count();
        check_steps(&peeling);
    }
    assert!(
        losses > 0 && corrupt > 0,
        "{losses} losses, {corrupt} corrupt"
    );
}

fn check_steps(peeling: &Peeling) {
    let mut degree: BTreeMap<u32, u32> = BTreeMap::new();
    let mut settled: BTreeMap<u32, u32> = BTreeMap::new();
    for step in peeling.steps() {
        match *step {
            PeelStep::Arrived {
                cw,
                degree: d,
                ref ids,
                ..
            } => {
                assert!(d as usize <= ids.len());
                degree.insert(cw, d);
            }
            PeelStep::Reduced { cw, degree: d, .. } => {
                let before = degree.insert(cw, d).expect("reduced after it arrived");
                assert_eq!(d + 1, before, "one symbol at a time");
                assert!(!settled.contains_key(&cw), "no peeling after it settled");
            }
            PeelStep::Released { cw, .. }
            | PeelStep::Redundant { cw }
            | PeelStep::Corrupt { cw }
            | PeelStep::Lost { cw } => *settled.entry(cw).or_default() += 1,
            PeelStep::Known { .. } => {}
        }
    }
    assert!(settled.values().all(|&n| n == 1));
    assert!(degree
        .keys()
        .all(|cw| settled.contains_key(cw) || degree[cw] >= 2));
}
