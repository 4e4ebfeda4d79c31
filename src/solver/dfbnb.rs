//! Depth-first branch and bound: anytime, with a transposition table,
//! dynamic move ordering and limited discrepancy passes.
//!
//! Children are ordered by their lower bound (smallest first); ties keep
//! the order in which [`Problem::moves`] listed them, which is the
//! problem's hint. The search runs limited discrepancy passes first
//! (discrepancy 0 follows only the best-ordered child everywhere, `d`
//! allows up to `d` deviations), each improving the incumbent, then one
//! full pass. A node is cut when `g + lower_bound >= incumbent length`,
//! and when the table (key to the smallest `g` reached this pass, with the
//! discrepancies left then) shows it was already searched with at least as
//! much room. Keys are compared exactly. [`Problem::prune_after`] is not
//! used: move pruning is not sound together with "seen before" pruning in
//! general, and the table removes what it would.
//!
//! Guarantees: the incumbent is always a legal solution; it is a proven
//! shortest one when the full pass completes (and no solution exists when
//! the full pass completes without one). When a budget stops the search,
//! the incumbent is returned with the lower bound of the start, and is
//! called optimal only if it meets that bound.

use rustc_hash::FxHashMap;
use std::mem::size_of;
use std::time::Instant;

use super::budget::{Budget, BudgetExceeded};
use super::outcome::Outcome;
use super::problem::{wins, Keyed, Problem};

/// Nodes between two budget checks.
const CHECK_EVERY: u64 = 1024;

/// Settings of [`dfbnb_with`].
#[derive(Debug, Clone)]
pub struct Config<M> {
    /// Discrepancy passes before the full pass: 0, 1, .., `discrepancies - 1`.
    pub discrepancies: u32,
    /// A known solution to start from (ignored unless it wins).
    pub initial: Option<Vec<M>>,
}

impl<M> Default for Config<M> {
    fn default() -> Self {
        Config {
            discrepancies: 3,
            initial: None,
        }
    }
}

/// A shortest solution from `start` by branch and bound with the default
/// [`Config`].
///
/// A counter from 0 to 5 by `+1` and `*2` steps, keyed by its value:
///
/// ```
/// use gridbot::solver::{dfbnb, Budget, Keyed, Problem};
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
/// let o = dfbnb(&Count, &0, &Budget::unlimited());
/// assert_eq!(o.moves.map(|m| m.len()), Some(4)); // e.g. 1, 2, 4, 5
/// assert!(o.proven_optimal);
/// ```
pub fn dfbnb<P: Keyed>(problem: &P, start: &P::State, budget: &Budget) -> Outcome<P::Move> {
    dfbnb_with(problem, start, budget, &Config::default())
}

/// Branch and bound with explicit settings.
pub fn dfbnb_with<P: Keyed>(
    problem: &P,
    start: &P::State,
    budget: &Budget,
    config: &Config<P::Move>,
) -> Outcome<P::Move> {
    let t0 = Instant::now();
    let h0 = problem.lower_bound(start);
    let incumbent = config.initial.clone().filter(|m| wins(problem, start, m));
    let mut s = Search {
        problem,
        budget,
        bound: incumbent.as_ref().map_or(u32::MAX, |m| m.len() as u32),
        incumbent,
        table: FxHashMap::default(),
        nodes: 0,
        path: Vec::new(),
        buffers: Vec::new(),
        moves: Vec::new(),
    };
    let passes = (0..config.discrepancies).map(Some).chain([None]);
    for d in passes {
        if s.bound <= h0 {
            break; // the incumbent meets the lower bound: nothing to prove
        }
        s.table.clear();
        if let Err(why) = s.dfs(start, 0, d) {
            return Outcome::stopped(s.incumbent, h0, why, s.nodes, t0.elapsed());
        }
    }
    match s.incumbent {
        Some(m) => Outcome::optimal(m, s.nodes, t0.elapsed()),
        None => Outcome::unsolvable(s.nodes, t0.elapsed()),
    }
}

struct Search<'a, P: Keyed> {
    problem: &'a P,
    budget: &'a Budget,
    incumbent: Option<Vec<P::Move>>,
    bound: u32,
    /// Key to (smallest g, discrepancies left then; `u32::MAX` = unlimited).
    table: FxHashMap<P::Key, (u32, u32)>,
    nodes: u64,
    path: Vec<P::Move>,
    buffers: Vec<Vec<Kid<P>>>,
    /// Scratch for the moves of the node being expanded.
    moves: Vec<P::Move>,
}

/// A child: its lower bound, its place in the problem's move order, the
/// move and the state.
type Kid<P> = (u32, usize, <P as Problem>::Move, <P as Problem>::State);

impl<P: Keyed> Search<'_, P> {
    fn bytes(&self) -> usize {
        self.table.capacity() * (size_of::<P::Key>() + 9)
    }

    fn dfs(&mut self, state: &P::State, g: u32, disc: Option<u32>) -> Result<(), BudgetExceeded> {
        if self.problem.is_goal(state) {
            if g < self.bound {
                self.bound = g;
                self.incumbent = Some(self.path.clone());
            }
            return Ok(());
        }
        if let Some(rest) = self.problem.exact_completion(state) {
            let len = g.saturating_add(rest.len() as u32);
            if len < self.bound {
                self.bound = len;
                let mut moves = self.path.clone();
                moves.extend(rest);
                self.incumbent = Some(moves);
            }
            return Ok(());
        }
        let room = self.bound.saturating_sub(g);
        if self.problem.capped_bound(state, room) >= room {
            return Ok(());
        }
        let left = disc.unwrap_or(u32::MAX);
        let key = self.problem.key(state);
        match self.table.get_mut(&key) {
            Some(e) if e.0 <= g && e.1 >= left => return Ok(()),
            Some(e) => *e = (g, left),
            None => {
                self.table.insert(key, (g, left));
            }
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) || self.nodes >= self.budget.node_limit() {
            self.budget.check_nodes(self.nodes, self.bytes())?;
        }
        self.nodes += 1;
        let depth = g as usize;
        if self.buffers.len() <= depth {
            self.buffers.resize_with(depth + 1, Vec::new);
        }
        let mut kids = std::mem::take(&mut self.buffers[depth]);
        kids.clear();
        {
            let mut moves = std::mem::take(&mut self.moves);
            moves.clear();
            self.problem.moves(state, &mut moves);
            let room = self.bound.saturating_sub(g + 1);
            for (i, &mv) in moves.iter().enumerate() {
                let child = self.problem.apply(state, mv);
                kids.push((self.problem.capped_bound(&child, room), i, mv, child));
            }
            self.moves = moves;
        }
        kids.sort_unstable_by_key(|k| (k.0, k.1));
        let mut result = Ok(());
        for (i, (h, _, mv, child)) in kids.iter().enumerate() {
            if (g + 1).saturating_add(*h) >= self.bound {
                break; // sorted by h: the rest cannot improve either
            }
            let child_disc = match disc {
                None => None,
                Some(d) if i == 0 => Some(d),
                Some(0) => break,
                Some(d) => Some(d - 1),
            };
            self.path.push(*mv);
            result = self.dfs(child, g + 1, child_disc);
            self.path.pop();
            if result.is_err() {
                break;
            }
        }
        kids.clear();
        self.buffers[depth] = kids;
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
        check_eight_puzzle(31, 25, 60, |p, s| dfbnb(p, s, &Budget::unlimited()));
    }

    #[test]
    fn graph_verdicts_match_bfs() {
        check_graphs(
            12,
            500,
            |i| i % 2 == 1,
            |g| dfbnb(g, &0, &Budget::unlimited()),
        );
    }

    #[test]
    fn anytime_incumbent_is_a_solution_and_claims_are_honest() {
        let md = Eight { manhattan: true };
        let mut rng = Rng::new(5);
        for _ in 0..10 {
            let s = Eight::scrambled(&mut rng, 300);
            let exact = bfs(&md, &s, &Budget::unlimited()).len().unwrap();
            let o = dfbnb(&md, &s, &Budget::unlimited().with_node_limit(300));
            if o.stopped.is_none() {
                // Finished within the node limit: then it is proven.
                assert!(o.proven_optimal && o.len() == Some(exact));
                continue;
            }
            assert_eq!(o.stopped, Some(BudgetExceeded::Nodes));
            if let Some(m) = &o.moves {
                assert!(wins(&md, &s, m) && m.len() >= exact);
                assert_eq!(o.proven_optimal, m.len() as u32 <= md.lower_bound(&s));
            }
            assert!(o.lower_bound as usize <= exact);
        }
        // A winning initial solution is kept; a losing one is ignored.
        let s = Eight::scrambled(&mut rng, 300);
        let first = dfbnb(&md, &s, &Budget::unlimited()).moves.unwrap();
        let cfg = Config {
            discrepancies: 0,
            initial: Some(first.clone()),
        };
        let o = dfbnb_with(&md, &s, &Budget::unlimited().with_node_limit(1), &cfg);
        assert_eq!(o.moves.as_deref(), Some(&first[..]));
        let cfg = Config {
            discrepancies: 0,
            initial: Some(vec![first[0]; 3]),
        };
        let o = dfbnb_with(&md, &s, &Budget::unlimited(), &cfg);
        assert_eq!(o.len(), Some(first.len()));
    }
}
