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
//! closed under the free moves (the gap's connected region). The driver
//! never needs to know what a free move is: a step may name any one
//! sub-state of the class it enters (the caller need not close it there,
//! which is the costly part), and when the driver expands a rank, the
//! caller returns the classes of the sub-states it was given, which the
//! driver then marks reached. A class is first reached at its distance
//! whatever sub-state a step names, so every rank's depth is exact; on
//! graphs whose unit moves change a parity (a sliding puzzle's pattern
//! moves do), a class is never stepped into again while it waits in the
//! frontier, and no work is repeated.
//!
//! - [`Records<BITS>`]: one record per rank, packed in atomic 64-bit
//!   words (two records a word for `BITS = 8`, one for 16): the set of
//!   sub-states reached so far, the sets first reached in the last two
//!   layers (current and next, swapped by the layer's parity), and the
//!   depth at which the rank was first reached. Everything a step touches
//!   is in one cache line, and the words are mapped on huge pages
//!   ([`super::bigmem`]): a step into a rank costs one cache miss.
//! - [`fill_zero_one`]: the layers. Each layer scans the ranks whose
//!   current set is not empty (chunks with none are skipped by a flag per
//!   chunk), expands them in parallel, and clears their current set as it
//!   goes. The children of one rank are prefetched while the children of
//!   the rank before are checked. At the end the caller sees every rank's
//!   depth, chunk by chunk in rank order (`settle`), to fill its own table
//!   with sequential writes.

use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use super::bigmem::AtomicWords;

/// Depth reported to `settle` for a rank never reached.
pub const UNREACHED: u8 = u8::MAX;

/// For each of `len` ranks: the sub-states reached (at most `BITS`, 8 or
/// 16), the two layer sets, and the depth of first reach (8 bits).
#[derive(Debug)]
pub struct Records<const BITS: u32> {
    len: u64,
    words: AtomicWords,
}

impl<const BITS: u32> Records<BITS> {
    const REC: u64 = 4 * BITS as u64;
    const PER_WORD: u64 = 64 / Self::REC;
    const MASK: u64 = (1u64 << BITS) - 1;

    /// `len` ranks, none reached.
    ///
    /// # Panics
    /// When `BITS` is not 8 or 16.
    pub fn new(len: u64) -> Self {
        assert!(BITS == 8 || BITS == 16, "Records: BITS must be 8 or 16");
        Records {
            len,
            words: AtomicWords::zeroed(len.div_ceil(Self::PER_WORD) as usize),
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

    /// Bytes held (8 a word).
    pub fn bytes(&self) -> usize {
        8 * self.words.len()
    }

    /// The word of rank `i` and the shift of its record in it.
    #[inline]
    fn place(i: u64) -> (usize, u32) {
        let (word, record) = (i / Self::PER_WORD, i % Self::PER_WORD);
        (word as usize, (record * Self::REC) as u32)
    }

    /// The sub-states of rank `i` reached so far.
    #[inline]
    pub fn visited(&self, i: u64) -> u16 {
        debug_assert!(i < self.len);
        let (w, s) = Self::place(i);
        ((self.words[w].load(Relaxed) >> s) & Self::MASK) as u16
    }

    /// The sub-states of rank `i` in layer set `parity` (0 or 1).
    #[inline]
    pub fn layer(&self, i: u64, parity: u32) -> u16 {
        let (w, s) = Self::place(i);
        let s = s + BITS * (1 + parity);
        ((self.words[w].load(Relaxed) >> s) & Self::MASK) as u16
    }

    /// The depth at which rank `i` was first reached ([`UNREACHED`] if
    /// never; depths above 254 read as 254).
    #[inline]
    pub fn depth(&self, i: u64) -> u8 {
        let (w, s) = Self::place(i);
        let word = self.words[w].load(Relaxed) >> s;
        if word & Self::MASK == 0 {
            UNREACHED
        } else {
            ((word >> (3 * BITS)) & 0xff) as u8
        }
    }

    /// Adds `set` to rank `i`'s reached sub-states; the ones new to it go
    /// into layer set `parity`, and a rank reached for the first time
    /// records `depth`. Returns the reached set before. Atomic: many
    /// threads may visit at once.
    #[inline]
    pub fn visit(&self, i: u64, set: u16, parity: u32, depth: u32) -> u16 {
        debug_assert!(i < self.len);
        debug_assert!(set as u64 & !Self::MASK == 0, "set wider than BITS");
        let (w, s) = Self::place(i);
        let word = &self.words[w];
        let old = ((word.fetch_or((set as u64) << s, Relaxed) >> s) & Self::MASK) as u16;
        let add = set & !old;
        if add != 0 {
            let mut bits = (add as u64) << (s + BITS * (1 + parity));
            if old == 0 {
                // Only the thread that saw no sub-state writes the depth.
                bits |= (depth.min(254) as u64) << (s + 3 * BITS);
            }
            word.fetch_or(bits, Relaxed);
        }
        old
    }

    /// Marks `set` reached for rank `i` (a closure of sub-states already
    /// reached; no layer set, no depth changes).
    #[inline]
    pub fn close(&self, i: u64, set: u16) {
        let (w, s) = Self::place(i);
        self.words[w].fetch_or((set as u64) << s, Relaxed);
    }

    /// Starts loading the word of rank `i` into the cache.
    #[inline]
    pub fn prefetch(&self, i: u64) {
        let (w, _) = Self::place(i);
        super::cache::prefetch(&self.words[..], w);
    }

    /// The layer sets `parity` of every record in a word, as a mask.
    fn layer_mask(parity: u32) -> u64 {
        let mut m = 0;
        for k in 0..Self::PER_WORD {
            m |= Self::MASK << (k * Self::REC + (BITS * (1 + parity)) as u64);
        }
        m
    }

    /// How many sub-states all the records hold together.
    pub fn count(&self) -> u64 {
        self.words
            .par_iter()
            .map(|w| {
                let w = w.load(Relaxed);
                (0..Self::PER_WORD)
                    .map(|k| ((w >> (k * Self::REC)) & Self::MASK).count_ones() as u64)
                    .sum::<u64>()
            })
            .sum()
    }
}

/// One state handed to or from the caller: a rank and a set of its
/// sub-states (any sub-states; see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The rank.
    pub rank: u64,
    /// Some of its sub-states (e.g. one, or a whole class).
    pub set: u16,
}

/// One finished layer of [`fill_zero_one`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZeroOneLayer {
    /// Distance (unit moves) of the layer from the goals.
    pub depth: u32,
    /// Ranks first reached in this layer.
    pub new_ranks: u64,
    /// Sub-states first named by a step in this layer (the rest of their
    /// classes is marked when they are expanded, in the next layer).
    pub new_substates: u64,
    /// Ranks reached so far (all layers).
    pub known_ranks: u64,
}

/// Ranks handled by one parallel task (a multiple of 64, so that the
/// caller's packed tables split on word boundaries).
pub const CHUNK: u64 = 1 << 14;

/// Distances to `goals` by backward 0-1 breadth-first search over ranks
/// `0..len` with up to `BITS` sub-states each (see the module docs).
///
/// `expand(rank, set, out)` receives a rank and the sub-states first
/// named in the last layer, appends every `(rank', set')` from which one
/// unit move leads into one of their classes (`set'` any sub-states of
/// one class of rank', or unions of classes), and returns the union of the
/// classes of `set` (the driver marks them reached). Runs until a layer
/// adds nothing; `progress` sees each layer. Then `settle(first, depths)` is
/// called for consecutive runs of ranks (`CHUNK` of them, the last one
/// shorter), in parallel: `depths[j]` is the depth of rank `first + j`,
/// the first layer that reached any of its sub-states ([`UNREACHED`] for
/// none; depths above 254 read as 254). Returns every layer (depth 0
/// included).
pub fn fill_zero_one<const BITS: u32, F, S>(
    len: u64,
    goals: &[Step],
    expand: F,
    settle: S,
    mut progress: impl FnMut(&ZeroOneLayer),
) -> Vec<ZeroOneLayer>
where
    F: Fn(u64, u16, &mut Vec<Step>) -> u16 + Sync,
    S: Fn(u64, &[u8]) + Sync,
{
    let records = Records::<BITS>::new(len);
    let chunks = len.div_ceil(CHUNK) as usize;
    let active: [Vec<AtomicBool>; 2] =
        std::array::from_fn(|_| (0..chunks).map(|_| AtomicBool::new(false)).collect());
    let mut first = ZeroOneLayer {
        depth: 0,
        new_ranks: 0,
        new_substates: 0,
        known_ranks: 0,
    };
    for g in goals {
        debug_assert!(g.rank < len, "goal rank {} out of range", g.rank);
        let old = records.visit(g.rank, g.set, 0, 0);
        first.new_substates += (g.set & !old).count_ones() as u64;
        if old == 0 && g.set != 0 {
            first.new_ranks += 1;
        }
        if g.set & !old != 0 {
            active[0][(g.rank / CHUNK) as usize].store(true, Relaxed);
        }
    }
    first.known_ranks = first.new_ranks;
    progress(&first);
    let mut layers = vec![first];
    let per_word = Records::<BITS>::PER_WORD;
    let words_per_chunk = (CHUNK / per_word) as usize;
    let mask = Records::<BITS>::MASK;
    let rec = Records::<BITS>::REC;
    loop {
        let depth = layers.len() as u32;
        let (cur, nxt) = ((depth - 1) % 2, depth % 2);
        let cur_mask = Records::<BITS>::layer_mask(cur);
        let cur_shift = (BITS * (1 + cur)) as u64;
        let (new_ranks, new_substates) = records
            .words
            .par_chunks(words_per_chunk)
            .enumerate()
            .filter(|(c, _)| active[cur as usize][*c].swap(false, Relaxed))
            .map_init(
                || (Vec::new(), Vec::new()),
                |(pending, out), (c, words)| {
                    let (mut ranks, mut subs) = (0u64, 0u64);
                    let base = c as u64 * CHUNK;
                    // Checks the children of the previous rank (their
                    // records were prefetched one expansion ago).
                    let mut settle_children = |steps: &Vec<Step>| {
                        for s in steps {
                            debug_assert!(s.rank < len, "rank {} out of range", s.rank);
                            // A plain load first: most steps lead back
                            // into known classes.
                            if records.visited(s.rank) & s.set == s.set {
                                continue;
                            }
                            let old = records.visit(s.rank, s.set, nxt, depth);
                            let add = s.set & !old;
                            if add != 0 {
                                subs += add.count_ones() as u64;
                                let flag = &active[nxt as usize][(s.rank / CHUNK) as usize];
                                if !flag.load(Relaxed) {
                                    flag.store(true, Relaxed);
                                }
                                ranks += u64::from(old == 0);
                            }
                        }
                    };
                    pending.clear();
                    for (wi, word) in words.iter().enumerate() {
                        if word.load(Relaxed) & cur_mask == 0 {
                            continue;
                        }
                        // Take this word's current sets (nobody else writes
                        // them during this layer).
                        let w = word.fetch_and(!cur_mask, Relaxed);
                        for k in 0..per_word {
                            let set = ((w >> (k * rec + cur_shift)) & mask) as u16;
                            if set == 0 {
                                continue;
                            }
                            let rank = base + wi as u64 * per_word + k;
                            out.clear();
                            let closed = expand(rank, set, out);
                            debug_assert_eq!(closed & set, set, "the closure holds the set");
                            if closed & !set != 0 {
                                records.close(rank, closed);
                            }
                            for s in out.iter() {
                                records.prefetch(s.rank);
                            }
                            settle_children(pending);
                            std::mem::swap(pending, out);
                        }
                    }
                    settle_children(pending);
                    pending.clear();
                    (ranks, subs)
                },
            )
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
    }
    (0..chunks).into_par_iter().for_each_init(
        || vec![0u8; CHUNK as usize],
        |depths, c| {
            let first = c as u64 * CHUNK;
            let n = (len - first).min(CHUNK) as usize;
            for (j, d) in depths[..n].iter_mut().enumerate() {
                *d = records.depth(first + j as u64);
            }
            settle(first, &depths[..n]);
        },
    );
    layers
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::testing::Rng;
    use std::collections::VecDeque;
    use std::sync::Mutex;

    #[test]
    fn records_basics() {
        let t = Records::<8>::new(17);
        assert_eq!(t.visit(16, 0b101, 1, 3), 0);
        assert_eq!(t.visit(16, 0b110, 1, 4), 0b101);
        assert_eq!(t.visited(16), 0b111);
        assert_eq!(t.layer(16, 1), 0b111);
        assert_eq!(t.layer(16, 0), 0);
        assert_eq!(t.depth(16), 3);
        assert_eq!(t.depth(15), UNREACHED);
        assert_eq!(t.visited(15), 0);
        assert_eq!(t.count(), 3);
        let u = Records::<16>::new(5);
        u.visit(4, 0x8001, 0, 300);
        assert_eq!(u.visited(4), 0x8001);
        assert_eq!(u.layer(4, 0), 0x8001);
        assert_eq!(u.depth(4), 254);
        assert_eq!(u.count(), 2);
    }

    /// A random graph on (rank, sub-state) with free edges inside a rank
    /// and unit edges between ranks, checked against a plain 0-1 BFS.
    #[test]
    fn matches_a_plain_zero_one_bfs() {
        let mut rng = Rng::new(3);
        for round in 0..60 {
            // Some rounds span several chunks, so that skipping idle
            // chunks and the chunked settle are exercised.
            let ranks = if round % 4 == 0 {
                1 + rng.below(3 * CHUNK) as usize
            } else {
                1 + rng.below(60) as usize
            };
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
            let got = Mutex::new(vec![None; ranks]);
            // Steps name a single sub-state or a whole class, by turns.
            let expand = |r: u64, set: u16, out: &mut Vec<Step>| -> u16 {
                let mut closed = 0u16;
                for s in 0..subs {
                    if set & (1 << s) != 0 {
                        closed |= class(id(r as usize, s));
                    }
                }
                for s in 0..subs {
                    if closed & (1 << s) != 0 {
                        for &p in &rev[id(r as usize, s)] {
                            out.push(Step {
                                rank: (p / subs) as u64,
                                set: if p % 3 == 0 {
                                    class(p)
                                } else {
                                    1 << (p % subs)
                                },
                            });
                        }
                    }
                }
                closed
            };
            let settle = |first: u64, depths: &[u8]| {
                let mut g = got.lock().unwrap();
                for (j, &d) in depths.iter().enumerate() {
                    let r = first as usize + j;
                    assert!(g[r].is_none(), "rank {r} settled twice");
                    g[r] = Some(d);
                }
            };
            let start = [Step {
                rank: (goal / subs) as u64,
                set: class(goal),
            }];
            let layers = fill_zero_one::<16, _, _>(ranks as u64, &start, expand, settle, |_| {});
            let got = got.into_inner().unwrap();
            for r in 0..ranks {
                let want = (0..subs).map(|s| dist[id(r, s)]).min().unwrap();
                let want = if want == u32::MAX {
                    UNREACHED
                } else {
                    want.min(254) as u8
                };
                assert_eq!(got[r], Some(want), "rank {r}");
            }
            let reachable = got.iter().filter(|&&d| d != Some(UNREACHED)).count();
            assert_eq!(layers.last().unwrap().known_ranks, reachable as u64);
            assert_eq!(
                layers.iter().map(|l| l.new_ranks).sum::<u64>(),
                reachable as u64
            );
            // The 8-bit records (two a word) give the same depths.
            if subs <= 8 {
                let got8 = Mutex::new(vec![UNREACHED; ranks]);
                fill_zero_one::<8, _, _>(
                    ranks as u64,
                    &start,
                    expand,
                    |first, depths: &[u8]| {
                        let mut g = got8.lock().unwrap();
                        g[first as usize..first as usize + depths.len()].copy_from_slice(depths);
                    },
                    |_| {},
                );
                let got8 = got8.into_inner().unwrap();
                assert!(got8.iter().zip(&got).all(|(a, b)| Some(*a) == *b));
            }
        }
    }
}
