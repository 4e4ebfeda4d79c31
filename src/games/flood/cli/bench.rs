//! `gridbot bench flood FILE`: solves every board of a file (one square
//! board per line, or boards over several lines separated by blank lines;
//! see `parse_board_set`), optionally flooding from `--start`, boards in
//! parallel on a rayon pool with one search per board on one thread, and
//! prints a summary: boards, total moves, boards proven optimal, boards
//! differing from `--optimal` (non-zero exit if any), total CPU time, wall
//! time, median and max per board, peak resident memory.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::cli::bench::{read_lengths, BenchOptions};
use crate::cli::bench_units::BenchGame;
use crate::games::flood::{parse_board_set, solve, Board, SolveOptions, StartCell, Strategy};
use crate::measure::{median, mib, ms, peak_rss_bytes, process_cpu, timed};
use crate::units::JobError;
use anyhow::{bail, Context};
use rayon::prelude::*;

use super::solve::SearchArgs;

#[derive(Debug, clap::Args)]
/// The command's arguments.
pub struct Args {
    /// Boards: one per line (square, one character per cell), or each over
    /// several lines (rows) with blank lines between boards.
    file: PathBuf,
    /// Start cell of every board: ROW,COL (0-based) or `centre` (the middle
    /// cell, row (height-1)/2, column (width-1)/2). Default: the top-left cell.
    #[arg(long)]
    start: Option<StartCell>,
    /// Proven optimal lengths, one per line, one line per board of FILE in order.
    #[arg(long)]
    optimal: Option<PathBuf>,
    /// Search options, applied to each board's search.
    #[command(flatten)]
    search: SearchArgs,
    /// The options every bench takes.
    #[command(flatten)]
    bench: BenchOptions,
    /// Split into units (see `gridbot cluster`).
    #[command(flatten)]
    units: crate::cli::bench_units::UnitOptions,
}

/// One board's figures (and what a unit of a bench split into units
/// writes, one JSON line a board).
#[derive(serde::Serialize, serde::Deserialize)]
struct BoardResult {
    line: usize,
    length: usize,
    proven: bool,
    nodes: u64,
    cpu: Duration,
}

/// The figures of a whole run.
struct Summary {
    results: Vec<BoardResult>,
    /// (line, found, --optimal) of each board whose length differs.
    mismatches: Vec<(usize, usize, usize)>,
    /// Worker threads (`None`: a merge of units, run anywhere).
    threads: Option<usize>,
    cpu_total: Duration,
    wall: Duration,
    /// Peak resident memory (`None`: unknown, or a merge of units).
    rss: Option<u64>,
}

impl Summary {
    /// The summary of `results` (in file order), each compared with its
    /// `--optimal` length when given.
    fn new(
        results: Vec<BoardResult>,
        optimal: Option<&[usize]>,
        threads: Option<usize>,
        cpu_total: Duration,
        wall: Duration,
    ) -> Summary {
        let mismatches = match optimal {
            Some(opt) => results
                .iter()
                .zip(opt)
                .filter(|(r, &want)| r.length != want)
                .map(|(r, &want)| (r.line, r.length, want))
                .collect(),
            None => Vec::new(),
        };
        Summary {
            results,
            mismatches,
            threads,
            cpu_total,
            wall,
            rss: None,
        }
    }
}

/// The boards of `args.file` (their lines and boards), flooded from
/// `--start` and cut to `--boards`.
fn load_boards(args: &Args) -> anyhow::Result<Vec<(usize, Board)>> {
    let text = crate::cli::bench::read_bench_file(&args.file)?;
    let mut boards = Vec::new();
    for b in parse_board_set(&text).with_context(|| format!("reading {}", args.file.display()))? {
        let board = match args.start {
            Some(start) => start
                .apply(b.parsed.board)
                .with_context(|| format!("{}: board on line {}", args.file.display(), b.line))?,
            None => b.parsed.board,
        };
        boards.push((b.line, board));
        if args.bench.enough(boards.len()) {
            break;
        }
    }
    crate::cli::bench::no_boards(boards.len(), &args.file.to_string_lossy())?;
    Ok(boards)
}

/// The `--optimal` lengths, at least one per board.
fn load_optimal(path: &Path, boards: usize) -> anyhow::Result<Vec<usize>> {
    let v: Vec<usize> = read_lengths(path, |p, line, _| {
        format!("{}: line {line}: not a number", p.display())
    })?;
    if v.len() < boards {
        bail!(
            "{} has {} lengths for {} boards",
            path.display(),
            v.len(),
            boards
        );
    }
    Ok(v)
}

/// Solves `boards` on rayon's current pool, one search per board on one
/// thread, calling `done()` after each.
fn solve_boards(
    options: &SolveOptions,
    boards: &[(usize, Board)],
    done: &(dyn Fn() + Sync),
) -> anyhow::Result<Vec<BoardResult>> {
    boards
        .par_iter()
        .map(|(line, board)| {
            let (sol, t) = timed(|| solve(board, options));
            let sol = sol.with_context(|| format!("board on line {line}"))?;
            done();
            Ok(BoardResult {
                line: *line,
                length: sol.moves.len(),
                proven: sol.proven_optimal,
                nodes: sol.nodes,
                cpu: t.cpu,
            })
        })
        .collect()
}

/// Solves every board on a pool of `--threads` workers.
fn solve_all(
    args: &Args,
    boards: &[(usize, Board)],
    optimal: Option<&[usize]>,
) -> anyhow::Result<Summary> {
    let threads = args.bench.threads_or_cores();
    let pool = BenchOptions::pool(threads)?;
    let options = args.search.options();
    let bar = args.bench.progress(
        boards.len(),
        "{bar:40} {pos}/{len} boards, {elapsed} elapsed, eta {eta}",
    );
    let cpu0 = process_cpu();
    let wall0 = Instant::now();
    let results = pool.install(|| solve_boards(&options, boards, &|| bar.inc(1)));
    let wall = wall0.elapsed();
    let cpu_total = process_cpu().saturating_sub(cpu0);
    bar.finish_and_clear();
    let mut summary = Summary::new(results?, optimal, Some(threads), cpu_total, wall);
    summary.rss = peak_rss_bytes();
    Ok(summary)
}

/// The figures `print` shows of a summary.
struct Totals {
    total_moves: usize,
    proven: usize,
    nodes: u64,
    /// Median and largest CPU time of a board, and their sum.
    med: Duration,
    max: Duration,
    search_cpu: Duration,
}

fn totals(s: &Summary) -> Totals {
    let mut per: Vec<Duration> = s.results.iter().map(|r| r.cpu).collect();
    per.sort_unstable();
    Totals {
        total_moves: s.results.iter().map(|r| r.length).sum(),
        proven: s.results.iter().filter(|r| r.proven).count(),
        nodes: s.results.iter().map(|r| r.nodes).sum(),
        med: median(&per).unwrap_or_default(),
        max: per.last().copied().unwrap_or_default(),
        search_cpu: per.iter().sum(),
    }
}

/// The summary as `--json` prints it.
fn summary_json(args: &Shown, s: &Summary, optimal: bool) -> serde_json::Value {
    let t = totals(s);
    serde_json::json!({
        "file": args.file.display().to_string(),
        "boards": s.results.len(),
        "total_moves": t.total_moves,
        "proven_optimal": t.proven,
        "nodes": t.nodes,
        "differ_from_optimal": optimal.then_some(s.mismatches.len()),
        "threads": s.threads,
        "strategy": args.strategy,
        "cpu_s": s.cpu_total.as_secs_f64(),
        "search_cpu_s": t.search_cpu.as_secs_f64(),
        "wall_s": s.wall.as_secs_f64(),
        "median_ms": ms(t.med),
        "max_ms": ms(t.max),
        "peak_rss_bytes": s.rss,
    })
}

/// Prints the summary as text or JSON.
fn print(args: &Shown, s: &Summary, optimal: bool) -> anyhow::Result<()> {
    if args.json {
        let v = summary_json(args, s, optimal);
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    let Totals {
        total_moves,
        proven,
        nodes,
        med,
        max,
        search_cpu,
    } = totals(s);
    println!("file:            {}", args.file.display());
    println!("boards:          {}", s.results.len());
    println!("total moves:     {total_moves}");
    println!("proven optimal:  {proven}");
    println!("nodes expanded:  {nodes}");
    if optimal {
        println!("differ from --optimal: {}", s.mismatches.len());
    }
    match s.threads {
        Some(t) => println!("threads:         {t}"),
        None => println!("threads:         (in units)"),
    }
    println!(
        "cpu time:        {:.3} s (process), {:.3} s (searches)",
        s.cpu_total.as_secs_f64(),
        search_cpu.as_secs_f64()
    );
    println!("wall time:       {:.3} s", s.wall.as_secs_f64());
    println!(
        "per board:       median {:.3} ms, max {:.3} ms",
        ms(med),
        ms(max)
    );
    match s.rss {
        Some(b) => println!("peak RSS:        {:.1} MiB", mib(b)),
        None => println!("peak RSS:        unknown"),
    }
    Ok(())
}

/// What the printed summary shows of the command line.
struct Shown {
    file: PathBuf,
    strategy: Strategy,
    json: bool,
}

/// `bench flood` as a job of units sees it: the boards, their
/// `--optimal` lengths and the search. The merged report's times are
/// `cpu_s` and `wall_s` (both the boards' CPU times summed in a merge),
/// `search_cpu_s`, `median_ms` and `max_ms`; the facts of the machine,
/// `threads` and `peak_rss_bytes`, are null.
struct FloodBench {
    boards: Vec<(usize, Board)>,
    optimal: Option<Vec<usize>>,
    options: SolveOptions,
    shown: Shown,
}

impl FloodBench {
    fn new(args: &Args) -> anyhow::Result<FloodBench> {
        let boards = load_boards(args)?;
        let optimal = match &args.optimal {
            Some(p) => Some(load_optimal(p, boards.len())?),
            None => None,
        };
        Ok(FloodBench {
            boards,
            optimal,
            options: args.search.options(),
            shown: Shown {
                file: args.file.clone(),
                strategy: args.search.strategy,
                json: false,
            },
        })
    }
}

impl BenchGame for FloodBench {
    type Row = BoardResult;
    type Report = Summary;

    fn boards(&self) -> usize {
        self.boards.len()
    }

    fn solve(&self, range: std::ops::Range<usize>) -> Result<Vec<BoardResult>, JobError> {
        solve_boards(&self.options, &self.boards[range], &|| {})
            .map_err(|e| format!("{e:#}").into())
    }

    fn report(&self, rows: Vec<BoardResult>) -> Result<Summary, JobError> {
        let cpu: Duration = rows.iter().map(|r| r.cpu).sum();
        Ok(Summary::new(rows, self.optimal.as_deref(), None, cpu, cpu))
    }

    fn json(&self, s: &Summary) -> Result<String, JobError> {
        Ok(serde_json::to_string_pretty(&summary_json(
            &self.shown,
            s,
            self.optimal.is_some(),
        ))?)
    }

    fn print(&self, s: &Summary) -> anyhow::Result<()> {
        print(&self.shown, s, self.optimal.is_some())?;
        check(s)
    }
}

/// `bench flood` as a job for `gridbot merge` and `gridbot cluster`.
pub fn bench_plan(
    words: &[String],
    _dir: &Path,
) -> anyhow::Result<Box<dyn crate::cli::units::Plan>> {
    let args: Args = crate::cli::units::parse_words(words)?;
    let game = FloodBench::new(&args)?;
    crate::cli::bench_units::bench_plan(game, words, &args.units, args.bench.json)
}

/// Names the boards that differ from `--optimal` (the first 20) and
/// fails when there are any.
fn check(summary: &Summary) -> anyhow::Result<()> {
    for (line, got, want) in summary.mismatches.iter().take(20) {
        eprintln!("board on line {line}: length {got}, but --optimal says {want}");
    }
    anyhow::ensure!(
        summary.mismatches.is_empty(),
        "{} boards differ from the --optimal file",
        summary.mismatches.len()
    );
    Ok(())
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut game = FloodBench::new(&args)?;
    if args.units.units.is_some() {
        let threads = args.bench.threads;
        return crate::cli::bench_units::run_units(game, &args.units, args.bench.json, threads);
    }
    let summary = solve_all(&args, &game.boards, game.optimal.as_deref())?;
    game.shown.json = args.bench.json;
    print(&game.shown, &summary, game.optimal.is_some())?;
    if let Err(e) = check(&summary) {
        eprintln!("gridbot: error: {e}");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
