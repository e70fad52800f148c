//! Running a scenario: build the network and load once, then one engine per protocol entry,
//! and the report that comes out. `Run` erases the protocol type so the CLI and the WASM
//! bindings can step any protocol the same way.

use crate::detail::{name_peers, NodeDetail};
use crate::engine::{Engine, EngineOptions, TraceSink};
use crate::load::{err, ScenarioError};
use crate::metrics::{CounterReport, Metrics, Summary};
use crate::network::Network;
use crate::phases::{phases, Phase};
use crate::scenario::Scenario;
use crate::step::StepSink;
use crate::workload::TxPlan;
use proto::registry::ConfigCheck;
use proto::strokkur::{PeelStep, Strokkur};
use proto::Protocol;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A scenario ready to run: its network and its load, shared by every protocol run.
pub struct Prepared {
    pub scenario: Scenario,
    pub net: Arc<Network>,
    pub plan: Arc<TxPlan>,
}

impl Prepared {
    pub fn new(scenario: Scenario) -> Result<Prepared, ScenarioError> {
        let net = Network::build(&scenario)?;
        let plan = TxPlan::build(&scenario, &net);
        Ok(Prepared {
            scenario,
            net: Arc::new(net),
            plan: Arc::new(plan),
        })
    }

    /// The network and load of run `index`: the scenario's own, or rebuilt (same graph and
    /// seed) with the run's own adversaries, workload or events.
    pub fn for_run(&self, index: usize) -> Result<(Arc<Network>, Arc<TxPlan>), ScenarioError> {
        let spec = &self.scenario.protocols[index];
        if spec.adversaries.is_none() && spec.workload.is_none() && spec.events.is_none() {
            return Ok((Arc::clone(&self.net), Arc::clone(&self.plan)));
        }
        let mut scenario = self.scenario.clone();
        if let Some(sets) = &spec.adversaries {
            scenario.adversaries = sets.clone();
        }
        if let Some(workload) = &spec.workload {
            scenario.workload = workload.clone();
        }
        if let Some(events) = &spec.events {
            scenario.events = events.clone();
        }
        let net = Network::build(&scenario)
            .map_err(|e| err(format!("protocols[{index}].{}", e.path), e.message))?;
        let plan = TxPlan::build(&scenario, &net);
        Ok((Arc::new(net), Arc::new(plan)))
    }

    /// The same network and load under another seed.
    pub fn with_seed(mut scenario: Scenario, seed: Option<u64>) -> Result<Prepared, ScenarioError> {
        if let Some(seed) = seed {
            scenario.seed = seed;
        }
        Prepared::new(scenario)
    }
}

/// One protocol run in progress, whatever the protocol.
pub trait Run {
    /// Process events up to `t_us`; false once the run is over.
    fn run_until(&mut self, t_us: u64) -> bool;
    /// Process events up to `t_us` but at most `max_events` of them; false once it is over.
    fn run_bounded(&mut self, t_us: u64, max_events: u64) -> bool;
    fn now_us(&self) -> u64;
    fn end_us(&self) -> u64;
    fn events(&self) -> u64;
    /// The node's protocol state, for the inspector.
    fn inspect(&self, node: usize) -> Vec<(&'static str, String)>;
    /// The node's per-peer and per-tx state, peers named by node.
    fn detail(&self, node: usize) -> NodeDetail;
    /// What the run has measured so far; the arrivals the engine buffers are written to the
    /// logs first.
    fn metrics(&mut self) -> &Metrics;
    fn set_trace(&mut self, sink: TraceSink);
    /// Record every input handled from now on (`engine::Engine::set_steps`).
    fn set_steps(&mut self, sink: StepSink);
    /// Watch a Strokkur node's decoder peel from now on; false for another protocol, or once
    /// its decoder has learned a symbol.
    fn watch_decoder(&mut self, node: usize) -> bool;
    /// The watched decoder's steps, senders named by node.
    fn peeling(&self, node: usize) -> Option<NodePeeling>;
    fn finish(self: Box<Self>) -> Finished;
}

pub struct Finished {
    pub metrics: Metrics,
    pub digest: String,
    pub events: u64,
}

/// A watched Strokkur decoder's peeling (`ltcode::Peeling`), for the page.
#[derive(Clone, Debug, PartialEq)]
pub struct NodePeeling {
    pub steps: Vec<PeelStep>,
    /// Each decoder sender handle's node (u32::MAX for one that stands for nobody now).
    pub senders: Vec<u32>,
    /// The tx each whole-tx symbol is, by `seq`.
    pub txs: BTreeMap<u64, u64>,
}

struct Typed<P: Protocol>(Engine<P>);

impl<P: Protocol + 'static> Run for Typed<P> {
    fn run_until(&mut self, t_us: u64) -> bool {
        self.0.run_until(t_us)
    }
    fn run_bounded(&mut self, t_us: u64, max_events: u64) -> bool {
        self.0.run_bounded(t_us, max_events)
    }
    fn now_us(&self) -> u64 {
        self.0.now_us()
    }
    fn end_us(&self) -> u64 {
        self.0.end_us()
    }
    fn events(&self) -> u64 {
        self.0.events()
    }
    fn inspect(&self, node: usize) -> Vec<(&'static str, String)> {
        self.0.node(node).inspect()
    }
    fn detail(&self, node: usize) -> NodeDetail {
        let now = proto::Time(self.0.now_us());
        name_peers(self.0.network(), node, self.0.node(node).detail(now))
    }
    fn metrics(&mut self) -> &Metrics {
        self.0.metrics.flush_arrivals();
        &self.0.metrics
    }
    fn set_trace(&mut self, sink: TraceSink) {
        self.0.set_trace(sink)
    }
    fn set_steps(&mut self, sink: StepSink) {
        self.0.set_steps(sink)
    }
    fn watch_decoder(&mut self, node: usize) -> bool {
        let any: &mut dyn Any = self.0.node_mut(node);
        any.downcast_mut::<Strokkur>()
            .is_some_and(Strokkur::watch_decoder)
    }
    fn peeling(&self, node: usize) -> Option<NodePeeling> {
        let any: &dyn Any = self.0.node(node);
        let s = any.downcast_ref::<Strokkur>()?;
        let (steps, txs) = s.peeling()?;
        let net = self.0.network();
        let handles = steps.iter().filter_map(|st| match st {
            PeelStep::Arrived { sender, .. } => Some(*sender),
            _ => None,
        });
        let count = handles.max().map_or(0, |h| h as usize + 1);
        let senders = (0..count as u32)
            .map(|h| match s.sender_peer(h) {
                Some(p) if p.idx() < net.degree(node) => net.edges[net.edge(node, p.0)].peer,
                _ => u32::MAX,
            })
            .collect();
        Some(NodePeeling {
            steps: steps.to_vec(),
            senders,
            txs: txs.iter().map(|(&seq, tx)| (seq, tx.0)).collect(),
        })
    }
    fn finish(self: Box<Self>) -> Finished {
        let (metrics, digest, events) = self.0.finish();
        Finished {
            metrics,
            digest,
            events,
        }
    }
}

/// A run about to start, with its configuration resolved (defaults filled in).
pub struct Started {
    pub label: String,
    pub protocol: String,
    pub config: serde_json::Value,
    /// The run's network and load (the scenario's, unless the run overrides them).
    pub net: Arc<Network>,
    pub plan: Arc<TxPlan>,
    pub run: Box<dyn Run>,
}

/// Parse protocol entry `index`'s config (defaults filled in), let the registry adjust it for
/// a variant name, and check the rules its type cannot express.
pub fn parse_config<P>(
    prep: &Prepared,
    index: usize,
    adjust: fn(&mut P::Config),
    check: ConfigCheck<P::Config>,
) -> Result<P::Config, ScenarioError>
where
    P: Protocol,
    P::Config: DeserializeOwned,
{
    let spec = &prep.scenario.protocols[index];
    let path = format!("protocols[{index}].config");
    let mut config: P::Config =
        serde_path_to_error::deserialize(spec.config.clone()).map_err(|e| {
            let inner = e.path().to_string();
            let at = if inner == "." {
                path.clone()
            } else {
                format!("{path}.{inner}")
            };
            err(at, e.into_inner().to_string())
        })?;
    adjust(&mut config);
    check(&config).map_err(|(field, why)| err(format!("{path}.{field}"), why))?;
    // A run that could deliver nothing is a mistake, not a result.
    let shortest = prep.plan.len.iter().min().map(|&l| l as usize);
    if let (Some(max), Some(shortest)) = (P::max_tx_bytes(&config), shortest) {
        if shortest > max {
            return Err(err(
                path,
                format!(
                    "`{}` carries txs of at most {max} bytes with this config, and every tx of \
                     the workload is longer (from {shortest} bytes)",
                    spec.protocol
                ),
            ));
        }
    }
    Ok(config)
}

/// Start the engine of protocol entry `index` with its parsed config.
pub fn start<P>(
    prep: &Prepared,
    index: usize,
    config: P::Config,
    options: &EngineOptions,
) -> Result<Started, ScenarioError>
where
    P: Protocol + 'static,
    P::Config: Serialize,
{
    let spec = &prep.scenario.protocols[index];
    let config_json = serde_json::to_value(&config)
        .map_err(|e| err(format!("protocols[{index}].config"), e.to_string()))?;
    let (net, plan) = prep.for_run(index)?;
    let engine = Engine::<P>::new(
        Arc::clone(&net),
        Arc::clone(&plan),
        &prep.scenario,
        &config,
        options,
    );
    Ok(Started {
        label: spec.label().to_string(),
        protocol: spec.protocol.clone(),
        config: config_json,
        net,
        plan,
        run: Box::new(Typed(engine)),
    })
}

#[derive(Clone, Debug, Serialize)]
pub struct RunReport {
    pub label: String,
    pub protocol: String,
    pub config: serde_json::Value,
    pub seed: u64,
    pub nodes: u32,
    pub txs: u64,
    pub events: u64,
    /// Wall-clock time of the run; measured by the host, 0 where it cannot be.
    pub wall_ms: f64,
    /// Hex SHA-256 of the canonical event log: same scenario and seed, same digest.
    pub digest: String,
    pub summary: Summary,
    pub counters: BTreeMap<String, CounterReport>,
    /// Before, during and after each timed event (none without events).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<Phase>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub scenario: Scenario,
    pub runs: Vec<RunReport>,
}

impl Started {
    pub fn report(self, prep: &Prepared, wall_ms: f64) -> RunReport {
        self.report_and_metrics(prep, wall_ms).0
    }

    /// The report, and the metrics it was made from (for figures the report has no room for).
    pub fn report_and_metrics(self, prep: &Prepared, wall_ms: f64) -> (RunReport, Metrics) {
        let Started {
            label,
            protocol,
            config,
            net,
            plan,
            run,
        } = self;
        let end_us = run.end_us();
        let done = run.finish();
        let report = RunReport {
            label,
            protocol,
            config,
            seed: prep.scenario.seed,
            nodes: prep.scenario.nodes,
            txs: plan.count() as u64,
            events: done.events,
            wall_ms,
            digest: done.digest,
            summary: done.metrics.summary(&net, &plan),
            counters: done.metrics.counter_report(),
            phases: phases(&net, &plan, &done.metrics, end_us),
        };
        (report, done.metrics)
    }
}
