//! Perfect hashing of placements, for tables indexed by position
//! (pattern databases, endgame tables).
//!
//! - [`Combinations`]: `k` identical balls on `n <= 64` cells, ranked in
//!   colexicographic order (`rank = sum of C(cell_i, i + 1)` over the cells
//!   in increasing order) with a precomputed binomial table; ranks are
//!   dense in `0..count()`. Cells as a sorted slice or as a bit mask.
//! - [`Permutations`]: `k` distinct, ordered items on `n <= 64` cells (a
//!   partial permutation, "k of n"; `k == n` is a full permutation),
//!   ranked lexicographically by their Lehmer code in mixed radix; dense
//!   in `0..count() = n! / (n - k)!`.
//!
//! Both are bijections (tested by exhaustive round trips on small sizes).
//! Arguments out of range are caller bugs and panic; [`Combinations::try_new`]
//! and [`Permutations::try_new`] check sizes without panicking.

/// `C(n, k)` for `n <= 64` (exact: the largest, `C(64, 32)`, fits in u64).
fn binomials() -> Vec<[u64; 65]> {
    let mut c = vec![[0u64; 65]; 65];
    for n in 0..=64 {
        c[n][0] = 1;
        for k in 1..=n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
        }
    }
    c
}

/// Ranking of `k`-subsets of `0..n` (colexicographic order).
#[derive(Debug, Clone)]
pub struct Combinations {
    n: u32,
    k: u32,
    binom: Vec<[u64; 65]>,
}

impl Combinations {
    /// Subsets of `k` cells out of `n`.
    ///
    /// # Panics
    /// When `n > 64` or `k > n`.
    pub fn new(n: u32, k: u32) -> Self {
        Self::try_new(n, k)
            .unwrap_or_else(|| panic!("Combinations: need k <= n <= 64, got n={n} k={k}"))
    }

    /// `None` when `n > 64` or `k > n`.
    pub fn try_new(n: u32, k: u32) -> Option<Self> {
        (n <= 64 && k <= n).then(|| Combinations {
            n,
            k,
            binom: binomials(),
        })
    }

    /// The number of cells.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The number of balls.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// `C(n, k)`: ranks are `0..count()`.
    pub fn count(&self) -> u64 {
        self.binom[self.n as usize][self.k as usize]
    }

    /// `C(a, b)` from the table (`a <= 64`).
    pub fn binomial(&self, a: u32, b: u32) -> u64 {
        if b > a {
            0
        } else {
            self.binom[a as usize][b as usize]
        }
    }

    /// The rank of `cells` (`k` distinct cells below `n`, increasing).
    pub fn rank(&self, cells: &[u8]) -> u64 {
        debug_assert_eq!(cells.len(), self.k as usize);
        debug_assert!(cells.windows(2).all(|w| w[0] < w[1]));
        debug_assert!(cells.iter().all(|&c| (c as u32) < self.n));
        cells
            .iter()
            .enumerate()
            .map(|(i, &c)| self.binom[c as usize][i + 1])
            .sum()
    }

    /// The rank of the set bits of `mask` (exactly `k` bits below `n`).
    pub fn rank_mask(&self, mut mask: u64) -> u64 {
        debug_assert_eq!(mask.count_ones(), self.k);
        let mut r = 0;
        let mut i = 1;
        while mask != 0 {
            let c = mask.trailing_zeros() as usize;
            r += self.binom[c][i];
            i += 1;
            mask &= mask - 1;
        }
        r
    }

    /// The cells of rank `r` (increasing), written into `out[..k]`.
    pub fn unrank_into(&self, r: u64, out: &mut [u8]) {
        self.unrank_each(r, |i, c| out[i] = c as u8);
    }

    /// Calls `put(i, c)` for the `i`-th cell `c` of rank `r`, from the
    /// last cell (`i = k - 1`) down to the first.
    #[inline(always)]
    fn unrank_each(&self, mut r: u64, mut put: impl FnMut(usize, usize)) {
        debug_assert!(r < self.count());
        let mut c = self.n as usize;
        for i in (1..=self.k as usize).rev() {
            // The largest c with C(c, i) <= r.
            c -= 1;
            while self.binom[c][i] > r {
                c -= 1;
            }
            r -= self.binom[c][i];
            put(i - 1, c);
        }
    }

    /// The cells of rank `r`, increasing.
    pub fn unrank(&self, r: u64) -> Vec<u8> {
        let mut v = vec![0; self.k as usize];
        self.unrank_into(r, &mut v);
        v
    }

    /// The cells of rank `r` as a bit mask.
    pub fn unrank_mask(&self, r: u64) -> u64 {
        let mut mask = 0u64;
        self.unrank_each(r, |_, c| mask |= 1 << c);
        mask
    }
}

/// The position of the `j`-th set bit of `x` (`j < x.count_ones()`):
/// whole bytes skipped first, then single bits.
#[inline]
fn nth_set_bit(mut x: u32, mut j: u32) -> u32 {
    debug_assert!(j < x.count_ones());
    let mut base = 0;
    loop {
        let c = (x & 0xff).count_ones();
        if j < c {
            break;
        }
        j -= c;
        x >>= 8;
        base += 8;
    }
    let mut b = x & 0xff;
    for _ in 0..j {
        b &= b - 1;
    }
    base + b.trailing_zeros()
}

/// Ranking of ordered placements of `k` distinct items on `n` cells.
#[derive(Debug, Clone)]
pub struct Permutations {
    n: u32,
    k: u32,
    /// `radix[i]`: the weight of digit `i` (the product of `n-1-j` for
    /// `i < j < k`).
    weight: Vec<u64>,
    count: u64,
}

impl Permutations {
    /// Placements of `k` distinct items on `n` cells.
    ///
    /// # Panics
    /// When `n > 64`, `k > n` or `n! / (n - k)!` does not fit in a u64.
    pub fn new(n: u32, k: u32) -> Self {
        Self::try_new(n, k).unwrap_or_else(|| {
            panic!("Permutations: need k <= n <= 64 and n!/(n-k)! < 2^64, got n={n} k={k}")
        })
    }

    /// `None` when `n > 64`, `k > n` or the count overflows a u64.
    pub fn try_new(n: u32, k: u32) -> Option<Self> {
        if n > 64 || k > n {
            return None;
        }
        let mut weight = vec![0u64; k as usize];
        let mut w = 1u64;
        for i in (0..k).rev() {
            weight[i as usize] = w;
            w = w.checked_mul((n - i) as u64)?;
        }
        Some(Permutations {
            n,
            k,
            weight,
            count: w,
        })
    }

    /// The number of cells.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The number of items.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// `n! / (n - k)!`: ranks are `0..count()`.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The weight of item `i`'s digit in a rank (`(n-1-i)!/(n-k)!`): a
    /// caller that moves one item can update a rank by multiples of the
    /// weights instead of ranking again.
    #[inline]
    pub fn weight(&self, i: usize) -> u64 {
        self.weight[i]
    }

    /// The rank of `cells` (`cells[i]` is where item `i` is; distinct,
    /// below `n`).
    pub fn rank(&self, cells: &[u8]) -> u64 {
        debug_assert_eq!(cells.len(), self.k as usize);
        let mut used = 0u64;
        let mut r = 0u64;
        for (i, &c) in cells.iter().enumerate() {
            debug_assert!((c as u32) < self.n && used & (1 << c) == 0);
            let below = (1u64 << c) - 1;
            let digit = c as u64 - (used & below).count_ones() as u64;
            r += digit * self.weight[i];
            used |= 1 << c;
        }
        r
    }

    /// The rank of the placement whose item `i` is on `cell(i)`, without
    /// a slice: the form a search's inner loop uses when the cells come
    /// out of a packed state (same value as [`Permutations::rank`];
    /// mixed-radix digits accumulated by Horner's rule).
    #[inline]
    pub fn rank_by(&self, cell: impl Fn(usize) -> u8) -> u64 {
        let mut used = 0u64;
        let mut r = 0u64;
        for i in 0..self.k as usize {
            let c = cell(i);
            debug_assert!((c as u32) < self.n && used & (1 << c) == 0);
            let digit = c as u64 - (used & ((1u64 << c) - 1)).count_ones() as u64;
            r = r * (self.n as u64 - i as u64) + digit;
            used |= 1 << c;
        }
        r
    }

    /// The cells of rank `r` (item by item), written into `out[..k]`.
    pub fn unrank_into(&self, mut r: u64, out: &mut [u8]) {
        debug_assert!(r < self.count);
        if self.n <= 32 && self.count <= u32::MAX as u64 {
            // 32-bit divisions: several times faster than 64-bit ones on
            // common hardware, and the digits are a serial chain.
            let mut r = r as u32;
            let mut free = ((1u64 << self.n) - 1) as u32;
            for (slot, &w) in out.iter_mut().zip(&self.weight) {
                let w = w as u32;
                let digit = r / w;
                r -= digit * w;
                let c = nth_set_bit(free, digit);
                *slot = c as u8;
                free &= !(1u32 << c);
            }
            return;
        }
        let mut free = if self.n == 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        };
        for (slot, &w) in out.iter_mut().zip(&self.weight) {
            let mut digit = r / w;
            r -= digit * w;
            // The digit-th free cell.
            let mut f = free;
            while digit > 0 {
                f &= f - 1;
                digit -= 1;
            }
            let c = f.trailing_zeros();
            *slot = c as u8;
            free &= !(1u64 << c);
        }
    }

    /// The cells of rank `r`, item by item.
    pub fn unrank(&self, r: u64) -> Vec<u8> {
        let mut v = vec![0; self.k as usize];
        self.unrank_into(r, &mut v);
        v
    }

    /// Turns `cells` (`k` items) into the placement of the next rank;
    /// false (cells unchanged) after the last one. A sweep over
    /// consecutive ranks unranks once and then steps: usually only the
    /// last item moves, to the next cell the others leave free.
    #[inline]
    pub fn advance(&self, cells: &mut [u8]) -> bool {
        debug_assert_eq!(cells.len(), self.k as usize);
        let k = cells.len();
        let all = if self.n == 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        };
        // used[i]: the cells of items before i.
        let mut used = [0u64; 64];
        for i in 1..k {
            used[i] = used[i - 1] | 1 << cells[i - 1];
        }
        for i in (0..k).rev() {
            let above = all & !used[i] & !(2u64 << cells[i]).wrapping_sub(1);
            if above != 0 {
                cells[i] = above.trailing_zeros() as u8;
                // The items after i take the lowest free cells, in order.
                let mut free = all & !used[i] & !(1u64 << cells[i]);
                for c in cells[i + 1..].iter_mut() {
                    *c = free.trailing_zeros() as u8;
                    free &= free - 1;
                }
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_round_trip_exhaustively() {
        for n in 0..=12u32 {
            for k in 0..=n {
                let c = Combinations::new(n, k);
                let mut seen = 0u64;
                // Every k-subset of 0..n as a mask.
                for mask in 0u64..(1 << n) {
                    if mask.count_ones() != k {
                        continue;
                    }
                    seen += 1;
                    let cells: Vec<u8> = (0..n as u8).filter(|&i| mask >> i & 1 == 1).collect();
                    let r = c.rank(&cells);
                    assert!(r < c.count());
                    assert_eq!(c.rank_mask(mask), r);
                    assert_eq!(c.unrank(r), cells);
                    assert_eq!(c.unrank_mask(r), mask);
                }
                assert_eq!(seen, c.count(), "n={n} k={k}");
            }
        }
    }

    #[test]
    fn combinations_are_colex_and_large_sizes_work() {
        let c = Combinations::new(5, 2);
        let order: Vec<Vec<u8>> = (0..c.count()).map(|r| c.unrank(r)).collect();
        assert_eq!(order[..4], [vec![0, 1], vec![0, 2], vec![1, 2], vec![0, 3]]);
        let c = Combinations::new(64, 32);
        assert_eq!(c.count(), 1_832_624_140_942_590_534);
        let last = c.count() - 1;
        assert_eq!(c.rank(&c.unrank(last)), last);
        assert_eq!(c.unrank_mask(last), u64::MAX << 32);
        assert!(Combinations::try_new(65, 1).is_none());
        assert!(Combinations::try_new(3, 4).is_none());
    }

    #[test]
    fn permutations_round_trip_exhaustively() {
        for n in 0..=7u32 {
            for k in 0..=n {
                let p = Permutations::new(n, k);
                let mut hit = vec![false; p.count() as usize];
                let mut prev: Option<Vec<u8>> = None;
                for r in 0..p.count() {
                    let cells = p.unrank(r);
                    assert_eq!(p.rank(&cells), r);
                    assert_eq!(p.rank_by(|i| cells[i]), r);
                    assert!(!std::mem::replace(&mut hit[r as usize], true));
                    let mut sorted = cells.clone();
                    sorted.sort();
                    sorted.dedup();
                    assert_eq!(sorted.len(), k as usize);
                    // Lexicographic order, and `advance` steps through it.
                    if let Some(q) = &prev {
                        assert!(*q < cells);
                        let mut stepped = q.clone();
                        assert!(p.advance(&mut stepped));
                        assert_eq!(stepped, cells, "advance from rank {}", r - 1);
                    }
                    prev = Some(cells);
                }
                if let Some(mut last) = prev {
                    let keep = last.clone();
                    assert!(!p.advance(&mut last));
                    assert_eq!(last, keep);
                }
                let want: u64 = ((n - k + 1)..=n).map(u64::from).product();
                assert_eq!(p.count(), want);
            }
        }
    }

    #[test]
    fn pattern_database_sizes() {
        let p = Permutations::new(16, 8);
        assert_eq!(p.count(), 518_918_400);
        let cells = [15, 0, 7, 3, 9, 1, 14, 2];
        assert_eq!(p.unrank(p.rank(&cells)), cells);
        assert_eq!(Permutations::new(20, 20).count(), 2_432_902_008_176_640_000);
        // The 64-bit paths (a count above 2^32, more than 32 cells).
        let big = Permutations::new(20, 20);
        let cells: Vec<u8> = (0..20u8).map(|i| (i * 7) % 20).collect();
        assert_eq!(big.unrank(big.rank(&cells)), cells);
        let wide = Permutations::new(40, 2);
        assert_eq!(wide.unrank(wide.rank(&[39, 33])), vec![39, 33]);
        for x in [0b1u32, 0xffff_ffff, 0x8000_0100, 0x00f0_0f01] {
            for j in 0..x.count_ones() {
                let mut y = x;
                for _ in 0..j {
                    y &= y - 1;
                }
                assert_eq!(nth_set_bit(x, j), y.trailing_zeros());
            }
        }
        assert!(Permutations::try_new(21, 21).is_none());
        assert_eq!(Permutations::new(64, 3).count(), 64 * 63 * 62);
    }
}
