//! What Strokkur counts: codewords and losses (its rate control's inputs), what its checks
//! refuse, then what its own txs and config can go wrong with.

use crate::counter::{Counter, Effect, Unit};

pub const CODEWORDS_SENT: Counter = Counter {
    name: "strokkur.codewords_sent",
    unit: Unit::Codewords,
    about: "Codewords sent, to all peers: Strokkur's traffic, paced per peer by rate control.",
    effect: None,
};

pub const LOSSES: Counter = Counter {
    name: "strokkur.losses",
    unit: Unit::Codewords,
    about: "Codewords received that this node did not decode within tau (or dropped at max_pending); reported back to their sender, whose rate to this node goes up.",
    effect: None,
};

pub const EXCESS_LOSSES_REPORTED: Counter = Counter {
    name: "strokkur.excess_losses_reported",
    unit: Unit::Codewords,
    about: "Losses a peer reported beyond the codewords sent to it, not believed: a peer lying about loss to raise the rate it is sent at.",
    effect: None,
};

pub const CORRUPT_CODEWORDS: Counter = Counter {
    name: "strokkur.corrupt_codewords",
    unit: Unit::Codewords,
    about: "Codewords that failed the decoder's check (corrupt payload, forged header or short-id collision); nothing is decoded from them.",
    effect: Some(Effect::Corrupt),
};

pub const REJECTED_CODEWORDS: Counter = Counter {
    name: "strokkur.rejected_codewords",
    unit: Unit::Codewords,
    about: "Codewords the decoder refused unread: no ids or too many, a payload of the wrong length, an id twice, or an unknown sender.",
    effect: Some(Effect::Corrupt),
};

pub const INVALID_SYMBOLS: Counter = Counter {
    name: "strokkur.invalid_symbols",
    unit: Unit::Symbols,
    about: "Decoded symbols that are neither a tx the store accepts nor a well-formed fragment; not coded onward.",
    effect: Some(Effect::Corrupt),
};

pub const RELEARNED: Counter = Counter {
    name: "strokkur.relearned",
    unit: Unit::Txs,
    about: "Txs decoded again after they left the peeling window; not delivered or coded twice.",
    effect: None,
};

pub const TX_TOO_LONG: Counter = Counter {
    name: "strokkur.tx_too_long",
    unit: Unit::Txs,
    about: "Own txs too long to split into fragments; delivered here but never coded.",
    effect: None,
};

pub const TX_WITHOUT_BYTES: Counter = Counter {
    name: "strokkur.tx_without_bytes",
    unit: Unit::Txs,
    about: "Own txs whose bytes the store does not hold; delivered here but never coded.",
    effect: None,
};

pub const BAD_CONFIG: Counter = Counter {
    name: "strokkur.bad_config",
    unit: Unit::Events,
    about: "Nodes whose config could not build the codec; they neither code nor decode.",
    effect: None,
};

pub const REKEYS: Counter = Counter {
    name: "strokkur.rekeys",
    unit: Unit::Messages,
    about: "Keys from a peer that had already sent one on this connection: it re-keyed its own stream (a peer sends one per connection).",
    effect: None,
};

pub const FORGOTTEN_TXS: Counter = Counter {
    name: "strokkur.forgotten_txs",
    unit: Unit::Txs,
    about: "Txs no longer remembered as known, to stay within max_known_txs (oldest first); one decoded again later is delivered again.",
    effect: None,
};

pub const ALL: &[&Counter] = &[
    &CODEWORDS_SENT,
    &LOSSES,
    &EXCESS_LOSSES_REPORTED,
    &CORRUPT_CODEWORDS,
    &REJECTED_CODEWORDS,
    &INVALID_SYMBOLS,
    &RELEARNED,
    &TX_TOO_LONG,
    &TX_WITHOUT_BYTES,
    &BAD_CONFIG,
    &REKEYS,
    &FORGOTTEN_TXS,
];
