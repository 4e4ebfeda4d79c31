//! Hostile input and output around the commands: a reader that went away
//! (more of issue 27's cases join here).

use std::os::unix::process::ExitStatusExt;
use std::process::Stdio;

use crate::util::gridbot;

/// `gridbot games | head -0`: the reader has closed the pipe before gridbot
/// writes; gridbot must end quietly (no panic message), by SIGPIPE or
/// exit 0, as other command-line tools do.
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    for args in [&["games"][..], &["--help"][..], &["games", "--json"][..]] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = gridbot(None)
            .args(args)
            .stdout(Stdio::from(writer))
            .stderr(Stdio::piped())
            .output()
            .expect("gridbot runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        let quiet = out.status.success() || out.status.signal() == Some(libc::SIGPIPE);
        assert!(quiet, "{args:?}: {:?}, stderr {stderr}", out.status);
    }
}

/// A browser run leaves no file behind: gridbot's profile folder and
/// Chromium's own `org.chromium.Chromium.*` folders live under the
/// `TMPDIR` gridbot was given, which must be empty again afterwards.
#[test]
fn a_browser_run_leaves_no_temporary_files() {
    let Some(root) = crate::util::shared_games("sgt-web/flood.html") else {
        return;
    };
    // A short path: Chromium keeps a socket under TMPDIR (107 bytes at most).
    let tmp = tempfile::tempdir_in("/tmp").expect("a temporary folder");
    let out = gridbot(None)
        .args(["demo", "flood", "--browser", "--games", "1"])
        .env("GRIDBOT_GAMES", &root)
        .env("TMPDIR", tmp.path())
        .output()
        .expect("gridbot runs");
    crate::util::assert_success(&out);
    let left: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "left behind in TMPDIR: {left:?}");
}
