//! What an adversarial node does. Each protocol interprets the behaviours that make sense
//! for it and treats the rest as honest; the simulator assigns them from the scenario.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
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
}

impl Behaviour {
    pub fn is_honest(&self) -> bool {
        matches!(self, Behaviour::Honest)
    }

    /// Whether a node with this behaviour leaves out the tx with this id. The choice is a
    /// pure function of the id so that every censoring node drops the same set.
    pub fn censors(&self, tx: crate::TxId) -> bool {
        match self {
            Behaviour::Silent => true,
            Behaviour::Censor { fraction } => {
                let h = (tx.0 ^ 0xc3a5_c85c_97cb_3127).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                ((h >> 11) as f64 / (1u64 << 53) as f64) < *fraction
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TxId;

    #[test]
    fn censor_fraction_is_roughly_kept() {
        let b = Behaviour::Censor { fraction: 0.2 };
        let n = (0..10_000).filter(|&i| b.censors(TxId(i))).count();
        assert!((1_700..2_300).contains(&n), "{n}");
        assert!(!Behaviour::Honest.censors(TxId(1)));
    }
}
