//! The sliding-tile board: cells, the gap, legal moves, the goal and the
//! parity test that decides whether a position can be solved at all.
//!
//! Goal as `sgt-fifteen` draws it: tiles `1..n-1` in row order, the gap
//! (stored as 0) in the bottom-right cell. A move slides one tile into the
//! gap; we name it by the direction the GAP moves ([`Dir`]), so the tile
//! moves the opposite way.

use std::fmt;

/// A direction the gap moves in (the tile it swaps with moves the other way).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Dir {
    /// The gap moves up: the tile above it slides down.
    Up,
    /// The gap moves down: the tile below it slides up.
    Down,
    /// The gap moves left: the tile on its left slides right.
    Left,
    /// The gap moves right: the tile on its right slides left.
    Right,
}

impl Dir {
    /// All four, in a fixed order.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The move that undoes this one.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    /// One letter: `U`, `D`, `L`, `R` (the gap's direction).
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    /// Parses `U`/`D`/`L`/`R` (either case).
    pub fn from_letter(c: char) -> Option<Dir> {
        match c.to_ascii_uppercase() {
            'U' => Some(Dir::Up),
            'D' => Some(Dir::Down),
            'L' => Some(Dir::Left),
            'R' => Some(Dir::Right),
            _ => None,
        }
    }

    /// (row, column) step of the gap.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Dir::Up => (-1, 0),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
            Dir::Right => (0, 1),
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// What is wrong with the numbers given to [`Board::try_new`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Width or height outside the supported range.
    #[error("board is {width}x{height}; width and height must be 2 to {max}", max = Board::MAX_SIDE)]
    Size {
        /// Columns given.
        width: usize,
        /// Rows given.
        height: usize,
    },
    /// The number of cells does not match the size.
    #[error("a {width}x{height} board has {expected} cells, but {got} numbers were given")]
    CellCount {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
        /// `width * height`.
        expected: usize,
        /// Numbers given.
        got: usize,
    },
    /// A number outside `0..width*height`.
    #[error("number {value} at position {index} is out of range: a {cells}-cell board holds 0 (the gap) to {max}", max = cells - 1)]
    OutOfRange {
        /// The number.
        value: usize,
        /// 1-based position in the list.
        index: usize,
        /// Cells on the board.
        cells: usize,
    },
    /// A number given twice.
    #[error("number {value} appears twice, at positions {first} and {second}")]
    Repeated {
        /// The number.
        value: usize,
        /// 1-based position of its first occurrence.
        first: usize,
        /// 1-based position of the repeat.
        second: usize,
    },
    /// A number in `0..n` that does not appear.
    #[error("number {value} is missing (every number from 0, the gap, to {max} must appear once)")]
    Missing {
        /// The first number missing.
        value: usize,
        /// The largest number the board holds.
        max: usize,
    },
}

/// Why a position cannot reach the goal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unsolvable: the tiles form an {perm} permutation of the goal but the gap is {dist} steps ({gap_parity}) from its goal cell; every move changes both parities together, so this position can never be solved")]
pub struct Unsolvable {
    /// "odd" or "even": the parity of the permutation (gap included) that
    /// takes the goal to this position.
    pub perm: &'static str,
    /// Manhattan distance of the gap from the bottom-right cell.
    pub dist: usize,
    /// "odd" or "even" of `dist`.
    pub gap_parity: &'static str,
}

/// A sliding-tile position: `width * height` cells in row order, each
/// holding a tile number `1..n` or 0 for the gap.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    width: usize,
    height: usize,
    cells: Vec<u8>,
}

impl Board {
    /// Largest supported width or height.
    pub const MAX_SIDE: usize = 15;

    /// Builds a board, checking the size and that every number `0..n`
    /// appears exactly once.
    pub fn try_new(width: usize, height: usize, numbers: &[usize]) -> Result<Board, BoardError> {
        if !(2..=Self::MAX_SIDE).contains(&width) || !(2..=Self::MAX_SIDE).contains(&height) {
            return Err(BoardError::Size { width, height });
        }
        let n = width * height;
        if numbers.len() != n {
            return Err(BoardError::CellCount {
                width,
                height,
                expected: n,
                got: numbers.len(),
            });
        }
        let mut first = vec![0usize; n];
        for (i, &v) in numbers.iter().enumerate() {
            if v >= n {
                return Err(BoardError::OutOfRange {
                    value: v,
                    index: i + 1,
                    cells: n,
                });
            }
            if first[v] != 0 {
                return Err(BoardError::Repeated {
                    value: v,
                    first: first[v],
                    second: i + 1,
                });
            }
            first[v] = i + 1;
        }
        if let Some(v) = first.iter().position(|&f| f == 0) {
            return Err(BoardError::Missing {
                value: v,
                max: n - 1,
            });
        }
        Ok(Board {
            width,
            height,
            cells: numbers.iter().map(|&v| v as u8).collect(),
        })
    }

    /// The solved board of this size.
    pub fn goal(width: usize, height: usize) -> Board {
        let n = width * height;
        let mut cells: Vec<u8> = (1..n).map(|t| t as u8).collect();
        cells.push(0);
        Board {
            width,
            height,
            cells,
        }
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The cells in row order (0 is the gap).
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The tile at (row, column), 0 for the gap.
    pub fn at(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.width + col]
    }

    /// Index of the gap's cell.
    pub fn gap(&self) -> usize {
        self.cells
            .iter()
            .position(|&c| c == 0)
            .expect("a board has a gap")
    }

    /// The cell where tile `t` (0 = gap) belongs.
    pub fn goal_cell(&self, t: u8) -> usize {
        if t == 0 {
            self.cells.len() - 1
        } else {
            t as usize - 1
        }
    }

    /// True when every tile is home.
    pub fn is_solved(&self) -> bool {
        let n = self.cells.len();
        self.cells[n - 1] == 0
            && self.cells[..n - 1]
                .iter()
                .enumerate()
                .all(|(i, &c)| c as usize == i + 1)
    }

    /// The cell the gap moves to with `d`, if it stays on the board.
    pub fn target(&self, d: Dir) -> Option<usize> {
        let g = self.gap();
        let (r, c) = ((g / self.width) as isize, (g % self.width) as isize);
        let (dr, dc) = d.delta();
        let (nr, nc) = (r + dr, c + dc);
        if nr < 0 || nc < 0 || nr >= self.height as isize || nc >= self.width as isize {
            None
        } else {
            Some(nr as usize * self.width + nc as usize)
        }
    }

    /// The legal moves, in [`Dir::ALL`] order.
    pub fn moves(&self) -> Vec<Dir> {
        Dir::ALL
            .into_iter()
            .filter(|&d| self.target(d).is_some())
            .collect()
    }

    /// The tile a move slides, if the move is legal.
    pub fn tile_moved(&self, d: Dir) -> Option<u8> {
        self.target(d).map(|t| self.cells[t])
    }

    /// Plays `d`; `false` (and no change) when it would leave the board.
    pub fn play(&mut self, d: Dir) -> bool {
        match self.target(d) {
            Some(t) => {
                let g = self.gap();
                self.cells.swap(g, t);
                true
            }
            None => false,
        }
    }

    /// Plays every move in turn; the index of the first illegal one as
    /// `Err`.
    pub fn play_all(&mut self, moves: &[Dir]) -> Result<(), usize> {
        for (i, &d) in moves.iter().enumerate() {
            if !self.play(d) {
                return Err(i);
            }
        }
        Ok(())
    }

    /// `Ok` when the goal can be reached; otherwise why not. The
    /// permutation taking the goal to this board (gap included) and the
    /// gap's distance from its goal cell change parity together on every
    /// move, and the goal has both even; half of all positions have them
    /// different and can never be solved.
    pub fn solvability(&self) -> Result<(), Unsolvable> {
        let n = self.cells.len();
        // Parity of the permutation cell -> goal cell, by counting cycles.
        let mut seen = vec![false; n];
        let mut transpositions = 0usize;
        for start in 0..n {
            if seen[start] {
                continue;
            }
            let mut len = 0;
            let mut i = start;
            while !seen[i] {
                seen[i] = true;
                len += 1;
                i = self.goal_cell(self.cells[i]);
            }
            transpositions += len - 1;
        }
        let g = self.gap();
        let dist = (self.height - 1 - g / self.width) + (self.width - 1 - g % self.width);
        let name = |x: usize| if x.is_multiple_of(2) { "even" } else { "odd" };
        if transpositions % 2 == dist % 2 {
            Ok(())
        } else {
            Err(Unsolvable {
                perm: name(transpositions),
                dist,
                gap_parity: name(dist),
            })
        }
    }

    /// The `sgt-fifteen` game ID, `WxH:n,n,...`.
    pub fn sgt_id(&self) -> String {
        let nums: Vec<String> = self.cells.iter().map(|c| c.to_string()).collect();
        format!("{}x{}:{}", self.width, self.height, nums.join(","))
    }

    /// The board mirrored about its main diagonal with tiles relabelled so
    /// the goal maps to the goal (square boards only): tile `t` at (r, c)
    /// becomes the tile whose goal is the mirror of t's goal, at (c, r).
    pub fn transposed(&self) -> Option<Board> {
        if self.width != self.height {
            return None;
        }
        let w = self.width;
        let n = w * w;
        let mirror = |cell: usize| (cell % w) * w + cell / w;
        let relabel = |t: u8| -> u8 {
            if t == 0 {
                0
            } else {
                let g = mirror(t as usize - 1);
                if g == n - 1 {
                    0
                } else {
                    g as u8 + 1
                }
            }
        };
        let mut cells = vec![0u8; n];
        for (i, &t) in self.cells.iter().enumerate() {
            cells[mirror(i)] = relabel(t);
        }
        Some(Board {
            width: w,
            height: w,
            cells,
        })
    }
}

impl fmt::Display for Board {
    /// Rows of right-aligned numbers, `.` for the gap.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let wide = (self.cells.len() - 1).to_string().len();
        for r in 0..self.height {
            let row: Vec<String> = (0..self.width)
                .map(|c| match self.at(r, c) {
                    0 => format!("{:>wide$}", "."),
                    t => format!("{t:>wide$}"),
                })
                .collect();
            writeln!(f, "{}", row.join(" "))?;
        }
        Ok(())
    }
}

/// Merges consecutive gap moves along one line into clicks: each click is
/// the cell (index) the gap ends on, which is the cell to click in
/// `sgt-fifteen` (clicking a cell in the gap's row or column slides every
/// tile between). Returns `(cell clicked, moves merged)` per click.
pub fn clicks(board: &Board, moves: &[Dir]) -> Result<Vec<(usize, usize)>, usize> {
    let mut b = board.clone();
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut prev: Option<Dir> = None;
    for (i, &d) in moves.iter().enumerate() {
        if !b.play(d) {
            return Err(i);
        }
        let cell = b.gap();
        match (prev, out.last_mut()) {
            (Some(p), Some(last)) if p == d => *last = (cell, last.1 + 1),
            _ => out.push((cell, 1)),
        }
        prev = Some(d);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(w: usize, h: usize, v: &[usize]) -> Board {
        Board::try_new(w, h, v).unwrap()
    }

    #[test]
    fn goal_and_moves() {
        let g = Board::goal(4, 4);
        assert!(g.is_solved());
        assert_eq!(g.gap(), 15);
        assert_eq!(g.moves(), vec![Dir::Up, Dir::Left]);
        let mut m = g.clone();
        assert!(m.play(Dir::Up));
        assert_eq!(m.at(3, 3), 12);
        assert!(!m.is_solved());
        assert!(!m.play(Dir::Right));
        assert!(m.play(Dir::Down));
        assert_eq!(m, g);
        assert!(g.solvability().is_ok());
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(
            Board::try_new(2, 2, &[1, 2, 2, 0]),
            Err(BoardError::Repeated {
                value: 2,
                first: 2,
                second: 3
            })
        );
        assert_eq!(
            Board::try_new(2, 2, &[1, 2, 3]).unwrap_err().to_string(),
            "a 2x2 board has 4 cells, but 3 numbers were given"
        );
        assert!(matches!(
            Board::try_new(2, 2, &[1, 2, 4, 0]),
            Err(BoardError::OutOfRange {
                value: 4,
                index: 3,
                ..
            })
        ));
        assert!(matches!(
            Board::try_new(1, 4, &[1, 2, 3, 0]),
            Err(BoardError::Size { .. })
        ));
    }

    #[test]
    fn parity() {
        // Two tiles swapped: the classic unsolvable 14-15 position.
        let mut v: Vec<usize> = (1..16).collect();
        v.swap(13, 14);
        v.push(0);
        let e = b(4, 4, &v).solvability().unwrap_err();
        assert_eq!(e.perm, "odd");
        assert_eq!(e.dist, 0);
        assert!(e.to_string().starts_with("unsolvable"));
        // Any sequence of moves keeps it solvable.
        let mut g = Board::goal(3, 4);
        for d in [Dir::Up, Dir::Left, Dir::Up, Dir::Left, Dir::Down] {
            g.play(d);
            assert!(g.solvability().is_ok(), "{g}");
        }
        // Moving the gap without moving a tile is not possible: a board
        // with the gap and one tile exchanged is off by one parity.
        let mut v: Vec<usize> = (1..9).collect();
        v.insert(7, 0);
        assert!(b(3, 3, &v).solvability().is_ok());
        let mut v: Vec<usize> = (1..9).collect();
        v.insert(0, 0);
        v.swap(1, 2);
        assert!(b(3, 3, &v).solvability().is_err());
    }

    #[test]
    fn transposed_goal_is_goal() {
        let g = Board::goal(4, 4);
        assert_eq!(g.transposed().unwrap(), g);
        let mut m = g.clone();
        m.play(Dir::Up);
        let t = m.transposed().unwrap();
        // Gap up becomes gap left after mirroring.
        let mut l = g.clone();
        l.play(Dir::Left);
        assert_eq!(t, l);
    }

    #[test]
    fn clicks_merge_lines() {
        let g = Board::goal(4, 4);
        let moves = [Dir::Up, Dir::Up, Dir::Left, Dir::Down, Dir::Down];
        let c = clicks(&g, &moves).unwrap();
        assert_eq!(c, vec![(7, 2), (6, 1), (14, 2)]);
        assert_eq!(clicks(&g, &[Dir::Right]), Err(0));
    }
}
