//! Where a game runs, as the play loop needs it: the [`Host`] trait. The
//! hosts themselves (an sgt program, a page in Chromium) implement it in
//! [`crate::hosts`].

use crate::actuator::Gesture;
use crate::capture::screen::Screenshot;

use super::{Rect, StatusReading};

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
