//! Sequences of decoder operations driven by the fuzzer: senders come and go, honest and
//! forged codewords (real short IDs over wrong payloads, bit flips, wrong lengths), the
//! adversary's own valid transactions, local inserts, timeouts and clears. Invariants: no
//! panic, pending codewords bounded, and every decoded symbol is one somebody really sent.
//! The first byte picks the form: real bytes (tables per sender) or the simulator's stand-ins
//! (one table for all senders).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ltcode::wire::{self, Limits};
use ltcode::{
    Codeword, CodingWindow, Decoder, Encoder, Event, Form, LinkEncoder, LinkKey, Params,
    ShortIdHasher, SplitMix64,
};

const SLOTS: usize = 4;
const POOL: usize = 24;
const L: usize = 16;

struct Link {
    key: LinkKey,
    id: Option<u32>,
    window: CodingWindow,
    link: LinkEncoder,
    cursor: usize,
}

/// The short ID of `value` under `key`, as a codec of `form` names it.
fn name_id(form: Form, key: &LinkKey, value: &[u8]) -> u32 {
    let hasher = ShortIdHasher::for_form(key, form);
    match form.named_by_digest() {
        true => hasher.id(&form.digest(value)),
        false => hasher.id(value),
    }
}

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> Option<u8> {
        let (&first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(first)
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let form = match input.next() {
        Some(b) if b & 1 == 1 => Form::StandIn,
        _ => Form::Bytes,
    };
    let len = form.value_len(L);
    let params = Params {
        form,
        window: 8,
        symbol_len: L,
        peel_window: 32,
        timeout_us: 1_000,
        max_pending: 16,
        ..Params::default()
    };
    // Fixed pool and keys: the fuzzer steers the operations, not the hash inputs.
    let mut setup = SplitMix64::new(0x5eed);
    let pool: Vec<Vec<u8>> = (0..POOL)
        .map(|_| {
            let mut s = vec![0u8; len];
            setup.fill(&mut s);
            s
        })
        .collect();
    let mut links: Vec<Link> = (0..SLOTS)
        .map(|_| {
            let key = LinkKey::random(&mut setup);
            Link {
                key,
                id: None,
                window: CodingWindow::new(&params).unwrap(),
                link: LinkEncoder::new(key, params.form),
                cursor: 0,
            }
        })
        .collect();
    let mut decoder = Decoder::new(&params, &mut setup).unwrap();
    let mut encoder = Encoder::new(&params).unwrap();
    let mut rng = SplitMix64::new(1);
    let mut injected: Vec<Vec<u8>> = Vec::new();
    let mut events: Vec<Event> = Vec::new();
    let mut cw = Codeword::default();
    let mut now = 0u64;

    while let Some(op) = input.next() {
        let arg = input.next().unwrap_or(0);
        let slot = arg as usize % SLOTS;
        match op % 9 {
            0 => {
                if links[slot].id.is_none() {
                    links[slot].id = Some(decoder.add_sender(&links[slot].key));
                }
            }
            1 => {
                if let Some(id) = links[slot].id.take() {
                    decoder.remove_sender(id);
                }
            }
            2 | 8 => {
                let link = &mut links[slot];
                if arg & 0x80 != 0 || link.window.is_empty() {
                    link.window.push(&pool[link.cursor % POOL]).unwrap();
                    link.cursor += 1;
                }
                if encoder.encode(&link.window, &mut link.link, &mut rng, &mut cw) {
                    // Through the wire and back (which carries bytes only, never stand-ins).
                    if op % 9 == 8 && form == Form::Bytes {
                        let mut bytes = Vec::new();
                        cw.encode(&mut bytes);
                        wire::decode_codeword_into(&bytes, &Limits::for_params(&params), &mut cw)
                            .expect("own encoding decodes");
                    }
                    if let Some(id) = link.id {
                        decoder
                            .receive(id, now, &cw.ids, &cw.payload, &mut events)
                            .unwrap();
                    }
                }
            }
            3 => {
                let degree = 1 + input.next().unwrap_or(0) as usize % 10;
                let key = links[slot].key;
                let ids: Vec<u32> = (0..degree)
                    .map(|_| name_id(form, &key, &pool[input.next().unwrap_or(0) as usize % POOL]))
                    .collect();
                let mut payload = vec![0u8; len];
                for _ in 0..input.next().unwrap_or(0) % 4 {
                    let member = &pool[input.next().unwrap_or(0) as usize % POOL];
                    payload.iter_mut().zip(member).for_each(|(p, m)| *p ^= m);
                }
                let flip = input.next().unwrap_or(0) as usize;
                if flip < len * 8 {
                    payload[flip / 8] ^= 1 << (flip % 8);
                }
                if flip == 255 {
                    payload.pop();
                }
                if let Some(id) = links[slot].id {
                    let _ = decoder.receive(id, now, &ids, &payload, &mut events);
                }
            }
            4 => {
                decoder
                    .insert_known(&pool[arg as usize % POOL], &mut events)
                    .unwrap();
            }
            5 => {
                now += arg as u64 * 50;
                decoder.poll(now, &mut events);
            }
            6 => {
                // The adversary's own transaction, validly encoded under its key.
                let mut payload = vec![arg; len];
                for byte in payload.iter_mut().skip(1) {
                    *byte = input.next().unwrap_or(0);
                }
                if let Some(id) = links[slot].id {
                    let ids = [name_id(form, &links[slot].key, &payload)];
                    decoder
                        .receive(id, now, &ids, &payload, &mut events)
                        .unwrap();
                    injected.push(payload);
                }
            }
            _ => decoder.clear(),
        }
        assert!(decoder.pending() <= params.max_pending);
        for event in events.drain(..) {
            if let Event::Decoded { seq, .. } = event {
                let symbol = decoder.symbol(seq).expect("a new symbol is in the window");
                // Stand-ins are for runs where no one corrupts payloads: the codec checks their
                // names (digests), and only the tag's own check catches a flipped tag.
                let sent = |v: &Vec<u8>| match form {
                    Form::StandIn => form.digest(v) == form.digest(symbol),
                    _ => v == symbol,
                };
                assert!(
                    pool.iter().any(sent) || injected.iter().any(sent),
                    "decoded a symbol nobody sent"
                );
            }
        }
    }
});
