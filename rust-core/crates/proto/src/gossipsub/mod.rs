//! GossipSub v1.1, v1.2 and v2.0 as one sans-IO state machine (issue 6).
//!
//! - `config`: parameters and their defaults (with sources), the version switch.
//! - `rpc`: the messages and their exact protobuf encoding; `decode`: the bounded decoder.
//! - `router`: the state machine; `mesh`, `mcache`, `seen`, `dontwant`, `announce`,
//!   `promises`, `score`: the state it keeps.

mod announce;
mod config;
mod decode;
mod dontwant;
mod mcache;
mod mesh;
mod promises;
mod router;
mod rpc;
mod score;
mod seen;

#[cfg(test)]
mod tests;

pub use config::{ConfigError, GossipsubConfig, Version};
pub use decode::{decode_frame, DecodeReport, Limits};
pub use router::{Gossipsub, GossipsubTimer, MAX_REMOTE_BACKOFF_S};
pub use rpc::{message_id, parse_message_id, Rpc, MSG_ID_LEN, TOPIC};
