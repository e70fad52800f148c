//! Sequences of decoder operations driven by the fuzzer: senders come and go, honest and
//! forged codewords (real short IDs over wrong payloads, bit flips, wrong lengths), the
//! adversary's own valid transactions, local inserts, timeouts and clears. Invariants: no
//! panic, pending codewords bounded, and every decoded symbol is one somebody really sent.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ltcode::wire::{self, Limits};
use ltcode::{
    short_id, Codeword, CodingWindow, Decoder, Encoder, Event, LinkEncoder, LinkKey, Params,
    SplitMix64,
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

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> Option<u8> {
        let (&first, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(first)
    }
}

fuzz_target!(|data: &[u8]| {
    let params = Params {
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
            let mut s = vec![0u8; L];
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
                link: LinkEncoder::new(key),
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
    let mut input = Bytes(data);

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
                    if op % 9 == 8 {
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
                    .map(|_| short_id(&key, &pool[input.next().unwrap_or(0) as usize % POOL]))
                    .collect();
                let mut payload = vec![0u8; L];
                for _ in 0..input.next().unwrap_or(0) % 4 {
                    let member = &pool[input.next().unwrap_or(0) as usize % POOL];
                    payload.iter_mut().zip(member).for_each(|(p, m)| *p ^= m);
                }
                let flip = input.next().unwrap_or(0) as usize;
                if flip < L * 8 {
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
                let mut payload = vec![arg; L];
                for byte in payload.iter_mut().skip(1) {
                    *byte = input.next().unwrap_or(0);
                }
                if let Some(id) = links[slot].id {
                    let ids = [short_id(&links[slot].key, &payload)];
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
                assert!(
                    pool.iter().any(|p| p == symbol) || injected.iter().any(|p| p == symbol),
                    "decoded a symbol nobody sent"
                );
            }
        }
    }
});
