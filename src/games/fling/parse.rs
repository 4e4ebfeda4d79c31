//! Reading Fling! boards from text.
//!
//! A level file (as in `benchmarks/fling/levelN.txt`) holds several boards.
//! Each board is 8 rows of 7 cells, `o` (or `O`) a ball and `.` an empty
//! cell, optionally preceded by a `Hash: N` line (the board's bitboard,
//! cell `(x, y)` at bit `y * 7 + x`), which must then agree with the rows.
//! Boards are separated by blank lines or lines of dashes (`----`). On the
//! command line a board may also be written on one line with `/` between
//! rows. Errors name the 1-based line and column.

use super::rules::{cell, Board, HEIGHT, WIDTH};

/// One board of a level file and where it was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelBoard {
    /// The position.
    pub board: Board,
    /// The `Hash:` value given for it, if any (checked against the rows).
    pub hash: Option<u64>,
    /// 1-based line of its first row (or its `Hash:` line).
    pub line: usize,
}

/// Why a text is not a list of Fling! boards.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Nothing but blank lines and separators.
    #[error("no board found (expected 8 rows of 7 cells, 'o' a ball and '.' empty)")]
    Empty,
    /// A character that is neither a ball nor an empty cell.
    #[error("line {line}, column {col}: unexpected character {ch:?} (cells are 'o' for a ball and '.' for empty)")]
    BadChar {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// The character.
        ch: char,
    },
    /// A row that is not 7 cells long.
    #[error("line {line}, column {col}: a row has {got} cells, Fling! rows have 7")]
    RowLength {
        /// 1-based line.
        line: usize,
        /// 1-based column where the row starts.
        col: usize,
        /// Cells found.
        got: usize,
    },
    /// A board that does not have 8 rows.
    #[error("line {line}: the board starting here has {got} rows, Fling! boards have 8")]
    RowCount {
        /// 1-based line of the board's first row.
        line: usize,
        /// Rows found.
        got: usize,
    },
    /// A `Hash:` value that is not a number below 2^56.
    #[error("line {line}, column {col}: {text:?} is not a board hash (a number below 2^56)")]
    BadHash {
        /// 1-based line.
        line: usize,
        /// 1-based column of the value.
        col: usize,
        /// The text found.
        text: String,
    },
    /// A `Hash:` line that disagrees with the rows below it.
    #[error("line {line}: Hash: {hash} does not match the board below it (its rows give {board})")]
    HashMismatch {
        /// 1-based line of the `Hash:` line.
        line: usize,
        /// The hash given.
        hash: u64,
        /// The hash of the rows.
        board: u64,
    },
    /// A `Hash:` line with no rows after it.
    #[error("line {line}: Hash: line without a board after it")]
    HashWithoutBoard {
        /// 1-based line of the `Hash:` line.
        line: usize,
    },
}

#[derive(Default)]
struct Pending {
    hash: Option<(u64, usize)>,
    rows: Vec<(u64, usize)>,
    first_line: usize,
}

impl Pending {
    fn finish(&mut self, out: &mut Vec<LevelBoard>) -> Result<(), ParseError> {
        let p = std::mem::take(self);
        if p.rows.is_empty() {
            return match p.hash {
                Some((_, line)) => Err(ParseError::HashWithoutBoard { line }),
                None => Ok(()),
            };
        }
        if p.rows.len() != HEIGHT {
            return Err(ParseError::RowCount {
                line: p.first_line,
                got: p.rows.len(),
            });
        }
        let mut bits = 0u64;
        for (y, (row, _)) in p.rows.iter().enumerate() {
            bits |= row << cell(0, y);
        }
        if let Some((hash, line)) = p.hash {
            if hash != bits {
                return Err(ParseError::HashMismatch {
                    line,
                    hash,
                    board: bits,
                });
            }
        }
        out.push(LevelBoard {
            board: Board(bits),
            hash: p.hash.map(|h| h.0),
            line: p.first_line,
        });
        Ok(())
    }
}

/// Parses every board of `text` (a level file, or one board).
pub fn parse_boards(text: &str) -> Result<Vec<LevelBoard>, ParseError> {
    let mut out = Vec::new();
    let mut cur = Pending::default();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim_end();
        let indent = trimmed.len() - trimmed.trim_start().len();
        let body = trimmed.trim_start();
        if body.is_empty() || body.chars().all(|c| c == '-') {
            cur.finish(&mut out)?;
            continue;
        }
        if let Some(rest) = body.strip_prefix("Hash:") {
            cur.finish(&mut out)?;
            let value = rest.trim();
            let col = indent + 5 + (rest.len() - rest.trim_start().len()) + 1;
            let hash = value
                .parse::<u64>()
                .ok()
                .filter(|h| Board::new(*h).is_some())
                .ok_or_else(|| ParseError::BadHash {
                    line,
                    col,
                    text: value.to_string(),
                })?;
            cur.hash = Some((hash, line));
            cur.first_line = line;
            continue;
        }
        // One or more rows, `/` between rows.
        let mut col0 = indent;
        for seg in body.split('/') {
            let seg_start = col0 + 1;
            let mut row = 0u64;
            let mut n = 0usize;
            for (j, ch) in seg.chars().enumerate() {
                match ch {
                    'o' | 'O' => {
                        if n < WIDTH {
                            row |= 1 << n;
                        }
                        n += 1;
                    }
                    '.' => n += 1,
                    _ => {
                        return Err(ParseError::BadChar {
                            line,
                            col: seg_start + j,
                            ch,
                        })
                    }
                }
            }
            if n != WIDTH {
                return Err(ParseError::RowLength {
                    line,
                    col: seg_start,
                    got: n,
                });
            }
            if cur.rows.is_empty() && cur.hash.is_none() {
                cur.first_line = line;
            }
            cur.rows.push((row, line));
            if cur.rows.len() > HEIGHT {
                return Err(ParseError::RowCount {
                    line: cur.first_line,
                    got: cur.rows.len(),
                });
            }
            col0 += seg.chars().count() + 1;
        }
    }
    cur.finish(&mut out)?;
    if out.is_empty() {
        return Err(ParseError::Empty);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    // The first board of level 1 (benchmarks/fling/level1.txt, from the
    // hog2 project's apps/fling/levels/).
    const LEVEL1_HEAD: &str = "Hash: 37154696925872128\n.......\n.......\n..o....\n.......\n.......\n.......\n.......\n.o....o\n\n\n----\n\nHash: 6656\n.......\n..o.oo.\n.......\n.......\n.......\n.......\n.......\n.......\n";

    #[test]
    fn reads_level_files_and_checks_hashes() {
        let bs = parse_boards(LEVEL1_HEAD).unwrap();
        assert_eq!(bs.len(), 2);
        assert_eq!(bs[0].board.0, 37154696925872128);
        assert_eq!(bs[0].board.balls(), 3);
        assert_eq!(bs[0].line, 1);
        assert_eq!(bs[1].board.0, 6656);
        assert_eq!(bs[1].line, 14);
    }

    #[test]
    fn one_line_form() {
        let bs = parse_boards(".......//").unwrap_err();
        assert!(matches!(
            bs,
            ParseError::RowLength {
                line: 1,
                col: 9,
                got: 0
            }
        ));
        let t = "..o..../......./......./......./......./......./......./o......";
        let bs = parse_boards(t).unwrap();
        assert_eq!(bs[0].board.0, (1 << 2) | (1 << 49));
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse_boards(".......\n..x....\n").unwrap_err();
        assert_eq!(
            e,
            ParseError::BadChar {
                line: 2,
                col: 3,
                ch: 'x'
            }
        );
        assert!(e.to_string().starts_with("line 2, column 3"));
        let e = parse_boards("........\n").unwrap_err();
        assert_eq!(
            e,
            ParseError::RowLength {
                line: 1,
                col: 1,
                got: 8
            }
        );
        let e = parse_boards(".......\n.......\n\n").unwrap_err();
        assert_eq!(e, ParseError::RowCount { line: 1, got: 2 });
        let e = parse_boards(&".......\n".repeat(9)).unwrap_err();
        assert_eq!(e, ParseError::RowCount { line: 1, got: 9 });
        let e = parse_boards("Hash: 12x\n").unwrap_err();
        assert!(matches!(
            e,
            ParseError::BadHash {
                line: 1,
                col: 7,
                ..
            }
        ));
        let e = parse_boards(&format!("Hash: 5\n{}", ".......\n".repeat(8))).unwrap_err();
        assert!(matches!(
            e,
            ParseError::HashMismatch {
                line: 1,
                hash: 5,
                board: 0
            }
        ));
        assert_eq!(parse_boards("\n----\n").unwrap_err(), ParseError::Empty);
        assert_eq!(
            parse_boards("Hash: 0\n\n").unwrap_err(),
            ParseError::HashWithoutBoard { line: 1 }
        );
    }
}
