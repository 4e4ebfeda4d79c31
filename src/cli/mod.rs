//! The command line: `gridbot VERB GAME ...` for the game verbs (built from
//! [`crate::games::registry`]), plus the commands that know no game
//! (`screenshot`, `click`, `games`, and `merge` and `cluster` for jobs
//! split into units). Each command lives in its own file
//! with an `Args` struct and a `run` function; this file only wires them,
//! sets up logging and turns errors into a message and an exit code.
//!
//! [`play`] holds what the play loop's commands (`play`, `demo`,
//! `validate`, `bench play`) of every game share; [`sgt_game`] the whole
//! `play`, `demo` and `validate` of a game an sgt-puzzles program hosts.

pub mod args;
pub mod bench;
pub mod bench_units;
pub mod click;
pub mod cluster;
pub mod fixtures;
pub mod games;
pub mod play;
pub mod screenshot;
pub mod sgt_bench_play;
pub mod sgt_game;
pub mod units;
pub mod validate_units;

use std::process::ExitCode;

use clap::{ArgMatches, Command, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::games::registry::{self, verbs, Verb};

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
    /// Merge the units of a job folder into the output of the local run.
    Merge(units::MergeArgs),
    /// Run a job's units as Slurm job arrays: submit, status, resume.
    Cluster(cluster::Args),
}

/// The game `gridbot demo` plays when no game is named.
const DEFAULT_GAME: &str = "flood";

/// The subcommand of the top-level `verb`: one sub-subcommand per game
/// offering it, and the verbs typed after it (`bench read`).
fn verb_command(verb: Verb, all: &[Verb]) -> Command {
    let games: Vec<Command> = registry::all()
        .iter()
        .filter_map(|g| g.entry(&verb).map(|e| e.command(g.name)))
        .collect();
    let nested: Vec<Command> = all
        .iter()
        .filter(|v| v.parent == Some(verb.name))
        .map(|&v| verb_command(v, all))
        .collect();
    let cmd = Command::new(verb.name)
        .about(verb.about)
        .subcommands(games)
        .subcommands(nested)
        .subcommand_value_name("GAME")
        .subcommand_help_heading("Games");
    if verb.same(&verbs::DEMO) {
        // `gridbot demo [OPTIONS]` alone plays Flood-It with its options.
        let default = registry::find(DEFAULT_GAME)
            .and_then(|g| g.entry(&verbs::DEMO).map(|e| e.command(g.name)))
            .expect("the default game has a demo");
        return cmd
            .args(default.get_arguments().cloned())
            .args_conflicts_with_subcommands(true)
            .subcommand_required(false);
    }
    cmd.subcommand_required(true).arg_required_else_help(true)
}

/// The whole command line.
pub fn command() -> Command {
    let all = registry::all_verbs();
    let mut cmd = Cli::command();
    for verb in all.iter().filter(|v| v.parent.is_none()) {
        cmd = cmd.subcommand(verb_command(*verb, &all));
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

/// Runs the top-level or nested `verb` of `all`: `matches` are the verb's
/// own.
fn run_verb(verb: Verb, all: &[Verb], matches: &ArgMatches) -> anyhow::Result<ExitCode> {
    let (name, sub) = match matches.subcommand() {
        Some((name, sub)) => (name, sub),
        // Only `demo` may come without a game: it plays the default game,
        // whose options it took.
        None => (DEFAULT_GAME, matches),
    };
    if let Some(&nested) = all
        .iter()
        .find(|v| v.parent == Some(verb.name) && v.name == name)
    {
        return run_verb(nested, all, sub);
    }
    let entry = registry::find(name)
        .and_then(|g| g.entry(&verb))
        .ok_or_else(|| anyhow::anyhow!("unknown game {name:?}; `gridbot games` lists them"))?;
    entry.run(sub)
}

/// Parses the command line, runs the command and turns its error into a
/// message on stderr and a non-zero exit code.
pub fn main() -> ExitCode {
    let matches = command().get_matches();
    init_logging(matches.get_count("verbose"), matches.get_flag("quiet"));
    crate::capture::screen::use_x11_only();
    let all = registry::all_verbs();
    let (name, sub) = matches.subcommand().expect("clap requires a subcommand");
    let top = all.iter().find(|v| v.parent.is_none() && v.name == name);
    let result = match top {
        Some(&verb) => run_verb(verb, &all, sub),
        None => match Cli::from_arg_matches(&matches) {
            Ok(cli) => match cli.command {
                Fixed::Screenshot(args) => screenshot::run(args),
                Fixed::Click(args) => click::run(args),
                Fixed::Games(args) => games::run(args),
                Fixed::Merge(args) => units::run_merge(args),
                Fixed::Cluster(args) => cluster::run(args),
            },
            Err(e) => e.exit(),
        },
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("gridbot: error: {}", error_text(&err));
            ExitCode::FAILURE
        }
    }
}

/// The error and its causes on one line, `outer: inner: ...`, each cause
/// said once: an error whose own text already ends with its cause's (a
/// wrapped system error shown with its path) does not repeat it.
pub fn error_text(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let c = cause.to_string();
        if text.is_empty() {
            text = c;
        } else if !text.contains(&c) {
            text.push_str(": ");
            text.push_str(&c);
        }
    }
    text
}

#[cfg(test)]
mod error_tests {
    use super::error_text;

    #[test]
    fn a_cause_already_shown_is_not_repeated() {
        let io = std::io::Error::from_raw_os_error(libc::EEXIST);
        let file = crate::files::FileError::Io {
            path: "out".into(),
            source: io,
        };
        let err = anyhow::Error::new(file).context("cannot write the report");
        let text = error_text(&err);
        assert_eq!(text.matches("File exists").count(), 1, "{text}");
        assert!(
            text.starts_with("cannot write the report: out: File exists"),
            "{text}"
        );
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
        let all = registry::all_verbs();
        for verb in all.iter().filter(|v| v.parent.is_none()) {
            verb_command(*verb, &all).build();
        }
        assert!(command()
            .try_get_matches_from(["gridbot", "solve", "nosuchgame", "x"])
            .is_err());
    }
}

/// A progress bar on standard error when it is a terminal (hidden
/// otherwise, so that logs and pipes get no bar).
pub fn progress_bar(len: u64) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(len)
    } else {
        indicatif::ProgressBar::hidden()
    }
}
