//! The Fling! commands: `analyse fling`, `bench fling`, `endgame fling`.
//! Argument structs derive `clap::Args`; the `run_*` functions print their
//! report and return the exit code. Library errors become `anyhow` errors
//! here, at the command line's edge.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde_json::json;

use super::analyse::{analyse, Analysis, WinOracle};
use super::bench::{
    analyse_boards, bench_levels, level_boards, level_report, load_levels, random_boards,
    time_changes, BoardFigures, ChangesTiming, LevelBench,
};
use super::draw::draw;
use super::endgame::Endgame;
use super::endgame_cli::{run_endgame, EndgameArgs};
use super::parse::parse_boards;
use super::rules::{coords, Board};
use crate::cli::args::parse_number;
use crate::cli::args::{parse_random_boards, parse_seed};
use crate::cli::bench::BenchOptions;
use crate::cli::bench_units::{BenchGame, UnitOptions};
use crate::games::registry::{verbs, Entry, GameCli, Verb};
use crate::units::JobError;

/// `gridbot endgame fling`: Fling!'s own verb.
pub const ENDGAME: Verb = Verb::new("endgame", "Build endgame tables by retrograde analysis");

/// Fling! in the registry.
pub static GAME: GameCli = GameCli {
    name: "fling",
    title: "Fling!",
    about: "A 7 by 8 board of balls; a ball flung towards another one that is not adjacent rolls \
         up to it, that ball takes over the motion and the last ball of the line rolls off; one \
         ball left wins. A design tool after Sturtevant's paper: exact solution counts, winning \
         first moves, reachable states (forward search), the cells where adding or removing a \
         ball changes solvability, retrograde endgame tables (winnable / won one way) that stop \
         the searches early; every answer is exhaustive, nothing is estimated.",
    hosts: &[],
    entries,
};

/// Fling!'s verbs, one line each.
fn entries() -> Vec<Entry> {
    vec![
        Entry::new(
            verbs::BENCH,
            "Analyse every board of the game's levels; reachable states per level",
            |a: BenchArgs| run_bench(&a),
        ),
        Entry::new(
            verbs::ANALYSE,
            "Solutions, winning moves, reachable states and critical cells of Fling! boards",
            |a: AnalyseArgs| run_analyse(&a),
        ),
        Entry::new(
            ENDGAME,
            "Build Fling! endgame tables for 2..=N balls",
            |a: EndgameArgs| run_endgame(&a),
        ),
    ]
}

/// `gridbot analyse fling FILE|BOARD`.
#[derive(Debug, Clone, Args)]
pub struct AnalyseArgs {
    /// A level file, `-` for standard input, or a board written inline
    /// (8 rows of 7 `o`/`.` separated by `/`).
    pub board: String,
    /// Analyse only board N of the file (counted from 0).
    #[arg(long = "board", value_name = "N", value_parser = parse_number::<usize, 0, 1_000_000>)]
    pub index: Option<usize>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Draw the board, its winning moves and the cells that change
    /// solvability into this PNG (needs one board: use --board N).
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// Replace the --png file if it exists.
    #[arg(long)]
    pub force: bool,
    /// Load endgame tables from this directory (without DIR: the cache
    /// folder `endgame fling` writes to by default) to stop searches
    /// early.
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "")]
    pub tables: Option<PathBuf>,
    /// Balls of the largest table to load (with --tables).
    #[arg(long, value_name = "K", default_value_t = 9, value_parser = parse_number::<u32, 2, 12>)]
    pub table_balls: u32,
}

/// `gridbot bench fling DIR`.
#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// The directory of `levelN.txt` files (the shared benchmarks'
    /// `fling/`).
    pub dir: PathBuf,
    /// The options every bench takes (`--boards N`: the first N boards in
    /// level order).
    #[command(flatten)]
    pub bench: BenchOptions,
    /// Draw reachable states per level (log axis) into this PNG.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Endgame tables for the add/remove timing (and the level analysis)
    /// from this directory (without DIR: the cache folder).
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "")]
    pub tables: Option<PathBuf>,
    /// Balls of the largest table to load (with --tables).
    #[arg(long, value_name = "K", default_value_t = 9, value_parser = clap::value_parser!(u32).range(2..=12))]
    pub table_balls: u32,
    /// Also time the add/remove analysis on this many random boards, with
    /// and without the tables.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_random_boards)]
    pub random: usize,
    /// Balls on each random board.
    #[arg(long, value_name = "K", default_value_t = 14, value_parser = clap::value_parser!(u32).range(2..=40))]
    pub balls: u32,
    /// Seed of the random boards.
    #[arg(long, default_value_t = 1, value_parser = parse_seed)]
    pub seed: u64,
    /// Split the levels' analysis into units (see `gridbot cluster`).
    #[command(flatten)]
    pub units: UnitOptions,
}

fn read_input(arg: &str) -> Result<(String, String)> {
    use crate::files::{read_text, SMALL_FILE_CAP};
    if arg == "-" {
        return Ok((read_text(arg, SMALL_FILE_CAP, "a board")?, "<stdin>".into()));
    }
    if std::fs::symlink_metadata(arg).is_ok() {
        return Ok((read_text(arg, SMALL_FILE_CAP, "a board")?, arg.to_string()));
    }
    if arg.contains('/') && arg.chars().all(|c| matches!(c, 'o' | 'O' | '.' | '/')) {
        return Ok((arg.to_string(), "<argument>".into()));
    }
    bail!(
        "{}: no such file, and not a board written inline (8 rows of 7 'o'/'.' separated by '/')",
        crate::files::shorten(arg)
    )
}

fn cell_name(c: u8) -> String {
    let (x, y) = coords(c as usize);
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

/// Where tables go when no directory is named:
/// `$XDG_CACHE_HOME/gridbot/fling`, else `~/.cache/gridbot/fling`.
pub(super) fn default_table_dir() -> Result<PathBuf> {
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        return Ok(PathBuf::from(x).join("gridbot").join("fling"));
    }
    match std::env::var_os("HOME").filter(|x| !x.is_empty()) {
        Some(h) => Ok(PathBuf::from(h).join(".cache").join("gridbot").join("fling")),
        None => bail!("no cache folder for the endgame tables: neither XDG_CACHE_HOME nor HOME is set (name one with --out/--tables DIR)"),
    }
}

/// The directory of `--tables [DIR]` (empty: the cache folder).
fn table_dir(arg: &Path) -> Result<PathBuf> {
    if arg.as_os_str().is_empty() {
        default_table_dir()
    } else {
        Ok(arg.to_path_buf())
    }
}

fn load_tables(dir: &Path, k: u32) -> Result<Endgame> {
    let dir = &table_dir(dir)?;
    let t = Instant::now();
    let eg = Endgame::load(dir, k, false)?;
    log::info!(
        "loaded endgame tables 2..={k} balls in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    Ok(eg)
}

fn analysis_json(index: usize, a: &Analysis, micros: u128) -> serde_json::Value {
    json!({
        "board": index,
        "bits": a.board.0,
        "balls": a.board.balls(),
        "solvable": a.solvable,
        "solutions": a.solutions,
        "moves_to_win": if a.solvable { Some(a.board.balls() - 1) } else { None },
        "winning_moves": a.winning_moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "reachable": a.reachable,
        "changes": a.changes.iter().map(|c| json!({
            "cell": cell_name(c.cell),
            "change": if c.removed { "remove" } else { "add" },
            "solvable_after": c.solvable_after,
        })).collect::<Vec<_>>(),
        "time_us": micros,
    })
}

/// Runs `analyse fling`.
pub fn run_analyse(args: &AnalyseArgs) -> Result<ExitCode> {
    let (text, source) = read_input(&args.board)?;
    let boards = parse_boards(&text).with_context(|| source.clone())?;
    let picked: Vec<(usize, Board)> = match args.index {
        Some(i) => {
            let b = boards.get(i).with_context(|| {
                format!(
                    "--board {i}: {source} holds {} boards (0..={})",
                    boards.len(),
                    boards.len() - 1
                )
            })?;
            vec![(i, b.board)]
        }
        None => boards
            .iter()
            .enumerate()
            .map(|(i, b)| (i, b.board))
            .collect(),
    };
    if args.png.is_some() && picked.len() != 1 {
        bail!(
            "--png draws one board but {source} holds {}: pick one with --board N",
            picked.len()
        );
    }
    if let Some(png) = &args.png {
        crate::files::check_output(png, crate::files::Replace::from_force(args.force))?;
    }
    let tables = match &args.tables {
        Some(d) => Some(load_tables(d, args.table_balls)?),
        None => None,
    };
    let oracle = tables.as_ref().map(|t| t as &dyn WinOracle);
    let mut out = Vec::new();
    for (i, board) in picked {
        let t = Instant::now();
        let a = analyse(board, oracle);
        let us = t.elapsed().as_micros();
        if args.json {
            out.push(analysis_json(i, &a, us));
        } else {
            println!("board {i}: {} balls", board.balls());
            println!("{board}");
            println!(
                "solvable={} solutions={} moves_to_win={} reachable={} time_ms={:.1}",
                if a.solvable { "yes" } else { "no" },
                a.solutions,
                if a.solvable {
                    (board.balls() - 1).to_string()
                } else {
                    "-".into()
                },
                a.reachable,
                us as f64 / 1000.0
            );
            let wm: Vec<String> = a.winning_moves.iter().map(|m| m.to_string()).collect();
            println!(
                "winning moves: {}",
                if wm.is_empty() {
                    "none".into()
                } else {
                    wm.join(", ")
                }
            );
            let ch: Vec<String> = a
                .changes
                .iter()
                .map(|c| {
                    format!(
                        "{} {} -> {}",
                        if c.removed { "remove" } else { "add" },
                        cell_name(c.cell),
                        if c.solvable_after {
                            "solvable"
                        } else {
                            "unsolvable"
                        }
                    )
                })
                .collect();
            println!(
                "changes: {}",
                if ch.is_empty() {
                    "none".into()
                } else {
                    ch.join(", ")
                }
            );
            println!();
        }
        if let Some(png) = &args.png {
            let replace = crate::files::Replace::from_force(args.force);
            crate::files::write_png(png, &draw(board, &a.winning_moves, &a.changes), replace)?;
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    }
    Ok(ExitCode::SUCCESS)
}

/// The levels of `bench fling`, cut to the first `--boards` boards.
fn bench_levels_of(args: &BenchArgs) -> Result<Vec<(u32, Vec<super::parse::LevelBoard>)>> {
    let mut levels = load_levels(&args.dir)?;
    if let Some(n) = args.bench.boards {
        let mut left = n;
        for (_, boards) in &mut levels {
            boards.truncate(left);
            left -= boards.len();
        }
        levels.retain(|(_, boards)| !boards.is_empty());
    }
    Ok(levels)
}

/// `bench fling`'s analysis of the levels as a job of units sees it:
/// each unit loads the endgame tables of `--tables` itself. The merged
/// report's times are `wall_seconds` (the boards' times summed),
/// `cpu_seconds` (0 in a merge) and each board's `micros`. `--random` is a
/// timing of one thread, not a file's boards: it cannot be split.
struct FlingBench {
    levels: Vec<(u32, Vec<super::parse::LevelBoard>)>,
    boards: Vec<(u32, usize, Board)>,
    tables: Option<(PathBuf, u32)>,
    loaded: std::sync::OnceLock<Option<Endgame>>,
    plot: Option<PathBuf>,
}

impl FlingBench {
    fn new(args: &BenchArgs, words: &[String]) -> Result<FlingBench> {
        crate::cli::bench_units::refuse(
            words,
            (args.random > 0).then(|| {
                "--random times the analysis of random boards on one thread; run it \
                 without --units"
                    .to_string()
            }),
        )?;
        let levels = bench_levels_of(args)?;
        Ok(FlingBench {
            boards: level_boards(&levels),
            levels,
            tables: args.tables.clone().map(|d| (d, args.table_balls)),
            loaded: std::sync::OnceLock::new(),
            plot: args.plot.clone(),
        })
    }
}

impl BenchGame for FlingBench {
    type Row = BoardFigures;
    type Report = LevelBench;

    fn boards(&self) -> usize {
        self.boards.len()
    }

    fn solve(&self, range: std::ops::Range<usize>) -> Result<Vec<BoardFigures>, JobError> {
        if self.loaded.get().is_none() {
            let tables = match &self.tables {
                Some((d, k)) => Some(load_tables(d, *k).map_err(|e| format!("{e:#}"))?),
                None => None,
            };
            // Another thread may have loaded them first: either will do.
            let _ = self.loaded.set(tables);
        }
        let oracle = self.loaded.get().and_then(|t| t.as_ref());
        Ok(analyse_boards(
            &self.boards[range],
            oracle.map(|t| t as &dyn WinOracle),
        ))
    }

    fn report(&self, rows: Vec<BoardFigures>) -> Result<LevelBench, JobError> {
        let micros: u64 = rows.iter().map(|b| b.micros).sum();
        Ok(level_report(&self.levels, rows, micros as f64 / 1e6, 0.0))
    }

    fn json(&self, r: &LevelBench) -> Result<String, JobError> {
        Ok(serde_json::to_string_pretty(&serde_json::to_value(r)?)?)
    }

    fn print(&self, r: &LevelBench) -> Result<()> {
        if let Some(p) = &self.plot {
            super::plot::plot_levels(&r.levels, p)?;
        }
        print_levels(r);
        Ok(())
    }
}

/// `bench fling` as a job for `gridbot merge` and `gridbot cluster`.
pub fn bench_plan(words: &[String], _dir: &Path) -> Result<Box<dyn crate::cli::units::Plan>> {
    let args: BenchArgs = crate::cli::units::parse_words(words)?;
    let game = FlingBench::new(&args, words)?;
    crate::cli::bench_units::bench_plan(game, words, &args.units, args.bench.json)
}

/// Runs `bench fling`.
pub fn run_bench(args: &BenchArgs) -> Result<ExitCode> {
    if args.units.units.is_some() {
        let game = FlingBench::new(args, &crate::cli::units::own_words("bench"))?;
        let threads = args.bench.threads;
        return crate::cli::bench_units::run_units(game, &args.units, args.bench.json, threads);
    }
    let threads = args.bench.threads_or_cores();
    let levels = bench_levels_of(args)?;
    let tables = match &args.tables {
        Some(d) => Some(load_tables(d, args.table_balls)?),
        None => None,
    };
    let oracle = tables.as_ref().map(|t| t as &dyn WinOracle);
    let pool = BenchOptions::pool(threads)?;
    let r = pool.install(|| bench_levels(&levels, oracle));
    let random = if args.random > 0 {
        let boards = random_boards(args.random, args.balls, args.seed);
        let without = time_changes(&boards, None);
        let with = oracle.map(|o| time_changes(&boards, Some(o)));
        Some((without, with))
    } else {
        None
    };
    if let Some(p) = &args.plot {
        super::plot::plot_levels(&r.levels, p)?;
    }
    if args.bench.json {
        let mut v = serde_json::to_value(&r)?;
        if let Some((without, with)) = &random {
            v["random_changes"] = json!({"balls": args.balls, "seed": args.seed, "without_tables": without, "with_tables": with});
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(ExitCode::SUCCESS);
    }
    print_levels(&r);
    if let Some((without, with)) = random {
        print_random(args, &without, with.as_ref())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The text report of the levels' analysis.
fn print_levels(r: &LevelBench) {
    println!("level boards balls  mean_reachable  min_reachable  max_reachable");
    for l in &r.levels {
        println!(
            "{:>5} {:>6} {:>5.1} {:>15.1} {:>14} {:>14}",
            l.level, l.boards, l.mean_balls, l.mean_reachable, l.min_reachable, l.max_reachable
        );
    }
    let total: u64 = r.boards.iter().map(|b| b.reachable).sum();
    let max_us = r.boards.iter().map(|b| b.micros).max().unwrap_or(0);
    println!(
        "boards={} solvable={} reachable_total={} wall_s={:.2} cpu_s={:.2} slowest_board_ms={:.1}",
        r.boards.len(),
        r.boards.iter().filter(|b| b.solvable).count(),
        total,
        r.wall_seconds,
        r.cpu_seconds,
        max_us as f64 / 1000.0
    );
    if r.not_unique.is_empty() {
        println!("unique: every board has exactly one solution");
    } else {
        println!(
            "boards without exactly one solution ({}):",
            r.not_unique.len()
        );
        for b in &r.not_unique {
            println!(
                "  level {} board {}: {} solutions",
                b.level, b.index, b.solutions
            );
        }
    }
}

/// The text report of the add/remove timing, without and with the
/// tables; an error when the two disagree.
fn print_random(
    args: &BenchArgs,
    without: &ChangesTiming,
    with: Option<&ChangesTiming>,
) -> Result<()> {
    println!(
        "add/remove analysis of {} random {}-ball boards (seed {}), one thread:",
        without.boards, args.balls, args.seed
    );
    println!(
        "  without tables: {:.3} s wall, {:.3} s CPU, {} nodes, {} solvable, {} changing cells",
        without.seconds, without.cpu_seconds, without.nodes, without.solvable, without.changes
    );
    if let Some(w) = with {
        println!(
            "  with tables up to {} balls: {:.3} s wall, {:.3} s CPU, {} nodes, {} solvable, {} changing cells; speed-up {:.2}x CPU, {:.2}x wall",
            args.table_balls,
            w.seconds,
            w.cpu_seconds,
            w.nodes,
            w.solvable,
            w.changes,
            without.cpu_seconds / w.cpu_seconds.max(1e-9),
            without.seconds / w.seconds.max(1e-9)
        );
        if (w.solvable, w.changes) != (without.solvable, without.changes) {
            bail!("the tables disagree with the search: they are wrong or damaged");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_inputs_are_errors_naming_the_problem() {
        let e = read_input("/no/such/fling.txt").unwrap_err();
        assert!(e.to_string().contains("no such file"));
        let e = run_analyse(&AnalyseArgs {
            board: "o....../......x".into(),
            index: None,
            json: false,
            png: None,
            force: false,
            tables: None,
            table_balls: 9,
        });
        assert!(e.is_err());
        let e = run_analyse(&AnalyseArgs {
            board: "o.o..../......./......./......./......./......./......./.......".into(),
            index: Some(3),
            json: true,
            png: None,
            force: false,
            tables: None,
            table_balls: 9,
        })
        .unwrap_err();
        assert!(e.to_string().contains("--board 3"), "{e}");
        let e = run_analyse(&AnalyseArgs {
            board: "o.o..../......./......./......./......./......./......./.......".into(),
            index: None,
            json: true,
            png: None,
            force: false,
            tables: Some("/no/such/tables".into()),
            table_balls: 3,
        })
        .unwrap_err();
        assert!(e.to_string().contains("missing"), "{e}");
    }
}
