//! Keyed short transaction IDs (§4.3): SipHash-2-4 of a symbol's name (its bytes, or its
//! digest: see `form`) under a 128-bit key chosen by the receiver for each link direction,
//! truncated to 4 bytes. Without the key an adversary cannot aim a collision at a given
//! transaction, so it cannot make a receiver mis-peel it.
//!
//! SipHash is written out here (from the SipHash paper) rather than taken through
//! `core::hash::Hasher`: a decoded symbol is hashed under every peer's key, and hashing one
//! message under several keys side by side lets the CPU overlap their rounds ([`ids_into`]).
//!
//! In the stand-in form (a simulation in which no node corrupts payloads, `form`) a name is a
//! digest, so a short ID is a cheap mix of it ([`common_id`]) XOR 4 bytes of the key: the same
//! chance of a collision per link, no SipHash, and a symbol's IDs under any two keys differ by
//! a constant, so one decoder table serves every sender (`decoder`).

use crate::form::Form;
use crate::rng::{CodecRng, SplitMix64};

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

/// SipHash-2-4 under one key: the initial state, computed once. In the stand-in form, the
/// key's mask instead.
#[derive(Clone, Copy, Debug)]
pub struct ShortIdHasher {
    init: [u64; 4],
    mask: Option<u32>,
}

impl ShortIdHasher {
    pub fn new(key: &LinkKey) -> ShortIdHasher {
        let word = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&key.0[i..i + 8]);
            u64::from_le_bytes(b)
        };
        let (k0, k1) = (word(0), word(8));
        // "somepseudorandomlygeneratedbytes"
        ShortIdHasher {
            init: [
                k0 ^ 0x736f_6d65_7073_6575,
                k1 ^ 0x646f_7261_6e64_6f6d,
                k0 ^ 0x6c79_6765_6e65_7261,
                k1 ^ 0x7465_6462_7974_6573,
            ],
            mask: None,
        }
    }

    /// The hasher a codec of `form` names symbols with under `key`.
    pub fn for_form(key: &LinkKey, form: Form) -> ShortIdHasher {
        let mut hasher = ShortIdHasher::new(key);
        if form == Form::StandIn {
            hasher.mask = Some(u32::from_le_bytes([key.0[0], key.0[1], key.0[2], key.0[3]]));
        }
        hasher
    }

    /// In the stand-in form, what this key XORs onto a name's [`common_id`].
    pub fn mask(&self) -> Option<u32> {
        self.mask
    }

    pub fn id(&self, bytes: &[u8]) -> ShortId {
        if let Some(mask) = self.mask {
            return common_id(bytes) ^ mask;
        }
        let mut out = [0];
        hash_lanes([self], bytes, &mut out);
        out[0]
    }
}

/// `out[i]` = the short ID of `bytes` under `hashers[i]` (`out` as long as `hashers`).
pub fn ids_into(hashers: &[ShortIdHasher], bytes: &[u8], out: &mut [ShortId]) {
    if hashers.iter().any(|h| h.mask.is_some()) {
        hashers.iter().zip(out).for_each(|(h, o)| *o = h.id(bytes));
        return;
    }
    // Two lanes keep the state in registers (measured: 4 lanes spill and gain less).
    let mut groups = hashers.chunks_exact(2);
    let mut outs = out.chunks_exact_mut(2);
    for (h, o) in (&mut groups).zip(&mut outs) {
        hash_lanes([&h[0], &h[1]], bytes, o);
    }
    for (h, o) in groups.remainder().iter().zip(outs.into_remainder()) {
        *o = h.id(bytes);
    }
}

/// One SipHash-2-4 of `bytes` per lane; the lanes' rounds are independent, so they overlap.
#[inline(always)]
fn hash_lanes<const N: usize>(hashers: [&ShortIdHasher; N], bytes: &[u8], out: &mut [ShortId]) {
    let mut v: [[u64; 4]; N] = core::array::from_fn(|i| hashers[i].init);
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        compress(&mut v, u64::from_le_bytes(b));
    }
    // Last word: the leftover bytes, and the length's low byte on top.
    let mut last = (bytes.len() as u64) << 56;
    for (i, &b) in words.remainder().iter().enumerate() {
        last |= (b as u64) << (8 * i);
    }
    compress(&mut v, last);
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

/// In the stand-in form, the part of a name's short ID that every key shares: a mix of its
/// digest's bits. A mix, not the digest's bytes: a stand-in's digest is its first bytes, so the
/// XOR of stand-ins (what a mis-peel leaves) would carry the XOR of their IDs and pass the
/// decoder's check, and then sit under a real symbol's ID and mis-peel every codeword after.
pub fn common_id(name: &[u8]) -> ShortId {
    // A name is a digest (16 bytes); a shorter one is padded with zeros. Fixed-size reads,
    // so the hot path makes no call to copy a slice of unknown length.
    let mut head = [0u8; 16];
    match name.first_chunk::<16>() {
        Some(digest) => head = *digest,
        None => head[..name.len()].copy_from_slice(name),
    }
    let (low, high) = head.split_at(8);
    let word = |half: &[u8]| u64::from_le_bytes(half.try_into().unwrap_or([0; 8]));
    SplitMix64::new(word(low) ^ word(high).rotate_left(32)).next_u64() as ShortId
}

/// One-off convenience for `ShortIdHasher::new(key).id(name)`.
pub fn short_id(key: &LinkKey, name: &[u8]) -> ShortId {
    ShortIdHasher::new(key).id(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use core::hash::Hasher;
    use siphasher::sip::SipHasher24;

    #[test]
    fn matches_the_siphash_2_4_reference_vector() {
        // SipHash-2-4 paper, Appendix A: key 00..0f, message 00..0e -> a129ca6149be45e5.
        let key: [u8; 16] = core::array::from_fn(|i| i as u8);
        let msg: Vec<u8> = (0u8..15).collect();
        assert_eq!(short_id(&LinkKey(key), &msg), 0x49be_45e5);
    }

    #[test]
    fn agrees_with_the_siphasher_crate_at_every_length_and_in_every_lane() {
        let mut rng = SplitMix64::new(3);
        let keys: Vec<LinkKey> = (0..7).map(|_| LinkKey::random(&mut rng)).collect();
        let hashers: Vec<ShortIdHasher> = keys.iter().map(ShortIdHasher::new).collect();
        for len in 0..300 {
            let mut msg = vec![0u8; len];
            rng.fill(&mut msg);
            let mut out = vec![0; keys.len()];
            ids_into(&hashers, &msg, &mut out);
            for (key, got) in keys.iter().zip(&out) {
                let mut reference = SipHasher24::new_with_key(&key.0);
                reference.write(&msg);
                assert_eq!(*got, reference.finish() as u32, "length {len}");
                assert_eq!(short_id(key, &msg), *got);
            }
        }
    }

    /// The mix reads a name's first 16 bytes as two little-endian words, zero-padded: the
    /// same IDs for every name length as when it was written word by word.
    #[test]
    fn common_id_mixes_the_first_two_words_zero_padded() {
        let mut rng = SplitMix64::new(9);
        for len in 0..40 {
            let mut name = vec![0u8; len];
            rng.fill(&mut name);
            let word = |i: usize| {
                let bytes = name.get(8 * i..).unwrap_or(&[]);
                let bytes = &bytes[..bytes.len().min(8)];
                let mut w = [0u8; 8];
                w[..bytes.len()].copy_from_slice(bytes);
                u64::from_le_bytes(w)
            };
            let expected = SplitMix64::new(word(0) ^ word(1).rotate_left(32)).next_u64() as u32;
            assert_eq!(common_id(&name), expected, "length {len}");
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
