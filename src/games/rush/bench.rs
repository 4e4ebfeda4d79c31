//! The benchmark behind `gridbot bench rush FILE`: solves every puzzle of
//! a file on the calling thread and compares each length with the file's
//! MOVES column.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use serde::{Deserialize, Serialize};

use super::parse::Puzzle;
use super::search::steps;
use super::solve::{solve, Strategy};
use crate::measure::{median, timed};
use crate::solver::Budget;

/// A puzzle whose solver length differs from its MOVES column, or that was
/// not solved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mismatch {
    /// Line of the file.
    pub line: usize,
    /// The MOVES column.
    pub expected: Option<u32>,
    /// The length found (`None`: unsolvable or stopped).
    pub found: Option<u32>,
    /// The solver's claim: proven, unproven or unsolvable.
    pub optimal: String,
}

/// The figures of one benchmark run.
#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    /// The strategy used.
    pub strategy: Strategy,
    /// Puzzles solved.
    pub puzzles: usize,
    /// Puzzles whose length is proven optimal.
    pub proven: usize,
    /// Total moves of the solutions found.
    pub total_moves: u64,
    /// Total steps of the solutions found.
    pub total_steps: u64,
    /// Total positions expanded.
    pub nodes: u64,
    /// Puzzles that differ from their MOVES column.
    pub mismatches: Vec<Mismatch>,
    /// CPU time of the searches (each on its thread), ms.
    pub cpu_ms: f64,
    /// Wall time, ms.
    pub wall_ms: f64,
    /// Median wall time per puzzle, ms.
    pub median_ms: f64,
    /// Max wall time per puzzle, ms.
    pub max_ms: f64,
    /// The line of the slowest puzzle.
    pub max_line: usize,
}

/// One puzzle's figures: what a bench keeps of its search (and what a
/// unit of a bench split into units writes, one JSON line a puzzle).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Line of the file.
    pub line: usize,
    /// The MOVES column.
    pub expected: Option<u32>,
    /// The length found (`None`: unsolvable or stopped).
    pub found: Option<u32>,
    /// Steps of the solution found.
    pub steps: Option<u64>,
    /// The solver's claim: proven, unproven or unsolvable.
    pub optimal: String,
    /// Positions expanded.
    pub nodes: u64,
    /// Wall time of the search, ms.
    pub wall_ms: f64,
    /// CPU time of the search, ms.
    pub cpu_ms: f64,
}

/// Solves every puzzle with `strategy`, each within a fresh copy of
/// `budget` (made by `budget()`), in parallel on rayon's current pool (one
/// thread: one puzzle after another), calling `progress(done)` after each.
pub fn bench(
    puzzles: &[Puzzle],
    strategy: Strategy,
    budget: impl Fn() -> Budget + Sync,
    progress: &(dyn Fn(usize) + Sync),
) -> BenchReport {
    let wall0 = Instant::now();
    let rows = solve_rows(puzzles, strategy, budget, progress);
    report(strategy, &rows, wall0.elapsed().as_secs_f64() * 1e3)
}

/// Each puzzle's row (see [`bench`]).
pub fn solve_rows(
    puzzles: &[Puzzle],
    strategy: Strategy,
    budget: impl Fn() -> Budget + Sync,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Row> {
    let done = AtomicUsize::new(0);
    puzzles
        .par_iter()
        .map(|p| {
            let (o, timing) = timed(|| solve(&p.board, p.start, strategy, &budget()));
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            Row {
                line: p.line,
                expected: p.moves,
                found: o.len().map(|l| l as u32),
                steps: o.moves.as_ref().map(|m| steps(m) as u64),
                optimal: o.optimality().into(),
                nodes: o.nodes,
                wall_ms: timing.wall.as_secs_f64() * 1e3,
                cpu_ms: timing.cpu.as_secs_f64() * 1e3,
            }
        })
        .collect()
}

/// The report of `rows` (in file order) that took `wall_ms` in all.
pub fn report(strategy: Strategy, rows: &[Row], wall_ms: f64) -> BenchReport {
    let mut report = BenchReport {
        strategy,
        puzzles: rows.len(),
        proven: 0,
        total_moves: 0,
        total_steps: 0,
        nodes: 0,
        mismatches: Vec::new(),
        cpu_ms: 0.0,
        wall_ms,
        median_ms: 0.0,
        max_ms: 0.0,
        max_line: 0,
    };
    let mut times = Vec::with_capacity(rows.len());
    let mut cpu = Duration::ZERO;
    for r in rows {
        if r.wall_ms > report.max_ms {
            report.max_ms = r.wall_ms;
            report.max_line = r.line;
        }
        times.push(r.wall_ms);
        cpu += Duration::from_secs_f64(r.cpu_ms / 1e3);
        report.nodes += r.nodes;
        report.proven += (r.optimal == "proven") as usize;
        if let (Some(m), Some(st)) = (r.found, r.steps) {
            report.total_moves += u64::from(m);
            report.total_steps += st;
        }
        if r.found.is_none() || (r.expected.is_some() && r.found != r.expected) {
            report.mismatches.push(Mismatch {
                line: r.line,
                expected: r.expected,
                found: r.found,
                optimal: r.optimal.clone(),
            });
        }
    }
    report.cpu_ms = cpu.as_secs_f64() * 1e3;
    times.sort_by(f64::total_cmp);
    report.median_ms = median(&times).unwrap_or(0.0);
    report
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse_puzzles;
    use super::*;

    #[test]
    fn a_wrong_moves_column_is_flagged() {
        let ps = parse_puzzles(
            "51 BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo 4780\n50 BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo 4780\n",
        )
        .unwrap();
        let r = bench(&ps, Strategy::Bfs, Budget::unlimited, &|_| {});
        assert_eq!(r.puzzles, 2);
        assert_eq!(r.proven, 2);
        assert_eq!(r.total_moves, 102);
        assert_eq!(
            r.mismatches,
            vec![Mismatch {
                line: 2,
                expected: Some(50),
                found: Some(51),
                optimal: "proven".into()
            }]
        );
    }
}
