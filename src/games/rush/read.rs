//! Reads a board off a screenshot of Fogleman's web player (a p5 canvas):
//! the board square (its fill `#F2EACD`), the side N (4 to 8) from the
//! grid lines, each cell by the colour at its centre (red `#CC3333` the
//! primary piece, teal `#338899` the others, dark `#222222` a wall), and
//! which cells belong to one piece by the colour across their shared
//! edge (pieces are inset a tenth of a cell, so two pieces side by side
//! show the board between them). No calibration: every length is found
//! in the image, at any window size.
//!
//! When the puzzle is solved the player flashes the board white; a
//! screenshot taken then is refused with [`ReadError::Flashing`] rather
//! than misread.

use image::{Rgba, RgbaImage};

use super::board::{Board, Position, MAX_SIZE, MIN_SIZE};
use super::parse::{parse_board, ParseError};

const BOARD: [u8; 3] = [0xF2, 0xEA, 0xCD];
const RED: [u8; 3] = [0xCC, 0x33, 0x33];
const TEAL: [u8; 3] = [0x33, 0x88, 0x99];
const DARK: [u8; 3] = [0x22, 0x22, 0x22];

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
    let (w, h) = img.dimensions();
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
    let side = (bw + bh) as f64 / 2.0;
    let (ox, oy) = (x0 as f64, y0 as f64);
    let dark_near = |x: f64, y: f64| {
        let (cx, cy) = (x.round() as i64, y.round() as i64);
        (-2..=2).any(|d| {
            let xx = cx + d;
            xx >= 0 && (xx as u32) < w && cy >= 0 && (cy as u32) < h && {
                // A grid line a pixel wide is blended into its
                // neighbours: anything well below the board's brightness.
                let c = rgb(img.get_pixel(xx as u32, cy as u32));
                c.iter().map(|&v| v as u32).sum::<u32>() < 520
            }
        })
    };
    // Score each side: vertical grid lines where a boundary should be, in
    // the thin band at the top of each cell row (above any piece), and
    // none halfway between boundaries.
    let mut best = None;
    for n in MIN_SIZE..=MAX_SIZE {
        let cell = side / n as f64;
        let mut score = 0i64;
        for r in 0..n {
            let y = oy + (r as f64 + 0.05) * cell;
            for k in 1..n {
                score += if dark_near(ox + k as f64 * cell, y) {
                    1
                } else {
                    -1
                };
            }
            for k in 0..n {
                if dark_near(ox + (k as f64 + 0.5) * cell, y) {
                    score -= 1;
                }
            }
        }
        let total = (n * (n - 1)) as i64;
        if score * 10 >= total * 7 && best.is_none_or(|(s, _)| score * 100 / total > s) {
            best = Some((score * 100 / total, n));
        }
    }
    let (_, n) = best.ok_or(ReadError::NoGrid)?;
    let cell = side / n as f64;
    let at = |x: f64, y: f64| rgb(img.get_pixel((x as u32).min(w - 1), (y as u32).min(h - 1)));
    // Classify cells.
    let mut kind = vec![b'o'; n * n];
    for r in 0..n {
        for c in 0..n {
            let col = at(ox + (c as f64 + 0.5) * cell, oy + (r as f64 + 0.5) * cell);
            kind[r * n + c] = if near(col, BOARD, 12) {
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
    use super::super::generate::canonical_text;
    use super::*;

    /// Every `fixtures/rush/NAME.png` against `NAME.txt`: the board it
    /// shows, or `error: TEXT` for a piece of the error it must give.
    #[test]
    fn fixtures() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/rush");
        let mut checked = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "png") {
                continue;
            }
            let want = std::fs::read_to_string(path.with_extension("txt")).unwrap();
            let want = want.trim();
            let img = image::open(&path).unwrap().to_rgba8();
            let got = read(&img);
            match want.strip_prefix("error: ") {
                Some(err) => {
                    let e = got.expect_err(&path.display().to_string());
                    assert!(
                        e.to_string().to_lowercase().contains(err),
                        "{}: {e}",
                        path.display()
                    );
                }
                None => {
                    let r = got.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                    assert_eq!(r.text, canonical_text(want), "{}", path.display());
                }
            }
            checked += 1;
        }
        assert!(checked >= 5);
    }
}
