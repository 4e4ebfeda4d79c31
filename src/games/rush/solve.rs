//! One entry point for the strategies of [`super::search`], chosen by
//! [`Strategy`].

use super::board::{Board, Move, Position};
use super::search;
use crate::solver::{Budget, Outcome};

/// A search strategy and what it guarantees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    /// Exact breadth-first search: the fewest moves, then the fewest steps.
    #[default]
    Bfs,
    /// A* with the admissible blocker count: the fewest moves.
    Astar,
    /// Greedy best-first with the blocking-cars score: fast, not shortest.
    Greedy,
}

/// Solves `start` on `board` with `strategy` within `budget`.
pub fn solve(board: &Board, start: Position, strategy: Strategy, budget: &Budget) -> Outcome<Move> {
    match strategy {
        Strategy::Bfs => search::bfs(board, start, budget),
        Strategy::Astar => search::astar(board, start, budget),
        Strategy::Greedy => search::greedy(board, start, budget),
    }
}
