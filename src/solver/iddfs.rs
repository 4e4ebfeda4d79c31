//! Iterative deepening depth-first search with a depth-keyed table.
//!
//! Depth limits grow by one from the start's lower bound. The table maps
//! each [`Keyed::key`] to the most moves left it was searched with; a
//! position reached again with no more moves left than that is a dead end
//! (its search, or an ancestor's still in progress, covers it), so each
//! iteration visits every position at most once per distinct budget.
//! Entries survive between iterations (a position that failed with `m`
//! moves left fails with any fewer). Keys are compared exactly, so a collision never prunes a real
//! solution. The lower bound, if any, cuts nodes that cannot finish within
//! the limit. [`Problem::prune_after`] is not used: the table already
//! removes the transpositions it would, and move pruning is not sound
//! together with "seen before" pruning in general.
//!
//! Guarantees: the first solution found is a proven shortest one; when an
//! iteration ends with every position it ever reached expanded at least
//! once, the table holds the whole reachable space and no goal, so no
//! solution exists (proven unsolvable). When the budget stops it, the
//! lower bound is the limit of the iteration in progress.

use rustc_hash::FxHashMap;
use std::mem::size_of;
use std::time::Instant;

use super::budget::{Budget, BudgetExceeded};
use super::outcome::Outcome;
use super::problem::Keyed;

/// Nodes between two budget checks.
const CHECK_EVERY: u64 = 1024;

/// What the table knows about one position.
#[derive(Clone, Copy)]
struct Entry {
    /// The most moves left it was reached with: no solution within that
    /// many moves from it (or an ancestor still in progress covers it).
    left: u32,
    /// Its moves were generated at least once.
    expanded: bool,
}

struct Search<'a, P: Keyed> {
    problem: &'a P,
    budget: &'a Budget,
    table: FxHashMap<P::Key, Entry>,
    /// Entries with `expanded` set.
    expanded: usize,
    nodes: u64,
    path: Vec<P::Move>,
    buffers: Vec<Vec<P::Move>>,
}

/// A shortest solution from `start` by iterative deepening with a
/// depth-keyed transposition table.
///
/// A counter from 0 to 5 by `+1` and `*2` steps, keyed by its value:
///
/// ```
/// use gridbot::solver::{iddfs, Budget, Keyed, Problem};
///
/// struct Count;
/// impl Problem for Count {
///     type State = u32;
///     type Move = u32;
///     fn moves(&self, _: &u32, out: &mut Vec<u32>) {
///         out.extend([1, 2]); // 1: add one, 2: double
///     }
///     fn apply(&self, s: &u32, m: u32) -> u32 {
///         if m == 1 { s + 1 } else { s * 2 }
///     }
///     fn is_goal(&self, s: &u32) -> bool {
///         *s == 5
///     }
///     fn lower_bound(&self, s: &u32) -> u32 {
///         u32::from(*s > 5) * 99 // overshot: never a goal again
///     }
/// }
/// impl Keyed for Count {
///     type Key = u32;
///     fn key(&self, s: &u32) -> u32 {
///         *s
///     }
/// }
///
/// let o = iddfs(&Count, &0, &Budget::unlimited());
/// assert_eq!(o.moves.map(|m| m.len()), Some(4)); // e.g. 1, 2, 4, 5
/// assert!(o.proven_optimal);
/// ```
pub fn iddfs<P: Keyed>(problem: &P, start: &P::State, budget: &Budget) -> Outcome<P::Move> {
    let t0 = Instant::now();
    let mut s = Search {
        problem,
        budget,
        table: FxHashMap::default(),
        expanded: 0,
        nodes: 0,
        path: Vec::new(),
        buffers: Vec::new(),
    };
    let mut limit = problem.lower_bound(start);
    loop {
        match s.dfs(start, limit, 0) {
            Ok(true) => return Outcome::optimal(s.path, s.nodes, t0.elapsed()),
            // Every position ever reached has been expanded: the table
            // holds the whole reachable space, and no goal is in it.
            Ok(false) if s.expanded == s.table.len() => {
                return Outcome::unsolvable(s.nodes, t0.elapsed())
            }
            Ok(false) => limit += 1,
            Err(why) => return Outcome::stopped(None, limit, why, s.nodes, t0.elapsed()),
        }
    }
}

impl<P: Keyed> Search<'_, P> {
    fn bytes(&self) -> usize {
        self.table.capacity() * (size_of::<P::Key>() + size_of::<Entry>() + 1)
    }

    /// Searches for a goal within `left` moves of `state`; `Ok(true)` with
    /// the moves in `self.path`.
    fn dfs(&mut self, state: &P::State, left: u32, depth: usize) -> Result<bool, BudgetExceeded> {
        if self.problem.is_goal(state) {
            return Ok(true);
        }
        let expand = left > 0 && self.problem.lower_bound(state) <= left;
        match self.table.get_mut(&self.problem.key(state)) {
            // Already searched with at least as much room (or an ancestor
            // in progress, whose own search covers this subtree).
            Some(e) if e.left >= left => return Ok(false),
            Some(e) => {
                e.left = left;
                if expand && !e.expanded {
                    e.expanded = true;
                    self.expanded += 1;
                }
            }
            None => {
                self.table.insert(
                    self.problem.key(state),
                    Entry {
                        left,
                        expanded: expand,
                    },
                );
                self.expanded += expand as usize;
            }
        }
        if !expand {
            return Ok(false);
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) || self.nodes >= self.budget.node_limit() {
            self.budget.check_nodes(self.nodes, self.bytes())?;
        }
        self.nodes += 1;
        if self.buffers.len() <= depth {
            self.buffers.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buffers[depth]);
        moves.clear();
        self.problem.moves(state, &mut moves);
        let mut result = Ok(false);
        for &mv in &moves {
            let child = self.problem.apply(state, mv);
            self.path.push(mv);
            result = self.dfs(&child, left - 1, depth + 1);
            if !matches!(result, Ok(false)) {
                break;
            }
            self.path.pop();
        }
        self.buffers[depth] = moves;
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::bfs::bfs;
    use crate::solver::testing::{check_eight_puzzle, check_graphs, Eight, Rng};

    #[test]
    fn eight_puzzle_lengths_match_bfs() {
        check_eight_puzzle(21, 40, 100, |p, s| iddfs(p, s, &Budget::unlimited()));
    }

    #[test]
    fn graph_verdicts_match_bfs() {
        check_graphs(
            8,
            500,
            |i| i % 3 == 0,
            |g| iddfs(g, &0, &Budget::unlimited()),
        );
    }

    #[test]
    fn unsolvable_eight_puzzle_is_proven_or_stopped_honestly() {
        let md = Eight { manhattan: true };
        let mut rng = Rng::new(4);
        let s = loop {
            let s = Eight::random(&mut rng);
            if bfs(&md, &s, &Budget::unlimited()).proven_unsolvable {
                break s;
            }
        };
        let o = iddfs(&md, &s, &Budget::unlimited().with_node_limit(10_000));
        assert_eq!(o.stopped, Some(BudgetExceeded::Nodes));
        assert!(o.moves.is_none() && !o.proven_unsolvable);
    }
}
