//! Peg solitaire on Oliver Merkel's page (`pegs-omerkel`) in Chromium: a
//! 15-hole triangle won by `demo pegs --host omerkel` (the board picked on
//! the Options tab, the vacancy and every jump clicked, each click pair
//! verified by reading the board again), a page that is not this game
//! refused before any click, and a vacancy proven unsolvable refused
//! before the browser starts. (The recorded screenshot fixtures are
//! checked in `fixtures_check`.)
//!
//! The page is shared material (`$GRIDBOT_GAMES` or `../shared/games/`);
//! the browser tests print "skipped: ..." and pass when it or Chromium is
//! missing.

use std::path::PathBuf;

use crate::util::{
    assert_success, gridbot, run, shared_games_in_chromium, stderr, stdout, TempDir,
};

/// The shared games folder holding pegs-omerkel/, or `None` (after saying
/// why).
fn omerkel() -> Option<PathBuf> {
    shared_games_in_chromium("pegs-omerkel/index.html")
}

#[test]
fn a_15_hole_triangle_is_won_on_omerkels_page() {
    let Some(games) = omerkel() else { return };
    let out = run(gridbot(None).env("GRIDBOT_GAMES", &games).args([
        "demo",
        "pegs",
        "--host",
        "omerkel",
        "--board",
        "tri15",
        "--vacancy",
        "2,1",
        "--games",
        "1",
        "--window-size",
        "700x700",
    ]));
    assert_success(&out);
    let text = stdout(&out);
    assert!(
        text.contains("tri15 vacancy 2,1: won in 13 jumps"),
        "{text}"
    );
    assert!(text.contains("won 1 of 1 games"), "{text}");
}

#[test]
fn a_page_that_is_not_the_game_is_refused_without_a_click() {
    let Some(_) = omerkel() else { return };
    let dir = TempDir::new("omerkel-not-the-game");
    let page = dir.join("pegs-omerkel");
    std::fs::create_dir_all(&page).unwrap();
    std::fs::write(
        page.join("index.html"),
        "<html><body style='background:#336'><h1>Not a peg solitaire</h1></body></html>",
    )
    .unwrap();
    let out = run(gridbot(None).env("GRIDBOT_GAMES", dir.path()).args([
        "demo", "pegs", "--host", "omerkel", "--board", "tri15", "--games", "1",
    ]));
    assert!(!out.status.success(), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("no board it can read"), "{err}");
    assert!(!stdout(&out).contains("game 1"), "{}", stdout(&out));
}

#[test]
fn a_vacancy_proven_unsolvable_is_refused_before_the_browser_starts() {
    let out = run(gridbot(None).args([
        "demo",
        "pegs",
        "--host",
        "omerkel",
        "--board",
        "french",
        "--vacancy",
        "3,3",
    ]));
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("cannot end in one peg (proven)"), "{err}");
    assert!(err.contains("--vacancies"), "{err}");
}
