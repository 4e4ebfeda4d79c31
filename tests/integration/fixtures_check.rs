//! Runs `gridbot fixtures GAME check` on every game's committed screenshot
//! fixtures (real captures of sgt-flood, sgt-fifteen, sgt-pegs, the sgt
//! web build's pages and Fogleman's Rush Hour player, and bad inputs): any
//! wrongly read cell, or a bad input that is not refused with its expected
//! error, fails the test.

use std::process::{Command, Output};

/// `gridbot fixtures GAME ARGS...`.
fn fixtures(game: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gridbot"))
        .args(["fixtures", game])
        .args(args)
        .output()
        .expect("gridbot runs")
}

/// Checks the committed fixtures of `game`: all read right, at least
/// `least` of them.
fn every_fixture_of(game: &str, least: usize) {
    let dir = format!("{}/fixtures/{game}", env!("CARGO_MANIFEST_DIR"));
    let out = fixtures(game, &["check", &dir]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{game} fixtures check failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains(" 0 failed"), "{stdout}");
    let ok = stdout.lines().filter(|l| l.contains("  ok  ")).count();
    assert!(
        ok >= least,
        "expected at least {least} {game} fixtures, found {ok}:\n{stdout}"
    );
}

#[test]
fn every_flood_fixture_reads_right() {
    every_fixture_of("flood", 20);
}

#[test]
fn every_fifteen_fixture_reads_right() {
    every_fixture_of("fifteen", 25);
}

#[test]
fn every_rush_fixture_reads_right() {
    every_fixture_of("rush", 8);
}

#[test]
fn every_pegs_fixture_reads_right() {
    every_fixture_of("pegs", 12);
}

/// A copy of `fixtures/GAME/NAME` (png and toml) in a fresh folder, with
/// `edit` applied to its truth file.
fn copied(game: &str, name: &str, edit: impl Fn(&str) -> String) -> std::path::PathBuf {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = std::env::temp_dir().join(format!(
        "gridbot-fixture-{game}-{name}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let src = format!("{root}/fixtures/{game}/{name}");
    std::fs::copy(format!("{src}.png"), dir.join("x.png")).unwrap();
    let text = std::fs::read_to_string(format!("{src}.toml")).unwrap();
    std::fs::write(dir.join("x.toml"), edit(&text)).unwrap();
    dir
}

/// `text` with the first cell of its `expected` board changed.
fn one_cell_off(text: &str) -> String {
    let expected_line = text.lines().find(|l| l.starts_with("expected")).unwrap();
    let start = expected_line.find(':').unwrap() + 1;
    let mut broken = expected_line.to_string();
    let first = broken.as_bytes()[start];
    let other = if first == b'0' { "1" } else { "0" };
    broken.replace_range(start..start + 1, other);
    text.replace(expected_line, &broken)
}

#[test]
fn check_fails_on_a_wrong_ground_truth() {
    // One fixture with a ground truth that differs in one cell: the check
    // must notice.
    let dir = copied("flood", "preset-12x12c6", one_cell_off);
    let out = fixtures("flood", &["check", dir.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    std::fs::remove_dir_all(&dir).ok();
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains("143/144") && stdout.contains("FAIL"),
        "{stdout}"
    );
}

#[test]
fn record_rewrites_a_wrong_ground_truth_to_what_is_read() {
    let dir = copied("pegs", "cross-default", |t| t.replace("HPPP", "PPPP"));
    let path = dir.to_str().unwrap();
    assert!(!fixtures("pegs", &["check", path]).status.success());
    let out = fixtures("pegs", &["record", path]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("1 truth files rewritten"), "{stdout}");
    let truth = std::fs::read_to_string(dir.join("x.toml")).unwrap();
    let out = fixtures("pegs", &["check", path]);
    std::fs::remove_dir_all(&dir).ok();
    assert!(out.status.success(), "{truth}");
    let want = std::fs::read_to_string(format!(
        "{}/fixtures/pegs/cross-default.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    assert_eq!(truth, want);
}
