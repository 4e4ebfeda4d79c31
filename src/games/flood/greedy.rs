//! Flood-It's fast, inexact strategies, run on the search core's engines
//! ([`crate::solver::greedy`]) with Flood-It as a [`Scored`] problem
//! ([`super::problem`]: the score is the layered bound, ties go to the
//! move that floods the most regions):
//!
//! - [`greedy`] / [`complete`]: greedy play with lookahead (smallest
//!   `moves + bound` within the lookahead; a state with one colour left
//!   is finished on the spot).
//! - [`beam`]: beam search guided by the layered bound (duplicates dropped
//!   within each layer: a flooded set only grows, so one met again in a
//!   later layer is rare).
//! - [`optimise`]: the leaf optimiser (drop each move while the rest still
//!   wins; else cut there and let greedy finish).
//!
//! Greedy guarantees only a winning sequence; it says `optimal=proven`
//! only when its length meets the layered lower bound. All are used by the
//! exact searches as a first incumbent and as a fallback when a budget ends.

use super::problem::{Flood, State};
use super::regions::BitGraph;
use crate::solver::greedy::{beam_scored, greedy_scored, Duplicates};
use crate::solver::{Bits, Budget};

/// The moves worth trying from `(f, b)`: the one colour an elimination
/// move finishes, if any, else every colour on the border (bitmask).
#[inline]
pub fn candidate_moves<const N: usize>(g: &BitGraph<N>, f: &Bits<N>, b: &Bits<N>) -> u32 {
    let on_border = g.colours_in(b);
    let fb = f.or(b);
    let mut m = on_border;
    while m != 0 {
        let c = m.trailing_zeros() as usize;
        m &= m - 1;
        if g.by_colour[c].is_subset(&fb) {
            return 1 << c;
        }
    }
    on_border
}

/// Plays greedily from `(f, b)` to the end: each step takes the move whose
/// `depth`-move lookahead reaches the smallest `moves + bound`, ties to the
/// move that floods the most regions.
pub fn complete<const N: usize>(g: &BitGraph<N>, f: Bits<N>, b: Bits<N>, depth: usize) -> Vec<u8> {
    let budget = Budget::unlimited();
    let problem = Flood::new(g, &budget);
    greedy_scored(&problem, &State { f, b }, depth as u32, &budget)
        .moves
        .expect("every Flood-It candidate move floods a region, so greedy always finishes")
}

/// Greedy from the start state.
pub fn greedy<const N: usize>(g: &BitGraph<N>, depth: usize) -> Vec<u8> {
    let (f, b) = g.start_state();
    complete(g, f, b, depth)
}

/// The lookahead the optimiser's re-completions use: 2, or 1 on boards of
/// more than 512 regions.
fn optimise_depth<const N: usize>(g: &BitGraph<N>) -> u32 {
    if g.colour.len() <= 512 {
        2
    } else {
        1
    }
}

/// The leaf optimiser: repeatedly tries to drop each move (re-completing
/// greedily after the cut when the rest does not win) and keeps any
/// shorter sequence that still wins, until no drop helps or time is up.
pub fn optimise<const N: usize>(g: &BitGraph<N>, moves: Vec<u8>, budget: &Budget) -> Vec<u8> {
    let problem = Flood::new(g, budget);
    crate::solver::greedy::optimise(&problem, &problem.start(), moves, optimise_depth(g), budget)
}

/// Beam search: keeps the `width` most promising distinct states of each
/// depth (smallest bound, then most regions flooded) and returns the first
/// solution found (`None` when the budget ends first). Not exact, but
/// usually within a move of the optimum; A* uses it to improve its
/// incumbent on hard boards.
pub fn beam<const N: usize>(g: &BitGraph<N>, width: usize, budget: &Budget) -> Option<Vec<u8>> {
    let problem = Flood::new(g, budget);
    beam_scored(
        &problem,
        &problem.start(),
        width,
        Duplicates::WithinLayer,
        budget,
    )
    .moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::flood::regions::RegionGraph;
    use crate::games::flood::Board;
    use crate::solver::bfs::bfs;
    use crate::solver::testing::Rng;

    fn random_board(rng: &mut Rng, w: usize, h: usize, colours: u8) -> Board {
        let cells = (0..w * h)
            .map(|_| rng.below(colours as u64) as u8)
            .collect();
        Board::new(w, h, colours, cells)
    }

    #[test]
    fn inexact_strategies_win_and_are_never_shorter_than_the_optimum() {
        let mut rng = Rng::new(8);
        for i in 0..40 {
            let board = random_board(&mut rng, 5, 5, 4);
            let graph = RegionGraph::new(&board);
            let g = BitGraph::<1>::new(&graph);
            let budget = Budget::unlimited();
            let problem = Flood::new(&g, &budget);
            let exact = bfs(&problem, &problem.start(), &budget).moves.unwrap();
            let greedy2 = greedy(&g, 2);
            let optimised = optimise(&g, greedy2.clone(), &budget);
            let beamed = beam(&g, 8, &budget).expect("no budget to end it");
            for (name, m) in [
                ("greedy", &greedy2),
                ("optimise", &optimised),
                ("beam", &beamed),
            ] {
                assert!(board.wins_with(m), "board {i}: {name} does not win");
                assert!(m.len() >= exact.len(), "board {i}: {name} beat the optimum");
            }
            assert!(optimised.len() <= greedy2.len(), "board {i}");
        }
    }
}
