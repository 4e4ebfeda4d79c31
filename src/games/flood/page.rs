//! Reading a Flood-It board drawn without a calibration: cells of flat
//! colour with no separators between them, inside a thick frame of one
//! colour (as Carl Steib's Flood-It page draws it, see [`super::cstby`]).
//!
//! The reader finds the board by what it is, not where a page puts it:
//!
//! 1. The frame: a ring, at least [`MIN_FRAME`] pixels thick, of one exact
//!    colour around a square interior ([`find_frame`]).
//! 2. The lattice: every place inside where the colour changes between two
//!    neighbouring pixels is a cell edge; the number of cells is the
//!    smallest `n` for which every edge lies on a multiple of the interior's
//!    side over `n` ([`lattice_cells`]). A flooded board has fewer edges
//!    and a won one none: the caller gives the count it read first.
//! 3. The colours: each cell's middle half is sampled and its most common
//!    exact colour taken when it covers most of the area; a cell covered by
//!    something else (the page's end-of-level message, drawn in the frame's
//!    colour or the page's) is unknown, and
//!    accepted only when every known cell has one colour (the won board).
//!    The palette is the cells' colours, in order of first appearance, when
//!    none is given; with one given, a colour off it (a cell in the middle
//!    of its colour transition) makes the reading fail.

use image::RgbaImage;

use crate::capture::screen::Rect;

use super::Board;

/// The thinnest frame taken as the board's frame, in pixels.
pub const MIN_FRAME: u32 = 3;
/// The smallest interior side, in pixels.
pub const MIN_SIDE: u32 = 40;
/// The smallest cell, in pixels.
pub const MIN_CELL: u32 = 6;
/// The most colours a board may have.
pub const MAX_COLOURS: usize = 10;

/// An RGB colour.
pub type Rgb = [u8; 3];

/// Why a board could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PageReadError {
    /// No thick one-coloured frame around a square was found.
    #[error(
        "no board found: no square framed by a thick ring of one colour \
         (is this the game's page, shown whole?)"
    )]
    NoFrame,
    /// The framed square is too small to read.
    #[error("the board is too small to read: {side} pixels a side (at least {MIN_SIDE})")]
    TooSmall {
        /// The interior's side.
        side: u32,
    },
    /// The edges inside fit no lattice of cells.
    #[error("the board's cells were not found: its colour edges fit no square lattice")]
    NoLattice,
    /// More colours than a board has.
    #[error("{0} colours on the board: not a Flood-It board (at most {MAX_COLOURS})")]
    TooManyColours(usize),
    /// A cell's colour is not on the board's palette.
    #[error(
        "cell ({row},{col}) is #{:02x}{:02x}{:02x}, not one of the board's colours \
         (still changing colour, or covered)", colour[0], colour[1], colour[2]
    )]
    OffPalette {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
        /// What it showed.
        colour: Rgb,
    },
    /// Cells covered by something else on a board of several colours.
    #[error("unsure of {count} cells (first ({row},{col})): something covers the board")]
    Unsure {
        /// Cells not read.
        count: usize,
        /// Row of the first.
        row: usize,
        /// Column of the first.
        col: usize,
    },
}

/// The frame: its interior and its outer edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    /// The square inside the frame (the cells).
    pub inner: Rect,
    /// The frame's outer bounding box.
    pub outer: Rect,
    /// The frame's colour.
    pub colour: Rgb,
}

/// A board read off a picture.
#[derive(Debug, Clone, PartialEq)]
pub struct PageBoard {
    /// The board, colours numbered as in `palette`.
    pub board: Board,
    /// The colours, by number.
    pub palette: Vec<Rgb>,
    /// Where it is.
    pub frame: Frame,
    /// Cells a side.
    pub cells: usize,
    /// True when some cells were covered (by the end-of-level message) and
    /// taken as the one colour of the others.
    pub covered: bool,
}

impl PageBoard {
    /// The centre of cell (`row`, `col`) in image pixels.
    pub fn cell_centre(&self, row: usize, col: usize) -> (f64, f64) {
        let i = self.frame.inner;
        let pitch_x = f64::from(i.width) / self.cells as f64;
        let pitch_y = f64::from(i.height) / self.cells as f64;
        (
            f64::from(i.x) + (col as f64 + 0.5) * pitch_x,
            f64::from(i.y) + (row as f64 + 0.5) * pitch_y,
        )
    }
}

fn rgb(image: &RgbaImage, x: u32, y: u32) -> Rgb {
    let p = image.get_pixel(x, y).0;
    [p[0], p[1], p[2]]
}

/// Colour distance (largest channel difference).
pub fn distance(a: Rgb, b: Rgb) -> u8 {
    (0..3).map(|i| a[i].abs_diff(b[i])).max().unwrap_or(0)
}

/// Runs of one exact colour at least `min` long on row `y`: (start, end
/// exclusive, colour).
fn runs(image: &RgbaImage, y: u32, min: u32) -> Vec<(u32, u32, Rgb)> {
    let mut out = Vec::new();
    let w = image.width();
    let mut x = 0;
    while x < w {
        let c = rgb(image, x, y);
        let start = x;
        while x < w && rgb(image, x, y) == c {
            x += 1;
        }
        if x - start >= min {
            out.push((start, x, c));
        }
    }
    out
}

/// Finds the board's frame: the top-most ring of one exact colour, at
/// least [`MIN_FRAME`] thick on every side, around a square interior.
pub fn find_frame(image: &RgbaImage) -> Option<Frame> {
    let (w, h) = image.dimensions();
    for y in 0..h {
        for (x0, x1, c) in runs(image, y, MIN_SIDE) {
            let mid = (x0 + x1) / 2;
            // Only the ring's top edge: the pixel above is not its colour.
            if y > 0 && rgb(image, mid, y - 1) == c {
                continue;
            }
            if let Some(f) = frame_from_top(image, (x0, x1, y), c, (w, h)) {
                return Some(f);
            }
        }
    }
    None
}

/// The frame whose top edge is the run `x0..x1` on row `y`, if the rest
/// of the ring is there.
fn frame_from_top(
    image: &RgbaImage,
    (x0, x1, y): (u32, u32, u32),
    c: Rgb,
    (w, h): (u32, u32),
) -> Option<Frame> {
    let mid = (x0 + x1) / 2;
    let quarter = (x1 - x0) / 4;
    let band_is_c = |yy: u32| (mid - quarter..mid + quarter).all(|x| rgb(image, x, yy) == c);
    let mut iy0 = y;
    while iy0 < h && iy0 - y <= 60 && band_is_c(iy0) {
        iy0 += 1;
    }
    let top = iy0 - y;
    if !(MIN_FRAME..=60).contains(&top) || iy0 + 2 >= h {
        return None;
    }
    // Left and right inner edges on a row just inside, and the bottom one.
    let probe = iy0 + 1;
    let ix0 = (0..mid).rev().find(|&x| rgb(image, x, probe) == c)? + 1;
    let ix1 = (mid..w).find(|&x| rgb(image, x, probe) == c)?;
    // Down the inside's first column: a message over the middle of the
    // board may be drawn in the frame's colour.
    let iy1 = (iy0..h).find(|&yy| rgb(image, ix0, yy) == c)?;
    let (side_x, side_y) = (ix1 - ix0, iy1 - iy0);
    if side_x < MIN_SIDE / 2 || side_x.abs_diff(side_y) > 2 + side_x / 50 {
        return None;
    }
    // The ring: as thick as its top on every side, all of its colour.
    let t = i64::from(top);
    let thick = |x: u32, yy: u32, dx: i64, dy: i64| {
        (0..t).all(|k| {
            let px = x as i64 + dx * k;
            let py = yy as i64 + dy * k;
            px >= 0
                && py >= 0
                && (px as u32) < w
                && (py as u32) < h
                && rgb(image, px as u32, py as u32) == c
        })
    };
    let sides_ok = (iy0..iy1).all(|yy| thick(ix0 - 1, yy, -1, 0) && thick(ix1, yy, 1, 0))
        && (ix0..ix1).all(|x| thick(x, iy0 - 1, 0, -1) && thick(x, iy1, 0, 1));
    if !sides_ok {
        return None;
    }
    let ring = |x: u32, yy: u32, dx: i64, dy: i64| {
        let mut n = 0;
        let (mut px, mut py) = (x as i64, yy as i64);
        while px >= 0 && py >= 0 && (px as u32) < w && (py as u32) < h && n < 60 {
            if rgb(image, px as u32, py as u32) != c {
                break;
            }
            n += 1;
            px += dx;
            py += dy;
        }
        n as u32
    };
    let cy = (iy0 + iy1) / 2;
    let left = ring(ix0 - 1, cy, -1, 0);
    let right = ring(ix1, cy, 1, 0);
    let bottom = ring(mid, iy1, 0, 1);
    Some(Frame {
        inner: Rect {
            x: ix0,
            y: iy0,
            width: side_x,
            height: side_y,
        },
        outer: Rect {
            x: ix0 - left,
            y,
            width: side_x + left + right,
            height: side_y + top + bottom,
        },
        colour: c,
    })
}

/// Positions (from the interior's start) where the colour changes by more
/// than a shade along rows (`across`) or down columns.
fn edges(image: &RgbaImage, inner: Rect, across: bool) -> Vec<u32> {
    let (len, lines) = if across {
        (inner.width, inner.height)
    } else {
        (inner.height, inner.width)
    };
    let at = |line: u32, k: u32| {
        if across {
            rgb(image, inner.x + k, inner.y + line)
        } else {
            rgb(image, inner.x + line, inner.y + k)
        }
    };
    let mut seen = vec![false; len as usize + 1];
    for line in (0..lines).step_by(2) {
        for k in 1..len {
            if distance(at(line, k), at(line, k - 1)) > 12 {
                seen[k as usize] = true;
            }
        }
    }
    (0..=len).filter(|&k| seen[k as usize]).collect()
}

/// The smallest number of cells a side for which every edge is on the
/// lattice of a square of `side` pixels; `None` when there are no edges or
/// no count fits.
pub fn lattice_cells(edges: &[u32], side: u32) -> Option<usize> {
    if edges.is_empty() {
        return None;
    }
    let most = (side / MIN_CELL).max(2) as usize;
    (2..=most).find(|&n| {
        let pitch = f64::from(side) / n as f64;
        edges.iter().all(|&e| {
            let k = (f64::from(e) / pitch).round();
            (f64::from(e) - k * pitch).abs() <= 1.5
        })
    })
}

/// The most common exact colour in the middle half of a cell and the
/// share of the sampled pixels it covers.
fn cell_colour(image: &RgbaImage, cell: Rect) -> (Rgb, f64) {
    let mut counts: Vec<(Rgb, u32)> = Vec::new();
    let (x0, y0) = (cell.x + cell.width / 4, cell.y + cell.height / 4);
    let (x1, y1) = (x0 + (cell.width / 2).max(1), y0 + (cell.height / 2).max(1));
    let mut total = 0;
    for y in y0..y1 {
        for x in x0..x1 {
            let c = rgb(image, x, y);
            total += 1;
            match counts.iter_mut().find(|(k, _)| *k == c) {
                Some((_, n)) => *n += 1,
                None => counts.push((c, 1)),
            }
        }
    }
    let (c, n) = counts
        .into_iter()
        .max_by_key(|&(_, n)| n)
        .unwrap_or(([0; 3], 0));
    (c, f64::from(n) / f64::from(total.max(1)))
}

/// Reads the board: the frame, the lattice (`known_cells` when the edges
/// do not give one, e.g. a board of one colour), and the cells' colours
/// on `palette` (learnt from the cells when `None`).
pub fn read_board(
    image: &RgbaImage,
    known_cells: Option<usize>,
    palette: Option<&[Rgb]>,
) -> Result<PageBoard, PageReadError> {
    let frame = find_frame(image).ok_or(PageReadError::NoFrame)?;
    let inner = frame.inner;
    if inner.width < MIN_SIDE {
        return Err(PageReadError::TooSmall { side: inner.width });
    }
    let cells = match known_cells {
        Some(k) => k,
        None => {
            let mut all = edges(image, inner, true);
            all.extend(edges(image, inner, false));
            lattice_cells(&all, inner.width).ok_or(PageReadError::NoLattice)?
        }
    };
    // The page's colour: just above the middle of the frame (its shadow
    // may fall on the other sides).
    let around = frame
        .outer
        .y
        .checked_sub(2)
        .map_or(frame.colour, |y| rgb(image, inner.x + inner.width / 2, y));
    let pitch = f64::from(inner.width) / cells as f64;
    let mut colours: Vec<Option<Rgb>> = Vec::with_capacity(cells * cells);
    for r in 0..cells {
        for c in 0..cells {
            let x = inner.x + (c as f64 * pitch).round() as u32;
            let y = inner.y + (r as f64 * pitch).round() as u32;
            let cell = Rect {
                x,
                y,
                width: pitch.floor() as u32,
                height: pitch.floor() as u32,
            };
            let (colour, share) = cell_colour(image, cell);
            // Mostly the frame's or the page's colour: a message drawn
            // over the board (in the page's text colour, or its hover one).
            let covered = share < 0.5
                || [frame.colour, around]
                    .iter()
                    .any(|&m| distance(colour, m) <= 4);
            colours.push((!covered).then_some(colour));
        }
    }
    let (board, palette, covered) = number_cells(&colours, cells, palette)?;
    Ok(PageBoard {
        board,
        palette,
        frame,
        cells,
        covered,
    })
}

/// The cells' colours as numbers on the palette (given, or learnt in
/// order of first appearance); unknown cells filled when the known ones
/// agree.
fn number_cells(
    colours: &[Option<Rgb>],
    cells: usize,
    palette: Option<&[Rgb]>,
) -> Result<(Board, Vec<Rgb>, bool), PageReadError> {
    let mut pal: Vec<Rgb> = palette.map(<[Rgb]>::to_vec).unwrap_or_default();
    let learn = palette.is_none();
    let mut numbers = Vec::with_capacity(colours.len());
    let mut unknown = Vec::new();
    for (i, c) in colours.iter().enumerate() {
        let Some(c) = *c else {
            unknown.push(i);
            numbers.push(u8::MAX);
            continue;
        };
        let found = pal.iter().position(|&p| distance(p, c) <= 6);
        let k = match found {
            Some(k) => k,
            None if learn => {
                pal.push(c);
                pal.len() - 1
            }
            None => {
                return Err(PageReadError::OffPalette {
                    row: i / cells,
                    col: i % cells,
                    colour: c,
                })
            }
        };
        numbers.push(k as u8);
    }
    if pal.len() > MAX_COLOURS {
        return Err(PageReadError::TooManyColours(pal.len()));
    }
    let covered = !unknown.is_empty();
    if covered {
        let mut known = numbers.iter().filter(|&&n| n != u8::MAX);
        let first = known.next().copied();
        match first {
            Some(f) if known.all(|&n| n == f) => {
                unknown.iter().for_each(|&i| numbers[i] = f);
            }
            _ => {
                return Err(PageReadError::Unsure {
                    count: unknown.len(),
                    row: unknown[0] / cells,
                    col: unknown[0] % cells,
                })
            }
        }
    }
    let board = Board::new(cells, cells, pal.len().max(1) as u8, numbers);
    Ok((board, pal, covered))
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    const FRAME: Rgb = [58, 58, 58];
    const PASTELS: [Rgb; 5] = [
        [255, 179, 186],
        [255, 223, 186],
        [255, 255, 186],
        [186, 255, 201],
        [186, 225, 255],
    ];

    /// A page of `n` x `n` cells of `side` pixels a side at (`x`, `y`)
    /// in a frame 10 pixels thick, cells coloured by `colour(r, c)`.
    fn page(
        n: usize,
        side: u32,
        at: (u32, u32),
        colour: impl Fn(usize, usize) -> usize,
    ) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(
            side + at.0 + 60,
            side + at.1 + 60,
            Rgba([250, 250, 250, 255]),
        );
        for y in at.1 - 10..at.1 + side + 10 {
            for x in at.0 - 10..at.0 + side + 10 {
                img.put_pixel(x, y, Rgba([FRAME[0], FRAME[1], FRAME[2], 255]));
            }
        }
        // A line of text above the frame, as on the page.
        for y in at.1 - 25..at.1 - 15 {
            for x in at.0..at.0 + 30 {
                img.put_pixel(x, y, Rgba([58, 58, 58, 255]));
            }
        }
        let pitch = f64::from(side) / n as f64;
        for y in 0..side {
            for x in 0..side {
                let r = (f64::from(y) / pitch) as usize;
                let c = (f64::from(x) / pitch) as usize;
                let p = PASTELS[colour(r, c)];
                img.put_pixel(at.0 + x, at.1 + y, Rgba([p[0], p[1], p[2], 255]));
            }
        }
        img
    }

    fn random_colour(r: usize, c: usize) -> usize {
        (r * 7 + c * 13 + r * c * 3) % 5
    }

    #[test]
    fn a_framed_board_reads_at_any_place_and_size() {
        for (n, side, at) in [
            (4, 400, (40, 90)),
            (9, 400, (33, 30)),
            (14, 300, (70, 40)),
            (20, 400, (100, 100)),
        ] {
            let img = page(n, side, at, random_colour);
            let b = read_board(&img, None, None).unwrap();
            assert_eq!(b.cells, n, "n={n}");
            assert_eq!(
                b.frame.inner,
                Rect {
                    x: at.0,
                    y: at.1,
                    width: side,
                    height: side
                }
            );
            assert_eq!(b.frame.outer.width, side + 20);
            for r in 0..n {
                for c in 0..n {
                    let want = PASTELS[random_colour(r, c)];
                    assert_eq!(b.palette[b.board.get(r, c) as usize], want);
                }
            }
        }
    }

    #[test]
    fn a_board_of_one_colour_needs_the_known_count() {
        let img = page(8, 400, (40, 40), |_, _| 2);
        assert_eq!(
            read_board(&img, None, None).unwrap_err(),
            PageReadError::NoLattice
        );
        let b = read_board(&img, Some(8), None).unwrap();
        assert!(b.board.is_won());
        // A coarser board that fits the known count is read on it.
        let img = page(8, 400, (40, 40), |r, _| usize::from(r >= 4));
        assert_eq!(read_board(&img, Some(8), None).unwrap().cells, 8);
        assert_eq!(read_board(&img, None, None).unwrap().cells, 2);
    }

    #[test]
    fn off_palette_and_covered_cells_are_refused() {
        let img = page(4, 400, (40, 40), random_colour);
        let err = read_board(&img, Some(4), Some(&PASTELS[..2])).unwrap_err();
        assert!(matches!(err, PageReadError::OffPalette { .. }), "{err}");
        // Text in three shades over a cell (no one shade is most of it).
        let mut img = page(4, 400, (40, 40), random_colour);
        for y in 150..260 {
            for x in 150..260 {
                img.put_pixel(x, y, Rgba([20 * ((x + y) % 3) as u8, 20, 20, 255]));
            }
        }
        let err = read_board(&img, Some(4), None).unwrap_err();
        assert!(matches!(err, PageReadError::Unsure { .. }), "{err}");
        // The same blot over a board of one colour: the won board.
        let mut img = page(4, 400, (40, 40), |_, _| 1);
        for y in 150..260 {
            for x in 150..260 {
                img.put_pixel(x, y, Rgba([20 * ((x + y) % 3) as u8, 20, 20, 255]));
            }
        }
        let b = read_board(&img, Some(4), None).unwrap();
        assert!(b.covered && b.board.is_won());
    }

    #[test]
    fn no_frame_and_small_frames_are_refused() {
        let blank = RgbaImage::from_pixel(300, 300, Rgba([250, 250, 250, 255]));
        assert_eq!(
            read_board(&blank, None, None).unwrap_err(),
            PageReadError::NoFrame
        );
        let small = page(4, 24, (30, 30), random_colour);
        assert!(read_board(&small, None, None).is_err());
    }

    #[test]
    fn lattice_counts() {
        assert_eq!(lattice_cells(&[100, 200, 300], 400), Some(4));
        assert_eq!(lattice_cells(&[200], 400), Some(2));
        assert_eq!(lattice_cells(&[44, 89, 356], 400), Some(9));
        assert_eq!(lattice_cells(&[], 400), None);
    }
}
