//! The run's fingerprint: SHA-256 over the canonical event log, which holds one 8-byte record
//! per processed event: a 64-bit mix of the event's time, kind and the three numbers that
//! identify it. Records are buffered and hashed in blocks; eight bytes instead of the raw
//! fields keeps hashing cheap where there are no SHA instructions (WASM).

use sha2::{Digest, Sha256};

const BLOCK: usize = 1 << 16;

pub struct EventLog {
    hasher: Sha256,
    /// Records not hashed yet: `buf[..filled]`.
    buf: Box<[u8; BLOCK]>,
    filled: usize,
}

impl Default for EventLog {
    fn default() -> Self {
        EventLog {
            hasher: Sha256::new(),
            buf: Box::new([0; BLOCK]),
            filled: 0,
        }
    }
}

impl EventLog {
    /// One event: its time, a kind tag and three numbers that identify it.
    /// Inlined: it runs once per event, and a call costs as much as the mixing.
    #[inline(always)]
    pub fn record(&mut self, time_us: u64, kind: u8, a: u32, b: u32, c: u32) {
        let mut h = mix(time_us);
        h = mix(h ^ ((kind as u64) << 32 | a as u64));
        h = mix(h ^ ((b as u64) << 32 | c as u64));
        if self.filled == BLOCK {
            self.hasher.update(&self.buf[..]);
            self.filled = 0;
        }
        if let Some(slot) = self.buf.get_mut(self.filled..self.filled + 8) {
            slot.copy_from_slice(&h.to_le_bytes());
        }
        self.filled += 8;
    }

    pub fn finish(mut self) -> String {
        self.hasher.update(&self.buf[..self.filled]);
        let out = self.hasher.finalize();
        out.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// SplitMix64's finaliser: a bijection on u64 that spreads every input bit.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
