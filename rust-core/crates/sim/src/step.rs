//! What a node did, one input at a time, for narration (the page's lessons): the input, what
//! the node knew of its tx just before, and every action it took in answer. Lessons tell
//! "node 4 had not seen tx 2, so it answered node 7's IHAVE with IWANT" from these records and
//! nothing else.

use crate::network::Network;
use proto::{Action, Input, MsgClass, PeerIdx, Protocol, TxId, TxStatus, WireMsg};

/// What a node knew of a tx, with peers named by node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Knew {
    Unknown,
    Announced,
    Requested { from: u32 },
    Verifying,
    Have,
}

/// The input a node handled.
#[derive(Clone, Debug, PartialEq)]
pub enum StepInput {
    Message {
        from: u32,
        kind: &'static str,
        class: MsgClass,
        tx: Option<u64>,
        bytes: u32,
    },
    Timer {
        kind: &'static str,
        tx: Option<u64>,
    },
    /// A tx created at this node.
    Submit {
        tx: u64,
    },
    PeerUp {
        peer: u32,
    },
    PeerDown {
        peer: u32,
    },
}

impl StepInput {
    pub fn tx(&self) -> Option<u64> {
        match *self {
            StepInput::Message { tx, .. } | StepInput::Timer { tx, .. } => tx,
            StepInput::Submit { tx } => Some(tx),
            StepInput::PeerUp { .. } | StepInput::PeerDown { .. } => None,
        }
    }
}

/// One thing the node did in answer.
#[derive(Clone, Debug, PartialEq)]
pub enum StepAction {
    Send {
        to: u32,
        kind: &'static str,
        class: MsgClass,
        tx: Option<u64>,
        bytes: u32,
    },
    Deliver {
        tx: u64,
    },
    Count {
        name: &'static str,
        n: u64,
    },
    Timer {
        kind: &'static str,
        tx: Option<u64>,
        at_us: u64,
    },
    Disconnect {
        peer: u32,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub t_us: u64,
    pub node: u32,
    pub input: StepInput,
    /// What the node knew of the input's tx before handling it (None if it names none).
    pub knew: Option<Knew>,
    pub actions: Vec<StepAction>,
}

pub type StepSink = Box<dyn FnMut(&Step)>;

/// The node a node's peer number stands for (u32::MAX for a number it does not have).
fn peer_node(net: &Network, node: usize, p: PeerIdx) -> u32 {
    if p.idx() >= net.degree(node) {
        return u32::MAX;
    }
    net.edges[net.edge(node, p.0)].peer
}

fn msg_note<M: WireMsg>(msg: &M) -> (&'static str, MsgClass, Option<u64>, u32) {
    let tx = msg.subject().map(|t| t.0);
    (msg.kind(), msg.class(), tx, msg.wire_len() as u32)
}

/// The input as a record, before the node takes it.
pub fn note_input<P: Protocol>(
    net: &Network,
    node: usize,
    input: &Input<P::Msg, P::Timer>,
) -> StepInput {
    match input {
        Input::Message(from, msg) => {
            let (kind, class, tx, bytes) = msg_note(msg);
            StepInput::Message {
                from: peer_node(net, node, *from),
                kind,
                class,
                tx,
                bytes,
            }
        }
        Input::Timer(t) => {
            let note = P::describe_timer(t);
            StepInput::Timer {
                kind: note.kind,
                tx: note.tx.map(|t| t.0),
            }
        }
        Input::Submit(tx) => StepInput::Submit { tx: tx.id.0 },
        Input::PeerUp(p) => StepInput::PeerUp {
            peer: peer_node(net, node, *p),
        },
        Input::PeerDown(p) => StepInput::PeerDown {
            peer: peer_node(net, node, *p),
        },
    }
}

/// What the node knew of `tx`, peers named by node.
pub fn knew<P: Protocol>(net: &Network, node: usize, protocol: &P, tx: u64) -> Knew {
    match protocol.tx_status(TxId(tx)) {
        TxStatus::Unknown => Knew::Unknown,
        TxStatus::Announced => Knew::Announced,
        TxStatus::Requested(p) => Knew::Requested {
            from: peer_node(net, node, p),
        },
        TxStatus::Verifying => Knew::Verifying,
        TxStatus::Have => Knew::Have,
    }
}

/// The actions a node asked for, as records.
pub fn note_actions<P: Protocol>(
    net: &Network,
    node: usize,
    actions: &[Action<P::Msg, P::Timer>],
) -> Vec<StepAction> {
    actions
        .iter()
        .map(|a| match a {
            Action::Send { to, msg } => {
                let (kind, class, tx, bytes) = msg_note(msg);
                StepAction::Send {
                    to: peer_node(net, node, *to),
                    kind,
                    class,
                    tx,
                    bytes,
                }
            }
            Action::SetTimer { at, timer, .. } => {
                let note = P::describe_timer(timer);
                StepAction::Timer {
                    kind: note.kind,
                    tx: note.tx.map(|t| t.0),
                    at_us: at.0,
                }
            }
            Action::Deliver(tx) => StepAction::Deliver { tx: tx.id.0 },
            Action::Disconnect(p) => StepAction::Disconnect {
                peer: peer_node(net, node, *p),
            },
            Action::Count(counter, n) => StepAction::Count {
                name: counter.name,
                n: *n,
            },
        })
        .collect()
}
