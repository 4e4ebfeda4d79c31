//! `gridbot play` fails cleanly: a clear message, exit code 1, no panic.

use crate::util::{assert_clean_failure, gridbot, run};
use gridbot::display::VirtualDisplay;

#[test]
fn without_a_display() {
    let out = run(gridbot(None).args(["play", "flood"]));
    assert_clean_failure(&out, "no X display");
}

#[test]
fn without_the_game_window() {
    let display = VirtualDisplay::start(640, 480).expect("start Xvfb");
    let out = run(gridbot(Some(display.name())).args(["play", "flood"]));
    assert_clean_failure(&out, "no window whose title contains \"Flood\"");
}

#[test]
fn with_a_bad_report_name() {
    let display = VirtualDisplay::start(640, 480).expect("start Xvfb");
    let out = run(gridbot(Some(display.name())).args(["play", "flood", "--report", "out.txt"]));
    assert_clean_failure(&out, "must end in .json or .csv");
}

#[test]
fn with_bad_demo_parameters() {
    let out = run(gridbot(None).args(["demo", "--params", "12x12c12"]));
    assert_clean_failure(&out, "3 to 10 colours");
}

#[test]
fn a_game_the_limit_makes_unwinnable_is_reported_lost() {
    // The usual test game with its limit cut to 5 moves (it needs 16).
    let id = format!("{},5", crate::util::FLOOD_ID.rsplit_once(',').unwrap().0);
    let game = crate::util::FloodOnDisplay::start(&id, false);
    let dir = crate::util::TempDir::new("lost");
    let path = dir.join("report.json");
    let out = run(gridbot(Some(game.name()))
        .args(["play", "flood", "--report"])
        .arg(&path));
    assert_eq!(out.status.code(), Some(1), "{}", crate::util::stderr(&out));
    let text = crate::util::stdout(&out);
    assert!(text.contains("LOST after 5 moves (limit 5)"), "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let g = &json["games"][0];
    assert_eq!(g["result"], "lost", "{g}");
    assert_eq!(g["status"], "failed", "{g}");
    assert_eq!(g["status_moves"].as_u64(), Some(5), "{g}");
}
