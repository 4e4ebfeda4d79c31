//! A hash table from packed positions to arena indices, specialised for
//! the breadth-first search: open addressing with linear probing, the key
//! stored in the slot beside its index (a duplicate costs one cache line,
//! not a second read in the arena), and a generation stamp per slot so
//! clearing for the next search is O(1) and the memory is reused.

use super::search::hash;

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    key: u64,
    idx: u32,
    generation: u32,
}

/// Packed position -> arena index.
#[derive(Debug, Clone)]
pub struct PosTable {
    slots: Vec<Slot>,
    shift: u32,
    len: usize,
    generation: u32,
}

impl Default for PosTable {
    fn default() -> Self {
        Self::new()
    }
}

impl PosTable {
    /// An empty table.
    pub fn new() -> Self {
        PosTable {
            slots: vec![Slot::default(); 1 << 12],
            shift: 64 - 12,
            len: 0,
            generation: 1,
        }
    }

    /// Forgets every entry (keeps the memory).
    pub fn clear(&mut self) {
        self.len = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }

    /// Entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    /// Starts loading the slot a lookup of `key` reads first.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let i = (hash(key) >> self.shift) as usize & (self.slots.len() - 1);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `i` is in bounds; prefetching has no side effects.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch(self.slots.as_ptr().add(i) as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }

    /// `Ok(index)` of `key` when present; otherwise inserts it with index
    /// `new` and returns `Err(new)`.
    #[inline]
    pub fn get_or_insert(&mut self, key: u64, new: u32) -> Result<u32, u32> {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = (hash(key) >> self.shift) as usize;
        loop {
            // SAFETY-free: `i` is masked into bounds.
            let s = &mut self.slots[i & mask];
            if s.generation != self.generation {
                *s = Slot {
                    key,
                    idx: new,
                    generation: self.generation,
                };
                self.len += 1;
                return Err(new);
            }
            if s.key == key {
                return Ok(s.idx);
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let g = self.generation;
        let bigger = vec![Slot::default(); self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, bigger);
        self.shift -= 1;
        self.generation = 1;
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|s| s.generation == g) {
            let mut i = (hash(s.key) >> self.shift) as usize;
            while self.slots[i].generation == 1 {
                i = (i + 1) & mask;
            }
            self.slots[i] = Slot { generation: 1, ..s };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_find_clear_grow() {
        let mut t = PosTable::new();
        for round in 0..3u64 {
            for k in 0..20_000u64 {
                assert_eq!(t.get_or_insert(k * 7 + round, k as u32), Err(k as u32));
            }
            for k in 0..20_000u64 {
                assert_eq!(t.get_or_insert(k * 7 + round, 0), Ok(k as u32));
            }
            assert_eq!(t.len(), 20_000);
            t.clear();
            assert!(t.is_empty());
            assert_eq!(t.get_or_insert(round, 5), Err(5));
            t.clear();
        }
    }
}
