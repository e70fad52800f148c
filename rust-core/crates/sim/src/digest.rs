//! The run's fingerprint: SHA-256 over the canonical event log.
//!
//! Every processed event (its time, a kind tag and three numbers that identify it) is folded
//! into a 64-bit chain; the log holds the chain's value after every `FOLD` events, then the
//! final value and the event count. A change to any event, or to the order of any two, changes
//! the chain from there on, so it changes the digest; yet SHA-256 hashes an eighth of a word per
//! event.

use sha2::{Digest, Sha256};

/// Events per logged word.
const FOLD: u64 = 8;
/// Bytes of log hashed at a time.
const BLOCK: usize = 1 << 12;

pub struct EventLog {
    hasher: Sha256,
    chain: u64,
    events: u64,
    /// Words not hashed yet: `buf[..filled]`.
    buf: Box<[u8; BLOCK]>,
    filled: usize,
}

impl Default for EventLog {
    fn default() -> Self {
        EventLog {
            hasher: Sha256::new(),
            chain: 0,
            events: 0,
            buf: Box::new([0; BLOCK]),
            filled: 0,
        }
    }
}

impl EventLog {
    /// One event: its time, a kind tag and three numbers that identify it.
    /// Inlined: it runs once per event, and a call would cost as much as the folding.
    #[inline(always)]
    pub fn record(&mut self, time_us: u64, kind: u8, a: u32, b: u32, c: u32) {
        // Each step is a bijection of the chain for a given input (odd multiplier, xor-shift),
        // so two histories never merge; the multiplications carry each input upwards and the
        // shifts carry it back down.
        let (kind_a, b_c) = ((kind as u64) << 32 | a as u64, (b as u64) << 32 | c as u64);
        let mut h = step(self.chain ^ time_us, 0x9e37_79b9_7f4a_7c15, 32);
        h = step(h ^ kind_a, 0xbf58_476d_1ce4_e5b9, 29);
        h = step(h ^ b_c, 0x94d0_49bb_1331_11eb, 32);
        self.chain = h;
        self.events += 1;
        if self.events.is_multiple_of(FOLD) {
            self.push(h);
        }
    }

    #[inline(always)]
    fn push(&mut self, word: u64) {
        if self.filled == BLOCK {
            self.hasher.update(&self.buf[..]);
            self.filled = 0;
        }
        if let Some(slot) = self.buf.get_mut(self.filled..self.filled + 8) {
            slot.copy_from_slice(&word.to_le_bytes());
        }
        self.filled += 8;
    }

    pub fn finish(mut self) -> String {
        self.push(self.chain);
        self.push(self.events);
        self.hasher.update(&self.buf[..self.filled]);
        let out = self.hasher.finalize();
        out.iter().map(|b| format!("{b:02x}")).collect()
    }
}

#[inline(always)]
fn step(x: u64, odd: u64, shift: u32) -> u64 {
    let y = x.wrapping_mul(odd);
    y ^ (y >> shift)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digest(events: &[(u64, u8, u32, u32, u32)]) -> String {
        let mut log = EventLog::default();
        for &(t, k, a, b, c) in events {
            log.record(t, k, a, b, c);
        }
        log.finish()
    }

    /// Any one field of any one event, the order of two events, or one event more: each
    /// changes the digest, including within one fold of eight and across a hashed block.
    #[test]
    fn every_change_shows() {
        let base: Vec<(u64, u8, u32, u32, u32)> = (0..1_100u32)
            .map(|i| (i as u64 * 37, (i % 8) as u8, i * 3, i ^ 5, i % 11))
            .collect();
        let reference = digest(&base);
        let mut seen = std::collections::BTreeSet::from([reference.clone()]);
        for at in [0, 3, 7, 8, 511, 512, 1_099] {
            for field in 0..5 {
                let mut changed = base.clone();
                let e = &mut changed[at];
                match field {
                    0 => e.0 += 1,
                    1 => e.1 ^= 1,
                    2 => e.2 ^= 1 << 31,
                    3 => e.3 += 1,
                    _ => e.4 ^= 1,
                }
                assert!(seen.insert(digest(&changed)), "event {at} field {field}");
            }
            let mut swapped = base.clone();
            swapped.swap(at, (at + 1) % base.len());
            assert!(seen.insert(digest(&swapped)), "swap at {at}");
        }
        let mut longer = base.clone();
        longer.push((0, 0, 0, 0, 0));
        assert!(seen.insert(digest(&longer)));
        assert_eq!(digest(&base), reference, "same log, same digest");
    }
}
