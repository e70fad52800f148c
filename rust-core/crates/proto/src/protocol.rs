//! The sans-IO contract. A protocol is a state machine that is handed inputs and answers
//! with actions; it never reads a clock, never draws from a global RNG and never does I/O.
//! The simulator and the light node's `Driver` feed it the same way (ARCHITECTURE.md, "The
//! sans-IO contract").

use crate::content::{Content, Synthetic};
use crate::detail::Detail;
use crate::timers::{TimerId, TimerTable};
use crate::{Behaviour, Counter, Dur, PeerIdx, Rng, Time, Tx, TxId};

/// What a message does, so hosts and the page can draw and account for it without reading
/// its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MsgClass {
    /// Carries transactions (or coded pieces of them).
    Payload,
    /// Says which transactions the sender has (INV, SeenTx, IHAVE, IANNOUNCE).
    Announcement,
    /// Asks for transactions (GETDATA, WantTx, IWANT, INEED).
    Request,
    /// Everything else: handshakes, keys, mesh upkeep, suppression, loss reports.
    Control,
}

impl MsgClass {
    pub const ALL: [MsgClass; 4] = [
        MsgClass::Payload,
        MsgClass::Announcement,
        MsgClass::Request,
        MsgClass::Control,
    ];
    pub fn name(self) -> &'static str {
        match self {
            MsgClass::Payload => "payload",
            MsgClass::Announcement => "announcement",
            MsgClass::Request => "request",
            MsgClass::Control => "control",
        }
    }
}

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
    /// The transaction this message is about: the one it carries, announces or asks for (the
    /// first, if it names several). Narration and the page's message labels read it.
    fn subject(&self) -> Option<TxId> {
        self.full_tx()
    }
    /// A short name of the message kind, for traces and the UI.
    fn kind(&self) -> &'static str;
    /// What the message does.
    fn class(&self) -> MsgClass;
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
    /// `id` is what the node's timer table gave it: the host fires it only while current.
    SetTimer {
        at: Time,
        timer: T,
        id: TimerId,
    },
    /// The node accepted this transaction for the first time.
    Deliver(Tx),
    Disconnect(PeerIdx),
    /// Add to one of the protocol's counters (rejections, retries, savings), reported by
    /// name per node and in total.
    Count(&'static Counter, u64),
}

/// What a node knows of a transaction, as its protocol keeps it: the state a decision about a
/// message for that tx was taken in (lessons narrate "it had not seen tx 2, so...").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxStatus {
    /// Never heard of it (or forgot it).
    Unknown,
    /// Some peer said it has it; not asked for yet.
    Announced,
    /// Asked this peer for it and waiting for the answer.
    Requested(PeerIdx),
    /// Received a copy and is still checking it (INV's `validate_ms`).
    Verifying,
    /// Holds it.
    Have,
}

/// What a timer is, for narration: a short name and the tx it is about, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimerNote {
    pub kind: &'static str,
    pub tx: Option<TxId>,
}

impl TimerNote {
    pub const fn of(kind: &'static str, tx: Option<TxId>) -> TimerNote {
        TimerNote { kind, tx }
    }
}

/// What a protocol is told about the node it runs on when it is created.
#[derive(Clone, Debug, Default)]
pub struct NodeSetup {
    /// The node's index in the simulation (0 on a real network).
    pub node: u32,
    pub behaviour: Behaviour,
    pub payloads: Payloads,
}

/// How the host carries transaction bytes, for a protocol that codes over them (Strokkur).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Payloads {
    /// A real network: real bytes, named on the wire as the wire says.
    #[default]
    Live,
    /// A simulation in which some node alters bytes: real bytes, named as stand-ins are, so
    /// the events are those of a run of stand-ins where bytes did not matter.
    Simulated,
    /// A simulation in which no node alters bytes and nothing checks them but the protocols
    /// themselves: stand-ins may replace them, with the same outcome for less work.
    StandIns,
}

pub trait Protocol {
    type Msg: WireMsg;
    type Timer;
    type Config: Clone;

    fn new(config: &Self::Config, setup: &NodeSetup) -> Self;

    fn handle(&mut self, input: Input<Self::Msg, Self::Timer>, cx: &mut Ctx<'_, Self>);

    /// From now on the node acts as `behaviour` says (a scenario's timed `behaviour` event).
    /// What it did before stands; a behaviour the protocol does not interpret (one missing from
    /// its `ProtocolInfo::behaviours`) leaves it honest.
    fn set_behaviour(&mut self, behaviour: &Behaviour, cx: &mut Ctx<'_, Self>);

    /// Whether the node is told of every tx the moment any node creates it (`push_censor`: an
    /// attacker linked to every origin with zero latency); the simulator then submits each tx
    /// to it too. Asked when the node is built and after each behaviour change.
    fn told_every_tx(&self) -> bool {
        false
    }

    /// The longest tx it can carry under `config`, if there is a bound: the simulator refuses a
    /// workload with no tx it can carry, and the live node a longer tx submitted to it.
    fn max_tx_bytes(_config: &Self::Config) -> Option<usize> {
        None
    }

    /// Human-readable state for the node inspector, in a fixed order.
    fn inspect(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    /// Per-peer and per-tx state for the inspector (`Detail`): who is in the mesh, scores,
    /// requests in flight. `now` dates backoffs and timeouts.
    fn detail(&self, now: Time) -> Detail {
        let _ = now;
        Detail::default()
    }

    /// What the node knows of `tx` (lessons narrate decisions from it).
    fn tx_status(&self, tx: TxId) -> TxStatus {
        let _ = tx;
        TxStatus::Unknown
    }

    /// What a timer of this protocol is, for narration.
    fn describe_timer(timer: &Self::Timer) -> TimerNote {
        let _ = timer;
        TimerNote::of("timer", None)
    }

    /// Cache lines from the node's address the simulator asks for first, ahead of its events
    /// (one more than its size in lines covers a node that does not start a line): those
    /// `warm_early` reads to find what it warms.
    const WARM_LINES: usize = 2;

    /// A hint between the node's first lines and `warm`: start loading what `warm` will find
    /// through the node's state (the entry of the peer `from`). Only the node's first
    /// `WARM_LINES` lines are asked for yet. It must change nothing.
    #[inline(always)]
    fn warm_early(&self, from: PeerIdx) {
        let _ = from;
    }

    /// An earlier hint than `warm`, before the receiver's state is at hand: start loading
    /// what `msg` itself points to (its buffers), which `warm` may read. It must change
    /// nothing.
    #[inline(always)]
    fn warm_message(msg: &Self::Msg) {
        let _ = msg;
    }

    /// The same hint a few events before `timer` fires.
    #[inline(always)]
    fn warm_timer(&self, timer: &Self::Timer) {
        let _ = timer;
    }

    /// A hint a few events before `msg` from `from` is handled: start loading (`prefetch`)
    /// what handling it will read beyond the node's first cache lines, which the simulator
    /// has asked for earlier. It must change nothing.
    #[inline(always)]
    fn warm(&self, from: PeerIdx, msg: &Self::Msg) {
        let _ = (from, msg);
    }
}

/// What a protocol sees while it handles one input: the time, its own RNG stream, the
/// node's transaction bytes, its timer table and the list its actions go to.
pub struct Ctx<'a, P: Protocol + ?Sized> {
    pub now: Time,
    pub rng: &'a mut Rng,
    pub content: &'a mut dyn Content,
    pub timers: &'a mut TimerTable,
    pub out: &'a mut Vec<Action<P::Msg, P::Timer>>,
}

impl<'a, P: Protocol + ?Sized> Ctx<'a, P> {
    /// A context over synthetic content (the simulator's).
    pub fn new(
        now: Time,
        rng: &'a mut Rng,
        timers: &'a mut TimerTable,
        out: &'a mut Vec<Action<P::Msg, P::Timer>>,
    ) -> Self {
        // Synthetic is zero-sized: leaking a box of it allocates nothing.
        let content: &'a mut Synthetic = Box::leak(Box::new(Synthetic));
        Ctx::with_content(now, rng, timers, content, out)
    }
    /// A context over a live node's content.
    pub fn with_content(
        now: Time,
        rng: &'a mut Rng,
        timers: &'a mut TimerTable,
        content: &'a mut dyn Content,
        out: &'a mut Vec<Action<P::Msg, P::Timer>>,
    ) -> Self {
        Ctx {
            now,
            rng,
            content,
            timers,
            out,
        }
    }
    pub fn send(&mut self, to: PeerIdx, msg: P::Msg) {
        self.out.push(Action::Send { to, msg });
    }
    /// Sets a timer; keep the id to cancel it.
    pub fn set_timer(&mut self, at: Time, timer: P::Timer) -> TimerId {
        let id = self.timers.set();
        self.out.push(Action::SetTimer { at, timer, id });
        id
    }
    pub fn set_timer_in(&mut self, after: Dur, timer: P::Timer) -> TimerId {
        self.set_timer(self.now + after, timer)
    }
    /// Withdraws a timer that has not fired yet (nothing if it has).
    pub fn cancel_timer(&mut self, id: TimerId) {
        self.timers.cancel(id);
    }
    pub fn deliver(&mut self, tx: Tx) {
        self.out.push(Action::Deliver(tx));
    }
    pub fn disconnect(&mut self, peer: PeerIdx) {
        self.out.push(Action::Disconnect(peer));
    }
    pub fn count(&mut self, counter: &'static Counter, n: u64) {
        self.out.push(Action::Count(counter, n));
    }
}
