//! Reliability under signals and other windows, end to end on Xvfb:
//! SIGTERM during `click` and during `play` leaves no button held (checked
//! through the X server's pointer state) and exits non-zero with a message;
//! a window over the game board makes `read` refuse and `play` stop without
//! clicking into it.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::play_util::{board_on_screen, Bot};
use crate::util::{FloodOnDisplay, FLOOD_ID, SGT_FLOOD};
use gridbot::display::VirtualDisplay;
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt as _, KeyButMask};

const TIMEOUT: Duration = Duration::from_secs(60);

/// The X server's button state: true while any mouse button is down.
fn any_button_down(display: &str) -> bool {
    let (conn, screen) = x11rb::connect(Some(display)).expect("connect to Xvfb");
    let root = conn.setup().roots[screen].root;
    let mask = conn.query_pointer(root).unwrap().reply().unwrap().mask;
    let buttons = KeyButMask::BUTTON1
        | KeyButMask::BUTTON2
        | KeyButMask::BUTTON3
        | KeyButMask::BUTTON4
        | KeyButMask::BUTTON5;
    u16::from(mask) & u16::from(buttons) != 0
}

fn sigterm(pid: u32) {
    // SAFETY: plain kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGTERM) }, 0);
}

/// `gridbot click --hold 20s` on `display`, once its press has reached
/// the X server.
fn holding_click(display: &VirtualDisplay) -> std::process::Child {
    let child = Command::new(env!("CARGO_BIN_EXE_gridbot"))
        .args(["click", "300", "200", "--hold", "20s"])
        .env("DISPLAY", display.name())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pressed = crate::util::poll(TIMEOUT, || any_button_down(display.name()).then_some(()));
    assert!(pressed.is_some(), "the button never went down");
    child
}

#[test]
fn sigterm_while_click_holds_the_button_releases_it() {
    let display = VirtualDisplay::start(640, 480).expect("start Xvfb");
    let child = holding_click(&display);
    let t = Instant::now();
    sigterm(child.id());
    let out = child.wait_with_output().unwrap();
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "took {:?} to stop",
        t.elapsed()
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("interrupted") && err.contains("released"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(!any_button_down(display.name()), "a button is still held");
}

/// Every signal that would end the process and can be caught releases a
/// held button: the X server's pointer state says no button is down.
#[test]
fn every_catchable_stop_signal_releases_a_held_button() {
    let display = VirtualDisplay::start(640, 480).expect("start Xvfb");
    for (signal, name) in gridbot::play::abort::STOP_SIGNALS {
        let child = holding_click(&display);
        // SAFETY: plain kill(2) on our own child's pid.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(err.contains("released"), "{name}: {err}");
        assert!(
            !any_button_down(display.name()),
            "{name}: a button is still held"
        );
    }
}

#[test]
fn sigterm_at_random_times_during_click_never_leaves_the_button_down() {
    let display = VirtualDisplay::start(640, 480).expect("start Xvfb");
    for delay_ms in [0u64, 5, 15, 30, 35, 40, 60] {
        let child = Command::new(env!("CARGO_BIN_EXE_gridbot"))
            .args(["click", "300", "200"])
            .env("DISPLAY", display.name())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        sigterm(child.id());
        let out = child.wait_with_output().unwrap();
        assert!(
            !any_button_down(display.name()),
            "button held after SIGTERM at {delay_ms} ms ({:?})",
            out.status
        );
    }
}

#[test]
fn sigterm_during_play_stops_cleanly_with_the_report() {
    let game = FloodOnDisplay::start(FLOOD_ID, false);
    let dir = crate::util::TempDir::new("sigterm");
    let report = dir.join("report.json");
    let mut bot = Bot::spawn(
        game.name(),
        &[
            "-vv",
            "play",
            "flood",
            "--pause-between-moves",
            "300",
            "--no-status",
            "--report",
            report.to_str().unwrap(),
        ],
    );
    bot.wait_for("played", 2, TIMEOUT);
    sigterm(bot.pid());
    let end = bot.finish(TIMEOUT);
    assert_eq!(end.status.code(), Some(1), "{}", end.stderr);
    assert!(
        end.stderr.contains("aborted: interrupted"),
        "{}",
        end.stderr
    );
    assert!(end.stderr.contains("report written"), "{}", end.stderr);
    assert!(!end.stderr.contains("panicked"), "{}", end.stderr);
    assert!(!any_button_down(game.name()), "a button is still held");
    // No OCR or other files of ours left in the temporary folder.
    let leftovers: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("gridbot-ocr-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// A second sgt-flood window opened over the game (no window manager, so
/// it maps at the same place and covers the board) stops the bot, naming
/// the window, and the bot never clicks into it.
#[test]
fn a_second_game_window_on_top_stops_play_without_clicking_it() {
    let game = FloodOnDisplay::start(FLOOD_ID, false);
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
    let _second = game
        .display
        .spawn(
            Command::new(SGT_FLOOD)
                .arg(FLOOD_ID)
                .stdout(Stdio::null())
                .stderr(Stdio::null()),
        )
        .expect("start a second sgt-flood");
    let end = bot.finish(TIMEOUT);
    assert_eq!(end.status.code(), Some(1), "{}", end.stderr);
    assert!(
        end.stderr
            .contains("another window covers the game board: window \"Flood\" (id 0x"),
        "{}",
        end.stderr
    );
    // The second game (now on top) is untouched.
    let (w, _, cells) = crate::util::parse_flood_id(FLOOD_ID);
    let initial = cells
        .chunks(w)
        .map(|row| row.iter().map(|c| c.to_string()).collect::<String>())
        .collect::<Vec<_>>()
        .join("/");
    assert_eq!(board_on_screen(game.name()), initial);
}

/// Another program's window over part of the board: `read` on a screenshot
/// refuses, and `play` stops before its first click.
#[test]
fn a_small_window_over_the_board_is_refused() {
    let game = FloodOnDisplay::start(FLOOD_ID, false);
    let _other = game
        .display
        .spawn(
            Command::new("/usr/games/sgt-fifteen")
                .arg("2x2:2,0,1,3")
                .stdout(Stdio::null())
                .stderr(Stdio::null()),
        )
        .expect("start sgt-fifteen");
    game.display
        .wait_for_window("Fifteen", TIMEOUT)
        .expect("the fifteen window");
    let dir = crate::util::TempDir::new("covered");
    let shot = dir.join("shot.png");
    crate::util::screenshot(game.name(), None, &shot);
    let out = crate::util::run(
        crate::util::gridbot(None)
            .args(["read", "flood", "-c"])
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/calibration/sgt-flood.toml"
            ))
            .arg(&shot),
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "read a covered board: {}",
        crate::util::stdout(&out)
    );
    let out = crate::util::run(crate::util::gridbot(Some(game.name())).args([
        "play",
        "flood",
        "--no-status",
    ]));
    let err = crate::util::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("played"), "{err}");
    // The message names the window in the way, not a board "cut off".
    assert!(err.contains("window \"Fifteen\""), "{err}");
}
