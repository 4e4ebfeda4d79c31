//! `gridbot play|demo|fixtures klotski`: GNOME Klotski played by drags with
//! the loop of [`crate::play`], the roles of [`super::play`].
//!
//! - `play klotski`: a gnome-klotski window already open on the current
//!   display (its title names the puzzle; `--puzzle NAME` when it is not
//!   found by itself), played to the win.
//! - `demo klotski`: a virtual display with gnome-klotski on `--puzzle`
//!   (default Only 18 Steps), played to the win.
//! - `validate klotski`: `--puzzles` (default the four whose minima the
//!   old game printed) each started in gnome-klotski and played; the
//!   game's counter read at the win is compared with the proven minimum
//!   and with the puzzles file's.
//! - `fixtures klotski`: the screenshots of `fixtures/klotski/` read as the
//!   boards their truth files give (`id` the puzzle's name).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use image::RgbaImage;

use super::parse::{parse_puzzles, Puzzle};
use super::play::{find_puzzle, game_puzzles, launch, KlotskiGame, KlotskiHost};
use super::read::read;
use crate::cli::fixtures::{FixtureGame, Reader, Reading, Truth};
use crate::cli::play::{
    config_from, finish_run, game_line, load_calibration, parse_size, play_one, play_series,
    print_dry_run, start_display, wait_until_gone, LoopArgs, SeriesOutput,
};
use crate::display::{x11, DisplayChild, VirtualDisplay};
use crate::play::engine::GameContext;
use crate::play::x11::open_screen;
use crate::play::{GameRecord, GameResult, PlayConfig};

/// The built-in calibration (timings).
pub const DEFAULT_CALIBRATION: &str = include_str!("../../../calibration/klotski.toml");

/// `gridbot play klotski`.
#[derive(Debug, Clone, clap::Args)]
pub struct PlayArgs {
    /// The puzzle the window shows (its title); default: the first window
    /// titled with one of the game's puzzles.
    #[arg(long)]
    pub puzzle: Option<String>,
    /// Print the drags of the plan instead of playing.
    #[arg(long)]
    pub dry_run: bool,
    /// The options every play command takes.
    #[command(flatten)]
    pub common: LoopArgs,
}

/// `gridbot demo klotski`.
#[derive(Debug, Clone, clap::Args)]
pub struct DemoArgs {
    /// The puzzle, by its name in the game (e.g. "Red Donkey").
    #[arg(long, default_value = "Only 18 Steps")]
    pub puzzle: String,
    /// The game window's size.
    #[arg(long, default_value = "600x520", value_name = "WxH", value_parser = crate::cli::args::valid_screen_size)]
    pub window_size: String,
    /// The virtual screen's size.
    #[arg(long, default_value = "1024x768", value_name = "WxH", value_parser = crate::cli::args::valid_screen_size)]
    pub screen: String,
    /// Save before/after screenshots here.
    #[arg(long, value_name = "DIR")]
    pub screenshots: Option<PathBuf>,
    /// The options every play command takes.
    #[command(flatten)]
    pub common: LoopArgs,
}

/// `gridbot validate klotski`.
#[derive(Debug, Clone, clap::Args)]
pub struct ValidateArgs {
    /// The puzzles, by name, separated by commas.
    #[arg(long, value_name = "NAMES", default_value = "Only 18 Steps,Daisy,Violet,Poppy",
          value_parser = parse_puzzle_names)]
    pub puzzles: String,
    /// The game window's size.
    #[arg(long, default_value = "600x520", value_name = "WxH", value_parser = crate::cli::args::valid_screen_size)]
    pub window_size: String,
    /// The virtual screen's size.
    #[arg(long, default_value = "1024x768", value_name = "WxH", value_parser = crate::cli::args::valid_screen_size)]
    pub screen: String,
    /// The options every play command takes.
    #[command(flatten)]
    pub common: LoopArgs,
}

/// gnome-klotski started on `display` on puzzle number `level` (titled
/// `name`), with its throwaway settings folder (kept while it runs).
fn start_game(
    display: &VirtualDisplay,
    level: usize,
    name: &str,
    window: (u32, u32),
) -> anyhow::Result<(tempfile::TempDir, DisplayChild)> {
    let home = tempfile::tempdir().context("cannot make a settings folder for gnome-klotski")?;
    let mut command =
        launch(level, window, home.path()).context("cannot write gnome-klotski's settings")?;
    let child = display
        .spawn(&mut command)
        .context("cannot start gnome-klotski (./dev deps installs it)")?;
    display
        .wait_for_window(name, Duration::from_secs(30))
        .context("gnome-klotski's window did not appear")?;
    Ok((home, child))
}

fn config(common: &LoopArgs) -> anyhow::Result<PlayConfig> {
    let c = load_calibration(
        common.calibration.as_deref(),
        DEFAULT_CALIBRATION,
        "built-in klotski.toml",
    )?;
    config_from(&c, common)
}

/// The counter line of a finished game.
fn extra_line(r: &GameRecord) -> Option<String> {
    Some(format!(
        "the game counted {} moves, the bot played {}{}",
        r.moves,
        r.bot_moves,
        if r.moves_disagree {
            " (they disagree)"
        } else {
            ""
        }
    ))
}

/// The puzzle a window on the current display shows, by its title.
fn puzzle_on_screen() -> anyhow::Result<String> {
    let (conn, screen) = x11::connect(None)?;
    let windows = x11::list_windows(&conn, screen)?;
    game_puzzles()
        .into_iter()
        .map(|p| p.name)
        .find(|n| windows.iter().any(|w| w.title == *n))
        .context("no gnome-klotski window titled with one of its puzzles: give --puzzle NAME")
}

/// Runs `gridbot play klotski`.
pub fn run_play(args: PlayArgs) -> anyhow::Result<ExitCode> {
    let name = match &args.puzzle {
        Some(n) => n.clone(),
        None => puzzle_on_screen()?,
    };
    let (_, puzzle) =
        find_puzzle(&name).with_context(|| format!("GNOME Klotski has no puzzle {name:?}"))?;
    let config = config(&args.common)?;
    let mut screen = open_screen(Some(&puzzle.name))?;
    let game = KlotskiGame::new(&puzzle);
    let host = KlotskiHost {
        puzzle: puzzle.name.clone(),
    };
    if args.dry_run {
        return print_dry_run(&game, &host, &mut screen, config);
    }
    play_series(
        &game,
        &host,
        &mut screen,
        config,
        &SeriesOutput {
            games: 1,
            screenshots: None,
            record: args.common.record.as_deref(),
            report: args.common.report.as_deref(),
            replace: args.common.replace(),
            extra_line: &extra_line,
        },
    )
}

/// Runs `gridbot demo klotski`.
pub fn run_demo(args: DemoArgs) -> anyhow::Result<ExitCode> {
    let (level, puzzle) = find_puzzle(&args.puzzle)
        .with_context(|| format!("GNOME Klotski has no puzzle {:?}", args.puzzle))?;
    let config = config(&args.common)?;
    let window = parse_size(&args.window_size)?;
    let display = start_display(parse_size(&args.screen)?)?;
    let _game = start_game(&display, level, &puzzle.name, window)?;
    println!(
        "demo: gnome-klotski, puzzle {} ({}), on virtual display {} ({})",
        puzzle.name,
        puzzle.group.as_deref().unwrap_or("?"),
        display.name(),
        args.screen
    );
    let mut screen = open_screen(Some(&puzzle.name))?;
    let game = KlotskiGame::new(&puzzle);
    let host = KlotskiHost {
        puzzle: puzzle.name.clone(),
    };
    play_series(
        &game,
        &host,
        &mut screen,
        config,
        &SeriesOutput {
            games: 1,
            screenshots: args.screenshots.as_deref(),
            record: args.common.record.as_deref(),
            report: args.common.report.as_deref(),
            replace: args.common.replace(),
            extra_line: &extra_line,
        },
    )
}

/// `--puzzles`: names of the game's puzzles, separated by commas, each
/// checked when the command line is read.
fn parse_puzzle_names(text: &str) -> Result<String, String> {
    let names: Vec<&str> = text.split(',').filter(|n| !n.trim().is_empty()).collect();
    if names.is_empty() {
        return Err("names no puzzle".into());
    }
    match names.iter().find(|n| find_puzzle(n).is_none()) {
        Some(n) => Err(format!(
            "GNOME Klotski has no puzzle {:?} (docs/klotski.md lists its puzzles)",
            crate::files::shorten(n)
        )),
        None => Ok(text.to_string()),
    }
}

/// Runs `gridbot validate klotski`.
pub fn run_validate(args: ValidateArgs) -> anyhow::Result<ExitCode> {
    let chosen: Vec<(usize, Puzzle)> = args
        .puzzles
        .split(',')
        .filter(|n| !n.trim().is_empty())
        .map(|n| find_puzzle(n).with_context(|| format!("GNOME Klotski has no puzzle {n:?}")))
        .collect::<anyhow::Result<_>>()?;
    if chosen.is_empty() {
        anyhow::bail!("--puzzles names no puzzle");
    }
    let config = config(&args.common)?;
    let window = parse_size(&args.window_size)?;
    let display = start_display(parse_size(&args.screen)?)?;
    println!(
        "validate: {} puzzles of gnome-klotski on virtual display {} ({})",
        chosen.len(),
        display.name(),
        args.screen
    );
    let (mut records, mut problems) = (Vec::new(), Vec::new());
    for (i, (level, p)) in chosen.iter().enumerate() {
        let game_process = start_game(&display, *level, &p.name, window)?;
        let mut screen = open_screen(Some(&p.name))?;
        let context = GameContext {
            id: Some(p.name.clone()),
            limit: None,
            game_solver_moves: p.moves.map(|m| m as usize),
        };
        let game = KlotskiGame::new(p);
        let host = KlotskiHost {
            puzzle: p.name.clone(),
        };
        match play_one(&game, &host, &mut screen, config.clone(), i + 1, &context)? {
            Ok(f) => {
                let r = f.record;
                println!("{}", game_line(&r));
                let file = p.moves.map_or("-".into(), |m| m.to_string());
                println!(
                    "      {}: proven minimum {}, the puzzles file {file}, the game counted {}",
                    p.name, r.lower_bound, r.moves
                );
                if r.result != GameResult::Won || Some(r.moves as u32) != p.moves {
                    problems.push(format!(
                        "{}: {} in {} moves (the file says {file})",
                        p.name,
                        format!("{:?}", r.result).to_lowercase(),
                        r.moves
                    ));
                }
                records.push(r);
            }
            Err(e) => problems.push(format!("{}: {e}", p.name)),
        }
        drop(game_process);
        wait_until_gone(&display, &p.name)?;
    }
    finish_run(
        &records,
        args.common.report.as_deref(),
        args.common.replace(),
    )?;
    for problem in &problems {
        println!("problem: {problem}");
    }
    Ok(if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Runs `gridbot fixtures klotski`.
pub fn run_fixtures(args: crate::cli::fixtures::Args) -> anyhow::Result<ExitCode> {
    crate::cli::fixtures::run(&KlotskiFixtures, args)
}

/// The screenshot fixtures of GNOME Klotski: `id` is the puzzle's name,
/// `expected` the position as a one-line map (`|row|row|`).
pub struct KlotskiFixtures;

impl FixtureGame for KlotskiFixtures {
    fn name(&self) -> &'static str {
        "klotski"
    }

    fn readers<'a>(&'a self, truth: &'a Truth) -> Vec<(&'static str, Reader<'a>)> {
        let puzzle = truth.id.as_deref().and_then(find_puzzle);
        vec![(
            "reader",
            Box::new(move |image: &RgbaImage| {
                let (_, p) = puzzle
                    .clone()
                    .ok_or("the truth file's `id` is not a puzzle of the game")?;
                let r = read(image, &p.board).map_err(|e| e.to_string())?;
                let g = r.geometry;
                Ok(Reading {
                    board: p.board.to_text(&r.position),
                    detail: format!(
                        "tile {:.0} px, frame at {},{}",
                        g.tile, g.frame.x, g.frame.y
                    ),
                })
            }),
        )]
    }

    fn normalise(&self, board: &str, truth: &Truth) -> Result<String, String> {
        let (_, p) = truth
            .id
            .as_deref()
            .and_then(find_puzzle)
            .ok_or("the truth file's `id` is not a puzzle of the game")?;
        // The expected map's blocks, placed on the puzzle's floor.
        let read = parse_puzzles(board).map_err(|e| format!("bad map {board:?}: {e}"))?;
        let q = read.first().ok_or("an empty map")?;
        let specs = q.board.blocks_of(&q.start);
        let pos = p.board.position_of(&specs).map_err(|e| e.to_string())?;
        Ok(p.board.to_text(&pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::fixtures::assert_committed_fixtures_read_right;

    #[test]
    fn every_fixture_reads_right() {
        let n = assert_committed_fixtures_read_right(&KlotskiFixtures);
        assert!(n >= 3, "only {n} fixtures");
    }
}
