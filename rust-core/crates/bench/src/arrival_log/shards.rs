//! How evenly a live run's writes spread over the shards of a range-partitioned store.
//!
//! The model:
//! - A store (Cassandra with its ordered partitioner, or any key-range sharded KV) splits the
//!   key space of a table into S contiguous ranges, one per shard. The split points are the
//!   S-quantiles of the table's stored keys once the run is over, i.e. every shard holds the
//!   same amount of data, as a store that splits ranges to balance size ends up. Keys compare
//!   as bytes; splits may fall inside a row (a store that only splits between rows can only
//!   do worse for the tickets layout, never better for the consecutive one).
//! - The table is one node's arrival log; every node's log looks alike, so one node's writes
//!   stand for all (figures are averaged over a few nodes).
//! - A live run writes each arrival when it happens: writes come in arrival-time order, so at
//!   any moment they go to the seqs of the last second or so, a narrow band of consecutive
//!   seqs. The load at a moment is the last `window` writes; its imbalance is the busiest
//!   shard's share over the mean share (`window / S`): 1 is perfect, S means one shard takes
//!   everything. The figure is that ratio averaged over every window position of the run.
//!   "Never" cells are written when the log is closed, not live, so they are left out.
//!
//! Under tickets the live band of seqs is spread round-robin over the NP rows of its partition,
//! whose bit-reversed keys split key space evenly: at most NP shards take writes at a time,
//! so with S > NP the ratio cannot drop below S / NP. Consecutive VAR_LONG keys put the whole
//! band in one shard: the ratio is about S.

use arrivals::{row_key, Layout};

/// The byte order of stored keys, as comparable integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyOrder {
    /// Row key (bit-reversed row, big-endian) then column: byte order of key ++ VAR_LONG.
    Tickets(Layout),
    /// VAR_LONG(seq), the `_transactions` key: VAR_LONG keeps numeric order.
    Consecutive,
}

impl KeyOrder {
    fn key(self, seq: u64) -> (u64, u64) {
        match self {
            KeyOrder::Tickets(l) => (u64::from_be_bytes(row_key(l.row(seq))), l.column(seq)),
            KeyOrder::Consecutive => (seq, 0),
        }
    }
}

/// Shard loads of one table under one key order and shard count.
#[derive(Clone, Debug)]
pub struct Sharding {
    order: KeyOrder,
    /// Lowest key of shards 1..S.
    splits: Vec<(u64, u64)>,
}

impl Sharding {
    /// Splits the keys of seqs `0..stored` into `shards` equal ranges.
    pub fn balanced(order: KeyOrder, stored: u64, shards: usize) -> Sharding {
        let mut keys: Vec<(u64, u64)> = (0..stored).map(|s| order.key(s)).collect();
        keys.sort_unstable();
        let splits = (1..shards)
            .filter_map(|j| keys.get(j * keys.len() / shards).copied())
            .collect();
        Sharding { order, splits }
    }

    pub fn shards(&self) -> usize {
        self.splits.len() + 1
    }

    pub fn shard_of(&self, seq: u64) -> usize {
        let key = self.order.key(seq);
        self.splits.partition_point(|s| *s <= key)
    }

    /// Busiest shard over the mean, averaged over every window of `window` consecutive writes
    /// (`writes` are seqs in the order written). With fewer writes than `window`, one window.
    pub fn windowed_max_over_mean(&self, writes: &[u64], window: usize) -> f64 {
        let window = window.clamp(1, writes.len().max(1));
        let shard: Vec<usize> = writes.iter().map(|&s| self.shard_of(s)).collect();
        let mut load = vec![0u64; self.shards()];
        let mean = window as f64 / self.shards() as f64;
        let (mut sum, mut windows) = (0.0, 0u64);
        for (i, &s) in shard.iter().enumerate() {
            load[s] += 1;
            if i >= window {
                load[shard[i - window]] -= 1;
            }
            if i + 1 >= window {
                sum += *load.iter().max().unwrap_or(&0) as f64 / mean;
                windows += 1;
            }
        }
        if windows == 0 {
            return 0.0;
        }
        sum / windows as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_keys_hot_spot_and_tickets_spread() {
        let stored = 64_000;
        let writes: Vec<u64> = (0..stored).collect();
        let consecutive = Sharding::balanced(KeyOrder::Consecutive, stored, 8);
        assert_eq!(consecutive.shards(), 8);
        // Windows inside one shard's range are all on that shard.
        let c = consecutive.windowed_max_over_mean(&writes, 400);
        assert!(c > 7.5, "consecutive {c}");
        let tickets = Sharding::balanced(KeyOrder::Tickets(Layout::default()), stored, 8);
        let t = tickets.windowed_max_over_mean(&writes, 400);
        assert!(t < 1.1, "tickets {t}");
        // 64 shards, 16 rows: at best 16 shards busy.
        let t64 = Sharding::balanced(KeyOrder::Tickets(Layout::default()), stored, 64);
        let r = t64.windowed_max_over_mean(&writes, 1_000);
        assert!((3.9..4.5).contains(&r), "tickets at 64 shards {r}");
    }
}
