//! CAT's messages and their exact encoding: the celestia-core protobuf `Message` (oneof
//! `txs = 1`, `seen_tx = 2`, `want_tx = 3`) as of ADR 009 (`SeenTx { bytes tx_key = 1;
//! optional string from = 2; }`, `WantTx { bytes tx_key = 1; }`, `Txs { repeated bytes txs = 1; }`).
//!
//! Framing assumption: one message per frame, a varint length prefix in front of the
//! protobuf bytes (Tendermint's delimited writer; libp2p's length-prefixed stream). The
//! MConnection packet headers (per 1024-byte chunk) and SecretConnection's sealed frames that a
//! Tendermint node adds underneath are not charged. `Hello` is not a celestia message: it stands
//! in for the node ID the p2p handshake exchanges, which only CAT2 needs (oneof field 15).

use crate::wire::{framed_len, put_varint, varint_len, Reader, WireError};
use crate::{MsgClass, Tx, TxId, TxStore, WireMsg};

/// Bytes of a tx key: a SHA-256 hash.
pub const KEY_LEN: usize = 32;
/// Bytes of a p2p node ID (an address, written as 40 hex characters on the wire).
pub const NODE_ID_LEN: usize = 20;

/// A tx key as the protocol sees it: the tx it names and how many key bytes travelled. The
/// spec requires 32; a faulty peer may send fewer (more is a decode error). The protocol, not
/// the decoder, rejects a short key, as celestia-core's reactor does. On the wire the key is
/// the SHA-256 of the tx's bytes, looked up in the node's `TxStore`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WireKey {
    len: u8,
    id: TxId,
}

impl WireKey {
    pub fn of(id: TxId) -> WireKey {
        WireKey {
            len: KEY_LEN as u8,
            id,
        }
    }
    /// A key of the wrong length (`len` < 32), as a faulty peer could send.
    pub fn short(len: u8) -> WireKey {
        WireKey {
            len: len.min(KEY_LEN as u8 - 1),
            id: TxId::UNKNOWN,
        }
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The tx this key names, if it is a well-formed 32-byte key.
    pub fn tx(&self) -> Option<TxId> {
        (self.len() == KEY_LEN).then_some(self.id)
    }
}

/// A node's p2p ID. In the simulator it is derived from the node's index.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeAddr(pub [u8; NODE_ID_LEN]);

impl NodeAddr {
    pub fn of_node(node: u32) -> NodeAddr {
        let mut a = [0u8; NODE_ID_LEN];
        a[..8].copy_from_slice(&crate::content::sha256(&node.to_le_bytes())[..8]);
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

    /// The framed bytes of this message, with keys and bodies from `store`; false (and `out`
    /// unusable) if the store no longer holds them.
    pub fn encode(&self, store: &TxStore, out: &mut Vec<u8>) -> bool {
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
                let Some(body) = store.payload(tx.id).filter(|b| b.len() == tx.len as usize) else {
                    return false;
                };
                out.push(TAG_F1);
                put_varint(out, tx.len as u64);
                out.extend_from_slice(body);
            }
            CatMsg::SeenTx { key, from } => {
                if !put_key(out, key, store) {
                    return false;
                }
                if let Some(node) = from {
                    put_hex(out, TAG_F2, node);
                }
            }
            CatMsg::WantTx { key } => return put_key(out, key, store),
            CatMsg::Hello { node } => put_hex(out, TAG_F1, node),
        }
        true
    }

    /// Decodes one framed message, rejecting a tx above `max_tx_bytes` before reading it. A tx
    /// goes into `store` under the SHA-256 of its bytes; a SeenTx key is remembered there.
    pub fn decode(
        bytes: &[u8],
        max_tx_bytes: u32,
        store: &mut TxStore,
    ) -> Result<CatMsg, WireError> {
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
                CatMsg::Txs(store.admit(body).ok_or(WireError::Invalid {
                    field: "txs",
                    why: "the tx store cannot hold it",
                })?)
            }
            TAG_SEEN => {
                let (key, from) = read_key_fields(&mut inner, true)?;
                CatMsg::SeenTx {
                    key: resolve(key, store, true)?,
                    from,
                }
            }
            TAG_WANT => CatMsg::WantTx {
                key: resolve(read_key_fields(&mut inner, false)?.0, store, false)?,
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

fn put_key(out: &mut Vec<u8>, key: &WireKey, store: &TxStore) -> bool {
    if key.is_empty() {
        return true;
    }
    out.push(TAG_F1);
    put_varint(out, key.len() as u64);
    match key.tx() {
        Some(id) => match store.key(id) {
            Some(bytes) if bytes.len() == KEY_LEN => out.extend_from_slice(bytes),
            _ => return false,
        },
        // A short key carries no tx: zeros of its length.
        None => out.resize(out.len() + key.len(), 0),
    }
    true
}

/// Key bytes as read to the key the protocol sees: a full key names a tx in the store (a
/// SeenTx's is remembered, a WantTx's only looked up).
fn resolve(key: &[u8], store: &mut TxStore, remember: bool) -> Result<WireKey, WireError> {
    if key.len() != KEY_LEN {
        return Ok(WireKey::short(key.len() as u8));
    }
    let id = match remember {
        true => store.intern(key).ok_or(WireError::Invalid {
            field: "tx_key",
            why: "the tx store refused it",
        })?,
        false => store.find(key).unwrap_or(TxId::UNKNOWN),
    };
    Ok(WireKey::of(id))
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
fn read_key_fields<'a>(
    r: &mut Reader<'a>,
    from_allowed: bool,
) -> Result<(&'a [u8], Option<NodeAddr>), WireError> {
    let mut key: &[u8] = &[];
    let mut from = None;
    let mut key_seen = false;
    while r.remaining() > 0 {
        match r.u8("field tag")? {
            TAG_F1 if !key_seen => {
                key_seen = true;
                let n = r.bounded("tx_key length", KEY_LEN as u64)? as usize;
                key = r.take(n, "tx_key")?;
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
    fn subject(&self) -> Option<TxId> {
        match self {
            CatMsg::Txs(tx) => Some(tx.id),
            CatMsg::SeenTx { key, .. } | CatMsg::WantTx { key } => key.tx(),
            CatMsg::Hello { .. } => None,
        }
    }
    fn full_tx(&self) -> Option<TxId> {
        match self {
            CatMsg::Txs(tx) => Some(tx.id),
            _ => None,
        }
    }
    fn class(&self) -> MsgClass {
        match self {
            CatMsg::Txs(_) => MsgClass::Payload,
            CatMsg::SeenTx { .. } => MsgClass::Announcement,
            CatMsg::WantTx { .. } => MsgClass::Request,
            CatMsg::Hello { .. } => MsgClass::Control,
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

    /// A store holding txs of these sizes (bytes derived from the index), and their ids.
    fn store_with(lens: &[u32]) -> (TxStore, Vec<Tx>) {
        let mut store = TxStore::default();
        let txs = lens
            .iter()
            .enumerate()
            .map(|(i, &len)| {
                let mut body = Vec::new();
                Tx {
                    id: TxId(i as u64 + 1),
                    len,
                }
                .fill_body(&mut body);
                store.admit(&body).unwrap()
            })
            .collect();
        (store, txs)
    }

    /// Encodes with `sender`, decodes into a fresh store, and checks size and meaning survive.
    fn round_trip(msg: &CatMsg, sender: &TxStore) {
        let mut out = Vec::new();
        assert!(msg.encode(sender, &mut out), "{msg:?}");
        assert_eq!(out.len(), msg.wire_len(), "{msg:?}");
        let mut receiver = TxStore::default();
        let back = CatMsg::decode(&out, 1 << 20, &mut receiver).unwrap();
        let key_of =
            |store: &TxStore, k: &WireKey| k.tx().and_then(|id| store.key(id).map(<[u8]>::to_vec));
        match (msg, &back) {
            (CatMsg::Txs(a), CatMsg::Txs(b)) => {
                assert_eq!(a.len, b.len);
                assert_eq!(sender.payload(a.id), receiver.payload(b.id));
            }
            (CatMsg::SeenTx { key: a, from: fa }, CatMsg::SeenTx { key: b, from: fb }) => {
                assert_eq!((a.len(), fa), (b.len(), fb));
                assert_eq!(key_of(sender, a), key_of(&receiver, b));
            }
            (CatMsg::WantTx { key: a }, CatMsg::WantTx { key: b }) => assert_eq!(a.len(), b.len()),
            (a, b) => assert_eq!(a, b),
        }
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
        let (store, txs) = store_with(&[4096, 8]);
        round_trip(&CatMsg::Txs(txs[0]), &store);
        round_trip(&CatMsg::Txs(txs[1]), &store);
        let key = WireKey::of(txs[0].id);
        round_trip(&CatMsg::SeenTx { key, from: None }, &store);
        round_trip(
            &CatMsg::SeenTx {
                key,
                from: Some(NodeAddr::of_node(42)),
            },
            &store,
        );
        round_trip(&CatMsg::WantTx { key }, &store);
        round_trip(
            &CatMsg::WantTx {
                key: WireKey::short(5),
            },
            &store,
        );
        round_trip(
            &CatMsg::WantTx {
                key: WireKey::short(0),
            },
            &store,
        );
        round_trip(
            &CatMsg::Hello {
                node: NodeAddr::of_node(0),
            },
            &store,
        );
    }

    #[test]
    fn the_key_is_the_sha256_of_the_bytes() {
        let (store, txs) = store_with(&[300]);
        let mut out = Vec::new();
        assert!(CatMsg::WantTx {
            key: WireKey::of(txs[0].id)
        }
        .encode(&store, &mut out));
        let body = store.payload(txs[0].id).unwrap();
        assert_eq!(
            &out[out.len() - KEY_LEN..],
            &crate::content::sha256(body)[..]
        );
        // A SeenTx names the tx its bytes will later be filed under.
        let mut receiver = TxStore::default();
        let CatMsg::SeenTx { key, .. } = CatMsg::decode(
            &{
                let mut seen = Vec::new();
                CatMsg::SeenTx {
                    key: WireKey::of(txs[0].id),
                    from: None,
                }
                .encode(&store, &mut seen);
                seen
            },
            1 << 20,
            &mut receiver,
        )
        .unwrap() else {
            panic!("not a SeenTx")
        };
        assert_eq!(receiver.admit(body).map(|t| t.id), key.tx());
    }

    #[test]
    fn what_the_store_lacks_is_not_sent() {
        let store = TxStore::default();
        let mut out = Vec::new();
        assert!(!CatMsg::Txs(Tx {
            id: TxId(0),
            len: 10
        })
        .encode(&store, &mut out));
        assert!(!CatMsg::SeenTx {
            key: WireKey::of(TxId(0)),
            from: None
        }
        .encode(&store, &mut out));
        // A WantTx for a tx never heard of decodes to a key no state matches.
        let (sender, txs) = store_with(&[10]);
        CatMsg::WantTx {
            key: WireKey::of(txs[0].id),
        }
        .encode(&sender, &mut out);
        let mut empty = TxStore::default();
        let CatMsg::WantTx { key } = CatMsg::decode(&out, 100, &mut empty).unwrap() else {
            panic!()
        };
        assert_eq!(key.tx(), Some(TxId::UNKNOWN));
        assert!(empty.is_empty(), "a WantTx remembers nothing");
    }

    #[test]
    fn bad_input_gives_typed_errors() {
        let (store, txs) = store_with(&[2000]);
        let mut out = Vec::new();
        CatMsg::Txs(txs[0]).encode(&store, &mut out);
        let mut s = TxStore::default();
        assert!(matches!(
            CatMsg::decode(&out, 1000, &mut s),
            Err(WireError::TooLong { .. })
        ));
        assert!(matches!(
            CatMsg::decode(&out[..out.len() - 1], 4000, &mut s),
            Err(WireError::Truncated { .. })
        ));
        // A 33-byte key.
        let mut bad = vec![37, TAG_WANT, 35, TAG_F1, 33];
        bad.extend_from_slice(&[0; 33]);
        bad[0] = (bad.len() - 1) as u8;
        assert!(matches!(
            CatMsg::decode(&bad, 4000, &mut s),
            Err(WireError::TooLong { .. })
        ));
        assert_eq!(
            CatMsg::decode(&[2, 0x42, 0], 4000, &mut s),
            Err(WireError::UnknownTag(0x42))
        );
    }

    #[test]
    fn short_keys_decode_but_name_no_tx() {
        assert_eq!(WireKey::short(31).tx(), None);
        assert_eq!(WireKey::of(TxId(9)).tx(), Some(TxId(9)));
    }

    proptest! {
        #[test]
        fn decoder_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
            let _ = CatMsg::decode(&bytes, 64, &mut TxStore::default());
        }

        #[test]
        fn txs_of_any_size_round_trip(len in 1u32..20_000) {
            let (store, txs) = store_with(&[len]);
            round_trip(&CatMsg::Txs(txs[0]), &store);
        }
    }
}
