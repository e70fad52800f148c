//! Uniform jitter (`004` Fig. 6) with one pending timer per held tx, not one per (tx, peer).
//!
//! Each (tx, peer) pair waits its own uniform delay, as before, but the delays are a hash of
//! the peer under a key drawn once per tx, rather than a draw per pair kept in its timer. The
//! key travels in the timer, so a tx's announcements form a chain: the timer of one peer's
//! turn, when it fires, recomputes every delay, finds the next turn (the smallest (delay,
//! peer) after its own) and sets that one's timer. A node with 16 peers and 1 s of jitter
//! thus keeps a sixteenth of the timers waiting (at 2,500 tx/s over 250 nodes, 5 million
//! fewer host queue entries of about 60 bytes each), and no side table that firing would
//! have to look up.

use crate::rng::{mix, unit_of};
use crate::{Dur, PeerIdx, Time};

/// The delay before a tx is announced to `peer`: uniform in [0, max_ms], from the tx's `key`.
pub(super) fn delay(key: u32, peer: PeerIdx, max_ms: f64) -> Dur {
    let h = mix(u64::from(key) << 32 | u64::from(peer.0));
    Dur::from_millis_f64(unit_of(h) * max_ms)
}

/// The turn after `after` among `candidates`: the smallest (delay, peer) above it.
pub(super) fn next_turn(
    candidates: impl Iterator<Item = PeerIdx>,
    after: Option<(Dur, PeerIdx)>,
    delay_of: impl Fn(PeerIdx) -> Dur,
) -> Option<(Dur, PeerIdx)> {
    candidates
        .map(|p| (delay_of(p), p))
        .filter(|&turn| after.is_none_or(|a| turn > a))
        .min()
}

/// When the chain's tx was announced, from the time a turn fired and that turn's delay.
pub(super) fn announced_at(now: Time, turn_delay: Dur) -> Time {
    Time(now.0.saturating_sub(turn_delay.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_are_uniform_in_range_and_differ_by_key_and_peer() {
        let n = 20_000;
        let ds: Vec<f64> = (0..n)
            .map(|i| delay(i / 16, PeerIdx(i % 16), 1_000.0).0 as f64)
            .collect();
        assert!(ds.iter().all(|&d| (0.0..=1_000_000.0).contains(&d)));
        let mean = ds.iter().sum::<f64>() / n as f64;
        assert!((mean - 500_000.0).abs() < 10_000.0, "mean {mean} µs");
        let below_tenth = ds.iter().filter(|&&d| d < 100_000.0).count() as f64 / n as f64;
        assert!((below_tenth - 0.1).abs() < 0.01, "{below_tenth}");
        let d = |key, peer| delay(key, PeerIdx(peer), 1_000.0);
        assert_eq!(d(1, 3), d(1, 3));
        assert_ne!(d(1, 3), d(9, 3));
        assert_ne!(d(1, 3), d(1, 5));
    }

    #[test]
    fn turns_come_in_delay_order_then_peer_order() {
        let delays = [30, 10, 30, 20];
        let of = |p: PeerIdx| Dur(delays[p.idx()]);
        let peers = || (0..4).map(PeerIdx);
        let mut turns = Vec::new();
        let mut after = None;
        while let Some(turn) = next_turn(peers(), after, of) {
            turns.push(turn.1 .0);
            after = Some(turn);
        }
        assert_eq!(turns, [1, 3, 0, 2]);
        let without_3 = (0..3).map(PeerIdx);
        assert_eq!(
            next_turn(without_3, Some((Dur(10), PeerIdx(1))), of),
            Some((Dur(30), PeerIdx(0)))
        );
    }

    #[test]
    fn the_announcement_time_comes_back_from_a_turn() {
        let at = Time(5_000);
        let d = delay(3, PeerIdx(2), 250.0);
        assert_eq!(announced_at(at + d, d), at);
    }
}
