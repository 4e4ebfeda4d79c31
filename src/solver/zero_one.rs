//! Backward layered search over ranked states that carry a small set of
//! sub-states, where moves between the sub-states of one rank are free
//! (cost 0) and every other move costs 1: a 0-1 breadth-first search with
//! a zero-cost closure, filled in parallel one layer at a time.
//!
//! The model is the pattern database of a sliding puzzle that keeps the
//! gap: the rank is where the pattern's tiles are, the sub-state is the
//! gap's cell, a move of a tile outside the pattern costs nothing (the gap
//! wanders freely over the cells no pattern tile holds) and a move of a
//! pattern tile costs one. The sub-states of a rank fall into CLASSES
//! closed under the free moves (the gap's connected region); the caller
//! only ever hands over whole classes (or unions of classes), so the driver
//! never needs to know what a free move is.
//!
//! - [`SubsetTable<BITS>`]: one set of up to `BITS` (8 or 16) sub-states
//!   per rank, packed in atomic 64-bit words.
//! - [`fill_zero_one`]: the layers. Three subset tables (visited, current
//!   layer, next layer) of `len * BITS / 8` bytes each; the caller keeps
//!   what it wants from `reached(rank, depth, tag)`, called exactly once
//!   per rank at the first depth any of its sub-states is reached (the
//!   rank's distance with the sub-state minimised away).

use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A set of at most `BITS` sub-states (bit `i`: sub-state `i`) for each of
/// `len` ranks.
#[derive(Debug)]
pub struct SubsetTable<const BITS: u32> {
    len: u64,
    words: Vec<AtomicU64>,
}

impl<const BITS: u32> SubsetTable<BITS> {
    const PER_WORD: u64 = 64 / BITS as u64;
    const MASK: u64 = (1u64 << BITS) - 1;

    /// `len` empty sets.
    ///
    /// # Panics
    /// When `BITS` is not 8 or 16.
    pub fn new(len: u64) -> Self {
        assert!(BITS == 8 || BITS == 16, "SubsetTable: BITS must be 8 or 16");
        let n = len.div_ceil(Self::PER_WORD) as usize;
        SubsetTable {
            len,
            words: (0..n).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Number of ranks.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when there are no ranks.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    #[inline]
    fn place(i: u64) -> (usize, u32) {
        (
            (i / Self::PER_WORD) as usize,
            ((i % Self::PER_WORD) * BITS as u64) as u32,
        )
    }

    /// The set of rank `i`.
    #[inline]
    pub fn get(&self, i: u64) -> u16 {
        debug_assert!(i < self.len);
        let (w, s) = Self::place(i);
        ((self.words[w].load(Relaxed) >> s) & Self::MASK) as u16
    }

    /// Adds `set` to rank `i`'s set atomically; returns the set before.
    #[inline]
    pub fn insert(&self, i: u64, set: u16) -> u16 {
        debug_assert!(i < self.len);
        debug_assert!(set as u64 & !Self::MASK == 0, "set wider than BITS");
        let (w, s) = Self::place(i);
        ((self.words[w].fetch_or((set as u64) << s, Relaxed) >> s) & Self::MASK) as u16
    }

    /// Starts loading the word of rank `i` into the cache.
    #[inline]
    pub fn prefetch(&self, i: u64) {
        let (w, _) = Self::place(i);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `w` is in bounds (checked in debug builds by `place`'s
        // callers); prefetching has no side effects.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            debug_assert!(w < self.words.len());
            _mm_prefetch(self.words.as_ptr().add(w) as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = w;
    }

    /// Empties every set (in parallel).
    pub fn clear(&mut self) {
        self.words.par_iter_mut().for_each(|w| *w.get_mut() = 0);
    }

    /// How many sub-states all the sets hold together.
    pub fn count(&self) -> u64 {
        self.words
            .par_iter()
            .map(|w| w.load(Relaxed).count_ones() as u64)
            .sum()
    }
}

/// One state handed to or from the caller: a rank, a set of its
/// sub-states (whole classes), and a tag the caller may use to pass a value
/// it computed on to [`fill_zero_one`]'s `reached`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The rank.
    pub rank: u64,
    /// Its sub-states (one class or a union of classes).
    pub set: u16,
    /// The caller's value, passed to `reached` if this step is the first
    /// to reach `rank`.
    pub tag: u8,
}

/// One finished layer of [`fill_zero_one`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZeroOneLayer {
    /// Distance (unit moves) of the layer from the goals.
    pub depth: u32,
    /// Ranks first reached in this layer.
    pub new_ranks: u64,
    /// Sub-states first reached in this layer.
    pub new_substates: u64,
    /// Ranks reached so far (all layers).
    pub known_ranks: u64,
}

/// Ranks handled by one parallel task.
const CHUNK: u64 = 1 << 14;

/// Distances to `goals` by backward 0-1 breadth-first search over ranks
/// `0..len` with up to `BITS` sub-states each (see the module docs).
///
/// `expand(rank, set, out)` receives a rank and the union of its classes
/// first reached in the current layer, and appends every `(rank', class')`
/// from which one unit move leads into one of those classes (class' a
/// whole class of rank', closed under free moves). `reached(rank, depth,
/// tag)` is called exactly once per rank: at the first layer that reaches
/// any of its sub-states, with the tag of the step that did. Runs until a
/// layer adds nothing; `progress` sees each layer. Returns every layer
/// (depth 0 included).
pub fn fill_zero_one<const BITS: u32, F, R>(
    len: u64,
    goals: &[Step],
    expand: F,
    reached: R,
    mut progress: impl FnMut(&ZeroOneLayer),
) -> Vec<ZeroOneLayer>
where
    F: Fn(u64, u16, &mut Vec<Step>) + Sync,
    R: Fn(u64, u32, u8) + Sync,
{
    let visited = SubsetTable::<BITS>::new(len);
    let mut current = SubsetTable::<BITS>::new(len);
    let mut next = SubsetTable::<BITS>::new(len);
    let mut first = ZeroOneLayer {
        depth: 0,
        new_ranks: 0,
        new_substates: 0,
        known_ranks: 0,
    };
    for g in goals {
        let old = visited.insert(g.rank, g.set);
        let add = g.set & !old;
        if add != 0 {
            current.insert(g.rank, add);
            first.new_substates += add.count_ones() as u64;
        }
        if old == 0 && g.set != 0 {
            reached(g.rank, 0, g.tag);
            first.new_ranks += 1;
        }
    }
    first.known_ranks = first.new_ranks;
    progress(&first);
    let mut layers = vec![first];
    let per_word = SubsetTable::<BITS>::PER_WORD;
    let words_per_chunk = (CHUNK / per_word) as usize;
    let mask = SubsetTable::<BITS>::MASK;
    loop {
        let depth = layers.len() as u32;
        let (new_ranks, new_substates) = current
            .words
            .par_chunks(words_per_chunk)
            .enumerate()
            .map_init(Vec::new, |out, (c, words)| {
                let (mut ranks, mut subs) = (0u64, 0u64);
                let base = c as u64 * CHUNK;
                for (wi, word) in words.iter().enumerate() {
                    let mut w = word.load(Relaxed);
                    while w != 0 {
                        let slot = w.trailing_zeros() as u64 / BITS as u64;
                        let set = ((w >> (slot * BITS as u64)) & mask) as u16;
                        w &= !(mask << (slot * BITS as u64));
                        let rank = base + wi as u64 * per_word + slot;
                        out.clear();
                        expand(rank, set, out);
                        for s in out.iter() {
                            visited.prefetch(s.rank);
                        }
                        for s in out.iter() {
                            debug_assert!(s.rank < len, "rank {} out of range", s.rank);
                            // A plain load first: most steps lead back
                            // into known classes, and loads overlap where
                            // atomic updates would not.
                            if visited.get(s.rank) & s.set == s.set {
                                continue;
                            }
                            let old = visited.insert(s.rank, s.set);
                            let add = s.set & !old;
                            if add != 0 {
                                next.insert(s.rank, add);
                                subs += add.count_ones() as u64;
                            }
                            if old == 0 {
                                reached(s.rank, depth, s.tag);
                                ranks += 1;
                            }
                        }
                    }
                }
                (ranks, subs)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        if new_substates == 0 {
            break;
        }
        let known_ranks = layers.last().map_or(0, |l| l.known_ranks) + new_ranks;
        let layer = ZeroOneLayer {
            depth,
            new_ranks,
            new_substates,
            known_ranks,
        };
        progress(&layer);
        layers.push(layer);
        std::mem::swap(&mut current, &mut next);
        next.clear();
    }
    layers
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::testing::Rng;
    use std::collections::VecDeque;
    use std::sync::Mutex;

    #[test]
    fn subset_table_basics() {
        let t = SubsetTable::<8>::new(17);
        assert_eq!(t.insert(16, 0b101), 0);
        assert_eq!(t.insert(16, 0b110), 0b101);
        assert_eq!(t.get(16), 0b111);
        assert_eq!(t.get(15), 0);
        assert_eq!(t.count(), 3);
        let mut u = SubsetTable::<16>::new(5);
        u.insert(4, 0x8001);
        assert_eq!(u.get(4), 0x8001);
        u.clear();
        assert_eq!(u.count(), 0);
    }

    /// A random graph on (rank, sub-state) with free edges inside a rank
    /// and unit edges between ranks, checked against a plain 0-1 BFS.
    #[test]
    fn matches_a_plain_zero_one_bfs() {
        let mut rng = Rng::new(3);
        for _ in 0..40 {
            let ranks = 1 + rng.below(60) as usize;
            let subs = 1 + rng.below(8) as usize;
            let n = ranks * subs;
            let id = |r: usize, s: usize| r * subs + s;
            // Free edges (undirected) inside a rank, unit edges anywhere.
            let mut free = vec![Vec::new(); n];
            let mut unit = vec![Vec::new(); n];
            for r in 0..ranks {
                for _ in 0..rng.below(subs as u64 + 1) {
                    let (a, b) = (
                        rng.below(subs as u64) as usize,
                        rng.below(subs as u64) as usize,
                    );
                    free[id(r, a)].push(id(r, b));
                    free[id(r, b)].push(id(r, a));
                }
            }
            for _ in 0..rng.below(3 * n as u64) {
                let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
                unit[a].push(b);
            }
            // The class (free-closure) of each state, as a bit set.
            let class = |v: usize| -> u16 {
                let mut set = 1u16 << (v % subs);
                let mut stack = vec![v];
                while let Some(u) = stack.pop() {
                    for &w in &free[u] {
                        if set & (1 << (w % subs)) == 0 {
                            set |= 1 << (w % subs);
                            stack.push(w);
                        }
                    }
                }
                set
            };
            let goal = rng.below(n as u64) as usize;
            // Reference: 0-1 BFS on the reversed graph from the goal.
            let mut rev = vec![Vec::new(); n];
            for (a, es) in unit.iter().enumerate() {
                for &b in es {
                    rev[b].push(a);
                }
            }
            let mut dist = vec![u32::MAX; n];
            let mut dq = VecDeque::from([(goal, 0u32)]);
            while let Some((v, d)) = dq.pop_front() {
                if dist[v] <= d {
                    continue;
                }
                dist[v] = d;
                for &w in &free[v] {
                    dq.push_front((w, d));
                }
                for &w in &rev[v] {
                    dq.push_back((w, d + 1));
                }
            }
            let got = Mutex::new(vec![u32::MAX; ranks]);
            let calls = Mutex::new(0usize);
            let layers = fill_zero_one::<16, _, _>(
                ranks as u64,
                &[Step {
                    rank: (goal / subs) as u64,
                    set: class(goal),
                    tag: 7,
                }],
                |r, set, out| {
                    for s in 0..subs {
                        if set & (1 << s) != 0 {
                            for &p in &rev[id(r as usize, s)] {
                                out.push(Step {
                                    rank: (p / subs) as u64,
                                    set: class(p),
                                    tag: (r % 200) as u8,
                                });
                            }
                        }
                    }
                },
                |r, d, _| {
                    let mut g = got.lock().unwrap();
                    assert_eq!(g[r as usize], u32::MAX, "reached twice");
                    g[r as usize] = d;
                    *calls.lock().unwrap() += 1;
                },
                |_| {},
            );
            let got = got.into_inner().unwrap();
            for r in 0..ranks {
                let want = (0..subs).map(|s| dist[id(r, s)]).min().unwrap();
                assert_eq!(got[r], want, "rank {r}");
            }
            let reachable = got.iter().filter(|&&d| d != u32::MAX).count();
            assert_eq!(*calls.lock().unwrap(), reachable);
            assert_eq!(layers.last().unwrap().known_ranks, reachable as u64);
            let subs_reached = dist.iter().filter(|&&d| d != u32::MAX).count() as u64;
            assert_eq!(
                layers.iter().map(|l| l.new_substates).sum::<u64>(),
                subs_reached
            );
        }
    }
}
