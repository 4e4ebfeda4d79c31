//! Exact A* over flooded sets of regions, on the generic engine
//! [`crate::solver::astar`].
//!
//! - State, moves and bound: [`super::problem`] (flooded set, border,
//!   colours left; Puchert's layered bound, capped at the incumbent; the
//!   engine adds pathmax).
//! - Transposition table: the engine's arena and [`crate::solver::IndexTable`],
//!   keyed by the flooded set (hash and exact equality on `f`).
//! - Commutation pruning: after move `a`, a move `b` that takes nothing `a`
//!   uncovered is skipped when `b` then `a` reaches a superset of the state
//!   (or the same state and `b < a`), looking back through the ancestors
//!   the engine shows to [`AstarProblem::successors`].
//! - Colour elimination: if a move takes every remaining region of a colour
//!   it is always optimal, so it is the only child generated (the children
//!   are tagged [`FORCED`] so the commutation pruning does not rely on
//!   their missing siblings).
//! - Only colours present on the border are played (every move gains).
//! - Upper bound: an incumbent solution (greedy; on hard boards beam
//!   searches of growing width try to improve it, through
//!   [`AstarProblem::improve_incumbent`]); states with one colour left are
//!   completed on the spot ([`crate::solver::Problem::exact_completion`]).
//! - Bound proof: the largest `f` popped so far is a lower bound on the
//!   optimum; when it meets the incumbent the incumbent is optimal.
//!
//! When a budget stops the search, the most promising open node is
//! completed greedily and kept if shorter.

use super::greedy;
use super::heuristic::layered_bound_capped;
use super::problem::{Flood, State};
use super::regions::BitGraph;
use crate::solver::astar::{astar_with, AstarProblem, Config, NodeView};
use crate::solver::{Bits, Budget, Outcome};

/// Tag of the children of an expansion narrowed by colour elimination.
pub const FORCED: u8 = 1;

/// After so many expansions A* runs a beam search of so many states a
/// depth for a better incumbent.
const BEAMS: [(u64, usize); 3] = [(20_000, 64), (100_000, 256), (500_000, 1024)];

/// How many moves back [`dominated_deeper`] tries to move a move.
const COMMUTE_DEPTH: usize = 4;

/// True when playing `c` (which takes `taken` from `node`, giving `nf`)
/// earlier, before the last 2..=COMMUTE_DEPTH moves, reaches a strict
/// superset of `nf` in the same number of moves; then this child is
/// dominated by a path A* explores anyway. Only ancestors whose children
/// were all generated (not forced by colour elimination) are used, and `c`
/// must take exactly the same regions there.
#[inline]
fn dominated_deeper<const N: usize>(
    g: &BitGraph<N>,
    node: NodeView<'_, Flood<'_, N>>,
    c: u8,
    taken: &Bits<N>,
    nf: &Bits<N>,
) -> bool {
    // path[0] = node, path[i+1] = parent of path[i].
    let mut path = [node; COMMUTE_DEPTH + 1];
    for d in 1..=COMMUTE_DEPTH {
        let child = path[d - 1];
        let Some(anc) = child.parent() else {
            return false;
        };
        if child.tag() == FORCED {
            return false;
        }
        path[d] = anc;
        let a = anc.state();
        if !taken.is_subset(&a.b) {
            return false;
        }
        if d < 2 {
            continue;
        }
        // Replay: `c` first, then the moves from the ancestor down to node.
        let (mut sf, mut sb) = g.play(&a.f, &a.b, c);
        for i in (0..d).rev() {
            let mv = path[i].last_move().expect("not the root");
            (sf, sb) = g.play(&sf, &sb, mv);
        }
        if sf != *nf {
            return true; // a strict superset (it always contains nf)
        }
    }
    false
}

impl<const N: usize> AstarProblem for Flood<'_, N> {
    #[inline]
    fn successors(
        &self,
        node: NodeView<'_, Self>,
        _scratch: &mut Vec<u8>,
        out: &mut Vec<(u8, State<N>)>,
    ) -> u8 {
        let g = self.g;
        let s = node.state();
        let (f, b) = (s.f, s.b);
        let on_border = g.colours_in(&b);
        // Colour elimination: a border colour with no region beyond the border.
        let fb = f.or(&b);
        let mut moves = on_border;
        let mut m = on_border;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            if g.by_colour[c].is_subset(&fb) {
                moves = 1 << c;
                break;
            }
        }
        let forced = moves.count_ones() == 1 && on_border.count_ones() > 1;
        self.left_here.set(g.colours_left(&f));
        self.completed_here.set(0);
        // The previous move `a`, the border before it, and whether its
        // siblings were generated (for the commutation pruning).
        let prev = node.parent().map(|p| {
            (
                node.last_move().expect("not the root"),
                node.tag() == FORCED,
                p.state().b,
            )
        });
        while moves != 0 {
            let c = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let taken = b.and(&g.by_colour[c as usize]);
            let reach = g.neighbours_of(&taken);
            if let Some((prev_colour, false, prev_b)) = prev {
                if taken.is_subset(&prev_b) {
                    // `c` takes nothing that the previous move `a` uncovered,
                    // so playing `c` before `a` reaches a superset of this
                    // state (or the same state: keep the smaller colour first).
                    let a_more = reach.and(&g.by_colour[prev_colour as usize]).and_not(&f);
                    if !a_more.is_empty() || c < prev_colour {
                        continue;
                    }
                    // Same state after one swap: try moving `c` further back.
                    if dominated_deeper(g, node, c, &taken, &f.or(&taken)) {
                        continue;
                    }
                }
            }
            let nf = f.or(&taken);
            let nb = b.and_not(&taken).or(&reach.and_not(&nf));
            out.push((c, State { f: nf, b: nb }));
        }
        if forced {
            FORCED
        } else {
            0
        }
    }

    fn improve_incumbent(&self, nodes: u64, incumbent: u32, bound: u32) -> Option<Vec<u8>> {
        // A hard board: a beam search usually gets within a move of the
        // optimum, which lets the bound evaluation stop earlier and keeps
        // hopeless children out of memory.
        let w = BEAMS
            .iter()
            .find(|b| b.0 == nodes && incumbent > bound + 1)?
            .1;
        greedy::beam(self.g, w, self.budget)
    }

    #[inline]
    fn child_completion(&self, c: u8, s: &State<N>) -> Option<Vec<u8>> {
        let here = self.left_here.get();
        let left = self.left_after(here, c, &s.f);
        if left != here {
            self.completed_here
                .set(self.completed_here.get() | (1 << c));
        }
        match left.count_ones() {
            // No colour left outside the flooded set: a goal.
            0 => Some(Vec::new()),
            // One colour left: playing it finishes (it is on the border).
            1 => Some(vec![left.trailing_zeros() as u8]),
            _ => None,
        }
    }

    #[inline]
    fn child_bound(&self, c: u8, s: &State<N>, cap: u32) -> u32 {
        // `child_completion` saw this child: only `c` can have been completed.
        let left = self.left_here.get() & !(self.completed_here.get() & (1 << c));
        layered_bound_capped(self.g, &s.f, &s.b, left, cap as usize) as u32
    }

    fn greedy_completion(&self, s: &State<N>) -> Option<Vec<u8>> {
        Some(greedy::complete(self.g, s.f, s.b, 1))
    }
}

/// Runs A* from the start state, with `incumbent` as a known solution:
/// the outcome always holds a line (the incumbent when A* found nothing
/// better), with a lower bound of at most its length.
pub fn astar<const N: usize>(g: &BitGraph<N>, budget: &Budget, incumbent: Vec<u8>) -> Outcome<u8> {
    let problem = Flood::new(g, budget);
    let start = problem.start();
    let config = Config {
        incumbent: Some(incumbent.clone()),
        check_every: 256,
    };
    let mut o = astar_with(&problem, &start, budget, &config);
    let moves = o.moves.take().unwrap_or(incumbent);
    o.lower_bound = o.lower_bound.min(moves.len() as u32);
    o.moves = Some(moves);
    o
}
