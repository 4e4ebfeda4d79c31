//! `gridbot bench GAME FILE --units A..B --out DIR`: a bench over a file
//! of boards as a job of units ([`crate::units`]), whatever the game.
//!
//! Unit k solves boards `k * N + 1` to `(k + 1) * N` of the file (N =
//! `--unit-boards`) and writes one JSON line a board (the game's
//! [`BenchGame::Row`]); `gridbot merge DIR` joins the rows in file order
//! into the game's report (`DIR/report.json`, the JSON the local run
//! prints with `--json`) and prints it as the local run does, failing as
//! the local run fails. Every figure of the merged report is the local
//! run's but the times (wall and CPU times, and what is chosen by them:
//! the slowest board) and the facts of the machine that ran it (threads,
//! peak memory, a pattern database's build): each game's local run makes
//! its report from the same rows with the same function, so the two
//! cannot drift apart.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::args::{parse_number, parse_span};
use super::units::{Plan, Planned};
use crate::files::{self, Replace};
use crate::units::{self, Job, JobError};

/// A game's bench over a file of boards, as its job of units sees it.
pub trait BenchGame: Sync + Send {
    /// One board's figures (a unit's file holds one JSON line a board).
    type Row: Serialize + DeserializeOwned + Send;
    /// The report of a whole run.
    type Report;

    /// How many boards the bench solves.
    fn boards(&self) -> usize;

    /// The rows of boards `range`, in file order, solved on rayon's
    /// current pool.
    fn solve(&self, range: Range<usize>) -> Result<Vec<Self::Row>, JobError>;

    /// The report of every board's row, in file order; its run's wall
    /// time is summed from the rows' times (the units ran wherever a
    /// cluster put them).
    fn report(&self, rows: Vec<Self::Row>) -> Result<Self::Report, JobError>;

    /// The text of `report.json`: the JSON the local run prints with
    /// `--json`.
    fn json(&self, report: &Self::Report) -> Result<String, JobError>;

    /// Prints `report` as the local run does without `--json`, and fails
    /// where the local run exits with failure.
    fn print(&self, report: &Self::Report) -> anyhow::Result<()>;
}

/// The options that split a bench into units (every `bench GAME FILE`
/// has them).
#[derive(Debug, Clone, clap::Args)]
pub struct UnitOptions {
    /// Run only units A..B (unit k: boards k * N + 1 to (k + 1) * N of
    /// the file, N = `--unit-boards`) into the job folder `--out DIR`;
    /// `gridbot merge DIR` writes the report (see `gridbot cluster`).
    #[arg(long, value_name = "A..B", requires = "out",
          value_parser = parse_span::<0, { u32::MAX as u64 }>)]
    pub units: Option<(u32, u32)>,
    /// The job folder of `--units`.
    #[arg(long, value_name = "DIR", requires = "units")]
    pub out: Option<PathBuf>,
    /// Boards per unit of a bench split into units.
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = parse_number::<usize, 1, 1_000_000>)]
    pub unit_boards: usize,
}

/// A bench as a job of units.
pub struct BenchJob<G> {
    game: Arc<G>,
    per_unit: usize,
    words: Vec<String>,
}

impl<G: BenchGame> BenchJob<G> {
    /// The bench `game` in units of `per_unit` boards, made by the command
    /// `words` (after `gridbot`, without `--units` and `--out`).
    pub fn new(game: Arc<G>, per_unit: usize, words: Vec<String>) -> BenchJob<G> {
        BenchJob {
            game,
            per_unit,
            words,
        }
    }
}

impl<G: BenchGame> Job for BenchJob<G> {
    type Merged = G::Report;

    fn command(&self) -> Vec<String> {
        self.words.clone()
    }

    fn unit_count(&self) -> usize {
        self.game.boards().div_ceil(self.per_unit)
    }

    fn run_unit(&self, k: usize) -> Result<Vec<u8>, JobError> {
        let first = k * self.per_unit;
        let last = (first + self.per_unit).min(self.game.boards());
        let mut bytes = Vec::new();
        for r in self.game.solve(first..last)? {
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
    ) -> Result<G::Report, JobError> {
        let mut rows = Vec::with_capacity(self.game.boards());
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
        let r = self.game.report(rows)?;
        if let Some(out) = out {
            let text = self.game.json(&r)? + "\n";
            files::write_all(out, text.as_bytes(), replace)?;
        }
        Ok(r)
    }
}

/// Refuses, for the command `words`, an option of the local run that a
/// bench split into units cannot honour (`refused`: the option's name and
/// why, when one is given): a clear error, never an option ignored.
pub fn refuse(words: &[String], refused: Option<String>) -> anyhow::Result<()> {
    match refused {
        Some(why) => anyhow::bail!(
            "`gridbot {}`: {why}; a bench split into units cannot take it",
            units::command_line(words)
        ),
        None => Ok(()),
    }
}

/// Runs `bench GAME ...` with `--units A..B --out DIR` (see `units`):
/// the units asked for of `game`, on `threads` workers (`None`: rayon's
/// default, which a cluster task's `RAYON_NUM_THREADS` sets to its CPUs).
pub fn run_units<G: BenchGame>(
    game: G,
    units: &UnitOptions,
    json: bool,
    threads: Option<usize>,
) -> anyhow::Result<ExitCode> {
    let threads = threads.unwrap_or_else(rayon::current_num_threads);
    let words = super::units::own_words("bench");
    refuse(
        &words,
        json.then(|| "--json (the merge writes the report as JSON, report.json)".to_string()),
    )?;
    let range = units.units.expect("run_units is called with --units");
    let dir = units.out.clone().expect("clap requires --out with --units");
    let job = BenchJob::new(Arc::new(game), units.unit_boards, words);
    super::units::run_range(&dir, &job, range, threads)
}

/// `bench GAME` as a job for `gridbot merge` and `gridbot cluster`: the
/// bench `game` of the command `words`, whose `--units`, `--out` and
/// `--json` must be absent (`units`, `json`: as parsed from the words).
pub fn bench_plan<G: BenchGame + 'static>(
    game: G,
    words: &[String],
    units: &UnitOptions,
    json: bool,
) -> anyhow::Result<Box<dyn Plan>> {
    anyhow::ensure!(
        units.units.is_none() && units.out.is_none() && !json,
        "`gridbot {}`: --units, --out and --json are not part of a job's command",
        units::command_line(words)
    );
    let game = Arc::new(game);
    let printer = Arc::clone(&game);
    Ok(Box::new(Planned {
        job: BenchJob::new(game, units.unit_boards, words.to_vec()),
        output: "report.json",
        report: Box::new(move |r| printer.print(r)),
    }))
}
