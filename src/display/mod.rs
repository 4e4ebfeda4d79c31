//! Virtual X displays (Xvfb) for tests and the demo: start on a free display
//! number, wait until it accepts connections, run programs on it, and tear
//! everything down on drop.
//!
//! ```no_run
//! use std::process::Command;
//! use std::time::Duration;
//! use gridbot::display::VirtualDisplay;
//!
//! let display = VirtualDisplay::start_with_window_manager(800, 600)?;
//! let _game = display.spawn(Command::new("/usr/games/sgt-flood").arg("12x12:...,24"))?;
//! let window = display.wait_for_window("Flood", Duration::from_secs(20))?;
//! println!("{} shows Flood at ({}, {})", display.name(), window.x, window.y);
//! // Xvfb, the window manager and sgt-flood are killed when `display` and
//! // `_game` go out of scope, also when a test panics.
//! # Ok::<(), gridbot::display::DisplayError>(())
//! ```
//!
//! Readiness is never guessed with a fixed sleep: Xvfb is started with
//! `-displayfd`, so it picks a free display number itself and reports it only
//! once it accepts connections; the window manager is ready when it has set
//! `_NET_SUPPORTING_WM_CHECK`; a window is ready when it is viewable.
//!
//! Processes started here get `PR_SET_PDEATHSIG = SIGKILL`, so they also die
//! when gridbot is killed without running destructors (Ctrl-C, SIGKILL).
//! Linux delivers that signal when the *thread* that spawned them exits, so
//! keep a `VirtualDisplay` on the thread that created it.

pub mod stacking;
pub mod x11;

use std::io::{BufRead, BufReader, Read};
use std::ops::{Deref, DerefMut};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

pub use x11::WindowInfo;

/// A failure of the screen or the pointer (the display's devices, as the
/// play loop uses them), with a readable message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceError(pub String);

impl std::fmt::Display for DeviceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DeviceError {}

impl DeviceError {
    /// Wraps any displayable error.
    pub fn from_display(err: impl std::fmt::Display) -> Self {
        DeviceError(err.to_string())
    }
}

/// How long [`VirtualDisplay::start`] waits for Xvfb and the window manager.
pub const START_TIMEOUT: Duration = Duration::from_secs(30);

/// The window manager started by [`VirtualDisplay::start_with_window_manager`]:
/// tiny, and it maintains `_NET_CLIENT_LIST_STACKING`.
pub const WINDOW_MANAGER: &str = "evilwm";

/// Errors from starting or using an X display.
#[derive(Debug, thiserror::Error)]
pub enum DisplayError {
    /// `$DISPLAY` is empty or unset.
    #[error(
        "no X display: DISPLAY is not set; start one with `Xvfb :99 &` and `export DISPLAY=:99`, or run `./dev demo`"
    )]
    NoDisplay,
    /// The X server named by the display did not accept a connection.
    #[error(
        "cannot connect to X display {display}: {reason}; is an X server running there? (start one with `Xvfb {display} &`)"
    )]
    Connect {
        /// The X display, e.g. `:99`.
        display: String,
        /// What went wrong.
        reason: String,
    },
    /// The Xvfb binary is not installed.
    #[error("Xvfb not found: install it with `apt-get install xvfb`")]
    XvfbNotFound,
    /// The window manager binary is not installed.
    #[error("window manager `{0}` not found: install it with `apt-get install {0}`")]
    WindowManagerNotFound(String),
    /// A program given to [`VirtualDisplay::spawn`] could not be started.
    #[error("cannot start `{program}`: {source}")]
    Spawn {
        /// The program.
        program: String,
        #[source]
        /// The underlying error.
        source: std::io::Error,
    },
    /// Xvfb exited or failed before it accepted connections.
    #[error("Xvfb failed to start: {0}")]
    XvfbFailed(String),
    /// Something did not become ready in time.
    #[error("timed out after {timeout:?} waiting for {what}")]
    Timeout {
        /// What was being done.
        what: String,
        /// How long it waited.
        timeout: Duration,
    },
    /// No window with the title appeared in time.
    #[error("no window whose title contains {title:?} appeared on {display} within {timeout:?}; open windows: {open}")]
    WindowNotFound {
        /// The window title looked for.
        title: String,
        /// The X display, e.g. `:99`.
        display: String,
        /// How long it waited.
        timeout: Duration,
        /// The windows that are open.
        open: String,
    },
    /// An X protocol error.
    #[error("X protocol error: {0}")]
    Protocol(String),
}

/// A child process started on a virtual display; killed (and reaped) on drop.
/// Dereferences to [`std::process::Child`].
#[derive(Debug)]
pub struct DisplayChild {
    child: Child,
}

impl Deref for DisplayChild {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.child
    }
}

impl DerefMut for DisplayChild {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.child
    }
}

impl Drop for DisplayChild {
    fn drop(&mut self) {
        kill_and_reap(&mut self.child);
    }
}

fn kill_and_reap(child: &mut Child) {
    if let Ok(None) = child.try_wait() {
        let _ = child.kill();
    }
    let _ = child.wait();
}

/// Window titles as a message lists them: each quoted and shortened (a
/// title can be 100 KB), at most 20 of them, `none` for none.
pub fn titles_for_message<'a>(titles: impl IntoIterator<Item = &'a str>) -> String {
    const MOST: usize = 20;
    let all: Vec<&str> = titles.into_iter().collect();
    if all.is_empty() {
        return "none".into();
    }
    let mut shown: Vec<String> = all
        .iter()
        .take(MOST)
        .map(|t| format!("{:?}", crate::files::shorten(t)))
        .collect();
    if all.len() > MOST {
        shown.push(format!("and {} more", all.len() - MOST));
    }
    shown.join(", ")
}

/// An Xvfb server on a free display number, plus optionally a window manager.
/// Everything it started is killed when it is dropped.
#[derive(Debug)]
pub struct VirtualDisplay {
    name: String,
    width: u32,
    height: u32,
    // Dropped in field order: window manager first, then Xvfb.
    window_manager: Option<DisplayChild>,
    xvfb: DisplayChild,
}

impl VirtualDisplay {
    /// Starts `Xvfb` with one `width`x`height`x24 screen on a free display
    /// number and returns once it accepts connections.
    pub fn start(width: u32, height: u32) -> Result<Self, DisplayError> {
        Self::start_xvfb("Xvfb", width, height)
    }

    fn start_xvfb(program: &str, width: u32, height: u32) -> Result<Self, DisplayError> {
        let mut command = Command::new(program);
        command
            .args(["-displayfd", "1", "-screen", "0"])
            .arg(format!("{width}x{height}x24"))
            .args(["-nolisten", "tcp", "-noreset"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        crate::process::die_with_parent(&mut command);
        let mut child = match command.spawn() {
            Ok(child) => child,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return Err(DisplayError::XvfbNotFound)
            }
            Err(source) => {
                return Err(DisplayError::Spawn {
                    program: "Xvfb".into(),
                    source,
                })
            }
        };
        let stderr_log = collect_stderr(&mut child);
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut xvfb = DisplayChild { child };

        let number = match read_display_number(stdout, START_TIMEOUT) {
            Ok(number) => number,
            Err(what) => {
                let exited = xvfb.try_wait().ok().flatten();
                kill_and_reap(&mut xvfb.child);
                let log = stderr_log
                    .lock()
                    .map(|s| s.trim().to_string())
                    .unwrap_or_default();
                return Err(match (what, exited) {
                    (ReadError::Timeout, None) => DisplayError::Timeout {
                        what: "Xvfb to accept connections".into(),
                        timeout: START_TIMEOUT,
                    },
                    _ => DisplayError::XvfbFailed(format!(
                        "exited ({}) before reporting a display number; its log: {}",
                        exited
                            .map(|s| s.to_string())
                            .unwrap_or_else(|| "killed".into()),
                        if log.is_empty() { "(empty)" } else { &log }
                    )),
                });
            }
        };
        let name = format!(":{number}");
        // -displayfd already means "ready"; one real connection confirms it.
        x11::connect(Some(&name))?;
        log::info!(
            "Xvfb is running on {name} ({width}x{height}), pid {}",
            xvfb.id()
        );
        Ok(VirtualDisplay {
            name,
            width,
            height,
            window_manager: None,
            xvfb,
        })
    }

    /// Like [`start`](Self::start), and also runs the `evilwm` window
    /// manager, which maintains the EWMH `_NET_CLIENT_LIST_STACKING` list
    /// that xcap's `Window::all()` needs. Returns once the WM is managing.
    pub fn start_with_window_manager(width: u32, height: u32) -> Result<Self, DisplayError> {
        let mut display = Self::start(width, height)?;
        let mut command = Command::new(WINDOW_MANAGER);
        // evilwm's default font ("variable") comes with the optional X font
        // packages and it exits when the font is missing, as on a fresh
        // machine; "fixed" is built into every X server.
        command
            .args(["-fn", "fixed"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let wm = match display.spawn(&mut command) {
            Ok(wm) => wm,
            Err(DisplayError::Spawn { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                return Err(DisplayError::WindowManagerNotFound(WINDOW_MANAGER.into()))
            }
            Err(err) => return Err(err),
        };
        display.window_manager = Some(wm);
        let (conn, screen) = x11::connect(Some(&display.name))?;
        poll_until(START_TIMEOUT, "the window manager to start", || {
            if let Some(wm) = display.window_manager.as_mut() {
                if let Ok(Some(status)) = wm.try_wait() {
                    return Err(DisplayError::Spawn {
                        program: WINDOW_MANAGER.into(),
                        source: std::io::Error::other(format!("exited early ({status})")),
                    });
                }
            }
            Ok(x11::has_ewmh_window_manager(&conn, screen).then_some(()))
        })?;
        log::info!("{WINDOW_MANAGER} is managing {}", display.name);
        Ok(display)
    }

    /// The display name to put in `DISPLAY`, e.g. `":57"`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Screen size in pixels as requested at start.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Process id of the Xvfb server.
    pub fn xvfb_pid(&self) -> u32 {
        self.xvfb.id()
    }

    /// Whether a window manager was started.
    pub fn has_window_manager(&self) -> bool {
        self.window_manager.is_some()
    }

    /// Starts `command` on this display (sets `DISPLAY`). The returned guard
    /// kills the process when dropped. Standard streams are left as the
    /// caller configured them.
    pub fn spawn(&self, command: &mut Command) -> Result<DisplayChild, DisplayError> {
        command.env("DISPLAY", &self.name);
        crate::process::die_with_parent(command);
        let program = command.get_program().to_string_lossy().into_owned();
        let child = command.spawn().map_err(|source| DisplayError::Spawn {
            program: program.clone(),
            source,
        })?;
        log::debug!("started `{program}` on {} (pid {})", self.name, child.id());
        Ok(DisplayChild { child })
    }

    /// Waits until a viewable window whose title contains `title` exists and
    /// returns its position and size in screen coordinates (polling the X
    /// server every 20 ms; no fixed sleep).
    pub fn wait_for_window(
        &self,
        title: &str,
        timeout: Duration,
    ) -> Result<WindowInfo, DisplayError> {
        let (conn, screen) = x11::connect(Some(&self.name))?;
        let result = poll_until(timeout, &format!("a window titled {title:?}"), || {
            Ok(x11::find_window(&conn, screen, title)?.filter(|w| w.width > 1 && w.height > 1))
        });
        match result {
            Ok(window) => Ok(window),
            Err(DisplayError::Timeout { .. }) => {
                let windows = x11::list_windows(&conn, screen)?;
                let open = titles_for_message(windows.iter().map(|w| w.title.as_str()));
                Err(DisplayError::WindowNotFound {
                    title: crate::files::shorten(title),
                    display: self.name.clone(),
                    timeout,
                    open,
                })
            }
            Err(err) => Err(err),
        }
    }
}

/// Calls `check` every 20 ms until it returns `Some`, an error, or time runs out.
pub fn poll_until<T>(
    timeout: Duration,
    what: &str,
    mut check: impl FnMut() -> Result<Option<T>, DisplayError>,
) -> Result<T, DisplayError> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(value) = check()? {
            return Ok(value);
        }
        if Instant::now() >= deadline {
            return Err(DisplayError::Timeout {
                what: what.into(),
                timeout,
            });
        }
        thread::sleep(Duration::from_millis(20));
    }
}

enum ReadError {
    Timeout,
    Closed,
}

/// Reads the display number Xvfb writes to its `-displayfd` once it is ready.
fn read_display_number(stdout: ChildStdout, timeout: Duration) -> Result<u32, ReadError> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut line = String::new();
        let result = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(result.ok().and_then(|_| line.trim().parse::<u32>().ok()));
    });
    match rx.recv_timeout(timeout) {
        Ok(Some(number)) => Ok(number),
        Ok(None) => Err(ReadError::Closed),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(ReadError::Closed),
    }
}

/// Drains the child's stderr in the background (so it never blocks on a full
/// pipe) and keeps the text for error messages and debug logs.
fn collect_stderr(child: &mut Child) -> Arc<Mutex<String>> {
    let log = Arc::new(Mutex::new(String::new()));
    if let Some(mut stderr) = child.stderr.take() {
        let log = Arc::clone(&log);
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut log) = log.lock() {
                    if log.len() < 64 * 1024 {
                        log.push_str(&String::from_utf8_lossy(&buf[..n]));
                    }
                }
            }
        });
    }
    log
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_xvfb_says_how_to_install_it() {
        let err = VirtualDisplay::start_xvfb("gridbot-test-no-such-xvfb", 320, 240).unwrap_err();
        assert!(matches!(err, DisplayError::XvfbNotFound), "{err:?}");
        assert!(err.to_string().contains("apt-get install xvfb"), "{err}");
    }

    #[test]
    fn xvfb_that_exits_early_is_reported_with_its_log() {
        // `false` exits at once without printing a display number.
        let err = VirtualDisplay::start_xvfb("false", 320, 240).unwrap_err();
        assert!(err.to_string().starts_with("Xvfb failed to start"), "{err}");
    }

    #[test]
    fn poll_until_returns_the_value_or_times_out() {
        let mut n = 0;
        assert_eq!(
            poll_until(Duration::from_secs(5), "n", || {
                n += 1;
                Ok((n == 3).then_some(n))
            })
            .unwrap(),
            3
        );
        let err = poll_until::<()>(Duration::from_millis(50), "nothing", || Ok(None)).unwrap_err();
        assert!(err.to_string().contains("waiting for nothing"), "{err}");
    }
}
