//! `gridbot demo flood --host cstby` and `gridbot play flood --host cstby`:
//! Flood-It on Carl Steib's page (`flood-cstby/index.html` of the shared
//! games, see [`crate::games::flood::cstby`]).
//!
//! - `demo`: a virtual display with the page in Chromium; the levels are
//!   played in a row from level 1 (`--levels N`, all eight by default), each planned by the exact solver and played click by click
//!   with the loop of [`crate::play`]; after each won level the message
//!   over the board is clicked and the next level waited for.
//! - `play`: the page already open (`--window TITLE`, by default the
//!   window whose title has `index.html`), the level shown, to its end.
//!
//! Before its first click each level checks that the page is the game:
//! a framed board of flat cells and the line `Move: 0/limit  Level: k/8`
//! above it; anything else is refused without a click.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

use crate::actuator::Gesture;
use crate::calibration::Calibration;
use crate::capture::window_grabber::WindowGrabber;
use crate::cli::play::{
    config_from, finish_run, game_line, load_calibration, parse_size, play_one, play_series,
    print_dry_run, print_run_time, save_screenshots, start_display, LoopArgs, SeriesOutput,
    WindowArgs,
};
use crate::games::flood::cstby::{
    message_point, read_status_line, CstbyFlood, CstbyHost, PageStatus, FOLDER, LEVELS, PAGE,
};
use crate::hosts::browser::{Browser, BrowserOptions};
use crate::hosts::sgt_web::games_dir;
use crate::play::engine::{GameContext, PlayConfig};
use crate::play::x11::open_pointer;
use crate::play::{GameRecord, GameResult};

/// The built-in calibration (timings; the page needs no palette).
pub const DEFAULT_CALIBRATION: &str = include_str!("../../../../calibration/flood-cstby.toml");

/// The page's folder is not where it was looked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "Carl Steib's Flood-It page was not found{}: set GRIDBOT_GAMES to the folder that holds \
     {FOLDER}/ (the project's ../shared/games)",
    .0.as_ref().map(|d| format!(" in {}", d.display())).unwrap_or_default()
)]
pub struct CstbyMissing(pub Option<PathBuf>);

/// The page's folder (holding `index.html` and `cljs-out/`).
pub fn cstby_dir() -> Result<PathBuf, CstbyMissing> {
    let dir = games_dir().map(|d| d.join(FOLDER));
    match dir {
        Some(d) if d.join(PAGE).is_file() && d.join("cljs-out").is_dir() => Ok(d),
        d => Err(CstbyMissing(d)),
    }
}

/// The game and the loop's configuration from the calibration (`--calibration`
/// or the built-in one).
fn setup(common: &LoopArgs) -> anyhow::Result<(CstbyFlood, PlayConfig)> {
    let calibration: Calibration = load_calibration(
        common.calibration.as_deref(),
        DEFAULT_CALIBRATION,
        "built-in flood-cstby.toml",
    )?;
    let mut config = config_from(&calibration, common)?;
    // A colour change lasts a second: a board that differs from the plan
    // is believed only once it has held still longer than a frame's step.
    config.confirm_stable = Duration::from_millis(400);
    config.find_timeout = Duration::from_secs(8);
    Ok((CstbyFlood::new(calibration), config))
}

/// `play flood --host cstby`: the level on the page already open.
pub fn run_play(window: &WindowArgs, dry_run: bool, common: &LoopArgs) -> anyhow::Result<ExitCode> {
    let (game, config) = setup(common)?;
    let title = window.title(PAGE);
    let mut screen = crate::play::x11::open_screen(title.as_deref())?;
    check_page(&game, &mut screen, None)?;
    if dry_run {
        return print_dry_run(&game, &CstbyHost, &mut screen, config);
    }
    play_series(
        &game,
        &CstbyHost,
        &mut screen,
        config,
        &SeriesOutput {
            games: 1,
            screenshots: None,
            record: common.record.as_deref(),
            report: common.report.as_deref(),
            replace: common.replace(),
            extra_line: &|_| None,
        },
    )
}

/// What `demo flood --host cstby` is asked.
#[derive(Debug, Clone)]
pub struct DemoSetup<'a> {
    /// Levels to play from level 1.
    pub levels: usize,
    /// Virtual screen size.
    pub screen: (u32, u32),
    /// Chromium's window size.
    pub window: (u32, u32),
    /// Save each level's first and last board here.
    pub screenshots: Option<&'a std::path::Path>,
    /// The loop's options.
    pub common: &'a LoopArgs,
}

/// Parses the demo's sizes and checks that the window fits the screen.
pub fn sizes(screen: &str, window: Option<&str>) -> anyhow::Result<((u32, u32), (u32, u32))> {
    let screen = parse_size(screen)?;
    let window = window.map_or(Ok((800, 800)), parse_size)?;
    if window.0 > screen.0 || window.1 > screen.1 {
        bail!(
            "the window {}x{} does not fit on the {}x{} screen (--screen)",
            window.0,
            window.1,
            screen.0,
            screen.1
        );
    }
    Ok((screen, window))
}

/// `demo flood --host cstby`: the levels in a row from level 1.
pub fn run_demo(setup_args: &DemoSetup<'_>) -> anyhow::Result<ExitCode> {
    let dir = cstby_dir()?;
    if !(1..=LEVELS).contains(&setup_args.levels) {
        bail!("--levels is 1 to {LEVELS}");
    }
    let (game, config) = setup(setup_args.common)?;
    let display = start_display(setup_args.screen)?;
    let mut options = BrowserOptions::served(display.name(), &dir, PAGE, None);
    (options.width, options.height) = setup_args.window;
    let browser =
        Browser::open(options).context("cannot show Carl Steib's Flood-It page in Chromium")?;
    println!(
        "demo: {FOLDER}/{PAGE} in Chromium on virtual display {} (window {}x{})",
        display.name(),
        setup_args.window.0,
        setup_args.window.1
    );
    let mut screen = WindowGrabber::open_window(display.name(), browser.window().id)?;
    let started = Instant::now();
    let mut records: Vec<GameRecord> = Vec::new();
    let outcome = (|| -> anyhow::Result<()> {
        for level in 1..=setup_args.levels {
            let status = check_page(&game, &mut screen, Some(level))?;
            let context = GameContext {
                id: Some(format!("level {level}")),
                limit: Some(status.limit),
                game_solver_moves: None,
            };
            let finished = play_one(
                &game,
                &CstbyHost,
                &mut screen,
                config.clone(),
                level,
                &context,
            )?
            .map_err(anyhow::Error::from)?;
            let r = &finished.record;
            println!("{}", level_line(level, &status, r));
            println!("      {}", game_line(r));
            if let Some(dir) = setup_args.screenshots {
                save_screenshots(dir, &finished, setup_args.common.replace())?;
            }
            let won = r.result == GameResult::Won;
            records.push(finished.record);
            if !won {
                break;
            }
            if level < setup_args.levels {
                next_level(&game, &mut screen, level)?;
            }
        }
        Ok(())
    })();
    finish_run(
        &records,
        setup_args.common.report.as_deref(),
        setup_args.common.replace(),
    )?;
    print_run_time(started, records.len(), "levels");
    drop(browser);
    outcome?;
    let all_won = records.len() == setup_args.levels
        && records
            .iter()
            .all(|r| r.result == GameResult::Won && r.moves <= r.limit.unwrap_or(0));
    Ok(if all_won {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// One line per level: size, limit, moves, optimality as the solver says.
fn level_line(level: usize, status: &PageStatus, r: &GameRecord) -> String {
    let optimal = if r.proven_optimal {
        "optimal (proven)"
    } else {
        "not proven optimal"
    };
    let page = r.status_moves.map_or("unread".into(), |m| m.to_string());
    format!(
        "level {level}/{}: {}x{}, limit {}: {} in {} moves, {optimal}; the page counts {page}",
        status.levels,
        r.width,
        r.height,
        status.limit,
        if r.result == GameResult::Won {
            "won"
        } else {
            "LOST"
        },
        r.bot_moves,
    )
}

/// Checks, before any click, that the window shows the game: a board the
/// reader takes and the status line `Move: 0/limit  Level: k/8` (`level`
/// when given). Returns the status.
fn check_page(
    game: &CstbyFlood,
    screen: &mut WindowGrabber,
    level: Option<usize>,
) -> anyhow::Result<PageStatus> {
    use crate::play::Reading;
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut last = String::new();
    while Instant::now() < deadline {
        game.begin_game();
        let shot = screen.capture()?;
        match game.read(&shot) {
            Ok(r) if level.is_none_or(|l| r.status.level == l) => return Ok(r.status),
            Ok(r) => last = format!("the page shows level {}", r.status.level),
            Err(e) => last = e.0,
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    bail!(
        "this is not Carl Steib's Flood-It page at {} (or it is covered or too small to \
         read): {last}; nothing was clicked",
        level.map_or("its level".into(), |l| format!("level {l}"))
    )
}

/// Clicks the message over the won board of `level` and waits until the
/// next level's board is up (the status line says level + 1, no move).
fn next_level(game: &CstbyFlood, screen: &mut WindowGrabber, level: usize) -> anyhow::Result<()> {
    // The message comes up over the won board a moment after the last
    // move (later still on a loaded machine): look for it a while.
    let deadline = Instant::now() + Duration::from_secs(8);
    let (shot, read, (x, y)) = loop {
        let shot = screen.capture()?;
        let read = game
            .read_board(&shot.image)
            .map_err(|e| anyhow::anyhow!("the won board of level {level} is not readable: {e}"))?;
        if let Some(point) = message_point(&shot.image, &read) {
            break (shot, read, point);
        }
        if Instant::now() > deadline {
            bail!("no message over the won board of level {level}");
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let mut pointer = open_pointer()?;
    pointer.perform(&Gesture::Click(shot.to_screen(f64::from(x), f64::from(y))))?;
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(300));
        let shot = screen.capture()?;
        let outer = read.frame.outer;
        if let Ok(s) = read_status_line(&shot.image, outer) {
            if s.level == level + 1 && s.moves == 0 {
                // Let the cells finish their colour change.
                std::thread::sleep(Duration::from_millis(1200));
                return Ok(());
            }
        }
    }
    bail!(
        "level {} did not start after the message of level {level} was clicked",
        level + 1
    )
}
