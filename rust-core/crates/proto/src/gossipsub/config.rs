//! GossipSub parameters. Defaults come from the specs (libp2p/specs `pubsub/gossipsub/`):
//! v1.0 for the mesh and gossip, v1.1 for backoff, flood publishing and the gossip factor,
//! go-libp2p-pubsub for the limits v1.1 and v1.2 leave open, and the v2.0 draft for
//! `D_announce` and the INEED timeout.

use crate::Dur;
use ltcode::last_built::{reuse_or_build, LastBuilt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

/// Which protocol version the node speaks. Each version includes the ones before it.
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum Version {
    /// Mesh, gossip, backoff, flood publishing, scoring.
    #[serde(rename = "v1.1")]
    V1_1,
    /// Adds IDONTWANT.
    #[serde(rename = "v1.2")]
    V1_2,
    /// Adds lazy mesh propagation with IANNOUNCE / INEED.
    #[default]
    #[serde(rename = "v2.0")]
    V2_0,
}

impl Version {
    /// The libp2p protocol id of this version (`/meshsub/2.0.0` for the v2.0 draft, by the
    /// pattern of the others; the draft leaves it unnamed).
    pub fn protocol_id(self) -> &'static str {
        match self {
            Version::V1_1 => "/meshsub/1.1.0",
            Version::V1_2 => "/meshsub/1.2.0",
            Version::V2_0 => "/meshsub/2.0.0",
        }
    }

    /// The version a negotiated protocol id stands for. `/meshsub/1.0.0` peers are spoken to
    /// as v1.1 peers that send no backoff: nothing in v1.1 needs their support.
    pub fn of_protocol_id(id: &str) -> Option<Version> {
        match id {
            "/meshsub/1.0.0" | "/meshsub/1.1.0" => Some(Version::V1_1),
            "/meshsub/1.2.0" => Some(Version::V1_2),
            "/meshsub/2.0.0" => Some(Version::V2_0),
            _ => None,
        }
    }

    /// Protocol ids to offer a peer, best first, down to `/meshsub/1.0.0`.
    pub fn protocol_ids(self) -> Vec<&'static str> {
        let mut ids: Vec<&str> = [Version::V2_0, Version::V1_2, Version::V1_1]
            .into_iter()
            .filter(|&v| v <= self)
            .map(Version::protocol_id)
            .collect();
        ids.push("/meshsub/1.0.0");
        ids
    }
}

impl Version {
    /// v1.2 and later speak IDONTWANT.
    pub fn idontwant(self) -> bool {
        self >= Version::V1_2
    }
    /// v2.0 speaks IANNOUNCE and INEED.
    pub fn announce(self) -> bool {
        self >= Version::V2_0
    }
}

/// Which messages carry an author and a signature (libp2p pubsub signature policies).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SignaturePolicy {
    /// Messages carry `from`, an 8-byte `seqno` and a `signature` by `from`'s key; others are
    /// invalid. The host signs and verifies (the default of go-libp2p-pubsub and js-libp2p).
    StrictSign,
    /// Messages carry only data and topic (Ethereum, and the Shadow study of seed 002).
    #[default]
    StrictNoSign,
}

/// How a message's id derives from the message (the host's `msgIdFn`; every peer on a topic
/// must use the same one).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MessageIdFn {
    /// SHA-256 of the data: the same bytes are the same message, whoever publishes them.
    #[default]
    Content,
    /// `from` followed by `seqno` (go-libp2p-pubsub's default).
    FromSeqno,
    /// The author's public key in protobuf form followed by `seqno` (js-libp2p's default
    /// under StrictSign).
    KeySeqno,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct GossipsubConfig {
    pub version: Version,
    /// Topics the node joins; it publishes on the first.
    pub topics: Vec<String>,
    /// Whether messages are signed (the simulator charges the bytes of the fields it adds).
    pub signature_policy: SignaturePolicy,
    /// How message ids are derived (on a live network).
    pub message_id: MessageIdFn,
    /// Desired mesh degree (v1.0: 6).
    pub d: u32,
    /// Graft below this many mesh peers (v1.0: 4).
    pub d_lo: u32,
    /// Prune above this many mesh peers (v1.0: 12).
    pub d_hi: u32,
    /// Minimum number of peers gossip is emitted to (v1.0: 6).
    pub d_lazy: u32,
    /// Mesh peers kept by score when pruning for oversubscription (v1.1: 4 for D = 6).
    pub d_score: u32,
    /// v2.0: expected number of mesh peers a message is sent to lazily (draft: 4). At most d.
    pub d_announce: u32,
    /// Heartbeat period (v1.0: 1 s).
    pub heartbeat_ms: u64,
    /// Delay of the first heartbeat after start (go-libp2p: 100 ms); a random phase of up to
    /// one heartbeat is added so that nodes do not beat in lockstep.
    pub heartbeat_initial_delay_ms: u64,
    /// Number of heartbeat windows in the message cache (v1.0: 5).
    pub mcache_len: u32,
    /// Number of the most recent windows whose ids are gossiped (v1.0: 3).
    pub mcache_gossip: u32,
    /// How long a message id is remembered as seen (v1.0: 2 min).
    pub seen_ttl_ms: u64,
    /// How long a pruned peer may not be re-grafted (v1.1: 1 min).
    pub prune_backoff_ms: u64,
    /// A GRAFT this soon after our PRUNE costs an extra penalty (go-libp2p: 10 s).
    pub graft_flood_threshold_ms: u64,
    /// Publish own messages to every subscribed peer, not only the mesh (v1.1: true).
    pub flood_publish: bool,
    /// Graft a peer the moment it subscribes while the mesh is below D_lo, as
    /// @libp2p/gossipsub (17) does, instead of waiting for the heartbeat (the specs).
    pub graft_on_subscribe: bool,
    /// Whether this node subscribes to the topic (a pure publisher uses a fanout set).
    pub subscribe: bool,
    /// How long the fanout set is kept after the last publish (v1.0: 60 s).
    pub fanout_ttl_ms: u64,
    /// Fraction of non-mesh peers gossip is emitted to, at least d_lazy (v1.1: 0.25).
    pub gossip_factor: f64,
    /// How often one peer may fetch the same message by IWANT (go-libp2p: 3).
    pub gossip_retransmission: u32,
    /// Most message ids in one IHAVE, and most ids asked from one peer per heartbeat
    /// (go-libp2p: 5000).
    pub max_ihave_length: u32,
    /// Most IHAVE messages accepted from one peer per heartbeat (go-libp2p: 10).
    pub max_ihave_messages: u32,
    /// Time to receive a message asked for by IWANT before the promise counts as broken
    /// (go-libp2p: 3 s).
    pub iwant_followup_ms: u64,
    /// v1.2: send IDONTWANT for messages of at least this many bytes (go-libp2p: 1 KiB).
    pub idontwant_threshold_bytes: u32,
    /// v1.2: most IDONTWANT messages accepted from one peer per heartbeat (go-libp2p:
    /// 1000). Each txcast IDONTWANT carries one id.
    pub max_idontwant_per_heartbeat: u32,
    /// v1.2: heartbeats an IDONTWANT is remembered (go-libp2p: 3).
    pub idontwant_ttl_heartbeats: u32,
    /// v2.0: how long to wait for a message after an INEED (draft: 400 ms).
    pub ineed_timeout_ms: u64,
    /// v2.0: behaviour-penalty count added to a peer whose INEED timed out; 0 turns it off.
    pub ineed_timeout_penalty: f64,
    /// v2.0: most IANNOUNCEs accepted from one peer per heartbeat.
    pub max_iannounce_per_heartbeat: u32,
    /// Score: weight of P4 (invalid messages, squared). Negative.
    pub invalid_message_weight: f64,
    /// Score: weight of P7 (behaviour penalty, squared). Negative.
    pub behaviour_penalty_weight: f64,
    /// Score: behaviour penalties up to this count cost nothing (go-libp2p's
    /// BehaviourPenaltyThreshold), so one slow answer does not push an honest peer out.
    pub behaviour_penalty_threshold: f64,
    /// Score: factor the P4 and P7 counters are multiplied by each second.
    pub score_decay_per_s: f64,
    /// Below this score no gossip is sent to or accepted from a peer.
    pub gossip_threshold: f64,
    /// Below this score own messages are not flood-published to a peer.
    pub publish_threshold: f64,
    /// Below this score every message from a peer is ignored.
    pub graylist_threshold: f64,
}

impl Default for GossipsubConfig {
    fn default() -> Self {
        GossipsubConfig {
            version: Version::V2_0,
            topics: vec![super::rpc::TOPIC.to_string()],
            signature_policy: SignaturePolicy::StrictNoSign,
            message_id: MessageIdFn::Content,
            d: 6,
            d_lo: 4,
            d_hi: 12,
            d_lazy: 6,
            d_score: 4,
            d_announce: 4,
            heartbeat_ms: 1_000,
            heartbeat_initial_delay_ms: 100,
            mcache_len: 5,
            mcache_gossip: 3,
            seen_ttl_ms: 120_000,
            prune_backoff_ms: 60_000,
            graft_flood_threshold_ms: 10_000,
            flood_publish: true,
            graft_on_subscribe: false,
            subscribe: true,
            fanout_ttl_ms: 60_000,
            gossip_factor: 0.25,
            gossip_retransmission: 3,
            max_ihave_length: 5_000,
            max_ihave_messages: 10,
            iwant_followup_ms: 3_000,
            idontwant_threshold_bytes: 1_024,
            max_idontwant_per_heartbeat: 1_000,
            idontwant_ttl_heartbeats: 3,
            ineed_timeout_ms: 400,
            ineed_timeout_penalty: 1.0,
            max_iannounce_per_heartbeat: 5_000,
            invalid_message_weight: -100.0,
            behaviour_penalty_weight: -10.0,
            behaviour_penalty_threshold: 0.0,
            score_decay_per_s: 0.9,
            gossip_threshold: -40.0,
            publish_threshold: -80.0,
            graylist_threshold: -160.0,
        }
    }
}

/// A configuration that cannot work, with the field at fault.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigError {
    pub field: &'static str,
    pub why: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "gossipsub.{}: {}", self.field, self.why)
    }
}

impl std::error::Error for ConfigError {}

/// Upper bounds that keep every derived quantity small (ids per heartbeat, timers).
const MAX_DEGREE: u32 = 1_000;
const MAX_WINDOWS: u32 = 1_000;
const MAX_MS: u64 = 24 * 3_600 * 1_000;

fn err(field: &'static str, why: impl Into<String>) -> Result<(), ConfigError> {
    Err(ConfigError {
        field,
        why: why.into(),
    })
}

impl GossipsubConfig {
    /// Checks the relations the specs require; the scenario loader reports these errors.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.topics.is_empty() || self.topics.len() > 16 {
            return err("topics", "name between 1 and 16 topics");
        }
        if self
            .topics
            .iter()
            .any(|t| t.is_empty() || t.len() > super::topics::MAX_TOPIC_BYTES)
        {
            return err("topics", "a topic name has 1 to 256 bytes");
        }
        if self.d > MAX_DEGREE || self.d_hi > MAX_DEGREE || self.d_lazy > MAX_DEGREE {
            return err("d", "degrees must be at most 1000");
        }
        if self.d_lo > self.d || self.d > self.d_hi {
            let (lo, d, hi) = (self.d_lo, self.d, self.d_hi);
            return err(
                "d",
                format!("need d_lo <= d <= d_hi; here d_lo {lo}, d {d}, d_hi {hi}"),
            );
        }
        if self.d_score > self.d {
            return err("d_score", "must be at most d");
        }
        if self.d_announce > self.d {
            return err("d_announce", "must be at most d (v2.0)");
        }
        if self.heartbeat_ms == 0 || self.heartbeat_ms > MAX_MS {
            return err("heartbeat_ms", "must be between 1 ms and 24 h");
        }
        if self.mcache_len == 0 || self.mcache_len > MAX_WINDOWS {
            return err("mcache_len", "must be between 1 and 1000");
        }
        if self.mcache_gossip > self.mcache_len {
            return err("mcache_gossip", "must be at most mcache_len");
        }
        for (field, ms) in [
            (
                "heartbeat_initial_delay_ms",
                self.heartbeat_initial_delay_ms,
            ),
            ("seen_ttl_ms", self.seen_ttl_ms),
            ("prune_backoff_ms", self.prune_backoff_ms),
            ("graft_flood_threshold_ms", self.graft_flood_threshold_ms),
            ("fanout_ttl_ms", self.fanout_ttl_ms),
            ("iwant_followup_ms", self.iwant_followup_ms),
            ("ineed_timeout_ms", self.ineed_timeout_ms),
        ] {
            if ms > MAX_MS {
                return err(field, "must be at most 24 h");
            }
        }
        if self.ineed_timeout_ms == 0 {
            return err("ineed_timeout_ms", "must be positive");
        }
        if !(0.0..=1.0).contains(&self.gossip_factor) {
            return err("gossip_factor", "must be in [0, 1]");
        }
        if !(0.0..1.0).contains(&self.score_decay_per_s) {
            return err("score_decay_per_s", "must be in [0, 1)");
        }
        if !(self.behaviour_penalty_threshold >= 0.0 && self.behaviour_penalty_threshold <= 1e6) {
            return err("behaviour_penalty_threshold", "must be in [0, 1e6]");
        }
        if !(self.ineed_timeout_penalty >= 0.0 && self.ineed_timeout_penalty <= 1e6) {
            return err("ineed_timeout_penalty", "must be in [0, 1e6]");
        }
        let non_positive = |w: f64| (f64::NEG_INFINITY..=0.0).contains(&w);
        if !non_positive(self.invalid_message_weight)
            || !non_positive(self.behaviour_penalty_weight)
        {
            return err("behaviour_penalty_weight", "penalty weights must be <= 0");
        }
        if !(self.graylist_threshold <= self.publish_threshold
            && self.publish_threshold <= self.gossip_threshold
            && self.gossip_threshold <= 0.0)
        {
            return err(
                "gossip_threshold",
                "need graylist <= publish <= gossip <= 0",
            );
        }
        Ok(())
    }
}

/// Bytes StrictSign adds to an Ed25519 node's message: `from` (a 38-byte identity multihash),
/// an 8-byte `seqno` and a 64-byte signature, each with a tag and a length byte (the public key
/// is inside `from`, so no `key` field).
pub const ENVELOPE_STRICT_SIGN: u16 = (2 + 38) + (2 + 8) + (2 + 64);

/// The configuration as the router uses it: durations typed, and every value forced into
/// a workable range so that `Protocol::new`, which cannot fail, never builds a broken node.
#[derive(Clone, Debug)]
pub(crate) struct Params {
    pub version: Version,
    /// Bytes of the `from`, `seqno` and `signature` fields of own messages.
    pub own_envelope: u16,
    pub d: usize,
    pub d_lo: usize,
    pub d_hi: usize,
    pub d_lazy: usize,
    pub d_score: usize,
    pub d_announce: u32,
    pub heartbeat: Dur,
    pub heartbeat_initial_delay: Dur,
    pub mcache_len: usize,
    pub mcache_gossip: usize,
    pub seen_ttl: Dur,
    pub prune_backoff: Dur,
    pub graft_flood_threshold: Dur,
    pub flood_publish: bool,
    pub graft_on_subscribe: bool,
    pub subscribe: bool,
    pub fanout_ttl: Dur,
    pub gossip_factor: f64,
    pub gossip_retransmission: u32,
    pub max_ihave_length: usize,
    pub max_ihave_messages: u32,
    pub iwant_followup: Dur,
    pub idontwant_threshold_bytes: u32,
    pub max_idontwant_per_heartbeat: u32,
    pub idontwant_ttl_heartbeats: u32,
    pub ineed_timeout: Dur,
    pub ineed_timeout_penalty: f64,
    pub max_iannounce_per_heartbeat: u32,
    pub invalid_message_weight: f64,
    pub behaviour_penalty_weight: f64,
    pub behaviour_penalty_threshold: f64,
    /// Decay applied once per heartbeat (score_decay_per_s ^ heartbeat seconds).
    pub decay_per_heartbeat: f64,
    pub gossip_threshold: f64,
    pub publish_threshold: f64,
    pub graylist_threshold: f64,
}

fn finite_or(x: f64, fallback: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        fallback
    }
}

thread_local! {
    /// The parameters last built, with the configuration they were built from.
    static LAST_BUILT: LastBuilt<GossipsubConfig, Arc<Params>> = const { RefCell::new(None) };
}

impl Params {
    /// The parameters for `c`, one copy for every node built from an equal configuration in a
    /// row (the nodes of a run): a copy per node would cost each message several cache misses
    /// on networks too big for the CPU's caches (100,000 nodes: about 10% of the run).
    pub fn shared(c: &GossipsubConfig) -> Arc<Params> {
        reuse_or_build(&LAST_BUILT, c, || Arc::new(Params::from_config(c)))
    }

    pub fn from_config(c: &GossipsubConfig) -> Params {
        let ms = |v: u64| Dur::from_millis(v.min(MAX_MS));
        let d_hi = c.d_hi.min(MAX_DEGREE) as usize;
        let d = (c.d as usize).min(d_hi);
        let d_lo = (c.d_lo as usize).min(d);
        let mcache_len = c.mcache_len.clamp(1, MAX_WINDOWS) as usize;
        let heartbeat = ms(c.heartbeat_ms.max(1));
        let decay = finite_or(c.score_decay_per_s, 0.9).clamp(0.0, 0.999_999);
        let gossip = finite_or(c.gossip_threshold, 0.0).min(0.0);
        let publish = finite_or(c.publish_threshold, gossip).min(gossip);
        let graylist = finite_or(c.graylist_threshold, publish).min(publish);
        Params {
            version: c.version,
            own_envelope: match c.signature_policy {
                SignaturePolicy::StrictNoSign => 0,
                SignaturePolicy::StrictSign => ENVELOPE_STRICT_SIGN,
            },
            d,
            d_lo,
            d_hi,
            d_lazy: c.d_lazy.min(MAX_DEGREE) as usize,
            d_score: (c.d_score as usize).min(d),
            d_announce: c.d_announce.min(d as u32),
            heartbeat,
            heartbeat_initial_delay: ms(c.heartbeat_initial_delay_ms),
            mcache_len,
            mcache_gossip: (c.mcache_gossip as usize).min(mcache_len),
            seen_ttl: ms(c.seen_ttl_ms),
            prune_backoff: ms(c.prune_backoff_ms),
            graft_flood_threshold: ms(c.graft_flood_threshold_ms),
            flood_publish: c.flood_publish,
            graft_on_subscribe: c.graft_on_subscribe,
            subscribe: c.subscribe,
            fanout_ttl: ms(c.fanout_ttl_ms),
            gossip_factor: finite_or(c.gossip_factor, 0.25).clamp(0.0, 1.0),
            gossip_retransmission: c.gossip_retransmission,
            max_ihave_length: c.max_ihave_length.min(1_000_000) as usize,
            max_ihave_messages: c.max_ihave_messages,
            iwant_followup: ms(c.iwant_followup_ms),
            idontwant_threshold_bytes: c.idontwant_threshold_bytes,
            max_idontwant_per_heartbeat: c.max_idontwant_per_heartbeat,
            idontwant_ttl_heartbeats: c.idontwant_ttl_heartbeats.min(MAX_WINDOWS),
            ineed_timeout: ms(c.ineed_timeout_ms.max(1)),
            ineed_timeout_penalty: finite_or(c.ineed_timeout_penalty, 0.0).clamp(0.0, 1e6),
            max_iannounce_per_heartbeat: c.max_iannounce_per_heartbeat,
            invalid_message_weight: finite_or(c.invalid_message_weight, 0.0).min(0.0),
            behaviour_penalty_weight: finite_or(c.behaviour_penalty_weight, 0.0).min(0.0),
            behaviour_penalty_threshold: finite_or(c.behaviour_penalty_threshold, 0.0)
                .clamp(0.0, 1e6),
            decay_per_heartbeat: libm::pow(decay, heartbeat.as_secs_f64()),
            gossip_threshold: gossip,
            publish_threshold: publish,
            graylist_threshold: graylist,
        }
    }

    pub fn idontwant(&self) -> bool {
        self.version.idontwant()
    }

    pub fn announce(&self) -> bool {
        self.version.announce()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_configs_share_parameters_and_a_changed_one_gets_its_own() {
        let a = GossipsubConfig::default();
        let (first, second) = (Params::shared(&a), Params::shared(&a.clone()));
        assert!(Arc::ptr_eq(&first, &second));
        let b = GossipsubConfig {
            d: 8,
            d_hi: 12,
            ..a.clone()
        };
        let changed = Params::shared(&b);
        assert!(!Arc::ptr_eq(&first, &changed));
        assert_eq!((first.d, changed.d), (6, 8));
        assert_eq!(
            Params::shared(&a).d,
            6,
            "back to the first: built again, not stale"
        );
    }

    #[test]
    fn defaults_are_valid_and_follow_the_specs() {
        let c = GossipsubConfig::default();
        assert_eq!(c.validate(), Ok(()));
        assert_eq!((c.d, c.d_lo, c.d_hi, c.d_lazy), (6, 4, 12, 6));
        assert_eq!(
            (c.mcache_len, c.mcache_gossip, c.seen_ttl_ms),
            (5, 3, 120_000)
        );
        assert_eq!((c.d_announce, c.ineed_timeout_ms), (4, 400));
    }

    #[test]
    fn broken_relations_are_reported() {
        let c = GossipsubConfig {
            d_announce: 9,
            d: 8,
            ..Default::default()
        };
        assert_eq!(c.validate().unwrap_err().field, "d_announce");
        let c = GossipsubConfig {
            d_lo: 7,
            ..Default::default()
        };
        assert_eq!(c.validate().unwrap_err().field, "d");
        let c = GossipsubConfig {
            mcache_gossip: 6,
            ..Default::default()
        };
        assert_eq!(c.validate().unwrap_err().field, "mcache_gossip");
        let c = GossipsubConfig {
            gossip_factor: f64::NAN,
            ..Default::default()
        };
        assert_eq!(c.validate().unwrap_err().field, "gossip_factor");
    }

    #[test]
    fn params_clamp_what_validate_would_reject() {
        let c = GossipsubConfig {
            d: 50,
            d_hi: 10,
            d_announce: 99,
            mcache_len: 0,
            mcache_gossip: 9,
            heartbeat_ms: 0,
            score_decay_per_s: f64::INFINITY,
            ..Default::default()
        };
        let p = Params::from_config(&c);
        assert_eq!((p.d, p.d_hi, p.d_announce), (10, 10, 10));
        assert_eq!((p.mcache_len, p.mcache_gossip), (1, 1));
        assert!(p.heartbeat > Dur::ZERO);
        assert!(p.decay_per_heartbeat < 1.0);
    }

    #[test]
    fn protocol_ids_are_offered_best_first_and_read_back() {
        assert_eq!(
            Version::V2_0.protocol_ids(),
            [
                "/meshsub/2.0.0",
                "/meshsub/1.2.0",
                "/meshsub/1.1.0",
                "/meshsub/1.0.0"
            ]
        );
        assert_eq!(
            Version::V1_2.protocol_ids(),
            ["/meshsub/1.2.0", "/meshsub/1.1.0", "/meshsub/1.0.0"]
        );
        for v in [Version::V1_1, Version::V1_2, Version::V2_0] {
            assert_eq!(Version::of_protocol_id(v.protocol_id()), Some(v));
        }
        assert_eq!(
            Version::of_protocol_id("/meshsub/1.0.0"),
            Some(Version::V1_1)
        );
        assert_eq!(Version::of_protocol_id("/floodsub/1.0.0"), None);
    }

    #[test]
    fn versions_read_as_the_spec_names() {
        let v: Version = serde_json_like("\"v1.2\"");
        assert_eq!(v, Version::V1_2);
    }

    /// proto has no serde_json dependency; the derive is checked through serde's
    /// value-free deserializer for a plain string.
    fn serde_json_like(s: &str) -> Version {
        use serde::de::value::{Error, StrDeserializer};
        use serde::de::IntoDeserializer;
        let inner = s.trim_matches('"');
        let de: StrDeserializer<'_, Error> = inner.into_deserializer();
        Version::deserialize(de).unwrap()
    }
}
