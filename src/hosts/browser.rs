//! Chromium on an X display, showing a URL or a page of a folder that
//! gridbot serves itself on 127.0.0.1 ([`super::serve`]).
//!
//! [`Browser::open`] finds the Chromium binary (`$GRIDBOT_CHROMIUM`, else
//! `chromium` or `chromium-browser` on `PATH`), starts it in app mode (one
//! window, no tabs, no address bar; or kiosk mode) with a fresh throwaway
//! profile and every first-run page, bubble and infobar turned off, finds
//! the window its process maps (`_NET_WM_PID`), and waits until the page has
//! drawn: the window's pixels are not blank and stop changing.
//!
//! Teardown, on drop (also while a test panics): SIGKILL to Chromium's
//! whole process group, then to every process still carrying this
//! browser's marker in its environment (Chromium's crash handler leaves the
//! group with `setsid`), then the profile folder is removed and the server
//! stopped. Chromium also gets `PR_SET_PDEATHSIG`, so it dies with the
//! thread that started it even when gridbot is killed outright.
//!
//! A new game on the same page (a new `#fragment`) is a restart of Chromium
//! on the kept profile and server: [`Browser::navigate`]. The sgt-puzzles
//! web pages read their fragment only when they load.

use std::ffi::OsString;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use image::RgbaImage;
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _};

use super::serve::{ServeError, StaticServer};
use crate::capture::screen::{CaptureError, Screenshot};
use crate::capture::window_grabber::WindowGrabber;
use crate::display::{x11, DisplayError, WindowInfo};

/// Environment variable naming the Chromium binary to use.
pub const CHROMIUM_ENV: &str = "GRIDBOT_CHROMIUM";

/// Program names searched on `PATH` when `$GRIDBOT_CHROMIUM` is not set.
pub const CHROMIUM_NAMES: [&str; 2] = ["chromium", "chromium-browser"];

/// Environment variable set on Chromium and inherited by all its
/// processes; its value is unique to one [`Browser`], so that teardown finds
/// the processes that left the process group.
const MARKER_ENV: &str = "GRIDBOT_BROWSER_INSTANCE";

/// How to install Chromium, for error messages.
const INSTALL_HINT: &str =
    "install it with `apt-get install chromium` (or `./dev deps`), or set GRIDBOT_CHROMIUM to its path";

/// What the browser shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Page {
    /// Any URL, opened as it is.
    Url(String),
    /// A page of a local folder, served by gridbot on 127.0.0.1.
    Served {
        /// The folder to serve.
        folder: PathBuf,
        /// The page's path inside the folder, e.g. `flood.html`.
        page: String,
        /// What goes after `#` (for the sgt-puzzles pages: a game ID).
        fragment: Option<String>,
    },
}

/// How to start a [`Browser`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrowserOptions {
    /// What to show.
    pub page: Page,
    /// The X display to run on, e.g. `":57"`.
    pub display: String,
    /// Window width in pixels (app mode).
    pub width: u32,
    /// Window height in pixels (app mode).
    pub height: u32,
    /// Full screen (`--kiosk`) instead of an app window of the given size.
    pub kiosk: bool,
    /// Port for the served folder; 0 = any free port.
    pub port: u16,
    /// How long Chromium may take to map its window.
    pub window_timeout: Duration,
    /// How long the page may take to draw once the window is there.
    pub draw_timeout: Duration,
    /// The page counts as drawn once its pixels stayed the same this long.
    pub settle: Duration,
}

impl BrowserOptions {
    /// Options for showing `url` on `display` in an 800x800 app window.
    pub fn url(display: &str, url: &str) -> BrowserOptions {
        BrowserOptions::new(display, Page::Url(url.to_string()))
    }

    /// Options for showing `page#fragment` of `folder`, served on a free
    /// port, on `display` in an 800x800 app window.
    pub fn served(
        display: &str,
        folder: &Path,
        page: &str,
        fragment: Option<&str>,
    ) -> BrowserOptions {
        BrowserOptions::new(
            display,
            Page::Served {
                folder: folder.to_path_buf(),
                page: page.to_string(),
                fragment: fragment.map(str::to_string),
            },
        )
    }

    fn new(display: &str, page: Page) -> BrowserOptions {
        BrowserOptions {
            page,
            display: display.to_string(),
            width: 800,
            height: 800,
            kiosk: false,
            port: 0,
            window_timeout: Duration::from_secs(30),
            draw_timeout: Duration::from_secs(30),
            settle: Duration::from_millis(400),
        }
    }
}

/// Errors from starting or driving a [`Browser`].
#[derive(Debug, thiserror::Error)]
pub enum BrowserError {
    /// No Chromium binary was found.
    #[error("Chromium not found (looked for {searched}): {INSTALL_HINT}")]
    ChromiumNotFound {
        /// Where it was looked for.
        searched: String,
    },
    /// The page to serve is not in the folder.
    #[error("cannot show {page:?}: there is no such file in {}; is the folder right?", folder.display())]
    PageNotFound {
        /// The folder served.
        folder: PathBuf,
        /// The page asked for.
        page: String,
    },
    /// An option is out of range.
    #[error("bad browser option: {0}")]
    BadOption(String),
    /// The folder could not be served.
    #[error(transparent)]
    Serve(#[from] ServeError),
    /// The X display is unusable.
    #[error(transparent)]
    Display(#[from] DisplayError),
    /// Capturing the window failed.
    #[error(transparent)]
    Capture(#[from] CaptureError),
    /// The throwaway profile folder could not be made.
    #[error("cannot create a temporary Chromium profile folder: {0}")]
    Profile(#[source] std::io::Error),
    /// The program could not be started.
    #[error("cannot start Chromium ({}): {source}", program.display())]
    Spawn {
        /// The binary.
        program: PathBuf,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
    /// Chromium exited before it showed the page.
    #[error("Chromium ({}) exited ({status}) before showing its window; its output: {log}", program.display())]
    Exited {
        /// The binary.
        program: PathBuf,
        /// How it exited.
        status: ExitStatus,
        /// The end of what it printed.
        log: String,
    },
    /// No window of Chromium's appeared in time.
    #[error("Chromium showed no window on X display {display} within {timeout:?}; open windows: {open}; its output: {log}")]
    NoWindow {
        /// The display.
        display: String,
        /// How long it was given.
        timeout: Duration,
        /// The titles of the windows that were there.
        open: String,
        /// The end of what Chromium printed.
        log: String,
    },
    /// The page did not finish drawing in time.
    #[error("the page never drew: {url} did not show a steady, non-blank picture within {timeout:?} ({detail})")]
    NeverDrew {
        /// The URL shown.
        url: String,
        /// How long it was given.
        timeout: Duration,
        /// What was seen last.
        detail: String,
    },
}

/// Chromium running on a display, its window found and its page drawn.
/// Dropping it kills every process it started and removes its profile.
pub struct Browser {
    // Field order is drop order: Chromium first, then the server, then the
    // profile folder it was using.
    process: Option<ChromiumProcess>,
    server: Option<StaticServer>,
    profile: tempfile::TempDir,
    options: BrowserOptions,
    binary: PathBuf,
    url: String,
    window: WindowInfo,
    grabber: WindowGrabber,
}

impl std::fmt::Debug for Browser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Browser")
            .field("url", &self.url)
            .field("window", &self.window)
            .field("pid", &self.pid())
            .finish_non_exhaustive()
    }
}

impl Browser {
    /// Starts Chromium as `options` say and returns once its page has drawn.
    pub fn open(options: BrowserOptions) -> Result<Browser, BrowserError> {
        if !(100..=16384).contains(&options.width) || !(100..=16384).contains(&options.height) {
            return Err(BrowserError::BadOption(format!(
                "window size {}x{} (each side must be 100 to 16384 pixels)",
                options.width, options.height
            )));
        }
        let binary = find_chromium()?;
        // Fail early and clearly on a display that is not there.
        x11::connect(Some(&options.display))?;
        let (server, url) = match &options.page {
            Page::Url(url) => (None, url.clone()),
            Page::Served {
                folder,
                page,
                fragment,
            } => {
                let server = StaticServer::start(folder, options.port)?;
                let file = page.split(['?', '#']).next().unwrap_or("");
                if file.is_empty() || !server.root().join(file).is_file() {
                    return Err(BrowserError::PageNotFound {
                        folder: folder.clone(),
                        page: page.clone(),
                    });
                }
                let url = server.url(&with_fragment(page, fragment.as_deref()));
                (Some(server), url)
            }
        };
        remove_stale_profiles(&std::env::temp_dir());
        let profile = tempfile::Builder::new()
            .prefix(&profile_prefix(std::process::id()))
            .tempdir()
            .map_err(BrowserError::Profile)?;
        let (process, window) = launch(&binary, &options, profile.path(), &url)?;
        let grabber = WindowGrabber::open_window(&options.display, window.id)?;
        let mut browser = Browser {
            process: Some(process),
            server,
            profile,
            options,
            binary,
            url,
            window,
            grabber,
        };
        browser.wait_until_drawn()?;
        browser.refresh_window()?;
        Ok(browser)
    }

    /// Looks the window up again (by id): its title is the URL until the
    /// page's `<title>` has loaded, and the window manager may move it.
    fn refresh_window(&mut self) -> Result<(), BrowserError> {
        let (conn, screen) = x11::connect(Some(&self.options.display))?;
        if let Some(window) = x11::list_windows(&conn, screen)?
            .into_iter()
            .find(|w| w.id == self.window.id)
        {
            self.window = window;
        }
        Ok(())
    }

    /// Shows `url` instead: restarts Chromium on the same profile (and
    /// server) and waits until the new page has drawn. The window may have
    /// a new id and position afterwards: read [`window`](Self::window) again.
    pub fn navigate(&mut self, url: &str) -> Result<(), BrowserError> {
        // Stop the old instance before the new one starts, or the new one
        // would hand the URL to it (one instance per profile) and exit.
        self.process = None;
        // Chromium refuses a profile that another instance locked; the lock
        // dies with its owner, but the link stays and names a dead process.
        for lock in ["SingletonLock", "SingletonSocket", "SingletonCookie"] {
            let _ = std::fs::remove_file(self.profile.path().join(lock));
        }
        let (process, window) = launch(&self.binary, &self.options, self.profile.path(), url)?;
        self.process = Some(process);
        self.grabber = WindowGrabber::open_window(&self.options.display, window.id)?;
        self.window = window;
        self.url = url.to_string();
        self.wait_until_drawn()?;
        self.refresh_window()
    }

    /// Shows the served page with a new fragment (for the sgt-puzzles
    /// pages, a new game ID); see [`navigate`](Self::navigate). An error for
    /// a browser showing a plain URL.
    pub fn navigate_fragment(&mut self, fragment: &str) -> Result<(), BrowserError> {
        let (Some(server), Page::Served { page, .. }) = (&self.server, &self.options.page) else {
            return Err(BrowserError::BadOption(
                "navigate_fragment needs a served folder; use navigate(url)".into(),
            ));
        };
        let url = server.url(&with_fragment(page, Some(fragment)));
        self.navigate(&url)
    }

    /// The URL shown.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The page's window: X id, title (the page's `<title>`), position and
    /// size on the screen, as they were once the page had drawn.
    pub fn window(&self) -> &WindowInfo {
        &self.window
    }

    /// Screen position of the page's top-left pixel. In app and kiosk mode
    /// Chromium draws no frame, tabs or address bar, so this is the
    /// window's own top-left corner (checked on Xvfb with evilwm).
    pub fn page_origin(&self) -> (i32, i32) {
        (self.window.x, self.window.y)
    }

    /// The X display Chromium runs on.
    pub fn display(&self) -> &str {
        &self.options.display
    }

    /// The local server, when a folder is served.
    pub fn server(&self) -> Option<&StaticServer> {
        self.server.as_ref()
    }

    /// Process id of Chromium's browser process (while it runs).
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(|p| p.child.id())
    }

    /// Captures the page's window as it is now.
    pub fn capture(&mut self) -> Result<Screenshot, BrowserError> {
        Ok(self.grabber.capture()?)
    }

    /// Waits until the window's pixels are not blank and stayed the same for
    /// the configured settle time.
    pub fn wait_until_drawn(&mut self) -> Result<(), BrowserError> {
        self.wait_until(self.options.draw_timeout, |_| true)
    }

    /// Waits until the page is drawn (as in
    /// [`wait_until_drawn`](Self::wait_until_drawn)) and `ready` accepts the
    /// window's picture, e.g. "the board can be read". On timeout, the error
    /// says what was seen last.
    pub fn wait_until(
        &mut self,
        timeout: Duration,
        mut ready: impl FnMut(&RgbaImage) -> bool,
    ) -> Result<(), BrowserError> {
        let start = Instant::now();
        let deadline = start + timeout;
        let mut last: Option<RgbaImage> = None;
        let mut steady_since = Instant::now();
        let mut detail;
        loop {
            if let Some(process) = self.process.as_mut() {
                if let Some(status) = process.exited() {
                    return Err(BrowserError::Exited {
                        program: self.binary.clone(),
                        status,
                        log: process.log(),
                    });
                }
            }
            match self.grabber.capture() {
                Ok(shot) => {
                    let image = shot.image;
                    let now = Instant::now();
                    if last.as_ref() != Some(&image) {
                        steady_since = now;
                    }
                    let steady = now.duration_since(steady_since) >= self.options.settle;
                    let blank = is_blank(&image);
                    detail = match (blank, steady) {
                        (true, _) => "the window stayed one colour".to_string(),
                        (false, false) => "the picture kept changing".to_string(),
                        (false, true) => "the picture was steady but not ready".to_string(),
                    };
                    if !blank && steady && ready(&image) {
                        log::info!(
                            "{} drawn after {:.2} s",
                            self.url,
                            start.elapsed().as_secs_f64()
                        );
                        return Ok(());
                    }
                    last = Some(image);
                }
                Err(e) => detail = format!("capture failed: {e}"),
            }
            if Instant::now() >= deadline {
                return Err(BrowserError::NeverDrew {
                    url: self.url.clone(),
                    timeout,
                    detail,
                });
            }
            thread::sleep(Duration::from_millis(50));
        }
    }
}

/// `page` with `#fragment` appended (replacing any fragment it had).
fn with_fragment(page: &str, fragment: Option<&str>) -> String {
    let base = page.split('#').next().unwrap_or(page);
    match fragment {
        Some(f) => format!("{base}#{f}"),
        None => base.to_string(),
    }
}

/// Whether every pixel of the picture has the same colour.
fn is_blank(image: &RgbaImage) -> bool {
    let mut pixels = image.pixels();
    match pixels.next() {
        Some(first) => pixels.all(|p| p == first),
        None => true,
    }
}

/// The Chromium binary: `$GRIDBOT_CHROMIUM` if set (it must exist), else
/// the first of [`CHROMIUM_NAMES`] on `PATH`.
pub fn find_chromium() -> Result<PathBuf, BrowserError> {
    find_chromium_in(std::env::var_os(CHROMIUM_ENV), std::env::var_os("PATH"))
}

fn find_chromium_in(
    override_path: Option<OsString>,
    path: Option<OsString>,
) -> Result<PathBuf, BrowserError> {
    if let Some(given) = override_path.filter(|p| !p.is_empty()) {
        let given = PathBuf::from(given);
        return if is_executable(&given) {
            Ok(given)
        } else {
            Err(BrowserError::ChromiumNotFound {
                searched: format!(
                    "{CHROMIUM_ENV}={}, which is not an executable file",
                    given.display()
                ),
            })
        };
    }
    let dirs: Vec<PathBuf> = path
        .as_ref()
        .map(|p| std::env::split_paths(p).collect())
        .unwrap_or_default();
    for name in CHROMIUM_NAMES {
        for dir in &dirs {
            let candidate = dir.join(name);
            if is_executable(&candidate) {
                return Ok(candidate);
            }
        }
    }
    Err(BrowserError::ChromiumNotFound {
        searched: format!(
            "{} on PATH, and {CHROMIUM_ENV} is not set",
            CHROMIUM_NAMES.join(" and ")
        ),
    })
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Chromium's command-line switches for showing `url`.
fn chromium_args(options: &BrowserOptions, profile: &Path, url: &str) -> Vec<String> {
    let mut args = vec![
        format!("--user-data-dir={}", profile.display()),
        // No first-run page, default-browser question, sign-in or
        // "restore pages" bubble, no infobars about unusual switches.
        "--no-first-run".into(),
        "--no-default-browser-check".into(),
        "--test-type".into(),
        "--disable-session-crashed-bubble".into(),
        "--noerrdialogs".into(),
        "--disable-infobars".into(),
        "--disable-notifications".into(),
        "--disable-default-apps".into(),
        "--disable-extensions".into(),
        "--disable-component-update".into(),
        "--disable-background-networking".into(),
        "--disable-sync".into(),
        "--disable-features=Translate,MediaRouter,OptimizationHints,DialMediaRouteProvider,AutofillServerCommunication".into(),
        "--password-store=basic".into(),
        "--use-mock-keychain".into(),
        "--disable-crash-reporter".into(),
        "--disable-breakpad".into(),
        // Software rendering on a virtual display; no /dev/shm limits.
        "--disable-gpu".into(),
        "--disable-dev-shm-usage".into(),
        "--ozone-platform=x11".into(),
        // Pixels are page pixels, whatever the desktop's scale.
        "--force-device-scale-factor=1".into(),
        "--hide-scrollbars".into(),
        "--mute-audio".into(),
        // Keep drawing at full speed when the window is covered or idle.
        "--disable-renderer-backgrounding".into(),
        "--disable-backgrounding-occluded-windows".into(),
        "--disable-background-timer-throttling".into(),
        "--window-position=0,0".into(),
        format!("--window-size={},{}", options.width, options.height),
    ];
    // Chromium's sandbox refuses to run as root.
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        args.push("--no-sandbox".into());
    }
    if options.kiosk {
        args.push("--kiosk".into());
        args.push(url.to_string());
    } else {
        args.push(format!("--app={url}"));
    }
    args
}

/// The start of a profile folder's name: gridbot's, and the process that
/// owns it, so that a later run can tell a killed run's folder.
fn profile_prefix(pid: u32) -> String {
    format!("gridbot-chromium-{pid}-")
}

/// The folder inside the profile that Chromium takes for its temporary files.
fn chromium_tmp(profile: &Path) -> Result<PathBuf, BrowserError> {
    // Short: Chromium puts a socket in it (paths of at most 107 bytes).
    let tmp = profile.join("t");
    std::fs::create_dir_all(&tmp).map_err(BrowserError::Profile)?;
    Ok(tmp)
}

/// Removes the profile folders that runs killed before they could clean up
/// left in `dir`: only folders named by [`profile_prefix`], owned by this
/// user, whose process is gone.
fn remove_stale_profiles(dir: &Path) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = stale_owner(&name) else {
            continue;
        };
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        if !meta.is_dir() || meta.uid() != me || process_alive(pid) {
            continue;
        }
        log::info!(
            "removing {} left by a killed run (pid {pid})",
            entry.path().display()
        );
        let _ = std::fs::remove_dir_all(entry.path());
    }
}

/// The process that made a folder named `name`, if gridbot made it.
fn stale_owner(name: &str) -> Option<u32> {
    let rest = name.strip_prefix("gridbot-chromium-")?;
    let (pid, _) = rest.split_once('-')?;
    pid.parse().ok()
}

/// True while a process `pid` exists (ours or another user's).
fn process_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Starts Chromium and waits for its window.
fn launch(
    binary: &Path,
    options: &BrowserOptions,
    profile: &Path,
    url: &str,
) -> Result<(ChromiumProcess, WindowInfo), BrowserError> {
    let marker = format!("{}:{}", std::process::id(), profile.display());
    let mut command = Command::new(binary);
    command
        .args(chromium_args(options, profile, url))
        .env("DISPLAY", &options.display)
        .env(MARKER_ENV, &marker)
        // Crash reports, caches and Chromium's own temporary folders
        // (`org.chromium.Chromium.*`) go to the throwaway profile, not
        // $HOME or /tmp, so that removing the profile removes them all.
        .env("XDG_CONFIG_HOME", profile.join("config"))
        .env("XDG_CACHE_HOME", profile.join("cache"))
        .env("TMPDIR", chromium_tmp(profile)?)
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    crate::process::die_with_parent(&mut command);
    let start = Instant::now();
    let mut child = command.spawn().map_err(|source| BrowserError::Spawn {
        program: binary.to_path_buf(),
        source,
    })?;
    let log = Arc::new(Mutex::new(String::new()));
    drain(child.stdout.take(), &log);
    drain(child.stderr.take(), &log);
    let mut process = ChromiumProcess { child, marker, log };
    log::debug!(
        "started {} (pid {}) on {} for {url}",
        binary.display(),
        process.child.id(),
        options.display
    );
    let window = wait_for_window(&mut process, binary, options)?;
    log::info!(
        "Chromium window {:#x} {:?} at ({}, {}) {}x{} after {:.2} s",
        window.id,
        window.title,
        window.x,
        window.y,
        window.width,
        window.height,
        start.elapsed().as_secs_f64()
    );
    Ok((process, window))
}

/// Polls the display until a viewable window of Chromium's process (by
/// `_NET_WM_PID`) with a size of at least 100x100 exists; the largest wins.
fn wait_for_window(
    process: &mut ChromiumProcess,
    binary: &Path,
    options: &BrowserOptions,
) -> Result<WindowInfo, BrowserError> {
    let (conn, screen) = x11::connect(Some(&options.display))?;
    let pid_atom = conn
        .intern_atom(false, b"_NET_WM_PID")
        .map_err(|e| DisplayError::Protocol(e.to_string()))?
        .reply()
        .map_err(|e| DisplayError::Protocol(e.to_string()))?
        .atom;
    let deadline = Instant::now() + options.window_timeout;
    loop {
        if let Some(status) = process.exited() {
            return Err(BrowserError::Exited {
                program: binary.to_path_buf(),
                status,
                log: process.log(),
            });
        }
        let pids = process.pids();
        let windows = x11::list_windows(&conn, screen)?;
        let found = windows
            .iter()
            .filter(|w| w.width >= 100 && w.height >= 100)
            .filter(|w| window_pid(&conn, w.id, pid_atom).is_some_and(|p| pids.contains(&p)))
            .max_by_key(|w| u64::from(w.width) * u64::from(w.height));
        if let Some(window) = found {
            return Ok(window.clone());
        }
        if Instant::now() >= deadline {
            let open = crate::display::titles_for_message(windows.iter().map(|w| w.title.as_str()));
            return Err(BrowserError::NoWindow {
                display: options.display.clone(),
                timeout: options.window_timeout,
                open: if open.is_empty() { "none".into() } else { open },
                log: process.log(),
            });
        }
        thread::sleep(Duration::from_millis(50));
    }
}

/// The `_NET_WM_PID` of a window, if set.
fn window_pid(conn: &impl Connection, window: u32, pid_atom: u32) -> Option<u32> {
    let reply = conn
        .get_property(false, window, pid_atom, AtomEnum::CARDINAL, 0, 1)
        .ok()?
        .reply()
        .ok()?;
    let pid = reply.value32()?.next();
    pid
}

/// Keeps the end of a child's output for error messages (and drains the
/// pipe so Chromium never blocks on it).
fn drain(stream: Option<impl Read + Send + 'static>, log: &Arc<Mutex<String>>) {
    let Some(mut stream) = stream else { return };
    let log = Arc::clone(log);
    thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stream.read(&mut buf) {
            if n == 0 {
                break;
            }
            if let Ok(mut log) = log.lock() {
                log.push_str(&String::from_utf8_lossy(&buf[..n]));
                if log.len() > 64 * 1024 {
                    let cut = log.len() - 32 * 1024;
                    let cut = (cut..log.len())
                        .find(|&i| log.is_char_boundary(i))
                        .unwrap_or(0);
                    log.drain(..cut);
                }
            }
        }
    });
}

/// Chromium's browser process and everything it started; killed on drop.
struct ChromiumProcess {
    child: Child,
    marker: String,
    log: Arc<Mutex<String>>,
}

impl ChromiumProcess {
    /// The exit status, if the browser process has exited.
    fn exited(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// The last lines of Chromium's output, without its routine complaints
    /// about D-Bus (there is none on a virtual display).
    fn log(&self) -> String {
        let text = self.log.lock().map(|l| l.clone()).unwrap_or_default();
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.contains("dbus") && !l.trim().is_empty())
            .collect();
        let tail = lines[lines.len().saturating_sub(8)..].join(" | ");
        if tail.is_empty() {
            "(nothing)".into()
        } else {
            tail
        }
    }

    /// Every process of this browser: its process group and whatever
    /// carries its marker.
    fn pids(&self) -> Vec<u32> {
        let mut pids = marked_processes(&self.marker);
        pids.push(self.child.id());
        pids
    }
}

impl Drop for ChromiumProcess {
    fn drop(&mut self) {
        let pgid = self.child.id() as libc::pid_t;
        // SAFETY: kill has no memory-safety preconditions; a negative pid
        // names the process group Chromium leads (it was made with
        // process_group(0)).
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
        let _ = self.child.wait();
        // Processes that left the group (Chromium's crash handler calls
        // setsid) still carry the marker; repeat until none is left, as one
        // may start another while dying.
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let left = marked_processes(&self.marker);
            if left.is_empty() || Instant::now() >= deadline {
                if !left.is_empty() {
                    log::warn!("Chromium processes {left:?} did not die");
                }
                break;
            }
            for pid in left {
                // SAFETY: as above.
                unsafe {
                    libc::kill(pid as libc::pid_t, libc::SIGKILL);
                }
            }
            thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Live (not zombie) processes whose environment has
/// `GRIDBOT_BROWSER_INSTANCE=marker`.
fn marked_processes(marker: &str) -> Vec<u32> {
    let needle = format!("{MARKER_ENV}={marker}");
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|&b| b == 0).any(|v| v == needle.as_bytes()))
                && !is_zombie(*pid)
        })
        .collect()
}

fn is_zombie(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // The state follows the command name, which is in parentheses.
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_chromium_says_how_to_install_it() {
        let err = find_chromium_in(Some("/nonexistent/chromium".into()), None).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("GRIDBOT_CHROMIUM=/nonexistent/chromium"),
            "{text}"
        );
        assert!(text.contains("apt-get install chromium"), "{text}");
        let err = find_chromium_in(None, Some("/nonexistent-a:/nonexistent-b".into())).unwrap_err();
        assert!(
            err.to_string()
                .contains("chromium and chromium-browser on PATH"),
            "{err}"
        );
        assert!(err.to_string().contains("./dev deps"), "{err}");
    }

    #[test]
    fn chromium_is_found_on_path_or_by_override() {
        let dir = tempfile::tempdir().unwrap();
        let fake = dir.path().join("chromium-browser");
        std::fs::write(&fake, "#!/bin/sh\n").unwrap();
        let not_exec = dir.path().join("chromium");
        std::fs::write(&not_exec, "").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = std::env::join_paths(["/nonexistent".as_ref(), dir.path()]).unwrap();
        assert_eq!(find_chromium_in(None, Some(path)).unwrap(), fake);
        assert_eq!(
            find_chromium_in(Some(fake.clone().into()), None).unwrap(),
            fake
        );
    }

    #[test]
    fn only_a_dead_runs_own_profile_folders_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        // A pid that cannot exist (above the kernel's pid_max of 2^22).
        let dead = dir.path().join(format!("{}abc", profile_prefix(9_999_999)));
        let alive = dir
            .path()
            .join(format!("{}abc", profile_prefix(std::process::id())));
        let foreign = dir.path().join("chromium-9999999-abc");
        for d in [&dead, &alive, &foreign] {
            std::fs::create_dir_all(d.join("tmp")).unwrap();
        }
        remove_stale_profiles(dir.path());
        assert!(!dead.exists());
        assert!(alive.exists());
        assert!(foreign.exists());
        assert_eq!(stale_owner("gridbot-chromium-42-x1"), Some(42));
        assert_eq!(stale_owner("gridbot-chromium-x1"), None);
    }

    #[test]
    fn arguments_give_a_quiet_app_window_on_a_throwaway_profile() {
        let options = BrowserOptions::url(":5", "http://127.0.0.1:1/x.html#a");
        let args = chromium_args(&options, Path::new("/tmp/p"), "http://127.0.0.1:1/x.html#a");
        assert!(args.contains(&"--user-data-dir=/tmp/p".to_string()));
        assert!(args.contains(&"--app=http://127.0.0.1:1/x.html#a".to_string()));
        assert!(args.contains(&"--window-size=800,800".to_string()));
        assert!(args.contains(&"--no-first-run".to_string()));
        let kiosk = BrowserOptions {
            kiosk: true,
            ..options
        };
        let args = chromium_args(&kiosk, Path::new("/tmp/p"), "http://h/");
        assert!(args.contains(&"--kiosk".to_string()));
        assert_eq!(args.last().unwrap(), "http://h/");
    }

    #[test]
    fn fragments_replace_fragments() {
        assert_eq!(
            with_fragment("flood.html", Some("3x3:0,1")),
            "flood.html#3x3:0,1"
        );
        assert_eq!(
            with_fragment("flood.html#old", Some("new")),
            "flood.html#new"
        );
        assert_eq!(with_fragment("flood.html#old", None), "flood.html");
    }

    #[test]
    fn blank_means_one_colour() {
        let mut image = RgbaImage::from_pixel(4, 4, image::Rgba([255, 255, 255, 255]));
        assert!(is_blank(&image));
        image.put_pixel(3, 3, image::Rgba([0, 0, 0, 255]));
        assert!(!is_blank(&image));
    }

    #[test]
    fn bad_sizes_and_missing_pages_are_refused_before_starting_anything() {
        let mut options = BrowserOptions::url(":0", "about:blank");
        options.width = 10;
        let err = Browser::open(options).unwrap_err();
        assert!(err.to_string().contains("window size 10x800"), "{err}");
    }
}
