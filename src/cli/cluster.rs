//! `gridbot cluster submit|status|resume`: a job of units ([`crate::units`])
//! as Slurm job arrays and a merge job, driven through Slurm's own command
//! line tools (`sbatch`, `squeue`, `scontrol`; never `sacct`, which needs
//! the accounting daemon).
//!
//! A submission writes, in `DIR/slurm/N/` (N counts the submissions), one
//! array script per `MaxArraySize` tasks (each task runs a range of units
//! with `--units A..B --out DIR`), a merge script that depends on every
//! array (`afterany`: the merge itself checks that every unit is done, and
//! `--kill-on-invalid-dep=yes` so that it never waits forever), and
//! `jobs.txt`, the job ids. Logs are appended to (`--open-mode=append`), so
//! a requeued task keeps the log of its first try. Whether a job did its
//! work is read from the job folder (the units' done markers, the merged
//! output), never from exit codes alone: `sbatch --wait` reports success
//! for a job its dependency cancelled.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant, SystemTime};

use anyhow::{bail, Context};

use crate::cli::args::parse_number;
use crate::cli::units::{open_job, plan_of, Plan};
use crate::files::{self, Replace};
use crate::units::{self, JobDir, UnitState};

/// `gridbot cluster`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Submit a job's units as Slurm job arrays, then its merge:
    /// `gridbot cluster submit [OPTIONS] -- gridbot COMMAND ... --out DIR`
    /// (DIR on a file system every node sees, as is this binary).
    Submit(SubmitArgs),
    /// Units done, running, pending and failed, the slowest units and a
    /// projected finish.
    Status(StatusArgs),
    /// Submit the units of DIR that are not done, then the merge.
    Resume(ResumeArgs),
}

/// What `sbatch` is told, for `submit` and `resume`.
#[derive(Debug, Clone, clap::Args)]
struct Options {
    /// Slurm partition (default: the cluster's default partition).
    #[arg(long, value_parser = parse_slurm_word)]
    partition: Option<String>,
    /// Most array tasks running at once, per array (`--array=...%N`).
    #[arg(long, value_parser = parse_number::<u32, 1, 1_000_000>)]
    max_parallel: Option<u32>,
    /// Time limit of one task, in Slurm's format (`MM`, `HH:MM:SS`,
    /// `D-HH:MM`).
    #[arg(long, value_parser = parse_slurm_time)]
    time: Option<String>,
    /// Memory of one task, in Slurm's format (`500M`, `4G`).
    #[arg(long, value_parser = parse_slurm_mem)]
    mem: Option<String>,
    /// Split the units into at most N array tasks, each a range of units
    /// (default: one task per unit).
    #[arg(long, value_parser = parse_number::<usize, 1, 1_000_000>)]
    tasks: Option<usize>,
    /// Print the scripts instead of writing and submitting them.
    #[arg(long)]
    dry_run: bool,
    /// Wait until the merge has finished; exit non-zero unless it merged
    /// every unit.
    #[arg(long, conflicts_with = "dry_run")]
    wait: bool,
}

/// `gridbot cluster submit`.
#[derive(Debug, clap::Args)]
struct SubmitArgs {
    #[command(flatten)]
    options: Options,
    /// `gridbot COMMAND ... --out DIR`: the job, as it would run locally
    /// with `--units`, and its folder.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// `gridbot cluster status`.
#[derive(Debug, clap::Args)]
struct StatusArgs {
    /// The job folder.
    dir: PathBuf,
}

/// `gridbot cluster resume`.
#[derive(Debug, clap::Args)]
struct ResumeArgs {
    #[command(flatten)]
    options: Options,
    /// The job folder.
    dir: PathBuf,
}

/// A Slurm name (partition): letters, digits, `-_.,`.
fn parse_slurm_word(text: &str) -> Result<String, String> {
    let ok = !text.is_empty()
        && text.len() <= 64
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.,".contains(c));
    ok.then(|| text.to_string())
        .ok_or_else(|| format!("{text:?} is not a Slurm partition name (letters, digits, - _ . ,)"))
}

/// A Slurm time limit: digits with `:` and one `-`.
fn parse_slurm_time(text: &str) -> Result<String, String> {
    let ok = !text.is_empty()
        && text.len() <= 16
        && text.starts_with(|c: char| c.is_ascii_digit())
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || c == ':' || c == '-')
        && text.matches('-').count() <= 1
        && text.matches(':').count() <= 2;
    ok.then(|| text.to_string())
        .ok_or_else(|| format!("{text:?} is not a Slurm time (MM, HH:MM:SS or D-HH:MM)"))
}

/// A Slurm memory size: digits and an optional unit K, M, G or T.
fn parse_slurm_mem(text: &str) -> Result<String, String> {
    let digits = text.trim_end_matches(['K', 'M', 'G', 'T']);
    let ok = !digits.is_empty()
        && digits.len() <= 12
        && text.len() - digits.len() <= 1
        && digits.chars().all(|c| c.is_ascii_digit())
        && digits.parse::<u64>().is_ok_and(|n| n > 0);
    ok.then(|| text.to_string())
        .ok_or_else(|| format!("{text:?} is not a Slurm memory size (e.g. 500M, 4G)"))
}

/// Runs `gridbot cluster ACTION`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.action {
        Action::Submit(a) => submit(a),
        Action::Status(a) => status(&a.dir),
        Action::Resume(a) => {
            // Absolute: the tasks may start in another folder.
            let path =
                std::path::absolute(&a.dir).with_context(|| format!("{}", a.dir.display()))?;
            let (dir, plan) = open_job(&path)?;
            launch(&dir, plan.as_ref(), &a.options)
        }
    }
}

/// The job folder named by `--out DIR` among `words`, and the words without
/// it.
fn split_out(words: &[String]) -> anyhow::Result<(PathBuf, Vec<String>)> {
    let mut rest = Vec::new();
    let mut out = None;
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        if w == "--units" || w.starts_with("--units=") {
            bail!(
                "the command may not have --units: `cluster submit` chooses the units of each task"
            );
        }
        if w == "--out" {
            out = Some(words.get(i + 1).context("--out needs a folder")?.clone());
            i += 2;
            continue;
        }
        if let Some(v) = w.strip_prefix("--out=") {
            out = Some(v.to_string());
        } else {
            rest.push(w.clone());
        }
        i += 1;
    }
    let out =
        out.context("the command needs --out DIR, the job folder (on a shared file system)")?;
    let out = std::path::absolute(&out).with_context(|| format!("--out {out}"))?;
    Ok((out, rest))
}

fn submit(args: SubmitArgs) -> anyhow::Result<ExitCode> {
    let words = &args.command;
    let first = words.first().map(String::as_str).unwrap_or("");
    if Path::new(first).file_name().and_then(|n| n.to_str()) != Some("gridbot") {
        bail!("after --, give the command as it would run: gridbot COMMAND ... --out DIR");
    }
    let (dir, rest) = split_out(&words[1..])?;
    let plan = plan_of(&rest, &dir)?;
    if args.options.dry_run && !dir.join(units::MANIFEST).exists() {
        // Nothing written: the scripts of a first submission.
        let stages: Vec<StagePlan> = plan
            .stages()
            .into_iter()
            .map(|r| StagePlan {
                todo: r.collect(),
                merge: true,
            })
            .collect();
        print_scripts(&dir, &plan.manifest().command, &stages, &args.options)?;
        return Ok(ExitCode::SUCCESS);
    }
    if !args.options.dry_run {
        // Slurm answers before anything is written.
        max_array_size()?;
    }
    let jd = JobDir::open(&dir, plan.manifest())?;
    launch(&jd, plan.as_ref(), &args.options)
}

/// The units of `dir` not done; damaged ones stop with their names.
fn not_done(dir: &JobDir) -> anyhow::Result<Vec<usize>> {
    let states = dir.states()?;
    let mut todo = Vec::new();
    for (k, s) in states.iter().enumerate() {
        match s {
            UnitState::Done(_) => {}
            UnitState::Missing => todo.push(k),
            UnitState::Bad(path, why) => bail!(units::UnitsError::Damaged {
                path: path.display().to_string(),
                why: why.clone(),
            }),
        }
    }
    Ok(todo)
}

/// The units `todo` as at most `tasks` ranges of units (a range may hold
/// done units, which its task skips).
fn task_ranges(todo: &[usize], tasks: Option<usize>) -> Vec<(usize, usize)> {
    let per = todo
        .len()
        .div_ceil(tasks.unwrap_or(todo.len()).max(1))
        .max(1);
    todo.chunks(per)
        .map(|c| (c[0], *c.last().expect("chunks are not empty")))
        .collect()
}

/// A word quoted for bash.
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// The `#SBATCH` lines the options ask for.
fn sbatch_options(o: &Options) -> String {
    let mut s = String::new();
    if let Some(p) = &o.partition {
        let _ = writeln!(s, "#SBATCH --partition={p}");
    }
    if let Some(t) = &o.time {
        let _ = writeln!(s, "#SBATCH --time={t}");
    }
    if let Some(m) = &o.mem {
        let _ = writeln!(s, "#SBATCH --mem={m}");
    }
    s
}

/// Cluster's `MaxArraySize` (`scontrol show config`): array task ids run
/// from 0 to one less.
fn max_array_size() -> anyhow::Result<usize> {
    let out = slurm(&["scontrol", "show", "config"])?;
    out.lines()
        .find_map(|l| {
            let (k, v) = l.split_once('=')?;
            (k.trim() == "MaxArraySize").then(|| v.trim().parse().ok())?
        })
        .context("`scontrol show config` names no MaxArraySize")
}

/// Runs a Slurm tool and returns its standard output, or says why not.
fn slurm(args: &[&str]) -> anyhow::Result<String> {
    let out = Command::new(args[0])
        .args(&args[1..])
        .output()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => anyhow::anyhow!(
                "Slurm's `{}` was not found: run this on a machine of a Slurm cluster (a login \
                 node), or start the project's own cluster with `./dev slurm up` and \
                 `eval \"$(./dev slurm env)\"`",
                args[0]
            ),
            _ => anyhow::anyhow!("running `{}`: {e}", args[0]),
        })?;
    if !out.status.success() {
        bail!(
            "`{}` failed ({}): {}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// What a submission does with one stage of the job: the units to run
/// and whether the stage's merge is to be made (always for the last).
struct StagePlan {
    todo: Vec<usize>,
    merge: bool,
}

/// The stages of `plan` in `dir`, each with its units not done and
/// whether it needs its merge.
fn stage_plans(dir: &JobDir, plan: &dyn Plan) -> anyhow::Result<Vec<StagePlan>> {
    let todo = not_done(dir)?;
    let stages = plan.stages();
    let last = stages.len() - 1;
    Ok(stages
        .iter()
        .enumerate()
        .map(|(s, r)| {
            let todo: Vec<usize> = todo.iter().copied().filter(|k| r.contains(k)).collect();
            let merge = s == last || !todo.is_empty() || !plan.stage_merged(s);
            StagePlan { todo, merge }
        })
        .collect())
}

/// How a job waits for an earlier one of the same submission.
#[derive(Debug, Clone, Copy, PartialEq)]
enum After {
    /// Whatever became of it (a merge checks completeness itself).
    Any,
    /// Only if it succeeded (a stage needs the previous stage's merge).
    Ok,
}

/// One script of a submission.
struct Script {
    /// File name in the submission's folder.
    name: String,
    /// Its text.
    text: String,
    /// `array`, `stage-merge` or `merge` (as `jobs.txt` records it).
    kind: &'static str,
    /// The earlier scripts it waits for (indices) and how.
    after: Vec<(After, usize)>,
}

/// The scripts of submission `seq`: per stage, one array script per
/// `array_size` tasks over the units not done (waiting, `afterok`, for
/// the previous stage's merge), then the stage's merge (`afterany` of
/// its arrays); the last stage's merge is the job's.
fn scripts(
    dir: &Path,
    command: &[String],
    stages: &[StagePlan],
    o: &Options,
    seq: usize,
    array_size: &[usize],
) -> anyhow::Result<Vec<Script>> {
    let exe = std::env::current_exe().context("the path of this gridbot")?;
    let exe = quote(&exe.display().to_string());
    let logs = dir.join("slurm").join(seq.to_string());
    let dir_q = quote(&dir.display().to_string());
    let words: Vec<String> = command.iter().map(|w| quote(w)).collect();
    let per_array = array_size.first().copied().unwrap_or(usize::MAX).max(1);
    let name = format!(
        "gridbot-{}",
        command
            .iter()
            .take(2)
            .cloned()
            .collect::<Vec<_>>()
            .join("-")
    );
    let staged = stages.len() > 1;
    let mut out: Vec<Script> = Vec::new();
    let mut prev_merge: Option<usize> = None;
    for (s, stage) in stages.iter().enumerate() {
        let prefix = if staged {
            format!("stage-{s}-")
        } else {
            String::new()
        };
        let wait_prev: Vec<(After, usize)> =
            prev_merge.map(|m| (After::Ok, m)).into_iter().collect();
        let ranges = task_ranges(&stage.todo, o.tasks);
        let mut arrays = Vec::new();
        for (c, chunk) in ranges.chunks(per_array).enumerate() {
            let list: Vec<String> = chunk.iter().map(|(a, b)| format!("{a}..{b}")).collect();
            let limit = o.max_parallel.map_or(String::new(), |n| format!("%{n}"));
            let text = format!(
                "#!/bin/bash\n\
                 #SBATCH --job-name={name}\n\
                 #SBATCH --array=0-{last}{limit}\n\
                 #SBATCH --output={log}\n\
                 #SBATCH --open-mode=append\n\
                 #SBATCH --kill-on-invalid-dep=yes\n\
                 {opts}\
                 # Units of `gridbot {line}`{of_stage}, one range per array task.\n\
                 set -euo pipefail\n\
                 RANGES=({list})\n\
                 export RAYON_NUM_THREADS=\"${{SLURM_CPUS_PER_TASK:-1}}\"\n\
                 echo \"task $SLURM_ARRAY_TASK_ID: units ${{RANGES[$SLURM_ARRAY_TASK_ID]}} on $(hostname) at $(date -u +%FT%TZ)\"\n\
                 exec {exe} {words} --units \"${{RANGES[$SLURM_ARRAY_TASK_ID]}}\" --out {dir_q}\n",
                last = chunk.len() - 1,
                log = logs.join(format!("{prefix}array-{c}-%a.log")).display(),
                opts = sbatch_options(o),
                line = units::command_line(command),
                of_stage = if staged { format!(" (stage {s})") } else { String::new() },
                list = list.join(" "),
                words = words.join(" "),
            );
            arrays.push(out.len());
            out.push(Script {
                name: format!("{prefix}array-{c}.sh"),
                text,
                kind: "array",
                after: wait_prev.clone(),
            });
        }
        if !stage.merge {
            continue;
        }
        let last = s + 1 == stages.len();
        let mut after: Vec<(After, usize)> = arrays.iter().map(|&i| (After::Any, i)).collect();
        if arrays.is_empty() {
            after = wait_prev;
        }
        let (file, what, stage_arg) = if last {
            (
                "merge".to_string(),
                format!("every unit of {dir_q}"),
                String::new(),
            )
        } else {
            (
                format!("merge-stage-{s}"),
                format!("stage {s} of {dir_q}, which stage {} needs", s + 1),
                format!(" --stage {s}"),
            )
        };
        let text = format!(
            "#!/bin/bash\n\
             #SBATCH --job-name={name}-{file}\n\
             #SBATCH --output={log}\n\
             #SBATCH --open-mode=append\n\
             #SBATCH --kill-on-invalid-dep=yes\n\
             {opts}\
             # The merge of {what}; it refuses unless each unit is done.\n\
             set -euo pipefail\n\
             exec {exe} merge {dir_q}{stage_arg}\n",
            log = logs.join(format!("{file}.log")).display(),
            opts = sbatch_options(o),
        );
        prev_merge = Some(out.len());
        out.push(Script {
            name: format!("{file}.sh"),
            text,
            kind: if last { "merge" } else { "stage-merge" },
            after,
        });
    }
    Ok(out)
}

/// The `--dependency` value for `after`, given the job ids of the
/// scripts submitted so far.
fn dependency(after: &[(After, usize)], ids: &[String]) -> Option<String> {
    let list = |how: After| -> Vec<&str> {
        after
            .iter()
            .filter(|(h, _)| *h == how)
            .map(|&(_, i)| ids[i].as_str())
            .collect()
    };
    let mut parts = Vec::new();
    for (how, word) in [(After::Ok, "afterok"), (After::Any, "afterany")] {
        let l = list(how);
        if !l.is_empty() {
            parts.push(format!("{word}:{}", l.join(":")));
        }
    }
    (!parts.is_empty()).then(|| parts.join(","))
}

/// Prints the scripts a submission would write, with what each waits for.
fn print_scripts(
    dir: &Path,
    command: &[String],
    stages: &[StagePlan],
    o: &Options,
) -> anyhow::Result<()> {
    let all = scripts(dir, command, stages, o, next_seq(dir), &[])?;
    for sc in &all {
        let after: Vec<String> = sc
            .after
            .iter()
            .map(|&(how, i)| {
                format!(
                    "{}:{}",
                    if how == After::Ok {
                        "afterok"
                    } else {
                        "afterany"
                    },
                    all[i].name
                )
            })
            .collect();
        let waits = if after.is_empty() {
            String::new()
        } else {
            format!(" (submitted with --dependency={})", after.join(","))
        };
        println!("# {}{waits}\n{}", sc.name, sc.text);
    }
    Ok(())
}

/// The number of the next submission in `dir` (1 for the first).
fn next_seq(dir: &Path) -> usize {
    (1..)
        .find(|n: &usize| !dir.join("slurm").join(n.to_string()).exists())
        .expect("a free number")
}

/// Writes and submits the scripts for the units of `dir` not done and the
/// merges; with `--wait`, waits for the job's merge and checks what it
/// did.
fn launch(dir: &JobDir, plan: &dyn Plan, o: &Options) -> anyhow::Result<ExitCode> {
    let stages = stage_plans(dir, plan)?;
    let m = dir.manifest();
    if o.dry_run {
        print_scripts(dir.path(), &m.command, &stages, o)?;
        return Ok(ExitCode::SUCCESS);
    }
    let array_size = max_array_size()?;
    let seq = next_seq(dir.path());
    let sub = dir.path().join("slurm").join(seq.to_string());
    std::fs::create_dir_all(&sub).with_context(|| format!("creating {}", sub.display()))?;
    let scripts = scripts(dir.path(), &m.command, &stages, o, seq, &[array_size])?;
    let started = SystemTime::now();
    let mut ids: Vec<String> = Vec::new();
    let mut record = String::new();
    for sc in &scripts {
        let path = sub.join(&sc.name);
        files::write_all(&path, sc.text.as_bytes(), Replace::Allow)?;
        let mut args = vec!["sbatch".to_string(), "--parsable".into()];
        if let Some(d) = dependency(&sc.after, &ids) {
            args.push(format!("--dependency={d}"));
        }
        args.push(path.display().to_string());
        let id = job_id(&slurm(
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
        )?)?;
        let _ = writeln!(record, "{} {id} {}", sc.kind, sc.name);
        ids.push(id);
    }
    files::write_all(&sub.join("jobs.txt"), record.as_bytes(), Replace::Allow)?;
    let arrays: Vec<&str> = scripts
        .iter()
        .zip(&ids)
        .filter(|(sc, _)| sc.kind == "array")
        .map(|(_, id)| id.as_str())
        .collect();
    let todo: usize = stages.iter().map(|s| s.todo.len()).sum();
    println!(
        "submitted {todo} units of `gridbot {}` as {} in {}",
        units::command_line(&m.command),
        if arrays.is_empty() {
            "no array".to_string()
        } else {
            format!("array job(s) {}", arrays.join(", "))
        },
        sub.display()
    );
    let merge_id = ids.last().expect("the merge is always submitted").clone();
    let stage_merges = scripts.iter().filter(|sc| sc.kind == "stage-merge").count();
    if stage_merges > 0 {
        println!("{stage_merges} stage merge job(s) between the stages");
    }
    println!(
        "merge job {merge_id} writes {}",
        plan.default_output(dir.path()).display()
    );
    if !o.wait {
        return Ok(ExitCode::SUCCESS);
    }
    wait_for(std::slice::from_ref(&merge_id), None)?;
    merged_after(dir, plan, started, &sub.join("merge.log"))
}

/// The job id `sbatch --parsable` printed (`ID` or `ID;CLUSTER`).
fn job_id(out: &str) -> anyhow::Result<String> {
    let id = out.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        bail!("sbatch printed {:?}, not a job id", out.trim());
    }
    Ok(id)
}

/// Waits until none of the jobs `ids` is in the queue (or `limit` passed).
pub fn wait_for(ids: &[String], limit: Option<Duration>) -> anyhow::Result<()> {
    let t0 = Instant::now();
    loop {
        let out = slurm(&["squeue", "-h", "-o", "%i", "-j", &ids.join(",")])
            // A job that left the queue long ago is an error to squeue.
            .unwrap_or_default();
        if out.trim().is_empty() {
            return Ok(());
        }
        if limit.is_some_and(|l| t0.elapsed() > l) {
            bail!(
                "jobs {} still in the queue after {:?}",
                ids.join(","),
                t0.elapsed()
            );
        }
        std::thread::sleep(Duration::from_secs(1));
    }
}

/// Whether the merge that ran after `started` merged every unit: every
/// unit done and checked, and the output written since.
fn merged_after(
    dir: &JobDir,
    plan: &dyn Plan,
    started: SystemTime,
    log: &Path,
) -> anyhow::Result<ExitCode> {
    let out = plan.output_file(&plan.default_output(dir.path()));
    let fresh = std::fs::metadata(&out)
        .and_then(|m| m.modified())
        .is_ok_and(|t| t >= started);
    if let Some(e) = units::incomplete(dir.path(), &dir.states()?) {
        eprintln!("gridbot: the merge did not run: {e}");
        eprintln!(
            "gridbot: `gridbot cluster resume {}` submits the rest",
            dir.path().display()
        );
        return Ok(ExitCode::FAILURE);
    }
    if !fresh {
        let tail = files::read_text(&log.display().to_string(), 1 << 20, "a merge log")
            .unwrap_or_default();
        eprintln!(
            "gridbot: every unit is done but {} was not written; the merge log {} says:\n{}",
            out.display(),
            log.display(),
            tail.lines()
                .rev()
                .take(10)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect::<Vec<_>>()
                .join("\n")
        );
        return Ok(ExitCode::FAILURE);
    }
    println!("merged every unit into {}", out.display());
    Ok(ExitCode::SUCCESS)
}

/// The jobs of every submission to `dir`: (kind, id, script).
fn submitted(dir: &Path) -> Vec<(String, String, PathBuf)> {
    let mut jobs = Vec::new();
    for n in 1.. {
        let f = dir.join("slurm").join(n.to_string()).join("jobs.txt");
        let Ok(text) = files::read_text(&f.display().to_string(), 1 << 20, "a list of jobs") else {
            if !f.parent().is_some_and(Path::exists) {
                break;
            }
            continue;
        };
        for l in text.lines() {
            let w: Vec<&str> = l.split(' ').collect();
            if let [kind, id, name] = w[..] {
                let script = f.with_file_name(name);
                jobs.push((kind.into(), id.into(), script));
            }
        }
    }
    jobs
}

/// `gridbot cluster status DIR`.
fn status(path: &Path) -> anyhow::Result<ExitCode> {
    let (dir, _plan) = open_job(path)?;
    let states = dir.states()?;
    let count = states.len();
    let done: Vec<(usize, &units::Done)> = states
        .iter()
        .enumerate()
        .filter_map(|(k, s)| match s {
            UnitState::Done(d) => Some((k, d)),
            _ => None,
        })
        .collect();
    let bad = states
        .iter()
        .filter(|s| matches!(s, UnitState::Bad(..)))
        .count();
    let jobs = submitted(path);
    let ids: Vec<String> = jobs.iter().map(|(_, id, _)| id.clone()).collect();
    // One line per task still queued: array job id, task id, state.
    let queued = if ids.is_empty() {
        String::new()
    } else {
        slurm(&["squeue", "-h", "-r", "-o", "%F %K %T", "-j", &ids.join(",")]).unwrap_or_default()
    };
    // The units of each queued task, from its array script's ranges.
    let ranges_of = |script: &Path| -> Vec<(usize, usize)> {
        let text = files::read_text(&script.display().to_string(), 1 << 24, "an array script")
            .unwrap_or_default();
        let list = text.lines().find_map(|l| l.strip_prefix("RANGES=("));
        list.unwrap_or("")
            .trim_end_matches(')')
            .split(' ')
            .filter_map(|r| {
                let (a, b) = r.split_once("..")?;
                Some((a.parse().ok()?, b.parse().ok()?))
            })
            .collect()
    };
    let scripts: Vec<(&str, Vec<(usize, usize)>)> = jobs
        .iter()
        .filter(|(kind, _, _)| kind == "array")
        .map(|(_, id, script)| (id.as_str(), ranges_of(script)))
        .collect();
    let (mut running, mut pending) = (0, 0);
    let mut queued_units = vec![false; count];
    for l in queued.lines() {
        let w: Vec<&str> = l.split_whitespace().collect();
        let [array, task, state] = w[..] else {
            continue;
        };
        let range = scripts
            .iter()
            .find(|(id, _)| *id == array)
            .and_then(|(_, r)| r.get(task.parse::<usize>().ok()?));
        let units: Vec<usize> = range
            .map(|&(a, b)| (a..=b.min(count.saturating_sub(1))).collect())
            .unwrap_or_default();
        let missing = units.iter().filter(|&&k| states[k] == UnitState::Missing);
        let n = missing.clone().count();
        for &k in missing {
            queued_units[k] = true;
        }
        match state {
            "RUNNING" | "COMPLETING" => running += n,
            _ => pending += n,
        }
    }
    let failed = (0..count)
        .filter(|&k| states[k] == UnitState::Missing && !queued_units[k])
        .count();
    let rest = count - done.len() - bad;
    println!(
        "{}: {} of {count} units done, {running} running, {pending} pending, {failed} failed or not submitted, {bad} damaged",
        path.display(),
        done.len()
    );
    let mut slow: Vec<&(usize, &units::Done)> = done.iter().collect();
    slow.sort_by(|a, b| b.1.seconds.total_cmp(&a.1.seconds));
    if !slow.is_empty() {
        let list: Vec<String> = slow
            .iter()
            .take(5)
            .map(|(k, d)| format!("{k} ({:.1} s)", d.seconds))
            .collect();
        let mean = done.iter().map(|(_, d)| d.seconds).sum::<f64>() / done.len() as f64;
        let rss = done.iter().map(|(_, d)| d.max_rss_kib).max().unwrap_or(0);
        println!(
            "slowest units: {}; mean {mean:.2} s a unit; peak memory of a task {} MiB",
            list.join(", "),
            rss / 1024
        );
        if rest > 0 {
            let lanes = running.max(1) as f64;
            println!(
                "projected finish: in about {:.0} s ({rest} units at {mean:.2} s, {} at a time)",
                rest as f64 * mean / lanes,
                running.max(1)
            );
        }
    }
    if let Some((_, id, _)) = jobs.iter().rev().find(|(kind, _, _)| kind == "merge") {
        let q = slurm(&["squeue", "-h", "-o", "%T", "-j", id]).unwrap_or_default();
        let state = q.trim();
        println!(
            "merge job {id}: {}",
            if state.is_empty() { "finished" } else { state }
        );
    }
    if let Some(e) = units::incomplete(path, &states) {
        println!("{e}");
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(tasks: Option<usize>) -> Options {
        Options {
            partition: Some("batch".into()),
            max_parallel: Some(4),
            time: None,
            mem: Some("2G".into()),
            tasks,
            dry_run: false,
            wait: false,
        }
    }

    #[test]
    fn arrays_split_at_max_array_size_and_cover_every_unit_once() {
        let todo: Vec<usize> = (0..10).chain(20..25).collect();
        let command = vec![
            "enumerate".to_string(),
            "rush".into(),
            "--size".into(),
            "5".into(),
        ];
        let stage = StagePlan {
            todo: todo.clone(),
            merge: true,
        };
        let s = scripts(
            Path::new("/shared/j"),
            &command,
            &[stage],
            &options(None),
            1,
            &[4],
        )
        .unwrap();
        // 15 tasks of one unit, 4 a script, then the merge.
        assert_eq!(s.len(), 5);
        assert_eq!(s[4].name, "merge.sh");
        assert_eq!(
            s[4].after,
            (0..4).map(|i| (After::Any, i)).collect::<Vec<_>>()
        );
        let mut covered = Vec::new();
        for Script { name, text, .. } in &s[..4] {
            assert!(text.contains("#SBATCH --open-mode=append"), "{name}");
            assert!(
                text.contains("#SBATCH --partition=batch\n#SBATCH --mem=2G\n"),
                "{text}"
            );
            let ranges = text
                .lines()
                .find_map(|l| l.strip_prefix("RANGES=("))
                .unwrap();
            let ranges: Vec<&str> = ranges.trim_end_matches(')').split(' ').collect();
            assert!(text.contains(&format!("#SBATCH --array=0-{}%4\n", ranges.len() - 1)));
            for r in ranges {
                let (a, b) = r.split_once("..").unwrap();
                covered.extend(a.parse::<usize>().unwrap()..=b.parse().unwrap());
            }
        }
        assert_eq!(covered, todo);
        assert!(s[4].text.contains("--kill-on-invalid-dep=yes"));
        assert!(s[4].text.contains("merge '/shared/j'\n"));
    }

    #[test]
    fn stages_wait_for_the_merge_of_the_stage_before() {
        let stage = |todo: Vec<usize>, merge| StagePlan { todo, merge };
        let command = vec!["endgame".to_string(), "fling".into()];
        // Stage 0 done and merged, stage 1 done but not merged, stage 2
        // with units to run.
        let stages = [
            stage(vec![], false),
            stage(vec![], true),
            stage(vec![2, 3], true),
        ];
        let s = scripts(Path::new("/j"), &command, &stages, &options(None), 1, &[10]).unwrap();
        let names: Vec<&str> = s.iter().map(|sc| sc.name.as_str()).collect();
        assert_eq!(
            names,
            ["merge-stage-1.sh", "stage-2-array-0.sh", "merge.sh"]
        );
        assert!(s[0].after.is_empty());
        assert!(
            s[0].text.contains("merge '/j' --stage 1\n"),
            "{}",
            s[0].text
        );
        assert_eq!(s[1].after, [(After::Ok, 0)]);
        assert_eq!(s[2].after, [(After::Any, 1)]);
        let ids = ["11".to_string(), "12".into(), "13".into()];
        assert_eq!(dependency(&s[1].after, &ids).unwrap(), "afterok:11");
        let both = [(After::Ok, 0), (After::Any, 1), (After::Any, 2)];
        assert_eq!(
            dependency(&both, &ids).unwrap(),
            "afterok:11,afterany:12:13"
        );
        assert_eq!(dependency(&[], &ids), None);
    }

    #[test]
    fn tasks_group_units_into_ranges() {
        let todo: Vec<usize> = (0..178).collect();
        let r = task_ranges(&todo, Some(8));
        assert_eq!(r.len(), 8);
        assert_eq!(r[0], (0, 22));
        assert_eq!(r[7], (161, 177));
        assert_eq!(task_ranges(&[5, 9], None), vec![(5, 5), (9, 9)]);
        assert!(task_ranges(&[], Some(3)).is_empty());
    }

    #[test]
    fn words_and_options_are_checked() {
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(job_id("123\n").unwrap(), "123");
        assert_eq!(job_id("77;cluster\n").unwrap(), "77");
        assert!(job_id("sbatch: error").is_err());
        assert!(parse_slurm_time("1-02:00:00").is_ok());
        assert!(parse_slurm_time("10; rm -rf /").is_err());
        assert!(parse_slurm_mem("4G").is_ok());
        assert!(parse_slurm_mem("0").is_err());
        assert!(parse_slurm_mem("4GB").is_err());
        assert!(parse_slurm_word("debug").is_ok());
        assert!(parse_slurm_word("a b").is_err());
        let words: Vec<String> = ["rush", "--out", "d", "--size", "5"]
            .map(String::from)
            .to_vec();
        let (out, rest) = split_out(&words).unwrap();
        assert!(out.is_absolute() && out.ends_with("d"));
        assert_eq!(rest, ["rush", "--size", "5"]);
        assert!(split_out(&words[..1]).is_err());
    }
}
