//! `gridbot endgame fling`: the endgame tables built as a job of units
//! ([`super::tables_job`]), locally (every unit, then the merges) or a
//! range of units at a time into a job folder (`--units A..B --out DIR`,
//! for `gridbot cluster`), and the job as `gridbot merge` and `gridbot
//! cluster` rebuild it from its command.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use serde_json::json;

use super::cli::default_table_dir;
use super::endgame::{LevelStats, MAX_TABLE_BALLS};
use super::tables_job::{TablesJob, DEFAULT_UNIT_PLACEMENTS};
use crate::cli::args::{parse_number, parse_span};
use crate::cli::units::{parse_words, Plan, Planned};
use crate::files::Replace;
use crate::units::{self, Job, JobDir, Manifest};

/// `gridbot endgame fling --balls N`.
#[derive(Debug, Clone, Args)]
pub struct EndgameArgs {
    /// Build tables for 2..=N balls.
    #[arg(long, value_name = "N", value_parser = parse_number::<u32, 2, { MAX_TABLE_BALLS as u64 }>)]
    pub balls: u32,
    /// Write the tables into this directory (created if missing; by
    /// default `$XDG_CACHE_HOME/gridbot/fling`, else
    /// `~/.cache/gridbot/fling`). The units of the build go into its
    /// folder `units/`; those already done there are kept (each checked).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Also keep the levels an earlier run already merged into the
    /// directory (whole and with good checksums) instead of merging them
    /// again.
    #[arg(long)]
    pub resume: bool,
    /// Placements per unit (rounded up to a multiple of 64); a level is
    /// split into units of this many placements.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_UNIT_PLACEMENTS,
          value_parser = parse_number::<u64, 64, { 1u64 << 40 }>)]
    pub unit_placements: u64,
    /// Run only units A..B (numbered from 0, both included, stage after
    /// stage: the units of 2 balls first) into the job folder `--out
    /// DIR`; `gridbot merge DIR --stage S` merges a stage before the
    /// next one's units can run, `gridbot merge DIR` the last (see
    /// `gridbot cluster`).
    #[arg(long, value_name = "A..B", requires = "out",
          value_parser = parse_span::<0, { u32::MAX as u64 }>)]
    pub units: Option<(u32, u32)>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `endgame fling`.
pub fn run_endgame(args: &EndgameArgs) -> Result<ExitCode> {
    let out = match &args.out {
        Some(d) => d.clone(),
        None => default_table_dir()?,
    };
    if let Some((first, last)) = args.units {
        // Some units only, into the job folder `--out DIR` (which also
        // holds the tables its stages' merges write).
        let job = TablesJob::new(args.balls, args.unit_placements, &out, true)?;
        let dir = JobDir::open(&out, Manifest::of(&job))?;
        let range = first as usize..=last as usize;
        let ran = units::run_units(&dir, &job, range, |_, _| {})?;
        println!(
            "units {first}..{last} of {} done ({ran} run now) in {}",
            job.unit_count(),
            dir.path().display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    crate::files::ensure_dir(&out)?;
    let job = TablesJob::new(args.balls, args.unit_placements, &out, args.resume)?;
    let bar = crate::cli::progress_bar(job.unit_count() as u64);
    let t0 = Instant::now();
    let mut stage_start = Instant::now();
    let mut times = Vec::new();
    let stats = units::run_stages(
        &out.join("units"),
        &job,
        None,
        Replace::Allow,
        |done, _| bar.set_position(done),
        |_, line| {
            let secs = stage_start.elapsed().as_secs_f64();
            if !args.json {
                bar.suspend(|| println!("{line} time_s={secs:.1}"));
            }
            times.push(secs);
            stage_start = Instant::now();
        },
    )?;
    bar.finish_and_clear();
    times.push(stage_start.elapsed().as_secs_f64());
    let wall = t0.elapsed().as_secs_f64();
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(
                &json!({"levels": levels_json(&stats, &times), "wall_s": wall, "dir": out})
            )?
        );
    } else {
        if let Some(last) = stats.last() {
            println!("{} time_s={:.1}", last.line(), times.last().unwrap_or(&0.0));
        }
        println!(
            "built tables for 2..={} balls in {wall:.1} s into {}",
            args.balls,
            out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The levels' figures with the seconds each took (its units and merge;
/// a level merged by an earlier run shows only the time to check it).
fn levels_json(stats: &[LevelStats], times: &[f64]) -> Vec<serde_json::Value> {
    stats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut v = serde_json::to_value(s).expect("plain numbers");
            v["seconds"] = json!(times.get(i).copied().unwrap_or(0.0));
            v
        })
        .collect()
}

/// `endgame fling` as a job for `gridbot merge` and `gridbot cluster`:
/// `words` are the command's words after `gridbot` (`--out` and `--units`
/// left out), `dir` the job folder, which also holds the tables.
pub fn endgame_plan(words: &[String], dir: &Path) -> Result<Box<dyn Plan>> {
    let args: EndgameArgs = parse_words(words)?;
    anyhow::ensure!(
        args.units.is_none() && args.out.is_none() && !args.json,
        "`gridbot {}`: --units, --out and --json are not part of a job's command",
        units::command_line(words)
    );
    Ok(Box::new(Planned {
        job: TablesJob::new(args.balls, args.unit_placements, dir, true)?,
        output: "",
        report: Box::new(|stats: &Vec<LevelStats>| {
            for s in stats {
                println!("{}", s.line());
            }
            Ok(())
        }),
    }))
}
