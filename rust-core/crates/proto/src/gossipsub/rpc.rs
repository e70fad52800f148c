//! GossipSub messages and their exact protobuf encoding.
//!
//! On the wire every frame is one length-prefixed protobuf `RPC` (libp2p pubsub framing)
//! as defined by `pubsub/README.md` and extended by gossipsub v1.0 (control field 3 with
//! ihave=1, iwant=2, graft=3, prune=4), v1.1 (prune backoff=3), v1.2 (idontwant=5) and the
//! v2.0 draft (iannounce=6, ineed=7). Published messages carry only `data` and `topic`
//! (the StrictNoSign policy Ethereum and the Shadow study in seed 002 use).
//!
//! Each frame here holds one entry (one message, one subscription or one control item);
//! a real router may batch several into one RPC, which saves a few bytes of framing.
//!
//! Message ids are 20 bytes (the length of Ethereum's consensus message ids, a truncated
//! SHA-256): the `TxId` big-endian in the first 8 bytes, then 12 bytes mixed from it,
//! standing in for the rest of a hash. A message's `data` is the tx body (`Tx::fill_body`),
//! whose first 8 bytes hold the id, so a receiver can derive the id from the content.

use crate::wire::{put_varint, varint_len};
use crate::{Tx, TxId, WireMsg};

/// The single topic every txcast node uses; its id travels in every topic field.
pub const TOPIC: &str = "/txcast/gossipsub/tx";

/// Bytes of a message id on the wire.
pub const MSG_ID_LEN: usize = 20;

/// One GossipSub RPC as exchanged by txcast nodes.
#[derive(Clone, Debug, PartialEq)]
pub enum Rpc {
    /// `subscriptions: [{subscribe, topicid}]`.
    Subscribe {
        subscribe: bool,
    },
    /// `publish: [{data, topic}]`. `valid` is false when the bytes fail the application's
    /// validation (here: the body is not the deterministic body of its id).
    Publish {
        tx: Tx,
        valid: bool,
    },
    IHave(Vec<TxId>),
    IWant(Vec<TxId>),
    Graft,
    /// `backoff` in seconds as v1.1 defines it; `None` when the field is absent.
    Prune {
        backoff_s: Option<u64>,
    },
    IDontWant(TxId),
    IAnnounce(TxId),
    INeed(TxId),
}

/// Protobuf wire types used here.
const VARINT: u64 = 0;
const LEN: u64 = 2;

/// Field numbers (libp2p/specs pubsub, gossipsub v1.0 to v2.0).
pub(crate) mod field {
    pub const RPC_SUBSCRIPTIONS: u64 = 1;
    pub const RPC_PUBLISH: u64 = 2;
    pub const RPC_CONTROL: u64 = 3;
    pub const SUB_SUBSCRIBE: u64 = 1;
    pub const SUB_TOPIC: u64 = 2;
    pub const MSG_DATA: u64 = 2;
    pub const MSG_TOPIC: u64 = 4;
    pub const CTRL_IHAVE: u64 = 1;
    pub const CTRL_IWANT: u64 = 2;
    pub const CTRL_GRAFT: u64 = 3;
    pub const CTRL_PRUNE: u64 = 4;
    pub const CTRL_IDONTWANT: u64 = 5;
    pub const CTRL_IANNOUNCE: u64 = 6;
    pub const CTRL_INEED: u64 = 7;
    /// Topic in IHAVE, GRAFT, PRUNE, IANNOUNCE.
    pub const ITEM_TOPIC: u64 = 1;
    /// Message ids in IHAVE (2), IWANT and IDONTWANT (1), IANNOUNCE and INEED (2).
    pub const IHAVE_IDS: u64 = 2;
    pub const IWANT_IDS: u64 = 1;
    pub const IDONTWANT_IDS: u64 = 1;
    pub const ANNOUNCE_ID: u64 = 2;
    pub const PRUNE_BACKOFF: u64 = 3;
}

/// Bytes of a length-delimited field holding `n` bytes (all field numbers here are < 16,
/// so the key is one byte).
const fn len_field(n: usize) -> usize {
    1 + varint_len(n as u64) + n
}

const fn varint_field(v: u64) -> usize {
    1 + varint_len(v)
}

fn put_key(out: &mut Vec<u8>, field: u64, wire_type: u64) {
    put_varint(out, (field << 3) | wire_type);
}

fn put_len(out: &mut Vec<u8>, field: u64, n: usize) {
    put_key(out, field, LEN);
    put_varint(out, n as u64);
}

fn put_bytes(out: &mut Vec<u8>, field: u64, bytes: &[u8]) {
    put_len(out, field, bytes.len());
    out.extend_from_slice(bytes);
}

/// The 20 message-id bytes of a tx.
pub fn message_id(id: TxId) -> [u8; MSG_ID_LEN] {
    let mut out = [0u8; MSG_ID_LEN];
    out[..8].copy_from_slice(&id.0.to_be_bytes());
    let mut z = id.0 ^ 0x243f_6a88_85a3_08d3;
    for chunk in out[8..].chunks_mut(4) {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut m = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        m ^= m >> 31;
        chunk.copy_from_slice(&m.to_be_bytes()[..chunk.len()]);
    }
    out
}

/// The tx id behind message-id bytes, if they are well-formed.
pub fn parse_message_id(bytes: &[u8]) -> Option<TxId> {
    if bytes.len() != MSG_ID_LEN {
        return None;
    }
    let mut head = [0u8; 8];
    head.copy_from_slice(&bytes[..8]);
    let id = TxId(u64::from_be_bytes(head));
    (message_id(id)[..] == *bytes).then_some(id)
}

impl Rpc {
    /// Length of the control item inside `ControlMessage` and its field number.
    fn control_item(&self) -> Option<(u64, usize)> {
        let topic = len_field(TOPIC.len());
        let id = len_field(MSG_ID_LEN);
        Some(match self {
            Rpc::IHave(ids) => (field::CTRL_IHAVE, topic + ids.len() * id),
            Rpc::IWant(ids) => (field::CTRL_IWANT, ids.len() * id),
            Rpc::Graft => (field::CTRL_GRAFT, topic),
            Rpc::Prune { backoff_s } => {
                (field::CTRL_PRUNE, topic + backoff_s.map_or(0, varint_field))
            }
            Rpc::IDontWant(_) => (field::CTRL_IDONTWANT, id),
            Rpc::IAnnounce(_) => (field::CTRL_IANNOUNCE, topic + id),
            Rpc::INeed(_) => (field::CTRL_INEED, id),
            Rpc::Subscribe { .. } | Rpc::Publish { .. } => return None,
        })
    }

    fn message_len(tx: &Tx) -> usize {
        len_field(tx.len as usize) + len_field(TOPIC.len())
    }

    fn sub_len(subscribe: bool) -> usize {
        varint_field(subscribe as u64) + len_field(TOPIC.len())
    }

    /// Bytes of the RPC protobuf, without the length prefix.
    pub fn body_len(&self) -> usize {
        match self {
            Rpc::Subscribe { subscribe } => len_field(Self::sub_len(*subscribe)),
            Rpc::Publish { tx, .. } => len_field(Self::message_len(tx)),
            _ => {
                let (_, item) = self.control_item().unwrap_or((0, 0));
                len_field(len_field(item))
            }
        }
    }

    /// Appends the framed bytes (varint length prefix, then the RPC) to `out`.
    /// `scratch` is reused for message bodies.
    pub fn encode(&self, out: &mut Vec<u8>, scratch: &mut Vec<u8>) {
        put_varint(out, self.body_len() as u64);
        match self {
            Rpc::Subscribe { subscribe } => {
                put_len(out, field::RPC_SUBSCRIPTIONS, Self::sub_len(*subscribe));
                put_key(out, field::SUB_SUBSCRIBE, VARINT);
                put_varint(out, *subscribe as u64);
                put_bytes(out, field::SUB_TOPIC, TOPIC.as_bytes());
            }
            Rpc::Publish { tx, valid } => {
                put_len(out, field::RPC_PUBLISH, Self::message_len(tx));
                tx.fill_body(scratch);
                if !valid {
                    corrupt(scratch);
                }
                put_bytes(out, field::MSG_DATA, scratch);
                put_bytes(out, field::MSG_TOPIC, TOPIC.as_bytes());
            }
            _ => {
                let Some((item_field, item_len)) = self.control_item() else {
                    return;
                };
                put_len(out, field::RPC_CONTROL, len_field(item_len));
                put_len(out, item_field, item_len);
                self.encode_control_item(out);
            }
        }
    }

    fn encode_control_item(&self, out: &mut Vec<u8>) {
        let topic = |out: &mut Vec<u8>| put_bytes(out, field::ITEM_TOPIC, TOPIC.as_bytes());
        match self {
            Rpc::IHave(ids) => {
                topic(out);
                for &id in ids {
                    put_bytes(out, field::IHAVE_IDS, &message_id(id));
                }
            }
            Rpc::IWant(ids) => {
                for &id in ids {
                    put_bytes(out, field::IWANT_IDS, &message_id(id));
                }
            }
            Rpc::Graft => topic(out),
            Rpc::Prune { backoff_s } => {
                topic(out);
                if let Some(b) = backoff_s {
                    put_key(out, field::PRUNE_BACKOFF, VARINT);
                    put_varint(out, *b);
                }
            }
            Rpc::IDontWant(id) => put_bytes(out, field::IDONTWANT_IDS, &message_id(*id)),
            Rpc::IAnnounce(id) => {
                topic(out);
                put_bytes(out, field::ANNOUNCE_ID, &message_id(*id));
            }
            Rpc::INeed(id) => put_bytes(out, field::ANNOUNCE_ID, &message_id(*id)),
            Rpc::Subscribe { .. } | Rpc::Publish { .. } => {}
        }
    }
}

/// Garbage in place of a valid body: keeps the 8 id bytes so the message still claims
/// its id, and flips the rest.
pub(crate) fn corrupt(body: &mut [u8]) {
    if body.len() > 8 {
        for b in &mut body[8..] {
            *b ^= 0xa5;
        }
    } else if let Some(last) = body.last_mut() {
        *last ^= 0xa5;
    }
}

impl WireMsg for Rpc {
    fn wire_len(&self) -> usize {
        crate::wire::framed_len(self.body_len())
    }
    fn payload_len(&self) -> usize {
        match self {
            Rpc::Publish { tx, .. } => tx.len as usize,
            _ => 0,
        }
    }
    fn full_tx(&self) -> Option<TxId> {
        match self {
            Rpc::Publish { tx, .. } => Some(tx.id),
            _ => None,
        }
    }
    fn kind(&self) -> &'static str {
        match self {
            Rpc::Subscribe { .. } => "subscribe",
            Rpc::Publish { .. } => "publish",
            Rpc::IHave(_) => "ihave",
            Rpc::IWant(_) => "iwant",
            Rpc::Graft => "graft",
            Rpc::Prune { .. } => "prune",
            Rpc::IDontWant(_) => "idontwant",
            Rpc::IAnnounce(_) => "iannounce",
            Rpc::INeed(_) => "ineed",
        }
    }
    /// IDONTWANT jumps the queue (go-libp2p sends it "urgent", before validation), so it
    /// arrives before the duplicates it is meant to stop.
    fn priority(&self) -> u8 {
        matches!(self, Rpc::IDontWant(_)) as u8
    }
}
