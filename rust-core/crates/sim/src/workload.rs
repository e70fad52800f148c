//! The transactions a run creates: when, where and how big. Drawn once from the workload
//! stream, so every protocol in a scenario gets exactly the same load.

use crate::network::Network;
use crate::scenario::{Burst, LognormalSize, Poisson, Scenario, TxSize, UniformSize, Workload};
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
                let honest: Vec<u32> = (0..net.nodes)
                    .filter(|&v| net.is_honest(v))
                    .map(|v| v as u32)
                    .collect();
                let end = duration_ms * 1000.0;
                let cap = max_txs.unwrap_or(u64::MAX);
                // Piecewise-constant rate: (start time in us, tps), in order.
                let mut segments = vec![(0.0, *total_tps)];
                segments.extend(rate_steps.iter().map(|s| (s.at_ms * 1000.0, s.total_tps)));
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
                    plan.created_us.push(t.round() as u64);
                    plan.origin.push(honest[rng.index(honest.len())]);
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

    pub fn tx(&self, i: usize) -> Tx {
        Tx {
            id: TxId(i as u64),
            len: self.len[i],
        }
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
