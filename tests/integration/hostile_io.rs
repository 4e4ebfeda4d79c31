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

/// A FIFO with no writer and `/dev/zero` (endless) in `dir`, for inputs.
fn fifo_in(dir: &std::path::Path) -> std::path::PathBuf {
    let fifo = dir.join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) on a fresh path in our own temporary folder.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    fifo
}

/// Runs gridbot with a watchdog: a command that blocks on its input (a
/// FIFO nobody writes) or reads `/dev/zero` without end fails the test
/// instead of hanging it.
fn run_bounded(args: &[&str]) -> std::process::Output {
    let mut child = gridbot(None)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gridbot runs");
    let end = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > end {
            let _ = child.kill();
            panic!("gridbot {args:?} did not finish within 20 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Every command that reads a file refuses a directory, a FIFO with no
/// writer and an endless device at once, naming the path and what it is.
#[test]
fn special_files_as_inputs_are_refused_by_every_reader() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = fifo_in(dir.path());
    let d = dir.path().to_str().unwrap();
    let f = fifo.to_str().unwrap();
    let png = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/flood/4k-14x14c6.png");
    let cases: Vec<Vec<&str>> = [
        vec!["solve", "gemji"],
        vec!["analyse", "fling"],
        vec!["bench", "flood"],
        vec!["bench", "fifteen"],
        vec!["bench", "rush"],
        vec!["bench", "pegs"],
        vec!["solve", "flood"],
        vec!["solve", "rush"],
        vec!["solve", "pegs"],
        vec!["read", "flood", png, "--calibration"],
        vec!["generate", "rush", "--moves", "5", "--database"],
        vec!["solve", "puzzlescript"],
        vec!["bench", "puzzlescript", "--conformance"],
    ]
    .into_iter()
    .collect();
    for case in cases {
        for (input, kind) in [
            (d, "a directory"),
            (f, "a FIFO"),
            ("/dev/zero", "a character device"),
        ] {
            let mut args = case.clone();
            args.push(input);
            let out = run_bounded(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
            assert!(!err.contains("panicked"), "{args:?}: {err}");
            assert!(err.contains(input) && err.contains(kind), "{args:?}: {err}");
        }
    }
}

/// A file holding `text` in a fresh temporary folder (kept while the
/// folder is).
fn file_holding(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("boards.txt");
    std::fs::write(&file, text).unwrap();
    (dir, file)
}

/// A bench of an empty file (or one of comments only) is an error, not a
/// report of nothing.
#[test]
fn a_bench_of_no_boards_is_an_error() {
    let (_dir, empty) = file_holding("\n\n");
    for game in ["flood", "fifteen", "rush", "pegs"] {
        let out = run_bounded(&["bench", game, empty.to_str().unwrap()]);
        crate::util::assert_clean_failure(&out, "no board");
    }
}

/// An inline board that does not parse is reported as a bad board, not as
/// a missing file; a long argument is shortened in the message.
#[test]
fn a_bad_inline_board_is_not_called_a_missing_file() {
    let out = run_bounded(&["solve", "rush", "AA....|xx"]);
    let err = crate::util::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("no such file"), "{err}");
    // Under the kernel's 128 KiB limit for one argument.
    let long = "1".repeat(100_000);
    let out = run_bounded(&["solve", "flood", &long]);
    let err = crate::util::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.len() < 2_000,
        "the whole input was echoed: {} bytes",
        err.len()
    );
}

/// `bench fifteen` on boards written for the other goal says so and names
/// the option, instead of "0 solved".
#[test]
fn bench_fifteen_on_the_other_goal_says_which_option() {
    // One move from Korf's goal (gap first): the wrong parity for the
    // gap-last goal of sgt-fifteen.
    let (_dir, file) = file_holding("1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n");
    let out = run_bounded(&["bench", "fifteen", file.to_str().unwrap()]);
    crate::util::assert_clean_failure(&out, "--goal blank-first");
}

/// Outputs: an existing file is kept unless --force; a device is written
/// through and stays a device; a failed run leaves no partial file.
#[test]
fn existing_outputs_are_kept_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let keep = dir.path().join("keep.png");
    std::fs::write(&keep, "mine").unwrap();
    let k = keep.to_str().unwrap();
    let png = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/flood/4k-14x14c6.png");
    let cases: Vec<Vec<&str>> = vec![
        vec!["screenshot", "-o", k],
        vec!["calibrate", "flood", png, "--output", k],
        vec!["analyse", "fling", FLING_BOARD, "--png", k],
    ];
    for args in cases {
        let out = run_bounded(&args);
        let err = crate::util::stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("already exists") && err.contains("--force"),
            "{args:?}: {err}"
        );
        assert_eq!(
            std::fs::read(&keep).unwrap(),
            b"mine",
            "{args:?} clobbered the file"
        );
    }
    // With --force the file is replaced (calibrate needs no display).
    let out = run_bounded(&["calibrate", "flood", png, "--output", k, "--force"]);
    crate::util::assert_success(&out);
    assert!(std::fs::read_to_string(&keep).unwrap().contains("palette"));
    // A device is written through.
    let out = run_bounded(&["analyse", "fling", FLING_BOARD, "--png", "/dev/null"]);
    crate::util::assert_success(&out);
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    // Nothing half-made was left beside the outputs.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().ends_with(".partial"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A file where a folder is needed is named once, clearly.
#[test]
fn a_file_where_a_folder_is_needed_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let png = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/flood/4k-14x14c6.png");
    let out = run_bounded(&[
        "read",
        "flood",
        png,
        "--dump-stages",
        file.to_str().unwrap(),
    ]);
    let err = crate::util::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("where a folder is needed"), "{err}");
    assert_eq!(err.matches("File exists").count(), 0, "{err}");
}

/// Every numeric option of every verb refuses a negative number, a word,
/// a float too large for any range and a number past 2^64 with a usage
/// error (exit 2) at once: nothing panics or starts work on them.
#[test]
fn numeric_options_refuse_nonsense_everywhere() {
    // Value names of options that take text, not numbers.
    const TEXT: &[&str] = &[
        "FILE",
        "DIR",
        "TITLE",
        "PARAMS",
        "STRATEGY",
        "FORMAT",
        "GOAL",
        "PDB",
        "RULES",
        "CALIBRATION",
        "OUTPUT",
        "OPTIMAL",
        "FILE.gif",
        "FILE.png",
        "PDB_DIR",
        "GAME",
        "WINDOW_TITLE",
        "OUT",
        "SETS_FILE",
        "TABLES",
        "DATABASE",
        "IMAGE",
        "NAME",
        "ID",
        "HOST",
        "BOARD",
        "PRESET",
        "DIFFICULTY",
        "START",
        "KEY",
        "DIRECTION",
        "LEVEL_SET",
        "SEED_PREFIX",
        "PUZZLE",
        "FINISH",
        "LIST",
        "WALKERS",
    ];
    let games = crate::util::stdout(&crate::util::run(gridbot(None).args(["games", "--json"])));
    let games: serde_json::Value = serde_json::from_str(&games).unwrap();
    let mut checked = 0;
    for g in games.as_array().unwrap() {
        for verb in g["verbs"].as_array().unwrap() {
            let mut cmd: Vec<String> = verb
                .as_str()
                .unwrap()
                .split(' ')
                .map(String::from)
                .collect();
            cmd.push(g["name"].as_str().unwrap().to_string());
            let help =
                crate::util::stdout(&crate::util::run(gridbot(None).args(&cmd).arg("--help")));
            for line in help.lines() {
                let Some((name, meta)) = option_of(line) else {
                    continue;
                };
                if TEXT.contains(&meta.as_str())
                    || name == "--seed" && (verb == "validate" || verb == "bench play")
                {
                    continue;
                }
                for bad in ["-1", "abc", "1e308", "99999999999999999999"] {
                    let mut args = cmd.clone();
                    args.push(format!("{name}={bad}"));
                    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
                    let out = run_bounded(&refs);
                    let err = crate::util::stderr(&out);
                    assert_eq!(out.status.code(), Some(2), "{args:?} was accepted: {err}");
                    assert!(!err.contains("panicked"), "{args:?}: {err}");
                    checked += 1;
                }
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} cases: the help format changed?"
    );
}

/// `--name <META>` from a line of clap's help.
fn option_of(line: &str) -> Option<(String, String)> {
    let t = line.trim_start();
    let t = t
        .strip_prefix("-")
        .filter(|_| t.len() > 4 && &t[2..4] == ", ")
        .map_or(t, |_| &t[4..]);
    let rest = t.strip_prefix("--")?;
    let (name, rest) = rest.split_once(' ')?;
    let meta = rest.strip_prefix('<')?.split_once('>')?.0;
    Some((format!("--{name}"), meta.to_string()))
}

/// The processes gridbot started (Xvfb, the window manager, the game) die
/// with it even when it is killed with SIGKILL and runs no clean-up.
#[test]
fn children_do_not_outlive_a_killed_gridbot() {
    let mut child = gridbot(None)
        .args([
            "demo",
            "flood",
            "--games",
            "1",
            "--pause-between-moves",
            "5000",
            "--no-status",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("gridbot runs");
    let pid = child.id();
    // Wait until it has started its display and the game.
    let kids = crate::util::poll(std::time::Duration::from_secs(60), || {
        let k = descendants(pid);
        (k.len() >= 2).then_some(k)
    });
    let Some(kids) = kids else {
        let _ = child.kill();
        panic!("gridbot did not start its display and game");
    };
    // SAFETY: kill(2) on our own child.
    assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGKILL) }, 0);
    child.wait().unwrap();
    let gone = crate::util::poll(std::time::Duration::from_secs(10), || {
        kids.iter().all(|k| !alive(*k)).then_some(())
    });
    let left: Vec<_> = kids
        .iter()
        .filter(|k| alive(**k))
        .map(|k| (k, comm(*k)))
        .collect();
    assert!(gone.is_some(), "outlived gridbot: {left:?}");
}

/// The processes under `pid` (children, grandchildren...).
fn descendants(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    let mut parents = vec![pid];
    while let Some(p) = parents.pop() {
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(k) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{k}/stat")) else {
                continue;
            };
            // The parent pid is the 2nd field after the ")" of the name.
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, r)| r.split_whitespace().nth(1));
            if ppid == Some(&p.to_string()) && !found.contains(&k) {
                found.push(k);
                parents.push(k);
            }
        }
    }
    found
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        s.rsplit_once(')')
            .is_some_and(|(_, r)| !r.trim_start().starts_with('Z'))
    })
}

fn comm(pid: u32) -> String {
    std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// A Fling! board of two balls, written inline.
const FLING_BOARD: &str = "o.o..../......./......./......./......./......./......./.......";

/// `enumerate rush --size 4 --out OUT` with `extra` options.
fn enumerate_into(out: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "enumerate",
        "rush",
        "--size",
        "4",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run_bounded(&args)
}

/// `enumerate rush --out`: an existing file that is not its own output is
/// kept without --force; a device (through a link) or a FIFO is refused and
/// no units folder is made beside it; a missing folder is named.
#[test]
fn enumerate_refuses_outputs_it_would_clobber() {
    let dir = tempfile::tempdir().unwrap();
    let keep = dir.path().join("keep.txt");
    std::fs::write(&keep, "mine").unwrap();
    let null = dir.path().join("null");
    std::os::unix::fs::symlink("/dev/null", &null).unwrap();
    let fifo = fifo_in(dir.path());
    let missing = dir.path().join("nope/db.txt");
    for (out, expected) in [
        (&keep, "--force"),
        (&null, "a character device"),
        (&fifo, "a FIFO"),
        (&missing, "does not exist"),
    ] {
        crate::util::assert_clean_failure(&enumerate_into(out, &[]), expected);
    }
    assert_eq!(std::fs::read(&keep).unwrap(), b"mine");
    let mut left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["fifo", "keep.txt", "null"]);
    // With --force the file is replaced by the database.
    crate::util::assert_success(&enumerate_into(&keep, &["--force"]));
    assert!(std::fs::read_to_string(&keep).unwrap().starts_with("7 "));
}
