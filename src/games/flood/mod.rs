//! Flood-It: a grid of k colours; the region connected to the start cell
//! takes the chosen colour and absorbs neighbouring cells of that colour.

pub mod board;
pub mod play;
pub mod parse;
pub mod regions;
pub mod heuristic;
pub mod greedy;
pub mod astar;
pub mod bnb;
pub mod solve;
pub mod screen;

pub use board::Board;
pub use parse::{parse_board, ParseError, ParsedBoard};
pub use solve::{solve, Solution, SolveError, SolveOptions, StopReason, Strategy};
