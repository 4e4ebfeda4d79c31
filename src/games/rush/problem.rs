//! Rush Hour as a [`solver::Problem`](crate::solver::Problem): the generic
//! engines of the search core run on it (and the tests compare the
//! specialised searches of [`super::search`] with them).

use super::board::{Board, Move, Position};
use crate::solver::{Keyed, Problem};

/// A board seen as a search problem; states are packed positions.
#[derive(Debug, Clone, Copy)]
pub struct RushProblem<'a> {
    /// The board.
    pub board: &'a Board,
}

impl Problem for RushProblem<'_> {
    type State = Position;
    type Move = Move;

    fn moves(&self, state: &Position, out: &mut Vec<Move>) {
        self.board.for_each_move(*state, |m, _| out.push(m));
    }

    fn apply(&self, state: &Position, mv: Move) -> Position {
        self.board.apply(*state, mv)
    }

    fn is_goal(&self, state: &Position) -> bool {
        self.board.is_solved(*state)
    }

    fn lower_bound(&self, state: &Position) -> u32 {
        self.board.admissible_bound(*state)
    }

    /// Two moves of the same piece in a row are never in a shortest
    /// solution: they make one move, or none.
    fn prune_after(&self, prev: Move, mv: Move) -> bool {
        prev.piece == mv.piece
    }
}

impl Keyed for RushProblem<'_> {
    type Key = u64;

    fn key(&self, state: &Position) -> u64 {
        state.0
    }
}
