//! Fast, inexact searches and a solution shortener.
//!
//! - [`greedy`]: repeatedly plays the move whose depth-`d` lookahead
//!   reaches the best score (the lower bound, or [`Scored::score`] via
//!   [`greedy_scored`]), taking a goal as soon as the lookahead sees one
//!   (the nearest). Positions already on the path are not revisited.
//! - [`beam`]: breadth-first layers cut to the `width` children with the
//!   smallest lower bound (ties in generation order), duplicates removed by
//!   exact key over all layers.
//! - [`drop_moves`]: the leaf optimiser: removes each move of a solution
//!   in turn while the rest still wins ([`wins`]), until no single removal
//!   works.
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
use super::problem::{wins, Keyed, Problem};

/// A problem with its own score for greedy choices (smaller is better),
/// e.g. a weighted or inadmissible estimate.
pub trait Scored: Problem {
    /// How promising `state` looks; smaller is better.
    fn score(&self, state: &Self::State) -> i64;
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

/// Greedy descent with a lookahead of `depth` (at least 1) scored by the
/// lower bound.
pub fn greedy<P: Keyed>(
    problem: &P,
    start: &P::State,
    depth: u32,
    budget: &Budget,
) -> Outcome<P::Move> {
    run_greedy(problem, start, depth, budget, |s| {
        problem.lower_bound(s) as i64
    })
}

/// Greedy descent with a lookahead of `depth` scored by [`Scored::score`].
pub fn greedy_scored<P: Keyed + Scored>(
    problem: &P,
    start: &P::State,
    depth: u32,
    budget: &Budget,
) -> Outcome<P::Move> {
    run_greedy(problem, start, depth, budget, |s| problem.score(s))
}

struct Look<'a, P: Problem, F> {
    problem: &'a P,
    score: F,
    nodes: u64,
    buffers: Vec<Vec<P::Move>>,
}

impl<P: Problem, F: Fn(&P::State) -> i64> Look<'_, P, F> {
    /// Depth-limited search for a goal within `left` moves; the moves are
    /// pushed onto `path` when found.
    fn goal_within(&mut self, s: &P::State, left: u32, path: &mut Vec<P::Move>) -> bool {
        if self.problem.is_goal(s) {
            return true;
        }
        if left == 0 || self.problem.lower_bound(s) > left {
            return false;
        }
        self.nodes += 1;
        let mut moves = self.take(left);
        self.problem.moves(s, &mut moves);
        let mut found = false;
        for &mv in &moves {
            path.push(mv);
            if self.goal_within(&self.problem.apply(s, mv), left - 1, path) {
                found = true;
                break;
            }
            path.pop();
        }
        moves.clear();
        self.buffers[left as usize] = moves;
        found
    }

    /// The best score within `left` moves of `s`.
    fn best(&mut self, s: &P::State, left: u32) -> i64 {
        let here = (self.score)(s);
        if left == 0 {
            return here;
        }
        self.nodes += 1;
        let mut moves = self.take(left);
        self.problem.moves(s, &mut moves);
        let mut best = i64::MAX;
        for &mv in &moves {
            best = best.min(self.best(&self.problem.apply(s, mv), left - 1));
        }
        moves.clear();
        self.buffers[left as usize] = moves;
        if best == i64::MAX {
            here
        } else {
            best
        }
    }

    fn take(&mut self, left: u32) -> Vec<P::Move> {
        if self.buffers.len() <= left as usize {
            self.buffers.resize_with(left as usize + 1, Vec::new);
        }
        std::mem::take(&mut self.buffers[left as usize])
    }
}

fn run_greedy<P: Keyed>(
    problem: &P,
    start: &P::State,
    depth: u32,
    budget: &Budget,
    score: impl Fn(&P::State) -> i64,
) -> Outcome<P::Move> {
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
        if let Err(why) = budget.check_nodes(look.nodes, on_path.capacity() * 16) {
            return honest(None, h0, Some(why), look.nodes, t0.elapsed());
        }
        // The nearest goal within the lookahead, if any.
        for d in 0..=depth {
            let before = path.len();
            if look.goal_within(&state, d, &mut path) {
                return honest(Some(path), h0, None, look.nodes, t0.elapsed());
            }
            path.truncate(before);
        }
        moves.clear();
        problem.moves(&state, &mut moves);
        let mut choice: Option<(i64, P::Move, P::State)> = None;
        for &mv in &moves {
            let child = problem.apply(&state, mv);
            if on_path.contains(&problem.key(&child)) {
                continue;
            }
            let v = look.best(&child, depth - 1);
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

/// A beam child: lower bound, generation order, parent index, move, state.
type BeamKid<P> = (u32, usize, u32, <P as Problem>::Move, <P as Problem>::State);

/// Beam search of `width` (at least 1) guided by the lower bound.
pub fn beam<P: Keyed>(
    problem: &P,
    start: &P::State,
    width: usize,
    budget: &Budget,
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
    let mut layer: Vec<P::State> = vec![start.clone()];
    let mut cut = false;
    let mut nodes = 0u64;
    let mut moves = Vec::new();
    // (lower bound, generation order, parent index, move, state)
    let mut kids: Vec<BeamKid<P>> = Vec::new();
    loop {
        if let Err(why) = budget.check_nodes(nodes, seen.capacity() * 16) {
            let bound = if cut {
                h0
            } else {
                h0.max(history.len() as u32 + 1)
            };
            return honest(None, bound, Some(why), nodes, t0.elapsed());
        }
        kids.clear();
        for (i, s) in layer.iter().enumerate() {
            nodes += 1;
            moves.clear();
            problem.moves(s, &mut moves);
            for &mv in &moves {
                let child = problem.apply(s, mv);
                if !seen.insert(problem.key(&child)) {
                    continue;
                }
                if problem.is_goal(&child) {
                    let mut path = vec![mv];
                    let mut at = i as u32;
                    for h in history.iter().rev() {
                        let (parent, m) = h[at as usize];
                        path.push(m);
                        at = parent;
                    }
                    path.reverse();
                    let bound = if cut { h0 } else { path.len() as u32 };
                    return honest(Some(path), bound, None, nodes, t0.elapsed());
                }
                let order = kids.len();
                kids.push((problem.lower_bound(&child), order, i as u32, mv, child));
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
            kids.select_nth_unstable_by_key(width - 1, |k| (k.0, k.1));
            kids.truncate(width);
            kids.sort_unstable_by_key(|k| k.1);
        }
        history.push(kids.iter().map(|k| (k.2, k.3)).collect());
        layer = kids.drain(..).map(|k| k.4).collect();
    }
}

/// The leaf optimiser: drops moves from `moves` (a solution from `start`)
/// one at a time while the rest still wins, until no single drop works.
/// Returns `moves` unchanged when it does not win in the first place.
pub fn drop_moves<P: Problem>(problem: &P, start: &P::State, moves: &[P::Move]) -> Vec<P::Move> {
    let mut best = moves.to_vec();
    if !wins(problem, start, &best) {
        return best;
    }
    let mut improved = true;
    while improved {
        improved = false;
        let mut i = 0;
        while i < best.len() {
            let mut shorter = best.clone();
            shorter.remove(i);
            if wins(problem, start, &shorter) {
                best = shorter;
                improved = true;
            } else {
                i += 1;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::bfs::bfs;
    use crate::solver::testing::{Eight, Graph, Rng, Slide};

    #[test]
    fn greedy_and_beam_find_valid_solutions_no_shorter_than_bfs() {
        let md = Eight { manhattan: true };
        let mut rng = Rng::new(41);
        for i in 0..30 {
            let s = Eight::scrambled(&mut rng, 200);
            let exact = bfs(&md, &s, &Budget::unlimited()).len().unwrap();
            for o in [
                greedy(&md, &s, 3, &Budget::unlimited()),
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
            let o = greedy(&g, &0, 2, &Budget::unlimited());
            if let Some(m) = &o.moves {
                assert!(wins(&g, &0, m) && m.len() >= exact.len().unwrap());
            }
            assert!(!o.proven_unsolvable);
        }
    }

    #[test]
    fn drop_moves_removes_detours() {
        let md = Eight { manhattan: true };
        let s = Eight::goal();
        // Up, Down is a detour; Left, Right too.
        let long = [Slide::Up, Slide::Down, Slide::Left, Slide::Right];
        assert!(wins(&md, &s, &long));
        // Dropping one move at a time cannot remove an undo pair (the
        // rest would not win), so this one stays.
        assert_eq!(drop_moves(&md, &s, &long), long);
        // On a graph, a self-loop edge is dropped.
        let g = Graph {
            edges: vec![vec![0, 1], vec![2], vec![]],
            goal: vec![false, false, true],
            dist: vec![2, 1, 0],
            informed: false,
        };
        assert_eq!(drop_moves(&g, &0, &[0, 0, 1, 0]), vec![1, 0]);
        // A losing sequence is returned unchanged.
        assert_eq!(drop_moves(&g, &0, &[0]), vec![0]);
    }
}
