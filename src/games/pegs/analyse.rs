//! The analysis the Fling! paper does, applied to Pegs: how many positions
//! can be reached from the start, how many first jumps still win, and
//! which single peg added or removed changes whether the board can be won.
//!
//! Reachable positions are counted by forward breadth-first search with
//! hashed duplicates, up to the board's symmetries. Every jump removes a
//! peg, so the layers are the peg counts and a position can only repeat
//! inside its own layer: one hash set per layer is enough, and only two
//! layers are held at a time.

use rustc_hash::FxHashSet;
use serde::Serialize;

use super::rules::{apply, bit, Cells, Game, Jump};
use super::solve::{SolveOptions, WinSolver};
use super::symmetry::Symmetries;
use crate::solver::{Budget, BudgetExceeded};

/// Positions reachable from a start.
#[derive(Debug, Clone, Serialize)]
pub struct Reachable {
    /// Distinct positions (up to symmetry), the start included.
    pub positions: u64,
    /// Positions per peg count, from the start's count down.
    pub per_layer: Vec<u64>,
    /// The symmetries used (1 = none).
    pub symmetries: usize,
    /// False when the budget ended the count (then `positions` is a lower
    /// bound).
    pub exhausted: bool,
    /// Largest layer held, in positions.
    pub widest_layer: u64,
}

/// Counts the positions reachable from `game` (see the module docs).
pub fn count_reachable(game: &Game, budget: &Budget) -> Reachable {
    let syms = Symmetries::of(&game.board);
    let board = &game.board;
    let mut layer: Vec<Cells> = vec![syms.canonical(game.pegs)];
    let mut per_layer = vec![1u64];
    let mut total = 1u64;
    let mut widest = 1u64;
    let mut exhausted = true;
    let mut jumps = Vec::new();
    'outer: while !layer.is_empty() {
        let mut next: FxHashSet<Cells> = FxHashSet::default();
        for (k, &p) in layer.iter().enumerate() {
            if k & 4095 == 0 && budget.check(next.len() * 32 + layer.len() * 16).is_err() {
                exhausted = false;
                break 'outer;
            }
            jumps.clear();
            board.jumps(p, &mut jumps);
            for &j in &jumps {
                next.insert(syms.canonical(apply(p, j)));
            }
        }
        if next.is_empty() {
            break;
        }
        total += next.len() as u64;
        widest = widest.max(next.len() as u64);
        per_layer.push(next.len() as u64);
        layer = next.into_iter().collect();
    }
    Reachable {
        positions: total,
        per_layer,
        symmetries: syms.order(),
        exhausted,
        widest_layer: widest,
    }
}

/// One single-peg change that flips whether the board can be won.
#[derive(Debug, Clone, Serialize)]
pub struct Toggle {
    /// Row of the cell.
    pub row: usize,
    /// Column of the cell.
    pub col: usize,
    /// True when a peg is added to a hole, false when one is removed.
    pub added: bool,
    /// Whether the changed board can be won.
    pub winnable: bool,
}

/// One legal first jump and whether it still wins.
#[derive(Debug, Clone, Serialize)]
pub struct FirstMove {
    /// (row, col) the peg leaves.
    pub from: (usize, usize),
    /// (row, col) it lands on.
    pub to: (usize, usize),
    /// `Some(true)` wins, `Some(false)` proven lost, `None` unproven.
    pub wins: Option<bool>,
}

/// The whole analysis of one start position.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// The game ID analysed.
    pub id: String,
    /// Pegs at the start.
    pub pegs: u32,
    /// `Some(true)` winnable, `Some(false)` proven lost, `None` unproven.
    pub winnable: Option<bool>,
    /// Reachable positions.
    pub reachable: Reachable,
    /// Each legal first jump.
    pub first_moves: Vec<FirstMove>,
    /// How many of them still win.
    pub winning_first_moves: usize,
    /// Single-peg changes that flip winnability.
    pub changing_toggles: Vec<Toggle>,
    /// Single-peg changes tried (cells on the board, minus those that
    /// would leave no peg).
    pub toggles_tried: usize,
    /// Single-peg changes left undecided by the budget.
    pub toggles_unproven: usize,
    /// Why the budget stopped a part, if it did.
    pub stopped: Option<String>,
}

/// Analyses `game`: `count_budget` for the reachable count, `solve_budget`
/// (fresh per question) for each winnability question.
pub fn analyse(game: &Game, count_budget: &Budget, solve_budget: impl Fn() -> Budget) -> Analysis {
    let reachable = count_reachable(game, count_budget);
    let mut stopped: Option<BudgetExceeded> = None;
    let mut solver = WinSolver::new(&game.board, SolveOptions::default());
    let mut decide = |pegs: Cells| {
        let o = solver.solve(pegs, &solve_budget());
        if let Some(w) = o.stopped {
            stopped = Some(w);
        }
        if o.moves.is_some() {
            Some(true)
        } else if o.proven_unsolvable {
            Some(false)
        } else {
            None
        }
    };
    let winnable = decide(game.pegs);
    let mut jumps: Vec<Jump> = Vec::new();
    game.board.jumps(game.pegs, &mut jumps);
    let first_moves: Vec<FirstMove> = jumps
        .iter()
        .map(|&j| FirstMove {
            from: game.board.row_col(j.from),
            to: game.board.row_col(j.to),
            wins: decide(apply(game.pegs, j)),
        })
        .collect();
    let winning_first_moves = first_moves.iter().filter(|m| m.wins == Some(true)).count();
    let mut changing_toggles = Vec::new();
    let mut toggles_tried = 0;
    let mut toggles_unproven = 0;
    for r in 0..game.board.height() {
        for c in 0..game.board.width() {
            if !game.board.on_board(r, c) {
                continue;
            }
            let b = bit(game.board.index(r, c));
            let pegs = game.pegs ^ b;
            if pegs == 0 {
                continue;
            }
            toggles_tried += 1;
            match (decide(pegs), winnable) {
                (Some(w), Some(base)) if w != base => changing_toggles.push(Toggle {
                    row: r,
                    col: c,
                    added: game.pegs & b == 0,
                    winnable: w,
                }),
                (None, _) | (_, None) => toggles_unproven += 1,
                _ => {}
            }
        }
    }
    if !reachable.exhausted {
        stopped.get_or_insert(BudgetExceeded::Time);
    }
    Analysis {
        id: game.id(),
        pegs: game.peg_count(),
        winnable,
        reachable,
        first_moves,
        winning_first_moves,
        changing_toggles,
        toggles_tried,
        toggles_unproven,
        stopped: stopped.map(|w| w.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pegs::parse::parse_game;

    #[test]
    fn tiny_board_counts_and_toggles() {
        // P P H: one jump, then won.
        let g = parse_game("3x1:PPH").unwrap();
        let a = analyse(&g, &Budget::unlimited(), Budget::unlimited);
        assert_eq!(a.reachable.positions, 2);
        assert_eq!(a.winnable, Some(true));
        assert_eq!(a.winning_first_moves, 1);
        // Adding a peg on the hole makes it PPP: stuck with 3 pegs, lost.
        assert!(a
            .changing_toggles
            .iter()
            .any(|t| t.added && t.col == 2 && !t.winnable));
    }
}
