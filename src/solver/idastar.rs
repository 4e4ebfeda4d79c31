//! IDA*: iterative deepening on `f = g + lower_bound`, depth first with a
//! reused move buffer per depth (no allocation per node), skipping moves
//! that [`Problem::prune_after`] rules out.
//!
//! [`idastar`] keeps no memory beyond the current path. On graphs with
//! cycles it re-expands transpositions; it proves unsolvability only when
//! an iteration's tree is finite (no node was cut by the threshold).
//! Fifteen's solver is its user (with pattern-database bounds).
//!
//! It returns a proven shortest solution when it finishes; when the
//! budget (checked every [`CHECK_EVERY`] nodes, and at the exact node
//! limit) stops them, the lower bound reported is the threshold of the
//! iteration in progress, proven by the iterations completed before it.
//! The lower bound must be admissible; goals are recognised only where it
//! is 0 (which admissibility guarantees).

use std::time::Instant;

use super::budget::{Budget, BudgetExceeded};
use super::outcome::Outcome;
use super::problem::Problem;

/// Nodes between two budget checks.
pub const CHECK_EVERY: u64 = 4096;

/// A shortest solution from `start` by IDA*.
///
/// A counter from 0 to 5 by `+1` and `*2` steps, with no bound:
///
/// ```
/// use gridbot::solver::{idastar, Budget, Problem};
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
///
/// let o = idastar(&Count, &0, &Budget::unlimited());
/// assert_eq!(o.moves, Some(vec![1, 1, 2, 1])); // 1, 2, 4, 5
/// assert!(o.proven_optimal);
/// ```
pub fn idastar<P: Problem>(problem: &P, start: &P::State, budget: &Budget) -> Outcome<P::Move> {
    let t0 = Instant::now();
    let h0 = problem.lower_bound(start);
    let mut s = Search {
        problem,
        budget,
        threshold: h0,
        next_threshold: u32::MAX,
        nodes: 0,
        next_check: 0,
        path: Vec::new(),
        buffers: Vec::new(),
    };
    loop {
        s.next_threshold = u32::MAX;
        match s.dfs(start, 0, h0, None) {
            Ok(true) => return Outcome::optimal(s.path, s.nodes, t0.elapsed()),
            Ok(false) => {}
            Err(why) => return Outcome::stopped(None, s.threshold, why, s.nodes, t0.elapsed()),
        }
        if s.next_threshold == u32::MAX {
            return Outcome::unsolvable(s.nodes, t0.elapsed());
        }
        s.threshold = s.next_threshold;
    }
}

/// One IDA* run: the threshold, the path and a move buffer per depth.
struct Search<'a, P: Problem> {
    problem: &'a P,
    budget: &'a Budget,
    threshold: u32,
    next_threshold: u32,
    nodes: u64,
    next_check: u64,
    path: Vec<P::Move>,
    buffers: Vec<Vec<P::Move>>,
}

impl<P: Problem> Search<'_, P> {
    /// Searches below `state` (at depth `g`, bound `h`) within the
    /// threshold; `Ok(true)` with the solution in `self.path`.
    fn dfs(
        &mut self,
        state: &P::State,
        g: u32,
        h: u32,
        prev: Option<P::Move>,
    ) -> Result<bool, BudgetExceeded> {
        let f = g.saturating_add(h);
        if f > self.threshold {
            self.next_threshold = self.next_threshold.min(f);
            return Ok(false);
        }
        if h == 0 && self.problem.is_goal(state) {
            return Ok(true);
        }
        if self.nodes >= self.next_check {
            self.budget.check_nodes(self.nodes, 0)?;
            self.next_check = (self.nodes + CHECK_EVERY).min(self.budget.node_limit());
        }
        self.nodes += 1;
        let depth = g as usize;
        if self.buffers.len() <= depth {
            self.buffers.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buffers[depth]);
        moves.clear();
        self.problem.moves(state, &mut moves);
        let mut found = false;
        for &mv in &moves {
            if let Some(p) = prev {
                if self.problem.prune_after(p, mv) {
                    continue;
                }
            }
            let child = self.problem.apply(state, mv);
            let ch = self.problem.lower_bound(&child);
            // Cut here rather than in the callee: most children of an
            // IDA* node are cut, and this saves a call for each.
            let cf = (g + 1).saturating_add(ch);
            if cf > self.threshold {
                self.next_threshold = self.next_threshold.min(cf);
                continue;
            }
            self.path.push(mv);
            match self.dfs(&child, g + 1, ch, Some(mv)) {
                Ok(true) => {
                    found = true;
                    break;
                }
                Ok(false) => {
                    self.path.pop();
                }
                Err(e) => {
                    self.buffers[depth] = moves;
                    return Err(e);
                }
            }
        }
        self.buffers[depth] = moves;
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::bfs::bfs;
    use crate::solver::problem::wins;
    use crate::solver::testing::{check_eight_puzzle, Eight, Graph, Rng};
    use std::time::Duration;

    #[test]
    fn eight_puzzle_lengths_match_bfs() {
        check_eight_puzzle(11, 60, 100, |p, s| idastar(p, s, &Budget::unlimited()));
    }

    #[test]
    fn graph_lengths_match_bfs_and_claims_are_honest() {
        let mut rng = Rng::new(5);
        for i in 0..400 {
            let mut g = Graph::random(&mut rng, 30, 3, 12);
            g.informed = i % 2 == 0;
            let exact = bfs(&g, &0, &Budget::unlimited());
            let budget = Budget::unlimited().with_node_limit(20_000);
            let o = idastar(&g, &0, &budget);
            if let Some(m) = &o.moves {
                assert!(o.proven_optimal);
                assert_eq!(Some(m.len()), exact.len(), "instance {i}");
                assert!(wins(&g, &0, m));
            }
            if o.proven_unsolvable {
                assert!(exact.proven_unsolvable, "instance {i}");
            }
            if let Some(len) = exact.len() {
                assert!(o.lower_bound as usize <= len, "instance {i}");
                // Short solutions are found well within the node budget.
                if len <= 5 {
                    assert!(o.moves.is_some(), "instance {i}");
                }
            }
        }
    }

    #[test]
    fn unsolvable_eight_puzzle_stops_with_a_bound() {
        let md = Eight { manhattan: true };
        let mut rng = Rng::new(2);
        let s = loop {
            let s = Eight::random(&mut rng);
            if bfs(&md, &s, &Budget::unlimited()).proven_unsolvable {
                break s;
            }
        };
        let o = idastar(&md, &s, &Budget::unlimited().with_node_limit(200_000));
        assert_eq!(o.stopped, Some(BudgetExceeded::Nodes));
        assert_eq!(o.nodes, 200_000);
        assert!(o.lower_bound > md.lower_bound(&s));
        let o = idastar(&md, &s, &Budget::new(Some(Duration::ZERO), usize::MAX));
        assert_eq!(o.stopped, Some(BudgetExceeded::Time));
    }
}
