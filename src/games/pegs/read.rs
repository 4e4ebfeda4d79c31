//! Reading a Pegs board off a screenshot, without calibration.
//!
//! sgt-pegs draws a peg as a saturated disc and a hole as a small grey disc
//! darker than the board, both centred in their cell; off-board cells are
//! plain background. The reader finds the discs (4-connected components of
//! "saturated" and of "dark grey" pixels whose bounding box is about square
//! and whose fill is about that of a disc — the bevel lines around the board
//! are long and thin and fail that test), takes the lattice pitch from the
//! smallest spacing of the disc centres, and puts each disc on its cell.
//! Holes far from every peg (a board played down to a few pegs) are found
//! by growing the board from the discs near the pegs, lattice cell by
//! lattice cell. Cells with neither are off the board. Rows and columns that hold no
//! board cell at all cannot be seen, so the reading is the bounding box of
//! the board's cells (the same game as the ID with those rows trimmed).
//! Works for any tile size and board shape, on the desktop and in the
//! browser build, whose renders differ only in the surroundings.

use image::RgbaImage;

use super::rules::{bit, Board, Game, MAX_SIDE};

/// Why a screenshot is not a readable Pegs board.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReadError {
    /// No peg or hole disc was found.
    #[error("no pegs or holes found in the {width}x{height} image (is sgt-pegs on screen?)")]
    NoBoard {
        /// Image width.
        width: u32,
        /// Image height.
        height: u32,
    },
    /// Discs were found but not on one square lattice.
    #[error("disc at ({x:.0}, {y:.0}) px is not on the lattice of pitch {pitch:.1} px found from the others")]
    OffLattice {
        /// Disc centre x.
        x: f64,
        /// Disc centre y.
        y: f64,
        /// The pitch.
        pitch: f64,
    },
    /// Two discs fall in one cell.
    #[error("two discs in the cell at row {row}, column {col}")]
    Collision {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
    },
    /// More than 11 rows or columns.
    #[error("read a board of {width}x{height} cells; at most {MAX_SIDE}x{MAX_SIDE} are supported")]
    TooLarge {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// No pitch could be measured (a single disc, or discs never adjacent).
    #[error("cannot measure the cell size: {0}")]
    NoPitch(String),
    /// The board read has no pegs.
    #[error("the board read has no pegs (only {holes} holes)")]
    NoPegs {
        /// Holes read.
        holes: usize,
    },
}

/// A board read off a screenshot, with where its cells are.
#[derive(Debug, Clone, PartialEq)]
pub struct PegsReading {
    /// The position read.
    pub game: Game,
    /// Image x of the centre of column 0.
    pub x0: f64,
    /// Image y of the centre of row 0.
    pub y0: f64,
    /// Cell size in pixels.
    pub pitch: f64,
    /// Peg disc diameter in pixels (median).
    pub peg_size: f64,
}

impl PegsReading {
    /// Image coordinates of the centre of cell (row, col).
    pub fn cell_centre(&self, row: usize, col: usize) -> (f64, f64) {
        (
            self.x0 + col as f64 * self.pitch,
            self.y0 + row as f64 * self.pitch,
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Peg,
    Hole,
}

#[derive(Debug, Clone, Copy)]
struct Disc {
    kind: Kind,
    x: f64,
    y: f64,
    size: f64,
}

/// The most common colour's brightness inside a box of the image.
fn background_lum(image: &RgbaImage, x0: u32, y0: u32, x1: u32, y1: u32) -> i32 {
    let mut counts = rustc_hash::FxHashMap::default();
    for y in y0..y1.min(image.height()) {
        for x in x0..x1.min(image.width()) {
            let p = image.get_pixel(x, y);
            *counts.entry([p[0], p[1], p[2]]).or_insert(0u32) += 1;
        }
    }
    let bg = counts
        .into_iter()
        .max_by_key(|&(_, n)| n)
        .map(|(c, _)| c)
        .unwrap_or([255, 255, 255]);
    bg.iter().map(|&v| v as i32).sum::<i32>() / 3
}

/// Classifies each pixel: 1 saturated, 2 grey and darker than the board
/// (brightness `bg_lum`), 0 other.
fn classify(image: &RgbaImage, bg_lum: i32) -> Vec<u8> {
    image
        .pixels()
        .map(|p| {
            let (r, g, b) = (p[0] as i32, p[1] as i32, p[2] as i32);
            let max = r.max(g).max(b);
            let min = r.min(g).min(b);
            let lum = (r + g + b) / 3;
            if max - min > 80 {
                1
            } else if max - min < 24 && lum < bg_lum - 25 && lum > bg_lum / 3 {
                2
            } else {
                0
            }
        })
        .collect()
}

/// Disc-shaped 4-connected components of each class.
fn discs(image: &RgbaImage, bg_lum: i32) -> Vec<Disc> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let mut class = classify(image, bg_lum);
    let mut out = Vec::new();
    let mut stack = Vec::new();
    for start in 0..w * h {
        let k = class[start];
        if k == 0 {
            continue;
        }
        class[start] = 0;
        stack.push(start);
        let (mut n, mut sx, mut sy) = (0usize, 0usize, 0usize);
        let (mut x0, mut x1, mut y0, mut y1) = (usize::MAX, 0, usize::MAX, 0);
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            n += 1;
            sx += x;
            sy += y;
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
            let mut visit = |j: usize| {
                if class[j] == k {
                    class[j] = 0;
                    stack.push(j);
                }
            };
            if x > 0 {
                visit(i - 1);
            }
            if x + 1 < w {
                visit(i + 1);
            }
            if y > 0 {
                visit(i - w);
            }
            if y + 1 < h {
                visit(i + w);
            }
        }
        let (bw, bh) = ((x1 - x0 + 1) as f64, (y1 - y0 + 1) as f64);
        let fill = n as f64 / (bw * bh);
        let square = bw.min(bh) / bw.max(bh);
        // Small discs are near-squares of pixels: allow a full box there.
        let max_fill = if bw <= 6.0 { 1.0 } else { 0.95 };
        if bw >= 3.0 && square > 0.8 && fill > 0.6 && fill <= max_fill {
            out.push(Disc {
                kind: if k == 1 { Kind::Peg } else { Kind::Hole },
                x: sx as f64 / n as f64,
                y: sy as f64 / n as f64,
                size: (bw + bh) / 2.0,
            });
        }
    }
    out
}

/// The smallest spacing between distinct clustered coordinates.
fn min_spacing(mut v: Vec<f64>, tol: f64) -> Option<f64> {
    v.sort_by(f64::total_cmp);
    let mut best: Option<f64> = None;
    for pair in v.windows(2) {
        let d = pair[1] - pair[0];
        if d > tol {
            best = Some(best.map_or(d, |b: f64| b.min(d)));
        }
    }
    best
}

/// Reads the Pegs board in `image`.
pub fn read_board(image: &RgbaImage) -> Result<PegsReading, ReadError> {
    let all = discs(image, board_lum(image));
    // Pegs are the saturated discs of the typical (median) size; holes
    // grey discs clearly smaller than a peg, of their own typical size.
    let peg_size = median(all.iter().filter(|d| d.kind == Kind::Peg).map(|d| d.size));
    let Some(peg_size) = peg_size else {
        return Err(ReadError::NoBoard {
            width: image.width(),
            height: image.height(),
        });
    };
    let near_pegs = NearPegs::around(&all, peg_size);
    let mut discs: Vec<Disc> = all
        .iter()
        .filter(|d| match d.kind {
            Kind::Peg => near(d.size, peg_size) && near_pegs.holds(d),
            Kind::Hole => near_pegs.hole_like(d),
        })
        .copied()
        .collect();
    let Some(pitch) = spacing(&discs.iter().collect::<Vec<_>>(), 0.8 * peg_size) else {
        return Err(ReadError::NoPitch(format!(
            "only {} disc(s), none beside another",
            discs.len()
        )));
    };
    // The lattice is anchored on the median peg; discs off it (stray
    // marks elsewhere on the screen) are dropped, but if many are, the
    // image is not a Pegs board.
    let pegs_only: Vec<Disc> = discs
        .iter()
        .filter(|d| d.kind == Kind::Peg)
        .copied()
        .collect();
    let lattice = Lattice {
        anchor: pegs_only[pegs_only.len() / 2],
        pitch,
    };
    grow_holes(&all, &mut discs, &near_pegs, &lattice);
    let on_lattice = lattice.place(&discs, pegs_only.len())?;
    to_reading(&on_lattice, pitch, peg_size)
}

/// The board's luminance: first the pegs alone (saturated discs), then
/// the commonest colour in the box around those of the typical size
/// (widened by a peg on each side so that the board's colour dominates it
/// even when one peg is left); 0 when there are none.
fn board_lum(image: &RgbaImage) -> i32 {
    let first = discs(image, 0);
    let peg_size0 = median(first.iter().map(|d| d.size)).unwrap_or(0.0);
    let typical: Vec<&Disc> = first
        .iter()
        .filter(|d| (d.size - peg_size0).abs() <= peg_size0 * 0.25 + 1.0)
        .collect();
    if typical.is_empty() {
        return 0;
    }
    let m = peg_size0;
    let x0 = typical.iter().map(|d| d.x).fold(f64::INFINITY, f64::min) - m;
    let x1 = typical.iter().map(|d| d.x).fold(0.0, f64::max) + m;
    let y0 = typical.iter().map(|d| d.y).fold(f64::INFINITY, f64::min) - m;
    let y1 = typical.iter().map(|d| d.y).fold(0.0, f64::max) + m;
    background_lum(
        image,
        x0.max(0.0) as u32,
        y0.max(0.0) as u32,
        x1 as u32 + 1,
        y1 as u32 + 1,
    )
}

/// True when `size` is within a quarter (and a pixel) of the typical `t`.
fn near(size: f64, t: f64) -> bool {
    (size - t).abs() <= t * 0.25 + 1.0
}

/// The smallest spacing between the discs' distinct columns or rows
/// (coordinates closer than `tol` are one).
fn spacing(ds: &[&Disc], tol: f64) -> Option<f64> {
    let px = min_spacing(ds.iter().map(|d| d.x).collect(), tol);
    let py = min_spacing(ds.iter().map(|d| d.y).collect(), tol);
    match (px, py) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The box around the pegs of the typical size, widened by 1.2 peg
/// pitches: holes are looked for only there (grey marks elsewhere on the
/// screen, such as text, must not count).
struct NearPegs {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
    reach: f64,
    peg_size: f64,
}

impl NearPegs {
    fn around(all: &[Disc], peg_size: f64) -> NearPegs {
        let pegs_only: Vec<&Disc> = all
            .iter()
            .filter(|d| d.kind == Kind::Peg && near(d.size, peg_size))
            .collect();
        let peg_pitch = spacing(&pegs_only, 0.8 * peg_size).unwrap_or(2.0 * peg_size);
        let (x0, x1) = pegs_only
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), d| {
                (a.min(d.x), b.max(d.x))
            });
        let (y0, y1) = pegs_only
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), d| {
                (a.min(d.y), b.max(d.y))
            });
        NearPegs {
            x0,
            x1,
            y0,
            y1,
            reach: 1.2 * peg_pitch,
            peg_size,
        }
    }

    fn holds(&self, d: &Disc) -> bool {
        let r = self.reach;
        d.x >= self.x0 - r && d.x <= self.x1 + r && d.y >= self.y0 - r && d.y <= self.y1 + r
    }

    /// A grey disc near the pegs, clearly smaller than a peg.
    fn hole_like(&self, d: &Disc) -> bool {
        d.kind == Kind::Hole && self.holds(d) && self.hole_sized(d)
    }

    fn hole_sized(&self, d: &Disc) -> bool {
        d.size >= 0.2 * self.peg_size && d.size <= 0.9 * self.peg_size
    }
}

/// The cell lattice: anchored on a peg, `pitch` pixels a cell.
struct Lattice {
    anchor: Disc,
    pitch: f64,
}

impl Lattice {
    /// `d`'s (row, column) from the anchor, unrounded.
    fn offset(&self, d: &Disc) -> (f64, f64) {
        (
            (d.y - self.anchor.y) / self.pitch,
            (d.x - self.anchor.x) / self.pitch,
        )
    }

    fn holds(&self, d: &Disc) -> bool {
        let (rf, cf) = self.offset(d);
        (cf - cf.round()).abs() <= 0.2 && (rf - rf.round()).abs() <= 0.2
    }

    /// The discs on the lattice with their (row, column) from the
    /// anchor. Grey marks off the lattice are not holes; pegs off it are
    /// counted against the reading, which fails when they are more than
    /// a quarter of the `pegs` pegs.
    fn place(&self, discs: &[Disc], pegs: usize) -> Result<Vec<(i64, i64, Disc)>, ReadError> {
        let mut on_lattice = Vec::new();
        let mut off: Option<Disc> = None;
        let mut off_count = 0;
        for d in discs {
            if !self.holds(d) {
                if d.kind == Kind::Peg {
                    off_count += 1;
                    off.get_or_insert(*d);
                }
                continue;
            }
            let (rf, cf) = self.offset(d);
            on_lattice.push((rf.round() as i64, cf.round() as i64, *d));
        }
        if off_count * 4 > pegs {
            let d = off.expect("counted");
            return Err(ReadError::OffLattice {
                x: d.x,
                y: d.y,
                pitch: self.pitch,
            });
        }
        Ok(on_lattice)
    }
}

/// Holes far from every peg (a board emptied but for a few pegs): grows
/// `discs` from those found so far, one ring of lattice-placed holes at a
/// time, each within two cells of a disc already taken.
fn grow_holes(all: &[Disc], discs: &mut Vec<Disc>, near_pegs: &NearPegs, lattice: &Lattice) {
    let hole_size = median(
        discs
            .iter()
            .filter(|d| d.kind == Kind::Hole)
            .map(|d| d.size),
    );
    let mut rest: Vec<Disc> = all
        .iter()
        .filter(|d| {
            d.kind == Kind::Hole
                && !near_pegs.hole_like(d)
                && near_pegs.hole_sized(d)
                && hole_size.is_none_or(|s| near(d.size, s))
                && lattice.holds(d)
        })
        .copied()
        .collect();
    let reach2 = (2.2 * lattice.pitch).powi(2);
    loop {
        let before = rest.len();
        rest.retain(|h| {
            let close = discs
                .iter()
                .any(|d| (d.x - h.x).powi(2) + (d.y - h.y).powi(2) <= reach2);
            if close {
                discs.push(*h);
            }
            !close
        });
        if rest.len() == before {
            break;
        }
    }
}

/// The board, its pegs and its geometry from the discs placed on the
/// lattice (pegs win a cell over grey marks in it).
fn to_reading(
    on_lattice: &[(i64, i64, Disc)],
    pitch: f64,
    peg_size: f64,
) -> Result<PegsReading, ReadError> {
    let mut on_lattice = on_lattice.to_vec();
    on_lattice.sort_by_key(|c| c.2.kind == Kind::Hole);
    let rmin = on_lattice.iter().map(|c| c.0).min().unwrap();
    let cmin = on_lattice.iter().map(|c| c.1).min().unwrap();
    let discs: Vec<Disc> = on_lattice.iter().map(|c| c.2).collect();
    let cells: Vec<(usize, usize, Kind)> = on_lattice
        .iter()
        .map(|&(r, c, d)| ((r - rmin) as usize, (c - cmin) as usize, d.kind))
        .collect();
    let width = cells.iter().map(|c| c.1).max().unwrap() + 1;
    let height = cells.iter().map(|c| c.0).max().unwrap() + 1;
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(ReadError::TooLarge { width, height });
    }
    let mut on = 0u128;
    let mut pegs = 0u128;
    for &(r, c, k) in &cells {
        let i = (r * width + c) as u8;
        if on & bit(i) != 0 {
            if k == Kind::Hole {
                // A grey mark inside a cell already read (a peg's shading).
                continue;
            }
            return Err(ReadError::Collision { row: r, col: c });
        }
        on |= bit(i);
        if k == Kind::Peg {
            pegs |= bit(i);
        }
    }
    if pegs == 0 {
        return Err(ReadError::NoPegs { holes: cells.len() });
    }
    // Refine the origin: mean offset of the discs from their cells.
    let n = discs.len() as f64;
    let x0 = discs
        .iter()
        .zip(&cells)
        .map(|(d, c)| d.x - c.1 as f64 * pitch)
        .sum::<f64>()
        / n;
    let y0 = discs
        .iter()
        .zip(&cells)
        .map(|(d, c)| d.y - c.0 as f64 * pitch)
        .sum::<f64>()
        / n;
    let board = Board::new(width, height, on).expect("size checked");
    Ok(PegsReading {
        game: Game { board, pegs },
        x0,
        y0,
        pitch,
        peg_size,
    })
}

fn median(it: impl Iterator<Item = f64>) -> Option<f64> {
    let mut v: Vec<f64> = it.collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some(v[v.len() / 2])
}

/// `game` with the rows and columns that hold no board cell removed (what
/// a screenshot of it reads as).
pub fn trimmed(game: &Game) -> Game {
    let b = &game.board;
    let rows: Vec<usize> = (0..b.height())
        .filter(|&r| (0..b.width()).any(|c| b.on_board(r, c)))
        .collect();
    let cols: Vec<usize> = (0..b.width())
        .filter(|&c| (0..b.height()).any(|r| b.on_board(r, c)))
        .collect();
    let (r0, r1) = (rows[0], *rows.last().unwrap());
    let (c0, c1) = (cols[0], *cols.last().unwrap());
    let (w, h) = (c1 - c0 + 1, r1 - r0 + 1);
    let mut on = 0u128;
    let mut pegs = 0u128;
    for r in 0..h {
        for c in 0..w {
            let src = b.index(r + r0, c + c0);
            let dst = (r * w + c) as u8;
            if b.cells() & bit(src) != 0 {
                on |= bit(dst);
            }
            if game.pegs & bit(src) != 0 {
                pegs |= bit(dst);
            }
        }
    }
    Game {
        board: Board::new(w, h, on).expect("smaller than the original"),
        pegs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pegs::parse::parse_game;

    /// Draws `game` the way sgt-pegs does, roughly: grey background, light
    /// board cells, blue peg discs, dark grey hole discs.
    fn render(game: &Game, tile: u32, margin: u32) -> RgbaImage {
        let b = &game.board;
        let (w, h) = (
            b.width() as u32 * tile + 2 * margin,
            b.height() as u32 * tile + 2 * margin,
        );
        let mut img = RgbaImage::from_pixel(w, h, image::Rgba([214, 214, 214, 255]));
        for r in 0..b.height() {
            for c in 0..b.width() {
                if !b.on_board(r, c) {
                    continue;
                }
                let (cx, cy) = (
                    margin as f64 + (c as f64 + 0.5) * tile as f64,
                    margin as f64 + (r as f64 + 0.5) * tile as f64,
                );
                let peg = game.pegs & bit(b.index(r, c)) != 0;
                let rad = if peg {
                    tile as f64 / 3.0
                } else {
                    tile as f64 / 8.0
                };
                let col = if peg {
                    [0, 0, 255, 255]
                } else {
                    [160, 160, 160, 255]
                };
                for y in 0..h {
                    for x in 0..w {
                        let (dx, dy) = (x as f64 + 0.5 - cx, y as f64 + 0.5 - cy);
                        if dx * dx + dy * dy <= rad * rad {
                            img.put_pixel(x, y, image::Rgba(col));
                        }
                    }
                }
            }
        }
        img
    }

    #[test]
    fn reads_a_drawn_board_at_several_tile_sizes() {
        let g = parse_game("5x4:OPPHOPPPPPHPOPPOOPHO").unwrap();
        for tile in [20, 33, 64] {
            let r = read_board(&render(&g, tile, 7)).unwrap();
            assert_eq!(r.game, trimmed(&g), "tile {tile}");
            assert!((r.pitch - tile as f64).abs() < 1.0);
            let (x, _) = r.cell_centre(0, 1);
            assert!((x - (7.0 + 1.5 * tile as f64)).abs() < 1.5);
        }
    }

    #[test]
    fn blank_images_are_errors() {
        let img = RgbaImage::from_pixel(50, 40, image::Rgba([214, 214, 214, 255]));
        assert!(matches!(read_board(&img), Err(ReadError::NoBoard { .. })));
    }

    // Every fixture of `fixtures/pegs/` against its truth file:
    // `super::super::cli::fixtures`.

    #[test]
    fn trimming_drops_empty_rows_and_columns() {
        let g = parse_game("3x3:OOOOPHOOO").unwrap();
        let t = trimmed(&g);
        assert_eq!(t.id(), "2x1:PH");
    }
}
