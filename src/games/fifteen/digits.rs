//! Reading the numbers on Fifteen's tiles without an OCR program.
//!
//! Each tile's ink is cut into digit blobs (runs of inked columns); each
//! blob is scaled to a fixed grid by its height, keeping its width's
//! proportion ([`Glyph`]). A blob is compared with reference digits drawn
//! from four common sans fonts (`glyphs/digits.png`, made by
//! `glyphs/make-digits.sh`): that gives every tile a cost for every
//! number. Since a W x H board holds exactly the numbers 1..W*H-1, the
//! tiles are then given numbers by a minimum-cost assignment (each number
//! once), which settles the shapes the references alone would confuse.
//! Last, what the board taught is checked: every blob read as a digit must
//! look like the board's other blobs read as that digit, and unlike the
//! blobs read as other digits; a tile that breaks this, or fits its number
//! badly, is refused rather than guessed.

use std::sync::OnceLock;

use pathfinding::kuhn_munkres::kuhn_munkres_min;
use pathfinding::matrix::Matrix;

/// Grid width of a normalised glyph.
pub const GRID_W: usize = 12;
/// Grid height of a normalised glyph.
pub const GRID_H: usize = 16;

/// A digit blob scaled to `GRID_W` x `GRID_H` by its height: ink from 0
/// (none) to 1 (full), centred horizontally.
#[derive(Debug, Clone, PartialEq)]
pub struct Glyph {
    /// Ink per grid cell, row by row.
    pub ink: [f32; GRID_W * GRID_H],
    /// Width over height of the blob's ink.
    pub aspect: f32,
}

impl Glyph {
    /// Scales the ink of `rect` (x, y, width, height in `ink`'s pixels) of
    /// an ink map `ink` (row length `stride`, values 0 to 1).
    pub fn from_ink(ink: &[f32], stride: usize, rect: (usize, usize, usize, usize)) -> Glyph {
        let (x0, y0, w, h) = rect;
        let scale = h as f32 / GRID_H as f32; // source pixels per grid cell
        let cx = x0 as f32 + w as f32 / 2.0;
        let rows = ink.len() / stride.max(1);
        let at = |x: f32, y: f32| -> f32 {
            // Bilinear, zero outside the blob's rectangle.
            let fx = x - 0.5;
            let fy = y - 0.5;
            let ix = fx.floor();
            let iy = fy.floor();
            let (tx, ty) = (fx - ix, fy - iy);
            let mut v = 0.0;
            for (dx, wx) in [(0, 1.0 - tx), (1, tx)] {
                for (dy, wy) in [(0, 1.0 - ty), (1, ty)] {
                    let px = ix as i64 + dx;
                    let py = iy as i64 + dy;
                    if px < x0 as i64
                        || py < y0 as i64
                        || px >= (x0 + w) as i64
                        || py >= (y0 + h) as i64
                        || py as usize >= rows
                    {
                        continue;
                    }
                    v += wx * wy * ink[py as usize * stride + px as usize];
                }
            }
            v
        };
        const SUB: usize = 3;
        let mut out = [0f32; GRID_W * GRID_H];
        for gy in 0..GRID_H {
            for gx in 0..GRID_W {
                let mut sum = 0.0;
                for sy in 0..SUB {
                    for sx in 0..SUB {
                        let ox = (gx as f32 + (sx as f32 + 0.5) / SUB as f32) - GRID_W as f32 / 2.0;
                        let oy = gy as f32 + (sy as f32 + 0.5) / SUB as f32;
                        sum += at(cx + ox * scale, y0 as f32 + oy * scale);
                    }
                }
                out[gy * GRID_W + gx] = sum / (SUB * SUB) as f32;
            }
        }
        Glyph {
            ink: out,
            aspect: w as f32 / h.max(1) as f32,
        }
    }

    /// Mean squared difference of ink, plus the difference of aspect.
    pub fn distance(&self, other: &Glyph) -> f32 {
        let ssd: f32 = self
            .ink
            .iter()
            .zip(&other.ink)
            .map(|(a, b)| (a - b) * (a - b))
            .sum();
        ssd / (GRID_W * GRID_H) as f32 + 0.25 * (self.aspect - other.aspect).abs()
    }
}

/// The reference digits: `REFERENCE[font][digit]`.
fn references() -> &'static Vec<[Glyph; 10]> {
    static REFS: OnceLock<Vec<[Glyph; 10]>> = OnceLock::new();
    REFS.get_or_init(|| {
        let sheet = image::load_from_memory(include_bytes!("glyphs/digits.png"))
            .expect("the built-in digit sheet is a PNG")
            .to_luma8();
        let (cw, ch) = (48usize, 64usize);
        let fonts = sheet.height() as usize / ch;
        let stride = sheet.width() as usize;
        let ink: Vec<f32> = sheet
            .as_raw()
            .iter()
            .map(|&v| 1.0 - v as f32 / 255.0)
            .collect();
        (0..fonts)
            .map(|f| {
                std::array::from_fn(|d| {
                    let cell = (d * cw, f * ch, cw, ch);
                    let rect = ink_box(&ink, stride, cell, 0.5)
                        .expect("every reference cell holds a digit");
                    Glyph::from_ink(&ink, stride, rect)
                })
            })
            .collect()
    })
}

/// The bounding box of ink above `threshold` inside `cell`.
pub fn ink_box(
    ink: &[f32],
    stride: usize,
    cell: (usize, usize, usize, usize),
    threshold: f32,
) -> Option<(usize, usize, usize, usize)> {
    let (x0, y0, w, h) = cell;
    let (mut lx, mut ly, mut hx, mut hy) = (usize::MAX, usize::MAX, 0, 0);
    for y in y0..y0 + h {
        for x in x0..x0 + w {
            if ink[y * stride + x] > threshold {
                lx = lx.min(x);
                hx = hx.max(x);
                ly = ly.min(y);
                hy = hy.max(y);
            }
        }
    }
    (lx != usize::MAX).then(|| (lx, ly, hx - lx + 1, hy - ly + 1))
}

/// How far `glyph` is from each digit: the nearest reference font's
/// distance, digit by digit.
pub fn reference_costs(glyph: &Glyph) -> [f32; 10] {
    let refs = references();
    std::array::from_fn(|d| {
        refs.iter()
            .map(|font| glyph.distance(&font[d]))
            .fold(f32::INFINITY, f32::min)
    })
}

/// Why the numbers could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DigitError {
    /// No assignment gives every tile a number with its count of digits.
    #[error("it shows {blobs} digit shape(s), but no number left on a board of {tiles} tiles has that many digits")]
    DigitCount {
        /// The tile (index among the tiles given).
        tile: usize,
        /// Blobs found on it.
        blobs: usize,
        /// Tiles on the board.
        tiles: usize,
    },
    /// A tile's shapes fit its number badly or disagree with the board.
    #[error("{detail}")]
    Unclear {
        /// The tile (index among the tiles given).
        tile: usize,
        /// What was wrong.
        detail: String,
    },
}

/// Distance over which a blob fits no reference digit at all.
const NO_DIGIT: f32 = 0.25;

/// Gives the tiles the numbers `1..=tiles.len()`, each once: tile `i`
/// shows the blobs `tiles[i]` (left to right). Returns the number of each
/// tile.
pub fn assign_numbers(tiles: &[Vec<Glyph>]) -> Result<Vec<usize>, DigitError> {
    let n = tiles.len();
    let costs: Vec<Vec<[f32; 10]>> = tiles
        .iter()
        .map(|blobs| blobs.iter().map(reference_costs).collect())
        .collect();
    const IMPOSSIBLE: i64 = 1 << 40;
    let mut weights = Vec::with_capacity(n * n);
    for tile in &costs {
        for number in 1..=n {
            let digits: Vec<usize> = number
                .to_string()
                .bytes()
                .map(|b| (b - b'0') as usize)
                .collect();
            let w = if digits.len() == tile.len() {
                let c: f32 = tile.iter().zip(&digits).map(|(c, &d)| c[d]).sum();
                (c * 1e6) as i64
            } else {
                IMPOSSIBLE
            };
            weights.push(w);
        }
    }
    let matrix = Matrix::from_vec(n, n, weights).expect("n x n weights");
    let (_, assignment) = kuhn_munkres_min(&matrix);
    let numbers: Vec<usize> = assignment.iter().map(|&k| k + 1).collect();
    for (i, &k) in numbers.iter().enumerate() {
        if k.to_string().len() != tiles[i].len() {
            return Err(DigitError::DigitCount {
                tile: i,
                blobs: tiles[i].len(),
                tiles: n,
            });
        }
    }
    check_consistency(tiles, &numbers, &costs)?;
    Ok(numbers)
}

/// What the board teaches: blobs read as one digit look alike, blobs read
/// as different digits do not, and each fits some reference digit.
fn check_consistency(
    tiles: &[Vec<Glyph>],
    numbers: &[usize],
    costs: &[Vec<[f32; 10]>],
) -> Result<(), DigitError> {
    // (tile, digit, glyph) of every blob.
    let mut blobs: Vec<(usize, usize, &Glyph)> = Vec::new();
    for (i, (glyphs, &k)) in tiles.iter().zip(numbers).enumerate() {
        for (j, (g, b)) in glyphs.iter().zip(k.to_string().bytes()).enumerate() {
            let d = (b - b'0') as usize;
            let best = costs[i][j].iter().copied().fold(f32::INFINITY, f32::min);
            log::trace!("tile {i} digit {j}: read {d}, nearest reference at {best:.3}");
            if best > NO_DIGIT {
                return Err(DigitError::Unclear {
                    tile: i,
                    detail: format!(
                        "its digit {} looks like no digit (distance {best:.3} to the nearest reference)",
                        j + 1
                    ),
                });
            }
            blobs.push((i, d, g));
        }
    }
    // The board's own glyph of each digit: the mean of the blobs read as
    // it. Every blob must be nearer its own digit's mean than any other's.
    let mut sums: Vec<Option<(Glyph, usize)>> = vec![None; 10];
    for &(_, d, g) in &blobs {
        match &mut sums[d] {
            Some((s, n)) => {
                s.ink.iter_mut().zip(&g.ink).for_each(|(a, b)| *a += b);
                s.aspect += g.aspect;
                *n += 1;
            }
            None => sums[d] = Some((g.clone(), 1)),
        }
    }
    let means: Vec<Option<Glyph>> = sums
        .into_iter()
        .map(|e| {
            e.map(|(mut g, n)| {
                g.ink.iter_mut().for_each(|v| *v /= n as f32);
                g.aspect /= n as f32;
                g
            })
        })
        .collect();
    for &(tile, d, g) in &blobs {
        let own = means[d].as_ref().map_or(0.0, |m| g.distance(m));
        for (e, m) in means.iter().enumerate() {
            let Some(m) = m else { continue };
            if e != d && g.distance(m) < own {
                return Err(DigitError::Unclear {
                    tile,
                    detail: format!(
                        "its {d} looks more like the board's other {e}s than its other {d}s"
                    ),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_read_as_themselves() {
        let refs = references();
        assert_eq!(refs.len(), 4);
        for font in refs {
            for (d, g) in font.iter().enumerate() {
                let c = reference_costs(g);
                let best = (0..10).min_by(|&a, &b| c[a].total_cmp(&c[b])).unwrap();
                assert_eq!(best, d);
                assert!(c[d] < 1e-6);
            }
        }
    }

    #[test]
    fn numbers_are_assigned_each_once() {
        // Tiles showing the reference glyphs of 1..15 in a shuffled order.
        let f = &references()[1];
        let order = [13, 12, 5, 6, 11, 7, 14, 15, 4, 3, 9, 2, 8, 10, 1];
        let tiles: Vec<Vec<Glyph>> = order
            .iter()
            .map(|k: &usize| {
                k.to_string()
                    .bytes()
                    .map(|b| f[(b - b'0') as usize].clone())
                    .collect()
            })
            .collect();
        assert_eq!(assign_numbers(&tiles).unwrap(), order.to_vec());
        // A tile with three blobs fits no number of a 15-tile board.
        let mut bad = tiles.clone();
        bad[0].push(f[3].clone());
        assert!(matches!(
            assign_numbers(&bad),
            Err(DigitError::DigitCount { .. })
        ));
    }
}
