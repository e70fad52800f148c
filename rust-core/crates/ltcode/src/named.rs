//! Which coding-window positions hold a member a link has named (a codeword of the link
//! listed it), kept beside the link's other state: a bit per position, the first 128 inline
//! (windows of the paper's sizes fit, so checking one costs no memory access of its own), the
//! rest on the heap. A position's bit is cleared when a new member takes the position.

use crate::window::CodingWindow;

/// Words held inline: 64-bit, which WebAssembly shifts natively (a u128 takes a call).
const INLINE_WORDS: usize = 2;
const INLINE: usize = 64 * INLINE_WORDS;

#[derive(Clone, Debug, Default)]
pub struct Named {
    low: [u64; INLINE_WORDS],
    high: Vec<u64>,
    /// Symbols the window had pushed when the bits were last brought up to date.
    synced: u64,
}

impl Named {
    /// Clears the positions that new members took since the last call.
    #[inline]
    pub fn sync(&mut self, window: &CodingWindow) {
        let pushed = window.pushed();
        if pushed == self.synced {
            return;
        }
        let (new, capacity) = (pushed - self.synced, window.capacity());
        if new >= capacity as u64 {
            self.low = [0; INLINE_WORDS];
            self.high.fill(0);
        } else {
            // The new members took `new` positions in a row from the first one's, wrapping at
            // the capacity: cleared a word at a time (one division, not one per member).
            let start = window.position(self.synced);
            let end = start + new as usize;
            self.clear_range(start, end.min(capacity));
            self.clear_range(0, end.saturating_sub(capacity));
        }
        self.synced = pushed;
    }

    /// Clears the bits of positions `start..end`.
    fn clear_range(&mut self, mut start: usize, end: usize) {
        while start < end {
            let bits = (64 - start % 64).min(end - start);
            let mask = (u64::MAX >> (64 - bits)) << (start % 64);
            if let Some(word) = self.word_mut(start) {
                *word &= !mask;
            }
            start += bits;
        }
    }

    #[inline]
    pub fn get(&self, pos: usize) -> bool {
        self.word(pos)
            .is_some_and(|word| *word >> (pos % 64) & 1 == 1)
    }

    #[inline]
    pub fn set(&mut self, pos: usize) {
        if pos >= INLINE {
            let high_words = (pos - INLINE) / 64 + 1;
            if self.high.len() < high_words {
                self.high.resize(high_words, 0);
            }
        }
        if let Some(word) = self.word_mut(pos) {
            *word |= 1 << (pos % 64);
        }
    }

    /// The word holding `pos`'s bit, if there is one yet.
    #[inline]
    fn word(&self, pos: usize) -> Option<&u64> {
        match pos < INLINE {
            true => self.low.get(pos / 64),
            false => self.high.get((pos - INLINE) / 64),
        }
    }

    #[inline]
    fn word_mut(&mut self, pos: usize) -> Option<&mut u64> {
        match pos < INLINE {
            true => self.low.get_mut(pos / 64),
            false => self.high.get_mut((pos - INLINE) / 64),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Params;
    use crate::rng::{CodecRng, SplitMix64};

    /// Against a model that remembers which sequence number was named at each position, over
    /// inline and heap positions, single pushes and pushes that replace the whole window.
    #[test]
    fn a_position_counts_as_named_until_a_new_member_takes_it() {
        let params = Params {
            window: 200,
            symbol_len: 8,
            ..Params::default()
        };
        let mut window = CodingWindow::new(&params).expect("valid");
        let mut named = Named::default();
        let mut model: Vec<Option<u64>> = vec![None; 200];
        let mut rng = SplitMix64::new(5);
        for step in 0..5_000u64 {
            // Single pushes, runs that wrap and span words, and runs past the whole window.
            let pushes = match step % 97 {
                0 => 250,
                1 => 199,
                2 => 130,
                3 => 64,
                _ => rng.next_u64() % 3,
            };
            for _ in 0..pushes {
                window.push(&rng.next_u64().to_le_bytes()).expect("8 bytes");
            }
            named.sync(&window);
            let seq_at = |pos: usize| {
                let newest = window.pushed() - 1;
                newest - (newest - pos as u64) % 200
            };
            for (pos, named_seq) in model.iter().enumerate().take(window.len()) {
                let expected = *named_seq == Some(seq_at(pos));
                assert_eq!(named.get(pos), expected, "step {step} pos {pos}");
            }
            if !window.is_empty() {
                let pos = (rng.next_u64() % window.len() as u64) as usize;
                named.set(pos);
                model[pos] = Some(seq_at(pos));
            }
        }
    }
}
