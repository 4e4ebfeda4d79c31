//! Fast, inexact strategies: greedy play with lookahead, and the leaf
//! optimiser that shortens a solution by dropping moves.
//!
//! Greedy guarantees only a winning sequence; it says `optimal=proven`
//! only when its length meets the layered lower bound. Both are used by the
//! exact searches as a first incumbent and as a fallback when a budget ends.

use super::heuristic::layered_bound;
use super::regions::BitGraph;
use crate::solver::{Bits, Budget};

/// The moves worth trying from `(f, b)`: the one colour an elimination
/// move finishes, if any, else every colour on the border (bitmask).
#[inline]
pub fn candidate_moves<const N: usize>(g: &BitGraph<N>, f: &Bits<N>, b: &Bits<N>) -> u32 {
    let on_border = g.colours_in(b);
    let fb = f.or(b);
    let mut m = on_border;
    while m != 0 {
        let c = m.trailing_zeros() as usize;
        m &= m - 1;
        if g.by_colour[c].is_subset(&fb) {
            return 1 << c;
        }
    }
    on_border
}

/// Smallest `steps + bound` reachable within `depth` moves (0 when won).
fn look<const N: usize>(g: &BitGraph<N>, f: &Bits<N>, b: &Bits<N>, depth: usize) -> usize {
    let left = g.colours_left(f);
    if left == 0 {
        return 0;
    }
    if depth == 0 || left.count_ones() == 1 {
        return layered_bound(g, f, b, left);
    }
    let mut best = usize::MAX;
    let mut moves = candidate_moves(g, f, b);
    while moves != 0 {
        let c = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let (nf, nb) = g.play(f, b, c);
        best = best.min(1 + look(g, &nf, &nb, depth - 1));
    }
    best
}

/// Plays greedily from `(f, b)` to the end: each step takes the move whose
/// `depth`-move lookahead has the smallest `moves + bound`, ties to the
/// move that floods the most regions.
pub fn complete<const N: usize>(
    g: &BitGraph<N>,
    mut f: Bits<N>,
    mut b: Bits<N>,
    depth: usize,
) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let left = g.colours_left(&f);
        if left == 0 {
            return out;
        }
        if left.count_ones() == 1 {
            out.push(left.trailing_zeros() as u8);
            return out;
        }
        let mut best: Option<(usize, usize, u8)> = None;
        let mut moves = candidate_moves(g, &f, &b);
        while moves != 0 {
            let c = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let (nf, nb) = g.play(&f, &b, c);
            let score = look(g, &nf, &nb, depth.saturating_sub(1));
            let gain = usize::MAX - nf.count();
            if best.is_none_or(|(s, gn, _)| (score, gain) < (s, gn)) {
                best = Some((score, gain, c));
            }
        }
        let c = best.expect("a non-won state has a border colour").2;
        (f, b) = g.play(&f, &b, c);
        out.push(c);
    }
}

/// Greedy from the start state.
pub fn greedy<const N: usize>(g: &BitGraph<N>, depth: usize) -> Vec<u8> {
    let (f, b) = g.start_state();
    complete(g, f, b, depth)
}

/// True when `moves` floods every region.
pub fn wins<const N: usize>(g: &BitGraph<N>, moves: &[u8]) -> bool {
    let (mut f, mut b) = g.start_state();
    for &c in moves {
        (f, b) = g.play(&f, &b, c);
    }
    g.all.is_subset(&f)
}

/// The leaf optimiser: repeatedly tries to drop each move (and each pair
/// of adjacent moves, re-completing greedily after the cut) and keeps any
/// shorter sequence that still wins, until no drop helps or time is up.
pub fn optimise<const N: usize>(g: &BitGraph<N>, mut moves: Vec<u8>, budget: &Budget) -> Vec<u8> {
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
            if wins(g, &cand) {
                moves = cand;
                improved = true;
                continue;
            }
            // Drop move i, then let greedy finish from there.
            let (mut f, mut b) = g.start_state();
            for &c in &cand[..i] {
                (f, b) = g.play(&f, &b, c);
            }
            let mut tail = complete(g, f, b, if g.colour.len() <= 512 { 2 } else { 1 });
            if i + tail.len() < moves.len() {
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

/// Beam search: keeps the `width` most promising distinct states of each
/// depth (smallest `depth + bound`, then most regions flooded) and returns
/// the first solution found. Not exact, but usually within a move of the
/// optimum; A* uses it to improve its incumbent on hard boards.
pub fn beam<const N: usize>(g: &BitGraph<N>, width: usize, budget: &Budget) -> Option<Vec<u8>> {
    use std::collections::HashSet;
    let (f0, b0) = g.start_state();
    if g.colours_left(&f0) == 0 {
        return Some(Vec::new());
    }
    // (bound, -flooded, f, b, moves)
    let mut layer: Vec<(usize, usize, Bits<N>, Bits<N>, Vec<u8>)> =
        vec![(0, 0, f0, b0, Vec::new())];
    let mut seen: HashSet<Bits<N>> = HashSet::new();
    loop {
        if budget.time_up() {
            return None;
        }
        let mut next = Vec::with_capacity(layer.len() * 4);
        seen.clear();
        for (i, (_, _, f, b, moves)) in layer.iter().enumerate() {
            if i % 16 == 15 && budget.time_up() {
                return None;
            }
            let left_here = g.colours_left(f);
            let mut cands = candidate_moves(g, f, b);
            while cands != 0 {
                let c = cands.trailing_zeros() as u8;
                cands &= cands - 1;
                let (nf, nb) = g.play(f, b, c);
                let left = if g.by_colour[c as usize].is_subset(&nf) {
                    left_here & !(1 << c)
                } else {
                    left_here
                };
                if left.count_ones() <= 1 {
                    let mut m = moves.clone();
                    m.push(c);
                    if left != 0 {
                        m.push(left.trailing_zeros() as u8);
                    }
                    return Some(m);
                }
                if !seen.insert(nf) {
                    continue;
                }
                let h = layered_bound(g, &nf, &nb, left);
                let mut m = moves.clone();
                m.push(c);
                next.push((h, usize::MAX - nf.count(), nf, nb, m));
            }
        }
        if next.len() > width {
            next.select_nth_unstable_by_key(width, |e| (e.0, e.1));
            next.truncate(width);
        }
        layer = next;
    }
}
