//! Stage 4, quantise the cell colours into a palette: either the
//! calibration's palette (index = the game's own colour number, and a cell
//! far from every entry is an error, not a guess), or, without one, a
//! palette built from the cells themselves, numbered in order of first
//! appearance (row-major).

use super::cells::CellSample;
use super::colour::{distance, is_saturated};
use super::ReadError;

/// Cells further than this (RGB distance) from every calibration palette
/// colour are an error.
pub const MAX_PALETTE_DISTANCE: f32 = 64.0;
/// Without a calibration, cells within this distance of a palette colour
/// found so far take it.
pub const CLUSTER_DISTANCE: f32 = 48.0;
/// Cells whose inner patch agrees less than this with its median colour
/// are not cells (something covers the board).
pub const MIN_UNIFORMITY: f32 = 0.5;
/// Most colours a board may have.
pub const MAX_COLOURS: usize = 16;

/// Cells as palette indices, the palette, and a confidence per cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Quantised {
    /// Palette index per cell, row-major.
    pub cells: Vec<u8>,
    /// The palette.
    pub palette: Vec<[u8; 3]>,
    /// Confidence per cell in [0, 1].
    pub confidence: Vec<f32>,
}

/// Confidence from the patch uniformity and the distances to the nearest
/// and second-nearest palette colours: 1 for a flat cell exactly on a
/// palette colour, falling to 0 half-way to the second-nearest.
fn confidence(uniformity: f32, d1: f32, d2: f32) -> f32 {
    let margin = if d2.is_finite() && d2 > 0.0 {
        (1.0 - 2.0 * d1 / d2).clamp(0.0, 1.0)
    } else {
        1.0
    };
    uniformity * margin
}

/// The two smallest distances from `c` to the palette, and the index of the
/// nearest.
fn nearest(c: [u8; 3], palette: &[[u8; 3]]) -> (usize, f32, f32) {
    let (mut best, mut d1, mut d2) = (0, f32::INFINITY, f32::INFINITY);
    for (i, &p) in palette.iter().enumerate() {
        let d = distance(c, p);
        if d < d1 {
            d2 = d1;
            d1 = d;
            best = i;
        } else if d < d2 {
            d2 = d;
        }
    }
    (best, d1, d2)
}

fn check_uniform(samples: &[CellSample], columns: usize) -> Result<(), ReadError> {
    for (i, s) in samples.iter().enumerate() {
        if s.uniformity < MIN_UNIFORMITY {
            return Err(ReadError::NotUniform {
                row: i / columns,
                col: i % columns,
                colour: s.colour,
                percent: (s.uniformity * 100.0).round() as u32,
            });
        }
    }
    Ok(())
}

/// Maps every cell to the nearest colour of a calibration palette.
pub fn quantise_to_palette(
    samples: &[CellSample],
    columns: usize,
    palette: &[[u8; 3]],
) -> Result<Quantised, ReadError> {
    check_uniform(samples, columns)?;
    let mut cells = Vec::with_capacity(samples.len());
    let mut conf = Vec::with_capacity(samples.len());
    for (i, s) in samples.iter().enumerate() {
        let (k, d1, d2) = nearest(s.colour, palette);
        if palette.is_empty() || d1 > MAX_PALETTE_DISTANCE {
            return Err(ReadError::FarColour {
                row: i / columns,
                col: i % columns,
                colour: s.colour,
                nearest: palette.get(k).copied().unwrap_or([0, 0, 0]),
                distance: d1.min(999.0).round() as u32,
            });
        }
        cells.push(k as u8);
        conf.push(confidence(s.uniformity, d1, d2));
    }
    Ok(Quantised {
        cells,
        palette: palette.to_vec(),
        confidence: conf,
    })
}

/// Builds a palette from the cells (order of first appearance) and maps
/// every cell to it. Grey cells are an error: without a calibration, board
/// colours must be saturated.
pub fn cluster(samples: &[CellSample], columns: usize) -> Result<Quantised, ReadError> {
    cluster_with(samples, columns, None)
}

/// [`cluster`], but a grey (unsaturated) cell is a board colour when
/// `whole` says it fills its whole cell on the lattice (see
/// [`super::cells::whole_cells`]); a grey cell that does not is an error.
pub fn cluster_with(
    samples: &[CellSample],
    columns: usize,
    whole: Option<&[bool]>,
) -> Result<Quantised, ReadError> {
    check_uniform(samples, columns)?;
    // Seeds in order of first appearance.
    let mut seeds: Vec<[u8; 3]> = Vec::new();
    for (i, s) in samples.iter().enumerate() {
        if !is_saturated(s.colour) && !whole.is_some_and(|w| w[i]) {
            return Err(ReadError::GreyCell {
                row: i / columns,
                col: i % columns,
                colour: s.colour,
            });
        }
        if seeds
            .iter()
            .all(|&p| distance(p, s.colour) > CLUSTER_DISTANCE)
        {
            seeds.push(s.colour);
            if seeds.len() > MAX_COLOURS {
                let count = count_clusters(samples);
                return Err(ReadError::TooManyColours {
                    count,
                    max: MAX_COLOURS,
                });
            }
        }
    }
    // Assign to the nearest seed, then use each cluster's mean as its colour.
    let assign: Vec<usize> = samples
        .iter()
        .map(|s| nearest(s.colour, &seeds).0)
        .collect();
    let mut sums = vec![[0u64; 4]; seeds.len()];
    for (s, &k) in samples.iter().zip(&assign) {
        let sum = &mut sums[k];
        for (acc, &v) in sum.iter_mut().zip(&s.colour) {
            *acc += v as u64;
        }
        sum[3] += 1;
    }
    let palette: Vec<[u8; 3]> = sums
        .iter()
        .zip(&seeds)
        .map(|(s, &seed)| {
            if s[3] == 0 {
                seed
            } else {
                [0, 1, 2].map(|c| ((s[c] + s[3] / 2) / s[3]) as u8)
            }
        })
        .collect();
    let mut cells = Vec::with_capacity(samples.len());
    let mut conf = Vec::with_capacity(samples.len());
    for s in samples {
        let (k, d1, d2) = nearest(s.colour, &palette);
        cells.push(k as u8);
        conf.push(confidence(s.uniformity, d1, d2));
    }
    Ok(Quantised {
        cells,
        palette,
        confidence: conf,
    })
}

/// Checks that every grey (unsaturated) cell fills its whole cell
/// (`whole[i]`, see [`super::cells::whole_cells`]): the first one that does
/// not is a [`ReadError::GreyCell`] (something grey lies over the board).
pub fn check_whole_greys(
    samples: &[CellSample],
    columns: usize,
    whole: &[bool],
) -> Result<(), ReadError> {
    for (i, (s, &w)) in samples.iter().zip(whole).enumerate() {
        if !w && !is_saturated(s.colour) {
            return Err(ReadError::GreyCell {
                row: i / columns,
                col: i % columns,
                colour: s.colour,
            });
        }
    }
    Ok(())
}

/// Number of distinct colour clusters (for the error message only).
fn count_clusters(samples: &[CellSample]) -> usize {
    let mut seeds: Vec<[u8; 3]> = Vec::new();
    for s in samples {
        if seeds
            .iter()
            .all(|&p| distance(p, s.colour) > CLUSTER_DISTANCE)
        {
            seeds.push(s.colour);
        }
    }
    seeds.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(c: [u8; 3]) -> CellSample {
        CellSample {
            colour: c,
            uniformity: 1.0,
        }
    }

    #[test]
    fn clusters_in_order_of_first_appearance() {
        let cells = [
            s([0, 0, 250]),
            s([255, 0, 0]),
            s([2, 0, 255]),
            s([250, 250, 0]),
        ];
        let q = cluster(&cells, 2).unwrap();
        assert_eq!(q.cells, vec![0, 1, 0, 2]);
        assert_eq!(q.palette[0], [1, 0, 253]);
        assert!(q.confidence.iter().all(|&c| c > 0.9));
    }

    #[test]
    fn grey_and_far_cells_are_errors() {
        let err = cluster(&[s([255, 0, 0]), s([127, 127, 127])], 2).unwrap_err();
        assert!(
            err.to_string()
                .contains("cell (0, 1) colour #7f7f7f is grey"),
            "{err}"
        );
        let err = quantise_to_palette(
            &[s([255, 0, 0]), s([127, 127, 127])],
            1,
            &[[255, 0, 0], [0, 0, 255]],
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "cell (1, 0) colour #7f7f7f is far from every palette colour (nearest #ff0000, distance 221)"
        );
    }

    #[test]
    fn palette_order_is_the_calibration_order() {
        let q = quantise_to_palette(
            &[s([0, 250, 0]), s([255, 0, 0])],
            2,
            &[[255, 0, 0], [0, 255, 0]],
        )
        .unwrap();
        assert_eq!(q.cells, vec![1, 0]);
    }

    #[test]
    fn grey_cells_that_fill_their_cells_are_colours() {
        let cells = [
            s([255, 0, 0]),
            s([146, 151, 125]),
            s([146, 151, 125]),
            s([255, 0, 0]),
        ];
        assert!(cluster(&cells, 2).is_err());
        let q = cluster_with(&cells, 2, Some(&[true, true, true, true])).unwrap();
        assert_eq!(q.cells, vec![0, 1, 1, 0]);
        let err = cluster_with(&cells, 2, Some(&[true, true, false, true])).unwrap_err();
        assert!(
            matches!(err, ReadError::GreyCell { row: 1, col: 0, .. }),
            "{err}"
        );
    }
}
