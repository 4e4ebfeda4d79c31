//! Michael Fogleman's Rush Hour player (`rush-web/index.html#BOARD/MOVES`
//! of the shared games) in Chromium, as the play loop's host.
//!
//! The page draws the board on a p5 canvas and, under it, an HTML footer:
//! the counter `MOVES: n / required` (n the drags that moved a piece,
//! `required` the number after `/` in the fragment, absent without one),
//! then the Random, Reset and Undo buttons. The counter is read off the
//! screenshot like everything else: [`counter_line`] finds the first line
//! of dark text under the board, tesseract reads it
//! ([`crate::capture::ocr::read_line`]) and [`parse_counter`] takes the two
//! numbers. The page says nothing when the puzzle is solved (it flashes
//! the board), so the status is `playing` with the move count; the win is
//! the board's business ([`super::play`]).
//!
//! A new puzzle is a new fragment (the commands navigate the browser), so
//! the host has no new-game gesture.

use std::path::PathBuf;

use image::RgbaImage;

use crate::actuator::Gesture;
use crate::capture::ocr;
use crate::capture::screen::Screenshot;
use crate::hosts::sgt_web::games_dir;
use crate::hosts::Host;
use crate::play::{Rect, StatusReading, StatusResult};

/// The page of the player in its folder.
pub const PAGE: &str = "index.html";

/// Fogleman's player is not where it was looked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RushWebMissing {
    /// The shared games have a `rush-web/` without the player's files.
    #[error(
        "Fogleman's Rush Hour player was not found in {} (no index.html and app.js): set \
         GRIDBOT_GAMES to the folder that holds rush-web/ (the project's ../shared/games)",
        .0.display()
    )]
    Incomplete(PathBuf),
    /// No shared games folder.
    #[error(
        "Fogleman's Rush Hour player was not found: set GRIDBOT_GAMES to the folder that \
         holds rush-web/ (the project's ../shared/games)"
    )]
    NoGames,
}

/// The player's folder (holding `index.html` and `app.js`).
pub fn rush_web_dir() -> Result<PathBuf, RushWebMissing> {
    let dir = games_dir().map(|d| d.join("rush-web"));
    match dir {
        Some(d) if d.join(PAGE).is_file() && d.join("app.js").is_file() => Ok(d),
        Some(d) => Err(RushWebMissing::Incomplete(d)),
        None => Err(RushWebMissing::NoGames),
    }
}

/// The fragment that opens `board` on the page, with the number of moves
/// the page shows as required when known.
pub fn fragment(board: &str, required: Option<u32>) -> String {
    match required {
        Some(m) => format!("{board}/{m}"),
        None => board.to_string(),
    }
}

/// What the counter says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counter {
    /// Moves the page counted.
    pub moves: usize,
    /// Moves the page says the puzzle needs, when it shows the number.
    pub required: Option<usize>,
}

/// Reads `MOVES: n / required` (or `MOVES: n`) as OCR gives it: any case,
/// spaces dropped or added, `O` for `0` and `I`, `l` or `|` for `1` in
/// the numbers, `;` or `!` for the slash. `None` when there is no `MOVES` followed by a number.
pub fn parse_counter(text: &str) -> Option<Counter> {
    let upper = text.to_ascii_uppercase();
    let rest = ocr::after_label(&upper, "MOVES")?;
    let number = |s: &str| -> Option<(usize, usize)> {
        let s_trim = s.trim_start();
        let skipped = s.len() - s_trim.len();
        let digits: String = s_trim.chars().take_while(|c| c.is_ascii_digit()).collect();
        let n = digits.parse().ok()?;
        Some((n, skipped + digits.len()))
    };
    let (moves, used) = number(&rest)?;
    let after = rest[used..].trim_start();
    // The slash is read as `;` or `!` now and then.
    let required = after
        .strip_prefix(['/', ';', '!'])
        .and_then(number)
        .map(|(n, _)| n);
    Some(Counter { moves, required })
}

/// The status of a counter text: `playing` with the move count when it
/// parses, `unread` otherwise. The required number is not a limit (the
/// page lets a puzzle be played in any number of moves), so `limit` stays
/// empty; commands that want it parse [`StatusReading::text`] again.
pub fn status_of(text: &str) -> StatusReading {
    let counter = parse_counter(text);
    StatusReading {
        result: if counter.is_some() {
            StatusResult::Playing
        } else {
            StatusResult::Unread
        },
        text: (!text.trim().is_empty()).then(|| text.trim().to_string()),
        moves: counter.map(|c| c.moves),
        limit: None,
    }
}

/// True for a pixel of text (the page's text is `#333` anti-aliased on
/// white).
fn ink(image: &RgbaImage, x: u32, y: u32) -> bool {
    let p = image.get_pixel(x, y);
    u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2]) < 3 * 150
}

/// The counter's line under the board whose square (with its outline) is
/// `board`: the first band of rows with dark pixels below the first blank
/// row under the board, within the board's width around its centre; the
/// rectangle returned has a white margin for OCR. `None` when there is no
/// such band of a text's height.
pub fn counter_line(image: &RgbaImage, board: Rect) -> Option<Rect> {
    let (w, h) = image.dimensions();
    let centre = board.x + board.width / 2;
    let half = (board.width / 2).max(120);
    let x0 = centre.saturating_sub(half);
    let x1 = (centre + half).min(w);
    if x1 <= x0 {
        return None;
    }
    let row_has_ink = |y: u32| (x0..x1).any(|x| ink(image, x, y));
    let start = board.y + board.height;
    let blank = (start..h).find(|&y| !row_has_ink(y))?;
    let top = (blank..h).find(|&y| row_has_ink(y))?;
    let bottom = (top..h).find(|&y| !row_has_ink(y)).unwrap_or(h);
    let height = bottom - top;
    if !(6..=80).contains(&height) {
        return None;
    }
    let columns: Vec<u32> = (x0..x1)
        .filter(|&x| (top..bottom).any(|y| ink(image, x, y)))
        .collect();
    let (&left, &right) = (columns.first()?, columns.last()?);
    let margin = 8;
    let rect = Rect {
        x: left.saturating_sub(margin),
        y: top.saturating_sub(margin),
        width: right + 1 - left + 2 * margin,
        height: height + 2 * margin,
    };
    Some(rect.clip(w, h))
}

/// Reads the counter's text in `line`: with tesseract at scales 3, 2 and
/// 4 until two readings give the same numbers (the counter mixes 14- and
/// 24-pixel glyphs, and one scale alone misreads now and then: `51` as
/// `D1`). Returns the first of the agreeing readings, else the first that
/// parses, else the last text read.
pub fn read_counter(image: &RgbaImage, line: Rect) -> Result<String, ocr::OcrError> {
    let mut texts: Vec<(String, Option<Counter>)> = Vec::new();
    for scale in [3, 2, 4] {
        let text = ocr::read_line_scaled(image, line, scale)?;
        let counter = parse_counter(&text);
        if let Some(c) = counter {
            if let Some((t, _)) = texts.iter().find(|(_, o)| *o == Some(c)) {
                return Ok(t.clone());
            }
        }
        log::debug!("counter at scale {scale}: {text:?}");
        texts.push((text, counter));
    }
    let parsed = texts.iter().find(|(_, c)| c.is_some()).cloned();
    Ok(parsed
        .or_else(|| texts.pop())
        .map(|(t, _)| t)
        .unwrap_or_default())
}

/// Fogleman's player in Chromium, as the loop's host.
#[derive(Debug, Clone, Copy, Default)]
pub struct RushWebHost;

impl Host for RushWebHost {
    fn name(&self) -> &str {
        "rush-web"
    }

    fn status(&self, shot: &Screenshot, board: Rect) -> StatusReading {
        let Some(line) = counter_line(&shot.image, board) else {
            log::warn!("no move counter found under the Rush Hour board");
            return StatusReading::unread();
        };
        match read_counter(&shot.image, line) {
            Ok(text) => status_of(&text),
            Err(e) => {
                log::warn!("move counter not read: {e}");
                StatusReading::unread()
            }
        }
    }

    fn new_game(&self) -> Option<Gesture<(f64, f64)>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_parse_with_ocr_slips() {
        assert_eq!(
            parse_counter("MOVES: 0 / 51"),
            Some(Counter {
                moves: 0,
                required: Some(51)
            })
        );
        assert_eq!(
            parse_counter("Moves:12/ l5"),
            Some(Counter {
                moves: 12,
                required: Some(15)
            })
        );
        assert_eq!(
            parse_counter("MOVES: O"),
            Some(Counter {
                moves: 0,
                required: None
            })
        );
        assert_eq!(
            parse_counter("moves: 0 ; 20"),
            Some(Counter {
                moves: 0,
                required: Some(20)
            })
        );
        assert_eq!(parse_counter("MOVES:"), None);
        assert_eq!(parse_counter("Random Reset Undo"), None);
        let s = status_of("MOVES: 51 / 51");
        assert_eq!(
            (s.result, s.moves, s.limit),
            (StatusResult::Playing, Some(51), None)
        );
        assert_eq!(status_of("").result, StatusResult::Unread);
        assert_eq!(fragment("AAoo", Some(3)), "AAoo/3");
        assert_eq!(fragment("AAoo", None), "AAoo");
    }

    /// The recorded pages: the counter is found under the board and, when
    /// tesseract is installed, reads as the page shows it.
    #[test]
    fn the_counter_is_found_and_read_on_recorded_pages() {
        use crate::games::rush::play::{board_rect, RushGame};
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/rush");
        let open = |name: &str| image::open(root.join(name)).unwrap().to_rgba8();
        for (name, after, want) in [
            ("hardest51-window600x560.png", None, (0, Some(51))),
            ("hardest60-window1000x760.png", None, (0, Some(60))),
            (
                "won-flash-window700x700.png",
                Some("won-steady-window700x700.png"),
                (1, Some(1)),
            ),
            // Misread as `D1 / 51` at the usual scale alone.
            (
                "won51-flash-window800x800.png",
                Some("hardest51-window800x800.png"),
                (51, Some(51)),
            ),
        ] {
            let game = RushGame::new();
            if let Some(first) = after {
                game.read_image(&open(first)).unwrap();
            }
            let image = open(name);
            let r = game.read_image(&image).unwrap();
            let board = board_rect(&r.reading);
            let line = counter_line(&image, board).expect(name);
            assert!(line.y > board.y + board.height, "{name}: {line:?}");
            assert!(line.height < 80, "{name}: {line:?}");
            match read_counter(&image, line) {
                Ok(text) => {
                    let c = parse_counter(&text).unwrap_or_else(|| panic!("{name}: {text:?}"));
                    assert_eq!((c.moves, c.required), want, "{name}: read {text:?}");
                }
                Err(e) => println!("{name}: counter text not checked: {e}"),
            }
        }
    }

    #[test]
    fn a_missing_folder_names_the_variable() {
        // Only the message is checked: the folder may or may not exist here.
        if let Err(e) = rush_web_dir() {
            assert!(e.to_string().contains("GRIDBOT_GAMES"), "{e}");
        }
    }
}
