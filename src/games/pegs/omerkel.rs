//! Reading Oliver Merkel's Peg Solitaire page (`pegs-omerkel`) without
//! calibration.
//!
//! What is special about this page: the board is a grey disc with a darker
//! rim; a peg is an orange ball (a radial gradient from orange to brown,
//! black outline, a shadow); an empty hole is a small dark-grey dot that
//! the balls otherwise cover; a selected peg's jumps are marked in dark
//! red. The reader finds the largest grey disc, labels the orange and the
//! dark-grey regions inside it, keeps the balls and the dots by their
//! shape, and finds the lattice from the centres: rows spaced by the
//! nearest-neighbour distance make a square lattice, rows spaced by
//! `sqrt(3)/2` of it with alternate rows shifted by half a step make a
//! triangular one. The cells must form one of the page's four boards
//! ([`LatticeBoard::named`]); anything else is refused, never guessed.
//!
//! The page's controls (tabs, the board-shape buttons, `New`) are found as
//! what they are too: flat rectangles of button grey or of the active
//! orange ([`find_buttons`]).

use image::{GrayImage, Luma, RgbaImage};
use imageproc::region_labelling::{connected_components, Connectivity};

use super::lattice::{Lattice, LatticeBoard, NAMES};
use super::rules::{bit, Cells};
use crate::capture::colour::rgb_at;
use crate::capture::screen::Rect;

/// Why a picture is not read as a board of the page.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OmerkelReadError {
    /// No grey disc large enough to be the board.
    #[error("no grey board disc found: this is not Oliver Merkel's Peg Solitaire showing its Board tab (or the window is too small)")]
    NoDisc,
    /// The disc holds no ball and no hole.
    #[error("the grey disc holds no pegs or holes: not a peg solitaire board")]
    Empty,
    /// Centres that do not sit on one lattice.
    #[error("the pegs and holes do not sit on a lattice ({0}); refusing to guess")]
    NoLattice(String),
    /// A cell that is neither clearly a ball nor clearly empty.
    #[error("cell {row},{col} is neither a peg nor a hole ({share:.0}% of its ring orange); refusing to guess")]
    Unsure {
        /// Row of the cell.
        row: u8,
        /// Column of the cell.
        col: u8,
        /// Orange share of the sampled ring, in percent.
        share: f64,
    },
    /// A lattice that is none of the page's boards.
    #[error("the {cells} cells on a {lattice:?} lattice are none of the boards english, french, tri15, tri21")]
    UnknownBoard {
        /// Cells found.
        cells: usize,
        /// The lattice found.
        lattice: Lattice,
    },
}

/// A board read off the page.
#[derive(Debug, Clone)]
pub struct PageReading {
    /// The board the cells form.
    pub board: LatticeBoard,
    /// The pegs.
    pub pegs: Cells,
    /// Image centre of each cell, in the board's cell order.
    pub centres: Vec<(f64, f64)>,
    /// The disc: centre x, centre y, radius (image pixels).
    pub disc: (f64, f64, f64),
    /// The distance of neighbouring cells (image pixels).
    pub step: f64,
}

/// One labelled region: pixel count, bounding box and centroid.
#[derive(Debug, Clone, Copy)]
struct Blob {
    area: u32,
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
    sx: f64,
    sy: f64,
}

impl Blob {
    fn width(&self) -> u32 {
        self.x1 - self.x0 + 1
    }
    fn height(&self) -> u32 {
        self.y1 - self.y0 + 1
    }
    fn centre(&self) -> (f64, f64) {
        (self.sx / self.area as f64, self.sy / self.area as f64)
    }
    /// Share of the bounding box the region fills.
    fn fill(&self) -> f64 {
        self.area as f64 / (self.width() * self.height()) as f64
    }
}

/// The regions of the pixels `keep` accepts (eight-connected), inside
/// `area` of `image`.
fn blobs(image: &RgbaImage, area: Rect, keep: impl Fn([u8; 3]) -> bool) -> Vec<Blob> {
    let mut mask = GrayImage::new(area.width, area.height);
    for y in 0..area.height {
        for x in 0..area.width {
            if keep(rgb_at(image, area.x + x, area.y + y)) {
                mask.put_pixel(x, y, Luma([255]));
            }
        }
    }
    let labels = connected_components(&mask, Connectivity::Eight, Luma([0u8]));
    let mut out: Vec<Option<Blob>> = Vec::new();
    for (x, y, l) in labels.enumerate_pixels() {
        let l = l.0[0] as usize;
        if l == 0 {
            continue;
        }
        if out.len() < l {
            out.resize(l, None);
        }
        let (gx, gy) = (area.x + x, area.y + y);
        let b = out[l - 1].get_or_insert(Blob {
            area: 0,
            x0: gx,
            y0: gy,
            x1: gx,
            y1: gy,
            sx: 0.0,
            sy: 0.0,
        });
        b.area += 1;
        b.x0 = b.x0.min(gx);
        b.y0 = b.y0.min(gy);
        b.x1 = b.x1.max(gx);
        b.y1 = b.y1.max(gy);
        b.sx += gx as f64;
        b.sy += gy as f64;
    }
    out.into_iter().flatten().collect()
}

/// A neutral grey of brightness `lo..=hi`.
fn grey(p: [u8; 3], lo: u8, hi: u8) -> bool {
    let (mn, mx) = (p.iter().min().copied(), p.iter().max().copied());
    let (mn, mx) = (mn.unwrap_or(0), mx.unwrap_or(0));
    mx - mn <= 10 && (lo..=hi).contains(&mn)
}

/// The balls' orange-to-brown (not the markers' dark red, whose green is
/// nearly zero, nor the grey).
fn orange(p: [u8; 3]) -> bool {
    let [r, g, b] = p.map(u32::from);
    r >= 70 && 10 * g >= 2 * r && 10 * g <= 6 * r && 10 * b <= 3 * r
}

/// The board disc: the largest light-grey region that is about as wide
/// as high and fills a good part of its circle.
fn find_disc(image: &RgbaImage) -> Option<(f64, f64, f64)> {
    let all = Rect {
        x: 0,
        y: 0,
        width: image.width(),
        height: image.height(),
    };
    let b = blobs(image, all, |p| grey(p, 150, 190))
        .into_iter()
        .max_by_key(|b| b.area)?;
    let (w, h) = (b.width() as f64, b.height() as f64);
    let r = (w + h) / 4.0;
    let disc_share = b.area as f64 / (std::f64::consts::PI * r * r);
    if r < 60.0 || (w - h).abs() > 0.05 * w || !(0.35..=1.05).contains(&disc_share) {
        return None;
    }
    Some(((b.x0 + b.x1) as f64 / 2.0, (b.y0 + b.y1) as f64 / 2.0, r))
}

/// Reads the board of the page in `image`.
pub fn read_page(image: &RgbaImage) -> Result<PageReading, OmerkelReadError> {
    let disc = find_disc(image).ok_or(OmerkelReadError::NoDisc)?;
    let (cx, cy, r) = disc;
    let inside = Rect {
        x: (cx - r).max(0.0) as u32,
        y: (cy - r).max(0.0) as u32,
        width: (2.0 * r) as u32,
        height: (2.0 * r) as u32,
    }
    .clip(image.width(), image.height());
    let in_disc = |b: &Blob| {
        let (x, y) = b.centre();
        (x - cx).hypot(y - cy) < 0.97 * r
    };
    let mut balls: Vec<Blob> = blobs(image, inside, orange)
        .into_iter()
        .filter(in_disc)
        .collect();
    let biggest = balls
        .iter()
        .map(|b| b.width().max(b.height()))
        .max()
        .unwrap_or(0);
    balls.retain(|b| b.width().max(b.height()) * 10 >= biggest * 7 && b.fill() > 0.45);
    let ball = balls.iter().map(|b| b.width()).max().unwrap_or(0) as f64;
    let dots: Vec<Blob> = blobs(image, inside, |p| grey(p, 38, 72))
        .into_iter()
        .filter(|b| {
            let (w, h) = (b.width() as f64, b.height() as f64);
            in_disc(b)
                && b.fill() > 0.6
                && (w - h).abs() <= 0.25 * w.max(h)
                && w >= 0.04 * r
                && (ball == 0.0 || w <= 0.7 * ball)
        })
        .collect();
    if balls.is_empty() && dots.is_empty() {
        return Err(OmerkelReadError::Empty);
    }
    let mut cells: Vec<(f64, f64, bool)> = balls
        .iter()
        .map(|b| (b.centre(), true))
        .chain(dots.iter().map(|b| (b.centre(), false)))
        .map(|((x, y), p)| (x, y, p))
        .collect();
    cells.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.total_cmp(&b.0)));
    let (board, order, step) = fit_lattice(&cells)?;
    let mut pegs = 0;
    let mut centres = vec![(0.0, 0.0); board.len()];
    for (k, &cell) in order.iter().enumerate() {
        let (x, y, peg) = cells[k];
        centres[cell as usize] = (x, y);
        if peg {
            pegs |= bit(cell);
        }
    }
    Ok(PageReading {
        board,
        pegs,
        centres,
        disc,
        step,
    })
}

/// The board the centres (sorted by y, then x) form, and the cell of each.
fn fit_lattice(
    cells: &[(f64, f64, bool)],
) -> Result<(LatticeBoard, Vec<u8>, f64), OmerkelReadError> {
    let no = |why: &str| OmerkelReadError::NoLattice(why.to_string());
    let mut d = f64::INFINITY;
    for (i, a) in cells.iter().enumerate() {
        for b in &cells[i + 1..] {
            d = d.min((a.0 - b.0).hypot(a.1 - b.1));
        }
    }
    if !d.is_finite() || d < 4.0 {
        return Err(no("fewer than two cells"));
    }
    // Rows: centres within a quarter step of the row's first y.
    let mut rows: Vec<Vec<usize>> = Vec::new();
    for (i, c) in cells.iter().enumerate() {
        match rows.last_mut() {
            Some(row) if (c.1 - cells[row[0]].1).abs() < d / 4.0 => row.push(i),
            _ => rows.push(vec![i]),
        }
    }
    let row_y: Vec<f64> = rows
        .iter()
        .map(|r| r.iter().map(|&i| cells[i].1).sum::<f64>() / r.len() as f64)
        .collect();
    let step = if rows.len() > 1 {
        (row_y[rows.len() - 1] - row_y[0]) / (rows.len() - 1) as f64
    } else {
        d
    };
    let lattice = if (step / d - 0.866).abs() < 0.05 {
        Lattice::Triangular
    } else if (step / d - 1.0).abs() < 0.05 {
        Lattice::Square
    } else {
        return Err(no(&format!(
            "row step {step:.1} px for a neighbour distance of {d:.1} px"
        )));
    };
    let x0 = match lattice {
        Lattice::Square => cells.iter().map(|c| c.0).fold(f64::INFINITY, f64::min),
        Lattice::Triangular => cells[rows[0][0]].0,
    };
    let mut coords = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        if (row_y[r] - row_y[0] - r as f64 * step).abs() > d / 4.0 {
            return Err(no("rows are not evenly spaced"));
        }
        for &i in row {
            let shift = if lattice == Lattice::Triangular {
                r as f64 / 2.0
            } else {
                0.0
            };
            let u = (cells[i].0 - x0) / d + shift;
            if (u - u.round()).abs() > 0.2 || u.round() < 0.0 {
                return Err(no("a cell between lattice columns"));
            }
            coords.push((r as i32, u.round() as i32));
        }
    }
    let unknown = OmerkelReadError::UnknownBoard {
        cells: cells.len(),
        lattice,
    };
    for name in NAMES {
        let board = LatticeBoard::named(name).expect("a named board");
        if board.lattice() != lattice || board.len() != coords.len() {
            continue;
        }
        let order: Option<Vec<u8>> = coords.iter().map(|&(r, c)| board.index(r, c)).collect();
        if let Some(order) = order {
            return Ok((board, order, d));
        }
    }
    Err(unknown)
}

/// The page's buttons and tabs: flat rectangles of button grey or of the
/// active orange, at least twice as wide as high, in reading order (rows
/// top to bottom, left to right). The board disc's rim is a ring, not a
/// rectangle, and is left out.
pub fn find_buttons(image: &RgbaImage) -> Vec<Rect> {
    let all = Rect {
        x: 0,
        y: 0,
        width: image.width(),
        height: image.height(),
    };
    let active = |p: [u8; 3]| p[0] >= 230 && (120..=160).contains(&p[1]) && p[2] <= 40;
    let mut out: Vec<Rect> = blobs(image, all, |p| grey(p, 80, 110) || active(p))
        .into_iter()
        .filter(|b| {
            b.height() >= 14 && b.width() >= 2 * b.height() && b.fill() > 0.6 && b.height() < 120
        })
        .map(|b| Rect {
            x: b.x0,
            y: b.y0,
            width: b.width(),
            height: b.height(),
        })
        .collect();
    out.sort_by_key(|r| (r.y + r.height / 2, r.x));
    // One row: centres within half a button's height.
    let mut rows: Vec<Vec<Rect>> = Vec::new();
    for r in out {
        match rows.last_mut() {
            Some(row)
                if (r.y + r.height / 2).abs_diff(row[0].y + row[0].height / 2)
                    <= row[0].height / 2 =>
            {
                row.push(r)
            }
            _ => rows.push(vec![r]),
        }
    }
    rows.into_iter()
        .flat_map(|mut row| {
            row.sort_by_key(|r| r.x);
            row
        })
        .collect()
}

/// True when the button `r` is the active (orange) one.
pub fn is_active(image: &RgbaImage, r: Rect) -> bool {
    let p = rgb_at(image, r.x + 4, r.y + r.height / 2);
    p[0] >= 230 && p[2] <= 40
}

/// The pegs of a board whose cells were found before (`layout`, read with
/// nothing selected), by the orange share of a ring around each centre
/// (radius a quarter to 0.38 of the cell step): the ring misses the red
/// cross the page puts on a peg about to be jumped and is mostly outside
/// the arrow of a selected peg, so a board with a selection reads too.
pub fn read_cells(image: &RgbaImage, layout: &PageReading) -> Result<Cells, OmerkelReadError> {
    let step = layout.step;
    let mut pegs = 0;
    for (i, &(cx, cy)) in layout.centres.iter().enumerate() {
        let (mut n, mut hit) = (0u32, 0u32);
        let r1 = 0.38 * step;
        let span = r1.ceil() as i32;
        for dy in -span..=span {
            for dx in -span..=span {
                let d = (dx as f64).hypot(dy as f64);
                let (x, y) = (cx as i32 + dx, cy as i32 + dy);
                if d < 0.25 * step
                    || d > r1
                    || x < 0
                    || y < 0
                    || x >= image.width() as i32
                    || y >= image.height() as i32
                {
                    continue;
                }
                n += 1;
                hit += u32::from(orange(rgb_at(image, x as u32, y as u32)));
            }
        }
        let share = 100.0 * hit as f64 / n.max(1) as f64;
        if share >= 40.0 {
            pegs |= bit(i as u8);
        } else if share > 10.0 {
            let (row, col) = layout.board.coords()[i];
            return Err(OmerkelReadError::Unsure { row, col, share });
        }
    }
    Ok(pegs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Centres of `board`'s cells drawn `d` pixels apart, as the page lays
    /// them out (a triangle with its apex up), sorted as the reader sorts.
    fn centres(board: &LatticeBoard, d: f64) -> Vec<(f64, f64, bool)> {
        let tri = board.lattice() == Lattice::Triangular;
        let mut v: Vec<(f64, f64, bool)> = board
            .coords()
            .iter()
            .map(|&(r, c)| {
                let (r, c) = (r as f64, c as f64);
                let x = 100.0 + d * if tri { c - r / 2.0 } else { c };
                let y = 50.0 + d * if tri { 0.866 * r } else { r };
                (x, y, true)
            })
            .collect();
        v.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.total_cmp(&b.0)));
        v
    }

    #[test]
    fn every_board_is_found_by_its_lattice_at_any_scale() {
        for name in NAMES {
            let board = LatticeBoard::named(name).unwrap();
            for d in [40.0, 91.4] {
                let (found, order, step) = fit_lattice(&centres(&board, d)).unwrap();
                assert_eq!(found.name(), name);
                assert_eq!(order, (0..board.len() as u8).collect::<Vec<_>>(), "{name}");
                assert!((step - d).abs() < 1e-3 * d, "{name}: step {step} for {d}");
            }
        }
    }

    #[test]
    fn cells_off_the_lattice_or_of_no_board_are_refused() {
        let board = LatticeBoard::named("english").unwrap();
        let mut c = centres(&board, 50.0);
        c[5].0 += 20.0;
        assert!(matches!(
            fit_lattice(&c),
            Err(OmerkelReadError::NoLattice(_))
        ));
        let mut c = centres(&board, 50.0);
        c.pop();
        let e = fit_lattice(&c).unwrap_err();
        assert!(
            matches!(e, OmerkelReadError::UnknownBoard { cells: 32, .. }),
            "{e}"
        );
        // Rows 0.7 of the neighbour distance apart: neither lattice.
        let squashed: Vec<_> = centres(&board, 50.0)
            .into_iter()
            .map(|(x, y, p)| (x, y * 0.7, p))
            .collect();
        assert!(matches!(
            fit_lattice(&squashed),
            Err(OmerkelReadError::NoLattice(_))
        ));
    }

    #[test]
    fn a_blank_picture_has_no_disc() {
        let image = RgbaImage::from_pixel(300, 200, image::Rgba([20, 20, 60, 255]));
        assert_eq!(read_page(&image).unwrap_err(), OmerkelReadError::NoDisc);
        assert!(find_buttons(&image).is_empty());
    }
}
