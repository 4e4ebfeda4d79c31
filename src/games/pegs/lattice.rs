//! Named boards on the square and on the triangular lattice, and a solver
//! for boards of either lattice.
//!
//! The square lattice has four jump directions; the triangular lattice has
//! six. A triangular board of `n` rows is stored in skewed coordinates:
//! row `r` (0 the apex) holds columns `0..=r`, and the six directions are
//! the square lattice's four plus the diagonal `(1, 1)` and its opposite
//! (`(1, -1)` is not a line of the triangle). Cells are numbered row by row,
//! left to right, the order in which a page draws them.
//!
//! [`LatticeSolver`] carries over the square solver's depth-first search
//! with a table of lost positions keyed by the smallest image under the
//! board's symmetries (eight of the square, six of the triangle) and the
//! position-class test of [`super::classes`], which on the triangle has one
//! three-colouring instead of two. Pagoda functions and Merson regions are
//! not carried (see `docs/pegs.md`): the triangular boards have at most 21
//! cells and are exhausted in milliseconds without them.

use std::time::Instant;

use super::rules::{bit, cells_of, Cells, Game, Jump};
use crate::solver::{Budget, KeySet, Outcome};

/// The lattice of a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lattice {
    /// Four directions: up, down, left, right.
    Square,
    /// Six directions: along a row, and along both edges of the triangle.
    Triangular,
}

impl Lattice {
    /// The (row, column) steps of the jump directions.
    pub fn directions(self) -> &'static [(i32, i32)] {
        match self {
            Lattice::Square => &[(-1, 0), (1, 0), (0, -1), (0, 1)],
            Lattice::Triangular => &[(-1, 0), (1, 0), (0, -1), (0, 1), (1, 1), (-1, -1)],
        }
    }
}

/// The boards by name.
pub const NAMES: [&str; 4] = ["english", "french", "tri15", "tri21"];

/// A board name that is not one of [`NAMES`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown board {0:?}: expected english, french, tri15 or tri21")]
pub struct UnknownBoard(pub String);

/// A board's shape on its lattice: cells, jumps and symmetries.
#[derive(Debug, Clone)]
pub struct LatticeBoard {
    name: &'static str,
    lattice: Lattice,
    /// (row, column) of each cell, in cell order.
    coords: Vec<(u8, u8)>,
    /// Every (from, over, to) triple of the board.
    jumps: Vec<Jump>,
    /// Per non-identity symmetry: the image of each cell.
    symmetries: Vec<Vec<u8>>,
}

/// The rows of the English (33) and French (37) boards as column ranges.
const ENGLISH_ROWS: [(u8, u8); 7] = [(2, 4), (2, 4), (0, 6), (0, 6), (0, 6), (2, 4), (2, 4)];
const FRENCH_ROWS: [(u8, u8); 7] = [(2, 4), (1, 5), (0, 6), (0, 6), (0, 6), (1, 5), (2, 4)];

impl LatticeBoard {
    /// The board called `name` (one of [`NAMES`], case-insensitive).
    pub fn named(name: &str) -> Result<LatticeBoard, UnknownBoard> {
        let rows = |spec: &[(u8, u8)]| -> Vec<(u8, u8)> {
            let mut v = Vec::new();
            for (r, &(a, b)) in spec.iter().enumerate() {
                v.extend((a..=b).map(|c| (r as u8, c)));
            }
            v
        };
        let triangle = |n: u8| -> Vec<(u8, u8)> {
            (0..n).flat_map(|r| (0..=r).map(move |c| (r, c))).collect()
        };
        let (name, lattice, coords) = match name.trim().to_ascii_lowercase().as_str() {
            "english" => ("english", Lattice::Square, rows(&ENGLISH_ROWS)),
            "french" => ("french", Lattice::Square, rows(&FRENCH_ROWS)),
            "tri15" => ("tri15", Lattice::Triangular, triangle(5)),
            "tri21" => ("tri21", Lattice::Triangular, triangle(6)),
            _ => return Err(UnknownBoard(name.to_string())),
        };
        Ok(LatticeBoard::new(name, lattice, coords))
    }

    /// A board of `coords` (at most 64 cells) on `lattice`.
    fn new(name: &'static str, lattice: Lattice, coords: Vec<(u8, u8)>) -> LatticeBoard {
        assert!(coords.len() <= 64, "a lattice board holds at most 64 cells");
        let mut board = LatticeBoard {
            name,
            lattice,
            coords,
            jumps: Vec::new(),
            symmetries: Vec::new(),
        };
        for from in 0..board.len() as u8 {
            let (r, c) = board.coords[from as usize];
            for &(dr, dc) in lattice.directions() {
                let at = |k: i32| board.index(r as i32 + k * dr, c as i32 + k * dc);
                if let (Some(over), Some(to)) = (at(1), at(2)) {
                    board.jumps.push(Jump { from, over, to });
                }
            }
        }
        board.symmetries = board.find_symmetries();
        board
    }

    /// The non-identity maps of the lattice that send the cells onto
    /// themselves: of the square's eight (about the bounding box's centre)
    /// or the triangle's six (permutations of the three distances to the
    /// sides).
    fn find_symmetries(&self) -> Vec<Vec<u8>> {
        let size = self
            .coords
            .iter()
            .map(|&(r, c)| r.max(c))
            .max()
            .unwrap_or(0) as i32;
        let map = |k: usize, r: i32, c: i32| -> (i32, i32) {
            match self.lattice {
                Lattice::Square => {
                    let (r, c) = if k & 4 != 0 { (c, r) } else { (r, c) };
                    let r = if k & 1 != 0 { size - r } else { r };
                    let c = if k & 2 != 0 { size - c } else { c };
                    (r, c)
                }
                Lattice::Triangular => {
                    let d = [c, r - c, size - r];
                    let p = [
                        [0, 1, 2],
                        [1, 0, 2],
                        [0, 2, 1],
                        [2, 1, 0],
                        [1, 2, 0],
                        [2, 0, 1],
                    ][k];
                    (size - d[p[2]], d[p[0]])
                }
            }
        };
        let kinds = if self.lattice == Lattice::Square {
            8
        } else {
            6
        };
        (1..kinds)
            .filter_map(|k| {
                self.coords
                    .iter()
                    .map(|&(r, c)| {
                        let (r2, c2) = map(k, r as i32, c as i32);
                        self.index(r2, c2)
                    })
                    .collect::<Option<Vec<u8>>>()
            })
            .collect()
    }

    /// The board's name (one of [`NAMES`]).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The board's lattice.
    pub fn lattice(&self) -> Lattice {
        self.lattice
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.coords.len()
    }

    /// True when the board has no cell.
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// (row, column) of each cell, in cell order.
    pub fn coords(&self) -> &[(u8, u8)] {
        &self.coords
    }

    /// The cell at (row, column), if it is on the board.
    pub fn index(&self, row: i32, col: i32) -> Option<u8> {
        self.coords
            .iter()
            .position(|&(r, c)| r as i32 == row && c as i32 == col)
            .map(|i| i as u8)
    }

    /// Every cell: the position before the vacancy is chosen.
    pub fn full(&self) -> Cells {
        (1u128 << self.len()) - 1
    }

    /// Every (from, over, to) triple of the board.
    pub fn all_jumps(&self) -> &[Jump] {
        &self.jumps
    }

    /// The non-identity symmetries (each the image of every cell).
    pub fn symmetries(&self) -> &[Vec<u8>] {
        &self.symmetries
    }

    /// Appends every legal jump of `pegs` to `out`.
    pub fn jumps(&self, pegs: Cells, out: &mut Vec<Jump>) {
        let holes = self.full() & !pegs;
        out.extend(self.jumps.iter().copied().filter(|j| {
            pegs & bit(j.from) != 0 && pegs & bit(j.over) != 0 && holes & bit(j.to) != 0
        }));
    }

    /// The image of `pegs` under symmetry `s`.
    pub fn image(&self, s: usize, pegs: Cells) -> Cells {
        cells_of(pegs).fold(0, |acc, i| acc | bit(self.symmetries[s][i as usize]))
    }

    /// The smallest image of `pegs` under the board's symmetries.
    pub fn canonical(&self, pegs: Cells) -> Cells {
        (0..self.symmetries.len()).fold(pegs, |best, s| best.min(self.image(s, pegs)))
    }

    /// The board and position in the square rules' form, for the square
    /// lattice's solver (`None` on the triangular lattice).
    pub fn square_game(&self, pegs: Cells) -> Option<Game> {
        if self.lattice != Lattice::Square {
            return None;
        }
        let w = 1 + self.coords.iter().map(|&(_, c)| c).max()? as usize;
        let h = 1 + self.coords.iter().map(|&(r, _)| r).max()? as usize;
        let mut on = 0;
        let mut square_pegs = 0;
        for (i, &(r, c)) in self.coords.iter().enumerate() {
            let b = bit((r as usize * w + c as usize) as u8);
            on |= b;
            if pegs & bit(i as u8) != 0 {
                square_pegs |= b;
            }
        }
        let board = super::rules::Board::new(w, h, on).ok()?;
        Some(Game {
            board,
            pegs: square_pegs,
        })
    }

    /// The three-colouring classes of the cells: `(row + col) mod 3`, and
    /// on the square lattice also `(row - col) mod 3`. Every jump's three
    /// cells have three colours in each colouring (on the triangle,
    /// `(row - col)` does not: the diagonal keeps it).
    fn class_masks(&self) -> Vec<[Cells; 3]> {
        let mut sum = [0; 3];
        let mut diff = [0; 3];
        for (i, &(r, c)) in self.coords.iter().enumerate() {
            sum[(r as usize + c as usize) % 3] |= bit(i as u8);
            diff[(r as usize + 2 * c as usize) % 3] |= bit(i as u8);
        }
        match self.lattice {
            Lattice::Square => vec![sum, diff],
            Lattice::Triangular => vec![sum],
        }
    }

    /// The cells where the last peg of a win from `pegs` can stand by the
    /// position-class invariant (a jump flips the parity of each colour of
    /// each colouring, so the parity differences are kept).
    pub fn final_cells(&self, pegs: Cells) -> Cells {
        let masks = self.class_masks();
        let sig = |p: Cells| -> Vec<u32> {
            masks
                .iter()
                .flat_map(|m| {
                    let par = m.map(|x| (p & x).count_ones() & 1);
                    [par[0] ^ par[1], par[1] ^ par[2]]
                })
                .collect()
        };
        let s = sig(pegs);
        cells_of(self.full())
            .filter(|&i| sig(bit(i)) == s)
            .fold(0, |acc, i| acc | bit(i))
    }

    /// `pegs` as text: the board's name, `:`, then per cell `P` (peg) or
    /// `H` (hole) in cell order, e.g. `tri15:HPPPPPPPPPPPPPP`.
    pub fn letters(&self, pegs: Cells) -> String {
        let cells: String = (0..self.len() as u8)
            .map(|i| if pegs & bit(i) != 0 { 'P' } else { 'H' })
            .collect();
        format!("{}:{cells}", self.name)
    }

    /// Parses [`LatticeBoard::letters`]' text.
    pub fn parse_letters(text: &str) -> Result<(LatticeBoard, Cells), String> {
        let (name, cells) = text
            .trim()
            .split_once(':')
            .ok_or_else(|| format!("{text:?}: expected NAME:letters, e.g. tri15:HPPP..."))?;
        let board = LatticeBoard::named(name).map_err(|e| e.to_string())?;
        if cells.chars().count() != board.len() {
            return Err(format!(
                "{text:?}: the {} board has {} cells, not {}",
                board.name(),
                board.len(),
                cells.chars().count()
            ));
        }
        let mut pegs = 0;
        for (i, ch) in cells.chars().enumerate() {
            match ch {
                'P' => pegs |= bit(i as u8),
                'H' => {}
                _ => return Err(format!("{text:?}: cell {} is {ch:?}, not P or H", i + 1)),
            }
        }
        Ok((board, pegs))
    }

    /// A picture of `pegs`: `P` peg, `.` hole, rows centred (the triangle
    /// drawn as it stands, apex on top).
    pub fn picture(&self, pegs: Cells) -> String {
        let rows = 1 + self.coords.iter().map(|&(r, _)| r).max().unwrap_or(0) as usize;
        let mut out = String::new();
        for row in 0..rows {
            let mut line = String::new();
            for (i, &(r, c)) in self.coords.iter().enumerate() {
                if r as usize != row {
                    continue;
                }
                let indent = match self.lattice {
                    Lattice::Square => 2 * c as usize,
                    Lattice::Triangular => rows - 1 - row + 2 * c as usize,
                };
                while line.len() < indent {
                    line.push(' ');
                }
                line.push(if pegs & bit(i as u8) != 0 { 'P' } else { '.' });
            }
            out.push_str(&line);
            out.push('\n');
        }
        out
    }
}

/// Depth-first search for a win (one peg left, anywhere) on a
/// [`LatticeBoard`], with a table of lost positions up to symmetry and
/// the position-class test at the root.
#[derive(Debug)]
pub struct LatticeSolver<'a> {
    board: &'a LatticeBoard,
    lost: KeySet,
    nodes: u64,
}

impl<'a> LatticeSolver<'a> {
    /// A solver for `board` with an empty table.
    pub fn new(board: &'a LatticeBoard) -> LatticeSolver<'a> {
        LatticeSolver {
            board,
            lost: KeySet::default(),
            nodes: 0,
        }
    }

    /// Positions expanded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Positions proven lost so far (up to symmetry).
    pub fn lost_positions(&self) -> usize {
        self.lost.len()
    }

    /// Decides `pegs`: a win's jumps, a proof that none exists (every
    /// reachable position exhausted, or no cell of the right class), or
    /// the budget's stop.
    pub fn solve(&mut self, pegs: Cells, budget: &Budget) -> Outcome<Jump> {
        let t0 = Instant::now();
        let start = self.nodes;
        if pegs == 0 || self.board.final_cells(pegs) == 0 {
            return Outcome::unsolvable(0, t0.elapsed());
        }
        let mut path = Vec::new();
        match self.search(pegs, budget, &mut path) {
            Ok(true) => {
                path.reverse();
                Outcome::optimal(path, self.nodes - start, t0.elapsed())
            }
            Ok(false) => Outcome::unsolvable(self.nodes - start, t0.elapsed()),
            Err(why) => Outcome::stopped(
                None,
                pegs.count_ones() - 1,
                why,
                self.nodes - start,
                t0.elapsed(),
            ),
        }
    }

    /// True when `pegs` wins; the jumps pushed on `path` deepest first.
    fn search(
        &mut self,
        pegs: Cells,
        budget: &Budget,
        path: &mut Vec<Jump>,
    ) -> Result<bool, crate::solver::BudgetExceeded> {
        if pegs.count_ones() == 1 {
            return Ok(true);
        }
        let key = self.board.canonical(pegs);
        if self.lost.contains(key) {
            return Ok(false);
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) {
            budget.check_nodes(self.nodes, self.lost.bytes())?;
        }
        let mut js = Vec::new();
        self.board.jumps(pegs, &mut js);
        for j in js {
            if self.search(pegs ^ j.mask(), budget, path)? {
                path.push(j);
                return Ok(true);
            }
        }
        self.lost.insert(key);
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_have_their_cells_jumps_and_symmetries() {
        let cases = [
            ("english", 33, 76, 7),
            ("french", 37, 92, 7),
            ("tri15", 15, 36, 5),
            ("tri21", 21, 60, 5),
        ];
        for (name, cells, jumps, syms) in cases {
            let b = LatticeBoard::named(name).unwrap();
            assert_eq!(b.len(), cells, "{name}");
            assert_eq!(b.all_jumps().len(), jumps, "{name}");
            assert_eq!(b.symmetries().len(), syms, "{name}");
            for s in b.symmetries() {
                let mut sorted = s.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..cells as u8).collect::<Vec<_>>(), "{name}");
            }
        }
        assert_eq!(
            LatticeBoard::named("hex").unwrap_err().to_string(),
            "unknown board \"hex\": expected english, french, tri15 or tri21"
        );
    }

    #[test]
    fn letters_round_trip_and_errors_say_why() {
        let b = LatticeBoard::named("tri15").unwrap();
        let text = b.letters(b.full() & !bit(0));
        assert_eq!(text, "tri15:HPPPPPPPPPPPPPP");
        let (b2, pegs) = LatticeBoard::parse_letters(&text).unwrap();
        assert_eq!((b2.name(), pegs), ("tri15", b.full() & !bit(0)));
        assert!(LatticeBoard::parse_letters("tri15:PP")
            .unwrap_err()
            .contains("15 cells"));
        assert!(LatticeBoard::parse_letters("tri15").is_err());
        assert!(LatticeBoard::parse_letters("tri15:XPPPPPPPPPPPPPP")
            .unwrap_err()
            .contains("cell 1"));
    }

    #[test]
    fn triangle_symmetries_map_jumps_to_jumps() {
        let b = LatticeBoard::named("tri21").unwrap();
        for s in b.symmetries() {
            for j in b.all_jumps() {
                let img = Jump {
                    from: s[j.from as usize],
                    over: s[j.over as usize],
                    to: s[j.to as usize],
                };
                assert!(b.all_jumps().contains(&img), "{j:?} -> {img:?}");
            }
        }
    }
}

#[cfg(test)]
mod exhaustive {
    use super::*;

    /// Winnability of every subset of the board's cells by a plain pass
    /// over the positions in order of peg count (no symmetry, no table
    /// beyond one bit per position, no class test).
    fn all_winnable(board: &LatticeBoard) -> Vec<bool> {
        let n = board.len();
        let mut by_count: Vec<u64> = (1..1u64 << n).collect();
        by_count.sort_by_key(|p| p.count_ones());
        let mut win = vec![false; 1 << n];
        let mut js = Vec::new();
        for p in by_count {
            win[p as usize] = p.count_ones() == 1 || {
                js.clear();
                board.jumps(p as Cells, &mut js);
                js.iter().any(|j| win[(p as Cells ^ j.mask()) as usize])
            };
        }
        win
    }

    #[test]
    fn the_triangle_solver_agrees_with_a_plain_exhaustive_search_on_tri15() {
        let board = LatticeBoard::named("tri15").unwrap();
        let win = all_winnable(&board);
        let mut solver = LatticeSolver::new(&board);
        let (mut won, mut lost) = (0, 0);
        for p in 1..1u128 << 15 {
            let o = solver.solve(p, &Budget::unlimited());
            match o.moves {
                Some(ms) => {
                    assert!(win[p as usize], "{p:#b} is lost but the solver won");
                    let end = ms.iter().fold(p, |q, j| {
                        let mut legal = Vec::new();
                        board.jumps(q, &mut legal);
                        assert!(legal.contains(j));
                        q ^ j.mask()
                    });
                    assert_eq!(end.count_ones(), 1);
                    won += 1;
                }
                None => {
                    assert!(o.proven_unsolvable);
                    assert!(!win[p as usize], "{p:#b} wins but the solver says lost");
                    lost += 1;
                }
            }
        }
        // Pinned: how many of the 32767 non-empty positions win.
        assert_eq!((won, lost), (won_count(&win), 32767 - won_count(&win)));
        assert_eq!(won_count(&win), PINNED_TRI15_WINNABLE);
    }

    fn won_count(win: &[bool]) -> usize {
        win.iter().filter(|&&w| w).count()
    }

    /// Of the 32767 non-empty positions of the 15-hole triangle, this many
    /// can end in one peg (the plain search's count, pinned).
    const PINNED_TRI15_WINNABLE: usize = 13935;

    #[test]
    fn the_class_test_never_rules_out_a_win() {
        for name in ["tri15", "tri21"] {
            let board = LatticeBoard::named(name).unwrap();
            if name == "tri15" {
                let win = all_winnable(&board);
                for p in 1..1u128 << 15 {
                    if win[p as usize] {
                        assert_ne!(board.final_cells(p), 0, "{p:#b}");
                    }
                }
            }
            // A single peg's own class holds it.
            for i in 0..board.len() as u8 {
                assert_ne!(board.final_cells(bit(i)) & bit(i), 0);
            }
        }
    }
}
