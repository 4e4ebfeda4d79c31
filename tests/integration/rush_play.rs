//! Rush Hour played end to end on Fogleman's player in Chromium: a
//! 20-move puzzle won by `demo rush` (each move one drag, verified by
//! reading the board again; the page's own counter read off the screen
//! must say 20 / 20), a recovery from a move the "user" takes back with
//! the page's Undo key between two of the bot's drags. On Luca Wagner's
//! page: its first two levels won in a row (`validate rush --host
//! wagnerluca --levels 1..2`, the page's Optimal and counter read and
//! compared), and a level reset behind the bot's back. (The recorded
//! screenshot fixtures are checked in `fixtures_check`.)
//!
//! The player is shared material (`$GRIDBOT_GAMES` or `../shared/games/`);
//! the browser tests print "skipped: ..." and pass when it or Chromium is
//! missing.

use std::path::PathBuf;
use std::time::Duration;

use crate::play_util::{report, xdotool, Interference};
use crate::util::{assert_success, gridbot, run, shared_games_in_chromium, stdout, TempDir};
use gridbot::display::VirtualDisplay;
use gridbot::hosts::browser::{Browser, BrowserOptions};

/// A 20-move puzzle (a farthest position of the 14,580-position cluster
/// that `gridbot generate rush --moves 20 --seed 2` gives; proven by the
/// breadth-first search: `solve rush` says length=20 optimal=proven).
const PUZZLE_20: &str = "BBCCoooDEooFoDEAAFGGEHoFIooHJJIooKKK";

const GAME_TIMEOUT: Duration = Duration::from_secs(120);

/// The shared games folder holding rush-web/, or `None` (after saying why).
fn rush_web() -> Option<PathBuf> {
    shared_games_in_chromium("rush-web/index.html")
}

#[test]
fn a_20_move_puzzle_is_won_in_the_browser() {
    let Some(games) = rush_web() else { return };
    let dir = TempDir::new("rush-demo");
    let path = dir.join("report.json");
    let out = run(gridbot(None).env("GRIDBOT_GAMES", &games).args([
        "demo",
        "rush",
        "--puzzle",
        &format!("{PUZZLE_20}/20"),
        "--window-size",
        "700x700",
        "--report",
        path.to_str().unwrap(),
    ]));
    assert_success(&out);
    let text = stdout(&out);
    assert!(text.contains("Chromium"), "{text}");
    assert!(text.contains("optimal 20 (proven)"), "{text}");
    let g = &report(&path)["games"][0];
    assert_eq!(g["result"], "won", "{g}");
    assert_eq!(g["board_matches_id"], true, "{g}");
    assert_eq!(g["bot_moves"], 20, "{g}");
    assert_eq!(g["mismatches"], 0, "{g}");
    assert_eq!(g["proven_optimal"], true, "{g}");
    // The page's counter, read with tesseract when it is installed.
    if let Some(status) = g["status_text"].as_str() {
        let c = gridbot::games::rush::web::parse_counter(status)
            .unwrap_or_else(|| panic!("counter {status:?}"));
        assert_eq!((c.moves, c.required), (20, Some(20)), "{status}");
    }
}

#[test]
fn a_move_taken_back_behind_the_bots_back_is_replayed() {
    let Some(games) = rush_web() else { return };
    let display = VirtualDisplay::start(1024, 800).expect("start Xvfb");
    let mut options = BrowserOptions::served(
        display.name(),
        &games.join("rush-web"),
        "index.html",
        Some(&format!("{PUZZLE_20}/20")),
    );
    options.width = 640;
    options.height = 640;
    let browser = Browser::open(options).expect("Chromium shows the player");
    // The window that takes the keyboard: the one titled by the page.
    let found = xdotool(display.name(), &["search", "--name", "Rush Hour"]);
    let window = found
        .lines()
        .last()
        .expect("the player's window")
        .to_string();
    // Two drags done and verified; during the pause before the third, the
    // page's Undo key (`u`) takes the second back, which leaves the
    // pointer alone.
    let g = Interference {
        display: display.name(),
        verbosity: "-vv",
        game: "rush",
        extra: &[],
        pause_ms: "700",
        tag: "rush-recover",
        wait_for: ("engine] settled after", 2),
        timeout: GAME_TIMEOUT,
        also_noticed: &["the board did not change"],
    }
    .play(|| {
        xdotool(
            display.name(),
            &["windowfocus", "--sync", &window, "key", "u"],
        );
    });
    // The move taken back was played again: 21 drags (20 counted when the
    // Undo landed before the second drag was verified: the bot saw no
    // change and played it again), and the page, whose Undo took one off
    // its count, says 20.
    let bot = g["bot_moves"].as_u64().unwrap();
    assert!(bot == 20 || bot == 21, "{g}");
    if let Some(status) = g["status_text"].as_str() {
        let c = gridbot::games::rush::web::parse_counter(status)
            .unwrap_or_else(|| panic!("counter {status:?}"));
        assert_eq!(c.moves, 20, "{status}");
    }
    drop(browser);
}

/// The shared games folder holding rush-wagnerluca/, or `None` (after
/// saying why).
fn wagner_page() -> Option<PathBuf> {
    shared_games_in_chromium("rush-wagnerluca/index.html")
}

#[test]
fn wagners_first_two_levels_are_won_in_a_row() {
    let Some(games) = wagner_page() else { return };
    let dir = TempDir::new("rush-wagner");
    let path = dir.join("report.json");
    let out = run(gridbot(None).env("GRIDBOT_GAMES", &games).args([
        "validate",
        "rush",
        "--host",
        "wagnerluca",
        "--levels",
        "1..2",
        "--report",
        path.to_str().unwrap(),
    ]));
    assert_success(&out);
    let text = stdout(&out);
    assert!(text.contains("rush-wagnerluca in Chromium"), "{text}");
    // The proven optima of levels.js's first two levels, and the page's
    // own Optimal and move counter read off the screen agreeing.
    assert!(
        text.contains("level 1: BCCoooBooDooBAADooEEEFoooooFoooooFoo  optimal 2 (proven) , played 2 , page moves 2 optimal 2"),
        "{text}"
    );
    assert!(
        text.contains("level 2: ")
            && text.contains("optimal 4 (proven) , played 4 , page moves 4 optimal 4"),
        "{text}"
    );
    let games = report(&path)["games"].as_array().unwrap().clone();
    assert_eq!(games.len(), 2);
    for (g, moves) in games.iter().zip([2, 4]) {
        assert_eq!(g["result"], "won", "{g}");
        assert_eq!(g["status"], "completed", "{g}");
        assert_eq!(g["bot_moves"], moves, "{g}");
        assert_eq!(g["proven_optimal"], true, "{g}");
    }
}

#[test]
fn a_level_reset_behind_the_bots_back_on_wagners_page_is_replanned() {
    let Some(games) = wagner_page() else { return };
    let display = VirtualDisplay::start(1024, 900).expect("start Xvfb");
    let mut options = BrowserOptions::served(
        display.name(),
        &games.join("rush-wagnerluca"),
        "index.html",
        None,
    );
    options.width = 800;
    options.height = 800;
    // The page's EXIT label pulses: its picture is never steady.
    options.settle = Duration::ZERO;
    let mut browser = Browser::open(options).expect("Chromium shows the page");
    browser
        .wait_until(Duration::from_secs(20), |image| {
            gridbot::games::rush::wagner_read::read(image).is_ok()
        })
        .expect("a board on the page");
    let found = xdotool(display.name(), &["search", "--name", "Rush Hour"]);
    let window = found.lines().last().expect("the page's window").to_string();
    // Level 1: the bot lifts the purple car one cell, then drives the red
    // car out. Once the lift is verified, the "user" resets the level
    // with the keyboard (Tab to the page's first button, Reset; Return),
    // which leaves the pointer alone: the bot must see the start again
    // and lift the car once more.
    let g = Interference {
        display: display.name(),
        verbosity: "-vv",
        game: "rush",
        extra: &["--host", "wagnerluca"],
        pause_ms: "800",
        tag: "rush-wagner-recover",
        wait_for: ("engine] settled after", 1),
        timeout: GAME_TIMEOUT,
        also_noticed: &[],
    }
    .play(|| {
        xdotool(
            display.name(),
            &["windowfocus", "--sync", &window, "key", "Tab", "Return"],
        );
    });
    // Lift, lift again, drive out; the page's counter restarted at the
    // reset.
    assert_eq!(g["bot_moves"], 3, "{g}");
    if let Some(status) = g["status_text"].as_str() {
        let info = gridbot::games::rush::wagner::parse_info(status);
        assert_eq!(info.moves, Some(2), "{status}");
    }
    drop(browser);
}
