//! Fewest moves, where a move is a chain of jumps by one peg.
//!
//! Iterative deepening on the number of moves with the admissible
//! Merson-region bound ([`super::merson`]) and a depth-keyed table of
//! failures (position up to symmetry plus the cell the last move ended
//! on; "failed with at least this many moves left" is a dead end). Two
//! moves in a row by the same peg are never both in a shortest solution
//! (they join into one chain), so a move may not start where the previous
//! one ended. Positions a pagoda function proves lost are cut. Each
//! completed depth proves the bound; the first depth with a win gives a
//! proven minimum.

use rustc_hash::FxHashMap;

use super::classes::final_cells;
use super::merson::MersonBound;
use super::pagoda::Pagodas;
use super::rules::{bit, is_won, Board, Cells, Game, Jump};
use super::symmetry::Symmetries;
use crate::solver::{Budget, BudgetExceeded, Outcome};

/// A move: one peg's chain of jumps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chain {
    /// The cell the peg starts on.
    pub from: u8,
    /// The cell it ends on.
    pub to: u8,
    /// The pegs it removes.
    pub removed: Cells,
    /// Directions (index into [`super::rules::Dir::ALL`]), 2 bits each.
    dirs: u128,
    /// Number of jumps.
    len: u8,
}

impl Chain {
    /// The position after this move.
    #[inline]
    pub fn apply(&self, pegs: Cells) -> Cells {
        (pegs & !self.removed & !bit(self.from)) | bit(self.to)
    }

    /// The jumps of the chain, in order.
    pub fn jumps(&self, board: &Board) -> Vec<Jump> {
        let mut at = self.from;
        (0..self.len)
            .map(|k| {
                let d = ((self.dirs >> (2 * k)) & 3) as usize;
                let j = board.jump(at, d);
                at = j.to;
                j
            })
            .collect()
    }

    /// Number of jumps.
    pub fn jump_count(&self) -> usize {
        self.len as usize
    }
}

/// Appends every move (chain) of `pegs` to `out`, one per distinct
/// resulting position, except those starting on `not_from`.
pub fn chains(board: &Board, pegs: Cells, not_from: Option<u8>, out: &mut Vec<Chain>) {
    let start = out.len();
    let src = board.jump_sources(pegs);
    let any = src.iter().fold(0, |a, &s| a | s);
    let mut starts = any;
    while starts != 0 {
        let p = starts.trailing_zeros() as u8;
        starts &= starts - 1;
        if Some(p) == not_from {
            continue;
        }
        let others = pegs & !bit(p);
        extend(board, others, p, p, 0, 0, 0, out);
    }
    // Distinct results only (the same end and removed set by another path).
    let tail = &mut out[start..];
    tail.sort_unstable_by_key(|c| (c.from, c.to, c.removed));
    let mut keep = start;
    for i in start..out.len() {
        if i == start || {
            let (a, b) = (&out[keep - 1], &out[i]);
            (a.from, a.to, a.removed) != (b.from, b.to, b.removed)
        } {
            out[keep] = out[i];
            keep += 1;
        }
    }
    out.truncate(keep);
}

#[allow(clippy::too_many_arguments)]
fn extend(
    board: &Board,
    others: Cells,
    from: u8,
    at: u8,
    removed: Cells,
    dirs: u128,
    len: u8,
    out: &mut Vec<Chain>,
) {
    if len >= 63 {
        return;
    }
    let here = others | bit(at);
    let src = board.jump_sources(here);
    for (d, &s) in src.iter().enumerate() {
        if s & bit(at) == 0 {
            continue;
        }
        let j = board.jump(at, d);
        let dirs2 = dirs | ((d as u128) << (2 * len));
        let removed2 = removed | bit(j.over);
        let c = Chain {
            from,
            to: j.to,
            removed: removed2,
            dirs: dirs2,
            len: len + 1,
        };
        out.push(c);
        extend(
            board,
            others & !bit(j.over),
            from,
            j.to,
            removed2,
            dirs2,
            len + 1,
            out,
        );
    }
}

/// Bytes a table entry costs, for the memory budget.
const ENTRY_BYTES: usize = 48;
/// "No previous move" marker.
const NO_MARK: u8 = u8::MAX;

struct Search<'a> {
    board: &'a Board,
    /// The cell the last peg must stand on, if the goal names one.
    finish: Option<u8>,
    syms: Symmetries,
    merson: MersonBound,
    pagodas: Pagodas,
    failed: FxHashMap<(Cells, u8), u8>,
    nodes: u64,
    budget: &'a Budget,
}

impl Search<'_> {
    fn dfs(
        &mut self,
        pegs: Cells,
        last: u8,
        left: u32,
        path: &mut Vec<Chain>,
    ) -> Result<bool, BudgetExceeded> {
        if is_won(pegs) {
            return Ok(self.finish.is_none_or(|f| pegs == bit(f)));
        }
        if left == 0 || self.merson.bound(pegs) > left {
            return Ok(false);
        }
        let key = if last == NO_MARK {
            (self.syms.canonical(pegs), NO_MARK)
        } else {
            self.syms.canonical_marked(pegs, last)
        };
        if self.failed.get(&key).is_some_and(|&l| l as u32 >= left) {
            return Ok(false);
        }
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.budget
                .check_nodes(self.nodes, self.failed.len() * ENTRY_BYTES)?;
        }
        let mut moves = Vec::new();
        chains(
            self.board,
            pegs,
            (last != NO_MARK).then_some(last),
            &mut moves,
        );
        // Most pegs removed first: long chains finish sooner.
        moves.sort_by_key(|c| std::cmp::Reverse(c.len));
        for c in moves {
            let next = c.apply(pegs);
            if self.pagodas.prunes(next) {
                continue;
            }
            if self.dfs(next, c.to, left - 1, path)? {
                path.push(c);
                return Ok(true);
            }
        }
        self.failed.insert(key, left as u8);
        Ok(false)
    }
}

/// What [`fewest_moves`] found, with the depth reached per iteration.
#[derive(Debug, Clone)]
pub struct Fewest {
    /// The moves, bound and proof.
    pub outcome: Outcome<Chain>,
    /// Positions in the failure table at the end.
    pub table_entries: usize,
}

/// The fewest moves (chains) that win `game`; proven minimal when the
/// search completes within `budget`.
pub fn fewest_moves(game: &Game, budget: &Budget) -> Fewest {
    fewest_moves_to(game, None, budget)
}

/// The fewest moves (chains) that win `game` with the last peg on cell
/// `finish` (anywhere when `None`); proven minimal when the search
/// completes within `budget`. A finish cell outside the start's position
/// class is proven unreachable at once.
pub fn fewest_moves_to(game: &Game, finish: Option<u8>, budget: &Budget) -> Fewest {
    let board = &game.board;
    let finals = final_cells(board, game.pegs);
    let finals = finish.map_or(finals, |f| finals & bit(f));
    if finals == 0 || finish.is_some_and(|f| board.cells() & bit(f) == 0) {
        return Fewest {
            outcome: Outcome::unsolvable(0, budget.elapsed()),
            table_entries: 0,
        };
    }
    let syms = Symmetries::of(board);
    let mut s = Search {
        board,
        finish,
        syms: finish.map_or(syms.clone(), |f| syms.fixing(f)),
        merson: MersonBound::with_finals(board, game.pegs, finals),
        pagodas: match finish {
            Some(f) => Pagodas::for_target(board, f),
            None => Pagodas::for_position(board, game.pegs),
        },
        failed: FxHashMap::default(),
        nodes: 0,
        budget,
    };
    let n = game.pegs.count_ones();
    let mut limit = s.merson.bound(game.pegs);
    let mut proven = limit;
    loop {
        if limit > n.saturating_sub(1) {
            // More moves than jumps: nothing left to try.
            let o = Outcome::unsolvable(s.nodes, budget.elapsed());
            return Fewest {
                outcome: o,
                table_entries: s.failed.len(),
            };
        }
        let mut path = Vec::new();
        match s.dfs(game.pegs, NO_MARK, limit, &mut path) {
            Ok(true) => {
                path.reverse();
                let o = Outcome::optimal(path, s.nodes, budget.elapsed());
                return Fewest {
                    outcome: o,
                    table_entries: s.failed.len(),
                };
            }
            Ok(false) => {
                log::info!(
                    "pegs fewest: no win in {limit} moves ({} nodes, {} entries, {:?})",
                    s.nodes,
                    s.failed.len(),
                    budget.elapsed()
                );
                limit += 1;
                proven = limit;
            }
            Err(why) => {
                let o = Outcome::stopped(None, proven, why, s.nodes, budget.elapsed());
                return Fewest {
                    outcome: o,
                    table_entries: s.failed.len(),
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pegs::parse::parse_game;

    #[test]
    fn a_double_jump_is_one_move() {
        // P P H P H: (0,0) over (0,1) to (0,2), then over (0,3) to (0,4).
        let g = parse_game("5x1:PPHPH").unwrap();
        let mut out = Vec::new();
        chains(&g.board, g.pegs, None, &mut out);
        assert!(out.iter().any(|c| c.jump_count() == 2 && c.to == 4));
        let f = fewest_moves(&g, &Budget::unlimited());
        assert_eq!(f.outcome.len(), Some(1));
        assert!(f.outcome.proven_optimal);
        let c = f.outcome.moves.unwrap()[0];
        assert_eq!(c.jumps(&g.board).len(), 2);
    }

    #[test]
    fn a_finish_cell_is_respected() {
        // P P H P H: wins end on cell 4 (one double jump) or on cell 1
        // (0 over 1 to 2, then 3 over 2 to 1: two moves).
        let g = parse_game("5x1:PPHPH").unwrap();
        let f = fewest_moves_to(&g, Some(4), &Budget::unlimited());
        assert_eq!(f.outcome.len(), Some(1));
        let end = f.outcome.moves.unwrap()[0].to;
        assert_eq!(end, 4);
        let f = fewest_moves_to(&g, Some(1), &Budget::unlimited());
        assert_eq!(f.outcome.len(), Some(2));
        for cell in [0, 2, 3] {
            let f = fewest_moves_to(&g, Some(cell), &Budget::unlimited());
            assert!(f.outcome.proven_unsolvable, "cell {cell}");
        }
        // Whatever is found ends where it was asked to.
        let g = parse_game("6x1:HPPHPP").unwrap();
        for cell in 0..6u8 {
            let f = fewest_moves_to(&g, Some(cell), &Budget::unlimited());
            if let Some(m) = &f.outcome.moves {
                let mut p = g.pegs;
                for c in m {
                    p = c.apply(p);
                }
                assert_eq!(p, bit(cell));
            }
        }
    }
}
