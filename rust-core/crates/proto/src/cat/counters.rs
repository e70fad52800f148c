//! What CAT and CAT2 count (ADR 009's metrics first, then rejections).

use crate::counter::{Counter, Unit};

pub const SUCCESSFUL_TXS: Counter = Counter {
    name: "cat.successful_txs",
    unit: Unit::Txs,
    about: "Txs accepted into the pool for the first time, own or received: ADR 009's baseline (it takes committed txs; there are no blocks here).",
    effect: None,
};

pub const ALREADY_SEEN_TXS: Counter = Counter {
    name: "cat.already_seen_txs",
    unit: Unit::Txs,
    about: "Copies of a tx already in the pool, received or submitted again; against successful_txs, ADR 009's measure of duplication.",
    effect: None,
};

pub const REQUESTED_TXS: Counter = Counter {
    name: "cat.requested_txs",
    unit: Unit::Requests,
    about: "First WantTx sent for a tx: how many txs were pulled rather than pushed.",
    effect: None,
};

pub const REREQUESTED_TXS: Counter = Counter {
    name: "cat.rerequested_txs",
    unit: Unit::Requests,
    about: "WantTx sent for a tx after an earlier one went unanswered (request_timeout_ms passed or the peer left); each adds a timeout to the tx's latency.",
    effect: None,
};

pub const FROM_WAITS: Counter = Counter {
    name: "cat.from_waits",
    unit: Unit::Events,
    about: "CAT2: txs not requested at once because their SeenTx named a connected peer they came from, which is given from_wait_ms to send them.",
    effect: None,
};

pub const NO_PEER_FOR_TX: Counter = Counter {
    name: "cat.no_peer_for_tx",
    unit: Unit::Events,
    about: "Times a missing tx had no connected announcer left to ask; it waits for a SeenTx.",
    effect: None,
};

pub const UNREQUESTED_TXS: Counter = Counter {
    name: "cat.unrequested_txs",
    unit: Unit::Txs,
    about: "New txs from a peer that was not asked for them (its own txs pushed in full, or spam); dropped when drop_unrequested is set.",
    effect: None,
};

pub const OVERSIZED_TXS: Counter = Counter {
    name: "cat.oversized_txs",
    unit: Unit::Txs,
    about: "Txs above max_tx_bytes; dropped, and the sender disconnected.",
    effect: None,
};

pub const BAD_KEY: Counter = Counter {
    name: "cat.bad_key",
    unit: Unit::Messages,
    about: "SeenTx or WantTx whose key is not 32 bytes; the sender is disconnected.",
    effect: None,
};

pub const DUPLICATE_SEEN_TX: Counter = Counter {
    name: "cat.duplicate_seen_tx",
    unit: Unit::Messages,
    about: "SeenTx from a peer that had already announced the same tx: wasted control traffic.",
    effect: None,
};

pub const WANT_UNKNOWN: Counter = Counter {
    name: "cat.want_unknown",
    unit: Unit::Messages,
    about: "WantTx for a tx not in the pool; ignored.",
    effect: None,
};

pub const SEEN_TX_OVER_BUDGET: Counter = Counter {
    name: "cat.seen_tx_over_budget",
    unit: Unit::Messages,
    about: "SeenTx ignored: that peer already had max_pending_per_peer announced txs this node lacks (txs that never come cannot grow its state).",
    effect: None,
};

pub const PENDING_FULL: Counter = Counter {
    name: "cat.pending_full",
    unit: Unit::Messages,
    about: "SeenTx ignored: announced txs this node lacks reached max_pending, all peers together.",
    effect: None,
};

pub const WANT_REPEATED: Counter = Counter {
    name: "cat.want_repeated",
    unit: Unit::Messages,
    about: "WantTx for a tx already sent in full to that peer; not answered again (a small request cannot draw the same bytes twice).",
    effect: None,
};

pub const FORGOTTEN_TXS: Counter = Counter {
    name: "cat.forgotten_txs",
    unit: Unit::Txs,
    about: "Txs the pool forgot to stay within max_pool_txs, oldest first; one announced again is fetched again.",
    effect: None,
};

pub const ALL: &[&Counter] = &[
    &SUCCESSFUL_TXS,
    &ALREADY_SEEN_TXS,
    &REQUESTED_TXS,
    &REREQUESTED_TXS,
    &FROM_WAITS,
    &NO_PEER_FOR_TX,
    &UNREQUESTED_TXS,
    &OVERSIZED_TXS,
    &BAD_KEY,
    &DUPLICATE_SEEN_TX,
    &WANT_UNKNOWN,
    &SEEN_TX_OVER_BUDGET,
    &PENDING_FULL,
    &WANT_REPEATED,
    &FORGOTTEN_TXS,
];
