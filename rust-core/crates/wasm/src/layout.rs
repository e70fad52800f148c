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
    /// The tx it is about (carries, announces or asks for; the first of several), -1 if none.
    Subject = 9,
    Stride = 10,
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

/// One input a node handled (`Simulation::take_steps`): lessons narrate from these. The
/// step's actions follow in `take_step_actions`, `Actions` of them, in order.
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum StepField {
    Time = 0,
    Node = 1,
    /// A `StepInputKind`.
    Input = 2,
    /// The sender of a message (or the peer that came or went); -1 otherwise.
    Peer = 3,
    /// A message's index into `Simulation::kinds`, a timer's into `timer_kinds`; -1 otherwise.
    Kind = 4,
    /// The tx the input is about, -1 if none.
    Tx = 5,
    /// A message's bytes on the wire.
    Bytes = 6,
    /// A `Knew`: what the node knew of that tx just before; -1 without a tx.
    Knew = 7,
    /// With `Knew::Requested`, the node it had asked.
    KnewPeer = 8,
    Actions = 9,
    Stride = 10,
}

#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StepInputKind {
    Message = 0,
    Timer = 1,
    /// A tx created at the node.
    Submit = 2,
    PeerUp = 3,
    PeerDown = 4,
}

/// What a node knew of a tx (`sim::step::Knew`).
#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Knew {
    Unknown = 0,
    Announced = 1,
    Requested = 2,
    Verifying = 3,
    Have = 4,
}

/// One action of a step (`Simulation::take_step_actions`).
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum ActionField {
    /// An `ActionKind`.
    Act = 0,
    /// The receiver of a send, the peer disconnected; -1 otherwise.
    Peer = 1,
    /// A send's index into `kinds`, a counter's into `counter_names`, a timer's into
    /// `timer_kinds`; -1 otherwise.
    Kind = 2,
    Tx = 3,
    /// A send's bytes, a counter's amount, a timer's time (us).
    Value = 4,
    Stride = 5,
}

#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ActionKind {
    Send = 0,
    Deliver = 1,
    Count = 2,
    Timer = 3,
    Disconnect = 4,
}

/// One step of a watched decoder's peeling (`DecoderView::steps`).
#[wasm_bindgen]
#[derive(Clone, Copy)]
pub enum PeelField {
    /// A `PeelKind`.
    Kind = 0,
    /// The codeword (numbered in arrival order); -1 for `Known`.
    Cw = 1,
    /// `Arrived`: the sender's decoder handle (`DecoderView::senders` names its node).
    Sender = 2,
    /// The symbol (numbered as the node learned them); -1 if none.
    Seq = 3,
    /// The short ID the codeword's sender named the symbol by; -1 if none.
    Id = 4,
    /// Unknown symbols left in the codeword.
    Degree = 5,
    /// `Arrived`: how many (short ID, symbol or -1) pairs of `DecoderView::ids` it names.
    Ids = 6,
    Stride = 7,
}

#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PeelKind {
    Arrived = 0,
    Known = 1,
    Released = 2,
    Reduced = 3,
    Redundant = 4,
    Corrupt = 5,
    Lost = 6,
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
