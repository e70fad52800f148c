//! The transactions a run creates: when, where and how big. Drawn once from the workload
//! stream, so every protocol in a scenario gets exactly the same load.

use crate::network::Network;
use crate::scenario::{Burst, LognormalSize, Poisson, Scenario, TxSize, UniformSize, Workload};
use crate::timeline::{Change, What};
use proto::{stream, Rng, Tx, TxId};

/// Transactions in creation order; a tx's id is its index here.
pub struct TxPlan {
    pub created_us: Vec<u64>,
    pub origin: Vec<u32>,
    pub len: Vec<u32>,
    /// When creation stops.
    pub end_us: u64,
}

impl TxPlan {
    pub fn build(s: &Scenario, net: &Network) -> TxPlan {
        let mut rng = Rng::derive(s.seed, stream::WORKLOAD, 0);
        let mut plan = TxPlan {
            created_us: Vec::new(),
            origin: Vec::new(),
            len: Vec::new(),
            end_us: 0,
        };
        match &s.workload {
            Workload::Poisson(Poisson {
                total_tps,
                duration_ms,
                max_txs,
                tx_bytes,
                tx_size,
                rate_steps,
            }) => {
                let mut origins = Origins::new(net);
                let end = duration_ms * 1000.0;
                let cap = max_txs.unwrap_or(u64::MAX);
                // Piecewise-constant rate: (start time in us, tps), in order; a `load` event
                // after a step at the same time wins.
                let mut segments = vec![(0.0, *total_tps)];
                segments.extend(rate_steps.iter().map(|s| (s.at_ms * 1000.0, s.total_tps)));
                let loads = net.timeline.changes.iter().filter_map(|c| match c.what {
                    What::Load(tps) => Some((c.at_us as f64, tps)),
                    _ => None,
                });
                segments.extend(loads);
                segments.sort_by(|a, b| a.0.total_cmp(&b.0));
                let mut t = 0.0;
                let mut seg = 0;
                loop {
                    let gap = rng.exponential(1e6 / segments[seg].1);
                    // Memoryless: a gap that crosses a rate change restarts at the change.
                    if let Some(&(next_at, _)) = segments.get(seg + 1) {
                        if t + gap >= next_at {
                            t = next_at;
                            seg += 1;
                            continue;
                        }
                    }
                    t += gap;
                    if t >= end || plan.created_us.len() as u64 >= cap {
                        break;
                    }
                    let created = t.round() as u64;
                    // Nobody to create it (every node away or adversarial): no tx then.
                    let Some(origin) = origins.draw(created, &mut rng) else {
                        continue;
                    };
                    plan.created_us.push(created);
                    plan.origin.push(origin);
                    plan.len
                        .push(draw_size(*tx_bytes, tx_size.as_ref(), &mut rng));
                }
                plan.end_us = end.round() as u64;
            }
            Workload::Burst(Burst {
                publisher,
                count,
                tx_bytes,
                interval_ms,
                start_ms,
            }) => {
                for i in 0..*count {
                    let t = (start_ms + interval_ms * i as f64) * 1000.0;
                    plan.created_us.push(t.round() as u64);
                    plan.origin.push(*publisher);
                    plan.len.push(*tx_bytes);
                }
                plan.end_us = plan.created_us.last().copied().unwrap_or(0);
            }
        }
        plan
    }

    pub fn count(&self) -> usize {
        self.created_us.len()
    }

    /// The most txs created within any `window_us` (their times are in order).
    pub fn most_within(&self, window_us: u64) -> usize {
        let times = &self.created_us;
        let (mut first, mut most) = (0, 0);
        for (i, &at) in times.iter().enumerate() {
            while at - times[first] >= window_us {
                first += 1;
            }
            most = most.max(i + 1 - first);
        }
        most
    }

    pub fn tx(&self, i: usize) -> Tx {
        Tx {
            id: TxId(i as u64),
            len: self.len[i],
        }
    }
}

/// The nodes that create txs at a time: honest then and present (the timeline's behaviour
/// changes, leaves and joins applied as time goes on).
struct Origins<'a> {
    changes: &'a [Change],
    next: usize,
    honest: Vec<bool>,
    away: Vec<bool>,
    pool: Vec<u32>,
}

impl<'a> Origins<'a> {
    fn new(net: &'a Network) -> Self {
        let honest: Vec<bool> = net.behaviour.iter().map(|b| b.is_honest()).collect();
        let pool = (0..net.nodes as u32)
            .filter(|&v| honest[v as usize])
            .collect();
        Origins {
            changes: &net.timeline.changes,
            next: 0,
            away: vec![false; net.nodes],
            honest,
            pool,
        }
    }

    /// A uniform draw among the nodes that create txs at `t_us`.
    fn draw(&mut self, t_us: u64, rng: &mut Rng) -> Option<u32> {
        let mut changed = false;
        while let Some(c) = self.changes.get(self.next).filter(|c| c.at_us <= t_us) {
            self.next += 1;
            match &c.what {
                What::Behaviour { nodes, behaviour } => nodes
                    .iter()
                    .for_each(|&v| self.honest[v as usize] = behaviour.is_honest()),
                What::Leave(nodes) => nodes.iter().for_each(|&v| self.away[v as usize] = true),
                What::Join(nodes) => nodes.iter().for_each(|&v| self.away[v as usize] = false),
                _ => continue,
            }
            changed = true;
        }
        if changed {
            let (honest, away) = (&self.honest, &self.away);
            self.pool = (0..honest.len() as u32)
                .filter(|&v| honest[v as usize] && !away[v as usize])
                .collect();
        }
        if self.pool.is_empty() {
            return None;
        }
        Some(self.pool[rng.index(self.pool.len())])
    }
}

fn draw_size(bytes: u32, size: Option<&TxSize>, rng: &mut Rng) -> u32 {
    match size {
        None => bytes,
        Some(TxSize::Uniform(UniformSize { max_bytes })) => {
            bytes + rng.below((max_bytes - bytes) as u64 + 1) as u32
        }
        Some(TxSize::Lognormal(LognormalSize { sigma, max_bytes })) => {
            let x = bytes as f64 * libm::exp(sigma * rng.normal());
            (x.round() as u32).clamp(1, *max_bytes)
        }
    }
}
