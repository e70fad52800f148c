//! Headline measurements for `txsim bench codec` and the WASM module, plus the overhead
//! experiment tests use. The clock is the caller's (`now_s` returns seconds), so this module
//! reads none itself and runs the same natively and in WASM.

use std::hint::black_box;

use ltcode::{
    Codeword, CodingWindow, Decoder, Encoder, Event, LinkEncoder, LinkKey, Params, SplitMix64,
};

/// Transaction size of every headline figure.
pub const TX_LEN: usize = 128;
/// Codewords sent per transaction entering the sender's window in the streaming figure.
pub const STREAM_RATIO: f64 = 1.40;
const VALID: &str = "the bench parameters are valid";

/// Runs every headline measurement (about a second natively, single core) and returns
/// exactly these keys in this order. Throughputs are medians over batches (see `median`).
pub fn headline(now_s: &mut dyn FnMut() -> f64) -> Vec<(&'static str, f64)> {
    let encode = encode_rate(now_s, 400_000, 1);
    let block = block_decode(now_s, 50, 4_000, 2);
    let block_k500 = block_decode(now_s, 500, 400, 2);
    let stream = stream(now_s, 50, 400_000, STREAM_RATIO, 3);
    vec![
        ("encode_codewords_per_s", encode),
        ("block_decode_tx_per_s", block.tx_per_s),
        ("block_decode_tx_per_s_k500", block_k500.tx_per_s),
        ("stream_tx_per_s", stream.tx_per_s),
        ("stream_codewords_per_tx", stream.codewords_per_tx),
        ("stream_decoded_fraction", stream.decoded_fraction),
        ("overhead_k50", block_overhead(50, 2_000, 4)),
        ("overhead_k500", block_overhead(500, 200, 5)),
    ]
}

fn params(k: usize, symbol_len: usize) -> Params {
    Params {
        window: k,
        symbol_len,
        ..Params::default()
    }
}

fn random_symbol(rng: &mut SplitMix64, len: usize) -> Vec<u8> {
    let mut symbol = vec![0u8; len];
    rng.fill(&mut symbol);
    symbol
}

/// Codewords per second from a full window of k=50 128-byte transactions.
pub fn encode_rate(now_s: &mut dyn FnMut() -> f64, codewords: usize, seed: u64) -> f64 {
    let params = params(50, TX_LEN);
    let mut rng = SplitMix64::new(seed);
    let mut window = CodingWindow::new(&params).expect(VALID);
    for _ in 0..params.window {
        let _ = window.push(&random_symbol(&mut rng, TX_LEN));
    }
    let mut encoder = Encoder::new(&params).expect(VALID);
    let mut link = LinkEncoder::new(LinkKey::random(&mut rng), params.form);
    let mut out = Codeword::default();
    let mut rates = Vec::new();
    let mut check = 0u64;
    let mut done = 0;
    while done < codewords {
        let count = ENCODE_CHUNK.min(codewords - done);
        let start = now_s();
        for _ in 0..count {
            encoder.encode(&window, &mut link, &mut rng, &mut out);
            check = check.wrapping_add(out.ids[0] as u64 ^ out.payload[0] as u64);
        }
        rates.push(rate(count as u64, now_s() - start));
        done += count;
    }
    black_box(check);
    median(rates)
}

const ENCODE_CHUNK: usize = 20_000;

fn rate(count: u64, seconds: f64) -> f64 {
    count as f64 / seconds.max(1e-9)
}

/// Throughputs are timed per batch and summarised by the median, so a batch during which a
/// shared machine preempted us does not drag the figure.
fn median(mut rates: Vec<f64>) -> f64 {
    if rates.is_empty() {
        return 0.0;
    }
    rates.sort_by(|a, b| a.total_cmp(b));
    rates[rates.len() / 2]
}

/// Codewords laid out flat, so decoding is timed without allocation noise.
#[derive(Default)]
struct Batch {
    ids: Vec<u32>,
    /// End of each codeword's IDs in `ids`.
    ends: Vec<usize>,
    payloads: Vec<u8>,
    /// Microsecond timestamp of each codeword.
    times: Vec<u64>,
}

impl Batch {
    fn clear(&mut self) {
        self.ids.clear();
        self.ends.clear();
        self.payloads.clear();
        self.times.clear();
    }

    fn push(&mut self, cw: &Codeword, now_us: u64) {
        self.ids.extend_from_slice(&cw.ids);
        self.ends.push(self.ids.len());
        self.payloads.extend_from_slice(&cw.payload);
        self.times.push(now_us);
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    fn get(&self, index: usize, symbol_len: usize) -> (&[u32], &[u8], u64) {
        let start = if index == 0 { 0 } else { self.ends[index - 1] };
        let ids = &self.ids[start..self.ends[index]];
        let payload = &self.payloads[index * symbol_len..(index + 1) * symbol_len];
        (ids, payload, self.times[index])
    }
}

pub struct BlockResult {
    pub tx_per_s: f64,
    pub codewords_per_tx: f64,
    pub decoded_fraction: f64,
}

/// Block decoding: `blocks` fixed sets of k 128-byte transactions, each sent as a codeword
/// stream until the receiver has all k (at most 3k codewords). The receiver is cleared
/// between blocks (allocations kept); `stream` measures a long-running receiver whose
/// peeling window is full. Only decoding is timed.
pub fn block_decode(
    now_s: &mut dyn FnMut() -> f64,
    k: usize,
    blocks: usize,
    seed: u64,
) -> BlockResult {
    // Batches small enough to sit in cache, as codewords just read from the network would.
    const BATCH_BLOCKS: usize = 25;
    let params = params(k, TX_LEN);
    let mut rng = SplitMix64::new(seed);
    let mut decoder = Decoder::new(&params, &mut rng).expect(VALID);
    let key = LinkKey::random(&mut rng);
    let sender = decoder.add_sender(&key);
    let mut encoder = Encoder::new(&params).expect(VALID);
    let mut batch = Batch::default();
    let mut starts = Vec::new();
    let mut cw = Codeword::default();
    let mut events = Vec::new();
    let (mut rates, mut decoded, mut used, mut clock) = (Vec::new(), 0u64, 0u64, 0u64);
    let mut done = 0;
    while done < blocks {
        let count = BATCH_BLOCKS.min(blocks - done);
        batch.clear();
        starts.clear();
        for _ in 0..count {
            let mut window = CodingWindow::new(&params).expect(VALID);
            for _ in 0..k {
                let _ = window.push(&random_symbol(&mut rng, TX_LEN));
            }
            let mut link = LinkEncoder::new(key, params.form);
            starts.push(batch.len());
            for _ in 0..3 * k {
                encoder.encode(&window, &mut link, &mut rng, &mut cw);
                clock += 1;
                batch.push(&cw, clock);
            }
        }
        starts.push(batch.len());
        let decoded_before = decoded;
        let start = now_s();
        for block in 0..count {
            // A block is decoded on its own, as a conventional LT block would be.
            decoder.clear();
            let before = decoder.learned();
            let target = before + k as u64;
            for index in starts[block]..starts[block + 1] {
                let (ids, payload, now) = batch.get(index, TX_LEN);
                let _ = decoder.receive(sender, now, ids, payload, &mut events);
                events.clear();
                used += 1;
                if decoder.learned() >= target {
                    break;
                }
            }
            decoded += decoder.learned() - before;
        }
        rates.push(rate(decoded - decoded_before, now_s() - start));
        done += count;
    }
    BlockResult {
        tx_per_s: median(rates),
        codewords_per_tx: used as f64 / decoded.max(1) as f64,
        decoded_fraction: decoded as f64 / (blocks * k) as f64,
    }
}

/// Streaming: a sender's window of k slides as 128-byte transactions enter, one every 10 us;
/// it sends `ratio` codewords per entering transaction (and k*ratio more after the last, to
/// flush the window), all counted. The receiver first takes in as many transactions as its
/// peeling window holds, untimed (a long-running receiver's window is full; while it fills,
/// every new page of it is a page fault); then `txs` more, of which only the receiver's
/// decoding is timed.
pub fn stream(
    now_s: &mut dyn FnMut() -> f64,
    k: usize,
    txs: usize,
    ratio: f64,
    seed: u64,
) -> BlockResult {
    // Batches small enough to sit in cache, as codewords just read from the network would.
    const BATCH_TXS: usize = 2_000;
    const TX_INTERVAL_US: u64 = 10;
    let params = params(k, TX_LEN);
    let mut rng = SplitMix64::new(seed);
    let mut decoder = Decoder::new(&params, &mut rng).expect(VALID);
    let key = LinkKey::random(&mut rng);
    let sender = decoder.add_sender(&key);
    let mut window = CodingWindow::new(&params).expect(VALID);
    let mut link = LinkEncoder::new(key, params.form);
    let mut encoder = Encoder::new(&params).expect(VALID);
    let mut batch = Batch::default();
    let mut cw = Codeword::default();
    let mut events: Vec<Event> = Vec::new();
    let (mut rates, mut sent, mut credit, mut entered) = (Vec::new(), 0u64, 0.0, 0usize);
    let warm_up = params.peel_window;
    let total = warm_up + txs;
    while entered < total {
        batch.clear();
        // The first timed batch starts with the window full.
        let count = match entered < warm_up {
            true => BATCH_TXS.min(warm_up - entered),
            false => BATCH_TXS.min(total - entered),
        };
        for _ in 0..count {
            let _ = window.push(&random_symbol(&mut rng, TX_LEN));
            entered += 1;
            let now = entered as u64 * TX_INTERVAL_US;
            credit += ratio;
            while credit >= 1.0 {
                credit -= 1.0;
                encoder.encode(&window, &mut link, &mut rng, &mut cw);
                batch.push(&cw, now);
            }
        }
        if entered == total {
            let now = entered as u64 * TX_INTERVAL_US;
            for _ in 0..(k as f64 * ratio) as usize {
                encoder.encode(&window, &mut link, &mut rng, &mut cw);
                batch.push(&cw, now);
            }
        }
        let timed = entered - count >= warm_up;
        let learned_before = decoder.learned();
        let start = now_s();
        for index in 0..batch.len() {
            let (ids, payload, now) = batch.get(index, TX_LEN);
            let _ = decoder.receive(sender, now, ids, payload, &mut events);
            events.clear();
        }
        if timed {
            rates.push(rate(decoder.learned() - learned_before, now_s() - start));
        }
        sent += batch.len() as u64;
    }
    let decoded = decoder.learned();
    BlockResult {
        tx_per_s: median(rates),
        codewords_per_tx: sent as f64 / total.max(1) as f64,
        decoded_fraction: decoded as f64 / total.max(1) as f64,
    }
}

/// Mean codewords received per transaction decoded when `blocks` blocks of k transactions
/// are each sent until fully decoded (no cap): the LT overhead of Figure 1.
pub fn block_overhead(k: usize, blocks: usize, seed: u64) -> f64 {
    const SYMBOL_LEN: usize = 16;
    let params = params(k, SYMBOL_LEN);
    let mut rng = SplitMix64::new(seed);
    let mut encoder = Encoder::new(&params).expect(VALID);
    let mut cw = Codeword::default();
    let mut events = Vec::new();
    let (mut used, mut decoded) = (0u64, 0u64);
    for _ in 0..blocks {
        // A fresh receiver per block: the figure is the code's overhead, not short-ID
        // collisions with earlier blocks.
        let mut decoder = Decoder::new(&params, &mut rng).expect(VALID);
        let key = LinkKey::random(&mut rng);
        let sender = decoder.add_sender(&key);
        let mut window = CodingWindow::new(&params).expect(VALID);
        for _ in 0..k {
            let _ = window.push(&random_symbol(&mut rng, SYMBOL_LEN));
        }
        let mut link = LinkEncoder::new(key, params.form);
        // Within a block only a short-ID collision between two of its k symbols can stall
        // it (odds about k^2 / 2^33): cap the tries.
        for clock in 0..100 * k as u64 {
            encoder.encode(&window, &mut link, &mut rng, &mut cw);
            let _ = decoder.receive(sender, clock, &cw.ids, &cw.payload, &mut events);
            events.clear();
            used += 1;
            if decoder.learned() >= k as u64 {
                break;
            }
        }
        decoded += decoder.learned();
    }
    used as f64 / decoded.max(1) as f64
}
