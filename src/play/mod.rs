//! The game-independent play loop: capture, read, solve, click, wait for the
//! screen to settle, verify, recover.
//!
//! A game plugs in through [`PlayableGame`] (how a screenshot becomes a
//! state, how a state is solved, what a move does and where to click for
//! it); the screen and the mouse come in through the small [`io::Screen`]
//! and [`io::Pointer`] traits so that the loop logic (settle, verify, retry,
//! abort) is unit-tested with fakes and runs unchanged against X.
//!
//! The loop solves once per game and reuses the plan: when the board read
//! after a move equals the board the solver predicted, the rest of the plan
//! is still the plan it was (and still optimal if it was proven so), so a
//! move costs a capture, a read, a comparison and a click. It re-solves only
//! when what it sees differs from what it expected.

pub mod abort;
pub mod engine;
pub mod io;
pub mod occlusion;
pub mod ocr;
pub mod report;
pub mod settle;
pub mod x11;

#[cfg(test)]
mod fake;

use std::fmt;
use std::time::Duration;

use crate::capture::screen::Screenshot;

pub use abort::{AbortGuard, AbortReason};
pub use engine::{PlayConfig, PlayError, Player};
pub use report::{GameRecord, GameResult, StatusResult, Summary};

/// An axis-aligned rectangle in image pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// Left column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

impl Rect {
    /// The rectangle clipped to an image of `width` x `height` pixels.
    pub fn clip(self, width: u32, height: u32) -> Rect {
        let x = self.x.min(width);
        let y = self.y.min(height);
        Rect {
            x,
            y,
            width: self.width.min(width - x),
            height: self.height.min(height - y),
        }
    }
}

/// What the game's own status display says, read off the screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusReading {
    /// What the game says about the outcome.
    pub result: StatusResult,
    /// The text as read (for reports), if any was read.
    pub text: Option<String>,
    /// Moves made so far as the game counts them, if read.
    pub moves: Option<usize>,
    /// The game's move limit, if read.
    pub limit: Option<usize>,
}

impl StatusReading {
    /// Nothing could be read.
    pub fn unread() -> Self {
        StatusReading {
            result: StatusResult::Unread,
            text: None,
            moves: None,
            limit: None,
        }
    }
}

/// A plan from the solver for the current state.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan<M> {
    /// Moves to play in order; empty when the state is already won.
    pub moves: Vec<M>,
    /// True when no shorter solution exists.
    pub proven_optimal: bool,
    /// Best lower bound on the number of moves the solver proved.
    pub lower_bound: usize,
    /// Time the solver took.
    pub elapsed: Duration,
}

/// Why a screenshot could not be read as a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadFailure(pub String);

impl fmt::Display for ReadFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A game the loop can play: everything game-specific lives behind this.
pub trait PlayableGame {
    /// The logical board.
    type State: Clone + PartialEq + fmt::Debug;
    /// One move.
    type Move: Copy + PartialEq + fmt::Debug;
    /// A board read off a screenshot: the state and where it is on the image.
    type Reading;

    /// Short name for messages, e.g. `"Flood-It"`.
    fn name(&self) -> &str;
    /// Called when a new game starts (forget what was learnt about the last).
    fn begin_game(&self) {}
    /// Finds and reads the board on a screenshot.
    fn read(&self, shot: &Screenshot) -> Result<Self::Reading, ReadFailure>;
    /// The state a reading shows.
    fn state<'a>(&self, reading: &'a Self::Reading) -> &'a Self::State;
    /// The board's bounding box in image pixels (what settling compares).
    fn board_area(&self, reading: &Self::Reading) -> Rect;
    /// Solves `state` within `budget`.
    fn plan(&self, state: &Self::State, budget: Duration) -> Result<Plan<Self::Move>, String>;
    /// The state after playing `mv` on `state`.
    fn predict(&self, state: &Self::State, mv: Self::Move) -> Self::State;
    /// Image point to click to play `mv` when the screen shows `reading`
    /// and the board is `state` (normally the reading's own state).
    fn click_point(
        &self,
        reading: &Self::Reading,
        state: &Self::State,
        mv: Self::Move,
    ) -> Option<(f64, f64)>;
    /// True when the state is a win.
    fn is_won(&self, state: &Self::State) -> bool;
    /// Human name of a move, e.g. `"yellow"`.
    fn describe_move(&self, mv: Self::Move) -> String;
    /// Width and height of the board, in cells.
    fn dimensions(&self, state: &Self::State) -> (usize, usize);
    /// Compact text of a state for logs and reports.
    fn describe_state(&self, state: &Self::State) -> String;
    /// What differs between the expected and the seen state, for logs.
    fn diff(&self, expected: &Self::State, seen: &Self::State) -> String;
    /// Reads the game's own status (win/loss text) off the screen.
    fn status(&self, _shot: &Screenshot, _reading: &Self::Reading) -> StatusReading {
        StatusReading::unread()
    }
    /// Key that starts a new game, if any.
    fn new_game_key(&self) -> Option<char> {
        None
    }
}
