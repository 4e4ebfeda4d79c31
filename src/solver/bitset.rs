//! `Bits<N>`: a bitset of `64 * N` bits stored inline, so that search states
//! are small, `Copy`, cheap to hash and compare. The caller picks `N` at run
//! time from the problem size (see [`words_for`]) and dispatches to a
//! monomorphised search.

use std::hash::{Hash, Hasher};

/// A fixed-size bitset of `64 * N` bits.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct Bits<const N: usize>(pub [u64; N]);

impl<const N: usize> Hash for Bits<N> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Fold the words first: one hasher call is much cheaper than N.
        let mut acc: u64 = 0;
        for (i, w) in self.0.iter().enumerate() {
            acc = (acc ^ w.rotate_left((i as u32 * 17) & 63)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        state.write_u64(acc);
    }
}

impl<const N: usize> Default for Bits<N> {
    fn default() -> Self {
        Bits([0; N])
    }
}

impl<const N: usize> Bits<N> {
    /// Number of bits the set can hold.
    pub const CAPACITY: usize = 64 * N;

    /// The empty set.
    #[inline]
    pub fn new() -> Self {
        Bits([0; N])
    }

    /// The set `{0, 1, ..., n-1}`.
    pub fn first_n(n: usize) -> Self {
        assert!(n <= Self::CAPACITY, "bitset too small");
        let mut b = Self::new();
        for i in 0..n {
            b.insert(i);
        }
        b
    }

    /// Adds `i`.
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.0[i >> 6] |= 1u64 << (i & 63);
    }

    /// Removes `i`.
    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.0[i >> 6] &= !(1u64 << (i & 63));
    }

    /// True when `i` is in the set.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    /// True when the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Number of elements.
    #[inline]
    pub fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// `self | other`.
    #[inline]
    pub fn or(&self, other: &Self) -> Self {
        let mut r = *self;
        r.or_assign(other);
        r
    }

    /// `self & other`.
    #[inline]
    pub fn and(&self, other: &Self) -> Self {
        let mut r = *self;
        for i in 0..N {
            r.0[i] &= other.0[i];
        }
        r
    }

    /// `self & !other`.
    #[inline]
    pub fn and_not(&self, other: &Self) -> Self {
        let mut r = *self;
        for i in 0..N {
            r.0[i] &= !other.0[i];
        }
        r
    }

    /// `self |= other`.
    #[inline]
    pub fn or_assign(&mut self, other: &Self) {
        for i in 0..N {
            self.0[i] |= other.0[i];
        }
    }

    /// True when `self` and `other` share an element.
    #[inline]
    pub fn intersects(&self, other: &Self) -> bool {
        (0..N).any(|i| self.0[i] & other.0[i] != 0)
    }

    /// True when every element of `self` is in `other`.
    #[inline]
    pub fn is_subset(&self, other: &Self) -> bool {
        (0..N).all(|i| self.0[i] & !other.0[i] == 0)
    }

    /// A 64-bit hash of the set (multiply-rotate fold; fast and good
    /// enough for hash tables keyed by states).
    #[inline]
    pub fn hash64(&self) -> u64 {
        let mut acc: u64 = 0x243F_6A88_85A3_08D3;
        for w in self.0.iter() {
            acc = (acc.rotate_left(23) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        acc ^ (acc >> 29)
    }

    /// Iterates the elements in increasing order.
    #[inline]
    pub fn iter(&self) -> BitsIter<'_, N> {
        BitsIter {
            bits: self,
            word: 0,
            cur: if N > 0 { self.0[0] } else { 0 },
        }
    }
}

/// Iterator over the elements of a [`Bits`].
pub struct BitsIter<'a, const N: usize> {
    bits: &'a Bits<N>,
    word: usize,
    cur: u64,
}

impl<const N: usize> Iterator for BitsIter<'_, N> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        loop {
            if self.cur != 0 {
                let t = self.cur.trailing_zeros() as usize;
                self.cur &= self.cur - 1;
                return Some(self.word * 64 + t);
            }
            self.word += 1;
            if self.word >= N {
                return None;
            }
            self.cur = self.bits.0[self.word];
        }
    }
}

/// Word counts the searches are compiled for: every count up to 8 (the
/// common benchmark sizes, 14x14 to 24x24 boards, need 3 to 7 words, and
/// every word saved is work saved), then coarser steps up to 64.
pub const WORD_SIZES: [usize; 14] = [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 24, 32, 64];

/// The smallest word count of [`WORD_SIZES`] that holds `n` bits, or `None`
/// when `n > 4096`.
pub fn words_for(n: usize) -> Option<usize> {
    WORD_SIZES.into_iter().find(|&w| w * 64 >= n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut a = Bits::<2>::new();
        a.insert(3);
        a.insert(70);
        let b = Bits::<2>::first_n(10);
        assert_eq!(a.count(), 2);
        assert!(a.contains(70) && !a.contains(69));
        assert_eq!(a.and(&b).iter().collect::<Vec<_>>(), vec![3]);
        assert_eq!(a.and_not(&b).iter().collect::<Vec<_>>(), vec![70]);
        assert_eq!(a.or(&b).count(), 11);
        assert!(a.intersects(&b));
        assert!(!a.is_subset(&b));
        assert!(a.and(&b).is_subset(&b));
        a.remove(3);
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![70]);
    }

    #[test]
    fn word_choice() {
        assert_eq!(words_for(0), Some(1));
        assert_eq!(words_for(64), Some(1));
        assert_eq!(words_for(65), Some(2));
        assert_eq!(words_for(130), Some(3));
        assert_eq!(words_for(300), Some(5));
        assert_eq!(words_for(1000), Some(16));
        assert_eq!(words_for(4096), Some(64));
        assert_eq!(words_for(4097), None);
    }
}
