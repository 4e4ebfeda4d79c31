//! Admissible lower bounds that need no table: Manhattan distance and
//! linear conflicts.
//!
//! - Manhattan distance: every tile needs at least as many moves as its
//!   row and column distance from home, and a move moves one tile one step.
//! - Linear conflict (Hansson, Mayer and Yung 1992), in its exact per-line
//!   form: among the tiles that sit in their goal row (or column), those
//!   that are not part of a longest run already in goal order must leave
//!   the line and come back, two moves each beyond their Manhattan
//!   distance. A tile counts in its row and in its column independently:
//!   the row conflict costs vertical moves, the column conflict horizontal
//!   ones, which Manhattan distance never counts.

/// The geometry of a board for the bounds: width, height, and each tile's
/// goal row and column.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Goal row of tile t (index t; the gap, 0, is never counted).
    pub goal_row: Vec<u8>,
    /// Goal column of tile t.
    pub goal_col: Vec<u8>,
}

impl Geometry {
    /// The geometry of a `width` x `height` board with the gap home at the
    /// bottom right.
    pub fn new(width: usize, height: usize) -> Geometry {
        let n = width * height;
        let mut goal_row = vec![0u8; n];
        let mut goal_col = vec![0u8; n];
        for t in 1..n {
            goal_row[t] = ((t - 1) / width) as u8;
            goal_col[t] = ((t - 1) % width) as u8;
        }
        Geometry {
            width,
            height,
            goal_row,
            goal_col,
        }
    }

    /// The geometry whose goal is the position `target` (cells in row
    /// order, 0 the gap) instead of the solved board.
    pub fn towards(width: usize, height: usize, target: &[u8]) -> Geometry {
        let n = width * height;
        let mut goal_row = vec![0u8; n];
        let mut goal_col = vec![0u8; n];
        for (cell, &t) in target.iter().enumerate() {
            goal_row[t as usize] = (cell / width) as u8;
            goal_col[t as usize] = (cell % width) as u8;
        }
        Geometry {
            width,
            height,
            goal_row,
            goal_col,
        }
    }

    /// Manhattan distance of tile `t` standing on `cell`.
    #[inline]
    pub fn distance(&self, t: u8, cell: usize) -> u32 {
        if t == 0 {
            return 0;
        }
        let (r, c) = (cell / self.width, cell % self.width);
        (r as i32 - self.goal_row[t as usize] as i32).unsigned_abs()
            + (c as i32 - self.goal_col[t as usize] as i32).unsigned_abs()
    }

    /// Sum of the Manhattan distances of all tiles of `cells`.
    pub fn manhattan(&self, cells: &[u8]) -> u32 {
        cells
            .iter()
            .enumerate()
            .map(|(i, &t)| self.distance(t, i))
            .sum()
    }

    /// Extra moves from the conflicts in row `r` (2 per tile to remove).
    pub fn row_conflict(&self, cells: &[u8], r: usize) -> u32 {
        let mut keys = [0u8; 16];
        let mut k = 0;
        for c in 0..self.width {
            let t = cells[r * self.width + c];
            if t != 0 && self.goal_row[t as usize] as usize == r {
                keys[k] = self.goal_col[t as usize];
                k += 1;
            }
        }
        2 * (k - lis(&keys[..k])) as u32
    }

    /// Extra moves from the conflicts in column `c`.
    pub fn col_conflict(&self, cells: &[u8], c: usize) -> u32 {
        let mut keys = [0u8; 16];
        let mut k = 0;
        for r in 0..self.height {
            let t = cells[r * self.width + c];
            if t != 0 && self.goal_col[t as usize] as usize == c {
                keys[k] = self.goal_row[t as usize];
                k += 1;
            }
        }
        2 * (k - lis(&keys[..k])) as u32
    }

    /// Manhattan distance plus all row and column conflicts.
    pub fn manhattan_lc(&self, cells: &[u8]) -> u32 {
        let mut h = self.manhattan(cells);
        for r in 0..self.height {
            h += self.row_conflict(cells, r);
        }
        for c in 0..self.width {
            h += self.col_conflict(cells, c);
        }
        h
    }
}

/// Length of the longest strictly increasing subsequence (at most 16 keys).
fn lis(keys: &[u8]) -> usize {
    // Patience sorting with a tiny array of pile tops.
    let mut tops = [0u8; 16];
    let mut len = 0;
    for &k in keys {
        let i = tops[..len].partition_point(|&t| t < k);
        tops[i] = k;
        if i == len {
            len += 1;
        }
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lis_lengths() {
        assert_eq!(lis(&[]), 0);
        assert_eq!(lis(&[3, 2, 1, 0]), 1);
        assert_eq!(lis(&[0, 2, 1, 3]), 3);
    }

    #[test]
    fn bounds_on_small_cases() {
        let g = Geometry::new(4, 4);
        let goal: Vec<u8> = (1..16).chain([0]).collect();
        assert_eq!(g.manhattan_lc(&goal), 0);
        // 2 and 1 swapped in the top row: Manhattan 2, one conflict, +2.
        let mut b = goal.clone();
        b.swap(0, 1);
        assert_eq!(g.manhattan(&b), 2);
        assert_eq!(g.manhattan_lc(&b), 4);
        // 3 2 1 in a row: two tiles must leave.
        let g3 = Geometry::new(3, 3);
        let b = [3, 2, 1, 4, 5, 6, 7, 8, 0];
        assert_eq!(g3.manhattan(&b), 4);
        assert_eq!(g3.manhattan_lc(&b), 8);
    }
}
