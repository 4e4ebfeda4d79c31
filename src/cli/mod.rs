//! The command line: `gridbot VERB GAME ...` for the game verbs (built from
//! [`crate::games::registry`]), plus the commands that know no game
//! (`screenshot`, `click`, `games`). Each command lives in its own file
//! with an `Args` struct and a `run` function; this file only wires them,
//! sets up logging and turns errors into a message and an exit code.
//!
//! [`play`] holds what the play loop's commands (`play`, `demo`,
//! `validate`, `bench play`) of every game share; [`sgt_game`] the whole
//! `play`, `demo` and `validate` of a game an sgt-puzzles program hosts.

pub mod args;
pub mod click;
pub mod fixtures;
pub mod games;
pub mod play;
pub mod screenshot;
pub mod sgt_bench_play;
pub mod sgt_game;

use std::process::ExitCode;

use clap::{ArgMatches, Command, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::games::registry::{self, Verb};

/// Plays grid puzzle games by reading the screen: capture, solve, act.
#[derive(Debug, Parser)]
#[command(name = "gridbot", version, about, long_about = None)]
pub struct Cli {
    /// More log output (-v info, -vv debug, -vvv trace). RUST_LOG overrides.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
    /// Only errors in the log.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,
    #[command(subcommand)]
    command: Fixed,
}

/// The commands that know no game.
#[derive(Debug, Subcommand)]
enum Fixed {
    /// Capture the screen (or one window) to a PNG file.
    Screenshot(screenshot::Args),
    /// Click once at a screen point.
    Click(click::Args),
    /// List the games and what each supports.
    Games(games::Args),
}

/// The game `gridbot demo` plays when no game is named.
const DEFAULT_GAME: &str = "flood";

/// The verbs that sit directly under `gridbot` (the `bench` verb holds
/// `bench read` and `bench play` as well as the games).
const TOP_VERBS: [Verb; 12] = [
    Verb::Solve,
    Verb::Read,
    Verb::Calibrate,
    Verb::Play,
    Verb::Demo,
    Verb::Validate,
    Verb::Bench,
    Verb::Fixtures,
    Verb::Analyse,
    Verb::Enumerate,
    Verb::Generate,
    Verb::Endgame,
];

/// The subcommand of `verb`: one sub-subcommand per game supporting it.
fn verb_command(verb: Verb) -> Option<Command> {
    let games: Vec<Command> = registry::all()
        .iter()
        .filter_map(|g| g.command(verb))
        .collect();
    if games.is_empty() {
        return None;
    }
    let mut cmd = Command::new(verb.name())
        .about(verb.about())
        .subcommands(games)
        .subcommand_value_name("GAME")
        .subcommand_help_heading("Games");
    cmd = match verb {
        // `gridbot demo [OPTIONS]` alone plays Flood-It with its options.
        Verb::Demo => {
            let default = registry::find(DEFAULT_GAME)
                .and_then(|g| g.command(Verb::Demo))
                .expect("the default game has a demo");
            cmd.args(default.get_arguments().cloned())
                .args_conflicts_with_subcommands(true)
                .subcommand_required(false)
        }
        Verb::Bench => {
            for sub in [Verb::BenchRead, Verb::BenchPlay] {
                if let Some(c) = verb_command(sub) {
                    cmd = cmd.subcommand(c);
                }
            }
            cmd.subcommand_required(true)
        }
        _ => cmd.subcommand_required(true),
    };
    Some(cmd.arg_required_else_help(verb != Verb::Demo))
}

/// The whole command line.
pub fn command() -> Command {
    let mut cmd = Cli::command();
    for verb in TOP_VERBS {
        if let Some(c) = verb_command(verb) {
            cmd = cmd.subcommand(c);
        }
    }
    cmd
}

fn init_logging(verbose: u8, quiet: bool) {
    let level = match (quiet, verbose) {
        (true, _) => "error",
        (false, 0) => "warn",
        (false, 1) => "info",
        (false, 2) => "debug",
        (false, _) => "trace",
    };
    // enigo warns about harmless keymap details on every start; keep it
    // quiet unless debugging (-vv) or RUST_LOG says otherwise.
    let filter = if verbose >= 2 {
        level.to_string()
    } else {
        format!("{level},enigo=error")
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(filter))
        .format_timestamp_millis()
        .init();
}

/// Runs a game verb: `matches` are the verb's own.
fn run_verb(verb: Verb, matches: &ArgMatches) -> anyhow::Result<ExitCode> {
    match matches.subcommand() {
        Some((name, sub)) => {
            if verb == Verb::Bench {
                for nested in [Verb::BenchRead, Verb::BenchPlay] {
                    if name == nested.name() {
                        return run_verb(nested, sub);
                    }
                }
            }
            let game = registry::find(name).ok_or_else(|| {
                anyhow::anyhow!("unknown game {name:?}; `gridbot games` lists them")
            })?;
            game.run(verb, sub)
        }
        None => {
            // Only `demo` may come without a game: it plays the default
            // game, whose options it took.
            let game = registry::find(DEFAULT_GAME).expect("the default game is registered");
            game.run(verb, matches)
        }
    }
}

/// Parses the command line, runs the command and turns its error into a
/// message on stderr and a non-zero exit code.
pub fn main() -> ExitCode {
    let matches = command().get_matches();
    init_logging(matches.get_count("verbose"), matches.get_flag("quiet"));
    crate::capture::screen::use_x11_only();
    let result = match matches.subcommand() {
        Some((name, sub)) => match TOP_VERBS.iter().find(|v| v.name() == name) {
            Some(&verb) => run_verb(verb, sub),
            None => match Cli::from_arg_matches(&matches) {
                Ok(cli) => match cli.command {
                    Fixed::Screenshot(args) => screenshot::run(args),
                    Fixed::Click(args) => click::run(args),
                    Fixed::Games(args) => games::run(args),
                },
                Err(e) => e.exit(),
            },
        },
        None => unreachable!("clap requires a subcommand"),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("gridbot: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verify_cli() {
        command().debug_assert();
    }

    #[test]
    fn every_game_verb_parses_its_help() {
        for verb in TOP_VERBS {
            if let Some(mut c) = verb_command(verb) {
                c.build();
            }
        }
        assert!(command()
            .try_get_matches_from(["gridbot", "solve", "nosuchgame", "x"])
            .is_err());
    }
}
