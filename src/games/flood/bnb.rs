//! Depth-first branch and bound, an anytime strategy: it finds a solution
//! quickly and improves it until the tree is exhausted (then the result is
//! proven optimal) or a budget ends (then it is the best found, with the
//! root's lower bound).
//!
//! Children are ordered dynamically by their layered bound (then by the
//! number of regions flooded). Limited discrepancy search runs first: passes
//! that allow 0, 1, 2, ... departures from the ordering, each pruning with
//! the best solution so far; then one unrestricted pass proves the result.
//! A transposition table (flooded set -> shallowest depth explored, with the
//! discrepancies left) skips states already searched at least as well.

use std::collections::HashMap;

use rustc_hash::FxBuildHasher;

use super::greedy::candidate_moves;
use super::heuristic::layered_bound_capped;
use super::regions::BitGraph;
use crate::solver::{Bits, Budget, BudgetExceeded};

/// The result of a branch-and-bound run.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Best solution found.
    pub moves: Vec<u8>,
    /// True when the unrestricted pass finished.
    pub exhausted: bool,
    /// Nodes visited.
    pub nodes: u64,
    /// Why the search stopped early, if it did.
    pub stopped: Option<BudgetExceeded>,
}

struct Dfs<'a, const N: usize> {
    g: &'a BitGraph<N>,
    budget: &'a Budget,
    tt: HashMap<Bits<N>, (u16, u16), FxBuildHasher>,
    best: Vec<u8>,
    path: Vec<u8>,
    nodes: u64,
    stopped: Option<BudgetExceeded>,
}

impl<const N: usize> Dfs<'_, N> {
    fn go(&mut self, f: Bits<N>, b: Bits<N>, disc: u16) {
        if self.stopped.is_some() {
            return;
        }
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            let held = self.tt.capacity() * (std::mem::size_of::<(Bits<N>, (u16, u16))>() + 1);
            if let Err(e) = self.budget.check(held * 2) {
                self.stopped = Some(e);
                return;
            }
        }
        let depth = self.path.len();
        let left = self.g.colours_left(&f);
        if left.count_ones() <= 1 {
            let len = depth + left.count_ones() as usize;
            if len < self.best.len() {
                self.best = self.path.clone();
                if left != 0 {
                    self.best.push(left.trailing_zeros() as u8);
                }
            }
            return;
        }
        let cap = self.best.len().saturating_sub(depth);
        if layered_bound_capped(self.g, &f, &b, left, cap) >= cap {
            return;
        }
        match self.tt.get_mut(&f) {
            Some(e) if e.0 as usize <= depth && e.1 >= disc => return,
            Some(e) => *e = (depth as u16, disc),
            None => {
                self.tt.insert(f, (depth as u16, disc));
            }
        }
        let mut kids: Vec<(usize, usize, u8, Bits<N>, Bits<N>)> = Vec::with_capacity(8);
        let mut moves = candidate_moves(self.g, &f, &b);
        while moves != 0 {
            let c = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let (nf, nb) = self.g.play(&f, &b, c);
            let cap = self.best.len().saturating_sub(depth + 1);
            let h = layered_bound_capped(self.g, &nf, &nb, self.g.colours_left(&nf), cap);
            kids.push((h, usize::MAX - nf.count(), c, nf, nb));
        }
        kids.sort_unstable_by_key(|k| (k.0, k.1));
        for (i, (h, _, c, nf, nb)) in kids.into_iter().enumerate() {
            let cost = u16::from(i > 0);
            if cost > disc {
                break;
            }
            if depth + 1 + h >= self.best.len() {
                continue;
            }
            self.path.push(c);
            self.go(nf, nb, disc - cost);
            self.path.pop();
            if self.stopped.is_some() {
                return;
            }
        }
    }
}

/// Runs limited discrepancy passes then a full pass, improving `incumbent`.
pub fn branch_and_bound<const N: usize>(
    g: &BitGraph<N>,
    budget: &Budget,
    incumbent: Vec<u8>,
) -> Outcome {
    let (f, b) = g.start_state();
    let mut dfs = Dfs {
        g,
        budget,
        tt: HashMap::with_hasher(FxBuildHasher),
        best: incumbent,
        path: Vec::new(),
        nodes: 0,
        stopped: None,
    };
    for disc in [0u16, 1, 2, 3, u16::MAX] {
        dfs.tt.clear();
        dfs.go(f, b, disc);
        if dfs.stopped.is_some() {
            break;
        }
    }
    Outcome {
        exhausted: dfs.stopped.is_none(),
        moves: dfs.best,
        nodes: dfs.nodes,
        stopped: dfs.stopped,
    }
}
