//! `txsim reproduce`'s plan: every study's scenario files exist, and the edits each mode makes
//! leave valid scenarios. (The runs themselves are `npm test`'s `reproduce --quick` step.)

use reproduce::{Mode, STUDIES};

#[test]
fn every_study_adapts_to_valid_scenarios_in_both_modes() {
    let dir = format!("{}/../../../scenarios", env!("CARGO_MANIFEST_DIR"));
    for study in STUDIES {
        for mode in [Mode::Quick, Mode::Full] {
            let mut runs = 0;
            for file in study.files {
                let text = std::fs::read_to_string(format!("{dir}/{file}"))
                    .unwrap_or_else(|e| panic!("{}: {file}: {e}", study.id));
                let mut s: serde_json::Value = serde_json::from_str(&text).unwrap();
                let changes = (study.adapt)(file, &mut s, mode);
                if mode == Mode::Full && file.contains("4000") {
                    assert!(
                        !changes.is_empty(),
                        "{}: the full run says what it cut",
                        study.id
                    );
                }
                let n = s["protocols"].as_array().map_or(0, Vec::len);
                if n > 0 {
                    sim::parse_scenario(&s.to_string())
                        .unwrap_or_else(|e| panic!("{} {mode:?} {file}: {e}", study.id));
                }
                runs += n;
            }
            assert!(runs > 0, "{} {mode:?} runs nothing", study.id);
        }
    }
}

#[test]
fn quick_mode_shrinks_the_big_networks() {
    let dir = format!("{}/../../../scenarios", env!("CARGO_MANIFEST_DIR"));
    for study in STUDIES {
        for file in study.files {
            let text = std::fs::read_to_string(format!("{dir}/{file}")).unwrap();
            let mut s: serde_json::Value = serde_json::from_str(&text).unwrap();
            (study.adapt)(file, &mut s, Mode::Quick);
            let runs = s["protocols"].as_array().map_or(0, Vec::len);
            if runs > 0 {
                assert!(s["nodes"].as_u64().unwrap() <= 260, "{} {file}", study.id);
            }
        }
    }
}

/// `--only` into a folder that holds a page: the studies run replace theirs, the others (and a
/// section another tool added, as `npm run reproduce` adds `gossipsub-real`) stay as they were,
/// and a run of the other mode is refused before it starts.
#[test]
fn only_adds_to_the_page_already_written() {
    let out = std::env::temp_dir().join(format!("txcast-reproduce-only-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let run = |only: &[&str], mode: Mode| -> Result<(), String> {
        let opts = reproduce::Options {
            mode,
            scenarios_dir: format!("{}/../../../scenarios", env!("CARGO_MANIFEST_DIR")).into(),
            out_dir: out.clone(),
            timings_dir: None,
            jobs: 2,
            only: only.iter().map(|s| s.to_string()).collect(),
            now_ms: || 0.0,
        };
        reproduce::check_out_dir(&opts.out_dir, opts.mode, &opts.only)?;
        let results = reproduce::reproduce(&opts, &|_| {})?;
        reproduce::write_outputs(&results, &opts.out_dir, mode, "a test", &opts.only)
    };
    let read = |name: &str| std::fs::read_to_string(out.join(name)).unwrap();
    run(&["neo-go"], Mode::Quick).unwrap();
    // A study of ours written by an earlier run (stand-in words), and another tool's study
    // added after ours.
    let cat = "\n<a id=\"cat-vs-flood\"></a>\n## CAT\n\nAn earlier run's words.\n";
    let other = "\n<a id=\"elsewhere\"></a>\n## Another tool's study\n\nIts own words.\n";
    std::fs::write(out.join("results.md"), read("results.md") + cat + other).unwrap();
    let mut index: serde_json::Value = serde_json::from_str(&read("results.json")).unwrap();
    let studies = index["studies"].as_array_mut().unwrap();
    let cat_before = serde_json::json!({ "id": "cat-vs-flood", "title": "CAT", "checks": [{ "claim": "x", "holds": false }] });
    studies.push(cat_before.clone());
    studies.push(
        serde_json::json!({ "id": "elsewhere", "title": "Another tool's study", "checks": [] }),
    );
    std::fs::write(out.join("results.json"), index.to_string()).unwrap();

    run(&["neo-go"], Mode::Quick).unwrap();
    let index: serde_json::Value = serde_json::from_str(&read("results.json")).unwrap();
    let ids: Vec<&str> = index["studies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["cat-vs-flood", "neo-go", "elsewhere"]);
    assert_eq!(
        index["studies"][0], cat_before,
        "a study not run stays as it was"
    );
    assert_eq!(index["took"], "a test; neo-go again: a test");
    let md = read("results.md");
    assert!(
        md.ends_with(other),
        "the other tool's section stays last, word for word"
    );
    for id in ["cat-vs-flood", "neo-go", "elsewhere"] {
        assert_eq!(
            md.matches(&format!("<a id=\"{id}\">")).count(),
            1,
            "{id} once"
        );
        assert!(md.contains(&format!("(#{id})")), "{id} in the contents");
    }

    run(&["neo-go"], Mode::Quick).unwrap();
    let index: serde_json::Value = serde_json::from_str(&read("results.json")).unwrap();
    assert_eq!(
        index["took"], "a test; neo-go again: a test",
        "a study run again replaces its note"
    );

    let refused = run(&["neo-go"], Mode::Full).unwrap_err();
    assert!(refused.contains("holds a quick mode run"), "{refused}");
    let _ = std::fs::remove_dir_all(&out);
}
