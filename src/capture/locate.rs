//! Stage 1, locate the board: the largest rectangular area of saturated
//! pixels. Frames, menus, status bars, text and backgrounds are grey, so a
//! saturation mask of the (downsampled) screenshot shows the board as one
//! blob; thin dark separator lines between cells are bridged by a one-sample
//! dilation. The blob's bounding box is then refined at full resolution.

use image::RgbaImage;

use super::colour::{is_saturated, rgb_at};
use super::ReadError;

/// The board area in image pixels: the saturated cells, without the frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct BoardRect {
    /// Left column of the first saturated pixel.
    pub x: u32,
    /// Top row of the first saturated pixel.
    pub y: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// A downsampled saturation mask: sample (i, j) is image pixel
/// (i * step, j * step).
#[derive(Debug, Clone)]
pub struct SaturationMask {
    /// Image pixels per sample in both axes.
    pub step: u32,
    /// Samples per row.
    pub width: u32,
    /// Rows of samples.
    pub height: u32,
    /// 1 where the sampled pixel is saturated, row-major.
    pub bits: Vec<u8>,
}

/// Smallest board side in image pixels that is taken for a board (a 2x2
/// board of 8-pixel tiles is 16 pixels wide).
const MIN_SIDE: u32 = 12;
/// A blob must cover this much of its bounding box to count as rectangular.
const MIN_FILL: f64 = 0.6;

/// The sampling step for an image: about 640 samples along the long side.
pub fn mask_step(width: u32, height: u32) -> u32 {
    width.max(height).div_ceil(640).max(1)
}

/// Computes the saturation mask; also returns the one colour of the image if
/// every sample has the same colour.
pub fn saturation_mask(image: &RgbaImage, step: u32) -> (SaturationMask, Option<[u8; 3]>) {
    let (w, h) = image.dimensions();
    let (sw, sh) = (w.div_ceil(step), h.div_ceil(step));
    let mut bits = vec![0u8; (sw * sh) as usize];
    let raw = image.as_raw();
    let first = rgb_at(image, 0, 0);
    let mut uniform = true;
    let row_bytes = w as usize * 4;
    let pixel_step = step as usize * 4;
    for j in 0..sh as usize {
        let y = j * step as usize;
        let line = &raw[y * row_bytes..(y + 1) * row_bytes];
        let out = &mut bits[j * sw as usize..(j + 1) * sw as usize];
        for (bit, px) in out.iter_mut().zip(line.chunks(pixel_step)) {
            let p = [px[0], px[1], px[2]];
            uniform &= p == first;
            *bit = is_saturated(p) as u8;
        }
    }
    (
        SaturationMask {
            step,
            width: sw,
            height: sh,
            bits,
        },
        uniform.then_some(first),
    )
}

/// Dilates a mask by one sample in all eight directions.
fn dilate(mask: &SaturationMask) -> Vec<u8> {
    let (w, h) = (mask.width as usize, mask.height as usize);
    let mut horizontal = vec![0u8; w * h];
    for (row, out) in mask
        .bits
        .chunks_exact(w)
        .zip(horizontal.chunks_exact_mut(w))
    {
        out.copy_from_slice(row);
        if w > 1 {
            for (o, (&l, &r)) in out[1..w - 1]
                .iter_mut()
                .zip(row[..w - 2].iter().zip(&row[2..]))
            {
                *o |= l | r;
            }
            out[0] |= row[1];
            out[w - 1] |= row[w - 2];
        }
    }
    let mut out = horizontal.clone();
    for y in 0..h {
        let (before, rest) = out.split_at_mut(y * w);
        let _ = before;
        let row = &mut rest[..w];
        if y > 0 {
            for (o, &a) in row.iter_mut().zip(&horizontal[(y - 1) * w..y * w]) {
                *o |= a;
            }
        }
        if y + 1 < h {
            for (o, &b) in row.iter_mut().zip(&horizontal[(y + 1) * w..(y + 2) * w]) {
                *o |= b;
            }
        }
    }
    out
}

/// A blob of the dilated mask: bounding box (inclusive, in samples) of its
/// saturated samples and how many there are.
#[derive(Debug, Clone, Copy)]
struct Blob {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
    saturated: u64,
}

impl Blob {
    const EMPTY: Blob = Blob {
        x0: u32::MAX,
        y0: u32::MAX,
        x1: 0,
        y1: 0,
        saturated: 0,
    };

    fn area(&self) -> u64 {
        (self.x1 - self.x0 + 1) as u64 * (self.y1 - self.y0 + 1) as u64
    }
    fn fill(&self) -> f64 {
        self.saturated as f64 / self.area() as f64
    }
    fn merge(&mut self, o: &Blob) {
        self.x0 = self.x0.min(o.x0);
        self.y0 = self.y0.min(o.y0);
        self.x1 = self.x1.max(o.x1);
        self.y1 = self.y1.max(o.y1);
        self.saturated += o.saturated;
    }
}

fn find_root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Finds the blobs (8-connected components of the dilated mask), working on
/// horizontal runs joined with a union-find: a few operations per run rather
/// than per sample.
fn blobs(mask: &SaturationMask) -> Vec<Blob> {
    let (w, h) = (mask.width as usize, mask.height as usize);
    let dilated = dilate(mask);
    // Runs: (x0, x1 inclusive, node index); per-run blob data in `nodes`.
    let mut parent: Vec<usize> = Vec::new();
    let mut nodes: Vec<Blob> = Vec::new();
    let mut prev_runs: Vec<(usize, usize, usize)> = Vec::new();
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    for y in 0..h {
        let row = &dilated[y * w..(y + 1) * w];
        let bits = &mask.bits[y * w..(y + 1) * w];
        runs.clear();
        let mut x = 0;
        while x < w {
            if row[x] == 0 {
                x += 1;
                continue;
            }
            let start = x;
            while x < w && row[x] != 0 {
                x += 1;
            }
            let end = x - 1;
            let mut blob = Blob::EMPTY;
            for (i, &b) in bits[start..=end].iter().enumerate() {
                if b != 0 {
                    let xi = (start + i) as u32;
                    blob.x0 = blob.x0.min(xi);
                    blob.x1 = blob.x1.max(xi);
                    blob.saturated += 1;
                }
            }
            if blob.saturated > 0 {
                blob.y0 = y as u32;
                blob.y1 = y as u32;
            }
            let id = nodes.len();
            nodes.push(blob);
            parent.push(id);
            runs.push((start, end, id));
        }
        // Join with overlapping runs of the row above (8-connected).
        let mut j = 0;
        for &(s, e, id) in &runs {
            while j < prev_runs.len() && prev_runs[j].1 + 1 < s {
                j += 1;
            }
            let mut k = j;
            while k < prev_runs.len() && prev_runs[k].0 <= e + 1 {
                let (a, b) = (
                    find_root(&mut parent, id),
                    find_root(&mut parent, prev_runs[k].2),
                );
                if a != b {
                    parent[a] = b;
                }
                k += 1;
            }
        }
        std::mem::swap(&mut prev_runs, &mut runs);
    }
    let mut merged: Vec<Option<Blob>> = vec![None; nodes.len()];
    for (i, &n) in nodes.iter().enumerate() {
        let r = find_root(&mut parent, i);
        if n.saturated == 0 {
            continue;
        }
        match &mut merged[r] {
            Some(b) => b.merge(&n),
            slot => *slot = Some(n),
        }
    }
    merged.into_iter().flatten().collect()
}

/// Fraction of saturated pixels in image column `x` over rows `y0..y1`
/// (about 64 rows sampled).
fn column_fraction(image: &RgbaImage, x: u32, y0: u32, y1: u32) -> f64 {
    saturated_fraction(y0, y1, |y| rgb_at(image, x, y))
}

/// Fraction of saturated pixels in image row `y` over columns `x0..x1`.
fn row_fraction(image: &RgbaImage, y: u32, x0: u32, x1: u32) -> f64 {
    saturated_fraction(x0, x1, |x| rgb_at(image, x, y))
}

/// Fraction of saturated pixels among about 64 positions sampled evenly in
/// `from..to`, with `pixel(i)` the colour at position `i`.
fn saturated_fraction(from: u32, to: u32, pixel: impl Fn(u32) -> [u8; 3]) -> f64 {
    let stride = ((to - from) / 64).max(1);
    let (mut hits, mut total) = (0u32, 0u32);
    let mut i = from;
    while i < to {
        hits += is_saturated(pixel(i)) as u32;
        total += 1;
        i += stride;
    }
    hits as f64 / total.max(1) as f64
}

/// First (or last, with `rev`) position in `lo..=hi` where `fraction` is at
/// least one half.
fn refine(lo: u32, hi: u32, rev: bool, fraction: impl Fn(u32) -> f64) -> Option<u32> {
    if rev {
        (lo..=hi).rev().find(|&v| fraction(v) >= 0.5)
    } else {
        (lo..=hi).find(|&v| fraction(v) >= 0.5)
    }
}

/// Locates the board in `image`. Returns its rectangle and the mask it was
/// found on (for `--dump-stages`).
pub fn locate_board(image: &RgbaImage) -> Result<(BoardRect, SaturationMask), ReadError> {
    let (w, h) = image.dimensions();
    if w == 0 || h == 0 {
        return Err(ReadError::Empty {
            width: w,
            height: h,
        });
    }
    let step = mask_step(w, h);
    let (mask, one_colour) = saturation_mask(image, step);
    if let Some(colour) = one_colour {
        return Err(ReadError::OneColour { colour });
    }
    let best = blobs(&mask)
        .into_iter()
        .filter(|b| {
            b.fill() >= MIN_FILL
                && (b.x1 - b.x0 + 1) * step >= MIN_SIDE
                && (b.y1 - b.y0 + 1) * step >= MIN_SIDE
        })
        .max_by_key(|b| b.area())
        .ok_or(ReadError::NoBoard)?;

    if best.x0 == 0 {
        return Err(ReadError::CutOff { edge: "left" });
    }
    if best.x1 + 1 >= mask.width {
        return Err(ReadError::CutOff { edge: "right" });
    }
    if best.y0 == 0 {
        return Err(ReadError::CutOff { edge: "top" });
    }
    if best.y1 + 1 >= mask.height {
        return Err(ReadError::CutOff { edge: "bottom" });
    }

    // Coarse box in image pixels, then refine each edge at full resolution,
    // probing along the inner part of the perpendicular extent.
    let (cx0, cx1) = (best.x0 * step, (best.x1 * step).min(w - 1));
    let (cy0, cy1) = (best.y0 * step, (best.y1 * step).min(h - 1));
    let inset_x = (cx1 - cx0) / 8;
    let inset_y = (cy1 - cy0) / 8;
    let (py0, py1) = (cy0 + inset_y, (cy1 - inset_y).max(cy0 + inset_y + 1));
    let (px0, px1) = (cx0 + inset_x, (cx1 - inset_x).max(cx0 + inset_x + 1));
    let col = |x: u32| column_fraction(image, x, py0, py1);
    let row = |y: u32| row_fraction(image, y, px0, px1);
    let x0 = refine(cx0.saturating_sub(step), cx0 + step, false, col).unwrap_or(cx0);
    let x1 = refine(cx1.saturating_sub(step), (cx1 + step).min(w - 1), true, col).unwrap_or(cx1);
    let y0 = refine(cy0.saturating_sub(step), cy0 + step, false, row).unwrap_or(cy0);
    let y1 = refine(cy1.saturating_sub(step), (cy1 + step).min(h - 1), true, row).unwrap_or(cy1);
    if x1 <= x0 || y1 <= y0 {
        return Err(ReadError::NoBoard);
    }
    Ok((
        BoardRect {
            x: x0,
            y: y0,
            width: x1 - x0 + 1,
            height: y1 - y0 + 1,
        },
        mask,
    ))
}

/// Channels at most this bright make a pixel "dark" (a frame or separator
/// line drawn in black or near-black).
const DARK: u8 = 72;

#[inline]
fn is_dark(p: [u8; 3]) -> bool {
    p[0] <= DARK && p[1] <= DARK && p[2] <= DARK
}

/// Length of the run of dark pixels starting at `(x, y)` and going by
/// `(dx, dy)`, at most `max`.
fn dark_run(image: &RgbaImage, x: u32, y: u32, dx: i32, dy: i32, max: u32) -> u32 {
    let (w, h) = image.dimensions();
    let (mut x, mut y, mut n) = (x as i64, y as i64, 0);
    while n < max && x >= 0 && y >= 0 && x < w as i64 && y < h as i64 {
        if !is_dark(rgb_at(image, x as u32, y as u32)) {
            break;
        }
        n += 1;
        x += dx as i64;
        y += dy as i64;
    }
    n
}

/// Locates a board drawn inside a thin dark frame, whatever its cell
/// colours (sgt-flood draws one around its board, in its separator colour):
/// the largest rectangle whose four sides are dark lines at most a few
/// pixels thick, that does not touch the image border, and whose inside
/// along the frame is not dark. Returns the inside of the frame. Slower than
/// [`locate_board`] (it walks every pixel once), so the reader only uses it
/// when the saturated cells do not give a board: a palette with grey or
/// pale colours.
pub fn locate_framed_board(image: &RgbaImage) -> Option<BoardRect> {
    let (w, h) = image.dimensions();
    if w < MIN_SIDE + 4 || h < MIN_SIDE + 4 {
        return None;
    }
    let raw = image.as_raw();
    let row_bytes = w as usize * 4;
    let dark_at = |x: u32, y: u32| {
        let i = y as usize * row_bytes + x as usize * 4;
        raw[i] <= DARK && raw[i + 1] <= DARK && raw[i + 2] <= DARK
    };
    let mut best: Option<(u64, BoardRect)> = None;
    for y in 1..h - 1 {
        let mut x = 1;
        while x < w - 1 {
            if !dark_at(x, y) {
                x += 1;
                continue;
            }
            let x0 = x;
            while x < w - 1 && dark_at(x, y) {
                x += 1;
            }
            let x1 = x - 1;
            if x1 - x0 + 1 < MIN_SIDE + 4 || dark_at((x0 + x1) / 2, y - 1) {
                continue; // too short, or not the top row of a line
            }
            if let Some(rect) = frame_at(image, x0, x1, y) {
                let area = rect.width as u64 * rect.height as u64;
                if best.is_none_or(|(a, _)| area > a) {
                    best = Some((area, rect));
                }
            }
        }
    }
    best.map(|(_, r)| r)
}

/// The inside of a dark frame whose top line starts at row `y` and spans
/// `x0..=x1`, if the other three sides are there.
fn frame_at(image: &RgbaImage, x0: u32, x1: u32, y: u32) -> Option<BoardRect> {
    let (w, h) = image.dimensions();
    let max = h - y;
    let left = dark_run(image, x0, y, 0, 1, max);
    let right = dark_run(image, x1, y, 0, 1, max);
    if left < MIN_SIDE + 4 || left.abs_diff(right) > 2 {
        return None;
    }
    let y1 = y + left.min(right) - 1;
    if y1 + 1 >= h || x1 + 1 >= w {
        return None;
    }
    // The bottom line spans the width (allow a pixel or two of rounding at
    // its ends).
    let span = x1 - x0 + 1;
    if dark_run(image, x0, y1, 1, 0, span) + 2 < span {
        return None;
    }
    // Thickness of each side: the thinnest of seven places along it (a
    // separator line meeting the frame makes it look thicker at one place);
    // thin compared with the board.
    let limit = (span.min(left) / 8).max(2);
    let height = y1 - y + 1;
    let thinnest = |f: &dyn Fn(u32) -> u32| (1..8).map(f).min().unwrap_or(0);
    let top = thinnest(&|i| dark_run(image, x0 + span * i / 8, y, 0, 1, limit + 1));
    let bottom = thinnest(&|i| dark_run(image, x0 + span * i / 8, y1, 0, -1, limit + 1));
    let lt = thinnest(&|i| dark_run(image, x0, y + height * i / 8, 1, 0, limit + 1));
    let rt = thinnest(&|i| dark_run(image, x1, y + height * i / 8, -1, 0, limit + 1));
    if [top, bottom, lt, rt].iter().any(|&t| t > limit) {
        return None;
    }
    let rect = BoardRect {
        x: x0 + lt,
        y: y + top,
        width: (x1 + 1 - rt).checked_sub(x0 + lt)?,
        height: (y1 + 1 - bottom).checked_sub(y + top)?,
    };
    if rect.width < MIN_SIDE || rect.height < MIN_SIDE {
        return None;
    }
    // Just inside the frame lie cells, not more dark: at least half of the
    // probes along each inner side are light.
    let inner = |pts: &mut dyn Iterator<Item = (u32, u32)>| {
        let (mut light, mut n) = (0, 0);
        for (px, py) in pts {
            n += 1;
            light += !is_dark(rgb_at(image, px, py)) as u32;
        }
        light * 2 >= n
    };
    let (rx1, ry1) = (rect.x + rect.width - 1, rect.y + rect.height - 1);
    let along = |a: u32, b: u32| (0..16).map(move |i| a + (b - a) * i / 15);
    if !inner(&mut along(rect.x, rx1).map(|x| (x, rect.y)))
        || !inner(&mut along(rect.x, rx1).map(|x| (x, ry1)))
        || !inner(&mut along(rect.y, ry1).map(|y| (rect.x, y)))
        || !inner(&mut along(rect.y, ry1).map(|y| (rx1, y)))
    {
        return None;
    }
    Some(rect)
}

/// Whether a dark frame line runs just outside `rect` on some of its sides
/// but not on all four: the saturated cells reach the frame on one side
/// and stop short of it on another (grey cells along that edge).
pub fn partly_framed(image: &RgbaImage, rect: &BoardRect) -> bool {
    let (w, h) = image.dimensions();
    let (x0, y0) = (rect.x as i64, rect.y as i64);
    let (x1, y1) = (x0 + rect.width as i64 - 1, y0 + rect.height as i64 - 1);
    let dark = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && x < w as i64
            && y < h as i64
            && is_dark(rgb_at(image, x as u32, y as u32))
    };
    // Eight probes along a side; the line is there when six find a dark
    // pixel one to three pixels outside.
    let side = |probe: &dyn Fn(i64, i64) -> bool, along: (i64, i64)| {
        (0..8)
            .filter(|&i| {
                let t = along.0 + (along.1 - along.0) * (2 * i + 1) / 16;
                (1..=3).any(|d| probe(t, d))
            })
            .count()
            >= 6
    };
    let sides = [
        side(&|x, d| dark(x, y0 - d), (x0, x1)),
        side(&|x, d| dark(x, y1 + d), (x0, x1)),
        side(&|y, d| dark(x0 - d, y), (y0, y1)),
        side(&|y, d| dark(x1 + d, y), (y0, y1)),
    ];
    sides.iter().any(|&s| s) && !sides.iter().all(|&s| s)
}

impl BoardRect {
    /// Whether `other` lies inside this rectangle.
    pub fn contains(&self, other: &BoardRect) -> bool {
        other.x >= self.x
            && other.y >= self.y
            && other.x + other.width <= self.x + self.width
            && other.y + other.height <= self.y + self.height
    }
}

/// Share of the board area that is solid grey: sample points on a 40x40
/// grid that are unsaturated together with their four neighbours a little
/// way off (thin separator lines do not count, windows on top of the board
/// do).
pub fn solid_grey_share(image: &RgbaImage, rect: &BoardRect) -> f64 {
    let d = (rect.width.min(rect.height) / 100).max(3);
    let grey = |x: u32, y: u32| !is_saturated(rgb_at(image, x, y));
    let (mut hits, mut total) = (0u32, 0u32);
    for j in 0..40 {
        for i in 0..40 {
            let x = rect.x + d + (rect.width.saturating_sub(2 * d)) * i / 40;
            let y = rect.y + d + (rect.height.saturating_sub(2 * d)) * j / 40;
            total += 1;
            if grey(x, y) && grey(x - d, y) && grey(x + d, y) && grey(x, y - d) && grey(x, y + d) {
                hits += 1;
            }
        }
    }
    hits as f64 / total as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    fn grey(w: u32, h: u32) -> RgbaImage {
        RgbaImage::from_pixel(w, h, Rgba([0xd5, 0xd5, 0xd5, 255]))
    }

    fn fill(img: &mut RgbaImage, x: u32, y: u32, w: u32, h: u32, c: [u8; 3]) {
        for yy in y..y + h {
            for xx in x..x + w {
                img.put_pixel(xx, yy, Rgba([c[0], c[1], c[2], 255]));
            }
        }
    }

    #[test]
    fn finds_exact_rectangle_with_separators_and_distractors() {
        let mut img = grey(1280, 800);
        // 4x3 board of 20px cells at (301, 157) with 2px black separators.
        for r in 0..3 {
            for c in 0..4 {
                let colour = if (r + c) % 2 == 0 {
                    [255, 0, 0]
                } else {
                    [0, 0, 255]
                };
                fill(&mut img, 301 + c * 20, 157 + r * 20, 20, 20, colour);
            }
            fill(&mut img, 301, 157 + r * 20 + 18, 80, 2, [0, 0, 0]);
        }
        fill(&mut img, 301 + 39, 157, 2, 60, [0, 0, 0]);
        // A small saturated icon elsewhere.
        fill(&mut img, 10, 10, 6, 6, [0, 255, 0]);
        let (rect, _) = locate_board(&img).unwrap();
        assert_eq!(
            rect,
            BoardRect {
                x: 301,
                y: 157,
                width: 80,
                height: 58
            }
        );
    }

    #[test]
    fn errors_say_what_is_missing() {
        let img = grey(200, 100);
        assert!(matches!(
            locate_board(&img),
            Err(ReadError::OneColour { .. })
        ));
        let mut img = grey(200, 100);
        fill(&mut img, 20, 20, 50, 3, [0, 0, 0]);
        assert!(matches!(locate_board(&img), Err(ReadError::NoBoard)));
        let mut img = grey(200, 100);
        fill(&mut img, 150, 20, 50, 40, [255, 0, 0]);
        let err = locate_board(&img).unwrap_err();
        assert!(err.to_string().contains("right edge"), "{err}");
        assert!(matches!(
            locate_board(&RgbaImage::new(0, 0)),
            Err(ReadError::Empty { .. })
        ));
    }

    /// A board of grey and pale cells in a 2-pixel black frame on a grey
    /// window, with a black background around the window (as under Xvfb).
    #[test]
    fn finds_a_framed_board_of_unsaturated_cells() {
        let mut img = RgbaImage::from_pixel(300, 200, Rgba([0, 0, 0, 255]));
        fill(&mut img, 0, 0, 200, 150, [0xd5, 0xd5, 0xd5]);
        fill(&mut img, 20, 30, 104, 84, [0, 0, 0]);
        let colours = [[0x92, 0x97, 0x7d], [0xd0, 0xd0, 0xd0], [0xf0, 0xe6, 0xd2]];
        for r in 0..4 {
            for c in 0..5 {
                fill(
                    &mut img,
                    22 + c * 20,
                    32 + r * 20,
                    20,
                    20,
                    colours[(r + 2 * c) as usize % 3],
                );
            }
        }
        assert!(locate_board(&img).is_err());
        let rect = locate_framed_board(&img).unwrap();
        assert_eq!(
            rect,
            BoardRect {
                x: 22,
                y: 32,
                width: 100,
                height: 80
            }
        );
        // No frame, no board: a plain window on the black background.
        let mut img = RgbaImage::from_pixel(300, 200, Rgba([0, 0, 0, 255]));
        fill(&mut img, 0, 0, 200, 150, [0xd5, 0xd5, 0xd5]);
        assert_eq!(locate_framed_board(&img), None);
    }
}
