//! The benchmark behind `gridbot bench klotski FILE`: solves every puzzle
//! of a file, one after another (each timed by the wall clock), and
//! compares each minimum with the file's `moves`.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::parse::Puzzle;
use super::solve::solve;
use crate::measure::timed;
use crate::solver::Budget;

/// One puzzle's result (and what a unit of a bench split into units
/// writes, one JSON line a puzzle).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Row {
    /// The puzzle's name.
    pub name: String,
    /// Its line in the file.
    pub line: usize,
    /// The minimum the file states.
    pub expected: Option<u32>,
    /// The length found (`None`: unsolvable or stopped).
    pub found: Option<u32>,
    /// The solver's claim: proven, unproven or unsolvable.
    pub optimal: String,
    /// Positions expanded.
    pub nodes: u64,
    /// Wall time, ms.
    pub ms: f64,
    /// What stopped the search, if something did.
    pub stopped: Option<String>,
}

impl Row {
    /// True when the puzzle was solved and agrees with its stated minimum
    /// (if any).
    pub fn agrees(&self) -> bool {
        self.found.is_some() && (self.expected.is_none() || self.found == self.expected)
    }
}

/// The figures of one run.
#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    /// One row a puzzle, in file order.
    pub rows: Vec<Row>,
    /// Total positions expanded.
    pub nodes: u64,
    /// Total wall time, ms.
    pub wall_ms: f64,
}

/// Solves every puzzle, each within a fresh `budget()`, calling
/// `progress(done)` after each.
pub fn bench(
    puzzles: &[Puzzle],
    budget: impl Fn() -> Budget,
    progress: &dyn Fn(usize),
) -> BenchReport {
    report(solve_rows(puzzles, budget, progress))
}

/// Each puzzle's row (see [`bench`]), one puzzle after another.
pub fn solve_rows(
    puzzles: &[Puzzle],
    budget: impl Fn() -> Budget,
    progress: &dyn Fn(usize),
) -> Vec<Row> {
    let mut rows = Vec::with_capacity(puzzles.len());
    for (i, p) in puzzles.iter().enumerate() {
        let (o, t) = timed(|| solve(&p.board, &p.start, &budget()));
        rows.push(Row {
            name: p.name.clone(),
            line: p.line,
            expected: p.moves,
            found: o.len().map(|l| l as u32),
            optimal: o.optimality().into(),
            nodes: o.nodes,
            ms: t.wall.as_secs_f64() * 1e3,
            stopped: o.stopped.map(|s| s.to_string()),
        });
        progress(i + 1);
    }
    rows
}

/// The report of `rows`, in file order: the run's wall time is the
/// puzzles' (they run one after another).
pub fn report(rows: Vec<Row>) -> BenchReport {
    let wall: Duration = rows
        .iter()
        .map(|r| Duration::from_secs_f64(r.ms / 1e3))
        .sum();
    BenchReport {
        nodes: rows.iter().map(|r| r.nodes).sum(),
        rows,
        wall_ms: wall.as_secs_f64() * 1e3,
    }
}
