//! Fifteen end to end under Xvfb: `gridbot play fifteen` wins a 4x4 and a
//! 3x3 game of the real sgt-fifteen, and a 4x4 game of the sgt web build's
//! fifteen.html in Chromium (skipped, saying why, when the shared games or
//! Chromium are missing); a tile slid by the "user" between the bot's moves
//! is noticed and the game still won; the committed screenshot fixtures
//! read right through `gridbot fixtures fifteen check`.
//!
//! The boards are chosen to need 34 to 40 moves, so the solver proves them
//! optimal in milliseconds without pattern databases (`--pdb none`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::play_util::{report, xdotool, Bot};
use crate::util::TempDir;
use gridbot::display::{DisplayChild, VirtualDisplay, WindowInfo};
use gridbot::games::fifteen::read::read_board;
use gridbot::hosts::browser::{find_chromium, Browser, BrowserOptions};

const TIMEOUT: Duration = Duration::from_secs(90);
/// 34 moves from the goal (24 clicks).
const ID_4X4: &str = "4x4:6,8,15,4,1,2,3,0,9,5,10,7,14,13,11,12";
/// 40 moves from the goal.
const ID_4X4_B: &str = "4x4:1,2,15,3,4,0,8,12,5,10,14,6,9,11,13,7";
/// From `sgt-fifteen --generate 1 3x3`.
const ID_3X3: &str = "3x3:0,7,2,8,4,5,1,3,6";

/// sgt-fifteen showing one game on its own display.
struct FifteenOnDisplay {
    _game: DisplayChild,
    window: WindowInfo,
    display: VirtualDisplay,
}

impl FifteenOnDisplay {
    fn start(id: &str) -> FifteenOnDisplay {
        let display = VirtualDisplay::start_with_window_manager(800, 600).expect("start Xvfb");
        let game = display
            .spawn(
                Command::new("/usr/games/sgt-fifteen")
                    .arg(id)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null()),
            )
            .expect("start sgt-fifteen");
        let window = display
            .wait_for_window("Fifteen", TIMEOUT)
            .expect("sgt-fifteen's window");
        FifteenOnDisplay {
            _game: game,
            window,
            display,
        }
    }

    fn name(&self) -> &str {
        self.display.name()
    }
}

/// Plays the game on `display` and returns the report's game record.
fn play(display: &str, extra: &[&str], tag: &str) -> serde_json::Value {
    let dir = TempDir::new(tag);
    let path = dir.join("report.json");
    let mut args = vec![
        "-v",
        "play",
        "fifteen",
        "--pdb",
        "none",
        "--report",
        path.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let bot = Bot::spawn(display, &args);
    let end = bot.finish(TIMEOUT);
    assert!(
        end.status.success(),
        "bot failed:\n{}\n{}",
        end.stdout,
        end.stderr
    );
    report(&path)["games"][0].clone()
}

fn check_won(g: &serde_json::Value, id: &str, optimum: u64) {
    let board = id.split(':').nth(1).unwrap();
    assert_eq!(g["result"], "won", "{g}");
    assert!(
        g["board"].as_str().unwrap().ends_with(board),
        "read {} for {id}",
        g["board"]
    );
    assert_eq!(g["bot_moves"].as_u64(), Some(optimum), "{g}");
    assert_eq!(g["proven_optimal"], true, "{g}");
    assert!(
        g["solution"].as_array().unwrap().len() < optimum as usize,
        "one click per line: {g}"
    );
}

#[test]
fn a_4x4_game_is_won_on_the_desktop() {
    let game = FifteenOnDisplay::start(ID_4X4);
    let g = play(game.name(), &[], "fifteen-4x4");
    check_won(&g, ID_4X4, 34);
    // The game's own counter agrees with the tiles the bot moved.
    assert_eq!(g["status"], "completed", "{g}");
    assert_eq!(g["status_moves"].as_u64(), Some(34), "{g}");
}

#[test]
fn a_3x3_game_is_won_on_the_desktop() {
    let game = FifteenOnDisplay::start(ID_3X3);
    let g = play(game.name(), &[], "fifteen-3x3");
    check_won(&g, ID_3X3, 22);
    assert_eq!(g["status_moves"].as_u64(), Some(22), "{g}");
}

#[test]
fn a_tile_slid_behind_the_bots_back_is_absorbed() {
    let game = FifteenOnDisplay::start(ID_4X4);
    let dir = TempDir::new("fifteen-recover");
    let path = dir.join("report.json");
    let mut bot = Bot::spawn(
        game.name(),
        &[
            "-v",
            "play",
            "fifteen",
            "--pdb",
            "none",
            "--pause-between-moves",
            "800",
            "--report",
            path.to_str().unwrap(),
        ],
    );
    // The bot has solved the board and waits before its first click: slide
    // a tile with the keyboard (sgt-fifteen's cursor keys), which leaves
    // the pointer alone (a hand on the mouse aborts the bot).
    bot.wait_for("plan:", 1, TIMEOUT);
    let shot = crate::util::screenshot(game.name(), None, &dir.join("shot.png"));
    let before = read_board(&shot).expect("the board reads").board;
    let id = game.window.id.to_string();
    xdotool(game.name(), &["windowfocus", "--sync", &id, "key", "Up"]);
    let end = bot.finish(TIMEOUT);
    assert!(
        end.status.success(),
        "bot failed:\n{}\n{}",
        end.stdout,
        end.stderr
    );
    assert!(
        end.stderr
            .contains("the board changed while the bot waited")
            || end.stderr.contains("differs from the prediction"),
        "{}",
        end.stderr
    );
    let g = &report(&path)["games"][0];
    assert_eq!(g["result"], "won", "{g}");
    assert!(g["mismatches"].as_u64().unwrap() >= 1, "{g}");
    assert!(g["solves"].as_u64().unwrap() >= 2, "{g}");
    // The game counted the user's move as well as the bot's.
    let bot_moves = g["bot_moves"].as_u64().unwrap();
    assert_eq!(g["status_moves"].as_u64(), Some(bot_moves + 1), "{g}");
    assert_eq!(
        before.sgt_id(),
        ID_4X4,
        "the key came after the bot's first look"
    );
}

/// The folder with sgt-web's pages, or `None` (after saying why).
fn sgt_web() -> Option<PathBuf> {
    let root = std::env::var_os("GRIDBOT_GAMES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/games"));
    let dir = root.join("sgt-web");
    if dir.join("fifteen.html").is_file() {
        Some(dir)
    } else {
        println!(
            "skipped: {} not found (set GRIDBOT_GAMES to the shared games folder)",
            dir.join("fifteen.html").display()
        );
        None
    }
}

#[test]
fn a_4x4_game_is_won_in_the_browser() {
    let Some(folder) = sgt_web() else { return };
    if let Err(e) = find_chromium() {
        println!("skipped: {e}");
        return;
    }
    let display = VirtualDisplay::start_with_window_manager(1024, 900).expect("start Xvfb");
    let mut options =
        BrowserOptions::served(display.name(), &folder, "fifteen.html", Some(ID_4X4_B));
    options.width = 800;
    options.height = 820;
    let mut browser = Browser::open(options).expect("open fifteen.html in Chromium");
    browser
        .wait_until(Duration::from_secs(20), |img| read_board(img).is_ok())
        .expect("the page shows the board");
    let title = browser.window().title.clone();
    let g = play(
        display.name(),
        &["--window", &title, "--no-status"],
        "fifteen-browser",
    );
    check_won(&g, ID_4X4_B, 40);
    // The page shows the win too.
    let shot = browser.capture().expect("capture the page");
    assert!(read_board(&shot.image).unwrap().board.is_solved());
}

#[test]
fn the_fixtures_read_right() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new(env!("CARGO_BIN_EXE_gridbot"))
        .args(["fixtures", "fifteen", "check"])
        .arg(format!("{root}/fixtures/fifteen"))
        .output()
        .expect("gridbot runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ok = stdout.lines().filter(|l| l.contains("  ok  ")).count();
    assert!(ok >= 25, "{stdout}");
}
