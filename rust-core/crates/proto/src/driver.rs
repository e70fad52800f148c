//! Drives a protocol from the outside world: a real network (the light node, the relay)
//! hands in messages and the current time, and takes out the messages to send. Timers are
//! kept here, so the host only asks for the next deadline and calls back then. The node's
//! transaction bytes live here too (`content`): codecs translate keys and bytes through it.

use crate::{Action, Counter, Ctx, EventQueue, Input, NodeSetup, PeerIdx, Protocol, Rng, Time, Tx};
use crate::{TimerId, TimerTable, TxStore};

/// An action the host must carry out (timers are handled by the driver itself).
pub enum Output<M> {
    Send { to: PeerIdx, msg: M },
    Deliver(Tx),
    Disconnect(PeerIdx),
    Count(&'static Counter, u64),
}

pub struct Driver<P: Protocol> {
    protocol: P,
    rng: Rng,
    content: TxStore,
    /// Timers set and not yet fired, in (deadline, order set) order; cancelled ones are
    /// dropped when they come up.
    queue: EventQueue<(P::Timer, TimerId)>,
    timers: TimerTable,
    actions: Vec<Action<P::Msg, P::Timer>>,
    outputs: Vec<Output<P::Msg>>,
    /// The latest time seen; time handed in never goes backwards.
    now: Time,
}

impl<P: Protocol> Driver<P> {
    pub fn new(config: &P::Config, setup: &NodeSetup, rng: Rng) -> Self {
        Driver::with_content(config, setup, rng, TxStore::default())
    }

    pub fn with_content(config: &P::Config, setup: &NodeSetup, rng: Rng, content: TxStore) -> Self {
        Driver {
            protocol: P::new(config, setup),
            rng,
            content,
            queue: EventQueue::new(),
            timers: TimerTable::default(),
            actions: Vec::new(),
            outputs: Vec::new(),
            now: Time::ZERO,
        }
    }

    pub fn protocol(&self) -> &P {
        &self.protocol
    }

    pub fn content(&self) -> &TxStore {
        &self.content
    }

    pub fn content_mut(&mut self) -> &mut TxStore {
        &mut self.content
    }

    /// The protocol and the content together, for what is no input (a codec reading the
    /// protocol's names while it fills the store, a queue the host drains).
    pub fn protocol_and_content_mut(&mut self) -> (&mut P, &mut TxStore) {
        (&mut self.protocol, &mut self.content)
    }

    /// Hand one input to the protocol at time `now` (clamped to be monotonic).
    pub fn handle_input(&mut self, now: Time, input: Input<P::Msg, P::Timer>) {
        self.call(now, |protocol, cx| protocol.handle(input, cx));
    }

    /// Hand the protocol an input only it knows (a GossipSub validation result, a peer's
    /// negotiated version), with the same context as any other input.
    pub fn call<R>(&mut self, now: Time, f: impl FnOnce(&mut P, &mut Ctx<'_, P>) -> R) -> R {
        self.now = self.now.max(now);
        let mut cx = Ctx::with_content(
            self.now,
            &mut self.rng,
            &mut self.timers,
            &mut self.content,
            &mut self.actions,
        );
        let result = f(&mut self.protocol, &mut cx);
        self.collect();
        result
    }

    /// Fire every timer due at or before `now`.
    pub fn poll_timers(&mut self, now: Time) {
        self.now = self.now.max(now);
        while let Some((_, (timer, id))) = self.queue.pop_until(self.now.0) {
            if self.timers.fire(id) {
                self.call(self.now, |protocol, cx| {
                    protocol.handle(Input::Timer(timer), cx)
                });
            }
        }
    }

    /// When the host should call `poll_timers` next (possibly for a timer since cancelled).
    pub fn next_deadline(&mut self) -> Option<Time> {
        self.queue.peek_time().map(Time)
    }

    /// Take the actions produced so far, in the order the protocol made them.
    pub fn drain(&mut self) -> std::vec::Drain<'_, Output<P::Msg>> {
        self.outputs.drain(..)
    }

    fn collect(&mut self) {
        for action in self.actions.drain(..) {
            match action {
                Action::SetTimer { at, timer, id } => self.queue.push(at.0, (timer, id)),
                Action::Send { to, msg } => self.outputs.push(Output::Send { to, msg }),
                Action::Deliver(tx) => self.outputs.push(Output::Deliver(tx)),
                Action::Disconnect(p) => self.outputs.push(Output::Disconnect(p)),
                Action::Count(c, n) => self.outputs.push(Output::Count(c, n)),
            }
        }
    }
}
