//! Merson regions: the admissible lower bound on moves.
//!
//! A region `R` of cells is a Merson region when every jump that starts
//! outside `R` and jumps over a cell of `R` lands inside `R`. While `R` is
//! full of pegs, no jump from outside can change it (it cannot land in `R`,
//! and jumping over a cell of `R` would have to land in `R`), so the first
//! change of a full region is a move that *starts* inside it; and a move
//! that started elsewhere cannot change it later in its chain either. A win
//! leaves one peg, so every full region of two or more cells, and every
//! full one-cell region except possibly the one holding the last peg,
//! needs its own move: with disjoint regions, the number of full ones
//! (minus one when a full one-cell region could hold the last peg) is a
//! lower bound on the moves left (Beasley's argument for the 18-move
//! minimum on the English board).
//!
//! [`MersonBound::new`] checks each candidate region (single cells, then
//! rectangles up to 3x3) against every jump of the board and picks a
//! disjoint set greedily, smallest regions first, preferring those full at
//! the start.

use super::classes::final_cells;
use super::rules::{bit, Board, Cells};

/// A disjoint set of Merson regions and the bound they give.
#[derive(Debug, Clone)]
pub struct MersonBound {
    /// The regions (disjoint).
    pub regions: Vec<Cells>,
    /// One-cell regions whose cell can hold the last peg.
    singles_final: Cells,
}

/// True when `region` is a Merson region of `board`.
pub fn is_merson(board: &Board, region: Cells) -> bool {
    board.all_jumps().iter().all(|j| {
        let inside = |i: u8| region & bit(i) != 0;
        !inside(j.over) || inside(j.from) || inside(j.to)
    })
}

impl MersonBound {
    /// Regions for searches from `pegs` on `board`.
    pub fn new(board: &Board, pegs: Cells) -> MersonBound {
        Self::with_finals(board, pegs, final_cells(board, pegs))
    }

    /// Regions for searches from `pegs` whose last peg must stand on one
    /// of `finals` (a one-cell region there may be the last peg's).
    pub fn with_finals(board: &Board, pegs: Cells, finals: Cells) -> MersonBound {
        let mut cands: Vec<Cells> = Vec::new();
        for (h, w) in [
            (1, 1),
            (1, 2),
            (2, 1),
            (2, 2),
            (1, 3),
            (3, 1),
            (2, 3),
            (3, 2),
            (3, 3),
        ] {
            for r in 0..=board.height().saturating_sub(h) {
                for c in 0..=board.width().saturating_sub(w) {
                    if r + h > board.height() || c + w > board.width() {
                        continue;
                    }
                    let mut m = 0;
                    for dr in 0..h {
                        for dc in 0..w {
                            m |= bit(board.index(r + dr, c + dc));
                        }
                    }
                    if m & !board.cells() == 0 && is_merson(board, m) {
                        cands.push(m);
                    }
                }
            }
        }
        // Full at the start first, then smaller first (stable).
        cands.sort_by_key(|&m| (pegs & m != m, m.count_ones()));
        let mut used = 0;
        let mut regions = Vec::new();
        for m in cands {
            if m & used == 0 {
                used |= m;
                regions.push(m);
            }
        }
        let singles_final = regions
            .iter()
            .filter(|m| m.count_ones() == 1 && *m & finals != 0)
            .fold(0, |a, m| a | m);
        MersonBound {
            regions,
            singles_final,
        }
    }

    /// A lower bound on the moves needed to win from `pegs`.
    #[inline]
    pub fn bound(&self, pegs: Cells) -> u32 {
        let n = pegs.count_ones();
        if n <= 1 {
            return 0;
        }
        let full = self.regions.iter().filter(|&&m| pegs & m == m).count() as u32;
        let full = if pegs & self.singles_final != 0 {
            full - 1
        } else {
            full
        };
        full.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pegs::parse::{parse_game, ENGLISH};

    #[test]
    fn english_corners_are_merson_regions() {
        let g = parse_game(ENGLISH).unwrap();
        let corner = bit(g.board.index(0, 2));
        assert!(is_merson(&g.board, corner));
        assert!(!is_merson(&g.board, bit(g.board.index(0, 3))));
        let b = MersonBound::new(&g.board, g.pegs);
        let start = b.bound(g.pegs);
        assert!((8..=18).contains(&start), "bound {start}");
    }
}
