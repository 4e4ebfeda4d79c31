//! Luca Wagner's Rush Hour page (`rush-wagnerluca/index.html` of the
//! shared games) in Chromium, as the play loop's host.
//!
//! What is special about this program:
//! - its status is a row of three pills above the board, `Moves: n`,
//!   `Level: k` and `Optimal: m` (light text on dark: [`info_line`] finds
//!   the first band of light text above the board, [`read_info`] inverts
//!   it for tesseract, [`parse_info`] takes the numbers). `Optimal` is the
//!   page's own breadth-first search, which counts a move as gridbot does
//!   (one car any distance);
//! - a solved level drives the red car off the board and then shows a
//!   message box (`Congratulations!`) with a `Next Level →` button; the
//!   status is then `completed` ([`super::wagner_read::message_box`]);
//! - a new level is a click: that button after a win, or the `Next ▶`
//!   button of the row under the board ([`button_labels`] reads that row:
//!   `Reset`, `Prev`, `Next`, `Solution`). There is no other way in (no
//!   fragment, no key), so the host has no new-game gesture of its own.

use std::path::PathBuf;

use image::RgbaImage;

use crate::actuator::Gesture;
use crate::capture::colour::{chroma, max_channel_diff, rgb_at};
use crate::capture::ocr;
use crate::capture::screen::Screenshot;
use crate::hosts::sgt_web::games_dir;
use crate::hosts::Host;
use crate::play::{Rect, StatusReading, StatusResult};

use super::wagner_read::message_box;

/// The page in its folder.
pub const PAGE: &str = "index.html";

/// The levels the page has (`levels.js`).
pub const LEVELS: usize = 8;

/// Wagner's page is not where it was looked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WagnerMissing {
    /// The shared games have a `rush-wagnerluca/` without the page's files.
    #[error(
        "Luca Wagner's Rush Hour page was not found in {} (no index.html, game.js and \
         levels.js): set GRIDBOT_GAMES to the folder that holds rush-wagnerluca/ (the \
         project's ../shared/games)",
        .0.display()
    )]
    Incomplete(PathBuf),
    /// No shared games folder.
    #[error(
        "Luca Wagner's Rush Hour page was not found: set GRIDBOT_GAMES to the folder that \
         holds rush-wagnerluca/ (the project's ../shared/games)"
    )]
    NoGames,
}

/// The page's folder.
pub fn wagner_dir() -> Result<PathBuf, WagnerMissing> {
    match games_dir().map(|d| d.join("rush-wagnerluca")) {
        Some(d)
            if ["index.html", "game.js", "levels.js"]
                .iter()
                .all(|f| d.join(f).is_file()) =>
        {
            Ok(d)
        }
        Some(d) => Err(WagnerMissing::Incomplete(d)),
        None => Err(WagnerMissing::NoGames),
    }
}

/// What the pills above the board say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Info {
    /// `Moves: n`.
    pub moves: Option<usize>,
    /// `Level: k`.
    pub level: Option<usize>,
    /// `Optimal: m` (the page shows `-` until its search has run).
    pub optimal: Option<usize>,
}

/// The number after `label` in `upper` (upper case), OCR slips mended.
fn number_after(upper: &str, label: &str) -> Option<usize> {
    let rest = ocr::after_label(upper, label)?;
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

/// Reads `Moves: n  Level: k  Optimal: m` as OCR gives it (any case and
/// spacing, `O` for `0`, `l` for `1`).
pub fn parse_info(text: &str) -> Info {
    let upper = text.to_ascii_uppercase();
    Info {
        moves: number_after(&upper, "MOVES"),
        level: number_after(&upper, "LEVEL"),
        optimal: number_after(&upper, "OPTIMAL"),
    }
}

/// The teal of the page's numbers.
const TEAL: [u8; 3] = [0x4e, 0xcc, 0xa3];

/// True for a pixel of the page's light text (white labels, teal numbers)
/// on its dark pills; not the yellow of the `Solution` button's border.
fn light(image: &RgbaImage, x: u32, y: u32) -> bool {
    let p = rgb_at(image, x, y);
    white(image, x, y) || (bright(p) && max_channel_diff(p, TEAL) <= 40)
}

/// True for a pixel of white text (the buttons' labels; not the teal
/// border of a button under the pointer).
fn white(image: &RgbaImage, x: u32, y: u32) -> bool {
    let p = rgb_at(image, x, y);
    bright(p) && chroma(p) < 60
}

fn bright(p: [u8; 3]) -> bool {
    p.iter().map(|&v| u32::from(v)).sum::<u32>() > 3 * 140
}

/// The band of rows `rows` (in order of the scan) that first holds light
/// pixels (`ink`) between `x0` and `x1`, after at least one row without: its top,
/// bottom and the columns with `ink`.
fn first_band(
    image: &RgbaImage,
    rows: impl Iterator<Item = u32> + Clone,
    (x0, x1): (u32, u32),
    ink: fn(&RgbaImage, u32, u32) -> bool,
) -> Option<(u32, u32, Vec<u32>)> {
    let row_has = |y: u32| (x0..x1).any(|x| ink(image, x, y));
    let mut scan = rows
        .skip_while(|&y| row_has(y))
        .skip_while(|&y| !row_has(y));
    let first = scan.next()?;
    let mut last = first;
    for y in scan {
        if !row_has(y) {
            break;
        }
        last = y;
    }
    let (top, bottom) = (first.min(last), first.max(last) + 1);
    let columns = (x0..x1)
        .filter(|&x| (top..bottom).any(|y| ink(image, x, y)))
        .collect();
    Some((top, bottom, columns))
}

/// The info line above the board `board` (the board's square): a band of
/// light text of a text's height, with a margin for OCR.
pub fn info_line(image: &RgbaImage, board: Rect) -> Option<Rect> {
    let (w, h) = image.dimensions();
    let centre = board.x + board.width / 2;
    let half = board.width.max(240);
    let (x0, x1) = (centre.saturating_sub(half), (centre + half).min(w));
    let (top, bottom, cols) = first_band(image, (0..board.y.min(h)).rev(), (x0, x1), light)?;
    if !(6..=80).contains(&(bottom - top)) {
        return None;
    }
    let (left, right) = (*cols.first()?, *cols.last()?);
    let m = 8;
    Some(
        Rect {
            x: left.saturating_sub(m),
            y: top.saturating_sub(m),
            width: right + 1 - left + 2 * m,
            height: bottom - top + 2 * m,
        }
        .clip(w, h),
    )
}

/// Reads light text on dark in `area` (inverted for tesseract).
pub fn read_light_text(image: &RgbaImage, area: Rect) -> Result<String, ocr::OcrError> {
    let area = area.clip(image.width(), image.height());
    let crop = image::imageops::crop_imm(image, area.x, area.y, area.width, area.height);
    let mut inverted = crop.to_image();
    for p in inverted.pixels_mut() {
        for c in 0..3 {
            p[c] = 255 - p[c];
        }
    }
    let whole = Rect {
        x: 0,
        y: 0,
        width: area.width,
        height: area.height,
    };
    ocr::read_line(&inverted, whole)
}

/// Reads the info line above `board`.
pub fn read_info(image: &RgbaImage, board: Rect) -> Result<(String, Info), String> {
    let line = info_line(image, board).ok_or("no line of light text above the board")?;
    let text = read_light_text(image, line).map_err(|e| e.to_string())?;
    let info = parse_info(&text);
    Ok((text, info))
}

/// The labels of the row of buttons under the board: each label's box
/// (words closer than twice the text's height are one label), in order
/// from the left.
pub fn button_labels(image: &RgbaImage, board: Rect) -> Vec<Rect> {
    let (w, h) = image.dimensions();
    let centre = board.x + board.width / 2;
    let half = board.width.max(240);
    let (x0, x1) = (centre.saturating_sub(half), (centre + half).min(w));
    let start = (board.y + board.height).min(h);
    let Some((top, bottom, cols)) = first_band(image, start..h, (x0, x1), white) else {
        return Vec::new();
    };
    let gap = 2 * (bottom - top);
    let mut labels: Vec<(u32, u32)> = Vec::new();
    for x in cols {
        match labels.last_mut() {
            Some((_, right)) if x - *right <= gap => *right = x,
            _ => labels.push((x, x)),
        }
    }
    let m = 6;
    labels
        .into_iter()
        .map(|(l, r)| {
            Rect {
                x: l.saturating_sub(m),
                y: top.saturating_sub(m),
                width: r + 1 - l + 2 * m,
                height: bottom - top + 2 * m,
            }
            .clip(w, h)
        })
        .collect()
}

/// The button under the board whose label contains `word` (upper case),
/// by OCR of each label.
pub fn find_button(image: &RgbaImage, board: Rect, word: &str) -> Result<Rect, String> {
    let mut seen = Vec::new();
    let labels = button_labels(image, board);
    log::debug!("button labels under {board:?}: {labels:?}");
    for label in labels {
        let text = read_light_text(image, label).map_err(|e| e.to_string())?;
        if text.to_ascii_uppercase().contains(word) {
            return Ok(label);
        }
        seen.push(text);
    }
    Err(format!(
        "no button {word:?} under the board (labels read: {seen:?})"
    ))
}

/// The status of the page in `image`: `completed` when the win message is
/// up, else `playing` with the move count when the info line reads.
pub fn status_of(image: &RgbaImage, board: Rect) -> StatusReading {
    let won = message_box(image, board).is_some();
    let (text, info) = match read_info(image, board) {
        Ok(r) => r,
        Err(why) => {
            log::warn!("the info line of Wagner's page was not read: {why}");
            return StatusReading {
                result: if won {
                    StatusResult::Completed
                } else {
                    StatusResult::Unread
                },
                ..StatusReading::unread()
            };
        }
    };
    let result = match (won, info.moves) {
        (true, _) => StatusResult::Completed,
        (false, Some(_)) => StatusResult::Playing,
        (false, None) => StatusResult::Unread,
    };
    StatusReading {
        result,
        text: (!text.trim().is_empty()).then(|| text.trim().to_string()),
        moves: info.moves,
        limit: None,
    }
}

/// Wagner's page in Chromium, as the loop's host.
#[derive(Debug, Clone, Copy, Default)]
pub struct WagnerHost;

impl Host for WagnerHost {
    fn name(&self) -> &str {
        "rush-wagnerluca"
    }

    fn status(&self, shot: &Screenshot, board: Rect) -> StatusReading {
        status_of(&shot.image, board)
    }

    fn new_game(&self) -> Option<Gesture<(f64, f64)>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_parse_with_ocr_slips() {
        assert_eq!(
            parse_info("Moves: 0 Level: 1 Optimal: 2"),
            Info {
                moves: Some(0),
                level: Some(1),
                optimal: Some(2)
            }
        );
        assert_eq!(
            parse_info("moves:l2  level:8 optimal: -"),
            Info {
                moves: Some(12),
                level: Some(8),
                optimal: None
            }
        );
        assert_eq!(parse_info("Reset Prev Next"), Info::default());
    }

    fn fixture(name: &str) -> RgbaImage {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/rush");
        image::open(root.join(name)).unwrap().to_rgba8()
    }

    /// The pills above the board and the buttons under it are found on
    /// recorded pages at two window sizes and, when tesseract is
    /// installed, read as the page shows them.
    #[test]
    fn pills_and_buttons_are_found_and_read_on_recorded_pages() {
        for (name, level, optimal) in [
            ("wagnerluca-level1-window800x800.png", 1, 2),
            ("wagnerluca-level3-window1000x900.png", 3, 4),
            ("wagnerluca-level8-window800x800.png", 8, 8),
        ] {
            let image = fixture(name);
            let r = super::super::wagner_read::read(&image).unwrap();
            let board = super::super::play::board_rect(&r);
            let line = info_line(&image, board).expect(name);
            assert!(line.y + line.height <= board.y, "{name}: {line:?}");
            let labels = button_labels(&image, board);
            assert_eq!(labels.len(), 3, "{name}: Reset, Prev, Next: {labels:?}");
            assert!(labels.windows(2).all(|w| w[0].x < w[1].x), "{labels:?}");
            match read_info(&image, board) {
                Ok((text, info)) => assert_eq!(
                    info,
                    Info {
                        moves: Some(0),
                        level: Some(level),
                        optimal: Some(optimal)
                    },
                    "{name}: {text:?}"
                ),
                Err(e) if e.contains("tesseract") => println!("{name}: not read: {e}"),
                Err(e) => panic!("{name}: {e}"),
            }
            match find_button(&image, board, "NEXT") {
                Ok(b) => assert_eq!(b, labels[2], "{name}"),
                Err(e) if e.contains("tesseract") => {}
                Err(e) => panic!("{name}: {e}"),
            }
        }
    }

    #[test]
    fn the_win_message_makes_the_status_completed() {
        let image = fixture("wagnerluca-won-screen1280x1024.png");
        let before = fixture("wagnerluca-level1-moved-screen1280x1024.png");
        let r = super::super::wagner_read::read(&before).unwrap();
        let board = super::super::play::board_rect(&r);
        assert_eq!(status_of(&image, board).result, StatusResult::Completed);
        assert_ne!(status_of(&before, board).result, StatusResult::Completed);
    }

    #[test]
    fn a_missing_folder_names_the_variable() {
        if let Err(e) = wagner_dir() {
            assert!(e.to_string().contains("GRIDBOT_GAMES"), "{e}");
        }
    }
}
