//! The Flood-It board: cells, colours, start cell, and the rules of a move.

/// What is wrong with the numbers given to [`Board::try_new`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Width or height outside 1..=64.
    #[error("board is {width}x{height}; width and height must be 1 to 64")]
    Size {
        /// Width.
        width: usize,
        /// Height.
        height: usize,
    },
    /// Colour count outside 1..=16.
    #[error("{0} colours; 1 to 16 are supported")]
    Colours(usize),
    /// Cell vector of the wrong length.
    #[error("expected {expected} cells, got {got}")]
    CellCount {
        /// What was expected.
        expected: usize,
        /// What was found.
        got: usize,
    },
    /// A cell colour not below the colour count.
    #[error(
        "cell at row {row}, column {col} has colour {colour}, but the board has {colours} colours"
    )]
    CellColour {
        /// Row (0-based).
        row: usize,
        /// Column (0-based).
        col: usize,
        /// The colour (RGB).
        colour: u8,
        /// How many colours the board has.
        colours: u8,
    },
    /// Start cell outside the board.
    #[error("start cell ({row},{col}) is outside the {width}x{height} board")]
    Start {
        /// Row (0-based).
        row: usize,
        /// Column (0-based).
        col: usize,
        /// Width.
        width: usize,
        /// Height.
        height: usize,
    },
}

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
    ///
    /// Panics on inconsistent input; use [`Board::try_new`] for user input.
    pub fn new(width: usize, height: usize, colours: u8, cells: Vec<u8>) -> Self {
        assert_eq!(
            cells.len(),
            width * height,
            "cell count must be width * height"
        );
        assert!(
            cells.iter().all(|&c| c < colours),
            "cell colour out of range"
        );
        Board {
            width,
            height,
            colours,
            cells,
            start: (0, 0),
        }
    }

    /// Like [`Board::new`] but checks sizes (1 to 64 a side, 1 to 16
    /// colours, one cell per position, colours in range) and reports what
    /// is wrong instead of panicking.
    pub fn try_new(
        width: usize,
        height: usize,
        colours: u8,
        cells: Vec<u8>,
    ) -> Result<Self, BoardError> {
        if width == 0 || height == 0 || width > Self::MAX_SIDE || height > Self::MAX_SIDE {
            return Err(BoardError::Size { width, height });
        }
        if colours == 0 || colours > Self::MAX_COLOURS {
            return Err(BoardError::Colours(colours as usize));
        }
        if cells.len() != width * height {
            return Err(BoardError::CellCount {
                expected: width * height,
                got: cells.len(),
            });
        }
        if let Some(i) = cells.iter().position(|&c| c >= colours) {
            return Err(BoardError::CellColour {
                row: i / width,
                col: i % width,
                colour: cells[i],
                colours,
            });
        }
        Ok(Board {
            width,
            height,
            colours,
            cells,
            start: (0, 0),
        })
    }

    /// Like [`Board::with_start`] but reports a start cell outside the board.
    pub fn try_with_start(self, row: usize, col: usize) -> Result<Self, BoardError> {
        if row >= self.height || col >= self.width {
            return Err(BoardError::Start {
                row,
                col,
                width: self.width,
                height: self.height,
            });
        }
        Ok(self.with_start(row, col))
    }

    /// The number of distinct colours present on the board.
    pub fn colours_present(&self) -> usize {
        let mut seen = 0u32;
        for &c in &self.cells {
            seen |= 1 << c;
        }
        seen.count_ones() as usize
    }

    /// Plays `moves` in order on a copy and tells whether the board is won
    /// at the end.
    pub fn wins_with(&self, moves: &[u8]) -> bool {
        let mut b = self.clone();
        for &m in moves {
            b.play(m);
        }
        b.is_won()
    }

    /// The same board with a palette of at least `colours` colours (a game
    /// may have colours that no cell shows any more).
    pub fn with_palette_size(mut self, colours: u8) -> Self {
        self.colours = self.colours.max(colours);
        self
    }

    /// The same board flooding from `(row, col)`.
    pub fn with_start(mut self, row: usize, col: usize) -> Self {
        assert!(
            row < self.height && col < self.width,
            "start cell outside the board"
        );
        self.start = (row, col);
        self
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }
    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }
    /// Number of colours in the palette (not all need to appear).
    pub fn colours(&self) -> u8 {
        self.colours
    }
    /// Cells row by row.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }
    /// The start cell as `(row, col)`.
    pub fn start(&self) -> (usize, usize) {
        self.start
    }
    /// The colour at `(row, col)`.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.width + col]
    }

    /// Plays `colour`: the region connected to the start cell takes it.
    pub fn play(&mut self, colour: u8) {
        let region = self.flooded_region();
        for (cell, flooded) in self.cells.iter_mut().zip(region) {
            if flooded {
                *cell = colour;
            }
        }
    }

    /// The cells next to `cell` (row-major index) by a side: two to four.
    pub fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> {
        let w = self.width;
        let (r, c) = (cell / w, cell % w);
        [
            (c > 0).then(|| cell - 1),
            (c + 1 < w).then(|| cell + 1),
            (r > 0).then(|| cell - w),
            (r + 1 < self.height).then(|| cell + w),
        ]
        .into_iter()
        .flatten()
    }

    /// The cells of the region connected to the start cell (its colour, by
    /// sides), as a row-major mask: what the next move recolours.
    pub fn flooded_region(&self) -> Vec<bool> {
        let start = self.start.0 * self.width + self.start.1;
        let colour = self.cells[start];
        let mut mask = vec![false; self.cells.len()];
        let mut stack = vec![start];
        mask[start] = true;
        while let Some(i) = stack.pop() {
            for j in self.neighbours(i) {
                if !mask[j] && self.cells[j] == colour {
                    mask[j] = true;
                    stack.push(j);
                }
            }
        }
        mask
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
    fn try_new_rejects_bad_input() {
        assert!(matches!(
            Board::try_new(0, 1, 2, vec![]),
            Err(BoardError::Size { .. })
        ));
        assert!(matches!(
            Board::try_new(65, 1, 2, vec![0; 65]),
            Err(BoardError::Size { .. })
        ));
        assert!(matches!(
            Board::try_new(1, 1, 17, vec![0]),
            Err(BoardError::Colours(17))
        ));
        assert!(matches!(
            Board::try_new(2, 1, 2, vec![0]),
            Err(BoardError::CellCount { .. })
        ));
        assert!(matches!(
            Board::try_new(2, 1, 2, vec![0, 2]),
            Err(BoardError::CellColour { row: 0, col: 1, .. })
        ));
        let b = Board::try_new(2, 1, 2, vec![0, 1]).unwrap();
        assert!(b.clone().try_with_start(1, 0).is_err());
        assert!(b.wins_with(&[1]));
        assert_eq!(b.colours_present(), 2);
    }

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
