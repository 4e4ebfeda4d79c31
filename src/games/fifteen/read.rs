//! Reading an sgt-fifteen board off a screenshot, without calibration.
//!
//! sgt-fifteen draws each tile as a square of the window's grey with a
//! light bevel on its top and left edges and a dark one on its bottom and
//! right, its number in the middle; the gap is plain grey; a sunk frame
//! (dark top and left, light bottom and right) rings the board. The
//! desktop program and the web build draw the same pixels, at any tile
//! size (`FIFTEEN_TILESIZE`; the bevel is a twentieth of the tile).
//!
//! 1. Every row of the image is cut into runs of one colour; a run with a
//!    lighter pixel on its left and a darker one on its right is a row of
//!    a tile's inside. The run length found in most such rows is the inside
//!    width; the runs of that length start at the tile columns, which must
//!    be evenly spaced (the pitch is the tile size).
//! 2. The same test down one pixel column inside each tile column finds
//!    the tile rows.
//! 3. The frame must ring the lattice: a side outside the image, or a tile
//!    beyond it, is a board cut off at the edge; a side that is not the
//!    frame is a covered board.
//! 4. Each cell is a tile (bevels and a plain inner ring) or the gap
//!    (plain); anything else is a tile off the lattice (mid-slide) or,
//!    with colours the game does not draw, a covered cell.
//! 5. The numbers: see [`super::digits`].
//!
//! About 1 to 3 ms for a 4x4 board on a 1280x800 screenshot (see
//! `gridbot bench read fifteen`).

use image::RgbaImage;

use super::digits::{assign_numbers, DigitError, Glyph};
use super::rules::Board;
use crate::play::Rect;

/// Why a screenshot is not a readable sgt-fifteen board.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReadError {
    /// Nothing like a board of bevelled tiles.
    #[error("no sgt-fifteen board found in the {width}x{height} image (looked for grey tiles with a light top-left and a dark bottom-right edge, in a lattice of at least 2x2)")]
    NoBoard {
        /// Image width.
        width: u32,
        /// Image height.
        height: u32,
    },
    /// The board runs past the image's edge.
    #[error("the board is cut off at the {side} edge of the image (the frame around the tiles is not all on the screen)")]
    CutOff {
        /// `left`, `right`, `top` or `bottom`.
        side: &'static str,
    },
    /// Something is drawn over the board.
    #[error("the board is covered: {0}")]
    Covered(String),
    /// A cell holds neither a whole tile nor the plain gap.
    #[error("the cell at row {row}, column {col} holds neither a tile on the lattice nor the gap (a tile mid-slide?)")]
    OffLattice {
        /// Row, from 0 at the top.
        row: usize,
        /// Column, from 0 at the left.
        col: usize,
    },
    /// Not exactly one gap.
    #[error("found {count} gaps on the {width}x{height} board; a board has exactly one")]
    Gaps {
        /// Gaps found.
        count: usize,
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A tile's number could not be read.
    #[error("the number on the tile at row {row}, column {col} cannot be read: {detail}")]
    Unreadable {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
        /// Why.
        detail: String,
    },
    /// The board is larger than the game module takes.
    #[error("read a board of {width}x{height} cells; at most {max}x{max} are supported", max = Board::MAX_SIDE)]
    TooLarge {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
}

/// A board read off a screenshot and where its cells are.
#[derive(Debug, Clone, PartialEq)]
pub struct FifteenReading {
    /// The position (0 for the gap).
    pub board: Board,
    /// Image x of the left edge of column 0.
    pub x0: u32,
    /// Image y of the top edge of row 0.
    pub y0: u32,
    /// Tile size (the lattice pitch) in pixels.
    pub tile: u32,
    /// Width of the bevels in pixels.
    pub bevel: u32,
}

impl FifteenReading {
    /// The rectangle of the cell at (`row`, `col`) in image pixels.
    pub fn cell(&self, row: usize, col: usize) -> Rect {
        Rect {
            x: self.x0 + col as u32 * self.tile,
            y: self.y0 + row as u32 * self.tile,
            width: self.tile,
            height: self.tile,
        }
    }

    /// Every cell's rectangle, in row order.
    pub fn cells(&self) -> Vec<Rect> {
        let (w, h) = (self.board.width(), self.board.height());
        (0..w * h).map(|i| self.cell(i / w, i % w)).collect()
    }

    /// The centre of the cell at (`row`, `col`) in image pixels.
    pub fn cell_centre(&self, row: usize, col: usize) -> (f64, f64) {
        let r = self.cell(row, col);
        (
            r.x as f64 + r.width as f64 / 2.0,
            r.y as f64 + r.height as f64 / 2.0,
        )
    }

    /// The tiles' bounding box (without the frame).
    pub fn board_rect(&self) -> Rect {
        Rect {
            x: self.x0,
            y: self.y0,
            width: self.tile * self.board.width() as u32,
            height: self.tile * self.board.height() as u32,
        }
    }
}

/// Shortest tile inside (tile size less two bevels) looked for.
const MIN_INSIDE: usize = 14;
/// Longest tile inside looked for.
const MAX_INSIDE: usize = 400;
/// How much lighter or darker (mean of the channels) a bevel is than the
/// tile's inside.
const BEVEL_STEP: i32 = 12;

/// The image as rows of pixels.
struct Pixels<'a> {
    raw: &'a [u8],
    width: usize,
    height: usize,
}

impl Pixels<'_> {
    #[inline]
    fn at(&self, x: usize, y: usize) -> u32 {
        let i = (y * self.width + x) * 4;
        u32::from_le_bytes([self.raw[i], self.raw[i + 1], self.raw[i + 2], 0])
    }

    /// The pixel at (x, y) when inside the image.
    fn get(&self, x: i64, y: i64) -> Option<u32> {
        (x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height)
            .then(|| self.at(x as usize, y as usize))
    }
}

#[inline]
fn channels(p: u32) -> [i32; 3] {
    [
        (p & 0xff) as i32,
        ((p >> 8) & 0xff) as i32,
        ((p >> 16) & 0xff) as i32,
    ]
}

#[inline]
fn lum(p: u32) -> i32 {
    let [r, g, b] = channels(p);
    (r + g + b) / 3
}

#[inline]
fn is_grey(p: u32) -> bool {
    let [r, g, b] = channels(p);
    r.max(g).max(b) - r.min(g).min(b) <= 16
}

/// Within a few levels on every channel.
#[inline]
fn near(a: u32, b: u32) -> bool {
    let (a, b) = (channels(a), channels(b));
    (0..3).all(|i| (a[i] - b[i]).abs() <= 6)
}

/// A row of a tile's inside: `len` pixels of `colour` from `x`, lighter
/// on the left, darker on the right.
#[derive(Debug, Clone, Copy)]
struct Run {
    len: u32,
    x: u32,
    y: u32,
    colour: u32,
}

/// The three greys of the board.
#[derive(Debug, Clone, Copy)]
struct Palette {
    face: u32,
    light: u32,
    dark: u32,
}

/// The lattice found: origin of the first inside, pitch, inside, bevel.
#[derive(Debug, Clone, Copy)]
struct Lattice {
    x0: usize,
    y0: usize,
    columns: usize,
    rows: usize,
    tile: usize,
    bevel: usize,
    palette: Palette,
}

fn inside_runs(px: &Pixels) -> Vec<Run> {
    let mut runs = Vec::new();
    let w = px.width;
    for y in 0..px.height {
        let mut x = 1;
        while x < w {
            let c = px.at(x, y);
            let mut e = x + 1;
            while e < w && px.at(e, y) == c {
                e += 1;
            }
            let len = e - x;
            if (MIN_INSIDE..=MAX_INSIDE).contains(&len) && e < w && is_grey(c) {
                let (l, r) = (px.at(x - 1, y), px.at(e, y));
                let lc = lum(c);
                if is_grey(l)
                    && is_grey(r)
                    && lum(l) >= lc + BEVEL_STEP
                    && lum(r) + BEVEL_STEP <= lc
                {
                    runs.push(Run {
                        len: len as u32,
                        x: x as u32,
                        y: y as u32,
                        colour: c,
                    });
                }
            }
            x = e;
        }
    }
    runs
}

/// The longest chain `v, v+step, v+2*step, ...` in sorted `values`.
fn longest_chain(values: &[usize], step: usize) -> Vec<usize> {
    let mut best: Vec<usize> = Vec::new();
    for (i, &v) in values.iter().enumerate() {
        if values[..i].contains(&(v.wrapping_sub(step))) {
            continue; // not a chain start
        }
        let mut chain = vec![v];
        while values
            .binary_search(&(chain[chain.len() - 1] + step))
            .is_ok()
        {
            chain.push(chain[chain.len() - 1] + step);
        }
        if chain.len() > best.len() {
            best = chain;
        }
    }
    best
}

/// Tile columns for inside width `s` from the runs: (x of each inside,
/// pitch), with the palette.
fn columns_for(runs: &[Run], s: u32, px: &Pixels) -> Option<(Vec<usize>, usize, Palette)> {
    // Run starts of that length, with how many rows each has.
    let mut starts: Vec<(usize, usize)> = Vec::new(); // x, rows
    for r in runs.iter().filter(|r| r.len == s) {
        match starts.iter_mut().find(|e| e.0 == r.x as usize) {
            Some(e) => e.1 += 1,
            None => starts.push((r.x as usize, 1)),
        }
    }
    let strong = (s as usize / 4).max(4);
    starts.retain(|e| e.1 >= strong);
    starts.sort();
    let xs: Vec<usize> = starts.iter().map(|e| e.0).collect();
    // The pitch: the commonest difference of neighbouring starts that
    // leaves room for two bevels of at most a tenth of the inside.
    let mut diffs: Vec<(usize, usize)> = Vec::new();
    for pair in xs.windows(2) {
        let d = pair[1] - pair[0];
        // A start nearer than a tile's width is a tile off the lattice.
        let Some(gap) = d.checked_sub(s as usize) else {
            continue;
        };
        if gap >= 2 && gap % 2 == 0 && gap <= s as usize / 8 + 4 {
            match diffs.iter_mut().find(|e| e.0 == d) {
                Some(e) => e.1 += 1,
                None => diffs.push((d, 1)),
            }
        }
    }
    diffs.sort_by_key(|&(d, n)| (std::cmp::Reverse(n), d));
    for &(pitch, _) in diffs.iter().take(3) {
        let chain = longest_chain(&xs, pitch);
        if chain.len() < 2 {
            continue;
        }
        // The greys: the commonest of the first column's rows (a tile's
        // first and last inside rows meet the bevels' antialiased corners).
        let x = chain[0];
        let mut greys: Vec<((u32, u32, u32), usize)> = Vec::new();
        for r in runs.iter().filter(|r| r.len == s && r.x as usize == x) {
            let y = r.y as usize;
            let key = (r.colour, px.at(x - 1, y), px.at(x + s as usize, y));
            match greys.iter_mut().find(|e| e.0 == key) {
                Some(e) => e.1 += 1,
                None => greys.push((key, 1)),
            }
        }
        let ((face, light, dark), _) = *greys.iter().max_by_key(|e| e.1)?;
        let palette = Palette { face, light, dark };
        return Some((chain, pitch, palette));
    }
    None
}

/// Tile rows: vertical insides of length `s` down the pixel column just
/// inside each tile column.
fn rows_for(px: &Pixels, xs: &[usize], s: usize, pitch: usize, pal: Palette) -> Vec<usize> {
    let mut ys: Vec<usize> = Vec::new();
    for &x in xs {
        let x = x + 1;
        let mut y = 1;
        while y < px.height {
            let c = px.at(x, y);
            let mut e = y + 1;
            while e < px.height && px.at(x, e) == c {
                e += 1;
            }
            if e - y == s && e < px.height && near(c, pal.face) {
                let (a, b) = (px.at(x, y - 1), px.at(x, e));
                if near(a, pal.light) && near(b, pal.dark) && !ys.contains(&y) {
                    ys.push(y);
                }
            }
            y = e;
        }
    }
    ys.sort();
    longest_chain(&ys, pitch)
}

fn find_lattice(px: &Pixels) -> Option<Lattice> {
    let runs = inside_runs(px);
    // Score each inside width by the rows of its strong run groups.
    let mut lens: Vec<(u32, usize)> = Vec::new();
    for r in &runs {
        match lens.iter_mut().find(|e| e.0 == r.len) {
            Some(e) => e.1 += 1,
            None => lens.push((r.len, 1)),
        }
    }
    lens.sort_by_key(|&(l, n)| (std::cmp::Reverse(n), l));
    for &(s, _) in lens.iter().take(4) {
        let Some((xs, pitch, palette)) = columns_for(&runs, s, px) else {
            log::debug!("inside width {s}: no evenly spaced tile columns");
            continue;
        };
        log::debug!("inside width {s}: columns at {xs:?}, pitch {pitch}, {palette:?}");
        let s = s as usize;
        let ys = rows_for(px, &xs, s, pitch, palette);
        if ys.len() < 2 {
            log::debug!("inside width {s}: no tile rows ({ys:?})");
            continue;
        }
        let bevel = (pitch - s) / 2;
        return Some(Lattice {
            x0: xs[0] - bevel,
            y0: ys[0] - bevel,
            columns: xs.len(),
            rows: ys.len(),
            tile: pitch,
            bevel,
            palette,
        });
    }
    None
}

/// Checks the frame on every side: cut off, covered, or fine.
fn check_frame(px: &Pixels, l: &Lattice) -> Result<(), ReadError> {
    let (x0, y0, t, b) = (l.x0 as i64, l.y0 as i64, l.tile as i64, l.bevel as i64);
    let (x1, y1) = (x0 + t * l.columns as i64, y0 + t * l.rows as i64);
    let (w, h) = (px.width as i64, px.height as i64);
    // Outside the image.
    for (side, out) in [
        ("left", x0 - b < 0),
        ("top", y0 - b < 0),
        ("right", x1 + b > w),
        ("bottom", y1 + b > h),
    ] {
        if out {
            return Err(ReadError::CutOff { side });
        }
    }
    let pal = l.palette;
    let is = |x: i64, y: i64, c: u32| px.get(x, y).is_some_and(|p| near(p, c));
    let rows = || (0..l.rows as i64).map(|r| y0 + r * t);
    let cols = || (0..l.columns as i64).map(|c| x0 + c * t);
    // A tile beyond a side: its bevel where the frame's outside should be.
    let beyond = [
        (
            "left",
            rows().any(|y| is(x0 - b - 1, y + t - 1, pal.dark)),
            x0 - t < 0,
        ),
        (
            "right",
            rows().any(|y| is(x1 + b, y, pal.light)),
            x1 + t > w,
        ),
        (
            "top",
            cols().any(|x| is(x + t - 1, y0 - b - 1, pal.dark)),
            y0 - t < 0,
        ),
        (
            "bottom",
            cols().any(|x| is(x, y1 + b, pal.light)),
            y1 + t > h,
        ),
    ];
    for (side, tile_beyond, past_edge) in beyond {
        if tile_beyond {
            return Err(if past_edge {
                ReadError::CutOff { side }
            } else {
                ReadError::Covered(format!(
                    "tiles continue past the {side} side of the lattice but cannot be read"
                ))
            });
        }
    }
    // The frame itself, probed across the middle of each tile row and column.
    let ring =
        |x: i64, y: i64, dx: i64, dy: i64, c: u32| (0..b).all(|k| is(x + k * dx, y + k * dy, c));
    let sides = [
        (
            "left",
            rows().all(|y| ring(x0 - b, y + t / 2, 1, 0, pal.dark)),
        ),
        (
            "right",
            rows().all(|y| ring(x1, y + t / 2, 1, 0, pal.light)),
        ),
        (
            "top",
            cols().all(|x| ring(x + t / 2, y0 - b, 0, 1, pal.dark)),
        ),
        (
            "bottom",
            cols().all(|x| ring(x + t / 2, y1, 0, 1, pal.light)),
        ),
    ];
    for (side, ok) in sides {
        if !ok {
            return Err(ReadError::Covered(format!(
                "the frame on the {side} side of the board is hidden"
            )));
        }
    }
    Ok(())
}

/// What one cell shows.
enum Cell {
    Tile,
    Gap,
}

fn classify(px: &Pixels, l: &Lattice, row: usize, col: usize) -> Result<Cell, ReadError> {
    let (t, b) = (l.tile, l.bevel);
    let (x, y) = (l.x0 + col * t, l.y0 + row * t);
    let pal = l.palette;
    let face = |xx: usize, yy: usize| near(px.at(xx, yy), pal.face);
    let (lo, hi) = (b, t - b - 1);
    let tile = near(px.at(x + t / 2, y), pal.light)
        && near(px.at(x, y + t / 2), pal.light)
        && near(px.at(x + t / 2, y + t - 1), pal.dark)
        && near(px.at(x + t - 1, y + t / 2), pal.dark)
        && (lo..=hi).all(|k| face(x + k, y + lo) && face(x + k, y + hi))
        && (lo..=hi).all(|k| face(x + lo, y + k) && face(x + hi, y + k));
    if tile {
        return Ok(Cell::Tile);
    }
    let gap = (0..t).all(|dy| (0..t).all(|dx| face(x + dx, y + dy)));
    if gap {
        return Ok(Cell::Gap);
    }
    // A tile mid-slide shows the game's greys with at most a few bevel
    // lines of the light grey; a window over the cell shows other colours,
    // or large light areas.
    let (mut foreign, mut light) = (0, 0);
    let face_lum = lum(pal.face);
    for dy in 0..t {
        for dx in 0..t {
            let p = px.at(x + dx, y + dy);
            if near(p, pal.light) {
                light += 1;
            } else if !is_grey(p) || lum(p) > face_lum + 4 {
                // Not a grey the game draws here: its greys are the face,
                // the bevels and the ink (darker than the face).
                foreign += 1;
            }
        }
    }
    if foreign * 50 > t * t || light > 3 * b.max(1) * t {
        Err(ReadError::Covered(format!(
            "something is drawn over the cell at row {row}, column {col}"
        )))
    } else {
        Err(ReadError::OffLattice { row, col })
    }
}

/// A tile's ink, 0 to 1 per pixel of its inside (row length `side`).
struct TileInk {
    ink: Vec<f32>,
    side: usize,
    /// Column ranges of the digit blobs, left to right.
    blobs: Vec<(usize, usize)>,
}

/// The ink on a tile and its blobs: runs of columns holding ink.
fn tile_ink(px: &Pixels, l: &Lattice, row: usize, col: usize, ink_lum: i32) -> TileInk {
    let (t, b) = (l.tile, l.bevel);
    let s = t - 2 * b;
    let (x, y) = (l.x0 + col * t + b, l.y0 + row * t + b);
    let face = lum(l.palette.face);
    let span = (face - ink_lum).max(1) as f32;
    let mut ink = vec![0f32; s * s];
    for dy in 0..s {
        for dx in 0..s {
            let v = (face - lum(px.at(x + dx, y + dy))) as f32 / span;
            ink[dy * s + dx] = v.clamp(0.0, 1.0);
        }
    }
    let inked: Vec<bool> = (0..s)
        .map(|dx| (0..s).any(|dy| ink[dy * s + dx] > 0.5))
        .collect();
    let mut blobs = Vec::new();
    let mut dx = 0;
    while dx < s {
        if !inked[dx] {
            dx += 1;
            continue;
        }
        let start = dx;
        while dx < s && inked[dx] {
            dx += 1;
        }
        blobs.push((start, dx));
    }
    TileInk {
        ink,
        side: s,
        blobs,
    }
}

impl TileInk {
    /// Splits a blob as wide as `parts` digits at its faintest columns
    /// (small bold digits touch).
    fn split(&mut self, k: usize, parts: usize) {
        let (a, e) = self.blobs[k];
        let s = self.side;
        let column_ink = |dx: usize| -> f32 { (0..s).map(|dy| self.ink[dy * s + dx]).sum() };
        let mut cuts = Vec::new();
        for p in 1..parts {
            let centre = a + (e - a) * p / parts;
            let lo = centre.saturating_sub((e - a) / (3 * parts)).max(a + 1);
            let hi = (centre + (e - a) / (3 * parts)).min(e - 1);
            let cut = (lo..=hi.max(lo))
                .min_by(|&u, &v| column_ink(u).total_cmp(&column_ink(v)))
                .unwrap_or(centre);
            cuts.push(cut);
        }
        let mut pieces = Vec::new();
        let mut start = a;
        for c in cuts {
            pieces.push((start, c));
            start = c + 1;
        }
        pieces.push((start, e));
        self.blobs.splice(k..=k, pieces);
    }

    /// The blobs as normalised glyphs (blobs less than 3 pixels tall are
    /// specks and left out).
    fn glyphs(&self) -> Vec<Glyph> {
        let s = self.side;
        self.blobs
            .iter()
            .filter_map(|&(a, e)| super::digits::ink_box(&self.ink, s, (a, 0, e - a, s), 0.5))
            .filter(|r| r.3 >= 3)
            .map(|r| Glyph::from_ink(&self.ink, s, r))
            .collect()
    }
}

/// Splits blobs much wider than the typical digit (the median blob width).
fn split_touching(tiles: &mut [TileInk]) {
    let mut widths: Vec<usize> = tiles
        .iter()
        .flat_map(|t| t.blobs.iter().map(|&(a, e)| e - a))
        .collect();
    if widths.is_empty() {
        return;
    }
    widths.sort();
    let typical = widths[widths.len() / 2].max(1) as f64;
    for t in tiles.iter_mut() {
        let mut k = 0;
        while k < t.blobs.len() {
            let (a, e) = t.blobs[k];
            let parts = ((e - a) as f64 / typical).round() as usize;
            if (e - a) as f64 > 1.6 * typical && parts >= 2 {
                t.split(k, parts);
                k += parts;
            } else {
                k += 1;
            }
        }
    }
}

/// Finds and reads an sgt-fifteen board (see the module docs).
pub fn read_board(image: &RgbaImage) -> Result<FifteenReading, ReadError> {
    let px = Pixels {
        raw: image.as_raw(),
        width: image.width() as usize,
        height: image.height() as usize,
    };
    let no_board = || ReadError::NoBoard {
        width: image.width(),
        height: image.height(),
    };
    if px.width < 3 || px.height < 3 {
        return Err(no_board());
    }
    let l = find_lattice(&px).ok_or_else(no_board)?;
    check_frame(&px, &l)?;
    let (w, h) = (l.columns, l.rows);
    if w > Board::MAX_SIDE || h > Board::MAX_SIDE {
        return Err(ReadError::TooLarge {
            width: w,
            height: h,
        });
    }
    let mut tiles = Vec::new(); // cell index of each tile
    let mut gaps = Vec::new();
    for i in 0..w * h {
        match classify(&px, &l, i / w, i % w)? {
            Cell::Tile => tiles.push(i),
            Cell::Gap => gaps.push(i),
        }
    }
    if gaps.len() != 1 {
        return Err(ReadError::Gaps {
            count: gaps.len(),
            width: w,
            height: h,
        });
    }
    // The ink's darkest grey: the text colour.
    let s = l.tile - 2 * l.bevel;
    let mut ink_lum = lum(l.palette.face);
    for &i in &tiles {
        let (x, y) = (
            l.x0 + (i % w) * l.tile + l.bevel,
            l.y0 + (i / w) * l.tile + l.bevel,
        );
        let mid = y + s / 2;
        for dx in 0..s {
            ink_lum = ink_lum.min(lum(px.at(x + dx, mid)));
        }
    }
    if lum(l.palette.face) - ink_lum < 60 {
        return Err(ReadError::Unreadable {
            row: tiles[0] / w,
            col: tiles[0] % w,
            detail: "no dark text on the tiles".into(),
        });
    }
    let mut inks: Vec<TileInk> = tiles
        .iter()
        .map(|&i| tile_ink(&px, &l, i / w, i % w, ink_lum))
        .collect();
    split_touching(&mut inks);
    let glyphs: Vec<Vec<Glyph>> = inks.iter().map(TileInk::glyphs).collect();
    if let Some(k) = glyphs.iter().position(|g| g.is_empty()) {
        return Err(ReadError::Unreadable {
            row: tiles[k] / w,
            col: tiles[k] % w,
            detail: "no number on it".into(),
        });
    }
    let numbers = assign_numbers(&glyphs).map_err(|e| {
        let (k, detail) = match &e {
            DigitError::DigitCount { tile, .. } => (*tile, e.to_string()),
            DigitError::Unclear { tile, detail } => (*tile, detail.clone()),
        };
        ReadError::Unreadable {
            row: tiles[k] / w,
            col: tiles[k] % w,
            detail,
        }
    })?;
    let mut cells = vec![0usize; w * h];
    for (&i, &k) in tiles.iter().zip(&numbers) {
        cells[i] = k;
    }
    let board = Board::try_new(w, h, &cells).map_err(|e| ReadError::Unreadable {
        row: 0,
        col: 0,
        detail: e.to_string(),
    })?;
    Ok(FifteenReading {
        board,
        x0: l.x0 as u32,
        y0: l.y0 as u32,
        tile: l.tile as u32,
        bevel: l.bevel as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> RgbaImage {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/fifteen")
            .join(name);
        image::open(&path).unwrap().to_rgba8()
    }

    #[test]
    fn cells_and_centres() {
        let r = read_board(&fixture("desktop-4x4.png")).unwrap();
        assert_eq!(
            r.board.sgt_id(),
            "4x4:15,8,7,5,1,13,3,10,4,14,11,9,2,12,0,6"
        );
        assert_eq!((r.x0, r.y0, r.tile, r.bevel), (24, 49, 48, 2));
        assert_eq!(r.cells().len(), 16);
        assert_eq!(r.cell_centre(1, 2), (24.0 + 2.5 * 48.0, 49.0 + 1.5 * 48.0));
        assert_eq!(r.board_rect().width, 192);
    }

    #[test]
    fn a_tile_mid_slide_is_off_the_lattice() {
        // Tile 12 at row 3, column 1 drawn a third of the way into the gap
        // on its right, its old place partly plain.
        let mut img = fixture("desktop-4x4.png");
        let r = read_board(&img).unwrap();
        let (t, x, y) = (r.tile, r.x0 + r.tile, r.y0 + 3 * r.tile);
        let tile = image::imageops::crop_imm(&img, x, y, t, t).to_image();
        let face = *img.get_pixel(x + t / 2, y + r.bevel + 1);
        for dy in 0..t {
            for dx in 0..t / 3 {
                img.put_pixel(x + dx, y + dy, face);
            }
        }
        image::imageops::replace(&mut img, &tile, (x + t / 3) as i64, y as i64);
        let e = read_board(&img).unwrap_err();
        assert!(matches!(e, ReadError::OffLattice { row: 3, .. }), "{e}");
    }

    #[test]
    fn a_board_cut_by_the_image_edge_is_refused() {
        let img = fixture("desktop-4x4.png");
        for (w, h, side) in [
            (24 + 48 * 3 + 20, 800, "right"),
            (1280, 49 + 48 * 2 + 30, "bottom"),
        ] {
            let cut = image::imageops::crop_imm(&img, 0, 0, w, h).to_image();
            let e = read_board(&cut).unwrap_err();
            assert_eq!(e, ReadError::CutOff { side }, "{e}");
        }
        let cut = image::imageops::crop_imm(&img, 60, 0, 1000, 800).to_image();
        let e = read_board(&cut).unwrap_err();
        assert_eq!(e, ReadError::CutOff { side: "left" }, "{e}");
    }

    #[test]
    fn blank_and_tiny_images_have_no_board() {
        for (w, h) in [(1, 1), (300, 200)] {
            let img = RgbaImage::from_pixel(w, h, image::Rgba([213, 213, 213, 255]));
            assert!(matches!(read_board(&img), Err(ReadError::NoBoard { .. })));
        }
    }
}
