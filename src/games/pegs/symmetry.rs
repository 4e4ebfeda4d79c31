//! The symmetries of a board's shape and canonical keys of positions.
//!
//! Of the eight rotations and reflections of the square (four when the
//! board is not square), [`Symmetries`] keeps those that map the board's
//! cells onto themselves. Each is applied to a `u128` position by byte
//! lookup tables (16 lookups of 256 entries), and the canonical key of a
//! position is the smallest of its images: two positions have the same key
//! exactly when a symmetry of the board maps one onto the other, and such
//! positions are won or lost together and need the same number of moves.

use super::rules::{bit, cells_of, Board, Cells};

/// The symmetries of one board shape.
#[derive(Debug, Clone)]
pub struct Symmetries {
    /// Per non-identity symmetry: the cell each cell maps to.
    maps: Vec<Vec<u8>>,
    /// Per non-identity symmetry: `tables[s][byte][value]`, the image of
    /// `value` placed at byte `byte`.
    tables: Vec<Vec<[Cells; 256]>>,
    /// Bytes that hold on-board cells.
    bytes: usize,
}

impl Symmetries {
    /// The symmetries of `board`'s shape (the identity is implied).
    pub fn of(board: &Board) -> Symmetries {
        let (w, h) = (board.width(), board.height());
        let mut maps = Vec::new();
        for k in 1..8u8 {
            let transpose = k & 4 != 0;
            if transpose && w != h {
                continue;
            }
            let mut map = vec![0u8; w * h];
            let mut ok = true;
            for r in 0..h {
                for c in 0..w {
                    let (mut r2, mut c2) = if transpose { (c, r) } else { (r, c) };
                    if k & 1 != 0 {
                        c2 = w - 1 - c2;
                    }
                    if k & 2 != 0 {
                        r2 = h - 1 - r2;
                    }
                    let from = board.index(r, c);
                    let to = board.index(r2, c2);
                    map[from as usize] = to;
                    if board.on_board(r, c) != board.on_board(r2, c2) {
                        ok = false;
                    }
                }
            }
            if ok {
                maps.push(map);
            }
        }
        let n = w * h;
        let bytes = n.div_ceil(8);
        let tables = maps
            .iter()
            .map(|map| {
                (0..bytes)
                    .map(|byte| {
                        let mut t = [0u128; 256];
                        for (v, slot) in t.iter_mut().enumerate() {
                            for b in 0..8 {
                                let cell = byte * 8 + b;
                                if v & (1 << b) != 0 && cell < n {
                                    *slot |= bit(map[cell]);
                                }
                            }
                        }
                        t
                    })
                    .collect()
            })
            .collect();
        Symmetries {
            maps,
            tables,
            bytes,
        }
    }

    /// The identity alone (no reduction).
    pub fn identity(board: &Board) -> Symmetries {
        Symmetries {
            maps: Vec::new(),
            tables: Vec::new(),
            bytes: (board.width() * board.height()).div_ceil(8),
        }
    }

    /// The symmetries that map cell `cell` onto itself (for searches whose
    /// goal names a cell).
    pub fn fixing(&self, cell: u8) -> Symmetries {
        let keep: Vec<usize> = (0..self.maps.len())
            .filter(|&s| self.maps[s][cell as usize] == cell)
            .collect();
        Symmetries {
            maps: keep.iter().map(|&s| self.maps[s].clone()).collect(),
            tables: keep.iter().map(|&s| self.tables[s].clone()).collect(),
            bytes: self.bytes,
        }
    }

    /// The symmetries that map position `pegs` onto itself: the group to
    /// reduce by when counting the positions reachable from `pegs` (a
    /// symmetry that moves the start would merge positions reachable
    /// only from its image).
    pub fn fixing_position(&self, pegs: Cells) -> Symmetries {
        let keep: Vec<usize> = (0..self.maps.len())
            .filter(|&s| self.apply(s, pegs) == pegs)
            .collect();
        Symmetries {
            maps: keep.iter().map(|&s| self.maps[s].clone()).collect(),
            tables: keep.iter().map(|&s| self.tables[s].clone()).collect(),
            bytes: self.bytes,
        }
    }

    /// Number of symmetries, the identity included.
    pub fn order(&self) -> usize {
        self.maps.len() + 1
    }

    /// The image of `pegs` under non-identity symmetry `s`.
    #[inline]
    pub fn apply(&self, s: usize, pegs: Cells) -> Cells {
        let t = &self.tables[s];
        let mut out = 0;
        for (byte, tb) in t.iter().enumerate().take(self.bytes) {
            out |= tb[((pegs >> (8 * byte)) & 0xff) as usize];
        }
        out
    }

    /// The image of cell `i` under non-identity symmetry `s`.
    pub fn map_cell(&self, s: usize, i: u8) -> u8 {
        self.maps[s][i as usize]
    }

    /// The canonical key: the smallest image of `pegs`.
    #[inline]
    pub fn canonical(&self, pegs: Cells) -> Cells {
        let mut best = pegs;
        for s in 0..self.tables.len() {
            best = best.min(self.apply(s, pegs));
        }
        best
    }

    /// The canonical key of a position with one marked cell (the end of the
    /// last move, for searches whose options depend on it): the smallest
    /// (position, marked cell) image.
    pub fn canonical_marked(&self, pegs: Cells, mark: u8) -> (Cells, u8) {
        let mut best = (pegs, mark);
        for s in 0..self.tables.len() {
            best = best.min((self.apply(s, pegs), self.map_cell(s, mark)));
        }
        best
    }

    /// The image of a set of cells given as an iterator (slow path).
    pub fn apply_slow(&self, s: usize, pegs: Cells) -> Cells {
        cells_of(pegs).fold(0, |acc, i| acc | bit(self.map_cell(s, i)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pegs::parse::{parse_game, ENGLISH};

    #[test]
    fn english_board_has_eight_symmetries() {
        let g = parse_game(ENGLISH).unwrap();
        let s = Symmetries::of(&g.board);
        assert_eq!(s.order(), 8);
        for k in 0..7 {
            assert_eq!(s.apply(k, g.pegs), g.pegs);
            let p = g.pegs ^ bit(g.board.index(0, 2));
            assert_eq!(s.apply(k, p), s.apply_slow(k, p));
            assert_eq!(s.apply(k, p) & !g.board.cells(), 0);
        }
    }

    #[test]
    fn fixing_a_cell_keeps_the_symmetries_that_leave_it() {
        let g = parse_game(ENGLISH).unwrap();
        let s = Symmetries::of(&g.board);
        assert_eq!(s.fixing(g.board.index(3, 3)).order(), 8);
        // (3,6) stays only under the mirror through row 3.
        assert_eq!(s.fixing(g.board.index(3, 6)).order(), 2);
        assert_eq!(s.fixing(g.board.index(0, 2)).order(), 1);
    }

    #[test]
    fn asymmetric_shapes_keep_only_what_fits() {
        let g = parse_game("3x2:PPPPHO").unwrap();
        assert_eq!(Symmetries::of(&g.board).order(), 1);
        let g = parse_game("3x2:PPPPHP").unwrap();
        assert_eq!(Symmetries::of(&g.board).order(), 4);
        let full = "P".repeat(121);
        let g = parse_game(&format!("11x11:{full}")).unwrap();
        let s = Symmetries::of(&g.board);
        assert_eq!(s.order(), 8);
        let p = bit(120) | bit(3);
        for k in 0..7 {
            assert_eq!(s.apply(k, p), s.apply_slow(k, p));
        }
    }
}
