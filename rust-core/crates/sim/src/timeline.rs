//! A run's timed events resolved into what changes when: who is picked (drawn from the seed,
//! one stream per event, so adding an event never redraws an earlier one), churn unrolled into
//! single leaves and joins, and the rules that depend on who is where at the time (a join of a
//! node that never left, a leave of one already gone). Built once per run, before it starts,
//! from the scenario alone: every protocol of a scenario sees the same changes.

use crate::events::{Churn, Pick, TimedEvent};
use crate::load::{err, ScenarioError};
use crate::network::draw;
use proto::{stream, Behaviour, Rng};

/// One change, at `at_us`.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub at_us: u64,
    /// The index, in the run's `events`, of the event it comes from.
    pub event: u32,
    pub what: What,
}

#[derive(Clone, Debug, PartialEq)]
pub enum What {
    Behaviour {
        nodes: Vec<u32>,
        behaviour: Behaviour,
    },
    /// These nodes' links go down.
    Leave(Vec<u32>),
    /// These nodes' links come back up (those not cut otherwise).
    Join(Vec<u32>),
    /// The links between this group and the rest go down.
    Partition(Vec<u32>),
    /// Every partition ends.
    Heal,
    Loss(f64),
    Load(f64),
}

impl What {
    /// The nodes it names (none for the network-wide kinds).
    pub fn nodes(&self) -> &[u32] {
        match self {
            What::Behaviour { nodes, .. } => nodes,
            What::Leave(nodes) | What::Join(nodes) | What::Partition(nodes) => nodes,
            What::Heal | What::Loss(_) | What::Load(_) => &[],
        }
    }

    /// A small number per kind, for the event log.
    pub fn code(&self) -> u32 {
        match self {
            What::Behaviour { .. } => 1,
            What::Leave(_) => 2,
            What::Join(_) => 3,
            What::Partition(_) => 4,
            What::Heal => 5,
            What::Loss(_) => 6,
            What::Load(_) => 7,
        }
    }
}

/// A moment the report and the page mark: an event's time, or the end of a churn.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub at_us: u64,
    /// The event's kind, or "churn_end".
    pub kind: &'static str,
    pub event: u32,
}

/// Node changes (a node in a change's list) a run's events may make in all: what the engine
/// and the page keep of them stays within a few tens of MB.
pub const MAX_NODE_CHANGES: usize = 2_000_000;

/// What the timeline knows of the network it changes.
pub struct Setting<'a> {
    pub seed: u64,
    pub nodes: usize,
    /// Each node's behaviour at the start (the scenario's adversaries).
    pub behaviour: &'a [Behaviour],
    /// A burst's publisher: never drawn at random.
    pub publisher: Option<usize>,
    /// Each node's city, for geographic latency.
    pub city: Option<&'a [usize]>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timeline {
    /// In time order (ties in the order of the events, then as each event made them).
    pub changes: Vec<Change>,
    pub marks: Vec<Mark>,
}

fn us(ms: f64) -> u64 {
    (ms * 1000.0).round() as u64
}

/// Something due at a time, before it is resolved.
enum Due<'a> {
    Event(&'a TimedEvent),
    ChurnLeave(u32),
    ChurnJoin(u32),
}

impl Timeline {
    /// Resolves `events` (already checked by `events::check_events`); errors name the JSON
    /// path under `at`.
    pub fn build(at: &str, events: &[TimedEvent], s: &Setting) -> Result<Timeline, ScenarioError> {
        let mut due: Vec<(u64, u32, Due)> = Vec::new();
        let mut marks = Vec::new();
        for (i, event) in events.iter().enumerate() {
            let i32 = i as u32;
            let mut rng = Rng::derive(s.seed, stream::EVENTS, i as u64);
            marks.push(Mark {
                at_us: us(event.at_ms()),
                kind: event.kind(),
                event: i32,
            });
            match event {
                TimedEvent::Churn(c) => {
                    let at = format!("{at}[{i}]");
                    let all: Vec<usize> = (0..s.nodes).collect();
                    let nodes = pick(&at, &event.pick().unwrap_or_default(), &all, s, &mut rng)?;
                    unroll(c, &nodes, &mut rng, |t, d| due.push((t, i32, d)));
                    marks.push(Mark {
                        at_us: us(c.until_ms),
                        kind: "churn_end",
                        event: i32,
                    });
                }
                _ => due.push((us(event.at_ms()), i32, Due::Event(event))),
            }
        }
        // Stable: simultaneous changes keep the order of their events, then their own.
        due.sort_by_key(|&(t, i, _)| (t, i));
        marks.sort_by_key(|m| (m.at_us, m.event));

        let mut state = State {
            behaviour: s.behaviour.to_vec(),
            away: vec![false; s.nodes],
            partitions: 0,
        };
        let mut changes = Vec::with_capacity(due.len());
        let mut node_changes = 0usize;
        for (at_us, event, d) in due {
            let path = format!("{at}[{event}]");
            let mut rng = Rng::derive(s.seed, stream::EVENTS, event as u64);
            let what = match d {
                Due::ChurnLeave(v) if state.away[v as usize] => continue,
                Due::ChurnJoin(v) if !state.away[v as usize] => continue,
                Due::ChurnLeave(v) => What::Leave(vec![v]),
                Due::ChurnJoin(v) => What::Join(vec![v]),
                Due::Event(e) => state.resolve(&path, e, s, &mut rng)?,
            };
            node_changes += what.nodes().len();
            if node_changes > MAX_NODE_CHANGES {
                return Err(err(
                    path,
                    format!("the events change nodes more than {MAX_NODE_CHANGES} times in all: pick fewer nodes, or fewer events"),
                ));
            }
            state.apply(&what);
            changes.push(Change { at_us, event, what });
        }
        Ok(Timeline { changes, marks })
    }

    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// Nodes honest for the whole run: honest at the start and never given another behaviour.
    pub fn honest_throughout(&self, start: &[Behaviour]) -> Vec<bool> {
        let mut honest: Vec<bool> = start.iter().map(Behaviour::is_honest).collect();
        for c in &self.changes {
            if let What::Behaviour { nodes, behaviour } = &c.what {
                if !behaviour.is_honest() {
                    for &v in nodes {
                        honest[v as usize] = false;
                    }
                }
            }
        }
        honest
    }
}

/// Where each node stands as the timeline unrolls.
struct State {
    behaviour: Vec<Behaviour>,
    away: Vec<bool>,
    partitions: u32,
}

impl State {
    fn apply(&mut self, what: &What) {
        match what {
            What::Behaviour { nodes, behaviour } => {
                for &v in nodes {
                    self.behaviour[v as usize] = behaviour.clone();
                }
            }
            What::Leave(nodes) => nodes.iter().for_each(|&v| self.away[v as usize] = true),
            What::Join(nodes) => nodes.iter().for_each(|&v| self.away[v as usize] = false),
            What::Partition(_) => self.partitions += 1,
            What::Heal => self.partitions = 0,
            What::Loss(_) | What::Load(_) => {}
        }
    }

    /// What an event does now, its nodes drawn among those it can apply to.
    fn resolve(
        &self,
        path: &str,
        event: &TimedEvent,
        s: &Setting,
        rng: &mut Rng,
    ) -> Result<What, ScenarioError> {
        let picked = |pool: Vec<usize>, rng: &mut Rng| {
            pick(path, &event.pick().unwrap_or_default(), &pool, s, rng)
        };
        let away = |v: &usize| self.away[*v];
        Ok(match event {
            TimedEvent::Behaviour(e) => {
                let pool = (0..s.nodes).filter(|&v| self.behaviour[v] != e.behaviour);
                What::Behaviour {
                    nodes: picked(pool.collect(), rng)?,
                    behaviour: e.behaviour.clone(),
                }
            }
            TimedEvent::Leave(_) => {
                let nodes = picked((0..s.nodes).filter(|v| !away(v)).collect(), rng)?;
                if let Some(&v) = nodes.iter().find(|&&v| self.away[v as usize]) {
                    return Err(err(
                        format!("{path}.nodes"),
                        format!("node {v} has left already"),
                    ));
                }
                What::Leave(nodes)
            }
            TimedEvent::Join(_) => {
                // Nothing picked: all that left.
                let nodes = picked((0..s.nodes).filter(away).collect(), rng)?;
                if nodes.is_empty() {
                    return Err(err(path, "no node that left is there to join"));
                }
                if let Some(&v) = nodes.iter().find(|&&v| !self.away[v as usize]) {
                    return Err(err(
                        format!("{path}.nodes"),
                        format!("node {v} has not left, so it cannot join"),
                    ));
                }
                What::Join(nodes)
            }
            TimedEvent::Partition(_) => {
                let group = picked((0..s.nodes).collect(), rng)?;
                if group.is_empty() || group.len() == s.nodes {
                    return Err(err(
                        path,
                        format!(
                            "the group cut off has {} of the {} nodes: it must hold some, not all",
                            group.len(),
                            s.nodes
                        ),
                    ));
                }
                What::Partition(group)
            }
            TimedEvent::Heal(_) => {
                if self.partitions == 0 {
                    return Err(err(path, "a heal with no partition to end"));
                }
                What::Heal
            }
            TimedEvent::Loss(l) => What::Loss(l.loss),
            TimedEvent::Load(l) => What::Load(l.total_tps),
            TimedEvent::Churn(_) => unreachable!("churn is unrolled before"),
        })
    }
}

/// The nodes an event picks from `pool` (ascending): the ones named, or the pool's nodes (of
/// a region, if one is given), or a share of them drawn from the seed (a share of all the
/// region's nodes, never a burst publisher). A count the pool cannot give is an error.
fn pick(
    path: &str,
    p: &Pick,
    pool: &[usize],
    s: &Setting,
    rng: &mut Rng,
) -> Result<Vec<u32>, ScenarioError> {
    if let Some(list) = p.nodes {
        let mut out = list.to_vec();
        out.sort_unstable();
        out.dedup();
        return Ok(out);
    }
    let in_region = |v: usize| match (p.region, s.city) {
        (Some(r), Some(city)) => city.get(v).is_some_and(|&c| r.contains(c)),
        (Some(_), None) => false,
        (None, _) => true,
    };
    let mut out: Vec<usize> = pool.iter().copied().filter(|&v| in_region(v)).collect();
    if p.region.is_some() && (0..s.nodes).all(|v| !in_region(v)) {
        return Err(err(
            format!("{path}.region"),
            "no node of this network is in that region",
        ));
    }
    if let Some(f) = p.fraction {
        let base = (0..s.nodes).filter(|&v| in_region(v)).count();
        let count = (f * base as f64).round() as usize;
        out.retain(|&v| Some(v) != s.publisher);
        let left = out.len();
        out = draw(out, count, rng).ok_or_else(|| {
            err(
                format!("{path}.fraction"),
                format!("{count} nodes asked for, only {left} can be picked at that time"),
            )
        })?;
        out.sort_unstable();
    }
    Ok(out.into_iter().map(|v| v as u32).collect())
}

/// A churn's leaves and joins per node: up for Exp(mean_up), down for Exp(mean_down), and
/// back at `until_ms` if down then.
fn unroll<'a>(c: &Churn, nodes: &[u32], rng: &mut Rng, mut emit: impl FnMut(u64, Due<'a>)) {
    let (start, end) = (c.at_ms * 1000.0, c.until_ms * 1000.0);
    for &v in nodes {
        let mut t = start;
        loop {
            t += rng.exponential(c.mean_up_ms * 1000.0);
            if t >= end {
                break;
            }
            emit(t.round() as u64, Due::ChurnLeave(v));
            t += rng.exponential(c.mean_down_ms * 1000.0);
            if t >= end {
                emit(end.round() as u64, Due::ChurnJoin(v));
                break;
            }
            emit(t.round() as u64, Due::ChurnJoin(v));
        }
    }
}
