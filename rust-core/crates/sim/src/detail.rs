//! A node's `proto::Detail` for the inspector, with peers named by the nodes they are: the
//! groups the page highlights (a GossipSub mesh) and tables of text cells.

use crate::network::Network;
use proto::{Cell, Detail, PeerIdx, RowKey};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeTable {
    pub title: String,
    /// The first column names the row ("node 7", "tx 3"); then the protocol's columns.
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// The node each row is about, or None for a tx row.
    pub row_nodes: Vec<Option<u32>>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeDetail {
    /// Named groups of nodes ("mesh", "fanout").
    pub groups: Vec<(String, Vec<u32>)>,
    pub tables: Vec<NodeTable>,
}

fn node_of(net: &Network, node: usize, p: PeerIdx) -> Option<u32> {
    (p.idx() < net.degree(node)).then(|| net.edges[net.edge(node, p.0)].peer)
}

fn name(net: &Network, node: usize, p: PeerIdx) -> String {
    node_of(net, node, p).map_or_else(|| "?".into(), |n| format!("node {n}"))
}

fn text(net: &Network, node: usize, cell: &Cell) -> String {
    match cell {
        Cell::Text(s) => s.clone(),
        Cell::Num(x) if x.fract() == 0.0 => format!("{x:.0}"),
        Cell::Num(x) => format!("{x:.2}"),
        Cell::Peer(p) => name(net, node, *p),
        Cell::Peers(ps) if ps.is_empty() => "-".into(),
        Cell::Peers(ps) => {
            let mut nodes: Vec<u32> = ps.iter().filter_map(|&p| node_of(net, node, p)).collect();
            nodes.sort_unstable();
            let list: Vec<String> = nodes.iter().map(u32::to_string).collect();
            format!("nodes {}", list.join(", "))
        }
    }
}

/// Names every peer of `node` in `detail` by its node.
pub fn name_peers(net: &Network, node: usize, detail: Detail) -> NodeDetail {
    let groups = detail
        .groups
        .into_iter()
        .map(|(g, peers)| {
            let mut nodes: Vec<u32> = peers
                .iter()
                .filter_map(|&p| node_of(net, node, p))
                .collect();
            nodes.sort_unstable();
            (g.to_string(), nodes)
        })
        .collect();
    let tables = detail
        .tables
        .into_iter()
        .map(|t| {
            let key_column = match t.rows.first() {
                Some((RowKey::Tx(_), _)) => "tx",
                _ => "peer",
            };
            let mut columns = vec![key_column.to_string()];
            columns.extend(t.columns.iter().map(|c| c.to_string()));
            let mut rows = Vec::new();
            let mut row_nodes = Vec::new();
            for (key, cells) in &t.rows {
                let (first, who) = match *key {
                    RowKey::Peer(p) => (name(net, node, p), node_of(net, node, p)),
                    RowKey::Tx(tx) => (format!("tx {}", tx.0), None),
                };
                let mut row = vec![first];
                row.extend(cells.iter().map(|c| text(net, node, c)));
                rows.push(row);
                row_nodes.push(who);
            }
            NodeTable {
                title: t.title.to_string(),
                columns,
                rows,
                row_nodes,
            }
        })
        .collect();
    NodeDetail { groups, tables }
}
