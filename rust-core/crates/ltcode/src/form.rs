//! The form symbols take inside the codec: the *values* that windows hold, codewords XOR and
//! the decoder peels.
//!
//! - [`Form::Bytes`]: a value is the symbol's l bytes, and its digest is computed from them.
//!   What a live node uses, and what a simulation uses where anyone corrupts payloads.
//! - [`Form::StandIn`]: a value is a [`STAND_IN_LEN`]-byte stand-in: the symbol's digest,
//!   then a tag the caller chooses (which transaction the symbol is). A simulation that never
//!   checks payload bytes peels stand-ins instead: short IDs come from digests in both forms,
//!   and XOR acts on each byte alone, so whatever peels, collides or decodes in one form does
//!   the same in the other. A codeword of stand-ins still counts l payload bytes on the wire.

use crate::digest::{digest, Digest, DIGEST_LEN};

/// Bytes of a stand-in: its digest, then the caller's tag.
pub const STAND_IN_LEN: usize = 32;
/// Bytes of a stand-in's tag.
pub const TAG_LEN: usize = STAND_IN_LEN - DIGEST_LEN;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Form {
    #[default]
    Bytes,
    StandIn,
}

impl Form {
    /// Bytes of a value for symbols of `symbol_len` bytes.
    pub fn value_len(self, symbol_len: usize) -> usize {
        match self {
            Form::Bytes => symbol_len,
            Form::StandIn => STAND_IN_LEN,
        }
    }

    /// The digest of the symbol a value is (or stands in for).
    #[inline]
    pub fn digest(self, value: &[u8]) -> Digest {
        match self {
            Form::Bytes => digest(value),
            Form::StandIn => {
                let mut d = [0; DIGEST_LEN];
                let n = value.len().min(DIGEST_LEN);
                d[..n].copy_from_slice(&value[..n]);
                d
            }
        }
    }
}

/// The stand-in for a symbol of these bytes, carrying `tag`.
pub fn stand_in(symbol: &[u8], tag: &[u8; TAG_LEN]) -> [u8; STAND_IN_LEN] {
    let mut value = [0; STAND_IN_LEN];
    value[..DIGEST_LEN].copy_from_slice(&digest(symbol));
    value[DIGEST_LEN..].copy_from_slice(tag);
    value
}

/// The tag a stand-in carries.
pub fn tag(value: &[u8]) -> Option<&[u8; TAG_LEN]> {
    value.get(DIGEST_LEN..STAND_IN_LEN)?.try_into().ok()
}

/// Whether `value` is the stand-in for a symbol of exactly these bytes.
pub fn stands_for(value: &[u8], symbol: &[u8]) -> bool {
    value.len() == STAND_IN_LEN && value[..DIGEST_LEN] == digest(symbol)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stand_in_carries_the_digest_and_the_tag() {
        let symbol = [7u8; 128];
        let value = stand_in(&symbol, &[3; TAG_LEN]);
        assert_eq!(Form::StandIn.digest(&value), Form::Bytes.digest(&symbol));
        assert_eq!(tag(&value), Some(&[3; TAG_LEN]));
        assert!(stands_for(&value, &symbol));
        assert!(!stands_for(&value, &[8u8; 128]));
        assert!(!stands_for(&value[..31], &symbol));
        assert_eq!(tag(&value[..31]), None);
        assert_eq!(
            (Form::Bytes.value_len(128), Form::StandIn.value_len(128)),
            (128, 32)
        );
    }
}
