//! Pegs played end to end by dragging: `validate pegs` on sgt-pegs (the
//! English cross and a generated 9x9 random board, each opened by its ID
//! on a virtual display that gridbot starts), `play pegs` on a generated
//! octagon start opened here, one game in the browser (`validate pegs --browser`,
//! skipped with a printed reason when the shared games or Chromium are
//! missing), and recovery from a jump the "user" plays with the keyboard
//! between the bot's moves.

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::play_util::{report, xdotool, Interference};
use crate::util::{assert_success, gridbot, run, shared_games, stdout, TempDir, TIMEOUT};
use gridbot::display::{DisplayChild, VirtualDisplay, WindowInfo};
use gridbot::hosts::browser::find_chromium;

const SGT_PEGS: &str = "/usr/games/sgt-pegs";

/// The English board (the 7x7 cross preset).
const ENGLISH: &str = "7x7:OOPPPOOOOPPPOOPPPPPPPPPPHPPPPPPPPPPOOPPPOOOOPPPOO";

/// A generated octagon start: `sgt-pegs --generate 1 '7x7octagon#v'`
/// (the French board, 36 pegs, the hole at 5,3: of the three kinds of
/// start sgt-pegs deals, the one the solver takes longest over, about
/// 130,000 nodes).
const OCTAGON: &str = "7x7:OOPPPOOOPPPPPOPPPPPPPPPPPPPPPPPPPPPOPPHPPOOOPPPOO";

const GAME_TIMEOUT: Duration = Duration::from_secs(90);

/// sgt-pegs on its own virtual display. Dropping it ends both.
struct PegsOnDisplay {
    // Field order = drop order: the game first, then the display.
    _game: DisplayChild,
    window: WindowInfo,
    display: VirtualDisplay,
}

impl PegsOnDisplay {
    fn start(id: &str) -> PegsOnDisplay {
        let display = VirtualDisplay::start(800, 600).expect("start Xvfb");
        let game = display
            .spawn(
                Command::new(SGT_PEGS)
                    .arg(id)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null()),
            )
            .expect("start sgt-pegs");
        let window = display
            .wait_for_window("Pegs", TIMEOUT)
            .expect("sgt-pegs window");
        PegsOnDisplay {
            _game: game,
            window,
            display,
        }
    }

    fn name(&self) -> &str {
        self.display.name()
    }
}

/// Pegs left at the start of an ID.
fn pegs_in(id: &str) -> u64 {
    id.split_once(':').unwrap().1.matches('P').count() as u64
}

/// Runs `gridbot validate pegs ARGS --games 1 --report R` and checks the
/// one game: won, the board read as its ID, one jump fewer than its pegs.
fn validate_one(tag: &str, args: &[&str]) -> serde_json::Value {
    let dir = TempDir::new(tag);
    let path = dir.join("report.json");
    let out = run(gridbot(None)
        .args(["validate", "pegs", "--games", "1"])
        .args(args)
        .args(["--report", path.to_str().unwrap()]));
    assert_success(&out);
    let text = stdout(&out);
    assert!(text.contains(" jumps = "), "no jumps/moves line:\n{text}");
    let json = report(&path);
    let g = json["games"][0].clone();
    assert_eq!(g["result"], "won", "{g}");
    assert_eq!(g["board_matches_id"], true, "{g}");
    let id = g["id"].as_str().expect("the game ID is reported");
    assert_eq!(g["moves"].as_u64(), Some(pegs_in(id) - 1), "{g}");
    g
}

#[test]
fn the_english_cross_is_won_on_the_desktop() {
    let g = validate_one("pegs-cross", &["--params", "7x7cross"]);
    assert_eq!(g["id"], ENGLISH, "{g}");
    assert_eq!(g["moves"], 31, "{g}");
}

#[test]
fn a_random_9x9_board_is_won_on_the_desktop_at_a_small_tile_size() {
    // Seed g gives game g-1, a 9x9 board of 44 pegs.
    validate_one(
        "pegs-random9",
        &["--params", "9x9random", "--seed", "g", "--tile-size", "24"],
    );
}

#[test]
fn an_octagon_is_won_with_play_pegs() {
    let game = PegsOnDisplay::start(OCTAGON);
    let dir = TempDir::new("pegs-octagon");
    let path = dir.join("report.json");
    let out =
        run(gridbot(Some(game.name())).args(["play", "pegs", "--report", path.to_str().unwrap()]));
    assert_success(&out);
    let g = &report(&path)["games"][0];
    assert_eq!(g["result"], "won", "{g}");
    assert_eq!(g["moves"].as_u64(), Some(pegs_in(OCTAGON) - 1), "{g}");
    assert_eq!(g["mismatches"], 0, "{g}");
}

#[test]
fn a_game_is_won_in_the_browser() {
    let Some(games) = shared_games("sgt-web/pegs.html") else {
        return;
    };
    if let Err(e) = find_chromium() {
        println!("skipped: {e}");
        return;
    }
    let dir = TempDir::new("pegs-browser");
    let path = dir.join("report.json");
    let out = run(gridbot(None).env("GRIDBOT_GAMES", &games).args([
        "validate",
        "pegs",
        "--browser",
        "--games",
        "1",
        "--params",
        "7x7cross",
        "--report",
        path.to_str().unwrap(),
    ]));
    assert_success(&out);
    assert!(stdout(&out).contains("Chromium"), "{}", stdout(&out));
    let g = &report(&path)["games"][0];
    assert_eq!(g["result"], "won", "{g}");
    assert_eq!(g["board_matches_id"], true, "{g}");
    assert_eq!(g["moves"], 31, "{g}");
}

#[test]
fn a_jump_played_behind_the_bots_back_is_absorbed() {
    let game = PegsOnDisplay::start(ENGLISH);
    // The bot has read and solved the board and now waits before its first
    // drag: jump (3,1) over (3,2) into the centre with the keyboard (the
    // first arrow shows the cursor at (2,1), Down takes it to (3,1),
    // Return picks the peg up, Right jumps), which leaves the pointer alone.
    let g = Interference {
        display: game.name(),
        verbosity: "-v",
        game: "pegs",
        extra: &[],
        pause_ms: "800",
        tag: "pegs-recover",
        wait_for: ("plan:", 1),
        timeout: GAME_TIMEOUT,
        also_noticed: &[],
    }
    .play(|| {
        xdotool(
            game.name(),
            &[
                "windowfocus",
                "--sync",
                &game.window.id.to_string(),
                "key",
                "--delay",
                "30",
                "Right",
                "Down",
                "Return",
                "Right",
            ],
        );
    });
    // The user's jump was one of the 31: the bot played the other 30.
    assert_eq!(g["bot_moves"], 30, "{g}");
}
