//! Breadth-first search that can be paused and resumed: a value holding
//! its table of keys seen, its arena (which is also its FIFO queue), the
//! layer being expanded and its depth. [`ResumableBfs::run`] continues
//! where the last call stopped, so a search given its time in slices
//! (a portfolio's first slice, then what the other searches leave) does
//! the work of one search given it all at once: the same solution, the
//! same nodes in total.
//!
//! The search is [`super::bfs::bfs`]'s (which runs one of these to the
//! end): exact duplicate detection by [`Keyed::key`], goals tested when a
//! state is generated, and when a budget stops it the proven lower bound
//! is one more than the depth of the layer being expanded. Once it found
//! a solution or proved there is none, every later call returns that
//! outcome again without expanding anything.

use rustc_hash::FxHashSet;
use std::mem::size_of;
use std::time::{Duration, Instant};

use super::budget::{Budget, BudgetExceeded, Pacer};
use super::outcome::Outcome;
use super::problem::Keyed;

/// How often (in nodes expanded by one call) the budget is consulted.
const CHECK_EVERY: u64 = 1024;

/// A breadth-first search between two calls of [`ResumableBfs::run`].
pub struct ResumableBfs<P: Keyed> {
    seen: FxHashSet<P::Key>,
    /// Every state generated and kept, in order of generation: the
    /// entries from `next` on are the queue.
    states: Vec<P::State>,
    /// The parent's arena index and the move from it (`None`: the start).
    links: Vec<Option<(u32, P::Move)>>,
    /// The first arena index of the layer after the one being expanded.
    depth_end: usize,
    /// The depth of the layer being expanded.
    depth: u32,
    /// The arena index of the next state to expand.
    next: usize,
    /// Nodes expanded by every call so far.
    nodes: u64,
    /// The start's own bound (at least 1 once the start is no goal).
    bound0: u32,
    /// Time spent in every call so far.
    spent: Duration,
    /// The outcome once it is settled (a solution, or none exists).
    settled: Option<Outcome<P::Move>>,
}

impl<P: Keyed> ResumableBfs<P> {
    /// A search from `start` that has expanded nothing yet.
    pub fn new(problem: &P, start: &P::State) -> Self {
        let mut seen = FxHashSet::default();
        seen.insert(problem.key(start));
        let settled = problem
            .is_goal(start)
            .then(|| Outcome::optimal(Vec::new(), 0, Duration::ZERO));
        ResumableBfs {
            seen,
            states: vec![start.clone()],
            links: vec![None],
            depth_end: 1,
            depth: 0,
            next: 0,
            nodes: 0,
            bound0: problem.lower_bound(start).max(1),
            spent: Duration::ZERO,
            settled,
        }
    }

    /// Nodes expanded so far, by every call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The proven lower bound so far: one more than the depth of the
    /// layer being expanded (or the settled outcome's).
    pub fn lower_bound(&self) -> u32 {
        match &self.settled {
            Some(o) => o.lower_bound,
            None => self.bound0.max(self.depth + 1),
        }
    }

    /// True once the search found a solution or proved there is none.
    pub fn is_settled(&self) -> bool {
        self.settled.is_some()
    }

    /// The states it keeps.
    pub fn states(&self) -> usize {
        self.states.len()
    }

    /// The bytes its tables hold: the arena's entries and the key set's
    /// slots (a slot's key and its control byte), by capacity.
    pub fn bytes(&self) -> usize {
        let entry = size_of::<P::State>() + size_of::<Option<(u32, P::Move)>>();
        self.states.capacity() * entry + self.seen.capacity() * (size_of::<P::Key>() + 1)
    }

    /// Expands on from where the last call stopped until a goal is
    /// generated, every reachable state is expanded or `budget` stops it
    /// (its node limit counts this call's nodes; its memory limit the
    /// whole tables). The outcome counts the nodes and time of every call.
    pub fn run(&mut self, problem: &P, budget: &Budget) -> Outcome<P::Move> {
        let t0 = Instant::now();
        let o = match &self.settled {
            Some(o) => return o.clone(),
            None => self.expand(problem, budget),
        };
        self.spent += t0.elapsed();
        let o = Outcome {
            elapsed: self.spent,
            ..o
        };
        if o.stopped.is_none() {
            self.settled = Some(o.clone());
        }
        o
    }

    /// The loop of [`ResumableBfs::run`].
    fn expand(&mut self, problem: &P, budget: &Budget) -> Outcome<P::Move> {
        let mut pacer = Pacer::default();
        let mut run_nodes = 0u64;
        let mut moves = Vec::new();
        while self.next < self.states.len() {
            if self.next == self.depth_end {
                self.depth += 1;
                self.depth_end = self.states.len();
            }
            if run_nodes.is_multiple_of(CHECK_EVERY)
                || run_nodes >= budget.node_limit()
                || pacer.time_up(budget, run_nodes)
            {
                let held = budget.held(self.states.len(), self.bytes());
                if let Err(why) = budget.check_nodes(run_nodes, held) {
                    return self.stopped(why);
                }
            }
            run_nodes += 1;
            self.nodes += 1;
            let state = self.states[self.next].clone();
            moves.clear();
            problem.moves(&state, &mut moves);
            for &mv in &moves {
                let child = problem.apply(&state, mv);
                if !self.seen.insert(problem.key(&child)) {
                    continue;
                }
                if problem.is_goal(&child) {
                    return Outcome::optimal(self.path(mv), self.nodes, Duration::ZERO);
                }
                self.states.push(child);
                self.links.push(Some((self.next as u32, mv)));
            }
            self.next += 1;
        }
        Outcome::unsolvable(self.nodes, Duration::ZERO)
    }

    /// The outcome of a call `why` stopped.
    fn stopped(&self, why: BudgetExceeded) -> Outcome<P::Move> {
        Outcome::stopped(None, self.lower_bound(), why, self.nodes, Duration::ZERO)
    }

    /// The moves to the state being expanded, then `last`.
    fn path(&self, last: P::Move) -> Vec<P::Move> {
        let mut path = vec![last];
        let mut at = self.next;
        while let Some((parent, m)) = self.links[at] {
            path.push(m);
            at = parent as usize;
        }
        path.reverse();
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::bfs::bfs;
    use crate::solver::problem::wins;
    use crate::solver::testing::{Eight, Graph, Rng};

    /// Runs `search` in slices of `slice` nodes until it is settled or a
    /// slice stops it for memory or time; the last outcome and the slices.
    fn in_slices<P: Keyed>(
        problem: &P,
        search: &mut ResumableBfs<P>,
        slice: u64,
    ) -> (Outcome<P::Move>, u64) {
        let budget = Budget::unlimited().with_node_limit(slice);
        let mut calls = 0;
        loop {
            calls += 1;
            let o = search.run(problem, &budget);
            if o.stopped != Some(BudgetExceeded::Nodes) {
                return (o, calls);
            }
            assert_eq!(o.lower_bound, search.lower_bound());
        }
    }

    #[test]
    fn slices_of_eight_puzzles_give_one_run_s_result_and_nodes() {
        let p = Eight::default();
        let mut rng = Rng::new(11);
        for k in 0..12 {
            let s = if k % 3 == 0 {
                Eight::random(&mut rng)
            } else {
                Eight::scrambled(&mut rng, 40)
            };
            let whole = bfs(&p, &s, &Budget::unlimited());
            let slice = 1 + rng.below(3000);
            let (o, calls) = in_slices(&p, &mut ResumableBfs::new(&p, &s), slice);
            assert_eq!(o.moves, whole.moves, "puzzle {k}");
            assert_eq!(o.nodes, whole.nodes, "puzzle {k}");
            assert_eq!(o.proven_unsolvable, whole.proven_unsolvable);
            assert_eq!(o.proven_optimal, whole.proven_optimal);
            assert_eq!(calls, 1 + whole.nodes / slice, "puzzle {k}");
            if let Some(m) = &o.moves {
                assert!(wins(&p, &s, m));
            }
        }
    }

    #[test]
    fn slices_of_random_graphs_give_one_run_s_result_and_nodes() {
        let mut rng = Rng::new(5);
        for _ in 0..300 {
            let g = Graph::random(&mut rng, 60, 3, 25);
            let whole = bfs(&g, &0, &Budget::unlimited());
            let slice = 1 + rng.below(6);
            let (o, _) = in_slices(&g, &mut ResumableBfs::new(&g, &0), slice);
            assert_eq!((o.moves, o.nodes), (whole.moves, whole.nodes));
            assert_eq!(o.proven_unsolvable, g.dist[0] == u32::MAX);
        }
    }

    #[test]
    fn the_bound_grows_with_the_layers_and_never_passes_the_solution() {
        let p = Eight::default();
        let s = Eight::scrambled(&mut Rng::new(2), 300);
        let len = bfs(&p, &s, &Budget::unlimited()).len().unwrap() as u32;
        let mut search = ResumableBfs::new(&p, &s);
        let mut last = 0;
        let budget = Budget::unlimited().with_node_limit(500);
        while !search.is_settled() {
            let o = search.run(&p, &budget);
            assert!(o.lower_bound >= last && o.lower_bound <= len);
            last = o.lower_bound;
        }
        assert_eq!(search.lower_bound(), len);
        // Settled: a call expands nothing more.
        let again = search.run(&p, &budget);
        assert_eq!(
            (again.len(), again.nodes),
            (Some(len as usize), search.nodes())
        );
    }

    #[test]
    fn a_memory_limit_counts_the_tables_of_every_call() {
        let p = Eight::default();
        let s = Eight::scrambled(&mut Rng::new(9), 300);
        let mut search = ResumableBfs::new(&p, &s);
        search.run(&p, &Budget::unlimited().with_node_limit(20_000));
        let held = search.bytes();
        assert!(held > 0);
        let o = search.run(&p, &Budget::new(None, held));
        assert_eq!(o.stopped, Some(BudgetExceeded::Memory));
        assert_eq!(o.nodes, 20_000);
    }
}
