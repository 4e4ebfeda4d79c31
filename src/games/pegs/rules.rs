//! The rules of peg solitaire on a bitboard: the board's shape, jumps, and
//! the state after a jump.
//!
//! Cells are numbered `row * width + col`; a position is a `u128` with one
//! bit per peg (boards up to 11x11 = 121 cells). For each of the four
//! directions the board keeps the mask of cells from which a jump in that
//! direction stays on the board, so all legal jumps of a position come out
//! of three shifts and two ANDs per direction.

use std::fmt;

/// The largest supported side (11x11 = 121 cells fit a `u128`).
pub const MAX_SIDE: usize = 11;

/// A set of cells, one bit per cell.
pub type Cells = u128;

/// The bit of cell `i`.
#[inline]
pub fn bit(i: u8) -> Cells {
    1u128 << i
}

/// Iterates the cell numbers of the set bits of `set`, lowest first.
pub fn cells_of(mut set: Cells) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let i = set.trailing_zeros() as u8;
            set &= set - 1;
            Some(i)
        }
    })
}

/// One of the four jump directions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Towards row 0.
    Up,
    /// Towards the last row.
    Down,
    /// Towards column 0.
    Left,
    /// Towards the last column.
    Right,
}

impl Dir {
    /// The four directions.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// (row, column) step.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::Up => (-1, 0),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
            Dir::Right => (0, 1),
        }
    }
}

/// One jump: the peg on `from` jumps over `over` into the hole `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Jump {
    /// The cell the jumping peg leaves.
    pub from: u8,
    /// The cell whose peg is removed.
    pub over: u8,
    /// The hole the peg lands in.
    pub to: u8,
}

impl Jump {
    /// The three cells the jump toggles.
    #[inline]
    pub fn mask(self) -> Cells {
        bit(self.from) | bit(self.over) | bit(self.to)
    }
}

/// Why a board shape cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Width or height is 0 or above [`MAX_SIDE`].
    #[error("board size {width}x{height} is not supported (each side must be 1..={MAX_SIDE})")]
    Size {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
}

/// The shape of a board: its size and which cells are on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    width: usize,
    height: usize,
    cells: Cells,
    /// Per direction (in [`Dir::ALL`] order): cells from which a jump in
    /// that direction lands on the board.
    from_mask: [Cells; 4],
    /// Per direction: the cell-number step (signed).
    step: [i32; 4],
    /// Every (from, over, to) triple, in [`Board::indexed_jumps`] order.
    jumps: Vec<Jump>,
}

impl Board {
    /// A `width` x `height` board whose on-board cells are `cells`.
    pub fn new(width: usize, height: usize, cells: Cells) -> Result<Board, BoardError> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(BoardError::Size { width, height });
        }
        let n = width * height;
        let cells = if n == 128 {
            cells
        } else {
            cells & ((1u128 << n) - 1)
        };
        let mut from_mask = [0; 4];
        let mut step = [0; 4];
        for (d, dir) in Dir::ALL.iter().enumerate() {
            let (dr, dc) = dir.delta();
            step[d] = dr * width as i32 + dc;
            for r in 0..height as i32 {
                for c in 0..width as i32 {
                    let (r2, c2) = (r + 2 * dr, c + 2 * dc);
                    if r2 < 0 || c2 < 0 || r2 >= height as i32 || c2 >= width as i32 {
                        continue;
                    }
                    let at = |r: i32, c: i32| (r as usize * width + c as usize) as u8;
                    let m = bit(at(r, c)) | bit(at(r + dr, c + dc)) | bit(at(r2, c2));
                    if cells & m == m {
                        from_mask[d] |= bit(at(r, c));
                    }
                }
            }
        }
        let mut board = Board {
            width,
            height,
            cells,
            from_mask,
            step,
            jumps: Vec::new(),
        };
        board.jumps = board.indexed_jumps().map(|(_, j)| j).collect();
        Ok(board)
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The on-board cells.
    pub fn cells(&self) -> Cells {
        self.cells
    }

    /// Number of on-board cells.
    pub fn len(&self) -> usize {
        self.cells.count_ones() as usize
    }

    /// True when no cell is on the board.
    pub fn is_empty(&self) -> bool {
        self.cells == 0
    }

    /// The cell number of (row, col).
    pub fn index(&self, row: usize, col: usize) -> u8 {
        (row * self.width + col) as u8
    }

    /// (row, col) of cell `i`.
    pub fn row_col(&self, i: u8) -> (usize, usize) {
        (i as usize / self.width, i as usize % self.width)
    }

    /// True when (row, col) is a cell of the board.
    pub fn on_board(&self, row: usize, col: usize) -> bool {
        row < self.height && col < self.width && self.cells & bit(self.index(row, col)) != 0
    }

    /// The holes of position `pegs`.
    #[inline]
    pub fn holes(&self, pegs: Cells) -> Cells {
        self.cells & !pegs
    }

    /// Per direction, the cells from which a legal jump starts.
    #[inline]
    pub fn jump_sources(&self, pegs: Cells) -> [Cells; 4] {
        let holes = self.holes(pegs);
        let mut out = [0; 4];
        #[allow(clippy::needless_range_loop)]
        for d in 0..4 {
            let s = self.step[d];
            // SAFETY: a step is 1 or a row of at most MAX_SIDE cells
            // (checked by `Board::new`); saying so lets the compiler drop
            // the shift-by-64-or-more branches of the u128 shifts.
            unsafe { std::hint::assert_unchecked(s.unsigned_abs() as usize <= MAX_SIDE) };
            out[d] = if s > 0 {
                let s = s as u32;
                pegs & (pegs >> s) & (holes >> (2 * s)) & self.from_mask[d]
            } else {
                let s = (-s) as u32;
                pegs & (pegs << s) & (holes << (2 * s)) & self.from_mask[d]
            };
        }
        out
    }

    /// The jump of direction index `d` (into [`Dir::ALL`]) from `from`.
    #[inline]
    pub fn jump(&self, from: u8, d: usize) -> Jump {
        let s = self.step[d];
        Jump {
            from,
            over: (from as i32 + s) as u8,
            to: (from as i32 + 2 * s) as u8,
        }
    }

    /// Appends every legal jump of `pegs` to `out`.
    pub fn jumps(&self, pegs: Cells, out: &mut Vec<Jump>) {
        let src = self.jump_sources(pegs);
        for (d, &set) in src.iter().enumerate() {
            for f in cells_of(set) {
                out.push(self.jump(f, d));
            }
        }
    }

    /// True when `pegs` has a legal jump.
    pub fn can_jump(&self, pegs: Cells) -> bool {
        self.jump_sources(pegs).iter().any(|&s| s != 0)
    }

    /// True when `j` is legal in `pegs`.
    pub fn is_legal(&self, pegs: Cells, j: Jump) -> bool {
        let src = self.jump_sources(pegs);
        (0..4).any(|d| src[d] & bit(j.from) != 0 && self.jump(j.from, d) == j)
    }

    /// Every (from, over, to) triple of the board, legal or not: the jumps
    /// a pagoda function or a Merson region must be checked against.
    pub fn all_jumps(&self) -> &[Jump] {
        &self.jumps
    }

    /// Every jump of the board with its index `from * 4 + d` (`d` its
    /// direction index): the index of the per-jump tables of the solver.
    pub fn indexed_jumps(&self) -> impl Iterator<Item = (usize, Jump)> + '_ {
        (0..4).flat_map(move |d| {
            cells_of(self.from_mask[d]).map(move |f| (f as usize * 4 + d, self.jump(f, d)))
        })
    }

    /// The signed cell-number step of direction index `d`.
    pub fn step(&self, d: usize) -> i32 {
        self.step[d]
    }

    /// The mask of cells from which a jump in direction index `d` stays on
    /// the board.
    pub fn from_mask(&self, d: usize) -> Cells {
        self.from_mask[d]
    }
}

/// The position after `j`.
#[inline]
pub fn apply(pegs: Cells, j: Jump) -> Cells {
    pegs ^ j.mask()
}

/// True when one peg is left.
#[inline]
pub fn is_won(pegs: Cells) -> bool {
    pegs.count_ones() == 1
}

/// A board with a position on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// The shape.
    pub board: Board,
    /// The pegs.
    pub pegs: Cells,
}

impl Game {
    /// The sgt-pegs game ID of this position (`WxH:` then `P`/`H`/`O`).
    pub fn id(&self) -> String {
        let mut s = format!("{}x{}:", self.board.width, self.board.height);
        for i in 0..(self.board.width * self.board.height) as u8 {
            s.push(if self.pegs & bit(i) != 0 {
                'P'
            } else if self.board.cells & bit(i) != 0 {
                'H'
            } else {
                'O'
            });
        }
        s
    }

    /// Number of pegs.
    pub fn peg_count(&self) -> u32 {
        self.pegs.count_ones()
    }

    /// (row, col) of the three cells of a jump.
    pub fn jump_coords(&self, j: Jump) -> [(usize, usize); 3] {
        [
            self.board.row_col(j.from),
            self.board.row_col(j.over),
            self.board.row_col(j.to),
        ]
    }
}

impl fmt::Display for Game {
    /// Rows of `P` (peg), `.` (hole) and space (off the board).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.board.height {
            let mut line = String::new();
            for c in 0..self.board.width {
                let i = self.board.index(r, c);
                line.push(if self.pegs & bit(i) != 0 {
                    'P'
                } else if self.board.cells & bit(i) != 0 {
                    '.'
                } else {
                    ' '
                });
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        Ok(())
    }
}

/// Peg solitaire with single jumps as moves, for the search core's
/// engines: every win takes exactly `pegs - 1` jumps.
#[derive(Debug, Clone)]
pub struct JumpProblem<'a> {
    /// The shape.
    pub board: &'a Board,
}

impl crate::solver::Problem for JumpProblem<'_> {
    type State = Cells;
    type Move = Jump;

    fn moves(&self, state: &Cells, out: &mut Vec<Jump>) {
        self.board.jumps(*state, out);
    }

    fn apply(&self, state: &Cells, mv: Jump) -> Cells {
        apply(*state, mv)
    }

    fn is_goal(&self, state: &Cells) -> bool {
        is_won(*state)
    }

    fn lower_bound(&self, state: &Cells) -> u32 {
        state.count_ones().saturating_sub(1)
    }
}

impl crate::solver::Keyed for JumpProblem<'_> {
    type Key = Cells;

    fn key(&self, state: &Cells) -> Cells {
        *state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(w: usize, h: usize) -> Board {
        Board::new(w, h, u128::MAX).unwrap()
    }

    #[test]
    fn jumps_stay_on_the_board_and_do_not_wrap() {
        let b = full(3, 3);
        // Pegs on (0,1),(0,2),(1,0): no horizontal wrap from (0,2) over (1,0).
        let pegs = bit(1) | bit(2) | bit(3);
        let mut js = Vec::new();
        b.jumps(pegs, &mut js);
        // (0,2) over (0,1) to (0,0) is the only jump.
        assert_eq!(
            js,
            vec![Jump {
                from: 2,
                over: 1,
                to: 0
            }]
        );
        assert_eq!(apply(pegs, js[0]), bit(0) | bit(3));
    }

    #[test]
    fn off_board_cells_block_jumps() {
        // 1x3 with the middle cell off the board.
        let b = Board::new(3, 1, 0b101).unwrap();
        assert!(b.all_jumps().is_empty());
        let b = Board::new(3, 1, 0b111).unwrap();
        assert_eq!(b.all_jumps().len(), 2);
        let mut js = Vec::new();
        b.jumps(0b011, &mut js);
        assert_eq!(
            js,
            vec![Jump {
                from: 0,
                over: 1,
                to: 2
            }]
        );
        assert!(b.is_legal(0b011, js[0]));
        assert!(!b.is_legal(0b110, js[0]));
    }

    #[test]
    fn eleven_by_eleven_uses_the_top_bits() {
        let b = full(11, 11);
        assert_eq!(b.len(), 121);
        let last = b.index(10, 10);
        let pegs = bit(last) | bit(last - 1);
        let mut js = Vec::new();
        b.jumps(pegs, &mut js);
        assert_eq!(
            js,
            vec![Jump {
                from: last,
                over: last - 1,
                to: last - 2
            }]
        );
    }

    #[test]
    fn sizes_out_of_range_are_errors() {
        assert!(Board::new(0, 3, 1).is_err());
        assert!(Board::new(12, 3, 1).is_err());
    }
}
