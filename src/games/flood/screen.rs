//! Reading a Flood-It board off a screenshot: the generic grid reader plus
//! the Flood-specific checks and conversions (to [`Board`], to sgt-flood's
//! game-ID cell format).

use image::RgbaImage;

use super::parse::{parse_game_id, ParseError};
use super::Board;
use crate::calibration::Calibration;
use crate::capture::{read_grid_with, GridReading, ReadError, ReadOptions};

/// A Flood-It board read off a screenshot, with where it was seen.
#[derive(Debug, Clone, PartialEq)]
pub struct FloodReading {
    /// The board, colours numbered as in [`GridReading::palette`].
    pub board: Board,
    /// The grid reading it came from (lattice for clicks, confidences).
    pub grid: GridReading,
}

/// Reads a Flood-It board. With a calibration palette, colour k is the
/// game's colour k (digit k of an sgt game ID); without one, colours are
/// numbered in order of first appearance.
pub fn read_board(
    image: &RgbaImage,
    calibration: Option<&Calibration>,
) -> Result<FloodReading, ReadError> {
    read_board_with(image, calibration, &ReadOptions::default())
}

/// [`read_board`] with options (stage dumps).
pub fn read_board_with(
    image: &RgbaImage,
    calibration: Option<&Calibration>,
    options: &ReadOptions,
) -> Result<FloodReading, ReadError> {
    let grid = read_grid_with(image, calibration, options)?;
    let (w, h) = (grid.lattice.columns, grid.lattice.rows);
    if w > Board::MAX_SIDE || h > Board::MAX_SIDE {
        return Err(ReadError::TooLarge {
            columns: w,
            rows: h,
            max: Board::MAX_SIDE,
        });
    }
    if grid.palette.len() > Board::MAX_COLOURS as usize {
        return Err(ReadError::TooManyColours {
            count: grid.palette.len(),
            max: Board::MAX_COLOURS as usize,
        });
    }
    let board = Board::new(w, h, grid.palette.len() as u8, grid.cells.clone());
    Ok(FloodReading { board, grid })
}

/// The cell character for colour `c` in an sgt game ID ('0'..'9', then
/// 'A'.. as sgt-flood writes colours above 9).
pub fn colour_char(c: u8) -> char {
    char::from_digit(c as u32, 36).map_or('?', |ch| ch.to_ascii_uppercase())
}

/// The board in sgt-flood's ID format without the move limit: `WxH:<cells>`.
pub fn to_sgt(board: &Board) -> String {
    let cells: String = board.cells().iter().map(|&c| colour_char(c)).collect();
    format!("{}x{}:{}", board.width(), board.height(), cells)
}

/// Parses `WxH:<cells>[,limit]` (an sgt-flood game ID or [`to_sgt`]
/// output) into a board with `colours` colours (at least one more than the
/// largest digit).
pub fn from_sgt(id: &str, colours: Option<u8>) -> Result<Board, ParseError> {
    Ok(parse_game_id(id)?
        .board
        .with_palette_size(colours.unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgt_round_trip() {
        let b = from_sgt("3x2:012210,5", None).unwrap();
        assert_eq!(from_sgt("3x2:012210", Some(6)).unwrap().colours(), 6);
        assert_eq!((b.width(), b.height(), b.colours()), (3, 2, 3));
        assert_eq!(to_sgt(&b), "3x2:012210");
        assert!(from_sgt("3x2:0122", None).is_err());
        assert!(from_sgt("junk", None).is_err());
    }

    /// Odd images and random blocks give errors or readings, never panics
    /// (the capture module's own readers are checked against the same).
    #[test]
    fn odd_images_never_panic() {
        for image in &crate::capture::robustness::odd_images() {
            let _ = read_board(image, None);
        }
    }

    proptest::proptest! {
        #![proptest_config(crate::fuzz::config(24))]
        #[test]
        fn random_images_never_panic(w in 0u32..96, h in 0u32..96, seed in proptest::prelude::any::<u32>(), blocks in 1u32..12) {
            let _ = read_board(&crate::capture::fuzz::random_blocks(w, h, seed, blocks), None);
        }
    }

    /// The recorded sgt-web screenshots in `fixtures/flood/browser/`: the
    /// board read with the game's calibration and 12x12 hints (the won
    /// board is one colour), the page's status bar
    /// ([`crate::hosts::browser_status`]) found under it, and its text
    /// (when tesseract is installed) parsed as the fixture's `status` says.
    #[test]
    fn finds_and_reads_the_bar_on_recorded_pages() {
        use crate::calibration::{Calibration, GeometryHints};
        use crate::capture::screen::Rect;
        use crate::hosts::browser_status::find_status_bar;
        use crate::hosts::status::parse_status;
        use std::path::Path;

        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let path = root.join("calibration/sgt-flood.toml");
        let mut calibration =
            Calibration::parse(&std::fs::read_to_string(&path).unwrap(), &path).unwrap();
        calibration.geometry = GeometryHints {
            columns: Some(12),
            rows: Some(12),
            cell_size: None,
        };
        for name in ["start", "5moves", "completed"] {
            let base = root.join(format!("fixtures/flood/browser/browser-12x12c6-{name}"));
            let image = image::open(base.with_extension("png")).unwrap().to_rgba8();
            let truth: toml::Table =
                toml::from_str(&std::fs::read_to_string(base.with_extension("toml")).unwrap())
                    .unwrap();
            let reading = read_board(&image, Some(&calibration)).unwrap();
            let bar = find_status_bar(&image, &reading.grid.lattice).unwrap();
            println!("{name}: {bar:?}");
            // Measured on the screenshots: left border columns 432-433,
            // right border 847-848, bottom border rows 638-639, background
            // from row 619 (the canvas's white line is rows 617-618).
            assert_eq!(
                bar,
                Rect {
                    x: 434,
                    y: 619,
                    width: 413,
                    height: 19
                },
                "{name}"
            );
            let want = truth["status"].as_str().unwrap();
            match crate::capture::ocr::read_line(&image, bar) {
                Ok(text) => {
                    let (got, want) = (parse_status(&text), parse_status(want));
                    assert_eq!(
                        (got.result, got.moves, got.limit),
                        (want.result, want.moves, want.limit),
                        "{name}: read {text:?}"
                    );
                }
                Err(e) => println!("{name}: status text not checked: {e}"),
            }
        }
    }
}
