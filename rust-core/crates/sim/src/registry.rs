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
