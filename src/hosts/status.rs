//! What an sgt puzzle's status line says: the text as OCR read it,
//! turned into a [`StatusReading`] (completed, failed, playing; the move
//! count and the limit where the line shows them). The same words serve
//! the desktop programs and the web build.

use crate::capture::ocr;
use crate::play::{StatusReading, StatusResult};

/// Interprets an sgt puzzle's status line: `"3 / 19 moves"`,
/// `"COMPLETED! 17 / 19 moves"`, `"FAILED! 20 / 19 moves"` (Flood),
/// `"Moves: 12"`, `"COMPLETED! Moves: 35"` (Fifteen), `"Moves: 3"`, or the
/// `Auto-solved.` variants. OCR may drop spaces or read `O` for `0`.
pub fn parse_status(text: &str) -> StatusReading {
    let upper = text.to_ascii_uppercase();
    let numbers = parse_counts(&upper);
    let single = numbers
        .is_none()
        .then(|| parse_moves_colon(&upper))
        .flatten();
    let result = if upper.contains("COMPLETED") || upper.contains("AUTO-SOLVED") {
        StatusResult::Completed
    } else if upper.contains("FAILED") {
        StatusResult::Failed
    } else if numbers.is_some() || single.is_some() || upper.contains("MOVES") {
        StatusResult::Playing
    } else {
        StatusResult::Unread
    };
    StatusReading {
        result,
        text: (!text.trim().is_empty()).then(|| text.trim().to_string()),
        moves: numbers.map(|n| n.0).or(single),
        limit: numbers.map(|n| n.1),
    }
}

/// The `a / b` pair before "MOVES", tolerant of OCR slips.
fn parse_counts(upper: &str) -> Option<(usize, usize)> {
    let end = upper.find("MOVE").unwrap_or(upper.len());
    let head = ocr::digit_slips(&upper[..end]);
    let slash = head.rfind('/')?;
    let before: String = head[..slash]
        .trim_end()
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    let before: String = before.chars().rev().collect();
    let after: String = head[slash + 1..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    Some((before.parse().ok()?, after.parse().ok()?))
}

/// The `n` of `MOVES: n` (OCR slips as in [`parse_counts`]).
fn parse_moves_colon(upper: &str) -> Option<usize> {
    let at = upper.find("MOVES:")? + "MOVES:".len();
    let digits: String = upper[at..]
        .trim_start()
        .chars()
        .map(|c| match c {
            'O' => '0',
            'I' | 'L' | '|' => '1',
            c => c,
        })
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flood_and_fifteen_lines() {
        let s = parse_status("COMPLETED! 17 / 19 moves");
        assert_eq!(s.result, StatusResult::Completed);
        assert_eq!((s.moves, s.limit), (Some(17), Some(19)));
        let s = parse_status("3/I9 moves");
        assert_eq!((s.moves, s.limit), (Some(3), Some(19)));
        assert_eq!(s.result, StatusResult::Playing);
        let s = parse_status("FAILED! 20 / 19 moves");
        assert_eq!(s.result, StatusResult::Failed);
        let s = parse_status("COMPLETED! Moves: 35");
        assert_eq!(s.result, StatusResult::Completed);
        assert_eq!((s.moves, s.limit), (Some(35), None));
        let s = parse_status("Moves: 1O");
        assert_eq!((s.result, s.moves), (StatusResult::Playing, Some(10)));
        assert_eq!(parse_status("").result, StatusResult::Unread);
    }

    #[test]
    fn status_lines_parse() {
        let s = parse_status("0/19 moves");
        assert_eq!(
            (s.result, s.moves, s.limit),
            (StatusResult::Playing, Some(0), Some(19))
        );
        let s = parse_status("COMPLETED! 17 / 19 moves");
        assert_eq!(
            (s.result, s.moves, s.limit),
            (StatusResult::Completed, Some(17), Some(19))
        );
        let s = parse_status("FAILED! 20 / 19 moves\n");
        assert_eq!(
            (s.result, s.moves, s.limit),
            (StatusResult::Failed, Some(20), Some(19))
        );
        assert_eq!(s.text.as_deref(), Some("FAILED! 20 / 19 moves"));
        let s = parse_status("1O / 2l moves");
        assert_eq!((s.moves, s.limit), (Some(10), Some(21)));
        let s = parse_status("");
        assert_eq!((s.result, s.text), (StatusResult::Unread, None));
    }
}
