//! `gridbot demo|validate rush --host wagnerluca`: the eight levels of
//! Luca Wagner's Rush Hour page (`rush-wagnerluca/` of the shared games)
//! played in Chromium by drags, level after level: the loop of
//! [`crate::play`] with the roles of [`crate::games::rush::play`] reading
//! Wagner's drawing and the host of [`crate::games::rush::wagner`].
//!
//! Per level: the board read off the page, gridbot's proven optimum (the
//! breadth-first search), the moves played, and the page's own pills read
//! off the screen (`Moves: n`, `Level: k`, `Optimal: m`); a page optimum
//! that differs from the proven one is flagged and fails the run, never
//! hidden. A level is reached with the page's own buttons: `Next ▶` under
//! the board before the first level played, `Next Level →` of the win
//! message after each win.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use image::RgbaImage;

use super::play::{optimum_of, setup, BrowserArgs};
use crate::actuator::{Gesture, Mouse};
use crate::capture::screen::Screenshot;
use crate::capture::window_grabber::WindowGrabber;
use crate::cli::play::{
    finish_run, game_line, play_one, print_run_time, problems_exit, save_recording,
    save_screenshots, start_display, window_on_screen, LoopArgs,
};
use crate::games::rush::play::{board_rect, Look, RushGame};
use crate::games::rush::wagner::{
    find_button, read_info, wagner_dir, Info, WagnerHost, LEVELS, PAGE,
};
use crate::games::rush::wagner_read::{self, next_level_button, Grid};
use crate::hosts::browser::{Browser, BrowserOptions};
use crate::play::engine::{GameContext, PlayError};
use crate::play::x11::open_pointer;
use crate::play::{GameRecord, GameResult, Rect, StatusResult};

/// How long a click on one of the page's buttons may take to show.
const BUTTON_TIMEOUT: Duration = Duration::from_secs(10);

/// Parses `A..B` or `N`: levels of the page, 1 to [`LEVELS`].
pub fn parse_levels(s: &str) -> Result<(usize, usize), String> {
    let number = |t: &str| -> Result<usize, String> {
        let n: usize = t
            .trim()
            .parse()
            .map_err(|_| format!("{t:?} is not a level number"))?;
        if (1..=LEVELS).contains(&n) {
            Ok(n)
        } else {
            Err(format!(
                "level {n} is not one of the page's levels 1 to {LEVELS}"
            ))
        }
    };
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (number(a)?, number(b)?),
        None => (number(s)?, number(s)?),
    };
    if a > b {
        return Err(format!("levels {a}..{b}: the first is after the last"));
    }
    Ok((a, b))
}

/// The page's window and the tools to read and click it.
struct Page {
    screen: WindowGrabber,
    pointer: Mouse,
}

impl Page {
    /// A steady reading of the board with its grid, within `timeout`.
    fn board(&mut self, timeout: Duration) -> anyhow::Result<(Screenshot, Grid, Rect)> {
        let deadline = Instant::now() + timeout;
        loop {
            let shot = self.screen.capture()?;
            match wagner_read::read_with_grid(&shot.image) {
                Ok((r, grid)) => {
                    let rect = board_rect(&r);
                    return Ok((shot, grid, rect));
                }
                Err(e) if Instant::now() > deadline => {
                    bail!("no board read on Wagner's page: {e}")
                }
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }

    /// The pills above the board, read until they say level `level`.
    fn wait_for_level(&mut self, level: usize) -> anyhow::Result<Info> {
        let deadline = Instant::now() + BUTTON_TIMEOUT;
        loop {
            let (shot, _, rect) = self.board(BUTTON_TIMEOUT)?;
            let seen = read_info(&shot.image, rect);
            if let Ok((_, info)) = &seen {
                if info.level == Some(level) && info.moves == Some(0) {
                    return Ok(*info);
                }
            }
            if Instant::now() > deadline {
                bail!("the page did not show level {level} at move 0 (read: {seen:?})");
            }
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    /// Clicks the middle of `area` of `shot`, then moves the pointer to
    /// the window's left margin: a button under the pointer is drawn
    /// raised with a light border, which the readers would take for text.
    fn click(&mut self, shot: &Screenshot, area: Rect) -> anyhow::Result<()> {
        let (x, y) = shot.to_screen(
            f64::from(area.x) + f64::from(area.width) / 2.0,
            f64::from(area.y) + f64::from(area.height) / 2.0,
        );
        self.pointer.perform(&Gesture::Click((x, y)))?;
        let (mx, my) = shot.to_screen(4.0, f64::from(shot.image.height()) / 2.0);
        self.pointer.move_to(mx, my)?;
        Ok(())
    }

    /// From the level shown to `target` by the `Next ▶` button.
    fn go_to(&mut self, target: usize) -> anyhow::Result<Info> {
        let (shot, _, rect) = self.board(BUTTON_TIMEOUT)?;
        let (text, info) = read_info(&shot.image, rect).map_err(anyhow::Error::msg)?;
        let Some(mut level) = info.level else {
            bail!("the page's level was not read (read {text:?})");
        };
        if level > target {
            bail!("the page shows level {level}, after level {target}: reload the page");
        }
        while level < target {
            let (shot, _, rect) = self.board(BUTTON_TIMEOUT)?;
            let button = find_button(&shot.image, rect, "NEXT").map_err(anyhow::Error::msg)?;
            self.click(&shot, button)?;
            level += 1;
            self.wait_for_level(level)?;
        }
        self.wait_for_level(target)
    }

    /// After a win: the win message (shown once the red car has driven
    /// off, 0.8 s) and its `Next Level` button, or `None` when it does not
    /// come within the timeout.
    fn win_message(&mut self, grid: &Grid) -> anyhow::Result<Option<(Screenshot, Rect)>> {
        let deadline = Instant::now() + BUTTON_TIMEOUT;
        loop {
            let shot = self.screen.capture()?;
            if let Some(button) = next_level_button(&shot.image, grid.panel) {
                return Ok(Some((shot, button)));
            }
            if Instant::now() > deadline {
                return Ok(None);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// What one level's run found.
struct LevelCheck {
    line: String,
    problems: Vec<String>,
}

/// The line and problems of level `level` played as `record`, whose start
/// was `board`, the page saying `info` before the first move and `after`
/// once won.
fn check_level(level: usize, board: &str, info: Info, r: &GameRecord, after: Info) -> LevelCheck {
    let mut problems = Vec::new();
    let optimum = optimum_of(board);
    if r.result != GameResult::Won {
        problems.push(format!("level {level}: not won"));
    }
    match &optimum {
        Ok(o) if r.bot_moves != *o && r.mismatches == 0 => problems.push(format!(
            "level {level}: {} moves played without a mismatch, the proven optimum is {o}",
            r.bot_moves
        )),
        Err(why) => problems.push(format!("level {level}: no proven optimum: {why}")),
        _ => {}
    }
    match after.moves {
        Some(m) if m != r.bot_moves => problems.push(format!(
            "level {level}: the page counted {m} moves, the bot played {}",
            r.bot_moves
        )),
        None => problems.push(format!(
            "level {level}: the page's move counter was not read"
        )),
        _ => {}
    }
    let mut flag = String::new();
    match (&optimum, info.optimal) {
        (Ok(o), Some(p)) if p != *o => {
            flag = format!("  FLAG: the page says optimal {p}, gridbot proved {o}");
            problems.push(format!(
                "level {level}: the page's Optimal says {p}, the breadth-first search proved {o}"
            ));
        }
        (_, None) => problems.push(format!("level {level}: the page's Optimal was not read")),
        _ => {}
    }
    let line = format!(
        "level {level}: {board}  optimal {} , played {} , page moves {} optimal {}{flag}",
        optimum
            .as_ref()
            .map_or("unknown".into(), |o| format!("{o} (proven)")),
        r.bot_moves,
        after.moves.map_or("unread".into(), |m| m.to_string()),
        info.optimal.map_or("unread".into(), |m| m.to_string()),
    );
    LevelCheck { line, problems }
}

/// Opens the page in Chromium on a new virtual display and plays levels
/// `first..=last` in a row; prints a line per level and the summary,
/// writes the report; fails on any problem.
pub fn run_levels(
    verb: &str,
    (first, last): (usize, usize),
    browser_args: &BrowserArgs,
    common: &LoopArgs,
) -> anyhow::Result<ExitCode> {
    let dir = wagner_dir()?;
    let (config, _) = setup(common)?;
    let (window, screen_size) = window_on_screen(&browser_args.window_size, &browser_args.screen)?;
    let display = start_display(screen_size)?;
    let mut options = BrowserOptions::served(display.name(), &dir, PAGE, None);
    (options.width, options.height) = window;
    // The EXIT label pulses for ever: the picture is never steady, so the
    // page counts as drawn once its board reads.
    options.settle = Duration::ZERO;
    let mut browser =
        Browser::open(options).context("cannot show Luca Wagner's Rush Hour page in Chromium")?;
    browser
        .wait_until(Duration::from_secs(20), |image: &RgbaImage| {
            wagner_read::read(image).is_ok()
        })
        .context("Wagner's Rush Hour page did not show a readable board")?;
    println!(
        "{verb}: {PAGE} of rush-wagnerluca in Chromium on virtual display {} (window {}x{}), levels {first}..{last}",
        display.name(),
        window.0,
        window.1
    );
    let mut page = Page {
        screen: WindowGrabber::open_window(display.name(), browser.window().id)?,
        pointer: open_pointer()?,
    };
    let game = RushGame::of(Some(Look::WagnerLuca));
    let started = Instant::now();
    let mut records = Vec::new();
    let mut problems = Vec::new();
    let outcome = (|| -> anyhow::Result<()> {
        let mut info = page.go_to(first)?;
        for level in first..=last {
            let (_, grid, _) = page.board(BUTTON_TIMEOUT)?;
            let context = GameContext {
                id: Some(format!("level {level}")),
                limit: None,
                game_solver_moves: info.optimal,
            };
            let mut finished = match play_one(
                &game,
                &WagnerHost,
                &mut page.screen,
                config.clone(),
                level,
                &context,
            )? {
                Ok(f) => f,
                Err(PlayError::Solve(why)) => {
                    problems.push(format!("level {level}: the solver failed: {why}"));
                    break;
                }
                Err(e) => return Err(e.into()),
            };
            let board = finished.start.text().to_string();
            let after = finished
                .record
                .status_text
                .as_deref()
                .map(crate::games::rush::wagner::parse_info)
                .unwrap_or_default();
            let checked = check_level(level, &board, info, &finished.record, after);
            finished.record.board_matches_id = Some(after.level.is_none_or(|l| l == level));
            println!("{}", checked.line);
            println!("      {}", game_line(&finished.record));
            problems.extend(checked.problems);
            if let Some(dir) = &browser_args.screenshots {
                save_screenshots(dir, &finished, common.replace())?;
            }
            let total = last + 1 - first;
            save_recording(common.record.as_deref(), total, &finished, common.replace())?;
            let won = finished.record.result == GameResult::Won;
            let message = if won { page.win_message(&grid)? } else { None };
            if won && message.is_none() {
                problems.push(format!(
                    "level {level}: won, but the page showed no win message"
                ));
            }
            if message.is_some() {
                finished.record.status = StatusResult::Completed;
            }
            records.push(finished.record);
            match message {
                Some((shot, button)) if level < last => {
                    page.click(&shot, button)?;
                    info = page.wait_for_level(level + 1)?;
                }
                _ if level < last => break,
                _ => {}
            }
        }
        Ok(())
    })();
    finish_run(&records, common.report.as_deref(), common.replace())?;
    print_run_time(started, records.len(), "levels");
    drop(browser);
    outcome?;
    Ok(problems_exit(
        verb,
        &problems,
        records.len() == last + 1 - first,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_within_the_pages_eight() {
        assert_eq!(parse_levels("1..8"), Ok((1, 8)));
        assert_eq!(parse_levels("3"), Ok((3, 3)));
        assert!(parse_levels("0..2").unwrap_err().contains("1 to 8"));
        assert!(parse_levels("2..9").unwrap_err().contains("level 9"));
        assert!(parse_levels("5..2").unwrap_err().contains("after"));
        assert!(parse_levels("x").unwrap_err().contains("\"x\""));
    }
}
