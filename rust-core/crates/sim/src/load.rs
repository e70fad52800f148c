//! Reading a scenario from untrusted JSON: every failure names the JSON path and the rule
//! broken, and sizes are capped before anything is allocated for them.

use crate::events::{check_events, RunShape};
use crate::scenario::*;
use std::fmt;

/// Largest scenario file accepted.
pub const MAX_FILE_BYTES: usize = 4 << 20;
pub const MAX_NODES: u32 = 100_000;
/// Longest simulated time (workload plus drain): one hour.
pub const MAX_SIM_MS: f64 = 3_600_000.0;
pub const MAX_TXS: f64 = 5_000_000.0;
pub const MAX_EDGES: u64 = 4_000_000;
pub const MAX_TX_BYTES: u32 = 64 << 20;
pub const MAX_PROTOCOLS: usize = 32;

#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioError {
    /// Where in the JSON document, e.g. `topology.degree` or `protocols[1].config.fanout`.
    pub path: String,
    pub message: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() || self.path == "." {
            write!(f, "{}", self.message)
        } else {
            write!(f, "at `{}`: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

pub fn err(path: impl Into<String>, message: impl Into<String>) -> ScenarioError {
    ScenarioError {
        path: path.into(),
        message: message.into(),
    }
}

/// Parse and check a scenario.
pub fn parse_scenario(text: &str) -> Result<Scenario, ScenarioError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(err(
            "",
            format!(
                "scenario is {} bytes; the limit is {} bytes",
                text.len(),
                MAX_FILE_BYTES
            ),
        ));
    }
    // Some editors start a file with a byte-order mark; JSON has none, and it says nothing.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // A scenario is one object: anything else would get serde's words about a first field.
    if let Some(first) = text.trim_start().chars().next().filter(|&c| c != '{') {
        return Err(err(
            "",
            format!("a scenario is one JSON object, {{...}}; this text starts with `{first}`"),
        ));
    }
    let de = &mut serde_json::Deserializer::from_str(text);
    let scenario: Scenario = serde_path_to_error::deserialize(de).map_err(|e| {
        let outer = e.path().to_string();
        let message = e.into_inner().to_string();
        match crate::tagged::split_inner_path(&message) {
            Some((".", rest)) => err(outer, rest),
            Some((inner, rest)) => err(format!("{outer}.{inner}"), rest),
            None => err(outer, message),
        }
    })?;
    validate(&scenario)?;
    Ok(scenario)
}

fn finite(path: &str, v: f64) -> Result<f64, ScenarioError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(err(path, "must be a finite number"))
    }
}

pub(crate) fn in_range(path: &str, v: f64, lo: f64, hi: f64) -> Result<(), ScenarioError> {
    finite(path, v)?;
    if v < lo || v > hi {
        return Err(err(path, format!("{v} is outside [{lo}, {hi}]")));
    }
    Ok(())
}

pub(crate) fn positive(path: &str, v: f64, hi: f64) -> Result<(), ScenarioError> {
    finite(path, v)?;
    if v <= 0.0 || v > hi {
        return Err(err(path, format!("{v} must be above 0 and at most {hi}")));
    }
    Ok(())
}

/// Slowest link rate a node may have, in Mbit/s (a 250-byte tx takes 2 s a hop at it). Rates are
/// kept in whole bits per second, where 0 means unlimited: a slower one would round to that.
pub const MIN_MBPS: f64 = 0.001;
pub const MAX_MBPS: f64 = 1e6;

fn link_rate(path: &str, mbps: f64) -> Result<(), ScenarioError> {
    in_range(path, mbps, MIN_MBPS, MAX_MBPS)
}

/// The rules serde cannot express: ranges, caps and combinations.
pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    let n = s.nodes;
    if !(2..=MAX_NODES).contains(&n) {
        return Err(err(
            "nodes",
            format!("{n} nodes: must be between 2 and {MAX_NODES}"),
        ));
    }
    match &s.topology {
        Topology::RandomRegular(RandomRegular { degree }) => {
            if *degree == 0 || *degree >= n {
                return Err(err(
                    "topology.degree",
                    format!("degree {degree} must be at least 1 and below the node count {n}"),
                ));
            }
            if !(*degree as u64 * n as u64).is_multiple_of(2) {
                return Err(err(
                    "topology.degree",
                    format!("nodes x degree ({n} x {degree}) must be even for a regular graph"),
                ));
            }
            if *degree as u64 * n as u64 / 2 > MAX_EDGES {
                return Err(err(
                    "topology.degree",
                    format!("more than {MAX_EDGES} links"),
                ));
            }
        }
        Topology::Gnm(Gnm { edges }) => {
            let max = n as u64 * (n as u64 - 1) / 2;
            if *edges as u64 > max.min(MAX_EDGES) || *edges == 0 {
                return Err(err(
                    "topology.edges",
                    format!(
                        "{edges} links: must be between 1 and {}",
                        max.min(MAX_EDGES)
                    ),
                ));
            }
        }
        Topology::Explicit(Explicit { edges }) => {
            if edges.is_empty() || edges.len() as u64 > MAX_EDGES {
                return Err(err(
                    "topology.edges",
                    format!("between 1 and {MAX_EDGES} links"),
                ));
            }
            for (i, e) in edges.iter().enumerate() {
                let p = format!("topology.edges[{i}]");
                if e.a >= n || e.b >= n {
                    return Err(err(&p, format!("node index out of range (nodes = {n})")));
                }
                if e.a == e.b {
                    return Err(err(&p, "a link from a node to itself"));
                }
                if let Some(ms) = e.latency_ms {
                    in_range(&format!("{p}.latency_ms"), ms, 0.0, 60_000.0)?;
                }
            }
        }
    }
    match &s.latency {
        Latency::Constant(ConstantLatency { ms }) => in_range("latency.ms", *ms, 0.0, 60_000.0)?,
        Latency::Lognormal(LognormalLatency { median_ms, sigma }) => {
            positive("latency.median_ms", *median_ms, 60_000.0)?;
            in_range("latency.sigma", *sigma, 0.0, 5.0)?;
        }
        Latency::Geographic(GeographicLatency { stretch, base_ms }) => {
            if let Some(k) = stretch {
                in_range("latency.stretch", *k, 1.0, 20.0)?;
            }
            in_range("latency.base_ms", *base_ms, 0.0, 10_000.0)?;
        }
    }
    let mut share = 0.0;
    for (i, c) in s.bandwidth.classes.iter().enumerate() {
        let p = format!("bandwidth.classes[{i}]");
        in_range(&format!("{p}.fraction"), c.fraction, 0.0, 1.0)?;
        link_rate(&format!("{p}.up_mbps"), c.up_mbps)?;
        link_rate(&format!("{p}.down_mbps"), c.down_mbps)?;
        share += c.fraction;
    }
    if share > 1.0 + 1e-9 {
        return Err(err(
            "bandwidth.classes",
            format!("fractions add up to {share}, above 1"),
        ));
    }
    for (i, o) in s.bandwidth.overrides.iter().enumerate() {
        let p = format!("bandwidth.overrides[{i}]");
        if o.node >= n {
            return Err(err(
                format!("{p}.node"),
                format!("node {} out of range", o.node),
            ));
        }
        link_rate(&format!("{p}.up_mbps"), o.up_mbps)?;
        link_rate(&format!("{p}.down_mbps"), o.down_mbps)?;
    }
    in_range("links.loss", s.links.loss, 0.0, 0.99)?;
    in_range("links.jitter_ms", s.links.jitter_ms, 0.0, 60_000.0)?;
    if let Some(tcp) = &s.links.tcp {
        if s.links.sharing.is_fifo() {
            return Err(err(
                "links.tcp",
                "a congestion window needs connections that share the link: set links.sharing to \"fair\" or \"max_min\"",
            ));
        }
        if !(1..=1000).contains(&tcp.initial_window_segments) {
            return Err(err(
                "links.tcp.initial_window_segments",
                format!(
                    "{} segments: must be between 1 and 1000",
                    tcp.initial_window_segments
                ),
            ));
        }
    }
    in_range("processing_delay_ms", s.processing_delay_ms, 0.0, 60_000.0)?;
    in_range("drain_ms", s.drain_ms, 0.0, MAX_SIM_MS)?;
    let workload_ms = check_workload("workload", &s.workload, n)?;
    if workload_ms + s.drain_ms > MAX_SIM_MS {
        return Err(err(
            "drain_ms",
            format!(
                "workload plus drain is {:.0} ms; the limit is {MAX_SIM_MS} ms",
                workload_ms + s.drain_ms
            ),
        ));
    }
    check_adversaries("adversaries", &s.adversaries, n)?;
    let shape = |workload: &Workload, workload_ms: f64| RunShape {
        nodes: n,
        end_ms: workload_ms + s.drain_ms,
        poisson_until_ms: match workload {
            Workload::Poisson(p) => Some(p.duration_ms),
            Workload::Burst(_) => None,
        },
        rates: match workload {
            Workload::Poisson(p) => std::iter::once((0.0, p.total_tps))
                .chain(p.rate_steps.iter().map(|r| (r.at_ms, r.total_tps)))
                .collect(),
            Workload::Burst(_) => Vec::new(),
        },
        max_txs: match workload {
            Workload::Poisson(p) => p.max_txs,
            Workload::Burst(_) => None,
        },
        geographic: matches!(s.latency, Latency::Geographic(_)),
    };
    check_events("events", &s.events, &shape(&s.workload, workload_ms))?;
    if s.protocols.is_empty() || s.protocols.len() > MAX_PROTOCOLS {
        return Err(err(
            "protocols",
            format!("name between 1 and {MAX_PROTOCOLS} protocols"),
        ));
    }
    let mut labels = std::collections::BTreeSet::new();
    for (i, p) in s.protocols.iter().enumerate() {
        if !labels.insert(p.label()) {
            return Err(err(
                format!("protocols[{i}].label"),
                format!(
                    "label `{}` is used twice; give each run its own label",
                    p.label()
                ),
            ));
        }
        if !proto::registry::PROTOCOLS
            .iter()
            .any(|known| known.name == p.protocol)
        {
            return Err(err(
                format!("protocols[{i}].protocol"),
                format!(
                    "unknown protocol `{}`; known: {}",
                    p.protocol,
                    proto::registry::names(false)
                ),
            ));
        }
        if let Some(sets) = &p.adversaries {
            check_adversaries(&format!("protocols[{i}].adversaries"), sets, n)?;
        }
        let mut run_ms = workload_ms;
        if let Some(w) = &p.workload {
            let at = format!("protocols[{i}].workload");
            run_ms = check_workload(&at, w, n)?;
            if run_ms + s.drain_ms > MAX_SIM_MS {
                return Err(err(
                    at,
                    format!("workload plus drain is above {MAX_SIM_MS} ms"),
                ));
            }
        }
        // The run's own events, or the scenario's under the run's own workload.
        if p.events.is_some() || p.workload.is_some() {
            let (at, events) = match &p.events {
                Some(own) => (format!("protocols[{i}].events"), own),
                None => ("events".to_string(), &s.events),
            };
            let workload = p.workload.as_ref().unwrap_or(&s.workload);
            check_events(&at, events, &shape(workload, run_ms))?;
        }
        if !p.config.is_object() {
            return Err(err(format!("protocols[{i}].config"), "must be an object"));
        }
    }
    Ok(())
}

fn size_in_range(path: &str, bytes: u32) -> Result<(), ScenarioError> {
    if bytes == 0 || bytes > MAX_TX_BYTES {
        return Err(err(
            path,
            format!("{bytes} bytes: must be between 1 and {MAX_TX_BYTES}"),
        ));
    }
    Ok(())
}

/// The rules of a workload at JSON path `at`; returns how long it creates txs, in ms.
fn check_workload(at: &str, w: &Workload, n: u32) -> Result<f64, ScenarioError> {
    Ok(match w {
        Workload::Poisson(Poisson {
            total_tps,
            duration_ms,
            max_txs,
            tx_bytes,
            tx_size,
            rate_steps,
        }) => {
            positive(&format!("{at}.total_tps"), *total_tps, 1e6)?;
            positive(&format!("{at}.duration_ms"), *duration_ms, MAX_SIM_MS)?;
            let mut peak = *total_tps;
            let mut last_at = 0.0;
            for (i, step) in rate_steps.iter().enumerate() {
                let p = format!("{at}.rate_steps[{i}]");
                in_range(&format!("{p}.at_ms"), step.at_ms, last_at, *duration_ms)?;
                positive(&format!("{p}.total_tps"), step.total_tps, 1e6)?;
                last_at = step.at_ms;
                peak = peak.max(step.total_tps);
            }
            let expected = peak * duration_ms / 1000.0;
            let cap = max_txs.map(|m| m as f64).unwrap_or(f64::INFINITY);
            if expected.min(cap) > MAX_TXS {
                return Err(err(
                    at,
                    format!("up to {expected:.0} transactions; the limit is {MAX_TXS}"),
                ));
            }
            if *max_txs == Some(0) {
                return Err(err(format!("{at}.max_txs"), "must be at least 1"));
            }
            size_in_range(&format!("{at}.tx_bytes"), *tx_bytes)?;
            match tx_size {
                Some(TxSize::Uniform(UniformSize { max_bytes }))
                | Some(TxSize::Lognormal(LognormalSize { max_bytes, .. })) => {
                    size_in_range(&format!("{at}.tx_size.max_bytes"), *max_bytes)?;
                    if max_bytes < tx_bytes {
                        return Err(err(
                            format!("{at}.tx_size.max_bytes"),
                            "must be at least tx_bytes",
                        ));
                    }
                }
                None => {}
            }
            if let Some(TxSize::Lognormal(LognormalSize { sigma, .. })) = tx_size {
                in_range(&format!("{at}.tx_size.sigma"), *sigma, 0.0, 5.0)?;
            }
            *duration_ms
        }
        Workload::Burst(Burst {
            publisher,
            count,
            tx_bytes,
            interval_ms,
            start_ms,
        }) => {
            if *publisher >= n {
                return Err(err(
                    format!("{at}.publisher"),
                    format!("node {publisher} out of range"),
                ));
            }
            if *count == 0 || *count as f64 > MAX_TXS {
                return Err(err(
                    format!("{at}.count"),
                    format!("must be between 1 and {MAX_TXS}"),
                ));
            }
            size_in_range(&format!("{at}.tx_bytes"), *tx_bytes)?;
            in_range(&format!("{at}.interval_ms"), *interval_ms, 0.0, MAX_SIM_MS)?;
            in_range(&format!("{at}.start_ms"), *start_ms, 0.0, MAX_SIM_MS)?;
            start_ms + interval_ms * (*count as f64)
        }
    })
}

/// The rules of adversary sets at JSON path `at`.
fn check_adversaries(at: &str, sets: &[AdversarySet], n: u32) -> Result<(), ScenarioError> {
    for (i, a) in sets.iter().enumerate() {
        let p = format!("{at}[{i}]");
        match (&a.fraction, &a.nodes) {
            (Some(f), None) => in_range(&format!("{p}.fraction"), *f, 0.0, 1.0)?,
            (None, Some(list)) => {
                if let Some(bad) = list.iter().find(|&&v| v >= n) {
                    return Err(err(
                        format!("{p}.nodes"),
                        format!("node {bad} out of range"),
                    ));
                }
            }
            _ => return Err(err(&p, "give exactly one of `fraction` or `nodes`")),
        }
        check_behaviour(&format!("{p}.behaviour"), &a.behaviour)?;
    }
    Ok(())
}

/// The ranges of a behaviour's numbers, at JSON path `p`.
pub(crate) fn check_behaviour(p: &str, b: &proto::Behaviour) -> Result<(), ScenarioError> {
    match b {
        proto::Behaviour::Censor { fraction } | proto::Behaviour::PushCensor { fraction } => {
            in_range(&format!("{p}.fraction"), *fraction, 0.0, 1.0)
        }
        proto::Behaviour::DelayReplies { delay_ms } => {
            in_range(&format!("{p}.delay_ms"), *delay_ms, 0.0, MAX_SIM_MS)
        }
        _ => Ok(()),
    }
}
