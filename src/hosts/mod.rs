//! Hosts: where a game runs. The play loop asks its host what the game's
//! status line says and how to ask for a new game; the game itself only
//! knows its board.
//!
//! - [`sgt`]: a program of Debian's `sgt-puzzles` on an X display, started
//!   with a game ID, a tile size and a palette; a new game is its `n` key;
//!   its status line is the strip under the board.
//! - [`browser`]: Chromium on the virtual display showing a page (a folder
//!   gridbot serves on 127.0.0.1, or a URL).

pub mod sgt;
pub mod status;

use crate::actuator::Gesture;
use crate::capture::screen::Screenshot;
use crate::play::{Rect, StatusReading};

/// Where a game runs, as the play loop needs it.
pub trait Host {
    /// Short name for messages, e.g. `sgt-flood`.
    fn name(&self) -> &str;
    /// What the game's status line says on `shot`, whose board is at
    /// `board` (image pixels).
    fn status(&self, shot: &Screenshot, board: Rect) -> StatusReading;
    /// The gesture that starts a new game, if the host has one.
    fn new_game(&self) -> Option<Gesture<(f64, f64)>>;
}

/// A host that knows nothing: no status line, no new game. For tests and
/// for games played in windows gridbot knows nothing about.
#[derive(Debug, Default, Clone, Copy)]
pub struct Bare;

impl Host for Bare {
    fn name(&self) -> &str {
        "window"
    }
    fn status(&self, _shot: &Screenshot, _board: Rect) -> StatusReading {
        StatusReading::unread()
    }
    fn new_game(&self) -> Option<Gesture<(f64, f64)>> {
        None
    }
}
