//! The browser host on a virtual display: Chromium shows sgt-web's
//! flood.html served by gridbot, the Flood-It reader reads the board off the
//! page's window and it must equal the game ID's; the status bar is found
//! under the board and, when tesseract is installed, says `0 / 23 moves`;
//! a new game ID shows after `navigate_fragment`; and no Chromium process
//! is left once the browser is dropped. Bad input: a missing Chromium, a
//! port in use, a page not in the folder, a page that never draws.
//!
//! The game pages are shared material (`$GRIDBOT_GAMES` or
//! `../shared/games/` beside the repository); tests that need them print
//! "skipped: ..." and pass when they are missing, as do tests that need
//! Chromium when it is not installed.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::util::{parse_flood_id, shared_games, TempDir, FLOOD_ID};
use gridbot::calibration::Calibration;
use gridbot::display::VirtualDisplay;
use gridbot::games::flood::screen::{read_board, to_sgt};
use gridbot::hosts::browser::{find_chromium, Browser, BrowserError, BrowserOptions};
use gridbot::hosts::browser_status::find_status_bar;
use gridbot::hosts::serve::StaticServer;
use gridbot::hosts::status::parse_status;
use gridbot::play::StatusResult;

/// A second game from `sgt-flood --generate 1 12x12c6m5`, 25 moves allowed.
const FLOOD_ID_2: &str = "12x12:130524345515334222344201243352341114502303052350010034312505042320230310230033443435052502543115012242515051140531445231042522443335434553434224,25";

/// Whether Chromium is installed; says "skipped" when it is not.
fn have_chromium() -> bool {
    match find_chromium() {
        Ok(_) => true,
        Err(e) => {
            println!("skipped: {e}");
            false
        }
    }
}

fn calibration() -> Calibration {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration/sgt-flood.toml");
    Calibration::parse(&std::fs::read_to_string(&path).unwrap(), &path).unwrap()
}

/// The board part of an ID: `WxH:cells`.
fn board_of(id: &str) -> &str {
    id.split(',').next().unwrap()
}

/// Live (not zombie) processes of the `Browser` whose browser process is
/// `pid` on `display`: its process group (renderers, zygotes, GPU process),
/// plus any process whose environment carries a browser's marker and
/// `DISPLAY=display` (the crash handler leaves the group). Other tests may
/// run Chromium at the same time, on other displays.
fn chromium_processes(pid: u32, display: &str) -> Vec<u32> {
    let display_var = format!("DISPLAY={display}");
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) else {
                return false;
            };
            // After the command name in parentheses: state, ppid, pgrp.
            let Some((_, rest)) = stat.rsplit_once(')') else {
                return false;
            };
            let fields: Vec<&str> = rest.split_whitespace().collect();
            if fields.first() == Some(&"Z") {
                return false;
            }
            let in_group = fields.get(2).and_then(|g| g.parse::<u32>().ok()) == Some(pid);
            let marked = std::fs::read(format!("/proc/{p}/environ")).is_ok_and(|env| {
                let env = String::from_utf8_lossy(&env);
                env.contains("GRIDBOT_BROWSER_INSTANCE=")
                    && env.split('\0').any(|v| v == display_var)
            });
            in_group || marked
        })
        .collect()
}

/// The folder with sgt-web's pages when Chromium is installed too, or
/// `None` (after saying why).
fn sgt_web_with_chromium() -> Option<PathBuf> {
    let games = shared_games("sgt-web/flood.html")?;
    have_chromium().then(|| games.join("sgt-web"))
}

#[test]
fn flood_page_is_read_like_the_desktop_game_and_leaves_nothing_behind() {
    let Some(folder) = sgt_web_with_chromium() else {
        return;
    };
    let display = VirtualDisplay::start_with_window_manager(1024, 900).expect("start Xvfb");
    let (_, _, cells) = parse_flood_id(FLOOD_ID);
    assert_eq!(cells.len(), 144);
    let calibration = calibration();

    let started = Instant::now();
    let mut options = BrowserOptions::served(display.name(), &folder, "flood.html", Some(FLOOD_ID));
    options.width = 800;
    options.height = 820;
    let mut browser = Browser::open(options).expect("open flood.html in Chromium");
    println!("opened in {:.2} s", started.elapsed().as_secs_f64());
    assert_eq!(browser.window().title, "Flood");
    // The page drew its board: wait until the reader sees all of it.
    browser
        .wait_until(Duration::from_secs(20), |img| {
            read_board(img, Some(&calibration)).is_ok()
        })
        .expect("the board is drawn");
    let shot = browser.capture().unwrap();
    let reading = read_board(&shot.image, Some(&calibration)).expect("read the board");
    assert_eq!(to_sgt(&reading.board), board_of(FLOOD_ID));

    // The status bar is right under the board and says how many moves.
    let bar = find_status_bar(&shot.image, &reading.grid.lattice).expect("status bar found");
    assert!(
        bar.y as f64 > reading.grid.lattice.origin_y + 12.0 * 32.0,
        "{bar:?}"
    );
    match gridbot::capture::ocr::read_line(&shot.image, bar) {
        Ok(text) => {
            let status = parse_status(&text);
            assert_eq!(
                (status.result, status.moves, status.limit),
                (StatusResult::Playing, Some(0), Some(23)),
                "{text:?}"
            );
        }
        Err(e) => println!("status not checked: {e}"),
    }

    // A new game: the page reads its fragment when it loads.
    let started = Instant::now();
    browser
        .navigate_fragment(FLOOD_ID_2)
        .expect("navigate to a new game");
    browser
        .wait_until(Duration::from_secs(20), |img| {
            read_board(img, Some(&calibration))
                .is_ok_and(|r| to_sgt(&r.board) == board_of(FLOOD_ID_2))
        })
        .expect("the new game is shown");
    println!("new game in {:.2} s", started.elapsed().as_secs_f64());

    let pid = browser.pid().expect("running");
    let served = browser.server().unwrap().served();
    assert!(
        served
            .iter()
            .any(|s| s.path == "/flood.wasm" && s.status == 200),
        "{served:?}"
    );
    let running = chromium_processes(pid, display.name());
    assert!(running.contains(&pid), "{pid} not in {running:?}");
    assert!(
        running.len() > 3,
        "Chromium runs several processes: {running:?}"
    );
    drop(browser);
    let left = chromium_processes(pid, display.name());
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn a_page_that_panics_the_test_still_leaves_nothing_behind() {
    let Some(folder) = sgt_web_with_chromium() else {
        return;
    };
    let display = VirtualDisplay::start_with_window_manager(1024, 900).expect("start Xvfb");
    let name = display.name().to_string();
    let pid = std::sync::Mutex::new(None);
    let result = std::panic::catch_unwind(|| {
        let options = BrowserOptions::served(&name, &folder, "flood.html", Some(FLOOD_ID));
        let browser = Browser::open(options).expect("open");
        *pid.lock().unwrap() = browser.pid();
        assert!(chromium_processes(browser.pid().unwrap(), &name).len() > 3);
        panic!("a failing test");
    });
    assert!(result.is_err());
    let pid = pid.lock().unwrap().expect("the browser ran");
    let ours = chromium_processes(pid, &name);
    assert!(ours.is_empty(), "Chromium processes left: {ours:?}");
}

#[test]
fn a_missing_chromium_is_a_clear_error_from_the_command_line() {
    // The library's own check of GRIDBOT_CHROMIUM, through a child process
    // so the variable is not set on this test process.
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "browser::missing_chromium_child",
            "--nocapture",
            "--include-ignored",
        ])
        .env("GRIDBOT_CHROMIUM", "/nonexistent/chromium")
        .env("GRIDBOT_TEST_CHILD", "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("child checked the error"), "{text}");
}

#[test]
#[ignore = "run by a_missing_chromium_is_a_clear_error_from_the_command_line"]
fn missing_chromium_child() {
    if std::env::var_os("GRIDBOT_TEST_CHILD").is_none() {
        return;
    }
    let options = BrowserOptions::url(":0", "about:blank");
    let err = Browser::open(options).unwrap_err();
    assert!(
        matches!(err, BrowserError::ChromiumNotFound { .. }),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(text.contains("/nonexistent/chromium"), "{text}");
    assert!(text.contains("apt-get install chromium"), "{text}");
    println!("child checked the error: {text}");
}

#[test]
fn a_port_in_use_is_a_clear_error() {
    let dir = TempDir::new("browser-port");
    std::fs::write(dir.join("index.html"), "<title>x</title>").unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let err = StaticServer::start(dir.path(), port).unwrap_err();
    assert!(err.to_string().contains(&format!("port {port}")), "{err}");
    assert!(err.to_string().contains("already in use"), "{err}");
    // Through the browser as well, before Chromium is started.
    if !have_chromium() {
        return;
    }
    let display = VirtualDisplay::start(320, 240).expect("start Xvfb");
    let mut options = BrowserOptions::served(display.name(), dir.path(), "index.html", None);
    options.port = port;
    let err = Browser::open(options).unwrap_err();
    assert!(err.to_string().contains("already in use"), "{err}");
}

#[test]
fn a_page_not_in_the_folder_is_a_clear_error() {
    if !have_chromium() {
        return;
    }
    let dir = TempDir::new("browser-nopage");
    let display = VirtualDisplay::start(320, 240).expect("start Xvfb");
    let options = BrowserOptions::served(display.name(), dir.path(), "flood.html", None);
    let err = Browser::open(options).unwrap_err();
    assert!(matches!(err, BrowserError::PageNotFound { .. }), "{err:?}");
    assert!(err.to_string().contains("flood.html"), "{err}");
}

#[test]
fn a_page_that_never_draws_is_a_clear_error() {
    if !have_chromium() {
        return;
    }
    // A page that keeps changing (a counter redrawn every frame) never
    // settles, so it never counts as drawn.
    let dir = TempDir::new("browser-never");
    std::fs::write(
        dir.join("busy.html"),
        "<title>busy</title><body style='font-size:80px'><div id=n></div><script>\
         let i = 0; function f() { document.getElementById('n').textContent = i++; \
         requestAnimationFrame(f); } f();</script></body>",
    )
    .unwrap();
    let display = VirtualDisplay::start_with_window_manager(640, 480).expect("start Xvfb");
    let mut options = BrowserOptions::served(display.name(), dir.path(), "busy.html", None);
    options.width = 400;
    options.height = 300;
    options.draw_timeout = Duration::from_secs(3);
    let started = Instant::now();
    let err = Browser::open(options).unwrap_err();
    assert!(matches!(err, BrowserError::NeverDrew { .. }), "{err:?}");
    assert!(err.to_string().contains("the page never drew"), "{err}");
    assert!(err.to_string().contains("kept changing"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(60));
}
