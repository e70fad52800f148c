//! CAT's messages and their exact encoding: the celestia-core protobuf `Message` (oneof
//! `txs = 1`, `seen_tx = 2`, `want_tx = 3`) as of ADR 009 (`SeenTx { bytes tx_key = 1;
//! optional string from = 2; }`, `WantTx { bytes tx_key = 1; }`, `Txs { repeated bytes txs = 1; }`).
//!
//! Framing assumption: one message per frame, a varint length prefix in front of the
//! protobuf bytes (Tendermint's delimited writer; libp2p's length-prefixed stream). The
//! MConnection packet headers (per 1024-byte chunk) and SecretConnection's sealed frames that a
//! Tendermint node adds underneath are not charged. `Hello` is not a celestia message: it stands
//! in for the node ID the p2p handshake exchanges, which only CAT2 needs (oneof field 15).

use crate::pull::{id_of_body, tx_hash};
use crate::wire::{framed_len, put_varint, varint_len, Reader, WireError};
use crate::{Tx, TxId, WireMsg};

/// Bytes of a tx key: a SHA-256 hash.
pub const KEY_LEN: usize = 32;
/// Bytes of a p2p node ID (an address, written as 40 hex characters on the wire).
pub const NODE_ID_LEN: usize = 20;

/// A tx key as received: the spec requires 32 bytes, a peer may send fewer (more is a decode
/// error). The protocol, not the decoder, rejects a short key, as celestia-core's reactor does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WireKey {
    len: u8,
    bytes: [u8; KEY_LEN],
}

impl WireKey {
    pub fn of(id: TxId) -> WireKey {
        WireKey {
            len: KEY_LEN as u8,
            bytes: tx_hash(id),
        }
    }
    /// A key of the wrong length (`len` < 32), as a faulty peer could send.
    pub fn truncated(id: TxId, len: u8) -> WireKey {
        let mut k = WireKey::of(id);
        k.len = len.min(KEY_LEN as u8);
        let n = k.len();
        k.bytes[n..].fill(0);
        k
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The tx this key names, if it is a well-formed 32-byte key.
    pub fn tx(&self) -> Option<TxId> {
        (self.len() == KEY_LEN).then(|| crate::pull::id_of_hash(&self.bytes))
    }
    fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len()]
    }
}

/// A node's p2p ID. In the simulator it is derived from the node's index.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeAddr(pub [u8; NODE_ID_LEN]);

impl NodeAddr {
    pub fn of_node(node: u32) -> NodeAddr {
        let mut a = [0u8; NODE_ID_LEN];
        a[..8].copy_from_slice(&crate::pull::tx_hash(TxId(node as u64 ^ 0xca7))[8..16]);
        a[NODE_ID_LEN - 4..].copy_from_slice(&node.to_be_bytes());
        NodeAddr(a)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CatMsg {
    /// A `Txs` message carrying one transaction.
    Txs(Tx),
    /// "I have this tx"; CAT2 adds the node it came from when it came by broadcast.
    SeenTx {
        key: WireKey,
        from: Option<NodeAddr>,
    },
    /// "Send me this tx", to one peer at a time.
    WantTx { key: WireKey },
    /// The handshake's node ID (CAT2 only).
    Hello { node: NodeAddr },
}

const TAG_TXS: u8 = 1 << 3 | 2;
const TAG_SEEN: u8 = 2 << 3 | 2;
const TAG_WANT: u8 = 3 << 3 | 2;
const TAG_HELLO: u8 = 15 << 3 | 2;
/// Field 1 (tx_key, txs, node id) and field 2 (from) of the inner messages.
const TAG_F1: u8 = 1 << 3 | 2;
const TAG_F2: u8 = 2 << 3 | 2;
const HEX_LEN: usize = 2 * NODE_ID_LEN;

/// Bytes of a length-delimited protobuf field with a one-byte tag.
const fn field_len(n: usize) -> usize {
    1 + varint_len(n as u64) + n
}

/// A proto3 `bytes` field is left out when empty.
const fn bytes_field_len(n: usize) -> usize {
    if n == 0 {
        0
    } else {
        field_len(n)
    }
}

impl CatMsg {
    fn inner_len(&self) -> usize {
        match self {
            CatMsg::Txs(tx) => field_len(tx.len as usize),
            CatMsg::SeenTx { key, from } => {
                bytes_field_len(key.len()) + from.map_or(0, |_| field_len(HEX_LEN))
            }
            CatMsg::WantTx { key } => bytes_field_len(key.len()),
            CatMsg::Hello { .. } => field_len(HEX_LEN),
        }
    }

    /// Bytes of the protobuf `Message`, without the frame's length prefix.
    fn message_len(&self) -> usize {
        field_len(self.inner_len())
    }

    /// The framed bytes of this message.
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.clear();
        put_varint(out, self.message_len() as u64);
        let tag = match self {
            CatMsg::Txs(_) => TAG_TXS,
            CatMsg::SeenTx { .. } => TAG_SEEN,
            CatMsg::WantTx { .. } => TAG_WANT,
            CatMsg::Hello { .. } => TAG_HELLO,
        };
        out.push(tag);
        put_varint(out, self.inner_len() as u64);
        match self {
            CatMsg::Txs(tx) => {
                out.push(TAG_F1);
                put_varint(out, tx.len as u64);
                let mut body = Vec::new();
                tx.fill_body(&mut body);
                out.extend_from_slice(&body);
            }
            CatMsg::SeenTx { key, from } => {
                put_key(out, key);
                if let Some(node) = from {
                    put_hex(out, TAG_F2, node);
                }
            }
            CatMsg::WantTx { key } => put_key(out, key),
            CatMsg::Hello { node } => put_hex(out, TAG_F1, node),
        }
    }

    /// Decodes one framed message, rejecting a tx above `max_tx_bytes` before reading it.
    pub fn decode(bytes: &[u8], max_tx_bytes: u32) -> Result<CatMsg, WireError> {
        let mut r = Reader::new(bytes);
        let max_frame = field_len(field_len(max_tx_bytes as usize)) as u64;
        let len = r.bounded("frame length", max_frame)? as usize;
        if r.remaining() != len {
            return Err(if r.remaining() < len {
                WireError::Truncated { field: "frame" }
            } else {
                WireError::Trailing(r.remaining() - len)
            });
        }
        let tag = r.u8("message tag")?;
        let inner_len = r.bounded("message length", len as u64)? as usize;
        let mut inner = Reader::new(r.take(inner_len, "message body")?);
        r.finish()?;
        let msg = match tag {
            TAG_TXS => {
                expect_tag(&mut inner, TAG_F1, "txs")?;
                let n = inner.bounded("tx length", max_tx_bytes as u64)? as usize;
                let body = inner.take(n, "tx")?;
                if inner.remaining() > 0 {
                    return Err(WireError::Invalid {
                        field: "txs",
                        why: "one tx per message",
                    });
                }
                CatMsg::Txs(Tx {
                    id: id_of_body(body),
                    len: n as u32,
                })
            }
            TAG_SEEN => {
                let (key, from) = read_key_fields(&mut inner, true)?;
                CatMsg::SeenTx { key, from }
            }
            TAG_WANT => CatMsg::WantTx {
                key: read_key_fields(&mut inner, false)?.0,
            },
            TAG_HELLO => {
                expect_tag(&mut inner, TAG_F1, "node id")?;
                CatMsg::Hello {
                    node: read_hex(&mut inner)?,
                }
            }
            t => return Err(WireError::UnknownTag(t)),
        };
        inner.finish()?;
        Ok(msg)
    }
}

fn put_key(out: &mut Vec<u8>, key: &WireKey) {
    if !key.is_empty() {
        out.push(TAG_F1);
        put_varint(out, key.len() as u64);
        out.extend_from_slice(key.as_slice());
    }
}

fn put_hex(out: &mut Vec<u8>, tag: u8, node: &NodeAddr) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(tag);
    put_varint(out, HEX_LEN as u64);
    for b in node.0 {
        out.push(HEX[(b >> 4) as usize]);
        out.push(HEX[(b & 15) as usize]);
    }
}

fn expect_tag(r: &mut Reader<'_>, tag: u8, field: &'static str) -> Result<(), WireError> {
    match r.u8(field)? {
        t if t == tag => Ok(()),
        t => Err(WireError::UnknownTag(t)),
    }
}

/// The fields of SeenTx / WantTx, in any order as protobuf allows. A missing key is an
/// empty key (proto3); a key above 32 bytes is an error, a shorter one is left to the protocol.
fn read_key_fields(
    r: &mut Reader<'_>,
    from_allowed: bool,
) -> Result<(WireKey, Option<NodeAddr>), WireError> {
    let mut key = WireKey {
        len: 0,
        bytes: [0; KEY_LEN],
    };
    let mut from = None;
    let mut key_seen = false;
    while r.remaining() > 0 {
        match r.u8("field tag")? {
            TAG_F1 if !key_seen => {
                key_seen = true;
                let n = r.bounded("tx_key length", KEY_LEN as u64)? as usize;
                key.bytes[..n].copy_from_slice(r.take(n, "tx_key")?);
                key.len = n as u8;
            }
            TAG_F2 if from_allowed && from.is_none() => from = Some(read_hex(r)?),
            t => return Err(WireError::UnknownTag(t)),
        }
    }
    Ok((key, from))
}

fn read_hex(r: &mut Reader<'_>) -> Result<NodeAddr, WireError> {
    let n = r.bounded("node id length", HEX_LEN as u64)? as usize;
    if n != HEX_LEN {
        return Err(WireError::Invalid {
            field: "node id",
            why: "must be 40 hex characters",
        });
    }
    let hex = r.take(n, "node id")?;
    let mut a = [0u8; NODE_ID_LEN];
    for (i, pair) in hex.chunks_exact(2).enumerate() {
        let hi = hex_val(pair[0])?;
        let lo = hex_val(pair[1])?;
        a[i] = hi << 4 | lo;
    }
    Ok(NodeAddr(a))
}

fn hex_val(c: u8) -> Result<u8, WireError> {
    match c {
        b'0'..=b'9' => Ok(c - b'0'),
        b'a'..=b'f' => Ok(c - b'a' + 10),
        _ => Err(WireError::Invalid {
            field: "node id",
            why: "not lower-case hex",
        }),
    }
}

impl WireMsg for CatMsg {
    fn wire_len(&self) -> usize {
        framed_len(self.message_len())
    }
    fn payload_len(&self) -> usize {
        match self {
            CatMsg::Txs(tx) => tx.len as usize,
            _ => 0,
        }
    }
    fn full_tx(&self) -> Option<TxId> {
        match self {
            CatMsg::Txs(tx) => Some(tx.id),
            _ => None,
        }
    }
    fn kind(&self) -> &'static str {
        match self {
            CatMsg::Txs(_) => "Txs",
            CatMsg::SeenTx { .. } => "SeenTx",
            CatMsg::WantTx { .. } => "WantTx",
            CatMsg::Hello { .. } => "Hello",
        }
    }
    /// Txs go on the mempool channel (priority 6 in celestia-core), SeenTx/WantTx on the
    /// state channel (priority 5): a queued tx leaves before queued state messages.
    fn priority(&self) -> u8 {
        match self {
            CatMsg::Txs(_) => 1,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn round_trip(msg: &CatMsg) {
        let mut out = Vec::new();
        msg.encode(&mut out);
        assert_eq!(out.len(), msg.wire_len(), "{msg:?}");
        assert_eq!(&CatMsg::decode(&out, 1 << 20).unwrap(), msg);
    }

    #[test]
    fn sizes_match_the_protobuf_layout() {
        let key = WireKey::of(TxId(3));
        // frame 1 + oneof tag 1 + len 1 + (key tag 1 + len 1 + 32)
        assert_eq!(CatMsg::WantTx { key }.wire_len(), 37);
        assert_eq!(CatMsg::SeenTx { key, from: None }.wire_len(), 37);
        // CAT2's From: a 40-character ID plus its tag and length byte.
        let cat2 = CatMsg::SeenTx {
            key,
            from: Some(NodeAddr::of_node(9)),
        };
        assert_eq!(cat2.wire_len(), 37 + 42);
        // A 4000-byte tx: body + 2-byte length + tag, twice nested, plus the frame prefix.
        assert_eq!(
            CatMsg::Txs(Tx {
                id: TxId(1),
                len: 4000
            })
            .wire_len(),
            4000 + 3 + 3 + 2
        );
    }

    #[test]
    fn every_kind_round_trips() {
        round_trip(&CatMsg::Txs(Tx {
            id: TxId(77),
            len: 4096,
        }));
        round_trip(&CatMsg::Txs(Tx {
            id: TxId(5),
            len: 8,
        }));
        round_trip(&CatMsg::SeenTx {
            key: WireKey::of(TxId(1)),
            from: None,
        });
        round_trip(&CatMsg::SeenTx {
            key: WireKey::of(TxId(1)),
            from: Some(NodeAddr::of_node(42)),
        });
        round_trip(&CatMsg::WantTx {
            key: WireKey::of(TxId(u64::MAX)),
        });
        round_trip(&CatMsg::WantTx {
            key: WireKey::truncated(TxId(2), 5),
        });
        round_trip(&CatMsg::WantTx {
            key: WireKey::truncated(TxId(2), 0),
        });
        round_trip(&CatMsg::Hello {
            node: NodeAddr::of_node(0),
        });
    }

    #[test]
    fn bad_input_gives_typed_errors() {
        let mut out = Vec::new();
        CatMsg::Txs(Tx {
            id: TxId(1),
            len: 2000,
        })
        .encode(&mut out);
        assert!(matches!(
            CatMsg::decode(&out, 1000),
            Err(WireError::TooLong { .. })
        ));
        assert!(matches!(
            CatMsg::decode(&out[..out.len() - 1], 4000),
            Err(WireError::Truncated { .. })
        ));
        // A 33-byte key.
        let mut bad = vec![37, TAG_WANT, 35, TAG_F1, 33];
        bad.extend_from_slice(&[0; 33]);
        bad[0] = (bad.len() - 1) as u8;
        assert!(matches!(
            CatMsg::decode(&bad, 4000),
            Err(WireError::TooLong { .. })
        ));
        assert_eq!(
            CatMsg::decode(&[2, 0x42, 0], 4000),
            Err(WireError::UnknownTag(0x42))
        );
    }

    #[test]
    fn short_keys_decode_but_name_no_tx() {
        let k = WireKey::truncated(TxId(9), 31);
        assert_eq!(k.tx(), None);
        assert_eq!(WireKey::of(TxId(9)).tx(), Some(TxId(9)));
    }

    proptest! {
        #[test]
        fn decoder_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
            let _ = CatMsg::decode(&bytes, 64);
        }

        #[test]
        fn txs_of_any_size_round_trip(id in any::<u64>(), len in 8u32..20_000) {
            round_trip(&CatMsg::Txs(Tx { id: TxId(id), len }));
        }
    }
}
