//! One module per game: its rules, its heuristics, how it is read off the
//! screen and how a move becomes a click.

pub mod fling;
pub mod flood;
pub mod gemji;
