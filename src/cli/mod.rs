//! The command line: clap derive definitions and dispatch. Each subcommand
//! lives in its own file with an `Args` struct and a `run` function; this
//! file only wires them and sets up logging and error reporting.

mod bench;
mod bench_flood;
mod bench_play;
mod bench_read;
mod calibrate;
mod click;
mod demo;
mod fixtures;
mod play;
mod read;
mod screenshot;
mod solve;
mod validate;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Capture the screen (or one window) to a PNG file.
    Screenshot(screenshot::Args),
    /// Click once at a screen point.
    Click(click::Args),
    /// Solve a board given as text, a file or an sgt game ID.
    #[command(subcommand)]
    Solve(SolveCmd),
    /// Read a board off a screenshot.
    Read(read::Args),
    /// Write a calibration file from a screenshot by auto-detection.
    Calibrate(calibrate::Args),
    /// Check or record screenshot fixtures.
    Fixtures(fixtures::Args),
    /// Play a game on the current display.
    Play(play::Args),
    /// Start a virtual display with a real game and play it to a win.
    Demo(demo::Args),
    /// Play generated games on a virtual display and compare with the game's own solver.
    Validate(validate::Args),
    /// Measure speed and memory.
    Bench(bench::Args),
}

/// The games `solve` knows.
#[derive(Debug, Subcommand)]
enum SolveCmd {
    /// Flood-It.
    Flood(solve::Args),
    /// Fifteen (sliding tiles).
    Fifteen(gridbot::games::fifteen::cli::SolveArgs),
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

/// Parses the command line, runs the subcommand and turns its error into a
/// message on stderr and a non-zero exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(cli.verbose, cli.quiet);
    gridbot::capture::screen::use_x11_only();
    let result = match cli.command {
        Command::Screenshot(args) => screenshot::run(args),
        Command::Click(args) => click::run(args),
        Command::Solve(SolveCmd::Flood(args)) => solve::run(args),
        Command::Solve(SolveCmd::Fifteen(args)) => gridbot::games::fifteen::cli::run_solve(args),
        Command::Read(args) => read::run(args),
        Command::Calibrate(args) => calibrate::run(args),
        Command::Fixtures(args) => fixtures::run(args),
        Command::Play(args) => play::run(args),
        Command::Demo(args) => demo::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Bench(args) => bench::run(args),
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
    use clap::CommandFactory;

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
    }
}
