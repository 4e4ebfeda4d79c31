//! `gridbot bench fifteen FILE`: solves every board of a file (e.g. Korf's
//! 100) on a pool of worker threads and prints the library's summary
//! ([`crate::games::fifteen::bench`]) as text or JSON.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};

use super::SearchArgs;
use crate::cli::bench::{exit_code, read_lengths, BenchOptions};
use crate::cli::bench_units::{BenchGame, UnitOptions};
use crate::games::fifteen::bench::{self, BenchReport};
use crate::games::fifteen::parse::parse_board;
use crate::games::fifteen::pdb::OpenReport;
use crate::games::fifteen::pdb::PatternDb;
use crate::games::fifteen::rules::Board;
use crate::measure::{mib, ms, peak_rss_bytes};
use crate::units::JobError;

/// `gridbot bench fifteen`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Boards, one a line (16 numbers, or an sgt-fifteen game ID).
    pub file: PathBuf,
    /// Known optimal lengths, one a line, line for line.
    #[arg(long)]
    pub optimal: Option<PathBuf>,
    #[command(flatten)]
    /// The search options.
    pub search: SearchArgs,
    /// The options every bench takes.
    #[command(flatten)]
    pub bench: BenchOptions,
    /// Split into units (see `gridbot cluster`).
    #[command(flatten)]
    pub units: UnitOptions,
}

/// The boards of `args.file` with their 1-based lines, cut to `--boards`.
fn load_boards(args: &BenchArgs) -> anyhow::Result<Vec<(usize, Board)>> {
    let text = crate::cli::bench::read_bench_file(&args.file)?;
    let mut boards = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let b = parse_board(line, args.search.goal)
            .with_context(|| format!("{}: line {}", args.file.display(), i + 1))?;
        boards.push((i + 1, b));
        if args.bench.enough(boards.len()) {
            break;
        }
    }
    crate::cli::bench::no_boards(boards.len(), &args.file.to_string_lossy())?;
    check_goal(args, &boards)?;
    Ok(boards)
}

/// Refuses a set none of whose boards can reach the goal `--goal` names
/// (the other convention's boards all have the wrong parity), and warns
/// about the unsolvable ones of a mixed set.
fn check_goal(args: &BenchArgs, boards: &[(usize, Board)]) -> anyhow::Result<()> {
    use crate::games::fifteen::parse::Convention;
    let bad: Vec<usize> = boards
        .iter()
        .filter(|(_, b)| b.solvability().is_err())
        .map(|(line, _)| *line)
        .collect();
    let (goal, other) = match args.search.goal {
        Convention::BlankLast => ("blank-last", "blank-first"),
        Convention::BlankFirst => ("blank-first", "blank-last"),
    };
    if bad.len() == boards.len() {
        bail!(
            "{}: none of its {} boards can reach the {goal} goal (each has the wrong parity for it): \
             written for the other convention? try --goal {other}",
            args.file.display(),
            boards.len()
        );
    }
    if !bad.is_empty() {
        log::warn!(
            "{}: {} of {} boards cannot reach the {goal} goal and will count as unsolved (first on line {})",
            args.file.display(),
            bad.len(),
            boards.len(),
            bad[0]
        );
    }
    Ok(())
}

/// The `--optimal` lengths, exactly one per board.
fn load_optimal(path: &Path, boards: usize) -> anyhow::Result<Vec<u32>> {
    let v: Vec<u32> = read_lengths(path, |p, line, text| {
        format!("{}: line {line}: {text:?} is not a length", p.display())
    })?;
    if v.len() != boards {
        bail!(
            "{}: {} lengths for {} boards",
            path.display(),
            v.len(),
            boards
        );
    }
    Ok(v)
}

/// `bench fifteen` as a job of units sees it: the boards, their known
/// optima and the search; each unit opens the pattern databases itself
/// (from `--pdb-dir`, building them when missing). The merged report's
/// times are `search_cpu_s`, `wall_s`, `median_cpu_ms`, `max_cpu_ms`,
/// `median_first_ms`, `max_first_ms` and each result's `cpu` and
/// `first_time`; the facts of the machines (`threads`, `pdb_built`,
/// `pdb_build_s`, `pdb_load_s`, `pdb_bytes`, `peak_rss_bytes`) are null.
pub struct FifteenBench {
    boards: Vec<(usize, Board)>,
    expected: Option<Vec<u32>>,
    search: SearchArgs,
    time_limit: Option<std::time::Duration>,
    pdb: std::sync::OnceLock<Option<PatternDb>>,
}

impl FifteenBench {
    /// The bench of `args`: its boards and `--optimal` lengths read.
    pub fn new(args: &BenchArgs) -> anyhow::Result<FifteenBench> {
        let boards = load_boards(args)?;
        let expected = match &args.optimal {
            Some(p) => Some(load_optimal(p, boards.len())?),
            None => None,
        };
        let cells = boards
            .iter()
            .map(|(_, b)| b.cells().len())
            .max()
            .unwrap_or(0);
        Ok(FifteenBench {
            time_limit: args.search.time_limit(cells)?,
            boards,
            expected,
            search: args.search.clone(),
            pdb: std::sync::OnceLock::new(),
        })
    }

    /// Whether a board is 4x4 (the pattern databases are for those).
    fn any4(&self) -> bool {
        self.boards
            .iter()
            .any(|(_, b)| b.width() == 4 && b.height() == 4)
    }
}

impl BenchGame for FifteenBench {
    type Row = bench::BoardResult;
    type Report = BenchReport;

    fn boards(&self) -> usize {
        self.boards.len()
    }

    fn solve(&self, range: std::ops::Range<usize>) -> Result<Vec<Self::Row>, JobError> {
        if self.pdb.get().is_none() {
            let opened = self
                .search
                .open(self.any4())
                .map_err(|e| format!("{e:#}"))?;
            // Another thread may have opened them first: either will do.
            let _ = self.pdb.set(opened.map(|(db, _)| db));
        }
        let expected = self.expected.as_ref().map(|e| &e[range.clone()]);
        Ok(bench::solve_boards(
            &self.boards[range],
            expected,
            self.pdb.get().and_then(|d| d.as_ref()),
            self.time_limit,
            &|_| {},
        ))
    }

    fn report(&self, rows: Vec<Self::Row>) -> Result<BenchReport, JobError> {
        // Its rows have no wall time: their CPU times summed stand for it.
        let wall = rows.iter().map(|r| r.cpu).sum();
        Ok(bench::summarise(rows, wall))
    }

    fn json(&self, report: &BenchReport) -> Result<String, JobError> {
        Ok(report_json(&self.search, report, None, None, None).to_string())
    }

    fn print(&self, report: &BenchReport) -> anyhow::Result<()> {
        print_text(&self.search, report, None, None, self.expected.is_some());
        anyhow::ensure!(
            report.mismatches.is_empty() && report.solved == report.boards,
            "{} of {} boards solved, {} differ from --optimal",
            report.solved,
            report.boards,
            report.mismatches.len()
        );
        Ok(())
    }
}

/// `bench fifteen` as a job for `gridbot merge` and `gridbot cluster`.
pub fn bench_plan(
    words: &[String],
    _dir: &Path,
) -> anyhow::Result<Box<dyn crate::cli::units::Plan>> {
    let args: BenchArgs = crate::cli::units::parse_words(words)?;
    let game = FifteenBench::new(&args)?;
    crate::cli::bench_units::bench_plan(game, words, &args.units, args.bench.json)
}

/// Runs `bench fifteen`.
pub fn run_bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let game = FifteenBench::new(&args)?;
    if args.units.units.is_some() {
        let threads = args.bench.threads;
        return crate::cli::bench_units::run_units(game, &args.units, args.bench.json, threads);
    }
    let threads = args.bench.threads_or_cores();
    let pool = BenchOptions::pool(threads)?;
    let opened = pool.install(|| args.search.open(game.any4()))?;
    let boards = &game.boards;
    let bar = args.bench.progress(
        boards.len(),
        "{bar:40} {pos}/{len} boards, {elapsed} elapsed",
    );
    let report = pool.install(|| {
        bench::run(
            boards,
            game.expected.as_deref(),
            opened.as_ref().map(|(db, _)| db),
            game.time_limit,
            &|n| bar.set_position(n as u64),
        )
    });
    bar.finish_and_clear();
    let db = opened.as_ref().map(|(_, r)| r);
    if args.bench.json {
        let v = report_json(&args.search, &report, Some(threads), db, peak_rss_bytes());
        println!("{v}");
    } else {
        print_text(
            &args.search,
            &report,
            Some(threads),
            db,
            game.expected.is_some(),
        );
    }
    Ok(exit_code(
        report.mismatches.is_empty() && report.solved == report.boards,
    ))
}

/// The JSON of `bench fifteen`: the report, and the facts of the run
/// (its `threads`, the pattern databases `db` opened, the peak memory
/// `rss`), null where unknown (a merge of units).
fn report_json(
    search: &SearchArgs,
    report: &BenchReport,
    threads: Option<usize>,
    db: Option<&OpenReport>,
    rss: Option<u64>,
) -> serde_json::Value {
    let n = report.boards.max(1) as f64;
    serde_json::json!({
        "boards": report.boards,
        "solved": report.solved,
        "total_moves": report.total_moves,
        "total_clicks": report.total_clicks,
        "proven": report.proven,
        "mismatches": report.mismatches,
        "search_cpu_s": report.search_cpu.as_secs_f64(),
        "wall_s": report.wall.as_secs_f64(),
        "median_cpu_ms": ms(report.median_cpu),
        "max_cpu_ms": ms(report.max_cpu),
        "nodes": report.nodes,
        "nodes_per_board": report.nodes as f64 / n,
        "total_lower_bound": report.total_lower_bound,
        "first_solutions": report.first_solutions,
        "total_first_moves": report.total_first_moves,
        "median_first_ms": report.median_first.map(ms),
        "max_first_ms": report.max_first.map(ms),
        "threads": threads,
        "pdb": search.pdb.partition().map(|p| p.name()),
        "pdb_built": db.map(|d| d.built),
        "pdb_build_s": db.map(|d| d.build_time.as_secs_f64()),
        "pdb_load_s": db.map(|d| d.load_time.as_secs_f64()),
        "pdb_bytes": db.map(|d| d.bytes),
        "peak_rss_bytes": rss,
        "results": report.results,
    })
}

/// The text of `bench fifteen` (`threads`: none for a merge of units).
fn print_text(
    search: &SearchArgs,
    report: &BenchReport,
    threads: Option<usize>,
    db: Option<&OpenReport>,
    optimal: bool,
) {
    let threads = threads.map_or("in units".to_string(), |t| format!("{t} thread(s)"));
    println!(
        "boards:          {} ({} solved)",
        report.boards, report.solved
    );
    println!(
        "total moves:     {} ({} clicks)",
        report.total_moves, report.total_clicks
    );
    println!("proven optimal:  {}", report.proven);
    if optimal {
        println!("differ from --optimal: {}", report.mismatches.len());
        for (line, got, want) in &report.mismatches {
            println!(
                "  line {line}: found {} expected {want}",
                got.map_or("none".into(), |g| g.to_string())
            );
        }
    }
    println!(
        "cpu time:        {:.3} s (searches, {threads}), wall {:.3} s",
        report.search_cpu.as_secs_f64(),
        report.wall.as_secs_f64()
    );
    println!(
        "per board:       median {:.2} ms, max {:.2} ms",
        ms(report.median_cpu),
        ms(report.max_cpu)
    );
    println!(
        "nodes:           {} total, {:.0} per board",
        report.nodes,
        report.nodes as f64 / report.boards.max(1) as f64
    );
    println!("lower bounds:    {} in total", report.total_lower_bound);
    if let (Some(med), Some(max)) = (report.median_first, report.max_first) {
        println!(
            "first solutions: {} boards, {} moves in total; median {:.2} ms, max {:.2} ms (wall)",
            report.first_solutions,
            report.total_first_moves,
            ms(med),
            ms(max)
        );
    }
    if let Some(d) = db {
        println!(
            "pattern db:      {} ({} bytes; built {} table(s) in {:.1} s, loaded in {:.2} s)",
            search.pdb.partition().map_or("none", |p| p.name()),
            d.bytes,
            d.built,
            d.build_time.as_secs_f64(),
            d.load_time.as_secs_f64()
        );
    }
    if let Some(r) = peak_rss_bytes() {
        println!("peak memory:     {:.1} MiB", mib(r));
    }
}
