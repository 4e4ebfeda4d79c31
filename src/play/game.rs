//! What the play loop needs of a game, split by role. A game implements
//! the five traits; [`PlayableGame`] is every type that has them all.
//!
//! - [`Rules`]: states, moves, what a move does, when the game is won.
//! - [`Solving`]: a plan for a state, with what the solver guarantees.
//! - [`Reading`]: a screenshot to a state, and where the board is on it.
//! - [`Acting`]: a move to a [`Gesture`] in the screenshot's pixels.
//! - [`Text`]: names of moves and states, and what differs between two.
//!
//! Where the game runs (how it is started, how a new game is asked for,
//! what its status line says) is a host's business, not the game's: see
//! [`crate::hosts`].

use std::fmt;
use std::time::Duration;

use crate::actuator::Gesture;
use crate::capture::screen::Screenshot;

use super::{Plan, PlanError, ReadFailure, Rect};

/// The game's logic as the loop sees it.
pub trait Rules {
    /// The logical board.
    type State: Clone + PartialEq + fmt::Debug;
    /// One move as the loop plays it (one gesture).
    type Move: Copy + PartialEq + fmt::Debug;

    /// The state after playing `mv` on `state`.
    fn predict(&self, state: &Self::State, mv: Self::Move) -> Self::State;
    /// True when the state is a win.
    fn is_won(&self, state: &Self::State) -> bool;
    /// Width and height of the board, in cells.
    fn dimensions(&self, state: &Self::State) -> (usize, usize);
    /// How many moves the game's own counter adds for `mv` on `state`
    /// (one click in Fifteen can slide several tiles); 1 by default.
    fn counted(&self, _state: &Self::State, _mv: Self::Move) -> usize {
        1
    }
}

/// Planning a line of play.
pub trait Solving: Rules {
    /// Solves `state` within `budget`; the plan says whether it is proven
    /// optimal.
    fn plan(&self, state: &Self::State, budget: Duration) -> Result<Plan<Self::Move>, PlanError>;
    /// What a plan's optimality and lower bound count, as reports name
    /// it (`optimal_moves=proven`): `moves` by default; Pegs proves the
    /// fewest `jumps`.
    fn metric(&self) -> &'static str {
        "moves"
    }
}

/// Reading the board off a screenshot.
pub trait Reading: Rules {
    /// A board read off a screenshot: the state and where it is on the image.
    type Reading;

    /// Called when a new game starts (forget what was learnt about the last).
    fn begin_game(&self) {}
    /// Finds and reads the board on a screenshot.
    fn read(&self, shot: &Screenshot) -> Result<Self::Reading, ReadFailure>;
    /// The state a reading shows.
    fn state<'a>(&self, reading: &'a Self::Reading) -> &'a Self::State;
    /// The board's bounding box in image pixels (what settling compares and
    /// what the host looks around for the status line).
    fn board_area(&self, reading: &Self::Reading) -> Rect;
}

/// Turning a move into input.
pub trait Acting: Reading {
    /// The gesture, in image pixels of the screenshot `reading` came from,
    /// that plays `mv` when the board is `state` (normally the reading's
    /// own state); `None` when the move cannot be played there.
    fn gesture(
        &self,
        reading: &Self::Reading,
        state: &Self::State,
        mv: Self::Move,
    ) -> Option<Gesture<(f64, f64)>>;
}

/// Words for logs and reports.
pub trait Text: Rules {
    /// Short name for messages, e.g. `"Flood-It"`.
    fn name(&self) -> &str;
    /// Human name of `mv` played on `state`, e.g. `"yellow"` (a move
    /// alone may not know its board: Pegs names cells by row and column).
    fn describe_move(&self, state: &Self::State, mv: Self::Move) -> String;
    /// Compact text of a state for logs and reports.
    fn describe_state(&self, state: &Self::State) -> String;
    /// What differs between the expected and the seen state, for logs.
    fn diff(&self, expected: &Self::State, seen: &Self::State) -> String;
}

/// The start of a [`Text::diff`] when the two boards are not of one size:
/// `the board is 5x4 instead of 4x4`; `None` when the sizes agree.
pub fn size_diff(expected: (usize, usize), seen: (usize, usize)) -> Option<String> {
    (expected != seen).then(|| {
        format!(
            "the board is {}x{} instead of {}x{}",
            seen.0, seen.1, expected.0, expected.1
        )
    })
}

/// A [`Text::diff`] of boards of one size from the cells that differ,
/// each already described: `3 cells differ: a, b, c`, at most four named
/// and `, ...` after them when there are more.
pub fn cells_diff(cells: &[String]) -> String {
    let shown = cells.len().min(4);
    format!(
        "{} cells differ: {}{}",
        cells.len(),
        cells[..shown].join(", "),
        if cells.len() > shown { ", ..." } else { "" }
    )
}

/// A game the loop can play: all five roles.
pub trait PlayableGame: Solving + Reading + Acting + Text {}

impl<T: Solving + Reading + Acting + Text> PlayableGame for T {}
