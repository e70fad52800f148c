//! Writes what `reproduce` found: `results.md` (tables, figures, checks, differences),
//! `figures/<study>.svg`, `reports/<study>.json` (the raw run reports) and `results.json`
//! (the same tables for the visualizer's papers view).

use super::{svg, Mode, StudyResult};
use serde_json::json;
use std::fmt::Write;
use std::path::Path;

/// `how_long` is the caller's wall-clock account of the run (the core reads no clock).
pub fn write_outputs(
    results: &[StudyResult],
    out_dir: &Path,
    mode: Mode,
    how_long: &str,
) -> Result<(), String> {
    let io = |what: &Path, e: std::io::Error| format!("{}: {e}", what.display());
    for sub in ["figures", "reports"] {
        let dir = out_dir.join(sub);
        std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
    }
    let mut md = String::new();
    let passed = results
        .iter()
        .flat_map(|r| &r.analysis.checks)
        .filter(|c| c.holds)
        .count();
    let total: usize = results.iter().map(|r| r.analysis.checks.len()).sum();
    let _ = writeln!(md, "# Reproducing the seeds' results\n");
    let _ = writeln!(
        md,
        "Written by `npm run reproduce{}` ({how_long}). Every number below was measured by that run; \
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
    for r in results {
        let _ = writeln!(md, "- [{}](#{})", r.study.title, r.study.id);
    }
    let mut index = Vec::new();
    for r in results {
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
        index.push(json!({
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
        }));
    }
    let path = out_dir.join("results.md");
    std::fs::write(&path, md).map_err(|e| io(&path, e))?;
    let path = out_dir.join("results.json");
    let mode_name = if mode == Mode::Quick { "quick" } else { "full" };
    let text = serde_json::to_string_pretty(
        &json!({ "mode": mode_name, "took": how_long, "studies": index }),
    )
    .map_err(|e| e.to_string())?;
    std::fs::write(&path, text).map_err(|e| io(&path, e))?;
    Ok(())
}
