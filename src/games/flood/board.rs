//! The Flood-It board: cells, colours, start cell, and the rules of a move.

/// A Flood-It board. Colours are `0..colours`; cells are stored row by row.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    width: usize,
    height: usize,
    colours: u8,
    cells: Vec<u8>,
    start: (usize, usize),
}

impl Board {
    /// Largest supported width or height.
    pub const MAX_SIDE: usize = 64;
    /// Largest supported number of colours.
    pub const MAX_COLOURS: u8 = 16;

    /// Builds a board flooding from the top-left cell. `cells` holds
    /// `width * height` colour indices, each below `colours`.
    pub fn new(width: usize, height: usize, colours: u8, cells: Vec<u8>) -> Self {
        assert_eq!(cells.len(), width * height, "cell count must be width * height");
        assert!(cells.iter().all(|&c| c < colours), "cell colour out of range");
        Board { width, height, colours, cells, start: (0, 0) }
    }

    /// The same board flooding from `(row, col)`.
    pub fn with_start(mut self, row: usize, col: usize) -> Self {
        assert!(row < self.height && col < self.width, "start cell outside the board");
        self.start = (row, col);
        self
    }

    /// Number of columns.
    pub fn width(&self) -> usize { self.width }
    /// Number of rows.
    pub fn height(&self) -> usize { self.height }
    /// Number of colours in the palette (not all need to appear).
    pub fn colours(&self) -> u8 { self.colours }
    /// Cells row by row.
    pub fn cells(&self) -> &[u8] { &self.cells }
    /// The start cell as `(row, col)`.
    pub fn start(&self) -> (usize, usize) { self.start }
    /// The colour at `(row, col)`.
    pub fn get(&self, row: usize, col: usize) -> u8 { self.cells[row * self.width + col] }

    /// Plays `colour`: the region connected to the start cell takes it.
    pub fn play(&mut self, colour: u8) {
        let (w, h) = (self.width, self.height);
        let s = self.start.0 * w + self.start.1;
        let old = self.cells[s];
        if old == colour {
            return;
        }
        let mut stack = vec![s];
        self.cells[s] = colour;
        while let Some(i) = stack.pop() {
            let (r, c) = (i / w, i % w);
            let mut visit = |j: usize, cells: &mut Vec<u8>| {
                if cells[j] == old {
                    cells[j] = colour;
                    stack.push(j);
                }
            };
            if c > 0 { visit(i - 1, &mut self.cells); }
            if c + 1 < w { visit(i + 1, &mut self.cells); }
            if r > 0 { visit(i - w, &mut self.cells); }
            if r + 1 < h { visit(i + w, &mut self.cells); }
        }
    }

    /// True when every cell has one colour.
    pub fn is_won(&self) -> bool {
        self.cells.iter().all(|&c| c == self.cells[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_floods_connected_region_only() {
        let mut b = Board::new(3, 2, 3, vec![0, 0, 1, 2, 0, 1]);
        b.play(1);
        assert_eq!(b.cells(), &[1, 1, 1, 2, 1, 1]);
        assert!(!b.is_won());
        b.play(2);
        assert!(b.is_won());
    }
}
