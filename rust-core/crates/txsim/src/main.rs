//! txsim: run scenarios, benchmarks and the demo natively, from the command line.

use sim::engine::{EngineOptions, TraceEvent};
use sim::parallel::{lock, map_on_threads};
use sim::registry::{start_run, PROTOCOLS};
use sim::run::{Prepared, Report, RunReport};
use std::io::Write;
use std::process::ExitCode;
use std::sync::Mutex;

#[cfg(target_os = "linux")]
mod huge_pages;
mod output;

use output::Output;

const HELP: &str = "\
txsim - simulate transaction broadcast protocols

USAGE:
    txsim run SCENARIO.json [--seed N] [--protocol LABEL] [--jobs N] [--out REPORT.json]
                            [--trace TRACE.jsonl] [--quiet]
    txsim validate SCENARIO.json      check a scenario file and say what is wrong (and which
                                      protocol ignores which adversary behaviour)
    txsim schema [--out FILE]         print the scenario JSON Schema
    txsim protocols                   list the protocols a scenario can name
    txsim counters [PROTOCOL]         what each counter in a report counts, and in what unit
    txsim network SCENARIO.json [--protocol LABEL] [--seed N]
                                      print the run's network and load as JSON: nodes, links
                                      [a, b, one-way latency µs], txs [origin, created µs, bytes]
    txsim demo [--seed N] [--nodes N] [--degree D]
                                      flood one tx; print arrivals and digest as JSON
    txsim bench NAME                  run a headline benchmark, print one JSON object (what
                                      it measures goes to stderr as it goes)
    txsim reproduce [--quick] [--out DIR] [--scenarios DIR] [--jobs N] [--only ID,ID]
                                      run the seeds' tables and figures; write DIR/results.md
    txsim --help | --version

run: runs every protocol of the scenario (or only --protocol LABEL) on the same network, load
and seed, on --jobs threads (default: all cores; each run needs its own memory); prints a
table, writes the JSON report to --out, and the per-event trace (JSON lines, in the
scenario's order of runs) to --trace. Progress goes to stderr.

reproduce: runs every study (see docs/results.md), on --jobs threads (default: all cores),
writes results.md, results.json, figures/*.svg and reports/*.json to --out (default docs/),
and exits non-zero if a direction the seeds report does not hold. --quick uses small networks.
With --only, the studies run replace theirs on the page already in --out; the others stay.
";

fn main() -> ExitCode {
    #[cfg(unix)]
    end_quietly_when_the_reader_goes();
    #[cfg(target_os = "linux")]
    huge_pages::collapse_in_background();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("txsim: {msg}");
            ExitCode::from(2)
        }
    }
}

/// `txsim network X | head` closes the pipe early: end as other command-line tools do, on the
/// signal, rather than panic at the next line printed (Rust ignores SIGPIPE by default).
#[cfg(unix)]
fn end_quietly_when_the_reader_goes() {
    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    // SAFETY: restores the default action of one signal, before any thread is started.
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}

fn dispatch(args: &[String]) -> Result<(), String> {
    let Some(cmd) = args.first() else {
        print!("{HELP}");
        return Ok(());
    };
    let rest = &args[1..];
    // `txsim CMD --help` is a question, not a command to run.
    if rest.iter().any(|a| a == "--help" || a == "-h") {
        print!("{HELP}");
        match cmd.as_str() {
            "reproduce" => {
                let ids: Vec<&str> = reproduce::STUDIES.iter().map(|s| s.id).collect();
                println!("\nstudies (for --only): {}", ids.join(", "));
            }
            "bench" => println!("\nbenchmarks: {}", bench::BENCHES.join(", ")),
            _ => {}
        }
        return Ok(());
    }
    match cmd.as_str() {
        "-h" | "--help" | "help" => {
            print!("{HELP}");
            Ok(())
        }
        "-V" | "--version" => {
            println!("txsim {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        "run" => cmd_run(rest),
        "validate" => cmd_validate(rest),
        "schema" => cmd_schema(rest),
        "protocols" => {
            for p in PROTOCOLS {
                println!("{:<12} {}", p.name, p.summary);
            }
            Ok(())
        }
        "counters" => cmd_counters(rest),
        "demo" => cmd_demo(rest),
        "network" => cmd_network(rest),
        "bench" => cmd_bench(rest),
        "reproduce" => cmd_reproduce(rest),
        other => Err(format!("unknown command `{other}`; see `txsim --help`")),
    }
}

/// Flags of the form `--name value` plus positional arguments.
struct Flags {
    positional: Vec<String>,
    named: Vec<(String, Option<String>)>,
}

fn parse_flags(args: &[String], with_value: &[&str], switches: &[&str]) -> Result<Flags, String> {
    let mut flags = Flags {
        positional: Vec::new(),
        named: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if let Some(name) = a.strip_prefix("--") {
            if with_value.contains(&name) {
                let v = it.next().ok_or(format!("--{name} needs a value"))?;
                flags.named.push((name.to_string(), Some(v.clone())));
            } else if switches.contains(&name) {
                flags.named.push((name.to_string(), None));
            } else {
                return Err(format!("unknown option --{name}; see `txsim --help`"));
            }
        } else {
            flags.positional.push(a.clone());
        }
    }
    Ok(flags)
}

impl Flags {
    fn get(&self, name: &str) -> Option<&str> {
        self.named
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }
    fn has(&self, name: &str) -> bool {
        self.named.iter().any(|(n, _)| n == name)
    }
    fn number<T: std::str::FromStr>(&self, name: &str, default: T) -> Result<T, String> {
        Ok(self.given_number(name)?.unwrap_or(default))
    }
    /// `--name N` if given, read as a number.
    fn given_number<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        self.get(name)
            .map(|v| {
                v.parse()
                    .map_err(|_| format!("--{name} wants a number, got `{v}`"))
            })
            .transpose()
    }
    /// `--jobs N`: threads, at least one (all cores if not given).
    fn jobs(&self) -> Result<usize, String> {
        match self.number("jobs", cores())? {
            0 => Err("--jobs wants at least 1".into()),
            n => Ok(n),
        }
    }
}

fn read_scenario(path: &str) -> Result<sim::Scenario, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    if meta.len() > sim::load::MAX_FILE_BYTES as u64 {
        return Err(format!(
            "{path}: {} bytes; scenario files are limited to {} bytes",
            meta.len(),
            sim::load::MAX_FILE_BYTES
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    sim::parse_scenario(&text).map_err(|e| format!("{path}: {e}"))
}

/// Wall-clock seconds since the first call: only the CLI reads a clock.
#[allow(clippy::disallowed_methods)]
fn wall_s() -> f64 {
    use std::sync::OnceLock;
    static START: OnceLock<std::time::Instant> = OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}

fn cmd_run(args: &[String]) -> Result<(), String> {
    let f = parse_flags(
        args,
        &["seed", "protocol", "out", "trace", "jobs"],
        &["quiet"],
    )?;
    let [path] = f.positional.as_slice() else {
        return Err("run wants one scenario file; see `txsim --help`".into());
    };
    let scenario = read_scenario(path)?;
    let threads = f.jobs()?;
    let prep = Prepared::with_seed(scenario, f.given_number("seed")?)
        .map_err(|e| format!("{path}: {e}"))?;
    let wanted = f.get("protocol");
    let indices: Vec<usize> = (0..prep.scenario.protocols.len())
        .filter(|&i| wanted.is_none_or(|w| prep.scenario.protocols[i].label() == w))
        .collect();
    if indices.is_empty() {
        let labels: Vec<&str> = prep.scenario.protocols.iter().map(|p| p.label()).collect();
        return Err(format!(
            "no run labelled `{}`; this scenario has: {}",
            wanted.unwrap_or(""),
            labels.join(", ")
        ));
    }
    let [mut out, mut trace] = output::open_all(
        [("--out", f.get("out")), ("--trace", f.get("trace"))],
        ("the scenario", path),
    )?;
    let progress = RunProgress::new(!f.has("quiet"));
    // Runs go in the scenario's order, on as many threads as asked; each writes its trace to
    // a part file of its own, joined in that order at the end.
    let parts: Vec<String> = match &trace {
        Some(t) => (0..indices.len())
            .map(|k| format!("{}.part{k}", t.path()))
            .collect(),
        None => Vec::new(),
    };
    let order: Vec<usize> = (0..indices.len()).collect();
    let outcomes = map_on_threads(threads, &order, |k| {
        let part = parts.get(k).map(String::as_str);
        run_one(&prep, indices[k], part, &progress).map_err(|e| format!("{path}: {e}"))
    });
    let runs: Result<Vec<RunReport>, String> = outcomes
        .into_iter()
        .map(|o| o.unwrap_or_else(|| Err("a run stopped early".into())))
        .collect();
    let written = runs.and_then(|runs| {
        if let Some(t) = trace.take() {
            join_parts(t, &parts)?;
        }
        let report = Report {
            scenario: prep.scenario.clone(),
            runs,
        };
        print_table(&report);
        if let Some(o) = out.take() {
            let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
            let at = o.path().to_string();
            o.replace_with(|w| writeln!(w, "{text}"))?;
            if !f.has("quiet") {
                eprintln!("report written to {at}");
            }
        }
        Ok(())
    });
    if written.is_err() {
        // A failed command leaves no parts, and no file it created, behind.
        parts.iter().for_each(|p| drop(std::fs::remove_file(p)));
        [out, trace].into_iter().flatten().for_each(Output::discard);
    }
    written
}

/// Runs protocol entry `index` of the scenario to its end, writing its trace to `trace` if
/// given, and reports how far it is to `progress`.
fn run_one(
    prep: &Prepared,
    index: usize,
    trace: Option<&str>,
    progress: &RunProgress,
) -> Result<RunReport, String> {
    let mut started =
        start_run(prep, index, &EngineOptions::default()).map_err(|e| e.to_string())?;
    let mut trace_file = match trace {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| format!("cannot write {p}: {e}"))?,
        )),
        None => None,
    };
    let lines: std::rc::Rc<std::cell::RefCell<Vec<String>>> = Default::default();
    if trace_file.is_some() {
        let sink = std::rc::Rc::clone(&lines);
        let label = started.label.clone();
        started.run.set_trace(Box::new(move |ev| {
            sink.borrow_mut().push(trace_line(&label, ev))
        }));
    }
    let t0 = wall_s();
    let end = started.run.end_us();
    let step = (end / 100).max(1);
    let mut t: u64 = 0;
    progress.update(index, &started.label, 0.0, 0);
    loop {
        t = t.saturating_add(step);
        let more = started.run.run_until(t);
        if let Some(file) = trace_file.as_mut() {
            for line in lines.borrow_mut().drain(..) {
                writeln!(file, "{line}").map_err(|e| format!("writing the trace: {e}"))?;
            }
        }
        if !more {
            break;
        }
        let done = started.run.now_us() as f64 / end.max(1) as f64;
        progress.update(index, &started.label, done, started.run.events());
    }
    if let Some(mut file) = trace_file {
        file.flush()
            .map_err(|e| format!("writing the trace: {e}"))?;
    }
    let took_s = wall_s() - t0;
    progress.done(index, &started.label, started.run.events(), took_s);
    Ok(started.report(prep, took_s * 1000.0))
}

/// Joins the runs' trace part files into the trace, in the scenario's order, and removes them.
fn join_parts(trace: Output, parts: &[String]) -> Result<(), String> {
    trace.replace_with(|out| {
        for part in parts {
            std::io::copy(&mut std::fs::File::open(part)?, out)?;
        }
        Ok(())
    })?;
    for part in parts {
        std::fs::remove_file(part).map_err(|e| format!("cannot remove {part}: {e}"))?;
    }
    Ok(())
}

/// The progress line on stderr for the runs under way: how far each is, at most twice a
/// second, and a line ending once they are all done.
struct RunProgress {
    shown: bool,
    state: Mutex<ProgressState>,
}

#[derive(Default)]
struct ProgressState {
    /// Runs under way: entry index, label, fraction simulated, events.
    running: Vec<(usize, String, f64, u64)>,
    last_print: f64,
}

impl RunProgress {
    fn new(shown: bool) -> RunProgress {
        RunProgress {
            shown,
            state: Mutex::default(),
        }
    }

    fn update(&self, index: usize, label: &str, done: f64, events: u64) {
        if !self.shown {
            return;
        }
        let mut s = lock(&self.state);
        match s.running.iter_mut().find(|r| r.0 == index) {
            Some(r) => (r.2, r.3) = (done, events),
            None => {
                s.running.push((index, label.to_string(), done, events));
                s.running.sort_by_key(|r| r.0);
            }
        }
        if wall_s() - s.last_print < 0.5 {
            return;
        }
        s.last_print = wall_s();
        let line = match s.running.as_slice() {
            [(_, label, done, events)] => {
                format!("{label}: {:>3.0}% simulated, {events} events", 100.0 * done)
            }
            many => many
                .iter()
                .map(|(_, label, done, _)| format!("{label} {:.0}%", 100.0 * done))
                .collect::<Vec<_>>()
                .join(" | "),
        };
        eprint!("\r{line:<78}");
    }

    /// Takes a finished run off the line and leaves a line of its own for it.
    fn done(&self, index: usize, label: &str, events: u64, took_s: f64) {
        let mut s = lock(&self.state);
        s.running.retain(|r| r.0 != index);
        if self.shown && took_s >= 0.5 {
            eprintln!(
                "\r{:<78}",
                format!("{label}: done, {events} events in {took_s:.1} s")
            );
        }
    }
}

fn trace_line(label: &str, ev: &TraceEvent) -> String {
    let v = match ev {
        TraceEvent::Send {
            tx,
            t_us,
            from,
            to,
            kind,
            class,
            bytes,
            payload,
            arrive_us,
            lost,
            ..
        } => serde_json::json!({
            "run": label, "ev": "send", "t_us": t_us, "from": from, "to": to, "kind": kind,
            "class": class.name(), "bytes": bytes, "payload": payload, "arrive_us": arrive_us, "lost": lost, "tx": tx
        }),
        TraceEvent::Deliver { t_us, node, tx } => {
            serde_json::json!({"run": label, "ev": "deliver", "t_us": t_us, "node": node, "tx": tx})
        }
        TraceEvent::Duplicate { t_us, node, tx } => {
            serde_json::json!({"run": label, "ev": "duplicate", "t_us": t_us, "node": node, "tx": tx})
        }
        TraceEvent::Count {
            t_us,
            node,
            name,
            n,
        } => {
            serde_json::json!({"run": label, "ev": "count", "t_us": t_us, "node": node, "name": name, "n": n})
        }
    };
    v.to_string()
}

fn print_table(report: &Report) {
    println!(
        "{}  (seed {}, {} nodes)",
        report.scenario.name, report.scenario.seed, report.scenario.nodes
    );
    // The run column fits the longest label.
    let w = report
        .runs
        .iter()
        .map(|r| r.label.chars().count())
        .fold(16, usize::max);
    println!(
        "{:<w$} {:>9} {:>11} {:>11} {:>9} {:>9} {:>10} {:>8}",
        "run", "delivery", "latency ms", "p95 lat ms", "overhead", "dups/tx", "events", "wall ms"
    );
    for r in &report.runs {
        let s = &r.summary;
        println!(
            "{:<w$} {:>9} {:>11} {:>11} {:>9} {:>9} {:>10} {:>8.0}",
            one_line(&r.label),
            percent(s.delivery.mean),
            figure(s.latency_ms.mean, 1),
            figure(s.latency_ms.p95, 1),
            figure(s.overhead.mean, 2),
            figure(s.duplicates.mean, 2),
            r.events,
            r.wall_ms
        );
    }
    print_phases(report);
}

/// A table cell: `-` where there is no figure (a mean over no delivered tx is not a number).
fn figure(v: f64, decimals: usize) -> String {
    if v.is_finite() {
        format!("{v:.decimals$}")
    } else {
        "-".into()
    }
}

fn percent(share: f64) -> String {
    if share.is_finite() {
        format!("{:.1}%", share * 100.0)
    } else {
        "-".into()
    }
}

/// A label on one table row, whatever characters it holds.
fn one_line(label: &str) -> String {
    label.replace(char::is_control, " ")
}

/// Per run with timed events, each phase: delivery and latency of the txs created in it, and
/// the time to recover after a heal or a join.
fn print_phases(report: &Report) {
    for r in report.runs.iter().filter(|r| !r.phases.is_empty()) {
        println!("\n{}: phases", one_line(&r.label));
        println!(
            "  {:<22} {:>16} {:>6} {:>9} {:>9} {:>9} {:>12}",
            "after", "from-to ms", "txs", "delivery", "p50 ms", "p95 ms", "recovered in"
        );
        for p in &r.phases {
            let recovery = match p.recovery_ms {
                None => String::new(),
                Some(ms) if ms.is_nan() => "not".into(),
                Some(ms) => format!("{ms:.0} ms"),
            };
            println!(
                "  {:<22} {:>16} {:>6} {:>9} {:>9} {:>9} {:>12}",
                p.after,
                format!("{:.0}-{:.0}", p.from_ms, p.to_ms),
                p.txs,
                percent(p.delivery),
                figure(p.latency_ms.p50, 1),
                figure(p.latency_ms.p95, 1),
                recovery
            );
        }
    }
}

fn cmd_validate(args: &[String]) -> Result<(), String> {
    let f = parse_flags(args, &[], &[])?;
    let [path] = f.positional.as_slice() else {
        return Err("validate wants one scenario file".into());
    };
    let scenario = read_scenario(path)?;
    let prep = Prepared::new(scenario).map_err(|e| format!("{path}: {e}"))?;
    for i in 0..prep.scenario.protocols.len() {
        sim::registry::check_run(&prep, i).map_err(|e| format!("{path}: {e}"))?;
        for note in sim::registry::ignored(&prep, i) {
            println!("{path}: note: {note}");
        }
    }
    if prep.scenario.links.sharing == sim::scenario::Sharing::MaxMin {
        println!(
            "{path}: note: links.sharing \"max_min\" rates again every flow linked to each \
             start or stop: seed 002's 1,000-node bursts ran 200-290x as long as with \"fair\""
        );
    }
    println!(
        "{path}: ok ({} nodes, {} links, {} txs, {} runs)",
        prep.net.nodes,
        prep.net.links.len(),
        prep.plan.count(),
        prep.scenario.protocols.len()
    );
    Ok(())
}

fn cmd_schema(args: &[String]) -> Result<(), String> {
    let f = parse_flags(args, &["out"], &[])?;
    let text = sim::schema::scenario_schema_text();
    match f.get("out") {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}")),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

/// The counters a run can report: a protocol's, or every protocol's and the engine's.
fn cmd_counters(args: &[String]) -> Result<(), String> {
    let counters: Vec<&proto::Counter> = match args {
        [] => {
            let mut all: Vec<&proto::Counter> = Vec::new();
            let every = PROTOCOLS.iter().flat_map(|p| p.counters.iter().copied());
            for c in every.chain(sim::engine::COUNTERS.iter().copied()) {
                if !all.iter().any(|seen| seen.name == c.name) {
                    all.push(c);
                }
            }
            all
        }
        [name] => match PROTOCOLS.iter().find(|p| p.name == name) {
            Some(p) => p.counters.to_vec(),
            None => {
                return Err(format!(
                    "unknown protocol `{name}`; known: {}",
                    proto::registry::names(false)
                ))
            }
        },
        _ => return Err("usage: txsim counters [PROTOCOL]".into()),
    };
    if counters.is_empty() {
        println!("it counts nothing of its own: a report's copies and bytes say what it did");
    }
    for c in counters {
        let effect = c
            .effect
            .map(|e| format!(" [{}]", e.name()))
            .unwrap_or_default();
        println!("{:<40} {:<10} {}{effect}", c.name, c.unit.name(), c.about);
    }
    Ok(())
}

/// The network and load a run sees, for another implementation to run the same case
/// (`npm run compare-real`).
fn cmd_network(args: &[String]) -> Result<(), String> {
    let f = parse_flags(args, &["protocol", "seed"], &[])?;
    let [path] = f.positional.as_slice() else {
        return Err("network wants one scenario file; see `txsim --help`".into());
    };
    let prep = Prepared::with_seed(read_scenario(path)?, f.given_number("seed")?)
        .map_err(|e| format!("{path}: {e}"))?;
    let labels: Vec<&str> = prep.scenario.protocols.iter().map(|p| p.label()).collect();
    let index = match f.get("protocol") {
        None => 0,
        Some(l) => labels.iter().position(|x| *x == l).ok_or_else(|| {
            format!(
                "no run labelled `{l}`; this scenario has: {}",
                labels.join(", ")
            )
        })?,
    };
    let started =
        start_run(&prep, index, &EngineOptions::default()).map_err(|e| format!("{path}: {e}"))?;
    let (net, plan) = (&started.net, &started.plan);
    let links: Vec<[u64; 3]> = net
        .links
        .iter()
        .map(|&(a, b)| {
            let e = net.edges_of(a as usize).find(|&e| net.edges[e].peer == b);
            let latency = e.map_or(0, |e| net.edges[e].latency_us);
            [a as u64, b as u64, latency]
        })
        .collect();
    let txs: Vec<[u64; 3]> = (0..plan.count())
        .map(|i| {
            [
                plan.origin[i] as u64,
                plan.created_us[i],
                plan.len[i] as u64,
            ]
        })
        .collect();
    let out = serde_json::json!({
        "label": started.label, "nodes": net.nodes, "links": links, "txs": txs,
        "end_us": started.run.end_us(),
    });
    println!("{out}");
    Ok(())
}

fn cmd_demo(args: &[String]) -> Result<(), String> {
    let f = parse_flags(args, &["seed", "nodes", "degree"], &[])?;
    let run = sim::demo::demo_flood(
        f.number("seed", 1)?,
        f.number("nodes", 300)?,
        f.number("degree", 8)?,
    )
    .map_err(|e| e.to_string())?;
    let out = serde_json::json!({
        "digest": run.digest, "events": run.events, "nodes": run.nodes,
        "origin": run.origin, "arrival_us": run.arrival_us,
    });
    println!("{out}");
    Ok(())
}

/// Peak resident memory of this process, from /proc (Linux).
fn peak_rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(kilobytes)
        .map(|kb| kb as f64 / 1024.0)
        .unwrap_or(f64::NAN)
}

/// The number in a `/proc` field's value written in kB ("   2048 kB").
fn kilobytes(value: &str) -> Option<u64> {
    value.trim().trim_end_matches("kB").trim().parse().ok()
}

fn cmd_bench(args: &[String]) -> Result<(), String> {
    let f = parse_flags(args, &[], &[])?;
    let [name] = f.positional.as_slice() else {
        return Err(format!("bench wants a name: {}", bench::BENCHES.join(", ")));
    };
    let mut clock = wall_s;
    let mut say = |what: &str| eprintln!("txsim bench {name}: {what}");
    let mut figures = bench::run(name, &mut clock, &mut say)?;
    if name == "engine" {
        figures.push(("peak_rss_mb", peak_rss_mb()));
    }
    let map: serde_json::Map<String, serde_json::Value> = figures
        .into_iter()
        .map(|(k, v)| (k.to_string(), serde_json::json!(v)))
        .collect();
    println!("{}", serde_json::Value::Object(map));
    Ok(())
}

/// The repository's `scenarios/` folder: under the working directory, or next to the sources.
/// Threads to run on by default: all cores.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

fn repo_dir() -> std::path::PathBuf {
    let here = std::path::PathBuf::from(".");
    if here.join("scenarios").is_dir() {
        return here;
    }
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn ms() -> f64 {
    wall_s() * 1e3
}

fn cmd_reproduce(args: &[String]) -> Result<(), String> {
    use reproduce::{Mode, Options, Progress};
    let f = parse_flags(args, &["out", "scenarios", "jobs", "only"], &["quick"])?;
    if let Some(extra) = f.positional.first() {
        return Err(format!(
            "reproduce takes no file (got `{extra}`); see `txsim --help`"
        ));
    }
    let repo = repo_dir();
    let opts = Options {
        mode: if f.has("quick") {
            Mode::Quick
        } else {
            Mode::Full
        },
        scenarios_dir: f
            .get("scenarios")
            .map_or_else(|| repo.join("scenarios"), Into::into),
        out_dir: f.get("out").map_or_else(|| repo.join("docs"), Into::into),
        timings_dir: Some(repo.join("docs")),
        jobs: f.jobs()?,
        only: f
            .get("only")
            .map(|s| s.split(',').map(|x| x.trim().to_string()).collect())
            .unwrap_or_default(),
        now_ms: ms,
    };
    reproduce::check_out_dir(&opts.out_dir, opts.mode, &opts.only)?;
    let t0 = wall_s();
    let last_status = std::sync::Mutex::new(0.0f64);
    let progress = |p: Progress| match p {
        Progress::Finished {
            done,
            total,
            study,
            label,
            wall_ms,
        } => {
            eprintln!("[{done}/{total}] {study}: {label} ({:.1} s)", wall_ms / 1e3);
        }
        Progress::Running(runs) => {
            let mut last = last_status.lock().unwrap_or_else(|p| p.into_inner());
            if wall_s() - *last >= 15.0 {
                *last = wall_s();
                let what: Vec<String> = runs
                    .iter()
                    .map(|(name, frac)| format!("{name} {:.0}%", frac * 100.0))
                    .collect();
                eprintln!("  {:.0} s: running {}", wall_s() - t0, what.join(", "));
            }
        }
    };
    let results = reproduce::reproduce(&opts, &progress)?;
    let took = wall_s() - t0;
    let how_long = format!(
        "{} mode, {:.0} s on {} threads",
        if opts.mode == Mode::Quick {
            "quick"
        } else {
            "full"
        },
        took,
        opts.jobs
    );
    reproduce::write_outputs(&results, &opts.out_dir, opts.mode, &how_long, &opts.only)?;
    let mut failed = 0;
    for r in &results {
        for c in &r.analysis.checks {
            println!(
                "{} {}: {}",
                if c.holds { "ok  " } else { "FAIL" },
                r.study.id,
                c.claim
            );
            failed += usize::from(!c.holds);
        }
    }
    println!(
        "wrote {} ({how_long})",
        opts.out_dir.join("results.md").display()
    );
    if failed > 0 {
        return Err(format!(
            "{failed} of the seeds' directions do not hold (see above)"
        ));
    }
    Ok(())
}
