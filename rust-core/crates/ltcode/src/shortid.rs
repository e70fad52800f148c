//! Keyed short transaction IDs (§4.3): SipHash-2-4 under a 128-bit key chosen by the receiver
//! for each link direction, truncated to 4 bytes. Without the key an adversary cannot aim a
//! collision at a given transaction, so it cannot make a receiver mis-peel it.

use crate::rng::CodecRng;
use siphasher::sip::SipHasher24;

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

/// A SipHash-2-4 instance with the key schedule done once.
#[derive(Clone, Debug)]
pub struct ShortIdHasher {
    sip: SipHasher24,
}

impl ShortIdHasher {
    pub fn new(key: &LinkKey) -> ShortIdHasher {
        ShortIdHasher {
            sip: SipHasher24::new_with_key(&key.0),
        }
    }

    pub fn id(&self, bytes: &[u8]) -> ShortId {
        self.sip.hash(bytes) as u32
    }
}

/// One-off convenience for `ShortIdHasher::new(key).id(bytes)`.
pub fn short_id(key: &LinkKey, bytes: &[u8]) -> ShortId {
    ShortIdHasher::new(key).id(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_siphash_2_4_reference_vector() {
        // SipHash-2-4 paper, Appendix A: key 00..0f, message 00..0e -> a129ca6149be45e5.
        let key: [u8; 16] = core::array::from_fn(|i| i as u8);
        let msg: Vec<u8> = (0u8..15).collect();
        let full = SipHasher24::new_with_key(&key).hash(&msg);
        assert_eq!(full, 0xa129_ca61_49be_45e5);
        assert_eq!(short_id(&LinkKey(key), &msg), 0x49be_45e5);
    }

    #[test]
    fn different_keys_give_different_ids() {
        let a = LinkKey([1; 16]);
        let b = LinkKey([2; 16]);
        let tx = [7u8; 128];
        assert_ne!(short_id(&a, &tx), short_id(&b, &tx));
    }
}
