//! Shared helpers for integration tests: temporary directories, running the
//! real `gridbot` binary, and a virtual display with `sgt-flood` on it.
//!
//! Use from a test file with `mod util;`. Every test starts its own Xvfb (on
//! its own free display number), so tests run in parallel; `DISPLAY` is only
//! ever set on child processes, never on the test process.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use gridbot::display::{DisplayChild, VirtualDisplay, WindowInfo};
use image::{Rgba, RgbaImage};

/// The sgt-flood binary of the Debian package `sgt-puzzles`.
pub const SGT_FLOOD: &str = "/usr/games/sgt-flood";

/// A fixed 12x12, 6-colour game (from `sgt-flood --generate 1 12x12c6m5`);
/// 23 moves allowed. Digit `r*12+c` is the colour index of cell (r, c).
pub const FLOOD_ID: &str = "12x12:315404310200422240430404115203431120242230144040031342151010325355313102422054025043504121102402014431053543245134445531532312042131511251155522,23";

/// sgt-flood's palette in colour-index order, as captured on Xvfb.
pub const FLOOD_PALETTE: [[u8; 3]; 6] = [
    [255, 0, 0],
    [255, 255, 0],
    [0, 255, 0],
    [51, 76, 255],
    [255, 128, 0],
    [128, 0, 179],
];

/// Board geometry inside the "Flood" window at the default tile size:
/// top-left corner of cell (0,0) and cell pitch, in window pixels.
pub const FLOOD_BOARD_ORIGIN: (u32, u32) = (15, 40);
pub const FLOOD_CELL: u32 = 32;

/// How long to wait for anything on a virtual display.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// A directory under the system temp dir, removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let dir =
            std::env::temp_dir().join(format!("gridbot-test-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A `Command` for the real gridbot binary, on `display` (or with `DISPLAY`
/// removed when `None`), with `RUST_LOG` cleared so output is predictable.
pub fn gridbot(display: Option<&str>) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gridbot"));
    cmd.env_remove("RUST_LOG").stdin(Stdio::null());
    match display {
        Some(name) => cmd.env("DISPLAY", name),
        None => cmd.env_remove("DISPLAY"),
    };
    cmd
}

/// Runs the command to completion and returns its output.
pub fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("run gridbot")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Panics with the full output unless the command succeeded.
pub fn assert_success(out: &Output) {
    assert!(
        out.status.success(),
        "gridbot failed ({}):\nstdout:\n{}\nstderr:\n{}",
        out.status,
        stdout(out),
        stderr(out)
    );
}

/// Asserts a clean failure: exit code 1, the message on stderr, no panic.
pub fn assert_clean_failure(out: &Output, expected: &str) {
    let err = stderr(out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "expected exit code 1, got {}; stderr:\n{err}",
        out.status
    );
    assert!(!err.contains("panicked"), "gridbot panicked:\n{err}");
    assert!(
        err.contains(expected),
        "stderr does not mention {expected:?}:\n{err}"
    );
}

/// A virtual display showing one sgt-flood game. Dropping it kills sgt-flood,
/// the window manager and Xvfb.
pub struct FloodOnDisplay {
    // Field order = drop order: the game first, then the display.
    pub game: DisplayChild,
    pub window: WindowInfo,
    pub display: VirtualDisplay,
}

impl FloodOnDisplay {
    /// Starts an 800x600 Xvfb (with a window manager when `with_wm`) and
    /// `sgt-flood game_id` on it, and waits until the board is drawn.
    pub fn start(game_id: &str, with_wm: bool) -> FloodOnDisplay {
        let display = if with_wm {
            VirtualDisplay::start_with_window_manager(800, 600)
        } else {
            VirtualDisplay::start(800, 600)
        }
        .expect("start Xvfb");
        let game = display
            .spawn(
                Command::new(SGT_FLOOD)
                    .arg(game_id)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null()),
            )
            .expect("start sgt-flood");
        let window = display
            .wait_for_window("Flood", TIMEOUT)
            .expect("sgt-flood window");
        FloodOnDisplay {
            game,
            window,
            display,
        }
    }

    pub fn name(&self) -> &str {
        self.display.name()
    }

    /// Screen point of the centre of cell (row, col).
    pub fn cell_centre(&self, row: u32, col: u32) -> (i32, i32) {
        let (x, y) = flood_cell_centre_in_window(row, col);
        (self.window.x + x as i32, self.window.y + y as i32)
    }
}

/// Window pixel at the centre of cell (row, col) of a default-size Flood window.
pub fn flood_cell_centre_in_window(row: u32, col: u32) -> (u32, u32) {
    (
        FLOOD_BOARD_ORIGIN.0 + col * FLOOD_CELL + FLOOD_CELL / 2,
        FLOOD_BOARD_ORIGIN.1 + row * FLOOD_CELL + FLOOD_CELL / 2,
    )
}

/// Width, height and colour indices (row-major) of an sgt-flood game ID.
pub fn parse_flood_id(id: &str) -> (usize, usize, Vec<u8>) {
    let (size, rest) = id.split_once(':').expect("ID has a ':'");
    let (w, h) = size.split_once('x').expect("size is WxH");
    let digits = rest.split(',').next().unwrap();
    let cells = digits.bytes().map(|b| b - b'0').collect::<Vec<_>>();
    (w.parse().unwrap(), h.parse().unwrap(), cells)
}

/// Whether two colours are equal within `tolerance` per channel.
pub fn close(a: Rgba<u8>, b: [u8; 3], tolerance: u8) -> bool {
    (0..3).all(|i| a[i].abs_diff(b[i]) <= tolerance)
}

/// Saves a PNG with `gridbot screenshot` on `display` and loads it.
pub fn screenshot(display: &str, window: Option<&str>, path: &Path) -> RgbaImage {
    let mut cmd = gridbot(Some(display));
    // `--force`: callers poll, writing the same path until the picture is right.
    cmd.arg("screenshot").arg("-o").arg(path).arg("--force");
    if let Some(title) = window {
        cmd.args(["--window", title]);
    }
    assert_success(&run(&mut cmd));
    image::open(path).expect("read screenshot").to_rgba8()
}

/// Calls `check` until it returns `Some` or `timeout` passes.
pub fn poll<T>(timeout: Duration, mut check: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(v) = check() {
            return Some(v);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The shared games folder (`$GRIDBOT_GAMES`, else `../shared/games`) when
/// it holds `page` (e.g. `sgt-web/flood.html`); else `None`, after saying
/// why the test skips.
pub fn shared_games(page: &str) -> Option<PathBuf> {
    let root = std::env::var_os("GRIDBOT_GAMES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/games"));
    let path = root.join(page);
    if path.is_file() {
        Some(root)
    } else {
        println!(
            "skipped: {} not found (set GRIDBOT_GAMES to the shared games folder)",
            path.display()
        );
        None
    }
}

/// [`shared_games`] for a page played in Chromium: `None` (after saying
/// why) also when Chromium is not installed.
pub fn shared_games_in_chromium(page: &str) -> Option<PathBuf> {
    let root = shared_games(page)?;
    if let Err(e) = gridbot::hosts::browser::find_chromium() {
        println!("skipped: {e}");
        return None;
    }
    Some(root)
}
