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
pub mod ocr;
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
/// The board is found by its saturated cells. When that finds no board or
/// a board with grey cells, the reader looks for a board inside a thin dark
/// frame instead ([`locate::locate_framed_board`]) and reads it with its
/// unsaturated but tinted colours (pale or greyish colours with some hue);
/// neutral greys are board colours there only when the calibration sets
/// `reading.framed_greys`, and then only greys that fill whole cells on the
/// lattice ([`cells::whole_cells`]). If that fails too, the first error
/// stands.
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
    // The framed-board fallback reads boards whose cells are not all
    // saturated (tinted pale colours). Neutral greys that fill whole cells
    // are board colours only where the calibration asks for it
    // (`reading.framed_greys`): a second window over the board can fill
    // whole cells with its grey too.
    let whole_greys = calibration.is_some_and(|c| c.reading.framed_greys);
    match first {
        // A board in a dark frame that the saturated cells do not reach on
        // every side: grey cells along an edge were left out. Read the whole
        // framed board instead.
        Ok(_) if found.is_some_and(|r| locate::partly_framed(image, &r)) => {
            let rect = found.unwrap();
            match locate::locate_framed_board(image) {
                Some(framed) if framed != rect && framed.contains(&rect) => {
                    log::debug!("the saturated cells {rect:?} lie inside a frame {framed:?}");
                    read_rect(image, framed, calibration, options, whole_greys)
                }
                _ => first,
            }
        }
        // No saturated board at all (a palette of pale tinted colours), or,
        // where neutral greys may be board colours, a board the saturated
        // cells did not give.
        Err(
            ref err @ (ReadError::NoBoard
            | ReadError::GreyCell { .. }
            | ReadError::NoLattice { .. }
            | ReadError::Uneven { .. }
            | ReadError::UniformBoard { .. }),
        ) if whole_greys || matches!(err, ReadError::NoBoard) => {
            let t = std::time::Instant::now();
            let Some(rect) = locate::locate_framed_board(image) else {
                return first;
            };
            log::debug!(
                "{err}; found a framed board {rect:?} in {:.2} ms",
                t.elapsed().as_secs_f64() * 1e3
            );
            match read_rect(image, rect, calibration, options, whole_greys) {
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
/// `allow_whole_greys`, neutral grey cells that fill their whole cell are
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
    let settings = calibration.map(|c| c.reading).unwrap_or_default();
    let whole = allow_whole_greys.then(|| cells::whole_cells(image, &lattice, &samples));
    if let Some(whole) = &whole {
        palette::check_whole_greys(&samples, lattice.columns, whole)?;
    }
    let quantised = if palette.is_empty() {
        palette::cluster_with(&samples, lattice.columns, whole.as_deref(), &settings)?
    } else {
        palette::quantise_to_palette(&samples, lattice.columns, &palette, &settings)?
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
            reading: Default::default(),
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
pub(crate) mod robustness {
    use super::*;
    use image::Rgba;

    /// Odd inputs give errors or readings, never panics.
    #[test]
    fn odd_images_never_panic() {
        for image in &odd_images() {
            let _ = read_grid(image, None);
        }
    }

    /// Odd images for a reader: single pixels, one colour, noise, stripes,
    /// a saturated frame, tiny and thin boards (the games' readers check
    /// themselves against them too).
    pub(crate) fn odd_images() -> Vec<RgbaImage> {
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
        images
    }
}

/// The cases: something over part of a real sgt-flood screenshot
/// (a window-grey rectangle, a second game window) must fail the read with a
/// cell named, even with the calibration palette, never give a wrong board.
#[cfg(test)]
mod covered {
    use super::*;
    use image::Rgba;
    use std::path::Path;

    fn fixture() -> RgbaImage {
        load_image(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/flood/colours-10-14x14.png"
        )))
        .unwrap()
    }

    fn calibration() -> Calibration {
        Calibration::load(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/calibration/sgt-flood.toml"
        )))
        .unwrap()
    }

    fn fill(image: &mut RgbaImage, (x0, y0, x1, y1): (u32, u32, u32, u32), c: [u8; 3]) {
        for y in y0..y1.min(image.height()) {
            for x in x0..x1.min(image.width()) {
                image.put_pixel(x, y, Rgba([c[0], c[1], c[2], 255]));
            }
        }
    }

    /// Either an error, or exactly the board of the untouched screenshot.
    fn refused_or_right(image: &RgbaImage, truth: &GridReading, what: &str) -> Option<String> {
        for calibration in [Some(calibration()), None] {
            match read_grid(image, calibration.as_ref()) {
                Err(err) => return Some(err.to_string()),
                Ok(r) => {
                    if calibration.is_some() {
                        assert_eq!(r.cells, truth.cells, "{what}: a wrong board was read");
                    }
                }
            }
        }
        None
    }

    #[test]
    fn grey_rectangles_over_a_corner_are_refused() {
        let image = fixture();
        let truth = read_grid(&image, Some(&calibration())).unwrap();
        // The board spans (16, 41)..(464, 489), cells of 32 px.
        let rects = [
            (350, 380, 700, 700),
            (336, 393, 700, 700),
            (0, 0, 112, 137),
            (400, 30, 700, 150),
            (420, 440, 700, 700),
            (16, 41, 40, 60),
        ];
        for grey in [[0xd5, 0xd5, 0xd5], [0x5a, 0x5a, 0x5a], [0xbe, 0xbe, 0xbe]] {
            for rect in rects {
                let mut covered = image.clone();
                fill(&mut covered, rect, grey);
                let what = format!("{} over {rect:?}", format_hex(grey));
                let err = refused_or_right(&covered, &truth, &what);
                let err = err.unwrap_or_else(|| panic!("{what}: read without error"));
                assert!(
                    err.contains("cell (") || err.contains("covered") || err.contains("cut off"),
                    "{what}: {err}"
                );
            }
        }
    }

    fn format_hex(c: [u8; 3]) -> String {
        crate::calibration::format_hex_colour(c)
    }

    /// What the game window's capture shows with a second sgt-flood window
    /// over part of it: the window (the top-left 480x542 of the screenshot,
    /// what the play loop captures) with a copy of it, in other colours
    /// (each cell's colour shifted to the next palette colour), pasted at
    /// several offsets. The read must fail, or be exactly one of the two
    /// boards.
    #[test]
    fn a_second_game_window_over_a_corner_is_refused() {
        let image = fixture();
        let calibration = calibration();
        let palette = calibration.palette_rgb().unwrap();
        let window = image::imageops::crop_imm(&image, 0, 0, 480, 542).to_image();
        let truth = read_grid(&window, Some(&calibration)).unwrap();
        let mut other = window.clone();
        for p in other.pixels_mut() {
            if let Some(k) = palette.iter().position(|c| c[..] == p.0[..3]) {
                let c = palette[(k + 1) % palette.len()];
                *p = Rgba([c[0], c[1], c[2], 255]);
            }
        }
        let other_cells: Vec<u8> = truth
            .cells
            .iter()
            .map(|&k| (k + 1) % palette.len() as u8)
            .collect();
        let mut read = Vec::new();
        for (x, y) in [
            (200, 200),
            (240, 250),
            (256, 288),
            (232, 232),
            (300, 100),
            (40, 300),
            (330, 330),
            (264, 264),
            (120, 8),
            (-200, -200),
            (-300, 150),
            (150, -350),
            (-120, -20),
        ] {
            let mut covered = window.clone();
            image::imageops::overlay(&mut covered, &other, x, y);
            for c in [Some(&calibration), None] {
                if let Ok(r) = read_grid(&covered, c) {
                    let right = c.is_none() || r.cells == truth.cells || r.cells == other_cells;
                    assert!(right, "second window at ({x}, {y}): a wrong board was read");
                    read.push(format!("({x}, {y}) calibrated={}", c.is_some()));
                }
            }
        }
        assert!(read.is_empty(), "read without error: {read:?}");
    }
}

/// Property tests of the reader: random images never panic it, and a
/// synthetic render of a random board in a random palette (at a random
/// place and tile size, with separator lines, noise, rescaling or a crop)
/// reads back exactly or fails: every cell it returns has the colour drawn
/// under that cell's centre. Never a wrong board.
#[cfg(test)]
pub(crate) mod fuzz {
    use super::*;
    use crate::calibration::{format_hex_colour, GeometryHints, ReadSettings, Timing};
    use image::Rgba;
    use proptest::prelude::*;

    /// A board drawn at `(x0, y0)` with `tile`-pixel cells.
    #[derive(Debug, Clone)]
    struct Scene {
        cols: usize,
        rows: usize,
        cells: Vec<u8>,
        palette: Vec<[u8; 3]>,
        tile: u32,
        x0: u32,
        y0: u32,
        background: u8,
        lines: bool,
    }

    impl Scene {
        fn size(&self) -> (u32, u32) {
            (
                self.x0 * 2 + self.cols as u32 * self.tile,
                self.y0 * 2 + self.rows as u32 * self.tile,
            )
        }

        /// The colour index drawn at image point (x, y), if on the board.
        fn cell_at(&self, x: f64, y: f64) -> Option<u8> {
            let (bx, by) = (x - self.x0 as f64, y - self.y0 as f64);
            if bx < 0.0 || by < 0.0 {
                return None;
            }
            let (c, r) = (
                (bx / self.tile as f64) as usize,
                (by / self.tile as f64) as usize,
            );
            (c < self.cols && r < self.rows).then(|| self.cells[r * self.cols + c])
        }

        fn render(&self) -> RgbaImage {
            let (w, h) = self.size();
            let bg = self.background;
            let mut img = RgbaImage::from_pixel(w, h, Rgba([bg, bg, bg, 255]));
            let t = self.tile;
            for r in 0..self.rows {
                for c in 0..self.cols {
                    let k = self.cells[r * self.cols + c];
                    let p = self.palette[k as usize];
                    for y in 0..t {
                        for x in 0..t {
                            let mut px = [p[0], p[1], p[2], 255];
                            // sgt-style dark line on the left/top edge where the colour changes.
                            let left = c > 0 && self.cells[r * self.cols + c - 1] != k;
                            let top = r > 0 && self.cells[(r - 1) * self.cols + c] != k;
                            if self.lines && ((x == 0 && left) || (y == 0 && top)) {
                                px = [0, 0, 0, 255];
                            }
                            img.put_pixel(
                                self.x0 + c as u32 * t + x,
                                self.y0 + r as u32 * t + y,
                                Rgba(px),
                            );
                        }
                    }
                }
            }
            img
        }

        fn calibration(&self) -> Calibration {
            Calibration {
                game: "fuzz".into(),
                window_title: None,
                palette: self.palette.iter().map(|&c| format_hex_colour(c)).collect(),
                geometry: GeometryHints::default(),
                reading: ReadSettings::default(),
                timing: Timing::default(),
                keys: Default::default(),
            }
        }
    }

    /// `n` saturated colours with evenly spread hues (rotated, jittered).
    fn palette(n: usize, rotation: f64, s: f64, v: f64) -> Vec<[u8; 3]> {
        (0..n)
            .map(|i| {
                let hue = (rotation + 360.0 * i as f64 / n as f64) % 360.0;
                let c = v * s;
                let x = c * (1.0 - ((hue / 60.0) % 2.0 - 1.0).abs());
                let (r, g, b) = match (hue / 60.0) as u32 {
                    0 => (c, x, 0.0),
                    1 => (x, c, 0.0),
                    2 => (0.0, c, x),
                    3 => (0.0, x, c),
                    4 => (x, 0.0, c),
                    _ => (c, 0.0, x),
                };
                let m = v - c;
                [r, g, b].map(|ch| ((ch + m) * 255.0).round() as u8)
            })
            .collect()
    }

    fn scene() -> impl Strategy<Value = Scene> {
        (
            2usize..=14,
            2usize..=14,
            2usize..=8,
            0.0f64..360.0,
            0.75f64..1.0,
            0.8f64..1.0,
        )
            .prop_flat_map(|(cols, rows, n, rot, s, v)| {
                (
                    Just((cols, rows)),
                    proptest::collection::vec(0..n as u8, cols * rows),
                    Just(palette(n, rot, s, v)),
                    10u32..=32,
                    4u32..=40,
                    4u32..=40,
                    150u8..=235,
                    any::<bool>(),
                )
            })
            .prop_map(
                |((cols, rows), cells, palette, tile, x0, y0, background, lines)| Scene {
                    cols,
                    rows,
                    cells,
                    palette,
                    tile,
                    x0,
                    y0,
                    background,
                    lines,
                },
            )
    }

    /// The property: an error, or every cell read has the palette colour
    /// drawn under its centre (`map` takes a reading's image point to the
    /// scene's).
    fn never_wrong(
        scene: &Scene,
        image: &RgbaImage,
        map: impl Fn(f64, f64) -> (f64, f64),
    ) -> Result<Option<GridReading>, TestCaseError> {
        let Ok(reading) = read_grid(image, Some(&scene.calibration())) else {
            return Ok(None);
        };
        for row in 0..reading.lattice.rows {
            for col in 0..reading.lattice.columns {
                let (x, y) = reading.lattice.cell_centre(row, col);
                let (sx, sy) = map(x, y);
                let truth = scene.cell_at(sx, sy);
                prop_assert_eq!(
                    Some(reading.get(row, col)),
                    truth,
                    "cell ({}, {}) at ({:.1}, {:.1}) of {:?}",
                    row,
                    col,
                    x,
                    y,
                    reading.lattice
                );
            }
        }
        Ok(Some(reading))
    }

    /// Random blocks of random colours, `blocks` a side: anything from
    /// noise to boards (the games' readers check themselves against them
    /// too).
    pub(crate) fn random_blocks(w: u32, h: u32, seed: u32, blocks: u32) -> RgbaImage {
        let mut state = seed | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        let colours: Vec<[u8; 4]> = (0..blocks * blocks)
            .map(|_| {
                let v = next();
                [v as u8, (v >> 8) as u8, (v >> 16) as u8, 255]
            })
            .collect();
        RgbaImage::from_fn(w, h, |x, y| {
            let (bx, by) = (x * blocks / w.max(1), y * blocks / h.max(1));
            Rgba(colours[(by * blocks + bx) as usize])
        })
    }

    proptest! {
        #![proptest_config(crate::fuzz::config(24))]

        #[test]
        fn renders_read_back_exactly_or_fail(scene in scene()) {
            let image = scene.render();
            if let Some(r) = never_wrong(&scene, &image, |x, y| (x, y))? {
                prop_assert_eq!((r.lattice.columns, r.lattice.rows), (scene.cols, scene.rows));
            }
        }

        #[test]
        fn noisy_renders_never_read_wrong(scene in scene(), amplitude in 1u8..40, seed in any::<u32>()) {
            let mut image = scene.render();
            let mut state = seed | 1;
            for p in image.pixels_mut() {
                for ch in 0..3 {
                    state ^= state << 13;
                    state ^= state >> 17;
                    state ^= state << 5;
                    let d = (state % (2 * amplitude as u32 + 1)) as i32 - amplitude as i32;
                    p.0[ch] = (p.0[ch] as i32 + d).clamp(0, 255) as u8;
                }
            }
            never_wrong(&scene, &image, |x, y| (x, y))?;
        }

        #[test]
        fn rescaled_renders_never_read_wrong(scene in scene(), scale in 0.5f64..2.5) {
            let image = scene.render();
            let (w, h) = image.dimensions();
            let (nw, nh) = (((w as f64 * scale) as u32).max(1), ((h as f64 * scale) as u32).max(1));
            let scaled = image::imageops::resize(&image, nw, nh, image::imageops::FilterType::Triangle);
            let (fx, fy) = (w as f64 / nw as f64, h as f64 / nh as f64);
            never_wrong(&scene, &scaled, |x, y| (x * fx, y * fy))?;
        }

        #[test]
        fn crops_never_read_wrong(scene in scene(), a in 0.0f64..1.0, b in 0.0f64..1.0, c in 0.0f64..1.0, d in 0.0f64..1.0) {
            let image = scene.render();
            let (w, h) = image.dimensions();
            let (x0, x1) = ((a.min(b) * w as f64) as u32, (a.max(b) * w as f64) as u32);
            let (y0, y1) = ((c.min(d) * h as f64) as u32, (c.max(d) * h as f64) as u32);
            let crop = image::imageops::crop_imm(&image, x0, y0, x1 - x0, y1 - y0).to_image();
            never_wrong(&scene, &crop, |x, y| (x + x0 as f64, y + y0 as f64))?;
        }

        #[test]
        fn random_images_never_panic(w in 0u32..96, h in 0u32..96, seed in any::<u32>(), blocks in 1u32..12) {
            let _ = read_grid(&random_blocks(w, h, seed, blocks), None);
        }
    }
}
