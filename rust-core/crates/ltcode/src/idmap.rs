//! A hash map from short IDs for the decoder. Short IDs in headers are chosen by peers, so the
//! table hash mixes them with a per-decoder secret (a folded multiply, as in foldhash): a peer
//! cannot aim many IDs at one bucket chain.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

#[derive(Clone, Copy, Debug)]
pub struct SecretMix {
    seed: u64,
    multiplier: u64,
}

impl SecretMix {
    pub fn new(seed: u64, multiplier: u64) -> SecretMix {
        SecretMix {
            seed,
            multiplier: multiplier | 1,
        }
    }
}

impl BuildHasher for SecretMix {
    type Hasher = MixHasher;
    fn build_hasher(&self) -> MixHasher {
        MixHasher {
            mix: *self,
            state: 0,
        }
    }
}

pub struct MixHasher {
    mix: SecretMix,
    state: u64,
}

impl MixHasher {
    fn absorb(&mut self, value: u64) {
        let product =
            ((value ^ self.mix.seed ^ self.state) as u128) * (self.mix.multiplier as u128);
        self.state = (product as u64) ^ ((product >> 64) as u64);
    }
}

impl Hasher for MixHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.absorb(u64::from_le_bytes(word));
        }
    }

    fn write_u32(&mut self, value: u32) {
        self.absorb(value as u64);
    }

    fn finish(&self) -> u64 {
        self.state
    }
}

/// Lookups only: the decoder never iterates it, so its order cannot leak into outputs.
pub type IdMap<V> = HashMap<u32, V, SecretMix>;
