//! Capture: from the screen (or an image file) to a board.
//!
//! [`screen`] grabs pixels from a monitor or window and knows how image
//! pixels map to screen coordinates. The reading pipeline turns an image into
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
pub fn read_grid(image: &RgbaImage, calibration: Option<&Calibration>) -> Result<GridReading, ReadError> {
    read_grid_with(image, calibration, &ReadOptions::default())
}

/// [`read_grid`] with options (stage dumps).
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
    let (rect, mask) = located?;
    if let Some(dir) = options.dump_dir {
        dump::mask(dir, &mask, Some(&rect))?;
    }
    log::debug!("located board {rect:?} in {:.2} ms", t0.elapsed().as_secs_f64() * 1e3);
    let (lattice, _trace) = match lattice::find_lattice(image, &rect, calibration.map(|c| &c.geometry)) {
        Ok(found) => found,
        Err(err) => {
            // Irregular edges are most often a window on top of the board.
            let grey = locate::solid_grey_share(image, &rect);
            if grey > 0.05 {
                return Err(ReadError::Covered { x: rect.x, y: rect.y, percent: (grey * 100.0).round() as u32 });
            }
            return Err(err);
        }
    };
    if let Some(dir) = options.dump_dir {
        dump::lattice(dir, image, &rect, &lattice)?;
    }
    if lattice.columns > 64 || lattice.rows > 64 {
        return Err(ReadError::TooLarge { columns: lattice.columns, rows: lattice.rows, max: 64 });
    }
    let t1 = std::time::Instant::now();
    let samples = cells::sample_cells(image, &lattice);
    if let Some(dir) = options.dump_dir {
        dump::cells(dir, &lattice, &samples)?;
    }
    let palette = calibration.map(|c| c.palette_rgb().unwrap_or_default()).unwrap_or_default();
    let quantised = if palette.is_empty() {
        palette::cluster(&samples, lattice.columns)?
    } else {
        palette::quantise_to_palette(&samples, lattice.columns, &palette)?
    };
    if let Some(dir) = options.dump_dir {
        dump::quantised(dir, &lattice, &quantised.cells, &quantised.palette)?;
    }
    log::debug!(
        "read {}x{} grid at {rect:?}: locate + lattice {:.2} ms, cells + palette {:.2} ms",
        lattice.columns,
        lattice.rows,
        (t1 - t0).as_secs_f64() * 1e3,
        t1.elapsed().as_secs_f64() * 1e3
    );
    Ok(GridReading { lattice, cells: quantised.cells, palette: quantised.palette, confidence: quantised.confidence })
}

/// Loads an image file for reading: any decoding problem (not an image,
/// truncated file) is a [`ReadError`], never a panic.
pub fn load_image(path: &Path) -> Result<RgbaImage, ReadError> {
    let shown = path.display().to_string();
    let reader = image::ImageReader::open(path)
        .map_err(|e| ReadError::Open { path: shown.clone(), message: e.to_string() })?
        .with_guessed_format()
        .map_err(|e| ReadError::Open { path: shown.clone(), message: e.to_string() })?;
    if reader.format().is_none() {
        return Err(ReadError::Decode { path: shown, message: "not a PNG image (unknown format)".into() });
    }
    let image = reader.decode().map_err(|e| ReadError::Decode { path: shown, message: e.to_string() })?;
    Ok(image.to_rgba8())
}
