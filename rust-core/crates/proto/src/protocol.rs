//! The sans-IO contract. A protocol is a state machine that is handed inputs and answers
//! with actions; it never reads a clock, never draws from a global RNG and never does I/O.
//! The simulator and the light node's `Driver` feed it the same way.

use crate::content::{Content, Synthetic};
use crate::{Behaviour, Dur, PeerIdx, Rng, Time, Tx, TxId};

/// Every message knows its exact size on the wire, so whoever carries it charges the bytes
/// a real node would send.
pub trait WireMsg {
    /// Bytes on the wire, framing included.
    fn wire_len(&self) -> usize;
    /// Of those, bytes of transaction payload (the rest is control).
    fn payload_len(&self) -> usize {
        0
    }
    /// The transaction whose full copy this message carries, if any (for duplicate counts).
    fn full_tx(&self) -> Option<TxId> {
        None
    }
    /// A short name of the message kind, for traces and the UI.
    fn kind(&self) -> &'static str;
    /// Messages of higher priority leave a node's upload queue on a link ahead of lower ones
    /// already waiting there (CAT sends txs before SeenTx/WantTx). Default 0.
    fn priority(&self) -> u8 {
        0
    }
}

pub enum Input<M, T> {
    PeerUp(PeerIdx),
    PeerDown(PeerIdx),
    Message(PeerIdx, M),
    Timer(T),
    /// A transaction created at this node.
    Submit(Tx),
}

pub enum Action<M, T> {
    Send {
        to: PeerIdx,
        msg: M,
    },
    SetTimer {
        at: Time,
        timer: T,
    },
    /// The node accepted this transaction for the first time.
    Deliver(Tx),
    Disconnect(PeerIdx),
    /// Add to a named counter (rejections, retries, savings), reported per node and in total.
    Count(&'static str, u64),
}

/// What a protocol is told about the node it runs on when it is created.
#[derive(Clone, Debug, Default)]
pub struct NodeSetup {
    /// The node's index in the simulation (0 on a real network).
    pub node: u32,
    pub behaviour: Behaviour,
}

pub trait Protocol {
    type Msg: WireMsg;
    type Timer;
    type Config: Clone;

    fn new(config: &Self::Config, setup: &NodeSetup) -> Self;

    fn handle(&mut self, input: Input<Self::Msg, Self::Timer>, cx: &mut Ctx<'_, Self>);

    /// Where in memory handling `msg` will first read this protocol's state, if it knows. A
    /// host that sees its next inputs coming may prefetch it, so the cache miss overlaps with
    /// other work. Default: no hint.
    fn hot_state(&self, _msg: &Self::Msg) -> Option<*const u8> {
        None
    }

    /// Human-readable state for the node inspector, in a fixed order.
    fn inspect(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }
}

/// What a protocol sees while it handles one input: the time, its own RNG stream, the
/// node's transaction bytes and the list its actions go to.
pub struct Ctx<'a, P: Protocol + ?Sized> {
    pub now: Time,
    pub rng: &'a mut Rng,
    pub content: &'a mut dyn Content,
    pub out: &'a mut Vec<Action<P::Msg, P::Timer>>,
}

impl<'a, P: Protocol + ?Sized> Ctx<'a, P> {
    /// A context over synthetic content (the simulator's).
    pub fn new(now: Time, rng: &'a mut Rng, out: &'a mut Vec<Action<P::Msg, P::Timer>>) -> Self {
        // Synthetic is zero-sized: leaking a box of it allocates nothing.
        let content: &'a mut Synthetic = Box::leak(Box::new(Synthetic));
        Ctx::with_content(now, rng, content, out)
    }
    /// A context over a live node's content.
    pub fn with_content(
        now: Time,
        rng: &'a mut Rng,
        content: &'a mut dyn Content,
        out: &'a mut Vec<Action<P::Msg, P::Timer>>,
    ) -> Self {
        Ctx {
            now,
            rng,
            content,
            out,
        }
    }
    pub fn send(&mut self, to: PeerIdx, msg: P::Msg) {
        self.out.push(Action::Send { to, msg });
    }
    pub fn set_timer(&mut self, at: Time, timer: P::Timer) {
        self.out.push(Action::SetTimer { at, timer });
    }
    pub fn set_timer_in(&mut self, after: Dur, timer: P::Timer) {
        let at = self.now + after;
        self.out.push(Action::SetTimer { at, timer });
    }
    pub fn deliver(&mut self, tx: Tx) {
        self.out.push(Action::Deliver(tx));
    }
    pub fn disconnect(&mut self, peer: PeerIdx) {
        self.out.push(Action::Disconnect(peer));
    }
    pub fn count(&mut self, counter: &'static str, n: u64) {
        self.out.push(Action::Count(counter, n));
    }
}
