//! A symbol's digest: BLAKE2b-128 of its bytes, computed once per symbol. Every link's short
//! ID is a keyed hash of the digest (`shortid`), so re-keying a symbol for another peer hashes
//! 16 bytes, not the whole symbol. 128 bits keep the digest collision resistant: two symbols
//! with one digest would share their short ID under every key.

use blake2::digest::consts::U16;
use blake2::{Blake2b, Digest as _};

pub const DIGEST_LEN: usize = 16;

pub type Digest = [u8; DIGEST_LEN];

/// The digest of a symbol's bytes.
pub fn digest(symbol: &[u8]) -> Digest {
    Blake2b::<U16>::digest(symbol).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_blake2b_with_a_16_byte_output() {
        // RFC 7693's test message "abc", hashed at the 16-byte output length (which BLAKE2b
        // folds into its parameter block, so this is not a prefix of BLAKE2b-512).
        assert_eq!(
            digest(b"abc"),
            [
                0xcf, 0x4a, 0xb7, 0x91, 0xc6, 0x2b, 0x8d, 0x2b, 0x21, 0x09, 0xc9, 0x02, 0x75, 0x28,
                0x78, 0x16
            ]
        );
        assert_ne!(digest(&[0; 128]), digest(&[1; 128]));
    }
}
