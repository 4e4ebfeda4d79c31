//! The reference PuzzleScript engine replaying the same sessions under
//! node, for the side-by-side speed figures of `bench puzzlescript
//! --conformance FILE --reference [PAGE]`. The engine is not part of
//! gridbot: it is read at run time from its standalone page (by default
//! `puzzlescript/standalone_inlined.txt` in the third-party games folder,
//! `$GRIDBOT_GAMES` or `../shared/games`), and `reference.js`, gridbot's
//! own harness, loads its scripts with a stubbed browser and replays the
//! sessions as the engine's test framework does.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// gridbot's node harness (see its header comment).
const HARNESS: &str = include_str!("reference.js");

/// What the reference engine did with the sessions.
#[derive(Debug, Clone, Deserialize)]
pub struct ReferenceRun {
    /// Sessions replayed.
    pub sessions: usize,
    /// Sessions whose final level matched the recording.
    pub matches: usize,
    /// Sessions that threw.
    pub failed: usize,
    /// Turns played (again turns included).
    pub turns: usize,
    /// Wall seconds of the whole replay.
    pub seconds: f64,
    /// CPU seconds spent compiling sources and loading levels.
    pub compile_seconds: f64,
    /// CPU seconds spent playing turns.
    pub turn_seconds: f64,
    /// node's version.
    #[serde(skip)]
    pub node: String,
}

/// Why the reference could not be run.
#[derive(Debug, thiserror::Error)]
pub enum ReferenceError {
    /// No engine page given and none in the games folder.
    #[error("the reference engine's page was not found: give it as --reference PAGE (the engine's standalone_inlined.txt), or set GRIDBOT_GAMES to the folder that holds puzzlescript/ (the project's ../shared/games)")]
    NoPage,
    /// The page cannot be read.
    #[error("the reference engine's page: {0}")]
    Unreadable(#[from] crate::files::FileError),
    /// The page holds no PuzzleScript engine.
    #[error("{0}: not the PuzzleScript engine's standalone page (no `processInput` in it): give the engine's standalone_inlined.txt")]
    NotEngine(String),
    /// node is missing or failed.
    #[error("running the reference engine under node: {0}")]
    Node(String),
}

/// The largest page read (the engine's is about 480 KB).
const MAX_PAGE_BYTES: u64 = 64 << 20;

/// The engine page: `page` when given, else the games folder's; checked
/// to be a readable page that holds the engine, before any work is done.
pub fn engine_page(page: Option<&Path>) -> Result<PathBuf, ReferenceError> {
    let path = match page.filter(|p| !p.as_os_str().is_empty()) {
        Some(p) => p.to_path_buf(),
        None => crate::hosts::sgt_web::games_dir()
            .map(|d| d.join("puzzlescript").join("standalone_inlined.txt"))
            .filter(|p| p.is_file())
            .ok_or(ReferenceError::NoPage)?,
    };
    let shown = path.display().to_string();
    let text = crate::files::read_text(&shown, MAX_PAGE_BYTES, "an engine page")?;
    if !text.contains("processInput") {
        return Err(ReferenceError::NotEngine(shown));
    }
    Ok(path)
}

/// Replays the sessions of `sessions` (the file `bench` read) with the
/// engine of `page` under node.
pub fn run_reference(page: &Path, sessions: &Path) -> Result<ReferenceRun, ReferenceError> {
    let (line, version) = run_harness(page, &[sessions.as_os_str()])?;
    let mut run: ReferenceRun = serde_json::from_str(&line)
        .map_err(|e| ReferenceError::Node(format!("the harness printed {line:?}: {e}")))?;
    run.node = version;
    Ok(run)
}

/// One of gridbot's solutions, to be played by the reference engine.
#[derive(Debug, Clone)]
pub struct Solution {
    /// The game's source file.
    pub file: PathBuf,
    /// The level's index in the source's levels (messages counted).
    pub index: usize,
    /// The keys, one character each over `udlrx`.
    pub keys: String,
    /// The random numbers' seed (the one gridbot searched with).
    pub seed: String,
}

/// Plays each solution on the engine of `page` under node, each from its
/// level's start with its seed: per solution, whether the level was won.
pub fn replay_solutions(page: &Path, solutions: &[Solution]) -> Result<Vec<bool>, ReferenceError> {
    #[derive(Deserialize)]
    struct Won {
        won: Vec<bool>,
    }
    let node = |e: String| ReferenceError::Node(e);
    let dir = tempfile::tempdir().map_err(|e| node(e.to_string()))?;
    let list = dir.path().join("solutions.json");
    let rows: Vec<_> = solutions
        .iter()
        .map(|s| serde_json::json!([s.file, s.index, s.keys, s.seed]))
        .collect();
    std::fs::write(&list, serde_json::to_string(&rows).unwrap_or_default())
        .map_err(|e| node(e.to_string()))?;
    let (line, _) = run_harness(page, &["--solutions".as_ref(), list.as_os_str()])?;
    let won: Won = serde_json::from_str(&line)
        .map_err(|e| node(format!("the harness printed {line:?}: {e}")))?;
    if won.won.len() != solutions.len() {
        return Err(node(format!(
            "the harness answered for {} solutions of {}",
            won.won.len(),
            solutions.len()
        )));
    }
    Ok(won.won)
}

/// Runs the harness on the engine of `page` with `args`: its last line of
/// output, and node's version.
fn run_harness(page: &Path, args: &[&std::ffi::OsStr]) -> Result<(String, String), ReferenceError> {
    let node = |e: String| ReferenceError::Node(e);
    let dir = tempfile::tempdir().map_err(|e| node(e.to_string()))?;
    let harness = dir.path().join("reference.js");
    std::fs::write(&harness, HARNESS).map_err(|e| node(e.to_string()))?;
    let version = crate::process::child("node")
        .arg("--version")
        .output()
        .map_err(|e| {
            node(format!(
                "node could not start ({e}); install it (Debian: nodejs)"
            ))
        })?;
    let out = crate::process::child("node")
        .arg(&harness)
        .arg(page)
        .args(args)
        .output()
        .map_err(|e| node(e.to_string()))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = err.lines().rev().take(5).collect();
        return Err(node(format!(
            "node exited with {}: {}",
            out.status,
            tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
        )));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().last().unwrap_or("").to_string();
    let version = String::from_utf8_lossy(&version.stdout).trim().to_string();
    Ok((line, version))
}
