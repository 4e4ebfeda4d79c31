//! The symmetries of a board's shape and canonical keys of positions.
//!
//! Of the eight rotations and reflections of the square (four when the
//! board is not square), [`Symmetries`] keeps those that map the board's
//! cells onto themselves. Each is applied to a `u128` position by
//! whole-board shifts and masks ([`Shifts`]), and the canonical key of a
//! position is the smallest of its images: two positions have the same key
//! exactly when a symmetry of the board maps one onto the other, and such
//! positions are won or lost together and need the same number of moves.

use super::rules::{bit, cells_of, Board, Cells};

/// The symmetries of one board shape.
#[derive(Debug, Clone)]
pub struct Symmetries {
    /// Per non-identity symmetry: the cell each cell maps to.
    maps: Vec<Vec<u8>>,
    /// Per non-identity symmetry: its kind, bit 4 transpose, then bit 1
    /// mirror left-right, bit 2 mirror top-bottom (see [`Shifts`]).
    kinds: Vec<u8>,
    /// Whole-board bit shuffles that compute the images fast.
    shifts: Shifts,
}

/// The eight symmetries of the square as shifts and masks of a whole
/// position (cells numbered `row * w + col`): top-bottom mirror by moving
/// rows, a half turn by reversing the bits, left-right mirror as both,
/// transpose by moving each diagonal. About a hundred word operations
/// give all eight images, where byte tables would read 50-100 table
/// entries spread over 200 KB.
#[derive(Debug, Clone)]
struct Shifts {
    w: u32,
    h: u32,
    /// The cells of row 0.
    row: u128,
    /// Per diagonal `col - row = d`: its cells and `d`.
    diagonals: Vec<(u128, i32)>,
}

impl Shifts {
    fn new(w: usize, h: usize) -> Shifts {
        let mut diagonals = Vec::new();
        if w == h {
            for d in -(w as i32 - 1)..w as i32 {
                let mut m = 0u128;
                for r in 0..h as i32 {
                    let c = r + d;
                    if (0..w as i32).contains(&c) {
                        m |= bit((r * w as i32 + c) as u8);
                    }
                }
                diagonals.push((m, d));
            }
        }
        Shifts {
            w: w as u32,
            h: h as u32,
            row: (1u128 << w) - 1,
            diagonals,
        }
    }

    /// Row `r` to row `h - 1 - r`.
    #[inline]
    fn vflip(&self, x: Cells) -> Cells {
        let mut out = 0;
        for r in 0..self.h {
            out |= ((x >> (r * self.w)) & self.row) << ((self.h - 1 - r) * self.w);
        }
        out
    }

    /// (r, c) to (h - 1 - r, w - 1 - c): all bits reversed.
    #[inline]
    fn rot180(&self, x: Cells) -> Cells {
        x.reverse_bits() >> (128 - self.w * self.h)
    }

    /// (r, c) to (c, r) (square boards): each diagonal moves by
    /// `d * (w - 1)` bits.
    #[inline]
    fn transpose(&self, x: Cells) -> Cells {
        let s = self.w as i32 - 1;
        let mut out = 0;
        for &(m, d) in &self.diagonals {
            let sh = d * s;
            out |= if sh >= 0 {
                (x & m) << sh
            } else {
                (x & m) >> -sh
            };
        }
        out
    }

    /// The images of `x` under the symmetries of kind 0..8 (only the first
    /// four are filled on non-square boards).
    #[inline]
    fn images(&self, x: Cells, square: bool) -> [Cells; 8] {
        let mut out = [0; 8];
        let v = self.vflip(x);
        out[0] = x;
        out[1] = self.rot180(v);
        out[2] = v;
        out[3] = self.rot180(x);
        if square {
            let t = self.transpose(x);
            let vt = self.vflip(t);
            out[4] = t;
            out[5] = self.rot180(vt);
            out[6] = vt;
            out[7] = self.rot180(t);
        }
        out
    }
}

impl Symmetries {
    /// The symmetries of `board`'s shape (the identity is implied).
    pub fn of(board: &Board) -> Symmetries {
        let (w, h) = (board.width(), board.height());
        let mut maps = Vec::new();
        let mut kinds = Vec::new();
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
                kinds.push(k);
            }
        }
        Symmetries {
            maps,
            kinds,
            shifts: Shifts::new(w, h),
        }
    }

    /// The identity alone (no reduction).
    pub fn identity(board: &Board) -> Symmetries {
        Symmetries {
            maps: Vec::new(),
            kinds: Vec::new(),
            shifts: Shifts::new(board.width(), board.height()),
        }
    }

    /// The symmetries numbered `keep` (a subset of these).
    fn subset(&self, keep: &[usize]) -> Symmetries {
        Symmetries {
            maps: keep.iter().map(|&s| self.maps[s].clone()).collect(),
            kinds: keep.iter().map(|&s| self.kinds[s]).collect(),
            shifts: self.shifts.clone(),
        }
    }

    /// The images of `pegs` under each non-identity symmetry, in order
    /// (entries past [`Symmetries::order`]` - 1` are unused).
    #[inline]
    fn images(&self, pegs: Cells) -> [Cells; 8] {
        let all = self
            .shifts
            .images(pegs, self.kinds.iter().any(|&k| k & 4 != 0));
        let mut out = [0; 8];
        for (s, &k) in self.kinds.iter().enumerate() {
            out[s] = all[k as usize];
        }
        out
    }

    /// The symmetries that map cell `cell` onto itself (for searches whose
    /// goal names a cell).
    pub fn fixing(&self, cell: u8) -> Symmetries {
        let keep: Vec<usize> = (0..self.maps.len())
            .filter(|&s| self.maps[s][cell as usize] == cell)
            .collect();
        self.subset(&keep)
    }

    /// The symmetries that map position `pegs` onto itself: the group to
    /// reduce by when counting the positions reachable from `pegs` (a
    /// symmetry that moves the start would merge positions reachable
    /// only from its image).
    pub fn fixing_position(&self, pegs: Cells) -> Symmetries {
        let keep: Vec<usize> = (0..self.maps.len())
            .filter(|&s| self.apply(s, pegs) == pegs)
            .collect();
        self.subset(&keep)
    }

    /// Number of symmetries, the identity included.
    pub fn order(&self) -> usize {
        self.maps.len() + 1
    }

    /// The image of `pegs` under non-identity symmetry `s`.
    #[inline]
    pub fn apply(&self, s: usize, pegs: Cells) -> Cells {
        let k = self.kinds[s];
        self.shifts.images(pegs, k & 4 != 0)[k as usize]
    }

    /// The image of cell `i` under non-identity symmetry `s`.
    pub fn map_cell(&self, s: usize, i: u8) -> u8 {
        self.maps[s][i as usize]
    }

    /// The canonical key: the smallest image of `pegs`.
    #[inline]
    pub fn canonical(&self, pegs: Cells) -> Cells {
        if self.kinds.is_empty() {
            return pegs;
        }
        let img = self.images(pegs);
        let mut best = pegs;
        for &i in &img[..self.kinds.len()] {
            best = best.min(i);
        }
        best
    }

    /// The canonical key of a position with one marked cell (the end of the
    /// last move, for searches whose options depend on it): the smallest
    /// (position, marked cell) image.
    pub fn canonical_marked(&self, pegs: Cells, mark: u8) -> (Cells, u8) {
        if self.kinds.is_empty() {
            return (pegs, mark);
        }
        let img = self.images(pegs);
        let mut best = (pegs, mark);
        for (s, &i) in img[..self.kinds.len()].iter().enumerate() {
            best = best.min((i, self.map_cell(s, mark)));
        }
        best
    }

    /// The canonical key of a position with one marked cell, packed into
    /// one `u128`: the smallest image of `pegs | mark << 121` (cells use
    /// bits 0..121, so the mark fits the top seven bits).
    #[inline]
    pub fn canonical_tagged(&self, pegs: Cells, mark: u8) -> u128 {
        let mut best = pegs | (mark as u128) << 121;
        if self.kinds.is_empty() {
            return best;
        }
        let img = self.images(pegs);
        for (s, &i) in img[..self.kinds.len()].iter().enumerate() {
            best = best.min(i | (self.maps[s][mark as usize] as u128) << 121);
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
    fn shift_images_match_the_cell_maps() {
        let mut x: u128 = 0x2545_f491_4f6c_dd1d_9e37_79b9_7f4a_7c15;
        for (w, h) in [(7, 7), (11, 11), (9, 9), (5, 3), (1, 4), (11, 10), (2, 2)] {
            let full = "P".repeat(w * h);
            let g = parse_game(&format!("{w}x{h}:{full}")).unwrap();
            let s = Symmetries::of(&g.board);
            for _ in 0..50 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let p = x & g.board.cells();
                let img = s.images(p);
                for (k, &i) in img.iter().enumerate().take(s.order() - 1) {
                    assert_eq!(i, s.apply_slow(k, p), "{w}x{h} symmetry {k}");
                }
                let slow = (0..s.order() - 1).fold(p, |b, k| b.min(s.apply_slow(k, p)));
                assert_eq!(s.canonical(p), slow);
                let m = (x >> 64) as u8 % (w * h) as u8;
                let slow_marked = (0..s.order() - 1)
                    .fold((p, m), |b, k| b.min((s.apply_slow(k, p), s.map_cell(k, m))));
                assert_eq!(s.canonical_marked(p, m), slow_marked);
                let tag = |p: Cells, m: u8| p | (m as u128) << 121;
                let slow_tagged = (0..s.order() - 1).fold(tag(p, m), |b, k| {
                    b.min(tag(s.apply_slow(k, p), s.map_cell(k, m)))
                });
                assert_eq!(s.canonical_tagged(p, m), slow_tagged);
            }
        }
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
