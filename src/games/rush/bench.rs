//! The benchmark behind `gridbot bench rush FILE`: solves every puzzle of
//! a file on the calling thread and compares each length with the file's
//! MOVES column.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use serde::Serialize;

use super::board::Move;
use super::parse::Puzzle;
use super::search::steps;
use super::solve::{solve, Strategy};
use crate::measure::{median, timed, Timing};
use crate::solver::{Budget, Outcome};

/// A puzzle whose solver length differs from its MOVES column, or that was
/// not solved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// Line of the file.
    pub line: usize,
    /// The MOVES column.
    pub expected: Option<u32>,
    /// The length found (`None`: unsolvable or stopped).
    pub found: Option<u32>,
    /// The solver's claim: proven, unproven or unsolvable.
    pub optimal: &'static str,
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

/// One puzzle's search: its outcome and its time.
struct Solved {
    outcome: Outcome<Move>,
    timing: Timing,
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
    let done = AtomicUsize::new(0);
    let solved: Vec<Solved> = puzzles
        .par_iter()
        .map(|p| {
            let (outcome, timing) = timed(|| solve(&p.board, p.start, strategy, &budget()));
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            Solved { outcome, timing }
        })
        .collect();
    let mut report = BenchReport {
        strategy,
        puzzles: puzzles.len(),
        proven: 0,
        total_moves: 0,
        total_steps: 0,
        nodes: 0,
        mismatches: Vec::new(),
        cpu_ms: 0.0,
        wall_ms: 0.0,
        median_ms: 0.0,
        max_ms: 0.0,
        max_line: 0,
    };
    let mut times = Vec::with_capacity(puzzles.len());
    let mut cpu = Duration::ZERO;
    for (p, s) in puzzles.iter().zip(&solved) {
        let o = &s.outcome;
        let ms = s.timing.wall.as_secs_f64() * 1e3;
        if ms > report.max_ms {
            report.max_ms = ms;
            report.max_line = p.line;
        }
        times.push(ms);
        cpu += s.timing.cpu;
        report.nodes += o.nodes;
        report.proven += o.proven_optimal as usize;
        let found = o.len().map(|l| l as u32);
        if let Some(m) = &o.moves {
            report.total_moves += m.len() as u64;
            report.total_steps += steps(m) as u64;
        }
        if found.is_none() || (p.moves.is_some() && found != p.moves) {
            report.mismatches.push(Mismatch {
                line: p.line,
                expected: p.moves,
                found,
                optimal: o.optimality(),
            });
        }
    }
    report.cpu_ms = cpu.as_secs_f64() * 1e3;
    report.wall_ms = wall0.elapsed().as_secs_f64() * 1e3;
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
                optimal: "proven"
            }]
        );
    }
}
