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
