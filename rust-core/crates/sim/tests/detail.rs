//! The inspector's detail names peers by node: a GossipSub node's mesh is a group of its
//! neighbours, and its peer table says "mesh" for exactly those. A Strokkur node's links split
//! its pending codewords by sender.

use serde_json::{json, Value};
use sim::engine::EngineOptions;
use sim::registry::start_run;
use sim::run::{Prepared, Run};

/// A random regular network of `nodes` (degree `degree`) running one protocol up to `until_us`.
fn run_to(
    nodes: u32,
    degree: u32,
    workload: Value,
    protocol: &str,
    until_us: u64,
) -> (Prepared, Box<dyn Run>) {
    let text = json!({
        "name": "detail", "seed": 3, "nodes": nodes,
        "topology": { "kind": "random_regular", "degree": degree },
        "workload": workload,
        "protocols": [{ "protocol": protocol }]
    })
    .to_string();
    let prep = Prepared::new(sim::parse_scenario(&text).unwrap()).unwrap();
    let mut run = start_run(&prep, 0, &EngineOptions::default()).unwrap().run;
    run.run_until(until_us);
    (prep, run)
}

#[test]
fn a_gossipsub_nodes_mesh_is_named_by_node_in_its_group_and_table() {
    let workload =
        json!({ "kind": "poisson", "total_tps": 5.0, "duration_ms": 3_000.0, "tx_bytes": 200 });
    let (prep, run) = run_to(20, 9, workload, "gossipsub", 2_500_000);
    for node in [0usize, 7] {
        let detail = run.detail(node);
        let (name, mesh) = &detail.groups[0];
        assert_eq!(name, "mesh");
        assert!((4..=9).contains(&mesh.len()), "{mesh:?}");
        let neighbours: Vec<u32> = prep
            .net
            .edges_of(node)
            .map(|e| prep.net.edges[e].peer)
            .collect();
        assert!(mesh.iter().all(|m| neighbours.contains(m)), "{mesh:?}");
        let peers = &detail.tables[0];
        assert_eq!(peers.columns[..2], ["peer".to_string(), "in".to_string()]);
        assert_eq!(peers.rows.len(), 9);
        let in_mesh: Vec<u32> = peers
            .rows
            .iter()
            .zip(&peers.row_nodes)
            .filter(|(row, _)| row[1] == "mesh")
            .map(|(_, n)| n.unwrap())
            .collect();
        let mut expected = mesh.clone();
        expected.sort_unstable();
        let mut got = in_mesh;
        got.sort_unstable();
        assert_eq!(got, expected);
    }
}

#[test]
fn a_strokkur_nodes_links_say_what_waits_to_peel_from_each_peer() {
    let workload =
        json!({ "kind": "poisson", "total_tps": 40.0, "duration_ms": 2_000.0, "tx_bytes": 300 });
    let (_, run) = run_to(30, 6, workload, "strokkur", 1_000_000);
    let number = |s: &str| s.replace(',', "").parse::<f64>().unwrap();
    let mut waiting_somewhere = 0.0;
    for node in 0..30 {
        let links = &run.detail(node).tables[0];
        assert_eq!(links.rows.len(), 6);
        let col = links
            .columns
            .iter()
            .position(|c| c == "waiting to peel")
            .unwrap();
        let waiting: f64 = links.rows.iter().map(|r| number(&r[col])).sum();
        // Per link, the node's pending codewords split by the peer that sent them.
        let state = run.inspect(node);
        let pending = &state
            .iter()
            .find(|(k, _)| *k == "codewords pending")
            .unwrap()
            .1;
        assert_eq!(waiting, number(pending), "node {node}");
        waiting_somewhere += waiting;
    }
    assert!(waiting_somewhere > 0.0);
}
