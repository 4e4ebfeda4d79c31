//! Generic A* with a bucketed open list, a node arena, a hash table of
//! arena indices, an incumbent and pathmax, plus hooks a game can use to
//! plug in its own pruning and bounds ([`AstarProblem`]).
//!
//! - Open list: [`BucketQueue`] by `f = g + h`, deepest first inside a
//!   bucket.
//! - Transposition table: [`IndexTable`] keyed by [`AstarProblem::hash64`]
//!   with exact equality ([`AstarProblem::same`]) against the state stored
//!   in the arena: a hash collision never merges two states. A state
//!   reached again with no smaller `g` is dropped; a shorter path re-opens
//!   it (the older node is marked dead).
//! - Incumbent: the best solution known (given, found as a goal child, by
//!   [`Problem::exact_completion`], or offered by
//!   [`AstarProblem::improve_incumbent`]); every node with
//!   `f >= incumbent length` is pruned.
//! - Pathmax: a child's `f` is at least its parent's.
//! - Goals are recognised when generated, so the search ends as soon as
//!   the smallest `f` on the open list reaches the incumbent.
//!
//! Guarantees (with an admissible bound): a finished search returns a
//! proven shortest solution, or proves there is none when the open list
//! runs dry without an incumbent. When a budget stops it, the lower bound
//! is the smallest `f` still open (at most the incumbent's length), and the
//! incumbent, if any, is returned (optimal only if it meets that bound).
//! [`Problem::prune_after`] is not used by the default successor function:
//! the table already drops undone moves, and move pruning is not sound
//! together with duplicate detection in general. A game's own
//! [`AstarProblem::successors`] may prune more when it knows it is safe.

use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};
use std::mem::{size_of, MaybeUninit};
use std::time::Instant;

use super::budget::{Budget, BudgetExceeded};
use super::outcome::Outcome;
use super::problem::{wins, Keyed, Problem};
use super::queue::BucketQueue;
use super::table::{IndexTable, Probe};

/// One search node in the arena: the state and 8 bytes of bookkeeping
/// (for a one-byte move), so a 56-byte state makes a 64-byte node.
struct Node<S, M> {
    state: S,
    parent: u32,
    /// Depth; [`MAX_DEPTH`] at most.
    g: u16,
    /// The move that led here; uninitialised only in the root (index 0),
    /// which never reads it.
    mv: MaybeUninit<M>,
    /// The tag [`AstarProblem::successors`] returned for the expansion that
    /// created this node (low 7 bits) and [`DEAD`].
    flags: u8,
}

/// Set in [`Node::flags`] when a shorter path to the node's state was found
/// later: the node is skipped when popped.
const DEAD: u8 = 0x80;

/// The deepest node the arena can hold; a search that needs deeper nodes
/// stops as if out of memory.
pub const MAX_DEPTH: u32 = u16::MAX as u32;

impl<S, M: Copy> Node<S, M> {
    fn last_move(&self, idx: u32) -> Option<M> {
        // SAFETY: every node but the root (index 0) is created with a move.
        (idx != 0).then(|| unsafe { self.mv.assume_init() })
    }
    fn dead(&self) -> bool {
        self.flags & DEAD != 0
    }
}

/// A read-only view of a node and its ancestors, given to
/// [`AstarProblem::successors`].
pub struct NodeView<'a, P: Problem> {
    arena: &'a [Node<P::State, P::Move>],
    idx: u32,
}

impl<P: Problem> Clone for NodeView<'_, P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P: Problem> Copy for NodeView<'_, P> {}

impl<'a, P: Problem> NodeView<'a, P> {
    /// The node's state.
    pub fn state(&self) -> &'a P::State {
        &self.arena[self.idx as usize].state
    }

    /// Moves from the start.
    pub fn g(&self) -> u32 {
        self.arena[self.idx as usize].g as u32
    }

    /// The move that led here (`None` at the start).
    pub fn last_move(&self) -> Option<P::Move> {
        self.arena[self.idx as usize].last_move(self.idx)
    }

    /// The tag returned by the expansion that created this node (0 at the
    /// start).
    pub fn tag(&self) -> u8 {
        self.arena[self.idx as usize].flags & !DEAD
    }

    /// The parent node (`None` at the start).
    pub fn parent(&self) -> Option<NodeView<'a, P>> {
        (self.idx != 0).then(|| NodeView {
            arena: self.arena,
            idx: self.arena[self.idx as usize].parent,
        })
    }

    /// The moves from the start to this node.
    pub fn path(&self) -> Vec<P::Move> {
        path(self.arena, self.idx)
    }
}

/// Hooks of the generic A*; every one has a default built from
/// [`Problem`] and [`Keyed`], so `impl AstarProblem for X {}` is enough.
pub trait AstarProblem: Keyed {
    /// A 64-bit hash of `state` for the table (default: FxHash of the key).
    fn hash64(&self, state: &Self::State) -> u64 {
        let mut h = FxHasher::default();
        self.key(state).hash(&mut h);
        h.finish()
    }

    /// Exact equality of two states for duplicate detection (default: equal
    /// keys).
    fn same(&self, a: &Self::State, b: &Self::State) -> bool {
        self.key(a) == self.key(b)
    }

    /// Appends the children of `node` to `out` as (move, state). May look
    /// at the ancestors to prune (commutations, dominance), as long as
    /// every shortest solution keeps a representative. Returns a tag (7
    /// bits: values below 128) stored in each child (e.g. "my siblings were not generated"). `scratch` is
    /// an empty buffer to reuse. Default: every legal move, tag 0.
    fn successors(
        &self,
        node: NodeView<'_, Self>,
        scratch: &mut Vec<Self::Move>,
        out: &mut Vec<(Self::Move, Self::State)>,
    ) -> u8
    where
        Self: Sized,
    {
        let s = node.state();
        self.moves(s, scratch);
        out.extend(scratch.iter().map(|&m| (m, self.apply(s, m))));
        0
    }

    /// The exact completion of a child made by the latest call of
    /// [`AstarProblem::successors`] with move `mv`: an empty one when the
    /// child is a goal, `None` when none is known. Called once for each of
    /// those children, before the next expansion, so a problem may keep
    /// what it worked out for the parent in that call and what it works
    /// out here for [`AstarProblem::child_bound`]. Default: empty when
    /// [`Problem::is_goal`], else [`Problem::exact_completion`].
    fn child_completion(&self, mv: Self::Move, state: &Self::State) -> Option<Vec<Self::Move>> {
        let _ = mv;
        if self.is_goal(state) {
            return Some(Vec::new());
        }
        self.exact_completion(state)
    }

    /// The admissible bound of such a child, capped at `cap` (as
    /// [`Problem::capped_bound`], its default). Called only for children
    /// whose [`AstarProblem::child_completion`] returned `None` in the same
    /// expansion, after it.
    fn child_bound(&self, mv: Self::Move, state: &Self::State, cap: u32) -> u32 {
        let _ = mv;
        self.capped_bound(state, cap)
    }

    /// Called before each expansion with the number of nodes expanded so
    /// far, the incumbent's length (`u32::MAX` when none) and the proven
    /// bound; may return a better full solution from the start (it is
    /// checked with [`wins`] before use).
    fn improve_incumbent(
        &self,
        _nodes: u64,
        _incumbent: u32,
        _bound: u32,
    ) -> Option<Vec<Self::Move>> {
        None
    }

    /// When a budget stops the search: a (not necessarily shortest)
    /// completion from the most promising open state, to improve the
    /// incumbent. Default: none.
    fn greedy_completion(&self, _state: &Self::State) -> Option<Vec<Self::Move>> {
        None
    }
}

fn path<S, M: Copy>(arena: &[Node<S, M>], mut idx: u32) -> Vec<M> {
    let mut moves = Vec::new();
    while let Some(m) = arena[idx as usize].last_move(idx) {
        moves.push(m);
        idx = arena[idx as usize].parent;
    }
    moves.reverse();
    moves
}

/// Settings of [`astar_with`].
#[derive(Debug, Clone)]
pub struct Config<M> {
    /// A known solution (ignored unless it wins).
    pub incumbent: Option<Vec<M>>,
    /// Expansions between two budget checks.
    pub check_every: u64,
}

impl<M> Default for Config<M> {
    fn default() -> Self {
        Config {
            incumbent: None,
            check_every: 256,
        }
    }
}

/// A shortest solution from `start` by A* with the default [`Config`].
pub fn astar<P: AstarProblem>(problem: &P, start: &P::State, budget: &Budget) -> Outcome<P::Move> {
    astar_with(problem, start, budget, &Config::default())
}

/// A* with explicit settings.
pub fn astar_with<P: AstarProblem>(
    problem: &P,
    start: &P::State,
    budget: &Budget,
    config: &Config<P::Move>,
) -> Outcome<P::Move> {
    let t0 = Instant::now();
    let mut best: Option<Vec<P::Move>> =
        config.incumbent.clone().filter(|m| wins(problem, start, m));
    let best_len = |b: &Option<Vec<P::Move>>| b.as_ref().map_or(u32::MAX, |m| m.len() as u32);
    if problem.is_goal(start) {
        return Outcome::optimal(Vec::new(), 0, t0.elapsed());
    }
    let h0 = problem.capped_bound(start, best_len(&best));
    let mut lb = h0;
    let mut nodes = 0u64;
    if let Some(c) = problem.exact_completion(start) {
        if c.len() as u32 <= best_len(&best) {
            return Outcome::optimal(c, 0, t0.elapsed());
        }
    }
    if lb >= best_len(&best) {
        return match best {
            Some(m) => Outcome::optimal(m, 0, t0.elapsed()),
            // An admissible bound of u32::MAX: no solution at all.
            None => Outcome::unsolvable(0, t0.elapsed()),
        };
    }
    let mut arena: Vec<Node<P::State, P::Move>> = Vec::with_capacity(1024);
    arena.push(Node {
        state: start.clone(),
        parent: 0,
        g: 0,
        mv: MaybeUninit::uninit(),
        flags: 0,
    });
    let mut seen = IndexTable::with_capacity(8192);
    let h = problem.hash64(start);
    if let Probe::Vacant(slot) = seen.find(h, |_| false) {
        seen.insert(slot, h, 0);
    }
    let mut open: BucketQueue<u32> = BucketQueue::new();
    open.push(h0 as usize, 0, 0);
    let node_bytes = size_of::<Node<P::State, P::Move>>();
    let mut stopped = None;
    let mut succ: Vec<(P::Move, P::State)> = Vec::with_capacity(16);
    let mut hashes: Vec<Option<u64>> = Vec::with_capacity(16);
    let mut scratch: Vec<P::Move> = Vec::with_capacity(16);
    let check_every = config.check_every.max(1);

    while let Some((fv, gv, idx)) = open.pop() {
        let fv = fv as u32;
        if fv >= best_len(&best) {
            lb = best_len(&best);
            break;
        }
        lb = lb.max(fv);
        if arena[idx as usize].dead() {
            continue;
        }
        if nodes.is_multiple_of(check_every) || nodes >= budget.node_limit() {
            let held = arena.capacity() * node_bytes + seen.bytes() + open.bytes();
            if let Err(e) = budget.check_nodes(nodes, held) {
                stopped = Some(e);
                open.push(fv as usize, gv, idx);
                break;
            }
        }
        nodes += 1;
        if let Some(m) = problem.improve_incumbent(nodes, best_len(&best), lb) {
            if (m.len() as u32) < best_len(&best) && wins(problem, start, &m) {
                open.truncate_f(m.len());
                best = Some(m);
                if best_len(&best) <= lb {
                    break;
                }
            }
        }
        let ng = gv as u32 + 1;
        succ.clear();
        scratch.clear();
        let tag = problem.successors(NodeView { arena: &arena, idx }, &mut scratch, &mut succ);
        // Pass 1: goals and exact completions (a goal is a child with an
        // empty completion); prefetch table slots. The children stay in
        // `succ`; `hashes` marks the ones to look up.
        hashes.clear();
        for (mv, state) in succ.iter() {
            if let Some(c) = problem.child_completion(*mv, state) {
                let len = ng + c.len() as u32;
                if len < best_len(&best) {
                    let mut p = path(&arena, idx);
                    p.push(*mv);
                    p.extend(c);
                    best = Some(p);
                    open.truncate_f(len as usize);
                }
                hashes.push(None);
                continue;
            }
            let hash = problem.hash64(state);
            seen.prefetch(hash);
            hashes.push(Some(hash));
        }
        // Pass 2: table lookups, bounds, pushes.
        // The children are read in place; only one that is kept is copied
        // (into the arena).
        for ((mv, state), hash) in succ.iter().zip(hashes.iter()) {
            let Some(hash) = *hash else { continue };
            let probe = seen.find(hash, |i| problem.same(&arena[i as usize].state, state));
            if let Probe::Found(_, j) = probe {
                if arena[j as usize].g as u32 <= ng {
                    continue;
                }
            }
            let bl = best_len(&best);
            let h = problem.child_bound(*mv, state, bl.saturating_sub(ng));
            let nfv = ng.saturating_add(h).max(fv);
            if nfv >= bl {
                continue;
            }
            if ng > MAX_DEPTH {
                stopped = Some(BudgetExceeded::Memory);
                break;
            }
            if arena.len() == arena.capacity() || seen.bytes_after_growth() > seen.bytes() {
                let grow = if arena.len() == arena.capacity() {
                    2
                } else {
                    1
                };
                let after = arena.capacity() * node_bytes * grow
                    + seen.bytes_after_growth()
                    + seen.bytes()
                    + open.bytes();
                if budget.check(after).is_err() {
                    stopped = Some(BudgetExceeded::Memory);
                    break;
                }
            }
            let new = arena.len() as u32;
            arena.push(Node {
                state: state.clone(),
                parent: idx,
                g: ng as u16,
                mv: MaybeUninit::new(*mv),
                flags: tag & !DEAD,
            });
            match probe {
                Probe::Found(slot, j) => {
                    arena[j as usize].flags |= DEAD;
                    seen.replace(slot, new);
                }
                Probe::Vacant(slot) => seen.insert(slot, hash, new),
            }
            open.push(nfv as usize, ng as usize, new);
        }
        if stopped.is_some() {
            open.push(fv as usize, gv, idx);
            break;
        }
        if best_len(&best) <= lb {
            break;
        }
    }
    let elapsed = t0.elapsed();
    if let Some(why) = stopped {
        if let Some(f) = open.min_f() {
            lb = lb.max(f as u32);
        }
        // Complete the most promising open node, if the problem can.
        while let Some((_, _, idx)) = open.pop() {
            let n = &arena[idx as usize];
            if n.dead() {
                continue;
            }
            if let Some(c) = problem.greedy_completion(&n.state) {
                let mut p = path(&arena, idx);
                p.extend(c);
                if (p.len() as u32) < best_len(&best) && wins(problem, start, &p) {
                    best = Some(p);
                }
            }
            break;
        }
        return Outcome::stopped(best, lb, why, nodes, t0.elapsed());
    }
    match best {
        // The open list ran dry or its smallest f reached the incumbent.
        Some(m) => Outcome::optimal(m, nodes, elapsed),
        None => Outcome::unsolvable(nodes, elapsed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::bfs::{bfs, bfs_distances};
    use crate::solver::testing::{Eight, Graph, Rng};

    impl AstarProblem for Eight {}
    impl AstarProblem for Graph {}

    /// A graph that knows its exact completions near the goal and offers
    /// an incumbent after a few expansions.
    struct Hinted(Graph);

    impl Problem for Hinted {
        type State = u32;
        type Move = u8;
        fn exact_completion(&self, s: &u32) -> Option<Vec<u8>> {
            (self.0.dist[*s as usize] <= 1)
                .then(|| self.descend(*s))
                .flatten()
        }
        fn moves(&self, s: &u32, out: &mut Vec<u8>) {
            self.0.moves(s, out)
        }
        fn apply(&self, s: &u32, m: u8) -> u32 {
            self.0.apply(s, m)
        }
        fn is_goal(&self, s: &u32) -> bool {
            self.0.is_goal(s)
        }
        fn lower_bound(&self, s: &u32) -> u32 {
            self.0.lower_bound(s)
        }
    }
    impl Keyed for Hinted {
        type Key = u32;
        fn key(&self, s: &u32) -> u32 {
            *s
        }
    }

    impl Hinted {
        /// The shortest path from `s`, following decreasing distances.
        fn descend(&self, mut s: u32) -> Option<Vec<u8>> {
            let g = &self.0;
            if g.dist[s as usize] == u32::MAX {
                return None;
            }
            let mut p = Vec::new();
            while g.dist[s as usize] > 0 {
                let d = g.dist[s as usize];
                let (i, &t) = g.edges[s as usize]
                    .iter()
                    .enumerate()
                    .find(|(_, &t)| g.dist[t as usize] == d - 1)?;
                p.push(i as u8);
                s = t;
            }
            Some(p)
        }
    }

    impl AstarProblem for Hinted {
        fn improve_incumbent(&self, nodes: u64, _: u32, _: u32) -> Option<Vec<u8>> {
            // A deliberately long detour (not shorter, so rejected) or the
            // true path: both must be handled honestly.
            if nodes == 2 {
                let mut p = self.descend(0)?;
                p.insert(0, 0);
                Some(p)
            } else {
                None
            }
        }
    }

    #[test]
    fn nodes_are_the_state_plus_8_bytes() {
        assert_eq!(size_of::<Node<[u64; 7], u8>>(), 64);
    }

    #[test]
    fn eight_puzzle_lengths_match_bfs() {
        let md = Eight { manhattan: true };
        let dist = bfs_distances(&md, &Eight::goal(), &Budget::unlimited());
        let mut rng = Rng::new(51);
        for i in 0..60 {
            let s = Eight::scrambled(&mut rng, 100);
            let o = astar(&md, &s, &Budget::unlimited());
            assert!(o.proven_optimal, "instance {i}");
            assert_eq!(o.len(), Some(dist.depth[&s] as usize), "instance {i}");
            assert!(wins(&md, &s, o.moves.as_ref().unwrap()));
        }
    }

    #[test]
    fn graph_verdicts_match_bfs() {
        let mut rng = Rng::new(52);
        for i in 0..500 {
            let mut g = Graph::random(&mut rng, 40, 3, 15);
            g.informed = i % 2 == 0;
            let exact = bfs(&g, &0, &Budget::unlimited());
            let o = astar(&g, &0, &Budget::unlimited());
            assert_eq!(o.proven_unsolvable, exact.proven_unsolvable, "instance {i}");
            assert_eq!(o.len(), exact.len(), "instance {i}");
            let h = Hinted(g.clone());
            let o = astar(&h, &0, &Budget::unlimited());
            assert_eq!(o.proven_unsolvable, exact.proven_unsolvable, "instance {i}");
            assert_eq!(o.len(), exact.len(), "instance {i}");
            if let Some(m) = &o.moves {
                assert!(o.proven_optimal && wins(&g, &0, m));
            }
        }
    }

    #[test]
    fn incumbent_and_budget_are_honest() {
        let md = Eight { manhattan: true };
        let mut rng = Rng::new(53);
        for _ in 0..10 {
            let s = Eight::scrambled(&mut rng, 300);
            let exact = bfs(&md, &s, &Budget::unlimited()).moves.unwrap();
            // A known optimal incumbent is proven without finding another.
            let cfg = Config {
                incumbent: Some(exact.clone()),
                ..Config::default()
            };
            let o = astar_with(&md, &s, &Budget::unlimited(), &cfg);
            assert!(o.proven_optimal);
            assert_eq!(o.moves.as_ref(), Some(&exact));
            // Stopped early: a bound no larger than the optimum.
            let o = astar(&md, &s, &Budget::unlimited().with_node_limit(50));
            assert_eq!(o.stopped, Some(BudgetExceeded::Nodes));
            assert!(o.lower_bound as usize <= exact.len());
            if let Some(m) = &o.moves {
                assert!(wins(&md, &s, m));
            }
        }
    }
}
