//! AtlasDB's VAR_LONG: an order-preserving variable-length integer (ADR 16, "Physical
//! Representation in Cassandra"; the example 3141592 -> `e0 2f ef d8` comes from there).
//!
//! It takes as many bytes as a protobuf varint (7 value bits per byte), but the length sits in
//! front as a unary prefix (n - 1 one-bits, then a zero) and the value follows big-endian. So
//! comparing two canonical encodings byte by byte orders them like the numbers. Lengths 9 and
//! 10 spill the prefix into a second byte: `ff 0xxxxxxx` then 7 bytes, `ff 10xxxxxx` then 8.
//! Only canonical (shortest) encodings decode; anything else would break the ordering.

use crate::Error;

/// The most bytes a u64 takes.
pub const MAX_LEN: usize = 10;

/// Bytes that `value` takes as a VAR_LONG (1 to 10).
pub const fn len(value: u64) -> usize {
    let bits = 64 - (value | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}

/// Appends the VAR_LONG of `value`.
pub fn put(out: &mut Vec<u8>, value: u64) {
    let be = value.to_be_bytes();
    match len(value) {
        10 => {
            out.extend_from_slice(&[0xff, 0x80]);
            out.extend_from_slice(&be);
        }
        // Below 2^63 the top bit of `be[0]` is zero: it is the prefix's terminating zero.
        9 => {
            out.push(0xff);
            out.extend_from_slice(&be);
        }
        n => {
            let start = out.len();
            out.extend_from_slice(&be[8 - n..]);
            out[start] |= !(0xffu8 >> (n - 1));
        }
    }
}

/// The VAR_LONG of `value` as its own buffer.
pub fn encode(value: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(len(value));
    put(&mut out, value);
    out
}

/// Reads one VAR_LONG from the front of `bytes`: the value and the bytes it took.
pub fn read(bytes: &[u8], field: &'static str) -> Result<(u64, usize), Error> {
    let first = *bytes.first().ok_or(Error::Empty { field })?;
    let ones = first.leading_ones() as usize;
    let (n, body_at, head_mask) = if ones < 8 {
        // n - 1 ones and a zero: the rest of the first byte holds the top value bits.
        (
            ones + 1,
            0,
            0xffu8.checked_shr(ones as u32 + 1).unwrap_or(0),
        )
    } else {
        let second = *bytes.get(1).ok_or(Error::Truncated { field })?;
        match second.leading_ones() {
            0 => (9, 1, 0x7f),
            1 if second == 0x80 => (10, 2, 0xff),
            _ => return Err(Error::VarLongTooLong { field }),
        }
    };
    let all = bytes.get(..n).ok_or(Error::Truncated { field })?;
    let mut value = u64::from(all[body_at] & head_mask);
    for &b in &all[body_at + 1..] {
        value = (value << 8) | u64::from(b);
    }
    if len(value) != n {
        return Err(Error::NonCanonical { field });
    }
    Ok((value, n))
}

/// Decodes a buffer that holds exactly one VAR_LONG.
pub fn decode(bytes: &[u8], field: &'static str) -> Result<u64, Error> {
    let (value, used) = read(bytes, field)?;
    match bytes.len() - used {
        0 => Ok(value),
        extra => Err(Error::Trailing { field, extra }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_adr_examples() {
        assert_eq!(encode(20), [0x14]);
        assert_eq!(encode(42), [0x2a]);
        assert_eq!(encode(3_141_592), [0xe0, 0x2f, 0xef, 0xd8]);
        assert_eq!(encode(3_141_595), [0xe0, 0x2f, 0xef, 0xdb]);
        // The ADR's -1 is a u64 of all ones here: the same 10 bytes.
        let mut minus_one = vec![0xff, 0x80];
        minus_one.extend_from_slice(&[0xff; 8]);
        assert_eq!(encode(u64::MAX), minus_one);
    }

    #[test]
    fn length_boundaries_round_trip() {
        for shift in 0..64 {
            for v in [(1u64 << shift) - 1, 1u64 << shift, (1u64 << shift) + 1] {
                let e = encode(v);
                assert_eq!(e.len(), len(v), "value {v}");
                assert_eq!(decode(&e, "v"), Ok(v), "value {v}");
            }
        }
    }

    #[test]
    fn rejects_padded_and_oversized() {
        // 5 written in two bytes.
        assert_eq!(
            decode(&[0x80, 0x05], "v"),
            Err(Error::NonCanonical { field: "v" })
        );
        // An 11-byte prefix.
        assert_eq!(
            decode(&[0xff, 0xc0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "v"),
            Err(Error::VarLongTooLong { field: "v" })
        );
        // Ten bytes with value bits in the prefix byte: above 64 bits.
        assert_eq!(
            decode(&[0xff, 0x81, 0, 0, 0, 0, 0, 0, 0, 0], "v"),
            Err(Error::VarLongTooLong { field: "v" })
        );
        assert_eq!(
            decode(&[0xe0, 0x2f], "v"),
            Err(Error::Truncated { field: "v" })
        );
        assert_eq!(decode(&[], "v"), Err(Error::Empty { field: "v" }));
        assert_eq!(
            decode(&[0x14, 0x00], "v"),
            Err(Error::Trailing {
                field: "v",
                extra: 1
            })
        );
    }
}
