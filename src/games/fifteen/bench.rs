//! The solver benchmark as a library function: solve every board of a
//! set, check lengths against known optima, and summarise moves, proofs,
//! nodes, CPU and wall time. The command line prints the report.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::pdb::PatternDb;
use super::rules::Board;
use super::solve::{solve, SolveOptions};
use crate::measure::{median, timed};

/// One board's result (and what a unit of a bench split into units
/// writes, one JSON line a board).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct BoardResult {
    /// 1-based line of the board in its file.
    pub line: usize,
    /// Moves found (None: none found within the budget).
    pub length: Option<usize>,
    /// Clicks (moves merged along lines).
    pub clicks: Option<usize>,
    /// Proven lower bound.
    pub lower_bound: u32,
    /// Proven optimal.
    pub proven: bool,
    /// Nodes expanded.
    pub nodes: u64,
    /// CPU time of the thread that solved it.
    pub cpu: Duration,
    /// The known optimum, when given.
    pub expected: Option<u32>,
    /// An error (bad parity, too large), if the board was not searched.
    pub error: Option<String>,
    /// The anytime solver's first solution (boards above 16 cells):
    /// its length.
    pub first_length: Option<usize>,
    /// Wall time to that first solution.
    pub first_time: Option<Duration>,
}

/// The whole set's summary.
#[derive(Debug, Clone, serde::Serialize)]
pub struct BenchReport {
    /// Boards.
    pub boards: usize,
    /// Boards solved.
    pub solved: usize,
    /// Sum of solution lengths (solved boards).
    pub total_moves: usize,
    /// Sum of clicks.
    pub total_clicks: usize,
    /// Boards proven optimal.
    pub proven: usize,
    /// Lines whose length differs from the known optimum: (line, found,
    /// expected).
    pub mismatches: Vec<(usize, Option<usize>, u32)>,
    /// Sum of per-board CPU times.
    pub search_cpu: Duration,
    /// Wall time of the whole run.
    pub wall: Duration,
    /// Median per-board CPU time.
    pub median_cpu: Duration,
    /// Largest per-board CPU time.
    pub max_cpu: Duration,
    /// Nodes in total.
    pub nodes: u64,
    /// Sum of the proven lower bounds.
    pub total_lower_bound: u64,
    /// Boards with a first solution from the anytime solver.
    pub first_solutions: usize,
    /// Median wall time to the first solution (anytime boards).
    pub median_first: Option<Duration>,
    /// Largest wall time to the first solution.
    pub max_first: Option<Duration>,
    /// Sum of the first solutions' lengths.
    pub total_first_moves: usize,
    /// Per board.
    pub results: Vec<BoardResult>,
}

/// Solves one board (on line `line`) and times it on this thread.
fn solve_one(
    line: usize,
    board: &Board,
    expected: Option<u32>,
    opts: &SolveOptions,
) -> BoardResult {
    let (r, t) = timed(|| solve(board, opts));
    let cpu = t.cpu;
    match r {
        Ok(s) => {
            let o = s.outcome;
            let clicks = o
                .moves
                .as_ref()
                .and_then(|m| super::rules::clicks(board, m).ok())
                .map(|c| c.len());
            BoardResult {
                line,
                length: o.len(),
                clicks,
                lower_bound: o.lower_bound,
                proven: o.proven_optimal,
                nodes: o.nodes,
                cpu,
                expected,
                error: None,
                first_length: s.first.map(|f| f.length),
                first_time: s.first.map(|f| f.time),
            }
        }
        Err(e) => BoardResult {
            line,
            length: None,
            clicks: None,
            lower_bound: 0,
            proven: false,
            nodes: 0,
            cpu,
            expected,
            error: Some(e.to_string()),
            first_length: None,
            first_time: None,
        },
    }
}

/// The summary of `results` (in file order), solved in `wall`.
pub fn summarise(results: Vec<BoardResult>, wall: Duration) -> BenchReport {
    let mut cpus: Vec<Duration> = results.iter().map(|r| r.cpu).collect();
    cpus.sort();
    let solved: Vec<&BoardResult> = results.iter().filter(|r| r.length.is_some()).collect();
    let mut firsts: Vec<Duration> = results.iter().filter_map(|r| r.first_time).collect();
    firsts.sort();
    BenchReport {
        total_lower_bound: results.iter().map(|r| r.lower_bound as u64).sum(),
        first_solutions: firsts.len(),
        median_first: median(&firsts),
        max_first: firsts.last().copied(),
        total_first_moves: results.iter().filter_map(|r| r.first_length).sum(),
        boards: results.len(),
        solved: solved.len(),
        total_moves: solved.iter().filter_map(|r| r.length).sum(),
        total_clicks: solved.iter().filter_map(|r| r.clicks).sum(),
        proven: results.iter().filter(|r| r.proven).count(),
        mismatches: results
            .iter()
            .filter_map(|r| match r.expected {
                Some(e) if r.length != Some(e as usize) => Some((r.line, r.length, e)),
                _ => None,
            })
            .collect(),
        search_cpu: cpus.iter().sum(),
        wall,
        median_cpu: median(&cpus).unwrap_or_default(),
        max_cpu: cpus.last().copied().unwrap_or_default(),
        nodes: results.iter().map(|r| r.nodes).sum(),
        results,
    }
}

/// Solves `boards` (with their 1-based lines) on rayon's current pool,
/// calling `progress(done)` after each.
pub fn run(
    boards: &[(usize, Board)],
    expected: Option<&[u32]>,
    pdb: Option<&PatternDb>,
    time_limit: Option<Duration>,
    progress: &(dyn Fn(usize) + Sync),
) -> BenchReport {
    let wall0 = Instant::now();
    let results = solve_boards(boards, expected, pdb, time_limit, progress);
    summarise(results, wall0.elapsed())
}

/// Each board's result (see [`run`]), in order; `expected` holds the
/// known optima of `boards`, line for line.
pub fn solve_boards(
    boards: &[(usize, Board)],
    expected: Option<&[u32]>,
    pdb: Option<&PatternDb>,
    time_limit: Option<Duration>,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<BoardResult> {
    let done = AtomicUsize::new(0);
    let opts = SolveOptions {
        pdb,
        time_limit,
        node_limit: None,
    };
    boards
        .par_iter()
        .enumerate()
        .map(|(i, (line, board))| {
            let expected = expected.and_then(|e| e.get(i).copied());
            let res = solve_one(*line, board, expected, &opts);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            res
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fifteen::parse::{parse_board, Convention};

    #[test]
    fn reports_mismatches() {
        let b = parse_board("1 2 3\n4 5 6\n7 0 8\n", Convention::BlankLast).unwrap();
        let boards = vec![(1, b.clone()), (2, b)];
        let r = run(&boards, Some(&[1, 2]), None, None, &|_| {});
        assert_eq!(r.total_moves, 2);
        assert_eq!(r.proven, 2);
        assert_eq!(r.mismatches, vec![(2, Some(1), 2)]);
    }
}
