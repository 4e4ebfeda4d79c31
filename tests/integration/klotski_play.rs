//! Klotski played end to end on GNOME Klotski (`gnome-klotski`) under
//! Xvfb: Only 18 Steps won by `demo klotski` in its 18 moves, the game's
//! own counter read off the header bar saying 18; and a recovery: the
//! "user" starts the puzzle over (the game's Shift+Ctrl+N) between two of
//! the bot's drags, and `play klotski` notices, solves again from the
//! start and wins. (The screenshot fixtures are checked in
//! `fixtures_check` and by `fixtures klotski check`.)
//!
//! The tests print "skipped: ..." and pass when gnome-klotski is not
//! installed (`./dev deps` installs it).

use std::path::Path;
use std::time::Duration;

use crate::play_util::{report, xdotool, Interference};
use crate::util::{assert_success, gridbot, run, stdout, TempDir};
use gridbot::display::VirtualDisplay;

const GAME_TIMEOUT: Duration = Duration::from_secs(120);

/// True when gnome-klotski is installed (else says why the test skips).
fn installed() -> bool {
    let found = ["/usr/games/gnome-klotski", "/usr/bin/gnome-klotski"]
        .iter()
        .any(|p| Path::new(p).is_file());
    if !found {
        println!("skipped: gnome-klotski is not installed (./dev deps)");
    }
    found
}

#[test]
fn only_18_steps_is_won_on_gnome_klotski_in_18_moves() {
    if !installed() {
        return;
    }
    let dir = TempDir::new("klotski-demo");
    let path = dir.join("report.json");
    let out = run(gridbot(None).args([
        "demo",
        "klotski",
        "--puzzle",
        "Only 18 Steps",
        "--report",
        path.to_str().unwrap(),
    ]));
    assert_success(&out);
    let text = stdout(&out);
    assert!(
        text.contains("the game counted 18 moves, the bot played 18"),
        "{text}"
    );
    let g = &report(&path)["games"][0];
    assert_eq!(g["result"], "won", "{g}");
    assert_eq!(g["bot_moves"], 18, "{g}");
    assert_eq!(g["mismatches"], 0, "{g}");
    assert_eq!(g["proven_optimal"], true, "{g}");
    // The header bar, read with tesseract when it is installed.
    if let Some(status) = g["status_text"].as_str() {
        assert!(status.contains("completed"), "{status}");
        assert_eq!(g["moves"], 18, "{g}");
    }
}

#[test]
fn validate_counts_violet_in_its_27_moves() {
    if !installed() {
        return;
    }
    let out = run(gridbot(None).args(["validate", "klotski", "--puzzles", "Violet"]));
    assert_success(&out);
    let text = stdout(&out);
    assert!(text.contains("Violet: proven minimum 27"), "{text}");
}

#[test]
fn a_puzzle_started_over_behind_the_bots_back_is_won_from_the_start() {
    if !installed() {
        return;
    }
    let display = VirtualDisplay::start(1024, 768).expect("start Xvfb");
    let home = TempDir::new("klotski-home");
    let mut command =
        gridbot::games::klotski::play::launch(0, (600, 520), home.path()).expect("settings");
    let _game = display.spawn(&mut command).expect("start gnome-klotski");
    display
        .wait_for_window("Only 18 Steps", Duration::from_secs(30))
        .expect("gnome-klotski's window");
    let found = xdotool(display.name(), &["search", "--name", "Only 18 Steps"]);
    let window = found.lines().last().expect("the game's window").to_string();
    // Two steps played and verified; during the pause before the third,
    // the game's Start Over key puts every block back.
    let g = Interference {
        display: display.name(),
        verbosity: "-vv",
        game: "klotski",
        extra: &[],
        pause_ms: "700",
        tag: "klotski-recover",
        wait_for: ("engine] settled after", 2),
        timeout: GAME_TIMEOUT,
        also_noticed: &[],
    }
    .play(|| {
        xdotool(
            display.name(),
            &["windowfocus", "--sync", &window, "key", "shift+ctrl+n"],
        );
    });
    // The game's counter started over with the puzzle: the win is its 18
    // moves when tesseract read it.
    if g["status_text"].as_str().is_some() {
        assert_eq!(g["moves"], 18, "{g}");
    }
}
