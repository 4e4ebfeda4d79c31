//! Recovery, end to end on sgt-flood: the "user" (xdotool) plays a colour
//! behind the bot's back, or moves the game window between moves, and the
//! bot must notice, re-read, re-solve and still win.

use std::time::Duration;

use crate::play_util::{report, xdotool, Bot, Interference};
use crate::util::{parse_flood_id, FloodOnDisplay, TempDir, FLOOD_ID};
use gridbot::display::x11;

const TIMEOUT: Duration = Duration::from_secs(60);

#[test]
fn a_move_played_behind_the_bots_back_is_absorbed() {
    let game = FloodOnDisplay::start(FLOOD_ID, false);
    // The bot has read and solved the board and now waits before its first
    // click: play a move with the keyboard (cursor right to a cell of
    // another colour, Return fills with it), which leaves the pointer alone.
    let g = Interference {
        display: game.name(),
        verbosity: "-v",
        game: "flood",
        extra: &[],
        pause_ms: "800",
        tag: "recover-key",
        wait_for: ("plan:", 1),
        timeout: TIMEOUT,
        also_noticed: &[],
    }
    .play(|| {
        let (w, _, cells) = parse_flood_id(FLOOD_ID);
        let col = (1..w)
            .find(|&c| cells[c] != cells[0])
            .expect("row 0 has two colours");
        let mut keys = vec![
            "windowfocus".to_string(),
            "--sync".into(),
            game.window.id.to_string(),
            "key".into(),
        ];
        keys.extend(std::iter::repeat_n("Right".to_string(), col));
        keys.push("Return".into());
        xdotool(
            game.name(),
            &keys.iter().map(String::as_str).collect::<Vec<_>>(),
        );
    });
    // The game counted the user's move as well as the bot's: the record
    // takes the game's count and flags the difference.
    let bot_moves = g["bot_moves"].as_u64().unwrap();
    assert_eq!(g["status_moves"].as_u64(), Some(bot_moves + 1), "{g}");
    assert_eq!(g["moves"], g["status_moves"], "{g}");
    assert_eq!(g["moves_disagree"], true, "{g}");
}

#[test]
fn a_window_moved_between_moves_is_followed() {
    let game = FloodOnDisplay::start(FLOOD_ID, true);
    let start = (game.window.x, game.window.y);
    let dir = TempDir::new("recover-move");
    let path = dir.join("report.json");
    let mut bot = Bot::spawn(
        game.name(),
        &[
            "-v",
            "play",
            "flood",
            "--pause-between-moves",
            "300",
            "--report",
            path.to_str().unwrap(),
        ],
    );
    bot.wait_for("plan:", 1, TIMEOUT);
    let id = game.window.id.to_string();
    for (x, y) in [(250, 60), (380, 110), (40, 90)] {
        std::thread::sleep(Duration::from_millis(450));
        xdotool(
            game.name(),
            &["windowmove", "--sync", &id, &x.to_string(), &y.to_string()],
        );
    }
    let end = bot.finish(TIMEOUT);
    assert!(
        end.status.success(),
        "bot failed:\n{}\n{}",
        end.stdout,
        end.stderr
    );
    let json = report(&path);
    let g = &json["games"][0];
    assert_eq!(g["result"], "won", "{g}");
    assert_eq!(g["status"], "completed", "{g}");
    // The window really moved.
    let (conn, screen) = x11::connect(Some(game.name())).unwrap();
    let now = x11::find_window(&conn, screen, "Flood")
        .unwrap()
        .expect("window");
    assert_ne!((now.x, now.y), start, "the window did not move");
}
