//! txcast's discrete-event simulator: networks, loads and adversaries from a scenario file,
//! any protocol of `proto` driven through its sans-IO interface, and the metrics and report.
//! The simulator only: benchmarks are in the `bench` crate, paper reproduction in `reproduce`,
//! the `txsim` CLI in `txsim`.

mod bits;
pub mod cities;
pub mod demo;
pub mod detail;
mod digest;
pub mod engine;
pub mod events;
mod fair;
pub mod geo;
pub mod graph;
mod hist;
pub mod links;
pub mod load;
mod max_min;
pub mod metrics;
pub mod network;
pub mod parallel;
pub mod phases;
pub mod registry;
pub mod run;
pub mod scenario;
pub mod schema;
pub mod step;
mod tagged;
pub mod timeline;
pub mod workload;

pub use engine::{EngineOptions, TraceEvent};
pub use load::{parse_scenario, ScenarioError};
pub use run::{Prepared, Report, RunReport};
pub use scenario::Scenario;
