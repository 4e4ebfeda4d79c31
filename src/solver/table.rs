//! `IndexTable`: an open-addressing hash table (linear probing) that maps
//! a state's hash to the index of the state in the caller's arena. The
//! state itself lives only in the arena; each 8-byte slot keeps 32 bits of
//! the hash beside the index, so a probe compares states only when those
//! bits match, and growing never touches the arena. [`IndexTable::prefetch`]
//! lets a search start the cache miss for a lookup early.

use super::budget::Budget;

/// Hash table of arena indices keyed by 64-bit state hashes.
#[derive(Debug, Clone)]
pub struct IndexTable {
    slots: Vec<u64>,
    bits: u32,
    len: usize,
}

/// Where a lookup ended: the slot of a match, or the empty slot to insert into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    /// The state is at arena index `.1`, stored in slot `.0`.
    Found(usize, u32),
    /// Not present; slot `.0` is free.
    Vacant(usize),
}

const EMPTY: u64 = 0;

impl IndexTable {
    /// A table with room for about `n` entries before it grows.
    pub fn with_capacity(n: usize) -> Self {
        let bits = (n.max(8) * 2).next_power_of_two().trailing_zeros();
        IndexTable {
            slots: vec![EMPTY; 1 << bits],
            bits,
            len: 0,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held by the slots.
    pub fn bytes(&self) -> usize {
        self.slots.len() * 8
    }

    /// Bytes the table will hold after its next growth.
    pub fn bytes_after_growth(&self) -> usize {
        if self.needs_growth() {
            self.slots.len() * 16
        } else {
            self.bytes()
        }
    }

    /// True when one more node fits in `budget`'s memory: a node added
    /// to an arena of `len` nodes in `capacity` (`node_bytes` each), this
    /// table grown as the insert would grow it, `held` bytes being held
    /// now (the arena's capacity and this table included; asked only
    /// when something must grow), and what each node's state holds
    /// outside ([`Budget::held`]).
    pub fn room_for_one(
        &self,
        budget: &Budget,
        (len, capacity): (usize, usize),
        node_bytes: usize,
        held: impl FnOnce() -> usize,
    ) -> bool {
        let arena_full = len == capacity;
        if !arena_full && self.bytes_after_growth() <= self.bytes() {
            return true;
        }
        let arena_growth = if arena_full { capacity * node_bytes } else { 0 };
        let tables = held() + arena_growth + self.bytes_after_growth();
        budget.fits(budget.held(len + 1, tables))
    }

    fn needs_growth(&self) -> bool {
        (self.len + 1) * 10 > self.slots.len() * 7
    }

    #[inline]
    fn home(&self, h32: u32) -> usize {
        ((h32 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize
    }

    /// Starts loading the cache line a lookup of `hash` will read first.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        super::cache::prefetch(&self.slots, self.home(hash as u32));
    }

    /// Looks up `hash`; `eq(index)` says whether the arena entry `index`
    /// is the state being looked up.
    #[inline]
    pub fn find(&self, hash: u64, mut eq: impl FnMut(u32) -> bool) -> Probe {
        let h32 = hash as u32;
        let mask = self.slots.len() - 1;
        let mut i = self.home(h32);
        loop {
            let s = self.slots[i];
            if s == EMPTY {
                return Probe::Vacant(i);
            }
            if (s >> 32) as u32 == h32 {
                let idx = (s as u32) - 1;
                if eq(idx) {
                    return Probe::Found(i, idx);
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Points the entry in `slot` (from [`Probe::Found`]) at a new index.
    #[inline]
    pub fn replace(&mut self, slot: usize, index: u32) {
        let s = self.slots[slot];
        self.slots[slot] = (s & !0xFFFF_FFFF) | (index as u64 + 1);
    }

    /// Inserts `index` under `hash` into the free `slot` from
    /// [`Probe::Vacant`] (growing the table first if needed).
    #[inline]
    pub fn insert(&mut self, slot: usize, hash: u64, index: u32) {
        let h32 = hash as u32;
        let entry = ((h32 as u64) << 32) | (index as u64 + 1);
        if self.needs_growth() {
            self.grow();
            let mask = self.slots.len() - 1;
            let mut i = self.home(h32);
            while self.slots[i] != EMPTY {
                i = (i + 1) & mask;
            }
            self.slots[i] = entry;
        } else {
            self.slots[slot] = entry;
        }
        self.len += 1;
    }

    fn grow(&mut self) {
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; 1 << (self.bits + 1)]);
        self.bits += 1;
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|&s| s != EMPTY) {
            let mut i = self.home((s >> 32) as u32);
            while self.slots[i] != EMPTY {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Whether a node fits is a question of memory: a search whose time
    /// is up when its arena must grow is not stopped for memory (it was
    /// taken for out of memory and dropped from the portfolio), and the
    /// states' own bytes count.
    #[test]
    fn room_for_one_reads_memory_not_the_clock() {
        let t = IndexTable::with_capacity(4);
        let late = Budget::new(Some(Duration::ZERO), 1 << 20);
        std::thread::sleep(Duration::from_millis(1));
        assert!(late.time_up());
        assert!(t.room_for_one(&late, (8, 8), 16, || 1000));
        let tight = Budget::new(None, 1000 + 8 * 16 + 9 * 100).with_state_bytes(100);
        assert!(!t.room_for_one(&tight, (8, 8), 16, || 1000));
        let roomy = tight.clone().with_state_bytes(0);
        assert!(t.room_for_one(&roomy, (8, 8), 16, || 1000));
    }

    #[test]
    fn insert_find_replace_grow() {
        let keys: Vec<u64> = (0..5000u64)
            .map(|k| k.wrapping_mul(0x1234_5678_9abc_def1) ^ (k >> 3))
            .collect();
        let mut t = IndexTable::with_capacity(4);
        for (i, &k) in keys.iter().enumerate() {
            match t.find(k, |j| keys[j as usize] == k) {
                Probe::Vacant(slot) => t.insert(slot, k, i as u32),
                Probe::Found(..) => panic!("duplicate"),
            }
        }
        assert_eq!(t.len(), keys.len());
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(
                t.find(k, |j| keys[j as usize] == k),
                match t.find(k, |j| j == i as u32) {
                    Probe::Found(s, _) => Probe::Found(s, i as u32),
                    p => p,
                }
            );
        }
        let Probe::Found(slot, _) = t.find(keys[7], |j| j == 7) else {
            panic!()
        };
        t.replace(slot, 4999);
        assert!(matches!(
            t.find(keys[7], |j| j == 4999),
            Probe::Found(_, 4999)
        ));
        assert!(matches!(t.find(12345, |_| false), Probe::Vacant(_)));
    }
}
