//! `bench puzzlescript FILE|DIR...`: every playable level of every game
//! given solved on one thread within a time limit, with the solver's
//! portfolio (or the search asked for). Per game and in all: levels
//! solved, proven shortest, unsolved within the limit, proven unwinnable,
//! refused (and why), errors (a solution that did not win when replayed),
//! positions per CPU second of search, and the process's peak memory.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Result};
use serde_json::{json, Value};

use super::cli::read_game;
use super::compile::Game;
use super::reference::{replay_solutions, Solution};
use super::solve::{
    is_random, keys_string, level_index, solve_level, Limits, Method, SolveError, SEED,
};
use crate::cli::args::files_with_extension;
use crate::measure::{mib, peak_rss_bytes, timed};

/// What became of one level.
#[derive(Debug, Clone, PartialEq)]
enum Verdict {
    /// Solved; `proven` when it is a proven shortest solution.
    Solved { proven: bool },
    /// Every reachable position searched: no solution.
    Unwinnable,
    /// Not solved within the limits.
    Unsolved,
    /// Not searched, and why.
    Refused(String),
    /// A solution that did not win when replayed.
    Error(String),
}

/// One level's search.
#[derive(Debug, Clone)]
struct LevelRun {
    level: usize,
    verdict: Verdict,
    keys: Option<String>,
    search: Option<Method>,
    nodes: u64,
    cpu: Duration,
}

/// One game's levels (none when the game itself was refused).
#[derive(Debug, Clone)]
struct GameRun {
    name: String,
    refused: Option<String>,
    random: bool,
    levels: Vec<LevelRun>,
}

/// Counts over a set of levels.
#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    levels: usize,
    solved: usize,
    proven: usize,
    unsolved: usize,
    unwinnable: usize,
    refused: usize,
    errors: usize,
    nodes: u64,
    cpu: Duration,
}

impl Tally {
    fn add(&mut self, r: &LevelRun) {
        self.levels += 1;
        match &r.verdict {
            Verdict::Solved { proven } => {
                self.solved += 1;
                self.proven += usize::from(*proven);
            }
            Verdict::Unwinnable => self.unwinnable += 1,
            Verdict::Unsolved => self.unsolved += 1,
            Verdict::Refused(_) => self.refused += 1,
            Verdict::Error(_) => self.errors += 1,
        }
        self.nodes += r.nodes;
        self.cpu += r.cpu;
    }

    fn of<'a>(runs: impl IntoIterator<Item = &'a LevelRun>) -> Tally {
        let mut t = Tally::default();
        runs.into_iter().for_each(|r| t.add(r));
        t
    }

    fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.cpu.as_secs_f64().max(1e-9)
    }

    fn json(&self) -> Value {
        json!({
            "levels": self.levels, "solved": self.solved, "proven_shortest": self.proven,
            "unsolved": self.unsolved, "unwinnable": self.unwinnable, "refused": self.refused,
            "errors": self.errors, "nodes": self.nodes, "search_cpu_s": self.cpu.as_secs_f64(),
            "nodes_per_cpu_s": self.nodes_per_second(),
        })
    }

    fn line(&self) -> String {
        format!(
            "{:>6} {:>6} {:>6} {:>8} {:>10} {:>7} {:>6} {:>9.0}",
            self.levels,
            self.solved,
            self.proven,
            self.unsolved,
            self.unwinnable,
            self.refused,
            self.errors,
            self.nodes_per_second()
        )
    }
}

/// The game files that `paths` name (a folder: its `*.txt`).
fn game_files(paths: &[String]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for p in paths {
        let found = files_with_extension(std::path::Path::new(p), "txt")?;
        if found.is_empty() {
            bail!("{p}: no PuzzleScript sources (*.txt) there");
        }
        files.extend(found);
    }
    Ok(files)
}

/// Why no level of `game` is searched, if so.
fn refusal(game: &Game) -> Option<String> {
    if game.flag("realtime_interval") {
        Some(SolveError::Realtime.to_string())
    } else if game.winconditions.is_empty() && !wins_by_rule(game) {
        Some("the game has no win condition and no rule that wins: no level can be won".into())
    } else {
        None
    }
}

/// True when a rule of `game` gives the `win` command (a game may have
/// no win conditions and win only that way).
fn wins_by_rule(game: &Game) -> bool {
    let mut rules = game.rules.iter().chain(&game.late_rules);
    rules.any(|g| g.rules.iter().any(|r| r.gives("win")))
}

/// The number of playable levels of `game`.
fn playable(game: &Game) -> usize {
    (1..).take_while(|&n| level_index(game, n).is_ok()).count()
}

/// Searches level `n` of `game`.
fn run_level(game: &Game, n: usize, method: Method, limits: &Limits) -> LevelRun {
    let (result, timing) = timed(|| solve_level(game, n, method, limits));
    let mut run = LevelRun {
        level: n,
        verdict: Verdict::Unsolved,
        keys: None,
        search: None,
        nodes: 0,
        cpu: timing.cpu,
    };
    match result {
        Ok(s) => {
            let o = &s.outcome;
            run.nodes = o.nodes;
            run.search = s.search;
            run.keys = o.moves.as_deref().map(keys_string);
            run.verdict = if o.moves.is_some() {
                Verdict::Solved {
                    proven: s.proven_shortest,
                }
            } else if o.proven_unsolvable && !is_random(game) {
                Verdict::Unwinnable
            } else {
                Verdict::Unsolved
            };
        }
        Err(e @ SolveError::ReplayLost(_)) => run.verdict = Verdict::Error(e.to_string()),
        Err(e) => run.verdict = Verdict::Refused(e.to_string()),
    }
    run
}

/// Runs the level bench on the games `paths` name.
pub fn run_levels(
    paths: &[String],
    method: Method,
    limits: &Limits,
    json: bool,
    reference: Option<&Path>,
) -> Result<ExitCode> {
    let files = game_files(paths)?;
    let games: Vec<(String, Result<Game, String>)> = files
        .iter()
        .map(|f| {
            let name = f.file_stem().map_or_else(
                || f.display().to_string(),
                |s| s.to_string_lossy().into_owned(),
            );
            let game = read_game(&f.to_string_lossy()).map_err(|e| format!("{e:#}"));
            (name, game)
        })
        .collect();
    let total: usize = games
        .iter()
        .filter_map(|(_, g)| g.as_ref().ok())
        .map(playable)
        .sum();
    let bar = if json {
        indicatif::ProgressBar::hidden()
    } else {
        crate::cli::progress_bar(total as u64)
    };
    let mut runs = Vec::new();
    for (name, game) in &games {
        bar.set_message(name.clone());
        let game = match game {
            Ok(g) => g,
            Err(why) => {
                runs.push(GameRun {
                    name: name.clone(),
                    refused: Some(why.clone()),
                    random: false,
                    levels: Vec::new(),
                });
                continue;
            }
        };
        let why = refusal(game);
        let levels = (1..=playable(game))
            .map(|n| {
                bar.inc(1);
                match &why {
                    Some(w) => LevelRun {
                        level: n,
                        verdict: Verdict::Refused(w.clone()),
                        keys: None,
                        search: None,
                        nodes: 0,
                        cpu: Duration::ZERO,
                    },
                    None => run_level(game, n, method, limits),
                }
            })
            .collect();
        runs.push(GameRun {
            name: name.clone(),
            refused: None,
            random: is_random(game),
            levels,
        });
    }
    bar.finish_and_clear();
    let checked = match reference {
        Some(page) => Some(check_with_reference(page, &files, &games, &mut runs)?),
        None => None,
    };
    let all = Tally::of(runs.iter().flat_map(|g| &g.levels));
    let peak = peak_rss_bytes().map(mib);
    if json {
        print_json(&runs, &all, method, limits, peak, checked)?;
    } else {
        print_text(&runs, &all, method, limits, peak);
        if let Some((won, of)) = checked {
            println!("reference engine: {won} of {of} solutions win the level");
        }
    }
    Ok(if all.errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

/// Plays every solution of `runs` on the reference engine of `page`
/// under node, from its level's start with the solver's seed; one the
/// reference does not win with becomes an error (the two engines
/// disagree). How many it won, of how many.
fn check_with_reference(
    page: &Path,
    files: &[PathBuf],
    games: &[(String, Result<Game, String>)],
    runs: &mut [GameRun],
) -> Result<(usize, usize)> {
    let (mut asked, mut solutions) = (Vec::new(), Vec::new());
    for (g, run) in runs.iter().enumerate() {
        let Ok(game) = &games[g].1 else { continue };
        for (l, level) in run.levels.iter().enumerate() {
            let (Some(keys), Verdict::Solved { .. }) = (&level.keys, &level.verdict) else {
                continue;
            };
            let index = level_index(game, level.level)?;
            let (file, keys, seed) = (files[g].clone(), keys.clone(), SEED.to_string());
            solutions.push(Solution {
                file,
                index,
                keys,
                seed,
            });
            asked.push((g, l));
        }
    }
    let won = replay_solutions(page, &solutions)?;
    for (&(g, l), _) in asked.iter().zip(&won).filter(|(_, &w)| !w) {
        runs[g].levels[l].verdict =
            Verdict::Error("the reference engine does not win the level with these keys".into());
    }
    Ok((won.iter().filter(|&&w| w).count(), won.len()))
}

fn print_text(runs: &[GameRun], all: &Tally, method: Method, limits: &Limits, peak: Option<f64>) {
    println!(
        "{:<24} {:>6} {:>6} {:>6} {:>8} {:>10} {:>7} {:>6} {:>9}",
        "game",
        "levels",
        "solved",
        "proven",
        "unsolved",
        "unwinnable",
        "refused",
        "errors",
        "nodes/s"
    );
    for g in runs {
        let note = if g.random {
            "  (random: never proven)"
        } else {
            ""
        };
        println!("{:<24} {}{note}", g.name, Tally::of(&g.levels).line());
    }
    println!("{:<24} {}", "all", all.line());
    for g in runs {
        if let Some(why) = &g.refused {
            println!("refused {}: {why}", g.name);
        }
        for l in &g.levels {
            match &l.verdict {
                Verdict::Refused(why) => println!("refused {} level {}: {why}", g.name, l.level),
                Verdict::Error(why) => println!("error   {} level {}: {why}", g.name, l.level),
                _ => {}
            }
        }
    }
    println!(
        "games={} levels={} solved={} proven_shortest={} unsolved={} unwinnable={} refused={} errors={} refused_games={} search={} time_limit_s={} clock={} nodes={} search_cpu_s={:.2} nodes_per_cpu_s={:.0} peak_rss_mib={}",
        runs.len(), all.levels, all.solved, all.proven, all.unsolved, all.unwinnable, all.refused, all.errors,
        runs.iter().filter(|g| g.refused.is_some()).count(),
        method.name(),
        limits.time.map_or("-".into(), |t| format!("{}", t.as_secs_f64())),
        if limits.cpu { "cpu" } else { "wall" },
        all.nodes, all.cpu.as_secs_f64(), all.nodes_per_second(),
        peak.map_or("-".into(), |m| format!("{m:.0}")),
    );
}

fn print_json(
    runs: &[GameRun],
    all: &Tally,
    method: Method,
    limits: &Limits,
    peak: Option<f64>,
    checked: Option<(usize, usize)>,
) -> Result<()> {
    let games: Vec<Value> = runs
        .iter()
        .map(|g| {
            let levels: Vec<Value> = g
                .levels
                .iter()
                .map(|l| {
                    let (verdict, reason) = match &l.verdict {
                        Verdict::Solved { proven: true } => ("proven_shortest", None),
                        Verdict::Solved { proven: false } => ("solved", None),
                        Verdict::Unwinnable => ("unwinnable", None),
                        Verdict::Unsolved => ("unsolved", None),
                        Verdict::Refused(w) => ("refused", Some(w)),
                        Verdict::Error(w) => ("error", Some(w)),
                    };
                    json!({
                        "level": l.level, "verdict": verdict, "reason": reason, "keys": l.keys,
                        "length": l.keys.as_ref().map(String::len), "search": l.search.map(Method::name),
                        "nodes": l.nodes, "cpu_ms": l.cpu.as_secs_f64() * 1000.0,
                    })
                })
                .collect();
            json!({"game": g.name, "refused": g.refused, "random": g.random, "summary": Tally::of(&g.levels).json(), "levels": levels})
        })
        .collect();
    println!(
        "{}",
        serde_json::to_string_pretty(&json!({
            "search": method.name(),
            "time_limit_s": limits.time.map(|t| t.as_secs_f64()),
            "clock": if limits.cpu { "cpu" } else { "wall" },
            "memory_bytes": limits.memory,
            "max_nodes": limits.nodes,
            "peak_rss_mib": peak,
            "all": all.json(),
            "refused_games": runs.iter().filter(|g| g.refused.is_some()).count(),
            "reference": checked.map(|(won, of)| json!({"won": won, "solutions": of})),
            "games": games,
        }))?
    );
    Ok(())
}
