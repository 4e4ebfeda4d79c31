//! Fifteen end to end under Xvfb: `gridbot play fifteen` wins a 4x4 and a
//! 3x3 game of the real sgt-fifteen, and a 4x4 game of the sgt web build's
//! fifteen.html in Chromium (skipped, saying why, when the shared games or
//! Chromium are missing); a tile slid by the "user" between the bot's moves
//! is noticed and the game still won. (The committed screenshot fixtures
//! are checked in `fixtures_check`.)
//!
//! The boards are chosen to need 34 to 40 moves, so the solver proves them
//! optimal in milliseconds without pattern databases (`--pdb none`).

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::play_util::{report, xdotool, Bot, Interference};
use crate::util::{shared_games, TempDir};
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
    let dir = TempDir::new("fifteen-recover-shot");
    let mut before = None;
    // The bot has solved the board and waits before its first click: slide
    // a tile with the keyboard (sgt-fifteen's cursor keys), which leaves
    // the pointer alone (a hand on the mouse aborts the bot).
    let g = Interference {
        display: game.name(),
        verbosity: "-v",
        game: "fifteen",
        extra: &["--pdb", "none"],
        pause_ms: "800",
        tag: "fifteen-recover",
        wait_for: ("plan:", 1),
        timeout: TIMEOUT,
        also_noticed: &[],
    }
    .play(|| {
        let shot = crate::util::screenshot(game.name(), None, &dir.join("shot.png"));
        before = Some(read_board(&shot).expect("the board reads").board);
        let id = game.window.id.to_string();
        xdotool(game.name(), &["windowfocus", "--sync", &id, "key", "Up"]);
    });
    let before = before.expect("the bot was interfered with");
    // The game counted the user's move as well as the bot's.
    let bot_moves = g["bot_moves"].as_u64().unwrap();
    assert_eq!(g["status_moves"].as_u64(), Some(bot_moves + 1), "{g}");
    assert_eq!(
        before.sgt_id(),
        ID_4X4,
        "the key came after the bot's first look"
    );
}

#[test]
fn a_4x4_game_is_won_in_the_browser() {
    let Some(folder) = shared_games("sgt-web/fifteen.html").map(|g| g.join("sgt-web")) else {
        return;
    };
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
