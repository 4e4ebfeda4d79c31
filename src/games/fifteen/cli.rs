//! Fifteen's command line: `gridbot solve fifteen ID|FILE|-` and
//! `gridbot bench fifteen FILE`. Thin glue: arguments (clap derive),
//! reading the input, opening the pattern databases, printing the
//! library's results.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

pub mod bench;
pub mod bench_read;
pub mod fixtures;
pub mod hosted;
pub mod read;

use super::parse::{parse_board, Convention};
use super::pdb::{cache_dir, OpenReport, Partition, PatternDb};
use super::rules::{clicks, Board};
use super::solve::{solve, SolveOptions};
use crate::cli::args::{parse_duration, read_input, source_name};
use crate::games::registry::{verbs, Entry, GameCli};
pub use bench::{run_bench, BenchArgs};

/// Fifteen in the registry.
pub static GAME: GameCli = GameCli {
    name: "fifteen",
    title: "Fifteen",
    about: "The sliding-tile puzzle (sgt-fifteen): slide tiles into the gap until they are in \
         row order with the gap at the bottom right; half of all positions are unsolvable \
         (parity) and are refused at once. Solver: IDA* with additive pattern databases \
         (7-8, 6-6-3 or 5-5-5 with the mirrored lookup) on 4x4, Manhattan distance plus \
         linear conflicts elsewhere: proven optimal up to 16 cells unless a budget ends it; \
         larger boards get a constructive first solution at once, improved within the \
         budget, with a proven lower bound.",
    hosts: &[
        "sgt-fifteen of Debian's sgt-puzzles, desktop",
        "fifteen.html of the sgt web build, Chromium",
    ],
    entries,
};

/// Fifteen's verbs, one line each.
fn entries() -> Vec<Entry> {
    vec![
        Entry::new(
            verbs::SOLVE,
            "Solve a Fifteen board or sgt-fifteen game ID",
            run_solve,
        ),
        Entry::new(
            verbs::READ,
            "Read an sgt-fifteen board off a screenshot",
            read::run,
        ),
        Entry::new(
            verbs::PLAY,
            "Play sgt-fifteen on the current display",
            hosted::run_play_cmd,
        ),
        Entry::new(
            verbs::DEMO,
            "Play sgt-fifteen (or fifteen.html in Chromium) to a win on a virtual display",
            hosted::run_demo_cmd,
        ),
        Entry::new(
            verbs::VALIDATE,
            "Play games sgt-fifteen generates and compare with the game's own hints",
            hosted::run_validate_cmd,
        ),
        Entry::new(
            verbs::BENCH,
            "Solve every board of a file (e.g. Korf's 100) and summarise",
            run_bench,
        ),
        Entry::new(
            verbs::BENCH_READ,
            "Read every sgt-fifteen screenshot of a folder and report time per image",
            bench_read::run,
        ),
        Entry::new(
            verbs::FIXTURES,
            "Check or record the sgt-fifteen screenshot fixtures",
            fixtures::run,
        ),
    ]
}

/// Which pattern databases to use on 4x4 boards: one of the
/// [`Partition`]s, or none (Manhattan distance plus linear conflicts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PdbChoice(Option<Partition>);

impl PdbChoice {
    /// No database.
    pub const NONE: PdbChoice = PdbChoice(None);

    /// The `--pdb` values: a partition's name (`78`, `663`, `555`) or `none`.
    pub fn parser() -> impl clap::builder::TypedValueParser<Value = PdbChoice> {
        use clap::builder::TypedValueParser;
        clap::builder::PossibleValuesParser::new(["78", "663", "555", "none"])
            .map(|name| PdbChoice(<Partition as clap::ValueEnum>::from_str(&name, false).ok()))
    }

    fn partition(self) -> Option<Partition> {
        self.0
    }
}

/// Options shared by `solve` and `bench`.
#[derive(Debug, Clone, clap::Args)]
pub struct SearchArgs {
    /// Pattern databases for 4x4 boards, kept in $XDG_CACHE_HOME/gridbot
    /// (or ~/.cache/gridbot) and built there on first use: 7-8 (about
    /// 290 MB, built once in a few minutes), 6-6-3 (about 6 MB, built in
    /// seconds), 5-5-5 (about 0.8 MB) or none (Manhattan distance plus
    /// linear conflicts).
    #[arg(long, value_parser = PdbChoice::parser(), default_value = "78")]
    pub pdb: PdbChoice,
    /// Folder for the databases (default: the cache folder).
    #[arg(long)]
    pub pdb_dir: Option<PathBuf>,
    /// Which goal the input is written for: blank-last (sgt-fifteen) or
    /// blank-first (Korf's set; converted by a half turn and relabelling).
    #[arg(long, value_enum, default_value = "blank-last")]
    pub goal: Convention,
    /// Stop a search after this long (e.g. `1.5`, `500ms`, `2s`, `1m`).
    /// Boards above 16 cells default to 10 s and then report their best
    /// solution and the proven lower bound.
    #[arg(long, value_parser = parse_duration)]
    pub time_limit: Option<Duration>,
}

impl SearchArgs {
    fn time_limit(&self, cells: usize) -> anyhow::Result<Option<Duration>> {
        match self.time_limit {
            Some(d) if d.is_zero() => bail!("--time-limit must be more than zero"),
            Some(d) => Ok(Some(d)),
            None if cells > 16 => Ok(Some(Duration::from_secs(10))),
            None => Ok(None),
        }
    }

    /// Opens (building when needed) the databases if any board is 4x4.
    fn open(&self, needed: bool) -> anyhow::Result<Option<(PatternDb, OpenReport)>> {
        let Some(p) = self.pdb.partition().filter(|_| needed) else {
            return Ok(None);
        };
        let dir = match &self.pdb_dir {
            Some(d) => d.clone(),
            None => cache_dir()?,
        };
        Ok(Some(PatternDb::open(p, &dir)?))
    }
}

/// `gridbot solve fifteen`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// The board: an sgt-fifteen game ID (`4x4:13,6,8,...`), a file name,
    /// `-` for standard input, or the numbers themselves.
    pub board: String,
    #[command(flatten)]
    /// The search options.
    pub search: SearchArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `solve fifteen`.
pub fn run_solve(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let text = read_input(&args.board)?;
    let source = source_name(&args.board);
    let board = parse_board(&text, args.search.goal).with_context(|| format!("in {source}"))?;
    if let Err(e) = board.solvability() {
        if args.json {
            println!(
                "{}",
                serde_json::json!({"length": null, "optimal": "unsolvable", "reason": e.to_string()})
            );
        }
        bail!("{e}");
    }
    let opened = args
        .search
        .open(board.width() == 4 && board.height() == 4)?;
    let t0 = Instant::now();
    let opts = SolveOptions {
        pdb: opened.as_ref().map(|(db, _)| db),
        time_limit: args.search.time_limit(board.cells().len())?,
        node_limit: None,
    };
    let solved = solve(&board, &opts)?;
    let o = &solved.outcome;
    let elapsed = t0.elapsed();
    let moves = o.moves.clone().unwrap_or_default();
    let tiles = tiles_moved(&board, &moves);
    let n_clicks = o
        .moves
        .as_ref()
        .map(|m| clicks(&board, m).map_or(0, |c| c.len()));
    if args.json {
        let v = serde_json::json!({
            "board": board.sgt_id(),
            "moves": o.moves.as_ref().map(|m| m.iter().map(|d| d.letter().to_string()).collect::<String>()),
            "tiles": o.moves.as_ref().map(|_| &tiles),
            "length": o.len(),
            "clicks": n_clicks,
            "lower_bound": o.lower_bound,
            "optimal": o.optimality(),
            "method": solved.method,
            "nodes": o.nodes,
            "time_ms": elapsed.as_secs_f64() * 1000.0,
            "stopped": o.stopped.map(|s| s.to_string()),
            "first_length": solved.first.map(|f| f.length),
            "first_ms": solved.first.map(|f| f.time.as_secs_f64() * 1000.0),
        });
        println!("{v}");
    } else {
        print!("{board}");
        match &o.moves {
            Some(m) => {
                let gap: String = m.iter().map(|d| d.letter()).collect();
                println!("gap moves: {gap}");
                let t: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
                println!("tiles moved: {}", t.join(" "));
            }
            None => println!("no solution found within the budget"),
        }
        if let Some(f) = solved.first {
            println!(
                "first solution: {} moves after {:.1} ms",
                f.length,
                f.time.as_secs_f64() * 1000.0
            );
        }
        println!(
            "length={} clicks={} lower_bound={} optimal={} nodes={} time_ms={:.1}",
            o.len().map_or("none".into(), |l| l.to_string()),
            n_clicks.map_or("none".into(), |c| c.to_string()),
            o.lower_bound,
            o.optimality(),
            o.nodes,
            elapsed.as_secs_f64() * 1000.0
        );
    }
    Ok(if o.moves.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

fn tiles_moved(board: &Board, moves: &[super::Dir]) -> Vec<u8> {
    let mut b = board.clone();
    moves
        .iter()
        .map(|&d| {
            let t = b.tile_moved(d).unwrap_or(0);
            b.play(d);
            t
        })
        .collect()
}
