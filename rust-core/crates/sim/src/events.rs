//! Timed events: changes to the network while a run goes on (behaviours switched, nodes
//! leaving and joining, churn, partitions and heals, loss, load). These types are the
//! `events` of `scenarios/schema.json`; `timeline.rs` turns them into what happens when.
//! The rules checked here need no drawing from the seed: ranges, order, names.

use crate::links::MAX_PARTITIONS;
use crate::load::{check_behaviour, err, in_range, positive, ScenarioError, MAX_SIM_MS};
use crate::tagged::kind_tagged;
use proto::Behaviour;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Events in one scenario (or one run's own list) at most.
pub const MAX_EVENTS: usize = 10_000;
/// Leave and join changes one churn event may make at most (expected count): each leave
/// sweeps the event queue for what was in flight on the links it takes down.
pub const MAX_CHURN_CHANGES: f64 = 100_000.0;

/// One change to the network at `at_ms` of simulated time.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimedEvent {
    Behaviour(BehaviourChange),
    Leave(Group),
    Join(Group),
    Churn(Churn),
    Partition(Group),
    Heal(Heal),
    Loss(LossChange),
    Load(LoadChange),
}

kind_tagged!(TimedEvent {
    "behaviour" => Behaviour,
    "leave" => Leave,
    "join" => Join,
    "churn" => Churn,
    "partition" => Partition,
    "heal" => Heal,
    "loss" => Loss,
    "load" => Load,
});

/// Declares an event that picks nodes: its time, the three ways to pick (`nodes`, or
/// `fraction` and/or `region`), then its own fields. Written once here because serde cannot
/// flatten a shared struct into one that denies unknown fields.
macro_rules! picking_event {
    ($(#[$doc:meta])* $name:ident { $($(#[$field_doc:meta])* $field:ident: $ty:ty,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            pub at_ms: f64,
            /// These nodes...
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub nodes: Option<Vec<u32>>,
            /// ...or this share of the nodes (of the region, if one is given), drawn from the
            /// seed among those the change applies to (never a burst publisher)...
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub fraction: Option<f64>,
            /// ...or the nodes of a region (geographic latency only).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub region: Option<Region>,
            $($(#[$field_doc])* pub $field: $ty,)*
        }

        impl $name {
            pub fn pick(&self) -> Pick<'_> {
                Pick {
                    nodes: self.nodes.as_deref(),
                    fraction: self.fraction,
                    region: self.region.as_ref(),
                }
            }
        }
    };
}

picking_event! {
    /// The picked nodes (every node, if none is picked) start acting as `behaviour`
    /// (`{"kind": "honest"}` ends an attack).
    BehaviourChange {
        behaviour: Behaviour,
    }
}

picking_event! {
    /// Nodes that `leave` (their links go down), `join` (they come back to their former peers;
    /// with no nodes named, all that left) or are cut off from the rest by a `partition`.
    Group {}
}

picking_event! {
    /// From `at_ms` to `until_ms` the picked nodes go down and come back, up for an exponential
    /// time of mean `mean_up_ms`, then down for one of mean `mean_down_ms`; at `until_ms` all
    /// of them are back.
    Churn {
        until_ms: f64,
        mean_up_ms: f64,
        mean_down_ms: f64,
    }
}

/// Every partition so far ends: cut links come back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Heal {
    pub at_ms: f64,
}

/// From now on every message is lost with this probability (as `links.loss`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LossChange {
    pub at_ms: f64,
    pub loss: f64,
}

/// From now on transactions are created at `total_tps` (a Poisson workload's rate).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LoadChange {
    pub at_ms: f64,
    pub total_tps: f64,
}

/// Where nodes are, for geographic latency: a continent or named cities.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Region {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continent: Option<Continent>,
    /// City names as in the built-in table (e.g. "Tokyo", "São Paulo").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cities: Option<Vec<String>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Continent {
    Africa,
    Asia,
    Europe,
    NorthAmerica,
    Oceania,
    SouthAmerica,
}

/// The node selector of an event: at most one of its ways is given, `fraction` with `region`
/// aside.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pick<'a> {
    pub nodes: Option<&'a [u32]>,
    pub fraction: Option<f64>,
    pub region: Option<&'a Region>,
}

impl TimedEvent {
    pub fn at_ms(&self) -> f64 {
        match self {
            TimedEvent::Behaviour(e) => e.at_ms,
            TimedEvent::Leave(e) | TimedEvent::Join(e) | TimedEvent::Partition(e) => e.at_ms,
            TimedEvent::Churn(e) => e.at_ms,
            TimedEvent::Heal(e) => e.at_ms,
            TimedEvent::Loss(e) => e.at_ms,
            TimedEvent::Load(e) => e.at_ms,
        }
    }

    /// Its `kind`, as the scenario spells it.
    pub fn kind(&self) -> &'static str {
        match self {
            TimedEvent::Behaviour(_) => "behaviour",
            TimedEvent::Leave(_) => "leave",
            TimedEvent::Join(_) => "join",
            TimedEvent::Churn(_) => "churn",
            TimedEvent::Partition(_) => "partition",
            TimedEvent::Heal(_) => "heal",
            TimedEvent::Loss(_) => "loss",
            TimedEvent::Load(_) => "load",
        }
    }

    /// The nodes it acts on, for the kinds that pick nodes.
    pub fn pick(&self) -> Option<Pick<'_>> {
        match self {
            TimedEvent::Behaviour(e) => Some(e.pick()),
            TimedEvent::Leave(e) | TimedEvent::Join(e) | TimedEvent::Partition(e) => Some(e.pick()),
            TimedEvent::Churn(e) => Some(e.pick()),
            TimedEvent::Heal(_) | TimedEvent::Loss(_) | TimedEvent::Load(_) => None,
        }
    }
}

/// What the checks need to know of the run the events belong to.
pub struct RunShape {
    pub nodes: u32,
    /// When the run ends: its workload plus the drain.
    pub end_ms: f64,
    /// When a Poisson workload stops creating txs; None for a burst.
    pub poisson_until_ms: Option<f64>,
    /// A Poisson workload's rates: (from ms, tps), in order, and its cap on txs.
    pub rates: Vec<(f64, f64)>,
    pub max_txs: Option<u64>,
    pub geographic: bool,
}

/// The rules of an `events` list at JSON path `at` that need no draw from the seed.
pub fn check_events(at: &str, events: &[TimedEvent], run: &RunShape) -> Result<(), ScenarioError> {
    if events.len() > MAX_EVENTS {
        return Err(err(at, format!("more than {MAX_EVENTS} events")));
    }
    let mut last_ms = 0.0;
    let mut partitions = 0;
    let mut rates = run.rates.clone();
    for (i, event) in events.iter().enumerate() {
        let p = format!("{at}[{i}]");
        let t = event.at_ms();
        in_range(&format!("{p}.at_ms"), t, 0.0, MAX_SIM_MS)?;
        if t > run.end_ms {
            return Err(err(
                format!("{p}.at_ms"),
                format!("{t} ms is past the end of the run ({} ms)", run.end_ms),
            ));
        }
        if t < last_ms {
            return Err(err(
                format!("{p}.at_ms"),
                format!("{t} ms comes before the event above it ({last_ms} ms): list events in time order"),
            ));
        }
        last_ms = t;
        if let Some(pick) = event.pick() {
            check_pick(&p, event, &pick, run)?;
        }
        match event {
            TimedEvent::Behaviour(e) => check_behaviour(&format!("{p}.behaviour"), &e.behaviour)?,
            TimedEvent::Churn(c) => {
                let until = format!("{p}.until_ms");
                in_range(&until, c.until_ms, 0.0, MAX_SIM_MS)?;
                if c.until_ms <= t || c.until_ms > run.end_ms {
                    return Err(err(
                        until,
                        format!(
                            "must be after at_ms ({t}) and at most the end of the run ({} ms)",
                            run.end_ms
                        ),
                    ));
                }
                positive(&format!("{p}.mean_up_ms"), c.mean_up_ms, MAX_SIM_MS)?;
                positive(&format!("{p}.mean_down_ms"), c.mean_down_ms, MAX_SIM_MS)?;
                let cycles = (c.until_ms - t) / (c.mean_up_ms + c.mean_down_ms);
                let churned = match (&c.nodes, c.fraction) {
                    (Some(list), _) => list.len() as f64,
                    (None, Some(f)) => f * run.nodes as f64,
                    (None, None) => run.nodes as f64,
                };
                let changes = 2.0 * cycles * churned;
                if changes > MAX_CHURN_CHANGES {
                    return Err(err(
                        &p,
                        format!("about {changes:.0} leaves and joins; the limit is {MAX_CHURN_CHANGES}: churn fewer nodes, or more slowly"),
                    ));
                }
            }
            TimedEvent::Partition(_) => {
                partitions += 1;
                if partitions > MAX_PARTITIONS {
                    return Err(err(
                        &p,
                        format!(
                            "more than {MAX_PARTITIONS} partitions in force at once: heal first"
                        ),
                    ));
                }
            }
            TimedEvent::Heal(_) => {
                if partitions == 0 {
                    return Err(err(&p, "a heal with no partition before it to end"));
                }
                partitions = 0;
            }
            TimedEvent::Loss(l) => in_range(&format!("{p}.loss"), l.loss, 0.0, 0.99)?,
            TimedEvent::Load(l) => {
                positive(&format!("{p}.total_tps"), l.total_tps, 1e6)?;
                match run.poisson_until_ms {
                    None => {
                        return Err(err(
                            &p,
                            "`load` sets the rate of a poisson workload; this run's is a burst",
                        ))
                    }
                    Some(until) if t >= until => {
                        return Err(err(
                            format!("{p}.at_ms"),
                            format!(
                                "the workload stops creating txs at {until} ms, before this change"
                            ),
                        ))
                    }
                    Some(_) => {}
                }
                rates.push((t, l.total_tps));
            }
            TimedEvent::Leave(_) | TimedEvent::Join(_) => {}
        }
    }
    if let Some(until) = run
        .poisson_until_ms
        .filter(|_| rates.len() > run.rates.len())
    {
        // The workload's own steps and the loads, the latest change winning.
        rates.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut expected = 0.0;
        for (i, &(from, tps)) in rates.iter().enumerate() {
            let to = rates.get(i + 1).map_or(until, |r| r.0.min(until));
            expected += tps * (to - from).max(0.0) / 1000.0;
        }
        let cap = run.max_txs.map_or(f64::INFINITY, |m| m as f64);
        if expected.min(cap) > crate::load::MAX_TXS {
            return Err(err(
                at,
                format!(
                    "with these loads, up to {expected:.0} transactions; the limit is {}",
                    crate::load::MAX_TXS
                ),
            ));
        }
    }
    Ok(())
}

fn check_pick(
    p: &str,
    event: &TimedEvent,
    pick: &Pick,
    run: &RunShape,
) -> Result<(), ScenarioError> {
    // A join with no nodes named brings back all that left; a behaviour, to every node.
    let takes_all = matches!(event, TimedEvent::Join(_) | TimedEvent::Behaviour(_));
    match (pick.nodes, pick.fraction, pick.region) {
        (Some(list), None, None) => {
            if let Some(bad) = list.iter().find(|&&v| v >= run.nodes) {
                return Err(err(
                    format!("{p}.nodes"),
                    format!("node {bad} out of range (nodes = {})", run.nodes),
                ));
            }
            if list.is_empty() {
                return Err(err(format!("{p}.nodes"), "names no node"));
            }
        }
        (None, None, None) if takes_all => {}
        (None, None, None) => {
            return Err(err(p, "pick nodes: give `nodes`, `fraction` or `region`"))
        }
        (None, fraction, region) => {
            if let Some(f) = fraction {
                in_range(&format!("{p}.fraction"), f, 0.0, 1.0)?;
            }
            if let Some(r) = region {
                check_region(&format!("{p}.region"), r, run.geographic)?;
            }
        }
        (Some(_), _, _) => {
            return Err(err(
                p,
                "give `nodes`, or `fraction` and/or `region`, not both",
            ))
        }
    }
    Ok(())
}

fn check_region(p: &str, r: &Region, geographic: bool) -> Result<(), ScenarioError> {
    if !geographic {
        return Err(err(
            p,
            "a region needs geographic latency (`latency.kind` = \"geographic\"): only then are nodes placed in cities",
        ));
    }
    match (&r.continent, &r.cities) {
        (Some(_), None) => Ok(()),
        (None, Some(cities)) => {
            if cities.is_empty() {
                return Err(err(format!("{p}.cities"), "names no city"));
            }
            for (i, name) in cities.iter().enumerate() {
                if !crate::cities::CITIES.iter().any(|c| c.name == name) {
                    return Err(err(
                        format!("{p}.cities[{i}]"),
                        format!("`{name}` is not one of the built-in cities"),
                    ));
                }
            }
            Ok(())
        }
        _ => Err(err(p, "give exactly one of `continent` or `cities`")),
    }
}

impl Region {
    /// Whether a city (an index into `cities::CITIES`) is in the region.
    pub fn contains(&self, city: usize) -> bool {
        let Some(c) = crate::cities::CITIES.get(city) else {
            return false;
        };
        match (&self.continent, &self.cities) {
            (Some(continent), _) => c.continent == *continent,
            (None, Some(names)) => names.iter().any(|n| n == c.name),
            (None, None) => false,
        }
    }
}
