//! Debug images of every stage (`--dump-stages DIR`): the saturation mask
//! with the board rectangle, the edge profiles the lattice was counted from,
//! the board with the lattice drawn over it, the cell colours, and the
//! quantised board.

use std::path::Path;

use image::{Rgba, RgbaImage};

use super::cells::CellSample;
use super::lattice::{EdgeProfile, Lattice, LatticeTrace};
use super::locate::{BoardRect, SaturationMask};
use super::ReadError;

fn save(image: &RgbaImage, dir: &Path, name: &str) -> Result<(), ReadError> {
    let path = dir.join(name);
    let err = |e: crate::files::FileError| ReadError::Dump {
        path: path.display().to_string(),
        message: e.reason(),
    };
    crate::files::ensure_dir(dir).map_err(err)?;
    // The stage files are the folder's own, rewritten on every run.
    crate::files::write_png(&path, image, crate::files::Replace::Allow).map_err(err)
}

/// `1-mask.png`: saturated samples white, the board rectangle in red.
pub fn mask(dir: &Path, mask: &SaturationMask, rect: Option<&BoardRect>) -> Result<(), ReadError> {
    let mut img = RgbaImage::from_fn(mask.width, mask.height, |x, y| {
        let v = mask.bits[(y * mask.width + x) as usize] * 255;
        Rgba([v, v, v, 255])
    });
    if let Some(r) = rect {
        let s = mask.step;
        let (x0, y0) = (r.x / s, r.y / s);
        let (x1, y1) = (
            ((r.x + r.width) / s).min(mask.width - 1),
            ((r.y + r.height) / s).min(mask.height - 1),
        );
        for x in x0..=x1 {
            img.put_pixel(x, y0, Rgba([255, 0, 0, 255]));
            img.put_pixel(x, y1, Rgba([255, 0, 0, 255]));
        }
        for y in y0..=y1 {
            img.put_pixel(x0, y, Rgba([255, 0, 0, 255]));
            img.put_pixel(x1, y, Rgba([255, 0, 0, 255]));
        }
    }
    save(&img, dir, "1-mask.png")
}

/// `2-lattice.png`: the board area with cell boundaries in magenta and
/// cell centres in white.
pub fn lattice(
    dir: &Path,
    image: &RgbaImage,
    rect: &BoardRect,
    lattice: &Lattice,
) -> Result<(), ReadError> {
    let margin = (lattice.pitch_x.max(lattice.pitch_y) / 2.0) as u32;
    let x0 = rect.x.saturating_sub(margin);
    let y0 = rect.y.saturating_sub(margin);
    let x1 = (rect.x + rect.width + margin).min(image.width());
    let y1 = (rect.y + rect.height + margin).min(image.height());
    let mut img = image::imageops::crop_imm(image, x0, y0, x1 - x0, y1 - y0).to_image();
    let magenta = Rgba([255, 0, 255, 255]);
    let mut put = |x: f64, y: f64, c: Rgba<u8>| {
        let (xi, yi) = (x.floor() as i64 - x0 as i64, y.floor() as i64 - y0 as i64);
        if xi >= 0 && yi >= 0 && (xi as u32) < img.width() && (yi as u32) < img.height() {
            img.put_pixel(xi as u32, yi as u32, c);
        }
    };
    let (top, bottom) = (
        lattice.origin_y,
        lattice.origin_y + lattice.rows as f64 * lattice.pitch_y,
    );
    let (left, right) = (
        lattice.origin_x,
        lattice.origin_x + lattice.columns as f64 * lattice.pitch_x,
    );
    for k in 0..=lattice.columns {
        let x = lattice.origin_x + k as f64 * lattice.pitch_x;
        let mut y = top;
        while y < bottom {
            put(x, y, magenta);
            y += 1.0;
        }
    }
    for k in 0..=lattice.rows {
        let y = lattice.origin_y + k as f64 * lattice.pitch_y;
        let mut x = left;
        while x < right {
            put(x, y, magenta);
            x += 1.0;
        }
    }
    for r in 0..lattice.rows {
        for c in 0..lattice.columns {
            let (x, y) = lattice.cell_centre(r, c);
            for d in -1..=1 {
                put(x + d as f64, y, Rgba([255, 255, 255, 255]));
                put(x, y + d as f64, Rgba([255, 255, 255, 255]));
            }
        }
    }
    save(&img, dir, "2-lattice.png")
}

/// `2-edges.png`: the edge profiles along x (top band) and y (bottom
/// band) as white bars, one column per pixel of the board, with the
/// boundaries of the lattice found in magenta.
pub fn edges(
    dir: &Path,
    rect: &BoardRect,
    trace: &LatticeTrace,
    lattice: &Lattice,
) -> Result<(), ReadError> {
    const BAND: u32 = 100;
    let width = trace.x.values.len().max(trace.y.values.len()) as u32;
    let mut img = RgbaImage::from_pixel(width.max(1), 2 * BAND + 1, Rgba([0, 0, 0, 255]));
    let mut band = |profile: &EdgeProfile, top: u32, origin: f64, pitch: f64, count: usize| {
        let max = profile.values.iter().copied().fold(1.0, f64::max);
        for (i, &v) in profile.values.iter().enumerate() {
            let bar = ((v / max) * (BAND - 1) as f64).round() as u32;
            for y in 0..bar {
                img.put_pixel(i as u32, top + BAND - 1 - y, Rgba([255, 255, 255, 255]));
            }
        }
        for k in 0..=count {
            let x = (origin + k as f64 * pitch).round();
            if x >= 0.0 && (x as u32) < width {
                for y in top..top + 8 {
                    img.put_pixel(x as u32, y, Rgba([255, 0, 255, 255]));
                }
            }
        }
    };
    let (ox, oy) = (
        lattice.origin_x - rect.x as f64,
        lattice.origin_y - rect.y as f64,
    );
    band(&trace.x, 0, ox, lattice.pitch_x, lattice.columns);
    band(&trace.y, BAND + 1, oy, lattice.pitch_y, lattice.rows);
    save(&img, dir, "2-edges.png")
}

const BLOCK: u32 = 12;

fn blocks(columns: usize, rows: usize, colour: impl Fn(usize) -> [u8; 3]) -> RgbaImage {
    RgbaImage::from_fn(columns as u32 * BLOCK, rows as u32 * BLOCK, |x, y| {
        let i = (y / BLOCK) as usize * columns + (x / BLOCK) as usize;
        let edge = x % BLOCK == BLOCK - 1 || y % BLOCK == BLOCK - 1;
        let c = if edge { [64, 64, 64] } else { colour(i) };
        Rgba([c[0], c[1], c[2], 255])
    })
}

/// `3-cells.png`: one block per cell in its median colour.
pub fn cells(dir: &Path, lattice: &Lattice, samples: &[CellSample]) -> Result<(), ReadError> {
    save(
        &blocks(lattice.columns, lattice.rows, |i| samples[i].colour),
        dir,
        "3-cells.png",
    )
}

/// `4-palette.png`: one block per cell in its palette colour.
pub fn quantised(
    dir: &Path,
    lattice: &Lattice,
    cells: &[u8],
    palette: &[[u8; 3]],
) -> Result<(), ReadError> {
    save(
        &blocks(lattice.columns, lattice.rows, |i| {
            palette[cells[i] as usize]
        }),
        dir,
        "4-palette.png",
    )
}
