//! Hosts: where a game runs. The play loop asks its host (the
//! [`Host`] trait, defined by the loop in [`crate::play`]) what the game's
//! status line says and how to ask for a new game; the game itself only
//! knows its board.
//!
//! - [`sgt`]: a program of Debian's `sgt-puzzles` on an X display, started
//!   with a game ID, a tile size and a palette; a new game is its `n` key;
//!   its status line is the strip under the board.
//! - [`browser`]: Chromium in app mode on an X display, showing a URL or a
//!   page of a folder served by [`serve`] on 127.0.0.1, with a throwaway
//!   profile; everything it started is torn down on drop.
//!   [`browser_status`] says where an sgt-puzzles web page's status bar is.

pub mod browser;
pub mod browser_status;
pub mod serve;
pub mod sgt;
pub mod sgt_web;
pub mod status;

use crate::actuator::Gesture;
use crate::capture::screen::Screenshot;
pub use crate::play::Host;
use crate::play::{Rect, StatusReading};

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
