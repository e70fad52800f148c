//! txcast's protocols as pure state machines (sans-IO), and what they share.
//! See ARCHITECTURE.md at the repository root: the layers, the sans-IO contract, and how
//! the simulator and the light node drive these machines.

mod behaviour;
mod counter;
mod detail;
mod driver;
mod few;
mod ids;
mod peer_list;
mod protocol;
mod rng;
mod time;
mod timers;
mod tx_map;

pub mod budget;
pub mod cat;
pub mod content;
pub mod flood;
pub mod gossipsub;
pub mod inv;
pub mod live;
pub use ltcode::prefetch;
pub mod pull;
pub mod queue;
pub mod registry;
pub mod shrec;
pub mod strokkur;
#[cfg(test)]
mod testnet;
pub mod wire;

pub use behaviour::Behaviour;
pub use budget::{Budget, Ledger, Over, Recent, RecentTxs};
pub use content::{Content, StoreLimits, Synthetic, TxStore};
pub use counter::{check_counters, Counter, Effect, Unit};
pub use detail::{Cell, Detail, RowKey, Table};
pub use driver::{Driver, Output};
pub use few::Few;
pub use ids::{IdBuild, IdHasher, IdMap, IdSet, PeerIdx, Tx, TxId, TxIdSet};
pub use protocol::{
    Action, Ctx, Input, MsgClass, NodeSetup, Payloads, Protocol, TimerNote, TxStatus, WireMsg,
};
pub use queue::EventQueue;
pub use rng::{stream, Rng};
pub use time::{Dur, Time};
pub use timers::{TimerId, TimerTable};
pub use tx_map::TxIdMap;
