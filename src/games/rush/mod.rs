//! Rush Hour: on an N x N board (N from 4 to 8, usually 6) pieces of
//! length 2 and 3 slide along their own axis, around fixed walls; the
//! primary piece `A` must reach the exit on the right edge of its row. One
//! move slides one piece any number of cells (Fogleman's metric); a step
//! is one cell.
//!
//! Strategies and what they guarantee (see [`search`]):
//! - `bfs` (default): exact breadth-first search over packed positions;
//!   proves the fewest moves and, among those, the fewest steps, or proves
//!   the board unsolvable after exhausting its cluster.
//! - `astar`: A* with the admissible blocker count (1 + the pieces between
//!   `A` and the exit); proves the fewest moves, not the fewest steps.
//! - `greedy`: the seed's greedy best-first search with the blocking-cars
//!   score; fast, its solutions are not proven shortest.
//!
//! Playing: [`read`] reads Fogleman's web player off a screenshot, [`play`]
//! gives the play loop its roles (moves as drags, see [`act`]), [`web`]
//! is the player in Chromium as the loop's host (its move counter read
//! with OCR), and [`fixtures`] checks recorded screenshots.

pub mod act;
pub mod analyse;
pub mod bench;
pub mod bench_job;
pub mod board;
pub mod cli;
pub mod clusters;
pub mod dbmerge;
pub mod densewalk;
pub mod enumerate;
pub mod exact;
pub mod generate;
pub mod parse;
pub mod pieceset;
pub mod play;
pub mod problem;
pub mod read;
#[cfg(test)]
mod reference;
pub mod search;
pub mod setbfs;
pub mod setwalk;
pub mod solve;
pub mod table;
pub mod wagner;
pub mod wagner_read;
pub mod walkbench;
pub mod web;

pub use board::{Board, Move, Piece, Position};
pub use parse::{parse_board, parse_line, parse_puzzles, ParseError, ParseErrorKind, Puzzle};
pub use problem::RushProblem;
pub use solve::{solve, Strategy};
