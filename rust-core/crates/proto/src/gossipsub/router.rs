//! The GossipSub router as a sans-IO state machine: v1.1 mesh, gossip and scoring,
//! v1.2 IDONTWANT, v2.0 IANNOUNCE / INEED, selected by `GossipsubConfig::version` and, per
//! peer, by the version negotiated with it (a v1.2 peer never gets IANNOUNCE or INEED).
//!
//! Subscriptions are modelled: on PeerUp each node sends SUBSCRIBE for the topics it joined,
//! and only peers whose SUBSCRIBE arrived are grafted or gossiped to. The mesh forms at
//! the heartbeats (the first one `heartbeat_initial_delay_ms` plus a random phase of up to
//! one heartbeat after the first input).
//!
//! Validation: a message that arrives with `Check::Host` is remembered as seen, announced as
//! unwanted (IDONTWANT) and parked until the host reports its verdict (`handle_validated`):
//! accepted ones are delivered and forwarded, rejected ones cost the sender P4, ignored ones
//! are dropped. The simulator's messages arrive already judged (`Check::Valid`/`Invalid`).

use super::announce::{AnnounceCache, Announced};
use super::config::{GossipsubConfig, Params, Version};
use super::counters;
use super::dontwant::DontWant;
use super::mcache::MessageCache;
use super::mesh::Peers;
use super::promises::Promises;
use super::rpc::{Check, Message, Rpc};
use super::score::Weights;
use super::seen::SeenCache;
use super::topics::{TopicId, TopicNames};
use crate::{Behaviour, Budget, Ctx, Dur, Input, Ledger, NodeSetup, Over, PeerIdx, Protocol};
use crate::{Time, Tx, TxId};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A backoff a peer asks for in PRUNE is capped at this (seconds), so it cannot exclude
/// itself or us from each other's mesh for ever; go-libp2p takes it unchecked.
pub const MAX_REMOTE_BACKOFF_S: u64 = 3_600;

#[derive(Clone, Debug, PartialEq)]
pub enum GossipsubTimer {
    Heartbeat,
    /// The latest INEED for this message may have timed out.
    INeedTimeout(TxId),
}

/// Messages waiting for the host's verdict at once, from one peer and from all; beyond these
/// new ones are dropped unjudged (and counted), so a flood of messages cannot grow the queue
/// nor crowd out the other peers' messages.
pub const VALIDATING: Budget = Budget {
    per_peer: 512,
    total: 4_096,
};
/// A message the host has not judged in this long is dropped (counted): a host that never
/// answers must not fill the queue for good.
pub const VALIDATION_TIMEOUT: Dur = Dur::from_secs(30);

/// The host's verdict on a message (libp2p's ValidationResult).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Accept,
    /// Invalid: dropped, and the peer that sent it gets P4.
    Reject,
    /// Dropped without blame (not for us, or not now).
    Ignore,
}

/// A message parked until the host judges it.
struct Validating {
    /// None once that peer is gone (its index may belong to another peer by then).
    from: Option<PeerIdx>,
    msg: Message,
    since: Time,
}

/// What an adversarial node does differently (see `Behaviour`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Role {
    Honest,
    /// Stays in meshes (SUBSCRIBE, GRAFT, PRUNE) but sends no message, gossip or reply.
    Silent,
    /// Announces but never answers IWANT or INEED.
    Withhold,
    /// Sends messages whose bytes fail validation.
    Corrupt,
    /// Leaves `behaviour.censors(id)` messages out of everything it sends.
    Censor,
}

impl Role {
    /// The behaviours GossipSub interprets; the others leave a node honest.
    fn of(behaviour: &Behaviour) -> Role {
        match behaviour {
            Behaviour::Silent => Role::Silent,
            Behaviour::WithholdOnRequest => Role::Withhold,
            Behaviour::Corrupt => Role::Corrupt,
            Behaviour::Censor { .. } => Role::Censor,
            _ => Role::Honest,
        }
    }
}

/// Fields in the order a message reads them (`repr(C)`, each node on a cache line of its
/// own): the simulator loads a node's first two cache lines ahead of an arrival (the flags,
/// the peer tables, where the seen bits are), then `warm` starts loading the rest from there.
#[repr(C, align(64))]
pub struct Gossipsub {
    role: Role,
    /// Whether any peer was ever penalized: until then every score is 0 and the checks
    /// on each incoming message can be skipped.
    any_penalty: bool,
    /// Whether any peer speaks a version below ours: until then `version_of` is ours and
    /// reads no peer's entry.
    any_older_peer: bool,
    started: bool,
    peers: Peers,
    seen: SeenCache,
    /// Shared by the nodes of a run (`Params::shared`).
    p: Arc<Params>,
    acache: AnnounceCache,
    mcache: MessageCache,
    dont_want: DontWant,
    promises: Promises,
    behaviour: Behaviour,
    names: TopicNames,
    validating: BTreeMap<TxId, Validating>,
    /// Parked messages, charged to the peer they came from while it is connected.
    validating_from: Ledger,
    /// Messages parked since the host last asked (`take_validation_requests`).
    to_validate: Vec<TxId>,
    heartbeats: u64,
    scratch: Vec<PeerIdx>,
    scratch_idx: Vec<usize>,
    scratch_ids: Vec<TxId>,
    scratch_topics: Vec<TopicId>,
}

impl Gossipsub {
    fn weights(&self) -> Weights {
        Weights {
            invalid: self.p.invalid_message_weight,
            penalty: self.p.behaviour_penalty_weight,
            penalty_threshold: self.p.behaviour_penalty_threshold,
        }
    }

    fn score(&self, peer: PeerIdx) -> f64 {
        if !self.any_penalty {
            return 0.0;
        }
        self.peers
            .get(peer)
            .map_or(0.0, |x| x.score.value(&self.weights()))
    }

    fn penalize(&mut self, peer: PeerIdx, amount: f64) {
        if amount > 0.0 {
            self.any_penalty = true;
            self.peers.slot(peer).score.add_penalty(amount);
        }
    }

    /// Whether this node leaves `id` out of what it sends.
    fn withholds(&self, id: TxId) -> bool {
        match self.role {
            Role::Silent => true,
            Role::Censor => self.behaviour.censors(id),
            _ => false,
        }
    }

    /// A message as this node sends it: a corrupt node's fails validation.
    fn publish_msg(&self, msg: Message) -> Rpc {
        let check = match self.role {
            Role::Corrupt => Check::Invalid,
            _ => Check::Valid,
        };
        Rpc::Publish(Message { check, ..msg })
    }

    /// The version spoken with a peer.
    fn version_of(&self, peer: PeerIdx) -> Version {
        if !self.any_older_peer {
            return self.p.version;
        }
        self.peers.get(peer).map_or(self.p.version, |x| x.version)
    }

    /// Topics whose mesh or fanout this node keeps: those it joined or published to.
    fn routed_topics(&self) -> impl Iterator<Item = TopicId> + '_ {
        (0..self.peers.topics.len())
            .map(|i| TopicId(i as u16))
            .filter(|&t| self.peers.topics[t.idx()].routed)
    }

    fn start(&mut self, cx: &mut Ctx<'_, Self>) {
        if !self.started {
            self.started = true;
            // A random phase, so that nodes started together do not beat in lockstep
            // (real nodes start and connect at scattered times).
            let phase = Dur(cx.rng.below(self.p.heartbeat.as_micros().max(1)));
            cx.set_timer_in(
                self.p.heartbeat_initial_delay + phase,
                GossipsubTimer::Heartbeat,
            );
        }
    }

    fn on_peer_up(&mut self, peer: PeerIdx, cx: &mut Ctx<'_, Self>) {
        self.start(cx);
        // A new peer starts with nothing, even under an index someone used before.
        self.forget(peer, cx);
        let version = self.p.version;
        let slot = self.peers.slot(peer);
        slot.connected = true;
        slot.version = version;
        for t in 0..self.peers.topics.len() {
            if self.peers.topics[t].joined {
                let topic = TopicId(t as u16);
                cx.send(
                    peer,
                    Rpc::Subscribe {
                        topic,
                        subscribe: true,
                    },
                );
            }
        }
    }

    /// Clears every trace of a peer: scores, mesh and fanout places, backoffs, IDONTWANTs,
    /// promises, announcements, retransmission counts and messages waiting for validation.
    fn forget(&mut self, peer: PeerIdx, cx: &mut Ctx<'_, Self>) {
        self.peers.forget(peer);
        self.dont_want.forget(peer);
        self.promises.forget(peer);
        self.mcache.forget(peer);
        self.validating_from.clear(peer);
        for v in self.validating.values_mut() {
            if v.from == Some(peer) {
                v.from = None;
            }
        }
        let mut asks = Vec::new();
        self.acache.forget(peer, &mut asks, cx.timers);
        for (id, to) in asks {
            self.send_ineed(id, to, cx);
        }
    }

    fn on_message(&mut self, from: PeerIdx, rpc: Rpc, cx: &mut Ctx<'_, Self>) {
        self.peers.slot(from);
        if self.score(from) < self.p.graylist_threshold {
            cx.count(&counters::GRAYLISTED_RPC, 1);
            return;
        }
        match rpc {
            Rpc::Subscribe { topic, subscribe } => self.on_subscribe(from, topic, subscribe, cx),
            Rpc::Publish(msg) => self.on_publish(from, msg, cx),
            Rpc::IHave { topic, ids } => self.on_ihave(from, topic, &ids, cx),
            Rpc::IWant(ids) => self.on_iwant(from, &ids, cx),
            Rpc::Graft { topic } => self.on_graft(from, topic, cx),
            Rpc::Prune { topic, backoff_s } => self.on_prune(from, topic, backoff_s, cx),
            Rpc::IDontWant(id) => self.on_idontwant(from, id, cx),
            Rpc::IAnnounce { topic, id } => self.on_iannounce(from, topic, id, cx),
            Rpc::INeed(id) => self.on_ineed(from, id, cx),
        }
    }

    fn on_subscribe(
        &mut self,
        from: PeerIdx,
        topic: TopicId,
        subscribe: bool,
        cx: &mut Ctx<'_, Self>,
    ) {
        self.peers.member_mut(topic, from).subscribed = subscribe;
        if !subscribe {
            self.peers.remove_from_mesh(topic, from);
            self.peers.remove_from_fanout(topic, from);
            return;
        }
        if self.p.graft_on_subscribe && self.role != Role::Silent {
            self.graft_on_subscribe(from, topic, cx);
        }
    }

    /// @libp2p/gossipsub's shortcut: a peer that subscribes joins a mesh below D_lo at once
    /// (with the checks the heartbeat makes), so the mesh fills without a heartbeat.
    fn graft_on_subscribe(&mut self, from: PeerIdx, topic: TopicId, cx: &mut Ctx<'_, Self>) {
        let room = self
            .peers
            .topic(topic)
            .is_some_and(|t| t.joined && t.mesh.len() < self.p.d_lo);
        if !room || self.peers.in_mesh(topic, from) {
            return;
        }
        let backoff_until = self.peers.member_mut(topic, from).backoff_until;
        let connected = self.peers.get(from).is_some_and(|x| x.connected);
        if !connected || cx.now < backoff_until || self.score(from) < 0.0 {
            return;
        }
        self.peers.add_to_mesh(topic, from);
        cx.send(from, Rpc::Graft { topic });
        cx.count(&counters::GRAFT_SENT, 1);
    }

    fn on_publish(&mut self, from: PeerIdx, msg: Message, cx: &mut Ctx<'_, Self>) {
        let id = msg.tx.id;
        match msg.check {
            Check::Invalid => {
                // P4. The id is not marked seen: with content-derived ids (as in libp2p) the
                // garbage would have had an id of its own, so the real message stays wanted.
                self.penalize_invalid(from, cx);
            }
            _ if self.seen.contains(id) => {
                // A duplicate; the simulator counts full copies itself.
            }
            Check::Valid => self.accept(msg, Some(from), cx),
            Check::Host => {
                match self.validating_from.charge(from) {
                    Ok(()) => {}
                    Err(Over::Peer) => return cx.count(&counters::VALIDATION_PEER_FULL, 1),
                    Err(Over::Total) => return cx.count(&counters::VALIDATION_QUEUE_FULL, 1),
                }
                // Seen now, so copies arriving during validation are duplicates; unwanted
                // now (v1.2 allows IDONTWANT before validation, and it saves the most then).
                self.mark_seen(id, cx);
                if self.p.announce() {
                    self.acache.clear(id, cx.timers);
                }
                self.send_idontwant(msg, Some(from), cx);
                let (from, since) = (Some(from), cx.now);
                self.validating.insert(id, Validating { from, msg, since });
                self.to_validate.push(id);
            }
        }
    }

    fn mark_seen(&mut self, id: TxId, cx: &mut Ctx<'_, Self>) {
        let before = self.seen.forgotten;
        self.seen.insert(id);
        if self.seen.forgotten > before {
            cx.count(&counters::SEEN_FORGOTTEN, self.seen.forgotten - before);
        }
    }

    fn penalize_invalid(&mut self, from: PeerIdx, cx: &mut Ctx<'_, Self>) {
        self.any_penalty = true;
        self.peers.slot(from).score.add_invalid();
        cx.count(&counters::INVALID_MESSAGE, 1);
    }

    /// A message is new here: deliver it, cache it, tell the mesh not to send it again
    /// (v1.2) and pass it on.
    fn accept(&mut self, msg: Message, from: Option<PeerIdx>, cx: &mut Ctx<'_, Self>) {
        let tx = msg.tx;
        self.mark_seen(tx.id, cx);
        cx.deliver(tx);
        self.mcache.put(msg);
        if self.p.announce() {
            self.acache.clear(tx.id, cx.timers);
        }
        if from.is_some() {
            self.send_idontwant(msg, from, cx);
        }
        self.forward(msg, from, from.is_none(), cx);
    }

    /// IDONTWANT for a message new here to the topic's mesh peers that speak v1.2, but the
    /// one it came from, for messages of at least the threshold.
    fn send_idontwant(&mut self, msg: Message, from: Option<PeerIdx>, cx: &mut Ctx<'_, Self>) {
        if !self.p.idontwant()
            || msg.tx.len < self.p.idontwant_threshold_bytes
            || self.role == Role::Silent
        {
            return;
        }
        let Some(topic) = self.peers.topic(msg.topic) else {
            return;
        };
        let mut sent = 0;
        for &m in &topic.mesh {
            if Some(m) != from && self.version_of(m).idontwant() {
                cx.send(m, Rpc::IDontWant(msg.tx.id));
                sent += 1;
            }
        }
        cx.count(&counters::IDONTWANT_SENT, sent);
    }

    /// The host's verdict on a message it was asked to validate.
    pub fn handle_validated(&mut self, id: TxId, verdict: Verdict, cx: &mut Ctx<'_, Self>) {
        let Some(Validating { from, msg, .. }) = self.validating.remove(&id) else {
            return;
        };
        if let Some(peer) = from {
            self.validating_from.refund(peer);
        }
        match verdict {
            Verdict::Accept => {
                cx.deliver(msg.tx);
                self.mcache.put(msg);
                // Not our own, even when its sender has gone meanwhile (`from` is then None).
                self.forward(msg, from, false, cx);
            }
            Verdict::Reject => match from {
                Some(peer) => self.penalize_invalid(peer, cx),
                None => cx.count(&counters::INVALID_MESSAGE, 1),
            },
            Verdict::Ignore => cx.count(&counters::IGNORED_MESSAGE, 1),
        }
    }

    /// Messages the host must validate since it last asked (then `handle_validated` each).
    pub fn take_validation_requests(&mut self) -> Vec<TxId> {
        std::mem::take(&mut self.to_validate)
    }

    /// Publishes a message of this node (the host built and, under StrictSign, signed it).
    pub fn publish(&mut self, msg: Message, cx: &mut Ctx<'_, Self>) {
        self.start(cx);
        self.peers.topic_mut(msg.topic).routed = true;
        if self.seen.contains(msg.tx.id) {
            cx.count(&counters::PUBLISH_DUPLICATE, 1);
            return;
        }
        self.accept(msg, None, cx);
    }

    /// Records the version negotiated with a peer (after its PeerUp): never above ours.
    pub fn set_peer_version(&mut self, peer: PeerIdx, version: Version) {
        let ours = self.p.version;
        self.any_older_peer |= version < ours;
        self.peers.slot(peer).version = version.min(ours);
    }

    /// The topic names this router knows (the live codec reads and extends them).
    pub fn topic_names(&self) -> &TopicNames {
        &self.names
    }

    pub fn topic_names_mut(&mut self) -> &mut TopicNames {
        &mut self.names
    }

    /// Sends a new message on: the mesh (or on own publish, every subscribed peer with
    /// flood publishing, or the fanout when not subscribed), skipping the source and peers
    /// that said IDONTWANT. In v2.0 each mesh peer gets an IANNOUNCE instead of the message
    /// with probability D_announce / D.
    fn forward(&mut self, msg: Message, from: Option<PeerIdx>, own: bool, cx: &mut Ctx<'_, Self>) {
        let tx = msg.tx;
        if self.withholds(tx.id) {
            return;
        }
        let t = msg.topic;
        let mut targets = std::mem::take(&mut self.scratch);
        let joined = self.peers.topic_mut(t).joined;
        // Whether every target is a mesh peer (else each is checked before an IANNOUNCE).
        let mesh_only = joined && !(own && self.p.flood_publish);
        if own && self.p.flood_publish {
            let threshold = self.p.publish_threshold;
            let w = self.weights();
            self.peers.select(t, &mut targets, |x, m| {
                x.connected && m.subscribed && x.score.value(&w) >= threshold
            });
        } else if joined {
            targets.clear();
            targets.extend_from_slice(&self.peers.topic_mut(t).mesh);
        } else {
            if self.peers.topic_mut(t).fanout.is_empty() {
                self.fill_fanout(t, cx);
            }
            targets.clear();
            targets.extend_from_slice(&self.peers.topic_mut(t).fanout);
        }
        if own {
            self.peers.topic_mut(t).last_publish = cx.now;
        }
        // Random order, so that no peer is always first in the upload queue.
        cx.rng.shuffle(&mut targets);
        let (mut saved, mut announced) = (0, 0);
        for &t in &targets {
            if Some(t) == from {
                continue;
            }
            if self.dont_want.contains(t, tx.id) {
                saved += 1;
                continue;
            }
            if self.lazy(t, msg.topic, own, mesh_only, cx) {
                let topic = msg.topic;
                cx.send(t, Rpc::IAnnounce { topic, id: tx.id });
                announced += 1;
            } else {
                cx.send(t, self.publish_msg(msg));
            }
        }
        if saved > 0 {
            cx.count(&counters::IDONTWANT_SAVED, saved);
        }
        if announced > 0 {
            cx.count(&counters::IANNOUNCE_SENT, announced);
        }
        self.scratch = targets;
    }

    /// v2.0 coin toss for a mesh peer that speaks v2.0. A publisher sends full messages
    /// unless D_announce = D (v2.0 draft, "Message Publishing").
    fn lazy(
        &self,
        peer: PeerIdx,
        topic: TopicId,
        own: bool,
        mesh_only: bool,
        cx: &mut Ctx<'_, Self>,
    ) -> bool {
        if !self.p.announce()
            || self.p.d_announce == 0
            || !(mesh_only || self.peers.in_mesh(topic, peer))
            || !self.version_of(peer).announce()
        {
            return false;
        }
        let d = self.p.d as u32;
        if own {
            return self.p.d_announce >= d;
        }
        cx.rng.below(d as u64) < self.p.d_announce as u64
    }

    fn fill_fanout(&mut self, t: TopicId, cx: &mut Ctx<'_, Self>) {
        let threshold = self.p.publish_threshold;
        let w = self.weights();
        let mut c = std::mem::take(&mut self.scratch);
        self.peers.select(t, &mut c, |x, m| {
            x.connected && m.subscribed && !m.in_fanout && x.score.value(&w) >= threshold
        });
        let want = self
            .p
            .d
            .saturating_sub(self.peers.topic_mut(t).fanout.len());
        cx.rng.sample_distinct(c.len(), want, &mut self.scratch_idx);
        for &i in &self.scratch_idx {
            self.peers.add_to_fanout(t, c[i]);
        }
        self.scratch = c;
    }

    fn on_ihave(&mut self, from: PeerIdx, topic: TopicId, ids: &[TxId], cx: &mut Ctx<'_, Self>) {
        let joined = self.peers.topic(topic).is_some_and(|t| t.joined);
        if !joined || self.role == Role::Silent {
            return;
        }
        if self.score(from) < self.p.gossip_threshold {
            cx.count(&counters::IHAVE_IGNORED_SCORE, 1);
            return;
        }
        let max = self.p.max_ihave_length;
        let peer = self.peers.slot(from);
        peer.ihaves = peer.ihaves.saturating_add(1);
        if peer.ihaves > self.p.max_ihave_messages || peer.iasked as usize >= max {
            cx.count(&counters::IHAVE_FLOOD, 1);
            return;
        }
        let room = max - peer.iasked as usize;
        let mut want = std::mem::take(&mut self.scratch_ids);
        want.clear();
        want.extend(
            ids.iter()
                .take(max)
                .copied()
                .filter(|&id| !self.seen.contains(id)),
        );
        want.sort_unstable();
        want.dedup();
        if !want.is_empty() {
            cx.rng.shuffle(&mut want);
            want.truncate(room);
            self.peers.slot(from).iasked += want.len() as u32;
            let promised = want[cx.rng.index(want.len())];
            self.promises
                .add(from, promised, cx.now + self.p.iwant_followup);
            cx.count(&counters::IWANT_IDS_SENT, want.len() as u64);
            cx.send(from, Rpc::IWant(want.clone()));
        }
        self.scratch_ids = want;
    }

    fn on_iwant(&mut self, from: PeerIdx, ids: &[TxId], cx: &mut Ctx<'_, Self>) {
        if matches!(self.role, Role::Withhold | Role::Silent) {
            cx.count(&counters::REQUEST_WITHHELD, 1);
            return;
        }
        if self.score(from) < self.p.gossip_threshold {
            cx.count(&counters::IWANT_IGNORED_SCORE, 1);
            return;
        }
        for &id in ids.iter().take(self.p.max_ihave_length) {
            if self.dont_want.contains(from, id) || self.withholds(id) {
                continue;
            }
            match self.mcache.serve(id, from) {
                Some((msg, count)) if count <= self.p.gossip_retransmission => {
                    cx.send(from, self.publish_msg(msg));
                    cx.count(&counters::IWANT_SERVED, 1);
                }
                Some(_) => cx.count(&counters::IWANT_OVER_RETRANSMISSION, 1),
                None => {}
            }
        }
    }

    fn on_graft(&mut self, from: PeerIdx, topic: TopicId, cx: &mut Ctx<'_, Self>) {
        // v1.1 spam hardening: GRAFT for a topic we do not subscribe to is ignored.
        let joined = self.peers.topic(topic).is_some_and(|t| t.joined);
        if !joined || self.peers.in_mesh(topic, from) {
            return;
        }
        let now = cx.now;
        let member = self.peers.member_mut(topic, from);
        if now < member.backoff_until {
            let extra = if now < member.graft_flood_until {
                2.0
            } else {
                1.0
            };
            self.peers.slot(from).score.add_penalty(extra);
            self.any_penalty = true;
            cx.count(&counters::GRAFT_IN_BACKOFF, 1);
            self.prune(from, topic, cx);
            return;
        }
        // Accepted even above D_hi, as in v1.0; the heartbeat prunes back to D. (v1.1
        // accepts there only peers on outbound connections; links here have no direction.)
        if self.score(from) < 0.0 {
            self.prune(from, topic, cx);
            return;
        }
        self.peers.add_to_mesh(topic, from);
    }

    /// Sends PRUNE with our backoff and backs off the peer ourselves.
    fn prune(&mut self, peer: PeerIdx, topic: TopicId, cx: &mut Ctx<'_, Self>) {
        let now = cx.now;
        self.peers.remove_from_mesh(topic, peer);
        let member = self.peers.member_mut(topic, peer);
        member.backoff_until = member.backoff_until.max(now + self.p.prune_backoff);
        member.graft_flood_until = now + self.p.graft_flood_threshold;
        let backoff_s = Some(self.p.prune_backoff.as_micros() / 1_000_000);
        cx.send(peer, Rpc::Prune { topic, backoff_s });
        cx.count(&counters::PRUNE_SENT, 1);
    }

    fn on_prune(
        &mut self,
        from: PeerIdx,
        topic: TopicId,
        backoff_s: Option<u64>,
        cx: &mut Ctx<'_, Self>,
    ) {
        self.peers.remove_from_mesh(topic, from);
        let backoff = match backoff_s {
            Some(s) if s > 0 => {
                if s > MAX_REMOTE_BACKOFF_S {
                    cx.count(&counters::PRUNE_BACKOFF_CLAMPED, 1);
                }
                Dur::from_secs(s.min(MAX_REMOTE_BACKOFF_S))
            }
            _ => self.p.prune_backoff,
        };
        let until = cx.now + backoff;
        let member = self.peers.member_mut(topic, from);
        member.backoff_until = member.backoff_until.max(until);
    }

    fn on_idontwant(&mut self, from: PeerIdx, id: TxId, cx: &mut Ctx<'_, Self>) {
        if !self.p.idontwant() {
            return;
        }
        let peer = self.peers.slot(from);
        peer.idontwants = peer.idontwants.saturating_add(1);
        if peer.idontwants > self.p.max_idontwant_per_heartbeat {
            cx.count(&counters::IDONTWANT_FLOOD, 1);
            return;
        }
        self.dont_want.insert(from, id);
    }

    fn on_iannounce(&mut self, from: PeerIdx, topic: TopicId, id: TxId, cx: &mut Ctx<'_, Self>) {
        if !self.p.announce() || self.role == Role::Silent {
            return;
        }
        if !self.peers.in_mesh(topic, from) {
            cx.count(&counters::IANNOUNCE_NOT_MESH, 1);
            return;
        }
        if self.score(from) < self.p.gossip_threshold {
            cx.count(&counters::IANNOUNCE_IGNORED_SCORE, 1);
            return;
        }
        let peer = self.peers.slot(from);
        peer.iannounces = peer.iannounces.saturating_add(1);
        if peer.iannounces > self.p.max_iannounce_per_heartbeat {
            cx.count(&counters::IANNOUNCE_FLOOD, 1);
            return;
        }
        if self.seen.contains(id) {
            return;
        }
        match self.acache.announce(id, from, cx.now, cx.timers) {
            Announced::Ask(to) => self.send_ineed(id, to, cx),
            Announced::Queued => {}
            Announced::OverBudget => cx.count(&counters::IANNOUNCE_OVER_BUDGET, 1),
            Announced::Dropped => cx.count(&counters::ACACHE_FULL, 1),
        }
    }

    fn send_ineed(&mut self, id: TxId, to: PeerIdx, cx: &mut Ctx<'_, Self>) {
        cx.send(to, Rpc::INeed(id));
        cx.count(&counters::INEED_SENT, 1);
        let timeout = cx.set_timer_in(self.p.ineed_timeout, GossipsubTimer::INeedTimeout(id));
        self.acache.set_timeout(id, timeout);
    }

    fn on_ineed(&mut self, from: PeerIdx, id: TxId, cx: &mut Ctx<'_, Self>) {
        if matches!(self.role, Role::Withhold | Role::Silent) {
            cx.count(&counters::REQUEST_WITHHELD, 1);
            return;
        }
        if self.dont_want.contains(from, id) || self.withholds(id) {
            return;
        }
        match self.mcache.serve(id, from) {
            Some((msg, count)) if count <= self.p.gossip_retransmission => {
                cx.send(from, self.publish_msg(msg));
                cx.count(&counters::INEED_SERVED, 1);
            }
            Some(_) => cx.count(&counters::INEED_OVER_RETRANSMISSION, 1),
            None => cx.count(&counters::INEED_UNKNOWN, 1),
        }
    }

    fn on_ineed_timeout(&mut self, id: TxId, cx: &mut Ctx<'_, Self>) {
        let Some((failed, next)) = self.acache.timeout(id, cx.timers) else {
            return;
        };
        cx.count(&counters::INEED_TIMEOUT, 1);
        self.penalize(failed, self.p.ineed_timeout_penalty);
        if let Some(to) = next {
            self.send_ineed(id, to, cx);
        }
    }

    /// A message of the simulator's workload: on the first topic.
    fn on_submit(&mut self, tx: Tx, cx: &mut Ctx<'_, Self>) {
        self.start(cx);
        if self.seen.contains(tx.id) {
            return;
        }
        let msg = Message {
            tx,
            topic: TopicId(0),
            envelope: self.p.own_envelope,
            check: Check::Valid,
        };
        self.accept(msg, None, cx);
    }

    fn heartbeat(&mut self, cx: &mut Ctx<'_, Self>) {
        self.heartbeats += 1;
        // Every score is 0 until a first penalty: nothing to decay.
        if self.any_penalty {
            let decay = self.p.decay_per_heartbeat;
            for peer in &mut self.peers.list {
                peer.score.decay(decay);
            }
        }
        let mut broken = std::mem::take(&mut self.scratch);
        broken.clear();
        let seen = &self.seen;
        self.promises
            .broken(cx.now, |id| seen.contains(id), &mut broken);
        for &b in &broken {
            self.penalize(b, 1.0);
        }
        // Counted only when some broke: a count of 0 would still be a trace line per
        // heartbeat of every node, and list the counter in reports where nothing happened.
        if !broken.is_empty() {
            cx.count(&counters::BROKEN_PROMISES, broken.len() as u64);
        }
        self.scratch = broken;
        self.peers.reset_heartbeat_counters();

        let mut topics = std::mem::take(&mut self.scratch_topics);
        topics.clear();
        topics.extend(self.routed_topics());
        for &t in &topics {
            if self.peers.topics[t.idx()].joined {
                self.maintain_mesh(t, cx);
            } else {
                self.maintain_fanout(t, cx);
            }
        }
        for &t in &topics {
            self.emit_gossip(t, cx);
        }
        self.scratch_topics = topics;

        self.mcache.shift();
        self.seen.rotate(cx.now, self.p.seen_ttl);
        self.dont_want.tick();
        self.acache.expire(cx.now, self.p.seen_ttl, cx.timers);
        if !self.validating.is_empty() {
            let before = self.validating.len();
            let now = cx.now;
            let charges = &mut self.validating_from;
            self.validating.retain(|_, v| {
                let keep = now.since(v.since) < VALIDATION_TIMEOUT;
                if let (false, Some(peer)) = (keep, v.from) {
                    charges.refund(peer);
                }
                keep
            });
            cx.count(
                &counters::VALIDATION_TIMEOUT,
                (before - self.validating.len()) as u64,
            );
        }
        cx.set_timer_in(self.p.heartbeat, GossipsubTimer::Heartbeat);
    }

    /// v1.0 mesh maintenance with the v1.1 score rules: drop negative peers, graft up to D
    /// below D_lo, prune down to D above D_hi keeping the D_score best.
    fn maintain_mesh(&mut self, topic: TopicId, cx: &mut Ctx<'_, Self>) {
        let w = self.weights();
        let mut bad = std::mem::take(&mut self.scratch);
        bad.clear();
        bad.extend(
            self.peers.topics[topic.idx()]
                .mesh
                .iter()
                .copied()
                .filter(|&m| {
                    self.peers
                        .get(m)
                        .is_none_or(|x| !x.connected || x.score.value(&w) < 0.0)
                }),
        );
        for &b in &bad {
            if self.peers.get(b).is_some_and(|x| x.connected) {
                self.prune(b, topic, cx);
            } else {
                self.peers.remove_from_mesh(topic, b);
            }
        }

        if self.peers.topics[topic.idx()].mesh.len() < self.p.d_lo {
            let now = cx.now;
            self.peers.select(topic, &mut bad, |x, m| {
                x.connected
                    && m.subscribed
                    && !m.in_mesh
                    && now >= m.backoff_until
                    && x.score.value(&w) >= 0.0
            });
            let want = self.p.d - self.peers.topics[topic.idx()].mesh.len();
            cx.rng
                .sample_distinct(bad.len(), want, &mut self.scratch_idx);
            for &i in &self.scratch_idx {
                let g = bad[i];
                self.peers.add_to_mesh(topic, g);
                cx.send(g, Rpc::Graft { topic });
                cx.count(&counters::GRAFT_SENT, 1);
            }
        }

        if self.peers.topics[topic.idx()].mesh.len() > self.p.d_hi {
            let mut keep = std::mem::take(&mut self.peers.topic_mut(topic).mesh);
            cx.rng.shuffle(&mut keep);
            let scores: Vec<f64> = keep.iter().map(|&m| self.score(m)).collect();
            let mut order: Vec<usize> = (0..keep.len()).collect();
            order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
            let mut ranked: Vec<PeerIdx> = order.iter().map(|&i| keep[i]).collect();
            // The best D_score stay; the rest of the D survivors are random.
            cx.rng.shuffle(&mut ranked[self.p.d_score..]);
            self.peers.topic_mut(topic).mesh = keep;
            for &m in &ranked[self.p.d..] {
                self.prune(m, topic, cx);
            }
        }
        self.scratch = bad;
    }

    fn maintain_fanout(&mut self, topic: TopicId, cx: &mut Ctx<'_, Self>) {
        let t = self.peers.topic_mut(topic);
        if cx.now.since(t.last_publish) > self.p.fanout_ttl {
            self.peers.clear_fanout(topic);
        } else if t.fanout.len() < self.p.d {
            self.fill_fanout(topic, cx);
        }
    }

    /// IHAVE with the ids of the last `mcache_gossip` windows to at least D_lazy (or
    /// gossip_factor of the) non-mesh peers above the gossip threshold.
    fn emit_gossip(&mut self, topic: TopicId, cx: &mut Ctx<'_, Self>) {
        if self.role == Role::Silent {
            return;
        }
        let mut ids = std::mem::take(&mut self.scratch_ids);
        ids.clear();
        self.mcache.gossip_ids(topic, &mut ids);
        if self.role == Role::Censor {
            ids.retain(|&id| !self.behaviour.censors(id));
        }
        if ids.is_empty() {
            self.scratch_ids = ids;
            return;
        }
        if ids.len() > self.p.max_ihave_length {
            cx.rng.shuffle(&mut ids);
            ids.truncate(self.p.max_ihave_length);
        }
        let threshold = self.p.gossip_threshold;
        let w = self.weights();
        let mut c = std::mem::take(&mut self.scratch);
        self.peers.select(topic, &mut c, |x, m| {
            x.connected
                && m.subscribed
                && !m.in_mesh
                && !m.in_fanout
                && x.score.value(&w) >= threshold
        });
        let by_factor = (self.p.gossip_factor * c.len() as f64) as usize;
        let n = self.p.d_lazy.max(by_factor);
        cx.rng.sample_distinct(c.len(), n, &mut self.scratch_idx);
        if !self.scratch_idx.is_empty() {
            let shared: std::sync::Arc<[TxId]> = ids.as_slice().into();
            for &i in &self.scratch_idx {
                let ids = shared.clone();
                cx.send(c[i], Rpc::IHave { topic, ids });
                cx.count(&counters::IHAVE_IDS_SENT, shared.len() as u64);
            }
        }
        self.scratch = c;
        self.scratch_ids = ids;
    }
}

impl Protocol for Gossipsub {
    type Msg = Rpc;
    type Timer = GossipsubTimer;
    type Config = GossipsubConfig;

    fn new(config: &GossipsubConfig, setup: &NodeSetup) -> Self {
        let p = Params::shared(config);
        let role = Role::of(&setup.behaviour);
        let mut names = TopicNames::default();
        let mut peers = Peers::new();
        // The configured topics (validated to be few and short; a bad name is skipped).
        for name in &config.topics {
            if let Some(t) = names.intern(name) {
                let topic = peers.topic_mut(t);
                topic.routed = true;
                topic.joined = p.subscribe;
            }
        }
        if names.is_empty() {
            names.intern(super::rpc::TOPIC);
            peers.topic_mut(TopicId(0)).routed = true;
        }
        Gossipsub {
            mcache: MessageCache::new(p.mcache_len, p.mcache_gossip),
            dont_want: DontWant::new(p.idontwant_ttl_heartbeats),
            p,
            behaviour: setup.behaviour.clone(),
            role,
            names,
            peers,
            seen: SeenCache::new(),
            acache: AnnounceCache::new(),
            promises: Promises::new(),
            validating: BTreeMap::new(),
            validating_from: Ledger::new(VALIDATING),
            to_validate: Vec::new(),
            started: false,
            any_penalty: false,
            any_older_peer: false,
            heartbeats: 0,
            scratch: Vec::new(),
            scratch_idx: Vec::new(),
            scratch_ids: Vec::new(),
            scratch_topics: Vec::new(),
        }
    }

    fn handle(&mut self, input: Input<Rpc, GossipsubTimer>, cx: &mut Ctx<'_, Self>) {
        match input {
            Input::PeerUp(p) => self.on_peer_up(p, cx),
            Input::PeerDown(p) => self.forget(p, cx),
            Input::Message(from, rpc) => self.on_message(from, rpc, cx),
            Input::Timer(GossipsubTimer::Heartbeat) => self.heartbeat(cx),
            Input::Timer(GossipsubTimer::INeedTimeout(id)) => self.on_ineed_timeout(id, cx),
            Input::Submit(tx) => self.on_submit(tx, cx),
        }
    }

    /// Each kind's reads beyond the first lines: the peer's entries, the seen bit of its
    /// message and the caches it looks up (the parameters, one copy for all, stay cached).
    #[inline(always)]
    fn warm(&self, from: PeerIdx, msg: &Rpc) {
        use crate::prefetch::prefetch_all;
        // The topic a message names, or the one whose standing it reads.
        let topic = match msg {
            Rpc::Publish(m) => m.topic,
            Rpc::Subscribe { topic, .. }
            | Rpc::IHave { topic, .. }
            | Rpc::Graft { topic }
            | Rpc::Prune { topic, .. }
            | Rpc::IAnnounce { topic, .. } => *topic,
            Rpc::IWant(_) | Rpc::IDontWant(_) | Rpc::INeed(_) => TopicId(0),
        };
        self.peers.prefetch(topic, from);
        match msg {
            Rpc::Publish(m) => {
                self.peers.prefetch_topic(topic);
                self.seen.prefetch(m.tx.id);
                prefetch_all(&self.acache);
                prefetch_all(&self.mcache);
            }
            Rpc::IHave { ids, .. } => {
                self.peers.prefetch_topic(topic);
                // The ids themselves were asked for by `warm_message`, earlier.
                if let Some(&id) = ids.first() {
                    self.seen.prefetch(id);
                }
            }
            Rpc::IAnnounce { id, .. } => {
                self.seen.prefetch(*id);
                prefetch_all(&self.acache);
            }
            Rpc::INeed(_) | Rpc::IWant(_) => {
                prefetch_all(&self.dont_want);
                prefetch_all(&self.mcache);
            }
            _ => {}
        }
    }

    /// A heartbeat reads the whole router, every peer's entry and standing, and the ends of
    /// the caches it shifts and expires: warmed together, its misses overlap instead of
    /// coming one after another. Not on WebAssembly, which has no prefetch.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    fn warm_timer(&self, timer: &GossipsubTimer) {
        if let GossipsubTimer::Heartbeat = timer {
            crate::prefetch::prefetch_all(self);
            self.peers.prefetch_all_peers();
            self.mcache.prefetch_heartbeat();
            self.seen.prefetch_heartbeat();
            self.dont_want.prefetch_heartbeat();
            self.promises.prefetch_heartbeat();
        }
    }

    /// The id lists gossip carries live in their own buffers.
    #[inline(always)]
    fn warm_message(msg: &Rpc) {
        use crate::prefetch::prefetch;
        match msg {
            Rpc::IHave { ids, .. } => prefetch(ids.as_ptr()),
            Rpc::IWant(ids) => prefetch(ids.as_ptr()),
            _ => {}
        }
    }

    fn set_behaviour(&mut self, behaviour: &Behaviour, _: &mut Ctx<'_, Self>) {
        self.role = Role::of(behaviour);
        self.behaviour = behaviour.clone();
    }

    fn tx_status(&self, tx: TxId) -> crate::TxStatus {
        if self.seen.contains(tx) {
            return crate::TxStatus::Have;
        }
        self.acache.status(tx).unwrap_or(crate::TxStatus::Unknown)
    }

    fn describe_timer(timer: &GossipsubTimer) -> crate::TimerNote {
        match timer {
            GossipsubTimer::Heartbeat => crate::TimerNote::of("heartbeat", None),
            GossipsubTimer::INeedTimeout(id) => crate::TimerNote::of("INEED timeout", Some(*id)),
        }
    }

    /// The mesh and fanout of the first topic, and what the router keeps per peer.
    fn detail(&self, now: Time) -> crate::Detail {
        use crate::{Cell, Table};
        let mut table = Table::new(
            "peers",
            &[
                "in",
                "version",
                "score",
                "backoff (s)",
                "IDONTWANT from it",
                "announced, not received",
                "INEED in flight",
                "IWANT promises",
            ],
        );
        for (i, peer) in self.peers.list.iter().enumerate() {
            if !peer.connected {
                continue;
            }
            let p = PeerIdx(i as u32);
            let member = self.peers.member(TopicId(0), p);
            let place = match member {
                Some(m) if m.in_mesh => "mesh",
                Some(m) if m.in_fanout => "fanout",
                Some(m) if m.subscribed => "subscribed",
                _ => "-",
            };
            let backoff = member.map_or(0.0, |m| {
                m.backoff_until.0.saturating_sub(now.0) as f64 / 1e6
            });
            let (announced, asked) = self.acache.of_peer(p);
            table.peer(
                p,
                vec![
                    Cell::from(place),
                    Cell::from(peer.version.protocol_id()),
                    Cell::from(self.score(p)),
                    Cell::from(backoff),
                    Cell::from(self.dont_want.count_of(p)),
                    Cell::from(announced),
                    Cell::from(asked),
                    Cell::from(self.promises.count_of(p)),
                ],
            );
        }
        crate::Detail {
            groups: vec![
                ("mesh", self.mesh().to_vec()),
                ("fanout", self.fanout().to_vec()),
            ],
            tables: vec![table],
        }
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        let connected = self.peers.list.iter().filter(|x| x.connected).count();
        let subscribed = self.subscribers(TopicId(0));
        vec![
            ("version", format!("{:?}", self.p.version)),
            ("peers (subscribed)", format!("{connected} ({subscribed})")),
            ("mesh", self.mesh().len().to_string()),
            ("seen", self.seen.len().to_string()),
            ("mcache", self.mcache.len().to_string()),
            ("pending announcements", self.acache.len().to_string()),
            ("gossip promises", self.promises.len().to_string()),
            ("heartbeats", self.heartbeats.to_string()),
        ]
    }
}

impl Gossipsub {
    /// Mesh peers of the first topic, in the order they joined (tests, the inspector).
    pub fn mesh(&self) -> &[PeerIdx] {
        self.peers.topic(TopicId(0)).map_or(&[], |t| &t.mesh)
    }

    /// Fanout peers of the first topic (used only by a node that does not subscribe).
    pub fn fanout(&self) -> &[PeerIdx] {
        self.peers.topic(TopicId(0)).map_or(&[], |t| &t.fanout)
    }

    /// Mesh peers of a topic.
    pub fn mesh_of(&self, topic: TopicId) -> &[PeerIdx] {
        self.peers.topic(topic).map_or(&[], |t| &t.mesh)
    }

    /// Connected peers that subscribe to a topic.
    pub fn subscribers(&self, topic: TopicId) -> usize {
        self.peers.subscribers(topic)
    }

    /// This node's score of a peer.
    pub fn peer_score(&self, peer: PeerIdx) -> f64 {
        self.score(peer)
    }

    /// Whether the peer is backed off in the first topic at `now`.
    pub fn backed_off(&self, peer: PeerIdx, now: Time) -> bool {
        let member = self.peers.member(TopicId(0), peer);
        member.is_some_and(|m| now < m.backoff_until)
    }
}
