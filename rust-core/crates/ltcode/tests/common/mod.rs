//! Helpers shared by the integration tests: random symbols, a sender, a receiver that
//! collects decoded symbols.
#![allow(dead_code)]

use ltcode::{
    CodecRng, Codeword, CodingWindow, Decoder, Encoder, Event, LinkEncoder, LinkKey, Params,
    SenderId, SplitMix64,
};

pub fn random_symbols(rng: &mut SplitMix64, count: usize, len: usize) -> Vec<Vec<u8>> {
    (0..count)
        .map(|_| {
            let mut s = vec![0u8; len];
            rng.fill(&mut s);
            s
        })
        .collect()
}

/// One node's sending side towards one receiver.
pub struct Sender {
    pub window: CodingWindow,
    pub encoder: Encoder,
    pub link: LinkEncoder,
    pub codeword: Codeword,
}

impl Sender {
    pub fn new(params: &Params, key: LinkKey) -> Sender {
        Sender {
            window: CodingWindow::new(params).unwrap(),
            encoder: Encoder::new(params).unwrap(),
            link: LinkEncoder::new(key, params.form),
            codeword: Codeword::default(),
        }
    }

    pub fn next(&mut self, rng: &mut impl CodecRng) -> Codeword {
        assert!(self
            .encoder
            .encode(&self.window, &mut self.link, rng, &mut self.codeword));
        self.codeword.clone()
    }
}

/// A decoder plus everything it reported.
pub struct Receiver {
    pub decoder: Decoder,
    pub decoded: Vec<Vec<u8>>,
    pub events: Vec<Event>,
    pub losses: Vec<SenderId>,
    pub corrupt: Vec<SenderId>,
    scratch: Vec<Event>,
}

impl Receiver {
    pub fn new(params: &Params, rng: &mut impl CodecRng) -> Receiver {
        Receiver {
            decoder: Decoder::new(params, rng).unwrap(),
            decoded: Vec::new(),
            events: Vec::new(),
            losses: Vec::new(),
            corrupt: Vec::new(),
            scratch: Vec::new(),
        }
    }

    pub fn take(
        &mut self,
        sender: SenderId,
        now_us: u64,
        cw: &Codeword,
    ) -> Result<(), ltcode::Reject> {
        let result = self
            .decoder
            .receive(sender, now_us, &cw.ids, &cw.payload, &mut self.scratch);
        self.collect();
        result
    }

    pub fn poll(&mut self, now_us: u64) {
        self.decoder.poll(now_us, &mut self.scratch);
        self.collect();
    }

    pub fn insert(&mut self, symbol: &[u8]) {
        self.decoder
            .insert_known(symbol, &mut self.scratch)
            .unwrap();
        self.collect();
    }

    fn collect(&mut self) {
        for event in self.scratch.drain(..) {
            match event {
                Event::Decoded { seq, .. } => self
                    .decoded
                    .push(self.decoder.symbol(seq).expect("just decoded").to_vec()),
                Event::Loss { sender } => self.losses.push(sender),
                Event::Corrupt { sender } => self.corrupt.push(sender),
            }
            self.events.push(event);
        }
    }
}

pub fn small_params(k: usize, symbol_len: usize) -> Params {
    Params {
        window: k,
        symbol_len,
        peel_window: 65_536,
        ..Params::default()
    }
}
