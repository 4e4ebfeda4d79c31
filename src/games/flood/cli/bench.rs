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
use crate::games::flood::{parse_board_set, solve, Board, StartCell};
use crate::measure::{median, mib, ms, peak_rss_bytes, process_cpu, timed};
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
}

struct BoardResult {
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
    threads: usize,
    cpu_total: Duration,
    wall: Duration,
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

/// Solves every board on a pool of `--threads` workers.
fn solve_all(args: &Args, boards: &[(usize, Board)]) -> anyhow::Result<Summary> {
    let threads = args.bench.threads_or_cores();
    let pool = BenchOptions::pool(threads)?;
    let options = args.search.options();
    let bar = args.bench.progress(
        boards.len(),
        "{bar:40} {pos}/{len} boards, {elapsed} elapsed, eta {eta}",
    );
    let cpu0 = process_cpu();
    let wall0 = Instant::now();
    let results: Vec<anyhow::Result<BoardResult>> = pool.install(|| {
        boards
            .par_iter()
            .map(|(line, board)| {
                let (sol, t) = timed(|| solve(board, &options));
                let sol = sol.with_context(|| format!("board on line {line}"))?;
                bar.inc(1);
                Ok(BoardResult {
                    length: sol.moves.len(),
                    proven: sol.proven_optimal,
                    nodes: sol.nodes,
                    cpu: t.cpu,
                })
            })
            .collect()
    });
    let wall = wall0.elapsed();
    let cpu_total = process_cpu().saturating_sub(cpu0);
    bar.finish_and_clear();
    Ok(Summary {
        results: results.into_iter().collect::<anyhow::Result<Vec<_>>>()?,
        mismatches: Vec::new(),
        threads,
        cpu_total,
        wall,
    })
}

/// Prints the summary as text or JSON.
fn print(args: &Args, s: &Summary, optimal: bool) -> anyhow::Result<()> {
    let total_moves: usize = s.results.iter().map(|r| r.length).sum();
    let proven = s.results.iter().filter(|r| r.proven).count();
    let nodes: u64 = s.results.iter().map(|r| r.nodes).sum();
    let mut per: Vec<Duration> = s.results.iter().map(|r| r.cpu).collect();
    per.sort_unstable();
    let med = median(&per).unwrap_or_default();
    let max = per.last().copied().unwrap_or_default();
    let search_cpu: Duration = per.iter().sum();
    let rss = peak_rss_bytes();
    if args.bench.json {
        let v = serde_json::json!({
            "file": args.file.display().to_string(),
            "boards": s.results.len(),
            "total_moves": total_moves,
            "proven_optimal": proven,
            "nodes": nodes,
            "differ_from_optimal": optimal.then_some(s.mismatches.len()),
            "threads": s.threads,
            "strategy": args.search.strategy,
            "cpu_s": s.cpu_total.as_secs_f64(),
            "search_cpu_s": search_cpu.as_secs_f64(),
            "wall_s": s.wall.as_secs_f64(),
            "median_ms": ms(med),
            "max_ms": ms(max),
            "peak_rss_bytes": rss,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    println!("file:            {}", args.file.display());
    println!("boards:          {}", s.results.len());
    println!("total moves:     {total_moves}");
    println!("proven optimal:  {proven}");
    println!("nodes expanded:  {nodes}");
    if optimal {
        println!("differ from --optimal: {}", s.mismatches.len());
    }
    println!("threads:         {}", s.threads);
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
    match rss {
        Some(b) => println!("peak RSS:        {:.1} MiB", mib(b)),
        None => println!("peak RSS:        unknown"),
    }
    Ok(())
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let boards = load_boards(&args)?;
    let optimal = match &args.optimal {
        Some(p) => Some(load_optimal(p, boards.len())?),
        None => None,
    };
    let mut summary = solve_all(&args, &boards)?;
    if let Some(opt) = &optimal {
        summary.mismatches = summary
            .results
            .iter()
            .zip(&boards)
            .zip(opt)
            .filter(|((r, _), &want)| r.length != want)
            .map(|((r, (line, _)), &want)| (*line, r.length, want))
            .collect();
    }
    print(&args, &summary, optimal.is_some())?;
    for (line, got, want) in summary.mismatches.iter().take(20) {
        eprintln!("board on line {line}: length {got}, but --optimal says {want}");
    }
    if !summary.mismatches.is_empty() {
        eprintln!(
            "gridbot: error: {} boards differ from the --optimal file",
            summary.mismatches.len()
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
