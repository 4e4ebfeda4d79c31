//! IDA*: iterative deepening on `f = g + lower_bound`, depth first with a
//! reused move buffer per depth (no allocation per node), skipping moves
//! that [`Problem::prune_after`] rules out.
//!
//! - [`idastar`]: no memory beyond the current path. On graphs with cycles
//!   it re-expands transpositions; it proves unsolvability only when an
//!   iteration's tree is finite (no node was cut by the threshold).
//! - [`idastar_tt`]: the same with a bounded transposition table (key to
//!   the smallest `g` seen this iteration and the move that led there).
//!   A revisit is cut when the table holds the same key reached with the
//!   same last move at a smaller or equal `g`: its subtree is then a subset
//!   of one already searched with at least as much depth left, so the cut
//!   is sound even together with move pruning (arriving by a different
//!   last move allows different children, so that revisit is searched).
//!   Keys are compared exactly.
//!
//! Both return a proven shortest solution when they finish; when the
//! budget (checked every [`CHECK_EVERY`] nodes, and at the exact node
//! limit) stops them, the lower bound reported is the threshold of the
//! iteration in progress, proven by the iterations completed before it.
//! The lower bound must be admissible; goals are recognised only where it
//! is 0 (which admissibility guarantees).

use rustc_hash::FxHashMap;
use std::mem::size_of;
use std::time::Instant;

use super::budget::{Budget, BudgetExceeded};
use super::outcome::Outcome;
use super::problem::{Keyed, Problem};

/// Nodes between two budget checks.
pub const CHECK_EVERY: u64 = 4096;

/// Transposition-table entries [`idastar_tt`] keeps at most.
pub const DEFAULT_TT_ENTRIES: usize = 1 << 20;

/// A shortest solution from `start` by IDA* without a transposition table.
pub fn idastar<P: Problem>(problem: &P, start: &P::State, budget: &Budget) -> Outcome<P::Move> {
    run(problem, start, budget, NoTable)
}

/// A shortest solution from `start` by IDA* with a transposition table of
/// at most [`DEFAULT_TT_ENTRIES`] entries.
pub fn idastar_tt<P: Keyed>(problem: &P, start: &P::State, budget: &Budget) -> Outcome<P::Move> {
    idastar_tt_with_capacity(problem, start, budget, DEFAULT_TT_ENTRIES)
}

/// [`idastar_tt`] with a table of at most `entries` entries (when full,
/// new states are searched without being recorded).
pub fn idastar_tt_with_capacity<P: Keyed>(
    problem: &P,
    start: &P::State,
    budget: &Budget,
    entries: usize,
) -> Outcome<P::Move> {
    run(
        problem,
        start,
        budget,
        KeyTable::<P> {
            map: FxHashMap::default(),
            cap: entries,
        },
    )
}

/// What the depth-first pass does with transpositions.
trait Table<P: Problem> {
    /// True when `state` at depth `g`, reached by `prev`, can be cut.
    fn cut(&mut self, problem: &P, state: &P::State, g: u32, prev: Option<P::Move>) -> bool;
    /// Forgets everything (a new iteration starts).
    fn clear(&mut self);
    /// Bytes held.
    fn bytes(&self) -> usize;
}

struct NoTable;

impl<P: Problem> Table<P> for NoTable {
    #[inline(always)]
    fn cut(&mut self, _: &P, _: &P::State, _: u32, _: Option<P::Move>) -> bool {
        false
    }
    fn clear(&mut self) {}
    fn bytes(&self) -> usize {
        0
    }
}

struct KeyTable<P: Keyed> {
    map: FxHashMap<P::Key, (u32, Option<P::Move>)>,
    cap: usize,
}

impl<P: Keyed> Table<P> for KeyTable<P> {
    #[inline]
    fn cut(&mut self, problem: &P, state: &P::State, g: u32, prev: Option<P::Move>) -> bool {
        let key = problem.key(state);
        if let Some(e) = self.map.get_mut(&key) {
            if e.0 <= g {
                return e.1 == prev;
            }
            *e = (g, prev);
        } else if self.map.len() < self.cap {
            self.map.insert(key, (g, prev));
        }
        false
    }
    fn clear(&mut self) {
        self.map.clear();
    }
    fn bytes(&self) -> usize {
        self.map.capacity() * (size_of::<P::Key>() + size_of::<(u32, Option<P::Move>)>() + 1)
    }
}

struct Search<'a, P: Problem, T> {
    problem: &'a P,
    budget: &'a Budget,
    table: T,
    threshold: u32,
    next_threshold: u32,
    nodes: u64,
    next_check: u64,
    path: Vec<P::Move>,
    buffers: Vec<Vec<P::Move>>,
}

fn run<P: Problem, T: Table<P>>(
    problem: &P,
    start: &P::State,
    budget: &Budget,
    table: T,
) -> Outcome<P::Move> {
    let t0 = Instant::now();
    let h0 = problem.lower_bound(start);
    let mut s = Search {
        problem,
        budget,
        table,
        threshold: h0,
        next_threshold: u32::MAX,
        nodes: 0,
        next_check: 0,
        path: Vec::new(),
        buffers: Vec::new(),
    };
    loop {
        s.next_threshold = u32::MAX;
        s.table.clear();
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

impl<P: Problem, T: Table<P>> Search<'_, P, T> {
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
        if self.table.cut(self.problem, state, g, prev) {
            return Ok(false);
        }
        if self.nodes >= self.next_check {
            let bytes = self.table.bytes();
            self.budget.check_nodes(self.nodes, bytes)?;
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
    use crate::solver::bfs::{bfs, bfs_distances};
    use crate::solver::problem::wins;
    use crate::solver::testing::{Eight, Graph, Rng};
    use std::time::Duration;

    #[test]
    fn eight_puzzle_lengths_match_bfs() {
        let plain = Eight::default();
        let md = Eight { manhattan: true };
        let dist = bfs_distances(&plain, &Eight::goal(), &Budget::unlimited());
        let mut rng = Rng::new(11);
        for i in 0..60 {
            let s = Eight::scrambled(&mut rng, 100);
            let want = dist.depth[&s] as usize;
            for o in [
                idastar(&md, &s, &Budget::unlimited()),
                idastar_tt(&md, &s, &Budget::unlimited()),
            ] {
                assert!(o.proven_optimal, "instance {i}");
                assert_eq!(o.len(), Some(want), "instance {i}");
                assert!(wins(&md, &s, o.moves.as_ref().unwrap()));
            }
            if want <= 14 {
                // Blind (h = 0), the table keeps it tractable.
                let o = idastar_tt(&plain, &s, &Budget::unlimited());
                assert_eq!(o.len(), Some(want));
            }
        }
    }

    #[test]
    fn graph_lengths_match_bfs_and_claims_are_honest() {
        let mut rng = Rng::new(5);
        for i in 0..400 {
            let mut g = Graph::random(&mut rng, 30, 3, 12);
            g.informed = i % 2 == 0;
            let exact = bfs(&g, &0, &Budget::unlimited());
            let budget = Budget::unlimited().with_node_limit(20_000);
            for o in [idastar(&g, &0, &budget), idastar_tt(&g, &0, &budget)] {
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
