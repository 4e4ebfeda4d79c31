//! Every cluster with a solved position inside one piece set, walked on
//! the compact index of [`super::pieceset::Layout`]: visited flags are
//! bits at each position's rank, no hash table.
//!
//! Each solved position of the set not yet seen starts a new cluster: a
//! flood fill (breadth-first) from it collects the cluster and marks it
//! seen; then a breadth-first search from all its solved positions at
//! once gives every position's distance to the nearest solved one, layer
//! by layer. The last layer holds the farthest positions; the least of
//! them in Fogleman's order, its distance and the cluster size make the database
//! entry (when that distance is not 0). Memory: two bitsets of the set's
//! index space and the positions of one cluster.

use super::enumerate::Entry;
use super::pieceset::Layout;

/// What the walk of some piece sets found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SetResult {
    /// Clusters with a solved position.
    pub clusters: u64,
    /// Positions in those clusters.
    pub positions: u64,
    /// Database entries of those clusters whose farthest position is not
    /// solved.
    pub entries: Vec<Entry>,
}

/// Walks `a` and `b` on every `step`-th set owned by `unit` of side `n`
/// with at most `walls` walls, and checks they find the same, set by set;
/// the positions walked.
#[cfg(test)]
pub(super) fn agree_walks(
    n: usize,
    walls: usize,
    unit: usize,
    step: usize,
    mut a: impl FnMut(&Layout, &mut SetResult),
    mut b: impl FnMut(&Layout, &mut SetResult),
) -> u64 {
    use super::enumerate::{owned_sets, unit_index, units, Rules};
    let all = units(n, walls, Rules::All).unwrap();
    let index = unit_index(&all, n);
    let (sets, _) = owned_sets(unit, &all[unit], n, walls, &index);
    let mut positions = 0;
    for set in sets.iter().step_by(step) {
        let layout = Layout::new(set).unwrap();
        let (mut ra, mut rb) = (SetResult::default(), SetResult::default());
        a(&layout, &mut ra);
        b(&layout, &mut rb);
        assert_eq!(ra, rb, "{set}");
        positions += ra.positions;
    }
    positions
}

/// `agree(n, walls, unit, step)` on a fixed mix of small units (4x4 with
/// two walls, 5x5 with none and with one), every set: the positions
/// walked, checked to be over 10,000 so the comparison means something.
#[cfg(test)]
pub(super) fn agree_on_small_units(mut agree: impl FnMut(usize, usize, usize, usize) -> u64) {
    let mut positions = 0;
    for unit in [0, 5, 11] {
        positions += agree(4, 2, unit, 1);
    }
    for unit in [0, 17, 40] {
        positions += agree(5, 0, unit, 1);
    }
    positions += agree(5, 1, 33, 1);
    assert!(positions > 10_000, "{positions}");
}

/// The buffers of a walk, reused from one piece set to the next.
#[derive(Debug, Default)]
pub struct Walker {
    seen: Vec<u64>,
    /// The words of `seen` set since it was last cleared.
    dirty: Vec<u32>,
    layered: Vec<u64>,
    sources: Vec<u64>,
    cluster: Vec<u64>,
    ranks: Vec<u64>,
    frontier: Vec<u64>,
    next: Vec<u64>,
}

/// Sets bit `i`; true when it was set already.
#[inline]
fn test_and_set(bits: &mut [u64], i: u64) -> bool {
    let w = &mut bits[(i >> 6) as usize];
    let b = 1u64 << (i & 63);
    let was = *w & b != 0;
    *w |= b;
    was
}

impl Walker {
    /// A walker with empty buffers.
    pub fn new() -> Walker {
        Walker::default()
    }

    /// Bytes held by the buffers.
    pub fn bytes(&self) -> usize {
        8 * (self.seen.capacity()
            + self.layered.capacity()
            + self.sources.capacity()
            + self.cluster.capacity()
            + self.ranks.capacity()
            + self.frontier.capacity()
            + self.next.capacity())
    }

    /// Walks every cluster of `layout`'s piece set that has a solved
    /// position, adding what it finds to `out`.
    pub fn walk(&mut self, layout: &Layout, out: &mut SetResult) {
        let words = layout.space().div_ceil(64) as usize;
        if self.seen.len() < words {
            self.seen.resize(words, 0);
            self.layered.resize(words, 0);
        }
        // Clear what the last piece set set.
        for &w in &self.dirty {
            self.seen[w as usize] = 0;
        }
        self.dirty.clear();
        self.sources.clear();
        let sources = &mut self.sources;
        layout.for_each_solved(|s| sources.push(s));
        for k in 0..self.sources.len() {
            let s = self.sources[k];
            let r = layout.rank(s);
            if self.seen[(r >> 6) as usize] == 0 {
                self.dirty.push((r >> 6) as u32);
            }
            if test_and_set(&mut self.seen, r) {
                continue;
            }
            self.flood(layout, s);
            if let Some(e) = self.distances(layout) {
                out.entries.push(e);
            }
            out.clusters += 1;
            out.positions += self.cluster.len() as u64;
        }
    }

    /// Collects the cluster of `start` (already marked seen).
    fn flood(&mut self, layout: &Layout, start: u64) {
        self.cluster.clear();
        self.ranks.clear();
        self.cluster.push(start);
        let (seen, cluster, dirty) = (&mut self.seen, &mut self.cluster, &mut self.dirty);
        let mut i = 0;
        while i < cluster.len() {
            let s = cluster[i];
            i += 1;
            let r = layout.expand(s, |r, t| {
                let w = &mut seen[(r >> 6) as usize];
                let b = 1u64 << (r & 63);
                if *w & b == 0 {
                    if *w == 0 {
                        dirty.push((r >> 6) as u32);
                    }
                    *w |= b;
                    cluster.push(t);
                }
            });
            self.ranks.push(r);
        }
    }

    /// Distances from the cluster's solved positions; the entry of its
    /// farthest position unless that is solved. Leaves `layered` clear.
    fn distances(&mut self, layout: &Layout) -> Option<Entry> {
        self.frontier.clear();
        for (&s, &r) in self.cluster.iter().zip(&self.ranks) {
            if layout.is_solved(s) {
                self.frontier.push(layout.untagged(s));
                test_and_set(&mut self.layered, r);
            }
        }
        let mut depth = 0u32;
        loop {
            self.next.clear();
            let (layered, next) = (&mut self.layered, &mut self.next);
            for &s in &self.frontier {
                layout.expand(s, |r, t| {
                    if !test_and_set(layered, r) {
                        next.push(t);
                    }
                });
            }
            if self.next.is_empty() {
                break;
            }
            depth += 1;
            std::mem::swap(&mut self.frontier, &mut self.next);
        }
        for &r in &self.ranks {
            self.layered[(r >> 6) as usize] = 0;
        }
        if depth == 0 {
            return None;
        }
        let best = self
            .frontier
            .iter()
            .min_by_key(|&&s| layout.order_key(s))
            .expect("a farthest position");
        Some(Entry {
            moves: depth,
            board: layout.text(*best),
            cluster_size: self.cluster.len() as u64,
        })
    }
}
