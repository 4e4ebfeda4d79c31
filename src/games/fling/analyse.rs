//! The designer's analysis of one Fling! board (after Sturtevant's tool):
//! solvable or not, the number of solutions, the moves that lead to a win,
//! the number of reachable states, and the cells where adding or removing
//! a ball changes solvability.
//!
//! - Solutions are counted over distinct sequences of positions (two moves
//!   that lead to the same position are one step); every position of two
//!   balls that has a move counts as one solution whichever ball is flung,
//!   so the count is exactly the number of position sequences from the
//!   start to a two-ball position that can be won. The count is exact (a
//!   full depth-first search with a table of counts per position),
//!   saturating at `u64::MAX`.
//! - The reachable-state count is the number of distinct positions a
//!   forward search from the board reaches, the board itself and one-ball
//!   positions included (the paper's difficulty metric); it never uses the
//!   endgame tables.
//! - Solvability after adding or removing a ball is decided by a
//!   depth-first search with a table of dead positions (shared by the 56
//!   questions: a dead position is dead whatever the start; a table of
//!   winnable ones was tried and saved under 0.1 % of the nodes), stopped early by the endgame tables when some are loaded
//!   ([`WinOracle`]): a position with at most as many balls as the largest
//!   table is answered by the table, never searched; the children of a
//!   position one ball above it have their table words prefetched
//!   together.

use rustc_hash::{FxHashMap, FxHashSet};

use super::rules::{Board, Fling, Move, CELLS};
use crate::solver::{count_reachable, Budget};

/// Something that knows, for boards of few balls, whether they can be won
/// (the retrograde endgame tables).
pub trait WinOracle: Sync {
    /// The largest number of balls it answers for.
    fn max_balls(&self) -> u32;
    /// Whether `board` (with 1..=`max_balls()` balls) can be won.
    fn winnable(&self, board: Board) -> bool;
    /// A hint that `board` (with 2..=`max_balls()` balls) will be asked
    /// about soon, so that its table word can be brought into the cache
    /// while other questions are answered.
    fn prefetch(&self, _board: Board) {}
}

/// Counts solutions of every position reachable from a start.
#[derive(Debug, Default)]
pub struct SolutionCounter {
    counts: FxHashMap<u64, u64>,
}

impl SolutionCounter {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// The number of solutions from `board` (0 when it cannot be won; 1
    /// for a single ball).
    pub fn count(&mut self, board: Board) -> u64 {
        let n = board.balls();
        if n <= 1 {
            self.counts.entry(board.0).or_insert(1);
            return u64::from(n == 1);
        }
        if let Some(&v) = self.counts.get(&board.0) {
            return v;
        }
        let mut succ = [0u64; CELLS * 4];
        let mut len = 0;
        board.for_each_move(|_, b| {
            succ[len] = b.0;
            len += 1;
        });
        let succ = &mut succ[..len];
        succ.sort_unstable();
        let mut total = 0u64;
        let mut prev = None;
        for &s in succ.iter() {
            if prev == Some(s) {
                continue;
            }
            prev = Some(s);
            let c = self.count(Board(s));
            total = total.saturating_add(c);
        }
        if n == 2 {
            total = total.min(1);
        }
        self.counts.insert(board.0, total);
        total
    }

    /// Distinct positions counted so far (every position reachable from
    /// the starts given to [`SolutionCounter::count`]).
    pub fn positions(&self) -> usize {
        self.counts.len()
    }
}

/// Decides solvability by depth-first search with a dead-position table,
/// using endgame tables when given.
pub struct WinSearch<'a> {
    dead: FxHashSet<u64>,
    oracle: Option<&'a dyn WinOracle>,
    /// Positions expanded so far.
    pub nodes: u64,
}

impl<'a> WinSearch<'a> {
    /// A search with no table yet; `oracle` answers boards of few balls.
    pub fn new(oracle: Option<&'a dyn WinOracle>) -> Self {
        WinSearch {
            dead: FxHashSet::default(),
            oracle,
            nodes: 0,
        }
    }

    /// Whether `board` can be won (an empty board cannot).
    pub fn winnable(&mut self, board: Board) -> bool {
        let n = board.balls();
        if n <= 1 {
            return n == 1;
        }
        if let Some(o) = self.oracle {
            if n <= o.max_balls() {
                return o.winnable(board);
            }
        }
        if n == 2 {
            return board.can_move();
        }
        if self.dead.contains(&board.0) {
            return false;
        }
        self.nodes += 1;
        let won = match self.oracle {
            // One ball above the tables: every child is a table look-up;
            // ask for all their words before reading any, so that the
            // cache misses overlap.
            Some(o) if n == o.max_balls() + 1 => {
                let mut kids = [0u64; CELLS * 4];
                let mut len = 0;
                board.for_each_move(|_, b| {
                    o.prefetch(b);
                    kids[len] = b.0;
                    len += 1;
                });
                kids[..len].iter().any(|&b| o.winnable(Board(b)))
            }
            _ => board.any_move(|_, b| self.winnable(b)),
        };
        if !won {
            self.dead.insert(board.0);
        }
        won
    }
}

/// A cell where adding or removing a ball changes solvability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Change {
    /// The cell (`y * 7 + x`).
    pub cell: u8,
    /// True when the cell holds a ball (the change removes it).
    pub removed: bool,
    /// Solvability after the change.
    pub solvable_after: bool,
}

/// Everything the analysis says about one board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// The board analysed.
    pub board: Board,
    /// True when it can be won.
    pub solvable: bool,
    /// Distinct solutions (see the module doc), saturating.
    pub solutions: u64,
    /// The first moves that lead to a winnable position.
    pub winning_moves: Vec<Move>,
    /// Distinct positions reachable from the board, itself included.
    pub reachable: u64,
    /// Cells where adding/removing a ball changes solvability.
    pub changes: Vec<Change>,
}

/// Solvability, solutions, winning moves and reachable states of `board`
/// (no add/remove analysis).
pub fn count_solutions(board: Board) -> (SolutionCounter, u64, Vec<Move>) {
    let mut counter = SolutionCounter::new();
    let solutions = counter.count(board);
    let mut winning = Vec::new();
    if board.balls() >= 2 {
        board.for_each_move(|m, b| {
            if counter.count(b) > 0 {
                winning.push(m);
            }
        });
    }
    (counter, solutions, winning)
}

/// The cells where adding or removing a ball changes whether `board` can
/// be won (`solvable` is its own solvability); `search` may carry dead
/// positions from earlier questions.
pub fn changes(board: Board, solvable: bool, search: &mut WinSearch<'_>) -> Vec<Change> {
    let mut out = Vec::new();
    for c in 0..CELLS {
        let b = board.toggled(c);
        if b.balls() == 0 {
            continue;
        }
        let after = search.winnable(b);
        if after != solvable {
            out.push(Change {
                cell: c as u8,
                removed: board.has(c),
                solvable_after: after,
            });
        }
    }
    out
}

/// Distinct positions reachable from `board`, itself included (the search
/// core's breadth-first count, without tables).
pub fn reachable(board: Board) -> u64 {
    let r = count_reachable(&Fling, &board, &Budget::unlimited());
    debug_assert!(r.exhausted);
    r.states
}

/// The full analysis of `board`, with endgame tables when given (they only
/// speed up the add/remove questions).
pub fn analyse(board: Board, oracle: Option<&dyn WinOracle>) -> Analysis {
    let (_, solutions, winning_moves) = count_solutions(board);
    let solvable = solutions > 0;
    let mut search = WinSearch::new(oracle);
    let changes = changes(board, solvable, &mut search);
    Analysis {
        board,
        solvable,
        solutions,
        winning_moves,
        reachable: reachable(board),
        changes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fling::parse::parse_boards;
    use crate::games::fling::rules::cell;

    fn b(t: &str) -> Board {
        parse_boards(t).unwrap()[0].board
    }

    /// Every sequence of positions, enumerated by brute force.
    fn brute_solutions(board: Board) -> u64 {
        if board.balls() == 2 {
            return u64::from(board.can_move());
        }
        let mut succ: Vec<Board> = Vec::new();
        board.for_each_move(|_, s| succ.push(s));
        succ.sort();
        succ.dedup();
        succ.into_iter().map(brute_solutions).sum()
    }

    fn brute_reachable(board: Board) -> usize {
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![board];
        seen.insert(board);
        while let Some(s) = stack.pop() {
            s.for_each_move(|_, t| {
                if seen.insert(t) {
                    stack.push(t);
                }
            });
        }
        seen.len()
    }

    #[test]
    fn the_first_level1_board_has_one_solution() {
        // Level 1, first board (benchmarks/fling/level1.txt, from hog2's
        // apps/fling/levels/): the count agrees with brute force and the
        // game's claim of exactly one solution.
        let board = b("Hash: 37154696925872128\n.......\n.......\n..o....\n.......\n.......\n.......\n.......\n.o....o\n");
        let (counter, sols, winning) = count_solutions(board);
        assert_eq!(sols, brute_solutions(board));
        assert_eq!(counter.positions(), brute_reachable(board));
        assert_eq!(sols > 0, !winning.is_empty());
        assert_eq!(sols, 1);
    }

    #[test]
    fn counts_agree_with_brute_force_on_random_boards() {
        let mut seed = 0x9e3779b97f4a7c15u64;
        for balls in 3..=8 {
            for _ in 0..20 {
                let mut bits = 0u64;
                while bits.count_ones() < balls {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    bits |= 1 << (seed % CELLS as u64);
                }
                let board = Board(bits);
                let (counter, sols, _) = count_solutions(board);
                assert_eq!(sols, brute_solutions(board), "{board}");
                assert_eq!(counter.positions(), brute_reachable(board));
                assert_eq!(reachable(board), counter.positions() as u64);
                let mut s = WinSearch::new(None);
                assert_eq!(s.winnable(board), sols > 0);
            }
        }
    }

    #[test]
    fn two_balls_in_line_are_one_solution_whichever_is_flung() {
        let board = b("o.o..../......./......./......./......./......./......./.......");
        let a = analyse(board, None);
        assert!(a.solvable);
        assert_eq!(a.solutions, 1);
        assert_eq!(a.winning_moves.len(), 2);
        // Start, and one one-ball end: either ball flung ends with a
        // ball on b1.
        assert_eq!(a.reachable, 2);
        // Removing either ball leaves one: still won, no change. Adding a
        // ball between them makes both pairs adjacent: no move at all.
        assert!(a
            .changes
            .iter()
            .any(|c| c.cell == 1 && !c.removed && !c.solvable_after));
        assert!(!a.changes.iter().any(|c| c.removed));
    }

    #[test]
    fn adjacent_pair_cannot_be_won() {
        let board = b("oo...../......./......./......./......./......./......./.......");
        let a = analyse(board, None);
        assert!(!a.solvable);
        assert_eq!(a.solutions, 0);
        assert_eq!(a.reachable, 1);
        // A ball at c1 lets a1 be flung right into b1/c1.
        assert!(a
            .changes
            .iter()
            .any(|c| c.cell == cell(3, 0) as u8 && c.solvable_after));
    }
}
