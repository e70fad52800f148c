//! `txsim reproduce`: run the scenarios behind each table and figure of the seeds, put our
//! numbers beside theirs, check the direction of every result, and write the results page.
//!
//! Runs are independent, so they spread over worker threads; each thread parses its own
//! scenario (a run's state is not shared), and results are collected in a fixed order, so the
//! output does not depend on the number of threads.
//!
//! A crate of its own, apart from the simulator (`sim`): it reads and writes files and draws SVG.

mod outcome;
mod page;
mod studies;
pub mod svg;

pub use outcome::{Censored, CensoredBin, Outcome, Series};
pub use studies::STUDIES;

use serde_json::Value;
use sim::parallel::{lock, map_on_threads};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Small networks and short loads: about a minute, for the test suite.
    Quick,
    /// The papers' sizes where the machine allows (each study says what it changed).
    Full,
}

pub struct Options {
    pub mode: Mode,
    pub scenarios_dir: PathBuf,
    pub out_dir: PathBuf,
    /// Where earlier runs' reports may be, besides `out_dir` (the project's docs/): their
    /// wall times order the runs, longest first, when `out_dir` has none (a fresh --out).
    pub timings_dir: Option<PathBuf>,
    pub jobs: usize,
    /// Only the studies with these ids (all when empty).
    pub only: Vec<String>,
    /// A wall clock in ms, from the caller (the core reads none).
    pub now_ms: fn() -> f64,
}

/// One table or figure of a seed and how to reproduce it.
pub struct Study {
    pub id: &'static str,
    pub title: &'static str,
    /// The seed and the place in it the numbers come from.
    pub source: &'static str,
    /// Scenario files (in `scenarios/`) whose runs the study uses.
    pub files: &'static [&'static str],
    /// Edits a scenario for the mode, returning what it changed (shown on the page).
    pub adapt: fn(&str, &mut Value, Mode) -> Vec<String>,
    /// Record per-second rates (convergence).
    pub series: bool,
    /// Measure the runs' arrival logs (seed 001's encoding): `Outcome::arrival_figures`.
    pub arrival_logs: bool,
    pub analyse: fn(&[Outcome]) -> Analysis,
    /// Why our numbers may differ from the seed's, as far as known.
    pub differences: &'static str,
}

#[derive(Default)]
pub struct Analysis {
    pub table: Table,
    pub plot: Option<svg::Plot>,
    pub checks: Vec<Check>,
}

#[derive(Default)]
pub struct Table {
    pub head: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// A direction the seed reports, tested on our numbers.
pub struct Check {
    pub claim: String,
    pub holds: bool,
}

impl Check {
    pub fn new(claim: impl Into<String>, holds: bool) -> Check {
        Check {
            claim: claim.into(),
            holds,
        }
    }
}

/// What a study produced.
pub struct StudyResult {
    pub study: &'static Study,
    pub changes: Vec<String>,
    pub outcomes: Vec<Outcome>,
    pub analysis: Analysis,
}

pub enum Progress<'a> {
    /// Run `done` of `total` finished: its study, label and wall time.
    Finished {
        done: usize,
        total: usize,
        study: &'a str,
        label: &'a str,
        wall_ms: f64,
    },
    /// The runs in flight and the simulated fraction of each.
    Running(&'a [(String, f64)]),
}

struct Job {
    study: usize,
    label: String,
    scenario: String,
    index: usize,
    series: bool,
    arrival_logs: bool,
    /// How long the run took last time (ms), to start the longest runs first; runs never
    /// timed go first of all. Only the order runs start in depends on it, never a result.
    cost: f64,
}

/// How long each run of `study` took the last time its raw reports were written to
/// `out_dir` (label -> wall ms); empty when there are none.
fn last_wall_ms(out_dir: &std::path::Path, study: &str) -> Vec<(String, f64)> {
    let path = out_dir.join(format!("reports/{study}.json"));
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let raw: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    let runs = raw["runs"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    runs.iter()
        .filter_map(|r| Some((r["label"].as_str()?.to_string(), r["wall_ms"].as_f64()?)))
        .collect()
}

/// The wall times of `study`'s runs in `out_dir`'s reports, else in `timings_dir`'s.
fn earlier_wall_ms(opts: &Options, study: &str) -> Vec<(String, f64)> {
    let timed = last_wall_ms(&opts.out_dir, study);
    match &opts.timings_dir {
        Some(dir) if timed.is_empty() => last_wall_ms(dir, study),
        _ => timed,
    }
}

/// Plans every run, runs them on `jobs` threads and analyses each study.
pub fn reproduce(
    opts: &Options,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<StudyResult>, String> {
    let studies: Vec<&'static Study> = STUDIES
        .iter()
        .filter(|s| opts.only.is_empty() || opts.only.iter().any(|o| o == s.id))
        .collect();
    if studies.is_empty() {
        let ids: Vec<&str> = STUDIES.iter().map(|s| s.id).collect();
        return Err(format!(
            "no study matches {:?}; the studies are: {}",
            opts.only,
            ids.join(", ")
        ));
    }
    let mut jobs = Vec::new();
    let mut changes = vec![Vec::new(); studies.len()];
    for (i, study) in studies.iter().enumerate() {
        let timed = earlier_wall_ms(opts, study.id);
        for file in study.files {
            let path = opts.scenarios_dir.join(file);
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut scenario: Value =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            for change in (study.adapt)(file, &mut scenario, opts.mode) {
                changes[i].push(format!("{file}: {change}"));
            }
            let runs = scenario["protocols"].as_array().map_or(0, Vec::len);
            if runs == 0 {
                continue;
            }
            let scenario_text = scenario.to_string();
            // Catch a broken edit before any thread starts.
            sim::parse_scenario(&scenario_text).map_err(|e| format!("{file}: {e}"))?;
            for index in 0..runs {
                let label = scenario["protocols"][index]["label"].as_str().map_or_else(
                    || scenario["protocols"][index]["protocol"].to_string(),
                    str::to_string,
                );
                let cost = timed
                    .iter()
                    .find(|(l, _)| *l == label)
                    .map_or(f64::INFINITY, |&(_, ms)| ms);
                jobs.push(Job {
                    study: i,
                    label,
                    scenario: scenario_text.clone(),
                    index,
                    series: study.series,
                    arrival_logs: study.arrival_logs,
                    cost,
                });
            }
        }
    }
    let outcomes = run_jobs(&jobs, opts, progress, &studies)?;
    let mut per_study: Vec<Vec<Outcome>> = (0..studies.len()).map(|_| Vec::new()).collect();
    for (job, outcome) in jobs.iter().zip(outcomes) {
        per_study[job.study].push(outcome);
    }
    Ok(studies
        .into_iter()
        .zip(changes)
        .zip(per_study)
        .map(|((study, changes), outcomes)| StudyResult {
            study,
            changes,
            analysis: (study.analyse)(&outcomes),
            outcomes,
        })
        .collect())
}

fn run_jobs(
    jobs: &[Job],
    opts: &Options,
    progress: &(dyn Fn(Progress) + Sync),
    studies: &[&'static Study],
) -> Result<Vec<Outcome>, String> {
    // Longest first, so no long run starts last while the other threads sit idle; results
    // keep the plan's order.
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by(|&a, &b| jobs[b].cost.total_cmp(&jobs[a].cost).then(a.cmp(&b)));
    let done = AtomicUsize::new(0);
    // The runs under way: job index, name, fraction done (two studies' runs may share a name).
    let running: Mutex<Vec<(usize, String, f64)>> = Mutex::new(Vec::new());
    // One run: progress while it goes; its outcome goes to its slot of the plan's order.
    let run_job = |i: usize| {
        let job = &jobs[i];
        let name = format!("{}: {}", studies[job.study].id, job.label);
        lock(&running).push((i, name.clone(), 0.0));
        let mut on_progress = |fraction: f64| {
            let snapshot: Vec<(String, f64)> = {
                let mut r = lock(&running);
                if let Some(entry) = r.iter_mut().find(|e| e.0 == i) {
                    entry.2 = fraction;
                }
                r.iter().map(|(_, n, f)| (n.clone(), *f)).collect()
            };
            progress(Progress::Running(&snapshot));
        };
        let t0 = (opts.now_ms)();
        let result = outcome::run_one(
            &job.scenario,
            job.index,
            job.series,
            job.arrival_logs,
            opts.now_ms,
            &mut on_progress,
        );
        lock(&running).retain(|e| e.0 != i);
        let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
        progress(Progress::Finished {
            done: finished,
            total: jobs.len(),
            study: studies[job.study].id,
            label: &job.label,
            wall_ms: (opts.now_ms)() - t0,
        });
        result.map_err(|e| format!("{name}: {e}"))
    };
    map_on_threads(opts.jobs, &order, run_job)
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err("a worker thread stopped early".into())))
        .collect()
}

pub use page::{check_out_dir, write_outputs};

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh --out has no reports: the times come from the other directory; an --out with
    /// reports of its own keeps them.
    #[test]
    fn a_fresh_out_dir_takes_the_times_of_docs() {
        let root = std::env::temp_dir().join(format!("txcast-timings-{}", std::process::id()));
        let (docs, fresh, own) = (root.join("docs"), root.join("fresh"), root.join("own"));
        for (dir, ms) in [(&docs, 5_000.0), (&own, 7_000.0)] {
            std::fs::create_dir_all(dir.join("reports")).unwrap();
            let report = format!(r#"{{"runs":[{{"label":"flood","wall_ms":{ms}}}]}}"#);
            std::fs::write(dir.join("reports/study.json"), report).unwrap();
        }
        let opts = |out: &std::path::Path| Options {
            mode: Mode::Quick,
            scenarios_dir: root.clone(),
            out_dir: out.to_path_buf(),
            timings_dir: Some(docs.clone()),
            jobs: 1,
            only: Vec::new(),
            now_ms: || 0.0,
        };
        assert_eq!(
            earlier_wall_ms(&opts(&fresh), "study"),
            [("flood".to_string(), 5_000.0)]
        );
        assert_eq!(
            earlier_wall_ms(&opts(&own), "study"),
            [("flood".to_string(), 7_000.0)]
        );
        assert!(earlier_wall_ms(&opts(&fresh), "other").is_empty());
        let _ = std::fs::remove_dir_all(&root);
    }
}
