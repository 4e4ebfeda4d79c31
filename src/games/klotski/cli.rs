//! Klotski's command line: `gridbot solve|analyse|bench klotski`. The work
//! is in the library modules; this file parses arguments and prints.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};

use super::bench::{bench, report, solve_rows, BenchReport, Row};
use super::parse::{parse_puzzles, Puzzle};
use super::solve::{reachable, solve_astar_saved, solve_saved};
use crate::cli::args::{read_input, source_name, SearchLimits};
use crate::cli::bench::BenchOptions;
use crate::cli::bench_units::{self, BenchGame, UnitOptions};
use crate::games::registry::{verbs, Entry, GameCli};
use crate::solver::LayerFiles;
use crate::units::JobError;

/// Klotski in the registry.
pub static GAME: GameCli = GameCli {
    name: "klotski",
    title: "Klotski",
    about: "Blocks of any shape slide on a floor with walls; the target block `*` must end on \
         the goal cells, through the exit only it may cross. One move takes one block any \
         distance along any path (GNOME Klotski's count). Maps in the game's own characters \
         (docs/klotski.md); the game's 28 puzzles in fixtures/klotski/puzzles.txt. Solver: \
         exact breadth-first search over positions where identical blocks are one (fewest \
         moves; proves unsolvable maps), or with `--search astar` layered walks within a \
         lower bound raised until one finds the minimum. Played on GNOME Klotski \
         (gnome-klotski, GTK 3) by drags, the board found by its frame, the puzzle by the \
         window's title, the game's move counter read.",
    hosts: &["gnome-klotski (GNOME Klotski, GTK 3), desktop"],
    entries,
};

/// Klotski's verbs, one line each.
fn entries() -> Vec<Entry> {
    vec![
        Entry::new(verbs::SOLVE, "Solve Klotski puzzles", run_solve),
        Entry::new(
            verbs::PLAY,
            "Play the gnome-klotski window already open (its title names the puzzle)",
            super::play_cli::run_play,
        ),
        Entry::new(
            verbs::DEMO,
            "gnome-klotski on a virtual display, a puzzle played to the win by drags",
            super::play_cli::run_demo,
        ),
        Entry::new(
            verbs::VALIDATE,
            "Play puzzles on gnome-klotski; compare the game's counter with the proven minima",
            super::play_cli::run_validate,
        ),
        Entry::new(
            verbs::BENCH,
            "Solve every puzzle of a file and compare with its stated minimum",
            run_bench,
        ),
        Entry::new(
            verbs::FIXTURES,
            "Check or record GNOME Klotski's screenshot fixtures",
            super::play_cli::run_fixtures,
        ),
        Entry::new(
            verbs::ANALYSE,
            "The positions a Klotski puzzle reaches: how many, how many solved, the farthest",
            run_analyse,
        ),
    ]
}

/// The puzzles of an argument (a map `|row|row|`, a file, or `-`), only
/// the one called `name` when given.
fn puzzles_of(arg: &str, name: Option<&str>) -> anyhow::Result<Vec<Puzzle>> {
    // A map on the command line starts with `|` (the shared board
    // heuristic knows no walls or spaces).
    let text = if arg.starts_with('|') && !std::path::Path::new(arg).exists() {
        arg.to_string()
    } else {
        read_input(arg)?
    };
    let mut puzzles = parse_puzzles(&text)
        .with_context(|| format!("reading puzzles from {}", source_name(arg)))?;
    if let Some(n) = name {
        puzzles.retain(|p| p.name.eq_ignore_ascii_case(n));
        if puzzles.is_empty() {
            bail!("no puzzle called {n:?} in {}", source_name(arg));
        }
    }
    if puzzles.is_empty() {
        bail!("no puzzle in {}", source_name(arg));
    }
    Ok(puzzles)
}

/// The arguments of `solve klotski` and `analyse klotski`.
#[derive(Debug, clap::Args)]
pub struct PuzzleArgs {
    /// A map on one line (`|####|#*a#|#..#|`), a file of puzzles, or `-`.
    puzzles: String,
    /// Only the puzzle of this name (e.g. "Red Donkey").
    #[arg(long)]
    puzzle: Option<String>,
    #[command(flatten)]
    limits: SearchLimits,
    /// Print JSON (one object a puzzle) instead of text.
    #[arg(long)]
    json: bool,
    /// Keep the search's layers in this folder (one puzzle only): only the
    /// last two stay in memory, and a search stopped by its limits or
    /// killed goes on from its last whole layer when run again with the
    /// same folder (`solve` only). With `--search astar`, the walks start
    /// from the whole layers in the folder and write nothing.
    #[arg(long, value_name = "DIR")]
    layers: Option<PathBuf>,
    /// `layered`: breadth-first search by layers, every position closer
    /// than the minimum; `astar`: layered walks within a limit of moves by
    /// a lower bound (blocks that cut the target from the goal), the limit
    /// raised until one finds a solution (the same minimum, proven, fewer
    /// positions when the bound cuts).
    #[arg(long, value_enum, default_value_t = Search::Layered)]
    search: Search,
    /// `--search astar`: the first walk's limit, in moves (a walk within a
    /// limit at or above the minimum finds it, proven; a walk that finds
    /// nothing proves the minimum above its limit).
    #[arg(long, default_value_t = 0)]
    from: u32,
}

/// The searches `solve klotski` offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Search {
    /// Breadth-first search by sorted layers.
    Layered,
    /// Layered walks within a limit raised as IDA* raises it.
    Astar,
}

fn run_solve(args: PuzzleArgs) -> anyhow::Result<ExitCode> {
    let puzzles = puzzles_of(&args.puzzles, args.puzzle.as_deref())?;
    if args.layers.is_some() && puzzles.len() > 1 {
        bail!("--layers keeps one search: name its puzzle with --puzzle");
    }
    let mut code = ExitCode::SUCCESS;
    for p in &puzzles {
        let files = match &args.layers {
            Some(dir) => {
                let what = format!("klotski {}: {}", p.name, p.board.to_text(&p.start));
                Some(LayerFiles::open(dir, &what)?)
            }
            None => None,
        };
        let budget = args.limits.budget();
        let o = match args.search {
            Search::Layered => solve_saved(&p.board, &p.start, &budget, files.as_ref())?,
            Search::Astar => {
                solve_astar_saved(&p.board, &p.start, &budget, args.from, files.as_ref())?
            }
        };
        let time_ms = o.elapsed.as_secs_f64() * 1e3;
        let described = o
            .moves
            .as_deref()
            .map(|m| p.board.describe(&p.start, m))
            .unwrap_or_default();
        if o.moves.is_none() && !o.proven_unsolvable {
            code = ExitCode::FAILURE;
        }
        if args.json {
            let v = serde_json::json!({
                "puzzle": p.name,
                "map": p.board.to_text(&p.start),
                "moves": described,
                "length": o.len(),
                "lower_bound": o.lower_bound,
                "optimal": o.optimality(),
                "nodes": o.nodes,
                "time_ms": (time_ms * 1000.0).round() / 1000.0,
                "stopped": o.stopped.map(|s| s.to_string()),
            });
            println!("{}", serde_json::to_string(&v)?);
            continue;
        }
        println!("# {}", p.name);
        println!("{}", o.verdict(|| described.join(", ")));
        println!(
            "length={} lower_bound={} optimal={} nodes={} time_ms={time_ms:.3}",
            o.len().map_or("none".into(), |l| l.to_string()),
            if o.proven_unsolvable {
                "inf".into()
            } else {
                o.lower_bound.to_string()
            },
            o.optimality(),
            o.nodes,
        );
    }
    Ok(code)
}

/// `gridbot bench klotski`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// A file of puzzles (e.g. fixtures/klotski/puzzles.txt).
    file: PathBuf,
    #[command(flatten)]
    limits: SearchLimits,
    /// The options every bench takes (the puzzles run one after another).
    #[command(flatten)]
    bench: BenchOptions,
    /// Split into units (see `gridbot cluster`).
    #[command(flatten)]
    units: UnitOptions,
}

/// `bench klotski` as a job of units sees it: the puzzles and the
/// limits of each search. The merged report's times are `rows[].ms` and
/// `wall_ms`.
struct KlotskiBench {
    puzzles: Vec<Puzzle>,
    limits: SearchLimits,
}

impl KlotskiBench {
    fn new(args: &BenchArgs) -> anyhow::Result<KlotskiBench> {
        let text = crate::cli::bench::read_bench_file(&args.file)?;
        let puzzles = args.bench.first(
            parse_puzzles(&text).with_context(|| format!("reading {}", args.file.display()))?,
            &args.file.to_string_lossy(),
        )?;
        Ok(KlotskiBench {
            puzzles,
            limits: args.limits.clone(),
        })
    }
}

impl BenchGame for KlotskiBench {
    type Row = Row;
    type Report = BenchReport;

    fn boards(&self) -> usize {
        self.puzzles.len()
    }

    fn solve(&self, range: std::ops::Range<usize>) -> Result<Vec<Row>, JobError> {
        Ok(solve_rows(
            &self.puzzles[range],
            || self.limits.budget(),
            &|_| {},
        ))
    }

    fn report(&self, rows: Vec<Row>) -> Result<BenchReport, JobError> {
        Ok(report(rows))
    }

    fn json(&self, r: &BenchReport) -> Result<String, JobError> {
        Ok(serde_json::to_string_pretty(r)?)
    }

    fn print(&self, r: &BenchReport) -> anyhow::Result<()> {
        print_text(r);
        let bad = r.rows.iter().filter(|row| !row.agrees()).count();
        anyhow::ensure!(
            bad == 0,
            "{bad} puzzle(s) unsolved or differ from their stated minimum"
        );
        Ok(())
    }
}

fn run_bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let game = KlotskiBench::new(&args)?;
    if args.units.units.is_some() {
        return bench_units::run_units(game, &args.units, args.bench.json, Some(1));
    }
    let bar = args
        .bench
        .progress(game.puzzles.len(), "{wide_bar} {pos}/{len}");
    let r = bench(&game.puzzles, || args.limits.budget(), &|done| {
        bar.set_position(done as u64)
    });
    bar.finish_and_clear();
    if args.bench.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print_text(&r);
    }
    Ok(if r.rows.iter().all(|row| row.agrees()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The text report of `bench klotski`: a line a puzzle and the totals.
fn print_text(r: &BenchReport) {
    for row in &r.rows {
        println!(
            "{:<16} moves={:<5} expected={:<4} optimal={:<10} nodes={:<10} ms={:.1}{}",
            row.name,
            row.found.map_or("none".into(), |f| f.to_string()),
            row.expected.map_or("-".into(), |e| e.to_string()),
            row.optimal,
            row.nodes,
            row.ms,
            row.stopped
                .as_deref()
                .map_or(String::new(), |s| format!(" stopped by the {s}")),
        );
    }
    let bad = r.rows.iter().filter(|row| !row.agrees()).count();
    println!(
        "puzzles={} disagreements={bad} nodes={} wall_ms={:.1}",
        r.rows.len(),
        r.nodes,
        r.wall_ms
    );
}

/// `bench klotski` as a job for `gridbot merge` and `gridbot cluster`.
pub fn bench_plan(
    words: &[String],
    _dir: &std::path::Path,
) -> anyhow::Result<Box<dyn crate::cli::units::Plan>> {
    let args: BenchArgs = crate::cli::units::parse_words(words)?;
    let game = KlotskiBench::new(&args)?;
    bench_units::bench_plan(game, words, &args.units, args.bench.json)
}

fn run_analyse(args: PuzzleArgs) -> anyhow::Result<ExitCode> {
    if args.layers.is_some() {
        bail!("--layers is for `solve klotski`: `analyse` keeps its layers in memory");
    }
    for p in puzzles_of(&args.puzzles, args.puzzle.as_deref())? {
        let r = reachable(&p.board, &p.start, &args.limits.budget());
        let v = serde_json::json!({
            "puzzle": p.name,
            "blocks": p.board.blocks(),
            "shapes": p.board.classes(),
            "positions": r.states,
            "solved": r.goals,
            "farthest": r.max_depth,
            "exhausted": r.exhausted,
            "stopped": r.stopped.map(|s| s.to_string()),
        });
        if args.json {
            println!("{}", serde_json::to_string(&v)?);
        } else {
            println!(
                "{}: blocks={} shapes={} positions={}{} solved={} farthest={}",
                p.name,
                p.board.blocks(),
                p.board.classes(),
                r.states,
                if r.exhausted { "" } else { "+ (stopped)" },
                r.goals,
                r.max_depth
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
