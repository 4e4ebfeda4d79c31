//! The commands of jobs split into units ([`crate::units`]): `gridbot
//! merge DIR`, and what `gridbot cluster` needs to know of a job from its
//! command line. A job folder knows its job only by the command recorded
//! in its manifest; [`plan_of`] turns that command back into the job
//! (each command that can be split registers a constructor in [`PLANS`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args as ClapArgs, Command, FromArgMatches};

use crate::files::Replace;
use crate::units::{self, command_line, Job, JobDir, Manifest};

/// A job as the commands that know it only by its words see it.
pub trait Plan {
    /// The job's manifest (its canonical command, version, unit count).
    fn manifest(&self) -> Manifest;

    /// Where `gridbot merge DIR` writes when no `--out` is given: `FILE`
    /// for the folder `FILE.units` of a local run, else a file named for
    /// the output inside `DIR`.
    fn default_output(&self, dir: &Path) -> PathBuf;

    /// Merges the units of `dir` into `out` and prints the job's report.
    fn merge(&self, dir: &JobDir, out: &Path, replace: Replace) -> anyhow::Result<()>;

    /// The units of each stage (see [`Job::stages`]).
    fn stages(&self) -> Vec<std::ops::Range<usize>>;

    /// The file a merge into `out` writes last (see [`Job::output_file`]).
    fn output_file(&self, out: &Path) -> PathBuf;

    /// Merges stage `stage` (not the last) of `dir` and prints what it
    /// made.
    fn merge_stage(&self, dir: &JobDir, stage: usize) -> anyhow::Result<()>;

    /// Whether stage `stage`'s merge is already made.
    fn stage_merged(&self, stage: usize) -> bool;
}

/// A [`Job`] with the name of its output and how its merged result is
/// printed: what a command registers as its [`Plan`].
pub struct Planned<J: Job> {
    /// The job.
    pub job: J,
    /// The output's file name inside a job folder.
    pub output: &'static str,
    /// Prints the merged result as the local run does.
    pub report: Report<J::Merged>,
}

/// Prints a job's merged result.
pub type Report<M> = Box<dyn Fn(&M) -> anyhow::Result<()>>;

impl<J: Job> Plan for Planned<J> {
    fn manifest(&self) -> Manifest {
        Manifest::of(&self.job)
    }

    fn default_output(&self, dir: &Path) -> PathBuf {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        match name.as_deref().and_then(|n| n.strip_suffix(".units")) {
            Some(stem) if !stem.is_empty() => dir.with_file_name(stem),
            // A job whose output is its folder (the Fling! tables).
            _ if self.output.is_empty() => dir.to_path_buf(),
            _ => dir.join(self.output),
        }
    }

    fn merge(&self, dir: &JobDir, out: &Path, replace: Replace) -> anyhow::Result<()> {
        let merged = units::merge(dir, &self.job, Some(out), replace)?;
        (self.report)(&merged)
    }

    fn stages(&self) -> Vec<std::ops::Range<usize>> {
        self.job.stages()
    }

    fn output_file(&self, out: &Path) -> PathBuf {
        self.job.output_file(out)
    }

    fn merge_stage(&self, dir: &JobDir, stage: usize) -> anyhow::Result<()> {
        println!("{}", units::merge_stage(dir, &self.job, stage)?);
        Ok(())
    }

    fn stage_merged(&self, stage: usize) -> bool {
        self.job.stage_merged(stage)
    }
}

/// Makes a job from its command's words (after `gridbot`) and its job
/// folder.
pub type PlanOf = fn(&[String], &Path) -> anyhow::Result<Box<dyn Plan>>;

/// The commands that can be split into units: their first two words and
/// the constructor of their job.
pub const PLANS: &[(&str, &str, PlanOf)] = &[
    ("enumerate", "rush", crate::games::rush::cli::enumerate_plan),
    (
        "endgame",
        "fling",
        crate::games::fling::endgame_cli::endgame_plan,
    ),
    (
        "validate",
        "flood",
        crate::games::flood::hosted::validate_plan,
    ),
    ("validate", "pegs", crate::games::pegs::cli::validate_plan),
    (
        "validate",
        "fifteen",
        crate::games::fifteen::cli::hosted::validate_plan,
    ),
    ("bench", "rush", crate::games::rush::cli::bench_plan),
    ("bench", "klotski", crate::games::klotski::cli::bench_plan),
    ("bench", "pegs", crate::games::pegs::cli::bench_plan),
    ("bench", "fling", crate::games::fling::cli::bench_plan),
    (
        "bench",
        "flood",
        crate::games::flood::cli::bench::bench_plan,
    ),
    (
        "bench",
        "fifteen",
        crate::games::fifteen::cli::bench::bench_plan,
    ),
];

/// The job of the command `words` (after `gridbot`, without `--out` and
/// `--units`) in the job folder `dir`, or why it cannot be split.
pub fn plan_of(words: &[String], dir: &Path) -> anyhow::Result<Box<dyn Plan>> {
    let line = command_line(words);
    let known: Vec<String> = PLANS.iter().map(|(v, g, _)| format!("{v} {g}")).collect();
    let (_, _, make) = PLANS
        .iter()
        .find(|(v, g, _)| words.len() >= 2 && words[0] == *v && words[1] == *g)
        .ok_or_else(|| {
            anyhow::anyhow!(
                "`gridbot {line}` cannot be split into units (these can: {})",
                known.join(", ")
            )
        })?;
    let plan = make(words, dir)?;
    Ok(plan)
}

/// Parses the options of a command given as words (`VERB GAME OPTIONS...`)
/// into its `Args`.
pub fn parse_words<A: ClapArgs + FromArgMatches>(words: &[String]) -> anyhow::Result<A> {
    let cmd = A::augment_args(Command::new("gridbot").no_binary_name(true));
    let matches = cmd
        .try_get_matches_from(words.iter().skip(2))
        .map_err(|e| anyhow::anyhow!("`gridbot {}`: {}", command_line(words), e.render()))?;
    Ok(A::from_arg_matches(&matches)?)
}

/// The words after `gridbot` of this process's command line, from the
/// verb `verb` on, without `--units` and `--out` and their values: the
/// command of a job whose every option changes what its units do.
pub fn own_words(verb: &str) -> Vec<String> {
    words_from(std::env::args().skip(1).collect(), verb)
}

fn words_from(all: Vec<String>, verb: &str) -> Vec<String> {
    let start = all.iter().position(|w| w == verb).unwrap_or(0);
    let mut words = Vec::new();
    let mut skip = false;
    for w in &all[start..] {
        if std::mem::take(&mut skip) {
            continue;
        }
        if w == "--units" || w == "--out" {
            skip = true;
        } else if !w.starts_with("--units=") && !w.starts_with("--out=") {
            words.push(w.clone());
        }
    }
    words
}

/// Runs units `first..=last` of `job` into the job folder `dir` (made
/// when missing) on `threads` workers, and says how many ran now.
pub fn run_range<J: Job>(
    dir: &Path,
    job: &J,
    (first, last): (u32, u32),
    threads: usize,
) -> anyhow::Result<ExitCode> {
    let dir = JobDir::open(dir, Manifest::of(job))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let ran =
        pool.install(|| units::run_units(&dir, job, first as usize..=last as usize, |_, _| {}))?;
    println!(
        "units {first}..{last} of {} done ({ran} run now) in {}",
        job.unit_count(),
        dir.path().display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The job folder `dir` and its job, as its manifest says; the manifest's
/// command must still make the same job.
pub fn open_job(dir: &Path) -> anyhow::Result<(JobDir, Box<dyn Plan>)> {
    let found = JobDir::existing(dir)?;
    let plan = plan_of(&found.manifest().command, dir)?;
    let jd = JobDir::open(dir, plan.manifest())?;
    Ok((jd, plan))
}

/// `gridbot merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The job folder (the `--out DIR` of the runs with `--units`, or the
    /// `FILE.units` folder of a local run).
    dir: PathBuf,
    /// Write the output here (default: `FILE` for a folder `FILE.units`,
    /// else a file in DIR named for the output, e.g. `database.txt`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace an existing file given with --out.
    #[arg(long)]
    force: bool,
    /// Merge only this stage of a job in stages (not the last: its merge
    /// is the job's), which the next stage's units need.
    #[arg(long, value_name = "S", conflicts_with_all = ["out", "force"],
          value_parser = crate::cli::args::parse_number::<usize, 0, 1_000_000>)]
    stage: Option<usize>,
}

/// Checks that every unit of the folder is done and consistent, then
/// writes the output a local run writes.
pub fn run_merge(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let (dir, plan) = open_job(&args.dir)?;
    if let Some(stage) = args.stage {
        plan.merge_stage(&dir, stage)?;
        eprintln!(
            "merged the {} units of stage {stage}",
            plan.stages().get(stage).map_or(0, |r| r.len())
        );
        return Ok(ExitCode::SUCCESS);
    }
    let (out, replace) = match &args.out {
        Some(out) => (out.clone(), Replace::from_force(args.force)),
        // The job's own output, as the local run replaces it.
        None => (plan.default_output(&args.dir), Replace::Allow),
    };
    plan.merge(&dir, &out, replace)?;
    eprintln!(
        "merged {} units into {}",
        dir.manifest().units,
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_words_drop_the_global_options_units_and_out() {
        let all = "-v bench rush f.txt --units 0..3 --out=d --threads 1 --out d2"
            .split(' ')
            .map(String::from)
            .collect();
        assert_eq!(
            words_from(all, "bench"),
            ["bench", "rush", "f.txt", "--threads", "1"]
        );
    }
}
