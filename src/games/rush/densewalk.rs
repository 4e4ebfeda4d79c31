//! Every cluster with a solved position inside one piece set, found by one
//! breadth-first search from all the set's solved positions (as in
//! [`super::setbfs`]), with the positions numbered densely instead of
//! found again through a hash table.
//!
//! Slabs. Fix the arrangements R of all the rows (the horizontal pieces):
//! the valid positions sharing R are exactly the product over columns of
//! the column arrangements that miss R's cells (columns never overlap one
//! another, and the walls are left out of every arrangement already). The
//! roles swap when the columns' arrangements multiply to less than the
//! rows' (fewer, larger slabs: 3.5% less time on a 6x6 sample); below,
//! "rows" are the lines that make the slabs, whichever axis they are. That
//! product is a *slab*; a position is numbered by its slab's base plus the
//! mixed-radix index, over the columns, of its arrangement among the
//! column's compatible ones. A slab is one cache line in an array over the
//! rows' rank, stamped with the set's generation so that it is never
//! cleared: its first label slot and per column its stride and its
//! obstacles (the cells the rows take on it), which pick the row of the
//! column's table where each arrangement's moves and rank are (one load
//! a column). Slabs are made when the search first enters them, and a
//! slab's positions get one label slot each,
//! `UNSEEN` until reached. Reached positions fill their slabs almost
//! completely (1.002 slab slots a position on sample B), so the label array
//! is about as long as the set's positions.
//!
//! Moves. A line's pieces, its walls and the cells other lines take on it
//! (the *obstacles*) fix which arrangements of the line one move reaches.
//! `LineTable` holds, per line shape (side, lengths, walls on the line)
//! and per obstacle mask, the arrangements compatible with it and for each
//! arrangement the set of arrangements one move away (a 16-bit mask) and
//! its rank among the compatible ones (the column's digit in a slab). The
//! tables are built once per shape and kept across sets (a 6x6 board has a
//! few dozen shapes). A column move stays in its slab: the index changes by
//! the difference of the compatible ranks times the column's stride. A row
//! move changes the slab (its rows' rank by the arrangement difference
//! times the row's stride): the new slab is looked up, then the position is
//! numbered in it (one rank load a column, at offsets computed once per
//! expanded position: the columns do not change).
//!
//! Correctness. Every move of the position is looked at (no pruning: the
//! commuting-move rule of [`Layout::expand_pruned`], tried with per-piece
//! tables of moves and free runs, cost more instructions than the looks it
//! saved, as a look is a table word and a label load), so this is a plain
//! breadth-first
//! search from all the solved positions: each position gets its distance
//! to the nearest solved position of its cluster, and the union-find over
//! labels (the least label, that is the solved position listed first by
//! [`Layout::for_each_solved`], stays the root; a position inherits the
//! root of the position it was reached from; a move between different
//! labels unites them) joins exactly the labels of one cluster. A position
//! met again keeps, in its label slot, the root of its label's union then
//! (any label of the same union tells the same cluster; later looks at it
//! skip the union-find walk; the queue keeps the label it was first met
//! with, which `finish` resolves). The
//! clusters' sizes, farthest layers and least positions there (in Fogleman's order) are counted
//! by the same [`super::clusters::Clusters`] as in [`super::setbfs`], so
//! the results agree set by set (the tests
//! check that against [`super::setbfs::SetBfs`]). Sets whose rows have more
//! arrangement combinations than [`MAX_ROWS_SPACE`] (none on 6x6), or a line
//! with more than 16 arrangements, go to [`SetBfs`].

use rustc_hash::FxHashMap;

use super::board::MAX_SIZE;
use super::clusters::Clusters;
use super::pieceset::{spread_table, Layout, LineShape};
use super::setbfs::SetBfs;
use super::setwalk::SetResult;

/// A label slot not reached yet.
const UNSEEN: u32 = u32::MAX;

/// Most combinations of the rows' arrangements handled (the slab array).
pub const MAX_ROWS_SPACE: usize = 1 << 20;

/// Most arrangements of one line (a state field is 4 bits).
const MAX_ARRANGEMENTS: usize = 16;

/// Where one line shape's tables start in the walker's flat arrays.
#[derive(Debug, Clone, Copy)]
struct LineTable {
    /// Its arrangements.
    count: usize,
    /// `masks[masks + a]`: the cells of arrangement `a` (bit `o`: cell `o`
    /// of the line).
    masks: usize,
    /// `compat[compat + m]`: bit `a` set when arrangement `a` misses the
    /// obstacles `m`.
    compat: usize,
    /// `nbr[nbr + 16 * m + a]`: bit `b` set when arrangement `b` is one
    /// move of `a` away, with obstacles `m`; bits 16 on: the rank of `a`
    /// among the arrangements compatible with `m` (its place in a slab).
    nbr: usize,
}

/// The moves in a [`LineTable::nbr`] entry.
const MOVES: u32 = 0xffff;
/// Where the rank starts in a [`LineTable::nbr`] entry.
const RANK_SHIFT: u32 = 16;

/// A row with pieces in the set being walked.
#[derive(Debug, Clone, Copy)]
struct RowLine {
    /// Its field in a state.
    shift: u32,
    /// Its first cell (`row * n`).
    cells: u32,
    /// Its table's moves.
    nbr: usize,
    /// Its stride in the rows' rank.
    stride: u32,
}

/// A column with pieces in the set being walked.
#[derive(Debug, Clone, Copy)]
struct ColLine {
    /// Its field in a state.
    shift: u32,
    /// Its first cell on the transposed board (`column * n`).
    cells: u32,
    /// Its table's compatible arrangements and moves.
    compat: usize,
    nbr: usize,
}

/// The positions sharing one arrangement of all the rows, kept per rows'
/// rank (valid when `generation` is the set's), in one cache line: all a
/// slot needs, and all a column move needs.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(64))]
struct Slab {
    generation: u32,
    /// Its first label slot.
    base: u32,
    /// Per column: its stride in the slab's mixed-radix index.
    stride: [u32; MAX_SIZE],
    /// Per column: the cells the slab's rows take on it (its obstacles),
    /// times 16: where its row of moves and ranks starts in its table.
    obst: [u16; MAX_SIZE],
}

/// One line in the order [`Layout::for_each_solved`] places them.
#[derive(Debug, Clone, Copy)]
struct SolvedLine {
    horizontal: bool,
    /// Its field in a state.
    shift: u32,
    /// Its first cell on the board (a row) or the transposed board.
    cells: u32,
    /// Its arrangements' masks and compatible sets in the tables.
    masks: usize,
    compat: usize,
    /// Its row or column number.
    index: u32,
    /// The arrangements a solved position may have.
    allowed: u16,
}

/// One queued position.
#[derive(Debug, Clone, Copy)]
struct Queued {
    state: u64,
    /// Its rows' rank (its slab).
    rr: u32,
    slot: u32,
    label: u32,
}

/// The buffers and tables of the dense walk, reused from one piece set to
/// the next.
#[derive(Debug, Default)]
pub struct DenseWalk {
    /// Line tables by shape key, and their flat arrays.
    tables: FxHashMap<u32, LineTable>,
    tab_masks: Vec<u8>,
    tab_compat: Vec<u16>,
    tab_nbr: Vec<u32>,
    /// `spread[m]`: bit `o` of `m` moved to bit `o * spread_n`.
    spread: Vec<u64>,
    spread_n: usize,
    /// The set's rows and columns with pieces.
    rows: Vec<RowLine>,
    cols: Vec<ColLine>,
    /// `row_tmask[16 * r + a]`: row `r`'s arrangement `a` on the
    /// transposed board; `col_mask[16 * c + a]`: column `c`'s on the board.
    row_tmask: Vec<u64>,
    col_mask: Vec<u64>,
    /// Board side and its line mask.
    n: usize,
    full: u64,
    /// Per rows' rank: its slab, stamped with the set's generation.
    slab_of: Vec<Slab>,
    generation: u32,
    /// Per slab slot: the label of the position (`UNSEEN` until reached).
    lab: Vec<u32>,
    /// The queue, layer after layer.
    queue: Vec<Queued>,
    /// Where each layer starts in the queue.
    layers: Vec<usize>,
    /// The lines in the order solved positions are listed.
    solved_lines: Vec<SolvedLine>,
    /// Union-find over labels (one per solved position), and the
    /// results per cluster.
    clusters: Clusters,
    /// The walk of sets the dense index does not handle.
    fallback: SetBfs,
    /// Tests: the rows (`Some(true)`) or the columns make the slabs,
    /// instead of the axis whose arrangements multiply to less.
    force_outer: Option<bool>,
}

/// Appends every placement of pieces `lens` in order on a line of `n`
/// cells avoiding `walls` (offsets increasing, lexicographic order, as
/// [`Layout`] numbers them), as line masks.
fn line_arrangements(n: usize, lens: &[u8], walls: u32, out: &mut Vec<u32>) {
    fn rec(n: usize, lens: &[u8], walls: u32, from: usize, cur: u32, out: &mut Vec<u32>) {
        let Some((&len, rest)) = lens.split_first() else {
            out.push(cur);
            return;
        };
        let need: usize = lens.iter().map(|&l| l as usize).sum();
        let mut o = from;
        while o + need <= n {
            let m = ((1u32 << len) - 1) << o;
            if m & walls == 0 {
                rec(n, rest, walls, o + len as usize, cur | m, out);
            }
            o += 1;
        }
    }
    rec(n, lens, walls, 0, 0, out);
}

impl DenseWalk {
    /// A walker with empty buffers and tables.
    pub fn new() -> DenseWalk {
        DenseWalk::default()
    }

    /// The tables of a line of side `n` with pieces `lens` and `walls` (in
    /// the line's frame), built when first met.
    fn table(&mut self, n: usize, lens: &[u8], walls: u32) -> LineTable {
        let code = lens.iter().fold(1u32, |c, &l| (c << 1) | (l == 3) as u32);
        let key = (n as u32) << 24 | code << 16 | walls;
        if let Some(t) = self.tables.get(&key) {
            return *t;
        }
        let mut masks = Vec::new();
        line_arrangements(n, lens, walls, &mut masks);
        let t = LineTable {
            count: masks.len(),
            masks: self.tab_masks.len(),
            compat: self.tab_compat.len(),
            nbr: self.tab_nbr.len(),
        };
        self.tab_masks.extend(masks.iter().map(|&m| m as u8));
        let full = (1u32 << n) - 1;
        let big = masks.len() > MAX_ARRANGEMENTS;
        for m in 0..=full {
            let obst = m | walls;
            let mut compat = 0u16;
            let mut nbr = [0u32; MAX_ARRANGEMENTS];
            for (a, &ma) in masks.iter().enumerate().take(MAX_ARRANGEMENTS) {
                if ma & obst != 0 {
                    continue;
                }
                nbr[a] |= compat.count_ones() << RANK_SHIFT;
                compat |= 1 << a;
                // Each piece: the offsets it slides to, one cell at a time.
                let mut p = 0;
                for &len in lens {
                    while ma >> p & 1 == 0 {
                        p += 1;
                    }
                    let own = ((1u32 << len) - 1) << p;
                    let others = (ma & !own) | obst;
                    for dir in [-1i32, 1] {
                        let mut o = p as i32 + dir;
                        while o >= 0 && o + len as i32 <= n as i32 {
                            let piece = ((1u32 << len) - 1) << o;
                            if piece & others != 0 {
                                break;
                            }
                            let to = (ma & !own) | piece;
                            let b = masks.iter().position(|&x| x == to).expect("arrangement");
                            nbr[a] |= 1 << b;
                            o += dir;
                        }
                    }
                    p += len as u32;
                }
            }
            self.tab_compat.push(if big { 0 } else { compat });
            self.tab_nbr.extend_from_slice(&nbr);
        }
        self.tables.insert(key, t);
        t
    }

    /// Sets up the lines of `layout`; false when the dense index does not
    /// handle it.
    fn prepare(&mut self, layout: &Layout) -> bool {
        let n = layout.size();
        let full = (1u64 << n) - 1;
        let walls = layout.walls();
        if self.spread_n != n || self.spread.is_empty() {
            self.spread = spread_table(n);
            self.spread_n = n;
        }
        self.n = n;
        self.full = full;
        self.rows.clear();
        self.cols.clear();
        self.row_tmask.clear();
        self.col_mask.clear();
        let mut rows_space = 1usize;
        let shapes: Vec<LineShape> = layout.line_shapes().collect();
        let prow = super::enumerate::primary_row(n);
        // The order of Layout::for_each_solved: fewest arrangements first
        // (the primary row: its solved ones), rows and columns alternating.
        let mut order: Vec<(u32, usize, SolvedLine)> = Vec::with_capacity(shapes.len());
        // Each line's table (its walls as a line mask).
        let mut tables = Vec::with_capacity(shapes.len());
        for l in &shapes {
            let w = if l.horizontal {
                (walls >> (l.index * n)) & full
            } else {
                (0..n)
                    .filter(|o| walls >> (o * n + l.index) & 1 != 0)
                    .map(|o| 1 << o)
                    .sum()
            };
            let t = self.table(n, &l.lens[..l.count], w as u32);
            if t.count > MAX_ARRANGEMENTS {
                return false;
            }
            tables.push(t);
            let allowed: u16 = if l.horizontal && l.index == prow {
                self.tab_masks[t.masks..t.masks + t.count]
                    .iter()
                    .enumerate()
                    .filter(|(_, &m)| m >> (n - 1) & 1 != 0)
                    .map(|(a, _)| 1 << a)
                    .sum()
            } else {
                ((1u32 << t.count) - 1) as u16
            };
            order.push((
                allowed.count_ones(),
                2 * l.index + !l.horizontal as usize,
                SolvedLine {
                    horizontal: l.horizontal,
                    shift: l.shift,
                    cells: (l.index * n) as u32,
                    masks: t.masks,
                    compat: t.compat,
                    index: l.index as u32,
                    allowed,
                },
            ));
        }
        order.sort_unstable_by_key(|x| (x.0, x.1));
        self.solved_lines.clear();
        self.solved_lines.extend(order.iter().map(|x| x.2));
        let product = |h: bool| -> f64 {
            shapes
                .iter()
                .filter(|l| l.horizontal == h)
                .map(|l| l.arrangements as f64)
                .product()
        };
        // The slabs' lines: the axis with the fewer combinations.
        let outer_rows = match self.force_outer {
            Some(r) => r,
            None => product(true) <= product(false),
        };
        for (l, t) in shapes.into_iter().zip(tables) {
            debug_assert_eq!(t.count, l.arrangements);
            let masks = &self.tab_masks[t.masks..t.masks + t.count];
            let spread = &self.spread;
            let put = |out: &mut Vec<u64>| {
                out.extend(masks.iter().map(|&m| spread[m as usize] << l.index));
                out.resize(out.len() + MAX_ARRANGEMENTS - t.count, 0);
            };
            if l.horizontal == outer_rows {
                self.rows.push(RowLine {
                    shift: l.shift,
                    cells: (l.index * n) as u32,
                    nbr: t.nbr,
                    stride: rows_space as u32,
                });
                rows_space *= t.count;
                if rows_space > MAX_ROWS_SPACE {
                    return false;
                }
                put(&mut self.row_tmask);
            } else {
                self.cols.push(ColLine {
                    shift: l.shift,
                    cells: (l.index * n) as u32,
                    compat: t.compat,
                    nbr: t.nbr,
                });
                put(&mut self.col_mask);
            }
        }
        if self.slab_of.len() < rows_space {
            self.slab_of.resize(rows_space, Slab::default());
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slab_of.fill(Slab::default());
            self.generation = 1;
        }
        true
    }

    /// Makes the slab of rows' rank `rr` (from `state`'s rows) when it is
    /// not made yet.
    #[inline(always)]
    fn slab(&mut self, rr: u32, state: u64) {
        if self.slab_of[rr as usize].generation != self.generation {
            self.new_slab(rr, state);
        }
    }

    #[inline(never)]
    fn new_slab(&mut self, rr: u32, state: u64) {
        let mut trocc = 0u64;
        for (r, l) in self.rows.iter().enumerate() {
            trocc |= self.row_tmask[16 * r + ((state >> l.shift) & 15) as usize];
        }
        let mut slab = Slab {
            generation: self.generation,
            base: self.lab.len() as u32,
            ..Slab::default()
        };
        let mut total = 1u32;
        for (c, l) in self.cols.iter().enumerate() {
            let m = ((trocc >> l.cells) & self.full) as usize;
            let compat = self.tab_compat[l.compat + m];
            slab.obst[c] = 16 * m as u16;
            slab.stride[c] = total;
            total *= compat.count_ones();
        }
        self.lab.resize(self.lab.len() + total as usize, UNSEEN);
        self.slab_of[rr as usize] = slab;
    }

    /// The slot of the position whose columns' arrangements are at
    /// `at[c]` (its table's moves plus its arrangement) in slab `rr`.
    #[inline(always)]
    fn slot(&self, rr: u32, at: &[u32]) -> u32 {
        let slab = &self.slab_of[rr as usize];
        let mut i = slab.base;
        for (c, &o) in at.iter().enumerate() {
            let rank = self.tab_nbr[(o + slab.obst[c] as u32) as usize] >> RANK_SHIFT;
            i = i.wrapping_add(rank * slab.stride[c]);
        }
        i
    }

    /// Per column of `state`: where its arrangement's entries start in its
    /// table (without the obstacles).
    #[inline(always)]
    fn column_at(&self, state: u64, at: &mut [u32; MAX_SIZE]) {
        for (c, l) in self.cols.iter().enumerate() {
            at[c] = l.nbr as u32 + ((state >> l.shift) & 15) as u32;
        }
    }

    /// The rows' rank of `state`.
    fn rows_rank(&self, state: u64) -> u32 {
        self.rows
            .iter()
            .map(|l| ((state >> l.shift) & 15) as u32 * l.stride)
            .sum()
    }

    /// Queues every solved position from line `p` of `solved_lines` on
    /// (the lines before it in `state`, their cells in `occ` and, on the
    /// transposed board, `tocc`), each with the next label: the same
    /// depth-first search as [`Layout::for_each_solved`] (same line order,
    /// arrangements in increasing order), the arrangements that fit taken
    /// from the line tables (one load) instead of tested one by one.
    fn solved(&mut self, p: usize, occ: u64, tocc: u64, state: u64) {
        let Some(&l) = self.solved_lines.get(p) else {
            let label = self.clusters.add();
            self.queue.push(Queued {
                state,
                rr: 0,
                slot: 0,
                label,
            });
            return;
        };
        let m = if l.horizontal { occ } else { tocc } >> l.cells & self.full;
        let mut fit = (self.tab_compat[l.compat + m as usize] & l.allowed) as u32;
        while fit != 0 {
            let a = fit.trailing_zeros() as usize;
            fit &= fit - 1;
            let line = self.tab_masks[l.masks + a] as u64;
            let across = self.spread[line as usize] << l.index;
            let (o, t) = if l.horizontal {
                (line << l.cells, across)
            } else {
                (across, line << l.cells)
            };
            self.solved(p + 1, occ | o, tocc | t, state | (a as u64) << l.shift);
        }
    }

    /// Walks every cluster of `layout`'s piece set that has a solved
    /// position, adding what it finds to `out` (the same as
    /// [`SetBfs::walk`]).
    pub fn walk(&mut self, layout: &Layout, out: &mut SetResult) {
        self.queue.clear();
        self.layers.clear();
        self.clusters.clear();
        self.lab.clear();
        if !self.prepare(layout) {
            self.fallback.walk(layout, out);
            return;
        }
        // The solved positions, in the order of Layout::for_each_solved.
        self.solved(0, 0, 0, 0);
        let sources = self.queue.len();
        if sources == 0 {
            return;
        }
        for k in 0..sources {
            let s = self.queue[k].state;
            let rr = self.rows_rank(s);
            let mut at = [0u32; MAX_SIZE];
            self.column_at(s, &mut at);
            self.slab(rr, s);
            let i = self.slot(rr, &at[..self.cols.len()]);
            self.lab[i as usize] = k as u32;
            self.queue[k].rr = rr;
            self.queue[k].slot = i;
        }
        self.layers.push(0);
        let mut start = 0;
        while start < self.queue.len() {
            let end = self.queue.len();
            self.layers.push(end);
            for q in start..end {
                self.expand(q);
            }
            start = end;
        }
        self.layers.pop();
        let queue = &self.queue;
        self.clusters.finish(
            layout,
            &self.layers,
            queue.len(),
            |i| queue[i].label,
            |i| queue[i].state,
            out,
        );
    }

    /// Looks at every move of queued position `q`: new positions join the
    /// queue with its root label, met ones unite labels.
    #[inline]
    fn expand(&mut self, q: usize) {
        let Queued {
            state: s,
            rr,
            slot: idx,
            label,
        } = self.queue[q];
        let mut root = self.clusters.root(label);
        let slab = self.slab_of[rr as usize];
        let mut colocc = 0u64;
        // Per column: where its arrangement's entries start in its table
        // (a slab's obstacles added, its moves and rank there).
        let mut at = [0u32; MAX_SIZE];
        let nc = self.cols.len();
        // Column moves: inside the slab.
        for (c, at_c) in at.iter_mut().enumerate().take(nc) {
            let l = self.cols[c];
            let a = ((s >> l.shift) & 15) as u32;
            *at_c = l.nbr as u32 + a;
            colocc |= self.col_mask[16 * c + a as usize];
            let row = l.nbr + slab.obst[c] as usize;
            let e = self.tab_nbr[row + a as usize];
            let mut nb = e & MOVES;
            if nb == 0 {
                continue;
            }
            let stride = slab.stride[c];
            let from = idx.wrapping_sub((e >> RANK_SHIFT) * stride);
            while nb != 0 {
                let b = nb.trailing_zeros();
                nb &= nb - 1;
                let rank = self.tab_nbr[row + b as usize] >> RANK_SHIFT;
                let i = from.wrapping_add(rank * stride);
                let t = s.wrapping_sub((a as u64) << l.shift) | (b as u64) << l.shift;
                self.visit(t, rr, i, &mut root);
            }
        }
        // Row moves: into another slab.
        for r in 0..self.rows.len() {
            let l = self.rows[r];
            let a = ((s >> l.shift) & 15) as u32;
            let m = ((colocc >> l.cells) & self.full) as usize;
            let mut nb = self.tab_nbr[l.nbr + 16 * m + a as usize] & MOVES;
            while nb != 0 {
                let b = nb.trailing_zeros();
                nb &= nb - 1;
                let rr = rr.wrapping_add(b.wrapping_sub(a).wrapping_mul(l.stride));
                let t = s.wrapping_sub((a as u64) << l.shift) | (b as u64) << l.shift;
                self.slab(rr, t);
                let i = self.slot(rr, &at[..nc]);
                self.visit(t, rr, i, &mut root);
            }
        }
    }

    /// Position `t` (rows' rank `rr`, slot `i`) met from a position of
    /// root label `root`.
    #[inline(always)]
    fn visit(&mut self, t: u64, rr: u32, i: u32, root: &mut u32) {
        let l = self.lab[i as usize];
        if l == UNSEEN {
            self.lab[i as usize] = *root;
            self.queue.push(Queued {
                state: t,
                rr,
                slot: i,
                label: *root,
            });
        } else if l != *root {
            *root = self.clusters.unite(*root, l);
            // Its label's root, so that the next look at it is one
            // comparison (labels only tell clusters apart: any label of the
            // same union will do; the queue keeps the one it was met with).
            self.lab[i as usize] = *root;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::setwalk::{agree_on_small_units, agree_walks};
    use super::*;

    /// [`SetBfs`] and the dense walk on every `step`-th set owned by `unit`
    /// of side `n`: the same result, set by set. Returns the positions.
    fn agree(n: usize, walls: usize, unit: usize, step: usize) -> u64 {
        agree_slabs(n, walls, unit, step, None)
    }

    /// [`agree`], the slabs made by the rows (`Some(true)`), the columns
    /// (`Some(false)`) or the axis with fewer combinations (`None`).
    fn agree_slabs(n: usize, walls: usize, unit: usize, step: usize, outer: Option<bool>) -> u64 {
        let (mut dense, mut bfs) = (DenseWalk::new(), SetBfs::new());
        dense.force_outer = outer;
        agree_walks(
            n,
            walls,
            unit,
            step,
            |l, o| bfs.walk(l, o),
            |l, o| dense.walk(l, o),
        )
    }

    #[test]
    fn agrees_with_the_one_search_walk_set_by_set() {
        agree_on_small_units(agree);
    }

    #[test]
    fn slabs_of_either_axis_agree() {
        for outer in [Some(true), Some(false)] {
            let mut positions = agree_slabs(4, 2, 5, 1, outer);
            positions += agree_slabs(5, 1, 33, 1, outer);
            positions += agree_slabs(6, 0, 300, 997, outer);
            assert!(positions > 10_000, "{positions}");
        }
    }

    #[test]
    fn agrees_on_six_by_six_sets() {
        let positions = agree(6, 0, 300, 997);
        assert!(positions > 10_000, "{positions}");
    }

    #[test]
    fn line_tables_number_arrangements_as_the_layout() {
        // Two pieces of length 2 on 6 cells: offsets (0,2), (0,3), (0,4),
        // (1,3), (1,4), (2,4), in that order.
        let mut out = Vec::new();
        line_arrangements(6, &[2, 2], 0, &mut out);
        assert_eq!(
            out,
            vec![0b1111, 0b11011, 0b110011, 0b11110, 0b110110, 0b111100]
        );
        let mut w = DenseWalk::new();
        let t = w.table(6, &[2], 0);
        assert_eq!(t.count, 5);
        // Piece at 0, obstacle at cell 3: it reaches offset 1 only.
        assert_eq!(w.tab_nbr[t.nbr + 16 * 0b1000] & MOVES, 0b10);
        // Its rank among the compatible ones (offsets 0, 1, 4): 1 at 1,
        // 2 at 4.
        assert_eq!(w.tab_nbr[t.nbr + 16 * 0b1000 + 1] >> RANK_SHIFT, 1);
        assert_eq!(w.tab_nbr[t.nbr + 16 * 0b1000 + 4] >> RANK_SHIFT, 2);
        assert_eq!(w.tab_compat[t.compat + 0b1000], 0b10011);
    }
}
