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
}
