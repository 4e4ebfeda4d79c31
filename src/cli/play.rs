//! The play loop's commands, for any game: the options every `play`,
//! `demo`, `validate` and `bench play` shares ([`LoopArgs`]), the loop's
//! configuration from a calibration, a series of games on one window
//! ([`play_series`]), the dry run, a line per game, the report, and the
//! virtual display a demo starts. [`super::sgt_game`] builds the commands
//! of the sgt-hosted games on these; Rush Hour's own commands
//! (`src/games/rush/cli/play.rs`) add how its pages are opened and checked.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

use crate::actuator::Gesture;
use crate::calibration::Calibration;
use crate::capture::window_grabber::WindowGrabber;
use crate::display::{x11, VirtualDisplay};
use crate::files::Replace;
use crate::hosts::Host;
use crate::play::engine::{Finished, GameContext, PlayConfig, Player};
use crate::play::io::{DeviceError, Pointer};
use crate::play::record;
use crate::play::report::{self, GameRecord, Summary};
use crate::play::settle::SettleTiming;
use crate::play::x11::open_pointer;
use crate::play::{abort, AbortGuard, GameResult, PlayableGame};

/// Options shared by `play`, `demo`, `validate` and `bench play`.
#[derive(Debug, Clone, clap::Args)]
pub struct LoopArgs {
    /// Calibration file (palette in the game's colour order, timings, keys);
    /// default: the game's built-in calibration.
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
    /// Solver time budget per solve in ms (default: the calibration's
    /// solve_budget_ms); past it the best line found is played and reported
    /// as unproven. 0 to 600000.
    #[arg(long, value_name = "MS", value_parser = crate::cli::args::parse_millis)]
    pub solve_budget_ms: Option<u64>,
    /// Mismatches in a row tolerated before giving up (0 to 1000).
    #[arg(long, default_value_t = 3, value_parser = crate::cli::args::parse_number::<usize, 0, 1000>)]
    pub max_retries: usize,
    /// Wait this long after each verified move (to watch, or to let a test
    /// interfere); the board is found and read again after the pause.
    /// 0 to 600000.
    #[arg(long, value_name = "MS", default_value_t = 0, value_parser = crate::cli::args::parse_millis)]
    pub pause_between_moves: u64,
    /// Do not read the status line with tesseract (reported as unread).
    #[arg(long)]
    pub no_status: bool,
    /// Write a report of every game: FILE.json or FILE.csv.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Write an animated GIF of each game: the board as found, then one
    /// frame per move (the last is the final board). With several games,
    /// one file each, the game number before the extension (run-1.gif, ...).
    #[arg(long, value_name = "FILE.gif")]
    pub record: Option<PathBuf>,
    /// Replace existing files: the report, the animations and the
    /// screenshots (without it an existing file is an error, found before
    /// anything is played).
    #[arg(long)]
    pub force: bool,
}

impl LoopArgs {
    /// Whether existing output files may be replaced (`--force`).
    pub fn replace(&self) -> Replace {
        Replace::from_force(self.force)
    }
}

/// Which window `play` captures.
#[derive(Debug, Clone, clap::Args)]
pub struct WindowArgs {
    /// Title (substring) of the game window; default: the calibration's
    /// window_title.
    #[arg(long, value_name = "TITLE", conflicts_with = "full_screen")]
    pub window: Option<String>,
    /// Capture the whole screen instead of one window.
    #[arg(long)]
    pub full_screen: bool,
}

impl WindowArgs {
    /// The title to look for (`--window`, else `default`); none with
    /// `--full-screen`.
    pub fn title(&self, default: &str) -> Option<String> {
        if self.full_screen {
            None
        } else {
            Some(self.window.clone().unwrap_or_else(|| default.to_string()))
        }
    }
}

/// Loads the calibration file, or the game's built-in one (`builtin`, the
/// TOML text, named `builtin_name` in messages).
pub fn load_calibration(
    path: Option<&Path>,
    builtin: &str,
    builtin_name: &str,
) -> anyhow::Result<Calibration> {
    match path {
        Some(p) => Ok(Calibration::load(p)?),
        None => Ok(Calibration::parse(builtin, Path::new(builtin_name))?),
    }
}

/// The loop configuration from a calibration and the command line; also
/// checks the report file name before anything is played.
pub fn config_from(calibration: &Calibration, args: &LoopArgs) -> anyhow::Result<PlayConfig> {
    if let Some(path) = &args.report {
        report::check_report_path(path)?;
        crate::files::check_output(path, args.replace())?;
    }
    if let Some(path) = &args.record {
        record::check_record_path(path)?;
        crate::files::check_output(path, args.replace())?;
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
        keep_frames: args.record.is_some(),
        ..PlayConfig::default()
    })
}

/// One line for a finished game.
pub fn game_line(r: &GameRecord) -> String {
    let result = match r.result {
        GameResult::Won => format!("won in {} moves", r.moves),
        GameResult::Lost => format!("LOST after {} moves", r.moves),
    };
    let limit = r.limit.map_or(String::new(), |l| format!(" (limit {l})"));
    let limit = if r.moves_disagree {
        format!(
            "{limit} (the game's count; the bot counted {})",
            r.bot_moves
        )
    } else {
        limit
    };
    let status = r.status_text.as_deref().map_or_else(
        || "status unread".to_string(),
        |t| format!("status \"{t}\""),
    );
    format!(
        "game {}: {}x{} {result}{limit}, optimal_{}={}, {status}; bot {:.1} ms/move ({:.1} without solving, solve {:.0} ms), {:.2} s wall",
        r.game,
        r.width,
        r.height,
        r.metric,
        if r.proven_optimal { "proven" } else { "unproven" },
        r.bot_ms_per_move,
        r.bot_ms_per_move_excl_solve,
        r.solve_ms,
        r.wall_ms / 1000.0
    )
}

/// Saves a finished game's first and last screenshots into `dir`.
pub fn save_screenshots<S>(
    dir: &Path,
    finished: &Finished<S>,
    replace: Replace,
) -> anyhow::Result<()> {
    crate::files::ensure_dir(dir)?;
    let n = finished.record.game;
    for (name, shot) in [
        ("before", &finished.first_shot),
        ("after", &finished.last_shot),
    ] {
        let path = dir.join(format!("game-{n:03}-{name}.png"));
        crate::files::write_png(&path, &shot.image, replace)?;
    }
    Ok(())
}

/// Writes a finished game's animation when `--record` was given (`games`
/// games in the run: with more than one, the game number goes into the
/// file name).
pub fn save_recording<S>(
    path: Option<&Path>,
    games: usize,
    finished: &Finished<S>,
    replace: Replace,
) -> anyhow::Result<()> {
    if let Some(path) = path {
        let file =
            record::record_game(path, finished.record.game, games, &finished.frames, replace)?;
        eprintln!(
            "game {}: {} frames written to {}",
            finished.record.game,
            finished.frames.len(),
            file.display()
        );
    }
    Ok(())
}

/// Prints how long a run of `count` games (`noun`: puzzles, levels)
/// took since `started`.
pub fn print_run_time(started: std::time::Instant, count: usize, noun: &str) {
    println!(
        "run time: {:.1} s for {count} {noun}",
        started.elapsed().as_secs_f64()
    );
}

/// The exit of a run that checks each game: every problem printed on
/// standard error after `verb`, success only with none and with every
/// game played (`complete`).
pub fn problems_exit(verb: &str, problems: &[String], complete: bool) -> ExitCode {
    for p in problems {
        eprintln!("{verb}: {p}");
    }
    if problems.is_empty() && complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Writes the report file if asked and prints the summary.
pub fn finish_run(
    records: &[GameRecord],
    report_path: Option<&Path>,
    replace: Replace,
) -> anyhow::Result<()> {
    if let Some(path) = report_path {
        report::write_report(path, records, replace)?;
        eprintln!("report written to {}", path.display());
    }
    if !records.is_empty() {
        print!("{}", Summary::of(records).to_text());
    }
    Ok(())
}

/// Reads and solves the board on `screen` and prints the gestures the bot
/// would make, without touching the mouse.
pub fn print_dry_run<G: PlayableGame>(
    game: &G,
    host: &dyn Host,
    screen: &mut WindowGrabber,
    config: PlayConfig,
) -> anyhow::Result<ExitCode> {
    let mut pointer = DryPointer(screen.screen_size());
    let mut player = player_on(game, host, screen, &mut pointer, config)?;
    let dry = player.dry_run()?;
    println!("board: {}", dry.board);
    println!(
        "plan: {} moves, optimal_{}={} (lower bound {}), solved in {:.1} ms",
        dry.clicks.len(),
        dry.metric,
        if dry.proven_optimal {
            "proven"
        } else {
            "unproven"
        },
        dry.lower_bound,
        dry.solve.as_secs_f64() * 1000.0
    );
    for (i, click) in dry.clicks.iter().enumerate() {
        println!("{:>3}. {}", i + 1, click.describe());
    }
    Ok(ExitCode::SUCCESS)
}

/// What a series of games on one window writes besides a line per game.
pub struct SeriesOutput<'a> {
    /// Games to play.
    pub games: usize,
    /// Folder for before/after screenshots.
    pub screenshots: Option<&'a Path>,
    /// `--record`: an animation per game.
    pub record: Option<&'a Path>,
    /// `--report`: the report file.
    pub report: Option<&'a Path>,
    /// Whether existing files may be replaced (`--force`).
    pub replace: Replace,
    /// A second line for a finished game, after the common one.
    pub extra_line: &'a dyn Fn(&GameRecord) -> Option<String>,
}

/// The loop on `screen` (a fresh abort guard, and the occlusion check when
/// `screen` is one window, pinned now, before the first move).
pub fn player_on<'a, G: PlayableGame>(
    game: &'a G,
    host: &'a dyn Host,
    screen: &'a mut WindowGrabber,
    pointer: &'a mut dyn Pointer,
    config: PlayConfig,
) -> anyhow::Result<Player<'a, G>> {
    let guard = AbortGuard::new(abort::interrupt_flag(), screen.screen_size());
    let stacking = stacking_for(screen)?;
    let mut player = Player::new(game, host, screen, pointer, guard, config);
    if let Some(check) = stacking {
        player = player.with_occlusion(check);
    }
    Ok(player)
}

/// Plays `out.games` games in a row on `screen` (the host's new game after
/// each win), prints a line per game (and the extra line), saves
/// before/after screenshots and an animation per game when asked, writes
/// the report, and stops after a loss. Succeeds when every game was won.
pub fn play_series<G: PlayableGame>(
    game: &G,
    host: &dyn Host,
    screen: &mut WindowGrabber,
    config: PlayConfig,
    out: &SeriesOutput,
) -> anyhow::Result<ExitCode> {
    if out.games == 0 {
        bail!("--games must be at least 1");
    }
    let mut records = Vec::new();
    let outcome = with_player(game, host, screen, config, |player| -> anyhow::Result<()> {
        for number in 1..=out.games {
            if number > 1 {
                player.new_game()?;
            }
            let finished = player.play_game(number, &GameContext::default())?;
            println!("{}", game_line(&finished.record));
            if let Some(extra) = (out.extra_line)(&finished.record) {
                println!("      {extra}");
            }
            if let Some(dir) = out.screenshots {
                save_screenshots(dir, &finished, out.replace)?;
            }
            save_recording(out.record, out.games, &finished, out.replace)?;
            let lost = finished.record.result == GameResult::Lost;
            records.push(finished.record);
            if lost {
                break;
            }
        }
        Ok(())
    })?;
    finish_run(&records, out.report, out.replace)?;
    outcome?;
    Ok(exit_code(&records, out.games))
}

/// Plays one game (number `number`, with what the caller knows of it in
/// `context`) on `screen` from the board shown there to a win or a loss:
/// a fresh pointer, the abort guard and the occlusion check, as
/// [`play_series`] sets them up, for commands that start each game
/// themselves (a new page per puzzle). The outer error is the setup's; the
/// inner one the game's (e.g. a solver that gave up), for the caller to
/// count as a problem of that game.
pub fn play_one<G: PlayableGame>(
    game: &G,
    host: &dyn Host,
    screen: &mut WindowGrabber,
    config: PlayConfig,
    number: usize,
    context: &GameContext,
) -> anyhow::Result<Result<Finished<G::State>, crate::play::PlayError>> {
    with_player(game, host, screen, config, |player| {
        player.play_game(number, context)
    })
}

/// Runs `body` with a player on `screen` set up as every play command
/// does: a fresh pointer, the abort guard and the occlusion check.
fn with_player<G: PlayableGame, T>(
    game: &G,
    host: &dyn Host,
    screen: &mut WindowGrabber,
    config: PlayConfig,
    body: impl FnOnce(&mut Player<'_, G>) -> T,
) -> anyhow::Result<T> {
    let mut pointer = open_pointer()?;
    let mut player = player_on(game, host, screen, &mut pointer, config)?;
    player.note_pointer()?;
    Ok(body(&mut player))
}

/// Success when `games` games were played and all won.
pub fn exit_code(records: &[GameRecord], games: usize) -> ExitCode {
    let all_won = records.len() == games && records.iter().all(|r| r.result == GameResult::Won);
    if all_won {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Parses `WxH`.
pub fn parse_size(text: &str) -> anyhow::Result<(u32, u32)> {
    Ok(super::args::parse_screen_size(text)?)
}

/// Parses a browser's window size and the virtual screen's (`WxH` each)
/// and checks that the window fits on the screen.
pub fn window_on_screen(window: &str, screen: &str) -> anyhow::Result<((u32, u32), (u32, u32))> {
    let (window, screen) = (parse_size(window)?, parse_size(screen)?);
    if window.0 > screen.0 || window.1 > screen.1 {
        anyhow::bail!(
            "the window {}x{} does not fit on the {}x{} screen (--screen)",
            window.0,
            window.1,
            screen.0,
            screen.1
        );
    }
    Ok((window, screen))
}

/// Starts a virtual display and points this process's `DISPLAY` at it.
/// Must run before any X connection of this process.
pub fn start_display(size: (u32, u32)) -> anyhow::Result<VirtualDisplay> {
    let display = VirtualDisplay::start(size.0, size.1)
        .context("cannot start the virtual display (is Xvfb installed? ./dev deps)")?;
    std::env::set_var("DISPLAY", display.name());
    for var in ["WAYLAND_DISPLAY", "XDG_SESSION_TYPE"] {
        std::env::remove_var(var);
    }
    Ok(display)
}

/// Waits until no window titled `title` is left (the previous game's).
pub fn wait_until_gone(display: &VirtualDisplay, title: &str) -> anyhow::Result<()> {
    let (conn, screen) = x11::connect(Some(display.name()))?;
    let deadline = Instant::now() + Duration::from_secs(10);
    while x11::find_window(&conn, screen, title)?.is_some() {
        if Instant::now() > deadline {
            bail!("the previous game's window ({title:?}) did not close");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(())
}

/// Pins this process to the first CPU it may run on (for `bench play`);
/// returns that CPU.
pub fn pin_to_one_core() -> anyhow::Result<usize> {
    // SAFETY: cpu_set_t is plain data; the calls only read and write it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            bail!(
                "sched_getaffinity failed: {}",
                std::io::Error::last_os_error()
            );
        }
        let cpu = (0..libc::CPU_SETSIZE as usize)
            .find(|&c| libc::CPU_ISSET(c, &set))
            .context("no CPU allowed")?;
        let mut one: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut one);
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &one) != 0 {
            bail!(
                "sched_setaffinity failed: {}",
                std::io::Error::last_os_error()
            );
        }
        Ok(cpu)
    }
}

/// The occlusion check for a window capture (none for the whole screen):
/// the game window is pinned by id now, before the first move.
pub fn stacking_for(
    screen: &WindowGrabber,
) -> anyhow::Result<Option<crate::play::occlusion::OcclusionCheck<'static>>> {
    let Some(title) = screen.title() else {
        return Ok(None);
    };
    let stacking = crate::display::stacking::XStacking::open(title)
        .with_context(|| format!("cannot find the game window {title:?}"))?;
    Ok(Some(crate::play::occlusion::OcclusionCheck::new(stacking)))
}

/// The pointer of a dry run: reports a fixed position and refuses to act.
struct DryPointer((u32, u32));

impl Pointer for DryPointer {
    fn position(&mut self) -> Result<(i32, i32), DeviceError> {
        Ok((self.0 .0 as i32 / 2, self.0 .1 as i32 / 2))
    }
    fn perform(&mut self, gesture: &Gesture<(i32, i32)>) -> Result<(), DeviceError> {
        Err(DeviceError(format!(
            "a dry run does not {}",
            gesture.kind()
        )))
    }
    fn release_all(&mut self) {}
    fn screen_size(&self) -> (u32, u32) {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1280x800").unwrap(), (1280, 800));
        assert!(parse_size("1280").is_err());
        assert!(parse_size("0x0").is_err());
        assert!(parse_size("999999x800").is_err());
    }
}
