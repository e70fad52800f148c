//! The LT code's overhead, as the codec bench measures it, against the LT bound.

use bench::codec::block_overhead;

/// Figure 1's quantity: codewords per decoded transaction for blocks of k. The LT bound says
/// k + O(sqrt(k) ln^2(k/delta)) codewords suffice; check loosely with constant 1 and against
/// what Strokkur reports (about 1.35-1.45 at k = 50, closer to 1 as k grows).
#[test]
fn block_overhead_is_within_the_lt_bound() {
    let bound = |k: f64| 1.0 + libm_free_ln(k / 0.5).powi(2) / k.sqrt();
    let k50 = block_overhead(50, 300, 1);
    assert!(
        k50 > 1.0 && k50 < 1.6 && k50 < bound(50.0),
        "k=50 overhead {k50}"
    );
    let k500 = block_overhead(500, 12, 2);
    assert!(
        k500 > 1.0 && k500 < 1.3 && k500 < bound(500.0),
        "k=500 overhead {k500}"
    );
    assert!(k500 < k50);
}

fn libm_free_ln(x: f64) -> f64 {
    x.ln()
}
