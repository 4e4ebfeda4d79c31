//! The Gemji level text format:
//!
//! ```text
//! # a comment
//! size 6x6
//! board
//! R.....
//! ..Y...
//! ......
//! ...K..
//! ......
//! ....W.
//! finish
//! ......
//! ......
//! ..*...
//! ......
//! .....y
//! ......
//! ```
//!
//! `size WxH` (1..=10 each), then `board`: H rows of W cells, `.` empty or
//! a gem letter (`R`ed, `Y`ellow, `B`lue, `P`urple, `W`hite, `G`rey,
//! blac`K`, either case); then `finish`: H rows, `.` no finish, `*` a
//! finish for any gem, or a gem letter for a finish of that type (black
//! excluded). Blank lines and lines starting with `#` are ignored. A level
//! needs at least one finish and no more finishes than movable gems (black
//! gems never move). Errors name the 1-based line and column.

use super::rules::{Finish, Gem, Level, State, MAX_SIDE};

/// Why a text is not a Gemji level.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A line that is not what the format expects there.
    #[error("line {line}, column {col}: {msg}")]
    At {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What was expected or found.
        msg: String,
    },
    /// The text ended early.
    #[error("line {line}: unexpected end of the level: {msg}")]
    Eof {
        /// The line after the last one.
        line: usize,
        /// What was still expected.
        msg: String,
    },
    /// More finishes than gems that can move.
    #[error("line {line}: {finishes} finishes but only {gems} gems that can move (black gems never move)")]
    TooManyFinishes {
        /// The `finish` line.
        line: usize,
        /// Finishes found.
        finishes: usize,
        /// Gems other than black.
        gems: usize,
    },
    /// A level without finishes.
    #[error("line {line}: the level has no finish")]
    NoFinish {
        /// The `finish` line.
        line: usize,
    },
}

fn at(line: usize, col: usize, msg: impl Into<String>) -> ParseError {
    ParseError::At {
        line,
        col,
        msg: msg.into(),
    }
}

/// Parses one level.
pub fn parse_level(text: &str) -> Result<Level, ParseError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end()))
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let end = text.lines().count() + 1;
    let mut next = |what: &str| {
        lines.next().ok_or_else(|| ParseError::Eof {
            line: end,
            msg: format!("expected {what}"),
        })
    };
    let (ln, l) = next("`size WxH`")?;
    let indent = l.len() - l.trim_start().len();
    let body = l.trim_start();
    let rest = body.strip_prefix("size").ok_or_else(|| {
        at(
            ln,
            indent + 1,
            format!("expected `size WxH`, found {body:?}"),
        )
    })?;
    let spec = rest.trim();
    let col = indent + 4 + (rest.len() - rest.trim_start().len()) + 1;
    let (w, h) = spec
        .split_once(['x', 'X'])
        .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
        .filter(|&(w, h)| (1..=MAX_SIDE).contains(&w) && (1..=MAX_SIDE).contains(&h))
        .ok_or_else(|| {
            at(
                ln,
                col,
                format!("{spec:?} is not a size WxH with W and H from 1 to {MAX_SIDE}"),
            )
        })?;
    type Grid = (usize, Vec<(usize, Vec<char>)>);
    let mut grid = |title: &str| -> Result<Grid, ParseError> {
        let (tl, t) = next(&format!("`{title}`"))?;
        if t.trim() != title {
            return Err(at(
                tl,
                t.len() - t.trim_start().len() + 1,
                format!("expected `{title}`, found {:?}", t.trim()),
            ));
        }
        let mut rows = Vec::new();
        for r in 0..h {
            let (rl, row) = next(&format!("row {} of {h} of `{title}`", r + 1))?;
            let cells: Vec<char> = row.chars().collect();
            if cells.len() != w {
                return Err(at(
                    rl,
                    1,
                    format!(
                        "row {} of `{title}` has {} cells, the size says {w}",
                        r + 1,
                        cells.len()
                    ),
                ));
            }
            rows.push((rl, cells));
        }
        Ok((tl, rows))
    };
    let (_, board_rows) = grid("board")?;
    let mut start = State::empty();
    for (y, (rl, row)) in board_rows.iter().enumerate() {
        for (x, &ch) in row.iter().enumerate() {
            if ch == '.' {
                continue;
            }
            let g = Gem::from_letter(ch).ok_or_else(|| {
                at(
                    *rl,
                    x + 1,
                    format!("unknown gem {ch:?} (R Y B P W G K or '.')"),
                )
            })?;
            start.cells[y * w + x] = g as u8;
        }
    }
    let (fl, fin_rows) = grid("finish")?;
    let mut finishes = Vec::new();
    for (y, (rl, row)) in fin_rows.iter().enumerate() {
        for (x, &ch) in row.iter().enumerate() {
            let gem = match ch {
                '.' => continue,
                '*' => None,
                _ => match Gem::from_letter(ch) {
                    Some(Gem::Black) | None => {
                        return Err(at(
                            *rl,
                            x + 1,
                            format!(
                            "unknown finish {ch:?} ('*' any gem, R Y B P W G a gem type, or '.')"
                        ),
                        ))
                    }
                    Some(g) => Some(g),
                },
            };
            finishes.push(Finish {
                cell: (y * w + x) as u8,
                gem,
            });
        }
    }
    if let Some((ln, l)) = lines.next() {
        return Err(at(ln, 1, format!("unexpected text after the level: {l:?}")));
    }
    if finishes.is_empty() {
        return Err(ParseError::NoFinish { line: fl });
    }
    let gems = start
        .cells
        .iter()
        .filter(|&&c| c != 0 && c != Gem::Black as u8)
        .count();
    if finishes.len() > gems {
        return Err(ParseError::TooManyFinishes {
            line: fl,
            finishes: finishes.len(),
            gems,
        });
    }
    Ok(Level {
        width: w,
        height: h,
        start,
        finishes,
    })
}

/// Writes `level` in the format [`parse_level`] reads.
pub fn format_level(level: &Level) -> String {
    let mut out = format!("size {}x{}\nboard\n", level.width, level.height);
    for y in 0..level.height {
        for x in 0..level.width {
            out.push(
                level
                    .start
                    .gem(y * level.width + x)
                    .map_or('.', Gem::letter),
            );
        }
        out.push('\n');
    }
    out.push_str("finish\n");
    for y in 0..level.height {
        for x in 0..level.width {
            let c = (y * level.width + x) as u8;
            out.push(match level.finishes.iter().find(|f| f.cell == c) {
                None => '.',
                Some(Finish { gem: None, .. }) => '*',
                Some(Finish { gem: Some(g), .. }) => g.letter(),
            });
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "# sample\nsize 3x2\nboard\nR.y\n..K\n\nfinish\n.*.\n..Y\n";

    #[test]
    fn reads_and_writes_a_level() {
        let l = parse_level(SAMPLE).unwrap();
        assert_eq!((l.width, l.height), (3, 2));
        assert_eq!(l.start.gem(0), Some(Gem::Red));
        assert_eq!(l.start.gem(2), Some(Gem::Yellow));
        assert_eq!(l.start.gem(5), Some(Gem::Black));
        assert_eq!(l.finishes.len(), 2);
        assert_eq!(l.finishes[1].gem, Some(Gem::Yellow));
        assert_eq!(parse_level(&format_level(&l)).unwrap(), l);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse_level("size 3x2\nboard\nR.x\n..K\nfinish\n.*.\n...\n").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("line 3, column 3: unknown gem 'x'"),
            "{e}"
        );
        let e = parse_level("size 3x2\nboard\nR.\n").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("line 3, column 1: row 1 of `board` has 2 cells"),
            "{e}"
        );
        let e = parse_level("size 11x2\n").unwrap_err();
        assert!(e.to_string().starts_with("line 1, column 6:"), "{e}");
        let e = parse_level("sise 3x2\n").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("line 1, column 1: expected `size WxH`"),
            "{e}"
        );
        let e = parse_level("size 3x2\nboard\nR..\n...\n").unwrap_err();
        assert!(matches!(e, ParseError::Eof { line: 5, .. }), "{e}");
        let e = parse_level("size 3x2\nboard\nR..\n..K\nfinish\n**.\n...\n").unwrap_err();
        assert_eq!(
            e,
            ParseError::TooManyFinishes {
                line: 5,
                finishes: 2,
                gems: 1
            }
        );
        let e = parse_level("size 3x2\nboard\nR..\n..K\nfinish\n...\n...\n").unwrap_err();
        assert_eq!(e, ParseError::NoFinish { line: 5 });
        let e = parse_level("size 3x2\nboard\nR..\n...\nfinish\n.K.\n...\n").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("line 6, column 2: unknown finish 'K'"),
            "{e}"
        );
        let e = parse_level("size 3x2\nboard\nR..\n...\nfinish\n.*.\n...\nextra\n").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("line 8, column 1: unexpected text"),
            "{e}"
        );
    }
}
