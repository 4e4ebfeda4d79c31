//! The shape of a search problem, shared by every engine in [`crate::solver`].
//!
//! A game's solver implements [`Problem`] for a small context struct that
//! holds the static facts of one board (its size, its walls, its tables);
//! the engines are generic over it and monomorphised, so nothing dynamic
//! sits in their inner loops. Every move costs one.
//!
//! - [`Problem`]: states, moves, the state after a move, the goal test and
//!   an admissible lower bound (0 when none is known).
//! - [`Keyed`]: an exact key for duplicate detection. Engines that prune by
//!   "seen before" compare keys with `Eq`, never hashes alone, so a hash
//!   collision can never prune a real solution.

use std::fmt;
use std::hash::Hash;

/// A single-agent search problem with unit-cost moves.
pub trait Problem {
    /// A position. Engines clone it freely: keep it small (a packed word or
    /// a few bitsets) and put the static facts in `self`.
    type State: Clone;
    /// One move.
    type Move: Copy + PartialEq + fmt::Debug;

    /// Appends the moves of `state` worth searching to `out` (which
    /// engines clear first), best first where the problem knows a good
    /// order. A problem may leave out legal moves that never help (a move
    /// that changes nothing, one dominated by another).
    fn moves(&self, state: &Self::State, out: &mut Vec<Self::Move>);

    /// True when `mv` may be played on `state` ([`replay`] and [`wins`]
    /// check solutions with it). Default: `mv` is one of
    /// [`Problem::moves`]; a problem whose `moves` leaves legal moves out
    /// says so here.
    fn is_legal(&self, state: &Self::State, mv: Self::Move) -> bool {
        let mut legal = Vec::new();
        self.moves(state, &mut legal);
        legal.contains(&mv)
    }

    /// The state after playing `mv` on `state` (a legal move).
    fn apply(&self, state: &Self::State, mv: Self::Move) -> Self::State;

    /// True when `state` is solved.
    fn is_goal(&self, state: &Self::State) -> bool;

    /// A lower bound on the moves from `state` to the nearest goal. It must
    /// be admissible (never above the true distance) for the exact engines
    /// to prove anything; 0 is always admissible.
    fn lower_bound(&self, _state: &Self::State) -> u32 {
        0
    }

    /// [`Problem::lower_bound`], allowed to stop counting at `cap`: it may
    /// return any value `>= cap` once the bound reaches `cap` (the engines
    /// prune the state then). Problems whose bound is costly and can stop
    /// early (Flood-It's layered bound) override it; the default is the
    /// full bound.
    fn capped_bound(&self, state: &Self::State, _cap: u32) -> u32 {
        self.lower_bound(state)
    }

    /// A proven shortest completion from `state`, when the problem can tell
    /// one directly (e.g. Flood-It with one colour left); A* and branch and
    /// bound then do not expand the state. Default: none.
    fn exact_completion(&self, _state: &Self::State) -> Option<Vec<Self::Move>> {
        None
    }

    /// True when `mv` right after `prev` can never be part of a shortest
    /// solution (it undoes `prev`, or the pair commutes and this order is
    /// the one dropped). IDA* and depth-first engines skip such moves.
    fn prune_after(&self, _prev: Self::Move, _mv: Self::Move) -> bool {
        false
    }
}

/// A problem whose states have an exact key for duplicate detection.
pub trait Keyed: Problem {
    /// Equal keys mean equal positions (for this problem's purposes).
    type Key: Hash + Eq + Clone;

    /// The key of `state`.
    fn key(&self, state: &Self::State) -> Self::Key;
}

/// Replays `moves` from `start`; `Some(end state)` when every move was
/// legal, `None` at the first illegal one.
pub fn replay<P: Problem>(problem: &P, start: &P::State, moves: &[P::Move]) -> Option<P::State> {
    let mut state = start.clone();
    for &mv in moves {
        if !problem.is_legal(&state, mv) {
            return None;
        }
        state = problem.apply(&state, mv);
    }
    Some(state)
}

/// True when `moves` are legal from `start` and end in a goal.
pub fn wins<P: Problem>(problem: &P, start: &P::State, moves: &[P::Move]) -> bool {
    replay(problem, start, moves).is_some_and(|s| problem.is_goal(&s))
}
