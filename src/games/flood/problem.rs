//! Flood-It as a [`crate::solver::Problem`]: the state every engine of the
//! search core sees, so all of Flood's strategies run on those engines
//! (A* in [`super::astar`], branch and bound in [`super::bnb`], greedy,
//! beam and the leaf optimiser in [`super::greedy`]).
//!
//! - State: the flooded set `f` (a bitset over regions) and its border
//!   `b`, kept incrementally so a move costs a few word operations. The
//!   colours left outside `f` are counted from `f` where needed rather than
//!   stored: it keeps an A* node at 56 bytes on 14x14 boards, which
//!   measured faster than carrying them. A* works them out once per
//!   expansion ([`Flood::left_here`]) and updates them per child.
//! - Moves searched: the colours on the border (every move gains), or only
//!   the one colour whose every region lies on the border when there is
//!   one (colour elimination: taking all of a colour is always optimal).
//!   Every colour is legal ([`Problem::is_legal`]): one that touches no
//!   border region changes nothing.
//! - Greedy score ([`Scored`]): the layered bound; ties go to the state
//!   with the most regions flooded.
//! - Bound: Puchert's layered bound, which can stop counting at a cap.
//! - Key: the flooded set (the border follows from it).

use super::greedy::candidate_moves;
use super::heuristic::{layered_bound, layered_bound_capped};
use super::regions::BitGraph;
use crate::solver::{Bits, Budget, Keyed, Problem, Scored};
use std::cell::Cell;

/// A position: flooded set and its border.
#[derive(Debug, Clone, Copy)]
pub struct State<const N: usize> {
    /// The flooded regions.
    pub f: Bits<N>,
    /// The regions next to the flooded set.
    pub b: Bits<N>,
}

/// One board as a search problem; `budget` is the search's own, for the
/// inexact searches a strategy runs inside it (beam incumbents).
pub struct Flood<'a, const N: usize> {
    /// The board's regions.
    pub g: &'a BitGraph<N>,
    /// The budget of the search this problem is solved in.
    pub budget: &'a Budget,
    /// The colours left outside the flooded set of the node A* expanded
    /// last (set by its successor function, read by its child hooks).
    pub(super) left_here: Cell<u32>,
    /// The colours `c` whose play in that expansion took the last regions
    /// of `c` (set by the child completion hook, read by the child bound
    /// hook, so the subset test runs once a child).
    pub(super) completed_here: Cell<u32>,
}

impl<'a, const N: usize> Flood<'a, N> {
    /// The problem of the board `g`, solved within `budget`.
    pub fn new(g: &'a BitGraph<N>, budget: &'a Budget) -> Self {
        Flood {
            g,
            budget,
            left_here: Cell::new(0),
            completed_here: Cell::new(0),
        }
    }

    /// The colours left after playing `c` from a state with `left_here`
    /// left, reaching the flooded set `nf`: only the colour played can
    /// become complete.
    #[inline]
    pub(super) fn left_after(&self, left_here: u32, c: u8, nf: &Bits<N>) -> u32 {
        if self.g.by_colour[c as usize].is_subset(nf) {
            left_here & !(1 << c)
        } else {
            left_here
        }
    }

    /// The start position.
    pub fn start(&self) -> State<N> {
        let (f, b) = self.g.start_state();
        State { f, b }
    }
}

impl<const N: usize> Problem for Flood<'_, N> {
    type State = State<N>;
    type Move = u8;

    fn moves(&self, s: &State<N>, out: &mut Vec<u8>) {
        let mut m = candidate_moves(self.g, &s.f, &s.b);
        while m != 0 {
            out.push(m.trailing_zeros() as u8);
            m &= m - 1;
        }
    }

    fn is_legal(&self, _s: &State<N>, c: u8) -> bool {
        // Any colour may be clicked (one on no border region changes
        // nothing); `moves` lists only the ones worth searching.
        (c as usize) < self.g.colours
    }

    fn apply(&self, s: &State<N>, c: u8) -> State<N> {
        let (f, b) = self.g.play(&s.f, &s.b, c);
        State { f, b }
    }

    fn is_goal(&self, s: &State<N>) -> bool {
        self.g.all.is_subset(&s.f)
    }

    fn lower_bound(&self, s: &State<N>) -> u32 {
        layered_bound(self.g, &s.f, &s.b, self.g.colours_left(&s.f)) as u32
    }

    fn capped_bound(&self, s: &State<N>, cap: u32) -> u32 {
        let left = self.g.colours_left(&s.f);
        layered_bound_capped(self.g, &s.f, &s.b, left, cap as usize) as u32
    }

    fn exact_completion(&self, s: &State<N>) -> Option<Vec<u8>> {
        // One colour left: playing it finishes (it is on the border).
        let left = self.g.colours_left(&s.f);
        (left.count_ones() == 1).then(|| vec![left.trailing_zeros() as u8])
    }
}

impl<const N: usize> Scored for Flood<'_, N> {
    fn score(&self, s: &State<N>) -> i64 {
        i64::from(self.lower_bound(s))
    }

    /// More regions flooded first.
    fn tie_break(&self, s: &State<N>) -> i64 {
        -(s.f.count() as i64)
    }
}

impl<const N: usize> Keyed for Flood<'_, N> {
    type Key = Bits<N>;
    fn key(&self, s: &State<N>) -> Bits<N> {
        s.f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::flood::regions::RegionGraph;
    use crate::games::flood::Board;
    use crate::solver::bfs::bfs;

    #[test]
    fn states_stay_small() {
        // Two 3-word bitsets (a 14x14 board): with the A* engine's 8 bytes
        // of bookkeeping, a node is 56 bytes.
        assert_eq!(std::mem::size_of::<State<3>>(), 48);
    }

    #[test]
    fn breadth_first_search_on_the_problem_finds_the_known_optimum() {
        // 3x3, three colours: 0 1 2 / 1 2 0 / 2 0 1 needs 4 moves? Check
        // against the cell-level count instead of a constant: every move of
        // a shortest solution must flood something, and the solution wins.
        let board = Board::new(3, 3, 3, vec![0, 1, 2, 1, 2, 0, 2, 0, 1]);
        let graph = RegionGraph::new(&board);
        let g = BitGraph::<1>::new(&graph);
        let budget = Budget::unlimited();
        let p = Flood::new(&g, &budget);
        let o = bfs(&p, &p.start(), &budget);
        let moves = o.moves.expect("solvable");
        assert!(o.proven_optimal);
        assert!(board.wins_with(&moves));
        assert!(p.lower_bound(&p.start()) <= moves.len() as u32);
    }
}
