//! The game-independent play loop: capture, read, solve, click, wait for the
//! screen to settle, verify, recover.
//!
//! A game plugs in through the role traits of [`game`] (rules, solving,
//! reading, acting, text: together [`PlayableGame`]); where it runs (its
//! status line, how a new game starts) through a [`Host`];
//! the screen and the mouse through the small [`io::Screen`] and
//! [`io::Pointer`] traits so that the loop logic (settle, verify, retry,
//! abort) is unit-tested with fakes and runs unchanged against X.
//!
//! The loop solves once per game and reuses the plan: when the board read
//! after a move equals the board the solver predicted, the rest of the plan
//! is still the plan it was (and still optimal if it was proven so), so a
//! move costs a capture, a read, a comparison and a click. It re-solves only
//! when what it sees differs from what it expected.

pub mod abort;
pub mod engine;
pub mod game;
pub mod host;
pub mod io;
pub mod occlusion;
pub mod plan;
pub mod record;
pub mod report;
pub mod settle;
pub mod x11;

#[cfg(test)]
mod fake;

use std::fmt;

pub use crate::capture::screen::Rect;
pub use abort::{AbortGuard, AbortReason};
pub use engine::{PlayConfig, PlayError, Player};
pub use game::{Acting, PlayableGame, Reading, Rules, Solving, Text};
pub use host::Host;
pub use plan::{Plan, PlanError, Unproven};
pub use report::{GameRecord, GameResult, StatusResult, Summary};

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

/// Why a screenshot could not be read as a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadFailure(pub String);

impl fmt::Display for ReadFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
