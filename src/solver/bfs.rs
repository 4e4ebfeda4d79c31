//! Breadth-first search with exact duplicate detection.
//!
//! - [`count_reachable`]: how many distinct states are reachable, the
//!   deepest BFS layer and how many of them are goals (the difficulty
//!   measure of the GVGP and Fling! papers), with the budget's node limit
//!   as a cap that reports `exhausted = false` when hit. Fling!'s
//!   `analyse` is its user.
//! - [`bfs`]: a shortest solution (every move costs one), or a
//!   proof that none exists once every reachable state has been expanded:
//!   the oracle every engine and game solver is checked against, and
//!   PuzzleScript's solver (its games give no heuristic to trust). A state
//!   whose [`Keyed::key`] was seen before is not expanded again; keys are
//!   compared exactly, so a hash collision never prunes anything. Its
//!   loop is [`ResumableBfs`]'s, which can also be paused and resumed.
//! - [`bfs_without_duplicates`]: the same search as a tree, every
//!   generated state a new node: what duplicate detection saves (the
//!   general-video-game-playing seed's figure: the depth a node budget
//!   reaches with and without it).
//! - `bfs_distances` (tests only): the map from each reachable key to its
//!   depth, for exhaustive checks on small boards.
//!
//! Rush Hour keeps its own breadth-first loops over packed positions (see
//! the catalogue in [`crate::solver`]).
//!
//! Goals are tested when a state is generated, so `bfs` stops one layer
//! early. When a budget stops it, the proven lower bound is one more than
//! the depth of the layer being expanded (every shallower state was
//! generated and none was a goal).

use rustc_hash::FxHashSet;
#[cfg(test)]
use std::collections::HashMap;
#[cfg(test)]
use std::hash::BuildHasherDefault;
use std::mem::size_of;

use super::budget::{Budget, BudgetExceeded, Pacer};
use super::outcome::Outcome;
use super::problem::{Keyed, Problem};
use super::resumable_bfs::ResumableBfs;

/// How often (in expanded nodes) the engines consult the budget clock.
const CHECK_EVERY: u64 = 1024;

/// A shortest solution from `start`, or a proof that there is none: a
/// [`ResumableBfs`] run once within `budget`.
pub fn bfs<P: Keyed>(problem: &P, start: &P::State, budget: &Budget) -> Outcome<P::Move> {
    ResumableBfs::new(problem, start).run(problem, budget)
}

/// [`bfs`] without duplicate detection: a state reached again is searched
/// again, so the search is a tree of `moves` per node. The outcome follows
/// the same rules (a stopped search's bound is one more than the depth of
/// the layer being expanded); it never proves unsolvability on a
/// problem with cycles, since its tree is then endless.
pub fn bfs_without_duplicates<P: Problem>(
    problem: &P,
    start: &P::State,
    budget: &Budget,
) -> Outcome<P::Move> {
    let tree = Tree {
        inner: problem,
        made: std::cell::Cell::new(0),
    };
    bfs(&tree, &(start.clone(), 0), budget)
}

/// A problem whose every generated state is distinct: the state numbered
/// in the order of generation (for [`bfs_without_duplicates`]).
struct Tree<'a, P> {
    inner: &'a P,
    made: std::cell::Cell<u64>,
}

impl<P: Problem> Problem for Tree<'_, P> {
    type State = (P::State, u64);
    type Move = P::Move;
    fn moves(&self, s: &Self::State, out: &mut Vec<P::Move>) {
        self.inner.moves(&s.0, out)
    }
    fn apply(&self, s: &Self::State, mv: P::Move) -> Self::State {
        self.made.set(self.made.get() + 1);
        (self.inner.apply(&s.0, mv), self.made.get())
    }
    fn is_goal(&self, s: &Self::State) -> bool {
        self.inner.is_goal(&s.0)
    }
    fn lower_bound(&self, s: &Self::State) -> u32 {
        self.inner.lower_bound(&s.0)
    }
}

impl<P: Problem> Keyed for Tree<'_, P> {
    type Key = u64;
    fn key(&self, s: &Self::State) -> u64 {
        s.1
    }
}

/// The size of a reachable state space, as [`count_reachable`] measured it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reachable {
    /// Distinct states reached (the start included).
    pub states: u64,
    /// The deepest BFS layer reached (the largest shortest distance from
    /// the start when `exhausted`).
    pub max_depth: u32,
    /// True when every reachable state was expanded: `states` is exact.
    pub exhausted: bool,
    /// How many of the states reached are goals.
    pub goals: u64,
    /// Which budget ended the count early, if one did.
    pub stopped: Option<BudgetExceeded>,
}

/// Counts the states reachable from `start` (goal states are counted and
/// expanded like any other). The budget's node limit caps the number of
/// expanded states; when it (or time or memory) runs out the counts are
/// those reached so far and `exhausted` is false.
///
/// The numbers 0 to 9 under `+3` and `+5` modulo 10, from 0 (goal: 7):
///
/// ```
/// use gridbot::solver::{count_reachable, Budget, Keyed, Problem};
///
/// struct Dial;
/// impl Problem for Dial {
///     type State = u8;
///     type Move = u8;
///     fn moves(&self, _: &u8, out: &mut Vec<u8>) {
///         out.extend([3, 5]);
///     }
///     fn apply(&self, s: &u8, step: u8) -> u8 {
///         (s + step) % 10
///     }
///     fn is_goal(&self, s: &u8) -> bool {
///         *s == 7
///     }
/// }
/// impl Keyed for Dial {
///     type Key = u8;
///     fn key(&self, s: &u8) -> u8 {
///         *s
///     }
/// }
///
/// let r = count_reachable(&Dial, &0, &Budget::unlimited());
/// assert_eq!((r.states, r.goals, r.exhausted), (10, 1, true));
/// assert_eq!(r.max_depth, 5); // 7 is the farthest: 0, 5, 8, 1, 4, 7
/// ```
pub fn count_reachable<P: Keyed>(problem: &P, start: &P::State, budget: &Budget) -> Reachable {
    let mut goals = 0u64;
    let walk = layered(problem, start, budget, |s, _| {
        if problem.is_goal(s) {
            goals += 1;
        }
    });
    Reachable {
        states: walk.states,
        max_depth: walk.max_depth,
        exhausted: walk.stopped.is_none(),
        goals,
        stopped: walk.stopped,
    }
}

/// Depths of reachable states, as [`bfs_distances`] found them.
#[cfg(test)]
#[derive(Debug, Clone)]
pub struct Distances<K> {
    /// Each key reached and its shortest distance from the start.
    pub depth: HashMap<K, u32, BuildHasherDefault<rustc_hash::FxHasher>>,
    /// True when every reachable state is in `depth`.
    pub exhausted: bool,
    /// Which budget ended the walk early, if one did.
    pub stopped: Option<BudgetExceeded>,
}

/// The shortest distance from `start` to every reachable state, keyed by
/// [`Keyed::key`]. Same budget rules as [`count_reachable`]; when stopped,
/// the map holds the states reached so far with their exact depths.
#[cfg(test)]
pub fn bfs_distances<P: Keyed>(
    problem: &P,
    start: &P::State,
    budget: &Budget,
) -> Distances<P::Key> {
    let mut depth = HashMap::default();
    let walk = layered(problem, start, budget, |s, d| {
        depth.insert(problem.key(s), d);
    });
    Distances {
        depth,
        exhausted: walk.stopped.is_none(),
        stopped: walk.stopped,
    }
}

struct Walk {
    states: u64,
    max_depth: u32,
    stopped: Option<BudgetExceeded>,
}

/// Layer-by-layer walk of every reachable state; `visit(state, depth)` is
/// called once per distinct state when it is first reached.
fn layered<P: Keyed>(
    problem: &P,
    start: &P::State,
    budget: &Budget,
    mut visit: impl FnMut(&P::State, u32),
) -> Walk {
    let mut seen: FxHashSet<P::Key> = FxHashSet::default();
    seen.insert(problem.key(start));
    let mut pacer = Pacer::default();
    visit(start, 0);
    let mut frontier = vec![start.clone()];
    let mut next_layer = Vec::new();
    let mut depth = 0u32;
    let mut nodes = 0u64;
    let mut moves = Vec::new();
    while !frontier.is_empty() {
        let frontier_bytes = frontier.capacity() * size_of::<P::State>();
        for state in frontier.drain(..) {
            if nodes.is_multiple_of(CHECK_EVERY)
                || nodes >= budget.node_limit()
                || pacer.time_up(budget, nodes)
            {
                let bytes = seen.capacity() * (size_of::<P::Key>() + 1)
                    + next_layer.capacity() * size_of::<P::State>()
                    + frontier_bytes;
                if let Err(why) = budget.check_nodes(nodes, budget.held(seen.len(), bytes)) {
                    return Walk {
                        states: seen.len() as u64,
                        max_depth: if next_layer.is_empty() {
                            depth
                        } else {
                            depth + 1
                        },
                        stopped: Some(why),
                    };
                }
            }
            nodes += 1;
            moves.clear();
            problem.moves(&state, &mut moves);
            for &mv in &moves {
                let child = problem.apply(&state, mv);
                if seen.insert(problem.key(&child)) {
                    visit(&child, depth + 1);
                    next_layer.push(child);
                }
            }
        }
        if next_layer.is_empty() {
            break;
        }
        depth += 1;
        std::mem::swap(&mut frontier, &mut next_layer);
    }
    Walk {
        states: seen.len() as u64,
        max_depth: depth,
        stopped: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::problem::wins;
    use crate::solver::testing::{Eight, Graph, Rng};

    #[test]
    fn eight_puzzle_space_has_181440_states_and_diameter_31() {
        let r = count_reachable(&Eight::default(), &Eight::goal(), &Budget::unlimited());
        assert_eq!(r.states, 181_440);
        assert_eq!(r.max_depth, 31);
        assert!(r.exhausted);
        assert_eq!(r.goals, 1);
        let d = bfs_distances(&Eight::default(), &Eight::goal(), &Budget::unlimited());
        assert_eq!(d.depth.len(), 181_440);
        assert_eq!(d.depth.values().filter(|&&x| x == 31).count(), 2);
    }

    #[test]
    fn node_cap_reports_not_exhausted() {
        let b = Budget::unlimited().with_node_limit(1000);
        let r = count_reachable(&Eight::default(), &Eight::goal(), &b);
        assert!(!r.exhausted);
        assert_eq!(r.stopped, Some(BudgetExceeded::Nodes));
        assert!(r.states > 1000 && r.states < 181_440);
    }

    #[test]
    fn bfs_agrees_with_the_distance_map() {
        let p = Eight::default();
        // Distances from the goal equal distances to it (moves are reversible).
        let d = bfs_distances(&p, &Eight::goal(), &Budget::unlimited());
        let mut rng = Rng::new(1);
        for _ in 0..30 {
            let s = Eight::random(&mut rng);
            let o = bfs(&p, &s, &Budget::unlimited());
            match d.depth.get(&s) {
                Some(&want) => {
                    assert!(o.proven_optimal);
                    assert_eq!(o.len(), Some(want as usize));
                    assert!(wins(&p, &s, o.moves.as_ref().unwrap()));
                }
                None => {
                    assert!(o.proven_unsolvable);
                    assert_eq!(o.nodes, 181_440);
                }
            }
        }
    }

    #[test]
    fn bfs_matches_graph_distances() {
        let mut rng = Rng::new(7);
        for _ in 0..300 {
            let g = Graph::random(&mut rng, 40, 3, 15);
            let o = bfs(&g, &0, &Budget::unlimited());
            match g.dist[0] {
                u32::MAX => assert!(o.proven_unsolvable),
                d => {
                    assert_eq!(o.len(), Some(d as usize));
                    assert!(o.proven_optimal && wins(&g, &0, o.moves.as_ref().unwrap()));
                }
            }
        }
    }

    #[test]
    fn the_tree_search_finds_the_same_lengths_with_more_nodes() {
        let p = Eight::default();
        let mut rng = Rng::new(4);
        let mut nodes = (0, 0);
        for _ in 0..5 {
            let s = Eight::scrambled(&mut rng, 8);
            let o = bfs(&p, &s, &Budget::unlimited());
            let t = bfs_without_duplicates(&p, &s, &Budget::unlimited());
            assert_eq!(t.len(), o.len());
            assert!(t.proven_optimal && wins(&p, &s, t.moves.as_ref().unwrap()));
            nodes = (nodes.0 + o.nodes, nodes.1 + t.nodes);
        }
        assert_eq!(nodes, (49, 80));
        // The same node budget reaches a shallower depth.
        let s = Eight::scrambled(&mut rng, 200);
        let b = Budget::unlimited().with_node_limit(5000);
        let (o, t) = (bfs(&p, &s, &b), bfs_without_duplicates(&p, &s, &b));
        assert!(
            t.lower_bound < o.lower_bound,
            "{} {}",
            t.lower_bound,
            o.lower_bound
        );
    }

    #[test]
    fn a_stopped_bfs_keeps_an_honest_bound() {
        let p = Eight::default();
        let mut rng = Rng::new(3);
        let s = Eight::scrambled(&mut rng, 200);
        let full = bfs(&p, &s, &Budget::unlimited());
        let o = bfs(&p, &s, &Budget::unlimited().with_node_limit(500));
        assert_eq!(o.stopped, Some(BudgetExceeded::Nodes));
        assert!(o.moves.is_none());
        assert!(o.lower_bound >= 1 && o.lower_bound <= full.len().unwrap() as u32);
    }
}
