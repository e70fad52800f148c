//! The GossipSub router as a sans-IO state machine: v1.1 mesh, gossip and scoring,
//! v1.2 IDONTWANT, v2.0 IANNOUNCE / INEED, selected by `GossipsubConfig::version`.
//!
//! Subscriptions are modelled: on PeerUp each node sends SUBSCRIBE for the single topic,
//! and only peers whose SUBSCRIBE arrived are grafted or gossiped to. The mesh forms at
//! the heartbeats (the first one `heartbeat_initial_delay_ms` plus a random phase of up to
//! one heartbeat after the first input).

use super::announce::{AnnounceCache, Announced, Ask};
use super::config::{GossipsubConfig, Params};
use super::dontwant::DontWant;
use super::mcache::MessageCache;
use super::mesh::Peers;
use super::promises::Promises;
use super::rpc::Rpc;
use super::score::Weights;
use super::seen::SeenCache;
use crate::{Behaviour, Ctx, Dur, Input, NodeSetup, PeerIdx, Protocol, Time, Tx, TxId};

/// A backoff a peer asks for in PRUNE is capped at this (seconds), so it cannot exclude
/// itself or us from each other's mesh for ever; go-libp2p takes it unchecked.
pub const MAX_REMOTE_BACKOFF_S: u64 = 3_600;

#[derive(Clone, Debug, PartialEq)]
pub enum GossipsubTimer {
    Heartbeat,
    /// The INEED for `id` numbered `attempt` may have timed out.
    INeedTimeout {
        id: TxId,
        attempt: u32,
    },
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

pub struct Gossipsub {
    p: Params,
    behaviour: Behaviour,
    role: Role,
    peers: Peers,
    seen: SeenCache,
    mcache: MessageCache,
    dont_want: DontWant,
    acache: AnnounceCache,
    promises: Promises,
    started: bool,
    /// Whether any peer was ever penalized: until then every score is 0 and the checks
    /// on each incoming message can be skipped.
    any_penalty: bool,
    last_publish: Time,
    heartbeats: u64,
    scratch: Vec<PeerIdx>,
    scratch_idx: Vec<usize>,
    scratch_ids: Vec<TxId>,
}

impl Gossipsub {
    fn weights(&self) -> Weights {
        Weights {
            invalid: self.p.invalid_message_weight,
            penalty: self.p.behaviour_penalty_weight,
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

    fn publish_msg(&self, tx: Tx) -> Rpc {
        Rpc::Publish {
            tx,
            valid: self.role != Role::Corrupt,
        }
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
        let slot = self.peers.slot(peer);
        slot.connected = true;
        if self.p.subscribe {
            cx.send(peer, Rpc::Subscribe { subscribe: true });
        }
    }

    fn on_peer_down(&mut self, peer: PeerIdx) {
        let slot = self.peers.slot(peer);
        slot.connected = false;
        slot.subscribed = false;
        self.peers.remove_from_mesh(peer);
        self.peers.remove_from_fanout(peer);
    }

    fn on_message(&mut self, from: PeerIdx, rpc: Rpc, cx: &mut Ctx<'_, Self>) {
        self.peers.slot(from);
        if self.score(from) < self.p.graylist_threshold {
            cx.count("gs_graylisted_rpc", 1);
            return;
        }
        match rpc {
            Rpc::Subscribe { subscribe } => self.on_subscribe(from, subscribe),
            Rpc::Publish { tx, valid } => self.on_publish(from, tx, valid, cx),
            Rpc::IHave(ids) => self.on_ihave(from, &ids, cx),
            Rpc::IWant(ids) => self.on_iwant(from, &ids, cx),
            Rpc::Graft => self.on_graft(from, cx),
            Rpc::Prune { backoff_s } => self.on_prune(from, backoff_s, cx),
            Rpc::IDontWant(id) => self.on_idontwant(from, id, cx),
            Rpc::IAnnounce(id) => self.on_iannounce(from, id, cx),
            Rpc::INeed(id) => self.on_ineed(from, id, cx),
        }
    }

    fn on_subscribe(&mut self, from: PeerIdx, subscribe: bool) {
        self.peers.slot(from).subscribed = subscribe;
        if !subscribe {
            self.peers.remove_from_mesh(from);
            self.peers.remove_from_fanout(from);
        }
    }

    fn on_publish(&mut self, from: PeerIdx, tx: Tx, valid: bool, cx: &mut Ctx<'_, Self>) {
        if !valid {
            // P4. The id is not marked seen: with content-derived ids (as in libp2p) the
            // garbage would have had an id of its own, so the real message stays wanted.
            self.any_penalty = true;
            self.peers.slot(from).score.add_invalid();
            cx.count("gs_invalid_message", 1);
            return;
        }
        if self.seen.contains(tx.id) {
            // A duplicate; the simulator counts full copies itself.
            return;
        }
        self.accept(tx, Some(from), cx);
    }

    /// A message is new here: deliver it, cache it, tell the mesh not to send it again
    /// (v1.2) and pass it on.
    fn accept(&mut self, tx: Tx, from: Option<PeerIdx>, cx: &mut Ctx<'_, Self>) {
        self.seen.insert(tx.id);
        cx.deliver(tx);
        self.mcache.put(tx);
        if self.p.announce() {
            self.acache.clear(tx.id);
        }
        let own = from.is_none();
        if !own
            && self.p.idontwant()
            && tx.len >= self.p.idontwant_threshold_bytes
            && self.role != Role::Silent
        {
            let mut sent = 0;
            for i in 0..self.peers.mesh.len() {
                let m = self.peers.mesh[i];
                if Some(m) != from {
                    cx.send(m, Rpc::IDontWant(tx.id));
                    sent += 1;
                }
            }
            cx.count("gs_idontwant_sent", sent);
        }
        self.forward(tx, from, cx);
    }

    /// Sends a new message on: the mesh (or on own publish, every subscribed peer with
    /// flood publishing, or the fanout when not subscribed), skipping the source and peers
    /// that said IDONTWANT. In v2.0 each mesh peer gets an IANNOUNCE instead of the message
    /// with probability D_announce / D.
    fn forward(&mut self, tx: Tx, from: Option<PeerIdx>, cx: &mut Ctx<'_, Self>) {
        if self.withholds(tx.id) {
            return;
        }
        let own = from.is_none();
        let mut targets = std::mem::take(&mut self.scratch);
        if own && self.p.flood_publish {
            let threshold = self.p.publish_threshold;
            let w = self.weights();
            self.peers.select(&mut targets, |x| {
                x.connected && x.subscribed && x.score.value(&w) >= threshold
            });
        } else if self.p.subscribe {
            targets.clear();
            targets.extend_from_slice(&self.peers.mesh);
        } else {
            if self.peers.fanout.is_empty() {
                self.fill_fanout(cx);
            }
            targets.clear();
            targets.extend_from_slice(&self.peers.fanout);
        }
        if own {
            self.last_publish = cx.now;
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
            if self.lazy(t, own, cx) {
                cx.send(t, Rpc::IAnnounce(tx.id));
                announced += 1;
            } else {
                cx.send(t, self.publish_msg(tx));
            }
        }
        if saved > 0 {
            cx.count("gs_idontwant_saved", saved);
        }
        if announced > 0 {
            cx.count("gs_iannounce_sent", announced);
        }
        self.scratch = targets;
    }

    /// v2.0 coin toss for a mesh peer. A publisher sends full messages unless
    /// D_announce = D (v2.0 draft, "Message Publishing").
    fn lazy(&self, peer: PeerIdx, own: bool, cx: &mut Ctx<'_, Self>) -> bool {
        if !self.p.announce() || self.p.d_announce == 0 || !self.peers.in_mesh(peer) {
            return false;
        }
        let d = self.p.d as u32;
        if own {
            return self.p.d_announce >= d;
        }
        cx.rng.below(d as u64) < self.p.d_announce as u64
    }

    fn fill_fanout(&mut self, cx: &mut Ctx<'_, Self>) {
        let threshold = self.p.publish_threshold;
        let w = self.weights();
        let mut c = std::mem::take(&mut self.scratch);
        self.peers.select(&mut c, |x| {
            x.connected && x.subscribed && !x.in_fanout && x.score.value(&w) >= threshold
        });
        let want = self.p.d.saturating_sub(self.peers.fanout.len());
        cx.rng.sample_distinct(c.len(), want, &mut self.scratch_idx);
        for &i in &self.scratch_idx {
            self.peers.add_to_fanout(c[i]);
        }
        self.scratch = c;
    }

    fn on_ihave(&mut self, from: PeerIdx, ids: &[TxId], cx: &mut Ctx<'_, Self>) {
        if !self.p.subscribe || self.role == Role::Silent {
            return;
        }
        if self.score(from) < self.p.gossip_threshold {
            cx.count("gs_ihave_ignored_score", 1);
            return;
        }
        let max = self.p.max_ihave_length;
        let peer = self.peers.slot(from);
        peer.ihaves = peer.ihaves.saturating_add(1);
        if peer.ihaves > self.p.max_ihave_messages || peer.iasked as usize >= max {
            cx.count("gs_ihave_flood", 1);
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
            cx.count("gs_iwant_ids_sent", want.len() as u64);
            cx.send(from, Rpc::IWant(want.clone()));
        }
        self.scratch_ids = want;
    }

    fn on_iwant(&mut self, from: PeerIdx, ids: &[TxId], cx: &mut Ctx<'_, Self>) {
        if matches!(self.role, Role::Withhold | Role::Silent) {
            cx.count("gs_request_withheld", 1);
            return;
        }
        if self.score(from) < self.p.gossip_threshold {
            cx.count("gs_iwant_ignored_score", 1);
            return;
        }
        for &id in ids.iter().take(self.p.max_ihave_length) {
            if self.dont_want.contains(from, id) || self.withholds(id) {
                continue;
            }
            match self.mcache.serve(id, from) {
                Some((tx, count)) if count <= self.p.gossip_retransmission => {
                    cx.send(from, self.publish_msg(tx));
                    cx.count("gs_iwant_served", 1);
                }
                Some(_) => cx.count("gs_iwant_over_retransmission", 1),
                None => {}
            }
        }
    }

    fn on_graft(&mut self, from: PeerIdx, cx: &mut Ctx<'_, Self>) {
        // v1.1 spam hardening: GRAFT for a topic we do not subscribe to is ignored.
        if !self.p.subscribe || self.peers.in_mesh(from) {
            return;
        }
        let now = cx.now;
        let peer = self.peers.slot(from);
        if now < peer.backoff_until {
            let extra = if now < peer.graft_flood_until {
                2.0
            } else {
                1.0
            };
            peer.score.add_penalty(extra);
            self.any_penalty = true;
            cx.count("gs_graft_in_backoff", 1);
            self.prune(from, cx);
            return;
        }
        // Accepted even above D_hi, as in v1.0; the heartbeat prunes back to D. (v1.1
        // accepts there only peers on outbound connections; links here have no direction.)
        if self.score(from) < 0.0 {
            self.prune(from, cx);
            return;
        }
        self.peers.add_to_mesh(from);
    }

    /// Sends PRUNE with our backoff and backs off the peer ourselves.
    fn prune(&mut self, peer: PeerIdx, cx: &mut Ctx<'_, Self>) {
        self.peers.remove_from_mesh(peer);
        let now = cx.now;
        let slot = self.peers.slot(peer);
        slot.backoff_until = slot.backoff_until.max(now + self.p.prune_backoff);
        slot.graft_flood_until = now + self.p.graft_flood_threshold;
        let backoff_s = self.p.prune_backoff.as_micros() / 1_000_000;
        cx.send(
            peer,
            Rpc::Prune {
                backoff_s: Some(backoff_s),
            },
        );
        cx.count("gs_prune_sent", 1);
    }

    fn on_prune(&mut self, from: PeerIdx, backoff_s: Option<u64>, cx: &mut Ctx<'_, Self>) {
        self.peers.remove_from_mesh(from);
        let backoff = match backoff_s {
            Some(s) if s > 0 => {
                if s > MAX_REMOTE_BACKOFF_S {
                    cx.count("gs_prune_backoff_clamped", 1);
                }
                Dur::from_secs(s.min(MAX_REMOTE_BACKOFF_S))
            }
            _ => self.p.prune_backoff,
        };
        let until = cx.now + backoff;
        let slot = self.peers.slot(from);
        slot.backoff_until = slot.backoff_until.max(until);
    }

    fn on_idontwant(&mut self, from: PeerIdx, id: TxId, cx: &mut Ctx<'_, Self>) {
        if !self.p.idontwant() {
            return;
        }
        let peer = self.peers.slot(from);
        peer.idontwants = peer.idontwants.saturating_add(1);
        if peer.idontwants > self.p.max_idontwant_per_heartbeat {
            cx.count("gs_idontwant_flood", 1);
            return;
        }
        self.dont_want.insert(from, id);
    }

    fn on_iannounce(&mut self, from: PeerIdx, id: TxId, cx: &mut Ctx<'_, Self>) {
        if !self.p.announce() || self.role == Role::Silent {
            return;
        }
        if !self.peers.in_mesh(from) {
            cx.count("gs_iannounce_not_mesh", 1);
            return;
        }
        if self.score(from) < self.p.gossip_threshold {
            cx.count("gs_iannounce_ignored_score", 1);
            return;
        }
        let peer = self.peers.slot(from);
        peer.iannounces = peer.iannounces.saturating_add(1);
        if peer.iannounces > self.p.max_iannounce_per_heartbeat {
            cx.count("gs_iannounce_flood", 1);
            return;
        }
        if self.seen.contains(id) {
            return;
        }
        match self.acache.announce(id, from, cx.now) {
            Announced::Ask(ask) => self.send_ineed(id, ask, cx),
            Announced::Queued => {}
            Announced::Dropped => cx.count("gs_acache_full", 1),
        }
    }

    fn send_ineed(&mut self, id: TxId, ask: Ask, cx: &mut Ctx<'_, Self>) {
        cx.send(ask.peer, Rpc::INeed(id));
        cx.count("gs_ineed_sent", 1);
        cx.set_timer_in(
            self.p.ineed_timeout,
            GossipsubTimer::INeedTimeout {
                id,
                attempt: ask.attempt,
            },
        );
    }

    fn on_ineed(&mut self, from: PeerIdx, id: TxId, cx: &mut Ctx<'_, Self>) {
        if matches!(self.role, Role::Withhold | Role::Silent) {
            cx.count("gs_request_withheld", 1);
            return;
        }
        if self.dont_want.contains(from, id) || self.withholds(id) {
            return;
        }
        match self.mcache.serve(id, from) {
            Some((tx, count)) if count <= self.p.gossip_retransmission => {
                cx.send(from, self.publish_msg(tx));
                cx.count("gs_ineed_served", 1);
            }
            Some(_) => cx.count("gs_ineed_over_retransmission", 1),
            None => cx.count("gs_ineed_unknown", 1),
        }
    }

    fn on_ineed_timeout(&mut self, id: TxId, attempt: u32, cx: &mut Ctx<'_, Self>) {
        let Some((failed, next)) = self.acache.timeout(id, attempt) else {
            return;
        };
        cx.count("gs_ineed_timeout", 1);
        self.penalize(failed, self.p.ineed_timeout_penalty);
        if let Some(ask) = next {
            self.send_ineed(id, ask, cx);
        }
    }

    fn on_submit(&mut self, tx: Tx, cx: &mut Ctx<'_, Self>) {
        self.start(cx);
        if self.seen.contains(tx.id) {
            return;
        }
        self.accept(tx, None, cx);
    }

    fn heartbeat(&mut self, cx: &mut Ctx<'_, Self>) {
        self.heartbeats += 1;
        let decay = self.p.decay_per_heartbeat;
        for peer in &mut self.peers.list {
            peer.score.decay(decay);
        }
        let mut broken = std::mem::take(&mut self.scratch);
        broken.clear();
        let seen = &self.seen;
        self.promises
            .broken(cx.now, |id| seen.contains(id), &mut broken);
        for &b in &broken {
            self.penalize(b, 1.0);
        }
        cx.count("gs_broken_promises", broken.len() as u64);
        self.scratch = broken;
        self.peers.reset_heartbeat_counters();

        if self.p.subscribe {
            self.maintain_mesh(cx);
        } else {
            self.maintain_fanout(cx);
        }
        self.emit_gossip(cx);

        self.mcache.shift();
        self.seen.rotate(cx.now, self.p.seen_ttl);
        self.dont_want.tick();
        self.acache.expire(cx.now, self.p.seen_ttl);
        cx.set_timer_in(self.p.heartbeat, GossipsubTimer::Heartbeat);
    }

    /// v1.0 mesh maintenance with the v1.1 score rules: drop negative peers, graft up to D
    /// below D_lo, prune down to D above D_hi keeping the D_score best.
    fn maintain_mesh(&mut self, cx: &mut Ctx<'_, Self>) {
        let w = self.weights();
        let mut bad = std::mem::take(&mut self.scratch);
        bad.clear();
        bad.extend(self.peers.mesh.iter().copied().filter(|&m| {
            self.peers
                .get(m)
                .is_none_or(|x| !x.connected || x.score.value(&w) < 0.0)
        }));
        for &b in &bad {
            if self.peers.get(b).is_some_and(|x| x.connected) {
                self.prune(b, cx);
            } else {
                self.peers.remove_from_mesh(b);
            }
        }

        if self.peers.mesh.len() < self.p.d_lo {
            let now = cx.now;
            self.peers.select(&mut bad, |x| {
                x.connected
                    && x.subscribed
                    && !x.in_mesh
                    && now >= x.backoff_until
                    && x.score.value(&w) >= 0.0
            });
            let want = self.p.d - self.peers.mesh.len();
            cx.rng
                .sample_distinct(bad.len(), want, &mut self.scratch_idx);
            for &i in &self.scratch_idx {
                let g = bad[i];
                self.peers.add_to_mesh(g);
                cx.send(g, Rpc::Graft);
                cx.count("gs_graft_sent", 1);
            }
        }

        if self.peers.mesh.len() > self.p.d_hi {
            let mut keep = std::mem::take(&mut self.peers.mesh);
            cx.rng.shuffle(&mut keep);
            let scores: Vec<f64> = keep.iter().map(|&m| self.score(m)).collect();
            let mut order: Vec<usize> = (0..keep.len()).collect();
            order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
            let mut ranked: Vec<PeerIdx> = order.iter().map(|&i| keep[i]).collect();
            // The best D_score stay; the rest of the D survivors are random.
            cx.rng.shuffle(&mut ranked[self.p.d_score..]);
            self.peers.mesh = keep;
            for &m in &ranked[self.p.d..] {
                self.prune(m, cx);
            }
        }
        self.scratch = bad;
    }

    fn maintain_fanout(&mut self, cx: &mut Ctx<'_, Self>) {
        if cx.now.since(self.last_publish) > self.p.fanout_ttl {
            self.peers.clear_fanout();
        } else if self.peers.fanout.len() < self.p.d {
            self.fill_fanout(cx);
        }
    }

    /// IHAVE with the ids of the last `mcache_gossip` windows to at least D_lazy (or
    /// gossip_factor of the) non-mesh peers above the gossip threshold.
    fn emit_gossip(&mut self, cx: &mut Ctx<'_, Self>) {
        if self.role == Role::Silent {
            return;
        }
        let mut ids = std::mem::take(&mut self.scratch_ids);
        ids.clear();
        self.mcache.gossip_ids(&mut ids);
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
        self.peers.select(&mut c, |x| {
            x.connected
                && x.subscribed
                && !x.in_mesh
                && !x.in_fanout
                && x.score.value(&w) >= threshold
        });
        let by_factor = (self.p.gossip_factor * c.len() as f64) as usize;
        let n = self.p.d_lazy.max(by_factor);
        cx.rng.sample_distinct(c.len(), n, &mut self.scratch_idx);
        for &i in &self.scratch_idx {
            cx.send(c[i], Rpc::IHave(ids.clone()));
            cx.count("gs_ihave_ids_sent", ids.len() as u64);
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
        let p = Params::from_config(config);
        let role = match setup.behaviour {
            Behaviour::Silent => Role::Silent,
            Behaviour::WithholdOnRequest => Role::Withhold,
            Behaviour::Corrupt => Role::Corrupt,
            Behaviour::Censor { .. } => Role::Censor,
            _ => Role::Honest,
        };
        Gossipsub {
            mcache: MessageCache::new(p.mcache_len, p.mcache_gossip),
            dont_want: DontWant::new(p.idontwant_ttl_heartbeats),
            p,
            behaviour: setup.behaviour.clone(),
            role,
            peers: Peers::new(),
            seen: SeenCache::new(),
            acache: AnnounceCache::new(),
            promises: Promises::new(),
            started: false,
            any_penalty: false,
            last_publish: Time::ZERO,
            heartbeats: 0,
            scratch: Vec::new(),
            scratch_idx: Vec::new(),
            scratch_ids: Vec::new(),
        }
    }

    fn handle(&mut self, input: Input<Rpc, GossipsubTimer>, cx: &mut Ctx<'_, Self>) {
        match input {
            Input::PeerUp(p) => self.on_peer_up(p, cx),
            Input::PeerDown(p) => self.on_peer_down(p),
            Input::Message(from, rpc) => self.on_message(from, rpc, cx),
            Input::Timer(GossipsubTimer::Heartbeat) => self.heartbeat(cx),
            Input::Timer(GossipsubTimer::INeedTimeout { id, attempt }) => {
                self.on_ineed_timeout(id, attempt, cx)
            }
            Input::Submit(tx) => self.on_submit(tx, cx),
        }
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        let connected = self.peers.list.iter().filter(|x| x.connected).count();
        let subscribed = self
            .peers
            .list
            .iter()
            .filter(|x| x.connected && x.subscribed)
            .count();
        vec![
            ("version", format!("{:?}", self.p.version)),
            ("peers (subscribed)", format!("{connected} ({subscribed})")),
            ("mesh", self.peers.mesh.len().to_string()),
            ("seen", self.seen.len().to_string()),
            ("mcache", self.mcache.len().to_string()),
            ("pending announcements", self.acache.len().to_string()),
            ("gossip promises", self.promises.len().to_string()),
            ("heartbeats", self.heartbeats.to_string()),
        ]
    }
}

impl Gossipsub {
    /// Mesh peers, in the order they joined (for tests and the inspector).
    pub fn mesh(&self) -> &[PeerIdx] {
        &self.peers.mesh
    }

    /// Fanout peers (used only by a node that does not subscribe).
    pub fn fanout(&self) -> &[PeerIdx] {
        &self.peers.fanout
    }

    /// This node's score of a peer.
    pub fn peer_score(&self, peer: PeerIdx) -> f64 {
        self.score(peer)
    }

    /// Whether the peer is backed off at `now`.
    pub fn backed_off(&self, peer: PeerIdx, now: Time) -> bool {
        self.peers.get(peer).is_some_and(|x| now < x.backoff_until)
    }
}
