//! gridbot's Klotski text format (docs/klotski.md, "Format").
//!
//! A puzzle is an optional header line `puzzle: NAME; group: GROUP;
//! moves: N` (every field optional; `moves` is the minimum a bench
//! compares with) and a map: one row a line between two `|`, or several
//! rows on one line (`|row|row|row|`, the form a command-line argument
//! takes). In a map `#` is a wall, a space floor, `.` a goal cell, `-` the
//! exit; every other character is a cell of the block of that letter, `*`
//! the target. A blank line or a header ends a map; lines starting with
//! `#` outside maps are comments. Errors name the line.

use super::board::{BlockSpec, Board, BoardError, Floor, Position};

/// What is wrong with a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// A row whose length differs from the map's first row.
    #[error("the row has {found} cells, the map's first row {expected}")]
    Ragged {
        /// The first row's length.
        expected: usize,
        /// This row's.
        found: usize,
    },
    /// A line that is neither a header, a map row, a comment nor blank.
    #[error("expected a header `puzzle: NAME; group: GROUP; moves: N` or a map row `|...|`")]
    Unknown,
    /// A header field this format does not have.
    #[error("unknown field {0:?} (puzzle, group or moves)")]
    Field(String),
    /// A `moves` field that is not a number.
    #[error("moves: {0:?} is not a number")]
    Moves(String),
    /// A header with no map after it.
    #[error("a header without a map")]
    NoMap,
    /// The blocks and floor do not make a board.
    #[error("{0}")]
    Board(#[from] BoardError),
}

/// A parse error and the (1-based) line it is on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct ParseError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// One puzzle of a file.
#[derive(Debug, Clone)]
pub struct Puzzle {
    /// The line its header (or first row) is on.
    pub line: usize,
    /// Its name (`line N` when the file gives none).
    pub name: String,
    /// Its group, if given.
    pub group: Option<String>,
    /// The minimum the file states, if any.
    pub moves: Option<u32>,
    /// The board.
    pub board: Board,
    /// The start position.
    pub start: Position,
}

/// A puzzle being read: its header and rows with their lines.
#[derive(Default)]
struct Pending {
    line: usize,
    name: Option<String>,
    group: Option<String>,
    moves: Option<u32>,
    rows: Vec<(usize, String)>,
}

/// Every puzzle of `text`, in order.
pub fn parse_puzzles(text: &str) -> Result<Vec<Puzzle>, ParseError> {
    let mut out = Vec::new();
    let mut pending: Option<Pending> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim_end_matches('\r');
        if let Some(rest) = trimmed.strip_prefix('|') {
            let p = pending.get_or_insert_with(|| Pending {
                line,
                ..Pending::default()
            });
            let body = rest.strip_suffix('|').unwrap_or(rest);
            p.rows
                .extend(body.split('|').map(|r| (line, r.to_string())));
            continue;
        }
        let t = trimmed.trim();
        let is_header =
            t.starts_with("puzzle:") || t.starts_with("group:") || t.starts_with("moves:");
        if t.is_empty() || is_header {
            if let Some(p) = pending.take() {
                if !p.rows.is_empty() || !is_header {
                    out.push(finish(p)?);
                } else {
                    return Err(ParseError {
                        line: p.line,
                        kind: ParseErrorKind::NoMap,
                    });
                }
            }
            if is_header {
                pending = Some(header(t, line)?);
            }
            continue;
        }
        if t.starts_with('#') {
            continue;
        }
        return Err(ParseError {
            line,
            kind: ParseErrorKind::Unknown,
        });
    }
    if let Some(p) = pending {
        out.push(finish(p)?);
    }
    Ok(out)
}

/// Reads a header line's fields.
fn header(t: &str, line: usize) -> Result<Pending, ParseError> {
    let err = |kind| ParseError { line, kind };
    let mut p = Pending {
        line,
        ..Pending::default()
    };
    for field in t.split(';').map(str::trim).filter(|f| !f.is_empty()) {
        let (key, value) = field
            .split_once(':')
            .ok_or_else(|| err(ParseErrorKind::Field(field.into())))?;
        let value = value.trim().to_string();
        match key.trim() {
            "puzzle" => p.name = Some(value),
            "group" => p.group = Some(value),
            "moves" => {
                p.moves = Some(
                    value
                        .parse()
                        .map_err(|_| err(ParseErrorKind::Moves(value.clone())))?,
                )
            }
            other => return Err(err(ParseErrorKind::Field(other.into()))),
        }
    }
    Ok(p)
}

/// The puzzle of a header and its rows.
fn finish(p: Pending) -> Result<Puzzle, ParseError> {
    let Some(&(first_line, ref first)) = p.rows.first() else {
        return Err(ParseError {
            line: p.line,
            kind: ParseErrorKind::NoMap,
        });
    };
    let width = first.chars().count();
    let mut floor = Vec::new();
    let mut blocks: Vec<BlockSpec> = Vec::new();
    for (y, (line, row)) in p.rows.iter().enumerate() {
        let found = row.chars().count();
        if found != width {
            return Err(ParseError {
                line: *line,
                kind: ParseErrorKind::Ragged {
                    expected: width,
                    found,
                },
            });
        }
        for (x, c) in row.chars().enumerate() {
            match Floor::of_symbol(c) {
                Some(f) => floor.push(f),
                None => {
                    floor.push(Floor::Open);
                    match blocks.iter_mut().find(|b| b.name == c) {
                        Some(b) => b.cells.push((x, y)),
                        None => blocks.push(BlockSpec {
                            name: c,
                            cells: vec![(x, y)],
                        }),
                    }
                }
            }
        }
    }
    let (board, start) =
        Board::new(width, p.rows.len(), floor, &blocks).map_err(|e| ParseError {
            line: first_line,
            kind: e.into(),
        })?;
    Ok(Puzzle {
        line: p.line,
        name: p.name.unwrap_or_else(|| format!("line {}", p.line)),
        group: p.group,
        moves: p.moves,
        board,
        start,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLES: &str = include_str!("../../../fixtures/klotski/puzzles.txt");

    #[test]
    fn the_games_puzzles_parse_with_their_names_and_groups() {
        let p = parse_puzzles(PUZZLES).unwrap();
        assert_eq!(p.len(), 28);
        assert_eq!(p[0].name, "Only 18 Steps");
        assert_eq!(p[0].group.as_deref(), Some("Huarong Trail"));
        assert_eq!(p[0].moves, Some(18));
        assert_eq!(p[27].name, "Sunshine");
        assert_eq!((p[27].board.width(), p[27].board.height()), (17, 22));
        // Only 18 Steps: the target, 14 unit squares.
        assert_eq!((p[0].board.blocks(), p[0].board.classes()), (15, 2));
        let text = p[0].board.to_text(&p[0].start);
        assert!(text.starts_with("|######|#a**b#|"), "{text}");
        let again = parse_puzzles(&text).unwrap();
        assert_eq!(again[0].start, p[0].start);
    }

    fn kind(text: &str) -> (usize, ParseErrorKind) {
        let e = parse_puzzles(text).unwrap_err();
        (e.line, e.kind)
    }

    #[test]
    fn a_map_without_target_or_goal_is_refused_naming_its_line() {
        assert_eq!(
            kind("# c\n\n|#ab#|\n|#..#|\n"),
            (3, ParseErrorKind::Board(BoardError::NoTarget))
        );
        assert_eq!(
            kind("puzzle: x\n|#*a#|\n|#  #|\n"),
            (2, ParseErrorKind::Board(BoardError::NoGoal))
        );
        assert_eq!(
            kind("|#**#|\n|#. #|\n"),
            (1, ParseErrorKind::Board(BoardError::TargetNeverFits))
        );
    }

    #[test]
    fn split_blocks_ragged_rows_and_stray_lines_are_refused() {
        assert_eq!(
            kind("|*a a|\n|.   |\n"),
            (1, ParseErrorKind::Board(BoardError::Split('a')))
        );
        assert_eq!(
            kind("|*a |\n|.  |\n|.   |\n"),
            (
                3,
                ParseErrorKind::Ragged {
                    expected: 3,
                    found: 4
                }
            )
        );
        assert_eq!(kind("|* .|\nhello\n"), (2, ParseErrorKind::Unknown));
        assert_eq!(
            kind("puzzle: a; moves: x\n|* .|\n"),
            (1, ParseErrorKind::Moves("x".into()))
        );
        assert_eq!(kind("puzzle: a\n\n"), (1, ParseErrorKind::NoMap));
    }

    #[test]
    fn overlapping_blocks_and_blocks_on_walls_are_refused() {
        let floor = vec![Floor::Open, Floor::Open, Floor::Goal, Floor::Wall];
        let b = |name, cells: &[(usize, usize)]| BlockSpec {
            name,
            cells: cells.to_vec(),
        };
        let err = Board::new(
            4,
            1,
            floor.clone(),
            &[b('*', &[(0, 0)]), b('a', &[(0, 0), (1, 0)])],
        )
        .unwrap_err();
        assert_eq!(err, BoardError::Overlap('*', 'a', 0, 0));
        let err = Board::new(4, 1, floor, &[b('*', &[(0, 0)]), b('a', &[(3, 0)])]).unwrap_err();
        assert_eq!(err, BoardError::OnFloor('a', "wall", 3, 0));
    }
}
