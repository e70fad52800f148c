//! The codec wire decoder on arbitrary bytes: never panics, and whatever it accepts
//! re-encodes to exactly the same bytes (the format is canonical).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ltcode::wire::{self, Limits};
use ltcode::Codeword;

fuzz_target!(|data: &[u8]| {
    let limits = Limits {
        max_degree: 64,
        max_payload_len: 512,
    };
    if let Ok(message) = wire::decode(data, &limits) {
        let mut again = Vec::new();
        message.encode(&mut again);
        assert_eq!(again, data);
        assert_eq!(message.wire_len(), data.len());
    }
    let mut reused = Codeword::default();
    if wire::decode_codeword_into(data, &limits, &mut reused).is_ok() {
        assert!(!reused.ids.is_empty() && reused.ids.len() <= 64);
        assert!(!reused.payload.is_empty() && reused.payload.len() <= 512);
    }
});
