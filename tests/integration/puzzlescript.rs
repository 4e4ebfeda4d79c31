//! PuzzleScript conformance: `bench puzzlescript --conformance` replays the
//! reference engine's 470 recorded sessions (`../shared/benchmarks/
//! puzzlescript/testdata.js`) and must match at least as many final levels
//! as it matched when this floor was set. Skipped with a message when the
//! shared folder is absent.

use crate::util::{gridbot, run, shared_games, stderr, stdout};

/// Sessions whose final level matched the reference's when the floor was
/// last raised (all of them).
const MATCH_FLOOR: u64 = 470;

#[test]
fn conformance_matches_at_least_the_floor() {
    let Some(games) = shared_games("puzzlescript/standalone_inlined.txt") else {
        return;
    };
    let sessions = games.join("../benchmarks/puzzlescript/testdata.js");
    if !sessions.is_file() {
        println!("skipped: {} not found", sessions.display());
        return;
    }
    let out = run(gridbot(None).args([
        "bench",
        "puzzlescript",
        "--conformance",
        sessions.to_str().unwrap(),
        "--json",
    ]));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", stdout(&out), stderr(&out)));
    let matches = report["matches"].as_u64().unwrap();
    assert_eq!(report["sessions"].as_u64(), Some(470), "{report}");
    assert!(
        matches >= MATCH_FLOOR,
        "{matches} sessions match, fewer than the floor {MATCH_FLOOR}: {:#}",
        report["not_matching"]
    );
}

#[test]
fn a_broken_source_is_refused_with_its_line() {
    let dir = crate::util::TempDir::new("ps-broken");
    let path = dir.path().join("sessions.js");
    let source = "title x\\n\\nOBJECTS\\n\\nPlayer\\nblack\\n\\nLEGEND\\n\\nP = Plyer\\n";
    std::fs::write(
        &path,
        format!("var testdata = [[\"broken\", [\"{source}\", [0], \"\"]]];"),
    )
    .unwrap();
    let out = run(gridbot(None).args([
        "bench",
        "puzzlescript",
        "--conformance",
        path.to_str().unwrap(),
    ]));
    let text = stdout(&out);
    assert!(
        text.contains("refused   broken: line 10:"),
        "{text}\n{}",
        stderr(&out)
    );
    assert!(text.contains("refusals=1"), "{text}");
    assert!(!out.status.success());
}
