//! Fast, inexact searches and solution shorteners.
//!
//! - [`greedy_scored`]: repeatedly plays the move whose depth-`d`
//!   lookahead reaches the smallest `moves + score` ([`Scored::score`]); a
//!   goal scores 0 and a state
//!   with a known [`Problem::exact_completion`] the completion's length,
//!   and neither is looked past. Ties go to the smaller
//!   [`Scored::tie_break`] of the move's child, then to the first move.
//!   Positions already on the path are not revisited.
//! - [`beam`]: breadth-first layers cut to the `width` children with the
//!   smallest lower bound (or score, then tie-break, via [`beam_scored`]);
//!   duplicates removed by exact key over all layers or, with
//!   [`Duplicates::WithinLayer`], within each layer. A child that is a
//!   goal or has an exact completion ends the search.
//! - [`optimise`]: the leaf optimiser: removes each move of a solution in
//!   turn while the rest still wins ([`wins`]), and otherwise cuts the
//!   solution at that move and lets [`greedy_scored`] finish from there,
//!   keeping what is shorter.
//!
//! Users: Flood (`greedy_scored`, `beam_scored`, `optimise`), Pegs
//! (`beam_scored`), Fifteen (`beam`).
//!
//! Honesty: a solution is called optimal only when its length equals a
//! proven lower bound: the start's lower bound, or for [`beam`] the depth
//! at which it found the goal when no layer was ever cut (then the beam
//! was a full breadth-first search, which also proves unsolvability when
//! it runs dry). Otherwise the outcome is "unproven".

use rustc_hash::FxHashSet;
use std::time::{Duration, Instant};

use super::budget::{Budget, BudgetExceeded};
use super::outcome::Outcome;
use super::problem::{replay, wins, Keyed, Problem};

/// A problem with its own score for greedy choices (smaller is better),
/// e.g. a weighted or inadmissible estimate, and a tie-break.
pub trait Scored: Problem {
    /// How promising `state` looks; smaller is better.
    fn score(&self, state: &Self::State) -> i64;

    /// Among equal scores, the smaller goes first (default: no
    /// preference, so the first generated wins).
    fn tie_break(&self, state: &Self::State) -> i64 {
        let _ = state;
        0
    }
}

/// The outcome of an inexact search that found `moves` (or not).
fn honest<M>(
    moves: Option<Vec<M>>,
    bound: u32,
    stopped: Option<BudgetExceeded>,
    nodes: u64,
    elapsed: Duration,
) -> Outcome<M> {
    match stopped {
        Some(why) => Outcome::stopped(moves, bound, why, nodes, elapsed),
        None => {
            let bound = moves.as_ref().map_or(bound, |m| bound.min(m.len() as u32));
            Outcome {
                proven_optimal: moves.as_ref().is_some_and(|m| m.len() as u32 <= bound),
                moves,
                lower_bound: bound,
                proven_unsolvable: false,
                nodes,
                elapsed,
                stopped: None,
            }
        }
    }
}

/// How a greedy choice ranks: lookahead value, then tie-break.
type Rank = (i64, i64);

/// A value no lookahead reaches: a dead end.
const DEAD_END: i64 = i64::MAX / 2;

struct Look<'a, P: Problem, F> {
    problem: &'a P,
    score: F,
    nodes: u64,
    buffers: Vec<Vec<P::Move>>,
}

impl<P: Problem, F: Fn(&P::State) -> i64> Look<'_, P, F> {
    /// The smallest `moves + score` within `left` moves of `s`: 0 at a
    /// goal, the completion's length where one is known, the score at the
    /// horizon, [`DEAD_END`] with no move.
    fn value(&mut self, s: &P::State, left: u32) -> i64 {
        if self.problem.is_goal(s) {
            return 0;
        }
        if let Some(c) = self.problem.exact_completion(s) {
            return c.len() as i64;
        }
        if left == 0 {
            return (self.score)(s);
        }
        self.nodes += 1;
        let mut moves = self.take(left);
        self.problem.moves(s, &mut moves);
        let mut best = DEAD_END;
        for &mv in &moves {
            let v = self.value(&self.problem.apply(s, mv), left - 1);
            best = best.min(v.saturating_add(1));
        }
        moves.clear();
        self.buffers[left as usize] = moves;
        best
    }

    fn take(&mut self, left: u32) -> Vec<P::Move> {
        if self.buffers.len() <= left as usize {
            self.buffers.resize_with(left as usize + 1, Vec::new);
        }
        std::mem::take(&mut self.buffers[left as usize])
    }
}

/// Greedy descent with a lookahead of `depth` scored by [`Scored::score`]
/// and tie-broken by [`Scored::tie_break`].
pub fn greedy_scored<P: Keyed + Scored>(
    problem: &P,
    start: &P::State,
    depth: u32,
    budget: &Budget,
) -> Outcome<P::Move> {
    let score = |s: &P::State| problem.score(s);
    let tie = |s: &P::State| problem.tie_break(s);
    let t0 = Instant::now();
    let depth = depth.max(1);
    let h0 = problem.lower_bound(start);
    let mut look = Look {
        problem,
        score,
        nodes: 0,
        buffers: Vec::new(),
    };
    let mut on_path = FxHashSet::default();
    on_path.insert(problem.key(start));
    let mut state = start.clone();
    let mut path = Vec::new();
    let mut moves = Vec::new();
    loop {
        if problem.is_goal(&state) {
            return honest(Some(path), h0, None, look.nodes, t0.elapsed());
        }
        if let Some(c) = problem.exact_completion(&state) {
            path.extend(c);
            return honest(Some(path), h0, None, look.nodes, t0.elapsed());
        }
        if let Err(why) = budget.check_nodes(look.nodes, on_path.capacity() * 16) {
            return honest(None, h0, Some(why), look.nodes, t0.elapsed());
        }
        moves.clear();
        problem.moves(&state, &mut moves);
        // (value, tie-break), move, child
        let mut choice: Option<(Rank, P::Move, P::State)> = None;
        for &mv in &moves {
            let child = problem.apply(&state, mv);
            if on_path.contains(&problem.key(&child)) {
                continue;
            }
            let v = (look.value(&child, depth - 1), tie(&child));
            if choice.as_ref().is_none_or(|c| v < c.0) {
                choice = Some((v, mv, child));
            }
        }
        let Some((_, mv, child)) = choice else {
            // Dead end: every move leads back onto the path.
            return honest(None, h0, None, look.nodes, t0.elapsed());
        };
        on_path.insert(problem.key(&child));
        path.push(mv);
        state = child;
    }
}

/// Which duplicates a beam search drops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Duplicates {
    /// A state seen in any earlier layer or earlier in this one.
    Everywhere,
    /// Only a state seen earlier in the same layer (for problems whose
    /// states can be met again only deeper, where a later copy is rare and
    /// the check across layers costs more than it saves).
    WithinLayer,
}

/// A beam child: score, tie-break, parent index, move, state.
type BeamKid<P> = (i64, i64, u32, <P as Problem>::Move, <P as Problem>::State);

/// Beam search of `width` (at least 1) guided by the lower bound, with
/// duplicates dropped everywhere.
pub fn beam<P: Keyed>(
    problem: &P,
    start: &P::State,
    width: usize,
    budget: &Budget,
) -> Outcome<P::Move> {
    let bound = |s: &P::State| problem.lower_bound(s) as i64;
    run_beam(
        problem,
        start,
        width,
        Duplicates::Everywhere,
        budget,
        bound,
        |_| 0,
    )
}

/// Beam search of `width` guided by [`Scored::score`] then
/// [`Scored::tie_break`], dropping `duplicates`.
pub fn beam_scored<P: Keyed + Scored>(
    problem: &P,
    start: &P::State,
    width: usize,
    duplicates: Duplicates,
    budget: &Budget,
) -> Outcome<P::Move> {
    let score = |s: &P::State| problem.score(s);
    let tie = |s: &P::State| problem.tie_break(s);
    run_beam(problem, start, width, duplicates, budget, score, tie)
}

fn run_beam<P: Keyed>(
    problem: &P,
    start: &P::State,
    width: usize,
    duplicates: Duplicates,
    budget: &Budget,
    score: impl Fn(&P::State) -> i64,
    tie: impl Fn(&P::State) -> i64,
) -> Outcome<P::Move> {
    let t0 = Instant::now();
    let width = width.max(1);
    let h0 = problem.lower_bound(start);
    if problem.is_goal(start) {
        return Outcome::optimal(Vec::new(), 0, t0.elapsed());
    }
    let mut seen = FxHashSet::default();
    seen.insert(problem.key(start));
    // Each layer: (state, index of its parent in the previous layer's
    // history, move). History keeps every layer for the path back.
    let mut history: Vec<Vec<(u32, P::Move)>> = Vec::new();
    let mut history_bytes = 0usize;
    let mut layer: Vec<P::State> = vec![start.clone()];
    let mut cut = false;
    let mut nodes = 0u64;
    let mut moves = Vec::new();
    let mut kids: Vec<BeamKid<P>> = Vec::new();
    loop {
        // What the search holds: the duplicate set, the layers kept for
        // the path back, the current layer and the children's buffer.
        let held = seen.capacity() * 16
            + history_bytes
            + layer.capacity() * std::mem::size_of::<P::State>()
            + kids.capacity() * std::mem::size_of::<BeamKid<P>>();
        if let Err(why) = budget.check_nodes(nodes, held) {
            let bound = if cut {
                h0
            } else {
                h0.max(history.len() as u32 + 1)
            };
            return honest(None, bound, Some(why), nodes, t0.elapsed());
        }
        kids.clear();
        if duplicates == Duplicates::WithinLayer {
            seen.clear();
        }
        for (i, s) in layer.iter().enumerate() {
            nodes += 1;
            moves.clear();
            problem.moves(s, &mut moves);
            for &mv in &moves {
                let child = problem.apply(s, mv);
                let goal = problem.is_goal(&child);
                let completion = if goal {
                    None
                } else {
                    problem.exact_completion(&child)
                };
                if goal || completion.is_some() {
                    let mut path = vec![mv];
                    let mut at = i as u32;
                    for h in history.iter().rev() {
                        let (parent, m) = h[at as usize];
                        path.push(m);
                        at = parent;
                    }
                    path.reverse();
                    // Uncut, every shallower state was expanded: no goal
                    // lies nearer than this layer.
                    let depth = path.len() as u32;
                    path.extend(completion.unwrap_or_default());
                    let bound = if cut { h0 } else { depth.max(h0) };
                    return honest(Some(path), bound, None, nodes, t0.elapsed());
                }
                if !seen.insert(problem.key(&child)) {
                    continue;
                }
                kids.push((score(&child), tie(&child), i as u32, mv, child));
            }
        }
        if kids.is_empty() {
            if cut {
                return honest(None, h0, None, nodes, t0.elapsed());
            }
            return Outcome::unsolvable(nodes, t0.elapsed());
        }
        if kids.len() > width {
            cut = true;
            kids.select_nth_unstable_by_key(width, |k| (k.0, k.1));
            kids.truncate(width);
        }
        history.push(kids.iter().map(|k| (k.2, k.3)).collect());
        history_bytes += kids.len() * std::mem::size_of::<(u32, P::Move)>();
        layer = kids.drain(..).map(|k| k.4).collect();
    }
}

/// The leaf optimiser: at each move `i` of a solution,
/// drops it if the rest still wins, else lets [`greedy_scored`] (lookahead
/// `depth`) finish from the position before move `i` and keeps that when
/// shorter; repeats until a pass changes nothing or the budget's time is
/// up. Returns `moves` unchanged when it does not win in the first place.
pub fn optimise<P: Keyed + Scored>(
    problem: &P,
    start: &P::State,
    moves: Vec<P::Move>,
    depth: u32,
    budget: &Budget,
) -> Vec<P::Move> {
    let mut moves = moves;
    if !wins(problem, start, &moves) {
        return moves;
    }
    let mut improved = true;
    while improved && !budget.time_up() {
        improved = false;
        let mut i = 0;
        while i < moves.len() {
            if budget.time_up() {
                return moves;
            }
            let mut cand = moves.clone();
            cand.remove(i);
            if wins(problem, start, &cand) {
                moves = cand;
                improved = true;
                continue;
            }
            // Cut before move i and let greedy finish from there.
            let tail = replay(problem, start, &cand[..i])
                .and_then(|s| greedy_scored(problem, &s, depth, budget).moves);
            if let Some(mut tail) = tail.filter(|t| i + t.len() < moves.len()) {
                cand.truncate(i);
                cand.append(&mut tail);
                moves = cand;
                improved = true;
                continue;
            }
            i += 1;
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::bfs::bfs;
    use crate::solver::testing::{Eight, Graph, Rng};

    #[test]
    fn greedy_and_beam_find_valid_solutions_no_shorter_than_bfs() {
        let md = Eight { manhattan: true };
        let mut rng = Rng::new(41);
        for i in 0..30 {
            let s = Eight::scrambled(&mut rng, 200);
            let exact = bfs(&md, &s, &Budget::unlimited()).len().unwrap();
            for o in [
                greedy_scored(&md, &s, 3, &Budget::unlimited()),
                beam(&md, &s, 200, &Budget::unlimited()),
            ] {
                if let Some(m) = &o.moves {
                    assert!(wins(&md, &s, m), "instance {i}");
                    assert!(m.len() >= exact);
                    assert_eq!(o.proven_optimal, m.len() as u32 == o.lower_bound);
                    assert!(o.lower_bound as usize <= exact);
                }
            }
            // A wide enough beam finds the puzzle solved.
            assert!(beam(&md, &s, 2000, &Budget::unlimited()).moves.is_some());
        }
    }

    #[test]
    fn an_uncut_beam_is_breadth_first_search() {
        let mut rng = Rng::new(17);
        for i in 0..300 {
            let g = Graph::random(&mut rng, 30, 3, 12);
            let exact = bfs(&g, &0, &Budget::unlimited());
            let o = beam(&g, &0, 1000, &Budget::unlimited());
            assert_eq!(o.len(), exact.len(), "instance {i}");
            assert_eq!(o.proven_unsolvable, exact.proven_unsolvable);
            assert_eq!(o.proven_optimal, exact.proven_optimal);
            // A narrow beam never claims what it did not prove.
            let o = beam(&g, &0, 1, &Budget::unlimited());
            if o.proven_unsolvable {
                assert!(exact.proven_unsolvable);
            }
            if let Some(m) = &o.moves {
                assert!(wins(&g, &0, m) && m.len() >= exact.len().unwrap());
                if o.proven_optimal {
                    assert_eq!(Some(m.len()), exact.len());
                }
            }
            let o = greedy_scored(&g, &0, 2, &Budget::unlimited());
            if let Some(m) = &o.moves {
                assert!(wins(&g, &0, m) && m.len() >= exact.len().unwrap());
            }
            assert!(!o.proven_unsolvable);
        }
    }
}
