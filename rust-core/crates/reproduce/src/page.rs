//! Writes what `reproduce` found: `results.md` (tables, figures, checks, differences),
//! `figures/<study>.svg`, `reports/<study>.json` (the raw run reports) and `results.json`
//! (the same tables for the visualizer's papers view).

use super::{svg, Mode, StudyResult, STUDIES};
use serde_json::{json, Value};
use std::fmt::Write;
use std::path::Path;

/// The studies already written in an output folder: `--only` adds to them rather than
/// replacing the page.
struct Written {
    mode: String,
    took: String,
    /// Per study, in page order: its id, its `results.json` entry and its `results.md` section.
    studies: Vec<(String, Value, String)>,
}

fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Quick => "quick",
        Mode::Full => "full",
    }
}

/// What `out_dir` holds from an earlier run, if anything.
fn written(out_dir: &Path) -> Result<Option<Written>, String> {
    let json_path = out_dir.join("results.json");
    let Ok(text) = std::fs::read_to_string(&json_path) else {
        return Ok(None);
    };
    let bad = |why: &str| {
        format!(
            "{}: {why}; move it away or choose another --out",
            json_path.display()
        )
    };
    let index: Value = serde_json::from_str(&text).map_err(|e| bad(&e.to_string()))?;
    let md = std::fs::read_to_string(out_dir.join("results.md")).unwrap_or_default();
    let mut studies = Vec::new();
    for entry in index["studies"]
        .as_array()
        .ok_or_else(|| bad("no studies"))?
    {
        let id = entry["id"]
            .as_str()
            .ok_or_else(|| bad("a study without an id"))?;
        // A study's section runs from its anchor to the next one.
        let anchor = format!("\n<a id=\"{id}\"></a>\n");
        let Some(at) = md.find(&anchor) else { continue };
        let end = md[at + 1..]
            .find("\n<a id=\"")
            .map_or(md.len(), |e| at + 1 + e);
        studies.push((id.to_string(), entry.clone(), md[at..end].to_string()));
    }
    Ok(Some(Written {
        mode: index["mode"].as_str().unwrap_or("").to_string(),
        took: index["took"].as_str().unwrap_or("").to_string(),
        studies,
    }))
}

/// Refuses, before anything runs, a `--only` run whose results would go into a folder that
/// holds the other mode's (the page would mix small networks with the papers' sizes).
pub fn check_out_dir(out_dir: &Path, mode: Mode, only: &[String]) -> Result<(), String> {
    if only.is_empty() {
        return Ok(());
    }
    match written(out_dir)? {
        Some(w) if w.mode != mode_name(mode) && !w.studies.is_empty() => Err(format!(
            "{} holds a {} mode run; this {} mode run of {} would be mixed into it: choose another --out (or run every study)",
            out_dir.display(),
            w.mode,
            mode_name(mode),
            only.join(", ")
        )),
        _ => Ok(()),
    }
}

/// `how_long` is the caller's wall-clock account of the run (the core reads no clock). With
/// `only`, the studies run replace theirs among those `out_dir` already holds.
pub fn write_outputs(
    results: &[StudyResult],
    out_dir: &Path,
    mode: Mode,
    how_long: &str,
    only: &[String],
) -> Result<(), String> {
    check_out_dir(out_dir, mode, only)?;
    let io = |what: &Path, e: std::io::Error| format!("{}: {e}", what.display());
    for sub in ["figures", "reports"] {
        let dir = out_dir.join(sub);
        std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
    }
    let mut took = how_long.to_string();
    let mut studies: Vec<(String, Value, String)> = Vec::new();
    for r in results {
        let (entry, section) = write_study(r, out_dir)?;
        studies.push((r.study.id.to_string(), entry, section));
    }
    if !only.is_empty() {
        if let Some(before) = written(out_dir)? {
            let ran: Vec<&str> = results.iter().map(|r| r.study.id).collect();
            // A study run again replaces its last "again" note rather than adding another.
            let again = format!("{} again: ", ran.join(", "));
            let mut notes: Vec<&str> = before
                .took
                .split("; ")
                .filter(|note| !note.starts_with(&again))
                .collect();
            let now = format!("{again}{how_long}");
            notes.push(&now);
            took = notes.join("; ");
            let fresh = std::mem::take(&mut studies);
            studies = merge(before.studies, fresh);
        }
    }
    // Every study on the page counts, another tool's too (the papers page counts the same).
    let checks = studies
        .iter()
        .flat_map(|(_, entry, _)| entry["checks"].as_array().cloned().unwrap_or_default());
    let (passed, total) = checks.fold((0, 0), |(p, t), c| {
        (p + usize::from(c["holds"] == true), t + 1)
    });
    let mut md = String::new();
    let _ = writeln!(md, "# Reproducing the seeds' results\n");
    let _ =
        writeln!(
        md,
        "Written by `npm run reproduce{}` ({took}). Every number below was measured by that run; \
         the seeds' numbers are quoted from the documents in `shared/seeds/`. Directions checked: \
         **{passed} of {total} hold**. Raw reports are in `reports/`, one file per study.\n",
        if mode == Mode::Quick { " -- --quick" } else { "" }
    );
    if mode == Mode::Quick {
        let _ = writeln!(
            md,
            "*Quick mode: small networks and short loads, for the test suite. The directions are \
             checked; the magnitudes are not the papers' setting.*\n"
        );
    }
    for (id, entry, _) in &studies {
        let _ = writeln!(md, "- [{}](#{id})", entry["title"].as_str().unwrap_or(id));
    }
    for (_, _, section) in &studies {
        md.push_str(section);
    }
    let path = out_dir.join("results.md");
    std::fs::write(&path, md).map_err(|e| io(&path, e))?;
    let path = out_dir.join("results.json");
    let index: Vec<&Value> = studies.iter().map(|(_, entry, _)| entry).collect();
    let text = serde_json::to_string_pretty(
        &json!({ "mode": mode_name(mode), "took": took, "studies": index }),
    )
    .map_err(|e| e.to_string())?;
    std::fs::write(&path, text).map_err(|e| io(&path, e))?;
    Ok(())
}

/// The studies written before with the fresh ones in their place: the project's studies in
/// their fixed order, then any others the folder holds (`gossipsub-real`) as they were.
fn merge(
    mut before: Vec<(String, Value, String)>,
    mut fresh: Vec<(String, Value, String)>,
) -> Vec<(String, Value, String)> {
    before.retain(|b| fresh.iter().all(|f| f.0 != b.0));
    let mut merged = Vec::new();
    for study in STUDIES {
        for list in [&mut fresh, &mut before] {
            if let Some(i) = list.iter().position(|s| s.0 == study.id) {
                merged.push(list.remove(i));
            }
        }
    }
    merged.extend(before);
    merged
}

/// Writes one study's figure and raw reports; returns its `results.json` entry and its
/// `results.md` section.
fn write_study(r: &StudyResult, out_dir: &Path) -> Result<(Value, String), String> {
    let io = |what: &Path, e: std::io::Error| format!("{}: {e}", what.display());
    let mut md = String::new();
    let s = r.study;
    let _ = writeln!(md, "\n<a id=\"{}\"></a>\n## {}\n", s.id, s.title);
    let files: Vec<String> = s.files.iter().map(|f| format!("`scenarios/{f}`")).collect();
    let _ = writeln!(
        md,
        "Source: {}. Scenarios: {}.\n",
        s.source,
        files.join(", ")
    );
    if !r.changes.is_empty() {
        let _ = writeln!(md, "Changed for this run: {}.\n", r.changes.join("; "));
    }
    let t = &r.analysis.table;
    if !t.head.is_empty() {
        let _ = writeln!(md, "| {} |", t.head.join(" | "));
        let _ = writeln!(md, "|{}", "---|".repeat(t.head.len()));
        for row in &t.rows {
            let _ = writeln!(md, "| {} |", row.join(" | "));
        }
        md.push('\n');
    }
    let figure = r.analysis.plot.as_ref().map(|plot| {
        let name = format!("figures/{}.svg", s.id);
        (name, svg::render(plot))
    });
    if let Some((name, text)) = &figure {
        let path = out_dir.join(name);
        std::fs::write(&path, text).map_err(|e| io(&path, e))?;
        let _ = writeln!(md, "![{}]({name})\n", s.title);
    }
    for c in &r.analysis.checks {
        let mark = if c.holds {
            "holds"
        } else {
            "**does not hold**"
        };
        let _ = writeln!(md, "- {}: {mark}", c.claim);
    }
    let _ = writeln!(md, "\nWhere we differ: {}", s.differences);
    let reports: Vec<_> = r.outcomes.iter().map(|o| &o.report).collect();
    let series: Vec<_> = r
        .outcomes
        .iter()
        .filter_map(|o| o.series.as_ref())
        .collect();
    let path = out_dir.join(format!("reports/{}.json", s.id));
    let mut raw = json!({ "study": s.id, "runs": reports });
    if !series.is_empty() {
        // Per-second counts, one entry per run (bins of outcome::BIN_US).
        raw["series"] = json!(series);
    }
    let text = serde_json::to_string(&raw).map_err(|e| e.to_string())?;
    std::fs::write(&path, text).map_err(|e| io(&path, e))?;
    let entry = json!({
        "id": s.id,
        "title": s.title,
        "source": s.source,
        "scenarios": s.files,
        "changes": r.changes,
        "head": t.head,
        "rows": t.rows,
        "figure": figure.as_ref().map(|f| &f.0),
        "checks": r.analysis.checks.iter().map(|c| json!({ "claim": c.claim, "holds": c.holds })).collect::<Vec<_>>(),
        "differences": s.differences,
    });
    Ok((entry, md))
}
