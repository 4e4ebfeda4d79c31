//! Generic A* with a bucketed open list, a node arena, a hash table of
//! arena indices, an incumbent and pathmax, plus hooks a game can use to
//! plug in its own pruning and bounds ([`AstarProblem`]).
//!
//! - Open list: [`BucketQueue`] by `f = g + h`, deepest first inside a
//!   bucket.
//! - Transposition table: [`IndexTable`] keyed by the FxHash of
//!   [`Keyed::key`], with exact key equality against the state stored in
//!   the arena: a hash collision never merges two states. A state
//!   reached again with no smaller `g` is dropped; a shorter path re-opens
//!   it (the older node is marked dead).
//! - Incumbent: the best solution known (given, found as a goal child, by
//!   [`Problem::exact_completion`], or offered by
//!   [`AstarProblem::improve_incumbent`]); every node with
//!   `f >= incumbent length` is pruned.
//! - Pathmax: a child's `f` is at least its parent's (not in
//!   [`weighted_astar`], whose weighted bound would be undone by it).
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
use std::time::{Duration, Instant};

use super::budget::{Budget, BudgetExceeded, Pacer};
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
///
/// A walk on an open 5x5 grid from a corner to the opposite one, with the
/// Manhattan distance as the bound (the defaults of [`AstarProblem`] are
/// enough):
///
/// ```
/// use gridbot::solver::{astar, AstarProblem, Budget, Keyed, Problem};
///
/// struct Grid;
/// impl Problem for Grid {
///     type State = (i8, i8);
///     type Move = (i8, i8);
///     fn moves(&self, &(x, y): &(i8, i8), out: &mut Vec<(i8, i8)>) {
///         let steps = [(1, 0), (0, 1), (-1, 0), (0, -1)];
///         out.extend(steps.into_iter().filter(|&(dx, dy)| {
///             (0..5).contains(&(x + dx)) && (0..5).contains(&(y + dy))
///         }));
///     }
///     fn apply(&self, &(x, y): &(i8, i8), (dx, dy): (i8, i8)) -> (i8, i8) {
///         (x + dx, y + dy)
///     }
///     fn is_goal(&self, s: &(i8, i8)) -> bool {
///         *s == (4, 4)
///     }
///     fn lower_bound(&self, &(x, y): &(i8, i8)) -> u32 {
///         (8 - x - y) as u32
///     }
/// }
/// impl Keyed for Grid {
///     type Key = (i8, i8);
///     fn key(&self, s: &(i8, i8)) -> (i8, i8) {
///         *s
///     }
/// }
/// impl AstarProblem for Grid {}
///
/// let o = astar(&Grid, &(0, 0), &Budget::unlimited());
/// assert_eq!(o.len(), Some(8));
/// assert!(o.proven_optimal);
/// assert_eq!(o.nodes, 8); // the bound is exact: one expansion a step
/// ```
pub fn astar<P: AstarProblem>(problem: &P, start: &P::State, budget: &Budget) -> Outcome<P::Move> {
    astar_with(problem, start, budget, &Config::default())
}

/// A* with explicit settings.
pub fn astar_with<P: AstarProblem>(
    problem: &P,
    start: &P::State,
    budget: &Budget,
    settings: &Config<P::Move>,
) -> Outcome<P::Move> {
    run_astar(problem, start, budget, settings, false)
}

/// A* as [`astar_with`]; with `first`, weighted A*: no pathmax, and it
/// stops at the first solution found (then unproven, whatever the outcome
/// says).
fn run_astar<P: AstarProblem>(
    problem: &P,
    start: &P::State,
    budget: &Budget,
    settings: &Config<P::Move>,
    first: bool,
) -> Outcome<P::Move> {
    let t0 = Instant::now();
    let best = settings
        .incumbent
        .clone()
        .filter(|m| wins(problem, start, m));
    let h0 = match start_bound(problem, start, &best, t0) {
        Ok(h0) => h0,
        Err(settled) => return settled,
    };
    let mut search = Search::new(problem, start, budget.clone(), best, h0);
    search.weighted = first;
    let stopped = search.run(settings.check_every.max(1));
    search.finish(stopped, t0)
}

/// Weighted A*: [`astar`] ordered by `f = g + weight * h`, stopping at
/// the first solution found (with `weight` above 1), which expands fewer
/// nodes and finds longer solutions (at most `weight` times the shortest
/// when the bound is admissible). The problem's own
/// [`AstarProblem`] hooks are not used (the defaults are). A solution is
/// called optimal only when it meets the start's unweighted bound; a
/// search that runs dry still proves that there is no solution. `weight`
/// 1 is plain A* (with the defaults).
///
/// ```
/// use gridbot::solver::{astar::weighted_astar, Budget, Keyed, Problem};
///
/// // From 0 to 12 on a line, steps of 1 or 5 (the bound: steps of 5).
/// struct Line;
/// impl Problem for Line {
///     type State = i32;
///     type Move = i32;
///     fn moves(&self, _: &i32, out: &mut Vec<i32>) {
///         out.extend([5, 1, -1]);
///     }
///     fn apply(&self, s: &i32, m: i32) -> i32 {
///         s + m
///     }
///     fn is_goal(&self, s: &i32) -> bool {
///         *s == 12
///     }
///     fn lower_bound(&self, s: &i32) -> u32 {
///         (12 - s).unsigned_abs().div_ceil(5)
///     }
/// }
/// impl Keyed for Line {
///     type Key = i32;
///     fn key(&self, s: &i32) -> i32 {
///         *s
///     }
/// }
/// let o = weighted_astar(&Line, &0, &Budget::unlimited(), 3);
/// assert_eq!(o.len(), Some(4)); // 5 + 5 + 1 + 1
/// assert!(!o.proven_optimal); // the start's bound is 3
/// ```
pub fn weighted_astar<P: Keyed>(
    problem: &P,
    start: &P::State,
    budget: &Budget,
    weight: u32,
) -> Outcome<P::Move> {
    let w = Weighted::new(problem, weight);
    let o = run_astar(&w, start, budget, &Config::default(), weight > 1);
    w.claims(start, o)
}

/// A problem whose bound is another's times `weight` (for [`weighted_astar`]
/// and [`ResumableAstar`]).
pub struct Weighted<'a, P> {
    inner: &'a P,
    weight: u32,
}

impl<'a, P: Keyed> Weighted<'a, P> {
    /// `inner` with its bound times `weight` (at least 1).
    pub fn new(inner: &'a P, weight: u32) -> Self {
        Weighted {
            inner,
            weight: weight.max(1),
        }
    }

    /// What a search on this problem from `start` proved about the inner
    /// one: with a weight above 1, a solution is shortest only when it
    /// meets the inner bound of the start, which is the proven bound; a
    /// search that ran dry still proves there is no solution.
    pub fn claims(&self, start: &P::State, mut o: Outcome<P::Move>) -> Outcome<P::Move> {
        if self.weight > 1 && !o.proven_unsolvable {
            let bound = self.inner.lower_bound(start);
            o.lower_bound = o
                .moves
                .as_ref()
                .map_or(bound, |m| bound.min(m.len() as u32));
            o.proven_optimal = o.len().is_some_and(|n| n as u32 <= bound);
        }
        o
    }
}

impl<P: Keyed> Problem for Weighted<'_, P> {
    type State = P::State;
    type Move = P::Move;
    fn moves(&self, s: &P::State, out: &mut Vec<P::Move>) {
        self.inner.moves(s, out)
    }
    fn is_legal(&self, s: &P::State, mv: P::Move) -> bool {
        self.inner.is_legal(s, mv)
    }
    fn apply(&self, s: &P::State, mv: P::Move) -> P::State {
        self.inner.apply(s, mv)
    }
    fn is_goal(&self, s: &P::State) -> bool {
        self.inner.is_goal(s)
    }
    fn lower_bound(&self, s: &P::State) -> u32 {
        self.inner.lower_bound(s).saturating_mul(self.weight)
    }
    fn exact_completion(&self, s: &P::State) -> Option<Vec<P::Move>> {
        self.inner.exact_completion(s)
    }
}

impl<P: Keyed> Keyed for Weighted<'_, P> {
    type Key = P::Key;
    fn key(&self, s: &P::State) -> P::Key {
        self.inner.key(s)
    }
}

impl<P: Keyed> AstarProblem for Weighted<'_, P> {}

/// The length of an incumbent (`u32::MAX` when there is none).
fn length<M>(best: &Option<Vec<M>>) -> u32 {
    best.as_ref().map_or(u32::MAX, |m| m.len() as u32)
}

/// The start's bound, or the outcome when the start alone
/// settles the search: it is a goal, it has an exact completion no longer
/// than the incumbent, or its bound reaches the incumbent.
fn start_bound<P: AstarProblem>(
    problem: &P,
    start: &P::State,
    best: &Option<Vec<P::Move>>,
    t0: Instant,
) -> Result<u32, Outcome<P::Move>> {
    if problem.is_goal(start) {
        return Err(Outcome::optimal(Vec::new(), 0, t0.elapsed()));
    }
    let h0 = problem.capped_bound(start, length(best));
    if let Some(c) = problem.exact_completion(start) {
        if c.len() as u32 <= length(best) {
            return Err(Outcome::optimal(c, 0, t0.elapsed()));
        }
    }
    if h0 >= length(best) {
        return Err(match best {
            Some(m) => Outcome::optimal(m.clone(), 0, t0.elapsed()),
            // An admissible bound of u32::MAX: no solution at all.
            None => Outcome::unsolvable(0, t0.elapsed()),
        });
    }
    Ok(h0)
}

/// One A* run: the arena, the table of arena indices, the open list, the
/// incumbent and the proven bound, and buffers reused by every expansion.
struct Search<'a, P: AstarProblem> {
    problem: &'a P,
    start: P::State,
    budget: Budget,
    /// Reads the clock between the regular checks when nodes are slow.
    pacer: Pacer,
    arena: Vec<Node<P::State, P::Move>>,
    seen: IndexTable,
    open: BucketQueue<u32>,
    best: Option<Vec<P::Move>>,
    /// The proven lower bound.
    lb: u32,
    nodes: u64,
    succ: Vec<(P::Move, P::State)>,
    /// The table hash of each child in `succ`, `None` for a child with an
    /// exact completion.
    hashes: Vec<Option<u64>>,
    scratch: Vec<P::Move>,
    /// Weighted A*: no pathmax (the weighted bound is not consistent, and
    /// raising a child's `f` to its parent's would undo the weight), and
    /// the first solution ends the search.
    weighted: bool,
}

impl<'a, P: AstarProblem> Search<'a, P> {
    const NODE_BYTES: usize = size_of::<Node<P::State, P::Move>>();

    /// The search with only `start` (bound `h0`) open.
    fn new(
        problem: &'a P,
        start: &P::State,
        budget: Budget,
        best: Option<Vec<P::Move>>,
        h0: u32,
    ) -> Self {
        let mut arena = Vec::with_capacity(1024);
        arena.push(Node {
            state: start.clone(),
            parent: 0,
            g: 0,
            mv: MaybeUninit::uninit(),
            flags: 0,
        });
        let mut seen = IndexTable::with_capacity(8192);
        let h = hash_key(problem, start);
        if let Probe::Vacant(slot) = seen.find(h, |_| false) {
            seen.insert(slot, h, 0);
        }
        let mut open = BucketQueue::new();
        open.push(h0 as usize, 0, 0);
        Search {
            problem,
            start: start.clone(),
            budget,
            pacer: Pacer::default(),
            arena,
            seen,
            open,
            best,
            lb: h0,
            nodes: 0,
            succ: Vec::with_capacity(16),
            hashes: Vec::with_capacity(16),
            scratch: Vec::with_capacity(16),
            weighted: false,
        }
    }

    fn best_len(&self) -> u32 {
        length(&self.best)
    }

    /// Expands nodes in order of `f` until the incumbent is proven, the
    /// open list runs dry, or a budget stops the search (returned; the
    /// node being expanded is then back on the open list).
    /// Weighted, it stops as soon as a solution is known.
    fn run(&mut self, check_every: u64) -> Option<BudgetExceeded> {
        while let Some((fv, gv, idx)) = self.open.pop() {
            let fv = fv as u32;
            if fv >= self.best_len() {
                self.lb = self.best_len();
                return None;
            }
            self.lb = self.lb.max(fv);
            if self.arena[idx as usize].dead() {
                continue;
            }
            if self.nodes.is_multiple_of(check_every)
                || self.nodes >= self.budget.node_limit()
                || self.pacer.time_up(&self.budget, self.nodes)
            {
                let held = self.budget.held(self.arena.len(), self.held());
                if let Err(e) = self.budget.check_nodes(self.nodes, held) {
                    self.open.push(fv as usize, gv, idx);
                    return Some(e);
                }
            }
            self.nodes += 1;
            if self.take_offered_incumbent() {
                return None;
            }
            if let Err(e) = self.expand(idx, gv as u32 + 1, fv) {
                self.open.push(fv as usize, gv, idx);
                return Some(e);
            }
            if self.best_len() <= self.lb || (self.weighted && self.best.is_some()) {
                return None;
            }
        }
        None
    }

    /// Asks [`AstarProblem::improve_incumbent`] for a shorter solution and
    /// keeps it if it wins; true when it meets the proven bound.
    fn take_offered_incumbent(&mut self) -> bool {
        let offer = self
            .problem
            .improve_incumbent(self.nodes, self.best_len(), self.lb);
        if let Some(m) = offer {
            if (m.len() as u32) < self.best_len() && wins(self.problem, &self.start, &m) {
                self.open.truncate_f(m.len());
                self.best = Some(m);
                return self.best_len() <= self.lb;
            }
        }
        false
    }

    /// Generates the children of node `idx` (at depth `ng - 1`, `f = fv`)
    /// and keeps the ones worth opening.
    fn expand(&mut self, idx: u32, ng: u32, fv: u32) -> Result<(), BudgetExceeded> {
        let mut succ = std::mem::take(&mut self.succ);
        succ.clear();
        self.scratch.clear();
        let node = NodeView {
            arena: &self.arena,
            idx,
        };
        let tag = self.problem.successors(node, &mut self.scratch, &mut succ);
        self.complete_children(idx, ng, &succ);
        let kept = self.open_children(idx, ng, fv, tag, &succ);
        self.succ = succ;
        kept
    }

    /// Pass 1: goals and exact completions (a goal is a child with an
    /// empty completion) improve the incumbent; the other children get
    /// their table hash in `hashes`, and their table slot is prefetched.
    fn complete_children(&mut self, idx: u32, ng: u32, succ: &[(P::Move, P::State)]) {
        self.hashes.clear();
        for (mv, state) in succ {
            if let Some(c) = self.problem.child_completion(*mv, state) {
                let len = ng + c.len() as u32;
                if len < self.best_len() {
                    let mut p = path(&self.arena, idx);
                    p.push(*mv);
                    p.extend(c);
                    self.best = Some(p);
                    self.open.truncate_f(len as usize);
                }
                self.hashes.push(None);
                continue;
            }
            let hash = hash_key(self.problem, state);
            self.seen.prefetch(hash);
            self.hashes.push(Some(hash));
        }
    }

    /// Pass 2: table lookups, bounds, pushes. The children are read in
    /// place; only one that is kept is copied (into the arena).
    fn open_children(
        &mut self,
        idx: u32,
        ng: u32,
        fv: u32,
        tag: u8,
        succ: &[(P::Move, P::State)],
    ) -> Result<(), BudgetExceeded> {
        let hashes = std::mem::take(&mut self.hashes);
        let mut result = Ok(());
        for ((mv, state), hash) in succ.iter().zip(hashes.iter()) {
            let Some(hash) = *hash else { continue };
            let problem = self.problem;
            let key = problem.key(state);
            let arena = &self.arena;
            let probe = self
                .seen
                .find(hash, |i| problem.key(&arena[i as usize].state) == key);
            if let Probe::Found(_, j) = probe {
                if self.arena[j as usize].g as u32 <= ng {
                    continue;
                }
            }
            let bl = self.best_len();
            let h = problem.child_bound(*mv, state, bl.saturating_sub(ng));
            let nfv = if self.weighted {
                ng.saturating_add(h)
            } else {
                ng.saturating_add(h).max(fv)
            };
            if nfv >= bl {
                continue;
            }
            if ng > MAX_DEPTH || !self.room_for_one() {
                result = Err(BudgetExceeded::Memory);
                break;
            }
            let new = self.arena.len() as u32;
            self.arena.push(Node {
                state: state.clone(),
                parent: idx,
                g: ng as u16,
                mv: MaybeUninit::new(*mv),
                flags: tag & !DEAD,
            });
            match probe {
                Probe::Found(slot, j) => {
                    self.arena[j as usize].flags |= DEAD;
                    self.seen.replace(slot, new);
                }
                Probe::Vacant(slot) => self.seen.insert(slot, hash, new),
            }
            self.open.push(nfv as usize, ng as usize, new);
        }
        self.hashes = hashes;
        result
    }

    /// False when adding one node would grow the arena or the table past
    /// the budget's memory.
    fn room_for_one(&self) -> bool {
        let arena = (self.arena.len(), self.arena.capacity());
        self.seen
            .room_for_one(&self.budget, arena, Self::NODE_BYTES, || self.held())
    }

    /// The bytes its arena, table and open list hold.
    fn held(&self) -> usize {
        self.arena.capacity() * Self::NODE_BYTES + self.seen.bytes() + self.open.bytes()
    }

    /// The outcome so far, `elapsed` its time: proven when no budget
    /// stopped the search (`stopped`); otherwise the incumbent, with the
    /// smallest open `f` raising the bound. The search can go on.
    fn outcome(&mut self, stopped: Option<BudgetExceeded>, elapsed: Duration) -> Outcome<P::Move> {
        let Some(why) = stopped else {
            return match self.best.clone() {
                // The open list ran dry or its smallest f reached the incumbent.
                Some(m) => Outcome::optimal(m, self.nodes, elapsed),
                None => Outcome::unsolvable(self.nodes, elapsed),
            };
        };
        if let Some(f) = self.open.min_f() {
            self.lb = self.lb.max(f as u32);
        }
        Outcome::stopped(self.best.clone(), self.lb, why, self.nodes, elapsed)
    }

    /// The final outcome ([`Search::outcome`]), the incumbent of a
    /// stopped search improved by [`AstarProblem::greedy_completion`]
    /// from the most promising open node if the problem offers one.
    fn finish(mut self, stopped: Option<BudgetExceeded>, t0: Instant) -> Outcome<P::Move> {
        let o = self.outcome(stopped, t0.elapsed());
        let Some(why) = o.stopped else {
            return o;
        };
        while let Some((_, _, idx)) = self.open.pop() {
            let n = &self.arena[idx as usize];
            if n.dead() {
                continue;
            }
            if let Some(c) = self.problem.greedy_completion(&n.state) {
                let mut p = path(&self.arena, idx);
                p.extend(c);
                if (p.len() as u32) < self.best_len() && wins(self.problem, &self.start, &p) {
                    self.best = Some(p);
                }
            }
            break;
        }
        Outcome::stopped(self.best, self.lb, why, self.nodes, t0.elapsed())
    }
}

/// A* that can be paused and resumed: it holds its open list, arena and
/// table between two calls of [`ResumableAstar::run`], which continues
/// where the last call stopped, so a search given its time in slices does
/// the work of one given it all at once (the same outcome, the same nodes
/// in total). With `first` it is [`weighted_astar`]'s search (on a
/// [`Weighted`] problem, whose [`Weighted::claims`] then say what it
/// proved). No incumbent is given and [`AstarProblem::greedy_completion`]
/// is not asked. Once it found its solution or proved there is none,
/// every later call returns that outcome again.
pub struct ResumableAstar<'a, P: AstarProblem> {
    /// `None` when the start alone settled the search.
    search: Option<Search<'a, P>>,
    /// Time spent in every call so far.
    spent: Duration,
    /// The outcome once it is settled.
    settled: Option<Outcome<P::Move>>,
}

impl<'a, P: AstarProblem> ResumableAstar<'a, P> {
    /// A search from `start` that has expanded nothing yet; with `first`,
    /// it stops at the first solution found and uses no pathmax.
    pub fn new(problem: &'a P, start: &P::State, first: bool) -> Self {
        let (search, settled) = match start_bound(problem, start, &None, Instant::now()) {
            Ok(h0) => {
                let mut s = Search::new(problem, start, Budget::unlimited(), None, h0);
                s.weighted = first;
                (Some(s), None)
            }
            Err(o) => (None, Some(o)),
        };
        ResumableAstar {
            search,
            spent: Duration::ZERO,
            settled,
        }
    }

    /// Nodes expanded so far, by every call.
    pub fn nodes(&self) -> u64 {
        self.search.as_ref().map_or(0, |s| s.nodes)
    }

    /// The states it keeps.
    pub fn states(&self) -> usize {
        self.search.as_ref().map_or(0, |s| s.arena.len())
    }

    /// The bytes its arena, table and open list hold.
    pub fn bytes(&self) -> usize {
        self.search.as_ref().map_or(0, Search::held)
    }

    /// True once the search found its solution or proved there is none.
    pub fn is_settled(&self) -> bool {
        self.settled.is_some()
    }

    /// Expands on from where the last call stopped until the search ends
    /// or `budget` stops it (its node limit counts this call's nodes; its
    /// memory limit the whole tables). The outcome counts the nodes and
    /// time of every call.
    pub fn run(&mut self, budget: &Budget) -> Outcome<P::Move> {
        if let Some(o) = &self.settled {
            return o.clone();
        }
        let search = self.search.as_mut().expect("a search until settled");
        let t0 = Instant::now();
        let limit = search.nodes.saturating_add(budget.node_limit());
        search.budget = budget.clone().with_node_limit(limit);
        search.pacer = Pacer::default();
        let stopped = search.run(Config::<P::Move>::default().check_every);
        self.spent += t0.elapsed();
        let o = search.outcome(stopped, self.spent);
        if stopped.is_none() {
            self.settled = Some(o.clone());
        }
        o
    }
}

/// The table hash of a state: FxHash of its key.
#[inline]
pub(super) fn hash_key<P: Keyed>(problem: &P, state: &P::State) -> u64 {
    let mut h = FxHasher::default();
    problem.key(state).hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::bfs::bfs;
    use crate::solver::testing::{check_eight_puzzle, check_graphs, Eight, Graph, Rng};

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
    fn weighted_astar_wins_and_claims_only_what_it_proves() {
        let md = Eight { manhattan: true };
        let mut rng = Rng::new(54);
        let (mut plain, mut weighted) = (0, 0);
        for _ in 0..20 {
            let s = Eight::scrambled(&mut rng, 300);
            let exact = bfs(&md, &s, &Budget::unlimited()).len().unwrap();
            let one = weighted_astar(&md, &s, &Budget::unlimited(), 1);
            assert!(one.proven_optimal && one.len() == Some(exact));
            let o = weighted_astar(&md, &s, &Budget::unlimited(), 3);
            let m = o.moves.as_ref().unwrap();
            assert!(wins(&md, &s, m) && m.len() >= exact && m.len() <= 3 * exact);
            assert_eq!(o.proven_optimal, m.len() as u32 <= md.lower_bound(&s));
            assert!(o.lower_bound as usize <= exact);
            (plain, weighted) = (plain + one.nodes, weighted + o.nodes);
        }
        // Pinned. On these short puzzles, where the bound is already
        // good, the weight costs nodes: it pays on long levels.
        assert_eq!((plain, weighted), (5876, 7168));
        // Unsolvable graphs are still proven so.
        check_graphs(
            55,
            200,
            |_| false,
            |g| weighted_astar(g, &0, &Budget::unlimited(), 1),
        );
        let mut rng = Rng::new(56);
        for _ in 0..200 {
            let mut g = crate::solver::testing::Graph::random(&mut rng, 40, 3, 15);
            g.informed = true;
            let o = weighted_astar(&g, &0, &Budget::unlimited(), 4);
            assert_eq!(o.proven_unsolvable, g.dist[0] == u32::MAX);
            if let Some(m) = &o.moves {
                assert!(wins(&g, &0, m) && m.len() >= g.dist[0] as usize);
            }
        }
    }

    /// Runs `search` in slices of `slice` nodes until a slice ends it
    /// otherwise than by its node limit; the last outcome.
    fn in_slices<P: AstarProblem>(search: &mut ResumableAstar<P>, slice: u64) -> Outcome<P::Move> {
        let budget = Budget::unlimited().with_node_limit(slice);
        loop {
            let o = search.run(&budget);
            if o.stopped != Some(BudgetExceeded::Nodes) {
                return o;
            }
            assert!(!search.is_settled());
        }
    }

    #[test]
    fn slices_give_one_run_s_result_and_nodes() {
        let md = Eight { manhattan: true };
        let mut rng = Rng::new(57);
        for k in 0..12 {
            let s = Eight::scrambled(&mut rng, 300);
            let weight = [1, 3, 10][k % 3];
            let whole = weighted_astar(&md, &s, &Budget::unlimited(), weight);
            let w = Weighted::new(&md, weight);
            let mut search = ResumableAstar::new(&w, &s, weight > 1);
            let o = w.claims(&s, in_slices(&mut search, 1 + rng.below(300)));
            assert_eq!((&o.moves, o.nodes), (&whole.moves, whole.nodes), "{k}");
            assert_eq!(o.proven_optimal, whole.proven_optimal, "{k}");
            assert_eq!(o.lower_bound, whole.lower_bound, "{k}");
            let again = search.run(&Budget::unlimited());
            assert_eq!((again.moves, again.nodes), (o.moves, search.nodes()));
        }
        let mut rng = Rng::new(58);
        for i in 0..200 {
            let mut g = crate::solver::testing::Graph::random(&mut rng, 40, 3, 15);
            g.informed = i % 2 == 0;
            let whole = weighted_astar(&g, &0, &Budget::unlimited(), 4);
            let w = Weighted::new(&g, 4);
            let mut search = ResumableAstar::new(&w, &0, true);
            let o = w.claims(&0, in_slices(&mut search, 1 + rng.below(5)));
            assert_eq!((&o.moves, o.nodes), (&whole.moves, whole.nodes), "{i}");
            assert_eq!(o.proven_unsolvable, whole.proven_unsolvable, "{i}");
        }
    }

    #[test]
    fn nodes_are_the_state_plus_8_bytes() {
        assert_eq!(size_of::<Node<[u64; 7], u8>>(), 64);
    }

    #[test]
    fn eight_puzzle_lengths_match_bfs() {
        check_eight_puzzle(51, 60, 100, |p, s| astar(p, s, &Budget::unlimited()));
    }

    #[test]
    fn graph_verdicts_match_bfs() {
        let informed = |i| i % 2 == 0;
        check_graphs(52, 500, informed, |g| astar(g, &0, &Budget::unlimited()));
        // The same graphs, with exact completions and an incumbent offered.
        check_graphs(52, 500, informed, |g| {
            astar(&Hinted(g.clone()), &0, &Budget::unlimited())
        });
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
