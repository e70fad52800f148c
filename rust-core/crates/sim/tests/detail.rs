//! The inspector's detail names peers by node: a GossipSub node's mesh is a group of its
//! neighbours, and its peer table says "mesh" for exactly those.

use serde_json::json;
use sim::engine::EngineOptions;
use sim::registry::start_run;
use sim::run::Prepared;

#[test]
fn a_gossipsub_nodes_mesh_is_named_by_node_in_its_group_and_table() {
    let text = json!({
        "name": "detail", "seed": 3, "nodes": 20,
        "topology": { "kind": "random_regular", "degree": 9 },
        "workload": { "kind": "poisson", "total_tps": 5.0, "duration_ms": 3_000.0, "tx_bytes": 200 },
        "protocols": [{ "protocol": "gossipsub" }]
    })
    .to_string();
    let prep = Prepared::new(sim::parse_scenario(&text).unwrap()).unwrap();
    let mut started = start_run(&prep, 0, &EngineOptions::default()).unwrap();
    started.run.run_until(2_500_000);
    for node in [0usize, 7] {
        let detail = started.run.detail(node);
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
