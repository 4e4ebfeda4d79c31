//! Helpers for the play tests: the bot as a child process whose log lines
//! are watched while it plays, and `xdotool` as the "user" who interferes.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// A running `gridbot` with its stderr streamed line by line.
pub struct Bot {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
    stdout: JoinHandle<String>,
}

/// How a bot run ended.
pub struct Ended {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

impl Bot {
    /// Starts the real binary on `display` with `args`.
    pub fn spawn(display: &str, args: &[&str]) -> Bot {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gridbot"))
            .args(args)
            .env("DISPLAY", display)
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start gridbot");
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut out = child.stdout.take().unwrap();
        let stdout = thread::spawn(move || {
            let mut s = String::new();
            let _ = out.read_to_string(&mut s);
            s
        });
        Bot {
            child,
            lines: rx,
            seen: Vec::new(),
            stdout,
        }
    }

    /// Waits until `count` log lines containing `needle` were printed.
    pub fn wait_for(&mut self, needle: &str, count: usize, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        loop {
            if self.seen.iter().filter(|l| l.contains(needle)).count() >= count {
                return;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => self.seen.push(line),
                Err(_) => panic!(
                    "gridbot did not log {needle:?} {count} times in {timeout:?}; log:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// Waits for the bot to exit (killing it after `timeout`).
    pub fn finish(mut self, timeout: Duration) -> Ended {
        let deadline = Instant::now() + timeout;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait for gridbot") {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!(
                    "gridbot did not exit within {timeout:?}; log:\n{}",
                    self.seen.join("\n")
                );
            }
            thread::sleep(Duration::from_millis(20));
        };
        // The stderr thread ends at EOF.
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(2)) {
            self.seen.push(line);
        }
        let stdout = self.stdout.join().unwrap_or_default();
        Ended {
            status,
            stdout,
            stderr: self.seen.join("\n"),
        }
    }

    /// The process id (to send signals).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

/// Runs `xdotool ARGS` on `display` and returns its stdout.
pub fn xdotool(display: &str, args: &[&str]) -> String {
    let out = Command::new("xdotool")
        .args(args)
        .env("DISPLAY", display)
        .output()
        .expect("xdotool is installed (./dev deps)");
    assert!(
        out.status.success(),
        "xdotool {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The pointer position as `xdotool getmouselocation` reports it.
pub fn pointer(display: &str) -> (i32, i32) {
    let text = xdotool(display, &["getmouselocation", "--shell"]);
    let get = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().parse().ok())
            .expect("X and Y")
    };
    (get("X="), get("Y="))
}

/// Reads the board on `display` with a dry run (which never moves the mouse).
pub fn board_on_screen(display: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_gridbot"))
        .args(["play", "flood", "--dry-run", "--no-status"])
        .env("DISPLAY", display)
        .output()
        .expect("run gridbot");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .find_map(|l| l.strip_prefix("board: "))
        .unwrap_or_else(|| {
            panic!(
                "dry run printed no board: {text}{}",
                String::from_utf8_lossy(&out.stderr)
            )
        })
        .to_string()
}

/// Loads a JSON report.
pub fn report(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("report written"))
        .expect("report is JSON")
}

/// A game played while the "user" interferes behind the bot's back (a key
/// pressed during the bot's pause between moves): what every such test
/// starts, and what it checks.
pub struct Interference<'a> {
    /// The display the game is on.
    pub display: &'a str,
    /// `-v` or `-vv`.
    pub verbosity: &'a str,
    /// The game: `gridbot play GAME`.
    pub game: &'a str,
    /// More options for `play` (e.g. `--pdb none`).
    pub extra: &'a [&'a str],
    /// `--pause-between-moves`, ms.
    pub pause_ms: &'a str,
    /// Names the temporary folder.
    pub tag: &'a str,
    /// The log line to wait for before interfering, and how many times.
    pub wait_for: (&'a str, usize),
    /// How long the game may take.
    pub timeout: Duration,
    /// Log lines that also show the bot noticed, besides a change while it
    /// waited and a board that differs from the prediction.
    pub also_noticed: &'a [&'a str],
}

impl Interference<'_> {
    /// Plays, runs `interfere` once the bot logged `wait_for`, and checks
    /// that the bot exited successfully, noticed, and won with at least
    /// one mismatch and at least two solves. Returns the report's game
    /// record for the test's own checks.
    pub fn play(&self, interfere: impl FnOnce()) -> serde_json::Value {
        let dir = crate::util::TempDir::new(self.tag);
        let path = dir.join("report.json");
        let mut args = vec![self.verbosity, "play", self.game];
        args.extend_from_slice(self.extra);
        args.extend_from_slice(&[
            "--pause-between-moves",
            self.pause_ms,
            "--report",
            path.to_str().unwrap(),
        ]);
        let mut bot = Bot::spawn(self.display, &args);
        bot.wait_for(self.wait_for.0, self.wait_for.1, self.timeout);
        interfere();
        let end = bot.finish(self.timeout);
        assert!(
            end.status.success(),
            "bot failed:\n{}\n{}",
            end.stdout,
            end.stderr
        );
        // Normally seen during the pause before the next move; on a slow
        // machine the keys may land after it, and the check after the move
        // catches it instead.
        let noticed = [
            "the board changed while the bot waited",
            "differs from the prediction",
        ];
        assert!(
            noticed
                .iter()
                .chain(self.also_noticed)
                .any(|n| end.stderr.contains(n)),
            "{}",
            end.stderr
        );
        let g = report(&path)["games"][0].clone();
        assert_eq!(g["result"], "won", "{g}");
        assert!(g["mismatches"].as_u64().unwrap() >= 1, "{g}");
        assert!(g["solves"].as_u64().unwrap() >= 2, "{g}");
        g
    }
}
