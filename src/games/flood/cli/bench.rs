//! `gridbot bench flood FILE`: solves every board of a file (one square
//! board per line, or boards over several lines separated by blank lines;
//! see `parse_board_set`), optionally flooding from `--start`, boards in parallel on a rayon pool with one search per
//! board on one thread, and prints a summary: boards, total moves, boards
//! proven optimal, boards differing from `--optimal` (non-zero exit if any),
//! total CPU time, wall time, median and max per board, peak resident
//! memory.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::games::flood::{parse_board_set, solve, StartCell};
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
    /// Worker threads, 1 to 256 (default: one per core).
    #[arg(long, value_parser = crate::cli::args::parse_threads)]
    threads: Option<usize>,
    /// Search options, applied to each board's search.
    #[command(flatten)]
    search: SearchArgs,
    /// Only the first N boards.
    #[arg(long)]
    limit: Option<usize>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
}

struct BoardResult {
    length: usize,
    proven: bool,
    nodes: u64,
    cpu: Duration,
}

/// CPU time used by the calling thread.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// CPU time (user + system) used by the whole process.
fn process_cpu() -> Duration {
    // SAFETY: getrusage fills the struct we own.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

/// Peak resident set size in bytes (VmHWM), when /proc is available.
pub fn peak_rss_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("reading {}", args.file.display()))?;
    let mut boards = Vec::new();
    for b in parse_board_set(&text).with_context(|| format!("reading {}", args.file.display()))? {
        let board = match args.start {
            Some(start) => start
                .apply(b.parsed.board)
                .with_context(|| format!("{}: board on line {}", args.file.display(), b.line))?,
            None => b.parsed.board,
        };
        boards.push((b.line, board));
        if args.limit.is_some_and(|n| boards.len() >= n) {
            break;
        }
    }
    if boards.is_empty() {
        bail!("{}: no boards", args.file.display());
    }
    let optimal: Option<Vec<usize>> = match &args.optimal {
        None => None,
        Some(p) => {
            let t =
                std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            let v = t
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
                .map(|(i, l)| {
                    l.trim()
                        .parse::<usize>()
                        .with_context(|| format!("{}: line {}: not a number", p.display(), i + 1))
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            if v.len() < boards.len() {
                bail!(
                    "{} has {} lengths for {} boards",
                    p.display(),
                    v.len(),
                    boards.len()
                );
            }
            Some(v)
        }
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let options = args.search.options();
    let bar = if std::io::stderr().is_terminal() && !args.json {
        let b = indicatif::ProgressBar::new(boards.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} boards, {elapsed} elapsed, eta {eta}",
            )
            .unwrap(),
        );
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let cpu0 = process_cpu();
    let wall0 = Instant::now();
    let results: Vec<anyhow::Result<BoardResult>> = pool.install(|| {
        boards
            .par_iter()
            .map(|(line, board)| {
                let t0 = thread_cpu();
                let sol =
                    solve(board, &options).with_context(|| format!("board on line {line}"))?;
                let cpu = thread_cpu().saturating_sub(t0);
                bar.inc(1);
                Ok(BoardResult {
                    length: sol.moves.len(),
                    proven: sol.proven_optimal,
                    nodes: sol.nodes,
                    cpu,
                })
            })
            .collect()
    });
    let wall = wall0.elapsed();
    let cpu_total = process_cpu().saturating_sub(cpu0);
    bar.finish_and_clear();
    let results = results.into_iter().collect::<anyhow::Result<Vec<_>>>()?;
    let total_moves: usize = results.iter().map(|r| r.length).sum();
    let proven = results.iter().filter(|r| r.proven).count();
    let nodes: u64 = results.iter().map(|r| r.nodes).sum();
    let mut mismatches = Vec::new();
    if let Some(opt) = &optimal {
        for (i, r) in results.iter().enumerate() {
            if r.length != opt[i] {
                mismatches.push((boards[i].0, r.length, opt[i]));
            }
        }
    }
    let mut per: Vec<Duration> = results.iter().map(|r| r.cpu).collect();
    per.sort_unstable();
    let median = per[per.len() / 2];
    let max = *per.last().unwrap();
    let search_cpu: Duration = per.iter().sum();
    let rss = peak_rss_bytes();
    let mib = |b: u64| b as f64 / (1 << 20) as f64;
    if args.json {
        let v = serde_json::json!({
            "file": args.file.display().to_string(),
            "boards": results.len(),
            "total_moves": total_moves,
            "proven_optimal": proven,
            "nodes": nodes,
            "differ_from_optimal": optimal.as_ref().map(|_| mismatches.len()),
            "threads": threads,
            "strategy": args.search.strategy,
            "cpu_s": cpu_total.as_secs_f64(),
            "search_cpu_s": search_cpu.as_secs_f64(),
            "wall_s": wall.as_secs_f64(),
            "median_ms": median.as_secs_f64() * 1e3,
            "max_ms": max.as_secs_f64() * 1e3,
            "peak_rss_bytes": rss,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!("file:            {}", args.file.display());
        println!("boards:          {}", results.len());
        println!("total moves:     {total_moves}");
        println!("proven optimal:  {proven}");
        println!("nodes expanded:  {nodes}");
        if optimal.is_some() {
            println!("differ from --optimal: {}", mismatches.len());
        }
        println!("threads:         {threads}");
        println!(
            "cpu time:        {:.3} s (process), {:.3} s (searches)",
            cpu_total.as_secs_f64(),
            search_cpu.as_secs_f64()
        );
        println!("wall time:       {:.3} s", wall.as_secs_f64());
        println!(
            "per board:       median {:.3} ms, max {:.3} ms",
            median.as_secs_f64() * 1e3,
            max.as_secs_f64() * 1e3
        );
        match rss {
            Some(b) => println!("peak RSS:        {:.1} MiB", mib(b)),
            None => println!("peak RSS:        unknown"),
        }
    }
    for (line, got, want) in mismatches.iter().take(20) {
        eprintln!("board on line {line}: length {got}, but --optimal says {want}");
    }
    if !mismatches.is_empty() {
        eprintln!(
            "gridbot: error: {} boards differ from the --optimal file",
            mismatches.len()
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
