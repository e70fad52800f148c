//! What GossipSub routers say to each other, one entry at a time, and what each entry costs
//! on the wire.
//!
//! On the wire (`codec`) a frame is one length-prefixed protobuf `RPC` (libp2p pubsub framing,
//! `pubsub/README.md`, extended by gossipsub v1.0 control field 3 with ihave=1, iwant=2,
//! graft=3, prune=4, v1.1 prune backoff=3, v1.2 idontwant=5 and the v2.0 draft iannounce=6,
//! ineed=7). A real RPC batches any number of entries; the router reasons about one entry at a
//! time, and the live codec batches what one input produced for a peer into one RPC.
//!
//! The simulator charges each entry as a frame of its own (`WireMsg::wire_len`), with the
//! topic `TOPIC` and message ids of `MSG_ID_LEN` bytes (the length of Ethereum's consensus
//! message ids, a truncated SHA-256, as in the Shadow study of seed 002).

use super::topics::TopicId;
use crate::wire::varint_len;
use crate::{MsgClass, Tx, TxId, WireMsg};
use std::sync::Arc;

/// The topic of the simulator's nodes (and the default topic of a config).
pub const TOPIC: &str = "/txcast/gossipsub/tx";

/// Bytes of a message id as the simulator charges them.
pub const MSG_ID_LEN: usize = 20;

/// Who decides whether a message is valid.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// Known good (the simulator's honest messages, our own publishes).
    Valid,
    /// Known bad (the simulator's corrupt messages, a live message breaking the signature
    /// policy): P4 for the sender.
    Invalid,
    /// The host validates it (signature, application rules) and reports back.
    Host,
}

/// A published message as the router handles it: the tx it carries (its id is the message
/// id's handle, its length the data's), its topic, and the bytes of its other fields.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub tx: Tx,
    pub topic: TopicId,
    /// Bytes of the `from`, `seqno`, `signature` and `key` fields (0 under StrictNoSign).
    pub envelope: u16,
    pub check: Check,
}

/// One GossipSub RPC entry.
#[derive(Clone, Debug, PartialEq)]
pub enum Rpc {
    /// `subscriptions: [{subscribe, topicid}]`.
    Subscribe {
        topic: TopicId,
        subscribe: bool,
    },
    /// `publish: [message]`.
    Publish(Message),
    /// The ids are shared: a heartbeat sends one list to several peers, so each copy is a
    /// reference count, not an allocation.
    IHave {
        topic: TopicId,
        ids: Arc<[TxId]>,
    },
    IWant(Vec<TxId>),
    Graft {
        topic: TopicId,
    },
    /// `backoff` in seconds as v1.1 defines it; `None` when the field is absent.
    Prune {
        topic: TopicId,
        backoff_s: Option<u64>,
    },
    IDontWant(TxId),
    IAnnounce {
        topic: TopicId,
        id: TxId,
    },
    INeed(TxId),
}

/// Bytes of a length-delimited field holding `n` bytes (all field numbers here are < 16,
/// so the key is one byte).
pub(crate) const fn len_field(n: usize) -> usize {
    1 + varint_len(n as u64) + n
}

pub(crate) const fn varint_field(v: u64) -> usize {
    1 + varint_len(v)
}

impl Rpc {
    /// Length of the entry's item inside the RPC (a subscription, message or control item)
    /// as the simulator charges it.
    fn item_len(&self) -> usize {
        let topic = len_field(TOPIC.len());
        let id = len_field(MSG_ID_LEN);
        match self {
            Rpc::Subscribe { subscribe, .. } => varint_field(*subscribe as u64) + topic,
            Rpc::Publish(m) => len_field(m.tx.len as usize) + topic + m.envelope as usize,
            Rpc::IHave { ids, .. } => topic + ids.len() * id,
            Rpc::IWant(ids) => ids.len() * id,
            Rpc::Graft { .. } => topic,
            Rpc::Prune { backoff_s, .. } => topic + backoff_s.map_or(0, varint_field),
            Rpc::IDontWant(_) | Rpc::INeed(_) => id,
            Rpc::IAnnounce { .. } => topic + id,
        }
    }

    /// Bytes of an RPC holding just this entry, without the length prefix.
    pub fn body_len(&self) -> usize {
        let item = len_field(self.item_len());
        match self {
            Rpc::Subscribe { .. } | Rpc::Publish(_) => item,
            // Inside `control`.
            _ => len_field(item),
        }
    }
}

impl WireMsg for Rpc {
    fn wire_len(&self) -> usize {
        crate::wire::framed_len(self.body_len())
    }
    fn payload_len(&self) -> usize {
        match self {
            Rpc::Publish(m) => m.tx.len as usize,
            _ => 0,
        }
    }
    fn full_tx(&self) -> Option<TxId> {
        match self {
            Rpc::Publish(m) => Some(m.tx.id),
            _ => None,
        }
    }
    fn subject(&self) -> Option<TxId> {
        match self {
            Rpc::Publish(m) => Some(m.tx.id),
            Rpc::IHave { ids, .. } => ids.first().copied(),
            Rpc::IWant(ids) => ids.first().copied(),
            Rpc::IDontWant(id) | Rpc::IAnnounce { id, .. } | Rpc::INeed(id) => Some(*id),
            Rpc::Subscribe { .. } | Rpc::Graft { .. } | Rpc::Prune { .. } => None,
        }
    }
    fn class(&self) -> MsgClass {
        match self {
            Rpc::Publish(_) => MsgClass::Payload,
            Rpc::IHave { .. } | Rpc::IAnnounce { .. } => MsgClass::Announcement,
            Rpc::IWant(_) | Rpc::INeed(_) => MsgClass::Request,
            Rpc::Subscribe { .. } | Rpc::Graft { .. } | Rpc::Prune { .. } | Rpc::IDontWant(_) => {
                MsgClass::Control
            }
        }
    }
    fn kind(&self) -> &'static str {
        match self {
            Rpc::Subscribe { .. } => "subscribe",
            Rpc::Publish(_) => "publish",
            Rpc::IHave { .. } => "ihave",
            Rpc::IWant(_) => "iwant",
            Rpc::Graft { .. } => "graft",
            Rpc::Prune { .. } => "prune",
            Rpc::IDontWant(_) => "idontwant",
            Rpc::IAnnounce { .. } => "iannounce",
            Rpc::INeed(_) => "ineed",
        }
    }
    /// IDONTWANT jumps the queue (go-libp2p sends it "urgent", before validation), so it
    /// arrives before the duplicates it is meant to stop.
    fn priority(&self) -> u8 {
        matches!(self, Rpc::IDontWant(_)) as u8
    }
}
