//! Flood-It on Carl Steib's page (`flood-cstby/` of the shared games) in
//! Chromium: level 1 won by `demo flood --host cstby` (planned by the
//! exact solver, each click verified by reading the board and the page's
//! counter again); a new board dealt behind the bot's back (the level's
//! password typed into the page), which it notices and plans around; and refusals without a click: a page that is not the
//! game, and a window too small to show the board. (The recorded
//! screenshot fixtures are checked in `fixtures_check`.)
//!
//! The page is shared material (`$GRIDBOT_GAMES` or `../shared/games/`);
//! these tests print "skipped: ..." and pass when it or Chromium is
//! missing.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::play_util::{pointer, report, xdotool, Interference};
use crate::util::{
    assert_success, gridbot, run, shared_games_in_chromium, stderr, stdout, TempDir,
};
use gridbot::display::VirtualDisplay;
use gridbot::hosts::browser::{Browser, BrowserOptions};

const GAME_TIMEOUT: Duration = Duration::from_secs(120);

/// The shared games folder holding flood-cstby/, or `None` (after saying why).
fn cstby_page() -> Option<PathBuf> {
    shared_games_in_chromium("flood-cstby/index.html")
}

/// Chromium showing `page` of `folder` in a `size` window on `display`.
fn open(display: &VirtualDisplay, folder: &Path, page: &str, size: (u32, u32)) -> Browser {
    let mut options = BrowserOptions::served(display.name(), folder, page, None);
    (options.width, options.height) = size;
    Browser::open(options).expect("Chromium shows the page")
}

#[test]
fn level_one_is_won_with_a_proven_optimal_plan() {
    let Some(games) = cstby_page() else { return };
    let dir = TempDir::new("cstby-demo");
    let path = dir.join("report.json");
    let out = run(gridbot(None).env("GRIDBOT_GAMES", &games).args([
        "demo",
        "flood",
        "--host",
        "cstby",
        "--levels",
        "1",
        "--window-size",
        "700x760",
        "--report",
        path.to_str().unwrap(),
    ]));
    assert_success(&out);
    let text = stdout(&out);
    assert!(text.contains("level 1/8: 4x4, limit 10: won in"), "{text}");
    assert!(text.contains("optimal (proven)"), "{text}");
    let g = &report(&path)["games"][0];
    assert_eq!(g["result"], "won", "{g}");
    assert_eq!(g["mismatches"], 0, "{g}");
    assert_eq!(g["proven_optimal"], true, "{g}");
    assert_eq!(g["limit"], 10, "{g}");
    let bot = g["bot_moves"].as_u64().unwrap();
    assert!((1..=10).contains(&bot), "{g}");
    // The page's own counter, read off the screen, agrees.
    assert_eq!(g["status_moves"], bot, "{g}");
}

#[test]
fn a_new_board_dealt_behind_the_bots_back_is_noticed_and_planned_around() {
    let Some(games) = cstby_page() else { return };
    let display = VirtualDisplay::start(1024, 900).expect("start Xvfb");
    let browser = open(
        &display,
        &games.join("flood-cstby"),
        "index.html",
        (800, 800),
    );
    // One move done and verified; during the pause before the next, the
    // "user" types level 1's password into the page's box (Tab focuses it):
    // the page deals a new board and sets its counter back to 0. Keys
    // only: a click by hand moves the pointer, which stops the bot.
    let found = xdotool(display.name(), &["search", "--name", "index.html"]);
    let window = found.lines().last().expect("the page's window").to_string();
    let g = Interference {
        display: display.name(),
        verbosity: "-vv",
        game: "flood",
        extra: &["--host", "cstby"],
        pause_ms: "1500",
        tag: "cstby-recover",
        wait_for: ("engine] settled after", 1),
        timeout: GAME_TIMEOUT,
        also_noticed: &["the board did not change"],
    }
    .play(|| {
        xdotool(
            display.name(),
            &[
                "windowfocus",
                "--sync",
                &window,
                "key",
                "Tab",
                "type",
                "ABC's",
            ],
        );
    });
    // The page counts from the new board: fewer moves than the bot made.
    let bot = g["bot_moves"].as_u64().unwrap();
    assert!(g["status_moves"].as_u64().unwrap() < bot, "{g}");
    drop(browser);
}

#[test]
fn a_page_that_is_not_the_game_is_refused_without_a_click() {
    let Some(games) = cstby_page() else { return };
    if !games.join("rush-web/index.html").is_file() {
        println!("skipped: no rush-web/ in {}", games.display());
        return;
    }
    let display = VirtualDisplay::start(1024, 900).expect("start Xvfb");
    let browser = open(&display, &games.join("rush-web"), "index.html", (700, 700));
    let before = pointer(display.name());
    let out = run(gridbot(Some(display.name())).args([
        "play",
        "flood",
        "--host",
        "cstby",
        "--window",
        "Rush Hour",
    ]));
    assert!(!out.status.success(), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("not Carl Steib's Flood-It page"), "{err}");
    assert!(err.contains("nothing was clicked"), "{err}");
    assert_eq!(pointer(display.name()), before);
    drop(browser);
}

#[test]
fn a_window_too_small_for_the_board_is_refused_without_a_click() {
    let Some(games) = cstby_page() else { return };
    let display = VirtualDisplay::start(1024, 900).expect("start Xvfb");
    // The 420-pixel framed board does not fit in a 360x360 window.
    let browser = open(
        &display,
        &games.join("flood-cstby"),
        "index.html",
        (360, 360),
    );
    let before = pointer(display.name());
    let out = run(gridbot(Some(display.name())).args(["play", "flood", "--host", "cstby"]));
    assert!(!out.status.success(), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("covered or too small"), "{err}");
    assert!(err.contains("nothing was clicked"), "{err}");
    assert_eq!(pointer(display.name()), before);
    drop(browser);
}
