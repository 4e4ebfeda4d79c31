//! Rush Hour's command line: `gridbot solve|bench|analyse|generate rush`.
//! The work is in the library modules; this file parses arguments and
//! prints.
//!
//! Playing in the browser (`play`, `demo`, `validate`) and the screenshot
//! fixtures are in [`play`] and [`fixtures`].

pub mod fixtures;
pub mod play;
pub mod wagner;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};

use super::analyse::{analyse, Difficulty};
use super::bench::bench;
use super::bench_job::RushBench;
use super::enumerate::{units_dir, EnumerateJob, Rules, Summary};
use super::generate::{from_database, generate_random, Rng};
use super::parse::{parse_line, parse_puzzles, Puzzle};
use super::search::steps;
use super::solve::{solve, Strategy};
use crate::cli::args::{
    parse_bytes, parse_number, parse_seed, parse_span, parse_threads, read_input, source_name,
    ArgError, SearchLimits,
};
use crate::cli::bench::BenchOptions;
use crate::cli::bench_units::{self, UnitOptions};
use crate::cli::units::{parse_words, Plan, Planned};
use crate::files::Replace;
use crate::games::registry::{verbs, Entry, GameCli, Verb};
use crate::solver::Budget;
use crate::units::{self, Job, JobDir, Manifest};

/// `gridbot enumerate rush`: Rush Hour's own verb.
pub const ENUMERATE: Verb = Verb::new("enumerate", "Enumerate every position of a game");

/// Rush Hour in the registry.
pub static GAME: GameCli = GameCli {
    name: "rush",
    title: "Rush Hour",
    about: "Pieces of length 2 and 3 slide along their axis on an N x N board (4 to 8) with \
         optional walls; the red piece A must reach the exit on the right of its row. One \
         move slides one piece any distance. Boards in Fogleman's format (36 characters, \
         o empty, x wall). Solver: exact breadth-first search (fewest moves, then fewest \
         steps; proves unsolvable boards), A* with the admissible blocker count (fewest \
         moves), the seed's greedy best-first search (fast, not shortest). Played in \
         Chromium, one drag per move, each verified by reading the board again, on two \
         hosts: Michael Fogleman's web player (any puzzle, by its fragment) and Luca \
         Wagner's page (--host wagnerluca: its eight levels in a row, its own Optimal \
         compared with the proven optimum).",
    hosts: &[
        "fogleman: Michael Fogleman's web player (rush-web/), Chromium",
        "wagnerluca: Luca Wagner's Rush Hour page (rush-wagnerluca/), Chromium",
    ],
    entries,
};

/// Rush Hour's verbs, one line each.
fn entries() -> Vec<Entry> {
    vec![
        Entry::new(verbs::SOLVE, "Solve Rush Hour boards", run_solve),
        Entry::new(
            verbs::PLAY,
            "Play Rush Hour already open in Chromium (Fogleman's player; Wagner's page with \
             --host wagnerluca)",
            play::run_play,
        ),
        Entry::new(
            verbs::DEMO,
            "Fogleman's player in Chromium on a virtual display, played to the win \
             (default: the 51-move puzzle); --host wagnerluca: Wagner's eight levels in a row",
            play::run_demo,
        ),
        Entry::new(
            verbs::VALIDATE,
            "Play puzzles in Chromium; compare the page's counter (and Wagner's Optimal, \
             --host wagnerluca --levels A..B) with the proven optimum",
            play::run_validate,
        ),
        Entry::new(
            verbs::BENCH,
            "Solve every puzzle of a database file and compare with its MOVES column",
            run_bench,
        ),
        Entry::new(
            verbs::FIXTURES,
            "Check or record the Rush Hour player's screenshot fixtures",
            fixtures::run,
        ),
        Entry::new(
            verbs::ANALYSE,
            "The cluster of a board: positions, solved ones, the farthest, difficulty",
            run_analyse,
        ),
        Entry::new(
            ENUMERATE,
            "Every position, its cluster and distances: Fogleman's database and a summary",
            run_enumerate,
        ),
        Entry::new(
            verbs::GENERATE,
            "Puzzles of a chosen number of moves, from a database or random positions",
            run_generate,
        ),
    ]
}

/// Search options shared by `solve` and `bench`.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// Search strategy.
    #[arg(long, value_enum, default_value_t = Strategy::Bfs)]
    pub strategy: Strategy,
    /// The search's time and memory limits.
    #[command(flatten)]
    pub limits: SearchLimits,
}

/// The puzzles of a board argument: a literal board or database line, a
/// file of them, or `-`.
fn puzzles_of(arg: &str) -> anyhow::Result<Vec<Puzzle>> {
    if !std::path::Path::new(arg).is_file() && arg != "-" {
        if let Ok(p) = parse_line(arg, 1) {
            return Ok(vec![p]);
        }
    }
    let text = read_input(arg)?;
    let puzzles = parse_puzzles(&text)
        .with_context(|| format!("reading boards from {}", source_name(arg)))?;
    if puzzles.is_empty() {
        bail!("no board in {}", source_name(arg));
    }
    Ok(puzzles)
}

/// `gridbot solve rush`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// A board (`oooBoo...`, 16 to 64 characters), a database line
    /// (`MOVES BOARD CLUSTER_SIZE`), a file of them, or `-` for standard input.
    board: String,
    #[command(flatten)]
    search: SearchArgs,
    /// Print JSON (one object a board) instead of text.
    #[arg(long)]
    json: bool,
}

fn run_solve(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let puzzles = puzzles_of(&args.board)?;
    let mut code = ExitCode::SUCCESS;
    for p in &puzzles {
        let o = solve(
            &p.board,
            p.start,
            args.search.strategy,
            &args.search.limits.budget(),
        );
        let time_ms = o.elapsed.as_secs_f64() * 1e3;
        let described: Vec<String> = o
            .moves
            .iter()
            .flatten()
            .map(|&m| p.board.describe(m))
            .collect();
        let st = o.moves.as_deref().map(steps);
        if o.moves.is_none() && !o.proven_unsolvable {
            code = ExitCode::FAILURE;
        }
        if args.json {
            let v = serde_json::json!({
                "board": p.board.to_text(p.start),
                "line": p.line,
                "strategy": args.search.strategy,
                "moves": described,
                "length": o.len(),
                "steps": st,
                "lower_bound": o.lower_bound,
                "optimal": o.optimality(),
                "nodes": o.nodes,
                "positions_exhausted": o.proven_unsolvable.then_some(o.nodes),
                "time_ms": (time_ms * 1000.0).round() / 1000.0,
                "stopped": o.stopped.map(|s| s.to_string()),
            });
            println!("{}", serde_json::to_string(&v)?);
            continue;
        }
        if puzzles.len() > 1 {
            println!("# line {}: {}", p.line, p.board.to_text(p.start));
        }
        println!("{}", o.verdict(|| described.join(", ")));
        println!(
            "length={} steps={} lower_bound={} optimal={} nodes={} time_ms={:.3}",
            o.len().map_or("none".into(), |l| l.to_string()),
            st.map_or("none".into(), |s| s.to_string()),
            if o.proven_unsolvable {
                "inf".into()
            } else {
                o.lower_bound.to_string()
            },
            o.optimality(),
            o.nodes,
            time_ms
        );
    }
    Ok(code)
}

/// `gridbot bench rush`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// A database file: lines `MOVES BOARD CLUSTER_SIZE`.
    pub file: PathBuf,
    /// The search.
    #[command(flatten)]
    pub search: SearchArgs,
    /// The options every bench takes (`--threads`: default one, as each
    /// puzzle's wall time is reported).
    #[command(flatten)]
    pub bench: BenchOptions,
    /// Split into units (see `gridbot cluster`).
    #[command(flatten)]
    pub units: UnitOptions,
}

/// The puzzles a bench's arguments name.
fn bench_puzzles(args: &BenchArgs) -> anyhow::Result<Vec<Puzzle>> {
    let text = crate::cli::bench::read_bench_file(&args.file)?;
    args.bench.first(
        parse_puzzles(&text).with_context(|| format!("reading {}", args.file.display()))?,
        &args.file.to_string_lossy(),
    )
}

fn run_bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let puzzles = bench_puzzles(&args)?;
    if args.units.units.is_some() {
        let threads = Some(args.bench.threads.unwrap_or(1));
        let game = RushBench::new(&args, puzzles);
        return bench_units::run_units(game, &args.units, args.bench.json, threads);
    }
    let bar = args.bench.progress(puzzles.len(), "{wide_bar} {pos}/{len}");
    let pool = BenchOptions::pool(args.bench.threads.unwrap_or(1))?;
    let r = pool.install(|| {
        bench(
            &puzzles,
            args.search.strategy,
            || args.search.limits.budget(),
            &|done| bar.set_position(done as u64),
        )
    });
    bar.finish_and_clear();
    print_bench(&r, args.bench.json)
}

/// Prints a bench's report (as JSON with `json`); fails when a puzzle
/// differs from its MOVES column.
pub(super) fn print_bench(r: &super::bench::BenchReport, json: bool) -> anyhow::Result<ExitCode> {
    if json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        println!(
            "puzzles={} proven={} total_moves={} total_steps={} mismatches={} nodes={} cpu_ms={:.1} wall_ms={:.1} median_ms={:.3} max_ms={:.3} (line {}) strategy={:?}",
            r.puzzles,
            r.proven,
            r.total_moves,
            r.total_steps,
            r.mismatches.len(),
            r.nodes,
            r.cpu_ms,
            r.wall_ms,
            r.median_ms,
            r.max_ms,
            r.max_line,
            r.strategy
        );
        for m in &r.mismatches {
            println!(
                "line {}: file says {}, found {} (optimal={})",
                m.line,
                m.expected.map_or("-".into(), |e| e.to_string()),
                m.found.map_or("none".into(), |e| e.to_string()),
                m.optimal
            );
        }
    }
    Ok(if r.mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `bench rush` as a job for `gridbot merge` and `gridbot cluster`.
pub fn bench_plan(words: &[String], _dir: &Path) -> anyhow::Result<Box<dyn Plan>> {
    let args: BenchArgs = parse_words(words)?;
    let puzzles = bench_puzzles(&args)?;
    let game = RushBench::new(&args, puzzles);
    bench_units::bench_plan(game, words, &args.units, args.bench.json)
}

/// `gridbot analyse rush`.
#[derive(Debug, clap::Args)]
pub struct AnalyseArgs {
    /// A board, a database line, a file of them or `-`.
    board: String,
    /// Stop when the cluster's tables hold this much memory.
    #[arg(long, value_parser = parse_bytes, default_value = "2G")]
    memory_limit: usize,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

fn run_analyse(args: AnalyseArgs) -> anyhow::Result<ExitCode> {
    for p in puzzles_of(&args.board)? {
        let r = analyse(&p.board, p.start, &Budget::new(None, args.memory_limit))
            .map_err(|e| anyhow::anyhow!("line {}: stopped by the {e}", p.line))?;
        if args.json {
            println!("{}", serde_json::to_string(&r)?);
        } else {
            println!(
                "board={} positions={} solved={} moves={} difficulty={} farthest={} farthest_moves={}",
                r.board,
                r.positions,
                r.solved,
                r.moves.map_or("unsolvable".into(), |m| m.to_string()),
                serde_json::to_value(r.difficulty)?.as_str().unwrap_or("?"),
                r.farthest.as_deref().unwrap_or("none"),
                r.farthest_moves.map_or("none".into(), |m| m.to_string()),
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `gridbot generate rush`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Moves wanted: `A..B`, `N`, or a class (easy, medium, hard, very-hard).
    #[arg(long, value_parser = parse_moves)]
    moves: (u32, u32),
    /// Walls in each puzzle.
    #[arg(long, default_value_t = 0, value_parser = parse_number::<u8, 0, 8>)]
    walls: u8,
    /// How many puzzles (1 to 1000000).
    #[arg(long, default_value_t = 1, value_parser = parse_number::<usize, 1, 1_000_000>)]
    count: usize,
    /// Board side (4 to 8) for random generation.
    #[arg(long, default_value_t = 6, value_parser = parse_number::<u8, 4, 8>)]
    size: u8,
    /// Pick from this database (`MOVES BOARD CLUSTER_SIZE` lines) instead
    /// of generating random positions.
    #[arg(long)]
    database: Option<PathBuf>,
    /// Random positions to try before giving up (1 to 10^12).
    #[arg(long, default_value_t = 100_000, value_parser = parse_number::<usize, 1, 1_000_000_000_000>)]
    attempts: usize,
    /// Seed of the random positions (default: from the clock).
    #[arg(long, value_parser = parse_seed)]
    seed: Option<u64>,
}

/// Parses `A..B`, `N` or a difficulty class name.
pub(crate) fn parse_moves(s: &str) -> Result<(u32, u32), ArgError> {
    use clap::ValueEnum;
    if let Ok(d) = Difficulty::from_str(s, true) {
        return d.moves().ok_or_else(|| ArgError::OutOfRange {
            what: "difficulty",
            text: s.into(),
            range: "easy, medium, hard or very-hard: unsolvable puzzles are not generated".into(),
        });
    }
    parse_span::<0, 250>(s)
}

fn run_generate(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    let found = if let Some(db) = &args.database {
        from_database(
            crate::files::open_lines(db)?,
            args.moves,
            Some(args.walls as usize),
            args.count,
        )
        .with_context(|| format!("reading {}", db.display()))?
    } else {
        let seed = args.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        let mut rng = Rng::new(seed);
        let bar = crate::cli::progress_bar(args.attempts as u64);
        let out = generate_random(
            args.size as usize,
            args.walls as usize,
            args.moves,
            args.count,
            args.attempts,
            &mut rng,
            |k, _| bar.set_position(k as u64),
        );
        bar.finish_and_clear();
        out
    };
    for g in &found {
        println!("{g}");
    }
    if found.len() < args.count {
        eprintln!(
            "gridbot: found {} of {} puzzles of {}..{} moves",
            found.len(),
            args.count,
            args.moves.0,
            args.moves.1
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// `gridbot enumerate rush`.
#[derive(Debug, clap::Args)]
pub struct EnumerateArgs {
    /// Board side (4 to 8).
    #[arg(long, default_value_t = 6, value_parser = parse_number::<u8, 4, 8>)]
    size: u8,
    /// Most walls in a position (0 to 2).
    #[arg(long, default_value_t = 0, value_parser = parse_number::<u8, 0, 2>)]
    walls: u8,
    /// Which placements are positions of the game: `fogleman`, his game and
    /// database (the primary piece alone on its row, no row or column
    /// filled by pieces that can never move), or `all`, every placement.
    #[arg(long, value_enum, default_value_t = Rules::Fogleman)]
    rules: Rules,
    /// Write the database (`MOVES BOARD CLUSTER_SIZE` lines, hardest first)
    /// here; finished work units are kept in `FILE.units/`, so a run that
    /// was interrupted resumes. With `--units`: the job folder. An existing
    /// FILE is replaced only when its units are there (a resumed run) or
    /// with --force; it must be a regular file (not a device or a FIFO).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace an existing --out FILE that is not this enumeration's own.
    #[arg(long, requires = "out")]
    force: bool,
    /// Worker threads, 1 to 256 (default: one per core).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Walk only every N-th work unit: a deterministic sample, to measure a
    /// fraction of the work (its counts are that fraction's).
    #[arg(long, default_value_t = 1, value_parser = parse_number::<u32, 1, { u32::MAX as u64 }>)]
    sample: u32,
    /// With `--bench-walk`: the first unit of the sample.
    #[arg(long, default_value_t = 0, value_parser = parse_number::<u32, 0, { u32::MAX as u64 }>)]
    sample_from: u32,
    /// Benchmark the walk alone on a deterministic sample: the units of
    /// `--sample`/`--sample-from`, every N-th piece set each owns; prints
    /// the CPU time of finding the sets and of walking them.
    #[arg(long, value_name = "N", value_parser = parse_number::<u32, 1, { u32::MAX as u64 }>)]
    bench_walk: Option<u32>,
    /// With `--bench-walk`: keep the sample's piece sets in this file (read
    /// when it exists), so that repeated runs skip finding them.
    #[arg(long)]
    sets_file: Option<PathBuf>,
    /// With `--bench-walk`: the walks timed, in this order (`flood`: flood
    /// fill then distances per cluster; `bfs`: one search per piece set
    /// over a hash table; `dense`: one search over slabs of positions
    /// numbered densely); their results must agree.
    #[arg(long, value_delimiter = ',', default_value = "flood,bfs")]
    walkers: Vec<String>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// Run only units A..B (numbered from 0, both included) into the job
    /// folder `--out DIR`; `gridbot merge DIR` makes the database once
    /// every unit is done (see `gridbot cluster`).
    #[arg(long, value_name = "A..B", requires = "out",
          value_parser = parse_span::<0, { u32::MAX as u64 }>)]
    units: Option<(u32, u32)>,
}

/// The enumeration `args` ask for, as a job of units.
fn enumerate_job(args: &EnumerateArgs) -> anyhow::Result<EnumerateJob> {
    Ok(EnumerateJob::new(
        args.size as usize,
        args.walls as usize,
        args.rules,
        args.sample as usize,
    )?)
}

fn run_enumerate(args: EnumerateArgs) -> anyhow::Result<ExitCode> {
    if let Some(every) = args.bench_walk {
        return run_bench_walk(&args, every as usize);
    }
    let job = enumerate_job(&args)?;
    let bar = crate::cli::progress_bar(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} units {elapsed} (eta {eta})")
            .expect("template"),
    );
    let progress = |done, total| {
        bar.set_length(total);
        bar.set_position(done);
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    if let Some((first, last)) = args.units {
        // Some units only, into the job folder `--out DIR`.
        let dir = args
            .out
            .as_deref()
            .expect("clap requires --out with --units");
        let dir = JobDir::open(dir, Manifest::of(&job))?;
        let ran = pool
            .install(|| units::run_units(&dir, &job, first as usize..=last as usize, progress))?;
        bar.finish_and_clear();
        println!(
            "units {first}..{last} of {} done ({ran} run now) in {}",
            job.unit_count(),
            dir.path().display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    // The local run: every unit into `FILE.units/`, then the merge, as
    // for a split run. Without --out there is nothing to merge into: the
    // units are counted in memory and no file is written.
    let t0 = std::time::Instant::now();
    let summary = pool.install(|| match &args.out {
        Some(out) => Ok::<_, anyhow::Error>(units::run_local(
            &units_dir(out),
            &job,
            Some(out),
            database_replace(out, args.force)?,
            progress,
        )?),
        None => Ok(job.summary(progress)?),
    })?;
    bar.finish_and_clear();
    print_summary(&summary, args.rules, args.json, Some(t0.elapsed()))?;
    Ok(ExitCode::SUCCESS)
}

/// Whether the database may replace what is at `out`: with `--force`, or
/// when its units folder is there (this command's own output, resumed).
/// A device or a FIFO is refused: the units would go beside it (as root,
/// `/dev/null.units/`).
fn database_replace(out: &Path, force: bool) -> anyhow::Result<Replace> {
    if let Ok(meta) = std::fs::metadata(out) {
        if !meta.is_file() {
            bail!(
                "{}: {}, but the database must be a regular file (its units go beside it, in {})",
                out.display(),
                crate::files::kind_of(&meta),
                units_dir(out).display()
            );
        }
    }
    Ok(if force || units_dir(out).is_dir() {
        Replace::Allow
    } else {
        Replace::Refuse
    })
}

/// Prints an enumeration's summary (with its wall time when given).
fn print_summary(
    summary: &Summary,
    rules: Rules,
    json: bool,
    wall: Option<std::time::Duration>,
) -> anyhow::Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(summary)?);
        return Ok(());
    }
    let wall = wall.map_or(String::new(), |w| format!(" wall_s={:.1}", w.as_secs_f64()));
    println!(
        "size={} walls={} rules={} units={} solved_positions={} clusters={} positions={} puzzles={}{wall}",
        summary.size,
        summary.walls,
        rules.name(),
        summary.units,
        summary.solved_positions,
        summary.clusters,
        summary.positions,
        summary.puzzles,
    );
    if let Some(h) = &summary.hardest {
        println!("hardest: {} {} {}", h.moves, h.board, h.cluster_size);
    }
    for (m, c) in summary.by_moves.iter().rev() {
        println!("moves={m} puzzles={c}");
    }
    Ok(())
}

/// `enumerate rush` as a job for `gridbot merge` and `gridbot cluster`:
/// `words` are the command's words after `gridbot` (`--out` and `--units`
/// left out).
pub fn enumerate_plan(words: &[String], _dir: &Path) -> anyhow::Result<Box<dyn Plan>> {
    let args: EnumerateArgs = parse_words(words)?;
    anyhow::ensure!(
        args.bench_walk.is_none() && args.units.is_none() && args.out.is_none(),
        "`gridbot {}`: --bench-walk, --units and --out are not part of a job's command",
        units::command_line(words)
    );
    let rules = args.rules;
    Ok(Box::new(Planned {
        job: enumerate_job(&args)?,
        output: "database.txt",
        report: Box::new(move |s: &Summary| print_summary(s, rules, false, None)),
    }))
}

/// `gridbot enumerate rush --bench-walk N`.
fn run_bench_walk(args: &EnumerateArgs, every: usize) -> anyhow::Result<ExitCode> {
    use super::walkbench::{sample_sets_cached, walk_bfs, walk_dense, walk_flood};
    let s = sample_sets_cached(
        args.sets_file.as_deref(),
        args.size as usize,
        args.walls as usize,
        args.rules,
        args.sample_from as usize,
        args.sample as usize,
        every,
    )?;
    println!(
        "sets={} units={} discovery_cpu_ms={:.1}",
        s.sets.len(),
        s.units,
        s.discovery.as_secs_f64() * 1e3
    );
    let mut first: Option<super::setwalk::SetResult> = None;
    for w in &args.walkers {
        let (r, cpu) = match w.as_str() {
            "flood" => walk_flood(&s.sets)?,
            "bfs" => walk_bfs(&s.sets)?,
            "dense" => walk_dense(&s.sets)?,
            other => bail!("--walkers: unknown walker {other:?} (flood, bfs or dense)"),
        };
        let hardest = r.entries.iter().map(|e| e.moves).max().unwrap_or(0);
        println!(
            "walker={w} clusters={} positions={} entries={} hardest={} walk_cpu_ms={:.1} ns_per_position={:.1}",
            r.clusters,
            r.positions,
            r.entries.len(),
            hardest,
            cpu.as_secs_f64() * 1e3,
            cpu.as_secs_f64() * 1e9 / r.positions.max(1) as f64
        );
        match &first {
            None => first = Some(r),
            Some(f) if *f != r => bail!("walker {w} disagrees with {}", args.walkers[0]),
            Some(_) => {}
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_ranges() {
        assert_eq!(parse_moves("10..20"), Ok((10, 20)));
        assert_eq!(parse_moves("7"), Ok((7, 7)));
        assert_eq!(parse_moves("hard"), Ok((21, 35)));
        assert!(parse_moves("20..10").is_err());
        assert!(parse_moves("x..3").is_err());
        assert!(parse_moves("unsolvable").is_err());
    }
}
