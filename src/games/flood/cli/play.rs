//! `gridbot play flood`: plays Flood-It on the current display (the game
//! window found by title), one or more games, and reports each. Also what
//! `demo`, `validate` and `bench play` for Flood-It share: the built-in
//! calibration, the strategy option, and [`GameSetup`].

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use crate::calibration::Calibration;
use crate::cli::play::{config_from, load_calibration, play_series, print_dry_run, LoopArgs};
use crate::games::flood::play::{sgt_flood_binary, FloodGame};
use crate::games::flood::Strategy;
use crate::hosts::sgt::SgtHost;
use crate::play::engine::PlayConfig;
use crate::play::x11::open_screen;

/// The built-in sgt-flood calibration, used when no file is given.
pub const DEFAULT_CALIBRATION: &str = include_str!("../../../../calibration/sgt-flood.toml");

/// Flood-It's options of the play commands.
#[derive(Debug, Clone, clap::Args)]
pub struct FloodArgs {
    /// Solver strategy: astar (default) runs a portfolio (exact A* on half
    /// the budget, then sgt-flood's own lookahead, beam, greedy + optimiser
    /// and branch and bound on the rest; the shortest line wins); any other
    /// runs that search alone.
    #[arg(long, value_enum, default_value = "astar")]
    pub strategy: Strategy,
    #[command(flatten)]
    pub common: LoopArgs,
}

/// `gridbot play flood`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Title (substring) of the game window; default: the calibration's
    /// window_title ("Flood").
    #[arg(long, value_name = "TITLE", conflicts_with = "full_screen")]
    window: Option<String>,
    /// Capture the whole screen instead of one window.
    #[arg(long)]
    full_screen: bool,
    /// Games to play; after each win the calibration's new-game key starts the next.
    #[arg(long, default_value_t = 1)]
    games: usize,
    /// Read, solve and print the clicks it would make, without moving the mouse.
    #[arg(long)]
    dry_run: bool,
    #[command(flatten)]
    flood: FloodArgs,
}

/// Loads the calibration file, or the built-in one.
pub fn flood_calibration(path: Option<&std::path::Path>) -> anyhow::Result<Calibration> {
    load_calibration(path, DEFAULT_CALIBRATION, "built-in sgt-flood.toml")
}

/// The sgt host of sgt-flood, with the calibration's new-game key.
pub fn flood_host(calibration: &Calibration) -> SgtHost {
    SgtHost {
        program: "flood".into(),
        new_game_key: calibration.keys.new_game,
    }
}

/// What a run that starts its own sgt-flood needs before the first game:
/// the game's binary, its window title, the loop configuration, the game
/// and its host.
pub struct GameSetup {
    /// sgt-flood.
    pub binary: PathBuf,
    /// The window title to look for.
    pub title: String,
    /// The loop's configuration.
    pub config: PlayConfig,
    /// The game.
    pub game: FloodGame,
    /// The sgt host.
    pub host: SgtHost,
}

impl GameSetup {
    /// Finds sgt-flood and loads the calibration named on the command line
    /// (or the built-in one).
    pub fn prepare(args: &FloodArgs) -> anyhow::Result<Self> {
        let binary = sgt_flood_binary()
            .context("sgt-flood not found (Debian package sgt-puzzles; ./dev deps installs it)")?;
        let calibration = flood_calibration(args.common.calibration.as_deref())?;
        let title = calibration
            .window_title
            .clone()
            .unwrap_or_else(|| "Flood".into());
        let config = config_from(&calibration, &args.common)?;
        let host = flood_host(&calibration);
        let mut game = FloodGame::new(calibration);
        game.strategy = args.strategy;
        Ok(GameSetup {
            binary,
            title,
            config,
            game,
            host,
        })
    }
}

/// Plays (or, with `--dry-run`, plans) Flood-It on the current display.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    let calibration = flood_calibration(args.flood.common.calibration.as_deref())?;
    let title = if args.full_screen {
        None
    } else {
        Some(
            args.window
                .clone()
                .or_else(|| calibration.window_title.clone())
                .unwrap_or_else(|| "Flood".into()),
        )
    };
    let config = config_from(&calibration, &args.flood.common)?;
    let host = flood_host(&calibration);
    let mut game = FloodGame::new(calibration);
    game.strategy = args.flood.strategy;
    let mut screen = open_screen(title.as_deref())?;
    if args.dry_run {
        return print_dry_run(&game, &host, &mut screen, config);
    }
    play_series(
        &game,
        &host,
        &mut screen,
        config,
        args.games,
        None,
        args.flood.common.report.as_deref(),
    )
}
