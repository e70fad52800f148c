//! The transactions a run creates: when, where and how big. Drawn once from the workload
//! stream, so every protocol in a scenario gets exactly the same load.

use crate::network::Network;
use crate::scenario::{Burst, Poisson, Scenario, Workload};
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
            }) => {
                let honest: Vec<u32> = (0..net.nodes)
                    .filter(|&v| net.is_honest(v))
                    .map(|v| v as u32)
                    .collect();
                let mean_gap_us = 1e6 / total_tps;
                let end = duration_ms * 1000.0;
                let cap = max_txs.unwrap_or(u64::MAX);
                let mut t = 0.0;
                loop {
                    t += rng.exponential(mean_gap_us);
                    if t >= end || plan.created_us.len() as u64 >= cap {
                        break;
                    }
                    plan.created_us.push(t.round() as u64);
                    plan.origin.push(honest[rng.index(honest.len())]);
                    plan.len.push(*tx_bytes);
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
