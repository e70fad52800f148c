//! What an adversarial node does. Each protocol interprets the behaviours that make sense
//! for it and treats the rest as honest; the simulator assigns them from the scenario.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Behaviour {
    /// Follows the protocol.
    #[default]
    Honest,
    /// Receives but never sends anything: no forwarding, no announcements, no replies.
    Silent,
    /// Announces what it has (Inv, SeenTx, IHave, IAnnounce) but never answers a request.
    WithholdOnRequest,
    /// Leaves the given fraction of transactions out of everything it sends.
    Censor { fraction: f64 },
    /// Sends well-formed messages whose payload bytes are garbage.
    Corrupt,
    /// Answers requests only after the given delay.
    DelayReplies { delay_ms: f64 },
    /// Sends transactions nobody asked for.
    Spam,
    /// Reports losses it did not have (Strokkur's rate feedback).
    LieAboutLoss,
    /// Told of every transaction the moment it is created (an attacker linked to every origin
    /// with zero latency: seed 004 §5.4), it hands each one it does not censor to every peer
    /// at once, outside any rate control, and leaves the given fraction out.
    PushCensor { fraction: f64 },
}

/// How a scenario spells a behaviour, read into [`Behaviour`]. Serde's derived tagged enums let
/// any field through beside `kind` on a unit variant (`{"kind": "silent", "typo": 1}`); as
/// empty struct variants, the behaviours without parameters refuse fields as the others do.
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum Spelled {
    Honest {},
    Silent {},
    WithholdOnRequest {},
    Censor { fraction: f64 },
    Corrupt {},
    DelayReplies { delay_ms: f64 },
    Spam {},
    LieAboutLoss {},
    PushCensor { fraction: f64 },
}

impl<'de> Deserialize<'de> for Behaviour {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Spelled::deserialize(d)? {
            Spelled::Honest {} => Behaviour::Honest,
            Spelled::Silent {} => Behaviour::Silent,
            Spelled::WithholdOnRequest {} => Behaviour::WithholdOnRequest,
            Spelled::Censor { fraction } => Behaviour::Censor { fraction },
            Spelled::Corrupt {} => Behaviour::Corrupt,
            Spelled::DelayReplies { delay_ms } => Behaviour::DelayReplies { delay_ms },
            Spelled::Spam {} => Behaviour::Spam,
            Spelled::LieAboutLoss {} => Behaviour::LieAboutLoss,
            Spelled::PushCensor { fraction } => Behaviour::PushCensor { fraction },
        })
    }
}

impl Behaviour {
    /// Every behaviour's name, as `kind` spells it in a scenario.
    pub const NAMES: &'static [&'static str] = &[
        "honest",
        "silent",
        "withhold_on_request",
        "censor",
        "corrupt",
        "delay_replies",
        "spam",
        "lie_about_loss",
        "push_censor",
    ];

    pub fn is_honest(&self) -> bool {
        matches!(self, Behaviour::Honest)
    }

    /// Its name, as `kind` spells it in a scenario (one of `NAMES`).
    pub fn name(&self) -> &'static str {
        match self {
            Behaviour::Honest => "honest",
            Behaviour::Silent => "silent",
            Behaviour::WithholdOnRequest => "withhold_on_request",
            Behaviour::Censor { .. } => "censor",
            Behaviour::Corrupt => "corrupt",
            Behaviour::DelayReplies { .. } => "delay_replies",
            Behaviour::Spam => "spam",
            Behaviour::LieAboutLoss => "lie_about_loss",
            Behaviour::PushCensor { .. } => "push_censor",
        }
    }

    /// Whether a node with this behaviour leaves out the tx with this id. The choice is a
    /// pure function of the id so that every censoring node drops the same set.
    pub fn censors(&self, tx: crate::TxId) -> bool {
        match self {
            Behaviour::Silent => true,
            Behaviour::Censor { fraction } => Behaviour::leaves_out(*fraction, tx),
            _ => false,
        }
    }

    /// `censors`, counting also the txs a `push_censor` node leaves out. Only Strokkur
    /// interprets `push_censor`, so the protocols that ignore it read `censors`; this is for
    /// Strokkur and for what reports on a run whose protocol interprets it.
    pub fn keeps_out(&self, tx: crate::TxId) -> bool {
        match self {
            Behaviour::PushCensor { fraction } => Behaviour::leaves_out(*fraction, tx),
            other => other.censors(tx),
        }
    }

    /// The share of txs it leaves out of what it sends: all when silent, none when honest.
    pub fn left_out(&self) -> f64 {
        match self {
            Behaviour::Silent => 1.0,
            Behaviour::Censor { fraction } => *fraction,
            _ => 0.0,
        }
    }

    /// Whether a node that leaves out a `share` of txs leaves out this one (as `censors`).
    #[inline]
    pub fn leaves_out(share: f64, tx: crate::TxId) -> bool {
        let h = (tx.0 ^ 0xc3a5_c85c_97cb_3127).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        ((h >> 11) as f64 / (1u64 << 53) as f64) < share
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TxId;

    #[test]
    fn names_are_the_scenario_kinds() {
        let samples = [
            Behaviour::Honest,
            Behaviour::Silent,
            Behaviour::WithholdOnRequest,
            Behaviour::Censor { fraction: 0.5 },
            Behaviour::Corrupt,
            Behaviour::DelayReplies { delay_ms: 1.0 },
            Behaviour::Spam,
            Behaviour::LieAboutLoss,
            Behaviour::PushCensor { fraction: 0.5 },
        ];
        for (b, name) in samples.iter().zip(Behaviour::NAMES) {
            assert_eq!(b.name(), *name);
            let json = serde_json::to_value(b).unwrap();
            assert_eq!(json["kind"], *name);
            assert_eq!(&serde_json::from_value::<Behaviour>(json).unwrap(), b);
        }
        assert_eq!(samples.len(), Behaviour::NAMES.len());
    }

    /// A behaviour without parameters refuses fields beside `kind`, as those with do.
    #[test]
    fn unknown_fields_are_refused() {
        for text in [
            r#"{"kind": "silent", "typo": 1}"#,
            r#"{"kind": "spam", "rate_per_s": 1e12}"#,
            r#"{"kind": "censor", "fraction": 0.5, "typo": 1}"#,
        ] {
            let refused = serde_json::from_str::<Behaviour>(text).unwrap_err();
            assert!(
                refused.to_string().contains("unknown field"),
                "{text}: {refused}"
            );
        }
    }

    #[test]
    fn censor_fraction_is_roughly_kept() {
        let b = Behaviour::Censor { fraction: 0.2 };
        let n = (0..10_000).filter(|&i| b.censors(TxId(i))).count();
        assert!((1_700..2_300).contains(&n), "{n}");
        assert!(!Behaviour::Honest.censors(TxId(1)));
        // push_censor leaves out the same set as censor, where a protocol interprets it.
        let push = Behaviour::PushCensor { fraction: 0.2 };
        assert!((0..10_000).all(|i| push.keeps_out(TxId(i)) == b.censors(TxId(i))));
        assert!((0..10_000).all(|i| !push.censors(TxId(i))));
    }
}
