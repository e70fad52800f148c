//! Starting and checking a scenario's runs through the protocol registry
//! (`proto::registry`, the one map from names to protocol types).

use crate::engine::EngineOptions;
use crate::events::TimedEvent;
use crate::load::{err, ScenarioError};
use crate::run::{parse_config, start, Prepared, Started};
use proto::registry::{resolve, Config, ConfigCheck, Visit};
use proto::Protocol;

pub use proto::registry::{config_schemas, PROTOCOLS};

/// Resolves run `index`'s protocol name; the loader has already refused unknown names.
fn resolve_run<V: Visit<Out = Result<T, ScenarioError>>, T>(
    prep: &Prepared,
    index: usize,
    v: V,
) -> Result<T, ScenarioError> {
    check_memory(prep, index)?;
    let name = &prep.scenario.protocols[index].protocol;
    resolve(name, v).unwrap_or_else(|| {
        Err(err(
            format!("protocols[{index}].protocol"),
            format!(
                "unknown protocol `{name}`; known: {}",
                proto::registry::names(false)
            ),
        ))
    })
}

/// Most memory a simulated run may need, natively as in the page (whose WebAssembly module
/// addresses 4 GiB at most): a bigger run is refused before it starts, with what to shrink,
/// rather than ended by the allocator or the system when memory runs out.
pub const MAX_RUN_BYTES: u64 = 4 << 30;

/// Refuses run `index` where its protocol's memory per (node, tx) and per directed link
/// (`proto::registry::RunMemory`) comes to more than `MAX_RUN_BYTES`.
fn check_memory(prep: &Prepared, index: usize) -> Result<(), ScenarioError> {
    let name = &prep.scenario.protocols[index].protocol;
    let Some(info) = proto::registry::info(name) else {
        return Ok(());
    };
    let memory = info.memory;
    let nodes = prep.net.nodes as u64;
    let txs = prep.plan.count() as u64;
    let busy = prep.plan.most_within(1_000_000) as u64;
    let links = 2 * prep.net.links.len() as u64;
    let by_txs = nodes.saturating_mul(
        (txs.saturating_mul(memory.per_node_tx)).saturating_add(busy * memory.per_node_busy_tx),
    );
    let by_links = links.saturating_mul(memory.per_link);
    let need = by_txs.saturating_add(by_links);
    if need <= MAX_RUN_BYTES {
        return Ok(());
    }
    let shrink = if by_txs >= by_links {
        "fewer txs or nodes"
    } else {
        "fewer nodes or a lower degree"
    };
    let gb = |bytes: u64| bytes as f64 / (1u64 << 30) as f64;
    Err(err(
        format!("protocols[{index}]"),
        format!(
            "a {name} run of {nodes} nodes, {txs} txs and {links} directed links needs about \
             {:.1} GB of memory; a run may take {:.0} GB at most: {shrink}",
            gb(need),
            gb(MAX_RUN_BYTES)
        ),
    ))
}

struct StartVisit<'a> {
    prep: &'a Prepared,
    index: usize,
    options: &'a EngineOptions,
}

impl Visit for StartVisit<'_> {
    type Out = Result<Started, ScenarioError>;
    fn visit<P>(self, adjust: fn(&mut P::Config), check: ConfigCheck<P::Config>) -> Self::Out
    where
        P: Protocol + 'static,
        P::Config: Config,
    {
        let config = parse_config::<P>(self.prep, self.index, adjust, check)?;
        start::<P>(self.prep, self.index, config, self.options)
    }
}

struct CheckVisit<'a> {
    prep: &'a Prepared,
    index: usize,
}

impl Visit for CheckVisit<'_> {
    type Out = Result<serde_json::Value, ScenarioError>;
    fn visit<P>(self, adjust: fn(&mut P::Config), check: ConfigCheck<P::Config>) -> Self::Out
    where
        P: Protocol + 'static,
        P::Config: Config,
    {
        let config = parse_config::<P>(self.prep, self.index, adjust, check)?;
        serde_json::to_value(&config)
            .map_err(|e| err(format!("protocols[{}].config", self.index), e.to_string()))
    }
}

/// Start protocol entry `index` of the scenario.
pub fn start_run(
    prep: &Prepared,
    index: usize,
    options: &EngineOptions,
) -> Result<Started, ScenarioError> {
    let visit = StartVisit {
        prep,
        index,
        options,
    };
    resolve_run(prep, index, visit)
}

/// Check protocol entry `index`'s config without building anything; returns it with its
/// defaults filled in.
pub fn check_run(prep: &Prepared, index: usize) -> Result<serde_json::Value, ScenarioError> {
    resolve_run(prep, index, CheckVisit { prep, index })
}

/// A behaviour a run's protocol does not interpret: the nodes given it act honestly there.
#[derive(Clone, Debug, PartialEq)]
pub struct Ignored {
    /// The JSON path that gives it (an adversary set or a `behaviour` event).
    pub path: String,
    pub behaviour: &'static str,
    pub protocol: String,
}

impl std::fmt::Display for Ignored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` ignores `{}` (at `{}`): those nodes act honestly in its run",
            self.protocol, self.behaviour, self.path
        )
    }
}

/// The behaviours run `index` gives nodes (its adversaries and `behaviour` events) that its
/// protocol does not interpret.
pub fn ignored(prep: &Prepared, index: usize) -> Vec<Ignored> {
    let s = &prep.scenario;
    let spec = &s.protocols[index];
    let Some(info) = proto::registry::info(&spec.protocol) else {
        return Vec::new();
    };
    let (sets_at, sets) = match &spec.adversaries {
        Some(own) => (format!("protocols[{index}].adversaries"), own),
        None => ("adversaries".to_string(), &s.adversaries),
    };
    let (events_at, events) = match &spec.events {
        Some(own) => (format!("protocols[{index}].events"), own),
        None => ("events".to_string(), &s.events),
    };
    let given = sets
        .iter()
        .enumerate()
        .map(|(i, a)| (format!("{sets_at}[{i}].behaviour"), &a.behaviour));
    let switched = events.iter().enumerate().filter_map(|(i, e)| match e {
        TimedEvent::Behaviour(b) => Some((format!("{events_at}[{i}].behaviour"), &b.behaviour)),
        _ => None,
    });
    given
        .chain(switched)
        .filter(|(_, b)| !info.interprets(b))
        .map(|(path, b)| Ignored {
            path,
            behaviour: b.name(),
            protocol: spec.protocol.clone(),
        })
        .collect()
}
