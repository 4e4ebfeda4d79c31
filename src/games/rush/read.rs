//! Reads a board off a screenshot of Fogleman's web player (a p5 canvas):
//! the board square (its fill `#F2EACD`), the side N (4 to 8) from the
//! grid lines, each cell by the colour at its centre (red `#CC3333` the
//! primary piece, teal `#338899` the others, dark `#222222` a wall), and
//! which cells belong to one piece by the colour across their shared
//! edge (pieces are inset a tenth of a cell, so two pieces side by side
//! show the board between them). No calibration: every length is found
//! in the image, at any window size.
//!
//! When the puzzle is solved the player flashes the board white (250 ms
//! white, 250 ms its colour, for as long as the puzzle stays solved); a
//! screenshot taken then is refused by [`read`] with
//! [`ReadError::Flashing`] rather than misread. A caller that has read the
//! same window before (the play loop) can read a flash frame with
//! [`read_flashing`]: the board's place and cell size are those of the
//! last steady frame ([`Geometry`]), the empty cells are white instead of
//! the board colour, and the result must be solved (the page flashes only
//! a solved board), or it is refused.

use image::{Rgba, RgbaImage};

use super::board::{Board, Position, MAX_SIZE, MIN_SIZE};
use super::parse::{parse_board, ParseError};

const BOARD: [u8; 3] = [0xF2, 0xEA, 0xCD];
const RED: [u8; 3] = [0xCC, 0x33, 0x33];
const TEAL: [u8; 3] = [0x33, 0x88, 0x99];
const DARK: [u8; 3] = [0x22, 0x22, 0x22];
const WHITE: [u8; 3] = [0xFF, 0xFF, 0xFF];

/// What a screenshot holds, read.
#[derive(Debug, Clone)]
pub struct Reading {
    /// The board.
    pub board: Board,
    /// The position on it.
    pub position: Position,
    /// The position as text (`o` empty, `x` wall, letters in row order).
    pub text: String,
    /// Left and top of the board square, image pixels.
    pub origin: (f64, f64),
    /// Side of a cell, image pixels.
    pub cell: f64,
}

impl Reading {
    /// The centre of cell (row, col) in image pixels.
    pub fn centre(&self, row: usize, col: usize) -> (f64, f64) {
        (
            self.origin.0 + (col as f64 + 0.5) * self.cell,
            self.origin.1 + (row as f64 + 0.5) * self.cell,
        )
    }
}

/// Why a screenshot could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReadError {
    /// No board colour in the image.
    #[error("no Rush Hour board in the image (no pixel of the board colour #F2EACD)")]
    NoBoard,
    /// The board flashes (the puzzle was just solved).
    #[error("the board is flashing (puzzle solved); read again in a moment")]
    Flashing,
    /// The board region is too small or not square.
    #[error("the board region {0}x{1} px is not a square of cells")]
    NotSquare(u32, u32),
    /// No side from 4 to 8 fits the grid lines.
    #[error("no grid of 4 to 8 cells matches the board's lines")]
    NoGrid,
    /// A cell of a colour that is none of the board's.
    #[error("cell (row {0}, column {1}) has an unexpected colour {2:?}")]
    UnknownCell(usize, usize, [u8; 3]),
    /// The cells read do not make a board.
    #[error("the cells read do not make a board: {0}")]
    Board(#[from] ParseError),
    /// A flash frame that does not show a solved board where the last
    /// steady frame had the board.
    #[error("the board is flashing but cannot be read where it was: {0}")]
    FlashUnreadable(String),
    /// Luca Wagner's page could not be read.
    #[error("{0}")]
    Wagner(#[from] super::wagner_read::WagnerReadError),
}

/// Where a board is on a screenshot: enough to read another screenshot of
/// the same window (same size) without searching.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometry {
    /// Width and height of the screenshot, pixels.
    pub image: (u32, u32),
    /// Left and top of the board square, image pixels.
    pub origin: (f64, f64),
    /// Side of a cell, image pixels.
    pub cell: f64,
    /// Cells on a side.
    pub size: usize,
}

impl Geometry {
    /// The geometry of `reading`, read off an image of `image` pixels.
    pub fn of(reading: &Reading, image: (u32, u32)) -> Geometry {
        Geometry {
            image,
            origin: reading.origin,
            cell: reading.cell,
            size: reading.board.size(),
        }
    }
}

fn rgb(p: &Rgba<u8>) -> [u8; 3] {
    [p[0], p[1], p[2]]
}

fn near(a: [u8; 3], b: [u8; 3], tol: i32) -> bool {
    a.iter()
        .zip(b)
        .all(|(&x, y)| (x as i32 - y as i32).abs() <= tol)
}

/// Reads the board in `img`.
pub fn read(img: &RgbaImage) -> Result<Reading, ReadError> {
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0u32, 0u32);
    let mut count = 0u64;
    let mut red = false;
    for (x, y, p) in img.enumerate_pixels() {
        let c = rgb(p);
        if near(c, BOARD, 6) {
            count += 1;
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        } else if !red && near(c, RED, 6) {
            red = true;
        }
    }
    if count == 0 {
        return Err(if red {
            ReadError::Flashing
        } else {
            ReadError::NoBoard
        });
    }
    // The fill runs under the outline's inner half: widen by a pixel.
    let (bw, bh) = (x1 + 1 - x0, y1 + 1 - y0);
    if bw < 16 || bw.abs_diff(bh) > 2 + bw / 50 {
        return Err(ReadError::NotSquare(bw, bh));
    }
    let fill = (bw + bh) as f64 / 2.0;
    // The square's outline (0.03 of a cell wide, centred on the edge)
    // covers 0.015 of a cell of the fill on each side, and anti-aliasing
    // about one more pixel: the board is that much larger than its fill.
    // (Taking the fill for the board put the band of the grid test on the
    // pieces' outlines at 92-pixel cells.)
    let geometry = |n: usize| {
        let cell = (fill + 2.0) / (n as f64 - 0.03);
        let inset = 1.0 + 0.015 * cell;
        ((x0 as f64 - inset, y0 as f64 - inset), cell)
    };
    // Score each side: vertical grid lines where a boundary should be, in
    // the thin band at the top of each cell row (above any piece), and
    // none halfway between boundaries.
    let mut best = None;
    for n in MIN_SIZE..=MAX_SIZE {
        let (origin, cell) = geometry(n);
        let (score, total) = grid_score(img, origin, cell, n);
        if score * 10 >= total * 7 && best.is_none_or(|(s, _)| score * 100 / total > s) {
            best = Some((score * 100 / total, n));
        }
    }
    let (_, n) = best.ok_or(ReadError::NoGrid)?;
    let (origin, cell) = geometry(n);
    read_cells(img, origin, cell, n, BOARD)
}

/// Reads a flash frame (the board drawn white: the puzzle is solved) at
/// the place `geometry` says, which must come from a steady frame of the
/// same window: the grid lines must be where it says, the empty cells
/// white, and the board read must be solved.
pub fn read_flashing(img: &RgbaImage, geometry: &Geometry) -> Result<Reading, ReadError> {
    let refuse = |why: String| Err(ReadError::FlashUnreadable(why));
    if img.dimensions() != geometry.image {
        return refuse(format!(
            "the image is {}x{}, the last steady one {}x{}",
            img.width(),
            img.height(),
            geometry.image.0,
            geometry.image.1
        ));
    }
    let (score, total) = grid_score(img, geometry.origin, geometry.cell, geometry.size);
    if score * 10 < total * 7 {
        return refuse(format!(
            "no {0}x{0} grid where the board was (score {score} of {total})",
            geometry.size
        ));
    }
    let reading = read_cells(img, geometry.origin, geometry.cell, geometry.size, WHITE)
        .or_else(|e| refuse(e.to_string()))?;
    if !reading.board.is_solved(reading.position) {
        return refuse(format!(
            "{} does not have the primary piece at the exit",
            reading.text
        ));
    }
    Ok(reading)
}

/// True when a dark pixel (a grid line a pixel wide is blended into its
/// neighbours: anything well below the board's brightness) is within two
/// pixels left or right of (x, y).
fn dark_near(img: &RgbaImage, x: f64, y: f64) -> bool {
    let (w, h) = img.dimensions();
    let (cx, cy) = (x.round() as i64, y.round() as i64);
    (-2..=2).any(|d| {
        let xx = cx + d;
        xx >= 0 && (xx as u32) < w && cy >= 0 && (cy as u32) < h && {
            let c = rgb(img.get_pixel(xx as u32, cy as u32));
            c.iter().map(|&v| v as u32).sum::<u32>() < 520
        }
    })
}

/// How well an `n` x `n` grid of `cell`-pixel cells at `origin` matches
/// the vertical grid lines of the image: +1 for each line found where a
/// boundary should be, -1 for each one missing and for each dark pixel
/// halfway between boundaries, checked in the thin band at the top of
/// each row (above any piece). Returns the score and the most it can be.
fn grid_score(img: &RgbaImage, (ox, oy): (f64, f64), cell: f64, n: usize) -> (i64, i64) {
    let mut score = 0i64;
    for r in 0..n {
        let y = oy + (r as f64 + 0.05) * cell;
        for k in 1..n {
            score += if dark_near(img, ox + k as f64 * cell, y) {
                1
            } else {
                -1
            };
        }
        for k in 0..n {
            if dark_near(img, ox + (k as f64 + 0.5) * cell, y) {
                score -= 1;
            }
        }
    }
    (score, (n * (n - 1)) as i64)
}

/// Reads the cells of the `n` x `n` board at `origin` with `cell`-pixel
/// cells, empty cells being of colour `empty`.
fn read_cells(
    img: &RgbaImage,
    (ox, oy): (f64, f64),
    cell: f64,
    n: usize,
    empty: [u8; 3],
) -> Result<Reading, ReadError> {
    let (w, h) = img.dimensions();
    let at = |x: f64, y: f64| {
        rgb(img.get_pixel(
            (x.max(0.0) as u32).min(w - 1),
            (y.max(0.0) as u32).min(h - 1),
        ))
    };
    // Classify cells.
    let mut kind = vec![b'o'; n * n];
    for r in 0..n {
        for c in 0..n {
            let col = at(ox + (c as f64 + 0.5) * cell, oy + (r as f64 + 0.5) * cell);
            kind[r * n + c] = if near(col, empty, 12) {
                b'o'
            } else if near(col, RED, 24) {
                b'A'
            } else if near(col, TEAL, 24) {
                b'T'
            } else if near(col, DARK, 24) {
                b'x'
            } else {
                return Err(ReadError::UnknownCell(r, c, col));
            };
        }
    }
    // Join cells of one piece: same colour across the shared edge.
    let mut label = vec![0u8; n * n];
    let mut next = b'B';
    for i in 0..n * n {
        if kind[i] != b'T' || label[i] != 0 {
            continue;
        }
        let l = next;
        next = next.saturating_add(1).min(b'Z');
        let mut stack = vec![i];
        label[i] = l;
        while let Some(j) = stack.pop() {
            let (r, c) = (j / n, j % n);
            let mut try_join = |k: usize, ex: f64, ey: f64| {
                if kind[k] == b'T' && label[k] == 0 && near(at(ex, ey), TEAL, 24) {
                    label[k] = l;
                    stack.push(k);
                }
            };
            let cy = oy + (r as f64 + 0.5) * cell;
            let cx = ox + (c as f64 + 0.5) * cell;
            if c + 1 < n {
                try_join(j + 1, ox + (c + 1) as f64 * cell, cy);
            }
            if c > 0 {
                try_join(j - 1, ox + c as f64 * cell, cy);
            }
            if r + 1 < n {
                try_join(j + n, cx, oy + (r + 1) as f64 * cell);
            }
            if r > 0 {
                try_join(j - n, cx, oy + r as f64 * cell);
            }
        }
    }
    let text: String = (0..n * n)
        .map(|i| match kind[i] {
            b'T' => label[i] as char,
            k => k as char,
        })
        .collect();
    let (board, position) = parse_board(&text)?;
    Ok(Reading {
        board,
        position,
        text,
        origin: (ox, oy),
        cell,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> RgbaImage {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/rush")
            .join(name);
        image::open(&path).unwrap().to_rgba8()
    }

    // Every fixture against its ground truth: `super::super::fixtures`.

    #[test]
    fn a_flash_frame_is_refused_alone_and_where_no_board_was() {
        let flash = fixture("solved-flashing-window800x700.png");
        assert_eq!(read(&flash).unwrap_err(), ReadError::Flashing);
        // The geometry of another window size: refused, not misread.
        let other = read(&fixture("hardest51-window600x560.png")).unwrap();
        let g = Geometry::of(&other, flash.dimensions());
        let e = read_flashing(&flash, &g).unwrap_err();
        assert!(matches!(e, ReadError::FlashUnreadable(_)), "{e}");
        let g = Geometry {
            image: (10, 10),
            ..g
        };
        let e = read_flashing(&flash, &g).unwrap_err().to_string();
        assert!(e.contains("1280x800"), "{e}");
    }
}
