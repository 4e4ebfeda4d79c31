//! Reading a Flood-It board off a screenshot: the generic grid reader plus
//! the Flood-specific checks and conversions (to [`Board`], to sgt-flood's
//! game-ID cell format).

use image::RgbaImage;

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
/// largest digit). Returns `None` if malformed.
pub fn from_sgt(id: &str, colours: Option<u8>) -> Option<Board> {
    let (size, rest) = id.trim().split_once(':')?;
    let (w, h) = size.split_once('x')?;
    let (w, h): (usize, usize) = (w.parse().ok()?, h.parse().ok()?);
    let cells_text = rest.split(',').next()?;
    let cells: Vec<u8> = cells_text
        .chars()
        .map(|ch| ch.to_digit(36).map(|d| d as u8))
        .collect::<Option<_>>()?;
    if cells.len() != w * h || w == 0 || h == 0 {
        return None;
    }
    let max = cells.iter().copied().max()? + 1;
    let colours = colours.unwrap_or(max).max(max);
    Some(Board::new(w, h, colours, cells))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgt_round_trip() {
        let b = from_sgt("3x2:012210,5", None).unwrap();
        assert_eq!((b.width(), b.height(), b.colours()), (3, 2, 3));
        assert_eq!(to_sgt(&b), "3x2:012210");
        assert!(from_sgt("3x2:0122", None).is_none());
        assert!(from_sgt("junk", None).is_none());
    }
}
