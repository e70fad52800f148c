//! The form symbols take inside the codec: the *values* that windows hold, codewords XOR and
//! the decoder peels, and the *name* of each value that short IDs hash (`shortid`).
//!
//! - [`Form::Bytes`]: a value is the symbol's l bytes, and is its own name. What a live node
//!   and the wire (`wire::VERSION` 1) use: one keyed hash of the bytes per link, no digest.
//! - [`Form::DigestedBytes`]: a value is the symbol's bytes, named by its digest (`digest`).
//!   What a simulation uses where anyone corrupts payloads: the same names as stand-ins.
//! - [`Form::StandIn`]: a value is a [`STAND_IN_LEN`]-byte stand-in: the symbol's digest,
//!   then a tag the caller chooses (which transaction the symbol is), named by that digest.
//!   A simulation that never checks payload bytes peels stand-ins instead: names are digests
//!   in both digest forms, and XOR acts on each byte alone, so whatever peels, collides or
//!   decodes in one does the same in the other. A codeword of stand-ins still counts l payload
//!   bytes on the wire.
//!
//! A digest costs more than one keyed hash of 128 bytes, so it pays only where a symbol is
//! re-keyed for many peers and never hashed from its bytes (a simulation of stand-ins).

use crate::digest::{digest, Digest, DIGEST_LEN};

/// Bytes of a stand-in: its digest, then the caller's tag.
pub const STAND_IN_LEN: usize = 32;
/// Bytes of a stand-in's tag.
pub const TAG_LEN: usize = STAND_IN_LEN - DIGEST_LEN;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Form {
    #[default]
    Bytes,
    DigestedBytes,
    StandIn,
}

impl Form {
    /// Bytes of a value for symbols of `symbol_len` bytes.
    pub fn value_len(self, symbol_len: usize) -> usize {
        match self {
            Form::Bytes | Form::DigestedBytes => symbol_len,
            Form::StandIn => STAND_IN_LEN,
        }
    }

    /// Whether short IDs hash a value's digest (else its bytes).
    pub fn named_by_digest(self) -> bool {
        self != Form::Bytes
    }

    /// The digest of the symbol a value is (or stands in for).
    #[inline]
    pub fn digest(self, value: &[u8]) -> Digest {
        match self {
            Form::Bytes | Form::DigestedBytes => digest(value),
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
        assert_eq!(
            Form::StandIn.digest(&value),
            Form::DigestedBytes.digest(&symbol)
        );
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
