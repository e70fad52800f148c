//! The steps of a run (`sim::step`) flattened for the page: one `StepField` row per input a
//! node handled, its actions in `ActionField` rows after it. Names (message kinds, counters,
//! timers) become indices into tables the simulation keeps.

use crate::layout::{push_row, ActionField, ActionKind, Knew, StepField, StepInputKind};
use proto::MsgClass;
use sim::step::{Knew as K, Step, StepAction, StepInput};

/// The name tables the flat rows index.
pub struct Names<'a> {
    pub kinds: &'a mut Vec<(&'static str, MsgClass)>,
    pub counters: &'a mut Vec<&'static str>,
    pub timers: &'a mut Vec<&'static str>,
}

pub fn index_of<T: PartialEq>(names: &mut Vec<T>, name: T) -> f64 {
    match names.iter().position(|n| *n == name) {
        Some(i) => i as f64,
        None => {
            names.push(name);
            (names.len() - 1) as f64
        }
    }
}

fn node(n: u32) -> f64 {
    if n == u32::MAX {
        -1.0
    } else {
        n as f64
    }
}

fn tx(t: Option<u64>) -> f64 {
    t.map_or(-1.0, |t| t as f64)
}

/// Appends a step and its actions.
pub fn push_step(step: &Step, names: Names<'_>, steps: &mut Vec<f64>, actions: &mut Vec<f64>) {
    use StepField as F;
    let (input, peer, kind, bytes) = match step.input {
        StepInput::Message {
            from,
            kind,
            class,
            bytes,
            ..
        } => (
            StepInputKind::Message,
            node(from),
            index_of(names.kinds, (kind, class)),
            bytes as f64,
        ),
        StepInput::Timer { kind, .. } => (
            StepInputKind::Timer,
            -1.0,
            index_of(names.timers, kind),
            0.0,
        ),
        StepInput::Submit { .. } => (StepInputKind::Submit, -1.0, -1.0, 0.0),
        StepInput::PeerUp { peer } => (StepInputKind::PeerUp, node(peer), -1.0, 0.0),
        StepInput::PeerDown { peer } => (StepInputKind::PeerDown, node(peer), -1.0, 0.0),
    };
    let (knew, knew_peer) = match step.knew {
        None => (-1.0, -1.0),
        Some(K::Unknown) => (Knew::Unknown as u8 as f64, -1.0),
        Some(K::Announced) => (Knew::Announced as u8 as f64, -1.0),
        Some(K::Requested { from }) => (Knew::Requested as u8 as f64, node(from)),
        Some(K::Verifying) => (Knew::Verifying as u8 as f64, -1.0),
        Some(K::Have) => (Knew::Have as u8 as f64, -1.0),
    };
    let fields = [
        (F::Time as usize, step.t_us as f64),
        (F::Node as usize, step.node as f64),
        (F::Input as usize, input as u8 as f64),
        (F::Peer as usize, peer),
        (F::Kind as usize, kind),
        (F::Tx as usize, tx(step.input.tx())),
        (F::Bytes as usize, bytes),
        (F::Knew as usize, knew),
        (F::KnewPeer as usize, knew_peer),
        (F::Actions as usize, step.actions.len() as f64),
    ];
    push_row(steps, F::Stride as usize, fields);
    for a in &step.actions {
        use ActionField as A;
        let (act, peer, kind, t, value) = match *a {
            StepAction::Send {
                to,
                kind,
                class,
                tx: t,
                bytes,
            } => (
                ActionKind::Send,
                node(to),
                index_of(names.kinds, (kind, class)),
                tx(t),
                bytes as f64,
            ),
            StepAction::Deliver { tx: t } => (ActionKind::Deliver, -1.0, -1.0, t as f64, 0.0),
            StepAction::Count { name, n } => (
                ActionKind::Count,
                -1.0,
                index_of(names.counters, name),
                -1.0,
                n as f64,
            ),
            StepAction::Timer { kind, tx: t, at_us } => (
                ActionKind::Timer,
                -1.0,
                index_of(names.timers, kind),
                tx(t),
                at_us as f64,
            ),
            StepAction::Disconnect { peer } => {
                (ActionKind::Disconnect, node(peer), -1.0, -1.0, 0.0)
            }
        };
        let fields = [
            (A::Act as usize, act as u8 as f64),
            (A::Peer as usize, peer),
            (A::Kind as usize, kind),
            (A::Tx as usize, t),
            (A::Value as usize, value),
        ];
        push_row(actions, A::Stride as usize, fields);
    }
}
