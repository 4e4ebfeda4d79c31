//! `gridbot play flood`: plays Flood-It on the current display (the game
//! window found by title), one or more games, and reports each. Also the
//! helpers `demo` and `validate` share: loading the calibration, building
//! the loop's configuration, printing a game's line, saving screenshots.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use crate::calibration::Calibration;
use crate::capture::window_grabber::WindowGrabber;
use crate::games::flood::play::{sgt_flood_binary, FloodGame};
use crate::games::flood::Strategy;
use crate::play::engine::{Finished, GameContext, PlayConfig, Player};
use crate::play::report::{self, GameRecord, Summary};
use crate::play::settle::SettleTiming;
use crate::play::x11::{open_pointer, open_screen};
use crate::play::{abort, AbortGuard, GameResult};
use anyhow::{bail, Context};

/// The built-in sgt-flood calibration, used when no file is given.
pub const DEFAULT_CALIBRATION: &str = include_str!("../../calibration/sgt-flood.toml");

/// Options shared by `play`, `demo` and `validate`.
#[derive(Debug, Clone, clap::Args)]
pub struct LoopArgs {
    /// Calibration file (palette in the game's colour order, timings, keys);
    /// default: the built-in sgt-flood calibration.
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
    /// Solver time budget per solve in ms (default: the calibration's
    /// solve_budget_ms); past it the best line found is played and reported
    /// as unproven.
    #[arg(long, value_name = "MS")]
    pub solve_budget_ms: Option<u64>,
    /// Solver strategy: astar (default) runs a portfolio (exact A* on half
    /// the budget, then sgt-flood's own lookahead, beam, greedy + optimiser
    /// and branch and bound on the rest; the shortest line wins); any other
    /// runs that search alone.
    #[arg(long, value_enum, default_value = "astar")]
    pub strategy: Strategy,
    /// Mismatches in a row tolerated before giving up.
    #[arg(long, default_value_t = 3)]
    pub max_retries: usize,
    /// Wait this long after each verified move (to watch, or to let a test
    /// interfere); the board is found and read again after the pause.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub pause_between_moves: u64,
    /// Do not read the status line with tesseract (reported as unread).
    #[arg(long)]
    pub no_status: bool,
    /// Write a report of every game: FILE.json or FILE.csv.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
}

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
    common: LoopArgs,
}

/// Loads the calibration file, or the built-in one.
pub fn load_calibration(path: Option<&Path>) -> anyhow::Result<Calibration> {
    match path {
        Some(p) => Ok(Calibration::load(p)?),
        None => Ok(Calibration::parse(
            DEFAULT_CALIBRATION,
            Path::new("built-in sgt-flood.toml"),
        )?),
    }
}

/// The loop configuration from a calibration and the command line; also
/// checks the report file name before anything is played.
pub fn config_from(calibration: &Calibration, args: &LoopArgs) -> anyhow::Result<PlayConfig> {
    if let Some(path) = &args.report {
        report::check_report_path(path)?;
    }
    let t = &calibration.timing;
    Ok(PlayConfig {
        settle: SettleTiming {
            after_click: Duration::from_millis(t.after_click_ms),
            poll_interval: Duration::from_millis(t.poll_interval_ms),
            timeout: Duration::from_millis(t.settle_timeout_ms),
        },
        solve_budget: Duration::from_millis(args.solve_budget_ms.unwrap_or(t.solve_budget_ms)),
        max_retries: args.max_retries,
        pause_between_moves: Duration::from_millis(args.pause_between_moves),
        read_status: !args.no_status,
        ..PlayConfig::default()
    })
}

/// The Flood-It game for the loop.
pub fn flood_game(calibration: Calibration, args: &LoopArgs) -> FloodGame {
    let mut game = FloodGame::new(calibration);
    game.strategy = args.strategy;
    game
}

/// What a run that starts its own sgt-flood needs before the first game:
/// the game's binary, its window title, the loop configuration and the game.
pub struct GameSetup {
    pub binary: std::path::PathBuf,
    pub title: String,
    pub config: PlayConfig,
    pub game: FloodGame,
}

impl GameSetup {
    /// Finds sgt-flood and loads the calibration named on the command line
    /// (or the built-in one).
    pub fn prepare(args: &LoopArgs) -> anyhow::Result<Self> {
        let binary = sgt_flood_binary()
            .context("sgt-flood not found (Debian package sgt-puzzles; ./dev deps installs it)")?;
        let calibration = load_calibration(args.calibration.as_deref())?;
        let title = calibration
            .window_title
            .clone()
            .unwrap_or_else(|| "Flood".into());
        let config = config_from(&calibration, args)?;
        let game = flood_game(calibration, args);
        Ok(GameSetup {
            binary,
            title,
            config,
            game,
        })
    }
}

/// One line for a finished game.
pub fn game_line(r: &GameRecord) -> String {
    let result = match r.result {
        GameResult::Won => format!("won in {} moves", r.moves),
        GameResult::Lost => format!("LOST after {} moves", r.moves),
    };
    let limit = r.limit.map_or(String::new(), |l| format!(" (limit {l})"));
    let status = r.status_text.as_deref().map_or_else(
        || "status unread".to_string(),
        |t| format!("status \"{t}\""),
    );
    format!(
        "game {}: {}x{} {result}{limit}, optimal={}, {status}; bot {:.1} ms/move ({:.1} without solving, solve {:.0} ms), {:.2} s wall",
        r.game,
        r.width,
        r.height,
        if r.proven_optimal { "proven" } else { "unproven" },
        r.bot_ms_per_move,
        r.bot_ms_per_move_excl_solve,
        r.solve_ms,
        r.wall_ms / 1000.0
    )
}

/// Saves a finished game's first and last screenshots into `dir`.
pub fn save_screenshots<S>(dir: &Path, finished: &Finished<S>) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let n = finished.record.game;
    for (name, shot) in [
        ("before", &finished.first_shot),
        ("after", &finished.last_shot),
    ] {
        let path = dir.join(format!("game-{n:03}-{name}.png"));
        shot.image
            .save(&path)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// Writes the report file if asked and prints the summary.
pub fn finish_run(records: &[GameRecord], report_path: Option<&Path>) -> anyhow::Result<()> {
    if let Some(path) = report_path {
        report::write_report(path, records)?;
        eprintln!("report written to {}", path.display());
    }
    if !records.is_empty() {
        print!("{}", Summary::of(records).to_text());
    }
    Ok(())
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let calibration = load_calibration(args.common.calibration.as_deref())?;
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
    let config = config_from(&calibration, &args.common)?;
    let game = flood_game(calibration, &args.common);
    let mut screen = open_screen(title.as_deref())?;
    let size = screen.screen_size();

    if args.dry_run {
        // A pointer that is never used: the dry run does not click.
        let mut pointer = DryPointer(size);
        let guard = AbortGuard::new(abort::interrupt_flag(), size);
        let mut player = Player::new(&game, &mut screen, &mut pointer, guard, config);
        let dry = player.dry_run()?;
        println!("board: {}", dry.board);
        println!(
            "plan: {} moves, optimal={} (lower bound {}), solved in {:.1} ms",
            dry.clicks.len(),
            if dry.proven_optimal {
                "proven"
            } else {
                "unproven"
            },
            dry.lower_bound,
            dry.solve.as_secs_f64() * 1000.0
        );
        for (i, click) in dry.clicks.iter().enumerate() {
            println!(
                "{:>3}. click {} at ({}, {})",
                i + 1,
                click.label,
                click.point.0,
                click.point.1
            );
        }
        return Ok(ExitCode::SUCCESS);
    }

    play_series(
        &game,
        &mut screen,
        config,
        args.games,
        None,
        args.common.report.as_deref(),
    )
}

/// Plays `games` games in a row on `screen` (a new game after each win),
/// prints a line per game, saves before/after screenshots into
/// `screenshots` when given, writes the report, and stops after a loss.
/// Succeeds when every game was won.
pub fn play_series(
    game: &FloodGame,
    screen: &mut WindowGrabber,
    config: PlayConfig,
    games: usize,
    screenshots: Option<&Path>,
    report: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let mut pointer = open_pointer()?;
    let guard = AbortGuard::new(abort::interrupt_flag(), screen.screen_size());
    let mut player = Player::new(game, screen, &mut pointer, guard, config);
    player.note_pointer()?;
    let mut records = Vec::new();
    let outcome = (|| -> anyhow::Result<()> {
        for number in 1..=games {
            if number > 1 {
                player.new_game()?;
            }
            let finished = player.play_game(number, &GameContext::default())?;
            println!("{}", game_line(&finished.record));
            if let Some(dir) = screenshots {
                save_screenshots(dir, &finished)?;
            }
            let lost = finished.record.result == GameResult::Lost;
            records.push(finished.record);
            if lost {
                break;
            }
        }
        Ok(())
    })();
    finish_run(&records, report)?;
    outcome?;
    let all_won = records.len() == games && records.iter().all(|r| r.result == GameResult::Won);
    Ok(if all_won {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The pointer of a dry run: reports a fixed position and refuses to act.
struct DryPointer((u32, u32));

impl crate::play::io::Pointer for DryPointer {
    fn position(&mut self) -> Result<(i32, i32), crate::play::io::DeviceError> {
        Ok((self.0 .0 as i32 / 2, self.0 .1 as i32 / 2))
    }
    fn click(&mut self, _x: i32, _y: i32) -> Result<(), crate::play::io::DeviceError> {
        Err(crate::play::io::DeviceError(
            "a dry run does not click".into(),
        ))
    }
    fn key(&mut self, _key: char) -> Result<(), crate::play::io::DeviceError> {
        Err(crate::play::io::DeviceError(
            "a dry run does not press keys".into(),
        ))
    }
    fn release_all(&mut self) {}
    fn screen_size(&self) -> (u32, u32) {
        self.0
    }
}
