//! PuzzleScript played end to end on the reference engine's own page in
//! Chromium under Xvfb: microban levels 1-3 won in a row (title and
//! message screens passed with X, every plan proven shortest), a level of
//! octat (`late` and `cancel` rules) validated against its proven
//! shortest solution, a `message` fired by a rule mid-level closed with
//! X, a `flickscreen` level read through the window the page shows, a
//! game with randomness re-planned after every key,
//! a key pressed behind the bot's back (undo, `z`) absorbed by
//! re-reading and re-planning; and the refusals, before any display or
//! browser is started, of a source with a syntax error and of a
//! `realtime_interval` game.
//!
//! The page template and the example games are shared material
//! (`$GRIDBOT_GAMES` or `../shared/games/`); the browser tests print
//! "skipped: ..." and pass when they or Chromium are missing.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::play_util::{report, xdotool, Interference};
use crate::util::{
    assert_clean_failure, assert_success, gridbot, run, shared_games_in_chromium, stdout, TempDir,
};
use gridbot::display::VirtualDisplay;
use gridbot::games::puzzlescript::page::{build_page, PAGE};
use gridbot::hosts::browser::{Browser, BrowserOptions};

const GAME_TIMEOUT: Duration = Duration::from_secs(120);

/// The shared games folder holding the page template, or `None` (after
/// saying why).
fn engine_page() -> Option<PathBuf> {
    shared_games_in_chromium("puzzlescript/standalone_inlined.txt")
}

/// A test data file.
fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/puzzlescript")
        .join(name)
}

#[test]
fn microban_levels_1_to_3_are_won_in_a_row() {
    let Some(games) = engine_page() else { return };
    let dir = TempDir::new("ps-microban");
    let path = dir.join("report.json");
    let out = run(gridbot(None).env("GRIDBOT_GAMES", &games).args([
        "demo",
        "puzzlescript",
        "--levels",
        "1..3",
        "--report",
        path.to_str().unwrap(),
    ]));
    assert_success(&out);
    let text = stdout(&out);
    for level in 1..=3 {
        assert!(
            text.contains(&format!("level {level}: ")) && text.contains("won as the page shows"),
            "{text}"
        );
    }
    let r = report(&path);
    let games = r["games"].as_array().unwrap();
    assert_eq!(games.len(), 3, "{r}");
    // The proven shortest solutions of `solve puzzlescript`.
    for (g, keys) in games.iter().zip([33, 16, 41]) {
        assert_eq!(g["result"], "won", "{g}");
        assert_eq!(g["bot_moves"], keys, "{g}");
        assert_eq!(g["mismatches"], 0, "{g}");
        assert_eq!(g["proven_optimal"], true, "{g}");
    }
}

#[test]
fn an_octat_level_with_late_and_cancel_rules_is_validated() {
    let Some(games) = engine_page() else { return };
    let file = games.join("puzzlescript/games/octat.txt");
    let out = run(gridbot(None).env("GRIDBOT_GAMES", &games).args([
        "validate",
        "puzzlescript",
        file.to_str().unwrap(),
        "--levels",
        "2",
        "--window-size",
        "640x480",
    ]));
    assert_success(&out);
    let text = stdout(&out);
    assert!(text.contains("level 2: 5 keys"), "{text}");
    assert!(text.contains("proven shortest"), "{text}");
}

#[test]
fn a_message_fired_by_a_rule_is_closed_and_the_level_won() {
    let Some(games) = engine_page() else { return };
    let dir = TempDir::new("ps-message");
    let path = dir.join("report.json");
    let out = run(gridbot(None).env("GRIDBOT_GAMES", &games).args([
        "validate",
        "puzzlescript",
        data("message.txt").to_str().unwrap(),
        "--levels",
        "1",
        "--report",
        path.to_str().unwrap(),
    ]));
    assert_success(&out);
    let g = &report(&path)["games"][0];
    assert_eq!(g["result"], "won", "{g}");
    let solution: Vec<&str> = g["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    assert_eq!(solution, ["r", "r", "r", "x (message)"], "{g}");
    assert_eq!(g["mismatches"], 0, "{g}");
}

#[test]
fn a_flickscreen_level_is_read_through_its_window() {
    let Some(games) = engine_page() else { return };
    let out = run(gridbot(None).env("GRIDBOT_GAMES", &games).args([
        "validate",
        "puzzlescript",
        data("flickscreen.txt").to_str().unwrap(),
        "--levels",
        "1",
    ]));
    assert_success(&out);
    // Six steps right, the page flicking to the second screen after four.
    let text = stdout(&out);
    assert!(
        text.contains("level 1: 6 keys rrrrrr (proven shortest)"),
        "{text}"
    );
    assert!(text.contains(", 0 mismatches"), "{text}");
}

#[test]
fn a_game_with_randomness_is_replanned_and_never_called_shortest() {
    let Some(games) = engine_page() else { return };
    let dir = TempDir::new("ps-random");
    let path = dir.join("report.json");
    let out = run(gridbot(None).env("GRIDBOT_GAMES", &games).args([
        "validate",
        "puzzlescript",
        data("random.txt").to_str().unwrap(),
        "--levels",
        "1",
        "--report",
        path.to_str().unwrap(),
    ]));
    assert_success(&out);
    let text = stdout(&out);
    assert!(text.contains("random game: not called shortest"), "{text}");
    let g = &report(&path)["games"][0];
    assert_eq!(g["result"], "won", "{g}");
    assert_eq!(g["bot_moves"], 5, "{g}");
    assert_eq!(g["proven_optimal"], false, "{g}");
    // A plan of one key each time.
    assert!(g["solves"].as_u64().unwrap() >= 5, "{g}");
}

#[test]
fn a_key_pressed_behind_the_bots_back_is_absorbed() {
    let Some(games) = engine_page() else { return };
    let display = VirtualDisplay::start(1024, 800).expect("start Xvfb");
    let source = std::fs::read_to_string(games.join("puzzlescript/games/microban.txt")).unwrap();
    let template =
        std::fs::read_to_string(games.join("puzzlescript/standalone_inlined.txt")).unwrap();
    let dir = TempDir::new("ps-recover-page");
    std::fs::write(
        dir.join(PAGE),
        build_page(&template, &source, "gridbot: Microban"),
    )
    .unwrap();
    let mut options = BrowserOptions::served(display.name(), dir.path(), PAGE, None);
    options.width = 700;
    options.height = 600;
    let browser = Browser::open(options).expect("Chromium shows the page");
    let found = xdotool(display.name(), &["search", "--name", "gridbot: Microban"]);
    let window = found.lines().last().expect("the page's window").to_string();
    let file = games.join("puzzlescript/games/microban.txt");
    // The bot passes the title and the first message itself; two keys
    // played and verified, then during the pause before the third the
    // "user" undoes one (Z), which the bot must notice and play around.
    let g = Interference {
        display: display.name(),
        verbosity: "-vv",
        game: "puzzlescript",
        extra: &[file.to_str().unwrap(), "--levels", "1"],
        pause_ms: "700",
        tag: "ps-recover",
        wait_for: ("engine] settled after", 2),
        timeout: GAME_TIMEOUT,
        also_noticed: &["the board did not change"],
    }
    .play(|| {
        xdotool(
            display.name(),
            &["windowfocus", "--sync", &window, "key", "z"],
        );
    });
    assert!(g["bot_moves"].as_u64().unwrap() >= 33, "{g}");
    drop(browser);
}

#[test]
fn a_syntax_error_and_a_realtime_game_are_refused_before_anything_starts() {
    for (file, says) in [
        ("syntax_error.txt", "line 54"),
        ("realtime.txt", "realtime_interval"),
    ] {
        let out = run(gridbot(None).args(["demo", "puzzlescript", data(file).to_str().unwrap()]));
        assert_clean_failure(&out, says);
        // Nothing was started: no browser, so no key could be sent.
        assert!(!stdout(&out).contains("Chromium"), "{}", stdout(&out));
    }
}
