//! Keyed short transaction IDs (§4.3): SipHash-2-4 of the symbol's digest (`digest`) under a
//! 128-bit key chosen by the receiver for each link direction, truncated to 4 bytes. Without
//! the key an adversary cannot aim a collision at a given transaction, so it cannot make a
//! receiver mis-peel it.
//!
//! SipHash is written out here (from the SipHash paper) for the one input length it takes, 16
//! bytes: a decoded symbol is re-keyed for every peer, and hashing one digest under several keys
//! side by side lets the CPU overlap their rounds ([`ids_into`]).

use crate::digest::{digest, Digest};
use crate::rng::CodecRng;

/// A short ID: the low 4 bytes of the keyed hash.
pub type ShortId = u32;

/// The secret a receiver sends to one peer; that peer names transactions with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinkKey(pub [u8; 16]);

impl LinkKey {
    pub fn random(rng: &mut (impl CodecRng + ?Sized)) -> LinkKey {
        let mut key = [0u8; 16];
        key[..8].copy_from_slice(&rng.next_u64().to_le_bytes());
        key[8..].copy_from_slice(&rng.next_u64().to_le_bytes());
        LinkKey(key)
    }
}

/// SipHash-2-4 under one key: the initial state, computed once.
#[derive(Clone, Copy, Debug)]
pub struct ShortIdHasher {
    init: [u64; 4],
}

impl ShortIdHasher {
    pub fn new(key: &LinkKey) -> ShortIdHasher {
        let (k0, k1) = (word(&key.0[..8]), word(&key.0[8..]));
        // "somepseudorandomlygeneratedbytes"
        ShortIdHasher {
            init: [
                k0 ^ 0x736f_6d65_7073_6575,
                k1 ^ 0x646f_7261_6e64_6f6d,
                k0 ^ 0x6c79_6765_6e65_7261,
                k1 ^ 0x7465_6462_7974_6573,
            ],
        }
    }

    /// The short ID of the symbol with this digest.
    #[inline]
    pub fn id(&self, digest: &Digest) -> ShortId {
        let mut out = [0];
        hash_lanes([self], digest, &mut out);
        out[0]
    }
}

fn word(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(b)
}

/// `out[i]` = the short ID of the symbol with this digest under `hashers[i]` (`out` as long
/// as `hashers`).
pub fn ids_into(hashers: &[ShortIdHasher], digest: &Digest, out: &mut [ShortId]) {
    // Two lanes keep the state in registers (measured: 4 lanes spill and gain less).
    let mut groups = hashers.chunks_exact(2);
    let mut outs = out.chunks_exact_mut(2);
    for (h, o) in (&mut groups).zip(&mut outs) {
        hash_lanes([&h[0], &h[1]], digest, o);
    }
    for (h, o) in groups.remainder().iter().zip(outs.into_remainder()) {
        *o = h.id(digest);
    }
}

/// One SipHash-2-4 of the 16-byte `digest` per lane; the lanes' rounds are independent, so
/// they overlap.
#[inline(always)]
fn hash_lanes<const N: usize>(hashers: [&ShortIdHasher; N], digest: &Digest, out: &mut [ShortId]) {
    let mut v: [[u64; 4]; N] = core::array::from_fn(|i| hashers[i].init);
    compress(&mut v, word(&digest[..8]));
    compress(&mut v, word(&digest[8..]));
    // The last block: no leftover bytes, the length (16) in the top byte.
    compress(&mut v, 16 << 56);
    for lane in v.iter_mut() {
        lane[2] ^= 0xff;
    }
    for _ in 0..4 {
        for lane in v.iter_mut() {
            sip_round(lane);
        }
    }
    for (o, lane) in out.iter_mut().zip(v.iter()) {
        *o = (lane[0] ^ lane[1] ^ lane[2] ^ lane[3]) as u32;
    }
}

#[inline(always)]
fn compress<const N: usize>(v: &mut [[u64; 4]; N], m: u64) {
    for lane in v.iter_mut() {
        lane[3] ^= m;
    }
    for _ in 0..2 {
        for lane in v.iter_mut() {
            sip_round(lane);
        }
    }
    for lane in v.iter_mut() {
        lane[0] ^= m;
    }
}

#[inline(always)]
fn sip_round(v: &mut [u64; 4]) {
    v[0] = v[0].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(13) ^ v[0];
    v[0] = v[0].rotate_left(32);
    v[2] = v[2].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(16) ^ v[2];
    v[0] = v[0].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(21) ^ v[0];
    v[2] = v[2].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(17) ^ v[2];
    v[2] = v[2].rotate_left(32);
}

/// One-off convenience: the short ID of a symbol's bytes under `key`.
pub fn short_id(key: &LinkKey, symbol: &[u8]) -> ShortId {
    ShortIdHasher::new(key).id(&digest(symbol))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use core::hash::Hasher;
    use siphasher::sip::SipHasher24;

    #[test]
    fn is_siphash_2_4_of_the_digest_in_every_lane() {
        let mut rng = SplitMix64::new(3);
        let keys: Vec<LinkKey> = (0..7).map(|_| LinkKey::random(&mut rng)).collect();
        let hashers: Vec<ShortIdHasher> = keys.iter().map(ShortIdHasher::new).collect();
        for len in 0..300 {
            let mut msg = vec![0u8; len];
            rng.fill(&mut msg);
            let d = digest(&msg);
            let mut out = vec![0; keys.len()];
            ids_into(&hashers, &d, &mut out);
            for (key, got) in keys.iter().zip(&out) {
                let mut reference = SipHasher24::new_with_key(&key.0);
                reference.write(&d);
                assert_eq!(*got, reference.finish() as u32, "length {len}");
                assert_eq!(short_id(key, &msg), *got);
            }
        }
    }

    #[test]
    fn different_keys_give_different_ids() {
        let a = LinkKey([1; 16]);
        let b = LinkKey([2; 16]);
        let tx = [7u8; 128];
        assert_ne!(short_id(&a, &tx), short_id(&b, &tx));
    }
}
