//! The binary wire format of codec messages, versioned, with a strict decoder for untrusted
//! bytes.
//!
//! ```text
//! message   = version:u8 (=1) kind:u8 body
//! codeword  (kind 1) = degree:varint payload_len:varint id:u32le * degree payload
//! key       (kind 2) = key:[u8; 16]          the receiver's SipHash key for this link direction
//! varint    = unsigned LEB128, at most 10 bytes, minimal (no trailing zero groups)
//! ```
//! Every length is checked against [`Limits`] before anything is allocated.

use crate::encoder::Codeword;
use crate::params::{Params, MAX_SYMBOL_LEN, MAX_WINDOW};
use crate::shortid::LinkKey;

pub const VERSION: u8 = 1;
pub const KIND_CODEWORD: u8 = 1;
pub const KIND_KEY: u8 = 2;
const KEY_LEN: usize = 16;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    Codeword(Codeword),
    Key(LinkKey),
}

/// Bounds applied to untrusted input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_degree: usize,
    pub max_payload_len: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_degree: MAX_WINDOW,
            max_payload_len: MAX_SYMBOL_LEN,
        }
    }
}

impl Limits {
    /// What a node running `params` accepts: degree at most k, payload at most l.
    pub fn for_params(params: &Params) -> Limits {
        Limits {
            max_degree: params.window,
            max_payload_len: params.symbol_len,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireError {
    Truncated,
    Version(u8),
    Kind(u8),
    VarintOverflow,
    VarintNotMinimal,
    DegreeZero,
    DegreeTooLarge { degree: u64, max: usize },
    PayloadEmpty,
    PayloadTooLarge { len: u64, max: usize },
    TrailingBytes(usize),
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bad codec message: {self:?}")
    }
}

impl std::error::Error for WireError {}

pub fn varint_len(mut value: u64) -> usize {
    let mut len = 1;
    while value >= 0x80 {
        value >>= 7;
        len += 1;
    }
    len
}

pub fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

impl Codeword {
    /// Bytes `encode` writes.
    pub fn wire_len(&self) -> usize {
        let payload = self.wire_payload_len();
        2 + varint_len(self.ids.len() as u64)
            + varint_len(payload as u64)
            + 4 * self.ids.len()
            + payload
    }

    /// Writes the codeword. A codeword of stand-ins (a simulation's) goes out as its stand-in
    /// padded with zeros to l bytes, so its size is what `wire_len` says.
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.reserve(self.wire_len());
        out.push(VERSION);
        out.push(KIND_CODEWORD);
        put_varint(out, self.ids.len() as u64);
        put_varint(out, self.wire_payload_len() as u64);
        for id in &self.ids {
            out.extend_from_slice(&id.to_le_bytes());
        }
        out.extend_from_slice(&self.payload);
        out.resize(
            out.len() + self.wire_payload_len().saturating_sub(self.payload.len()),
            0,
        );
    }
}

pub fn key_wire_len() -> usize {
    2 + KEY_LEN
}

pub fn encode_key(key: &LinkKey, out: &mut Vec<u8>) {
    out.push(VERSION);
    out.push(KIND_KEY);
    out.extend_from_slice(&key.0);
}

impl Message {
    pub fn wire_len(&self) -> usize {
        match self {
            Message::Codeword(cw) => cw.wire_len(),
            Message::Key(_) => key_wire_len(),
        }
    }

    pub fn encode(&self, out: &mut Vec<u8>) {
        match self {
            Message::Codeword(cw) => cw.encode(out),
            Message::Key(key) => encode_key(key, out),
        }
    }
}

/// Decodes one whole message; trailing bytes are an error.
pub fn decode(bytes: &[u8], limits: &Limits) -> Result<Message, WireError> {
    let mut reader = Reader { bytes, at: 0 };
    match reader.header()? {
        KIND_CODEWORD => {
            let mut cw = Codeword::default();
            reader.codeword_body(limits, &mut cw)?;
            reader.finish()?;
            Ok(Message::Codeword(cw))
        }
        KIND_KEY => {
            let mut key = [0u8; KEY_LEN];
            key.copy_from_slice(reader.take(KEY_LEN)?);
            reader.finish()?;
            Ok(Message::Key(LinkKey(key)))
        }
        kind => Err(WireError::Kind(kind)),
    }
}

/// Decodes a codeword message into `out`, reusing its buffers (the hot path).
pub fn decode_codeword_into(
    bytes: &[u8],
    limits: &Limits,
    out: &mut Codeword,
) -> Result<(), WireError> {
    let mut reader = Reader { bytes, at: 0 };
    match reader.header()? {
        KIND_CODEWORD => {
            reader.codeword_body(limits, out)?;
            reader.finish()
        }
        kind => Err(WireError::Kind(kind)),
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, len: usize) -> Result<&'a [u8], WireError> {
        let end = self.at.checked_add(len).ok_or(WireError::Truncated)?;
        let slice = self.bytes.get(self.at..end).ok_or(WireError::Truncated)?;
        self.at = end;
        Ok(slice)
    }

    fn byte(&mut self) -> Result<u8, WireError> {
        Ok(self.take(1)?[0])
    }

    fn varint(&mut self) -> Result<u64, WireError> {
        let mut value = 0u64;
        for index in 0..10 {
            let byte = self.byte()?;
            let group = (byte & 0x7f) as u64;
            if index == 9 && byte > 1 {
                return Err(WireError::VarintOverflow);
            }
            value |= group << (7 * index);
            if byte & 0x80 == 0 {
                if index > 0 && byte == 0 {
                    return Err(WireError::VarintNotMinimal);
                }
                return Ok(value);
            }
        }
        Err(WireError::VarintOverflow)
    }

    fn header(&mut self) -> Result<u8, WireError> {
        let version = self.byte()?;
        if version != VERSION {
            return Err(WireError::Version(version));
        }
        self.byte()
    }

    fn codeword_body(&mut self, limits: &Limits, out: &mut Codeword) -> Result<(), WireError> {
        let degree = self.varint()?;
        if degree == 0 {
            return Err(WireError::DegreeZero);
        }
        if degree > limits.max_degree as u64 {
            return Err(WireError::DegreeTooLarge {
                degree,
                max: limits.max_degree,
            });
        }
        let payload_len = self.varint()?;
        if payload_len == 0 {
            return Err(WireError::PayloadEmpty);
        }
        if payload_len > limits.max_payload_len as u64 {
            return Err(WireError::PayloadTooLarge {
                len: payload_len,
                max: limits.max_payload_len,
            });
        }
        // Both now fit in usize and are bounded by the limits.
        let ids = self.take(4 * degree as usize)?;
        let payload = self.take(payload_len as usize)?;
        out.ids.clear();
        out.ids.extend(
            ids.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        out.payload.clear();
        out.payload.extend_from_slice(payload);
        Ok(())
    }

    fn finish(&self) -> Result<(), WireError> {
        match self.bytes.len() - self.at {
            0 => Ok(()),
            extra => Err(WireError::TrailingBytes(extra)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_and_reject_overlong() {
        for value in [0u64, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            let mut out = Vec::new();
            put_varint(&mut out, value);
            assert_eq!(out.len(), varint_len(value));
            let mut reader = Reader { bytes: &out, at: 0 };
            assert_eq!(reader.varint(), Ok(value));
        }
        let mut reader = Reader {
            bytes: &[0x81, 0x00],
            at: 0,
        };
        assert_eq!(reader.varint(), Err(WireError::VarintNotMinimal));
        let too_long = [0xff; 11];
        let mut reader = Reader {
            bytes: &too_long,
            at: 0,
        };
        assert_eq!(reader.varint(), Err(WireError::VarintOverflow));
    }
}
