//! A scenario run that the page steps through: advance in bounded slices, take what happened
//! as flat typed arrays (transferable to the UI thread), inspect a node, and get the report.

use crate::layout::SendField;
use crate::layout::{push_row, ArrivalField, ChangeField, ChangeWhat, CountField, MessageClass};
use crate::steps::{index_of, push_step, Names};
use crate::{guarded, performance_now};
use proto::MsgClass;
use sim::engine::{EngineOptions, TraceEvent};
use sim::metrics::Metrics;
use sim::network::Network;
use sim::registry::start_run;
use sim::run::{Prepared, Started};
use sim::step::Step;
use sim::timeline::What;
use sim::workload::TxPlan;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

/// What the trace sink collects between two `take_*` calls.
#[derive(Default)]
struct Captured {
    kinds: Vec<(&'static str, MsgClass)>,
    /// Laid out by `SendField`.
    sends: Vec<f64>,
    /// Laid out by `ArrivalField`.
    deliveries: Vec<f64>,
    duplicates: Vec<f64>,
    /// Laid out by `CountField`.
    counts: Vec<f64>,
    counter_names: Vec<&'static str>,
    capture_sends: bool,
    /// Laid out by `StepField` and `ActionField` (`capture_steps`).
    steps: Vec<f64>,
    step_actions: Vec<f64>,
    timer_kinds: Vec<&'static str>,
}

/// The rows gathered since the last call. The buffer keeps its room: the next slice's rows
/// grow about as large, and growing from empty again would reallocate and copy them a dozen
/// times.
fn hand_over(rows: &mut Vec<f64>) -> Vec<f64> {
    let taken = rows.clone();
    rows.clear();
    taken
}

fn push_arrival(out: &mut Vec<f64>, t_us: u64, node: u32, tx: u64) {
    use ArrivalField as F;
    let fields = [
        (F::Time as usize, t_us as f64),
        (F::Node as usize, node as f64),
        (F::Tx as usize, tx as f64),
    ];
    push_row(out, F::Stride as usize, fields);
}

impl Captured {
    fn take_step(&mut self, step: &Step) {
        let names = Names {
            kinds: &mut self.kinds,
            counters: &mut self.counter_names,
            timers: &mut self.timer_kinds,
        };
        push_step(step, names, &mut self.steps, &mut self.step_actions);
    }

    fn take(&mut self, event: &TraceEvent) {
        match *event {
            TraceEvent::Send {
                tx,
                subject,
                t_us,
                from,
                to,
                kind,
                class,
                bytes,
                payload,
                arrive_us,
                lost,
            } => {
                if self.capture_sends {
                    use SendField as F;
                    let k = index_of(&mut self.kinds, (kind, class));
                    let fields = [
                        (F::Time as usize, t_us as f64),
                        (F::From as usize, from as f64),
                        (F::To as usize, to as f64),
                        (F::Kind as usize, k),
                        (F::Bytes as usize, bytes as f64),
                        (F::Payload as usize, payload as f64),
                        (F::Arrive as usize, arrive_us as f64),
                        (F::Lost as usize, lost as u8 as f64),
                        (F::Tx as usize, tx.map_or(-1.0, |t| t as f64)),
                        (F::Subject as usize, subject.map_or(-1.0, |t| t as f64)),
                    ];
                    push_row(&mut self.sends, F::Stride as usize, fields);
                }
            }
            TraceEvent::Deliver { t_us, node, tx } => {
                push_arrival(&mut self.deliveries, t_us, node, tx)
            }
            TraceEvent::Duplicate { t_us, node, tx } => {
                push_arrival(&mut self.duplicates, t_us, node, tx)
            }
            TraceEvent::Count {
                t_us,
                node,
                name,
                n,
            } => {
                use CountField as F;
                let fields = [
                    (F::Time as usize, t_us as f64),
                    (F::Node as usize, node as f64),
                    (F::Counter as usize, index_of(&mut self.counter_names, name)),
                    (F::N as usize, n as f64),
                ];
                push_row(&mut self.counts, F::Stride as usize, fields);
            }
        }
    }
}

/// What the inspector shows of a node: `Simulation::inspect`.
#[wasm_bindgen(getter_with_clone)]
pub struct NodeInspection {
    pub node: u32,
    pub behaviour: String,
    pub peers: u32,
    /// The protocol's state in its own order: `state_names[i]` is `state_values[i]`.
    pub state_names: Vec<String>,
    pub state_values: Vec<String>,
    /// First arrivals and duplicate full copies so far.
    pub delivered: f64,
    pub duplicates: f64,
    pub bytes_up: f64,
    pub bytes_down: f64,
    /// The run's counters at this node: `counter_names[i]` counted `counter_values[i]`.
    pub counter_names: Vec<String>,
    pub counter_values: Vec<f64>,
    /// Groups of nodes drawn around it (`group_names[i]` holds `group_nodes` up to
    /// `group_ends[i]`): a GossipSub mesh and fanout.
    pub group_names: Vec<String>,
    pub group_nodes: Vec<u32>,
    pub group_ends: Vec<u32>,
    /// Tables: `table_titles[i]` has the columns up to `column_ends[i]` and the cells (row by
    /// row) up to `cell_ends[i]`; `row_nodes` names each row's node (-1: a tx row).
    pub table_titles: Vec<String>,
    pub columns: Vec<String>,
    pub column_ends: Vec<u32>,
    pub cells: Vec<String>,
    pub cell_ends: Vec<u32>,
    pub row_nodes: Vec<i32>,
}

/// A watched Strokkur decoder's peeling (`Simulation::peeling`), flattened.
#[wasm_bindgen(getter_with_clone)]
pub struct DecoderView {
    /// Laid out by `PeelField`.
    pub steps: Vec<f64>,
    /// The (short ID, symbol seq or -1) pairs the `Arrived` steps name, in order.
    pub ids: Vec<f64>,
    /// Each sender handle's node (-1: nobody now).
    pub senders: Vec<i32>,
    /// (symbol seq, tx) pairs: which tx each whole-tx symbol is.
    pub txs: Vec<f64>,
}

fn flatten_peeling(view: sim::run::NodePeeling) -> DecoderView {
    use crate::layout::{PeelField as F, PeelKind as K};
    use proto::strokkur::PeelStep as S;
    let mut steps = Vec::new();
    let mut ids = Vec::new();
    for step in &view.steps {
        let (kind, cw, sender, seq, id, degree, n) = match *step {
            S::Arrived {
                cw,
                sender,
                ids: ref named,
                degree,
            } => {
                for &(id, seq) in named {
                    ids.extend_from_slice(&[id as f64, seq.map_or(-1.0, |s| s as f64)]);
                }
                let n = named.len() as f64;
                (
                    K::Arrived,
                    cw as f64,
                    sender as f64,
                    -1.0,
                    -1.0,
                    degree as f64,
                    n,
                )
            }
            S::Known { seq } => (K::Known, -1.0, -1.0, seq as f64, -1.0, 0.0, 0.0),
            S::Released { cw, seq, id } => (
                K::Released,
                cw as f64,
                -1.0,
                seq as f64,
                id as f64,
                0.0,
                0.0,
            ),
            S::Reduced {
                cw,
                seq,
                id,
                degree,
            } => (
                K::Reduced,
                cw as f64,
                -1.0,
                seq as f64,
                id as f64,
                degree as f64,
                0.0,
            ),
            S::Redundant { cw } => (K::Redundant, cw as f64, -1.0, -1.0, -1.0, 0.0, 0.0),
            S::Corrupt { cw } => (K::Corrupt, cw as f64, -1.0, -1.0, -1.0, 0.0, 0.0),
            S::Lost { cw } => (K::Lost, cw as f64, -1.0, -1.0, -1.0, 0.0, 0.0),
        };
        let fields = [
            (F::Kind as usize, kind as u8 as f64),
            (F::Cw as usize, cw),
            (F::Sender as usize, sender),
            (F::Seq as usize, seq),
            (F::Id as usize, id),
            (F::Degree as usize, degree),
            (F::Ids as usize, n),
        ];
        push_row(&mut steps, F::Stride as usize, fields);
    }
    DecoderView {
        steps,
        ids,
        senders: view
            .senders
            .iter()
            .map(|&n| if n == u32::MAX { -1 } else { n as i32 })
            .collect(),
        txs: view
            .txs
            .iter()
            .flat_map(|(&seq, &tx)| [seq as f64, tx as f64])
            .collect(),
    }
}

/// A node's detail flattened into `NodeInspection`'s group and table fields.
fn flatten_detail(detail: sim::detail::NodeDetail, out: &mut NodeInspection) {
    for (name, nodes) in detail.groups {
        out.group_names.push(name);
        out.group_nodes.extend(nodes);
        out.group_ends.push(out.group_nodes.len() as u32);
    }
    for t in detail.tables {
        out.table_titles.push(t.title);
        out.columns.extend(t.columns);
        out.column_ends.push(out.columns.len() as u32);
        out.cells.extend(t.rows.into_iter().flatten());
        out.cell_ends.push(out.cells.len() as u32);
        out.row_nodes
            .extend(t.row_nodes.iter().map(|n| n.map_or(-1, |n| n as i32)));
    }
}

#[wasm_bindgen]
pub struct Simulation {
    prep: Prepared,
    /// Which run of the scenario this is, and its protocol's registry entry.
    index: usize,
    info: &'static proto::registry::ProtocolInfo,
    /// This run's network and load (the scenario's, unless the run overrides them).
    net: Arc<Network>,
    plan: Arc<TxPlan>,
    started: Option<Started>,
    /// The metrics of a finished run, kept so its arrival logs can still be scanned.
    finished: Option<Metrics>,
    captured: Rc<RefCell<Captured>>,
    wall_ms: f64,
}

/// Who has which tx by `until_us`: a range scan of every node's arrival log over the tx
/// sequence interval [seq_lo, seq_hi), flattened as node, seq, arrival_us (node by node, seq
/// order). Arrivals after `until_us` are left out, so this is the network's state at that time.
pub fn scan_arrivals(
    metrics: &Metrics,
    plan: &TxPlan,
    seq_lo: u64,
    seq_hi: u64,
    until_us: u64,
) -> Vec<f64> {
    let hi = seq_hi.min(plan.count() as u64);
    let mut out = Vec::new();
    if seq_lo >= hi {
        return out;
    }
    for (node, log) in metrics.logs.iter().enumerate() {
        for (seq, arrival) in log.scan(seq_lo..hi) {
            let Some(&created) = plan.created_us.get(seq as usize) else {
                continue;
            };
            if let Some(t) = arrival.at(created).filter(|&t| t <= until_us) {
                out.extend_from_slice(&[node as f64, seq as f64, t as f64]);
            }
        }
    }
    out
}

/// A JS number as a whole u64 (NaN and negatives give 0; past 2^64 saturates).
fn whole(x: f64) -> u64 {
    if x.is_nan() || x <= 0.0 {
        0
    } else {
        x as u64
    }
}

#[wasm_bindgen]
impl Simulation {
    /// Prepare run `run` (an index into the scenario's `protocols`) of a scenario given as JSON
    /// text, optionally under another seed. Throws with the JSON path of what is wrong.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str, run: u32, seed: Option<u64>) -> Result<Simulation, JsError> {
        guarded("Simulation", || {
            let scenario = sim::parse_scenario(scenario_json).map_err(|e| e.to_string())?;
            let prep = Prepared::with_seed(scenario, seed).map_err(|e| e.to_string())?;
            let index = run as usize;
            if index >= prep.scenario.protocols.len() {
                return Err(format!(
                    "run {run} does not exist; the scenario has {}",
                    prep.scenario.protocols.len()
                ));
            }
            let mut started =
                start_run(&prep, index, &EngineOptions::default()).map_err(|e| e.to_string())?;
            let captured: Rc<RefCell<Captured>> = Default::default();
            let sink = Rc::clone(&captured);
            started
                .run
                .set_trace(Box::new(move |ev| sink.borrow_mut().take(ev)));
            let info = proto::registry::info(&started.protocol)
                .ok_or_else(|| format!("unknown protocol `{}`", started.protocol))?;
            Ok(Simulation {
                prep,
                index,
                info,
                net: Arc::clone(&started.net),
                plan: Arc::clone(&started.plan),
                started: Some(started),
                finished: None,
                captured,
                wall_ms: 0.0,
            })
        })
    }

    /// Collect every message sent (off by default: they are many).
    pub fn capture_sends(&mut self, on: bool) {
        self.captured.borrow_mut().capture_sends = on;
    }

    /// Record every input a node handles from now on, and what it did (`take_steps`): for
    /// lessons, on small networks (it costs time and memory per event).
    pub fn capture_steps(&mut self) {
        let Some(started) = self.started.as_mut() else {
            return;
        };
        let sink = Rc::clone(&self.captured);
        started
            .run
            .set_steps(Box::new(move |step| sink.borrow_mut().take_step(step)));
    }

    /// Watch a Strokkur node's decoder peel from now on (call before advancing): false for
    /// another protocol, a node that does not exist, or a decoder that learned a symbol already.
    pub fn watch_decoder(&mut self, node: u32) -> Result<bool, JsError> {
        let Some(started) = self.started.as_mut() else {
            return Ok(false);
        };
        let nodes = self.net.nodes;
        guarded("watch_decoder", || {
            Ok((node as usize) < nodes && started.run.watch_decoder(node as usize))
        })
    }

    /// The watched decoder's peeling so far (undefined if `node` is not watched).
    pub fn peeling(&self, node: u32) -> Result<Option<DecoderView>, JsError> {
        let Some(started) = self.started.as_ref() else {
            return Ok(None);
        };
        if node as usize >= self.net.nodes {
            return Ok(None);
        }
        guarded("peeling", || {
            Ok(started.run.peeling(node as usize).map(flatten_peeling))
        })
    }

    /// Steps since the last call, laid out by `StepField`.
    pub fn take_steps(&mut self) -> Vec<f64> {
        hand_over(&mut self.captured.borrow_mut().steps)
    }
    /// Their actions, laid out by `ActionField`, in step order.
    pub fn take_step_actions(&mut self) -> Vec<f64> {
        hand_over(&mut self.captured.borrow_mut().step_actions)
    }
    /// Timer kinds, indexed as steps and actions name them.
    pub fn timer_kinds(&self) -> Vec<String> {
        let captured = self.captured.borrow();
        captured.timer_kinds.iter().map(|k| k.to_string()).collect()
    }

    /// Process events up to `until_us` of simulated time, at most `max_events` of them.
    /// Returns false once the run is over.
    pub fn advance(&mut self, until_us: f64, max_events: f64) -> Result<bool, JsError> {
        let Some(started) = self.started.as_mut() else {
            return Err(JsError::new("this run has finished"));
        };
        let t0 = performance_now();
        let more = guarded("advance", || {
            Ok(started
                .run
                .run_bounded(until_us.max(0.0) as u64, max_events.max(1.0) as u64))
        })?;
        self.wall_ms += performance_now() - t0;
        Ok(more)
    }

    #[wasm_bindgen(getter)]
    pub fn label(&self) -> String {
        self.started
            .as_ref()
            .map(|s| s.label.clone())
            .unwrap_or_default()
    }
    #[wasm_bindgen(getter)]
    pub fn protocol(&self) -> String {
        self.started
            .as_ref()
            .map(|s| s.protocol.clone())
            .unwrap_or_default()
    }
    #[wasm_bindgen(getter)]
    pub fn now_us(&self) -> f64 {
        self.started
            .as_ref()
            .map(|s| s.run.now_us() as f64)
            .unwrap_or(f64::NAN)
    }
    #[wasm_bindgen(getter)]
    pub fn end_us(&self) -> f64 {
        self.started
            .as_ref()
            .map(|s| s.run.end_us() as f64)
            .unwrap_or(f64::NAN)
    }
    #[wasm_bindgen(getter)]
    pub fn events(&self) -> f64 {
        self.started
            .as_ref()
            .map(|s| s.run.events() as f64)
            .unwrap_or(f64::NAN)
    }
    #[wasm_bindgen(getter)]
    pub fn nodes(&self) -> u32 {
        self.net.nodes as u32
    }
    #[wasm_bindgen(getter)]
    pub fn txs(&self) -> u32 {
        self.plan.count() as u32
    }

    /// Flattened undirected links: a0, b0, a1, b1, ...
    pub fn edges(&self) -> Vec<u32> {
        self.prep
            .net
            .links
            .iter()
            .flat_map(|&(a, b)| [a, b])
            .collect()
    }
    /// 1 for each node adversarial at any time of this run (a run may bring its own
    /// adversaries and events), 0 for the others; a behaviour the protocol ignores is honest.
    pub fn adversaries(&self) -> Vec<u8> {
        let mut out: Vec<u8> = self
            .net
            .behaviour
            .iter()
            .map(|b| self.acts_on(b) as u8)
            .collect();
        for c in &self.net.timeline.changes {
            if let What::Behaviour { nodes, behaviour } = &c.what {
                if self.acts_on(behaviour) {
                    nodes.iter().for_each(|&v| out[v as usize] = 1);
                }
            }
        }
        out
    }

    /// Whether a node given `behaviour` acts as an adversary in this run's protocol.
    fn acts_on(&self, behaviour: &proto::Behaviour) -> bool {
        !behaviour.is_honest() && self.info.interprets(behaviour)
    }

    /// The behaviour a node given `behaviour` shows in this run: itself, or honest if the
    /// protocol ignores it.
    fn shown<'a>(&self, behaviour: &'a proto::Behaviour) -> &'a proto::Behaviour {
        match self.info.interprets(behaviour) {
            true => behaviour,
            false => &proto::Behaviour::Honest,
        }
    }

    /// Each node's behaviour at `t_us`, as the scenario and its events give it.
    fn behaviour_at(&self, t_us: u64) -> Vec<proto::Behaviour> {
        let mut now = self.net.behaviour.clone();
        for c in self
            .net
            .timeline
            .changes
            .iter()
            .take_while(|c| c.at_us <= t_us)
        {
            if let What::Behaviour { nodes, behaviour } = &c.what {
                nodes
                    .iter()
                    .for_each(|&v| now[v as usize] = behaviour.clone());
            }
        }
        now
    }

    /// What the run's timed events change, node by node, laid out by `ChangeField` (what
    /// each row changes: `ChangeWhat`), in time order.
    pub fn changes(&self) -> Vec<f64> {
        use ChangeField as F;
        let mut out = Vec::new();
        let mut row = |t: u64, node: f64, what: ChangeWhat, value: f64| {
            let fields = [
                (F::Time as usize, t as f64),
                (F::Node as usize, node),
                (F::What as usize, what as u8 as f64),
                (F::Value as usize, value),
            ];
            push_row(&mut out, F::Stride as usize, fields);
        };
        let name_index = |b: &proto::Behaviour| {
            let name = self.shown(b).name();
            proto::Behaviour::NAMES
                .iter()
                .position(|n| *n == name)
                .unwrap_or(0) as f64
        };
        let mut side = vec![0u64; self.net.nodes];
        let mut partitions = 0;
        for c in &self.net.timeline.changes {
            let t = c.at_us;
            match &c.what {
                What::Behaviour { nodes, behaviour } => {
                    let i = name_index(behaviour);
                    nodes
                        .iter()
                        .for_each(|&v| row(t, v as f64, ChangeWhat::Behaviour, i));
                }
                What::Leave(nodes) => nodes
                    .iter()
                    .for_each(|&v| row(t, v as f64, ChangeWhat::Away, 1.0)),
                What::Join(nodes) => nodes
                    .iter()
                    .for_each(|&v| row(t, v as f64, ChangeWhat::Away, 0.0)),
                What::Partition(group) => {
                    let bit = 1u64 << (partitions % sim::links::MAX_PARTITIONS);
                    partitions += 1;
                    for &v in group {
                        side[v as usize] |= bit;
                        row(t, v as f64, ChangeWhat::Side, side[v as usize] as f64);
                    }
                }
                What::Heal => {
                    partitions = 0;
                    for (v, s) in side.iter_mut().enumerate().filter(|(_, s)| **s != 0) {
                        *s = 0;
                        row(t, v as f64, ChangeWhat::Side, 0.0);
                    }
                }
                What::Loss(p) => row(t, -1.0, ChangeWhat::Loss, *p),
                What::Load(tps) => row(t, -1.0, ChangeWhat::Load, *tps),
            }
        }
        out
    }

    /// Every behaviour's name, as `ChangeWhat::Behaviour` rows index them.
    pub fn behaviour_names(&self) -> Vec<String> {
        proto::Behaviour::NAMES
            .iter()
            .map(|n| n.to_string())
            .collect()
    }

    /// When the run's events happen (and churns end), in ms, for the charts: `mark_kinds`
    /// says what each is.
    pub fn mark_times(&self) -> Vec<f64> {
        let marks = &self.net.timeline.marks;
        marks.iter().map(|m| m.at_us as f64 / 1000.0).collect()
    }
    /// The kind of each mark of `mark_times` ("partition", "heal", "churn_end", ...).
    pub fn mark_kinds(&self) -> Vec<String> {
        let marks = &self.net.timeline.marks;
        marks.iter().map(|m| m.kind.to_string()).collect()
    }

    /// Behaviours this run gives nodes that its protocol ignores, each in a sentence.
    pub fn notes(&self) -> Vec<String> {
        let notes = sim::registry::ignored(&self.prep, self.index);
        notes.iter().map(|n| n.to_string()).collect()
    }
    /// Latitude and longitude per node (lat0, lon0, lat1, ...) for geographic scenarios; empty
    /// otherwise.
    pub fn coordinates(&self) -> Vec<f64> {
        let Some(cities) = &self.net.city else {
            return Vec::new();
        };
        cities
            .iter()
            .flat_map(|&c| [sim::cities::CITIES[c].lat, sim::cities::CITIES[c].lon])
            .collect()
    }
    /// Each node's continent ("europe", "north_america", ...) for geographic scenarios, as a
    /// `region` names it; empty otherwise.
    pub fn node_continents(&self) -> Vec<String> {
        let Some(cities) = &self.net.city else {
            return Vec::new();
        };
        let name = |c: sim::events::Continent| {
            serde_json::to_value(c)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        };
        cities
            .iter()
            .map(|&c| name(sim::cities::CITIES[c].continent))
            .collect()
    }

    /// Per tx: creation time (us) and origin node, interleaved.
    pub fn tx_plan(&self) -> Vec<f64> {
        let plan = &self.plan;
        (0..plan.count())
            .flat_map(|i| [plan.created_us[i] as f64, plan.origin[i] as f64])
            .collect()
    }

    /// Message kinds, indexed as in `take_sends`.
    pub fn kinds(&self) -> Vec<String> {
        self.captured
            .borrow()
            .kinds
            .iter()
            .map(|k| k.0.to_string())
            .collect()
    }
    /// What each kind of `kinds()` does.
    pub fn kind_classes(&self) -> Vec<MessageClass> {
        self.captured
            .borrow()
            .kinds
            .iter()
            .map(|k| k.1.into())
            .collect()
    }
    /// Counter names, indexed as in `take_counts`.
    pub fn counter_names(&self) -> Vec<String> {
        self.captured
            .borrow()
            .counter_names
            .iter()
            .map(|k| k.to_string())
            .collect()
    }
    /// Sends since the last call, laid out by `SendField`.
    pub fn take_sends(&mut self) -> Vec<f64> {
        hand_over(&mut self.captured.borrow_mut().sends)
    }
    /// First arrivals since the last call, laid out by `ArrivalField`.
    pub fn take_deliveries(&mut self) -> Vec<f64> {
        hand_over(&mut self.captured.borrow_mut().deliveries)
    }
    /// Duplicate full copies since the last call, laid out by `ArrivalField`.
    pub fn take_duplicates(&mut self) -> Vec<f64> {
        hand_over(&mut self.captured.borrow_mut().duplicates)
    }
    /// Counter moves since the last call, laid out by `CountField`.
    pub fn take_counts(&mut self) -> Vec<f64> {
        hand_over(&mut self.captured.borrow_mut().counts)
    }

    /// The arrival logs' range scan over txs [seq_lo, seq_hi), up to `until_us`: node, seq,
    /// arrival_us triples. Works while the run goes on (what has happened so far) and after
    /// `finish`. The timeline's seek reads the network's state at a time from this.
    pub fn arrivals_range(&mut self, seq_lo: f64, seq_hi: f64, until_us: f64) -> Vec<f64> {
        let metrics = match (&mut self.started, &self.finished) {
            (Some(s), _) => s.run.metrics(),
            (None, Some(m)) => m,
            (None, None) => return Vec::new(),
        };
        let until = if until_us.is_infinite() && until_us > 0.0 {
            u64::MAX
        } else {
            whole(until_us)
        };
        scan_arrivals(metrics, &self.plan, whole(seq_lo), whole(seq_hi), until)
    }

    /// Nodes whose behaviour at `at_us` censors tx `seq` in this run: they take it in and do
    /// not pass it on.
    pub fn censoring(&self, seq: f64, at_us: f64) -> Vec<u32> {
        let tx = proto::TxId(whole(seq));
        self.behaviour_at(whole(at_us))
            .iter()
            .enumerate()
            .filter(|(_, b)| self.acts_on(b) && b.keeps_out(tx))
            .map(|(v, _)| v as u32)
            .collect()
    }

    /// Each node's behaviour at the start by name ("honest", "silent", ...), as this run's
    /// protocol takes it (one it ignores is "honest").
    pub fn behaviours(&self) -> Vec<String> {
        self.net
            .behaviour
            .iter()
            .map(|b| self.shown(b).name().to_string())
            .collect()
    }

    /// A node's protocol state, traffic and counters so far.
    pub fn inspect(&mut self, node: u32) -> Result<NodeInspection, JsError> {
        let Some(now) = self.started.as_ref().map(|s| s.run.now_us()) else {
            return Err(JsError::new("this run has finished"));
        };
        let v = node as usize;
        if v >= self.net.nodes {
            return Err(JsError::new(&format!("no node {node}")));
        }
        guarded("inspect", || {
            let behaviour = format!("{:?}", self.shown(&self.behaviour_at(now)[v]));
            let peers = self.net.degree(v) as u32;
            let started = self.started.as_mut().ok_or("this run has finished")?;
            let state = started.run.inspect(v);
            let detail = started.run.detail(v);
            let metrics = started.run.metrics();
            let s = &metrics.node[v];
            let counters = metrics
                .node_counts(v)
                .map(|(k, n)| (k.to_string(), n as f64));
            let (counter_names, counter_values) = counters.unzip();
            let mut out = NodeInspection {
                node,
                behaviour,
                peers,
                state_names: state.iter().map(|(k, _)| k.to_string()).collect(),
                state_values: state.into_iter().map(|(_, v)| v).collect(),
                delivered: s.delivered as f64,
                duplicates: s.duplicates as f64,
                bytes_up: (s.up_payload + s.up_control) as f64,
                bytes_down: (s.down_payload + s.down_control) as f64,
                counter_names,
                counter_values,
                group_names: Vec::new(),
                group_nodes: Vec::new(),
                group_ends: Vec::new(),
                table_titles: Vec::new(),
                columns: Vec::new(),
                column_ends: Vec::new(),
                cells: Vec::new(),
                cell_ends: Vec::new(),
                row_nodes: Vec::new(),
            };
            flatten_detail(detail, &mut out);
            Ok(out)
        })
    }

    /// Finish the run (whatever is left is not simulated) and return its report as JSON:
    /// the same `RunReport` that `txsim run` writes, with the same digest.
    pub fn finish(&mut self) -> Result<String, JsError> {
        let Some(started) = self.started.take() else {
            return Err(JsError::new("this run has finished"));
        };
        let wall_ms = self.wall_ms;
        let prep = &self.prep;
        let (json, metrics) = guarded("finish", || {
            // The metrics are kept, not dropped with the run: the arrival logs stay scannable.
            let (report, metrics) = started.report_and_metrics(prep, wall_ms);
            let json = serde_json::to_string(&report).map_err(|e| e.to_string())?;
            Ok((json, metrics))
        })?;
        self.finished = Some(metrics);
        Ok(json)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENARIO: &str = r#"{
        "name": "seek test", "seed": 11, "nodes": 50,
        "topology": { "kind": "random_regular", "degree": 5 },
        "latency": { "kind": "lognormal", "median_ms": 40, "sigma": 0.4 },
        "workload": { "kind": "poisson", "total_tps": 20, "duration_ms": 500, "tx_bytes": 200 },
        "drain_ms": 1500,
        "protocols": [{ "label": "cat", "protocol": "cat" }],
        "adversaries": [{ "fraction": 0.2, "behaviour": { "kind": "censor", "fraction": 0.5 } }]
    }"#;

    /// Sorted (node, seq, t) triples from a flat array.
    fn triples(flat: &[f64]) -> Vec<(u64, u64, u64)> {
        let mut v: Vec<_> = flat
            .chunks_exact(3)
            .map(|c| (c[0] as u64, c[1] as u64, c[2] as u64))
            .collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn range_scans_give_the_state_the_delivery_trace_reaches_by_each_time() {
        let prep = Prepared::new(sim::parse_scenario(SCENARIO).unwrap()).unwrap();
        let mut started = start_run(&prep, 0, &EngineOptions::default()).unwrap();
        let seen: Rc<RefCell<Vec<(u64, u64, u64)>>> = Default::default();
        let sink = Rc::clone(&seen);
        started.run.set_trace(Box::new(move |ev| {
            if let TraceEvent::Deliver { t_us, node, tx } = *ev {
                sink.borrow_mut().push((node as u64, tx, t_us));
            }
        }));
        let txs = started.plan.count() as u64;
        assert!(txs > 4, "the workload should make several txs");
        // Stop half-way: the logs hold what has happened so far, nothing later.
        started.run.run_until(300_000);
        let now = started.run.now_us();
        for (lo, hi, until) in [(0, txs, now), (1, 3, 150_000), (2, 2, now), (0, txs, 0)] {
            let scanned = triples(&scan_arrivals(
                started.run.metrics(),
                &started.plan,
                lo,
                hi,
                until,
            ));
            let mut traced: Vec<_> = seen
                .borrow()
                .iter()
                .copied()
                .filter(|&(_, seq, t)| seq >= lo && seq < hi && t <= until)
                .collect();
            traced.sort_unstable();
            assert_eq!(scanned, traced, "txs {lo}..{hi} by {until} us");
        }
        started.run.run_until(u64::MAX);
        let all = triples(&scan_arrivals(
            started.run.metrics(),
            &started.plan,
            0,
            u64::MAX,
            u64::MAX,
        ));
        let mut traced = seen.borrow().clone();
        traced.sort_unstable();
        assert!(traced.len() > 50);
        assert_eq!(all, traced);
    }

    #[test]
    fn adversaries_are_the_runs_own() {
        let scenario = r#"{
            "name": "per-run adversaries", "seed": 2, "nodes": 40,
            "topology": { "kind": "random_regular", "degree": 4 },
            "workload": { "kind": "poisson", "total_tps": 5, "duration_ms": 200, "tx_bytes": 100 },
            "protocols": [
                { "label": "honest", "protocol": "flood" },
                { "label": "withholding", "protocol": "cat",
                  "adversaries": [{ "fraction": 0.25, "behaviour": { "kind": "withhold_on_request" } }] }
            ]
        }"#;
        let count = |run| {
            let sim = Simulation::new(scenario, run, None)
                .map_err(|_| ())
                .unwrap();
            let marked = sim.adversaries().iter().filter(|&&a| a == 1).count();
            let named = sim
                .behaviours()
                .iter()
                .filter(|b| *b == "withhold_on_request")
                .count();
            (marked, named)
        };
        assert_eq!(count(0), (0, 0));
        assert_eq!(count(1), (10, 10));
    }

    /// The page draws what a node did from these: its behaviour as the protocol takes it,
    /// when it left and came back, which side of a partition it is on.
    #[test]
    fn changes_say_what_each_node_is_and_does_at_each_time() {
        let scenario = r#"{
            "name": "changes", "seed": 4, "nodes": 30,
            "topology": { "kind": "random_regular", "degree": 4 },
            "workload": { "kind": "poisson", "total_tps": 5, "duration_ms": 3000, "tx_bytes": 100 },
            "events": [
                { "at_ms": 500, "kind": "behaviour", "nodes": [1, 2], "behaviour": { "kind": "censor", "fraction": 1.0 } },
                { "at_ms": 600, "kind": "behaviour", "nodes": [3], "behaviour": { "kind": "lie_about_loss" } },
                { "at_ms": 1000, "kind": "partition", "nodes": [5, 6, 7] },
                { "at_ms": 1500, "kind": "leave", "nodes": [9] },
                { "at_ms": 2000, "kind": "heal" },
                { "at_ms": 2500, "kind": "join" },
                { "at_ms": 2600, "kind": "loss", "loss": 0.2 }
            ],
            "protocols": [{ "protocol": "flood" }]
        }"#;
        let sim = Simulation::new(scenario, 0, None).map_err(|_| ()).unwrap();
        let rows: Vec<(u64, i64, u8, f64)> = sim
            .changes()
            .chunks_exact(ChangeField::Stride as usize)
            .map(|r| (r[0] as u64, r[1] as i64, r[2] as u8, r[3]))
            .collect();
        let censor = proto::Behaviour::NAMES
            .iter()
            .position(|n| *n == "censor")
            .unwrap();
        let (b, away, side, loss) = (0, 1, 2, 3);
        assert_eq!(
            rows,
            vec![
                (500_000, 1, b, censor as f64),
                (500_000, 2, b, censor as f64),
                // Flooding ignores lying about losses: node 3 stays honest here.
                (600_000, 3, b, 0.0),
                (1_000_000, 5, side, 1.0),
                (1_000_000, 6, side, 1.0),
                (1_000_000, 7, side, 1.0),
                (1_500_000, 9, away, 1.0),
                (2_000_000, 5, side, 0.0),
                (2_000_000, 6, side, 0.0),
                (2_000_000, 7, side, 0.0),
                (2_500_000, 9, away, 0.0),
                (2_600_000, -1, loss, 0.2),
            ]
        );
        let marked: Vec<u32> = sim.adversaries().iter().map(|&a| a as u32).collect();
        assert_eq!(marked.iter().sum::<u32>(), 2, "the censors, not the liar");
        assert!(sim.censoring(7.0, 400_000.0).is_empty(), "not yet");
        assert_eq!(sim.censoring(7.0, 500_000.0), vec![1, 2]);
        assert_eq!(
            sim.mark_times(),
            vec![500.0, 600.0, 1000.0, 1500.0, 2000.0, 2500.0, 2600.0]
        );
        assert_eq!(sim.mark_kinds()[2], "partition");
        assert_eq!(sim.notes().len(), 1);
        assert!(sim.notes()[0].contains("`flood` ignores `lie_about_loss`"));
    }

    #[test]
    fn names_every_behaviour_and_finds_censors() {
        let prep = Prepared::new(sim::parse_scenario(SCENARIO).unwrap()).unwrap();
        let started = start_run(&prep, 0, &EngineOptions::default()).unwrap();
        let net = &started.net;
        let censors = net
            .behaviour
            .iter()
            .filter(|b| b.name() == "censor")
            .count();
        assert_eq!(censors, 10);
        // About half the censors leave out any one tx.
        let left_out: usize = (0..40)
            .map(|tx| {
                net.behaviour
                    .iter()
                    .filter(|b| b.censors(proto::TxId(tx)))
                    .count()
            })
            .sum();
        assert!((100..300).contains(&left_out), "{left_out}");
    }
}
