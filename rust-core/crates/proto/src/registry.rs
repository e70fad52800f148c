//! The one list of protocols: each name a scenario, the light node or the relay can use, what
//! it is, and which type and config rules it stands for. The simulator, the WASM bindings and
//! the light node all resolve names here; the page reads the list through `protocols()`.

use crate::cat::Cat;
use crate::flood::Flood;
use crate::gossipsub::{Gossipsub, Limits};
use crate::inv::Inv;
use crate::live::{Framed, GossipNode, Live};
use crate::shrec::Shrec;
use crate::strokkur::Strokkur;
use crate::{cat, flood, gossipsub, inv, shrec, strokkur};
use crate::{Behaviour, Counter, Protocol, TxStore};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// What a user is told about a protocol.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ProtocolInfo {
    pub name: &'static str,
    /// One line, for `txsim protocols`.
    pub summary: &'static str,
    /// A few sentences for the page's glossary.
    pub about: &'static str,
    /// The name of its config type in the scenario schema.
    pub config_type: &'static str,
    /// Whether it also runs on a real libp2p network (the light node, the relay).
    pub live: bool,
    /// Every counter it may report, each described.
    pub counters: &'static [&'static Counter],
    /// The adversary behaviours it interprets, by name (`Behaviour::NAMES`); any other leaves
    /// a node honest in its runs.
    pub behaviours: &'static [&'static str],
    /// Every kind of message it sends, each described (the page's legend and lessons).
    pub messages: &'static [MessageInfo],
    /// What a simulated run of it holds in memory, so that a run too big is refused up front.
    #[serde(skip)]
    pub memory: RunMemory,
}

/// Bytes a simulated run holds per (node, tx) (what each node knows of each tx, and the
/// arrival logs), per (node, tx created in the busiest second) on top (the messages in flight
/// at once) and per directed link (each side's state of a peer). Measured at default settings
/// as `txsim run`'s peak RSS on 40 nodes of degree 6 with 200,000 txs over 10 s and 100,000 at
/// once, and on 10,000 nodes of degree 20 with one tx; rounded up by about a third.
#[derive(Clone, Copy, Debug)]
pub struct RunMemory {
    pub per_node_tx: u64,
    pub per_node_busy_tx: u64,
    pub per_link: u64,
}

/// What a user is told about a kind of message.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct MessageInfo {
    /// As `WireMsg::kind` names it.
    pub kind: &'static str,
    /// As the protocol's spec writes it ("IHAVE", "SeenTx").
    pub label: &'static str,
    /// One line: what it says and when it is sent.
    pub about: &'static str,
}

const fn msg(kind: &'static str, label: &'static str, about: &'static str) -> MessageInfo {
    MessageInfo { kind, label, about }
}

const FLOOD_MESSAGES: &[MessageInfo] = &[msg(
    "tx",
    "TX",
    "A whole transaction, pushed unasked to the peers.",
)];
const INV_MESSAGES: &[MessageInfo] = &[
    msg(
        "Inv",
        "INV",
        "Hashes of txs the sender has, sent after its trickle delay.",
    ),
    msg(
        "GetData",
        "GETDATA",
        "Asks the peer that announced them for the txs.",
    ),
    msg("Tx", "TX", "A whole transaction, answering GETDATA."),
];
const SHREC_MESSAGES: &[MessageInfo] = &[
    msg(
        "Hello",
        "HELLO",
        "The key the receiver names txs to the sender with (short keyed IDs).",
    ),
    msg("Announce", "ANNOUNCE", "Short IDs of txs the sender has."),
    msg(
        "Request",
        "REQUEST",
        "Asks one announcer for a tx by its short ID.",
    ),
    msg("Tx", "TX", "A whole transaction, answering REQUEST."),
];
const CAT_MESSAGES: &[MessageInfo] = &[
    msg(
        "Txs",
        "Txs",
        "A whole transaction: pushed by its creator, or answering WantTx.",
    ),
    msg(
        "SeenTx",
        "SeenTx",
        "The sender has this tx (its SHA-256 key): no need to push it there.",
    ),
    msg(
        "WantTx",
        "WantTx",
        "Asks one peer that has seen the tx for it; the next is asked after a timeout.",
    ),
    msg(
        "Hello",
        "Hello",
        "CAT2: the sender's node ID, so that SeenTx can name where a tx came from.",
    ),
];
const GOSSIPSUB_MESSAGES: &[MessageInfo] = &[
    msg("subscribe", "SUBSCRIBE", "The topics the sender joined: only subscribers are grafted and gossiped to."),
    msg("publish", "PUBLISH", "A whole message (the tx), pushed along the mesh."),
    msg("graft", "GRAFT", "Adds the link to both sides' mesh."),
    msg("prune", "PRUNE", "Drops the link from the mesh, with a backoff before the next GRAFT."),
    msg("ihave", "IHAVE", "Gossip: ids of recent messages, each heartbeat, to a few peers outside the mesh."),
    msg("iwant", "IWANT", "Asks the IHAVE's sender for the messages the receiver lacks."),
    msg("idontwant", "IDONTWANT", "v1.2: the sender has this message now; do not send it another copy."),
    msg("iannounce", "IANNOUNCE", "v2.0: the sender has this message; ask with INEED (sent to some mesh peers instead of it)."),
    msg("ineed", "INEED", "v2.0: send me that message; the next announcer is asked if it does not come in time."),
];
const STROKKUR_MESSAGES: &[MessageInfo] = &[
    msg(
        "key",
        "KEY",
        "A fresh SipHash key: the receiver names symbols to the sender by short IDs under it.",
    ),
    msg(
        "codeword",
        "CODEWORD",
        "The XOR of a few symbols of the sender's window, their short IDs, and a loss count.",
    ),
    msg(
        "loss report",
        "LOSS REPORT",
        "The codewords the sender failed to decode in time, sent alone.",
    ),
];

/// The entry of a message kind of a protocol, if it lists it.
pub fn message(protocol: &str, kind: &str) -> Option<&'static MessageInfo> {
    info(protocol)?.messages.iter().find(|m| m.kind == kind)
}

impl ProtocolInfo {
    /// Whether a node given `behaviour` acts on it in this protocol's runs.
    pub fn interprets(&self, behaviour: &Behaviour) -> bool {
        behaviour.is_honest() || self.behaviours.contains(&behaviour.name())
    }
}

/// The entry of a protocol name, if it is one.
pub fn info(name: &str) -> Option<&'static ProtocolInfo> {
    PROTOCOLS.iter().find(|p| p.name == name)
}

/// What each kind of protocol makes of adversaries (see each module's documentation).
const FLOOD_BEHAVIOURS: &[&str] = &["silent", "censor"];
const PULL_BEHAVIOURS: &[&str] = &[
    "silent",
    "withhold_on_request",
    "censor",
    "delay_replies",
    "spam",
];
const GOSSIPSUB_BEHAVIOURS: &[&str] = &["silent", "withhold_on_request", "censor", "corrupt"];
const STROKKUR_BEHAVIOURS: &[&str] = &[
    "silent",
    "withhold_on_request",
    "censor",
    "corrupt",
    "lie_about_loss",
    "push_censor",
];

/// Every protocol, in the order lists show them.
pub const PROTOCOLS: &[ProtocolInfo] = &[
    ProtocolInfo {
        name: "flood",
        summary: "Flooding: forward every new tx to every peer but the sender.",
        about: "Flooding: every node forwards each new tx to every peer but the one it came from. Fast, and each node receives about one copy per peer.",
        config_type: "FloodConfig",
        live: false,
        counters: flood::counters::ALL,
        behaviours: FLOOD_BEHAVIOURS,
        messages: FLOOD_MESSAGES,
        memory: RunMemory {
            per_node_tx: 12,
            per_node_busy_tx: 130,
            per_link: 150,
        },
    },
    ProtocolInfo {
        name: "push",
        summary: "Random-subset push: forward every new tx to `fanout` random peers (default 4).",
        about: "Random push: forward each new tx to a few random peers. Fewer copies; slower, and some nodes may never get it.",
        config_type: "FloodConfig",
        live: false,
        counters: flood::counters::ALL,
        behaviours: FLOOD_BEHAVIOURS,
        messages: FLOOD_MESSAGES,
        memory: RunMemory {
            per_node_tx: 12,
            per_node_busy_tx: 130,
            per_link: 150,
        },
    },
    ProtocolInfo {
        name: "inv",
        summary: "Bitcoin-style hash flooding: INV after a trickle delay, GETDATA, TX; neo-go options.",
        about: "INV/GETDATA (Bitcoin): announce tx hashes after a random trickle delay; peers request what they lack. Few full copies, latency from the delays and round trips.",
        config_type: "InvConfig",
        live: false,
        counters: inv::counters::ALL,
        behaviours: PULL_BEHAVIOURS,
        messages: INV_MESSAGES,
        memory: RunMemory {
            per_node_tx: 70,
            per_node_busy_tx: 130,
            per_link: 800,
        },
    },
    ProtocolInfo {
        name: "shrec",
        summary: "Shrec: short keyed IDs, one request per tx, next announcer after a timeout (30 s).",
        about: "Shrec: short keyed ids in announcements, one request per tx at a time, the next announcer asked after a timeout.",
        config_type: "ShrecConfig",
        live: false,
        counters: shrec::counters::ALL,
        behaviours: PULL_BEHAVIOURS,
        messages: SHREC_MESSAGES,
        memory: RunMemory {
            per_node_tx: 130,
            per_node_busy_tx: 70,
            per_link: 800,
        },
    },
    ProtocolInfo {
        name: "cat",
        summary: "Celestia CAT (ADR 009): SeenTx / WantTx, one request at a time, 200 ms retry.",
        about: "CAT (Celestia ADR 009): SeenTx announcements and WantTx requests, one outstanding request per tx, retried after 200 ms.",
        config_type: "CatConfig",
        live: true,
        counters: cat::counters::ALL,
        behaviours: PULL_BEHAVIOURS,
        messages: CAT_MESSAGES,
        memory: RunMemory {
            per_node_tx: 90,
            per_node_busy_tx: 60,
            per_link: 200,
        },
    },
    ProtocolInfo {
        name: "cat2",
        summary: "CAT2: CAT with the From field in SeenTx (ADR 009's variant).",
        about: "CAT2: CAT whose SeenTx also names where the tx came from.",
        config_type: "CatConfig",
        live: false,
        counters: cat::counters::ALL,
        behaviours: PULL_BEHAVIOURS,
        messages: CAT_MESSAGES,
        memory: RunMemory {
            per_node_tx: 90,
            per_node_busy_tx: 60,
            per_link: 320,
        },
    },
    ProtocolInfo {
        name: "gossipsub",
        summary: "GossipSub v1.1 / v1.2 (IDONTWANT) / v2.0 (IANNOUNCE, INEED, D_announce) by `version`.",
        about: "GossipSub: push full messages along a mesh of a few peers, gossip ids (IHAVE/IWANT) to the others; v1.2 adds IDONTWANT, v2.0 announce-and-request.",
        config_type: "GossipsubConfig",
        live: true,
        counters: gossipsub::counters::ALL,
        behaviours: GOSSIPSUB_BEHAVIOURS,
        messages: GOSSIPSUB_MESSAGES,
        memory: RunMemory {
            per_node_tx: 110,
            per_node_busy_tx: 40,
            per_link: 600,
        },
    },
    ProtocolInfo {
        name: "strokkur",
        summary: "Strokkur: windowed LT codewords to every peer, MIMD rate per peer, joint decoding.",
        about: "Strokkur: send rateless (LT) codewords of windows of txs to every peer at a rate each peer controls; decode jointly.",
        config_type: "StrokkurConfig",
        live: true,
        counters: strokkur::counters::ALL,
        behaviours: STROKKUR_BEHAVIOURS,
        messages: STROKKUR_MESSAGES,
        memory: RunMemory {
            per_node_tx: 40,
            per_node_busy_tx: 20,
            per_link: 3700,
        },
    },
];

/// Default fanout of `push`, when the config does not give one.
pub const PUSH_DEFAULT_FANOUT: u32 = 4;

/// What every protocol's config is: read from a scenario (or the light node's settings),
/// written into reports, described in the schema.
pub trait Config: Serialize + DeserializeOwned + JsonSchema {}
impl<C: Serialize + DeserializeOwned + JsonSchema> Config for C {}

/// A config rule the type cannot express, broken: (field, why).
pub type ConfigCheck<C> = fn(&C) -> Result<(), (&'static str, String)>;

/// A protocol that also runs on a real network, as a `Live` node over its wire codec.
pub trait LiveProtocol: Protocol {
    fn live(config: &Self::Config, seed: u64, store: TxStore) -> Box<dyn Live>;
}

impl LiveProtocol for Cat {
    fn live(config: &Self::Config, seed: u64, store: TxStore) -> Box<dyn Live> {
        Box::new(Framed::cat(config.clone(), seed, store))
    }
}

impl LiveProtocol for Strokkur {
    fn live(config: &Self::Config, seed: u64, store: TxStore) -> Box<dyn Live> {
        Box::new(Framed::<Strokkur>::new(config.clone(), seed, store))
    }
}

impl LiveProtocol for Gossipsub {
    fn live(config: &Self::Config, seed: u64, store: TxStore) -> Box<dyn Live> {
        Box::new(GossipNode::new(config, seed, store, Limits::default()))
    }
}

/// What to do with a protocol once its name is resolved: start a simulated run, check a
/// config, build a live node.
pub trait Visit {
    type Out;
    fn visit<P>(self, adjust: fn(&mut P::Config), check: ConfigCheck<P::Config>) -> Self::Out
    where
        P: Protocol + 'static,
        P::Config: Serialize + DeserializeOwned + JsonSchema;

    /// The same for a protocol that also runs live; by default, as any other.
    fn visit_live<P>(self, adjust: fn(&mut P::Config), check: ConfigCheck<P::Config>) -> Self::Out
    where
        P: LiveProtocol + 'static,
        P::Config: Config,
        Self: Sized,
    {
        self.visit::<P>(adjust, check)
    }
}

fn no_change<C>(_: &mut C) {}

fn no_rules<C>(_: &C) -> Result<(), (&'static str, String)> {
    Ok(())
}

fn flood_rules(c: &crate::flood::FloodConfig) -> Result<(), (&'static str, String)> {
    match c.fanout {
        Some(0) => Err((
            "fanout",
            "must be at least 1: forwarding to no peer spreads nothing".into(),
        )),
        _ => Ok(()),
    }
}

fn cat_rules(c: &crate::cat::CatConfig) -> Result<(), (&'static str, String)> {
    c.validate()
}

fn gossipsub_rules(c: &crate::gossipsub::GossipsubConfig) -> Result<(), (&'static str, String)> {
    c.validate().map_err(|e| (e.field, e.why))
}

fn strokkur_rules(c: &crate::strokkur::StrokkurConfig) -> Result<(), (&'static str, String)> {
    c.validate().map_err(|e| (e.field, e.why))
}

/// The one place that maps a protocol name to its type, variant adjustment and config rules;
/// None for a name not in `PROTOCOLS`.
pub fn resolve<V: Visit>(name: &str, v: V) -> Option<V::Out> {
    Some(match name {
        "flood" => v.visit::<Flood>(no_change, flood_rules),
        "push" => v.visit::<Flood>(
            |c| {
                c.fanout.get_or_insert(PUSH_DEFAULT_FANOUT);
            },
            flood_rules,
        ),
        "inv" => v.visit::<Inv>(no_change, no_rules),
        "shrec" => v.visit::<Shrec>(no_change, no_rules),
        "cat" => v.visit_live::<Cat>(no_change, cat_rules),
        "cat2" => v.visit::<Cat>(|c| c.from_field = true, cat_rules),
        "gossipsub" => v.visit_live::<Gossipsub>(no_change, gossipsub_rules),
        "strokkur" => v.visit_live::<Strokkur>(no_change, strokkur_rules),
        _ => return None,
    })
}

/// The names of every protocol, or of the live ones, for error messages.
pub fn names(live_only: bool) -> String {
    let names: Vec<&str> = PROTOCOLS
        .iter()
        .filter(|p| p.live || !live_only)
        .map(|p| p.name)
        .collect();
    names.join(", ")
}

/// Each protocol's config type name and JSON schema, for the scenario schema.
pub fn config_schemas() -> Vec<(&'static str, &'static str, schemars::Schema)> {
    struct Schema;
    impl Visit for Schema {
        type Out = schemars::Schema;
        fn visit<P>(self, _: fn(&mut P::Config), _: ConfigCheck<P::Config>) -> schemars::Schema
        where
            P: Protocol + 'static,
            P::Config: Config,
        {
            schemars::schema_for!(P::Config)
        }
    }
    PROTOCOLS
        .iter()
        .filter_map(|p| Some((p.name, p.config_type, resolve(p.name, Schema)?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_protocol_resolves_and_only_those() {
        struct Live;
        impl Visit for Live {
            type Out = bool;
            fn visit<P>(self, _: fn(&mut P::Config), _: ConfigCheck<P::Config>) -> bool
            where
                P: Protocol + 'static,
                P::Config: Config,
            {
                false
            }
            fn visit_live<P>(self, _: fn(&mut P::Config), _: ConfigCheck<P::Config>) -> bool
            where
                P: LiveProtocol + 'static,
                P::Config: Config,
            {
                true
            }
        }
        for p in PROTOCOLS {
            assert_eq!(resolve(p.name, Live), Some(p.live), "{}", p.name);
        }
        assert_eq!(resolve("gossip", Live), None);
        assert_eq!(config_schemas().len(), PROTOCOLS.len());
    }

    #[test]
    fn every_behaviour_a_protocol_interprets_is_one_by_name() {
        for p in PROTOCOLS {
            for b in p.behaviours {
                assert!(Behaviour::NAMES[1..].contains(b), "{}: {b}", p.name);
            }
            assert!(p.interprets(&Behaviour::Honest) && p.interprets(&Behaviour::Silent));
        }
        assert!(!info("flood")
            .unwrap()
            .interprets(&Behaviour::WithholdOnRequest));
        assert!(info("gossip").is_none());
    }

    #[test]
    fn every_counter_is_named_after_its_protocol_once_and_described() {
        for p in PROTOCOLS {
            // Variants share their base protocol's counters.
            let prefix = match p.name {
                "cat2" => "cat",
                "push" => "flood",
                name => name,
            };
            if let Err(e) = crate::check_counters(prefix, p.counters) {
                panic!("{}: {e}", p.name);
            }
        }
    }

    /// The effects are the ones the page's `effectOf` guessed from names before counters were
    /// described (workers/record.ts), so the page shades the same counters.
    #[test]
    fn effects_are_those_the_page_guessed_from_names() {
        use crate::Effect;
        let guess = |n: &str| {
            let any = |parts: &[&str]| parts.iter().any(|p| n.contains(p));
            if any(&["request_withheld", "broken_promises", "ineed_timeout"])
                || n.ends_with(".retries")
            {
                Some(Effect::Withheld)
            } else if any(&[
                "corrupt_codewords",
                "rejected_codewords",
                "invalid_message",
                "invalid_symbols",
            ]) {
                Some(Effect::Corrupt)
            } else {
                None
            }
        };
        for c in PROTOCOLS.iter().flat_map(|p| p.counters) {
            assert_eq!(c.effect, guess(c.name), "{}", c.name);
        }
    }
}
