//! Stage 3, reduce each cell to one colour: the per-channel median of a grid
//! of samples over the inner patch of the cell (half the pitch wide, so
//! separator lines, anti-aliased borders and markers drawn in the middle
//! of a cell do not move it), plus how uniform the cell is over a wider
//! patch (70% of the pitch), so that an edge of something covering the
//! board that crosses the cell off its centre is still seen.

use image::RgbaImage;

use super::colour::{max_channel_diff, rgb_at};
use super::lattice::Lattice;

/// One cell's colour and how much of its patch agrees with it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellSample {
    /// Median colour of the inner patch.
    pub colour: [u8; 3],
    /// Share of the samples of the wide patch (70% of the cell, centred)
    /// within a small distance of the median (1.0 for a flat cell).
    pub uniformity: f32,
}

/// Samples per axis of the inner patch (at most).
const PATCH_SAMPLES: usize = 7;
/// Samples per axis of the wide patch the uniformity is measured on (at most).
const WIDE_SAMPLES: usize = 9;
/// Half-width of the wide patch, as a share of the pitch.
const WIDE_RADIUS: f64 = 0.35;
/// A patch sample "agrees" with the median if no channel differs by more.
const AGREE: u8 = 24;

/// Median colour and uniformity of every cell, row-major.
pub fn sample_cells(image: &RgbaImage, lattice: &Lattice) -> Vec<CellSample> {
    let (w, h) = image.dimensions();
    let radius_x = 0.25 * lattice.pitch_x;
    let radius_y = 0.25 * lattice.pitch_y;
    let count = |r: f64| ((2.0 * r).round() as usize + 1).clamp(1, PATCH_SAMPLES);
    let (nx, ny) = (count(radius_x), count(radius_y));
    let offsets = |n: usize, r: f64| -> Vec<f64> {
        (0..n)
            .map(|i| {
                if n == 1 {
                    0.0
                } else {
                    -r + 2.0 * r * i as f64 / (n - 1) as f64
                }
            })
            .collect()
    };
    let (ox, oy) = (offsets(nx, radius_x), offsets(ny, radius_y));
    let wide = |pitch: f64| {
        let r = WIDE_RADIUS * pitch;
        offsets(((2.0 * r).round() as usize + 1).clamp(1, WIDE_SAMPLES), r)
    };
    let (wx, wy) = (wide(lattice.pitch_x), wide(lattice.pitch_y));
    let clamp = |v: f64, max: u32| (v.floor().max(0.0) as u32).min(max - 1);

    let mut out = Vec::with_capacity(lattice.rows * lattice.columns);
    let mut channels = [[0u8; PATCH_SAMPLES * PATCH_SAMPLES]; 3];
    for row in 0..lattice.rows {
        for col in 0..lattice.columns {
            let (cx, cy) = lattice.cell_centre(row, col);
            let mut n = 0;
            for dy in &oy {
                for dx in &ox {
                    let p = rgb_at(image, clamp(cx + dx, w), clamp(cy + dy, h));
                    for c in 0..3 {
                        channels[c][n] = p[c];
                    }
                    n += 1;
                }
            }
            let mut colour = [0u8; 3];
            for c in 0..3 {
                let s = &mut channels[c][..n];
                s.sort_unstable();
                colour[c] = s[n / 2];
            }
            let mut agree = 0;
            for dy in &wy {
                for dx in &wx {
                    let p = rgb_at(image, clamp(cx + dx, w), clamp(cy + dy, h));
                    agree += usize::from(max_channel_diff(p, colour) <= AGREE);
                }
            }
            out.push(CellSample {
                colour,
                uniformity: agree as f32 / (wx.len() * wy.len()) as f32,
            });
        }
    }
    out
}

/// Where [`whole_cells`] probes a cell: this fraction of the pitch from its
/// centre, so about an eighth of a pitch inside its boundary (clear of
/// separator lines and anti-aliasing).
const RING: f64 = 0.37;

/// For each cell, whether its colour fills it out to near its boundary on
/// the lattice: eight probes (corners and edge middles) on a ring close to
/// the cell's edges all agree with the cell's median colour. A board colour
/// fills whole cells; a window lying over the board whose edge crosses a
/// cell does not.
pub fn whole_cells(image: &RgbaImage, lattice: &Lattice, samples: &[CellSample]) -> Vec<bool> {
    let (w, h) = image.dimensions();
    let clamp = |v: f64, max: u32| (v.floor().max(0.0) as u32).min(max - 1);
    let (rx, ry) = (RING * lattice.pitch_x, RING * lattice.pitch_y);
    let probes = [
        (-rx, -ry),
        (0.0, -ry),
        (rx, -ry),
        (-rx, 0.0),
        (rx, 0.0),
        (-rx, ry),
        (0.0, ry),
        (rx, ry),
    ];
    let mut out = Vec::with_capacity(samples.len());
    for row in 0..lattice.rows {
        for col in 0..lattice.columns {
            let (cx, cy) = lattice.cell_centre(row, col);
            let colour = samples[row * lattice.columns + col].colour;
            out.push(probes.iter().all(|&(dx, dy)| {
                let p = rgb_at(image, clamp(cx + dx, w), clamp(cy + dy, h));
                max_channel_diff(p, colour) <= AGREE
            }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    /// Two 20-pixel cells side by side from the image's corner.
    fn two_cells() -> Lattice {
        Lattice {
            origin_x: 0.0,
            origin_y: 0.0,
            pitch_x: 20.0,
            pitch_y: 20.0,
            columns: 2,
            rows: 1,
        }
    }

    /// Paints the rectangle `xs` by `ys` of `img` in `rgb`.
    fn paint(
        img: &mut RgbaImage,
        xs: std::ops::Range<u32>,
        ys: std::ops::Range<u32>,
        rgb: [u8; 3],
    ) {
        for x in xs {
            for y in ys.clone() {
                img.put_pixel(x, y, Rgba([rgb[0], rgb[1], rgb[2], 255]));
            }
        }
    }

    #[test]
    fn median_ignores_a_marker_and_reports_uniformity() {
        let mut img = RgbaImage::from_pixel(40, 20, Rgba([255, 0, 0, 255]));
        paint(&mut img, 20..40, 0..20, [0, 0, 255]);
        // A small black dot in the middle of the first cell.
        paint(&mut img, 9..12, 9..12, [0, 0, 0]);
        let l = two_cells();
        let s = sample_cells(&img, &l);
        assert_eq!(s[0].colour, [255, 0, 0]);
        assert_eq!(s[1].colour, [0, 0, 255]);
        assert!(s[0].uniformity < 1.0 && s[0].uniformity > 0.6, "{:?}", s[0]);
        assert_eq!(s[1].uniformity, 1.0);
    }

    #[test]
    fn whole_cells_are_filled_to_their_edges() {
        // Two cells of 20 px: the first all grey, the second grey with a
        // different grey over its right third (a window edge crossing it).
        let mut img = RgbaImage::from_pixel(40, 20, Rgba([150, 150, 150, 255]));
        paint(&mut img, 34..40, 0..20, [220, 220, 220]);
        let l = two_cells();
        let s = sample_cells(&img, &l);
        assert_eq!(s[1].colour, [150, 150, 150]);
        assert_eq!(whole_cells(&img, &l, &s), vec![true, false]);
    }
}
