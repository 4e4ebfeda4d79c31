//! Klotski, the sliding-block puzzle of GNOME's games: blocks of any shape
//! on a floor with walls, one of them the target, which must end on the
//! goal area, crossing the exit that only it may cross. One move takes one
//! block any distance along any path (GNOME Klotski's count).
//!
//! - [`board`]: the rules and canonical positions (identical blocks are
//!   one);
//! - [`blockers`]: a consistent lower bound for the solver's A* walks;
//! - [`parse`]: gridbot's text format, the game's maps with a header;
//! - [`solve`]: the exact breadth-first solver on the core
//!   ([`crate::solver::bfs`]);
//! - [`bench`]: `bench klotski`, every puzzle of a file against its stated
//!   minimum;
//! - [`cli`]: `solve|analyse|bench klotski`;
//! - [`read`]: the board off GNOME Klotski's window, found by its frame;
//! - [`play`]: the play loop's roles and the gnome-klotski host;
//! - [`play_cli`]: `play|demo|fixtures klotski`.
//!
//! The game's 28 puzzles are in `fixtures/klotski/puzzles.txt`
//! (docs/klotski.md).

pub mod bench;
pub mod blockers;
pub mod board;
pub mod cli;
pub mod pack;
pub mod parse;
pub mod play;
pub mod play_cli;
pub mod read;
pub mod solve;

pub use board::{BlockSpec, Board, BoardError, Floor, Move, Position};
pub use parse::{parse_puzzles, ParseError, ParseErrorKind, Puzzle};
pub use solve::{solve, KlotskiProblem};
