//! The sliding puzzle on a board of at most 16 cells as a search problem
//! bounded by pattern databases, with a node of 24 bytes: the tile on each
//! cell and the cell of each tile packed 4 bits each in two `u64`s, the
//! excess of each table (direct and mirrored), the Manhattan distance and
//! the bound. [`Problem::apply`] moves one tile and updates the bound
//! incrementally: the Manhattan distance by the moved tile's step, one
//! lookup in the moved tile's table, and on square boards one lookup in the
//! table of the moved tile's mirror image. Nothing is allocated per node.

use super::pdb::PatternDb;
use super::rules::{Board, Dir};
use crate::solver::Problem;

/// The most tables a database may have for this problem.
pub const MAX_PARTS: usize = 4;
const NONE: u8 = u8::MAX;

/// A position during search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packed {
    /// Tile on cell c in bits `4c..4c+4` (0: the gap).
    cells: u64,
    /// Cell of tile t in bits `4t..4t+4` (t = 0: the gap).
    pos: u64,
    /// Excess of each table, direct and mirrored.
    ex: [u8; MAX_PARTS],
    mx: [u8; MAX_PARTS],
    /// Sums of `ex` and `mx`.
    sum_ex: u8,
    sum_mx: u8,
    /// Manhattan distance.
    md: u8,
    /// The bound: `md + 2 * max(sum_ex, sum_mx)`.
    h: u8,
}

impl Packed {
    /// The tile on `cell`.
    #[inline]
    pub fn tile(&self, cell: usize) -> u8 {
        ((self.cells >> (4 * cell)) & 15) as u8
    }

    /// The gap's cell.
    #[inline]
    pub fn gap(&self) -> usize {
        (self.pos & 15) as usize
    }
}

/// One board size's static facts and the databases.
#[derive(Debug, Clone)]
pub struct PdbSlide<'a> {
    db: &'a PatternDb,
    n: usize,
    /// The cell the gap reaches from each cell in each [`Dir`] (or NONE).
    nbr: [[u8; 4]; 16],
}

impl<'a> PdbSlide<'a> {
    /// The problem for boards of the database's size.
    ///
    /// # Panics
    /// When the database has more than [`MAX_PARTS`] tables.
    pub fn new(db: &'a PatternDb) -> PdbSlide<'a> {
        assert!(db.parts() <= MAX_PARTS, "at most {MAX_PARTS} tables");
        let (w, h) = (db.grid().width(), db.grid().height());
        let mut nbr = [[NONE; 4]; 16];
        for (c, slot) in nbr.iter_mut().enumerate().take(w * h) {
            let (r, col) = ((c / w) as isize, (c % w) as isize);
            for (k, d) in Dir::ALL.iter().enumerate() {
                let (dr, dc) = d.delta();
                let (nr, nc) = (r + dr, col + dc);
                if nr >= 0 && nc >= 0 && nr < h as isize && nc < w as isize {
                    slot[k] = (nr as usize * w + nc as usize) as u8;
                }
            }
        }
        PdbSlide { db, n: w * h, nbr }
    }

    /// True when `board` has the database's size.
    pub fn fits(db: &PatternDb, board: &Board) -> bool {
        board.width() == db.grid().width() && board.height() == db.grid().height()
    }

    /// The node of a board (of the database's size).
    pub fn node(&self, board: &Board) -> Packed {
        assert_eq!(board.cells().len(), self.n, "board of the database's size");
        let mut node = Packed {
            cells: 0,
            pos: 0,
            ex: [0; MAX_PARTS],
            mx: [0; MAX_PARTS],
            sum_ex: 0,
            sum_mx: 0,
            md: 0,
            h: 0,
        };
        let grid = self.db.grid();
        let mut md = 0;
        for (c, &t) in board.cells().iter().enumerate() {
            node.cells |= (t as u64) << (4 * c);
            node.pos |= (c as u64) << (4 * t);
            md += grid.distance(t, c as u8);
        }
        node.md = md as u8;
        for i in 0..self.db.parts() {
            node.ex[i] = self.db.excess_packed(i, node.pos);
            node.sum_ex += node.ex[i];
            if self.db.mirrored() {
                node.mx[i] = self.db.excess_mirrored_packed(i, node.pos);
                node.sum_mx += node.mx[i];
            }
        }
        node.h = node.md + 2 * node.sum_ex.max(node.sum_mx);
        node
    }
}

impl Problem for PdbSlide<'_> {
    type State = Packed;
    type Move = Dir;

    #[inline]
    fn moves(&self, node: &Packed, out: &mut Vec<Dir>) {
        let nb = &self.nbr[node.gap()];
        for (k, d) in Dir::ALL.iter().enumerate() {
            if nb[k] != NONE {
                out.push(*d);
            }
        }
    }

    #[inline]
    fn apply(&self, node: &Packed, d: Dir) -> Packed {
        let gap = node.gap();
        let from = self.nbr[gap][d as usize] as usize;
        let t = node.tile(from);
        let mut s = *node;
        // The tile goes from `from` to the gap's cell; the gap to `from`.
        s.cells = (node.cells & !(15u64 << (4 * from))) | ((t as u64) << (4 * gap));
        s.pos = (node.pos & !(15u64 << (4 * t)) & !15) | ((gap as u64) << (4 * t)) | from as u64;
        let grid = self.db.grid();
        s.md = (node.md as u32 + grid.distance(t, gap as u8) - grid.distance(t, from as u8)) as u8;
        let i = self.db.part_of(t);
        if i < MAX_PARTS {
            let e = self.db.excess_packed(i, s.pos);
            s.sum_ex = s.sum_ex - s.ex[i] + e;
            s.ex[i] = e;
        }
        if self.db.mirrored() {
            let j = self.db.mirror_part_of(t);
            if j < MAX_PARTS {
                let e = self.db.excess_mirrored_packed(j, s.pos);
                s.sum_mx = s.sum_mx - s.mx[j] + e;
                s.mx[j] = e;
            }
        }
        s.h = s.md + 2 * s.sum_ex.max(s.sum_mx);
        s
    }

    #[inline]
    fn is_goal(&self, node: &Packed) -> bool {
        node.md == 0
    }

    #[inline]
    fn lower_bound(&self, node: &Packed) -> u32 {
        node.h as u32
    }

    #[inline]
    fn prune_after(&self, prev: Dir, mv: Dir) -> bool {
        mv == prev.opposite()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fifteen::parse::parse_sgt_id;
    use crate::games::fifteen::pdb::Partition;
    use crate::games::fifteen::problem::random_walk;

    #[test]
    fn incremental_bounds_match_fresh_ones() {
        let b = parse_sgt_id("4x4:13,6,8,12,15,14,0,10,11,7,4,5,9,1,3,2").unwrap();
        let db = PatternDb::build(Partition::P555);
        let p = PdbSlide::new(&db);
        let mut board = b.clone();
        assert_eq!(p.lower_bound(&p.node(&b)), db.bound(&board));
        random_walk(&p, p.node(&b), 300, |node, d| {
            board.play(d);
            assert_eq!(*node, p.node(&board));
            assert_eq!(p.lower_bound(node), db.bound(&board));
        });
        assert!(p.is_goal(&p.node(&Board::goal(4, 4))));
        assert_eq!(p.lower_bound(&p.node(&Board::goal(4, 4))), 0);
    }
}
