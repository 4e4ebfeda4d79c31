//! Pagoda functions: weights on cells that no jump can increase.
//!
//! A pagoda function `p` gives each cell a weight such that for every jump
//! (from, over, to) of the board `p(from) + p(over) >= p(to)`; the total
//! weight of the pegs then never grows. A win leaves one peg on one of the
//! cells the position classes allow ([`super::classes::final_cells`]), so a
//! position whose total is below the smallest weight of those cells can
//! never be won and the search prunes it.
//!
//! [`Pagodas::for_position`] builds candidates from two families that are
//! pagodas on every board — `σ^d` with `σ = (√5 - 1) / 2` and `d` the
//! distance to a cell, a row or a column (`σ^2 + σ = 1`, so a jump towards
//! the centre at best keeps the total), and 0/1 functions grown from the
//! final cells by closing them under "a jump into the set comes from a peg
//! over a cell of the set" — then keeps those that pass the inequality on
//! every jump of the board (checked, not assumed) and can prune.

use super::classes::final_cells;
use super::rules::{cells_of, Board, Cells, Jump};

/// Tolerance for the floating-point comparisons (a total this far below
/// what a win needs still counts as reaching it).
pub const EPS: f64 = 1e-9;

/// One pagoda function with the weight a win needs.
#[derive(Debug, Clone)]
pub struct Pagoda {
    /// Weight per cell number (0 off the board).
    pub weights: Vec<f64>,
    /// The smallest weight of a cell the last peg can stand on.
    pub need: f64,
}

impl Pagoda {
    /// The total weight of `pegs`.
    pub fn value(&self, pegs: Cells) -> f64 {
        cells_of(pegs).map(|i| self.weights[i as usize]).sum()
    }

    /// True when `p(from) + p(over) >= p(to)` for every jump of `board`.
    pub fn is_valid(&self, board: &Board) -> bool {
        board.all_jumps().iter().all(|j| {
            self.weights[j.from as usize] + self.weights[j.over as usize]
                >= self.weights[j.to as usize] - EPS
        })
    }
}

/// The pagoda functions used to prune searches from one position.
#[derive(Debug, Clone, Default)]
pub struct Pagodas {
    /// The functions.
    pub list: Vec<Pagoda>,
}

/// At most this many functions are kept (each costs a little per node).
const MAX_PAGODAS: usize = 6;

impl Pagodas {
    /// No pruning.
    pub fn none() -> Pagodas {
        Pagodas::default()
    }

    /// Pagoda functions for positions reachable from `pegs` on `board`.
    pub fn for_position(board: &Board, pegs: Cells) -> Pagodas {
        let finals = final_cells(board, pegs);
        if finals == 0 {
            return Pagodas::none();
        }
        // 0/1 closures of the final cells.
        let mut cands = closure_weights(board, finals);
        // σ^distance to the centre of the final cells' bounding box (cell,
        // row and column versions) and to each final cell when few.
        let rc: Vec<(usize, usize)> = cells_of(finals).map(|i| board.row_col(i)).collect();
        let rmin = rc.iter().map(|x| x.0).min().unwrap();
        let rmax = rc.iter().map(|x| x.0).max().unwrap();
        let cmin = rc.iter().map(|x| x.1).min().unwrap();
        let cmax = rc.iter().map(|x| x.1).max().unwrap();
        let (r0, c0) = ((rmin + rmax) / 2, (cmin + cmax) / 2);
        let mut targets = vec![(Some(r0), Some(c0)), (Some(r0), None), (None, Some(c0))];
        if rc.len() <= 2 {
            targets.extend(rc.iter().map(|&(r, c)| (Some(r), Some(c))));
        }
        for (tr, tc) in targets {
            cands.push(golden_weights(board, tr, tc));
        }
        Pagodas::select(board, cands, finals)
    }

    /// Pagoda functions for a win whose last peg stands on cell `target`:
    /// `σ^d` for the distance to the target (cell, row, column), and the
    /// 0/1 closures of `{target}`; the weight needed is the target's.
    pub fn for_target(board: &Board, target: u8) -> Pagodas {
        let (tr, tc) = board.row_col(target);
        let mut cands: Vec<Vec<f64>> = Vec::new();
        for (use_r, use_c) in [(true, true), (true, false), (false, true)] {
            cands.push(golden_weights(
                board,
                use_r.then_some(tr),
                use_c.then_some(tc),
            ));
        }
        cands.extend(closure_weights(board, 1u128 << target));
        Pagodas::select(board, cands, 1u128 << target)
    }

    /// The candidates, in order, that are pagoda functions of `board` and
    /// can prune (their smallest weight on `finals`, the weight a win
    /// needs, is above 0), at most [`MAX_PAGODAS`] of them.
    fn select(board: &Board, cands: Vec<Vec<f64>>, finals: Cells) -> Pagodas {
        let mut list = Vec::new();
        for weights in cands {
            let need = cells_of(finals)
                .map(|i| weights[i as usize])
                .fold(f64::INFINITY, f64::min);
            let p = Pagoda { weights, need };
            if need > EPS && p.is_valid(board) && list.len() < MAX_PAGODAS {
                list.push(p);
            }
        }
        Pagodas { list }
    }

    /// The totals of `pegs` under each function.
    pub fn values(&self, pegs: Cells) -> Vec<f64> {
        self.list.iter().map(|p| p.value(pegs)).collect()
    }

    /// True when some function proves `pegs` lost.
    pub fn prunes(&self, pegs: Cells) -> bool {
        self.list.iter().any(|p| p.value(pegs) < p.need - EPS)
    }

    /// True when the totals `values` (as from [`Pagodas::values`]) prove
    /// the position lost.
    #[inline]
    pub fn prunes_values(&self, values: &[f64]) -> bool {
        self.list.iter().zip(values).any(|(p, &v)| v < p.need - EPS)
    }
}

/// `σ^d` on every cell of `board` (0 off it), `d` the distance to row
/// `tr` plus the distance to column `tc` (either left out when `None`),
/// `σ = (√5 - 1) / 2`.
fn golden_weights(board: &Board, tr: Option<usize>, tc: Option<usize>) -> Vec<f64> {
    let sigma = (5f64.sqrt() - 1.0) / 2.0;
    let pow: Vec<f64> = (0..board.width() + board.height())
        .map(|d| sigma.powi(d as i32))
        .collect();
    let dist = |a: usize, t: Option<usize>| t.map_or(0, |t| a.abs_diff(t));
    let mut w = Vec::with_capacity(board.width() * board.height());
    for r in 0..board.height() {
        for c in 0..board.width() {
            let on = board.cells() >> (r * board.width() + c) & 1 == 1;
            w.push(if on {
                pow[dist(r, tr) + dist(c, tc)]
            } else {
                0.0
            });
        }
    }
    w
}

/// The 0/1 functions of the closures of `seed` (see [`closure`]), growing
/// over the jumped cell first, then over the start cell; none that is the
/// whole board.
fn closure_weights(board: &Board, seed: Cells) -> Vec<Vec<f64>> {
    let n = board.width() * board.height();
    [true, false]
        .into_iter()
        .filter_map(|grow_over| closure(board, seed, grow_over))
        .map(|set| (0..n).map(|i| ((set >> i) & 1) as f64).collect())
        .collect()
}

/// The smallest superset of `seed` closed under "every jump landing in the
/// set starts on, or jumps over, a cell of the set" (adding the jumped-over
/// cell, or the start cell when `grow_over` is false). `None` when that is
/// the whole board (no pruning power).
fn closure(board: &Board, seed: Cells, grow_over: bool) -> Option<Cells> {
    // Passes over the jumps in board order until none adds a cell. A jump
    // whose start or jumped cell is in the set can never add one again
    // (the set only grows), so each pass drops those: the same additions
    // in the same order, over a shrinking list.
    let mut active: Vec<Jump> = board.all_jumps().to_vec();
    let mut set = seed;
    loop {
        let mut grew = false;
        active.retain(|j| {
            let inside = |i: u8| set >> i & 1 == 1;
            if inside(j.from) || inside(j.over) {
                return false;
            }
            if inside(j.to) {
                set |= 1u128 << if grow_over { j.over } else { j.from };
                grew = true;
                return false;
            }
            true
        });
        if !grew {
            break;
        }
    }
    (set != board.cells()).then_some(set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pegs::parse::{parse_game, ENGLISH};

    #[test]
    fn english_pagodas_are_valid_and_let_the_start_through() {
        let g = parse_game(ENGLISH).unwrap();
        let p = Pagodas::for_position(&g.board, g.pegs);
        assert!(!p.list.is_empty());
        for f in &p.list {
            assert!(f.is_valid(&g.board));
        }
        assert!(!p.prunes(g.pegs));
    }

    #[test]
    fn a_broken_function_is_rejected() {
        let g = parse_game("3x1:PPH").unwrap();
        let bad = Pagoda {
            weights: vec![0.0, 0.0, 1.0],
            need: 1.0,
        };
        assert!(!bad.is_valid(&g.board));
    }
}
