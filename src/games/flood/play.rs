//! Flood-It for the play loop: how sgt-flood's window is read (through the
//! capture module), solved (through the Flood-It solver), which cell to
//! click for a colour, and what its status line says.

use crate::play::{StatusReading, StatusResult};

use super::Board;

/// Names of sgt-flood's colours, in the game's own order.
pub const COLOUR_NAMES: [&str; 10] =
    ["red", "yellow", "green", "blue", "orange", "purple", "brown", "light blue", "light green", "pink"];

/// The name of colour `c`.
pub fn colour_name(c: u8) -> String {
    COLOUR_NAMES.get(c as usize).map_or_else(|| format!("colour {c}"), |s| s.to_string())
}

/// The cells of the region flooded from the start cell, as a mask.
pub fn flooded_region(board: &Board) -> Vec<bool> {
    let (w, h) = (board.width(), board.height());
    let (sr, sc) = board.start();
    let colour = board.get(sr, sc);
    let mut mask = vec![false; w * h];
    let mut stack = vec![sr * w + sc];
    mask[sr * w + sc] = true;
    while let Some(i) = stack.pop() {
        let (r, c) = (i / w, i % w);
        let mut push = |j: usize| {
            if !mask[j] && board.cells()[j] == colour {
                mask[j] = true;
                stack.push(j);
            }
        };
        if c > 0 {
            push(i - 1);
        }
        if c + 1 < w {
            push(i + 1);
        }
        if r > 0 {
            push(i - w);
        }
        if r + 1 < h {
            push(i + w);
        }
    }
    mask
}

/// The cell to click to play `colour`: a cell of that colour outside the
/// flooded region, preferably one adjacent to it (the one the move absorbs),
/// nearest the start cell. `None` when the colour is not on the board
/// outside the region.
pub fn click_cell(board: &Board, colour: u8) -> Option<(usize, usize)> {
    let (w, h) = (board.width(), board.height());
    let region = flooded_region(board);
    let (sr, sc) = board.start();
    let mut best: Option<(bool, usize, (usize, usize))> = None;
    for r in 0..h {
        for c in 0..w {
            let i = r * w + c;
            if region[i] || board.get(r, c) != colour {
                continue;
            }
            let adjacent = (c > 0 && region[i - 1])
                || (c + 1 < w && region[i + 1])
                || (r > 0 && region[i - w])
                || (r + 1 < h && region[i + w]);
            let distance = r.abs_diff(sr) + c.abs_diff(sc);
            let key = (!adjacent, distance, (r, c));
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
        }
    }
    best.map(|b| b.2)
}

/// Compact board text: rows of colour digits separated by `/`.
pub fn board_text(board: &Board) -> String {
    let digit = |c: u8| char::from_digit(c as u32, 36).unwrap_or('?').to_ascii_uppercase();
    (0..board.height())
        .map(|r| (0..board.width()).map(|c| digit(board.get(r, c))).collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}

/// What differs between two boards, for the log: the number of cells and
/// the first few of them.
pub fn board_diff(expected: &Board, seen: &Board) -> String {
    if expected.width() != seen.width() || expected.height() != seen.height() {
        return format!(
            "the board is {}x{} instead of {}x{}",
            seen.width(),
            seen.height(),
            expected.width(),
            expected.height()
        );
    }
    let mut cells = Vec::new();
    for r in 0..expected.height() {
        for c in 0..expected.width() {
            if expected.get(r, c) != seen.get(r, c) {
                cells.push((r, c));
            }
        }
    }
    let shown: Vec<String> = cells
        .iter()
        .take(4)
        .map(|&(r, c)| {
            format!("({r},{c}) {} instead of {}", colour_name(seen.get(r, c)), colour_name(expected.get(r, c)))
        })
        .collect();
    format!(
        "{} cells differ: {}{}",
        cells.len(),
        shown.join(", "),
        if cells.len() > shown.len() { ", ..." } else { "" }
    )
}

/// Interprets sgt-flood's status line: `"3 / 19 moves"`,
/// `"COMPLETED! 17 / 19 moves"`, `"FAILED! 20 / 19 moves"`, or the
/// `Auto-solved.` variants. OCR may drop spaces or read `O` for `0`.
pub fn parse_status(text: &str) -> StatusReading {
    let upper = text.to_ascii_uppercase();
    let numbers = parse_counts(&upper);
    let result = if upper.contains("COMPLETED") || upper.contains("AUTO-SOLVED") {
        StatusResult::Completed
    } else if upper.contains("FAILED") {
        StatusResult::Failed
    } else if numbers.is_some() || upper.contains("MOVES") {
        StatusResult::Playing
    } else {
        StatusResult::Unread
    };
    StatusReading {
        result,
        text: (!text.trim().is_empty()).then(|| text.trim().to_string()),
        moves: numbers.map(|n| n.0),
        limit: numbers.map(|n| n.1),
    }
}

/// The `a / b` pair before "MOVES", tolerant of OCR slips.
fn parse_counts(upper: &str) -> Option<(usize, usize)> {
    let end = upper.find("MOVE").unwrap_or(upper.len());
    let head: String = upper[..end]
        .chars()
        .map(|c| match c {
            'O' => '0',
            'I' | 'L' | '|' => '1',
            c => c,
        })
        .collect();
    let slash = head.rfind('/')?;
    let before: String = head[..slash].trim_end().chars().rev().take_while(|c| c.is_ascii_digit()).collect();
    let before: String = before.chars().rev().collect();
    let after: String = head[slash + 1..].trim_start().chars().take_while(|c| c.is_ascii_digit()).collect();
    Some((before.parse().ok()?, after.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_lines_parse() {
        let s = parse_status("0/19 moves");
        assert_eq!((s.result, s.moves, s.limit), (StatusResult::Playing, Some(0), Some(19)));
        let s = parse_status("COMPLETED! 17 / 19 moves");
        assert_eq!((s.result, s.moves, s.limit), (StatusResult::Completed, Some(17), Some(19)));
        let s = parse_status("FAILED! 20 / 19 moves\n");
        assert_eq!((s.result, s.moves, s.limit), (StatusResult::Failed, Some(20), Some(19)));
        assert_eq!(s.text.as_deref(), Some("FAILED! 20 / 19 moves"));
        let s = parse_status("1O / 2l moves");
        assert_eq!((s.moves, s.limit), (Some(10), Some(21)));
        let s = parse_status("");
        assert_eq!((s.result, s.text), (StatusResult::Unread, None));
    }

    #[test]
    fn click_cell_prefers_a_neighbour_of_the_region() {
        // 0 0 1
        // 2 1 1
        // 1 2 2
        let b = Board::new(3, 3, 3, vec![0, 0, 1, 2, 1, 1, 1, 2, 2]);
        assert_eq!(click_cell(&b, 1), Some((0, 2)));
        assert_eq!(click_cell(&b, 2), Some((1, 0)));
        assert_eq!(click_cell(&b, 0), None, "the region's own colour has no cell to click");
        // A colour only present away from the region is still clickable.
        let b = Board::new(3, 1, 3, vec![0, 1, 2]);
        assert_eq!(click_cell(&b, 2), Some((0, 2)));
    }

    #[test]
    fn text_and_diff() {
        let a = Board::new(2, 2, 3, vec![0, 1, 2, 0]);
        let b = Board::new(2, 2, 3, vec![0, 2, 2, 0]);
        assert_eq!(board_text(&a), "01/20");
        let d = board_diff(&a, &b);
        assert!(d.starts_with("1 cells differ: (0,1) green instead of yellow"), "{d}");
    }
}
