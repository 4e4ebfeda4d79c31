//! `gridbot solve flood BOARD|FILE|-`: solves one board given as text, a
//! file or standard input, and prints the moves and a summary line
//! (`length=N lower_bound=L optimal=proven|unproven nodes=… time_ms=…`),
//! or the same as JSON with `--json`.

use std::process::ExitCode;

use crate::cli::args::{read_input, source_name, SearchLimits};
use crate::games::flood::{parse_board, solve, SolveOptions, StartCell, Strategy};
use anyhow::Context;

/// `gridbot solve flood`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The board: a file name, `-` for standard input, or the board text
    /// itself (rows of digits/letters, one square line, or an sgt-flood
    /// game ID such as `12x12:0123...,23`).
    board: String,
    /// Start cell: ROW,COL (0-based; default 0,0, the top-left cell) or
    /// `centre` (the middle cell).
    #[arg(long)]
    start: Option<StartCell>,
    #[command(flatten)]
    search: SearchArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// The search options `solve` and `bench flood` share.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// Search strategy.
    #[arg(long, value_enum, default_value_t = Strategy::Astar)]
    pub strategy: Strategy,
    /// The search's time and memory limits.
    #[command(flatten)]
    pub limits: SearchLimits,
}

impl SearchArgs {
    /// The solver's options.
    pub fn options(&self) -> SolveOptions {
        SolveOptions {
            strategy: self.strategy,
            time_limit: self.limits.time_limit,
            memory_limit_bytes: self.limits.memory_limit,
        }
    }
}

/// Solves the board and prints the moves and the summary line.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let text = read_input(&args.board)?;
    let parsed = parse_board(&text)
        .with_context(|| format!("reading the board from {}", source_name(&args.board)))?;
    let mut board = parsed.board.clone();
    if let Some(start) = args.start {
        board = start.apply(board)?;
    }
    let sol = solve(&board, &args.search.options())?;
    let symbols: Vec<String> = sol
        .moves
        .iter()
        .map(|&c| parsed.symbol(c).to_string())
        .collect();
    let optimal = if sol.proven_optimal {
        "proven"
    } else {
        "unproven"
    };
    let time_ms = sol.elapsed.as_secs_f64() * 1e3;
    if args.json {
        let v = serde_json::json!({
            "moves": symbols,
            "colours": sol.moves,
            "length": sol.moves.len(),
            "lower_bound": sol.lower_bound,
            "optimal": optimal,
            "nodes": sol.nodes,
            "time_ms": (time_ms * 1000.0).round() / 1000.0,
            "strategy": args.search.strategy,
            "stopped": sol.stopped,
            "move_limit": parsed.move_limit,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!("{}", symbols.join(" "));
        println!(
            "length={} lower_bound={} optimal={} nodes={} time_ms={:.3}",
            sol.moves.len(),
            sol.lower_bound,
            optimal,
            sol.nodes,
            time_ms
        );
        if let Some(limit) = parsed.move_limit {
            println!(
                "move_limit={limit} margin={}",
                limit as i64 - sol.moves.len() as i64
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
