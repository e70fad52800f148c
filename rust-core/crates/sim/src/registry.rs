//! The protocols a scenario can name, and how each one starts.

use crate::engine::EngineOptions;
use crate::load::{err, ScenarioError};
use crate::run::{start, Prepared, Started};
use proto::cat::{Cat, CatConfig};
use proto::flood::{Flood, FloodConfig};
use proto::gossipsub::{Gossipsub, GossipsubConfig};
use proto::inv::{Inv, InvConfig};
use proto::shrec::{Shrec, ShrecConfig};
use proto::strokkur::{Strokkur, StrokkurConfig};

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

/// Start protocol entry `index` of the scenario.
pub fn start_run(
    prep: &Prepared,
    index: usize,
    options: &EngineOptions,
) -> Result<Started, ScenarioError> {
    let name = prep.scenario.protocols[index].protocol.as_str();
    match name {
        "flood" => start::<Flood>(prep, index, options, |_| {}),
        "push" => start::<Flood>(prep, index, options, |c| {
            c.fanout.get_or_insert(PUSH_DEFAULT_FANOUT);
        }),
        "inv" => start::<Inv>(prep, index, options, |_| {}),
        "shrec" => start::<Shrec>(prep, index, options, |_| {}),
        "cat" => start::<Cat>(prep, index, options, |_| {}),
        "cat2" => start::<Cat>(prep, index, options, |c| c.from_field = true),
        "gossipsub" => {
            let started = start::<Gossipsub>(prep, index, options, |_| {})?;
            let config: GossipsubConfig = serde_json::from_value(started.config.clone())
                .map_err(|e| err(format!("protocols[{index}].config"), e.to_string()))?;
            config
                .validate()
                .map_err(|e| err(format!("protocols[{index}].config.{}", e.field), e.why))?;
            Ok(started)
        }
        "strokkur" => {
            // An invalid config only makes nodes idle (and counted); refuse it here.
            let started = start::<Strokkur>(prep, index, options, |_| {})?;
            let config: StrokkurConfig = serde_json::from_value(started.config.clone())
                .map_err(|e| err(format!("protocols[{index}].config"), e.to_string()))?;
            config
                .validate()
                .map_err(|e| err(format!("protocols[{index}].config.{}", e.field), e.why))?;
            Ok(started)
        }
        other => Err(err(
            format!("protocols[{index}].protocol"),
            format!(
                "unknown protocol `{other}`; known: {}",
                PROTOCOLS.iter().map(|p| p.0).collect::<Vec<_>>().join(", ")
            ),
        )),
    }
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
