//! The Pegs commands: `solve pegs`, `analyse pegs`, `bench pegs`, and
//! `play`/`demo`/`validate pegs` (the generic [`crate::cli::sgt_game`]
//! commands with [`SgtPegs`]). Each has
//! a clap `Args` struct and a `run_*` function; [`Pegs`] lists them in the
//! game registry.
//!
//! Exit codes of `solve pegs`: 0 a win was found, 1 the position is proven
//! lost (the answer is printed; there is nothing to play), 2 the budget
//! ended before an answer; errors exit 1 with a message on stderr.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};

use super::analyse::analyse;
pub mod fixtures;
pub mod omerkel;
pub mod vacancies;

use super::bench;
use super::fewest::fewest_moves_to;
use super::hosted::SgtPegs;
use super::parse::parse_game;
use super::rules::{Game, Jump};
use super::solve::{SolveOptions, WinSolver};
use crate::cli::args::{
    parse_board_count, parse_bytes, parse_duration, parse_node_limit, read_input, source_name,
};
use crate::cli::bench::BenchOptions;
use crate::cli::sgt_game::{run_demo, run_play, run_validate_split, PlayArgs, ValidateArgs};
use crate::games::registry::{verbs, Entry, GameCli};
use crate::measure::peak_rss_bytes;
use crate::solver::{Budget, Outcome};

/// Pegs in the registry.
pub static GAME: GameCli = GameCli {
    name: "pegs",
    title: "Pegs (peg solitaire)",
    about: "A board of pegs and holes; a move jumps a peg over an orthogonal neighbour into \
         the hole behind it and removes the jumped peg; won with one peg left anywhere. \
         Solver: depth-first search with a table of lost positions up to the board's \
         symmetries and pagoda pruning (a win is checked by replay; lost is said only when \
         proven); --fewest-moves by iterative deepening with Merson-region bounds, proven \
         when it completes. Boards on the triangular lattice too (six directions: tri15, \
         tri21; `analyse pegs --board NAME --vacancies` decides every single vacancy of \
         english, french, tri15, tri21). Hosts: sgt-pegs on the desktop and pegs.html \
         in Chromium (by dragging, read without calibration); Oliver Merkel's Peg \
         Solitaire page in Chromium (`demo pegs --host omerkel`: board picked on its \
         Options tab, click pairs, each jump verified).",
    hosts: &[
        "sgt: sgt-pegs of Debian's sgt-puzzles (desktop) and pegs.html of the sgt web build",
        "omerkel: Oliver Merkel's Peg Solitaire (pegs-omerkel/), Chromium",
    ],
    entries,
};

/// Pegs' verbs, one line each.
fn entries() -> Vec<Entry> {
    vec![
        Entry::new(verbs::SOLVE, "Decide or solve a Pegs position", run_solve),
        Entry::new(
            verbs::PLAY,
            "Play sgt-pegs on the current display",
            |a: PlayArgs| run_play(&SgtPegs, a),
        ),
        Entry::new(
            verbs::DEMO,
            "Play sgt-pegs (or --host omerkel: Oliver Merkel's page) to a win on a virtual display",
            |a: omerkel::PegsDemoArgs| match a.host.as_str() {
                "omerkel" => omerkel::run(&a.omerkel()),
                _ => run_demo(&SgtPegs, a.sgt),
            },
        ),
        Entry::new(
            verbs::VALIDATE,
            "Play games sgt-pegs generates, each checked against its game ID",
            |a: ValidateArgs| run_validate_split(&SgtPegs, a),
        ),
        Entry::new(
            verbs::BENCH,
            "Solve a file of positions or generated boards",
            run_bench,
        ),
        Entry::new(
            verbs::ANALYSE,
            "Reachable positions, winning first moves, pegs that change the outcome",
            run_analyse,
        ),
        Entry::new(
            verbs::FIXTURES,
            "Check or record the sgt-pegs screenshot fixtures",
            fixtures::run,
        ),
    ]
}

/// Reads a board argument: `-` standard input, an existing file, or the
/// text itself.
fn read_board_arg(arg: &str) -> anyhow::Result<(Game, String)> {
    let text = read_input(arg)?;
    let name = source_name(arg);
    let game = parse_game(&text).with_context(|| format!("reading the board from {name}"))?;
    Ok((game, name))
}

/// `gridbot solve pegs`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// The position: an sgt-pegs game ID (`7x7:OOPPPOO...`), a file holding
    /// one (or a picture of rows of P/H/O), or `-` for standard input.
    pub board: String,
    /// Find the fewest moves (a chain of jumps by one peg is one move),
    /// proven minimal when the search completes.
    #[arg(long)]
    pub fewest_moves: bool,
    /// The cell the last peg must stand on: `ROW,COL` (0-based) or
    /// `centre` (the middle cell); anywhere when not given.
    #[arg(long)]
    pub finish: Option<String>,
    /// Stop after this long (e.g. `500ms`, `2s`, `10m`).
    #[arg(long, value_parser = parse_duration)]
    pub time_limit: Option<Duration>,
    /// Stop when the search's tables hold this much memory.
    #[arg(long, value_parser = parse_bytes, default_value = "4G")]
    pub memory_limit: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The cell named by `--finish` (`ROW,COL` or `centre`/`center`), checked
/// to be on the board.
pub fn parse_finish(text: &str, game: &Game) -> anyhow::Result<u8> {
    let b = &game.board;
    let (r, c) = match text.trim() {
        "centre" | "center" => (b.height() / 2, b.width() / 2),
        t => {
            let (r, c) = t
                .split_once(',')
                .with_context(|| format!("--finish {t:?}: expected ROW,COL or centre"))?;
            let num = |x: &str, what: &str| -> anyhow::Result<usize> {
                x.trim()
                    .parse()
                    .with_context(|| format!("--finish {t:?}: bad {what} {x:?}"))
            };
            (num(r, "row")?, num(c, "column")?)
        }
    };
    if !b.on_board(r, c) {
        bail!(
            "--finish {text}: cell {r},{c} is not on the {}x{} board",
            b.width(),
            b.height()
        );
    }
    Ok(b.index(r, c))
}

/// Number of moves (chains by one peg) in a jump sequence.
pub fn count_moves(jumps: &[Jump]) -> usize {
    jumps
        .iter()
        .enumerate()
        .filter(|&(i, j)| i == 0 || jumps[i - 1].to != j.from)
        .count()
}

/// Runs `gridbot solve pegs`.
pub fn run_solve(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let (game, _) = read_board_arg(&args.board)?;
    let budget = Budget::new(args.time_limit, args.memory_limit);
    let finish = args
        .finish
        .as_deref()
        .map(|f| parse_finish(f, &game))
        .transpose()?;
    let (outcome, jumps, moves): (Outcome<()>, Vec<Jump>, Option<usize>) = if args.fewest_moves {
        let f = fewest_moves_to(&game, finish, &budget).outcome;
        let jumps: Vec<Jump> = f
            .moves
            .iter()
            .flatten()
            .flat_map(|c| c.jumps(&game.board))
            .collect();
        let n = f.moves.as_ref().map(Vec::len);
        (strip(&f), jumps, n)
    } else {
        let mut solver = WinSolver::new(&game.board, SolveOptions::default());
        let o = solver.solve_to(game.pegs, finish, &budget);
        let jumps = o.moves.clone().unwrap_or_default();
        let n = o.moves.as_ref().map(|m| count_moves(m));
        (strip(&o), jumps, n)
    };
    let result = if moves.is_some() {
        "won"
    } else if outcome.proven_unsolvable {
        "lost"
    } else {
        "unproven"
    };
    let coords: Vec<[(usize, usize); 2]> = jumps
        .iter()
        .map(|&j| [game.board.row_col(j.from), game.board.row_col(j.to)])
        .collect();
    let length = if args.fewest_moves {
        moves
    } else {
        moves.map(|_| jumps.len())
    };
    let time_ms = outcome.elapsed.as_secs_f64() * 1e3;
    // Where the last peg stands (replayed from the jumps).
    let last_peg = (result == "won")
        .then(|| {
            jumps
                .iter()
                .fold(game.pegs, |p, &j| super::rules::apply(p, j))
        })
        .filter(|p| p.count_ones() == 1)
        .map(|p| game.board.row_col(p.trailing_zeros() as u8));
    if args.json {
        let v = serde_json::json!({
            "id": game.id(),
            "result": result,
            "metric": if args.fewest_moves { "moves" } else { "jumps" },
            "jumps": coords,
            "jump_count": jumps.len(),
            "moves": moves,
            "length": length,
            "finish": finish.map(|f| game.board.row_col(f)),
            "last_peg": last_peg,
            "lower_bound": outcome.lower_bound,
            "optimal": outcome.optimality(),
            "nodes": outcome.nodes,
            "time_ms": (time_ms * 1000.0).round() / 1000.0,
            "stopped": outcome.stopped.map(|s| s.to_string()),
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        for [(fr, fc), (tr, tc)] in &coords {
            println!("{fr},{fc} {tr},{tc}");
        }
        match result {
            "lost" => println!(
                "lost: no sequence of jumps from this position leaves one peg{} (proven)",
                finish.map_or(String::new(), |f| {
                    let (r, c) = game.board.row_col(f);
                    format!(" on {r},{c}")
                })
            ),
            "unproven" => println!(
                "unproven: the {} ended before the search decided the position",
                outcome
                    .stopped
                    .map_or("budget".to_string(), |s| s.to_string())
            ),
            _ => {}
        }
        if let Some((r, c)) = last_peg {
            println!("last peg: {r},{c}");
        }
        let len = length.map_or("none".to_string(), |l| l.to_string());
        let lb = if outcome.lower_bound == u32::MAX {
            "none".to_string()
        } else {
            outcome.lower_bound.to_string()
        };
        println!(
            "length={len} jumps={} moves={} lower_bound={lb} optimal={} nodes={} time_ms={time_ms:.3}",
            jumps.len(),
            moves.map_or("none".to_string(), |m| m.to_string()),
            outcome.optimality(),
            outcome.nodes,
        );
    }
    Ok(match result {
        "won" => ExitCode::SUCCESS,
        "lost" => ExitCode::from(1),
        _ => ExitCode::from(2),
    })
}

/// The outcome without its moves (for printing the summary).
fn strip<M>(o: &Outcome<M>) -> Outcome<()> {
    Outcome {
        moves: o.moves.as_ref().map(|m| vec![(); m.len()]),
        lower_bound: o.lower_bound,
        proven_optimal: o.proven_optimal,
        proven_unsolvable: o.proven_unsolvable,
        nodes: o.nodes,
        elapsed: o.elapsed,
        stopped: o.stopped,
    }
}

/// `gridbot analyse pegs`.
#[derive(Debug, clap::Args)]
pub struct AnalyseArgs {
    /// The position (as for `solve pegs`); not with `--vacancies`.
    #[arg(
        value_name = "BOARD",
        required_unless_present = "vacancies",
        conflicts_with = "vacancies"
    )]
    pub position: Option<String>,
    /// With `--vacancies`: the named board, english, french, tri15 or
    /// tri21 (triangular, six jump directions).
    #[arg(long, requires = "vacancies")]
    pub board: Option<String>,
    /// Decide every single vacancy of `--board` (up to the board's
    /// symmetries): solvable to one peg anywhere, or proven unsolvable.
    #[arg(long, requires = "board")]
    pub vacancies: bool,
    /// Time limit of the reachable-position count.
    #[arg(long, value_parser = parse_duration)]
    pub count_time_limit: Option<Duration>,
    /// Time limit of each winnability question.
    #[arg(long, value_parser = parse_duration, default_value = "10s")]
    pub solve_time_limit: Duration,
    /// Memory limit of each part.
    #[arg(long, value_parser = parse_bytes, default_value = "6G")]
    pub memory_limit: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `gridbot analyse pegs`.
pub fn run_analyse(args: AnalyseArgs) -> anyhow::Result<ExitCode> {
    if let (true, Some(board)) = (args.vacancies, &args.board) {
        let budget = || Budget::new(Some(args.solve_time_limit), args.memory_limit);
        return vacancies::run(board, budget, args.json);
    }
    let position = args.position.as_deref().context("no position given")?;
    let (game, _) = read_board_arg(position)?;
    let t0 = std::time::Instant::now();
    let count_budget = Budget::new(args.count_time_limit, args.memory_limit);
    let a = analyse(&game, &count_budget, || {
        Budget::new(Some(args.solve_time_limit), args.memory_limit)
    });
    if args.json {
        println!("{}", serde_json::to_string_pretty(&a)?);
        return Ok(ExitCode::SUCCESS);
    }
    let yn = |w: Option<bool>| match w {
        Some(true) => "yes",
        Some(false) => "no (proven)",
        None => "unproven",
    };
    println!("board: {}", a.id);
    println!("pegs: {}", a.pegs);
    println!("winnable: {}", yn(a.winnable));
    println!(
        "reachable positions: {}{} (up to {} symmetries; widest layer {})",
        a.reachable.positions,
        if a.reachable.exhausted {
            ""
        } else {
            " or more (count stopped by the budget)"
        },
        a.reachable.symmetries,
        a.reachable.widest_layer
    );
    if let Some(all) = a.reachable.positions_without_symmetry {
        println!("reachable positions without symmetry reduction: {all}");
    }
    println!("reachable count time_ms={:.1}", a.reachable.time_ms);
    println!(
        "first moves: {} legal, {} still win",
        a.first_moves.len(),
        a.winning_first_moves
    );
    for m in &a.first_moves {
        println!(
            "  {},{} {},{}: {}",
            m.from.0,
            m.from.1,
            m.to.0,
            m.to.1,
            yn(m.wins)
        );
    }
    println!(
        "single-peg changes that flip winnability: {} of {} tried ({} undecided)",
        a.changing_toggles.len(),
        a.toggles_tried,
        a.toggles_unproven
    );
    for t in &a.changing_toggles {
        println!(
            "  {} a peg at {},{}: {}",
            if t.added { "add" } else { "remove" },
            t.row,
            t.col,
            if t.winnable {
                "becomes winnable"
            } else {
                "becomes lost"
            }
        );
    }
    println!("time_ms={:.1}", t0.elapsed().as_secs_f64() * 1e3);
    Ok(ExitCode::SUCCESS)
}

/// `gridbot bench pegs`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// File of game IDs, one a line (or one game ID).
    #[arg(required_unless_present = "generate")]
    pub file: Option<String>,
    /// Generate N boards of PRESET with sgt-pegs (e.g. `--generate 100
    /// 9x9random`; presets 7x7cross, 7x7octagon, 5x5random, 7x7random,
    /// 9x9random).
    #[arg(long, num_args = 2, value_names = ["N", "PRESET"], conflicts_with = "file")]
    pub generate: Option<Vec<String>>,
    /// Time limit per board.
    #[arg(long, value_parser = parse_duration, default_value = "10s")]
    pub time_limit: Duration,
    /// Memory limit per board.
    #[arg(long, value_parser = parse_bytes, default_value = "4G")]
    pub memory_limit: usize,
    /// Node limit per board (positions expanded): a limit that the
    /// machine's load does not move, for comparing solvers.
    #[arg(long, value_parser = parse_node_limit)]
    pub node_limit: Option<u64>,
    /// The options every bench takes (`--threads`: default one, as each
    /// board's wall time is reported).
    #[command(flatten)]
    pub bench: BenchOptions,
    /// Split into units (see `gridbot cluster`).
    #[command(flatten)]
    pub units: crate::cli::bench_units::UnitOptions,
}

/// The boards of `bench pegs`: generated by sgt-pegs, read from a file,
/// or the game ID given; cut to `--boards`.
fn bench_games(args: &BenchArgs) -> anyhow::Result<Vec<Game>> {
    let games = if let Some(g) = &args.generate {
        let n = parse_board_count(&g[0]).context("--generate")?;
        bench::generate(n, &g[1])?
    } else {
        let f = args.file.as_deref().expect("clap requires one");
        if std::fs::symlink_metadata(f).is_ok() {
            let text = crate::cli::bench::read_bench_file(std::path::Path::new(f))?;
            bench::parse_lines(&text, f)?
        } else if f.contains(':') {
            bench::parse_lines(f, "the command line")?
        } else {
            bail!(
                "{}: no such file, and not a game ID (WxH:...)",
                crate::files::shorten(f)
            );
        }
    };
    args.bench
        .first(games, args.file.as_deref().unwrap_or("--generate"))
}

/// `bench pegs` as a job of units sees it: the boards and each search's
/// budget. The merged report's times are `cpu_ms`, `wall_ms`,
/// `median_ms`, `max_ms`, `median_cpu_ms`, `max_cpu_ms`, `slowest` and
/// each board's `cpu_us` and `wall_us`; its `peak_rss_bytes` is null.
struct PegsBench {
    games: Vec<Game>,
    time_limit: Duration,
    memory_limit: usize,
    node_limit: Option<u64>,
}

impl PegsBench {
    /// The bench of `args`; `--generate` refused when `split` (each
    /// unit would generate boards of its own).
    fn new(args: &BenchArgs, words: &[String], split: bool) -> anyhow::Result<PegsBench> {
        crate::cli::bench_units::refuse(
            words,
            (split && args.generate.is_some()).then(|| {
                "--generate makes new boards at every run; write them to a file first \
                 (sgt-pegs --generate N PRESET > FILE) and bench the file"
                    .to_string()
            }),
        )?;
        Ok(PegsBench {
            games: bench_games(args)?,
            time_limit: args.time_limit,
            memory_limit: args.memory_limit,
            node_limit: args.node_limit,
        })
    }

    fn budget(&self) -> Budget {
        let b = Budget::new(Some(self.time_limit), self.memory_limit);
        match self.node_limit {
            Some(n) => b.with_node_limit(n),
            None => b,
        }
    }
}

impl crate::cli::bench_units::BenchGame for PegsBench {
    type Row = bench::BoardResult;
    type Report = bench::BenchReport;

    fn boards(&self) -> usize {
        self.games.len()
    }

    fn solve(
        &self,
        range: std::ops::Range<usize>,
    ) -> Result<Vec<bench::BoardResult>, crate::units::JobError> {
        Ok(bench::decide_all(
            &self.games[range],
            || self.budget(),
            &|_| {},
        ))
    }

    fn report(
        &self,
        rows: Vec<bench::BoardResult>,
    ) -> Result<bench::BenchReport, crate::units::JobError> {
        let wall_us: u64 = rows.iter().map(|b| b.wall_us).sum();
        Ok(bench::report(rows, wall_us as f64 / 1000.0))
    }

    fn json(&self, r: &bench::BenchReport) -> Result<String, crate::units::JobError> {
        Ok(serde_json::to_string_pretty(&report_json(r, None)?)?)
    }

    fn print(&self, r: &bench::BenchReport) -> anyhow::Result<()> {
        print_report(r, None);
        check_replayed(r)?;
        anyhow::ensure!(
            r.unproven == 0,
            "{} boards undecided within the budget",
            r.unproven
        );
        Ok(())
    }
}

/// Runs `gridbot bench pegs`.
pub fn run_bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let split = args.units.units.is_some();
    let game = PegsBench::new(&args, &crate::cli::units::own_words("bench"), split)?;
    let threads = args.bench.threads.unwrap_or(1);
    if split {
        return crate::cli::bench_units::run_units(
            game,
            &args.units,
            args.bench.json,
            Some(threads),
        );
    }
    let games = &game.games;
    let bar = args.bench.progress(games.len(), "{wide_bar} {pos}/{len}");
    let pool = BenchOptions::pool(threads)?;
    let report =
        pool.install(|| bench::run(games, || game.budget(), &|k| bar.set_position(k as u64)));
    bar.finish_and_clear();
    let rss = peak_rss_bytes();
    if args.bench.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report_json(&report, rss)?)?
        );
    } else {
        print_report(&report, rss);
    }
    check_replayed(&report)?;
    Ok(if report.unproven == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

/// The JSON of `bench pegs`: the report and the peak memory `rss`.
fn report_json(
    report: &bench::BenchReport,
    rss: Option<u64>,
) -> serde_json::Result<serde_json::Value> {
    let mut v = serde_json::to_value(report)?;
    v["peak_rss_bytes"] = serde_json::json!(rss);
    Ok(v)
}

/// Prints the text of `bench pegs` (the peak memory `rss`).
fn print_report(report: &bench::BenchReport, rss: Option<u64>) {
    println!(
        "boards={} solved={} lost={} unproven={} invalid={} cpu_ms={:.1} wall_ms={:.1} median_ms={:.3} max_ms={:.3} median_cpu_ms={:.3} max_cpu_ms={:.3} peak_rss_mb={}",
        report.boards,
        report.solved,
        report.lost,
        report.unproven,
        report.invalid,
        report.cpu_ms,
        report.wall_ms,
        report.median_ms,
        report.max_ms,
        report.median_cpu_ms,
        report.max_cpu_ms,
        rss.map_or("?".to_string(), |b| format!("{:.1}", b as f64 / 1048576.0)),
    );
    println!("slowest: {}", report.slowest);
}

/// An error when a board's moves do not replay to a win.
fn check_replayed(report: &bench::BenchReport) -> anyhow::Result<()> {
    if report.invalid > 0 {
        bail!(
            "{} boards got moves that do not replay to a win (a solver bug)",
            report.invalid
        );
    }
    Ok(())
}

/// `bench pegs` as a job for `gridbot merge` and `gridbot cluster`.
pub fn bench_plan(
    words: &[String],
    _dir: &std::path::Path,
) -> anyhow::Result<Box<dyn crate::cli::units::Plan>> {
    let args: BenchArgs = crate::cli::units::parse_words(words)?;
    let game = PegsBench::new(&args, words, true)?;
    crate::cli::bench_units::bench_plan(game, words, &args.units, args.bench.json)
}

/// `validate pegs` as a job of units (for `gridbot merge` and `gridbot
/// cluster`).
pub fn validate_plan(
    words: &[String],
    _dir: &std::path::Path,
) -> anyhow::Result<Box<dyn crate::cli::units::Plan>> {
    crate::cli::validate_units::validate_plan(words, |a: ValidateArgs| (SgtPegs, a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finish_cells_parse_or_name_the_problem() {
        let g = parse_game(crate::games::pegs::parse::ENGLISH).unwrap();
        assert_eq!(parse_finish("centre", &g).unwrap(), g.board.index(3, 3));
        assert_eq!(parse_finish("3,6", &g).unwrap(), g.board.index(3, 6));
        for bad in ["0,0", "7,3", "x", "3,", "a,b"] {
            let e = parse_finish(bad, &g).unwrap_err().to_string();
            assert!(e.contains("--finish"), "{bad}: {e}");
        }
    }

    #[test]
    fn moves_count_chains() {
        let j = |from, to| Jump { from, over: 0, to };
        assert_eq!(count_moves(&[j(1, 3), j(3, 5), j(7, 9), j(5, 1)]), 3);
        assert_eq!(count_moves(&[]), 0);
    }
}
