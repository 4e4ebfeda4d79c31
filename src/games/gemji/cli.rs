//! The Gemji commands: `solve gemji FILE` and `generate gemji ...`.
//! Argument structs derive `clap::Args`; the `run_*` functions print their
//! report and return the exit code.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;
use serde_json::json;

use super::generate::{generate, Spec};
use super::parse::{format_level, parse_level};
use super::rules::Gem;
use super::solve::{solve, solve_within};
use crate::cli::args::{
    parse_duration, parse_number, parse_pair, parse_seed, parse_span, ArgError,
};
use crate::games::registry::{verbs, Entry, GameCli};
use crate::solver::Budget;

/// Gemji in the registry.
pub static GAME: GameCli = GameCli {
    name: "gemji",
    title: "Gemji",
    about: "Gems on a grid of up to 10x10; the player moves a red, yellow, blue or purple gem one \
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
         range, scored with the Gemji report's difficulty formula.",
    hosts: &[],
    entries,
};

/// Gemji's verbs, one line each.
fn entries() -> Vec<Entry> {
    vec![
        Entry::new(
            verbs::SOLVE,
            "Solve a Gemji level file in the fewest moves",
            |a: SolveArgs| run_solve(&a),
        ),
        Entry::new(
            verbs::GENERATE,
            "Generate Gemji levels whose proven minimum is in a range, with their difficulty",
            |a: GenerateArgs| run_generate(&a),
        ),
    ]
}

/// `gridbot solve gemji FILE`.
#[derive(Debug, Clone, Args)]
pub struct SolveArgs {
    /// A level file (`-` for standard input).
    pub file: String,
    /// Stop after this long (e.g. `1.5`, `500ms`, `2s`, `1m`); the answer is
    /// then unproven.
    #[arg(long, value_parser = parse_duration)]
    pub time_limit: Option<Duration>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `gridbot generate gemji`.
#[derive(Debug, Clone, Args)]
pub struct GenerateArgs {
    /// Board size, `WxH` (1..=10 each).
    #[arg(long, value_name = "WxH", value_parser = parse_pair::<1, 10>)]
    pub size: (usize, usize),
    /// Gems per level (1 to 100).
    #[arg(long, value_name = "N", value_parser = parse_number::<usize, 1, 100>)]
    pub gems: usize,
    /// Gem types to draw from, comma-separated names or letters
    /// (red,yellow,blue,purple,white,grey,black or R,Y,B,P,W,G,K).
    #[arg(long, value_name = "LIST", value_parser = parse_gem, value_delimiter = ',', default_value = "R,Y,B,P,W,G,K")]
    pub types: Vec<Gem>,
    /// Range of the minimum number of moves, `A..B` (inclusive, 1 to 30).
    #[arg(long, value_name = "A..B", value_parser = parse_span::<1, 30>)]
    pub moves: (u32, u32),
    /// Levels to generate (1 to 1000000).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = parse_number::<usize, 1, 1_000_000>)]
    pub count: usize,
    /// Random seed.
    #[arg(long, default_value_t = 1, value_parser = parse_seed)]
    pub seed: u64,
    /// Random levels to try before giving up (1 to 10^12), as
    /// `generate rush --attempts`.
    #[arg(long, alias = "max-candidates", value_name = "N", default_value_t = 1_000_000, value_parser = parse_number::<u64, 1, 1_000_000_000_000>)]
    pub attempts: u64,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Parses one gem type: its name or its letter.
pub fn parse_gem(s: &str) -> Result<Gem, ArgError> {
    let t = s.trim();
    let mut letters = t.chars();
    let letter = match (letters.next(), letters.next()) {
        (Some(c), None) => Gem::from_letter(c),
        _ => None,
    };
    Gem::ALL
        .into_iter()
        .find(|g| g.name().eq_ignore_ascii_case(t) || letter == Some(*g))
        .ok_or_else(|| ArgError::Malformed {
            what: "gem type",
            text: t.into(),
            hint: "red, yellow, blue, purple, white, grey, black or R Y B P W G K",
        })
}

/// Runs `solve gemji`.
pub fn run_solve(args: &SolveArgs) -> Result<ExitCode> {
    let text = crate::files::read_text(&args.file, crate::files::SMALL_FILE_CAP, "a Gemji level")?;
    let level = parse_level(&text).with_context(|| args.file.clone())?;
    let time = match args.time_limit {
        Some(t) if t.is_zero() => bail!("--time-limit must be more than zero"),
        t => t,
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
    // An unsolvable level has no finite bound: shown as none / null.
    let lower_bound = (!o.proven_unsolvable && o.lower_bound != u32::MAX).then_some(o.lower_bound);
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "moves": described,
                "length": o.len(),
                "lower_bound": lower_bound,
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
            lower_bound.map_or("none (unsolvable)".into(), |b| b.to_string()),
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
    let (levels, stats) = generate(&spec, args.count, args.seed, args.attempts, |l, limit| {
        solve_within(l, limit, &Budget::unlimited())
    })?;
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
    use clap::{FromArgMatches, Parser};

    /// `generate gemji` as the command line builds and reads it.
    #[derive(Parser)]
    struct Generate {
        #[command(flatten)]
        args: GenerateArgs,
    }

    /// The documented example with the options of `extra` in place of
    /// its own.
    fn generate_args(extra: &[&str]) -> Result<GenerateArgs, clap::Error> {
        let base = [("--size", "6x6"), ("--gems", "6"), ("--moves", "4..8")];
        let mut argv = vec!["generate"];
        for (name, value) in base {
            if !extra.contains(&name) {
                argv.extend([name, value]);
            }
        }
        argv.extend(extra);
        let m = <Generate as clap::CommandFactory>::command().try_get_matches_from(argv)?;
        Ok(Generate::from_arg_matches(&m)?.args)
    }

    #[test]
    fn option_parsers_name_the_bad_value() {
        let g = generate_args(&[]).unwrap();
        assert_eq!(g.size, (6, 6));
        assert_eq!(g.moves, (4, 8));
        assert_eq!(g.types, Gem::ALL.to_vec());
        assert!(generate_args(&["--size", "6x11"])
            .unwrap_err()
            .to_string()
            .contains("\"6x11\""));
        assert_eq!(generate_args(&["--moves", "5"]).unwrap().moves, (5, 5));
        assert!(generate_args(&["--moves", "8..4"]).is_err());
        assert_eq!(
            generate_args(&["--types", "red,Y,grey"]).unwrap().types,
            vec![Gem::Red, Gem::Yellow, Gem::Grey]
        );
        assert!(generate_args(&["--types", "red,pink"])
            .unwrap_err()
            .to_string()
            .contains("\"pink\""));
    }

    /// The documented example panicked in clap ("Mismatch between
    /// definition and access of `types`") before gem types were parsed one
    /// by one.
    #[test]
    fn generate_gemji_documented_example_parses() {
        let g = generate_args(&["--types", "R,Y,B"]).unwrap();
        assert_eq!(g.types, vec![Gem::Red, Gem::Yellow, Gem::Blue]);
        assert_eq!((g.gems, g.count, g.seed), (6, 1, 1));
    }

    #[test]
    fn attempts_is_the_name_rush_uses_and_the_old_name_still_works() {
        assert_eq!(generate_args(&[]).unwrap().attempts, 1_000_000);
        assert_eq!(generate_args(&["--attempts", "5"]).unwrap().attempts, 5);
        let old = generate_args(&["--max-candidates", "7"]).unwrap();
        assert_eq!(old.attempts, 7);
        assert!(generate_args(&["--attempts", "0"]).is_err());
    }
}
