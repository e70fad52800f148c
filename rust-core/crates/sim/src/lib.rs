//! txcast's discrete-event simulator: networks, loads and adversaries from a scenario file,
//! any protocol of `proto` driven through its sans-IO interface, and the metrics and report.

pub mod bench;
pub mod bench_arrivals;
pub mod bench_strokkur;
pub mod cities;
pub mod demo;
mod digest;
pub mod engine;
pub mod geo;
pub mod graph;
mod hist;
pub mod load;
pub mod metrics;
pub mod network;
pub mod registry;
pub mod reproduce;
pub mod run;
pub mod scenario;
pub mod schema;
mod tagged;
pub mod workload;

pub use engine::{EngineOptions, TraceEvent};
pub use load::{parse_scenario, ScenarioError};
pub use run::{Prepared, Report, RunReport};
pub use scenario::Scenario;
