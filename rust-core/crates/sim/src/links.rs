//! Which links should be up while timed events change the network: a link is up while both
//! its ends are present, no partition separates them, and no protocol tore it down. The
//! engine keeps one of these only for runs with events; it asks which links a change takes
//! down or brings back, and carries that out.

use crate::network::Network;

pub struct Links {
    away: Vec<bool>,
    /// Per node, one bit per partition in force that cut it off: two nodes are separated
    /// when their bits differ.
    side: Vec<u64>,
    partitions: u32,
    /// The nodes some partition in force cut off: a heal looks at their links only.
    cut_off: Vec<u32>,
    /// Directed edges a protocol disconnected: they never come back.
    torn: Vec<bool>,
    /// Per directed edge, whether the change being carried out takes it down (set and cleared
    /// by the engine around one sweep of its queue).
    pub going_down: Vec<bool>,
}

/// Partitions in force at once, at most: one bit each, so that a node's side is also exact
/// as a JavaScript number (the page draws cut links from it).
pub const MAX_PARTITIONS: u32 = 48;

impl Links {
    pub fn new(net: &Network) -> Links {
        Links {
            away: vec![false; net.nodes],
            side: vec![0; net.nodes],
            partitions: 0,
            cut_off: Vec::new(),
            torn: vec![false; net.edges.len()],
            going_down: vec![false; net.edges.len()],
        }
    }

    /// Whether edge `e`, from `v`, should be up now.
    pub fn wanted(&self, net: &Network, v: usize, e: usize) -> bool {
        let w = net.edges[e].peer as usize;
        !self.away[v] && !self.away[w] && self.side[v] == self.side[w] && !self.torn[e]
    }

    pub fn set_away(&mut self, v: usize, away: bool) {
        self.away[v] = away;
    }

    /// Cuts `group` off from everyone else (scenarios hold at most `MAX_PARTITIONS` in force).
    pub fn partition(&mut self, group: &[u32]) {
        let bit = 1u64 << (self.partitions % MAX_PARTITIONS);
        self.partitions += 1;
        for &v in group {
            self.side[v as usize] |= bit;
        }
        self.cut_off.extend_from_slice(group);
    }

    /// Every partition ends; returns the nodes that were cut off (ascending, once each).
    pub fn heal(&mut self) -> Vec<u32> {
        let mut healed = std::mem::take(&mut self.cut_off);
        healed.sort_unstable();
        healed.dedup();
        for &v in &healed {
            self.side[v as usize] = 0;
        }
        self.partitions = 0;
        healed
    }

    /// A protocol disconnected the link (both directions).
    pub fn tear(&mut self, e: usize, rev: usize) {
        self.torn[e] = true;
        self.torn[rev] = true;
    }
}
