//! The Gemji commands: `solve gemji FILE` and `generate gemji ...`.
//! Argument structs derive `clap::Args`; the `run_*` functions print their
//! report and return the exit code.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::{ArgMatches, Args, Command};
use serde_json::json;

use super::generate::{generate, Spec};
use super::parse::{format_level, parse_level};
use super::rules::Gem;
use super::solve::{solve, solve_within};
use crate::games::registry::{command_for, parse, GameCli, Verb};
use crate::solver::Budget;

/// Gemji in the registry.
pub struct GemjiCli;

impl GameCli for GemjiCli {
    fn name(&self) -> &'static str {
        "gemji"
    }

    fn title(&self) -> &'static str {
        "Gemji"
    }

    fn about(&self) -> &'static str {
        "Gems on a grid of up to 10x10; the player moves a red, yellow, blue or purple gem one \
         tile and effects chain: red pushes its 4 orthogonal neighbours one tile away, yellow \
         pulls gems two tiles away (in line, cell between empty) one closer, blue springs back \
         to the cell it was moved from, purple swaps with the gem whose effect moved it (moved \
         by the player: with the nearest non-black gem, rings clockwise from straight up); \
         white and grey move only by effects (white activates, grey never), black never moves. \
         Pushes and pulls need an empty target on the board (nothing falls off, no chain \
         pushes); chains resolve breadth first, neighbours clockwise from up, each gem at most \
         once per turn. Won when every finish holds a gem (of its type, if it has one; any gem \
         for '*'). Solver: iterative deepening with a depth-keyed exact table, proven optimal \
         when it finishes. Generator: random levels kept only when their proven minimum is in \
         range, scored with the Gemji report's difficulty formula."
    }

    fn command(&self, verb: Verb) -> Option<Command> {
        let name = self.name();
        Some(match verb {
            Verb::Solve => {
                command_for::<SolveArgs>(name, "Solve a Gemji level file in the fewest moves")
            }
            Verb::Generate => command_for::<GenerateArgs>(
                name,
                "Generate Gemji levels whose proven minimum is in a range, with their difficulty",
            ),
            _ => return None,
        })
    }

    fn run(&self, verb: Verb, m: &ArgMatches) -> Result<ExitCode> {
        match verb {
            Verb::Solve => run_solve(&parse::<SolveArgs>(m)?),
            Verb::Generate => run_generate(&parse::<GenerateArgs>(m)?),
            v => bail!("gemji does not support {}", v.label()),
        }
    }
}

/// `gridbot solve gemji FILE`.
#[derive(Debug, Clone, Args)]
pub struct SolveArgs {
    /// A level file (`-` for standard input).
    pub file: String,
    /// Stop after this many seconds (the answer is then unproven).
    #[arg(long, value_name = "SECS")]
    pub time_limit: Option<f64>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `gridbot generate gemji`.
#[derive(Debug, Clone, Args)]
pub struct GenerateArgs {
    /// Board size, `WxH` (1..=10 each).
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: (usize, usize),
    /// Gems per level.
    #[arg(long, value_name = "N")]
    pub gems: usize,
    /// Gem types to draw from, comma-separated names or letters
    /// (red,yellow,blue,purple,white,grey,black or R,Y,B,P,W,G,K).
    #[arg(long, value_name = "LIST", value_parser = parse_types, default_value = "R,Y,B,P,W,G,K")]
    pub types: Vec<Gem>,
    /// Range of the minimum number of moves, `A..B` (inclusive).
    #[arg(long, value_name = "A..B", value_parser = parse_range)]
    pub moves: (u32, u32),
    /// Levels to generate.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub count: usize,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Give up after this many candidate levels.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub max_candidates: u64,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Parses `WxH`.
pub fn parse_size(s: &str) -> Result<(usize, usize), String> {
    s.split_once(['x', 'X'])
        .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
        .filter(|&(w, h): &(usize, usize)| (1..=10).contains(&w) && (1..=10).contains(&h))
        .ok_or_else(|| format!("{s:?} is not a size WxH with W and H from 1 to 10"))
}

/// Parses `A..B` (or a single number).
pub fn parse_range(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("{s:?} is not a move range A..B with 1 <= A <= B <= 30");
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (a.trim(), b.trim().trim_start_matches('=')),
        None => (s.trim(), s.trim()),
    };
    let a: u32 = a.parse().map_err(|_| bad())?;
    let b: u32 = b.parse().map_err(|_| bad())?;
    if a == 0 || a > b || b > 30 {
        return Err(bad());
    }
    Ok((a, b))
}

/// Parses a comma-separated list of gem types.
pub fn parse_types(s: &str) -> Result<Vec<Gem>, String> {
    s.split(',')
        .map(|t| {
            let t = t.trim();
            Gem::ALL
                .into_iter()
                .find(|g| g.name().eq_ignore_ascii_case(t) || (t.len() == 1 && Gem::from_letter(t.chars().next().unwrap()) == Some(*g)))
                .ok_or_else(|| format!("unknown gem type {t:?} (red, yellow, blue, purple, white, grey, black or R Y B P W G K)"))
        })
        .collect()
}

/// Runs `solve gemji`.
pub fn run_solve(args: &SolveArgs) -> Result<ExitCode> {
    let text = if args.file == "-" {
        std::io::read_to_string(std::io::stdin()).context("reading standard input")?
    } else {
        std::fs::read_to_string(&args.file).with_context(|| format!("reading {}", args.file))?
    };
    let level = parse_level(&text).with_context(|| args.file.clone())?;
    let time = match args.time_limit {
        Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t)),
        Some(t) => bail!("--time-limit {t}: must be a positive number of seconds"),
        None => None,
    };
    let budget = Budget::new(time, usize::MAX);
    let t0 = Instant::now();
    let o = solve(&level, &budget);
    let ms = t0.elapsed().as_secs_f64() * 1000.0;
    let mut described = Vec::new();
    if let Some(m) = &o.moves {
        let mut s = level.start.clone();
        for &mv in m {
            described.push(level.describe(&s, mv));
            s = level
                .play(&s, mv)
                .context("the solver returned an illegal move")?
                .0;
        }
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "moves": described,
                "length": o.len(),
                "lower_bound": o.lower_bound,
                "optimal": o.optimality(),
                "nodes": o.nodes,
                "time_ms": ms,
            }))?
        );
    } else {
        if o.moves.is_some() {
            println!("{}", described.join(", "));
        } else if o.proven_unsolvable {
            println!("no solution: every reachable position was searched");
        } else {
            println!("no solution found within the budget");
        }
        println!(
            "length={} lower_bound={} optimal={} nodes={} time_ms={ms:.1}",
            o.len().map_or("-".into(), |l| l.to_string()),
            o.lower_bound,
            o.optimality(),
            o.nodes
        );
    }
    Ok(if o.moves.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

/// Runs `generate gemji`.
pub fn run_generate(args: &GenerateArgs) -> Result<ExitCode> {
    let spec = Spec {
        width: args.size.0,
        height: args.size.1,
        gems: args.gems,
        types: args.types.clone(),
        min_moves: args.moves.0,
        max_moves: args.moves.1,
    };
    let t0 = Instant::now();
    let (levels, stats) = generate(
        &spec,
        args.count,
        args.seed,
        args.max_candidates,
        |l, limit| solve_within(l, limit, &Budget::unlimited()),
    )?;
    let secs = t0.elapsed().as_secs_f64();
    if args.json {
        let v: Vec<_> = levels
            .iter()
            .map(|g| {
                json!({
                    "level": format_level(&g.level),
                    "moves": g.solution.len(),
                    "score": g.score,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({"levels": v, "stats": stats, "seconds": secs}))?
        );
    } else {
        for (i, g) in levels.iter().enumerate() {
            println!(
                "# level {i}: moves={} difficulty={:.3} effects={} moved_twice={} gem_density={:.3}",
                g.solution.len(),
                g.score.difficulty,
                g.score.effects,
                g.score.moved_twice,
                g.score.gem_density
            );
            let mut s = g.level.start.clone();
            let mut d = Vec::new();
            for &mv in &g.solution {
                d.push(g.level.describe(&s, mv));
                s = g.level.play(&s, mv).expect("solutions are legal").0;
            }
            println!("# solution: {}", d.join(", "));
            println!("{}", format_level(&g.level));
        }
        println!(
            "# generated={} candidates={} too_easy={} too_hard={} seconds={secs:.2}",
            levels.len(),
            stats.candidates,
            stats.too_easy,
            stats.too_hard
        );
    }
    if levels.len() < args.count {
        eprintln!(
            "generated only {} of {} levels in {} candidates",
            levels.len(),
            args.count,
            stats.candidates
        );
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_parsers_name_the_bad_value() {
        assert_eq!(parse_size("6x6"), Ok((6, 6)));
        assert!(parse_size("6x11").unwrap_err().contains("\"6x11\""));
        assert_eq!(parse_range("4..8"), Ok((4, 8)));
        assert_eq!(parse_range("5"), Ok((5, 5)));
        assert!(parse_range("8..4").is_err());
        assert_eq!(
            parse_types("red,Y,grey"),
            Ok(vec![Gem::Red, Gem::Yellow, Gem::Grey])
        );
        assert!(parse_types("red,pink").unwrap_err().contains("\"pink\""));
    }
}
