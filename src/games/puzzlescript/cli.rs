//! The PuzzleScript commands: `solve puzzlescript GAME.txt` searches a
//! level breadth first for a shortest key sequence, and `bench
//! puzzlescript --conformance FILE` replays the reference engine's recorded
//! sessions and reports how many end exactly where the reference ended.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde_json::json;

use super::compile::{compile, Game};
use super::conformance::{read_sessions, run_all, Outcome};
use super::engine::Input;
use super::solve::{
    is_random, keys_string, solve_level, LevelProblem, Limits, Method, BFS_SHARE, RETRY_WEIGHT,
    ROUNDS, STRIDE_SHARE, WEIGHT, WIDTH_SHARE,
};
use crate::cli::args::{parse_bytes, parse_duration, parse_node_limit, parse_number};
use crate::files::read_text;
use crate::games::registry::{verbs, Entry, GameCli};

/// PuzzleScript in the registry.
pub static GAME: GameCli = GameCli {
    name: "puzzlescript",
    title: "PuzzleScript",
    about: "A family of games: any game written in PuzzleScript, the open description language \
         of puzzle games (objects, legend, collision layers, rewrite rules, win conditions, \
         levels), read from its source and run turn by turn as the reference JavaScript engine \
         runs it (rule groups, ellipses, late rules, movement by collision layer, cancel, \
         again, win, restart, checkpoint, rigid, random with the reference's seeded \
         generator). Conformance is measured by replaying the reference's own recorded \
         sessions. Played in Chromium on the reference engine's own page (the shared games' \
         template filled with the game's source): the level is read off the canvas by the \
         game's own sprites, every key predicted by the engine and checked on the screen.",
    hosts: &["the PuzzleScript engine's standalone page filled with the game's source, Chromium"],
    entries,
};

/// PuzzleScript's verbs, one line each.
fn entries() -> Vec<Entry> {
    vec![
        Entry::new(
            verbs::SOLVE,
            "Find a shortest key sequence for a level of a PuzzleScript game",
            |a: SolveArgs| run_solve(&a),
        ),
        Entry::new(
            verbs::PLAY,
            "Play a PuzzleScript game on its page already open in Chromium, key by key",
            super::cli_play::run_play,
        ),
        Entry::new(
            verbs::DEMO,
            "Open a PuzzleScript game's page in Chromium on a virtual display and play it level after level (default: microban)",
            super::cli_play::run_demo,
        ),
        Entry::new(
            verbs::VALIDATE,
            "Play levels of a PuzzleScript game in Chromium: keys played, proven shortest or not, won as the page shows",
            super::cli_play::run_validate,
        ),
        Entry::new(
            verbs::BENCH,
            "Solve every level of PuzzleScript games within a time limit, or replay the reference engine's recorded sessions and compare the final levels (--conformance)",
            |a: BenchArgs| run_bench(&a),
        ),
    ]
}

/// The search's options, shared by `solve` and the level bench.
#[derive(Debug, Clone, Args)]
pub struct SearchOptions {
    /// Stop after this long (e.g. `500ms`, `3s`, `1m`); the answer is then
    /// unproven. The level bench's default is 3s a level.
    #[arg(long, value_parser = parse_duration)]
    pub time_limit: Option<Duration>,
    /// The search: breadth first (proves a shortest solution), the same
    /// without duplicate detection, A*, weighted A* or best-first width
    /// search with the win conditions' estimate, key by key or on strides
    /// (never proven), or the portfolio (breadth first for `--bfs-share`
    /// of the time, width search on strides for `--stride-share` of the
    /// rest, key by key for `--width-share` of what is left, weighted A*
    /// with `--weight` and `--retry-weight`, taking turns in slices over
    /// `--rounds` rounds, then breadth first again to prove a solution
    /// found shortest).
    #[arg(long, value_enum, default_value_t = Method::Portfolio)]
    pub search: Method,
    /// Stop each search after expanding this many positions.
    #[arg(long, value_name = "N", value_parser = parse_node_limit)]
    pub max_nodes: Option<u64>,
    /// What the time limit counts: `wall` time, or the `cpu` time of the
    /// searching thread (a limit "on one thread" that a busy machine does
    /// not shorten).
    #[arg(long, value_enum, default_value_t = Clock::Wall)]
    pub clock: Clock,
    /// Memory a search may hold (e.g. `512M`, `2G`), the positions' own
    /// buffers included.
    #[arg(long, default_value = "2G", value_parser = parse_bytes)]
    pub memory: usize,
    /// The weight of the win conditions' estimate in weighted A*.
    #[arg(long, default_value_t = WEIGHT, value_parser = parse_number::<u32, 1, 1000>)]
    pub weight: u32,
    /// The portfolio's second weight: weighted A* with `--weight` gets
    /// three quarters of the time left after breadth-first search,
    /// weighted A* with this one the rest (the same as `--weight`: no
    /// second search).
    #[arg(long, default_value_t = RETRY_WEIGHT, value_parser = parse_number::<u32, 1, 1000>)]
    pub retry_weight: u32,
    /// The percentage of the time limit the portfolio's first
    /// breadth-first search gets, before weighted A*.
    #[arg(long, value_name = "PERCENT", default_value_t = BFS_SHARE,
          value_parser = parse_number::<u32, 1, 100>)]
    pub bfs_share: u32,
    /// The percentage of the time left after the portfolio's first
    /// breadth-first search that best-first width search gets, before
    /// weighted A* (0: none).
    #[arg(long, value_name = "PERCENT", default_value_t = WIDTH_SHARE,
          value_parser = parse_number::<u32, 0, 100>)]
    pub width_share: u32,
    /// The percentage of the time left after the portfolio's first
    /// breadth-first search that best-first width search on strides (a
    /// walk of the player and a key that does more) gets, before width
    /// search key by key takes its `--width-share` of the rest (0, the
    /// default: none).
    #[arg(long, value_name = "PERCENT", default_value_t = STRIDE_SHARE,
          value_parser = parse_number::<u32, 0, 100>)]
    pub stride_share: u32,
    /// The portfolio's rounds: its searches take turns in slices that
    /// double from round to round, each resumed where it stopped (0: one
    /// after the other, each once).
    #[arg(long, value_name = "N", default_value_t = ROUNDS,
          value_parser = parse_number::<u32, 0, 20>)]
    pub rounds: u32,
}

impl SearchOptions {
    /// The limits of one level's search (`default_time` without
    /// `--time-limit`).
    pub fn limits(&self, default_time: Option<Duration>) -> Result<Limits> {
        if self.time_limit.is_some_and(|t| t.is_zero()) {
            bail!("--time-limit must be more than zero");
        }
        Ok(Limits {
            time: self.time_limit.or(default_time),
            cpu: self.clock == Clock::Cpu,
            memory: self.memory,
            nodes: self.max_nodes,
            weight: self.weight,
            retry_weight: self.retry_weight,
            bfs_share: self.bfs_share,
            width_share: self.width_share,
            stride_share: self.stride_share,
            rounds: self.rounds,
        })
    }
}

/// What a search's time limit counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Clock {
    /// Wall time.
    Wall,
    /// The searching thread's CPU time.
    Cpu,
}

/// `gridbot solve puzzlescript GAME.txt`.
#[derive(Debug, Clone, Args)]
pub struct SolveArgs {
    /// The game's source (`-` for standard input).
    pub file: String,
    /// The level, counted from 1 among the playable levels (messages
    /// between levels do not count).
    #[arg(long, default_value_t = 1, value_parser = parse_number::<usize, 1, 1_000_000>)]
    pub level: usize,
    /// The search and its limits.
    #[command(flatten)]
    pub search: SearchOptions,
    /// Do not search: play these keys (over `udlrx`, as the JSON gives
    /// them: up, down, left, right, action) from the level's start and
    /// say whether, and after how many keys, they win.
    #[arg(long, value_name = "KEYS", value_parser = parse_keys, conflicts_with_all = SEARCH_ARGS)]
    pub check: Option<Keys>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The search options, which `--check` (no search) does not take.
const SEARCH_ARGS: [&str; 11] = [
    "time_limit",
    "search",
    "max_nodes",
    "clock",
    "memory",
    "weight",
    "retry_weight",
    "bfs_share",
    "width_share",
    "stride_share",
    "rounds",
];

/// A key sequence given on the command line.
#[derive(Debug, Clone)]
pub struct Keys(Vec<Input>);

/// Reads keys over `udlrx` (either case), naming the first other
/// character and where it is.
fn parse_keys(text: &str) -> Result<Keys, String> {
    if text.is_empty() {
        return Err("no keys: give them as one string over u d l r x".into());
    }
    let key = |(at, c): (usize, char)| {
        Input::from_letter(c.to_ascii_lowercase()).ok_or_else(|| {
            format!(
                "{c:?} (key {}) is not a key: give them as one string over u d l r x",
                at + 1
            )
        })
    };
    text.chars()
        .enumerate()
        .map(key)
        .collect::<Result<_, _>>()
        .map(Keys)
}

/// Largest game source read.
const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// Reads and compiles the game in `path` (`-` for standard input); an
/// empty file is said to be one.
pub(super) fn read_game(path: &str) -> Result<Game> {
    let text = read_text(path, MAX_SOURCE_BYTES, "a PuzzleScript source")?;
    if text.trim().is_empty() {
        bail!("{path}: the file is empty (a PuzzleScript source has OBJECTS, LEGEND, COLLISIONLAYERS, RULES, WINCONDITIONS and LEVELS sections)");
    }
    compile(&text).with_context(|| path.to_string())
}

/// Runs `solve puzzlescript`.
pub fn run_solve(args: &SolveArgs) -> Result<ExitCode> {
    let game = read_game(&args.file)?;
    if let Some(keys) = &args.check {
        return run_check(&game, args, &keys.0);
    }
    let limits = args.search.limits(None)?;
    let solved = solve_level(&game, args.level, args.search.search, &limits)?;
    let o = &solved.outcome;
    let random = is_random(&game);
    let shortest = solved.proven_shortest;
    let keys = o.moves.as_deref().map(keys_string);
    let ms = o.elapsed.as_secs_f64() * 1000.0;
    let search = solved.search.map(Method::name);
    // Every key sequence this long was tried (breadth first only).
    let depth = match args.search.search {
        Method::Bfs | Method::BfsNoHashing => {
            Some(o.len().unwrap_or(o.lower_bound.saturating_sub(1) as usize))
        }
        _ => None,
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "level": args.level,
                "keys": keys,
                "length": keys.as_ref().map(String::len),
                "proven_shortest": shortest,
                "proven_unsolvable": o.proven_unsolvable && !random,
                "random": random,
                "search": search,
                "depth_searched": depth,
                "nodes": o.nodes,
                "time_ms": ms,
            }))?
        );
    } else {
        match &keys {
            Some(k) => println!("{k}"),
            None if o.proven_unsolvable && !random => {
                println!("no solution: every reachable position was searched")
            }
            None => println!("no solution found within the budget"),
        }
        println!(
            "length={} proven_shortest={shortest} random={random} nodes={} time_ms={ms:.1} search={}{}",
            keys.as_ref().map_or("-".into(), |k| k.len().to_string()),
            o.nodes,
            search.unwrap_or("-"),
            depth.map_or(String::new(), |d| format!(" depth_searched={d}")),
        );
    }
    Ok(if keys.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

/// Runs `solve puzzlescript --check KEYS`: the keys played from the
/// level's start; success when they win.
fn run_check(game: &Game, args: &SolveArgs, keys: &[Input]) -> Result<ExitCode> {
    let level = LevelProblem::new(game, args.level)?;
    let won = level.won_after(keys);
    let random = is_random(game);
    if args.json {
        let report = json!({
            "level": args.level,
            "keys": keys_string(keys),
            "length": keys.len(),
            "wins": won.is_some(),
            "won_after": won,
            "random": random,
        });
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        match won {
            Some(n) if n == keys.len() => println!("wins with the last of {n} keys"),
            Some(n) => println!(
                "wins after {n} of {} keys (the other {} are not played)",
                keys.len(),
                keys.len() - n
            ),
            None => println!(
                "does not win: the level is not won after {} keys",
                keys.len()
            ),
        }
        if random {
            println!("the game is random: its draws follow gridbot's seed, not the page's clock");
        }
    }
    Ok(if won.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

/// `gridbot bench puzzlescript FILE|DIR...` (every playable level solved)
/// or `gridbot bench puzzlescript --conformance FILE`.
#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// Game sources, or folders of them (every `*.txt`): every playable
    /// level is solved on one thread within the time limit (3s by
    /// default).
    #[arg(value_name = "FILE|DIR", conflicts_with = "conformance")]
    pub games: Vec<String>,
    /// The reference engine's session file (`testdata.js`): replay the
    /// recorded sessions instead.
    #[arg(long, value_name = "FILE")]
    pub conformance: Option<String>,
    /// Also run the reference engine under node (PAGE: the engine's
    /// standalone page; by default puzzlescript/standalone_inlined.txt in
    /// $GRIDBOT_GAMES or ../shared/games). With --conformance: it replays
    /// the sessions too, and the speeds are printed side by side. With
    /// game files: it plays every solution found, and one it does not win
    /// with is an error.
    #[arg(long, value_name = "PAGE", num_args = 0..=1, default_missing_value = "")]
    pub reference: Option<String>,
    /// The level bench's search and limits.
    #[command(flatten)]
    pub search: SearchOptions,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The reference engine's figures and how gridbot's compare, per CPU
/// second (the machine's load changes wall times, not these).
fn print_reference(s: &super::conformance::Summary, r: &super::reference::ReferenceRun) {
    println!(
        "reference engine (node {}): sessions={} matches={} failed={} turns={} seconds={:.2} compile_cpu_s={:.2} turn_cpu_s={:.2}",
        r.node, r.sessions, r.matches, r.failed, r.turns, r.seconds, r.compile_seconds, r.turn_seconds
    );
    let rate = |turns: usize, secs: f64| turns as f64 / secs.max(1e-9);
    let (ours, theirs) = (rate(s.turns, s.turn_seconds), rate(r.turns, r.turn_seconds));
    println!(
        "turns per CPU second: gridbot {ours:.0}, reference {theirs:.0} ({:.1} times); compiling and loading: gridbot {:.2} s, reference {:.2} s ({:.1} times); in all: {:.1} times",
        ours / theirs.max(1e-9),
        s.compile_seconds,
        r.compile_seconds,
        r.compile_seconds / s.compile_seconds.max(1e-9),
        (r.compile_seconds + r.turn_seconds) / (s.compile_seconds + s.turn_seconds).max(1e-9)
    );
}

/// Largest session file read (the reference's is about 4 MB).
const MAX_SESSIONS_BYTES: u64 = 256 << 20;

/// Runs `bench puzzlescript`: the level bench, or the conformance replay.
pub fn run_bench(args: &BenchArgs) -> Result<ExitCode> {
    let o = &args.search;
    match &args.conformance {
        Some(_) if o.time_limit.is_some() || o.max_nodes.is_some() || o.search != Method::Portfolio => {
            bail!("--time-limit, --max-nodes and --search are for the level bench (game files or folders), not --conformance")
        }
        Some(file) => run_conformance(args, file),
        None if args.games.is_empty() => bail!(
            "bench puzzlescript needs game files or folders (their levels are solved) or --conformance FILE (the reference's recorded sessions)"
        ),
        None => {
            let page = match &args.reference {
                Some(p) => Some(super::reference::engine_page(Some(std::path::Path::new(p)))?),
                None => None,
            };
            let limits = o.limits(Some(LEVEL_TIME))?;
            super::bench::run_levels(&args.games, o.search, &limits, args.json, page.as_deref())
        }
    }
}

/// The level bench's time limit per level.
const LEVEL_TIME: Duration = Duration::from_secs(3);

/// Runs `bench puzzlescript --conformance FILE`.
fn run_conformance(args: &BenchArgs, file: &str) -> Result<ExitCode> {
    let text = read_text(file, MAX_SESSIONS_BYTES, "a session file")?;
    let sessions = read_sessions(&text).with_context(|| file.to_string())?;
    let bar = if std::io::stderr().is_terminal() && !args.json {
        indicatif::ProgressBar::new(sessions.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let s = run_all(&sessions, |_| bar.inc(1));
    bar.finish_and_clear();
    let turns_per_second = s.turns as f64 / s.seconds.max(1e-9);
    let reference = match &args.reference {
        Some(page) => {
            let page = super::reference::engine_page(Some(std::path::Path::new(page)))?;
            Some(super::reference::run_reference(
                &page,
                std::path::Path::new(file),
            )?)
        }
        None => None,
    };
    if args.json {
        let cases: Vec<_> = s
            .replays
            .iter()
            .filter(|r| r.outcome != Outcome::Match)
            .map(|r| match &r.outcome {
                Outcome::Mismatch { row, expected, got } => {
                    json!({"name": r.name, "outcome": "mismatch", "row": row, "expected": expected, "got": got})
                }
                Outcome::Refused(why) => json!({"name": r.name, "outcome": "refused", "reason": why}),
                Outcome::Match => json!({"name": r.name, "outcome": "match"}),
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "sessions": s.sessions,
                "matches": s.matches,
                "mismatches": s.mismatches,
                "refusals": s.refusals,
                "turns": s.turns,
                "seconds": s.seconds,
                "turns_per_second": turns_per_second,
                "compile_cpu_seconds": s.compile_seconds,
                "turn_cpu_seconds": s.turn_seconds,
                "reference": reference.as_ref().map(|r| json!({
                    "node": r.node, "sessions": r.sessions, "matches": r.matches, "failed": r.failed,
                    "turns": r.turns, "seconds": r.seconds, "compile_cpu_seconds": r.compile_seconds,
                    "turn_cpu_seconds": r.turn_seconds,
                })),
                "not_matching": cases,
            }))?
        );
    } else {
        for r in &s.replays {
            match &r.outcome {
                Outcome::Match => {}
                Outcome::Mismatch { row, expected, got } => {
                    println!(
                        "mismatch  {}: row {row}\n  expected {expected}\n  got      {got}",
                        r.name
                    )
                }
                Outcome::Refused(why) => println!("refused   {}: {why}", r.name),
            }
        }
        println!(
            "sessions={} matches={} mismatches={} refusals={} turns={} seconds={:.2} turns_per_second={:.0} compile_cpu_s={:.2} turn_cpu_s={:.2}",
            s.sessions, s.matches, s.mismatches, s.refusals, s.turns, s.seconds, turns_per_second,
            s.compile_seconds, s.turn_seconds
        );
        if let Some(r) = &reference {
            print_reference(&s, r);
        }
        if s.mismatches > 0 {
            println!(
                "the first differing turn is not known: the sessions record only the final level"
            );
        }
    }
    Ok(if s.matches == s.sessions {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_read_over_udlrx_in_either_case() {
        let keys = parse_keys("udLRx").unwrap().0;
        let want = [
            Input::Up,
            Input::Down,
            Input::Left,
            Input::Right,
            Input::Action,
        ];
        assert_eq!(keys, want);
        assert_eq!(keys_string(&keys), "udlrx");
    }

    #[test]
    fn a_key_that_is_not_one_is_named_with_where_it_is() {
        let why = parse_keys("udw").unwrap_err();
        assert!(why.contains("'w' (key 3)"), "{why}");
        assert!(parse_keys("").unwrap_err().contains("no keys"));
    }
}
