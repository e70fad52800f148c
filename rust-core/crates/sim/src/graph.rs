//! Undirected peer graphs and how to draw them at random. The result is a plain edge list;
//! `network` turns it into the per-node peer tables the engine uses.

use proto::Rng;
use std::collections::BTreeSet;

/// Why a graph could not be built.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphError(pub String);

/// A random d-regular graph on n nodes: pair up n*d half-edges at random, then repair
/// self-loops and parallel edges by random edge switches (which keep every degree at d).
pub fn random_regular(n: usize, d: usize, rng: &mut Rng) -> Result<Vec<(u32, u32)>, GraphError> {
    if d >= n {
        return Err(GraphError(format!(
            "degree {d} must be below the node count {n}"
        )));
    }
    if !(n * d).is_multiple_of(2) {
        return Err(GraphError(format!(
            "nodes x degree ({n} x {d}) must be even"
        )));
    }
    if 2 * d > n - 1 {
        // Dense: switches rarely find room, so draw the sparse complement and invert it.
        let sparse = random_regular(n, n - 1 - d, rng)?;
        let mut absent = vec![false; n * n];
        for &(a, b) in &sparse {
            absent[a as usize * n + b as usize] = true;
            absent[b as usize * n + a as usize] = true;
        }
        let mut edges = Vec::with_capacity(n * d / 2);
        for a in 0..n {
            for b in a + 1..n {
                if !absent[a * n + b] {
                    edges.push((a as u32, b as u32));
                }
            }
        }
        rng.shuffle(&mut edges);
        return Ok(edges);
    }
    let mut stubs: Vec<u32> = (0..n as u32)
        .flat_map(|v| std::iter::repeat_n(v, d))
        .collect();
    rng.shuffle(&mut stubs);
    let mut edges: Vec<(u32, u32)> = stubs.chunks_exact(2).map(|c| (c[0], c[1])).collect();
    let mut present: BTreeSet<(u32, u32)> = BTreeSet::new();
    let mut bad: Vec<usize> = Vec::new();
    for (i, &(a, b)) in edges.iter().enumerate() {
        if a == b || !present.insert(ordered(a, b)) {
            bad.push(i);
        }
    }
    // Each bad edge (a,b) swaps partners with a random good edge (c,e): (a,c),(b,e).
    let mut attempts = 0usize;
    while let Some(&i) = bad.last() {
        attempts += 1;
        if attempts > 100 * edges.len() + 1000 {
            return Err(GraphError(format!(
                "could not draw a simple {d}-regular graph on {n} nodes"
            )));
        }
        let j = rng.index(edges.len());
        if j == i || bad.contains(&j) {
            continue;
        }
        let (a, b) = edges[i];
        let (c, e) = edges[j];
        let (x, y) = if rng.chance(0.5) {
            ((a, c), (b, e))
        } else {
            ((a, e), (b, c))
        };
        if x.0 == x.1 || y.0 == y.1 || ordered(x.0, x.1) == ordered(y.0, y.1) {
            continue;
        }
        if present.contains(&ordered(x.0, x.1)) || present.contains(&ordered(y.0, y.1)) {
            continue;
        }
        // A bad edge never owns its entry in `present` (a loop has none, a parallel edge's
        // entry belongs to its good twin), so only the good edge's entry goes.
        present.remove(&ordered(c, e));
        present.insert(ordered(x.0, x.1));
        present.insert(ordered(y.0, y.1));
        edges[i] = x;
        edges[j] = y;
        bad.pop();
    }
    Ok(edges)
}

/// G(n, m): m distinct edges drawn uniformly, no self-loops.
pub fn gnm(n: usize, m: usize, rng: &mut Rng) -> Result<Vec<(u32, u32)>, GraphError> {
    let max = n.saturating_mul(n.saturating_sub(1)) / 2;
    if m > max {
        return Err(GraphError(format!(
            "{m} edges do not fit in a simple graph on {n} nodes (max {max})"
        )));
    }
    let mut present = BTreeSet::new();
    let mut edges = Vec::with_capacity(m);
    while edges.len() < m {
        let a = rng.index(n) as u32;
        let b = rng.index(n) as u32;
        if a != b && present.insert(ordered(a, b)) {
            edges.push((a, b));
        }
    }
    Ok(edges)
}

fn ordered(a: u32, b: u32) -> (u32, u32) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

/// Degree of every node in an edge list.
pub fn degrees(n: usize, edges: &[(u32, u32)]) -> Vec<usize> {
    let mut deg = vec![0; n];
    for &(a, b) in edges {
        deg[a as usize] += 1;
        deg[b as usize] += 1;
    }
    deg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_simple(edges: &[(u32, u32)]) -> bool {
        let mut s = BTreeSet::new();
        edges
            .iter()
            .all(|&(a, b)| a != b && s.insert(ordered(a, b)))
    }

    #[test]
    fn random_regular_is_simple_and_regular() {
        for (n, d, seed) in [
            (10, 3, 1),
            (100, 16, 2),
            (1000, 16, 3),
            (50, 49, 4),
            (6, 4, 5),
        ] {
            let mut rng = Rng::from_seed(seed);
            let e = random_regular(n, d, &mut rng).unwrap();
            assert_eq!(e.len(), n * d / 2);
            assert!(is_simple(&e), "n={n} d={d}");
            assert!(degrees(n, &e).iter().all(|&k| k == d), "n={n} d={d}");
        }
    }

    #[test]
    fn impossible_graphs_are_refused() {
        let mut rng = Rng::from_seed(1);
        assert!(random_regular(5, 5, &mut rng).is_err());
        assert!(random_regular(5, 3, &mut rng).is_err());
        assert!(gnm(4, 7, &mut rng).is_err());
    }

    #[test]
    fn gnm_has_m_distinct_edges() {
        let mut rng = Rng::from_seed(5);
        let e = gnm(30, 100, &mut rng).unwrap();
        assert_eq!(e.len(), 100);
        assert!(is_simple(&e));
    }
}
