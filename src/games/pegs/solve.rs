//! Deciding whether a position can be won, and finding a win.
//!
//! Depth-first search over single jumps on the bitboard. Every jump removes
//! a peg, so no position repeats on one path and every win has exactly
//! `pegs - 1` jumps (any win is shortest in jumps). The search keeps a
//! transposition table of positions proven lost (keyed up to the board's
//! symmetries, so a position and its mirror images are explored once),
//! prunes positions a pagoda function proves lost ([`super::pagoda`]),
//! and tries first the jumps that leave the fewest isolated pegs. Winning
//! is proven by the moves found; losing by exhausting the position; when
//! the budget ends first the answer is `unproven`.

use rustc_hash::FxHashSet;

use super::pagoda::Pagodas;
use super::rules::{apply, is_won, Board, Cells, Game, Jump};
use super::symmetry::Symmetries;
use crate::solver::{Budget, BudgetExceeded, Outcome};

/// Which prunings the search uses (all on by default; tests switch them
/// off to check they never change an answer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolveOptions {
    /// Prune with pagoda functions.
    pub pagoda: bool,
    /// Key the lost table up to the board's symmetries.
    pub symmetry: bool,
    /// Try jumps leaving fewer isolated pegs first.
    pub ordering: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            pagoda: true,
            symmetry: true,
            ordering: true,
        }
    }
}

/// Bytes a lost-table entry costs, for the memory budget.
const ENTRY_BYTES: usize = 40;

/// A solver for one board shape; its table of lost positions survives
/// between calls (facts about positions, not about a start).
pub struct WinSolver<'a> {
    board: &'a Board,
    syms: Symmetries,
    opts: SolveOptions,
    lost: FxHashSet<Cells>,
    nodes: u64,
    pagoda_prunes: u64,
    not_col0: Cells,
    not_col_last: Cells,
}

impl<'a> WinSolver<'a> {
    /// A solver for positions on `board`.
    pub fn new(board: &'a Board, opts: SolveOptions) -> Self {
        let syms = if opts.symmetry {
            Symmetries::of(board)
        } else {
            Symmetries::identity(board)
        };
        let mut col0 = 0;
        let mut col_last = 0;
        for r in 0..board.height() {
            col0 |= 1u128 << board.index(r, 0);
            col_last |= 1u128 << board.index(r, board.width() - 1);
        }
        WinSolver {
            board,
            syms,
            opts,
            lost: FxHashSet::default(),
            nodes: 0,
            pagoda_prunes: 0,
            not_col0: !col0,
            not_col_last: !col_last,
        }
    }

    /// Positions expanded so far (over all calls).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Positions pruned by a pagoda function so far.
    pub fn pagoda_prunes(&self) -> u64 {
        self.pagoda_prunes
    }

    /// Entries of the lost table.
    pub fn lost_positions(&self) -> usize {
        self.lost.len()
    }

    /// Decides `pegs`: the jumps of a win (`moves`), a proof that none
    /// exists (`proven_unsolvable`), or a stop by the budget.
    pub fn solve(&mut self, pegs: Cells, budget: &Budget) -> Outcome<Jump> {
        let nodes0 = self.nodes;
        let pagodas = if self.opts.pagoda {
            Pagodas::for_position(self.board, pegs)
        } else {
            Pagodas::none()
        };
        let values = pagodas.values(pegs);
        let mut path = Vec::new();
        let res = if pagodas.prunes_values(&values) {
            self.pagoda_prunes += 1;
            Ok(false)
        } else {
            self.dfs(pegs, &pagodas, &values, budget, &mut path)
        };
        let nodes = self.nodes - nodes0;
        let elapsed = budget.elapsed();
        match res {
            Ok(true) => {
                path.reverse();
                Outcome::optimal(path, nodes, elapsed)
            }
            Ok(false) => Outcome::unsolvable(nodes, elapsed),
            Err(why) => {
                let lb = pegs.count_ones().saturating_sub(1);
                Outcome::stopped(None, lb, why, nodes, elapsed)
            }
        }
    }

    /// True when `pegs` can be won (`None` when the budget ended first).
    pub fn winnable(&mut self, pegs: Cells, budget: &Budget) -> Option<bool> {
        let o = self.solve(pegs, budget);
        if o.moves.is_some() {
            Some(true)
        } else if o.proven_unsolvable {
            Some(false)
        } else {
            None
        }
    }

    /// Pegs with no orthogonal neighbour peg.
    #[inline]
    fn isolated(&self, p: Cells) -> u32 {
        let w = self.board.width() as u32;
        let nb = ((p << 1) & self.not_col0) | ((p >> 1) & self.not_col_last) | (p << w) | (p >> w);
        (p & !nb).count_ones()
    }

    fn dfs(
        &mut self,
        pegs: Cells,
        pagodas: &Pagodas,
        values: &[f64],
        budget: &Budget,
        path: &mut Vec<Jump>,
    ) -> Result<bool, BudgetExceeded> {
        if is_won(pegs) {
            return Ok(true);
        }
        let key = self.syms.canonical(pegs);
        if self.lost.contains(&key) {
            return Ok(false);
        }
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            budget.check_nodes(self.nodes, self.lost.len() * ENTRY_BYTES)?;
        }
        let mut jumps: Vec<(u32, Jump)> = Vec::new();
        let src = self.board.jump_sources(pegs);
        for (d, &set) in src.iter().enumerate() {
            let mut s = set;
            while s != 0 {
                let f = s.trailing_zeros() as u8;
                s &= s - 1;
                let j = self.board.jump(f, d);
                let score = if self.opts.ordering {
                    self.isolated(apply(pegs, j))
                } else {
                    0
                };
                jumps.push((score, j));
            }
        }
        if self.opts.ordering {
            jumps.sort_by_key(|&(s, _)| s);
        }
        let mut child_values = values.to_vec();
        for &(_, j) in &jumps {
            let next = apply(pegs, j);
            if !pagodas.list.is_empty() {
                for (k, p) in pagodas.list.iter().enumerate() {
                    child_values[k] =
                        values[k] - p.weights[j.from as usize] - p.weights[j.over as usize]
                            + p.weights[j.to as usize];
                }
                if pagodas.prunes_values(&child_values) {
                    self.pagoda_prunes += 1;
                    continue;
                }
            }
            if self.dfs(next, pagodas, &child_values, budget, path)? {
                path.push(j);
                return Ok(true);
            }
        }
        self.lost.insert(key);
        Ok(false)
    }
}

/// Decides `game` with a fresh solver (see [`WinSolver::solve`]).
pub fn solve(game: &Game, opts: SolveOptions, budget: &Budget) -> Outcome<Jump> {
    WinSolver::new(&game.board, opts).solve(game.pegs, budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pegs::parse::{parse_game, ENGLISH};
    use crate::solver::wins;

    #[test]
    fn english_board_is_won() {
        let g = parse_game(ENGLISH).unwrap();
        let o = solve(&g, SolveOptions::default(), &Budget::unlimited());
        let moves = o.moves.expect("the English board can be won");
        assert_eq!(moves.len(), 31);
        let p = crate::games::pegs::rules::JumpProblem { board: &g.board };
        assert!(wins(&p, &g.pegs, &moves));
    }

    #[test]
    fn a_stuck_position_is_proven_lost() {
        let g = parse_game("5x1:PHHHP").unwrap();
        let o = solve(&g, SolveOptions::default(), &Budget::unlimited());
        assert!(o.proven_unsolvable);
        let g = parse_game("3x1:PPH").unwrap();
        assert_eq!(
            solve(&g, SolveOptions::default(), &Budget::unlimited()).len(),
            Some(1)
        );
        let g = parse_game("1x1:P").unwrap();
        assert_eq!(
            solve(&g, SolveOptions::default(), &Budget::unlimited()).len(),
            Some(0)
        );
    }
}
