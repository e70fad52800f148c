//! Max-min fair rates (`links.sharing` "max_min") by progressive filling: every flow's rate
//! rises together until a port runs full; the flows through it keep that rate, and what they
//! take from their other port is gone there; the rest rise on. The result hands a flow's unused
//! share at one end to the other flows there, as TCP flows that meet at one bottleneck do.
//!
//! A start or stop can move the rate of any flow linked to it through busy ports, so each one
//! fills the whole set of ports and flows reachable from the ports it touched. Exact in
//! integers: a port's level is its capacity left over its flows still rising, rounded down.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The flows' ports, capacities and current members, as the caller keeps them.
pub trait Ports {
    /// Bits per second of port `p` (0: unlimited).
    fn bps(&self, p: usize) -> u64;
    /// The flows through port `p`.
    fn flows(&self, p: usize) -> &[u32];
    /// The two ports of flow `f`.
    fn ports_of(&self, f: usize) -> [usize; 2];
}

/// The rate of a flow whose ports are both unlimited.
pub const UNLIMITED: u64 = u64::MAX;

/// Scratch space kept between fills (sized to the ports and flows once).
#[derive(Default)]
pub struct MaxMin {
    /// Fill number that last reached each port and flow.
    port_seen: Vec<u32>,
    flow_seen: Vec<u32>,
    fill: u32,
    /// Per port: capacity not yet taken by frozen flows; flows still rising.
    left: Vec<u64>,
    rising: Vec<u32>,
    frozen: Vec<bool>,
    ports: Vec<usize>,
    flows: Vec<u32>,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
}

impl MaxMin {
    pub fn new(ports: usize, flows: usize) -> MaxMin {
        MaxMin {
            port_seen: vec![0; ports],
            flow_seen: vec![0; flows],
            left: vec![0; ports],
            rising: vec![0; ports],
            frozen: vec![false; flows],
            ..MaxMin::default()
        }
    }

    /// The max-min rates of every flow reachable from `start` through shared ports, passed to
    /// `set(flow, rate)` in the order the filling froze them.
    pub fn fill(&mut self, net: &impl Ports, start: &[usize], mut set: impl FnMut(usize, u64)) {
        self.reach(net, start);
        for &p in &self.ports {
            self.left[p] = net.bps(p);
            self.rising[p] = net.flows(p).len() as u32;
            if net.bps(p) != 0 && self.rising[p] != 0 {
                self.heap
                    .push(Reverse((level(self.left[p], self.rising[p]), p as u32)));
            }
        }
        for &f in &self.flows {
            self.frozen[f as usize] = false;
        }
        while let Some(Reverse((at, p))) = self.heap.pop() {
            let p = p as usize;
            if self.rising[p] == 0 {
                continue;
            }
            // Freezing flows elsewhere only raises a port's level: look again later.
            let now = level(self.left[p], self.rising[p]);
            if now != at {
                self.heap.push(Reverse((now, p as u32)));
                continue;
            }
            for &f in net.flows(p) {
                let f = f as usize;
                if self.frozen[f] {
                    continue;
                }
                self.frozen[f] = true;
                for q in net.ports_of(f) {
                    self.rising[q] -= 1;
                    if q != p && net.bps(q) != 0 {
                        // A level is at least 1, even of a port with nothing left.
                        self.left[q] = self.left[q].saturating_sub(at);
                    }
                }
                set(f, at);
            }
        }
        // Flows between two unlimited ports.
        for &f in &self.flows {
            if !self.frozen[f as usize] {
                set(f as usize, UNLIMITED);
            }
        }
    }

    /// Gathers the ports and flows linked to `start` (flows join ports, ports join flows).
    fn reach(&mut self, net: &impl Ports, start: &[usize]) {
        self.fill = self.fill.wrapping_add(1);
        if self.fill == 0 {
            self.port_seen.fill(0);
            self.flow_seen.fill(0);
            self.fill = 1;
        }
        self.ports.clear();
        self.flows.clear();
        for &p in start {
            if self.port_seen[p] != self.fill {
                self.port_seen[p] = self.fill;
                self.ports.push(p);
            }
        }
        let mut next = 0;
        while next < self.ports.len() {
            let p = self.ports[next];
            next += 1;
            for &f in net.flows(p) {
                if self.flow_seen[f as usize] == self.fill {
                    continue;
                }
                self.flow_seen[f as usize] = self.fill;
                self.flows.push(f);
                for q in net.ports_of(f as usize) {
                    if self.port_seen[q] != self.fill {
                        self.port_seen[q] = self.fill;
                        self.ports.push(q);
                    }
                }
            }
        }
    }
}

/// A port's fill level: its capacity left shared among its flows still rising (at least 1).
fn level(left: u64, rising: u32) -> u64 {
    (left / rising as u64).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Net {
        bps: Vec<u64>,
        flows: Vec<Vec<u32>>,
        ends: Vec<[usize; 2]>,
    }

    impl Ports for Net {
        fn bps(&self, p: usize) -> u64 {
            self.bps[p]
        }
        fn flows(&self, p: usize) -> &[u32] {
            &self.flows[p]
        }
        fn ports_of(&self, f: usize) -> [usize; 2] {
            self.ends[f]
        }
    }

    fn net(bps: &[u64], ends: &[[usize; 2]]) -> Net {
        let mut flows = vec![Vec::new(); bps.len()];
        for (f, e) in ends.iter().enumerate() {
            for &p in e {
                flows[p].push(f as u32);
            }
        }
        Net {
            bps: bps.to_vec(),
            flows,
            ends: ends.to_vec(),
        }
    }

    fn rates(n: &Net, start: &[usize]) -> Vec<u64> {
        let mut out = vec![0; n.ends.len()];
        MaxMin::new(n.bps.len(), n.ends.len()).fill(n, start, |f, r| out[f] = r);
        out
    }

    #[test]
    fn a_flow_held_back_at_one_end_hands_the_rest_of_the_other_to_its_flows() {
        // Port 0 (an uplink of 90) carries flows 0..3 to ports 1, 2, 3; port 1 (a downlink of
        // 30) also takes flows 3, 4 from ports 4, 5 (uplinks of 90). Port 1's three flows get
        // 10 each; port 0's other two take the 80 left: 40 each.
        let n = net(
            &[90, 30, 100, 100, 90, 90],
            &[[0, 1], [0, 2], [0, 3], [4, 1], [5, 1]],
        );
        assert_eq!(rates(&n, &[0]), vec![10, 40, 40, 10, 10]);
    }

    #[test]
    fn only_the_flows_linked_to_the_change_are_filled() {
        let n = net(&[10, 10, 10, 10], &[[0, 1], [2, 3]]);
        let mut seen = Vec::new();
        MaxMin::new(4, 2).fill(&n, &[0, 1], |f, r| seen.push((f, r)));
        assert_eq!(seen, vec![(0, 10)]);
    }

    proptest::proptest! {
        /// What max-min fairness means: no port carries more than it can, and every flow has a
        /// bottleneck, a port that is full (but for rounding) where no flow goes faster.
        #[test]
        fn every_flow_is_held_back_by_a_full_port_where_it_is_among_the_fastest(
            bps in proptest::collection::vec(prop_oneof_bps(), 2..12),
            pairs in proptest::collection::vec((0usize..64, 0usize..64), 1..30),
        ) {
            let p = bps.len();
            let ends: Vec<[usize; 2]> = pairs.iter().map(|&(a, b)| two_ports(a, b, p)).collect();
            let n = net(&bps, &ends);
            let all: Vec<usize> = (0..p).collect();
            let r = rates(&n, &all);
            let load = |q: usize| n.flows[q].iter().map(|&f| r[f as usize] as u128).sum::<u128>();
            for q in (0..p).filter(|&q| bps[q] != 0) {
                proptest::prop_assert!(load(q) <= bps[q] as u128, "port {q} over: {r:?}");
            }
            for (f, e) in ends.iter().enumerate() {
                let held = e.iter().any(|&q| {
                    let full = bps[q] != 0
                        && load(q) + n.flows[q].len() as u128 >= bps[q] as u128;
                    full && n.flows[q].iter().all(|&g| r[g as usize] <= r[f])
                });
                let free = e.iter().all(|&q| bps[q] == 0);
                let unlimited = free && r[f] == UNLIMITED;
                proptest::prop_assert!(held || unlimited, "flow {f}: {r:?} {ends:?} {bps:?}");
            }
        }
    }

    proptest::proptest! {
        /// Flows start and stop one at a time; filling what each change reaches gives every
        /// flow the rate a filling of the whole network gives it.
        #[test]
        fn filling_what_a_change_reaches_rates_every_flow_as_filling_everything(
            bps in proptest::collection::vec(prop_oneof_bps(), 4..14),
            steps in proptest::collection::vec((0usize..64, 0usize..64), 1..80),
        ) {
            let p = bps.len();
            let ends: Vec<[usize; 2]> = (0..24)
                .map(|i| {
                    let (a, b) = steps[i % steps.len()];
                    two_ports(a, b, p)
                })
                .collect();
            let mut n = net(&bps, &ends);
            n.flows = vec![Vec::new(); p];
            let mut live = vec![false; ends.len()];
            let mut rate = vec![0; ends.len()];
            let mut kept = MaxMin::new(p, ends.len());
            let all: Vec<usize> = (0..p).collect();
            for &(pick, _) in &steps {
                let f = pick % ends.len();
                live[f] = !live[f];
                for &q in &ends[f] {
                    match live[f] {
                        true => n.flows[q].push(f as u32),
                        false => n.flows[q].retain(|&g| g as usize != f),
                    }
                }
                kept.fill(&n, &ends[f], |g, r| rate[g] = r);
                let whole = rates(&n, &all);
                for g in (0..ends.len()).filter(|&g| live[g]) {
                    proptest::prop_assert_eq!(rate[g], whole[g], "flow {} of {:?}", g, live);
                }
            }
        }
    }

    /// The two distinct ports of `p` (at least 2) that a random pair `(a, b)` names.
    fn two_ports(a: usize, b: usize, p: usize) -> [usize; 2] {
        [a % p, (a % p + 1 + b % (p - 1)) % p]
    }

    fn prop_oneof_bps() -> impl proptest::strategy::Strategy<Value = u64> {
        proptest::prop_oneof![proptest::strategy::Just(0u64), 1_000u64..1_000_000]
    }

    #[test]
    fn unlimited_ports_never_hold_a_flow_back() {
        let n = net(&[0, 12, 0, 0], &[[0, 1], [0, 1], [2, 3]]);
        assert_eq!(rates(&n, &[0, 2]), vec![6, 6, UNLIMITED]);
    }
}
