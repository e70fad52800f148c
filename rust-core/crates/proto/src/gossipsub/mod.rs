//! GossipSub v1.1, v1.2 and v2.0 as one sans-IO state machine (issue 6).
//!
//! - `config`: parameters and their defaults (with sources), the version switch.
//! - `rpc`: the messages and their exact protobuf encoding; `decode`: the bounded decoder.
//! - `router`: the state machine; `mesh`, `mcache`, `seen`, `dontwant`, `announce`,
//!   `promises`, `score`: the state it keeps.
//!
//! Modelling choices where the specs leave room or txcast lacks a detail:
//! - One topic (`rpc::TOPIC`), still named in every topic field on the wire. Subscriptions
//!   are exchanged: each node sends SUBSCRIBE on PeerUp and grafts only subscribed peers.
//! - Message ids are 20 bytes (see `rpc`); one entry per RPC frame (no batching).
//! - GRAFT is accepted above D_hi as in v1.0 and the heartbeat prunes back to D: v1.1
//!   accepts there only outbound peers, and simulated links have no direction (no D_out).
//! - IDONTWANT (v1.2, and v2.0 which extends it) goes to every mesh peer but the one the
//!   message came from, for messages of at least `idontwant_threshold_bytes`, and jumps the
//!   upload queue (`priority`), like go-libp2p's urgent send before validation.
//! - v2.0: forwarding tosses a coin per mesh peer (lazy with probability D_announce / D);
//!   own messages go out in full unless D_announce = D (draft, "Message Publishing"), and
//!   with flood publishing non-mesh peers always get the full message. IANNOUNCE is taken
//!   only from mesh peers with a score above the gossip threshold; an INEED timeout adds
//!   `ineed_timeout_penalty` to the behaviour penalty (P7); 0 turns it off, as in the
//!   go-libp2p branch behind seed 002's numbers, where the penalty is still a TODO.
//! - Score: P4 and P7 only (no P1-P3b, P5, P6, no opportunistic grafting, no PX).
//! - Adversaries: Silent stays in meshes but sends no message, gossip or reply;
//!   WithholdOnRequest forwards and announces but ignores IWANT and INEED; Censor leaves
//!   `censors(id)` messages out of everything; Corrupt sends bodies that fail validation
//!   (P4). Other behaviours act honestly.

mod announce;
mod codec;
mod config;
pub mod counters;
mod dontwant;
mod mcache;
mod mesh;
mod promises;
mod router;
mod rpc;
mod score;
mod seen;
mod topics;

#[cfg(test)]
mod tests;

pub use codec::{Codec, DecodeReport, Encoded, Limits, MessageParts, OwnMessage, SEQNO_LEN};
pub use config::{
    ConfigError, GossipsubConfig, MessageIdFn, SignaturePolicy, Version, ENVELOPE_STRICT_SIGN,
};
pub use router::{
    Gossipsub, GossipsubTimer, Verdict, MAX_REMOTE_BACKOFF_S, VALIDATING, VALIDATION_TIMEOUT,
};
pub use rpc::{Check, Message, Rpc, MSG_ID_LEN, TOPIC};
pub use topics::{TopicId, TopicNames, MAX_TOPICS};
