//! The rules of Rush Hour on an N x N board (N from 4 to 8): the pieces,
//! the walls, packed positions, the legal moves and the goal.
//!
//! A [`Board`] holds the static facts: its size, its walls and its pieces
//! (each with its axis, its length and the row or column it lives on); the
//! primary piece is piece 0 and always horizontal. A [`Position`] is the
//! offset of every piece along its axis, packed 3 bits a piece in one `u64`
//! (so at most [`MAX_PIECES`] pieces); the occupied cells are a `u64`
//! bitboard, cell `row * N + col`. A [`Move`] slides one piece any number of
//! cells along its axis (one move, `|delta|` steps).

use std::fmt;

/// Most pieces a board may hold (3 bits of the packed position each).
pub const MAX_PIECES: usize = 21;

/// Smallest supported board side.
pub const MIN_SIZE: usize = 4;

/// Largest supported board side.
pub const MAX_SIZE: usize = 8;

/// Fogleman's fixed order of the positions of one board (the `operator<`
/// of his enumerator's boards, by which his database picks the hardest
/// position of a cluster): the cells of the horizontal pieces as a bit set
/// (bit `i`: cell `i` in row order), then those of the vertical ones,
/// compared as integers. Within one piece set it tells positions apart:
/// the pieces of a line keep their order, so a line's cells place them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct OrderKey {
    /// Cells of the horizontal pieces.
    pub horizontal: u64,
    /// Cells of the vertical pieces.
    pub vertical: u64,
}

impl OrderKey {
    /// After every position's key.
    pub const MAX: OrderKey = OrderKey {
        horizontal: u64::MAX,
        vertical: u64::MAX,
    };
}

/// One piece: its axis, its length and the line it moves on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// True for a piece that moves left and right.
    pub horizontal: bool,
    /// Its length in cells, 2 or 3.
    pub len: u8,
    /// Its row (horizontal) or column (vertical).
    pub line: u8,
    /// The letter it is written with (`A` for the primary piece).
    pub label: char,
}

/// A packed position: piece `i`'s offset along its axis (the column of its
/// leftmost cell, or the row of its top cell) in bits `3i..3i+3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position(pub u64);

impl Position {
    /// The offset of piece `i`.
    #[inline]
    pub fn get(self, i: usize) -> u8 {
        ((self.0 >> (3 * i)) & 7) as u8
    }

    /// The same position with piece `i` at offset `p`.
    #[inline]
    pub fn with(self, i: usize, p: u8) -> Position {
        Position((self.0 & !(7 << (3 * i))) | ((p as u64) << (3 * i)))
    }
}

/// One move: piece `piece` slides `delta` cells (negative: left or up).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The index of the piece in [`Board::pieces`].
    pub piece: u8,
    /// Cells moved, right/down positive, never 0.
    pub delta: i8,
}

impl Move {
    /// Cells travelled.
    pub fn steps(self) -> u32 {
        self.delta.unsigned_abs() as u32
    }
}

/// A board: size, walls, pieces. Positions are separate ([`Position`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    size: u8,
    walls: u64,
    pieces: Vec<Piece>,
    /// `masks[i][p]`: the cells of piece `i` at offset `p`.
    masks: Vec<[u64; 8]>,
    /// `tmasks[i][p]`: the same cells on the transposed board (cell
    /// `col * N + row`), where columns are rows.
    tmasks: Vec<[u64; 8]>,
    /// The walls on the transposed board.
    twalls: u64,
    /// Per offset of the primary piece: the cells between it and the exit.
    exit_paths: [u64; 8],
    /// Per piece: the shift of its line in the (transposed, when
    /// vertical) board, its length, and whether it is vertical.
    lanes: Vec<Lane>,
}

/// Where a piece moves, for move generation by bit operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Lane {
    shift: u8,
    len: u8,
    vertical: bool,
}

/// `cells` (cell `r * n + c`) on the transposed board (cell `c * n + r`).
pub(super) fn transpose(cells: u64, n: usize) -> u64 {
    let mut t = 0;
    for r in 0..n {
        for c in 0..n {
            if cells & (1 << (r * n + c)) != 0 {
                t |= 1 << (c * n + r);
            }
        }
    }
    t
}

/// Why a set of pieces does not make a board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The side is outside 4..=8.
    #[error("board side {0} is not supported (4 to 8)")]
    Size(usize),
    /// More pieces than fit in a packed position.
    #[error("{0} pieces, more than the {MAX_PIECES} supported")]
    TooManyPieces(usize),
    /// Piece 0 is not a horizontal piece.
    #[error("the primary piece is not horizontal")]
    PrimaryNotHorizontal,
    /// A piece of the wrong length or off the board.
    #[error("piece {0} does not fit: length {1} on line {2}")]
    BadPiece(char, u8, u8),
}

impl Board {
    /// A board of side `size` with wall cells `walls` and `pieces` (the
    /// primary piece first).
    pub fn new(size: usize, walls: u64, pieces: Vec<Piece>) -> Result<Board, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(BoardError::Size(size));
        }
        if pieces.len() > MAX_PIECES {
            return Err(BoardError::TooManyPieces(pieces.len()));
        }
        match pieces.first() {
            Some(p) if p.horizontal => {}
            _ => return Err(BoardError::PrimaryNotHorizontal),
        }
        let n = size;
        let mut masks = Vec::with_capacity(pieces.len());
        for p in &pieces {
            if !(2..=3).contains(&p.len) || p.line as usize >= n {
                return Err(BoardError::BadPiece(p.label, p.len, p.line));
            }
            let mut m = [0u64; 8];
            for (off, slot) in m.iter_mut().enumerate().take(n + 1 - p.len as usize) {
                for k in 0..p.len as usize {
                    let (r, c) = if p.horizontal {
                        (p.line as usize, off + k)
                    } else {
                        (off + k, p.line as usize)
                    };
                    *slot |= 1 << (r * n + c);
                }
            }
            masks.push(m);
        }
        let tmasks = masks.iter().map(|m| m.map(|c| transpose(c, n))).collect();
        let lanes = pieces
            .iter()
            .map(|p| Lane {
                shift: p.line * n as u8,
                len: p.len,
                vertical: !p.horizontal,
            })
            .collect();
        let mut exit_paths = [0u64; 8];
        let a = &pieces[0];
        for (off, path) in exit_paths.iter_mut().enumerate() {
            for c in (off + a.len as usize).min(n)..n {
                *path |= 1 << (a.line as usize * n + c);
            }
        }
        Ok(Board {
            size: size as u8,
            walls,
            pieces,
            masks,
            tmasks,
            twalls: transpose(walls, n),
            exit_paths,
            lanes,
        })
    }

    /// The side N.
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// The wall cells.
    pub fn walls(&self) -> u64 {
        self.walls
    }

    /// The pieces, the primary piece first.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The cells of piece `i` at offset `p`.
    #[inline]
    pub fn mask(&self, i: usize, p: u8) -> u64 {
        self.masks[i][p as usize]
    }

    /// The offset of the primary piece when it is at the exit.
    #[inline]
    pub fn goal_offset(&self) -> u8 {
        self.size - self.pieces[0].len
    }

    /// Largest offset of piece `i`.
    #[inline]
    pub fn max_offset(&self, i: usize) -> u8 {
        self.size - self.pieces[i].len
    }

    /// The cells between the primary piece at offset `a` and the exit.
    #[inline]
    pub fn exit_path(&self, a: u8) -> u64 {
        self.exit_paths[a as usize]
    }

    /// True when the primary piece is at the exit.
    #[inline]
    pub fn is_solved(&self, pos: Position) -> bool {
        pos.get(0) == self.goal_offset()
    }

    /// The occupied cells (walls and pieces).
    #[inline]
    pub fn occupied(&self, pos: Position) -> u64 {
        let mut occ = self.walls;
        for (i, m) in self.masks.iter().enumerate() {
            occ |= m[pos.get(i) as usize];
        }
        occ
    }

    /// True when no two pieces overlap, no piece is on a wall and every
    /// offset is on the board.
    pub fn is_valid(&self, pos: Position) -> bool {
        if self.pieces.len() < MAX_PIECES && pos.0 >> (3 * self.pieces.len()) != 0 {
            return false;
        }
        let mut occ = self.walls;
        for i in 0..self.pieces.len() {
            let p = pos.get(i);
            if p > self.max_offset(i) {
                return false;
            }
            let m = self.mask(i, p);
            if occ & m != 0 {
                return false;
            }
            occ |= m;
        }
        true
    }

    /// Calls `f(move, position after it)` for every legal move of `pos`:
    /// piece by piece, backwards (left or up) by 1, 2, .. cells, then
    /// forwards. The free cells on each side of a piece come from its line
    /// of the occupancy bits (of the transposed board for a vertical
    /// piece) by one leading- and one trailing-zero count.
    #[inline]
    pub fn for_each_move(&self, pos: Position, f: impl FnMut(Move, Position)) {
        let occ = self.occupancy(pos);
        self.for_each_move_in(pos, occ, f);
    }

    /// The occupied cells of `pos`, on the board and on the transposed
    /// board, for [`Board::for_each_move_in`].
    #[inline]
    pub fn occupancy(&self, pos: Position) -> (u64, u64) {
        let mut occ = self.walls;
        let mut tocc = self.twalls;
        for (i, (m, t)) in self.masks.iter().zip(&self.tmasks).enumerate() {
            let p = pos.get(i) as usize;
            occ |= m[p];
            tocc |= t[p];
        }
        (occ, tocc)
    }

    /// [`Board::for_each_move`] given `pos`'s [`Board::occupancy`].
    #[inline]
    pub fn for_each_move_in(
        &self,
        pos: Position,
        (occ, tocc): (u64, u64),
        mut f: impl FnMut(Move, Position),
    ) {
        let n = self.size as u32;
        let line = (1u32 << n) - 1;
        for (i, lane) in self.lanes.iter().enumerate() {
            let p = pos.get(i) as u32;
            let len = lane.len as u32;
            let bits = (if lane.vertical { tocc } else { occ } >> lane.shift) as u32 & line;
            let (back, fwd) = free_run(bits, p, len, n);
            let unit = 1u64 << (3 * i);
            for d in 1..=back {
                f(
                    Move {
                        piece: i as u8,
                        delta: -(d as i8),
                    },
                    Position(pos.0 - d as u64 * unit),
                );
            }
            for d in 1..=fwd {
                f(
                    Move {
                        piece: i as u8,
                        delta: d as i8,
                    },
                    Position(pos.0 + d as u64 * unit),
                );
            }
        }
    }

    /// The legal moves of `pos`.
    pub fn moves(&self, pos: Position) -> Vec<Move> {
        let mut v = Vec::new();
        self.for_each_move(pos, |m, _| v.push(m));
        v
    }

    /// The position after `mv` (which must be legal).
    #[inline]
    pub fn apply(&self, pos: Position, mv: Move) -> Position {
        let unit = 1i64 << (3 * mv.piece as u32);
        Position((pos.0 as i64 + mv.delta as i64 * unit) as u64)
    }

    /// True when `mv` is legal in `pos`.
    pub fn is_legal(&self, pos: Position, mv: Move) -> bool {
        let mut ok = false;
        self.for_each_move(pos, |m, _| ok |= m == mv);
        ok
    }

    /// The pieces occupying the cells between the primary piece and the
    /// exit, as a bit set of piece indices.
    pub fn direct_blockers(&self, pos: Position) -> u32 {
        let n = self.size as usize;
        let a = &self.pieces[0];
        let start = pos.get(0) as usize + a.len as usize;
        let mut path = 0u64;
        for c in start..n {
            path |= 1 << (a.line as usize * n + c);
        }
        self.pieces_on(pos, path)
    }

    /// The pieces (bit set of indices) with a cell in `cells`.
    fn pieces_on(&self, pos: Position, cells: u64) -> u32 {
        let mut set = 0u32;
        for i in 1..self.pieces.len() {
            if self.mask(i, pos.get(i)) & cells != 0 {
                set |= 1 << i;
            }
        }
        set
    }

    /// An admissible lower bound on the moves to the goal: 0 when solved,
    /// else one for the primary piece plus one for every piece between it
    /// and the exit (each must move at least once). It is consistent: one
    /// move changes it by at most one.
    #[inline]
    pub fn admissible_bound(&self, pos: Position) -> u32 {
        if self.is_solved(pos) {
            0
        } else {
            1 + self.direct_blockers(pos).count_ones()
        }
    }

    /// The seed's blocking-cars score (its Algorithm 1): the pieces between
    /// the primary piece and the exit, then, repeatedly, every piece in the
    /// way of a piece already counted leaving the cells it must clear. 0
    /// when solved. Not admissible (a piece counted may never need to move).
    pub fn blocking_score(&self, pos: Position) -> u32 {
        if self.is_solved(pos) {
            return 0;
        }
        let n = self.size as usize;
        let a = &self.pieces[0];
        let row = a.line as usize;
        let mut set = self.direct_blockers(pos);
        let mut done = 0u32;
        while set != done {
            let todo = set & !done;
            done = set;
            for i in (0..32).filter(|i| todo & (1 << i) != 0) {
                set |= self.pieces_in_way(pos, i, row, n);
            }
        }
        1 + set.count_ones()
    }

    /// The pieces in the way of piece `i` clearing row `row` (vertical
    /// pieces, either direction) or, for a horizontal piece, moving at all.
    fn pieces_in_way(&self, pos: Position, i: usize, row: usize, n: usize) -> u32 {
        let piece = &self.pieces[i];
        let p = pos.get(i) as usize;
        let len = piece.len as usize;
        let col = piece.line as usize;
        let mut cells = 0u64;
        if piece.horizontal {
            // It can only be in the primary row: nothing it does clears
            // the row; count whatever is right next to it.
            if p > 0 {
                cells |= 1 << (piece.line as usize * n + p - 1);
            }
            if p + len < n {
                cells |= 1 << (piece.line as usize * n + p + len);
            }
        } else {
            // Up: its bottom cell must go above `row`: top at row - len.
            if row >= len {
                for r in (row + 1 - len)..p {
                    cells |= 1 << (r * n + col);
                }
            }
            // Down: its top must go below `row`.
            if row + len < n {
                for r in (p + len)..(row + 1 + len).min(n) {
                    cells |= 1 << (r * n + col);
                }
            }
        }
        self.pieces_on(pos, cells) & !(1 << i)
    }

    /// The position written as N x N characters in row order (`o` empty,
    /// `x` wall, piece letters).
    pub fn to_text(&self, pos: Position) -> String {
        let n = self.size as usize;
        let mut cells = vec!['o'; n * n];
        for (c, cell) in cells.iter_mut().enumerate() {
            if self.walls & (1 << c) != 0 {
                *cell = 'x';
            }
        }
        for (i, piece) in self.pieces.iter().enumerate() {
            let m = self.mask(i, pos.get(i));
            for (c, cell) in cells.iter_mut().enumerate() {
                if m & (1 << c) != 0 {
                    *cell = piece.label;
                }
            }
        }
        cells.into_iter().collect()
    }

    /// The key of `pos` in Fogleman's fixed order of positions.
    pub fn order_key(&self, pos: Position) -> OrderKey {
        let mut key = OrderKey::default();
        for (i, piece) in self.pieces.iter().enumerate() {
            let m = self.mask(i, pos.get(i));
            if piece.horizontal {
                key.horizontal |= m;
            } else {
                key.vertical |= m;
            }
        }
        key
    }

    /// Describes `mv` as `B down 2`.
    pub fn describe(&self, mv: Move) -> String {
        let piece = &self.pieces[mv.piece as usize];
        let dir = match (piece.horizontal, mv.delta > 0) {
            (true, true) => "right",
            (true, false) => "left",
            (false, true) => "down",
            (false, false) => "up",
        };
        format!("{} {} {}", piece.label, dir, mv.delta.unsigned_abs())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{:+}", self.piece, self.delta)
    }
}

/// The free cells on each side of a piece of length `len` at offset `p`
/// of a line of `n` cells whose occupied cells are `bits` (the piece's own
/// included): how far it can slide back (towards 0) and forward, up to
/// the nearest occupied cell or the edge. One leading- and one
/// trailing-zero count, no loop.
#[inline(always)]
pub fn free_run(bits: u32, p: u32, len: u32, n: u32) -> (u32, u32) {
    let below = bits & ((1 << p) - 1);
    let back = if below == 0 {
        p
    } else {
        p - 1 - (31 - below.leading_zeros())
    };
    let fwd = (bits >> (p + len)).trailing_zeros().min(n - p - len);
    (back, fwd)
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse_board;
    use super::*;

    #[test]
    fn moves_slide_any_distance_until_blocked() {
        // Row 2: A at columns 0-1, B vertical at column 3 rows 1-2.
        let (b, pos) = parse_board("oooooooooBooAAoBoooooooooooooooooooo").unwrap();
        let moves = b.moves(pos);
        let a: Vec<_> = moves.iter().filter(|m| m.piece == 0).collect();
        // A can move right one cell only (B at column 3 of row 2).
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].delta, 1);
        let bm: Vec<i8> = moves
            .iter()
            .filter(|m| m.piece == 1)
            .map(|m| m.delta)
            .collect();
        // B occupies rows 1-2 of column 3: up 1, down 1..=3.
        assert_eq!(bm, vec![-1, 1, 2, 3]);
        for m in moves {
            let next = b.apply(pos, m);
            assert!(b.is_valid(next));
            assert_eq!(b.occupied(next).count_ones(), b.occupied(pos).count_ones());
        }
    }

    #[test]
    fn bounds_and_scores() {
        let (b, pos) = parse_board("oooooooooBooAAoBoooooooooooooooooooo").unwrap();
        assert_eq!(b.admissible_bound(pos), 2);
        assert!(b.blocking_score(pos) >= 2);
        assert!(b.is_solved(pos.with(0, 4)));
        let (b2, p2) = parse_board("ooooooooooooooooAAoooooooooooooooooo").unwrap();
        assert!(b2.is_solved(p2));
        assert_eq!(b2.admissible_bound(p2), 0);
        assert_eq!(
            b.describe(Move {
                piece: 1,
                delta: -1
            }),
            "B up 1"
        );
        assert_eq!(b.to_text(pos), "oooooooooBooAAoBoooooooooooooooooooo");
    }
}
