//! Flood-It: a grid of k colours; the region connected to the start cell
//! takes the chosen colour and absorbs neighbouring cells of that colour.

pub mod astar;
pub mod bnb;
pub mod board;
pub mod cli;
pub mod cstby;
pub mod greedy;
pub mod heuristic;
pub mod hosted;
pub mod page;
pub mod parse;
pub mod play;
pub mod problem;
pub mod regions;
pub mod screen;
pub mod solve;

pub use board::Board;
pub use parse::{parse_board, parse_board_set, ParseError, ParsedBoard, SetBoard, StartCell};
pub use solve::{solve, Solution, SolveError, SolveOptions, StopReason, Strategy};
