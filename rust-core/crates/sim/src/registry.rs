//! The protocols a scenario can name, and how each one starts.

use crate::engine::EngineOptions;
use crate::load::{err, ScenarioError};
use crate::run::{parse_config, start, ConfigCheck, Prepared, Started};
use proto::cat::{Cat, CatConfig};
use proto::flood::{Flood, FloodConfig};
use proto::gossipsub::{Gossipsub, GossipsubConfig};
use proto::inv::{Inv, InvConfig};
use proto::shrec::{Shrec, ShrecConfig};
use proto::strokkur::{Strokkur, StrokkurConfig};
use proto::Protocol;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Name and one-line description of every protocol, in the order `txsim protocols` lists them.
pub const PROTOCOLS: &[(&str, &str)] = &[
    (
        "flood",
        "Flooding: forward every new tx to every peer but the sender.",
    ),
    (
        "push",
        "Random-subset push: forward every new tx to `fanout` random peers (default 4).",
    ),
    (
        "inv",
        "Bitcoin-style hash flooding: INV after a trickle delay, GETDATA, TX; neo-go options.",
    ),
    (
        "shrec",
        "Shrec: short keyed IDs, one request per tx, next announcer after a timeout (30 s).",
    ),
    (
        "cat",
        "Celestia CAT (ADR 009): SeenTx / WantTx, one request at a time, 200 ms retry.",
    ),
    (
        "cat2",
        "CAT2: CAT with the From field in SeenTx (ADR 009's variant).",
    ),
    (
        "gossipsub",
        "GossipSub v1.1 / v1.2 (IDONTWANT) / v2.0 (IANNOUNCE, INEED, D_announce) by `version`.",
    ),
    (
        "strokkur",
        "Strokkur: windowed LT codewords to every peer, MIMD rate per peer, joint decoding.",
    ),
];

/// Default fanout of `push`, when the config does not give one.
pub const PUSH_DEFAULT_FANOUT: u32 = 4;

/// What to do with a registered protocol once its name is resolved.
trait Visit {
    type Out;
    fn visit<P>(
        self,
        adjust: fn(&mut P::Config),
        check: ConfigCheck<P::Config>,
    ) -> Result<Self::Out, ScenarioError>
    where
        P: Protocol + 'static,
        P::Config: Serialize + DeserializeOwned;
}

fn no_change<C>(_: &mut C) {}

fn no_rules<C>(_: &C) -> Result<(), (&'static str, String)> {
    Ok(())
}

fn gossipsub_rules(c: &GossipsubConfig) -> Result<(), (&'static str, String)> {
    c.validate().map_err(|e| (e.field, e.why.to_string()))
}

fn strokkur_rules(c: &StrokkurConfig) -> Result<(), (&'static str, String)> {
    c.validate().map_err(|e| (e.field, e.why))
}

/// The one place that maps a protocol name to its type, variant adjustment and config rules.
fn resolve<V: Visit>(prep: &Prepared, index: usize, v: V) -> Result<V::Out, ScenarioError> {
    match prep.scenario.protocols[index].protocol.as_str() {
        "flood" => v.visit::<Flood>(no_change, no_rules),
        "push" => v.visit::<Flood>(
            |c| {
                c.fanout.get_or_insert(PUSH_DEFAULT_FANOUT);
            },
            no_rules,
        ),
        "inv" => v.visit::<Inv>(no_change, no_rules),
        "shrec" => v.visit::<Shrec>(no_change, no_rules),
        "cat" => v.visit::<Cat>(no_change, no_rules),
        "cat2" => v.visit::<Cat>(|c| c.from_field = true, no_rules),
        "gossipsub" => v.visit::<Gossipsub>(no_change, gossipsub_rules),
        "strokkur" => v.visit::<Strokkur>(no_change, strokkur_rules),
        other => Err(err(
            format!("protocols[{index}].protocol"),
            format!(
                "unknown protocol `{other}`; known: {}",
                PROTOCOLS.iter().map(|p| p.0).collect::<Vec<_>>().join(", ")
            ),
        )),
    }
}

struct StartVisit<'a> {
    prep: &'a Prepared,
    index: usize,
    options: &'a EngineOptions,
}

impl Visit for StartVisit<'_> {
    type Out = Started;
    fn visit<P>(
        self,
        adjust: fn(&mut P::Config),
        check: ConfigCheck<P::Config>,
    ) -> Result<Started, ScenarioError>
    where
        P: Protocol + 'static,
        P::Config: Serialize + DeserializeOwned,
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
    type Out = serde_json::Value;
    fn visit<P>(
        self,
        adjust: fn(&mut P::Config),
        check: ConfigCheck<P::Config>,
    ) -> Result<Self::Out, ScenarioError>
    where
        P: Protocol + 'static,
        P::Config: Serialize + DeserializeOwned,
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
    resolve(
        prep,
        index,
        StartVisit {
            prep,
            index,
            options,
        },
    )
}

/// Check protocol entry `index`'s config without building anything; returns it with its
/// defaults filled in.
pub fn check_run(prep: &Prepared, index: usize) -> Result<serde_json::Value, ScenarioError> {
    resolve(prep, index, CheckVisit { prep, index })
}

/// For the schema: protocol name, config type name, config schema.
pub fn config_schemas() -> Vec<(&'static str, &'static str, schemars::Schema)> {
    vec![
        ("flood", "FloodConfig", schemars::schema_for!(FloodConfig)),
        ("push", "FloodConfig", schemars::schema_for!(FloodConfig)),
        ("inv", "InvConfig", schemars::schema_for!(InvConfig)),
        ("shrec", "ShrecConfig", schemars::schema_for!(ShrecConfig)),
        ("cat", "CatConfig", schemars::schema_for!(CatConfig)),
        ("cat2", "CatConfig", schemars::schema_for!(CatConfig)),
        (
            "gossipsub",
            "GossipsubConfig",
            schemars::schema_for!(GossipsubConfig),
        ),
        (
            "strokkur",
            "StrokkurConfig",
            schemars::schema_for!(StrokkurConfig),
        ),
    ]
}
