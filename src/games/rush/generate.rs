//! Puzzles of a chosen difficulty: picked from a database file, or made as
//! the seed does by generating random positions and solving them. A random
//! position's whole cluster is explored (see [`super::analyse::cluster`]),
//! and the position kept is the least (in Fogleman's order,
//! [`super::board::OrderKey`]) of those at the largest distance from a
//! solution within the range asked for, so one cluster
//! gives at most one puzzle and every puzzle's MOVES is proven exact.

use std::io::BufRead;

use serde::Serialize;

use super::analyse::{cluster, NO_SOLUTION};
use super::board::{Board, Position};
use super::parse::{parse_board, parse_line, parse_moves, puzzle_lines, ParseError, Puzzle};
use crate::solver::Budget;

/// One generated puzzle, a database line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Generated {
    /// Fewest moves (proven by exhausting the cluster).
    pub moves: u32,
    /// The board in Fogleman's format, letters in order of appearance.
    pub board: String,
    /// Positions in its cluster.
    pub cluster_size: u64,
}

impl Generated {
    /// The database line of puzzle `p` (0 for a missing MOVES or
    /// CLUSTER_SIZE), its board lettered in order of appearance.
    fn of(p: &Puzzle) -> Generated {
        Generated {
            moves: p.moves.unwrap_or(0),
            board: p.board.to_text(p.start),
            cluster_size: p.cluster_size.unwrap_or(0),
        }
    }
}

impl std::fmt::Display for Generated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {}", self.moves, self.board, self.cluster_size)
    }
}

/// A small xorshift generator (reproducible from a seed).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number in `0..m` (`m` > 0).
    pub fn below(&mut self, m: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        ((self.0 >> 11) % m as u64) as usize
    }
}

/// Relabels a board text so the pieces other than `A` are lettered `B`,
/// `C`, ... in order of first appearance (row order), `o` for empty.
pub fn canonical_text(text: &str) -> String {
    let mut map: Vec<(char, char)> = vec![('A', 'A')];
    let mut next = b'B';
    text.chars()
        .map(|c| match c {
            '.' | 'o' => 'o',
            'x' => 'x',
            c => match map.iter().find(|(from, _)| *from == c) {
                Some(&(_, to)) => to,
                None => {
                    let to = next as char;
                    next += 1;
                    map.push((c, to));
                    to
                }
            },
        })
        .collect()
}

/// The cells (row-major indices on a side-`n` grid) of a piece of `len`
/// cells whose first cell is (row, column) `at`, along a row when
/// `horizontal`, else down a column.
pub(crate) fn piece_cells(
    n: usize,
    at: (usize, usize),
    len: usize,
    horizontal: bool,
) -> Vec<usize> {
    let (r, c) = at;
    (0..len)
        .map(|k| {
            if horizontal {
                r * n + c + k
            } else {
                (r + k) * n + c
            }
        })
        .collect()
}

/// A random position of side `size` with `walls` wall cells: the primary
/// piece on row `(size - 1) / 2`, then pieces of random length and axis
/// wherever a random try fits, `tries` tries.
pub fn random_position(
    size: usize,
    walls: usize,
    tries: usize,
    rng: &mut Rng,
) -> (Board, Position) {
    let n = size;
    let row = (n - 1) / 2;
    let mut g = vec![b'o'; n * n];
    let c = rng.below(n - 2);
    g[row * n + c] = b'A';
    g[row * n + c + 1] = b'A';
    let mut placed = 0;
    while placed < walls {
        let i = rng.below(n * n);
        if g[i] == b'o' {
            g[i] = b'x';
            placed += 1;
        }
    }
    let mut label = b'B';
    for _ in 0..tries {
        if label > b'Z' {
            break;
        }
        let len = 2 + (rng.below(4) == 0) as usize;
        let horizontal = rng.below(2) == 0;
        let (r, c) = if horizontal {
            (rng.below(n), rng.below(n + 1 - len))
        } else {
            (rng.below(n + 1 - len), rng.below(n))
        };
        let cells = piece_cells(n, (r, c), len, horizontal);
        if (horizontal && r == row) || cells.iter().any(|&i| g[i] != b'o') {
            continue;
        }
        for i in cells {
            g[i] = label;
        }
        label += 1;
    }
    let text = String::from_utf8(g).expect("ascii");
    parse_board(&text).expect("a generated board is well formed")
}

/// The puzzle a cluster offers for the range `lo..=hi`: the least position
/// (in Fogleman's order) at the largest distance not above `hi`, when that is `lo` or
/// more.
pub fn pick(
    board: &Board,
    start: Position,
    lo: u32,
    hi: u32,
    budget: &Budget,
) -> Option<Generated> {
    let c = cluster(board, start, budget).ok()?;
    let target = c
        .distance
        .iter()
        .copied()
        .filter(|&d| d != NO_SOLUTION && (d as u32) <= hi)
        .max()? as u32;
    if target < lo {
        return None;
    }
    let board_text = c
        .positions
        .iter()
        .zip(&c.distance)
        .filter(|(_, &d)| d as u32 == target)
        .map(|(&p, _)| Position(p))
        .min_by_key(|&p| board.order_key(p))
        .map(|p| canonical_text(&board.to_text(p)))?;
    Some(Generated {
        moves: target,
        board: board_text,
        cluster_size: c.positions.len() as u64,
    })
}

/// Generates up to `count` distinct puzzles of `lo..=hi` moves from random
/// positions, giving up after `attempts` random positions.
pub fn generate_random(
    size: usize,
    walls: usize,
    (lo, hi): (u32, u32),
    count: usize,
    attempts: usize,
    rng: &mut Rng,
    mut progress: impl FnMut(usize, usize),
) -> Vec<Generated> {
    let mut out: Vec<Generated> = Vec::new();
    for k in 0..attempts {
        if out.len() >= count {
            break;
        }
        let tries = size + rng.below(3 * size);
        let (board, start) = random_position(size, walls, tries, rng);
        let budget = Budget::new(None, 1 << 30);
        if let Some(g) = pick(&board, start, lo, hi, &budget) {
            if !out.iter().any(|o| o.board == g.board) {
                out.push(g);
            }
        }
        progress(k + 1, out.len());
    }
    out
}

/// Reading a database for [`from_database`].
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    /// The file could not be read.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// A line that is not a puzzle.
    #[error(transparent)]
    Line(#[from] ParseError),
}

/// Up to `count` puzzles of a database with `lo..=hi` moves and exactly
/// `walls` walls (any number when `None`), in file order. The database is
/// read a line at a time and only up to the `count`-th puzzle found, so a
/// file larger than memory is fine (blank lines and `#` lines skipped; a
/// bad line before that point is an error naming it).
pub fn from_database(
    database: impl BufRead,
    (lo, hi): (u32, u32),
    walls: Option<usize>,
    count: usize,
) -> Result<Vec<Generated>, DatabaseError> {
    let mut out = Vec::new();
    for line in puzzle_lines(database) {
        if out.len() >= count {
            break;
        }
        let (i, t) = line?;
        let p = parse_line(&t, i)?;
        if !p.moves.is_some_and(|m| (lo..=hi).contains(&m)) {
            continue;
        }
        if walls.is_some_and(|w| p.board.walls().count_ones() as usize != w) {
            continue;
        }
        out.push(Generated::of(&p));
    }
    Ok(out)
}

/// Puzzles picked evenly from a database ([`spread_from_database`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spread {
    /// The puzzles picked, in file order.
    pub picked: Vec<Generated>,
    /// Lines in the range of moves asked for.
    pub matching: u64,
    /// Puzzle lines in the file.
    pub puzzles: u64,
}

/// Up to `count` puzzles with `lo..=hi` moves spread evenly over all such
/// lines of a database (the `i`-th of `n` picked is the matching line
/// `i * matching / n`), in two passes of `open()`'s reader, a line at a
/// time: the first counts the matching lines, the second parses the
/// picked ones. Memory is the picks', however long the file (a whole
/// enumeration's output will do). A line whose fields or MOVES are
/// malformed is an error naming it; a board is checked only when picked.
pub fn spread_from_database<R: BufRead>(
    mut open: impl FnMut() -> std::io::Result<R>,
    (lo, hi): (u32, u32),
    count: usize,
) -> Result<Spread, DatabaseError> {
    let in_range = |m: Option<u32>| m.is_some_and(|m| (lo..=hi).contains(&m));
    let (mut matching, mut puzzles) = (0u64, 0u64);
    for line in puzzle_lines(open()?) {
        let (i, t) = line?;
        puzzles += 1;
        matching += in_range(parse_moves(&t, i)?) as u64;
    }
    let n = (count as u64).min(matching);
    let mut picked = Vec::with_capacity(n as usize);
    // The matching line numbers (from 0) to pick, increasing.
    let mut wanted = (0..n).map(|k| k * matching / n).peekable();
    let mut seen = 0u64;
    for line in puzzle_lines(open()?) {
        let Some(&next) = wanted.peek() else {
            break;
        };
        let (i, t) = line?;
        if !in_range(parse_moves(&t, i)?) {
            continue;
        }
        if seen == next {
            picked.push(Generated::of(&parse_line(&t, i)?));
            wanted.next();
        }
        seen += 1;
    }
    Ok(Spread {
        picked,
        matching,
        puzzles,
    })
}

#[cfg(test)]
mod tests {
    use super::super::search::bfs;
    use super::*;

    #[test]
    fn generated_puzzles_have_their_listed_length() {
        let mut rng = Rng::new(7);
        let got = generate_random(6, 0, (8, 20), 3, 2000, &mut rng, |_, _| {});
        assert_eq!(got.len(), 3);
        for g in &got {
            let (b, p) = parse_board(&g.board).unwrap();
            let o = bfs(&b, p, &Budget::unlimited());
            assert_eq!(o.len(), Some(g.moves as usize), "{g}");
            assert!((8..=20).contains(&g.moves));
            assert_eq!(canonical_text(&g.board), g.board);
        }
    }

    /// Spread over `db` (opened twice from memory).
    fn spread(db: &str, range: (u32, u32), count: usize) -> Result<Spread, DatabaseError> {
        spread_from_database(|| Ok(db.as_bytes()), range, count)
    }

    #[test]
    fn spreads_evenly_over_the_matching_lines() {
        let lines: Vec<String> = (0..10)
            .map(|k| format!("{} BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo {}", 20 + k % 2, k))
            .collect();
        let db = format!("# header\n\n{}\n", lines.join("\n"));
        // Five lines of 21 moves (cluster sizes 1, 3, 5, 7, 9): the k-th of
        // three picks is matching line k * 5 / 3, that is 0, 1 and 3.
        let s = spread(&db, (21, 21), 3).unwrap();
        assert_eq!((s.matching, s.puzzles), (5, 10));
        let sizes: Vec<u64> = s.picked.iter().map(|g| g.cluster_size).collect();
        assert_eq!(sizes, [1, 3, 7]);
        assert!(s.picked.iter().all(|g| g.moves == 21));
        // More asked than there are: every matching line once.
        let s = spread(&db, (20, 21), 50).unwrap();
        assert_eq!(s.picked.len(), 10);
        assert_eq!(
            s.picked.iter().map(|g| g.cluster_size).collect::<Vec<_>>(),
            (0..10).collect::<Vec<u64>>()
        );
        // None in range: nothing picked, the counts still given.
        let s = spread(&db, (30, 40), 3).unwrap();
        assert_eq!((s.picked.len(), s.matching, s.puzzles), (0, 0, 10));
        // A bare board counts as a puzzle without moves.
        let s = spread("ooooooooooooAAoooooooooooooooooooooo\n", (0, 60), 1).unwrap();
        assert_eq!((s.picked.len(), s.matching, s.puzzles), (0, 0, 1));
    }

    #[test]
    fn a_bad_line_in_the_spread_names_its_line() {
        let bad_moves = "20 BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo 4\nxx BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo 4\n";
        let e = spread(bad_moves, (20, 20), 1).unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("MOVES"), "{e}");
        let two_fields = "20 BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo\n";
        let e = spread(two_fields, (20, 20), 1).unwrap_err().to_string();
        assert!(e.contains("line 1") && e.contains("2 fields"), "{e}");
        // A bad board is found when its line is picked.
        let bad_board = "# c\n20 BCDDEoBCFoEGBoFAAGHH 4\n";
        let e = spread(bad_board, (20, 20), 1).unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("characters"), "{e}");
    }

    #[test]
    fn picks_from_a_database_in_file_order_and_stops_at_the_count() {
        let db = "# a comment\n\
            60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332\n\
            \n\
            51 BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo 4780\n\
            50 BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo 4780\n\
            not a line at all\n";
        let got = from_database(db.as_bytes(), (50, 59), Some(0), 2).unwrap();
        let moves: Vec<u32> = got.iter().map(|g| g.moves).collect();
        assert_eq!(moves, [51, 50]);
        assert_eq!(got[0].cluster_size, 4780);
        // Walls: only the 60 (and the bad line is never reached).
        let got = from_database(db.as_bytes(), (1, 99), Some(1), 1).unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].board, "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM");
        // Reading on to the bad line: an error naming line 6.
        let e = from_database(db.as_bytes(), (1, 99), None, 5).unwrap_err();
        assert!(e.to_string().contains("line 6"), "{e}");
    }

    #[test]
    fn canonical_letters() {
        assert_eq!(canonical_text("CCoAAoxD.D..ooo."), "BBoAAoxCoCoooooo");
    }
}
