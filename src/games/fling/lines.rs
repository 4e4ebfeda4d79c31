//! Precomputed per-line moves and a row-wise combination ranking, the
//! fast paths of the endgame builder and of table look-ups.
//!
//! - Every Fling! move happens along one line (a row of 7 cells or a
//!   column of 8) and changes nothing outside it, so the results of all
//!   moves along a line depend only on that line's bits: [`row_moves`] and
//!   [`col_moves`] list, per line pattern, the distinct patterns its moves
//!   lead to (two moves with the same result, such as either ball of a
//!   pair, appear once). Results of moves along different lines always
//!   differ (a move changes at least two cells of its own line: where the
//!   flung ball was and where it stops), so the distinct successors of a
//!   board are the union of its lines' lists.
//! - [`rank`] is the search core's colexicographic combination rank
//!   ([`crate::solver::rank::Combinations`], `sum of C(cell_i, i + 1)`)
//!   from a compile-time binomial table small enough (7 KiB) to stay in
//!   the first-level cache ([`binom`]). A successor along a row keeps the
//!   terms of the balls below the row, and the balls above it lose one
//!   ball below them (their terms become `C(cell_i, i)`), so the builder
//!   ranks it from two running sums and the row's own few balls.

use std::sync::OnceLock;

use super::rules::{Board, HEIGHT, WIDTH};

/// Largest number of balls whose placements [`rank`] handles (the
/// endgame tables' limit).
pub const MAX_BALLS: usize = 12;

/// The cell bits of column 0 (cells 0, 7, ..., 49).
pub const COLUMN0: u64 = 0x0002_0408_1020_4081;

/// The distinct results of the moves along one line pattern.
#[derive(Debug, Clone, Copy, Default)]
pub struct LineMoves {
    /// How many of `to` are used.
    pub len: u8,
    /// The line patterns after each move (distinct).
    pub to: [u8; 16],
}

impl LineMoves {
    /// The results as a slice.
    #[inline(always)]
    pub fn results(&self) -> &[u8] {
        &self.to[..self.len as usize]
    }
}

struct Tables {
    rows: [LineMoves; 128],
    cols: [LineMoves; 256],
    /// `spread[bits]`: column-0 cell bits of an 8-bit column pattern.
    spread: [u64; 256],
}

/// `BINOM[n][k] = C(n, k)` for `n < 64`, `k < 16`.
static BINOM: [[u64; 16]; 64] = binomials();

const fn binomials() -> [[u64; 16]; 64] {
    let mut c = [[0u64; 16]; 64];
    let mut n = 0;
    while n < 64 {
        c[n][0] = 1;
        let mut k = 1;
        while k < 16 && k <= n {
            c[n][k] = c[n - 1][k - 1] + c[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    c
}

/// `C(n, k)` for `n < 64` and `k < 16` (0 when `k > n`).
#[inline(always)]
pub fn binom(n: u32, k: u32) -> u64 {
    BINOM[n as usize & 63][k as usize & 15]
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(build_tables)
}

/// Distinct results of the moves of `board` (a board holding one line
/// only), mapped back to line patterns by `read`.
fn line_results(board: Board, read: impl Fn(u64) -> u8) -> LineMoves {
    let mut out = LineMoves::default();
    board.for_each_move(|_, s| {
        let p = read(s.0);
        if !out.results().contains(&p) {
            out.to[out.len as usize] = p;
            out.len += 1;
        }
    });
    out
}

fn build_tables() -> Tables {
    let mut spread = [0u64; 256];
    for (bits, s) in spread.iter_mut().enumerate() {
        for y in 0..HEIGHT {
            if bits >> y & 1 == 1 {
                *s |= 1 << (y * WIDTH);
            }
        }
    }
    let mut rows = [LineMoves::default(); 128];
    for (bits, r) in rows.iter_mut().enumerate() {
        *r = line_results(Board(bits as u64), |s| s as u8);
    }
    let mut cols = [LineMoves::default(); 256];
    for (bits, c) in cols.iter_mut().enumerate() {
        *c = line_results(Board(spread[bits]), column_bits);
    }
    Tables { rows, cols, spread }
}

/// The moves along a row holding `bits` (7 bits, cell x is bit x).
#[inline(always)]
pub fn row_moves(bits: u64) -> &'static LineMoves {
    &tables().rows[bits as usize & 127]
}

/// The moves along a column holding `bits` (8 bits, row y is bit y).
#[inline(always)]
pub fn col_moves(bits: u64) -> &'static LineMoves {
    &tables().cols[bits as usize & 255]
}

/// The 8-bit pattern of column 0 of `b` (shift `b` right by x first for
/// column x).
#[inline(always)]
pub fn column_bits(b: u64) -> u8 {
    let v = b & COLUMN0;
    // Rows 0..3 and 4..7 separately: multiplying the bits 7 apart by
    // 1 + 2^6 + 2^12 + 2^18 gathers them at bits 18..21 without carries.
    let lo = ((v & 0x20_4081).wrapping_mul(0x41041) >> 18) & 15;
    let hi = (((v >> 28) & 0x20_4081).wrapping_mul(0x41041) >> 18) & 15;
    (lo | hi << 4) as u8
}

/// The cell bits of column x holding the 8-bit pattern `bits`.
#[inline(always)]
pub fn column_cells(bits: u8, x: u32) -> u64 {
    tables().spread[bits as usize] << x
}

/// The colexicographic combination rank of `mask` among placements of
/// its number of balls (at most [`MAX_BALLS`]) on the 56 cells; equal to
/// `Combinations::rank_mask`.
#[inline(always)]
pub fn rank(mask: u64) -> u64 {
    let mut r = 0;
    let mut i = 1;
    let mut m = mask;
    while m != 0 {
        r += binom(m.trailing_zeros(), i);
        i += 1;
        m &= m - 1;
    }
    r
}

/// Forces the tables to be built (so timing excludes it).
pub fn warm_up() {
    let _ = tables();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fling::rules::{Dir, CELLS};
    use crate::solver::rank::Combinations;

    fn random_masks(n: usize, balls: u32, mut s: u64) -> Vec<u64> {
        (0..n)
            .map(|_| {
                let mut b = 0u64;
                while b.count_ones() < balls {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    b |= 1 << (s % CELLS as u64);
                }
                b
            })
            .collect()
    }

    #[test]
    fn rank_is_the_cores_combination_rank() {
        for k in 1..=MAX_BALLS as u32 {
            let comb = Combinations::new(CELLS as u32, k);
            for m in random_masks(2000, k, 0x1234_5678 + u64::from(k)) {
                assert_eq!(rank(m), comb.rank_mask(m), "{m:x}");
            }
            assert_eq!(rank((1 << k) - 1), 0);
            assert_eq!(rank(((1 << k) - 1) << (CELLS as u32 - k)), comb.count() - 1);
        }
    }

    #[test]
    fn columns_are_read_and_written_back() {
        for bits in 0..=255u8 {
            for x in 0..WIDTH as u32 {
                let cells = column_cells(bits, x);
                assert_eq!(cells & !(COLUMN0 << x), 0);
                assert_eq!(column_bits(cells >> x), bits);
            }
        }
    }

    #[test]
    fn line_moves_are_the_boards_distinct_successors() {
        for balls in 2..=12 {
            for m in random_masks(300, balls, 99 + u64::from(balls)) {
                let b = Board(m);
                let mut want: Vec<u64> = Vec::new();
                b.for_each_move(|_, s| want.push(s.0));
                want.sort_unstable();
                want.dedup();
                let mut got: Vec<u64> = Vec::new();
                for y in 0..HEIGHT {
                    let sh = y * WIDTH;
                    for &q in row_moves(m >> sh).results() {
                        got.push(m & !(127 << sh) | u64::from(q) << sh);
                    }
                }
                for x in 0..WIDTH as u32 {
                    for &q in col_moves(u64::from(column_bits(m >> x))).results() {
                        got.push(m & !(COLUMN0 << x) | column_cells(q, x));
                    }
                }
                let n = got.len();
                got.sort_unstable();
                got.dedup();
                assert_eq!(got.len(), n, "duplicates across lines on\n{b}");
                assert_eq!(got, want, "\n{b}");
            }
        }
        // Either ball of a separated pair gives the same result: once.
        assert_eq!(row_moves(0b101).results(), &[0b010]);
        assert!(Board(0b101).legal(0, Dir::Right));
    }
}
