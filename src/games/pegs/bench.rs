//! The Pegs benchmark as a library function: solve a list of boards one
//! after another on one thread and report what was decided and how long
//! each took.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use serde::{Deserialize, Serialize};

use super::parse::parse_game;
use super::rules::Game;
use super::solve::{SolveOptions, WinSolver};
use crate::measure::{median as median_of, timed};
use crate::solver::Budget;

/// Why boards for a benchmark could not be had.
#[derive(Debug, thiserror::Error)]
pub enum BoardsError {
    /// `sgt-pegs --generate` could not be run or failed.
    #[error("running {program} --generate {count} {preset}: {why}")]
    Generate {
        /// The program.
        program: String,
        /// Boards asked for.
        count: usize,
        /// The preset.
        preset: String,
        /// What went wrong.
        why: String,
    },
    /// A line is not a game.
    #[error("{source_name}: line {line}: {error}")]
    Parse {
        /// File name or "sgt-pegs output".
        source_name: String,
        /// 1-based line.
        line: usize,
        /// The parse error.
        error: super::parse::ParseError,
    },
    /// No boards at all.
    #[error("{0}: no boards")]
    Empty(String),
}

/// The `sgt-pegs` program: `/usr/games/sgt-pegs` when present, else on PATH.
pub fn sgt_pegs_program() -> String {
    let games = "/usr/games/sgt-pegs";
    if Path::new(games).exists() {
        games.to_string()
    } else {
        "sgt-pegs".to_string()
    }
}

/// Game IDs from `sgt-pegs --generate count preset` (e.g. `9x9random`,
/// `7x7octagon`, `7x7cross`).
pub fn generate(count: usize, preset: &str) -> Result<Vec<Game>, BoardsError> {
    let program = sgt_pegs_program();
    let err = |why: String| BoardsError::Generate {
        program: program.clone(),
        count,
        preset: preset.to_string(),
        why,
    };
    let out = crate::process::child(&program)
        .arg("--generate")
        .arg(count.to_string())
        .arg(preset)
        .output()
        .map_err(|e| err(e.to_string()))?;
    if !out.status.success() {
        return Err(err(format!(
            "{}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    parse_lines(&String::from_utf8_lossy(&out.stdout), "sgt-pegs output")
}

/// One game per non-blank line (`#` starts a comment line).
pub fn parse_lines(text: &str, source_name: &str) -> Result<Vec<Game>, BoardsError> {
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        games.push(parse_game(line).map_err(|error| BoardsError::Parse {
            source_name: source_name.to_string(),
            line: i + 1,
            error,
        })?);
    }
    if games.is_empty() {
        return Err(BoardsError::Empty(source_name.to_string()));
    }
    Ok(games)
}

/// One board's result (and what a unit of a bench split into units
/// writes, one JSON line a board).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BoardResult {
    /// Its game ID.
    pub id: String,
    /// `won`, `lost`, `unproven`, or `invalid` (the moves found do not
    /// replay to one peg: a solver bug).
    pub result: String,
    /// Positions expanded.
    pub nodes: u64,
    /// Thread CPU time in microseconds.
    pub cpu_us: u64,
    /// Wall time in microseconds.
    pub wall_us: u64,
}

/// A whole benchmark run.
#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    /// Boards run.
    pub boards: usize,
    /// Boards with a win found.
    pub solved: usize,
    /// Boards proven lost.
    pub lost: usize,
    /// Boards the budget left undecided.
    pub unproven: usize,
    /// Boards whose moves did not replay to a win (a solver bug).
    pub invalid: usize,
    /// Sum of thread CPU times, ms.
    pub cpu_ms: f64,
    /// Wall time of the run, ms.
    pub wall_ms: f64,
    /// Median wall time per board, ms.
    pub median_ms: f64,
    /// Largest wall time of a board, ms.
    pub max_ms: f64,
    /// Median thread CPU time per board, ms (what the machine's load does
    /// not inflate).
    pub median_cpu_ms: f64,
    /// Largest thread CPU time of a board, ms.
    pub max_cpu_ms: f64,
    /// The slowest board.
    pub slowest: String,
    /// Per board.
    pub per_board: Vec<BoardResult>,
}

/// Decides one board within `budget`, timed on the calling thread.
fn decide(g: &Game, budget: &Budget) -> BoardResult {
    let (o, t) = timed(|| {
        let mut solver = WinSolver::new(&g.board, SolveOptions::default());
        solver.solve(g.pegs, budget)
    });
    let jump_problem = super::rules::JumpProblem { board: &g.board };
    let result = if let Some(m) = &o.moves {
        // Every win is replayed: a search bug shows as `invalid`.
        if crate::solver::wins(&jump_problem, &g.pegs, m) {
            "won"
        } else {
            "invalid"
        }
    } else if o.proven_unsolvable {
        "lost"
    } else {
        "unproven"
    };
    BoardResult {
        id: g.id(),
        result: result.into(),
        nodes: o.nodes,
        cpu_us: t.cpu.as_micros() as u64,
        wall_us: t.wall.as_micros() as u64,
    }
}

/// Decides each of `games` with a fresh solver and `budget()` per board,
/// in parallel on rayon's current pool (one thread: one board after
/// another); `progress` is called with the count done after each board.
pub fn run(
    games: &[Game],
    budget: impl Fn() -> Budget + Sync,
    progress: &(dyn Fn(usize) + Sync),
) -> BenchReport {
    let start = Instant::now();
    let per_board = decide_all(games, budget, progress);
    report(per_board, start.elapsed().as_secs_f64() * 1000.0)
}

/// Each board's result (see [`run`]), in order.
pub fn decide_all(
    games: &[Game],
    budget: impl Fn() -> Budget + Sync,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<BoardResult> {
    let done = AtomicUsize::new(0);
    games
        .par_iter()
        .map(|g| {
            let r = decide(g, &budget());
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            r
        })
        .collect()
}

/// The report of every board's result, in order, of a run that took
/// `wall_ms`.
pub fn report(per_board: Vec<BoardResult>, wall_ms: f64) -> BenchReport {
    let mut walls: Vec<u64> = per_board.iter().map(|b| b.wall_us).collect();
    walls.sort_unstable();
    let median = median_of(&walls).unwrap_or(0);
    let mut cpus: Vec<u64> = per_board.iter().map(|b| b.cpu_us).collect();
    cpus.sort_unstable();
    let median_cpu = median_of(&cpus).unwrap_or(0);
    let slowest = per_board
        .iter()
        .max_by_key(|b| b.wall_us)
        .map(|b| b.id.clone())
        .unwrap_or_default();
    let count = |r: &str| per_board.iter().filter(|b| b.result == r).count();
    BenchReport {
        boards: per_board.len(),
        solved: count("won"),
        lost: count("lost"),
        unproven: count("unproven"),
        invalid: count("invalid"),
        cpu_ms: per_board.iter().map(|b| b.cpu_us).sum::<u64>() as f64 / 1000.0,
        wall_ms,
        median_ms: median as f64 / 1000.0,
        max_ms: walls.last().copied().unwrap_or(0) as f64 / 1000.0,
        median_cpu_ms: median_cpu as f64 / 1000.0,
        max_cpu_ms: cpus.last().copied().unwrap_or(0) as f64 / 1000.0,
        slowest,
        per_board,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_with_a_bad_board_name_the_line() {
        let e = parse_lines("3x1:PPH\n\n3x1:PQH\n", "f.txt").unwrap_err();
        assert!(e.to_string().starts_with("f.txt: line 3:"), "{e}");
        assert!(matches!(
            parse_lines("# only\n", "f"),
            Err(BoardsError::Empty(_))
        ));
        let games = parse_lines("3x1:PPH\n5x1:PHHHP\n", "f").unwrap();
        let r = run(&games, Budget::unlimited, &|_| {});
        assert_eq!((r.solved, r.lost, r.unproven), (1, 1, 0));
    }
}
