//! Stopping the bot, end to end on sgt-flood: the pointer moved into a
//! screen corner, moved anywhere by hand, or Ctrl-C. The bot must stop
//! before its next click (the pointer stays where the user left it, the
//! board does not change any more), release the button, and exit non-zero
//! with a clear message.

use std::time::Duration;

use crate::play_util::{board_on_screen, pointer, xdotool, Bot};
use crate::util::{FloodOnDisplay, FLOOD_ID};

const TIMEOUT: Duration = Duration::from_secs(60);

/// Starts the bot with a pause before each click and waits for two clicks.
fn playing_bot(game: &FloodOnDisplay) -> Bot {
    let mut bot = Bot::spawn(
        game.name(),
        &[
            "-vv",
            "play",
            "flood",
            "--pause-between-moves",
            "300",
            "--no-status",
        ],
    );
    bot.wait_for("played", 2, TIMEOUT);
    bot
}

fn initial_board() -> String {
    let (w, _, cells) = crate::util::parse_flood_id(FLOOD_ID);
    cells
        .chunks(w)
        .map(|row| row.iter().map(|c| c.to_string()).collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn the_mouse_in_a_corner_stops_the_bot_before_its_next_click() {
    let game = FloodOnDisplay::start(FLOOD_ID, false);
    let bot = playing_bot(&game);
    xdotool(game.name(), &["mousemove", "--sync", "0", "0"]);
    let board_then = board_on_screen(game.name());
    let end = bot.finish(TIMEOUT);
    assert_eq!(end.status.code(), Some(1), "{}", end.stderr);
    assert!(
        end.stderr
            .contains("aborted: the mouse moved to the top-left corner"),
        "{}",
        end.stderr
    );
    assert!(!end.stderr.contains("panicked"), "{}", end.stderr);
    // No click after the user took the mouse: a click moves the pointer
    // onto the board, and changes the board.
    assert_eq!(pointer(game.name()), (0, 0));
    std::thread::sleep(Duration::from_millis(300));
    let board_after = board_on_screen(game.name());
    assert_eq!(board_after, board_then, "the board changed after the abort");
    assert_ne!(
        board_after,
        initial_board(),
        "the bot had not played at all"
    );
}

#[test]
fn the_mouse_moved_by_hand_stops_the_bot() {
    let game = FloodOnDisplay::start(FLOOD_ID, false);
    let bot = playing_bot(&game);
    xdotool(game.name(), &["mousemove", "--sync", "700", "500"]);
    let end = bot.finish(TIMEOUT);
    assert_eq!(end.status.code(), Some(1), "{}", end.stderr);
    assert!(
        end.stderr.contains("aborted: the mouse was moved by hand"),
        "{}",
        end.stderr
    );
    assert_eq!(pointer(game.name()), (700, 500));
}

#[test]
fn ctrl_c_stops_the_bot_with_a_message() {
    let game = FloodOnDisplay::start(FLOOD_ID, false);
    let bot = playing_bot(&game);
    // SAFETY: plain kill(2) on our own child's pid.
    let rc = unsafe { libc::kill(bot.pid() as i32, libc::SIGINT) };
    assert_eq!(rc, 0);
    let end = bot.finish(TIMEOUT);
    assert_eq!(end.status.code(), Some(1), "{}", end.stderr);
    assert!(
        end.stderr.contains("aborted: interrupted (Ctrl-C)"),
        "{}",
        end.stderr
    );
    assert!(!end.stderr.contains("panicked"), "{}", end.stderr);
}
