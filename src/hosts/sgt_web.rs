//! The official web build of the sgt puzzles (`NAME.html#GAME-ID`) in
//! Chromium, as the play loop's host: the status bar is the `statusbar`
//! element under the canvas (found by [`super::browser_status`], read with
//! OCR, interpreted as the desktop line is), and a new game is the `n` key,
//! which the page's front end passes to the game as the desktop does.
//!
//! [`sgt_web_dir`] finds the web build: `$GRIDBOT_GAMES/sgt-web`, else
//! `../shared/games/sgt-web` beside the working folder or the source tree.

use std::path::PathBuf;

use crate::actuator::{Gesture, KeyName};
use crate::capture::ocr;
use crate::capture::screen::Screenshot;
use crate::play::{Rect, StatusReading};

use super::browser_status::status_bar_below;
use super::status::parse_status;
use super::Host;

/// Where the third-party web games are: `$GRIDBOT_GAMES`, else
/// `../shared/games` from the working folder, else from the source tree.
pub fn games_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("GRIDBOT_GAMES") {
        return Some(PathBuf::from(dir));
    }
    [
        PathBuf::from("../shared/games"),
        PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/games")),
    ]
    .into_iter()
    .find(|d| d.is_dir())
}

/// The sgt web build is not where it was looked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the sgt-puzzles web build was not found: set GRIDBOT_GAMES to the folder that \
     holds sgt-web/ (the project's ../shared/games)"
)]
pub struct SgtWebMissing;

/// The sgt web build's folder (holding `flood.html` and the others).
pub fn sgt_web_dir() -> Result<PathBuf, SgtWebMissing> {
    let dir = games_dir().map(|d| d.join("sgt-web"));
    match dir {
        Some(d) if d.join("flood.html").is_file() => Ok(d),
        _ => Err(SgtWebMissing),
    }
}

/// An sgt puzzle's web page in Chromium, as the loop's host.
#[derive(Debug, Clone)]
pub struct SgtWebHost {
    /// The page, e.g. `flood.html`.
    pub page: String,
}

impl Host for SgtWebHost {
    fn name(&self) -> &str {
        &self.page
    }

    fn status(&self, shot: &Screenshot, board: Rect) -> StatusReading {
        let Some(bar) = status_bar_below(&shot.image, board, board.height / 4 + 100) else {
            log::warn!("no status bar found under the board of {}", self.page);
            return StatusReading::unread();
        };
        match ocr::read_line(&shot.image, bar) {
            Ok(text) => parse_status(&text),
            Err(e) => {
                log::warn!("status line not read: {e}");
                StatusReading::unread()
            }
        }
    }

    fn new_game(&self) -> Option<Gesture<(f64, f64)>> {
        Some(Gesture::Key(KeyName::Char('n')))
    }
}
