//! What Shrec counts: requests, the retries its timeout drives, spurious copies, then
//! rejections.

use crate::counter::{Counter, Effect, Unit};

pub const REQUESTS: Counter = Counter {
    name: "shrec.requests",
    unit: Unit::Requests,
    about: "Short ids asked for, first requests and retries.",
    effect: None,
};

pub const RETRIES: Counter = Counter {
    name: "shrec.retries",
    unit: Unit::Requests,
    about: "Short ids asked of the next announcer because the last one did not send the tx within request_timeout_ms or left; each withholding announcer costs a tx one timeout.",
    effect: Some(Effect::Withheld),
};

pub const DUPLICATE_TXS: Counter = Counter {
    name: "shrec.duplicate_txs",
    unit: Unit::Txs,
    about: "Copies of a tx already held: late answers to a request retried too early (a timeout below the round trip), or spam.",
    effect: None,
};

pub const NO_PEER_FOR_TX: Counter = Counter {
    name: "shrec.no_peer_for_tx",
    unit: Unit::Events,
    about: "Times a missing tx had no connected announcer left to ask; it waits for another announcement.",
    effect: None,
};

pub const UNREQUESTED_TXS: Counter = Counter {
    name: "shrec.unrequested_txs",
    unit: Unit::Txs,
    about: "New txs from a peer that was not asked for them (spam); accepted.",
    effect: None,
};

pub const REQUEST_UNKNOWN: Counter = Counter {
    name: "shrec.request_unknown",
    unit: Unit::Ids,
    about: "Requested short ids that match no tx held; ignored.",
    effect: None,
};

pub const OVERSIZED_TXS: Counter = Counter {
    name: "shrec.oversized_txs",
    unit: Unit::Txs,
    about: "Txs above max_tx_bytes; dropped.",
    effect: None,
};

pub const UNKNOWN_KEY: Counter = Counter {
    name: "shrec.unknown_key",
    unit: Unit::Messages,
    about: "Announcements or requests from a peer whose link key is missing (no Hello exchanged); ignored, since their short ids cannot be read.",
    effect: None,
};

pub const BACKLOG_FULL: Counter = Counter {
    name: "shrec.backlog_full",
    unit: Unit::Ids,
    about: "Announcements dropped for a peer that has not sent its Hello yet, because MAX_IDS already wait for it (a silent peer never sends one).",
    effect: None,
};

pub const ALL: &[&Counter] = &[
    &REQUESTS,
    &RETRIES,
    &DUPLICATE_TXS,
    &NO_PEER_FOR_TX,
    &UNREQUESTED_TXS,
    &REQUEST_UNKNOWN,
    &OVERSIZED_TXS,
    &UNKNOWN_KEY,
    &BACKLOG_FULL,
];
