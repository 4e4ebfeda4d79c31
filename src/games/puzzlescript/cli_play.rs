//! `gridbot play|demo|validate puzzlescript`: a PuzzleScript game played
//! on the reference engine's own page in Chromium, key by key, with the
//! loop of [`crate::play`], the roles of [`super::play`] and the host of
//! [`super::page`] (the page has no status line: the bare host).
//!
//! - `play puzzlescript GAME.txt`: a page already showing the game (the
//!   window titled `gridbot: TITLE`, or `--window TITLE`); plays the level
//!   on screen and the ones after it (up to `--levels`' last).
//! - `demo puzzlescript [GAME.txt]`: a virtual display, Chromium showing
//!   the page (default: microban), the title screen started with X,
//!   message screens passed with X, level after level (microban: 1 to 6,
//!   [`DEFAULT_LEVELS`]).
//! - `validate puzzlescript GAME.txt --levels A..B`: as the demo, and per
//!   level of A..B the keys played, whether they are a proven shortest
//!   solution, and whether the page itself moved on (its sign of a win).
//!   The page has no level menu: the levels before A are played too
//!   (reported, not judged).
//!
//! Between levels the driver ([`run_levels`]) reads the screen itself: a
//! level goes to the loop, a text screen (the title, a message) gets the
//! action key, and a won level is watched until the page moves on.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

use super::compile::compile;
use super::page::{window_title, PageFolder, PAGE};
use super::play::{PsGame, PsState};
use super::read::is_text_screen;
use super::solve::solve;
use crate::actuator::{Gesture, KeyName};
use crate::capture::screen::Screenshot;
use crate::capture::window_grabber::WindowGrabber;
use crate::cli::args::parse_span;
use crate::cli::play::{
    config_from, finish_run, game_line, load_calibration, play_one, save_recording,
    save_screenshots, start_display, window_on_screen, LoopArgs, WindowArgs,
};
use crate::files::read_text;
use crate::games::rush::cli::play::BrowserArgs;
use crate::hosts::browser::{Browser, BrowserOptions};
use crate::hosts::sgt_web::games_dir;
use crate::hosts::Bare;
use crate::play::engine::{GameContext, PlayConfig};
use crate::play::io::Screen;
use crate::play::report::GameRecord;
use crate::play::x11::{open_pointer, open_screen};
use crate::play::GameResult;
use crate::solver::Budget;

/// The built-in calibration (timings only: the reader needs none).
pub const DEFAULT_CALIBRATION: &str = include_str!("../../../calibration/puzzlescript.toml");

/// The levels of microban the demo plays by default: level 7 is not
/// proven shortest by breadth-first search within 90 s.
pub const DEFAULT_LEVELS: (u32, u32) = (1, 6);

/// Largest game source read.
const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// `gridbot play puzzlescript`.
#[derive(Debug, Clone, clap::Args)]
pub struct PlayArgs {
    /// The game's source, the one the page shows.
    pub file: PathBuf,
    /// Levels to play, counted from 1 among the playable levels: `A..B`
    /// or `N`; the one on screen first, then the next ones up to B
    /// (default: to the last).
    #[arg(long, value_parser = parse_span::<1, 100_000>)]
    pub levels: Option<(u32, u32)>,
    #[command(flatten)]
    /// The window to play in (default title `gridbot: TITLE`).
    pub window: WindowArgs,
    /// Save the level before and after it is played into this folder.
    #[arg(long, value_name = "DIR")]
    pub screenshots: Option<PathBuf>,
    #[command(flatten)]
    /// The options every play command shares.
    pub common: LoopArgs,
}

/// `gridbot demo puzzlescript`.
#[derive(Debug, Clone, clap::Args)]
pub struct DemoArgs {
    /// The game's source; default: microban from the shared games.
    pub file: Option<PathBuf>,
    /// Levels to play: `A..B` or `N` (the levels before A are played
    /// too: the page has no level menu); default: every level (microban:
    /// 1..6, the levels breadth-first search proves within a minute).
    #[arg(long, value_parser = parse_span::<1, 100_000>)]
    pub levels: Option<(u32, u32)>,
    #[command(flatten)]
    /// Window and screen.
    pub browser: BrowserArgs,
    #[command(flatten)]
    /// The options every play command shares.
    pub common: LoopArgs,
}

/// `gridbot validate puzzlescript`.
#[derive(Debug, Clone, clap::Args)]
pub struct ValidateArgs {
    /// The game's source.
    pub file: PathBuf,
    /// Levels to judge: `A..B` or `N` (the levels before A are played
    /// too: the page has no level menu).
    #[arg(long, value_parser = parse_span::<1, 100_000>)]
    pub levels: (u32, u32),
    #[command(flatten)]
    /// Window and screen.
    pub browser: BrowserArgs,
    #[command(flatten)]
    /// The options every play command shares.
    pub common: LoopArgs,
}

/// A game read from its file.
struct Loaded {
    game: PsGame,
    source: String,
    title: String,
}

/// Reads, compiles and accepts `file` (a clear error when the source is
/// bad or the game cannot be played on the page).
fn load(file: &Path) -> anyhow::Result<Loaded> {
    let source = read_text(
        &file.to_string_lossy(),
        MAX_SOURCE_BYTES,
        "a PuzzleScript source",
    )?;
    let compiled = compile(&source).with_context(|| format!("{}", file.display()))?;
    let title = window_title(compiled.metadata.get("title").map(String::as_str), file);
    let name = title.trim_start_matches("gridbot: ").to_string();
    let game = PsGame::new(compiled, &name).with_context(|| format!("{}", file.display()))?;
    Ok(Loaded {
        game,
        source,
        title,
    })
}

/// The loop's configuration: the calibration's timings; a differing
/// picture must hold still 400 ms before it is believed (an `again`
/// chain redraws every 150 ms); a game with randomness re-plans after
/// every key, as often as it takes.
fn setup(common: &LoopArgs, game: &PsGame) -> anyhow::Result<PlayConfig> {
    let calibration = load_calibration(
        common.calibration.as_deref(),
        DEFAULT_CALIBRATION,
        "built-in puzzlescript.toml",
    )?;
    let mut config = config_from(&calibration, common)?;
    config.confirm_stable = Duration::from_millis(400);
    config.read_status = false;
    if game.is_random() {
        config.max_retries = config.max_retries.max(1000);
    }
    Ok(config)
}

/// `gridbot play puzzlescript`.
pub fn run_play(args: PlayArgs) -> anyhow::Result<ExitCode> {
    let loaded = load(&args.file)?;
    let config = setup(&args.common, &loaded.game)?;
    let title = args.window.title(&loaded.title);
    let mut screen = open_screen(title.as_deref())?;
    let range = args.levels.unwrap_or((1, u32::MAX));
    let out = Output {
        verb: "play",
        range,
        screenshots: args.screenshots.as_deref(),
        common: &args.common,
    };
    let levels = run_levels(&loaded.game, &mut screen, &config, &out)?;
    conclude(&loaded.game, &levels, &out)
}

/// `gridbot demo puzzlescript`.
pub fn run_demo(args: DemoArgs) -> anyhow::Result<ExitCode> {
    let (file, levels) = match &args.file {
        Some(f) => (f.clone(), args.levels),
        None => (default_game()?, args.levels.or(Some(DEFAULT_LEVELS))),
    };
    run_in_browser("demo", &file, levels, &args.browser, &args.common)
}

/// `gridbot validate puzzlescript`.
pub fn run_validate(args: ValidateArgs) -> anyhow::Result<ExitCode> {
    run_in_browser(
        "validate",
        &args.file,
        Some(args.levels),
        &args.browser,
        &args.common,
    )
}

/// Microban from the shared games.
fn default_game() -> anyhow::Result<PathBuf> {
    super::page::template_path()?;
    let file = games_dir()
        .map(|d| d.join("puzzlescript/games/microban.txt"))
        .filter(|f| f.is_file())
        .context(
            "microban.txt was not found in puzzlescript/games/ of the shared games: give a \
             game's source, or set GRIDBOT_GAMES to the project's ../shared/games",
        )?;
    Ok(file)
}

/// What a run prints and writes.
struct Output<'a> {
    verb: &'static str,
    range: (u32, u32),
    screenshots: Option<&'a Path>,
    common: &'a LoopArgs,
}

/// Starts a virtual display and Chromium showing the page of `file`,
/// plays the levels and reports.
fn run_in_browser(
    verb: &'static str,
    file: &Path,
    levels: Option<(u32, u32)>,
    browser_args: &BrowserArgs,
    common: &LoopArgs,
) -> anyhow::Result<ExitCode> {
    let loaded = load(file)?;
    let config = setup(common, &loaded.game)?;
    let folder = PageFolder::write(&loaded.source, &loaded.title)?;
    let (window, screen_size) = window_on_screen(&browser_args.window_size, &browser_args.screen)?;
    let display = start_display(screen_size)?;
    let mut options = BrowserOptions::served(display.name(), folder.path(), PAGE, None);
    options.width = window.0;
    options.height = window.1;
    let browser =
        Browser::open(options).context("cannot show the PuzzleScript page in Chromium")?;
    println!(
        "{verb}: {} ({}) in Chromium on virtual display {} (window {}x{})",
        file.display(),
        loaded.title,
        display.name(),
        window.0,
        window.1
    );
    let mut screen = WindowGrabber::open_window(display.name(), browser.window().id)?;
    let out = Output {
        verb,
        range: levels.unwrap_or((1, u32::MAX)),
        screenshots: browser_args.screenshots.as_deref(),
        common,
    };
    let started = Instant::now();
    let played = run_levels(&loaded.game, &mut screen, &config, &out);
    println!("run time: {:.1} s", started.elapsed().as_secs_f64());
    drop(browser);
    conclude(&loaded.game, &played?, &out)
}

/// One level played.
struct LevelPlayed {
    number: usize,
    record: GameRecord,
    start: PsState,
    page_moved_on: bool,
}

/// Plays from what the page shows: text screens get the action key,
/// each level of the range (and those before it) goes to the loop, until
/// the range's last level or the game's is won, or a level is lost.
fn run_levels(
    game: &PsGame,
    screen: &mut WindowGrabber,
    config: &PlayConfig,
    out: &Output,
) -> anyhow::Result<Vec<LevelPlayed>> {
    let last = game.level_number(game.game().levels.len() - 1);
    let end = (out.range.1 as usize).min(last);
    let mut pointer = open_pointer()?;
    let mut played: Vec<LevelPlayed> = Vec::new();
    let mut waiting_since = Instant::now();
    loop {
        let shot = still_picture(screen)?;
        game.forget();
        let reading = match game.read_image(&shot.image) {
            Ok(r) => r,
            Err(e) => {
                if is_text_screen(game.look(), &shot.image) {
                    log::info!("a text screen: pressing X");
                    pointer.perform(&Gesture::Key(KeyName::Char('x')))?;
                    // The page waits 0.3 s after the title, 0.15 s after
                    // a message.
                    std::thread::sleep(Duration::from_millis(350));
                    waiting_since = Instant::now();
                    continue;
                }
                if waiting_since.elapsed() > Duration::from_secs(20) {
                    bail!("{e}");
                }
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        let number = game.level_number(reading.state.level);
        if played.last().is_some_and(|p| p.number == number) {
            // Still the level just won: the page has not moved on yet.
            std::thread::sleep(Duration::from_millis(50));
            continue;
        }
        if number > end {
            break;
        }
        let context = GameContext {
            id: Some(format!("level {number}")),
            limit: None,
            game_solver_moves: None,
        };
        let finished = match play_one(game, &Bare, screen, config.clone(), number, &context)? {
            Ok(f) => f,
            Err(e) => {
                println!("level {number}: {e}");
                break;
            }
        };
        if let Some(dir) = out.screenshots {
            save_screenshots(dir, &finished, out.common.replace())?;
        }
        save_recording(
            out.common.record.as_deref(),
            end.saturating_sub(out.range.0 as usize) + 1,
            &finished,
            out.common.replace(),
        )?;
        let won = finished.record.result == GameResult::Won;
        let page_moved_on = won && page_moves_on(game, screen, number)?;
        played.push(LevelPlayed {
            number,
            record: finished.record,
            start: finished.start,
            page_moved_on,
        });
        print_level(game, played.last().expect("just pushed"));
        waiting_since = Instant::now();
        if !won || number >= end {
            break;
        }
    }
    Ok(played)
}

/// Captures until two pictures 60 ms apart are the same (an `again`
/// chain or a screen change is over).
fn still_picture(screen: &mut WindowGrabber) -> anyhow::Result<Screenshot> {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut last = Screen::capture(screen)?;
    loop {
        std::thread::sleep(Duration::from_millis(60));
        let now = Screen::capture(screen)?;
        if now.image == last.image || Instant::now() > deadline {
            return Ok(now);
        }
        last = now;
    }
}

/// True once the page leaves the won level `number` (it shows the next
/// level or a text screen 0.5 s after a win); false if it still shows it
/// after 3 s.
fn page_moves_on(game: &PsGame, screen: &mut WindowGrabber, number: usize) -> anyhow::Result<bool> {
    let deadline = Instant::now() + Duration::from_secs(3);
    while Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
        let shot = Screen::capture(screen)?;
        game.forget();
        match game.read_image(&shot.image) {
            Ok(r) if game.level_number(r.state.level) == number && !r.state.message => {}
            _ => return Ok(true),
        }
    }
    Ok(false)
}

/// The line of a level.
fn print_level(game: &PsGame, p: &LevelPlayed) {
    let r = &p.record;
    let keys: String = r
        .solution
        .iter()
        .map(|k| k.chars().next().unwrap_or('?'))
        .collect();
    println!(
        "level {}: {} keys {keys} ({}), {}, page {}, {} mismatches, {:.0} ms per key",
        p.number,
        r.bot_moves,
        if r.proven_optimal {
            "proven shortest"
        } else if game.is_random() {
            "random game: not called shortest"
        } else {
            "not proven shortest"
        },
        if r.result == GameResult::Won {
            "won"
        } else {
            "not won"
        },
        if p.page_moved_on {
            "moved on (won as the page shows)"
        } else {
            "did not move on"
        },
        r.mismatches,
        r.wall_ms / r.bot_moves.max(1) as f64,
    );
    println!("      {}", game_line(r));
}

/// Problems of the levels in the range, the report, and the exit code:
/// success when every level of the range that exists was played, won,
/// and seen won by the page, and (`validate`) a deterministic level
/// played without mismatches took as many keys as its proven shortest
/// solution.
fn conclude(game: &PsGame, played: &[LevelPlayed], out: &Output) -> anyhow::Result<ExitCode> {
    let records: Vec<GameRecord> = played.iter().map(|p| p.record.clone()).collect();
    finish_run(&records, out.common.report.as_deref(), out.common.replace())?;
    let last = game.level_number(game.game().levels.len() - 1);
    let (a, b) = (out.range.0 as usize, (out.range.1 as usize).min(last));
    let mut problems = Vec::new();
    if a > last {
        problems.push(format!("the game has {last} levels; there is no level {a}"));
    }
    let judged: Vec<&LevelPlayed> = played.iter().filter(|p| p.number >= a).collect();
    if out.verb != "play" && judged.iter().map(|p| p.number).max() < Some(b) && a <= last {
        problems.push(format!("levels {a}..{b} were not all played"));
    }
    if out.verb == "play" && played.is_empty() {
        problems.push("no level was played".into());
    }
    for p in &judged {
        let r = &p.record;
        if r.result != GameResult::Won {
            problems.push(format!("level {}: not won", p.number));
        } else if !p.page_moved_on {
            problems.push(format!("level {}: the page did not move on", p.number));
        }
        if out.verb == "validate" && !game.is_random() && r.mismatches == 0 {
            let o = solve(
                game.game(),
                p.number,
                &Budget::new(Some(Duration::from_secs(60)), 1 << 30),
            );
            match o
                .ok()
                .and_then(|o| o.proven_optimal.then(|| o.moves.map(|m| m.len())))
            {
                Some(Some(best)) if best == r.bot_moves => {}
                Some(Some(best)) => problems.push(format!(
                    "level {}: {} keys played, the proven shortest is {best}",
                    p.number, r.bot_moves
                )),
                _ => problems.push(format!("level {}: no proven shortest solution", p.number)),
            }
        }
        log::debug!("level {}: started as {:?}", p.number, p.start.level);
    }
    for p in &problems {
        eprintln!("{}: {p}", out.verb);
    }
    Ok(if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
