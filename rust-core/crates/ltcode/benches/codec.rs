//! Criterion benches for the codec's pieces (the headline figures are in `bench::codec`).
//! `cargo bench -p ltcode` (single core, 128-byte symbols, k = 50).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ltcode::fragment::{self, FragmentParams, Reassembler};
use ltcode::wire::{self, Limits};
use ltcode::{
    digest, Codeword, CodingWindow, Decoder, Encoder, Event, LinkEncoder, LinkKey, Params,
    ShortIdHasher, SplitMix64,
};

const LEN: usize = 128;

fn full_window(params: &Params, rng: &mut SplitMix64) -> CodingWindow {
    let mut window = CodingWindow::new(params).unwrap();
    for _ in 0..params.window {
        let mut s = vec![0u8; LEN];
        rng.fill(&mut s);
        window.push(&s).unwrap();
    }
    window
}

fn encode(c: &mut Criterion) {
    let params = Params::default();
    let mut rng = SplitMix64::new(1);
    let window = full_window(&params, &mut rng);
    let mut encoder = Encoder::new(&params).unwrap();
    let mut link = LinkEncoder::new(LinkKey::random(&mut rng), params.form);
    let mut cw = Codeword::default();
    let mut group = c.benchmark_group("encode");
    group.throughput(Throughput::Elements(1));
    group.bench_function("codeword_k50", |b| {
        b.iter(|| {
            encoder.encode(&window, &mut link, &mut rng, &mut cw);
            black_box(&cw);
        })
    });
    group.finish();
}

fn decode_block(c: &mut Criterion) {
    let params = Params::default();
    let mut rng = SplitMix64::new(2);
    let window = full_window(&params, &mut rng);
    let key = LinkKey::random(&mut rng);
    let mut encoder = Encoder::new(&params).unwrap();
    let mut link = LinkEncoder::new(key, params.form);
    let stream: Vec<Codeword> = (0..4 * params.window)
        .map(|_| {
            let mut cw = Codeword::default();
            encoder.encode(&window, &mut link, &mut rng, &mut cw);
            cw
        })
        .collect();
    let mut decoder = Decoder::new(&params, &mut rng).unwrap();
    let sender = decoder.add_sender(&key);
    let mut events: Vec<Event> = Vec::new();
    let mut group = c.benchmark_group("decode");
    group.throughput(Throughput::Elements(params.window as u64));
    group.bench_function("block_k50", |b| {
        b.iter(|| {
            decoder.clear();
            for cw in &stream {
                decoder
                    .receive(sender, 0, &cw.ids, &cw.payload, &mut events)
                    .unwrap();
                events.clear();
                if decoder.learned() == params.window as u64 {
                    break;
                }
            }
            black_box(decoder.learned());
        })
    });
    group.finish();
}

fn pieces(c: &mut Criterion) {
    let mut rng = SplitMix64::new(3);
    let mut tx = vec![0u8; LEN];
    rng.fill(&mut tx);
    let hasher = ShortIdHasher::new(&LinkKey::random(&mut rng));
    c.bench_function("short_id_128B", |b| {
        b.iter(|| black_box(hasher.id(black_box(&tx))))
    });
    c.bench_function("digest_128B", |b| {
        b.iter(|| black_box(digest(black_box(&tx))))
    });
    let d = digest(&tx);
    c.bench_function("short_id_of_digest", |b| {
        b.iter(|| black_box(hasher.id(black_box(&d))))
    });

    let cw = Codeword::new(vec![7; 5], tx.clone());
    let mut bytes = Vec::new();
    cw.encode(&mut bytes);
    let limits = Limits::for_params(&Params::default());
    let mut out = Codeword::default();
    c.bench_function("wire_decode_codeword", |b| {
        b.iter(|| wire::decode_codeword_into(black_box(&bytes), &limits, &mut out).unwrap())
    });

    let fparams = FragmentParams {
        symbol_len: LEN,
        max_fragments: 64,
        capacity: 1024,
    };
    let mut big = vec![0u8; 1000];
    rng.fill(&mut big);
    c.bench_function("fragment_reassemble_1000B", |b| {
        b.iter(|| {
            let mut re = Reassembler::new(fparams).unwrap();
            let mut out = Vec::new();
            for f in fragment::fragment(&big, &fparams).unwrap() {
                out.extend(re.push(&f).unwrap());
            }
            black_box(out)
        })
    });
}

criterion_group!(benches, encode, decode_block, pieces);
criterion_main!(benches);
