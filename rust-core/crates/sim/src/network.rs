//! The simulated network built from a scenario: peer tables in compressed form, per-link
//! latency, per-node bandwidth and behaviour. Built once per scenario and shared by every
//! protocol run, so all protocols see the same network.

use crate::geo;
use crate::graph;
use crate::load::{err, ScenarioError};
use crate::scenario::*;
use crate::timeline::{Setting, Timeline};
use proto::{stream, Behaviour, Rng};

/// A directed edge: everything a message on it needs, in one place (one cache line).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Edge {
    /// The receiver.
    pub peer: u32,
    /// The receiver's `PeerIdx` for the sender, so a message can say who it came from.
    pub back: u32,
    pub latency_us: u64,
}

pub struct Network {
    pub nodes: usize,
    /// Undirected links in construction order, with their one-way latency.
    pub links: Vec<(u32, u32)>,
    /// Directed edges grouped by sender: node v's edges are `offsets[v]..offsets[v+1]`; the
    /// position within that range is the `PeerIdx` by which v knows the receiver.
    pub offsets: Vec<u32>,
    pub edges: Vec<Edge>,
    /// Bits per second; 0 means unlimited.
    pub up_bps: Vec<u64>,
    pub down_bps: Vec<u64>,
    /// Each node's behaviour at the start.
    pub behaviour: Vec<Behaviour>,
    /// For geographic latency: each node's index into `geo::CITIES`.
    pub city: Option<Vec<usize>>,
    /// What the scenario's timed events change, and when.
    pub timeline: Timeline,
    /// Nodes honest for the whole run: the ones reports measure.
    honest: Vec<bool>,
}

impl Network {
    pub fn build(s: &Scenario) -> Result<Network, ScenarioError> {
        let n = s.nodes as usize;
        let mut topo_rng = Rng::derive(s.seed, stream::TOPOLOGY, 0);
        let mut link_latency: Vec<Option<f64>> = Vec::new();
        let links = match &s.topology {
            Topology::RandomRegular(RandomRegular { degree }) => {
                graph::random_regular(n, *degree as usize, &mut topo_rng)
                    .map_err(|e| err("topology", e.0))?
            }
            Topology::Gnm(Gnm { edges }) => {
                graph::gnm(n, *edges as usize, &mut topo_rng).map_err(|e| err("topology", e.0))?
            }
            Topology::Explicit(Explicit { edges }) => {
                let mut seen = std::collections::BTreeSet::new();
                for (i, e) in edges.iter().enumerate() {
                    if !seen.insert((e.a.min(e.b), e.a.max(e.b))) {
                        return Err(err(
                            format!("topology.edges[{i}]"),
                            "this link is listed twice",
                        ));
                    }
                }
                link_latency = edges.iter().map(|e| e.latency_ms).collect();
                edges.iter().map(|e| (e.a, e.b)).collect()
            }
        };

        let mut lat_rng = Rng::derive(s.seed, stream::LINKS, 0);
        let city = match &s.latency {
            Latency::Geographic(GeographicLatency { .. }) => {
                Some(geo::assign_cities(n, &mut topo_rng))
            }
            _ => None,
        };
        let latency_of = |i: usize, a: u32, b: u32, rng: &mut Rng| -> u64 {
            if let Some(Some(ms)) = link_latency.get(i) {
                return (ms * 1000.0).round() as u64;
            }
            match &s.latency {
                Latency::Constant(ConstantLatency { ms }) => (ms * 1000.0).round() as u64,
                Latency::Lognormal(LognormalLatency { median_ms, sigma }) => {
                    let ms = median_ms * libm::exp(sigma * rng.normal());
                    (ms * 1000.0).round().min(600e6) as u64
                }
                Latency::Geographic(GeographicLatency { stretch, base_ms }) => {
                    let cities = city
                        .as_ref()
                        .expect("cities are assigned for geographic latency");
                    let model = geo::GeoLatency {
                        stretch: stretch.unwrap_or(geo::DEFAULT_STRETCH),
                        base_ms: *base_ms,
                    };
                    geo::one_way_latency_us(
                        &crate::cities::CITIES[cities[a as usize]],
                        &crate::cities::CITIES[cities[b as usize]],
                        &model,
                    )
                }
            }
        };
        let undirected_latency: Vec<u64> = links
            .iter()
            .enumerate()
            .map(|(i, &(a, b))| latency_of(i, a, b, &mut lat_rng))
            .collect();

        // Compressed peer tables: count, prefix-sum, fill in link order.
        let degree = graph::degrees(n, &links);
        let mut offsets = vec![0u32; n + 1];
        for v in 0..n {
            offsets[v + 1] = offsets[v] + degree[v] as u32;
        }
        let total = offsets[n] as usize;
        let mut edges = vec![Edge::default(); total];
        let mut fill: Vec<u32> = offsets[..n].to_vec();
        for (i, &(a, b)) in links.iter().enumerate() {
            let (ea, eb) = (fill[a as usize], fill[b as usize]);
            fill[a as usize] += 1;
            fill[b as usize] += 1;
            let latency_us = undirected_latency[i];
            edges[ea as usize] = Edge {
                peer: b,
                back: eb - offsets[b as usize],
                latency_us,
            };
            edges[eb as usize] = Edge {
                peer: a,
                back: ea - offsets[a as usize],
                latency_us,
            };
        }

        let (up_bps, down_bps) = bandwidths(s, n);
        let behaviour = behaviours(s, n)?;
        let setting = Setting {
            seed: s.seed,
            nodes: n,
            behaviour: &behaviour,
            publisher: publisher(s),
            city: city.as_deref(),
        };
        let timeline = Timeline::build("events", &s.events, &setting)?;
        let honest = timeline.honest_throughout(&behaviour);
        Ok(Network {
            nodes: n,
            links,
            offsets,
            edges,
            up_bps,
            down_bps,
            behaviour,
            city,
            timeline,
            honest,
        })
    }

    /// Directed edges out of `v`.
    pub fn edges_of(&self, v: usize) -> std::ops::Range<usize> {
        self.offsets[v] as usize..self.offsets[v + 1] as usize
    }

    pub fn degree(&self, v: usize) -> usize {
        self.edges_of(v).len()
    }

    /// The directed edge v -> (its peer number `p`).
    pub fn edge(&self, v: usize, p: u32) -> usize {
        self.offsets[v] as usize + p as usize
    }

    /// The edge in the other direction.
    pub fn reverse(&self, e: usize) -> usize {
        let edge = self.edges[e];
        self.offsets[edge.peer as usize] as usize + edge.back as usize
    }

    /// Whether node `v` is honest for the whole run (no event makes it an adversary).
    pub fn is_honest(&self, v: usize) -> bool {
        self.honest[v]
    }
}

fn mbps_to_bps(mbps: f64) -> u64 {
    (mbps * 1e6).round() as u64
}

/// Classes are handed out over a seeded shuffle of the nodes; overrides come last.
fn bandwidths(s: &Scenario, n: usize) -> (Vec<u64>, Vec<u64>) {
    let (mut up, mut down) = (vec![0u64; n], vec![0u64; n]);
    let mut order: Vec<usize> = (0..n).collect();
    Rng::derive(s.seed, stream::BANDWIDTH, 0).shuffle(&mut order);
    let mut next = 0usize;
    for class in &s.bandwidth.classes {
        let count = ((class.fraction * n as f64).round() as usize).min(n - next);
        for &v in &order[next..next + count] {
            up[v] = mbps_to_bps(class.up_mbps);
            down[v] = mbps_to_bps(class.down_mbps);
        }
        next += count;
    }
    for o in &s.bandwidth.overrides {
        up[o.node as usize] = mbps_to_bps(o.up_mbps);
        down[o.node as usize] = mbps_to_bps(o.down_mbps);
    }
    (up, down)
}

/// A burst's publisher, never drawn at random for adversaries or events.
fn publisher(s: &Scenario) -> Option<usize> {
    match &s.workload {
        Workload::Burst(Burst { publisher, .. }) => Some(*publisher as usize),
        Workload::Poisson(_) => None,
    }
}

/// Adversary sets take distinct nodes; a burst publisher is never drawn at random.
fn behaviours(s: &Scenario, n: usize) -> Result<Vec<Behaviour>, ScenarioError> {
    let mut out = vec![Behaviour::Honest; n];
    let publisher = publisher(s);
    let mut rng = Rng::derive(s.seed, stream::ADVERSARY, 0);
    for (i, set) in s.adversaries.iter().enumerate() {
        let chosen: Vec<usize> = match (&set.fraction, &set.nodes) {
            (Some(f), _) => {
                let free: Vec<usize> = (0..n)
                    .filter(|&v| out[v].is_honest() && Some(v) != publisher)
                    .collect();
                let (count, left) = ((f * n as f64).round() as usize, free.len());
                draw(free, count, &mut rng).ok_or_else(|| {
                    err(
                        format!("adversaries[{i}].fraction"),
                        format!("{count} adversaries asked for, only {left} honest nodes left"),
                    )
                })?
            }
            (None, Some(list)) => list.iter().map(|&v| v as usize).collect(),
            (None, None) => Vec::new(),
        };
        for v in chosen {
            out[v] = set.behaviour.clone();
        }
    }
    if out.iter().all(|b| !b.is_honest()) {
        return Err(err("adversaries", "no honest node is left"));
    }
    Ok(out)
}

/// `count` nodes of `pool` drawn from `rng` (a shuffle, then the first ones); None if the pool
/// holds fewer.
pub(crate) fn draw(mut pool: Vec<usize>, count: usize, rng: &mut Rng) -> Option<Vec<usize>> {
    if count > pool.len() {
        return None;
    }
    rng.shuffle(&mut pool);
    pool.truncate(count);
    Some(pool)
}
