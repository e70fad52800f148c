//! The scenario file: what network, what load, what adversaries, which protocols to compare.
//! These types are the source of truth for `scenarios/schema.json`. Units are in field names.

use crate::events::TimedEvent;
use crate::tagged::kind_tagged;
use proto::Behaviour;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Short title shown in the UI and reports.
    pub name: String,
    /// What the scenario shows, in a sentence or two.
    #[serde(default)]
    pub description: String,
    /// Master seed; every random choice derives from it.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Number of nodes.
    #[schemars(range(min = 2, max = crate::load::MAX_NODES))]
    pub nodes: u32,
    pub topology: Topology,
    #[serde(default)]
    pub latency: Latency,
    #[serde(default)]
    pub bandwidth: Bandwidth,
    #[serde(default)]
    pub links: LinkOptions,
    /// Delay added before a node handles each incoming message.
    #[serde(default)]
    pub processing_delay_ms: f64,
    pub workload: Workload,
    #[serde(default)]
    pub adversaries: Vec<AdversarySet>,
    /// Changes to the network while it runs, in time order: behaviours switched, nodes leaving
    /// and joining, churn, partitions and heals, loss, load.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<TimedEvent>,
    /// Simulated time after the workload ends, for the last transactions to spread.
    #[serde(default = "default_drain_ms")]
    pub drain_ms: f64,
    /// One run per entry, all on the same network, load and seed.
    pub protocols: Vec<ProtocolSpec>,
}

fn default_seed() -> u64 {
    1
}

fn default_drain_ms() -> f64 {
    10_000.0
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Topology {
    RandomRegular(RandomRegular),
    Gnm(Gnm),
    Explicit(Explicit),
}

kind_tagged!(Topology { "random_regular" => RandomRegular, "gnm" => Gnm, "explicit" => Explicit });

/// Every node has exactly `degree` peers, drawn uniformly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RandomRegular {
    pub degree: u32,
}

/// `edges` distinct links drawn uniformly (Erdos-Renyi G(n, m)).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Gnm {
    pub edges: u32,
}

/// The given links; `latency_ms` overrides the latency model for that link.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Explicit {
    pub edges: Vec<ExplicitEdge>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExplicitEdge {
    pub a: u32,
    pub b: u32,
    #[serde(default)]
    pub latency_ms: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Latency {
    Constant(ConstantLatency),
    Lognormal(LognormalLatency),
    Geographic(GeographicLatency),
}

kind_tagged!(Latency {
    "constant" => Constant,
    "lognormal" => Lognormal,
    "geographic" => Geographic,
});

/// The same one-way latency on every link.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConstantLatency {
    pub ms: f64,
}

/// One-way latency per link drawn from a log-normal distribution (Strokkur §5.5 uses median
/// 70 ms, sigma 0.5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LognormalLatency {
    pub median_ms: f64,
    pub sigma: f64,
}

/// Nodes placed in world cities; latency from great-circle distance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GeographicLatency {
    /// Route inflation over the straight fibre path; default calibrated to a 70 ms median.
    #[serde(default)]
    pub stretch: Option<f64>,
    /// Fixed per-link latency added to the propagation delay.
    #[serde(default)]
    pub base_ms: f64,
}

impl Default for Latency {
    fn default() -> Self {
        Latency::Lognormal(LognormalLatency {
            median_ms: 70.0,
            sigma: 0.5,
        })
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Bandwidth {
    /// Classes of nodes by share; nodes not covered (or all, if empty) have unlimited bandwidth.
    #[serde(default)]
    pub classes: Vec<BandwidthClass>,
    /// Per-node settings applied after the classes (e.g. the publisher at 1 Gbit/s).
    #[serde(default)]
    pub overrides: Vec<BandwidthOverride>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BandwidthClass {
    /// Share of nodes in this class, in [0, 1].
    pub fraction: f64,
    #[schemars(range(min = crate::load::MIN_MBPS, max = crate::load::MAX_MBPS))]
    pub up_mbps: f64,
    #[schemars(range(min = crate::load::MIN_MBPS, max = crate::load::MAX_MBPS))]
    pub down_mbps: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BandwidthOverride {
    pub node: u32,
    #[schemars(range(min = crate::load::MIN_MBPS, max = crate::load::MAX_MBPS))]
    pub up_mbps: f64,
    #[schemars(range(min = crate::load::MIN_MBPS, max = crate::load::MAX_MBPS))]
    pub down_mbps: f64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkOptions {
    /// Probability that a message is lost in transit, in [0, 0.99].
    #[serde(default)]
    #[schemars(range(min = 0, max = 0.99))]
    pub loss: f64,
    /// Extra one-way delay per message, uniform in [0, jitter_ms).
    #[serde(default)]
    pub jitter_ms: f64,
    /// How a node's uplink and downlink are shared among the messages on them.
    #[serde(default, skip_serializing_if = "Sharing::is_fifo")]
    pub sharing: Sharing,
    /// TCP's slow start on every connection (needs `sharing` "fair").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp: Option<Tcp>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Sharing {
    /// One message at a time at the link's full rate, in the order sent.
    #[default]
    Fifo,
    /// Each connection with bytes to send is one flow through its sender's uplink and its
    /// receiver's downlink at once (pipelined, as TCP's), at the lesser of the equal shares
    /// the two give it; messages on one connection go in order.
    Fair,
    /// As "fair", with the flows' rates max-min fair across the network: a flow held back at
    /// one end leaves the rest of the other end's capacity to the flows there. Exact, but each
    /// start or stop rates again every flow linked to it through busy ports: far slower on
    /// big, busy networks.
    MaxMin,
}

impl Sharing {
    pub fn is_fifo(&self) -> bool {
        *self == Sharing::Fifo
    }
}

/// A connection's congestion window: it starts at `initial_window_segments` segments of
/// 1,460 bytes and doubles every round trip while it is used (slow start); a connection idle
/// for longer than its retransmission timeout starts again from the initial window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Tcp {
    #[serde(default = "yes")]
    pub slow_start: bool,
    /// RFC 6928's 10 by default.
    #[serde(default = "ten")]
    pub initial_window_segments: u32,
}

fn yes() -> bool {
    true
}

fn ten() -> u32 {
    10
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Workload {
    Poisson(Poisson),
    Burst(Burst),
}

kind_tagged!(Workload { "poisson" => Poisson, "burst" => Burst });

/// Transactions created at Poisson times at honest nodes chosen uniformly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Poisson {
    /// Total creation rate over the network, in transactions per second.
    pub total_tps: f64,
    /// Creation stops after this much simulated time...
    pub duration_ms: f64,
    /// ...or after this many transactions, whichever comes first.
    #[serde(default)]
    pub max_txs: Option<u64>,
    /// Size of every transaction; with `tx_size`, the smallest (uniform) or median (log-normal).
    #[schemars(range(min = 1, max = crate::load::MAX_TX_BYTES))]
    pub tx_bytes: u32,
    /// Draw sizes from a distribution instead of using `tx_bytes` for all.
    #[serde(default)]
    pub tx_size: Option<TxSize>,
    /// Changes of `total_tps` during the run (Strokkur Fig. 11: 1,250 -> 2,000 -> 1,250 tps).
    #[serde(default)]
    pub rate_steps: Vec<RateStep>,
}

#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TxSize {
    Uniform(UniformSize),
    Lognormal(LognormalSize),
}

kind_tagged!(TxSize { "uniform" => Uniform, "lognormal" => Lognormal });

/// Sizes uniform in [tx_bytes, max_bytes].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UniformSize {
    pub max_bytes: u32,
}

/// Sizes log-normal with median tx_bytes, capped at max_bytes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LognormalSize {
    pub sigma: f64,
    pub max_bytes: u32,
}

/// From `at_ms` on, transactions are created at `total_tps`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RateStep {
    pub at_ms: f64,
    pub total_tps: f64,
}

/// One publisher sends `count` messages of `tx_bytes`, `interval_ms` apart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Burst {
    #[serde(default)]
    pub publisher: u32,
    pub count: u32,
    #[schemars(range(min = 1, max = crate::load::MAX_TX_BYTES))]
    pub tx_bytes: u32,
    #[serde(default)]
    pub interval_ms: f64,
    #[serde(default)]
    pub start_ms: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AdversarySet {
    /// Share of nodes drawn at random (never a burst publisher)...
    #[serde(default)]
    pub fraction: Option<f64>,
    /// ...or these nodes.
    #[serde(default)]
    pub nodes: Option<Vec<u32>>,
    pub behaviour: Behaviour,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProtocolSpec {
    /// Name of the run in reports; defaults to the protocol name, must be unique.
    #[serde(default)]
    pub label: Option<String>,
    /// One of the registered protocols (see `txsim protocols`).
    pub protocol: String,
    /// The protocol's options; omitted fields take their defaults.
    #[serde(default = "empty_object")]
    pub config: serde_json::Value,
    /// This run's own adversaries instead of the scenario's (same network and seed), for
    /// sweeps such as 0 to 50% silent nodes in one file.
    #[serde(default)]
    pub adversaries: Option<Vec<AdversarySet>>,
    /// This run's own workload instead of the scenario's (e.g. 1 to 64 messages).
    #[serde(default)]
    pub workload: Option<Workload>,
    /// This run's own timed events instead of the scenario's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<TimedEvent>>,
}

fn empty_object() -> serde_json::Value {
    serde_json::Value::Object(Default::default())
}

impl ProtocolSpec {
    /// A run of `protocol` with its default config and the scenario's adversaries and load.
    pub fn named(protocol: &str) -> ProtocolSpec {
        ProtocolSpec {
            label: None,
            protocol: protocol.into(),
            config: empty_object(),
            adversaries: None,
            workload: None,
            events: None,
        }
    }

    pub fn label(&self) -> &str {
        self.label.as_deref().unwrap_or(&self.protocol)
    }
}
