//! One module per game: its rules, its solvers, how it is read off the
//! screen, how a move becomes a gesture, and its command line. A game is
//! one folder here plus one line in [`registry::all`].

pub mod fifteen;
pub mod fling;
pub mod flood;
pub mod gemji;
pub mod klotski;
pub mod pegs;
pub mod puzzlescript;
pub mod registry;
pub mod rush;
