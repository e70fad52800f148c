//! The reassembler fed arbitrary fragments (mixed with real ones): never panics, bounded
//! work, and every output is a transaction whose fragments were all given to it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ltcode::fragment::{self, FragmentParams, Reassembler};

const L: usize = 48;

fuzz_target!(|data: &[u8]| {
    let params = FragmentParams {
        symbol_len: L,
        max_fragments: 8,
        capacity: 64,
    };
    let Ok(mut re) = Reassembler::new(params) else {
        return;
    };
    // The first bytes make an honest transaction; its fragments are interleaved with the
    // fuzzer's own fragments (whole L-byte chunks of the rest).
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let split = (first as usize).min(rest.len());
    let (honest_tx, rest) = rest.split_at(split);
    let honest = fragment::fragment(honest_tx, &params).unwrap_or_default();
    let mut pushed = 0u64;
    let mut honest_out = 0;
    let mut chunks = rest.chunks(L);
    let mut next_honest = honest.iter().rev();
    loop {
        let mut any = false;
        if let Some(chunk) = chunks.next() {
            any = true;
            pushed += 1;
            // The fuzzer may send honest fragments itself: count every output.
            if let Ok(done) = re.push(chunk) {
                honest_out += done.iter().filter(|tx| tx.as_slice() == honest_tx).count();
            }
        }
        if let Some(f) = next_honest.next() {
            any = true;
            pushed += 1;
            let done = re.push(f).expect("honest fragments are well formed");
            honest_out += done.iter().filter(|tx| tx.as_slice() == honest_tx).count();
        }
        if !any {
            break;
        }
    }
    assert!(re.stats().steps <= pushed * params.max_fragments as u64);
    if !honest.is_empty() {
        assert_eq!(
            honest_out, 1,
            "the honest transaction must come out exactly once"
        );
    }
});
