//! Flooding: forward every new transaction to every peer but the one it came from.
//! With `fanout` set it becomes random-subset push: forward to that many random peers.
//!
//! Adversaries: `Silent` forwards nothing, `Censor` does not forward the txs it censors. Flooding
//! has no requests to withhold or delay and sends every tx unasked already.

use crate::pull::Peers;
use crate::wire::framed_len;
use crate::MsgClass;
use crate::{Behaviour, Ctx, Input, NodeSetup, PeerIdx, Protocol, Tx, TxId, TxIdSet, WireMsg};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Flooding and push count nothing of their own: the host's copies and bytes say it all.
pub mod counters {
    use crate::Counter;

    pub const ALL: &[&Counter] = &[];
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FloodConfig {
    /// Forward to this many random peers instead of all (random-subset push); none = all.
    #[serde(default)]
    pub fanout: Option<u32>,
}

/// The only message: a full transaction. On the wire: frame length, tag, body.
#[derive(Clone, Debug)]
pub struct FloodMsg(pub Tx);

/// Bytes of the message tag in front of the body.
const TAG_LEN: usize = 1;

impl WireMsg for FloodMsg {
    fn wire_len(&self) -> usize {
        framed_len(TAG_LEN + self.0.len as usize)
    }
    fn payload_len(&self) -> usize {
        self.0.len as usize
    }
    fn full_tx(&self) -> Option<TxId> {
        Some(self.0.id)
    }
    fn class(&self) -> MsgClass {
        MsgClass::Payload
    }
    fn kind(&self) -> &'static str {
        "tx"
    }
}

pub struct Flood {
    fanout: Option<u32>,
    /// The share of txs it does not forward (`Behaviour::left_out`): a number, not the
    /// behaviour, so that the state stays small (the engine indexes an array of them).
    left_out: f64,
    peers: Peers,
    seen: TxIdSet,
    scratch: Vec<usize>,
}

impl Flood {
    /// A transaction seen for the first time: deliver it and pass it on.
    #[inline(never)]
    fn accept(&mut self, tx: Tx, from: Option<PeerIdx>, cx: &mut Ctx<'_, Self>) {
        cx.deliver(tx);
        self.forward(tx, from, cx);
    }

    fn forward(&mut self, tx: Tx, except: Option<PeerIdx>, cx: &mut Ctx<'_, Self>) {
        if self.left_out > 0.0 && Behaviour::leaves_out(self.left_out, tx.id) {
            return;
        }
        let targets = self.peers.iter_up().filter(|&p| Some(p) != except);
        match self.fanout {
            None => {
                for p in targets {
                    cx.send(p, FloodMsg(tx));
                }
            }
            Some(k) => {
                let candidates: Vec<PeerIdx> = targets.collect();
                cx.rng
                    .sample_distinct(candidates.len(), k as usize, &mut self.scratch);
                for &i in &self.scratch {
                    cx.send(candidates[i], FloodMsg(tx));
                }
            }
        }
    }
}

impl Protocol for Flood {
    type Msg = FloodMsg;
    type Timer = ();
    type Config = FloodConfig;

    fn new(config: &FloodConfig, setup: &NodeSetup) -> Self {
        Flood {
            fanout: config.fanout,
            left_out: setup.behaviour.left_out(),
            peers: Peers::default(),
            seen: TxIdSet::default(),
            scratch: Vec::new(),
        }
    }

    /// Inlined into the engine: most messages are copies already seen, and for those the
    /// whole work is one bit test.
    #[inline(always)]
    fn handle(&mut self, input: Input<FloodMsg, ()>, cx: &mut Ctx<'_, Self>) {
        match input {
            Input::Message(from, FloodMsg(tx)) => {
                if self.seen.insert(tx.id) {
                    self.accept(tx, Some(from), cx);
                }
            }
            Input::Submit(tx) => {
                if self.seen.insert(tx.id) {
                    self.accept(tx, None, cx);
                }
            }
            Input::PeerUp(p) => self.peers.set(p, true),
            Input::PeerDown(p) => self.peers.set(p, false),
            Input::Timer(()) => {}
        }
    }

    fn set_behaviour(&mut self, behaviour: &Behaviour, _: &mut Ctx<'_, Self>) {
        self.left_out = behaviour.left_out();
    }

    fn inspect(&self) -> Vec<(&'static str, String)> {
        vec![
            ("seen txs", self.seen.len().to_string()),
            ("peers up", self.peers.count_up().to_string()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testnet::Solo;

    fn tx(id: u64) -> Tx {
        Tx {
            id: TxId(id),
            len: 100,
        }
    }

    /// Flood and push keep nothing of a peer but whether it is up: a new peer at a reused
    /// index gets what comes after it arrived, and a copy it sends of a tx the old peer sent
    /// is a copy like any other.
    #[test]
    fn a_reused_peer_index_starts_with_nothing() {
        let (old, a, b) = (PeerIdx(0), PeerIdx(1), PeerIdx(2));
        for fanout in [None, Some(2)] {
            let mut node: Solo<Flood> = Solo::new(&FloodConfig { fanout }, Behaviour::Honest, 1);
            for p in [old, a, b] {
                node.input(Input::PeerUp(p));
            }
            node.input(Input::Message(old, FloodMsg(tx(1))));
            node.input(Input::PeerDown(old));
            // While the index is free, nothing goes to it (push picks among the others).
            node.input(Input::Submit(tx(2)));
            let mut sent: Vec<(TxId, PeerIdx)> =
                node.take_sent().iter().map(|(p, m)| (m.0.id, *p)).collect();
            sent.sort();
            let expected = [(TxId(1), a), (TxId(1), b), (TxId(2), a), (TxId(2), b)];
            assert_eq!(sent, expected, "{fanout:?}");

            node.input(Input::PeerUp(old));
            node.input(Input::Message(old, FloodMsg(tx(1))));
            assert!(node.take_sent().is_empty(), "a copy already seen");
            // A new tx reaches the new peer (push: unless its random subset leaves it out).
            for id in 3..10 {
                node.input(Input::Submit(tx(id)));
            }
            let to_new: Vec<TxId> = node.sent_to(old).iter().map(|m| m.0.id).collect();
            match fanout {
                None => assert_eq!(to_new, (3..10).map(TxId).collect::<Vec<_>>()),
                Some(_) => assert!(!to_new.is_empty() && to_new.iter().all(|&id| id >= TxId(3))),
            }
            assert_eq!(node.delivered, (1..10).map(TxId).collect::<Vec<_>>());
        }
    }
}
