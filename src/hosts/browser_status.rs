//! Where the status bar of an sgt-puzzles web page is (`0 / 22 moves`,
//! `COMPLETED! 17 / 22 moves`), found in a screenshot of the page from the
//! board's lattice.
//!
//! The page (sgt-puzzles' `emcc` front end) puts a `<div id="statusbar">`
//! right under the game's canvas, as wide as the canvas: background
//! `#d8d8d8`, a 2-pixel border `#c8c8c8` on the top and left and `#e8e8e8`
//! on the bottom and right, text black, one line. (In Chromium 156 on Xvfb
//! the top border does not show: the bar's background starts right under
//! the canvas's white bottom line, so the search does not need it.) The canvas is the
//! board plus the game's own margin, so the bar's distance below the board
//! depends on the game and its tile size, and its height on the font: it is
//! searched for, not computed. The rectangle returned is the bar's inside
//! (between the borders), ready for [`crate::capture::ocr::read_line`]; the
//! text then parses like the desktop status line.

use image::{Rgba, RgbaImage};

use crate::capture::lattice::Lattice;
use crate::play::Rect;

/// The bar's background.
pub const BACKGROUND: [u8; 3] = [0xd8, 0xd8, 0xd8];
/// Its top and left border.
pub const BORDER_DARK: [u8; 3] = [0xc8, 0xc8, 0xc8];
/// Its bottom and right border.
pub const BORDER_LIGHT: [u8; 3] = [0xe8, 0xe8, 0xe8];

/// Per-channel tolerance when matching the bar's colours: CSS colours come
/// out exact, and the canvas margin around the board (`#d5d5d5` in Flood)
/// is only 3 away from the background.
const TOLERANCE: u8 = 1;
/// Fraction of a row or column that must have a border's colour.
const BORDER_SHARE: f64 = 0.9;

fn near(p: &Rgba<u8>, c: [u8; 3]) -> bool {
    (0..3).all(|i| p[i].abs_diff(c[i]) <= TOLERANCE)
}

/// Share of pixels of row `y`, columns `x0..x1`, that have colour `c`.
fn row_share(image: &RgbaImage, y: u32, x0: u32, x1: u32, c: [u8; 3]) -> f64 {
    if x1 <= x0 {
        return 0.0;
    }
    let hits = (x0..x1).filter(|&x| near(image.get_pixel(x, y), c)).count();
    hits as f64 / f64::from(x1 - x0)
}

/// Share of pixels of column `x`, rows `y0..y1`, that have colour `c`.
fn column_share(image: &RgbaImage, x: u32, y0: u32, y1: u32, c: [u8; 3]) -> f64 {
    if y1 <= y0 {
        return 0.0;
    }
    let hits = (y0..y1).filter(|&y| near(image.get_pixel(x, y), c)).count();
    hits as f64 / f64::from(y1 - y0)
}

/// The inside of the status bar under the board whose cells `lattice`
/// describes (image pixels), or `None` when there is no such bar within
/// three cells plus 100 pixels below the board.
pub fn find_status_bar(image: &RgbaImage, lattice: &Lattice) -> Option<Rect> {
    let left = lattice.origin_x.max(0.0);
    let top = lattice.origin_y.max(0.0);
    let board = Rect {
        x: left as u32,
        y: top as u32,
        width: (lattice.origin_x + lattice.pitch_x * lattice.columns as f64 - left).max(0.0) as u32,
        height: (lattice.origin_y + lattice.pitch_y * lattice.rows as f64 - top).max(0.0) as u32,
    };
    status_bar_below(image, board, (3.0 * lattice.pitch_y) as u32 + 100)
}

/// [`find_status_bar`] for a board known by its bounding box: the bar is
/// looked for down to `reach` pixels below the board.
pub fn status_bar_below(image: &RgbaImage, board: Rect, reach: u32) -> Option<Rect> {
    let (width, height) = image.dimensions();
    let board_left = board.x;
    let board_right = (board.x + board.width).min(width);
    let board_bottom = board.y + board.height;
    if board_right <= board_left + 4 || board_bottom >= height {
        return None;
    }
    // Sample the board's width (the bar is at least as wide).
    let (x0, x1) = (board_left + 1, board_right - 1);
    let search_end = (board_bottom + reach).min(height);

    // The inside starts with the first row that is mostly the bar's
    // background (the canvas margin above it is a different grey; the top
    // border, where Chromium draws it, is skipped by this); it ends at the
    // bottom border.
    let inside_top =
        (board_bottom..search_end).find(|&y| row_share(image, y, x0, x1, BACKGROUND) >= 0.6)?;
    let inside_bottom = (inside_top..search_end.min(inside_top + 200))
        .find(|&y| row_share(image, y, x0, x1, BORDER_LIGHT) >= BORDER_SHARE)?;
    if inside_bottom <= inside_top + 4 {
        return None;
    }
    // Left and right borders: columns of the border colours over the
    // inside's rows, searched outwards from the board's edges (the text
    // starts at the left, so the inside is found from the outside in).
    let mid = (board_left + board_right) / 2;
    let left_border = (0..=mid).rev().find(|&x| {
        column_share(image, x, inside_top, inside_bottom, BORDER_DARK) >= BORDER_SHARE
    })?;
    let right_border = (mid..width).find(|&x| {
        column_share(image, x, inside_top, inside_bottom, BORDER_LIGHT) >= BORDER_SHARE
    })?;
    let inside_left = left_border + 1;
    if right_border <= inside_left + 4 {
        return None;
    }
    Some(Rect {
        x: inside_left,
        y: inside_top,
        width: right_border - inside_left,
        height: inside_bottom - inside_top,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    fn fill(image: &mut RgbaImage, x: u32, y: u32, w: u32, h: u32, c: [u8; 3]) {
        for yy in y..y + h {
            for xx in x..x + w {
                image.put_pixel(xx, yy, Rgba([c[0], c[1], c[2], 255]));
            }
        }
    }

    /// A white page with a 4x4 board of 20-pixel cells at (40, 30), a
    /// canvas margin of 10 and a status bar drawn as the page's CSS does.
    fn page() -> (RgbaImage, Lattice) {
        let mut image = RgbaImage::from_pixel(200, 200, Rgba([255, 255, 255, 255]));
        fill(&mut image, 30, 20, 100, 100, [0xd6, 0xd6, 0xd6]);
        for r in 0..4 {
            for c in 0..4 {
                let colour = if (r + c) % 2 == 0 {
                    [255, 0, 0]
                } else {
                    [0, 0, 255]
                };
                fill(&mut image, 40 + c * 20, 30 + r * 20, 20, 20, colour);
            }
        }
        // Bar from y = 120: 2 px dark top border, 18 px inside, 2 px light
        // bottom border; left border dark, right border light.
        fill(&mut image, 30, 120, 100, 22, BACKGROUND);
        fill(&mut image, 30, 120, 100, 2, BORDER_DARK);
        fill(&mut image, 30, 120, 2, 22, BORDER_DARK);
        fill(&mut image, 128, 122, 2, 20, BORDER_LIGHT);
        fill(&mut image, 30, 140, 100, 2, BORDER_LIGHT);
        // Some "text" at the inside's left.
        fill(&mut image, 34, 126, 30, 10, [0, 0, 0]);
        let lattice = Lattice {
            origin_x: 40.0,
            origin_y: 30.0,
            pitch_x: 20.0,
            pitch_y: 20.0,
            columns: 4,
            rows: 4,
        };
        (image, lattice)
    }

    #[test]
    fn finds_the_inside_of_the_bar_under_the_board() {
        let (image, lattice) = page();
        assert_eq!(
            find_status_bar(&image, &lattice),
            Some(Rect {
                x: 32,
                y: 122,
                width: 96,
                height: 18
            })
        );
    }

    #[test]
    fn no_bar_is_none() {
        let (mut image, lattice) = page();
        fill(&mut image, 0, 120, 200, 80, [255, 255, 255]);
        assert_eq!(find_status_bar(&image, &lattice), None);
        // A lattice outside the image is not a panic.
        let far = Lattice {
            origin_y: 500.0,
            ..lattice
        };
        assert_eq!(find_status_bar(&image, &far), None);
    }
}
