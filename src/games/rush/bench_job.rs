//! `gridbot bench rush FILE --units A..B --out DIR`: Rush Hour's bench
//! as a job of units ([`crate::cli::bench_units`]). A unit writes one
//! JSON line a puzzle ([`Row`]); the merge joins them into the bench's
//! report (`DIR/report.json`, and the summary line of `bench rush`),
//! failing when a puzzle differs from its MOVES column. Every figure but
//! the times (`cpu_ms`, `wall_ms`, `median_ms`, `max_ms` and the slowest
//! puzzle's `max_line`) is the same as a local run's; the report's
//! `wall_ms` is the puzzles' wall times summed.

use std::ops::Range;
use std::process::ExitCode;

use super::bench::{report, solve_rows, BenchReport, Row};
use super::cli::{print_bench, BenchArgs};
use super::parse::Puzzle;
use super::solve::Strategy;
use crate::cli::args::SearchLimits;
use crate::cli::bench_units::BenchGame;
use crate::units::JobError;

/// The bench `bench rush FILE` runs, as a job of units sees it.
pub struct RushBench {
    puzzles: Vec<Puzzle>,
    strategy: Strategy,
    limits: SearchLimits,
}

impl RushBench {
    /// The bench `args` ask for over `puzzles`.
    pub fn new(args: &BenchArgs, puzzles: Vec<Puzzle>) -> RushBench {
        RushBench {
            puzzles,
            strategy: args.search.strategy,
            limits: args.search.limits.clone(),
        }
    }
}

impl BenchGame for RushBench {
    type Row = Row;
    type Report = BenchReport;

    fn boards(&self) -> usize {
        self.puzzles.len()
    }

    fn solve(&self, range: Range<usize>) -> Result<Vec<Row>, JobError> {
        Ok(solve_rows(
            &self.puzzles[range],
            self.strategy,
            || self.limits.budget(),
            &|_| {},
        ))
    }

    fn report(&self, rows: Vec<Row>) -> Result<BenchReport, JobError> {
        let wall = rows.iter().map(|r| r.wall_ms).sum();
        Ok(report(self.strategy, &rows, wall))
    }

    fn json(&self, r: &BenchReport) -> Result<String, JobError> {
        Ok(serde_json::to_string_pretty(r)?)
    }

    fn print(&self, r: &BenchReport) -> anyhow::Result<()> {
        if print_bench(r, false)? != ExitCode::SUCCESS {
            anyhow::bail!(
                "{} puzzle(s) differ from their MOVES column",
                r.mismatches.len()
            );
        }
        Ok(())
    }
}
