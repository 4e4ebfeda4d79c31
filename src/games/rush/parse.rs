//! Fogleman's text format: a board is one line of N x N characters in row
//! order (`o` or `.` empty, `x` wall, `A` the primary piece, `B`..`Z` the
//! others), N from 4 to 8 taken from the length; a database line is
//! `MOVES BOARD CLUSTER_SIZE`. Errors name the line and what is wrong.

use std::io::{self, BufRead};

use super::board::{Board, BoardError, Piece, Position, MAX_SIZE, MIN_SIZE};

/// What is wrong with one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The board's length is not N x N for N in 4..=8.
    #[error("the board has {0} characters, not a square of side 4 to 8 (16, 25, 36, 49 or 64)")]
    NotSquare(usize),
    /// A character that is not `o`, `.`, `x` or a letter `A`..`Z`.
    #[error("unexpected character {0:?} at column {1} (expected o . x or A..Z)")]
    BadChar(char, usize),
    /// A piece whose cells are not one straight line of 2 or 3.
    #[error("piece {0} is not a straight line of 2 or 3 cells ({1} cells)")]
    NotStraight(char, usize),
    /// The letter A forms more than one piece.
    #[error("two primary pieces: the letter A appears in separate places")]
    TwoPrimaries,
    /// No letter A.
    #[error("no primary piece (letter A)")]
    NoPrimary,
    /// The primary piece is vertical.
    #[error(
        "the primary piece A is not horizontal (it must leave through the right edge of its row)"
    )]
    PrimaryNotHorizontal,
    /// A database line with the wrong number of fields.
    #[error("expected BOARD or MOVES BOARD CLUSTER_SIZE, got {0} fields")]
    Fields(usize),
    /// A number field that is not a number.
    #[error("{0} is not a number: {1:?}")]
    BadNumber(&'static str, String),
    /// The pieces do not make a board (too many pieces).
    #[error("{0}")]
    Board(#[from] BoardError),
}

/// A parse error with the (1-based) line it is on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct ParseError {
    /// The line, counting from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// One puzzle of a file: its board and start, and the database columns
/// when the line had them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// The line it came from (1-based).
    pub line: usize,
    /// The board.
    pub board: Board,
    /// The start position.
    pub start: Position,
    /// The MOVES column.
    pub moves: Option<u32>,
    /// The CLUSTER_SIZE column.
    pub cluster_size: Option<u64>,
}

/// Parses one board of N x N characters (N from the length).
pub fn parse_board(text: &str) -> Result<(Board, Position), ParseError> {
    parse_board_kind(text.trim()).map_err(|kind| ParseError { line: 1, kind })
}

fn parse_board_kind(text: &str) -> Result<(Board, Position), ParseErrorKind> {
    let chars: Vec<char> = text.chars().collect();
    let n = (MIN_SIZE..=MAX_SIZE)
        .find(|n| n * n == chars.len())
        .ok_or(ParseErrorKind::NotSquare(chars.len()))?;
    let mut walls = 0u64;
    // Cells of each letter, in order of first appearance (A forced first).
    let mut letters: Vec<(char, Vec<usize>)> = Vec::new();
    for (i, &ch) in chars.iter().enumerate() {
        match ch {
            'o' | '.' => {}
            'x' => walls |= 1 << i,
            'A'..='Z' => match letters.iter_mut().find(|(l, _)| *l == ch) {
                Some((_, cells)) => cells.push(i),
                None => letters.push((ch, vec![i])),
            },
            _ => return Err(ParseErrorKind::BadChar(ch, i + 1)),
        }
    }
    let a = letters
        .iter()
        .position(|(l, _)| *l == 'A')
        .ok_or(ParseErrorKind::NoPrimary)?;
    let primary = letters.remove(a);
    letters.insert(0, primary);
    let mut pieces = Vec::with_capacity(letters.len());
    let mut start = Position(0);
    for (idx, (label, cells)) in letters.iter().enumerate() {
        let (piece, offset) = piece_of(*label, cells, n)?;
        if idx == 0 && !piece.horizontal {
            return Err(ParseErrorKind::PrimaryNotHorizontal);
        }
        pieces.push(piece);
        if idx < 21 {
            start = start.with(idx, offset);
        }
    }
    let board = Board::new(n, walls, pieces)?;
    Ok((board, start))
}

/// The piece a letter's cells (ascending) make, and its offset.
fn piece_of(label: char, cells: &[usize], n: usize) -> Result<(Piece, u8), ParseErrorKind> {
    let not_straight = || {
        if label == 'A' && separate(cells, n) {
            ParseErrorKind::TwoPrimaries
        } else {
            ParseErrorKind::NotStraight(label, cells.len())
        }
    };
    let len = cells.len();
    if !(2..=3).contains(&len) {
        return Err(not_straight());
    }
    let (r0, c0) = (cells[0] / n, cells[0] % n);
    let horizontal =
        cells.iter().enumerate().all(|(k, &c)| c == cells[0] + k) && cells[len - 1] / n == r0;
    let vertical = cells
        .iter()
        .enumerate()
        .all(|(k, &c)| c == cells[0] + k * n);
    let piece = |horizontal, line| Piece {
        horizontal,
        len: len as u8,
        line: line as u8,
        label,
    };
    if horizontal {
        Ok((piece(true, r0), c0 as u8))
    } else if vertical {
        Ok((piece(false, c0), r0 as u8))
    } else {
        Err(not_straight())
    }
}

/// True when `cells` fall into more than one 4-connected group.
fn separate(cells: &[usize], n: usize) -> bool {
    let mut seen = vec![cells[0]];
    let mut stack = vec![cells[0]];
    while let Some(c) = stack.pop() {
        for &d in cells {
            let adjacent = (d / n == c / n && d.abs_diff(c) == 1) || d.abs_diff(c) == n;
            if adjacent && !seen.contains(&d) {
                seen.push(d);
                stack.push(d);
            }
        }
    }
    seen.len() < cells.len()
}

/// The fields of line `line`: `BOARD` or `MOVES BOARD CLUSTER_SIZE`,
/// MOVES parsed, the others as they stand.
fn fields(text: &str, line: usize) -> Result<(Option<u32>, &str, Option<&str>), ParseError> {
    let err = |kind| ParseError { line, kind };
    let mut it = text.split_whitespace();
    let f = [it.next(), it.next(), it.next()];
    let (moves, board, cluster) = match f {
        [Some(b), None, None] => (None, b, None),
        [Some(m), Some(b), Some(c)] if it.next().is_none() => (Some(m), b, Some(c)),
        _ => {
            let count = text.split_whitespace().count();
            return Err(err(ParseErrorKind::Fields(count)));
        }
    };
    let moves = moves
        .map(|m| {
            m.parse::<u32>()
                .map_err(|_| err(ParseErrorKind::BadNumber("MOVES", m.to_string())))
        })
        .transpose()?;
    Ok((moves, board, cluster))
}

/// The MOVES column of line `line` (`None` for a bare board), checking
/// only the fields' count and that number: the board is left unparsed.
pub fn parse_moves(text: &str, line: usize) -> Result<Option<u32>, ParseError> {
    fields(text, line).map(|f| f.0)
}

/// Parses one line: `BOARD` or `MOVES BOARD CLUSTER_SIZE`, as line `line`.
pub fn parse_line(text: &str, line: usize) -> Result<Puzzle, ParseError> {
    let err = |kind| ParseError { line, kind };
    let (moves, board, cluster) = fields(text, line)?;
    let cluster_size = cluster
        .map(|c| {
            c.parse::<u64>()
                .map_err(|_| err(ParseErrorKind::BadNumber("CLUSTER_SIZE", c.to_string())))
        })
        .transpose()?;
    let (board, start) = parse_board_kind(board).map_err(err)?;
    Ok(Puzzle {
        line,
        board,
        start,
        moves,
        cluster_size,
    })
}

/// True when trimmed line `t` holds a puzzle (it is neither blank nor a
/// `#` comment).
fn is_puzzle_line(t: &str) -> bool {
    !t.is_empty() && !t.starts_with('#')
}

/// Parses a file of puzzles, one a line; blank lines and lines starting
/// with `#` are skipped.
pub fn parse_puzzles(text: &str) -> Result<Vec<Puzzle>, ParseError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| is_puzzle_line(l.trim()))
        .map(|(i, l)| parse_line(l, i + 1))
        .collect()
}

/// The puzzle lines of a file read a line at a time, as [`parse_puzzles`]
/// takes them: each trimmed, with its number (from 1).
pub fn puzzle_lines(file: impl BufRead) -> impl Iterator<Item = io::Result<(usize, String)>> {
    file.lines().enumerate().filter_map(|(i, l)| match l {
        Err(e) => Some(Err(e)),
        Ok(l) => {
            let t = l.trim();
            if !is_puzzle_line(t) {
                None
            } else if t.len() == l.len() {
                Some(Ok((i + 1, l)))
            } else {
                Some(Ok((i + 1, t.to_string())))
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HARDEST: &str = "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM";

    #[test]
    fn parses_fogleman_boards() {
        let (b, pos) = parse_board(HARDEST).unwrap();
        assert_eq!(b.size(), 6);
        assert_eq!(b.walls().count_ones(), 1);
        assert_eq!(b.pieces()[0].label, 'A');
        assert_eq!(b.pieces().len(), 12);
        assert_eq!(b.to_text(pos), HARDEST);
        assert!(b.is_valid(pos));
        let (b, pos) = parse_board("....AA..........").unwrap();
        assert_eq!(b.size(), 4);
        assert_eq!(b.to_text(pos), "ooooAAoooooooooo");
    }

    #[test]
    fn database_lines_and_files() {
        let p = parse_line("60 IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 2332", 3).unwrap();
        assert_eq!(p.moves, Some(60));
        assert_eq!(p.cluster_size, Some(2332));
        assert_eq!(p.line, 3);
        let all =
            parse_puzzles("# comment\n\n51 BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo 4780\n").unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].line, 3);
    }

    #[test]
    fn bad_boards_name_the_line_and_the_fault() {
        let e = parse_puzzles("ooooAAoooooooooo\nooooAAooooooooo\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(e.kind, ParseErrorKind::NotSquare(15));
        assert!(e.to_string().contains("line 2"), "{e}");
        let e = parse_board("ooooAAoBoooooooB").unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::NotStraight('B', 2));
        let e = parse_board("ooooAAooBBBBoooo").unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::NotStraight('B', 4));
        let e = parse_board("AAooooooooooooAA").unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::TwoPrimaries);
        let e = parse_board("ooooBBoooooooooo").unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::NoPrimary);
        let e = parse_board("Aoo.Aoo.oooooooo").unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::PrimaryNotHorizontal);
        let e = parse_board("ooooAA?ooooooooo").unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::BadChar('?', 7));
        // A horizontal piece may not wrap around to the next row.
        let e = parse_board("oooBBoooAAoooooo").unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::NotStraight('B', 2));
        let e = parse_line("x ooooAAoooooooooo 3", 4).unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::BadNumber("MOVES", "x".into()));
        let e = parse_line("1 2", 4).unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::Fields(2));
    }
}
