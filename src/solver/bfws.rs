//! Width-based search from classical planning (Lipovetzky and Geffner):
//! best-first width search (BFWS, AAAI 2017) and IW(1).
//!
//! A state is described by atoms, bits that are true in it
//! ([`AtomProblem::atoms`]; in a grid game, "object o in cell i"). A
//! generated state is *novel* when it makes true an atom no earlier state
//! of its partition had; a partition holds the states with the same
//! [`Problem::lower_bound`] (the estimate `h`, as BFWS(f5) partitions by
//! the goals still unmet).
//!
//! - [`bfws`]: expands novel states first, each open list ordered by `h`
//!   and then deepest first; states that are not novel are kept, so the
//!   search is complete: when both lists run dry, no solution exists.
//! - [`iw1`]: breadth first with one partition, dropping every state that
//!   is not novel: it expands at most one state per atom, so it is quick
//!   and incomplete (running dry proves nothing once it dropped a state).
//!
//! Both keep every state generated in a table keyed by [`Keyed::key`]
//! (exact equality: a hash collision never merges two states) and drop a
//! state generated again. Goals are recognised when generated. A solution
//! found is not a shortest one in general: it is called shortest only when
//! its length meets the start's [`Problem::lower_bound`] (an admissible
//! bound where the problem says so).

use rustc_hash::{FxHashMap, FxHashSet};
use std::mem::size_of;
use std::time::{Duration, Instant};

use super::astar::hash_key;
use super::budget::{Budget, BudgetExceeded, Pacer};
use super::outcome::Outcome;
use super::problem::Keyed;
use super::queue::BucketQueue;
use super::table::{IndexTable, Probe};

/// The most pairs of atoms a search keeps ([`AtomProblem::pair_atoms`]):
/// past it, no state is novel at width 2.
const PAIRS_HELD: usize = 1 << 22;

/// The most pairs checked for one state.
const PAIRS_CHECKED: usize = 512;

/// A problem whose states are described by atoms.
pub trait AtomProblem: Keyed {
    /// Appends the state's atoms as bit words to `out` (bit `j` of word
    /// `k` is atom `64 k + j`). Every state should give the same number
    /// of words.
    fn atoms(&self, state: &Self::State, out: &mut Vec<u64>);

    /// Appends, in increasing order, the indices of the state's atoms
    /// that count in pairs (width 2: a state is novel at width 2 when it
    /// makes true a pair of them no earlier state of its partition had).
    /// None by default: no state is novel at width 2.
    fn pair_atoms(&self, _state: &Self::State, _out: &mut Vec<u32>) {}

    /// The partition of a state whose bound is `h` (the novelty of a state
    /// counts against the states of its partition): `h` by default.
    fn partition(&self, _state: &Self::State, h: u32) -> u64 {
        h as u64
    }
}

/// One node of the arena: the state, its parent and the move from it.
struct Node<S, M> {
    state: S,
    parent: u32,
    /// `None` only at the start (index 0).
    mv: Option<M>,
}

/// Best-first width search from `start` within `budget`: a solution (not
/// a shortest in general), or the proof that there is none when every
/// state reachable (and not bounded at `u32::MAX`) was expanded.
///
/// ```
/// use gridbot::solver::{bfws::{bfws, AtomProblem}, Budget, Keyed, Problem};
///
/// // From 0 to 12 on a line, steps of 1 or 5; atoms: the position.
/// struct Line;
/// impl Problem for Line {
///     type State = u8;
///     type Move = i8;
///     fn moves(&self, s: &u8, out: &mut Vec<i8>) {
///         out.extend([5, 1, -1].into_iter().filter(|m| (0..20).contains(&(*s as i8 + m))));
///     }
///     fn apply(&self, s: &u8, m: i8) -> u8 {
///         (*s as i8 + m) as u8
///     }
///     fn is_goal(&self, s: &u8) -> bool {
///         *s == 12
///     }
/// }
/// impl Keyed for Line {
///     type Key = u8;
///     fn key(&self, s: &u8) -> u8 {
///         *s
///     }
/// }
/// impl AtomProblem for Line {
///     fn atoms(&self, s: &u8, out: &mut Vec<u64>) {
///         out.push(1 << s);
///     }
/// }
/// let o = bfws(&Line, &0, &Budget::unlimited());
/// assert!(o.len().is_some() && !o.proven_optimal);
/// ```
pub fn bfws<P: AtomProblem>(problem: &P, start: &P::State, budget: &Budget) -> Outcome<P::Move> {
    ResumableBfws::new(problem, start).run(budget)
}

/// IW(1): breadth first, keeping only novel states (one partition). Quick
/// and incomplete: it proves there is no solution only if it ran dry
/// without dropping a state.
pub fn iw1<P: AtomProblem>(problem: &P, start: &P::State, budget: &Budget) -> Outcome<P::Move> {
    let mut search = Search::new(problem, start, true);
    search.budget = budget.clone();
    search.run()
}

/// Best-first width search that can be paused and resumed: it holds its
/// open lists and tables between two calls of [`ResumableBfws::run`],
/// which continues where the last call stopped, so a search given its
/// time in slices does the work of one given it all at once (the same
/// outcome, the same nodes in total). Once it found a solution or proved
/// there is none, every later call returns that outcome again.
pub struct ResumableBfws<'a, P: AtomProblem> {
    search: Search<'a, P>,
    /// Time spent in every call so far.
    spent: Duration,
    /// The outcome once it is settled (a solution, or none exists).
    settled: Option<Outcome<P::Move>>,
}

impl<'a, P: AtomProblem> ResumableBfws<'a, P> {
    /// A search from `start` that has expanded nothing yet.
    pub fn new(problem: &'a P, start: &P::State) -> Self {
        ResumableBfws {
            search: Search::new(problem, start, false),
            spent: Duration::ZERO,
            settled: None,
        }
    }

    /// Nodes expanded so far, by every call.
    pub fn nodes(&self) -> u64 {
        self.search.nodes
    }

    /// The states it keeps.
    pub fn states(&self) -> usize {
        self.search.arena.len()
    }

    /// The bytes its arena, table, open lists and atoms hold.
    pub fn bytes(&self) -> usize {
        self.search.held()
    }

    /// True once the search found a solution or proved there is none.
    pub fn is_settled(&self) -> bool {
        self.settled.is_some()
    }

    /// Expands on from where the last call stopped until a goal is
    /// generated, both lists run dry or `budget` stops it (its node limit
    /// counts this call's nodes; its memory limit the whole tables). The
    /// outcome counts the nodes and time of every call.
    pub fn run(&mut self, budget: &Budget) -> Outcome<P::Move> {
        if let Some(o) = &self.settled {
            return o.clone();
        }
        let limit = self.search.nodes.saturating_add(budget.node_limit());
        self.search.budget = budget.clone().with_node_limit(limit);
        self.search.pacer = Pacer::default();
        self.search.t0 = Instant::now();
        let o = self.search.run();
        self.spent += self.search.t0.elapsed();
        let o = Outcome {
            elapsed: self.spent,
            ..o
        };
        if o.stopped.is_none() {
            self.settled = Some(o.clone());
        }
        o
    }
}

/// One search: the arena, the table of arena indices, the two open lists
/// (novel states and the rest), the atoms seen in each partition.
struct Search<'a, P: AtomProblem> {
    problem: &'a P,
    /// The budget of the current call.
    budget: Budget,
    pacer: Pacer,
    t0: Instant,
    arena: Vec<Node<P::State, P::Move>>,
    seen: IndexTable,
    novel: BucketQueue<u32>,
    /// States novel at width 2 only.
    wide: BucketQueue<u32>,
    rest: BucketQueue<u32>,
    /// The atoms seen so far, by partition.
    atoms_seen: FxHashMap<u64, Vec<u64>>,
    /// The pairs of atoms seen so far, with their partition (mixed into
    /// one word: two pairs that mix alike count as one, so a state is at
    /// worst taken for not novel); at most [`PAIRS_HELD`].
    pairs_seen: FxHashSet<u64>,
    /// The pair atoms of the state being expanded: a child's pairs are
    /// those with an atom its parent did not have.
    parent_pairs: Vec<u32>,
    /// The pair atoms of the state being placed.
    pair_atoms: Vec<u32>,
    /// IW(1): one partition, breadth first, states not novel dropped.
    iw: bool,
    /// A state was dropped (IW(1), or children lost when memory ran out
    /// during an expansion): running dry proves nothing.
    dropped: bool,
    nodes: u64,
    words: Vec<u64>,
    moves: Vec<P::Move>,
}

impl<'a, P: AtomProblem> Search<'a, P> {
    const NODE_BYTES: usize = size_of::<Node<P::State, P::Move>>();

    fn new(problem: &'a P, start: &P::State, iw: bool) -> Self {
        let mut s = Search {
            problem,
            budget: Budget::unlimited(),
            pacer: Pacer::default(),
            t0: Instant::now(),
            arena: Vec::with_capacity(1024),
            seen: IndexTable::with_capacity(8192),
            novel: BucketQueue::new(),
            wide: BucketQueue::new(),
            rest: BucketQueue::new(),
            atoms_seen: FxHashMap::default(),
            pairs_seen: FxHashSet::default(),
            parent_pairs: Vec::new(),
            pair_atoms: Vec::new(),
            iw,
            dropped: false,
            nodes: 0,
            words: Vec::new(),
            moves: Vec::new(),
        };
        let h = hash_key(problem, start);
        if let Probe::Vacant(slot) = s.seen.find(h, |_| false) {
            s.seen.insert(slot, h, 0);
        }
        s.arena.push(Node {
            state: start.clone(),
            parent: 0,
            mv: None,
        });
        // A start bounded at infinity is never expanded: no solution.
        let h = problem.lower_bound(start);
        if h != u32::MAX {
            s.place(0, 0, h);
        }
        s
    }

    /// Expands until a goal is generated, both lists run dry or the
    /// budget stops the search (the budget is checked before a node is
    /// taken off its list, so a stopped search can go on).
    fn run(&mut self) -> Outcome<P::Move> {
        let start = &self.arena[0].state;
        if self.problem.is_goal(start) {
            return Outcome::optimal(Vec::new(), 0, self.t0.elapsed());
        }
        let bound = self.problem.lower_bound(start);
        let mut succ = Vec::with_capacity(8);
        while !(self.novel.is_empty() && self.wide.is_empty() && self.rest.is_empty()) {
            if let Err(why) = self.check() {
                return Outcome::stopped(None, bound, why, self.nodes, self.t0.elapsed());
            }
            let popped = (self.novel.pop())
                .or_else(|| self.wide.pop())
                .or_else(|| self.rest.pop());
            let Some((_, g, idx)) = popped else { break };
            self.nodes += 1;
            match self.expand(idx, g as u32 + 1, &mut succ) {
                Ok(Some(moves)) => return self.found(moves, bound),
                Ok(None) => {}
                Err(why) => {
                    // Some children of `idx` are lost: running dry later
                    // proves nothing.
                    self.dropped = true;
                    return Outcome::stopped(None, bound, why, self.nodes, self.t0.elapsed());
                }
            }
        }
        if self.dropped {
            Outcome {
                moves: None,
                lower_bound: bound,
                proven_optimal: false,
                proven_unsolvable: false,
                nodes: self.nodes,
                elapsed: self.t0.elapsed(),
                stopped: None,
            }
        } else {
            Outcome::unsolvable(self.nodes, self.t0.elapsed())
        }
    }

    /// A solution found: shortest only when it meets `bound`.
    fn found(&self, moves: Vec<P::Move>, bound: u32) -> Outcome<P::Move> {
        let mut o = Outcome::optimal(moves, self.nodes, self.t0.elapsed());
        o.lower_bound = bound.min(o.lower_bound);
        o.proven_optimal = o.lower_bound as usize >= o.len().unwrap_or(0);
        o
    }

    /// The budget's node, memory and time checks before an expansion.
    fn check(&mut self) -> Result<(), BudgetExceeded> {
        if self.nodes.is_multiple_of(256)
            || self.nodes >= self.budget.node_limit()
            || self.pacer.time_up(&self.budget, self.nodes)
        {
            let held = self.budget.held(self.arena.len(), self.held());
            return self.budget.check_nodes(self.nodes, held);
        }
        Ok(())
    }

    /// Bytes held by the arena, the table, the lists and the atoms seen.
    fn held(&self) -> usize {
        let atoms: usize = self
            .atoms_seen
            .values()
            .map(|v| v.capacity() * 8 + 32)
            .sum();
        self.arena.capacity() * Self::NODE_BYTES
            + self.seen.bytes()
            + self.novel.bytes()
            + self.wide.bytes()
            + self.rest.bytes()
            + self.pairs_seen.capacity() * (size_of::<u64>() + 1)
            + atoms
    }

    /// Generates the children of node `idx` (their depth `g`); returns
    /// the moves to a goal child if there is one.
    fn expand(
        &mut self,
        idx: u32,
        g: u32,
        succ: &mut Vec<(P::Move, P::State)>,
    ) -> Result<Option<Vec<P::Move>>, BudgetExceeded> {
        succ.clear();
        self.moves.clear();
        let state = &self.arena[idx as usize].state;
        self.parent_pairs.clear();
        if !self.iw {
            self.problem.pair_atoms(state, &mut self.parent_pairs);
        }
        self.problem.moves(state, &mut self.moves);
        succ.extend(
            self.moves
                .iter()
                .map(|&m| (m, self.problem.apply(state, m))),
        );
        for (mv, child) in succ.drain(..) {
            if self.problem.is_goal(&child) {
                let mut p = self.path(idx);
                p.push(mv);
                return Ok(Some(p));
            }
            let hash = hash_key(self.problem, &child);
            let key = self.problem.key(&child);
            let (problem, arena) = (self.problem, &self.arena);
            let probe = self
                .seen
                .find(hash, |i| problem.key(&arena[i as usize].state) == key);
            let Probe::Vacant(slot) = probe else { continue };
            let h = problem.lower_bound(&child);
            if h == u32::MAX {
                continue;
            }
            if !self.room_for_one() {
                return Err(BudgetExceeded::Memory);
            }
            let new = self.arena.len() as u32;
            self.seen.insert(slot, hash, new);
            self.arena.push(Node {
                state: child,
                parent: idx,
                mv: Some(mv),
            });
            self.place(new, g, h);
        }
        Ok(None)
    }

    /// Puts node `idx` (depth `g`, estimate `h`) on its open list (novel
    /// at width 1, at width 2, or neither), or drops it (IW(1), not
    /// novel).
    fn place(&mut self, idx: u32, g: u32, h: u32) {
        if self.iw {
            match self.is_novel(idx, 0) {
                true => self.novel.push(g as usize, g as usize, idx),
                false => self.dropped = true,
            }
            return;
        }
        let partition = self.problem.partition(&self.arena[idx as usize].state, h);
        let novel = self.is_novel(idx, partition);
        let wide = self.is_pair_novel(idx, partition);
        let list = match (novel, wide) {
            (true, _) => &mut self.novel,
            (false, true) => &mut self.wide,
            (false, false) => &mut self.rest,
        };
        list.push(h as usize, g as usize, idx);
    }

    /// True when node `idx` has a pair of atoms its partition had not
    /// seen (which it has now): pairs with an atom its parent did not
    /// have, at most [`PAIRS_CHECKED`] of them.
    fn is_pair_novel(&mut self, idx: u32, partition: u64) -> bool {
        self.pair_atoms.clear();
        let state = &self.arena[idx as usize].state;
        self.problem.pair_atoms(state, &mut self.pair_atoms);
        let salt = partition.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let (atoms, parent) = (&self.pair_atoms, &self.parent_pairs);
        let mut novel = false;
        let mut checked = 0;
        for &a in atoms.iter().filter(|a| parent.binary_search(a).is_err()) {
            for &b in atoms.iter().filter(|&&b| b != a) {
                if checked == PAIRS_CHECKED || self.pairs_seen.len() >= PAIRS_HELD {
                    return novel;
                }
                checked += 1;
                let (lo, hi) = (a.min(b) as u64, a.max(b) as u64);
                novel |= self.pairs_seen.insert(salt ^ (lo << 32 | hi));
            }
        }
        novel
    }

    /// True when node `idx` has an atom its partition had not seen (which
    /// it has now).
    fn is_novel(&mut self, idx: u32, partition: u64) -> bool {
        self.words.clear();
        self.problem
            .atoms(&self.arena[idx as usize].state, &mut self.words);
        let seen = self.atoms_seen.entry(partition).or_default();
        if seen.len() < self.words.len() {
            seen.resize(self.words.len(), 0);
        }
        let mut novel = false;
        for (s, &w) in seen.iter_mut().zip(&self.words) {
            novel |= w & !*s != 0;
            *s |= w;
        }
        novel
    }

    /// The moves from the start to node `idx`.
    fn path(&self, mut idx: u32) -> Vec<P::Move> {
        let mut moves = Vec::new();
        while let Some(m) = self.arena[idx as usize].mv {
            moves.push(m);
            idx = self.arena[idx as usize].parent;
        }
        moves.reverse();
        moves
    }

    /// False when one more node would grow the arena or the table past
    /// the budget's memory.
    fn room_for_one(&self) -> bool {
        let arena = (self.arena.len(), self.arena.capacity());
        self.seen
            .room_for_one(&self.budget, arena, Self::NODE_BYTES, || self.held())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::bfs::bfs;
    use crate::solver::problem::{wins, Problem};
    use crate::solver::testing::{Eight, EightState, Graph, Rng, Slide};

    /// An 8-puzzle's atoms: tile `t` in cell `c` (81 of them).
    impl AtomProblem for Eight {
        fn atoms(&self, s: &EightState, out: &mut Vec<u64>) {
            let mut w = 0u128;
            for c in 0..9 {
                w |= 1 << (9 * Eight::tile(*s, c) + c);
            }
            out.extend([w as u64, (w >> 64) as u64]);
        }
    }

    /// The 8-puzzle with its atoms also counted in pairs (width 2), and
    /// one partition per count of tiles out of place.
    struct Paired(Eight);

    impl Problem for Paired {
        type State = EightState;
        type Move = Slide;
        fn moves(&self, s: &EightState, out: &mut Vec<Slide>) {
            self.0.moves(s, out);
        }
        fn apply(&self, s: &EightState, m: Slide) -> EightState {
            self.0.apply(s, m)
        }
        fn is_goal(&self, s: &EightState) -> bool {
            self.0.is_goal(s)
        }
        fn lower_bound(&self, s: &EightState) -> u32 {
            self.0.lower_bound(s)
        }
    }

    impl Keyed for Paired {
        type Key = u64;
        fn key(&self, s: &EightState) -> u64 {
            *s
        }
    }

    impl AtomProblem for Paired {
        fn atoms(&self, s: &EightState, out: &mut Vec<u64>) {
            self.0.atoms(s, out);
        }
        fn pair_atoms(&self, s: &EightState, out: &mut Vec<u32>) {
            out.extend((0..9).map(|c| 9 * Eight::tile(*s, c) + c));
            out.sort_unstable();
        }
        fn partition(&self, s: &EightState, _: u32) -> u64 {
            let home = |c: u32| Eight::tile(*s, c) == (c + 1) % 9;
            (0..9).filter(|&c| !home(c)).count() as u64
        }
    }

    /// A graph's atoms: the node (one atom a state).
    impl AtomProblem for Graph {
        fn atoms(&self, s: &u32, out: &mut Vec<u64>) {
            out.push(1 << s);
        }
    }

    /// On random graphs, the verdict of breadth-first search: a winning
    /// solution when there is one, the proof that there is none otherwise.
    #[test]
    fn agrees_with_breadth_first_search_on_random_graphs() {
        let mut rng = Rng::new(7);
        for i in 0..300 {
            let mut g = Graph::random(&mut rng, 40, 3, 15);
            g.informed = i % 2 == 0;
            let exact = bfs(&g, &0, &Budget::unlimited());
            let o = bfws(&g, &0, &Budget::unlimited());
            assert_eq!(o.proven_unsolvable, exact.proven_unsolvable, "graph {i}");
            assert_eq!(o.moves.is_some(), exact.moves.is_some(), "graph {i}");
            if let Some(m) = &o.moves {
                assert!(wins(&g, &0, m) && m.len() >= exact.len().unwrap());
                let shortest = m.len() == exact.len().unwrap();
                assert!(!o.proven_optimal || shortest, "graph {i}");
            }
        }
    }

    /// Scrambled 8-puzzles are solved; the solutions win, and none is
    /// called shortest unless it meets the Manhattan bound.
    #[test]
    fn solves_scrambled_eight_puzzles() {
        let p = Eight { manhattan: true };
        let mut rng = Rng::new(3);
        let mut nodes = Vec::new();
        for _ in 0..5 {
            let s = Eight::scrambled(&mut rng, 60);
            let o = bfws(&p, &s, &Budget::unlimited());
            let m = o.moves.as_ref().unwrap();
            assert!(wins(&p, &s, m));
            assert_eq!(o.proven_optimal, m.len() as u32 <= p.lower_bound(&s));
            nodes.push(o.nodes);
        }
        // Pinned: a change to the order or the novelty shows here.
        assert_eq!(nodes, vec![539, 55, 6, 116, 35]);
    }

    /// An unsolvable 8-puzzle (two tiles swapped): BFWS runs dry and
    /// proves it, having expanded every reachable position; IW(1) drops
    /// positions that are not novel, so running dry proves nothing.
    #[test]
    fn only_a_search_that_dropped_nothing_proves_there_is_no_solution() {
        let p = Eight { manhattan: true };
        let swapped: EightState = Eight::goal() ^ 3 ^ (3 << 4);
        assert_eq!((Eight::tile(swapped, 0), Eight::tile(swapped, 1)), (2, 1));
        let o = bfws(&p, &swapped, &Budget::unlimited());
        assert!(o.proven_unsolvable && o.moves.is_none());
        assert_eq!(o.nodes, 181_440);
        let o = iw1(&p, &swapped, &Budget::unlimited());
        assert!(!o.proven_unsolvable && o.moves.is_none() && o.stopped.is_none());
        assert!(o.nodes < 1000);
    }

    /// With pairs of atoms (three lists: novel at width 1, at width 2,
    /// neither) the search still wins, still proves an unsolvable puzzle
    /// by expanding every position, and its pairs count in its bytes.
    #[test]
    fn width_two_keeps_the_search_complete() {
        let p = Paired(Eight { manhattan: true });
        let mut rng = Rng::new(3);
        let mut pairs_expanded = 0;
        for _ in 0..5 {
            let s = Eight::scrambled(&mut rng, 60);
            let o = bfws(&p, &s, &Budget::unlimited());
            assert!(wins(&p, &s, o.moves.as_ref().unwrap()));
            let mut search = ResumableBfws::new(&p, &s);
            search.run(&Budget::unlimited());
            pairs_expanded += search.search.pairs_seen.len();
            assert!(search.bytes() >= search.search.pairs_seen.len() * 8);
        }
        assert!(pairs_expanded > 0);
        let swapped: EightState = Eight::goal() ^ 3 ^ (3 << 4);
        let o = bfws(&p, &swapped, &Budget::unlimited());
        assert!(o.proven_unsolvable && o.nodes == 181_440);
    }

    /// Pairs are novel once per partition, and only the pairs with an
    /// atom the parent did not have are looked at.
    #[test]
    fn pairs_are_novel_once_per_partition() {
        let p = Paired(Eight { manhattan: false });
        let mut search = Search::new(&p, &Eight::goal(), false);
        let (a, b) = (Eight::goal(), p.apply(&Eight::goal(), Slide::Up));
        search.arena.push(Node {
            state: b,
            parent: 0,
            mv: None,
        });
        search.parent_pairs.clear();
        assert!(search.is_pair_novel(1, 7), "a new partition");
        assert!(!search.is_pair_novel(1, 7), "the same pairs again");
        assert!(search.is_pair_novel(1, 8), "another partition");
        p.pair_atoms(&b, &mut search.parent_pairs);
        assert!(!search.is_pair_novel(1, 9), "no atom its parent lacked");
        search.arena.push(Node {
            state: a,
            parent: 1,
            mv: None,
        });
        assert!(search.is_pair_novel(2, 7), "the tile and blank moved");
    }

    #[test]
    fn a_budget_stops_the_search_with_nothing_proven() {
        let p = Eight { manhattan: true };
        let s = Eight::scrambled(&mut Rng::new(5), 80);
        let o = bfws(&p, &s, &Budget::unlimited().with_node_limit(10));
        assert_eq!((o.stopped, o.nodes), (Some(BudgetExceeded::Nodes), 10));
        assert!(o.moves.is_none() && !o.proven_unsolvable);
        let o = bfws(&p, &s, &Budget::new(None, 1000));
        assert_eq!(o.stopped, Some(BudgetExceeded::Memory));
    }

    /// Runs `search` in slices of `slice` nodes until a slice ends it
    /// otherwise than by its node limit; the last outcome.
    fn in_slices<P: AtomProblem>(search: &mut ResumableBfws<P>, slice: u64) -> Outcome<P::Move> {
        let budget = Budget::unlimited().with_node_limit(slice);
        loop {
            let o = search.run(&budget);
            if o.stopped != Some(BudgetExceeded::Nodes) {
                return o;
            }
            assert!(o.moves.is_none() && !search.is_settled());
        }
    }

    #[test]
    fn slices_give_one_run_s_result_and_nodes() {
        let p = Eight { manhattan: true };
        let mut rng = Rng::new(21);
        for k in 0..10 {
            let s = Eight::scrambled(&mut rng, 60 + 30 * k);
            let whole = bfws(&p, &s, &Budget::unlimited());
            let slice = 1 + rng.below(200);
            let o = in_slices(&mut ResumableBfws::new(&p, &s), slice);
            assert_eq!((&o.moves, o.nodes), (&whole.moves, whole.nodes), "{k}");
            assert_eq!(o.proven_optimal, whole.proven_optimal);
        }
        let mut rng = Rng::new(22);
        for i in 0..200 {
            let mut g = Graph::random(&mut rng, 40, 3, 15);
            g.informed = i % 2 == 0;
            let whole = bfws(&g, &0, &Budget::unlimited());
            let o = in_slices(&mut ResumableBfws::new(&g, &0), 1 + rng.below(5));
            assert_eq!((&o.moves, o.nodes), (&whole.moves, whole.nodes), "{i}");
            assert_eq!(o.proven_unsolvable, whole.proven_unsolvable, "{i}");
        }
    }

    /// Settled: a later call expands nothing and returns the same outcome.
    #[test]
    fn a_settled_search_expands_nothing_more() {
        let p = Eight { manhattan: true };
        let s = Eight::scrambled(&mut Rng::new(8), 80);
        let mut search = ResumableBfws::new(&p, &s);
        let o = search.run(&Budget::unlimited());
        assert!(o.moves.is_some() && search.is_settled());
        let again = search.run(&Budget::unlimited());
        assert_eq!((again.moves, again.nodes), (o.moves, search.nodes()));
        assert!(search.bytes() > 0);
    }

    /// A start bounded at infinity (a dead position) is proven to have
    /// no solution without an expansion.
    #[test]
    fn a_start_bounded_at_infinity_has_no_solution() {
        /// One step from 0 to the goal 1, and every bound infinite.
        struct Dead;
        impl Problem for Dead {
            type State = u8;
            type Move = u8;
            fn moves(&self, s: &u8, out: &mut Vec<u8>) {
                out.extend((*s == 0).then_some(1));
            }
            fn apply(&self, _: &u8, m: u8) -> u8 {
                m
            }
            fn is_goal(&self, s: &u8) -> bool {
                *s == 1
            }
            fn lower_bound(&self, _: &u8) -> u32 {
                u32::MAX
            }
        }
        impl Keyed for Dead {
            type Key = u8;
            fn key(&self, s: &u8) -> u8 {
                *s
            }
        }
        impl AtomProblem for Dead {
            fn atoms(&self, s: &u8, out: &mut Vec<u64>) {
                out.push(1 << s);
            }
        }
        let o = bfws(&Dead, &0, &Budget::unlimited());
        assert!(o.proven_unsolvable && o.nodes == 0);
    }

    /// IW(1) finds a goal within width 1: one tile out of place.
    #[test]
    fn iw1_solves_a_width_one_problem() {
        let p = Eight { manhattan: true };
        let s = p.apply(&p.apply(&Eight::goal(), Slide::Up), Slide::Left);
        let o = iw1(&p, &s, &Budget::unlimited());
        assert_eq!(o.len(), Some(2));
        assert!(o.proven_optimal, "2 meets the Manhattan bound");
    }
}
