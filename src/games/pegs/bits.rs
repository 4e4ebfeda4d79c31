//! The solver's bitboards in the narrowest word that holds the board.
//!
//! Positions are `u128` everywhere else ([`super::rules::Cells`]: boards up
//! to 11x11). Boards of at most 64 cells (the 7x7 presets, every 8x8)
//! fit in a `u64`, where every shift, mask and count is one instruction
//! instead of two to four; the search's inner loop is instantiated for
//! both words and picks one per board. [`Masks`] holds a board's fixed
//! masks in one word.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

use super::rules::{bit, Board, Cells};

/// Most non-identity symmetries of a board.
pub const NSYM: usize = 7;

/// A bitboard word: `u64` or `u128`.
pub trait Bits:
    Copy
    + Ord
    + Default
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// The empty set.
    const ZERO: Self;
    /// `c` in this word (the board fits, so no bit is lost).
    fn narrow(c: Cells) -> Self;
    /// This set as [`Cells`].
    fn wide(self) -> Cells;
    /// Number of cells in the set.
    fn ones(self) -> u32;
    /// The lowest cell of a non-empty set.
    fn lowest(self) -> u8;
    /// The set without its lowest cell.
    fn drop_lowest(self) -> Self;
}

/// Implements [`Bits`] for a word; `narrow` and `wide` convert from and
/// to [`Cells`].
macro_rules! impl_bits {
    ($t:ty, $narrow:expr, $wide:expr) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn narrow(c: Cells) -> Self {
                $narrow(c)
            }
            #[inline(always)]
            fn wide(self) -> Cells {
                $wide(self)
            }
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> u8 {
                self.trailing_zeros() as u8
            }
            #[inline(always)]
            fn drop_lowest(self) -> Self {
                self & (self - 1)
            }
        }
    };
}

impl_bits!(u64, |c: Cells| c as u64, |x: u64| x as Cells);
impl_bits!(u128, |c: Cells| c, |x: u128| x);

/// A board's fixed masks in one word.
#[derive(Debug, Clone, Default)]
pub struct Masks<T> {
    /// The on-board cells.
    pub cells: T,
    /// Per direction (in [`super::rules::Dir::ALL`] order): the cells from
    /// which a jump stays on the board.
    pub from: [T; 4],
    /// Every cell but those of the first column.
    pub not_col0: T,
    /// Every cell but those of the last column.
    pub not_col_last: T,
    /// Per jump (`from * 4 + direction`): its three cells.
    pub jump: Vec<T>,
    /// Per jump: the images of its three cells under each non-identity
    /// symmetry (empty when the board has none).
    pub jump_imgs: Vec<[T; NSYM]>,
}

impl<T: Bits> Masks<T> {
    /// The masks of `board`, with `jump_imgs` (in [`Cells`]) narrowed.
    fn new(board: &Board, jump_imgs: &[[Cells; NSYM]]) -> Masks<T> {
        let n = board.width() * board.height();
        let mut col0 = 0;
        let mut col_last = 0;
        for r in 0..board.height() {
            col0 |= bit(board.index(r, 0));
            col_last |= bit(board.index(r, board.width() - 1));
        }
        let mut jump = vec![T::ZERO; n * 4];
        for (i, j) in board.indexed_jumps() {
            jump[i] = T::narrow(j.mask());
        }
        Masks {
            cells: T::narrow(board.cells()),
            from: [0, 1, 2, 3].map(|d| T::narrow(board.from_mask(d))),
            not_col0: T::narrow(!col0),
            not_col_last: T::narrow(!col_last),
            jump,
            jump_imgs: jump_imgs.iter().map(|e| e.map(T::narrow)).collect(),
        }
    }

    /// Per direction, the cells from which a legal jump of `pegs` starts,
    /// on a board `W` cells wide (shifts by constants).
    #[inline(always)]
    pub fn sources<const W: u32>(&self, pegs: T) -> [T; 4] {
        let holes = self.cells & !pegs;
        let m = &self.from;
        // Dir::ALL order: up (-W), down (+W), left (-1), right (+1).
        [
            pegs & (pegs << W) & (holes << (2 * W)) & m[0],
            pegs & (pegs >> W) & (holes >> (2 * W)) & m[1],
            pegs & (pegs << 1) & (holes << 2) & m[2],
            pegs & (pegs >> 1) & (holes >> 2) & m[3],
        ]
    }
}

/// A board's masks in both words (the narrow one only meaningful when
/// the board has at most 64 cells).
#[derive(Debug, Clone, Default)]
pub struct BoardMasks {
    /// In a `u64`.
    pub narrow: Masks<u64>,
    /// In a `u128`.
    pub wide: Masks<u128>,
}

impl BoardMasks {
    /// The masks of `board`; `jump_imgs` as in [`Masks::jump_imgs`].
    pub fn new(board: &Board, jump_imgs: &[[Cells; NSYM]]) -> BoardMasks {
        BoardMasks {
            narrow: if fits_u64(board) {
                Masks::new(board, jump_imgs)
            } else {
                Masks::default()
            },
            wide: Masks::new(board, jump_imgs),
        }
    }
}

/// True when every cell number of `board` fits in a `u64`.
pub fn fits_u64(board: &Board) -> bool {
    board.width() * board.height() <= 64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pegs::parse::{parse_game, ENGLISH};

    #[test]
    fn both_words_give_the_board_s_jump_sources() {
        let g = parse_game(ENGLISH).unwrap();
        let m = BoardMasks::new(&g.board, &[]);
        let wide = m.wide.sources::<7>(g.pegs);
        let narrow = m.narrow.sources::<7>(u64::narrow(g.pegs));
        assert_eq!(wide, g.board.jump_sources(g.pegs));
        assert_eq!(narrow.map(|x| x.wide()), wide);
        assert_eq!(wide.iter().map(|s| s.count_ones()).sum::<u32>(), 4);
    }
}
