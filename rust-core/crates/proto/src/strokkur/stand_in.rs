//! Strokkur's stand-in tags. Where the codec carries stand-ins (`ltcode::form`: a simulation in
//! which no node corrupts payloads), a symbol travels as its digest and this tag, which names
//! it: its tx (id and length) and which part of the tx it is.
//!
//! ```text
//! tag = id:u64le len:u32le part:u16le check:u16le     part: 0xffff the whole tx, else a fragment
//! ```
//!
//! A decoded stand-in is whatever its tag names. Only a mis-peeled codeword (a short-ID
//! collision) yields a garbled stand-in, and the decoder's 32-bit check passes one of those in
//! 2^32; the tag's 16-bit check then refuses it but for one in 2^16 (the bytes form refuses
//! garbled bytes outright), so the forms part ways once in 2^48 mis-peels.

use crate::{Tx, TxId};
use ltcode::form::TAG_LEN;

/// Which symbol of its tx a stand-in stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The tx is exactly one symbol.
    Whole,
    /// Fragment number i of the tx.
    Fragment(u16),
}

const WHOLE: u16 = u16::MAX;
/// Fragments a stand-in can number (the tag has 16 bits, one value meaning "whole").
pub const MAX_FRAGMENTS: usize = WHOLE as usize;

pub fn tag(tx: Tx, part: Part) -> [u8; TAG_LEN] {
    let part = match part {
        Part::Whole => WHOLE,
        Part::Fragment(i) => i,
    };
    let mut tag = [0; TAG_LEN];
    tag[..8].copy_from_slice(&tx.id.0.to_le_bytes());
    tag[8..12].copy_from_slice(&tx.len.to_le_bytes());
    tag[12..14].copy_from_slice(&part.to_le_bytes());
    let check = check(&tag);
    tag[14..].copy_from_slice(&check.to_le_bytes());
    tag
}

/// What a tag names, if its check holds.
pub fn untag(tag: &[u8; TAG_LEN]) -> Option<(Tx, Part)> {
    if tag[14..] != check(tag).to_le_bytes() {
        return None;
    }
    let mut id = [0; 8];
    id.copy_from_slice(&tag[..8]);
    let tx = Tx {
        id: TxId(u64::from_le_bytes(id)),
        len: u32::from_le_bytes([tag[8], tag[9], tag[10], tag[11]]),
    };
    let part = match u16::from_le_bytes([tag[12], tag[13]]) {
        WHOLE => Part::Whole,
        i => Part::Fragment(i),
    };
    Some((tx, part))
}

/// 16 bits of a mix of the tag's first 14 bytes: an XOR of several tags (what a mis-peel
/// leaves) keeps it one time in 2^16.
fn check(tag: &[u8; TAG_LEN]) -> u16 {
    let mut low = [0; 8];
    low.copy_from_slice(&tag[..8]);
    let high = u64::from_le_bytes([tag[8], tag[9], tag[10], tag[11], tag[12], tag[13], 0, 0]);
    let mut z = u64::from_le_bytes(low) ^ high.rotate_left(29) ^ 0x9e37_79b9_7f4a_7c15;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tx(id: u64, len: u32) -> Tx {
        Tx { id: TxId(id), len }
    }

    #[test]
    fn tags_round_trip() {
        for (t, part) in [
            (tx(0, 128), Part::Whole),
            (tx(u64::MAX, u32::MAX), Part::Fragment(0)),
            (tx(77, 1000), Part::Fragment(10)),
        ] {
            assert_eq!(untag(&tag(t, part)), Some((t, part)));
        }
    }

    #[test]
    fn xors_of_tags_are_refused_but_rarely() {
        // What a mis-peel leaves: the XOR of an odd number of tags.
        let tags: Vec<[u8; TAG_LEN]> = (0..3000).map(|i| tag(tx(i, 128), Part::Whole)).collect();
        let passed = tags
            .windows(3)
            .filter(|w| {
                let mut x = w[0];
                for (a, (b, c)) in x.iter_mut().zip(w[1].iter().zip(&w[2])) {
                    *a ^= b ^ c;
                }
                untag(&x).is_some()
            })
            .count();
        // Expected 3000 / 2^16: none, or one by bad luck.
        assert!(passed <= 1, "{passed}");
    }
}
