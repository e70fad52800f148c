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
