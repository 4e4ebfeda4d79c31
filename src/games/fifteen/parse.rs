//! Reading sliding-tile boards from text. Two forms are detected:
//!
//! - an `sgt-fifteen` game ID, `WxH:n,n,...` (row order, 0 the gap), as
//!   printed by `sgt-fifteen --generate`;
//! - numbers separated by spaces or commas, one row per line (the width is
//!   the length of the first row), or all on one line for a square board
//!   (as in Korf's benchmark file). The gap may be written `0`, `.` or `_`.
//!
//! The goal is `sgt-fifteen`'s (gap bottom right). [`Convention::BlankFirst`]
//! reads boards written for the other common goal (gap top left, as in
//! Korf's set) by turning them 180 degrees and relabelling each tile `t` as
//! `n - t`, which keeps the optimal length. Errors name the 1-based line
//! and column.

use super::rules::{Board, BoardError};

/// Which goal the text's numbers are written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Convention {
    /// Gap at the bottom right, tiles 1.. in row order (`sgt-fifteen`).
    #[default]
    BlankLast,
    /// Gap at the top left, tiles 1.. after it (Korf 1985): converted.
    BlankFirst,
}

/// Why a text is not a board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Nothing but whitespace.
    #[error("empty input: no board found")]
    Empty,
    /// A token that is not a number or a gap mark.
    #[error(
        "line {line}, column {col}: {token:?} is not a tile number (use 0, '.' or '_' for the gap)"
    )]
    BadToken {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// The token.
        token: String,
    },
    /// A row whose length differs from the first row.
    #[error("line {line}: row has {got} numbers but the first row has {expected}")]
    Ragged {
        /// 1-based line.
        line: usize,
        /// Numbers on this line.
        got: usize,
        /// Numbers on the first line.
        expected: usize,
    },
    /// A one-line board whose length is not a square.
    #[error(
        "line {line}: a one-line board must be square, but {count} numbers is not a square number"
    )]
    NotSquare {
        /// 1-based line.
        line: usize,
        /// Numbers on it.
        count: usize,
    },
    /// A malformed `sgt-fifteen` game ID.
    #[error("line {line}, column {col}: bad sgt-fifteen game ID: {msg}")]
    GameId {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What is wrong.
        msg: String,
    },
    /// The numbers do not make a board.
    #[error("line {line}: {problem}")]
    Board {
        /// 1-based line where the board starts.
        line: usize,
        /// What is wrong.
        problem: BoardError,
    },
}

/// Parses a board in either form (see the module docs).
pub fn parse_board(text: &str, convention: Convention) -> Result<Board, ParseError> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end()))
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let Some(&(first_line, first)) = lines.first() else {
        return Err(ParseError::Empty);
    };
    if first.contains(':') {
        if lines.len() > 1 {
            return Err(ParseError::GameId {
                line: lines[1].0,
                col: 1,
                msg: "text after the game ID".into(),
            });
        }
        let board = parse_sgt_id_at(first, first_line)?;
        return Ok(convert(board, convention));
    }
    let mut rows: Vec<Vec<usize>> = Vec::new();
    for &(ln, line) in &lines {
        let row = numbers(line, ln)?;
        if let Some(f) = rows.first() {
            if f.len() != row.len() {
                return Err(ParseError::Ragged {
                    line: ln,
                    got: row.len(),
                    expected: f.len(),
                });
            }
        }
        rows.push(row);
    }
    let (w, h, nums) = if rows.len() == 1 {
        let count = rows[0].len();
        let side = (count as f64).sqrt().round() as usize;
        if side * side != count {
            return Err(ParseError::NotSquare {
                line: first_line,
                count,
            });
        }
        (side, side, rows.remove(0))
    } else {
        (rows[0].len(), rows.len(), rows.concat())
    };
    let board = Board::try_new(w, h, &nums).map_err(|problem| ParseError::Board {
        line: first_line,
        problem,
    })?;
    Ok(convert(board, convention))
}

/// Parses one `sgt-fifteen` game ID, `WxH:n,n,...`.
pub fn parse_sgt_id(id: &str) -> Result<Board, ParseError> {
    parse_sgt_id_at(id.trim(), 1)
}

fn parse_sgt_id_at(id: &str, line: usize) -> Result<Board, ParseError> {
    let lead = id.len() - id.trim_start().len();
    let id = id.trim();
    let err = |col: usize, msg: String| ParseError::GameId {
        line,
        col: col + lead + 1,
        msg,
    };
    let Some((size, body)) = id.split_once(':') else {
        return Err(err(0, "expected WxH:n,n,... (no ':' found)".into()));
    };
    let Some((ws, hs)) = size.split_once('x') else {
        return Err(err(0, format!("size {size:?} is not WxH")));
    };
    let w: usize = ws
        .parse()
        .map_err(|_| err(0, format!("width {ws:?} is not a number")))?;
    let h: usize = hs
        .parse()
        .map_err(|_| err(ws.len() + 1, format!("height {hs:?} is not a number")))?;
    let mut nums = Vec::new();
    let mut col = size.len() + 1;
    for tok in body.split(',') {
        let t = tok.trim();
        match t.parse::<usize>() {
            Ok(v) => nums.push(v),
            Err(_) => {
                return Err(err(
                    col,
                    format!("{t:?} is not a number (position {})", nums.len() + 1),
                ))
            }
        }
        col += tok.len() + 1;
    }
    Board::try_new(w, h, &nums).map_err(|problem| ParseError::Board { line, problem })
}

fn numbers(line: &str, ln: usize) -> Result<Vec<usize>, ParseError> {
    let mut out = Vec::new();
    let mut start = None;
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let flush = |s: Option<usize>, end: usize, out: &mut Vec<usize>| -> Result<(), ParseError> {
        if let Some(s) = s {
            let tok = &line[s..end];
            let v = match tok {
                "." | "_" => 0,
                _ => tok.parse().map_err(|_| ParseError::BadToken {
                    line: ln,
                    col: line[..s].chars().count() + 1,
                    token: tok.to_string(),
                })?,
            };
            out.push(v);
        }
        Ok(())
    };
    for &(i, c) in &chars {
        if c.is_whitespace() || c == ',' {
            flush(start.take(), i, &mut out)?;
        } else if start.is_none() {
            start = Some(i);
        }
    }
    flush(start, line.len(), &mut out)?;
    Ok(out)
}

/// Turns a board written for the blank-first goal into the equivalent
/// `sgt-fifteen` board (180-degree turn, tile `t` becomes `n - t`).
fn convert(board: Board, convention: Convention) -> Board {
    match convention {
        Convention::BlankLast => board,
        Convention::BlankFirst => {
            let n = board.cells().len();
            let nums: Vec<usize> = board
                .cells()
                .iter()
                .rev()
                .map(|&t| if t == 0 { 0 } else { n - t as usize })
                .collect();
            Board::try_new(board.width(), board.height(), &nums).expect("a relabelled board")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgt_id() {
        let b = parse_sgt_id("4x4:13,6,8,12,15,14,0,10,11,7,4,5,9,1,3,2").unwrap();
        assert_eq!(b.width(), 4);
        assert_eq!(b.at(1, 2), 0);
        assert_eq!(b.sgt_id(), "4x4:13,6,8,12,15,14,0,10,11,7,4,5,9,1,3,2");
        assert_eq!(
            parse_board("3x2:1,2,3,4,5,0\n", Convention::BlankLast).unwrap(),
            Board::goal(3, 2)
        );
    }

    #[test]
    fn sgt_id_errors() {
        let e = parse_sgt_id("4x4:1,2,3").unwrap_err().to_string();
        assert!(e.contains("a 4x4 board has 16 cells, but 3 numbers"), "{e}");
        let e = parse_sgt_id("2x2:1,1,2,0").unwrap_err().to_string();
        assert!(
            e.contains("number 1 appears twice, at positions 1 and 2"),
            "{e}"
        );
        let e = parse_sgt_id("2x2:1,2,3,5").unwrap_err().to_string();
        assert!(e.contains("out of range"), "{e}");
        let e = parse_sgt_id("2x2:1,x,3,0").unwrap_err().to_string();
        assert!(e.contains("column 7") && e.contains("\"x\""), "{e}");
        let e = parse_sgt_id("2y2:1,2,3,0").unwrap_err().to_string();
        assert!(e.contains("not WxH"), "{e}");
    }

    #[test]
    fn rows_and_lines() {
        let b = parse_board(" 1 2 3\n 4 5 .\n", Convention::BlankLast).unwrap();
        assert_eq!(b, Board::goal(3, 2));
        let b = parse_board("1,2,3,0", Convention::BlankLast).unwrap();
        assert_eq!(b, Board::goal(2, 2));
        let e = parse_board("1 2 3\n4 5\n", Convention::BlankLast).unwrap_err();
        assert_eq!(
            e,
            ParseError::Ragged {
                line: 2,
                got: 2,
                expected: 3
            }
        );
        let e = parse_board("1 2 3", Convention::BlankLast).unwrap_err();
        assert!(matches!(e, ParseError::NotSquare { count: 3, .. }));
        let e = parse_board("1 2\n3 q", Convention::BlankLast).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 3: \"q\" is not a tile number (use 0, '.' or '_' for the gap)"
        );
        assert_eq!(
            parse_board(" \n", Convention::BlankLast),
            Err(ParseError::Empty)
        );
    }

    #[test]
    fn korf_convention() {
        // Korf's goal (gap first) becomes sgt's goal.
        let korf_goal: String = (0..16).map(|i| format!("{i} ")).collect();
        let b = parse_board(&korf_goal, Convention::BlankFirst).unwrap();
        assert_eq!(b, Board::goal(4, 4));
    }
}
