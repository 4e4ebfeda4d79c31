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
