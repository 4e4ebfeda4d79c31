//! `gridbot bench rush FILE --units A..B --out DIR`: a bench over a large
//! file as a job of units ([`crate::units`]). Unit k solves puzzles
//! `k * N + 1` to `(k + 1) * N` of the file (N = `--unit-boards`) and
//! writes one JSON line a puzzle ([`Row`]); `gridbot merge DIR` joins the
//! rows in file order into the bench's report (`DIR/report.json`, and the
//! summary line of `bench rush`), failing when a puzzle differs from its
//! MOVES column. Every figure but the times is the same as a local run's;
//! the report's `wall_ms` is the puzzles' wall times summed (the units
//! ran wherever the cluster put them).

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::bench::{report, solve_rows, BenchReport, Row};
use super::cli::BenchArgs;
use super::parse::Puzzle;
use super::solve::Strategy;
use crate::files::{self, Replace};
use crate::solver::Budget;
use crate::units::{self, Job, JobDir, JobError, Manifest};

/// A bench as a job of units.
pub struct BenchJob {
    puzzles: Vec<Puzzle>,
    strategy: Strategy,
    budget: Box<dyn Fn() -> Budget + Sync>,
    per_unit: usize,
    words: Vec<String>,
}

impl BenchJob {
    /// The bench `args` ask for over `puzzles`, made by the command
    /// `words` (after `gridbot`, without `--units` and `--out`).
    pub fn new(args: &BenchArgs, puzzles: Vec<Puzzle>, words: Vec<String>) -> BenchJob {
        let limits = args.search.limits.clone();
        BenchJob {
            puzzles,
            strategy: args.search.strategy,
            budget: Box::new(move || limits.budget()),
            per_unit: args.unit_boards,
            words,
        }
    }
}

impl Job for BenchJob {
    type Merged = BenchReport;

    fn command(&self) -> Vec<String> {
        self.words.clone()
    }

    fn unit_count(&self) -> usize {
        self.puzzles.len().div_ceil(self.per_unit)
    }

    fn run_unit(&self, k: usize) -> Result<Vec<u8>, JobError> {
        let first = k * self.per_unit;
        let last = (first + self.per_unit).min(self.puzzles.len());
        let rows = solve_rows(
            &self.puzzles[first..last],
            self.strategy,
            &self.budget,
            &|_| {},
        );
        let mut bytes = Vec::new();
        for r in rows {
            serde_json::to_writer(&mut bytes, &r)?;
            bytes.push(b'\n');
        }
        Ok(bytes)
    }

    fn merge(
        &self,
        units: &[PathBuf],
        out: Option<&Path>,
        replace: Replace,
    ) -> Result<BenchReport, JobError> {
        let mut rows: Vec<Row> = Vec::with_capacity(self.puzzles.len());
        for u in units {
            let shown = u.display().to_string();
            let text = files::read_text(&shown, files::BENCH_FILE_CAP, "a unit file")?;
            for (i, l) in text.lines().enumerate() {
                rows.push(
                    serde_json::from_str(l)
                        .map_err(|e| format!("{shown}:{}: not a bench row: {e}", i + 1))?,
                );
            }
        }
        let wall = rows.iter().map(|r| r.wall_ms).sum();
        let r = report(self.strategy, &rows, wall);
        if let Some(out) = out {
            let text = serde_json::to_string_pretty(&r)? + "\n";
            files::write_all(out, text.as_bytes(), replace)?;
        }
        Ok(r)
    }
}

/// Runs units `range` of the bench `args` ask for over `puzzles`.
pub fn run_units(
    args: BenchArgs,
    puzzles: Vec<Puzzle>,
    range: RangeInclusive<usize>,
) -> anyhow::Result<ExitCode> {
    let dir = args.out.clone().expect("clap requires --out with --units");
    let job = BenchJob::new(&args, puzzles, crate::cli::units::own_words("bench"));
    let dir = JobDir::open(&dir, Manifest::of(&job))?;
    let pool = crate::cli::bench::BenchOptions::pool(args.bench.threads.unwrap_or(1))?;
    let (first, last) = (*range.start(), *range.end());
    let ran = pool.install(|| units::run_units(&dir, &job, range, |_, _| {}))?;
    println!(
        "units {first}..{last} of {} done ({ran} run now) in {}",
        job.unit_count(),
        dir.path().display()
    );
    Ok(ExitCode::SUCCESS)
}
