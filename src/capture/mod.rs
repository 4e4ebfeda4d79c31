//! Capture: from the screen (or an image file) to a board.
//!
//! [`screen`] grabs pixels from a monitor or window and knows how image
//! pixels map to screen coordinates; [`window_grabber`] captures one window
//! again and again, fast, for the play loop. The reading pipeline turns an image into
//! a grid of colour indices, one small stage per module:
//!
//! 1. [`locate`]: the board is the largest rectangular area of saturated
//!    pixels;
//! 2. [`lattice`]: cell count, pitch and origin from the periodicity of the
//!    colour edges inside it;
//! 3. [`cells`]: one robust colour per cell from its inner patch;
//! 4. [`palette`]: cell colours quantised into the calibration's palette or
//!    into one built from the cells.
//!
//! [`read_grid`] runs them all; [`dump`] writes each stage's image for
//! debugging. Nothing here knows which game is being read.

pub mod cells;
pub mod colour;
pub mod dump;
mod error;
pub mod lattice;
pub mod locate;
pub mod palette;
pub mod screen;
pub mod window_grabber;

use std::path::Path;

use image::RgbaImage;

use crate::calibration::Calibration;
pub use error::ReadError;
pub use lattice::Lattice;
pub use locate::BoardRect;

/// What the reader saw: where the cells are and which colour each has.
#[derive(Debug, Clone, PartialEq)]
pub struct GridReading {
    /// Where the cells are, in image pixels.
    pub lattice: Lattice,
    /// Palette index per cell, row-major.
    pub cells: Vec<u8>,
    /// The palette: the calibration's (game order) or the one found, in
    /// order of first appearance.
    pub palette: Vec<[u8; 3]>,
    /// Confidence per cell in [0, 1], row-major.
    pub confidence: Vec<f32>,
}

impl GridReading {
    /// Palette index of cell `(row, col)`.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.lattice.columns + col]
    }

    /// The screen point to click for cell `(row, col)` of a reading of
    /// `shot`'s image (applies the screenshot's origin and HiDPI scale).
    pub fn screen_point(&self, shot: &screen::Screenshot, row: usize, col: usize) -> (i32, i32) {
        let (x, y) = self.lattice.cell_centre(row, col);
        shot.to_screen(x, y)
    }

    /// The lowest cell confidence (1.0 for an empty grid).
    pub fn min_confidence(&self) -> f32 {
        self.confidence.iter().copied().fold(1.0, f32::min)
    }
}

/// Options of [`read_grid_with`].
#[derive(Debug, Clone, Default)]
pub struct ReadOptions<'a> {
    /// Write every stage's image into this folder.
    pub dump_dir: Option<&'a Path>,
}

/// Reads the grid of cells in `image`. With a calibration that has a
/// palette, cell k's index is the palette entry it matches (the game's own
/// colour number) and a cell far from every entry is an error; otherwise
/// colours are numbered in order of first appearance. Geometry hints in the
/// calibration override what the lattice stage detects.
pub fn read_grid(
    image: &RgbaImage,
    calibration: Option<&Calibration>,
) -> Result<GridReading, ReadError> {
    read_grid_with(image, calibration, &ReadOptions::default())
}

/// [`read_grid`] with options (stage dumps).
///
/// The board is found by its saturated cells. When that finds no
/// board or a board with grey cells, the reader
/// looks for a board inside a thin dark frame instead
/// ([`locate::locate_framed_board`]) and reads it allowing unsaturated
/// colours, but only colours that fill whole cells on the lattice
/// ([`cells::whole_cells`]); if that fails too, the first error stands.
pub fn read_grid_with(
    image: &RgbaImage,
    calibration: Option<&Calibration>,
    options: &ReadOptions,
) -> Result<GridReading, ReadError> {
    let t0 = std::time::Instant::now();
    let located = locate::locate_board(image);
    if let (Some(dir), Err(_)) = (options.dump_dir, &located) {
        // Still show the mask, to see why no board was found.
        let (w, h) = image.dimensions();
        if w > 0 && h > 0 {
            let (mask, _) = locate::saturation_mask(image, locate::mask_step(w, h));
            dump::mask(dir, &mask, None)?;
        }
    }
    let mut found = None;
    let first = located.and_then(|(rect, mask)| {
        if let Some(dir) = options.dump_dir {
            dump::mask(dir, &mask, Some(&rect))?;
        }
        log::debug!(
            "located board {rect:?} in {:.2} ms",
            t0.elapsed().as_secs_f64() * 1e3
        );
        found = Some(rect);
        read_rect(image, rect, calibration, options, false)
    });
    match first {
        // A board in a dark frame that the saturated cells do not reach on
        // every side: grey cells along an edge were left out. Read the whole
        // framed board instead.
        Ok(_) if found.is_some_and(|r| locate::partly_framed(image, &r)) => {
            let rect = found.unwrap();
            match locate::locate_framed_board(image) {
                Some(framed) if framed != rect && framed.contains(&rect) => {
                    log::debug!("the saturated cells {rect:?} lie inside a frame {framed:?}");
                    read_rect(image, framed, calibration, options, true)
                }
                _ => first,
            }
        }
        Err(
            ref err @ (ReadError::NoBoard
            | ReadError::Covered { .. }
            | ReadError::GreyCell { .. }
            | ReadError::NoLattice { .. }
            | ReadError::Uneven { .. }
            | ReadError::UniformBoard { .. }),
        ) => {
            let t = std::time::Instant::now();
            let Some(rect) = locate::locate_framed_board(image) else {
                return first;
            };
            log::debug!(
                "{err}; found a framed board {rect:?} in {:.2} ms",
                t.elapsed().as_secs_f64() * 1e3
            );
            match read_rect(image, rect, calibration, options, true) {
                Ok(reading) => Ok(reading),
                Err(second) => {
                    log::debug!("reading the framed board failed too: {second}");
                    first
                }
            }
        }
        _ => first,
    }
}

/// Reads the board in `rect`: lattice, cells, palette. With
/// `allow_whole_greys`, unsaturated cells that fill their whole cell are
/// board colours.
fn read_rect(
    image: &RgbaImage,
    rect: BoardRect,
    calibration: Option<&Calibration>,
    options: &ReadOptions,
    allow_whole_greys: bool,
) -> Result<GridReading, ReadError> {
    let t0 = std::time::Instant::now();
    let (lattice, trace) =
        match lattice::find_lattice(image, &rect, calibration.map(|c| &c.geometry)) {
            Ok(found) => found,
            Err(err) => {
                // Irregular edges are most often a window on top of the board.
                let grey = locate::solid_grey_share(image, &rect);
                if grey > 0.05 && !allow_whole_greys {
                    return Err(ReadError::Covered {
                        x: rect.x,
                        y: rect.y,
                        percent: (grey * 100.0).round() as u32,
                    });
                }
                return Err(err);
            }
        };
    if let Some(dir) = options.dump_dir {
        dump::lattice(dir, image, &rect, &lattice)?;
        dump::edges(dir, &rect, &trace, &lattice)?;
    }
    if lattice.columns > 64 || lattice.rows > 64 {
        return Err(ReadError::TooLarge {
            columns: lattice.columns,
            rows: lattice.rows,
            max: 64,
        });
    }
    let t1 = std::time::Instant::now();
    let samples = cells::sample_cells(image, &lattice);
    if let Some(dir) = options.dump_dir {
        dump::cells(dir, &lattice, &samples)?;
    }
    let palette = calibration
        .map(|c| c.palette_rgb().unwrap_or_default())
        .unwrap_or_default();
    let whole = allow_whole_greys.then(|| cells::whole_cells(image, &lattice, &samples));
    if let Some(whole) = &whole {
        palette::check_whole_greys(&samples, lattice.columns, whole)?;
    }
    let quantised = if !palette.is_empty() {
        palette::quantise_to_palette(&samples, lattice.columns, &palette)?
    } else {
        palette::cluster_with(&samples, lattice.columns, whole.as_deref())?
    };
    if let Some(dir) = options.dump_dir {
        dump::quantised(dir, &lattice, &quantised.cells, &quantised.palette)?;
    }
    log::debug!(
        "read {}x{} grid at {rect:?}: lattice {:.2} ms, cells + palette {:.2} ms",
        lattice.columns,
        lattice.rows,
        (t1 - t0).as_secs_f64() * 1e3,
        t1.elapsed().as_secs_f64() * 1e3
    );
    Ok(GridReading {
        lattice,
        cells: quantised.cells,
        palette: quantised.palette,
        confidence: quantised.confidence,
    })
}

/// Loads an image file for reading: any decoding problem (not an image,
/// truncated file) is a [`ReadError`], never a panic.
pub fn load_image(path: &Path) -> Result<RgbaImage, ReadError> {
    let shown = path.display().to_string();
    let reader = image::ImageReader::open(path)
        .map_err(|e| ReadError::Open {
            path: shown.clone(),
            message: e.to_string(),
        })?
        .with_guessed_format()
        .map_err(|e| ReadError::Open {
            path: shown.clone(),
            message: e.to_string(),
        })?;
    if reader.format().is_none() {
        return Err(ReadError::Decode {
            path: shown,
            message: "not a PNG image (unknown format)".into(),
        });
    }
    let image = reader.decode().map_err(|e| ReadError::Decode {
        path: shown,
        message: e.to_string(),
    })?;
    Ok(image.to_rgba8())
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    const COLOURS: [[u8; 3]; 5] = [
        [220, 40, 40],
        [240, 220, 30],
        [40, 200, 60],
        [50, 80, 230],
        [160, 40, 200],
    ];

    /// Renders a board with a non-integer pitch, anti-aliased cell borders
    /// (area coverage, 4x4 supersampling), a shading gradient inside every
    /// cell and no separator lines, on a grey window with a dark frame.
    fn render(cells: &[u8], cols: usize, rows: usize, pitch: f64, at: (f64, f64)) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(640, 480, Rgba([200, 200, 200, 255]));
        let (bw, bh) = (cols as f64 * pitch, rows as f64 * pitch);
        for y in 0..img.height() {
            for x in 0..img.width() {
                let mut acc = [0f64; 3];

                for sy in 0..4 {
                    for sx in 0..4 {
                        let px = x as f64 + (sx as f64 + 0.5) / 4.0 - at.0;
                        let py = y as f64 + (sy as f64 + 0.5) / 4.0 - at.1;
                        let c = if px >= 0.0 && py >= 0.0 && px < bw && py < bh {
                            let (col, row) = ((px / pitch) as usize, (py / pitch) as usize);
                            let base = COLOURS[cells[row * cols + col] as usize];
                            // Shading: lighter at the top of each cell, darker at the bottom.
                            let t = (py / pitch).fract() - 0.5;
                            base.map(|v| (v as f64 - 40.0 * t).clamp(0.0, 255.0))
                        } else if px >= -2.0 && py >= -2.0 && px < bw + 2.0 && py < bh + 2.0 {
                            [30.0, 30.0, 30.0]
                        } else {
                            [200.0, 200.0, 200.0]
                        };
                        for i in 0..3 {
                            acc[i] += c[i] / 16.0;
                        }
                    }
                }
                img.put_pixel(x, y, Rgba([acc[0] as u8, acc[1] as u8, acc[2] as u8, 255]));
            }
        }
        img
    }

    #[test]
    fn reads_antialiased_shaded_board_with_fractional_pitch() {
        let (cols, rows) = (9, 7);
        let mut state = 12345u32;
        let cells: Vec<u8> = (0..cols * rows)
            .map(|_| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
                ((state >> 16) % 5) as u8
            })
            .collect();
        let img = render(&cells, cols, rows, 23.37, (101.6, 57.3));
        let reading = read_grid(&img, None).unwrap();
        assert_eq!(
            (reading.lattice.columns, reading.lattice.rows),
            (cols, rows)
        );
        assert!(
            (reading.lattice.pitch_x - 23.37).abs() < 0.2,
            "{:?}",
            reading.lattice
        );
        assert!(
            (reading.lattice.origin_x - 101.6).abs() < 1.5,
            "{:?}",
            reading.lattice
        );
        // Same partition as the truth (colours numbered by first appearance).
        let mut map = [u8::MAX; 5];
        for (&got, &want) in reading.cells.iter().zip(&cells) {
            if map[want as usize] == u8::MAX {
                map[want as usize] = got;
            }
            assert_eq!(map[want as usize], got);
        }
        // With the palette as calibration, indices are the palette's.
        let calibration = Calibration {
            game: "test".into(),
            window_title: None,
            palette: COLOURS
                .iter()
                .map(|&c| crate::calibration::format_hex_colour(c))
                .collect(),
            geometry: Default::default(),
            timing: Default::default(),
            keys: Default::default(),
        };
        let reading = read_grid(&img, Some(&calibration)).unwrap();
        assert_eq!(reading.cells, cells);
    }

    #[test]
    fn deterministic() {
        let cells = [0u8, 1, 2, 3, 4, 0, 1, 2, 3];
        let img = render(&cells, 3, 3, 30.0, (50.0, 50.0));
        assert_eq!(
            read_grid(&img, None).unwrap(),
            read_grid(&img, None).unwrap()
        );
    }
}

#[cfg(test)]
mod robustness {
    use super::*;
    use image::Rgba;

    /// Odd inputs give errors or readings, never panics.
    #[test]
    fn odd_images_never_panic() {
        let mut state = 7u32;
        let mut rand = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        let mut images = vec![
            RgbaImage::new(1, 1),
            RgbaImage::from_pixel(1, 1, Rgba([255, 0, 0, 255])),
            RgbaImage::from_pixel(3, 2, Rgba([255, 0, 0, 255])),
            RgbaImage::from_pixel(40, 40, Rgba([255, 0, 0, 255])),
        ];
        // Noise, stripes, a saturated frame, tiny and thin boards.
        images.push(RgbaImage::from_fn(64, 48, |_, _| {
            let v = rand();
            Rgba([v as u8, (v >> 8) as u8, (v >> 16) as u8, 255])
        }));
        images.push(RgbaImage::from_fn(80, 60, |x, _| {
            if x % 2 == 0 {
                Rgba([255, 0, 0, 255])
            } else {
                Rgba([0, 0, 255, 255])
            }
        }));
        images.push(RgbaImage::from_fn(80, 60, |x, y| {
            if x == 5 || y == 5 || x == 70 || y == 50 {
                Rgba([0, 255, 0, 255])
            } else {
                Rgba([90, 90, 90, 255])
            }
        }));
        images.push(RgbaImage::from_fn(60, 60, |x, y| {
            if (20..36).contains(&x) && (20..36).contains(&y) {
                if x < 28 {
                    Rgba([255, 0, 0, 255])
                } else {
                    Rgba([0, 255, 0, 255])
                }
            } else {
                Rgba([200, 200, 200, 255])
            }
        }));
        images.push(RgbaImage::from_fn(300, 40, |x, y| {
            if (10..290).contains(&x) && (18..22).contains(&y) {
                Rgba([(x * 7 % 256) as u8, 0, 255, 255])
            } else {
                Rgba([0, 0, 0, 255])
            }
        }));
        for image in &images {
            let _ = read_grid(image, None);
            let _ = crate::games::flood::screen::read_board(image, None);
        }
    }
}
