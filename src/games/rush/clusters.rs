//! The cluster labels of a walk that searches a piece set once from all
//! its solved positions ([`super::setbfs`], [`super::densewalk`]), and the
//! results they give.
//!
//! Each solved position starts with its own label; a position takes the
//! label of the position it was first reached from, and a move between
//! positions of different labels unites them (union-find, the least label,
//! that is the solved position listed first, staying the root). After the
//! search, [`Clusters::finish`] counts per cluster its positions, its
//! farthest layer and the least position there in Fogleman's order
//! ([`OrderKey`]), in the order of the clusters' first solved positions.

use super::board::OrderKey;
use super::enumerate::Entry;
use super::pieceset::Layout;
use super::setwalk::SetResult;

/// Union-find over labels, and per root the tallies of the results.
#[derive(Debug, Default)]
pub struct Clusters {
    /// Parent of each label.
    parent: Vec<u32>,
    /// Per root label: positions, farthest layer, least position there
    /// (its key and state).
    size: Vec<u64>,
    far: Vec<u32>,
    best: Vec<(OrderKey, u64)>,
}

impl Clusters {
    /// No labels.
    pub fn clear(&mut self) {
        self.parent.clear();
    }

    /// A new label, its own root.
    pub fn add(&mut self) -> u32 {
        let label = self.parent.len() as u32;
        self.parent.push(label);
        label
    }

    /// The root of `label`'s union (halving the path on the way).
    #[inline]
    pub fn root(&mut self, mut label: u32) -> u32 {
        let parent = &mut self.parent;
        while parent[label as usize] != label {
            let p = parent[label as usize];
            parent[label as usize] = parent[p as usize];
            label = p;
        }
        label
    }

    /// A move joins a position of root `root` and one of label `label`:
    /// their unions become one; returns its root (the least label).
    #[inline]
    pub fn unite(&mut self, root: u32, label: u32) -> u32 {
        let other = self.root(label);
        if other == root {
            return root;
        }
        let (lo, hi) = if other < root {
            (other, root)
        } else {
            (root, other)
        };
        self.parent[hi as usize] = lo;
        lo
    }

    /// Adds the clusters of a finished search to `out`: positions
    /// `0..queued` of the queue, layer `d` starting at `layers[d]`, the
    /// label and the state of position `i` given by `label` and `state`.
    pub fn finish(
        &mut self,
        layout: &Layout,
        layers: &[usize],
        queued: usize,
        label: impl Fn(usize) -> u32,
        state: impl Fn(usize) -> u64,
        out: &mut SetResult,
    ) {
        let labels = self.parent.len();
        for l in 0..labels as u32 {
            let r = self.root(l);
            self.parent[l as usize] = r;
        }
        let layer = |d: usize| layers[d]..layers.get(d + 1).copied().unwrap_or(queued);
        self.size.clear();
        self.size.resize(labels, 0);
        self.far.clear();
        self.far.resize(labels, 0);
        for d in 0..layers.len() {
            for i in layer(d) {
                let r = self.parent[label(i) as usize] as usize;
                self.size[r] += 1;
                self.far[r] = d as u32;
            }
        }
        self.best.clear();
        self.best.resize(labels, (OrderKey::MAX, 0));
        for d in 1..layers.len() {
            for i in layer(d) {
                let r = self.parent[label(i) as usize] as usize;
                if self.far[r] == d as u32 {
                    let s = state(i);
                    let key = layout.order_key(s);
                    if key < self.best[r].0 {
                        self.best[r] = (key, s);
                    }
                }
            }
        }
        for r in 0..labels {
            if self.parent[r] as usize != r {
                continue;
            }
            out.clusters += 1;
            out.positions += self.size[r];
            if self.far[r] > 0 {
                out.entries.push(Entry {
                    moves: self.far[r],
                    board: layout.text(self.best[r].1),
                    cluster_size: self.size[r],
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_label_stays_the_root() {
        let mut c = Clusters::default();
        let (a, b, d) = (c.add(), c.add(), c.add());
        assert_eq!(c.unite(d, b), b);
        assert_eq!(c.unite(b, a), a);
        assert_eq!(c.root(d), a);
        assert_eq!(c.unite(a, d), a);
    }
}
