//! Shrec's messages and their encoding (txcast's own layout; Shrec fixes no wire format).
//!
//! Every message is one frame: a varint length, a tag byte, the body.
//! - `Hello` (tag 0): the 16-byte SipHash key the sender wants its peer to name txs with.
//! - `Announce` (1) and `Request` (2): a varint count, then 4-byte short IDs (little-endian).
//! - `Tx` (3): the tx bytes.
//!
//! A short ID is 3 bytes of the tx hash (the id's low 24 bits) and one check byte: the low
//! byte of SipHash-2-4 of the id under the link's key. The prefix lets a receiver find the tx
//! among those it holds in one lookup; the keyed byte stops a peer that does not know the key
//! from aiming a collision at a given tx (the keyed short IDs of Bitcoin and Shrec, `004` §2.1).

use crate::wire::{framed_len, put_varint, varint_len, Reader, WireError};
use crate::{Few, MsgClass, Tx, TxId, WireMsg};
use siphasher::sip::SipHasher24;

pub const SHORT_ID_LEN: usize = 4;
pub const KEY_LEN: usize = 16;
/// Most short IDs in one Announce or Request (as Bitcoin's MAX_INV_SZ).
pub const MAX_IDS: usize = 50_000;
/// A short ID's prefix is the tx id's low `PREFIX_BITS` bits.
pub const PREFIX_BITS: u32 = 24;
const PREFIX_MASK: u32 = (1 << PREFIX_BITS) - 1;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ShortId(pub u32);

impl ShortId {
    /// The hash prefix part, which names the tx across keys.
    pub fn prefix(self) -> u32 {
        self.0 & PREFIX_MASK
    }
}

/// The key a receiver hands to a peer for naming txs on that link.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LinkKey(pub [u8; KEY_LEN]);

impl LinkKey {
    pub fn random(rng: &mut crate::Rng) -> LinkKey {
        let mut k = [0u8; KEY_LEN];
        k[..8].copy_from_slice(&rng.next_u64().to_le_bytes());
        k[8..].copy_from_slice(&rng.next_u64().to_le_bytes());
        LinkKey(k)
    }

    pub fn short_id(&self, id: TxId) -> ShortId {
        let check = SipHasher24::new_with_key(&self.0).hash(&id.0.to_le_bytes()) as u8;
        ShortId(prefix_of(id) | (check as u32) << 24)
    }
}

/// The short-ID prefix of a tx.
pub fn prefix_of(id: TxId) -> u32 {
    (id.0 as u32) & PREFIX_MASK
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShrecMsg {
    Hello { key: LinkKey },
    Announce(Few<ShortId>),
    Request(Few<ShortId>),
    Tx(Tx),
}

const TAG_HELLO: u8 = 0;
const TAG_ANNOUNCE: u8 = 1;
const TAG_REQUEST: u8 = 2;
const TAG_TX: u8 = 3;

impl ShrecMsg {
    fn body_len(&self) -> usize {
        1 + match self {
            ShrecMsg::Hello { .. } => KEY_LEN,
            ShrecMsg::Announce(ids) | ShrecMsg::Request(ids) => {
                varint_len(ids.len() as u64) + SHORT_ID_LEN * ids.len()
            }
            ShrecMsg::Tx(tx) => tx.len as usize,
        }
    }

    pub fn encode(&self, out: &mut Vec<u8>) {
        out.clear();
        put_varint(out, self.body_len() as u64);
        match self {
            ShrecMsg::Hello { key } => {
                out.push(TAG_HELLO);
                out.extend_from_slice(&key.0);
            }
            ShrecMsg::Announce(ids) | ShrecMsg::Request(ids) => {
                out.push(if matches!(self, ShrecMsg::Announce(_)) {
                    TAG_ANNOUNCE
                } else {
                    TAG_REQUEST
                });
                put_varint(out, ids.len() as u64);
                for id in ids.iter() {
                    out.extend_from_slice(&id.0.to_le_bytes());
                }
            }
            ShrecMsg::Tx(tx) => {
                out.push(TAG_TX);
                let mut body = Vec::new();
                tx.fill_body(&mut body);
                out.extend_from_slice(&body);
            }
        }
    }

    pub fn decode(bytes: &[u8], max_tx_bytes: u32) -> Result<ShrecMsg, WireError> {
        let mut r = Reader::new(bytes);
        let max_body =
            1 + (max_tx_bytes as usize).max(varint_len(MAX_IDS as u64) + SHORT_ID_LEN * MAX_IDS);
        let len = r.bounded("frame length", max_body as u64)? as usize;
        let mut body = Reader::new(r.take(len, "frame")?);
        r.finish()?;
        let msg = match body.u8("tag")? {
            TAG_HELLO => {
                let mut k = [0u8; KEY_LEN];
                k.copy_from_slice(body.take(KEY_LEN, "key")?);
                ShrecMsg::Hello { key: LinkKey(k) }
            }
            tag @ (TAG_ANNOUNCE | TAG_REQUEST) => {
                let n = body.bounded("short id count", MAX_IDS as u64)? as usize;
                let raw = body.take(n * SHORT_ID_LEN, "short ids")?;
                let ids = raw
                    .chunks_exact(SHORT_ID_LEN)
                    .map(|c| ShortId(u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                    .collect();
                if tag == TAG_ANNOUNCE {
                    ShrecMsg::Announce(ids)
                } else {
                    ShrecMsg::Request(ids)
                }
            }
            TAG_TX => {
                let n = body.remaining();
                if n > max_tx_bytes as usize {
                    let (len, max) = (n as u64, max_tx_bytes as u64);
                    return Err(WireError::TooLong {
                        field: "tx",
                        len,
                        max,
                    });
                }
                let bytes = body.take(n, "tx")?;
                ShrecMsg::Tx(Tx {
                    id: crate::pull::id_of_body(bytes),
                    len: n as u32,
                })
            }
            t => return Err(WireError::UnknownTag(t)),
        };
        body.finish()?;
        Ok(msg)
    }
}

impl WireMsg for ShrecMsg {
    fn wire_len(&self) -> usize {
        framed_len(self.body_len())
    }
    fn payload_len(&self) -> usize {
        match self {
            ShrecMsg::Tx(tx) => tx.len as usize,
            _ => 0,
        }
    }
    fn full_tx(&self) -> Option<TxId> {
        match self {
            ShrecMsg::Tx(tx) => Some(tx.id),
            _ => None,
        }
    }
    fn class(&self) -> MsgClass {
        match self {
            ShrecMsg::Hello { .. } => MsgClass::Control,
            ShrecMsg::Announce(_) => MsgClass::Announcement,
            ShrecMsg::Request(_) => MsgClass::Request,
            ShrecMsg::Tx(_) => MsgClass::Payload,
        }
    }
    fn kind(&self) -> &'static str {
        match self {
            ShrecMsg::Hello { .. } => "Hello",
            ShrecMsg::Announce(_) => "Announce",
            ShrecMsg::Request(_) => "Request",
            ShrecMsg::Tx(_) => "Tx",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn round_trip(msg: &ShrecMsg) {
        let mut out = Vec::new();
        msg.encode(&mut out);
        assert_eq!(out.len(), msg.wire_len(), "{msg:?}");
        assert_eq!(&ShrecMsg::decode(&out, 1 << 20).unwrap(), msg);
    }

    #[test]
    fn every_kind_round_trips_at_its_size() {
        round_trip(&ShrecMsg::Hello {
            key: LinkKey([7; KEY_LEN]),
        });
        round_trip(&ShrecMsg::Announce(
            vec![ShortId(1), ShortId(u32::MAX)].into(),
        ));
        round_trip(&ShrecMsg::Request(vec![].into()));
        round_trip(&ShrecMsg::Tx(Tx {
            id: TxId(99),
            len: 128,
        }));
        // One announced ID: length, tag, count, 4 bytes.
        assert_eq!(ShrecMsg::Announce(vec![ShortId(5)].into()).wire_len(), 7);
        assert_eq!(
            ShrecMsg::Tx(Tx {
                id: TxId(1),
                len: 128
            })
            .wire_len(),
            2 + 1 + 128
        );
    }

    #[test]
    fn short_ids_keep_the_prefix_and_depend_on_the_key() {
        let (a, b) = (LinkKey([1; KEY_LEN]), LinkKey([2; KEY_LEN]));
        let id = TxId(0x1234_5678_9abc);
        assert_eq!(a.short_id(id).prefix(), 0x9a_bc | 0x78 << 16);
        let differ = (0..64)
            .filter(|&i| a.short_id(TxId(i)) != b.short_id(TxId(i)))
            .count();
        assert!(differ > 50, "{differ}");
    }

    #[test]
    fn bad_input_gives_typed_errors() {
        let mut out = Vec::new();
        ShrecMsg::Tx(Tx {
            id: TxId(1),
            len: 300,
        })
        .encode(&mut out);
        assert!(matches!(
            ShrecMsg::decode(&out, 100),
            Err(WireError::TooLong { .. })
        ));
        assert_eq!(
            ShrecMsg::decode(&[1, 9], 100),
            Err(WireError::UnknownTag(9))
        );
        assert!(
            ShrecMsg::decode(&[3, 1, 2, 1], 100).is_err(),
            "count says 2 ids, body has none"
        );
    }

    proptest! {
        #[test]
        fn decoder_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let _ = ShrecMsg::decode(&bytes, 32);
        }
    }
}
