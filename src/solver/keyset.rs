//! `KeySet`: an open-addressing hash set of non-zero `u128` keys (linear
//! probing, power-of-two size, at most half full). Made for searches whose
//! states are bitboards of up to 128 cells and that only ask "seen
//! before?" — a table of positions proven lost, a closed set. The key is
//! the whole state, so a hit is exact (no fingerprint collisions), and one
//! probe usually reads one 16-byte slot.

/// Below this many slots (4 MiB) a full table grows four-fold.
const SMALL: usize = 1 << 18;

/// Hash set of non-zero `u128` keys.
#[derive(Debug, Clone)]
pub struct KeySet {
    slots: Vec<u128>,
    shift: u32,
    len: usize,
}

impl Default for KeySet {
    fn default() -> Self {
        KeySet::with_capacity(0)
    }
}

impl KeySet {
    /// A set with room for about `n` keys before it grows.
    pub fn with_capacity(n: usize) -> Self {
        let size = (n.max(512) * 2).next_power_of_two();
        KeySet {
            slots: zeroed(size),
            shift: 64 - size.trailing_zeros(),
            len: 0,
        }
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the set holds no key.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes of the slots (16 a slot).
    pub fn bytes(&self) -> usize {
        16 * self.slots.len()
    }

    /// Removes every key (keeps the memory).
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = 0);
        self.len = 0;
    }

    #[inline]
    fn home(&self, key: u128) -> usize {
        let h = (key as u64) ^ ((key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> self.shift) as usize
    }

    /// True when `key` is in the set.
    #[inline]
    pub fn contains(&self, key: u128) -> bool {
        debug_assert_ne!(key, 0, "0 marks an empty slot");
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let s = self.slots[i];
            if s == key {
                return true;
            }
            if s == 0 {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    /// Asks the processor to fetch the slot where a lookup of `key`
    /// starts (a hint: a search that knows its next keys ahead hides the
    /// memory latency of a large table).
    #[inline]
    pub fn prefetch(&self, key: u128) {
        super::cache::prefetch(&self.slots, self.home(key));
    }

    /// Adds `key` (non-zero); false when it was already there.
    #[inline]
    pub fn insert(&mut self, key: u128) -> bool {
        assert_ne!(key, 0, "0 marks an empty slot");
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let s = self.slots[i];
            if s == key {
                return false;
            }
            if s == 0 {
                self.slots[i] = key;
                self.len += 1;
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::replace(&mut self.slots, vec![0; 0]);
        // Small tables grow four-fold (fewer rehashes and less fresh memory
        // touched on the way up), large ones two-fold (memory).
        let factor = if old.len() < SMALL { 4 } else { 2 };
        self.slots = zeroed(old.len() * factor);
        self.shift -= factor.trailing_zeros();
        let mask = self.slots.len() - 1;
        for k in old.into_iter().filter(|&k| k != 0) {
            let mut i = self.home(k);
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = k;
        }
    }
}

/// `len` zeroed slots. A large table is probed at random, so each probe
/// is a TLB miss as well as a cache miss with 4 KiB pages: on Linux a
/// table of 4 MiB or more asks for transparent huge pages (a hint; the
/// fresh allocation is untouched, so its pages are not yet mapped).
fn zeroed(len: usize) -> Vec<u128> {
    let v = vec![0u128; len];
    #[cfg(target_os = "linux")]
    if len * 16 >= 4 << 20 {
        let page = 4096usize;
        let start = (v.as_ptr() as usize).next_multiple_of(page);
        let end = (v.as_ptr() as usize + len * 16) & !(page - 1);
        if end > start {
            // SAFETY: madvise only advises about pages inside `v`'s
            // allocation; it changes no contents.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn matches_a_std_set_through_growth() {
        let mut s = KeySet::with_capacity(4);
        let mut reference = HashSet::new();
        let mut x: u128 = 0x1234_5678_9abc_def0_0fed_cba9_8765_4321;
        for k in 0..20_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Small keys and keys that differ only in the high word too.
            let key = match k % 3 {
                0 => x,
                1 => (k as u128 % 5000) + 1,
                _ => ((k as u128 % 3000) << 100) | 1,
            };
            assert_eq!(s.insert(key), reference.insert(key), "{key:#x}");
        }
        assert_eq!(s.len(), reference.len());
        for &k in &reference {
            assert!(s.contains(k));
        }
        assert!(!s.contains(7 << 64));
        assert!(s.bytes() >= s.len() * 32);
        s.clear();
        assert!(s.is_empty() && !s.contains(1));
    }
}
