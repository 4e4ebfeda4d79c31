//! A hash table from packed positions to arena indices, specialised for
//! the searches: open addressing with linear probing and a multiplicative
//! hash (its top bits index the table), the key stored in the slot beside
//! its index (a duplicate costs one cache line, not a second read in the
//! arena), and a generation stamp per slot so clearing for the next search
//! is O(1) and the memory is reused. Clearing also shrinks the table to a
//! small prefix of its memory: a small search after a large one probes a
//! few hundred kilobytes, not the large one's megabytes.

/// The table's hash of a packed position: one multiplication, whose top
/// bits mix every offset.
#[inline(always)]
fn hash(key: u64) -> u64 {
    key.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Slots used right after [`PosTable::clear`] (log 2): 512 KiB.
const MIN_BITS: u32 = 15;

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    key: u64,
    idx: u32,
    generation: u32,
}

/// Packed position -> arena index.
#[derive(Debug, Clone)]
pub struct PosTable {
    /// The memory; only the first `1 << bits` slots are in use.
    slots: Vec<Slot>,
    bits: u32,
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
            slots: vec![Slot::default(); 1 << MIN_BITS],
            bits: MIN_BITS,
            len: 0,
            generation: 1,
        }
    }

    /// Forgets every entry (keeps the memory, uses its smallest prefix).
    pub fn clear(&mut self) {
        self.len = 0;
        self.bits = MIN_BITS;
        self.next_generation();
    }

    /// A new stamp: every slot is free.
    fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }

    /// Makes room for `extra` more entries at a load of at most one half,
    /// so the next `extra` inserts do not grow the table.
    #[inline]
    pub fn reserve(&mut self, extra: usize) {
        if (self.len + extra) * 2 > 1 << self.bits {
            self.grow(extra);
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

    /// The first slot a lookup of `key` reads.
    #[inline(always)]
    fn home(&self, key: u64) -> usize {
        (hash(key) >> (64 - self.bits)) as usize
    }

    /// Starts loading the slot a lookup of `key` reads first.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::solver::cache::prefetch(&self.slots, self.home(key));
    }

    /// `Ok(index)` of `key` when present; otherwise inserts it with index
    /// `new` and returns `Err(new)`.
    #[inline]
    pub fn get_or_insert(&mut self, key: u64, new: u32) -> Result<u32, u32> {
        self.reserve(1);
        self.get_or_insert_reserved(key, new)
    }

    /// [`PosTable::get_or_insert`] without the check for room: the caller
    /// has made room with [`PosTable::reserve`] for this insert.
    #[inline]
    pub fn get_or_insert_reserved(&mut self, key: u64, new: u32) -> Result<u32, u32> {
        debug_assert!((self.len + 1) * 2 <= 1 << self.bits);
        let mask = (1 << self.bits) - 1;
        let mut i = self.home(key);
        let generation = self.generation;
        loop {
            // SAFETY: `i <= mask < 1 << bits <= slots.len()`.
            let s = unsafe { self.slots.get_unchecked_mut(i) };
            if s.generation != generation {
                *s = Slot {
                    key,
                    idx: new,
                    generation,
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

    /// Doubles the slots in use (reusing the memory when it is there)
    /// until `extra` more entries fit, and reinserts the entries.
    #[cold]
    fn grow(&mut self, extra: usize) {
        let live: Vec<Slot> = self.slots[..1 << self.bits]
            .iter()
            .filter(|s| s.generation == self.generation)
            .copied()
            .collect();
        while (self.len + extra) * 2 > 1 << self.bits {
            self.bits += 1;
        }
        if self.slots.len() < 1 << self.bits {
            self.slots = vec![Slot::default(); 1 << self.bits];
            self.generation = 1;
        } else {
            self.next_generation();
        }
        self.len = 0;
        for s in live {
            let _ = self.get_or_insert(s.key, s.idx);
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
