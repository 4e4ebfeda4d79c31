//! Stage 2, find the lattice: cell pitch and origin in both axes from the
//! periodicity of colour edges inside the board rectangle.
//!
//! Along each axis an edge profile counts, for every pixel boundary, the
//! sampled lines that cross a colour jump there. Cells of one colour that
//! touch merge visually (sgt-flood draws separators only between different
//! colours), so not every cell boundary shows; but every edge that does show
//! lies on a cell boundary. A cell count n is *valid* when its n-1 evenly
//! spaced boundaries explain (almost) all the edge mass and the edges fit a
//! board drawn inside a frame: boundary k at `k * (len + 2s) / n - s` with a
//! small margin s (half a separator line, a pixel of blur) and small
//! residuals. Multiples of the true count are valid too, its divisors are
//! not; on a late-game board with few edges a near count (15 for 16) may
//! explain them, but only with a larger margin. So the count chosen is the
//! best-fitting one among the valid counts up to a third above the smallest,
//! the smallest on a tie. The two axes are paired preferring square cells
//! (an axis with no edges borrows the other's pitch), and the pitch and
//! origin are fitted by least squares to the centroids of the edges found
//! near each boundary, which absorbs separator lines, anti-aliasing and
//! non-integer scaling.

use image::RgbaImage;

use super::colour::{max_channel_diff, rgb_at};
use super::locate::BoardRect;
use super::ReadError;
use crate::calibration::GeometryHints;

/// Where the cells are, in image pixels (continuous coordinates: pixel
/// (x, y) covers [x, x+1) x [y, y+1)).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Lattice {
    /// Image x of the left boundary of column 0.
    pub origin_x: f64,
    /// Image y of the top boundary of row 0.
    pub origin_y: f64,
    /// Cell width in image pixels.
    pub pitch_x: f64,
    /// Cell height in image pixels.
    pub pitch_y: f64,
    /// Number of columns.
    pub columns: usize,
    /// Number of rows.
    pub rows: usize,
}

impl Lattice {
    /// Centre of cell `(row, col)` in image pixels.
    pub fn cell_centre(&self, row: usize, col: usize) -> (f64, f64) {
        (
            self.origin_x + (col as f64 + 0.5) * self.pitch_x,
            self.origin_y + (row as f64 + 0.5) * self.pitch_y,
        )
    }
}

/// Adjacent pixels whose channels differ by more than this form an edge.
const EDGE_STEP: u8 = 40;
/// A cell count is accepted when its boundaries explain this share of the
/// edge mass.
const EXPLAINED: f64 = 0.92;
/// Smallest pitch considered, in pixels.
const MIN_PITCH: f64 = 4.0;
/// Largest cell count considered per axis.
const MAX_CELLS: usize = 128;
/// Cells count as square when their pitches differ by at most this share.
const SQUARE: f64 = 0.04;
/// Profiles with less total mass than this (in sampled lines) have no edges.
const NO_EDGES: f64 = 0.5;

/// Edge profile along one axis: `values[i]` is the number of sampled lines
/// with a colour jump between pixel i-1 and pixel i (position i), divided by
/// nothing: raw counts, so the units are "lines".
#[derive(Debug, Clone)]
pub struct EdgeProfile {
    /// One value per position 0..=len.
    pub values: Vec<f64>,
}

impl EdgeProfile {
    fn len(&self) -> usize {
        self.values.len() - 1
    }

    /// Total edge mass away from the two ends (the ends are the frame).
    fn interior_mass(&self) -> f64 {
        let n = self.len();
        if n < 5 {
            return 0.0;
        }
        self.values[2..=n - 2].iter().sum()
    }
}

/// Edge profile along x (vertical boundaries) inside `rect`.
pub fn profile_x(image: &RgbaImage, rect: &BoardRect) -> EdgeProfile {
    let mut values = vec![0.0; rect.width as usize + 1];
    let stride = (rect.height / 160).max(1);
    let mut y = rect.y;
    while y < rect.y + rect.height {
        let mut prev = rgb_at(image, rect.x, y);
        for i in 1..rect.width {
            let p = rgb_at(image, rect.x + i, y);
            if max_channel_diff(prev, p) > EDGE_STEP {
                values[i as usize] += 1.0;
            }
            prev = p;
        }
        y += stride;
    }
    EdgeProfile { values }
}

/// Edge profile along y (horizontal boundaries) inside `rect`. Walks the
/// image row by row (cache friendly) comparing sampled columns with the row
/// above.
pub fn profile_y(image: &RgbaImage, rect: &BoardRect) -> EdgeProfile {
    let mut values = vec![0.0; rect.height as usize + 1];
    let stride = (rect.width / 160).max(1);
    let columns: Vec<u32> = (rect.x..rect.x + rect.width)
        .step_by(stride as usize)
        .collect();
    let mut prev: Vec<[u8; 3]> = columns.iter().map(|&x| rgb_at(image, x, rect.y)).collect();
    for i in 1..rect.height {
        let y = rect.y + i;
        let mut count = 0u32;
        for (p, &x) in prev.iter_mut().zip(&columns) {
            let q = rgb_at(image, x, y);
            if max_channel_diff(*p, q) > EDGE_STEP {
                count += 1;
            }
            *p = q;
        }
        values[i as usize] = count as f64;
    }
    EdgeProfile { values }
}

fn tolerance(pitch: f64) -> f64 {
    (0.2 * pitch).max(1.5)
}

/// Share of the interior edge mass within tolerance of the boundaries of `n`
/// evenly spaced cells.
fn explained(profile: &EdgeProfile, n: usize) -> f64 {
    let len = profile.len();
    let pitch = len as f64 / n as f64;
    let tol = tolerance(pitch);
    let (mut hit, mut total) = (0.0, 0.0);
    for i in 2..=len.saturating_sub(2) {
        let v = profile.values[i];
        if v == 0.0 {
            continue;
        }
        total += v;
        let k = (i as f64 / pitch).round();
        // The frame (k = 0 or n) only explains edges within a margin of it.
        let reach = if k == 0.0 || k == n as f64 {
            tol.min(0.05 * pitch + 2.0)
        } else {
            tol
        };
        if (i as f64 - k * pitch).abs() <= reach {
            hit += v;
        }
    }
    if total == 0.0 {
        1.0
    } else {
        hit / total
    }
}

/// A cell count that explains an axis, and how well: the symmetric frame
/// model's margin plus its largest residual, in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Candidate {
    n: usize,
    cost: f64,
}

/// Cell counts whose boundaries explain the profile (smallest first), or
/// `None` when the axis shows no interior edges at all. A count must also
/// fit (see [`fit_cost`]).
fn valid_counts(profile: &EdgeProfile) -> Option<Vec<Candidate>> {
    if profile.interior_mass() < NO_EDGES {
        return None;
    }
    let len = profile.len() as f64;
    let max = ((len / MIN_PITCH) as usize).min(MAX_CELLS);
    Some(
        (2..=max)
            .filter(|&n| explained(profile, n) >= EXPLAINED)
            .filter_map(|n| fit_cost(profile, n).map(|cost| Candidate { n, cost }))
            .collect(),
    )
}

/// The candidates near the smallest valid count (up to a third more cells):
/// where sparse edges leave a few near counts valid, the right one is among
/// them, while multiples of the smallest (which fit as well) are not.
fn window(valid: &[Candidate]) -> impl Iterator<Item = Candidate> + '_ {
    let min = valid.first().map_or(0, |c| c.n);
    valid
        .iter()
        .copied()
        .take_while(move |c| 3 * c.n <= 4 * min)
}

/// Picks from `items` the one with the lowest cost, counting costs within
/// half a pixel of the best as equal and then preferring the smallest size
/// (multiples of the true count fit exactly as well; near counts that fit
/// sparse edges need a larger margin).
fn choose<T: Copy>(
    items: impl Iterator<Item = T>,
    cost: impl Fn(&T) -> f64,
    size: impl Fn(&T) -> usize,
) -> Option<T> {
    let items: Vec<T> = items.collect();
    let best = items.iter().map(&cost).fold(f64::INFINITY, f64::min);
    items
        .into_iter()
        .filter(|t| cost(t) <= best + 0.5)
        .min_by_key(|t| size(t))
}

/// Edge centroids near each predicted inner boundary of `n` cells:
/// `(k, centroid, mass)`.
fn boundary_points(profile: &EdgeProfile, n: usize) -> Vec<(f64, f64, f64)> {
    let len = profile.len();
    let p0 = len as f64 / n as f64;
    let tol = tolerance(p0);
    let mut points = Vec::with_capacity(n);
    for k in 1..n {
        let centre = k as f64 * p0;
        let lo = ((centre - tol).ceil().max(1.0)) as usize;
        let hi = ((centre + tol).floor() as usize).min(len - 1);
        let (mut mass, mut moment) = (0.0, 0.0);
        for i in lo..=hi {
            mass += profile.values[i];
            moment += profile.values[i] * i as f64;
        }
        if mass >= NO_EDGES {
            points.push((k as f64, moment / mass, mass));
        }
    }
    points
}

/// Fits the symmetric model of a board drawn inside a frame: boundary k at
/// `k * (len + 2s) / n - s`, where `s` is the margin between the board
/// rectangle and the outer cell boundaries (half a separator line, or a
/// pixel of blur). Returns `s` and the largest residual in pixels.
fn fit_symmetric(points: &[(f64, f64, f64)], len: f64, n: usize) -> (f64, f64) {
    let nf = n as f64;
    let (mut sdg, mut sgg) = (0.0, 0.0);
    for &(k, c, m) in points {
        let (d, g) = (c - k * len / nf, 2.0 * k / nf - 1.0);
        sdg += m * d * g;
        sgg += m * g * g;
    }
    let s = if sgg > 1e-9 { sdg / sgg } else { 0.0 };
    let worst = points
        .iter()
        .map(|&(k, c, _)| (c - k * len / nf - s * (2.0 * k / nf - 1.0)).abs())
        .fold(0.0, f64::max);
    (s, worst)
}

/// How well `n` cells fit the edges, or `None` if they do not: the
/// symmetric model's margin must be small (a few percent of a pitch) and
/// every boundary centroid must lie close to it. A wrong count that explains
/// a few clustered edges within tolerance needs a margin of a good part of a
/// cell, or leaves large residuals.
fn fit_cost(profile: &EdgeProfile, n: usize) -> Option<f64> {
    let len = profile.len() as f64;
    let pitch = len / n as f64;
    let (s, worst) = fit_symmetric(&boundary_points(profile, n), len, n);
    (s.abs() <= 0.05 * pitch + 1.5 && worst <= (0.06 * pitch).max(1.5)).then_some(s.abs() + worst)
}

/// Fits boundary positions `a + k * pitch` to the edge centroids near each
/// predicted boundary of `n` cells: least squares with two or more
/// boundaries seen, the symmetric frame model otherwise. Returns
/// `(a, pitch)` in profile coordinates.
fn fit(profile: &EdgeProfile, n: usize) -> (f64, f64) {
    let len = profile.len() as f64;
    let p0 = len / n as f64;
    let points = boundary_points(profile, n);
    let symmetric = || {
        let (s, _) = fit_symmetric(&points, len, n);
        (-s, (len + 2.0 * s) / n as f64)
    };
    if points.len() < 2 {
        return symmetric();
    }
    let sw: f64 = points.iter().map(|p| p.2).sum();
    let mk = points.iter().map(|p| p.2 * p.0).sum::<f64>() / sw;
    let mc = points.iter().map(|p| p.2 * p.1).sum::<f64>() / sw;
    let skk: f64 = points.iter().map(|p| p.2 * (p.0 - mk) * (p.0 - mk)).sum();
    let skc: f64 = points.iter().map(|p| p.2 * (p.0 - mk) * (p.1 - mc)).sum();
    if skk <= 0.0 {
        return symmetric();
    }
    let pitch = skc / skk;
    if (pitch - p0).abs() > 0.1 * p0 {
        return symmetric();
    }
    (mc - mk * pitch, pitch)
}

/// Everything the lattice stage computed, for `--dump-stages`.
#[derive(Debug, Clone)]
pub struct LatticeTrace {
    /// Edge profile along x.
    pub x: EdgeProfile,
    /// Edge profile along y.
    pub y: EdgeProfile,
}

/// Finds the lattice of the board in `rect`, using any geometry hints.
pub fn find_lattice(
    image: &RgbaImage,
    rect: &BoardRect,
    hints: Option<&GeometryHints>,
) -> Result<(Lattice, LatticeTrace), ReadError> {
    let px = profile_x(image, rect);
    let py = profile_y(image, rect);
    let (columns, rows) = cell_counts(image, rect, hints, &px, &py)?;
    if columns == 0 || rows == 0 {
        return Err(no_lattice(
            rect,
            "a geometry hint asks for zero cells".into(),
        ));
    }
    let (ax, pitch_x) = fit(&px, columns);
    let (ay, pitch_y) = fit(&py, rows);
    check_margins("x", &px, columns, ax, pitch_x)?;
    check_margins("y", &py, rows, ay, pitch_y)?;
    let lattice = Lattice {
        origin_x: rect.x as f64 + ax,
        origin_y: rect.y as f64 + ay,
        pitch_x,
        pitch_y,
        columns,
        rows,
    };
    Ok((lattice, LatticeTrace { x: px, y: py }))
}

/// The error for a board in `rect` whose lattice cannot be found.
fn no_lattice(rect: &BoardRect, reason: String) -> ReadError {
    ReadError::NoLattice {
        x: rect.x,
        y: rect.y,
        width: rect.width,
        height: rect.height,
        reason,
    }
}

/// The best cell count along `axis` among `valid`.
fn best_count(valid: &[Candidate], axis: &str, rect: &BoardRect) -> Result<usize, ReadError> {
    choose(window(valid), |c| c.cost, |c| c.n)
        .map(|c| c.n)
        .ok_or_else(|| {
            no_lattice(
                rect,
                format!("the colour edges along {axis} are not evenly spaced"),
            )
        })
}

/// The number of columns and rows: from the hints, or from the edge
/// profiles `px` and `py` (an axis without a hint or edges takes the
/// other axis's pitch).
fn cell_counts(
    image: &RgbaImage,
    rect: &BoardRect,
    hints: Option<&GeometryHints>,
    px: &EdgeProfile,
    py: &EdgeProfile,
) -> Result<(usize, usize), ReadError> {
    let (w, h) = (rect.width as f64, rect.height as f64);
    let hint_cols = hints.and_then(|g| {
        g.columns
            .or(g.cell_size.map(|s| (w / s).round().max(1.0) as usize))
    });
    let hint_rows = hints.and_then(|g| {
        g.rows
            .or(g.cell_size.map(|s| (h / s).round().max(1.0) as usize))
    });
    if let (Some(c), Some(r)) = (hint_cols, hint_rows) {
        return Ok((c, r));
    }
    let vx = valid_counts(px);
    let vy = valid_counts(py);
    log::debug!("cell counts that fit, with cost: x {vx:?}, y {vy:?}");
    let from_pitch = |len: f64, pitch: f64| (len / pitch).round().max(1.0) as usize;
    let best = |v: &[Candidate], axis: &str| best_count(v, axis, rect);
    Ok(match (hint_cols, hint_rows, vx, vy) {
        (Some(c), None, _, Some(vy)) => (
            c,
            pick_matching(&vy, h, w / c as f64).map_or_else(|| best(&vy, "y"), Ok)?,
        ),
        (Some(c), None, _, None) => (c, from_pitch(h, w / c as f64)),
        (None, Some(r), Some(vx), _) => (
            pick_matching(&vx, w, h / r as f64).map_or_else(|| best(&vx, "x"), Ok)?,
            r,
        ),
        (None, Some(r), None, _) => (from_pitch(w, h / r as f64), r),
        (_, _, None, None) => {
            return Err(ReadError::UniformBoard {
                x: rect.x,
                y: rect.y,
                width: rect.width,
                height: rect.height,
                colour: rgb_at(image, rect.x + rect.width / 2, rect.y + rect.height / 2),
            })
        }
        (_, _, Some(vx), None) => {
            let c = best(&vx, "x")?;
            (c, from_pitch(h, w / c as f64))
        }
        (_, _, None, Some(vy)) => {
            let r = best(&vy, "y")?;
            (from_pitch(w, h / r as f64), r)
        }
        (_, _, Some(vx), Some(vy)) => square_counts(rect, px, py, &vx, &vy)?,
    })
}

/// Counts for both axes when both show edges (`vx`, `vy` the counts that
/// fit): square cells, pairing the counts whose pitches agree, first near
/// each axis's smallest count (by fit), then anywhere (smallest counts).
fn square_counts(
    rect: &BoardRect,
    px: &EdgeProfile,
    py: &EdgeProfile,
    vx: &[Candidate],
    vy: &[Candidate],
) -> Result<(usize, usize), ReadError> {
    let (w, h) = (rect.width as f64, rect.height as f64);
    let square = |cx: &Candidate, cy: &Candidate| {
        ((w / cx.n as f64) / (h / cy.n as f64) - 1.0).abs() <= SQUARE
    };
    let (wx, wy): (Vec<Candidate>, Vec<Candidate>) = (window(vx).collect(), window(vy).collect());
    // An axis with edges on nearly every boundary of its best count is
    // known: it may not double up to match the other axis (a board cut
    // mid-cell can make the other axis fit only half cells).
    let (rich_x, rich_y) = (is_rich(px, &wx), is_rich(py, &wy));
    let (vx_all, vy_all) = (
        if rich_x { &wx[..] } else { vx },
        if rich_y { &wy[..] } else { vy },
    );
    let near = wx.iter().flat_map(|cx| {
        wy.iter()
            .filter(|cy| square(cx, cy))
            .map(move |cy| (*cx, *cy))
    });
    let far = || {
        vx_all.iter().take(64).flat_map(|cx| {
            vy_all
                .iter()
                .take(64)
                .filter(|cy| square(cx, cy))
                .map(move |cy| (*cx, *cy))
        })
    };
    match choose(near, |(cx, cy)| cx.cost + cy.cost, |(cx, cy)| cx.n + cy.n)
        .or_else(|| far().min_by_key(|(cx, cy)| cx.n + cy.n))
    {
        Some((cx, cy)) => Ok((cx.n, cy.n)),
        // Cells that are not square are believed only when both axes show
        // them clearly.
        None if rich_x && rich_y => Ok((best_count(vx, "x", rect)?, best_count(vy, "y", rect)?)),
        None => {
            let (c, r) = (best_count(vx, "x", rect)?, best_count(vy, "y", rect)?);
            Err(no_lattice(
                rect,
                format!(
                    "the cells are not square (pitch {:.1} along x, {:.1} along y): \
                     is part of the board covered or off the screen?",
                    w / c as f64,
                    h / r as f64
                ),
            ))
        }
    }
}

/// A board cut mid-cell (covered, or off the screen) shows a last row or
/// column narrower than the others: the margins at the two ends of `axis`
/// (`n` cells of `pitch` from `a`) must agree.
fn check_margins(
    axis: &'static str,
    profile: &EdgeProfile,
    n: usize,
    a: f64,
    pitch: f64,
) -> Result<(), ReadError> {
    if boundary_points(profile, n).len() >= 3 {
        let (first, last) = (-a, a + n as f64 * pitch - profile.len() as f64);
        if (first - last).abs() > (0.06 * pitch).max(2.5) {
            return Err(ReadError::Uneven {
                axis,
                first,
                last,
                pitch,
            });
        }
    }
    Ok(())
}

/// True when the best count of an axis is well supported: at least four
/// inner boundaries, and edges seen on at least 80% of them.
fn is_rich(profile: &EdgeProfile, window: &[Candidate]) -> bool {
    let Some(best) = choose(window.iter().copied(), |c| c.cost, |c| c.n) else {
        return false;
    };
    let seen = boundary_points(profile, best.n).len();
    best.n >= 5 && seen * 5 >= (best.n - 1) * 4
}

/// The best count in `valid` whose pitch is within [`SQUARE`] of `pitch`.
fn pick_matching(valid: &[Candidate], len: f64, pitch: f64) -> Option<usize> {
    let near = valid
        .iter()
        .copied()
        .filter(|c| ((len / c.n as f64) / pitch - 1.0).abs() <= SQUARE);
    choose(near, |c| c.cost, |c| c.n).map(|c| c.n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    /// Draws a board like sgt-flood: `tile`-pixel tiles, separators of
    /// `sep` pixels on each side of a boundary between different colours.
    fn board(cells: &[&[u8]], tile: u32, sep: u32, at: (u32, u32)) -> (RgbaImage, BoardRect) {
        let colours = [[255, 0, 0], [255, 255, 0], [0, 255, 0], [51, 76, 255]];
        let (rows, cols) = (cells.len() as u32, cells[0].len() as u32);
        let mut img = RgbaImage::from_pixel(
            at.0 * 2 + cols * tile,
            at.1 * 2 + rows * tile,
            Rgba([213, 213, 213, 255]),
        );
        for r in 0..rows {
            for c in 0..cols {
                let v = cells[r as usize][c as usize];
                let col = colours[v as usize];
                for y in 0..tile {
                    for x in 0..tile {
                        let diff = |dr: i32, dc: i32| {
                            let (rr, cc) = (r as i32 + dr, c as i32 + dc);
                            rr < 0
                                || cc < 0
                                || rr >= rows as i32
                                || cc >= cols as i32
                                || cells[rr as usize][cc as usize] != v
                        };
                        let black = (x < sep && diff(0, -1))
                            || (x >= tile - sep && diff(0, 1))
                            || (y < sep && diff(-1, 0))
                            || (y >= tile - sep && diff(1, 0));
                        let p = if black { [0, 0, 0] } else { col };
                        img.put_pixel(
                            at.0 + c * tile + x,
                            at.1 + r * tile + y,
                            Rgba([p[0], p[1], p[2], 255]),
                        );
                    }
                }
            }
        }
        let rect = BoardRect {
            x: at.0 + sep,
            y: at.1 + sep,
            width: cols * tile - 2 * sep,
            height: rows * tile - 2 * sep,
        };
        (img, rect)
    }

    #[test]
    fn counts_cells_with_merged_neighbours_and_separators() {
        let cells: &[&[u8]] = &[&[0, 0, 1, 2, 2], &[0, 3, 1, 1, 2], &[3, 3, 3, 1, 0]];
        for (tile, sep) in [(32, 1), (8, 0), (64, 2), (13, 0)] {
            let (img, rect) = board(cells, tile, sep, (40, 30));
            let (l, _) = find_lattice(&img, &rect, None).unwrap();
            assert_eq!((l.columns, l.rows), (5, 3), "tile {tile}");
            assert!(
                (l.pitch_x - tile as f64).abs() < 0.3 && (l.pitch_y - tile as f64).abs() < 0.3,
                "{l:?}"
            );
            assert!(
                (l.origin_x - 40.0).abs() < 1.0 && (l.origin_y - 30.0).abs() < 1.0,
                "{l:?}"
            );
        }
    }

    #[test]
    fn late_game_boards_with_few_edges() {
        // One odd cell in a corner, or a few cells near one edge: nearby
        // wrong counts explain the few edges too, but need a frame margin.
        for (n, tile, sep, odd) in [
            (16usize, 12u32, 0u32, vec![(15usize, 15usize)]),
            (16, 20, 0, vec![(13, 3), (14, 3), (15, 4)]),
            (6, 20, 0, vec![(5, 5)]),
            (10, 64, 2, vec![(9, 9)]),
            (12, 32, 1, vec![(11, 0), (11, 1), (10, 0)]),
        ] {
            let mut rows: Vec<Vec<u8>> = vec![vec![1; n]; n];
            for &(r, c) in &odd {
                rows[r][c] = 3;
            }
            let cells: Vec<&[u8]> = rows.iter().map(|r| r.as_slice()).collect();
            let (img, rect) = board(&cells, tile, sep, (30, 40));
            let (l, _) = find_lattice(&img, &rect, None).unwrap();
            assert_eq!(
                (l.columns, l.rows),
                (n, n),
                "{n}x{n} tile {tile} odd {odd:?}"
            );
        }
    }

    #[test]
    fn axis_without_edges_borrows_the_other_pitch() {
        let cells: &[&[u8]] = &[&[0, 1], &[0, 1]];
        let (img, rect) = board(cells, 16, 0, (10, 10));
        let (l, _) = find_lattice(&img, &rect, None).unwrap();
        assert_eq!((l.columns, l.rows), (2, 2));
    }

    #[test]
    fn one_colour_board_needs_hints() {
        let cells: &[&[u8]] = &[&[2, 2, 2], &[2, 2, 2]];
        let (img, rect) = board(cells, 20, 1, (10, 10));
        let err = find_lattice(&img, &rect, None).unwrap_err();
        assert!(
            matches!(
                err,
                ReadError::UniformBoard {
                    colour: [0, 255, 0],
                    ..
                }
            ),
            "{err}"
        );
        assert!(
            err.to_string().contains("all one colour (#00ff00)"),
            "{err}"
        );
        let hints = GeometryHints {
            columns: Some(3),
            rows: Some(2),
            cell_size: None,
        };
        let (l, _) = find_lattice(&img, &rect, Some(&hints)).unwrap();
        assert_eq!((l.columns, l.rows), (3, 2));
        let hints = GeometryHints {
            columns: None,
            rows: None,
            cell_size: Some(20.0),
        };
        let (l, _) = find_lattice(&img, &rect, Some(&hints)).unwrap();
        assert_eq!((l.columns, l.rows), (3, 2));
    }
}
