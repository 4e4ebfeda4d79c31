//! Every cluster with a solved position inside one piece set, found by ONE
//! breadth-first search from all the set's solved positions at once (the
//! [`super::setwalk`] design expands every position twice: a flood fill
//! per cluster, then its distances).
//!
//! A search from all solved positions of the set reaches exactly the
//! clusters that have one, and gives every position its distance to the
//! nearest solved position of its own cluster (the others are out of
//! reach). Clusters are told apart by labels: each solved position starts
//! with its own label, a position takes the label of the position it was
//! first reached from, and whenever a move joins two positions whose
//! labels differ the two labels are united (union-find; the least label,
//! that is the solved position listed first, stays the root). Every move
//! between reached positions is looked at, so the labels of one cluster
//! end up united, and labels of different clusters never meet.
//!
//! Positions are found again through a small open-addressing table keyed
//! by their rank in the piece set's [`Layout`] (the rank space is
//! thousands of times larger than the positions met, so a bitset over it
//! is touched at scattered words; the table stays small and dense). The
//! queue of the search keeps every position with its label, layer after
//! layer; after the search, [`super::clusters::Clusters::finish`] gives
//! each cluster its size, its farthest layer and the least position (in
//! Fogleman's order) among the cluster's positions in that layer. Clusters come out in the order of their first
//! solved position, as in [`super::setwalk`], so the results are equal.
//!
//! Moves dropped ([`Layout::expand_pruned`]): a position `x` reached from
//! its parent `p` by moving piece A (its tag) does not move A again (every
//! place A could reach is one move of A from `p`), nor a piece B listed
//! before A (lower tag) whose free run at `x` does not meet A's free run
//! at `p`. Why this changes neither distances nor clusters: then `q = p +
//! B` is a valid move of `p`, and `x + B = q + A` a valid move of `q`
//! (the two runs are disjoint). Lemma: `q` is reached before `x` (by
//! strong induction on the order positions are reached: `p` expands B
//! before A, so either it meets `q` then, or it dropped that move by the
//! same rule, and then by induction `q` is one move of `p`'s own last
//! piece from a position reached before `p`, which is expanded before `p`,
//! so meets `q` before `p` meets `x`, unless that move is dropped too, and
//! the same step repeats on positions reached earlier and earlier).
//! Distances: a position reached first is never farther, so `x + B` is
//! met from some position no farther than `x`, which is all a
//! breadth-first search needs. Clusters: by induction on the order
//! positions are reached, a dropped move `x -> y` joins positions already
//! joined by `x - p` (the label `x` inherited), `p - q` and `q - y`, each
//! looked at or dropped at a position reached before `x`. The tests
//! compare every result with the flood-fill walk, set by set.

use super::clusters::Clusters;
use super::pieceset::{Layout, MAX_SPACE};
use super::setwalk::{SetResult, Walker};

/// Empty slot of the table.
const EMPTY: u64 = u64::MAX;

/// More positions than one expansion can add (pieces times places).
const ROOM: usize = 1024;

/// Bits of a label in a table slot; ranks are below [`MAX_SPACE`], so a
/// slot holds both.
const LABEL_BITS: u32 = 64 - MAX_SPACE.trailing_zeros();

/// Labels are below this (sets with more solved positions, none met on
/// 6x6, go to the flood-fill walk).
const LABELS: usize = (1 << LABEL_BITS) - 1;

/// The buffers of the search, reused from one piece set to the next.
#[derive(Debug, Default)]
pub struct SetBfs {
    /// Table slots: rank << [`LABEL_BITS`] | label of the position.
    keys: Vec<u64>,
    /// Slots of the table (a power of two) minus one, the shift that
    /// takes a hash to a slot, and positions stored.
    mask: usize,
    shift: u32,
    stored: usize,
    /// The walk of sets with more solved positions than labels.
    fallback: Walker,
    /// The queue: states, their labels and the free run of the piece
    /// moved last, layer after layer.
    states: Vec<u64>,
    labels: Vec<u32>,
    runs: Vec<u8>,
    /// Where each layer starts in the queue.
    layers: Vec<usize>,
    /// Union-find over labels (one per solved position), and the
    /// results per cluster.
    clusters: Clusters,
}

/// The slot where the search for `rank` starts.
#[inline]
fn hash(rank: u64, shift: u32) -> usize {
    (rank.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize
}

impl SetBfs {
    /// A search with empty buffers.
    pub fn new() -> SetBfs {
        SetBfs::default()
    }

    /// Empties the table, with room for `n` positions at load 1/2 or less.
    fn clear_table(&mut self, n: usize) {
        let slots = (2 * n).next_power_of_two().max(4 * ROOM);
        if self.keys.len() != slots {
            self.keys = vec![EMPTY; slots];
        } else {
            self.keys.fill(EMPTY);
        }
        self.mask = slots - 1;
        self.shift = 64 - slots.trailing_zeros();
        self.stored = 0;
    }

    /// Doubles the table.
    fn grow(&mut self) {
        let keys = std::mem::take(&mut self.keys);
        let slots = 2 * keys.len();
        self.keys = vec![EMPTY; slots];
        self.mask = slots - 1;
        self.shift = 64 - slots.trailing_zeros();
        for &k in &keys {
            if k != EMPTY {
                let mut i = hash(k >> LABEL_BITS, self.shift);
                while self.keys[i] != EMPTY {
                    i = (i + 1) & self.mask;
                }
                self.keys[i] = k;
            }
        }
    }

    /// Walks every cluster of `layout`'s piece set that has a solved
    /// position, adding what it finds to `out` (the same as
    /// [`super::setwalk::Walker::walk`]).
    pub fn walk(&mut self, layout: &Layout, out: &mut SetResult) {
        self.states.clear();
        self.labels.clear();
        self.runs.clear();
        self.layers.clear();
        self.clusters.clear();
        // Layer 0: the solved positions, each its own label.
        {
            let (states, clusters) = (&mut self.states, &mut self.clusters);
            layout.for_each_solved(|s| {
                clusters.add();
                states.push(s);
            });
        }
        let sources = self.states.len();
        if sources == 0 {
            return;
        }
        if sources >= LABELS {
            self.fallback.walk(layout, out);
            return;
        }
        // A set holds a few times more positions than solved ones (4 on
        // average over sample B): size the table for that at once.
        self.clear_table(4 * sources);
        for k in 0..sources {
            let r = layout.rank(self.states[k]);
            self.insert_new(r, k as u32);
            self.labels.push(k as u32);
            self.runs.push(0);
        }
        self.layers.push(0);
        let mut start = 0;
        while start < self.states.len() {
            let end = self.states.len();
            self.layers.push(end);
            for i in start..end {
                let s = self.states[i];
                let mine = self.labels[i];
                let run = self.runs[i];
                self.expand_one(layout, s, mine, run);
            }
            start = end;
        }
        self.layers.pop();
        let (states, labels) = (&self.states, &self.labels);
        self.clusters.finish(
            layout,
            &self.layers,
            states.len(),
            |i| labels[i],
            |i| states[i],
            out,
        );
    }

    /// Stores rank `r` (known absent) with label `label`.
    #[inline]
    fn insert_new(&mut self, r: u64, label: u32) {
        if 2 * (self.stored + 1) > self.keys.len() {
            self.grow();
        }
        let mut i = hash(r, self.shift);
        while self.keys[i] != EMPTY {
            i = (i + 1) & self.mask;
        }
        self.keys[i] = r << LABEL_BITS | label as u64;
        self.stored += 1;
    }

    /// Expands `s` (label `mine`): new positions join the queue with its
    /// label; met ones unite labels.
    #[inline]
    fn expand_one(&mut self, layout: &Layout, s: u64, mine: u32, run: u8) {
        if 2 * (self.stored + ROOM) > self.keys.len() {
            self.grow();
        }
        let mut root = self.clusters.root(mine);
        let SetBfs {
            keys,
            mask,
            shift,
            stored,
            states,
            labels,
            runs,
            clusters,
            ..
        } = self;
        let (mask, shift) = (*mask, *shift);
        layout.expand_pruned(s, run, |r, t, moved| {
            let mut i = hash(r, shift);
            loop {
                let k = keys[i];
                if k >> LABEL_BITS == r && k != EMPTY {
                    let l = (k & LABELS as u64) as u32;
                    if l != root {
                        root = clusters.unite(root, l);
                    }
                    return;
                }
                if k == EMPTY {
                    keys[i] = r << LABEL_BITS | root as u64;
                    *stored += 1;
                    states.push(t);
                    labels.push(root);
                    runs.push(moved);
                    return;
                }
                i = (i + 1) & mask;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::setwalk::{agree_on_small_units, agree_walks, Walker};
    use super::*;

    /// The flood-fill walk and this one on every `step`-th set owned by
    /// `unit` of side `n`: the same result, set by set. Returns the
    /// positions walked.
    fn agree(n: usize, walls: usize, unit: usize, step: usize) -> u64 {
        let (mut walker, mut bfs) = (Walker::new(), SetBfs::new());
        agree_walks(
            n,
            walls,
            unit,
            step,
            |l, o| walker.walk(l, o),
            |l, o| bfs.walk(l, o),
        )
    }

    #[test]
    fn agrees_with_the_flood_fill_walk_set_by_set() {
        agree_on_small_units(agree);
    }

    #[test]
    fn agrees_on_six_by_six_sets() {
        // A few sets of a 6x6 unit, some large.
        let positions = agree(6, 0, 300, 997);
        assert!(positions > 10_000, "{positions}");
    }
}
