//! What the GossipSub router counts: validation, then each control message by version
//! (IHAVE/IWANT, GRAFT/PRUNE, v1.2's IDONTWANT, v2.0's IANNOUNCE/INEED), then what the live
//! codec skips while decoding.

use crate::counter::{Counter, Effect, Unit};

pub const INVALID_MESSAGE: Counter = Counter {
    name: "gossipsub.invalid_message",
    unit: Unit::Messages,
    about: "Messages that failed validation or the signature policy; the sender pays (P4).",
    effect: Some(Effect::Corrupt),
};

pub const IGNORED_MESSAGE: Counter = Counter {
    name: "gossipsub.ignored_message",
    unit: Unit::Messages,
    about: "Messages the host's validation said to ignore; dropped without a penalty.",
    effect: None,
};

pub const SEEN_FORGOTTEN: Counter = Counter {
    name: "gossipsub.seen_forgotten",
    unit: Unit::Messages,
    about: "Message ids forgotten before seen_ttl to keep the seen cache within MAX_SEEN (a flood of new messages).",
    effect: None,
};

pub const VALIDATION_PEER_FULL: Counter = Counter {
    name: "gossipsub.validation_peer_full",
    unit: Unit::Messages,
    about: "Messages dropped unvalidated because VALIDATING.per_peer from the same peer already await the host's verdict.",
    effect: None,
};

pub const VALIDATION_QUEUE_FULL: Counter = Counter {
    name: "gossipsub.validation_queue_full",
    unit: Unit::Messages,
    about:
        "Messages dropped unvalidated because VALIDATING.total already await the host's verdict.",
    effect: None,
};

pub const VALIDATION_TIMEOUT: Counter = Counter {
    name: "gossipsub.validation_timeout",
    unit: Unit::Messages,
    about: "Messages dropped because the host gave no verdict within VALIDATION_TIMEOUT.",
    effect: None,
};

pub const PUBLISH_DUPLICATE: Counter = Counter {
    name: "gossipsub.publish_duplicate",
    unit: Unit::Messages,
    about: "Own publishes of a message already seen; not sent again.",
    effect: None,
};

pub const GRAYLISTED_RPC: Counter = Counter {
    name: "gossipsub.graylisted_rpc",
    unit: Unit::Messages,
    about: "RPC entries ignored because their sender's score is below graylist_threshold.",
    effect: None,
};

pub const IHAVE_IDS_SENT: Counter = Counter {
    name: "gossipsub.ihave_ids_sent",
    unit: Unit::Ids,
    about: "Message ids gossiped in IHAVE to peers outside the mesh, summed over IHAVEs: the cost of lazy gossip.",
    effect: None,
};

pub const IHAVE_IGNORED_SCORE: Counter = Counter {
    name: "gossipsub.ihave_ignored_score",
    unit: Unit::Messages,
    about: "IHAVE ignored because its sender's score is below gossip_threshold.",
    effect: None,
};

pub const IHAVE_FLOOD: Counter = Counter {
    name: "gossipsub.ihave_flood",
    unit: Unit::Messages,
    about: "IHAVE ignored because the peer sent more than max_ihave_messages this heartbeat or was already asked for max_ihave_length ids.",
    effect: None,
};

pub const IWANT_IDS_SENT: Counter = Counter {
    name: "gossipsub.iwant_ids_sent",
    unit: Unit::Ids,
    about: "Message ids asked for by IWANT in answer to IHAVE: messages the mesh did not bring in time.",
    effect: None,
};

pub const IWANT_SERVED: Counter = Counter {
    name: "gossipsub.iwant_served",
    unit: Unit::Messages,
    about: "Full messages sent in answer to IWANT.",
    effect: None,
};

pub const IWANT_OVER_RETRANSMISSION: Counter = Counter {
    name: "gossipsub.iwant_over_retransmission",
    unit: Unit::Ids,
    about: "IWANT ids not answered because this peer was already sent the message gossip_retransmission times.",
    effect: None,
};

pub const IWANT_IGNORED_SCORE: Counter = Counter {
    name: "gossipsub.iwant_ignored_score",
    unit: Unit::Messages,
    about: "IWANT ignored because its sender's score is below gossip_threshold.",
    effect: None,
};

pub const REQUEST_WITHHELD: Counter = Counter {
    name: "gossipsub.request_withheld",
    unit: Unit::Messages,
    about: "IWANT and INEED this node left unanswered as a withholding or silent adversary.",
    effect: Some(Effect::Withheld),
};

pub const BROKEN_PROMISES: Counter = Counter {
    name: "gossipsub.broken_promises",
    unit: Unit::Requests,
    about: "IWANTs whose promised message (one id picked per IWANT) did not arrive within iwant_followup_ms; the peer that offered it in IHAVE is penalized (P7).",
    effect: Some(Effect::Withheld),
};

pub const GRAFT_SENT: Counter = Counter {
    name: "gossipsub.graft_sent",
    unit: Unit::Messages,
    about: "GRAFT sent to fill the mesh up to D when it fell below D_lo.",
    effect: None,
};

pub const GRAFT_IN_BACKOFF: Counter = Counter {
    name: "gossipsub.graft_in_backoff",
    unit: Unit::Messages,
    about: "GRAFT from a peer still in its prune backoff; the peer is penalized and pruned again.",
    effect: None,
};

pub const PRUNE_SENT: Counter = Counter {
    name: "gossipsub.prune_sent",
    unit: Unit::Messages,
    about: "PRUNE sent: mesh above D_hi, a peer with a negative score, or a GRAFT refused.",
    effect: None,
};

pub const PRUNE_BACKOFF_CLAMPED: Counter = Counter {
    name: "gossipsub.prune_backoff_clamped",
    unit: Unit::Messages,
    about: "PRUNE whose backoff exceeds MAX_REMOTE_BACKOFF_S; the backoff is cut to that.",
    effect: None,
};

pub const IDONTWANT_SENT: Counter = Counter {
    name: "gossipsub.idontwant_sent",
    unit: Unit::Messages,
    about: "IDONTWANT sent (v1.2 and v2.0) to mesh peers for a new message of at least idontwant_threshold_bytes.",
    effect: None,
};

pub const IDONTWANT_SAVED: Counter = Counter {
    name: "gossipsub.idontwant_saved",
    unit: Unit::Messages,
    about: "Full messages not forwarded to a mesh peer because it had sent IDONTWANT for them: the copies v1.2 saves.",
    effect: None,
};

pub const IDONTWANT_FLOOD: Counter = Counter {
    name: "gossipsub.idontwant_flood",
    unit: Unit::Messages,
    about: "IDONTWANT ignored because the peer sent more than max_idontwant_per_heartbeat this heartbeat.",
    effect: None,
};

pub const IANNOUNCE_SENT: Counter = Counter {
    name: "gossipsub.iannounce_sent",
    unit: Unit::Messages,
    about: "IANNOUNCE sent (v2.0) to a mesh peer in place of the full message.",
    effect: None,
};

pub const IANNOUNCE_NOT_MESH: Counter = Counter {
    name: "gossipsub.iannounce_not_mesh",
    unit: Unit::Messages,
    about: "IANNOUNCE ignored because its sender is not in our mesh.",
    effect: None,
};

pub const IANNOUNCE_IGNORED_SCORE: Counter = Counter {
    name: "gossipsub.iannounce_ignored_score",
    unit: Unit::Messages,
    about: "IANNOUNCE ignored because its sender's score is below gossip_threshold.",
    effect: None,
};

pub const IANNOUNCE_FLOOD: Counter = Counter {
    name: "gossipsub.iannounce_flood",
    unit: Unit::Messages,
    about: "IANNOUNCE ignored because the peer sent more than max_iannounce_per_heartbeat this heartbeat.",
    effect: None,
};

pub const IANNOUNCE_OVER_BUDGET: Counter = Counter {
    name: "gossipsub.iannounce_over_budget",
    unit: Unit::Messages,
    about: "IANNOUNCE of a new message dropped because its sender already has its share of the announce cache (messages it announced that never came).",
    effect: None,
};

pub const ACACHE_FULL: Counter = Counter {
    name: "gossipsub.acache_full",
    unit: Unit::Messages,
    about: "IANNOUNCE of a new message dropped because the announce cache is full.",
    effect: None,
};

pub const INEED_SENT: Counter = Counter {
    name: "gossipsub.ineed_sent",
    unit: Unit::Requests,
    about: "INEED sent (v2.0) to an announcer for a message not seen yet.",
    effect: None,
};

pub const INEED_SERVED: Counter = Counter {
    name: "gossipsub.ineed_served",
    unit: Unit::Messages,
    about: "Full messages sent in answer to INEED.",
    effect: None,
};

pub const INEED_OVER_RETRANSMISSION: Counter = Counter {
    name: "gossipsub.ineed_over_retransmission",
    unit: Unit::Requests,
    about: "INEED not answered because this peer was already sent the message gossip_retransmission times.",
    effect: None,
};

pub const INEED_UNKNOWN: Counter = Counter {
    name: "gossipsub.ineed_unknown",
    unit: Unit::Requests,
    about: "INEED for a message no longer (or never) in the message cache; not answered.",
    effect: None,
};

pub const INEED_TIMEOUT: Counter = Counter {
    name: "gossipsub.ineed_timeout",
    unit: Unit::Requests,
    about: "INEED unanswered within ineed_timeout_ms; the announcer is penalized (P7) and the next one asked.",
    effect: Some(Effect::Withheld),
};

pub const UNKNOWN_FIELDS: Counter = Counter {
    name: "gossipsub.unknown_fields",
    unit: Unit::Events,
    about: "Live node: protobuf fields of unknown numbers skipped while decoding RPCs.",
    effect: None,
};

pub const DROPPED_ENTRIES: Counter = Counter {
    name: "gossipsub.dropped_entries",
    unit: Unit::Messages,
    about: "Live node: RPC entries dropped while decoding because their topic did not fit the topic table or their id or message did not fit the store.",
    effect: None,
};

pub const POLICY_VIOLATIONS: Counter = Counter {
    name: "gossipsub.policy_violations",
    unit: Unit::Messages,
    about: "Live node: received messages that break the signature policy; handed on as invalid, so the sender pays (P4).",
    effect: None,
};

pub const ALL: &[&Counter] = &[
    &INVALID_MESSAGE,
    &IGNORED_MESSAGE,
    &SEEN_FORGOTTEN,
    &VALIDATION_PEER_FULL,
    &VALIDATION_QUEUE_FULL,
    &VALIDATION_TIMEOUT,
    &PUBLISH_DUPLICATE,
    &GRAYLISTED_RPC,
    &IHAVE_IDS_SENT,
    &IHAVE_IGNORED_SCORE,
    &IHAVE_FLOOD,
    &IWANT_IDS_SENT,
    &IWANT_SERVED,
    &IWANT_OVER_RETRANSMISSION,
    &IWANT_IGNORED_SCORE,
    &REQUEST_WITHHELD,
    &BROKEN_PROMISES,
    &GRAFT_SENT,
    &GRAFT_IN_BACKOFF,
    &PRUNE_SENT,
    &PRUNE_BACKOFF_CLAMPED,
    &IDONTWANT_SENT,
    &IDONTWANT_SAVED,
    &IDONTWANT_FLOOD,
    &IANNOUNCE_SENT,
    &IANNOUNCE_NOT_MESH,
    &IANNOUNCE_IGNORED_SCORE,
    &IANNOUNCE_FLOOD,
    &IANNOUNCE_OVER_BUDGET,
    &ACACHE_FULL,
    &INEED_SENT,
    &INEED_SERVED,
    &INEED_OVER_RETRANSMISSION,
    &INEED_UNKNOWN,
    &INEED_TIMEOUT,
    &UNKNOWN_FIELDS,
    &DROPPED_ENTRIES,
    &POLICY_VIOLATIONS,
];
