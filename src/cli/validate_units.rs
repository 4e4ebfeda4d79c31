//! `gridbot validate GAME --games N --seed S --units A..B --out DIR`: a
//! validation campaign as a job of units ([`crate::units`]), for
//! campaigns too long for one machine. Unit k plays game k + 1 of the
//! run (the game of seed `S-(k+1)`, as the whole run plays it) on a
//! virtual display of its own, and its file holds the game's record and
//! problems as JSON; `gridbot merge DIR` writes the report of every game
//! in game order (`DIR/report.json`, the format of `--report`), prints
//! the run's table and summary, and fails when any game had a problem.
//!
//! The job's command is the words the user typed after `gridbot`
//! (without `--units` and `--out`): every option of a game's `validate`
//! changes what a unit plays, and the merge and the cluster rebuild the
//! job from those words.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;

use super::sgt_game::{print_row, validate_games, SgtGame, ValidateArgs};
use super::units::{Plan, Planned};
use crate::files::{self, Replace};
use crate::play::report::{self, table_header, GameRecord};
use crate::play::Solving;
use crate::units::{self, Job, JobError};

/// One unit's file: the game's record (none when its solver gave up) and
/// its problems.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct UnitResult {
    record: Option<GameRecord>,
    problems: Vec<String>,
}

/// What the merge of a validation found.
pub struct Validated {
    /// The games, in order.
    pub records: Vec<GameRecord>,
    /// Every game's problems.
    pub problems: Vec<String>,
}

/// A validation campaign as a job of units.
pub struct ValidateJob<S: SgtGame> {
    spec: S,
    args: ValidateArgs,
    words: Vec<String>,
}

impl<S: SgtGame + Sync> Job for ValidateJob<S> {
    type Merged = Validated;

    fn command(&self) -> Vec<String> {
        self.words.clone()
    }

    fn unit_count(&self) -> usize {
        self.args.games
    }

    fn run_unit(&self, k: usize) -> Result<Vec<u8>, JobError> {
        let mut rows = |r: &GameRecord| print_row(&self.spec, r);
        let (found, outcome) = validate_games(&self.spec, &self.args, k + 1, 1, false, &mut rows)?;
        outcome?;
        let result = UnitResult {
            record: found.records.into_iter().next(),
            problems: found.problems,
        };
        Ok(serde_json::to_vec_pretty(&result)?)
    }

    fn merge(
        &self,
        units: &[PathBuf],
        out: Option<&Path>,
        replace: Replace,
    ) -> Result<Validated, JobError> {
        let metric = super::sgt_game::Setup::prepare(&self.spec, &self.args.common)?
            .game
            .metric();
        let mut merged = Validated {
            records: Vec::new(),
            problems: Vec::new(),
        };
        for u in units {
            let shown = u.display().to_string();
            let text = files::read_text(&shown, 1 << 26, "a unit file")?;
            let r: UnitResult = serde_json::from_str(&text)
                .map_err(|e| format!("{shown}: not a validation unit: {e}"))?;
            merged.records.extend(r.record.map(|mut g| {
                g.metric = metric;
                g
            }));
            merged.problems.extend(r.problems);
        }
        if let Some(out) = out {
            report::write_report(out, &merged.records, replace)?;
        }
        Ok(merged)
    }
}

/// Runs `validate GAME ... --units A..B --out DIR`: each unit on its own
/// virtual display, one after the other.
pub fn run_units<S: SgtGame + Sync + Clone>(
    spec: &S,
    args: ValidateArgs,
) -> anyhow::Result<ExitCode> {
    let (first, last) = args.units.context("--units")?;
    let dir = args.out.clone().context("--units needs --out DIR")?;
    let job = ValidateJob {
        spec: spec.clone(),
        args,
        words: super::units::own_words("validate"),
    };
    // One unit at a time: a unit's virtual display is this process's.
    super::units::run_range(&dir, &job, (first, last), 1)
}

/// `validate GAME` as a job for `gridbot merge` and `gridbot cluster`,
/// for a game whose own arguments `C` hold the shared [`ValidateArgs`]
/// and make its [`SgtGame`] (`split`).
pub fn validate_plan<C, S>(
    words: &[String],
    split: fn(C) -> (S, ValidateArgs),
) -> anyhow::Result<Box<dyn Plan>>
where
    C: clap::Args + clap::FromArgMatches,
    S: SgtGame + Sync + 'static,
{
    let (spec, args) = split(super::units::parse_words::<C>(words)?);
    anyhow::ensure!(
        args.units.is_none() && args.out.is_none(),
        "`gridbot {}`: --units and --out are not part of a job's command",
        units::command_line(words)
    );
    anyhow::ensure!(
        args.seed.is_some(),
        "`gridbot {}`: a validation split into units needs --seed, so that each unit plays \
         the same game wherever it runs",
        units::command_line(words)
    );
    let job = ValidateJob {
        spec,
        args,
        words: words.to_vec(),
    };
    Ok(Box::new(Planned {
        job,
        output: "report.json",
        report: Box::new(print_validated),
    }))
}

/// Prints a merged validation as the local run does, and fails when any
/// game had a problem.
fn print_validated(v: &Validated) -> anyhow::Result<()> {
    println!("{}", table_header());
    for r in &v.records {
        println!("{}", report::table_row(r));
    }
    if !v.records.is_empty() {
        print!("{}", report::Summary::of(&v.records).to_text());
    }
    for p in &v.problems {
        eprintln!("validate: {p}");
    }
    anyhow::ensure!(
        v.problems.is_empty(),
        "{} problem(s) in {} games",
        v.problems.len(),
        v.records.len()
    );
    Ok(())
}
