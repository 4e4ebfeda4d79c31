//! Reading Flood-It boards from text. Three forms are detected
//! automatically:
//!
//! - an `sgt-flood` game ID, `WxH:<cells>[,<limit>]`, one character per
//!   cell (as printed by `sgt-flood --generate`); colours keep their digit;
//! - one square board on one line (as in the shared benchmark files), one
//!   character per cell;
//! - rows of digits or letters, one row per line (spaces inside a row are
//!   ignored).
//!
//! In the last two forms the distinct symbols, sorted, become colours
//! `0..k`; [`ParsedBoard::symbols`] maps them back so moves can be printed
//! in the user's own symbols. Errors name the 1-based line and column.

use super::board::{Board, BoardError};

/// A board read from text, with the symbols its colours were written in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedBoard {
    /// The board (flooding from the top-left cell).
    pub board: Board,
    /// `symbols[c]` is the character that stood for colour `c`.
    pub symbols: Vec<char>,
    /// The move limit of an `sgt-flood` game ID, when given.
    pub move_limit: Option<usize>,
}

impl ParsedBoard {
    /// The symbol of colour `c`.
    pub fn symbol(&self, c: u8) -> char {
        self.symbols[c as usize]
    }
}

/// Why a text is not a board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Nothing but whitespace.
    #[error("empty input: no board found")]
    Empty,
    /// A character that is not a digit or letter.
    #[error(
        "line {line}, column {col}: unexpected character {ch:?} (cells must be digits or letters)"
    )]
    BadChar {
        /// Line (1-based).
        line: usize,
        /// Column (0-based).
        col: usize,
        /// The character.
        ch: char,
    },
    /// A row whose length differs from the first row.
    #[error("line {line}, column {col}: row has {got} cells but the first row has {expected}")]
    Ragged {
        /// Line (1-based).
        line: usize,
        /// Column (0-based).
        col: usize,
        /// What was found.
        got: usize,
        /// What was expected.
        expected: usize,
    },
    /// A one-line board whose length is not a square number.
    #[error("line {line}, column {col}: a one-line board must be square, but {cells} cells is not a square number")]
    NotSquare {
        /// Line (1-based).
        line: usize,
        /// Column (0-based).
        col: usize,
        /// How many cells the line has.
        cells: usize,
    },
    /// A 17th distinct symbol.
    #[error("line {line}, column {col}: symbol {ch:?} is a 17th colour; at most 16 are supported")]
    TooManyColours {
        /// Line (1-based).
        line: usize,
        /// Column (0-based).
        col: usize,
        /// The character.
        ch: char,
    },
    /// A malformed `sgt-flood` game ID.
    #[error("line {line}, column {col}: bad sgt-flood game ID: {msg}")]
    GameId {
        /// Line (1-based).
        line: usize,
        /// Column (0-based).
        col: usize,
        /// What went wrong.
        msg: String,
    },
    /// Sizes out of range.
    #[error("line {line}: {source}")]
    Board {
        /// Line (1-based).
        line: usize,
        /// The underlying error.
        source: BoardError,
    },
}

/// Parses a board in any of the three forms (see the module docs).
pub fn parse_board(text: &str) -> Result<ParsedBoard, ParseError> {
    parse_lines(&numbered_lines(text))
}

/// The lines of `text` with their 1-based numbers, trailing whitespace
/// removed.
fn numbered_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end()))
        .collect()
}

/// Parses one board from numbered lines (see [`parse_board`]); error
/// positions are the lines' own numbers.
fn parse_lines(lines: &[(usize, &str)]) -> Result<ParsedBoard, ParseError> {
    let first = lines
        .iter()
        .position(|(_, l)| !l.trim().is_empty())
        .ok_or(ParseError::Empty)?;
    let last = lines
        .iter()
        .rposition(|(_, l)| !l.trim().is_empty())
        .unwrap();
    let lines = &lines[first..=last];
    let (lno, l0) = lines[0];
    if lines.len() == 1 && is_game_id(l0.trim()) {
        let indent = l0.len() - l0.trim_start().len();
        return parse_game_id_at(l0.trim(), lno, indent);
    }
    // Collect cells as (line, col, char) per row.
    let mut rows: Vec<Vec<(usize, usize, char)>> = Vec::new();
    for &(line, l) in lines {
        let mut row = Vec::new();
        for (i, ch) in l.chars().enumerate() {
            if ch == ' ' || ch == '\t' {
                continue;
            }
            if !ch.is_ascii_alphanumeric() {
                return Err(ParseError::BadChar {
                    line,
                    col: i + 1,
                    ch,
                });
            }
            row.push((line, i + 1, ch));
        }
        rows.push(row);
    }
    if rows.len() == 1 {
        let n = rows[0].len();
        let side = (n as f64).sqrt().round() as usize;
        if side * side != n {
            return Err(ParseError::NotSquare {
                line: lno,
                col: 1,
                cells: n,
            });
        }
        let row = rows.pop().unwrap();
        rows = row.chunks(side).map(|c| c.to_vec()).collect();
    }
    let width = rows[0].len();
    for (r, row) in rows.iter().enumerate() {
        if row.len() != width {
            let (line, _) = lines[r];
            let col = if row.len() > width {
                row[width].1
            } else {
                row.last().map_or(1, |c| c.1 + 1)
            };
            return Err(ParseError::Ragged {
                line,
                col,
                got: row.len(),
                expected: width,
            });
        }
    }
    let height = rows.len();
    let mut symbols: Vec<char> = Vec::new();
    for &(line, col, ch) in rows.iter().flatten() {
        if !symbols.contains(&ch) {
            if symbols.len() == Board::MAX_COLOURS as usize {
                return Err(ParseError::TooManyColours { line, col, ch });
            }
            symbols.push(ch);
        }
    }
    symbols.sort_unstable();
    let cells: Vec<u8> = rows
        .iter()
        .flatten()
        .map(|&(_, _, ch)| symbols.iter().position(|&s| s == ch).unwrap() as u8)
        .collect();
    let board = Board::try_new(width, height, symbols.len() as u8, cells)
        .map_err(|source| ParseError::Board { line: lno, source })?;
    Ok(ParsedBoard {
        board,
        symbols,
        move_limit: None,
    })
}

/// One board of a set read by [`parse_board_set`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetBoard {
    /// 1-based line of the file where the board starts.
    pub line: usize,
    /// The board.
    pub parsed: ParsedBoard,
}

/// Parses a file of boards (a benchmark set). Boards are separated by blank
/// lines; each group of consecutive non-empty lines is one board in any form
/// of [`parse_board`] (rows, one square line, an sgt-flood game ID). A file
/// with no blank line between boards holds one board a line (the shared
/// benchmark sets), except when it is a single board written in rows: a
/// group whose lines are not each a board of their own (a line count that
/// is not a square number, or as many lines as cells per line) is one
/// board. So a file of exactly n one-line boards of n cells each must
/// separate them by blank lines. Errors name the file's own line numbers.
pub fn parse_board_set(text: &str) -> Result<Vec<SetBoard>, ParseError> {
    let lines = numbered_lines(text);
    let mut groups: Vec<&[(usize, &str)]> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].1.trim().is_empty() {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && !lines[i].1.trim().is_empty() {
            i += 1;
        }
        groups.push(&lines[start..i]);
    }
    if groups.is_empty() {
        return Err(ParseError::Empty);
    }
    let one_per_line = groups.len() == 1 && lines_are_boards(groups[0]);
    let mut boards = Vec::new();
    for group in groups {
        if one_per_line {
            for &line in group {
                boards.push(SetBoard {
                    line: line.0,
                    parsed: parse_lines(&[line])?,
                });
            }
        } else {
            boards.push(SetBoard {
                line: group[0].0,
                parsed: parse_lines(group)?,
            });
        }
    }
    Ok(boards)
}

/// True when a group of several lines reads as one board a line: every line
/// is a game ID, or every line has the same square number of cells (at
/// least 4), different from the number of lines.
fn lines_are_boards(group: &[(usize, &str)]) -> bool {
    if group.len() < 2 {
        return false;
    }
    if group.iter().all(|(_, l)| is_game_id(l.trim())) {
        return true;
    }
    let cells = |l: &str| l.chars().filter(|c| !c.is_whitespace()).count();
    let n = cells(group[0].1);
    let side = (n as f64).sqrt().round() as usize;
    side >= 2 && side * side == n && n != group.len() && group.iter().all(|(_, l)| cells(l) == n)
}

/// Where the flood starts: a given cell or the middle of each board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartCell {
    /// `(row, col)`, 0-based.
    At(usize, usize),
    /// The middle cell: row `(height - 1) / 2`, column `(width - 1) / 2`
    /// (the exact centre of an odd-sized board, the top-left one of the
    /// four middle cells of an even-sized one).
    Centre,
}

impl StartCell {
    /// The cell this start means on a `width` x `height` board.
    pub fn cell(self, width: usize, height: usize) -> (usize, usize) {
        match self {
            StartCell::At(r, c) => (r, c),
            StartCell::Centre => (height.saturating_sub(1) / 2, width.saturating_sub(1) / 2),
        }
    }

    /// `board` flooding from this start; a cell outside the board is an error.
    pub fn apply(self, board: Board) -> Result<Board, BoardError> {
        let (r, c) = self.cell(board.width(), board.height());
        board.try_with_start(r, c)
    }
}

impl std::str::FromStr for StartCell {
    type Err = String;

    /// `ROW,COL` (0-based) or `centre` / `center` / `middle`.
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        if ["centre", "center", "middle"]
            .iter()
            .any(|w| t.eq_ignore_ascii_case(w))
        {
            return Ok(StartCell::Centre);
        }
        let (r, c) = t
            .split_once(',')
            .ok_or_else(|| format!("expected ROW,COL or centre, got {s:?}"))?;
        let r = r.trim().parse().map_err(|_| format!("bad row {r:?}"))?;
        let c = c.trim().parse().map_err(|_| format!("bad column {c:?}"))?;
        Ok(StartCell::At(r, c))
    }
}

fn is_game_id(s: &str) -> bool {
    let Some((size, _)) = s.split_once(':') else {
        return false;
    };
    let Some((w, h)) = size.split_once('x') else {
        return false;
    };
    !w.is_empty() && !h.is_empty() && w.chars().chain(h.chars()).all(|c| c.is_ascii_digit())
}

/// Colour value of a game-ID cell character: `0-9` then `a-f`.
fn id_colour(ch: char) -> Option<u8> {
    ch.to_digit(16).map(|d| d as u8)
}

/// Parses an `sgt-flood` game ID and nothing else: `WxH:<cells>[,<limit>]`
/// (surrounding whitespace is ignored).
pub fn parse_game_id(text: &str) -> Result<ParsedBoard, ParseError> {
    let trimmed = text.trim();
    if !is_game_id(trimmed) {
        return Err(ParseError::GameId {
            line: 1,
            col: 1,
            msg: format!("{trimmed:?} is not of the form WxH:<cells>[,<limit>]"),
        });
    }
    let indent = text.len() - text.trim_start().len();
    parse_game_id_at(trimmed, 1, indent)
}

/// Parses a game ID found on line `line`, `indent` characters in.
fn parse_game_id_at(s: &str, line: usize, indent: usize) -> Result<ParsedBoard, ParseError> {
    let err = |col: usize, msg: String| ParseError::GameId {
        line,
        col: indent + col,
        msg,
    };
    let (size, rest) = s.split_once(':').unwrap();
    let (w, h) = size.split_once('x').unwrap();
    let width: usize = w
        .parse()
        .map_err(|_| err(1, format!("width {w:?} is not a number")))?;
    let height: usize = h
        .parse()
        .map_err(|_| err(w.len() + 2, format!("height {h:?} is not a number")))?;
    let cells_start = size.len() + 2;
    let (cells_str, limit) = match rest.split_once(',') {
        Some((c, l)) => {
            let lcol = cells_start + c.chars().count() + 1;
            let limit: usize = l
                .trim()
                .parse()
                .map_err(|_| err(lcol, format!("move limit {l:?} is not a number")))?;
            (c, Some(limit))
        }
        None => (rest, None),
    };
    let mut cells = Vec::with_capacity(cells_str.len());
    for (i, ch) in cells_str.chars().enumerate() {
        match id_colour(ch) {
            Some(c) => cells.push(c),
            None => {
                return Err(ParseError::BadChar {
                    line,
                    col: indent + cells_start + i,
                    ch,
                });
            }
        }
    }
    if cells.len() != width * height {
        return Err(err(
            cells_start,
            format!(
                "{width}x{height} needs {} cells, found {}",
                width * height,
                cells.len()
            ),
        ));
    }
    let colours = cells.iter().copied().max().unwrap_or(0) + 1;
    if colours > Board::MAX_COLOURS {
        return Err(err(
            cells_start,
            format!("{colours} colours; at most 16 are supported"),
        ));
    }
    let symbols = (0..colours)
        .map(|c| char::from_digit(c as u32, 16).unwrap())
        .collect();
    let board = Board::try_new(width, height, colours, cells)
        .map_err(|source| ParseError::Board { line, source })?;
    Ok(ParsedBoard {
        board,
        symbols,
        move_limit: limit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_form() {
        let p = parse_board("\n12\n31\n\n").unwrap();
        assert_eq!((p.board.width(), p.board.height()), (2, 2));
        assert_eq!(p.board.cells(), &[0, 1, 2, 0]);
        assert_eq!(p.symbols, vec!['1', '2', '3']);
        let p = parse_board("a b\nb a\n").unwrap();
        assert_eq!(p.board.cells(), &[0, 1, 1, 0]);
    }

    #[test]
    fn one_line_form() {
        let p = parse_board("123412341234123412341234123412341234").unwrap();
        assert_eq!((p.board.width(), p.board.height()), (6, 6));
        assert_eq!(p.board.colours(), 4);
        assert_eq!(
            parse_board("12345"),
            Err(ParseError::NotSquare {
                line: 1,
                col: 1,
                cells: 5
            })
        );
    }

    #[test]
    fn game_id_form() {
        let p = parse_board("3x2:012210,5\n").unwrap();
        assert_eq!((p.board.width(), p.board.height()), (3, 2));
        assert_eq!(p.board.cells(), &[0, 1, 2, 2, 1, 0]);
        assert_eq!(p.move_limit, Some(5));
        assert_eq!(p.symbol(2), '2');
        assert!(matches!(
            parse_board("3x2:01221,5"),
            Err(ParseError::GameId { .. })
        ));
        assert!(matches!(
            parse_board("3x2:01z210"),
            Err(ParseError::BadChar { col: 7, .. })
        ));
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(parse_board("  \n"), Err(ParseError::Empty));
        assert_eq!(
            parse_board("12\n1?"),
            Err(ParseError::BadChar {
                line: 2,
                col: 2,
                ch: '?'
            })
        );
        assert_eq!(
            parse_board("123\n12\n"),
            Err(ParseError::Ragged {
                line: 2,
                col: 3,
                got: 2,
                expected: 3
            })
        );
        assert_eq!(
            parse_board("12\n123\n"),
            Err(ParseError::Ragged {
                line: 2,
                col: 3,
                got: 3,
                expected: 2
            })
        );
        let many: String = "0123456789abcdefg"
            .chars()
            .collect::<Vec<_>>()
            .chunks(1)
            .map(|c| c[0])
            .collect();
        let text = format!("{many}\n{many}\n");
        assert_eq!(
            parse_board(&text),
            Err(ParseError::TooManyColours {
                line: 1,
                col: 17,
                ch: 'g'
            })
        );
        let wide = "1".repeat(65);
        assert!(matches!(
            parse_board(&format!("{wide}\n{wide}")),
            Err(ParseError::Board { .. })
        ));
    }

    #[test]
    fn sets_one_board_a_line() {
        let text = "1212\n2121\n\n1122\n";
        // Two groups: each group is one board (rows form).
        let set = parse_board_set(text).unwrap();
        assert_eq!(set.len(), 2);
        assert_eq!(set[0].line, 1);
        assert_eq!(set[1].line, 4);
        assert_eq!(
            (set[0].parsed.board.width(), set[0].parsed.board.height()),
            (4, 2)
        );
        // One group of one-line boards (the shared benchmark format).
        let text = "123412341234123412341234123412341234\n111122223333444411112222333344441111\n";
        let set = parse_board_set(text).unwrap();
        assert_eq!(set.len(), 2);
        assert_eq!((set[1].line, set[1].parsed.board.width()), (2, 6));
        let ids = "2x2:0101\n2x2:0011,3\n";
        assert_eq!(parse_board_set(ids).unwrap().len(), 2);
    }

    #[test]
    fn sets_of_multi_line_boards() {
        // Two 3x3 boards over several lines, blank lines between and around.
        let text = "\n123\n231\n312\n\n\n111\n222\n333\n\n";
        let set = parse_board_set(text).unwrap();
        assert_eq!(set.len(), 2);
        assert_eq!((set[0].line, set[1].line), (2, 7));
        assert_eq!(set[1].parsed.board.cells(), &[0, 0, 0, 1, 1, 1, 2, 2, 2]);
        // A single square board written in rows, no blank line: one board,
        // also when its row length is a square number.
        let four = "1234\n2341\n3412\n4123\n";
        let set = parse_board_set(four).unwrap();
        assert_eq!(set.len(), 1);
        assert_eq!(set[0].parsed.board.width(), 4);
        let nineteen = format!("{}\n", "1234512345123451234").repeat(19);
        let set = parse_board_set(&nineteen).unwrap();
        assert_eq!((set.len(), set[0].parsed.board.width()), (1, 19));
    }

    #[test]
    fn set_errors_name_the_file_line() {
        assert_eq!(parse_board_set("\n \n"), Err(ParseError::Empty));
        let text = "12\n21\n\n12\n2?\n";
        assert_eq!(
            parse_board_set(text),
            Err(ParseError::BadChar {
                line: 5,
                col: 2,
                ch: '?'
            })
        );
        let text = "123\n231\n\n12\n123\n";
        assert!(matches!(
            parse_board_set(text),
            Err(ParseError::Ragged { line: 5, .. })
        ));
        let text = "1111\n2222\n3333\n12345\n";
        // Not all lines square: one rows board, ragged on line 4.
        assert!(matches!(
            parse_board_set(text),
            Err(ParseError::Ragged { line: 4, .. })
        ));
    }

    #[test]
    fn start_cells() {
        assert_eq!("centre".parse(), Ok(StartCell::Centre));
        assert_eq!("Center".parse(), Ok(StartCell::Centre));
        assert_eq!(" 3, 4".parse(), Ok(StartCell::At(3, 4)));
        assert!("3".parse::<StartCell>().is_err());
        assert!("a,1".parse::<StartCell>().is_err());
        assert_eq!(StartCell::Centre.cell(19, 19), (9, 9));
        assert_eq!(StartCell::Centre.cell(14, 14), (6, 6));
        assert_eq!(StartCell::Centre.cell(5, 2), (0, 2));
        let b = Board::new(3, 3, 2, vec![0; 9]);
        assert_eq!(StartCell::Centre.apply(b.clone()).unwrap().start(), (1, 1));
        assert!(StartCell::At(3, 0).apply(b).is_err());
    }
}

/// Property tests: no text makes the parsers panic, and every board written
/// out in any of the three forms parses back to itself.
#[cfg(test)]
mod fuzz {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(crate::fuzz::config(256))]

        #[test]
        fn any_text_parses_or_errs(text in "\\PC{0,80}") {
            let _ = parse_board(&text);
            let _ = parse_game_id(&text);
        }

        #[test]
        fn near_game_ids_parse_or_err(
            w in 0usize..40, h in 0usize..40, cells in "[0-9A-Za-z:,x ]{0,60}", tail in "[0-9,]{0,6}"
        ) {
            let id = format!("{w}x{h}:{cells}{tail}");
            let _ = parse_board(&id);
            if let Ok(p) = parse_game_id(&id) {
                prop_assert_eq!(p.board.width(), w);
                prop_assert_eq!(p.board.height(), h);
            }
        }

        #[test]
        fn boards_round_trip(
            (w, h, cells) in (1usize..12, 2usize..12).prop_flat_map(|(w, h)| {
                (Just(w), Just(h), proptest::collection::vec(0u8..10, w * h))
            })
        ) {
            let digits: Vec<char> = cells.iter().map(|&c| char::from(b'0' + c)).collect();
            // sgt game ID: digits keep their colour.
            let id: String = format!("{w}x{h}:{}", digits.iter().collect::<String>());
            let parsed = parse_game_id(&id).unwrap();
            prop_assert_eq!(parsed.board.cells(), &cells[..]);
            // Rows of digits: colours are the sorted distinct symbols.
            let rows: Vec<String> = digits.chunks(w).map(|r| r.iter().collect()).collect();
            let parsed = parse_board(&rows.join("\n")).unwrap();
            prop_assert_eq!((parsed.board.width(), parsed.board.height()), (w, h));
            for (i, &c) in parsed.board.cells().iter().enumerate() {
                prop_assert_eq!(parsed.symbol(c), digits[i]);
            }
        }
    }
}
