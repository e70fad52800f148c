//! What `inv` counts: requests and what dedup_requests saves, verifications and what
//! fail_fast saves, then rejections.

use crate::counter::{Counter, Effect, Unit};

pub const REQUESTS: Counter = Counter {
    name: "inv.requests",
    unit: Unit::Requests,
    about: "Hashes asked for in GETDATA, first requests and retries.",
    effect: None,
};

pub const REQUESTS_SAVED: Counter = Counter {
    name: "inv.requests_saved",
    unit: Unit::Ids,
    about: "With dedup_requests: announced hashes not requested because a request for the tx is in flight or a copy is being verified.",
    effect: None,
};

pub const RETRIES: Counter = Counter {
    name: "inv.retries",
    unit: Unit::Requests,
    about: "With dedup_requests: hashes asked of the next announcer because the last one did not send the tx within retry_timeout_ms or left; announcers that withhold cause them.",
    effect: Some(Effect::Withheld),
};

pub const NO_PEER_FOR_TX: Counter = Counter {
    name: "inv.no_peer_for_tx",
    unit: Unit::Events,
    about: "Times a missing tx had no connected announcer left to ask; it waits for another INV.",
    effect: None,
};

pub const VERIFICATIONS: Counter = Counter {
    name: "inv.verifications",
    unit: Unit::Txs,
    about: "Tx copies verified, validate_ms each: the work fail_fast and dedup_requests cut.",
    effect: None,
};

pub const TXS_PROCESSED_TWICE: Counter = Counter {
    name: "inv.txs_processed_twice",
    unit: Unit::Txs,
    about: "Txs a node verified more than once (counted at the second copy), the waste neo-go's changes target.",
    effect: None,
};

pub const FAIL_FAST_DROPS: Counter = Counter {
    name: "inv.fail_fast_drops",
    unit: Unit::Txs,
    about: "With fail_fast: copies dropped unverified because the tx is held or already being verified.",
    effect: None,
};

pub const UNREQUESTED_TXS: Counter = Counter {
    name: "inv.unrequested_txs",
    unit: Unit::Txs,
    about: "Tx copies from a peer that was not asked for them (spam); handled like requested ones.",
    effect: None,
};

pub const DUPLICATE_INV: Counter = Counter {
    name: "inv.duplicate_inv",
    unit: Unit::Ids,
    about: "Hashes a peer announced again.",
    effect: None,
};

pub const GETDATA_UNKNOWN: Counter = Counter {
    name: "inv.getdata_unknown",
    unit: Unit::Ids,
    about: "Hashes asked for by GETDATA that this node does not hold; ignored.",
    effect: None,
};

pub const OVERSIZED_INV: Counter = Counter {
    name: "inv.oversized_inv",
    unit: Unit::Messages,
    about: "INV or GETDATA with more than MAX_INV_ENTRIES hashes; the sender is disconnected.",
    effect: None,
};

pub const OVERSIZED_TXS: Counter = Counter {
    name: "inv.oversized_txs",
    unit: Unit::Txs,
    about: "Txs above max_tx_bytes; dropped.",
    effect: None,
};

pub const ALL: &[&Counter] = &[
    &REQUESTS,
    &REQUESTS_SAVED,
    &RETRIES,
    &NO_PEER_FOR_TX,
    &VERIFICATIONS,
    &TXS_PROCESSED_TWICE,
    &FAIL_FAST_DROPS,
    &UNREQUESTED_TXS,
    &DUPLICATE_INV,
    &GETDATA_UNKNOWN,
    &OVERSIZED_INV,
    &OVERSIZED_TXS,
];
