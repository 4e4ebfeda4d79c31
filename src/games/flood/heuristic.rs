//! Admissible lower bounds on the number of moves still needed from a
//! flooded set `f` (with border `b`, the regions adjacent to `f`).
//!
//! - [`colours_bound`]: every colour with a region outside `f` needs a move.
//! - [`distance_bound`]: a move absorbs at most the next breadth-first layer
//!   around `f`, so the number of layers needed to reach every region is a
//!   bound.
//! - [`layered_bound`]: Puchert's layered bound (after aaronpuchert/floodit),
//!   which dominates both: walk outwards layer by layer in a relaxed game; if
//!   some colours have all their remaining regions inside what is reached,
//!   each of them costs one move and only their regions of the current layer
//!   are expanded (this is the "deadlock" refinement: the colours still to be
//!   played after reaching the farthest regions are counted); otherwise one
//!   colour-blind move takes the whole next layer. When one colour is left it
//!   costs one more move.
//!
//! The search uses [`layered_bound`]; tests check that it is never below
//! the other two and never above the true optimum (exhaustive breadth-first
//! search on random small boards).

use super::regions::BitGraph;
use crate::solver::Bits;

/// Number of colours with regions outside `f`.
pub fn colours_bound<const N: usize>(g: &BitGraph<N>, f: &Bits<N>) -> usize {
    g.colours_left(f).count_ones() as usize
}

/// Number of breadth-first layers around `f` needed to reach every region.
pub fn distance_bound<const N: usize>(g: &BitGraph<N>, f: &Bits<N>) -> usize {
    let mut visited = *f;
    let mut layer = *f;
    let mut d = 0;
    while !g.all.is_subset(&visited) {
        layer = g.neighbours_of(&layer).and_not(&visited);
        if layer.is_empty() {
            break; // disconnected; cannot happen for a board
        }
        visited.or_assign(&layer);
        d += 1;
    }
    d
}

/// The "deadlock" schedule bound: with `L_j` the regions at breadth-first
/// distance `j` from `f`, a region at distance `j` can only be taken by a
/// move numbered `j` or later, and each move takes one colour, so for every
/// `j >= 1` at least `j - 1 + |colours(L_j ∪ L_{j+1} ∪ ...)|` moves remain.
/// With `j = 1` this is [`colours_bound`]; at the farthest layer it is the
/// distance plus the colours that must still be played there.
pub fn schedule_bound<const N: usize>(g: &BitGraph<N>, f: &Bits<N>, b: &Bits<N>) -> usize {
    let mut layer_colours = Vec::new();
    let mut visited = f.or(b);
    let mut layer = *b;
    while !layer.is_empty() {
        layer_colours.push(g.colours_in(&layer));
        layer = g.neighbours_of(&layer).and_not(&visited);
        visited.or_assign(&layer);
    }
    let mut suffix = 0u32;
    let mut best = 0;
    for j in (0..layer_colours.len()).rev() {
        suffix |= layer_colours[j];
        best = best.max(j + suffix.count_ones() as usize);
    }
    best
}

/// Puchert's layered bound; `left` is [`BitGraph::colours_left`] of `f`.
#[inline]
pub fn layered_bound<const N: usize>(
    g: &BitGraph<N>,
    f: &Bits<N>,
    b: &Bits<N>,
    left: u32,
) -> usize {
    layered_bound_capped(g, f, b, left, usize::MAX)
}

/// [`layered_bound`], but the walk stops as soon as the bound is known to
/// reach `cap` (the caller only needs to know that it is at least `cap`);
/// the result is then some value `>= cap` and `<=` the full bound.
#[inline]
pub fn layered_bound_capped<const N: usize>(
    g: &BitGraph<N>,
    f: &Bits<N>,
    b: &Bits<N>,
    mut left: u32,
    cap: usize,
) -> usize {
    if left & left.wrapping_sub(1) == 0 || left.count_ones() as usize >= cap {
        return left.count_ones() as usize;
    }
    let mut visited = *f;
    let mut cur = *b;
    let mut d = 0;
    loop {
        visited.or_assign(&cur);
        // Colours left with no region outside `visited`; branch-free, as
        // the outcome of each test is unpredictable.
        let mut completed = 0u32;
        let mut rest = left;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize & 15;
            rest &= rest - 1;
            let bc = &g.by_colour[c];
            let mut outside = 0u64;
            for k in 0..N {
                outside |= bc.0[k] & !visited.0[k];
            }
            completed |= ((outside == 0) as u32) << c;
        }
        if completed != 0 {
            left ^= completed;
            d += completed.count_ones() as usize;
            if left & left.wrapping_sub(1) == 0 {
                return d + left.count_ones() as usize;
            }
            // Expand only the current regions of the completed colours
            // (all of them in one neighbour union).
            let mut of_completed = Bits::<N>::new();
            let mut cs = completed;
            while cs != 0 {
                let c = cs.trailing_zeros() as usize & 15;
                cs &= cs - 1;
                of_completed.or_assign(&g.by_colour[c]);
            }
            let x = cur.and(&of_completed);
            let next = g.neighbours_of(&x);
            cur = cur.and_not(&x).or(&next.and_not(&visited));
        } else {
            // Colour-blind move: take the whole current layer.
            d += 1;
            // Every colour still left costs one more move, so the bound is
            // at least `d + |left|` (the bound is exactly the number of
            // colours left at the start plus the colour-blind moves).
            let at_least = d + left.count_ones() as usize;
            if at_least >= cap {
                return at_least;
            }
            cur = g.neighbours_of(&cur).and_not(&visited);
            debug_assert!(!cur.is_empty(), "region graph is connected");
            if cur.is_empty() {
                return d;
            }
        }
    }
}

/// The best bound from `f` (the largest of the four; the layered bound
/// dominates in practice, the max keeps that a checked fact, not an
/// assumption).
pub fn best_bound<const N: usize>(g: &BitGraph<N>, f: &Bits<N>, b: &Bits<N>) -> usize {
    let left = g.colours_left(f);
    layered_bound(g, f, b, left)
        .max(colours_bound(g, f))
        .max(distance_bound(g, f))
        .max(schedule_bound(g, f, b))
}

#[cfg(test)]
mod tests {
    use super::super::board::Board;
    use super::super::regions::RegionGraph;
    use super::*;

    #[test]
    fn bounds_on_a_small_board() {
        // 0 1 2
        // 1 2 0
        let b = Board::new(3, 2, 3, vec![0, 1, 2, 1, 2, 0]);
        let g = BitGraph::<1>::new(&RegionGraph::new(&b));
        let (f, bd) = g.start_state();
        assert_eq!(colours_bound(&g, &f), 3);
        assert_eq!(distance_bound(&g, &f), 3);
        let h = layered_bound(&g, &f, &bd, g.colours_left(&f));
        assert!(h >= 3);
        // The true optimum is 1,2,0: three moves (dominance and admissibility
        // on many boards are checked in solve.rs against breadth-first search).
        assert!(h <= 3);
    }
}
