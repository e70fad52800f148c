//! In the stand-in form a decoder keeps one table for all its senders (`decoder`). It must
//! report exactly what tables per sender report: the same events in the same order, through
//! short-ID collisions, timeouts, dropped backlogs, sweeps of the peeling window, and senders
//! leaving and joining with symbols already known.

use ltcode::digest::DIGEST_LEN;
use ltcode::{
    CodecRng, Codeword, CodingWindow, Decoder, Encoder, Event, Form, LinkEncoder, LinkKey, Params,
    SplitMix64, STAND_IN_LEN,
};

fn params() -> Params {
    Params {
        form: Form::StandIn,
        window: 6,
        // A short peeling window and small backlogs: symbols leave and codewords are dropped.
        peel_window: 40,
        timeout_us: 30_000,
        max_pending: 60,
        max_pending_per_sender: 25,
        ..Params::default()
    }
}

/// A stand-in; one in three has its digest (its first 16 bytes) from a set of 64, so short
/// IDs collide often (as digests never do in a run: they stand for BLAKE2b-128).
fn stand_in(rng: &mut SplitMix64) -> Vec<u8> {
    let mut value = vec![0u8; STAND_IN_LEN];
    rng.fill(&mut value);
    if rng.next_u64().is_multiple_of(3) {
        SplitMix64::new(rng.next_u64() % 64).fill(&mut value[..DIGEST_LEN]);
    }
    value
}

struct Node {
    window: CodingWindow,
    encoder: Encoder,
    link: LinkEncoder,
    sender: u32,
}

/// Both decoders, fed the same calls; every call's events must agree.
struct Pair {
    one: Decoder,
    per_sender: Decoder,
    tally: [usize; 3],
}

impl Pair {
    fn same(&mut self, call: impl Fn(&mut Decoder, &mut Vec<Event>)) {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        call(&mut self.one, &mut a);
        call(&mut self.per_sender, &mut b);
        assert_eq!(a, b);
        for event in &a {
            match *event {
                Event::Decoded { seq, .. } => {
                    assert_eq!(self.one.symbol(seq), self.per_sender.symbol(seq));
                    self.tally[0] += 1;
                }
                Event::Loss { .. } => self.tally[1] += 1,
                Event::Corrupt { .. } => self.tally[2] += 1,
            }
        }
    }

    fn add(&mut self, key: &LinkKey) -> u32 {
        let sender = self.one.add_sender(key);
        assert_eq!(self.per_sender.add_sender(key), sender);
        sender
    }
}

fn run(seed: u64) -> [usize; 3] {
    let p = params();
    let mut rng = SplitMix64::new(seed);
    let mut pair = Pair {
        one: Decoder::new(&p, &mut SplitMix64::new(seed)).unwrap(),
        per_sender: Decoder::with_table_per_sender(&p, &mut SplitMix64::new(seed)).unwrap(),
        tally: [0; 3],
    };
    assert!(pair.one.one_table() && !pair.per_sender.one_table());
    let mut nodes: Vec<Node> = (0..4)
        .map(|_| {
            let key = LinkKey::random(&mut rng);
            Node {
                window: CodingWindow::new(&p).unwrap(),
                encoder: Encoder::new(&p).unwrap(),
                link: LinkEncoder::new(key, p.form),
                sender: pair.add(&key),
            }
        })
        .collect();
    let mut recent: Vec<Vec<u8>> = Vec::new();
    let mut now_us = 0;
    let mut cw = Codeword::default();
    for _ in 0..400 {
        now_us += rng.next_u64() % 4_000;
        let node = (rng.next_u64() % nodes.len() as u64) as usize;
        match rng.next_u64() % 12 {
            // A node learns a symbol: new, or one another node has (so codewords overlap).
            0..=3 => {
                let value = match recent.len() > 4 && rng.next_u64().is_multiple_of(2) {
                    true => recent[recent.len() - 1 - (rng.next_u64() % 5) as usize].clone(),
                    false => stand_in(&mut rng),
                };
                nodes[node].window.push(&value).unwrap();
                recent.push(value);
            }
            4..=8 => {
                let n = &mut nodes[node];
                if n.window.is_empty() {
                    continue;
                }
                n.encoder.encode(&n.window, &mut n.link, &mut rng, &mut cw);
                let (sender, ids, payload) = (n.sender, &cw.ids, &cw.payload);
                pair.same(|d, out| {
                    let _ = d.receive(sender, now_us, ids, payload, out);
                });
            }
            // The receiver's own symbol.
            9 => {
                let value = stand_in(&mut rng);
                pair.same(|d, out| {
                    d.insert_known(&value, out).unwrap();
                });
            }
            10 => pair.same(|d, out| d.poll(now_us, out)),
            // The sender leaves; another joins under a fresh key with the same window.
            _ => {
                pair.one.remove_sender(nodes[node].sender);
                pair.per_sender.remove_sender(nodes[node].sender);
                let key = LinkKey::random(&mut rng);
                nodes[node].link = LinkEncoder::new(key, p.form);
                nodes[node].sender = pair.add(&key);
            }
        }
    }
    for n in &nodes {
        assert_eq!(pair.one.stats(n.sender), pair.per_sender.stats(n.sender));
    }
    assert_eq!(pair.one.pending(), pair.per_sender.pending());
    pair.tally
}

#[test]
fn one_table_reports_what_tables_per_sender_report() {
    let mut tally = [0; 3];
    for seed in 0..300 {
        let t = run(seed);
        (0..3).for_each(|i| tally[i] += t[i]);
    }
    // Not vacuous: symbols decoded, codewords lost, and collisions caught as corrupt.
    let [decoded, lost, corrupt] = tally;
    assert!(
        decoded > 10_000 && lost > 1_000 && corrupt > 50,
        "{tally:?}"
    );
}

#[test]
fn one_table_only_where_every_sender_sees_the_whole_window() {
    let mut rng = SplitMix64::new(1);
    let cut = Params {
        rekey_window: params().peel_window - 1,
        ..params()
    };
    assert!(Decoder::new(&params(), &mut rng).unwrap().one_table());
    assert!(!Decoder::new(&cut, &mut rng).unwrap().one_table());
    for form in [Form::Bytes, Form::DigestedBytes] {
        let bytes = Params { form, ..params() };
        assert!(!Decoder::new(&bytes, &mut rng).unwrap().one_table());
    }
}

/// Two symbols whose IDs collide under every key: a codeword naming one is peeled with the
/// other by mistake. The leftover must fail the check (a corrupt codeword), not be decoded
/// as a symbol: one that passed would sit under a real symbol's ID and mis-peel every later
/// codeword naming it.
#[test]
fn a_mis_peel_through_colliding_ids_is_caught() {
    use ltcode::shortid::common_id;
    use ltcode::ShortIdHasher;
    use std::collections::HashMap;
    let mut rng = SplitMix64::new(9);
    let mut seen: HashMap<u32, [u8; DIGEST_LEN]> = HashMap::new();
    let (a, b) = loop {
        let mut d = [0u8; DIGEST_LEN];
        rng.fill(&mut d);
        if let Some(other) = seen.insert(common_id(&d), d) {
            break (other, d);
        }
    };
    let value = |digest: &[u8], rng: &mut SplitMix64| {
        let mut v = vec![0u8; STAND_IN_LEN];
        rng.fill(&mut v);
        v[..DIGEST_LEN].copy_from_slice(digest);
        v
    };
    let (x, x_twin, y) = (value(&a, &mut rng), value(&b, &mut rng), stand_in(&mut rng));
    let p = params();
    let key = LinkKey::random(&mut rng);
    let hasher = ShortIdHasher::for_form(&key, p.form);
    let ids = [hasher.id(&x[..DIGEST_LEN]), hasher.id(&y[..DIGEST_LEN])];
    let payload: Vec<u8> = x.iter().zip(&y).map(|(p, q)| p ^ q).collect();
    let one = Decoder::new(&p, &mut rng).unwrap();
    let per_sender = Decoder::with_table_per_sender(&p, &mut rng).unwrap();
    for mut decoder in [one, per_sender] {
        let sender = decoder.add_sender(&key);
        let mut events = Vec::new();
        decoder.insert_known(&x_twin, &mut events).unwrap();
        decoder
            .receive(sender, 0, &ids, &payload, &mut events)
            .unwrap();
        assert_eq!(events, vec![Event::Corrupt { sender }]);
    }
}
