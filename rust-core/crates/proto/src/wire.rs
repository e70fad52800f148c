//! Shared pieces of the wire format: LEB128 varints and the length-prefixed frame every
//! message travels in. Decoders of untrusted bytes return typed errors, never panic.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireError {
    /// The input ended inside a field.
    Truncated { field: &'static str },
    /// A varint ran past 10 bytes or past 64 bits.
    VarintOverflow,
    /// A length or count above the limit for that field.
    TooLong {
        field: &'static str,
        len: u64,
        max: u64,
    },
    /// An unknown message tag or version.
    UnknownTag(u8),
    /// Bytes left over after a complete message.
    Trailing(usize),
    /// A field whose value is not allowed.
    Invalid {
        field: &'static str,
        why: &'static str,
    },
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::Truncated { field } => write!(f, "input ends inside {field}"),
            WireError::VarintOverflow => write!(f, "varint longer than 64 bits"),
            WireError::TooLong { field, len, max } => {
                write!(f, "{field} is {len}, above the limit of {max}")
            }
            WireError::UnknownTag(t) => write!(f, "unknown message tag {t}"),
            WireError::Trailing(n) => write!(f, "{n} bytes after the end of the message"),
            WireError::Invalid { field, why } => write!(f, "{field}: {why}"),
        }
    }
}

impl std::error::Error for WireError {}

/// Bytes that `value` takes as a LEB128 varint.
pub const fn varint_len(value: u64) -> usize {
    let bits = 64 - (value | 1).leading_zeros() as usize;
    bits.div_ceil(7)
}

pub fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// A cursor over untrusted bytes.
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }
    pub fn u8(&mut self, field: &'static str) -> Result<u8, WireError> {
        let b = *self
            .bytes
            .get(self.pos)
            .ok_or(WireError::Truncated { field })?;
        self.pos += 1;
        Ok(b)
    }
    pub fn take(&mut self, n: usize, field: &'static str) -> Result<&'a [u8], WireError> {
        if self.remaining() < n {
            return Err(WireError::Truncated { field });
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    pub fn varint(&mut self, field: &'static str) -> Result<u64, WireError> {
        let mut value: u64 = 0;
        for i in 0..10 {
            let b = self.u8(field)?;
            let part = (b & 0x7f) as u64;
            if i == 9 && part > 1 {
                return Err(WireError::VarintOverflow);
            }
            value |= part << (7 * i);
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(WireError::VarintOverflow)
    }
    /// A varint that must not exceed `max`.
    pub fn bounded(&mut self, field: &'static str, max: u64) -> Result<u64, WireError> {
        let v = self.varint(field)?;
        if v > max {
            return Err(WireError::TooLong { field, len: v, max });
        }
        Ok(v)
    }
    pub fn finish(self) -> Result<(), WireError> {
        match self.remaining() {
            0 => Ok(()),
            n => Err(WireError::Trailing(n)),
        }
    }
}

/// Bytes a message body of `body_len` takes once framed with its varint length prefix.
pub const fn framed_len(body_len: usize) -> usize {
    varint_len(body_len as u64) + body_len
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn varint_round_trip(v in any::<u64>()) {
            let mut out = Vec::new();
            put_varint(&mut out, v);
            prop_assert_eq!(out.len(), varint_len(v));
            let mut r = Reader::new(&out);
            prop_assert_eq!(r.varint("v").unwrap(), v);
            prop_assert!(r.finish().is_ok());
        }

        #[test]
        fn reader_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..32)) {
            let mut r = Reader::new(&bytes);
            let _ = r.varint("a");
            let _ = r.bounded("b", 100);
            let _ = r.take(5, "c");
        }
    }

    #[test]
    fn overlong_varint_is_rejected() {
        let bytes = [0xff; 11];
        assert_eq!(
            Reader::new(&bytes).varint("x"),
            Err(WireError::VarintOverflow)
        );
        let bytes = [0x80, 0x80];
        assert_eq!(
            Reader::new(&bytes).varint("x"),
            Err(WireError::Truncated { field: "x" })
        );
    }
}
