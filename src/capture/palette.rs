//! Stage 4, quantise the cell colours into a palette: either the
//! calibration's palette (index = the game's own colour number, and a cell
//! far from every entry is an error, not a guess), or, without one, a
//! palette built from the cells themselves, numbered in order of first
//! appearance (row-major).

use super::cells::CellSample;
use super::colour::{chroma, distance};
use super::ReadError;
use crate::calibration::ReadSettings;

/// A colour with at most this chroma is a neutral grey (window backgrounds,
/// menus, frames: GTK's #d5d5d5, #5a5a5a...).
pub const NEUTRAL_CHROMA: u8 = 12;
/// True for a neutral grey: what windows, menus and frames are drawn in.
/// Unsaturated colours with a tint (sgt-flood's `FLOOD_COLOUR_3=92977d`,
/// chroma 26) are not neutral: they are read as board colours without a
/// calibration; a neutral grey cell needs the calibration's palette (or a
/// frame, see `reading.framed_greys`), since a window over the board looks
/// the same.
#[inline]
pub fn is_neutral(colour: [u8; 3]) -> bool {
    chroma(colour) <= NEUTRAL_CHROMA
}

/// A neutral grey cell is accepted only this close (RGB distance) to a
/// palette colour that is itself neutral: a grey the palette does not
/// contain is a window over the board, not a board colour.
pub const GREY_MATCH_DISTANCE: f32 = 24.0;
/// Without a calibration, cells within this distance of a palette colour
/// found so far take it.
pub const CLUSTER_DISTANCE: f32 = 48.0;
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

fn check_uniform(
    samples: &[CellSample],
    columns: usize,
    settings: &ReadSettings,
) -> Result<(), ReadError> {
    for (i, s) in samples.iter().enumerate() {
        // Thresholds are range-checked (no NaN) when a calibration loads.
        if s.uniformity < settings.min_uniformity {
            return Err(ReadError::NotUniform {
                row: i / columns,
                col: i % columns,
                colour: s.colour,
                percent: (s.uniformity * 100.0).round() as u32,
                min_percent: (settings.min_uniformity * 100.0).round() as u32,
            });
        }
    }
    Ok(())
}

/// Refuses a cell whose confidence is below the threshold.
fn check_confidence(
    i: usize,
    columns: usize,
    sample: &CellSample,
    confidence: f32,
    palette: &[[u8; 3]],
    settings: &ReadSettings,
) -> Result<(), ReadError> {
    if confidence >= settings.min_confidence {
        return Ok(());
    }
    let mut by_distance: Vec<[u8; 3]> = palette.to_vec();
    by_distance.sort_by(|a, b| distance(*a, sample.colour).total_cmp(&distance(*b, sample.colour)));
    Err(ReadError::Unsure {
        row: i / columns,
        col: i % columns,
        colour: sample.colour,
        nearest: by_distance.first().copied().unwrap_or_default(),
        second: by_distance.get(1).copied().unwrap_or_default(),
        confidence,
        min: settings.min_confidence,
    })
}

/// Maps every cell to the nearest colour of a calibration palette. A cell
/// is refused (the read fails, naming it) when it is not uniform, far from
/// every entry, a neutral grey the palette does not contain, or less
/// confident than `settings.min_confidence`.
pub fn quantise_to_palette(
    samples: &[CellSample],
    columns: usize,
    palette: &[[u8; 3]],
    settings: &ReadSettings,
) -> Result<Quantised, ReadError> {
    check_uniform(samples, columns, settings)?;
    let mut cells = Vec::with_capacity(samples.len());
    let mut conf = Vec::with_capacity(samples.len());
    for (i, s) in samples.iter().enumerate() {
        let (k, d1, d2) = nearest(s.colour, palette);
        if palette.is_empty() || d1 > settings.max_palette_distance {
            return Err(ReadError::FarColour {
                row: i / columns,
                col: i % columns,
                colour: s.colour,
                nearest: palette.get(k).copied().unwrap_or([0, 0, 0]),
                distance: d1.min(999.0).round() as u32,
            });
        }
        if chroma(s.colour) <= NEUTRAL_CHROMA
            && !(chroma(palette[k]) <= NEUTRAL_CHROMA && d1 <= GREY_MATCH_DISTANCE)
        {
            return Err(ReadError::WindowGrey {
                row: i / columns,
                col: i % columns,
                colour: s.colour,
            });
        }
        let c = confidence(s.uniformity, d1, d2);
        check_confidence(i, columns, s, c, palette, settings)?;
        cells.push(k as u8);
        conf.push(c);
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
pub fn cluster(
    samples: &[CellSample],
    columns: usize,
    settings: &ReadSettings,
) -> Result<Quantised, ReadError> {
    cluster_with(samples, columns, None, settings)
}

/// [`cluster`], but a grey (unsaturated) cell is a board colour when
/// `whole` says it fills its whole cell on the lattice (see
/// [`super::cells::whole_cells`]); a grey cell that does not is an error.
pub fn cluster_with(
    samples: &[CellSample],
    columns: usize,
    whole: Option<&[bool]>,
    settings: &ReadSettings,
) -> Result<Quantised, ReadError> {
    check_uniform(samples, columns, settings)?;
    // Seeds in order of first appearance.
    let mut seeds: Vec<[u8; 3]> = Vec::new();
    for (i, s) in samples.iter().enumerate() {
        if is_neutral(s.colour) && !whole.is_some_and(|w| w[i]) {
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
    for (i, s) in samples.iter().enumerate() {
        let (k, d1, d2) = nearest(s.colour, &palette);
        let c = confidence(s.uniformity, d1, d2);
        check_confidence(i, columns, s, c, &palette, settings)?;
        cells.push(k as u8);
        conf.push(c);
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
        if !w && is_neutral(s.colour) {
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
        let q = cluster(&cells, 2, &ReadSettings::default()).unwrap();
        assert_eq!(q.cells, vec![0, 1, 0, 2]);
        assert_eq!(q.palette[0], [1, 0, 253]);
        assert!(q.confidence.iter().all(|&c| c > 0.9));
    }

    #[test]
    fn grey_and_far_cells_are_errors() {
        let err = cluster(
            &[s([255, 0, 0]), s([127, 127, 127])],
            2,
            &ReadSettings::default(),
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("cell (0, 1) colour #7f7f7f is a neutral grey"),
            "{err}"
        );
        let err = quantise_to_palette(
            &[s([255, 0, 0]), s([127, 127, 127])],
            1,
            &[[255, 0, 0], [0, 0, 255]],
            &ReadSettings::default(),
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
            &ReadSettings::default(),
        )
        .unwrap();
        assert_eq!(q.cells, vec![1, 0]);
    }

    #[test]
    fn tinted_unsaturated_cells_are_colours_neutral_ones_are_not() {
        // sgt-flood with FLOOD_COLOUR_3=92977d: chroma 26, below the
        // saturation threshold but not a window grey.
        let tinted = [
            s([255, 0, 0]),
            s([146, 151, 125]),
            s([146, 151, 125]),
            s([255, 0, 0]),
        ];
        let q = cluster(&tinted, 2, &ReadSettings::default()).unwrap();
        assert_eq!(q.cells, vec![0, 1, 1, 0]);
        let neutral = [
            s([255, 0, 0]),
            s([150, 150, 146]),
            s([150, 150, 146]),
            s([255, 0, 0]),
        ];
        assert!(matches!(
            cluster(&neutral, 2, &ReadSettings::default()),
            Err(ReadError::GreyCell { row: 0, col: 1, .. })
        ));
    }

    #[test]
    fn grey_cells_that_fill_their_cells_are_colours() {
        let cells = [
            s([255, 0, 0]),
            s([150, 150, 146]),
            s([150, 150, 146]),
            s([255, 0, 0]),
        ];
        assert!(cluster(&cells, 2, &ReadSettings::default()).is_err());
        let q = cluster_with(
            &cells,
            2,
            Some(&[true, true, true, true]),
            &ReadSettings::default(),
        )
        .unwrap();
        assert_eq!(q.cells, vec![0, 1, 1, 0]);
        let err = cluster_with(
            &cells,
            2,
            Some(&[true, true, false, true]),
            &ReadSettings::default(),
        )
        .unwrap_err();
        assert!(
            matches!(err, ReadError::GreyCell { row: 1, col: 0, .. }),
            "{err}"
        );
    }

    fn sgt_palette() -> Vec<[u8; 3]> {
        [
            "#ff0000", "#ffff00", "#00ff00", "#334cff", "#ff8000", "#8000b3", "#804c4c", "#66ccff",
            "#b3ffb3", "#ff99ff",
        ]
        .iter()
        .map(|c| crate::calibration::parse_hex_colour(c).unwrap())
        .collect()
    }

    /// The count: with the shipped palette, 73 of 256 neutral greys
    /// counted as board colours. Now none does.
    #[test]
    fn no_neutral_grey_is_a_board_colour_of_the_sgt_palette() {
        let palette = sgt_palette();
        let settings = ReadSettings::default();
        let accepted: Vec<u8> = (0..=255u8)
            .filter(|&v| quantise_to_palette(&[s([v, v, v])], 1, &palette, &settings).is_ok())
            .collect();
        assert_eq!(accepted, Vec::<u8>::new());
        let err = quantise_to_palette(
            &[s([255, 0, 0]), s([0xd5, 0xd5, 0xd5])],
            2,
            &palette,
            &settings,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "cell (0, 1) colour #d5d5d5 is a neutral grey the palette does not contain: \
             is a window or menu over the board?"
        );
    }

    #[test]
    fn a_grey_the_palette_contains_is_read() {
        let palette = [[255, 0, 0], [0x80, 0x80, 0x80]];
        let q = quantise_to_palette(
            &[s([0x82, 0x80, 0x7f]), s([250, 2, 0])],
            2,
            &palette,
            &ReadSettings::default(),
        )
        .unwrap();
        assert_eq!(q.cells, vec![1, 0]);
    }

    #[test]
    fn a_colour_between_two_entries_is_refused_by_confidence() {
        // Half-way between red and orange: distance 64 to each.
        let palette = [[255, 0, 0], [255, 128, 0]];
        let err = quantise_to_palette(&[s([255, 64, 0])], 1, &palette, &ReadSettings::default())
            .unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with("cell (0, 0) colour #ff4000"), "{msg}");
        assert!(msg.contains("reading.min_confidence 0.50"), "{msg}");
        // With the threshold at 0 the user accepts the guess.
        let lax = ReadSettings {
            min_confidence: 0.0,
            ..ReadSettings::default()
        };
        assert!(quantise_to_palette(&[s([255, 64, 0])], 1, &palette, &lax).is_ok());
    }

    #[test]
    fn a_cell_not_uniform_enough_is_refused() {
        let mut cell = s([255, 0, 0]);
        cell.uniformity = 0.7;
        let err = quantise_to_palette(
            &[s([255, 0, 0]), cell],
            2,
            &sgt_palette(),
            &ReadSettings::default(),
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("cell (0, 1) is not one colour (only 70%"),
            "{err}"
        );
    }
}
