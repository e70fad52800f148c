//! Bitcoin P2P messages `inv`, `getdata` and `tx`, byte for byte: a 24-byte header (network
//! magic, 12-byte NUL-padded command, payload length, first 4 bytes of the payload's double
//! SHA-256), then the payload. `inv`/`getdata` carry a compact-size count and 36-byte inventory
//! vectors (type `MSG_TX` = 1, 32-byte hash); `tx` carries the raw tx bytes.
//!
//! Framing assumption: the header is the frame; nothing else travels with a message (no
//! transport encryption). The hash is `pull::tx_hash` (the tx id is its prefix).

use crate::pull::{id_of_body, id_of_hash, tx_hash};
use crate::wire::{Reader, WireError};
use crate::Few;
use crate::{MsgClass, Tx, TxId, WireMsg};
use sha2::{Digest, Sha256};

pub const HEADER_LEN: usize = 24;
/// Bytes of one inventory vector: a 4-byte type and a 32-byte hash.
pub const INV_VECTOR_LEN: usize = 36;
/// Bitcoin Core's MAX_INV_SZ: most entries in one inv or getdata.
pub const MAX_INV_ENTRIES: usize = 50_000;
/// Bitcoin Core's MAX_PROTOCOL_MESSAGE_LENGTH.
pub const MAX_PAYLOAD_BYTES: usize = 4_000_000;
/// Mainnet's network magic.
pub const MAGIC: [u8; 4] = [0xf9, 0xbe, 0xb4, 0xd9];
const MSG_TX: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InvMsg {
    /// Hashes of txs the sender has.
    Inv(Few<TxId>),
    /// Hashes of txs the sender wants.
    GetData(Few<TxId>),
    /// One full tx.
    Tx(Tx),
}

/// Bytes of Bitcoin's compact-size integer.
pub const fn compact_size_len(n: u64) -> usize {
    match n {
        0..=0xfc => 1,
        0xfd..=0xffff => 3,
        0x1_0000..=0xffff_ffff => 5,
        _ => 9,
    }
}

fn put_compact_size(out: &mut Vec<u8>, n: u64) {
    match compact_size_len(n) {
        1 => out.push(n as u8),
        3 => {
            out.push(0xfd);
            out.extend_from_slice(&(n as u16).to_le_bytes());
        }
        5 => {
            out.push(0xfe);
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        _ => {
            out.push(0xff);
            out.extend_from_slice(&n.to_le_bytes());
        }
    }
}

/// Reads a compact size, rejecting non-canonical (longer than needed) forms as Bitcoin does.
fn read_compact_size(r: &mut Reader<'_>) -> Result<u64, WireError> {
    let first = r.u8("count")?;
    let (n, min) = match first {
        0xfd => (le(r.take(2, "count")?), 0xfd),
        0xfe => (le(r.take(4, "count")?), 0x1_0000),
        0xff => (le(r.take(8, "count")?), 0x1_0000_0000),
        b => return Ok(b as u64),
    };
    if n < min {
        return Err(WireError::Invalid {
            field: "count",
            why: "non-canonical compact size",
        });
    }
    Ok(n)
}

fn le(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0, |acc, &b| acc << 8 | b as u64)
}

fn checksum(payload: &[u8]) -> [u8; 4] {
    let twice = Sha256::digest(Sha256::digest(payload));
    [twice[0], twice[1], twice[2], twice[3]]
}

impl InvMsg {
    fn command(&self) -> &'static [u8] {
        match self {
            InvMsg::Inv(_) => b"inv",
            InvMsg::GetData(_) => b"getdata",
            InvMsg::Tx(_) => b"tx",
        }
    }

    fn payload_bytes(&self) -> usize {
        match self {
            InvMsg::Inv(ids) | InvMsg::GetData(ids) => {
                compact_size_len(ids.len() as u64) + INV_VECTOR_LEN * ids.len()
            }
            InvMsg::Tx(tx) => tx.len as usize,
        }
    }

    pub fn encode(&self, out: &mut Vec<u8>) {
        let mut payload = Vec::with_capacity(self.payload_bytes());
        match self {
            InvMsg::Inv(ids) | InvMsg::GetData(ids) => {
                put_compact_size(&mut payload, ids.len() as u64);
                for &id in ids.iter() {
                    payload.extend_from_slice(&MSG_TX.to_le_bytes());
                    payload.extend_from_slice(&tx_hash(id));
                }
            }
            InvMsg::Tx(tx) => tx.fill_body(&mut payload),
        }
        out.clear();
        out.extend_from_slice(&MAGIC);
        let mut command = [0u8; 12];
        command[..self.command().len()].copy_from_slice(self.command());
        out.extend_from_slice(&command);
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&checksum(&payload));
        out.extend_from_slice(&payload);
    }

    /// Decodes one message; a `tx` above `max_tx_bytes` is refused before it is hashed.
    pub fn decode(bytes: &[u8], max_tx_bytes: u32) -> Result<InvMsg, WireError> {
        let mut r = Reader::new(bytes);
        if r.take(4, "magic")? != MAGIC {
            return Err(WireError::Invalid {
                field: "magic",
                why: "not this network",
            });
        }
        let command = r.take(12, "command")?;
        let len = le(r.take(4, "length")?);
        if len > MAX_PAYLOAD_BYTES as u64 {
            let max = MAX_PAYLOAD_BYTES as u64;
            return Err(WireError::TooLong {
                field: "payload",
                len,
                max,
            });
        }
        let sum = r.take(4, "checksum")?;
        let payload = r.take(len as usize, "payload")?;
        r.finish()?;
        let name_end = command.iter().position(|&b| b == 0).unwrap_or(12);
        if command[name_end..].iter().any(|&b| b != 0) {
            return Err(WireError::Invalid {
                field: "command",
                why: "not NUL-padded",
            });
        }
        let msg = match &command[..name_end] {
            b"tx" => {
                if len > max_tx_bytes as u64 {
                    let max = max_tx_bytes as u64;
                    return Err(WireError::TooLong {
                        field: "tx",
                        len,
                        max,
                    });
                }
                InvMsg::Tx(Tx {
                    id: id_of_body(payload),
                    len: len as u32,
                })
            }
            name @ (b"inv" | b"getdata") => {
                let ids = read_inventory(payload)?.into();
                if name == b"inv" {
                    InvMsg::Inv(ids)
                } else {
                    InvMsg::GetData(ids)
                }
            }
            _ => {
                return Err(WireError::Invalid {
                    field: "command",
                    why: "unknown",
                })
            }
        };
        if sum != checksum(payload) {
            return Err(WireError::Invalid {
                field: "checksum",
                why: "does not match",
            });
        }
        Ok(msg)
    }
}

fn read_inventory(payload: &[u8]) -> Result<Vec<TxId>, WireError> {
    let mut r = Reader::new(payload);
    let n = read_compact_size(&mut r)?;
    if n > MAX_INV_ENTRIES as u64 {
        let max = MAX_INV_ENTRIES as u64;
        return Err(WireError::TooLong {
            field: "inventory",
            len: n,
            max,
        });
    }
    let mut ids = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let kind = le(r.take(4, "inventory type")?);
        if kind != MSG_TX as u64 {
            return Err(WireError::Invalid {
                field: "inventory type",
                why: "only MSG_TX",
            });
        }
        let mut hash = [0u8; 32];
        hash.copy_from_slice(r.take(32, "inventory hash")?);
        ids.push(id_of_hash(&hash));
    }
    r.finish()?;
    Ok(ids)
}

impl WireMsg for InvMsg {
    fn wire_len(&self) -> usize {
        HEADER_LEN + self.payload_bytes()
    }
    fn payload_len(&self) -> usize {
        match self {
            InvMsg::Tx(tx) => tx.len as usize,
            _ => 0,
        }
    }
    fn subject(&self) -> Option<TxId> {
        match self {
            InvMsg::Inv(ids) | InvMsg::GetData(ids) => ids.first().copied(),
            InvMsg::Tx(tx) => Some(tx.id),
        }
    }
    fn full_tx(&self) -> Option<TxId> {
        match self {
            InvMsg::Tx(tx) => Some(tx.id),
            _ => None,
        }
    }
    fn class(&self) -> MsgClass {
        match self {
            InvMsg::Inv(_) => MsgClass::Announcement,
            InvMsg::GetData(_) => MsgClass::Request,
            InvMsg::Tx(_) => MsgClass::Payload,
        }
    }
    fn kind(&self) -> &'static str {
        match self {
            InvMsg::Inv(_) => "Inv",
            InvMsg::GetData(_) => "GetData",
            InvMsg::Tx(_) => "Tx",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn round_trip(msg: &InvMsg) -> Vec<u8> {
        let mut out = Vec::new();
        msg.encode(&mut out);
        assert_eq!(out.len(), msg.wire_len());
        assert_eq!(&InvMsg::decode(&out, 100_000).unwrap(), msg);
        out
    }

    #[test]
    fn sizes_match_bitcoins_encoding() {
        assert_eq!(InvMsg::Inv(TxId(1).into()).wire_len(), 24 + 1 + 36);
        assert_eq!(
            InvMsg::GetData(vec![TxId(1); 253].into()).wire_len(),
            24 + 3 + 253 * 36
        );
        assert_eq!(
            InvMsg::Tx(Tx {
                id: TxId(1),
                len: 250
            })
            .wire_len(),
            274
        );
    }

    #[test]
    fn the_header_is_bitcoins() {
        let out = round_trip(&InvMsg::Inv(vec![TxId(5), TxId(6)].into()));
        assert_eq!(&out[..4], &MAGIC);
        assert_eq!(&out[4..16], b"inv\0\0\0\0\0\0\0\0\0");
        assert_eq!(&out[16..20], &(1u32 + 72).to_le_bytes());
        assert_eq!(&out[24..29], &[2, 1, 0, 0, 0]);
        // The checksum of an empty payload is the well-known 5df6e0e2.
        let mut empty = Vec::new();
        InvMsg::Tx(Tx {
            id: TxId(0),
            len: 0,
        })
        .encode(&mut empty);
        assert_eq!(&empty[20..24], &[0x5d, 0xf6, 0xe0, 0xe2]);
    }

    #[test]
    fn bad_input_gives_typed_errors() {
        let mut out = Vec::new();
        InvMsg::GetData(TxId(9).into()).encode(&mut out);
        let mut bad = out.clone();
        bad[30] ^= 1;
        assert!(matches!(
            InvMsg::decode(&bad, 1000),
            Err(WireError::Invalid {
                field: "checksum",
                ..
            })
        ));
        bad = out.clone();
        bad[0] = 0;
        assert!(matches!(
            InvMsg::decode(&bad, 1000),
            Err(WireError::Invalid { field: "magic", .. })
        ));
        assert!(matches!(
            InvMsg::decode(&out[..30], 1000),
            Err(WireError::Truncated { .. })
        ));
        let mut big = Vec::new();
        InvMsg::Tx(Tx {
            id: TxId(1),
            len: 2000,
        })
        .encode(&mut big);
        assert!(matches!(
            InvMsg::decode(&big, 1000),
            Err(WireError::TooLong { field: "tx", .. })
        ));
        // A non-canonical count: 1 written in three bytes.
        let mut r = Reader::new(&[0xfd, 1, 0]);
        assert!(read_compact_size(&mut r).is_err());
    }

    proptest! {
        #[test]
        fn inventories_round_trip(ids in proptest::collection::vec(any::<u64>(), 0..300)) {
            let ids: Vec<TxId> = ids.into_iter().map(TxId).collect();
            round_trip(&InvMsg::Inv(ids.clone().into()));
            round_trip(&InvMsg::GetData(ids.into()));
        }

        #[test]
        fn decoder_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..120)) {
            let _ = InvMsg::decode(&bytes, 1000);
        }

        #[test]
        fn compact_sizes_round_trip(n in any::<u64>()) {
            let mut out = Vec::new();
            put_compact_size(&mut out, n);
            prop_assert_eq!(out.len(), compact_size_len(n));
            prop_assert_eq!(read_compact_size(&mut Reader::new(&out)).unwrap(), n);
        }
    }
}
