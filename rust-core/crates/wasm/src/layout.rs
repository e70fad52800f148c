//! The layouts of what crosses to the page, defined once: wasm-bindgen turns each enum into a
//! TypeScript enum, so the page indexes the flat arrays with the same names the Rust side
//! fills them by.

use wasm_bindgen::prelude::*;

/// One captured send in `Simulation::take_sends`: its numbers' places, `Stride` per send.
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum SendField {
    Time = 0,
    From = 1,
    To = 2,
    /// Index into `Simulation::kinds`.
    Kind = 3,
    Bytes = 4,
    Payload = 5,
    Arrive = 6,
    /// 1 if the link lost it.
    Lost = 7,
    /// The tx it carries in full, -1 if none.
    Tx = 8,
    Stride = 9,
}

/// One first arrival or duplicate copy (`take_deliveries`, `take_duplicates`).
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum ArrivalField {
    Time = 0,
    Node = 1,
    Tx = 2,
    Stride = 3,
}

/// One counter move (`take_counts`).
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum CountField {
    Time = 0,
    Node = 1,
    /// Index into `Simulation::counters`.
    Counter = 2,
    N = 3,
    Stride = 4,
}

/// One change timed events make (`Simulation::changes`), in time order.
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum ChangeField {
    Time = 0,
    /// The node it changes; -1 for the whole network.
    Node = 1,
    /// A `ChangeWhat`.
    What = 2,
    Value = 3,
    Stride = 4,
}

/// What a `ChangeField` row changes.
#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ChangeWhat {
    /// The node now acts as the behaviour `Value` indexes in `Simulation::behaviour_names`
    /// (as its run's protocol takes it: one it ignores is "honest").
    Behaviour = 0,
    /// The node left (`Value` 1) or came back (0).
    Away = 1,
    /// The partitions in force that cut the node off, one bit each (0 after a heal): nodes
    /// whose values differ are cut apart.
    Side = 2,
    /// Every link's loss from now on.
    Loss = 3,
    /// The workload's rate from now on, in txs per second.
    Load = 4,
}

/// What a message does (`proto::MsgClass`), for `Simulation::kind_classes` and the light
/// node's frames.
#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MessageClass {
    Payload = 0,
    Announcement = 1,
    Request = 2,
    Control = 3,
}

impl From<proto::MsgClass> for MessageClass {
    fn from(c: proto::MsgClass) -> MessageClass {
        match c {
            proto::MsgClass::Payload => MessageClass::Payload,
            proto::MsgClass::Announcement => MessageClass::Announcement,
            proto::MsgClass::Request => MessageClass::Request,
            proto::MsgClass::Control => MessageClass::Control,
        }
    }
}

/// Appends one row laid out by `fields` (pairs of place and value) to `out`.
pub fn push_row<const N: usize>(out: &mut Vec<f64>, stride: usize, fields: [(usize, f64); N]) {
    let start = out.len();
    out.resize(start + stride, 0.0);
    for (place, value) in fields {
        out[start + place] = value;
    }
}
