//! The sliding-tile puzzle as a [`crate::solver::Problem`]: a compact node
//! (cells, each tile's cell, the gap) that carries its own lower bound,
//! updated one tile at a time in [`Problem::apply`] so the engines read it
//! for free.
//!
//! Bounds ([`BoundKind`]): Manhattan distance or Manhattan plus linear
//! conflicts, any size (boards with pattern databases use the compact
//! problem of [`super::packed`]). A node's goal may also be a SUBGOAL: only the tiles
//! of a given set must be home ([`Slide::with_targets`]), which the
//! anytime solver for large boards uses to place tiles a few at a time.

use super::bounds::Geometry;
use super::rules::{Board, Dir};
use crate::solver::{Keyed, Problem};

/// Largest board (in cells) the solver takes.
pub const MAX_CELLS: usize = 64;
const NONE: u8 = u8::MAX;

/// Which lower bound the nodes carry.
#[derive(Debug, Clone, Copy)]
pub enum BoundKind {
    /// Manhattan distance.
    Manhattan,
    /// Manhattan distance plus linear conflicts.
    LinearConflict,
}

/// A position during search.
#[derive(Clone, Debug)]
pub struct Node {
    cells: [u8; MAX_CELLS],
    pos: [u8; MAX_CELLS],
    gap: u8,
    /// Manhattan distance of the target tiles.
    md: u16,
    /// Linear-conflict extra per row then per column (LinearConflict only).
    lc: [u8; 32],
    h: u16,
}

impl Node {
    /// The cells in row order (first `width*height` entries).
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The gap's cell.
    pub fn gap(&self) -> usize {
        self.gap as usize
    }
}

/// One board's static facts: geometry, neighbours, the bound, the target
/// tiles.
#[derive(Debug, Clone)]
pub struct Slide {
    geo: Geometry,
    n: usize,
    nbr: Vec<[u8; 4]>,
    bound: BoundKind,
    /// `target[t]`: tile t must be home for the goal.
    target: Vec<bool>,
}

impl Slide {
    /// The problem of solving a `width` x `height` board with `bound`.
    pub fn new(width: usize, height: usize, bound: BoundKind) -> Slide {
        let n = width * height;
        assert!(n <= MAX_CELLS, "at most {MAX_CELLS} cells");
        let nbr = (0..n)
            .map(|c| {
                let (r, col) = ((c / width) as isize, (c % width) as isize);
                let mut a = [NONE; 4];
                for (k, d) in Dir::ALL.iter().enumerate() {
                    let (dr, dc) = d.delta();
                    let (nr, nc) = (r + dr, col + dc);
                    if nr >= 0 && nc >= 0 && nr < height as isize && nc < width as isize {
                        a[k] = (nr as usize * width + nc as usize) as u8;
                    }
                }
                a
            })
            .collect();
        Slide {
            geo: Geometry::new(width, height),
            n,
            nbr,
            bound,
            target: (0..n).map(|t| t != 0).collect(),
        }
    }

    /// The same problem whose goal is only that the tiles in `tiles` are
    /// home (the bound then counts only those tiles: Manhattan distance,
    /// plus linear conflicts among them).
    pub fn with_targets(mut self, tiles: &[u8]) -> Slide {
        self.target = vec![false; self.n];
        for &t in tiles {
            self.target[t as usize] = true;
        }
        self
    }

    /// The problem of reaching the position `target` (same size) instead
    /// of the solved board, with Manhattan distance plus linear conflicts
    /// measured towards it.
    pub fn towards(target: &Board) -> Slide {
        let mut p = Slide::new(target.width(), target.height(), BoundKind::LinearConflict);
        p.geo = Geometry::towards(target.width(), target.height(), target.cells());
        p
    }

    /// Geometry of the board.
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// The search node of a board.
    pub fn node(&self, board: &Board) -> Node {
        assert_eq!(board.cells().len(), self.n);
        let mut node = Node {
            cells: [0; MAX_CELLS],
            pos: [0; MAX_CELLS],
            gap: board.gap() as u8,
            md: 0,
            lc: [0; 32],
            h: 0,
        };
        for (i, &t) in board.cells().iter().enumerate() {
            node.cells[i] = t;
            node.pos[t as usize] = i as u8;
        }
        node.md = (0..self.n)
            .filter(|&i| self.target[node.cells[i] as usize])
            .map(|i| self.geo.distance(node.cells[i], i))
            .sum::<u32>() as u16;
        match self.bound {
            BoundKind::Manhattan => {}
            BoundKind::LinearConflict => {
                for r in 0..self.geo.height {
                    node.lc[r] = self.line_conflict(&node.cells, true, r) as u8;
                }
                for c in 0..self.geo.width {
                    node.lc[16 + c] = self.line_conflict(&node.cells, false, c) as u8;
                }
            }
        }
        node.h = self.total(&node) as u16;
        node
    }

    /// The board of a node.
    pub fn board(&self, node: &Node) -> Board {
        let nums: Vec<usize> = node.cells[..self.n].iter().map(|&c| c as usize).collect();
        Board::try_new(self.geo.width, self.geo.height, &nums).expect("a node is a board")
    }

    fn line_conflict(&self, cells: &[u8], row: bool, i: usize) -> u32 {
        if self.target.iter().skip(1).all(|&t| t) {
            if row {
                self.geo.row_conflict(cells, i)
            } else {
                self.geo.col_conflict(cells, i)
            }
        } else {
            // Only target tiles count: blank out the others.
            let mut masked = [0u8; MAX_CELLS];
            for (k, &t) in cells[..self.n].iter().enumerate() {
                masked[k] = if self.target[t as usize] { t } else { 0 };
            }
            if row {
                self.geo.row_conflict(&masked[..self.n], i)
            } else {
                self.geo.col_conflict(&masked[..self.n], i)
            }
        }
    }

    fn total(&self, node: &Node) -> u32 {
        let md = node.md as u32;
        match self.bound {
            BoundKind::Manhattan => md,
            BoundKind::LinearConflict => md + node.lc.iter().map(|&x| x as u32).sum::<u32>(),
        }
    }

    /// The cell the gap moves to with `d` from `node`, if any.
    #[inline]
    pub fn target_cell(&self, node: &Node, d: Dir) -> Option<usize> {
        let c = self.nbr[node.gap as usize][d as usize];
        (c != NONE).then_some(c as usize)
    }
}

impl Problem for Slide {
    type State = Node;
    type Move = Dir;

    fn moves(&self, node: &Node, out: &mut Vec<Dir>) {
        let nb = &self.nbr[node.gap as usize];
        for (k, d) in Dir::ALL.iter().enumerate() {
            if nb[k] != NONE {
                out.push(*d);
            }
        }
    }

    fn apply(&self, node: &Node, d: Dir) -> Node {
        let mut s = node.clone();
        let from = self.nbr[node.gap as usize][d as usize] as usize;
        let to = node.gap as usize;
        let t = node.cells[from];
        s.cells[to] = t;
        s.cells[from] = 0;
        s.pos[t as usize] = to as u8;
        s.pos[0] = from as u8;
        s.gap = from as u8;
        if self.target[t as usize] {
            s.md = (s.md as u32 + self.geo.distance(t, to) - self.geo.distance(t, from)) as u16;
            match self.bound {
                BoundKind::Manhattan => {}
                BoundKind::LinearConflict => {
                    let w = self.geo.width;
                    if matches!(d, Dir::Left | Dir::Right) {
                        // The tile changed column.
                        let (c1, c2) = (from % w, to % w);
                        s.lc[16 + c1] = self.line_conflict(&s.cells, false, c1) as u8;
                        s.lc[16 + c2] = self.line_conflict(&s.cells, false, c2) as u8;
                    } else {
                        let (r1, r2) = (from / w, to / w);
                        s.lc[r1] = self.line_conflict(&s.cells, true, r1) as u8;
                        s.lc[r2] = self.line_conflict(&s.cells, true, r2) as u8;
                    }
                }
            }
        }
        s.h = self.total(&s) as u16;
        s
    }

    fn is_goal(&self, node: &Node) -> bool {
        // Every target tile home (for the full goal, the gap is then home too).
        node.md == 0
    }

    fn lower_bound(&self, node: &Node) -> u32 {
        node.h as u32
    }

    fn prune_after(&self, prev: Dir, mv: Dir) -> bool {
        mv == prev.opposite()
    }
}

impl Keyed for Slide {
    type Key = [u8; MAX_CELLS];

    fn key(&self, node: &Node) -> [u8; MAX_CELLS] {
        node.cells
    }
}

/// Plays `steps` pseudo-random moves of `p` from `node` (a fixed linear
/// congruential sequence, so every run walks the same way), calling
/// `step(node, move)` with each node reached and the move that led there.
#[cfg(test)]
pub(super) fn random_walk<P: Problem>(
    p: &P,
    mut node: P::State,
    steps: usize,
    mut step: impl FnMut(&P::State, P::Move),
) {
    let mut rng = 12345u64;
    let mut moves = Vec::new();
    for _ in 0..steps {
        moves.clear();
        p.moves(&node, &mut moves);
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let d = moves[(rng >> 33) as usize % moves.len()];
        node = p.apply(&node, d);
        step(&node, d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fifteen::parse::parse_sgt_id;

    #[test]
    fn incremental_bounds_match_fresh_ones() {
        let b = parse_sgt_id("4x4:13,6,8,12,15,14,0,10,11,7,4,5,9,1,3,2").unwrap();
        for kind in [BoundKind::Manhattan, BoundKind::LinearConflict] {
            let p = Slide::new(4, 4, kind);
            random_walk(&p, p.node(&b), 200, |node, _| {
                let fresh = p.node(&p.board(node));
                assert_eq!(node.h, fresh.h, "{kind:?}");
                assert_eq!(node.md, fresh.md);
            });
        }
    }

    #[test]
    fn goal_has_bound_zero() {
        let p = Slide::new(3, 3, BoundKind::LinearConflict);
        let n = p.node(&Board::goal(3, 3));
        assert!(p.is_goal(&n));
        assert_eq!(p.lower_bound(&n), 0);
        let q = Slide::new(3, 3, BoundKind::Manhattan).with_targets(&[1, 2, 3]);
        let mut b = Board::goal(3, 3);
        b.play(Dir::Up);
        assert!(q.is_goal(&q.node(&b)));
        assert!(!p.is_goal(&p.node(&b)));
    }
}
