//! Reading Pegs positions from text. Two forms are detected:
//!
//! - an `sgt-pegs` game ID, `WxH:` followed by one letter per cell in row
//!   order: `P` peg, `H` hole, `O` not on the board (as printed by
//!   `sgt-pegs --generate`);
//! - a picture, one row per line: `P` (or `o`) peg, `H` (or `.`) hole, `O`
//!   (or a space) off the board; short rows are padded with off-board cells.
//!
//! Errors name the 1-based line and column and what was wrong there.

use super::rules::{bit, Board, BoardError, Game, MAX_SIDE};

/// Why a text is not a Pegs position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Nothing but whitespace.
    #[error("empty input: no board found")]
    Empty,
    /// The `WxH` part of a game ID is malformed.
    #[error("line {line}, column {col}: bad size {text:?} in game ID (expected WxH, e.g. 7x7)")]
    BadSize {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// The size text.
        text: String,
    },
    /// A side above the supported maximum.
    #[error("line {line}: {source}")]
    Size {
        /// 1-based line.
        line: usize,
        /// The board error.
        source: BoardError,
    },
    /// The number of cells does not match the size.
    #[error("line {line}: game ID of size {width}x{height} needs {expected} cells but has {got}")]
    Length {
        /// 1-based line.
        line: usize,
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
        /// width * height.
        expected: usize,
        /// Letters found.
        got: usize,
    },
    /// A character that is not a cell letter.
    #[error("line {line}, column {col}: unknown cell {ch:?} (expected P peg, H hole or O off the board)")]
    BadChar {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// The character.
        ch: char,
    },
    /// A picture with more than [`MAX_SIDE`] rows or columns.
    #[error("board of {width}x{height} cells is too large (at most {MAX_SIDE}x{MAX_SIDE})")]
    TooLarge {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A position without a single peg.
    #[error("the board has no pegs")]
    NoPegs,
}

/// Parses a game ID or a picture (see the module documentation).
pub fn parse_game(text: &str) -> Result<Game, ParseError> {
    let first = text.lines().enumerate().find(|(_, l)| !l.trim().is_empty());
    let Some((line_no, line)) = first else {
        return Err(ParseError::Empty);
    };
    let trimmed = line.trim();
    if trimmed.contains(':') {
        let lead = line.len() - line.trim_start().len();
        return parse_id(trimmed, line_no + 1, lead + 1);
    }
    parse_picture(text)
}

/// Parses an `sgt-pegs` game ID found on `line`, starting at column `col0`.
fn parse_id(id: &str, line: usize, col0: usize) -> Result<Game, ParseError> {
    let (size, cells) = id.split_once(':').expect("caller checked the colon");
    let bad_size = || ParseError::BadSize {
        line,
        col: col0,
        text: size.to_string(),
    };
    let (w, h) = size.split_once(['x', 'X']).ok_or_else(bad_size)?;
    let width: usize = w.parse().map_err(|_| bad_size())?;
    let height: usize = h.parse().map_err(|_| bad_size())?;
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        return Err(ParseError::Size {
            line,
            source: BoardError::Size { width, height },
        });
    }
    let col_cells = col0 + size.len() + 1;
    let letters: Vec<char> = cells.chars().collect();
    if letters.len() != width * height {
        return Err(ParseError::Length {
            line,
            width,
            height,
            expected: width * height,
            got: letters.len(),
        });
    }
    let mut on = 0u128;
    let mut pegs = 0u128;
    for (i, &ch) in letters.iter().enumerate() {
        match ch {
            'P' => {
                on |= bit(i as u8);
                pegs |= bit(i as u8);
            }
            'H' => on |= bit(i as u8),
            'O' => {}
            _ => {
                return Err(ParseError::BadChar {
                    line,
                    col: col_cells + i,
                    ch,
                })
            }
        }
    }
    finish(width, height, on, pegs, line)
}

fn finish(
    width: usize,
    height: usize,
    on: u128,
    pegs: u128,
    line: usize,
) -> Result<Game, ParseError> {
    let board =
        Board::new(width, height, on).map_err(|source| ParseError::Size { line, source })?;
    if pegs == 0 {
        return Err(ParseError::NoPegs);
    }
    Ok(Game { board, pegs })
}

/// Parses rows of cells, one row per line.
fn parse_picture(text: &str) -> Result<Game, ParseError> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end()))
        .collect();
    // Drop blank lines at the start and the end; keep inner ones as rows
    // of off-board cells.
    let start = lines.iter().position(|(_, l)| !l.is_empty()).unwrap_or(0);
    let end = lines
        .iter()
        .rposition(|(_, l)| !l.is_empty())
        .map_or(0, |e| e + 1);
    let rows = &lines[start..end];
    let height = rows.len();
    let width = rows
        .iter()
        .map(|(_, l)| l.chars().count())
        .max()
        .unwrap_or(0);
    if height == 0 || width == 0 {
        return Err(ParseError::Empty);
    }
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(ParseError::TooLarge { width, height });
    }
    let mut on = 0u128;
    let mut pegs = 0u128;
    for (r, (line, text)) in rows.iter().enumerate() {
        for (c, ch) in text.chars().enumerate() {
            let i = (r * width + c) as u8;
            match ch {
                'P' | 'o' => {
                    on |= bit(i);
                    pegs |= bit(i);
                }
                'H' | '.' => on |= bit(i),
                'O' | ' ' => {}
                _ => {
                    return Err(ParseError::BadChar {
                        line: *line,
                        col: c + 1,
                        ch,
                    })
                }
            }
        }
    }
    finish(width, height, on, pegs, rows[0].0)
}

/// The English 33-hole board with the centre empty.
pub const ENGLISH: &str = "7x7:OOPPPOOOOPPPOOPPPPPPPPPPHPPPPPPPPPPOOPPPOOOOPPPOO";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_board() {
        let g = parse_game(ENGLISH).unwrap();
        assert_eq!(g.board.len(), 33);
        assert_eq!(g.peg_count(), 32);
        assert_eq!(g.id(), ENGLISH);
        assert!(!g.board.on_board(0, 0));
        assert!(g.board.on_board(3, 3));
        assert_eq!(g.pegs & bit(g.board.index(3, 3)), 0);
    }

    #[test]
    fn picture_round_trips_to_the_same_game() {
        let g = parse_game(ENGLISH).unwrap();
        let pic = g.to_string();
        assert_eq!(parse_game(&pic).unwrap(), g);
        let g2 = parse_game("\n  PPP\n  P.P\nPPPPPPP\n").unwrap();
        assert_eq!(g2.board.width(), 7);
        assert_eq!(g2.board.height(), 3);
        assert_eq!(g2.peg_count(), 12);
    }

    #[test]
    fn errors_name_what_and_where() {
        assert_eq!(parse_game("  \n "), Err(ParseError::Empty));
        assert!(matches!(
            parse_game("3x3:PPPHHH"),
            Err(ParseError::Length {
                expected: 9,
                got: 6,
                ..
            })
        ));
        let e = parse_game("3x3:PPPHXHOOO").unwrap_err();
        assert_eq!(
            e,
            ParseError::BadChar {
                line: 1,
                col: 9,
                ch: 'X'
            }
        );
        assert!(e.to_string().contains("column 9"));
        assert_eq!(parse_game("2x2:HHHO"), Err(ParseError::NoPegs));
        assert!(matches!(parse_game("12x3:P"), Err(ParseError::Size { .. })));
        assert!(matches!(
            parse_game("ax3:P"),
            Err(ParseError::BadSize { .. })
        ));
        assert!(matches!(
            parse_game("PP\nP#"),
            Err(ParseError::BadChar {
                line: 2,
                col: 2,
                ch: '#'
            })
        ));
        assert!(matches!(
            parse_game("PPPPPPPPPPPP"),
            Err(ParseError::TooLarge { width: 12, .. })
        ));
    }
}
