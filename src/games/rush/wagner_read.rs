//! Reads a board off a screenshot of Luca Wagner's Rush Hour page
//! (`rush-wagnerluca/` of the shared games): HTML cars with rounded
//! corners, colour gradients, a letter and an emoji (a box without an
//! emoji font) over a grid of grey cells on a dark panel, an `EXIT` label
//! right of the board.
//!
//! What the board is, found in the image, at any place and size:
//! - the empty cells: squares of the cell grey (`#636e72`), which give the
//!   cell side and, by their spacing, the pitch of the grid;
//! - the panel (`#2d3436`) around the cells, which gives the grid's extent
//!   and so the number of cells on a side;
//! - each cell read at a point near its lower right corner (clear of the
//!   car's letter, top left, and its emoji, centred): grey is empty, a
//!   saturated colour is a car; two neighbouring car cells are one car when
//!   the gap between them is covered in the car's colour (two cars side by
//!   side leave the gap and a strip of the cells showing);
//! - the primary car by its hue (red), every other car lettered in reading
//!   order.
//!
//! When the red car reaches the exit the page drives it off the board to
//! the right (0.8 s) and then shows a message box over the board
//! (`Congratulations!`, a teal border and a teal `Next Level` button).
//! [`read`] refuses those frames ([`WagnerReadError::Exited`]);
//! [`read_exited`], given the last steady reading of the same window,
//! reads them as the solved position: the last position with the red car
//! driven to the exit, checked on every cell the message box does not hide.

use image::RgbaImage;
use imageproc::region_labelling::{connected_components, Connectivity};

use super::board::{MAX_SIZE, MIN_SIZE};
use super::parse::{parse_board, ParseError};
use super::read::Reading;
use crate::capture::colour::{chroma, max_channel_diff, rgb_at};
use crate::play::Rect;

/// The colour of an empty cell.
const CELL: [u8; 3] = [0x63, 0x6e, 0x72];
/// The colour of the panel under the cells.
const PANEL: [u8; 3] = [0x2d, 0x34, 0x36];
/// The colour of the win message's border and button.
const TEAL: [u8; 3] = [0x4e, 0xcc, 0xa3];
/// Chroma (max - min channel) above which a pixel is a car's.
const CAR_CHROMA: u8 = 40;

/// Why a screenshot could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WagnerReadError {
    /// No empty grid cells in the image.
    #[error("no Rush Hour board of Luca Wagner's page in the image (fewer than two empty cells of the cell grey #636e72)")]
    NoBoard,
    /// The cells found do not lie on one grid in a panel.
    #[error("no grid: {0}")]
    NoGrid(String),
    /// A cell of a colour that is neither empty nor a car.
    #[error("cell (row {0}, column {1}) is neither empty nor a car: colour {2:?} (covered?)")]
    UnknownCell(usize, usize, [u8; 3]),
    /// No red car, or more than one.
    #[error("{0} red cars on the board (one is the primary car)")]
    Primary(usize),
    /// The cells read do not make a board.
    #[error("the cells read do not make a board: {0}")]
    Board(#[from] ParseError),
    /// The red car is leaving or has left, or the win message is up.
    #[error("the puzzle is solved (the red car has left the board or the win message is shown); read it with the last steady frame")]
    Exited,
    /// A solved frame that does not agree with the last steady reading.
    #[error("the page shows a win that the last board read cannot explain: {0}")]
    ExitUnreadable(String),
}

/// The grid found in a screenshot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    /// Left and top of cell (0, 0), image pixels.
    pub first: (f64, f64),
    /// Side of a cell's grey square.
    pub side: f64,
    /// Distance from one cell to the next.
    pub pitch: f64,
    /// Cells on a side.
    pub size: usize,
    /// The panel around the cells.
    pub panel: Rect,
}

impl Grid {
    /// The point of cell (row, col) at fractions (fx, fy) of its square.
    fn at(&self, row: usize, col: usize, fx: f64, fy: f64) -> (f64, f64) {
        (
            self.first.0 + col as f64 * self.pitch + fx * self.side,
            self.first.1 + row as f64 * self.pitch + fy * self.side,
        )
    }

    /// The pixels across the gap right of (row, col), at fraction `fy`
    /// down the row.
    fn gap_right(&self, row: usize, col: usize, fy: f64) -> Vec<(f64, f64)> {
        let (x, y) = self.at(row, col, 1.0, fy);
        self.across_gap().map(|d| (x + d, y)).collect()
    }

    /// The pixels across the gap below (row, col), at fraction `fx` along
    /// the column.
    fn gap_below(&self, row: usize, col: usize, fx: f64) -> Vec<(f64, f64)> {
        let (x, y) = self.at(row, col, fx, 1.0);
        self.across_gap().map(|d| (x, y + d)).collect()
    }

    /// Offsets of the pixels of a gap from the end of the cell before it
    /// (at least one).
    fn across_gap(&self) -> impl Iterator<Item = f64> {
        let gap = (self.pitch - self.side).round().max(1.0) as usize;
        (0..gap).map(|d| d as f64 + 0.5)
    }

    /// The reading's origin: cell centres at origin + (k + 0.5) pitch.
    fn origin(&self) -> (f64, f64) {
        let half_gap = (self.pitch - self.side) / 2.0;
        (self.first.0 - half_gap, self.first.1 - half_gap)
    }
}

/// Where a cell is sampled, as fractions of its square: clear of the car's
/// letter (top left) and emoji (centred on the car), inside the car (cars
/// are a fifteenth narrower than their cells).
const SAMPLE: f64 = 0.8;

/// Bounding boxes of the 4-connected regions of pixels `keep` accepts.
fn regions(img: &RgbaImage, keep: impl Fn([u8; 3]) -> bool) -> Vec<(Rect, u32)> {
    let (w, h) = img.dimensions();
    let mask = image::GrayImage::from_fn(w, h, |x, y| {
        image::Luma([u8::from(keep(rgb_at(img, x, y)))])
    });
    let labels = connected_components(&mask, Connectivity::Four, image::Luma([0u8]));
    // Per label: left, top, right, bottom, pixels.
    type Extent = (u32, u32, u32, u32, u32);
    let mut boxes: Vec<Option<Extent>> = Vec::new();
    for (x, y, l) in labels.enumerate_pixels() {
        let l = l[0] as usize;
        if l == 0 {
            continue;
        }
        if boxes.len() <= l {
            boxes.resize(l + 1, None);
        }
        let b = boxes[l].get_or_insert((x, y, x, y, 0));
        *b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y), b.4 + 1);
    }
    boxes
        .into_iter()
        .flatten()
        .map(|(x0, y0, x1, y1, n)| {
            let r = Rect {
                x: x0,
                y: y0,
                width: x1 + 1 - x0,
                height: y1 + 1 - y0,
            };
            (r, n)
        })
        .collect()
}

/// The empty cells: solid squares of the cell grey, all of one size.
fn empty_cells(img: &RgbaImage) -> Vec<Rect> {
    let mut squares: Vec<Rect> = regions(img, |c| max_channel_diff(c, CELL) <= 10)
        .into_iter()
        .filter(|(r, n)| {
            r.width >= 12
                && r.width.abs_diff(r.height) <= 1 + r.width / 60
                && u64::from(*n) * 100 >= u64::from(r.width) * u64::from(r.height) * 90
        })
        .map(|(r, _)| r)
        .collect();
    if squares.is_empty() {
        return squares;
    }
    let mut sides: Vec<u32> = squares.iter().map(|r| r.width).collect();
    sides.sort_unstable();
    let side = sides[sides.len() / 2];
    squares.retain(|r| r.width.abs_diff(side) <= 2);
    squares
}

/// The pitch of the grid from the lefts (or tops) of the empty cells:
/// the smallest spacing of at least a cell, divided by the cells it spans
/// (gaps are less than half a cell), then averaged over every spacing that
/// falls on that lattice (a cell partly in a car's shadow is off it).
fn pitch_of(starts: &[u32], side: f64) -> Option<f64> {
    let mut s: Vec<u32> = starts.to_vec();
    s.sort_unstable();
    s.dedup_by(|a, b| a.abs_diff(*b) <= 2);
    let spacing = |a: u32, b: u32| f64::from(b - a);
    let smallest = s
        .iter()
        .flat_map(|&a| {
            s.iter()
                .filter(move |&&b| b > a)
                .map(move |&b| spacing(a, b))
        })
        .filter(|&d| d >= side * 0.95)
        .min_by(f64::total_cmp)?;
    let guess = smallest / (smallest / side).floor().max(1.0);
    let (mut sum, mut steps) = (0.0, 0.0);
    for (i, &a) in s.iter().enumerate() {
        for &b in &s[i + 1..] {
            let d = spacing(a, b);
            let k = (d / guess).round();
            if k >= 1.0 && (d - k * guess).abs() <= 3.0 {
                sum += d;
                steps += k;
            }
        }
    }
    Some(sum / steps)
}

/// Finds the grid: the empty cells, their pitch, the panel around them.
pub fn find_grid(img: &RgbaImage) -> Result<Grid, WagnerReadError> {
    let cells = empty_cells(img);
    if cells.len() < 2 {
        return Err(WagnerReadError::NoBoard);
    }
    let side = cells.iter().map(|r| r.width as f64).sum::<f64>() / cells.len() as f64;
    let lefts: Vec<u32> = cells.iter().map(|r| r.x).collect();
    let tops: Vec<u32> = cells.iter().map(|r| r.y).collect();
    let pitch = match (pitch_of(&lefts, side), pitch_of(&tops, side)) {
        (Some(a), Some(b)) if (a - b).abs() <= 1.5 => (a + b) / 2.0,
        (Some(a), None) | (None, Some(a)) => a,
        (Some(a), Some(b)) => {
            return Err(WagnerReadError::NoGrid(format!(
                "the empty cells are {a:.1} px apart across and {b:.1} px down"
            )))
        }
        (None, None) => {
            return Err(WagnerReadError::NoGrid(
                "all empty cells in one place".into(),
            ))
        }
    };
    if pitch < side || pitch > side * 1.5 {
        return Err(WagnerReadError::NoGrid(format!(
            "cells of {side:.0} px at a pitch of {pitch:.1} px"
        )));
    }
    let panel = panel_around(img, cells[0])?;
    let axis = |start: u32, lo: u32, len: u32| -> (f64, usize) {
        let before = ((start - lo) as f64 / pitch).floor();
        let first = start as f64 - before * pitch;
        let pad = first - lo as f64;
        let inner = len as f64 - 2.0 * pad + (pitch - side);
        (first, (inner / pitch).round().max(0.0) as usize)
    };
    let (fx, cols) = axis(cells[0].x, panel.x, panel.width);
    let (fy, rows) = axis(cells[0].y, panel.y, panel.height);
    if cols != rows || !(MIN_SIZE..=MAX_SIZE).contains(&cols) {
        return Err(WagnerReadError::NoGrid(format!(
            "{cols} x {rows} cells of {side:.0} px in a panel of {}x{} px (a square of {MIN_SIZE} to {MAX_SIZE} is wanted)",
            panel.width, panel.height
        )));
    }
    Ok(Grid {
        first: (fx, fy),
        side,
        pitch,
        size: cols,
        panel,
    })
}

/// The panel: the region of the panel colour that encloses `cell`.
fn panel_around(img: &RgbaImage, cell: Rect) -> Result<Rect, WagnerReadError> {
    regions(img, |c| max_channel_diff(c, PANEL) <= 6)
        .into_iter()
        .map(|(r, _)| r)
        .filter(|r| {
            r.x < cell.x
                && r.y < cell.y
                && r.x + r.width > cell.x + cell.width
                && r.y + r.height > cell.y + cell.height
        })
        .min_by_key(|r| u64::from(r.width) * u64::from(r.height))
        .ok_or_else(|| WagnerReadError::NoGrid("no panel around the cells".into()))
}

/// The mean colour of the 3x3 pixels around (x, y).
fn patch(img: &RgbaImage, (x, y): (f64, f64)) -> [u8; 3] {
    let (w, h) = img.dimensions();
    let mut sum = [0u32; 3];
    for dy in -1..=1i64 {
        for dx in -1..=1i64 {
            let px = (x.round() as i64 + dx).clamp(0, w as i64 - 1) as u32;
            let py = (y.round() as i64 + dy).clamp(0, h as i64 - 1) as u32;
            let c = rgb_at(img, px, py);
            for k in 0..3 {
                sum[k] += u32::from(c[k]);
            }
        }
    }
    sum.map(|s| (s / 9) as u8)
}

/// Hue in degrees (0 to 360) of a colour.
fn hue(c: [u8; 3]) -> f64 {
    let [r, g, b] = c.map(f64::from);
    let max = r.max(g).max(b);
    let d = max - r.min(g).min(b);
    if d == 0.0 {
        return 0.0;
    }
    let h = if max == r {
        ((g - b) / d).rem_euclid(6.0)
    } else if max == g {
        (b - r) / d + 2.0
    } else {
        (r - g) / d + 4.0
    };
    h * 60.0
}

/// True for the red of the primary car (the other cars are orange, pink,
/// brown, yellow, green, blue, purple, cyan or lime).
fn is_red(c: [u8; 3]) -> bool {
    let h = hue(c);
    chroma(c) >= 80 && !(14.0..=345.0).contains(&h)
}

/// What a cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Empty,
    Car([u8; 3]),
}

/// True for the cell grey, also darkened by the shadow of a car under
/// the pointer (the page shades a hovered car's surroundings).
fn is_cell_grey(c: [u8; 3]) -> bool {
    let t = (c.iter().map(|&v| f64::from(v)).sum::<f64>()
        / CELL.iter().map(|&v| f64::from(v)).sum::<f64>())
    .clamp(0.55, 1.05);
    max_channel_diff(c, CELL.map(|v| (f64::from(v) * t).round() as u8)) <= 10
}

fn classify(c: [u8; 3]) -> Option<Kind> {
    if is_cell_grey(c) {
        Some(Kind::Empty)
    } else if chroma(c) >= CAR_CHROMA {
        Some(Kind::Car(c))
    } else {
        None
    }
}

/// Reads the cells of `grid`, in reading order.
fn read_kinds(img: &RgbaImage, grid: &Grid) -> Result<Vec<Kind>, WagnerReadError> {
    let n = grid.size;
    let mut kinds = Vec::with_capacity(n * n);
    for r in 0..n {
        for c in 0..n {
            let colour = patch(img, grid.at(r, c, SAMPLE, SAMPLE));
            kinds.push(classify(colour).ok_or(WagnerReadError::UnknownCell(r, c, colour))?);
        }
    }
    Ok(kinds)
}

/// True when every pixel across a gap is covered by a car (one car runs
/// across it). Single pixels: a gap may be two pixels wide.
fn bridged(img: &RgbaImage, gap: &[(f64, f64)]) -> bool {
    let (w, h) = img.dimensions();
    gap.iter().all(|&(x, y)| {
        let (px, py) = (x.floor().max(0.0) as u32, y.floor().max(0.0) as u32);
        px < w && py < h && chroma(rgb_at(img, px, py)) >= CAR_CHROMA
    })
}

/// The board text of the cells: cars joined across covered gaps, the red
/// one `A`, the others lettered from `B` in reading order.
fn board_text(img: &RgbaImage, grid: &Grid, kinds: &[Kind]) -> Result<String, WagnerReadError> {
    let n = grid.size;
    let mut label = vec![0usize; n * n];
    let mut cars: Vec<Vec<usize>> = Vec::new();
    for i in 0..n * n {
        if kinds[i] == Kind::Empty || label[i] != 0 {
            continue;
        }
        cars.push(vec![i]);
        let id = cars.len();
        label[i] = id;
        let mut stack = vec![i];
        while let Some(j) = stack.pop() {
            let (r, c) = (j / n, j % n);
            let mut links = Vec::new();
            if c + 1 < n {
                links.push((j + 1, grid.gap_right(r, c, SAMPLE)));
            }
            if c > 0 {
                links.push((j - 1, grid.gap_right(r, c - 1, SAMPLE)));
            }
            if r + 1 < n {
                links.push((j + n, grid.gap_below(r, c, SAMPLE)));
            }
            if r > 0 {
                links.push((j - n, grid.gap_below(r - 1, c, SAMPLE)));
            }
            for (k, p) in links {
                if kinds[k] != Kind::Empty && label[k] == 0 && bridged(img, &p) {
                    label[k] = id;
                    cars[id - 1].push(k);
                    stack.push(k);
                }
            }
        }
    }
    let red: Vec<usize> = cars
        .iter()
        .enumerate()
        .filter(|(_, cells)| {
            cells
                .iter()
                .all(|&i| matches!(kinds[i], Kind::Car(c) if is_red(c)))
        })
        .map(|(k, _)| k + 1)
        .collect();
    if red.len() != 1 {
        return Err(WagnerReadError::Primary(red.len()));
    }
    let mut letter = vec![0u8; cars.len() + 1];
    let mut next = b'B';
    let text: String = (0..n * n)
        .map(|i| match label[i] {
            0 => 'o',
            id if id == red[0] => 'A',
            id => {
                if letter[id] == 0 {
                    letter[id] = next;
                    next = next.saturating_add(1);
                }
                letter[id] as char
            }
        })
        .collect();
    Ok(text)
}

/// The win message's box: the largest region of its teal border, at
/// least a third of the board wide, overlapping `panel` (the board).
pub fn message_box(img: &RgbaImage, panel: Rect) -> Option<Rect> {
    regions(img, |c| max_channel_diff(c, TEAL) <= 24)
        .into_iter()
        .map(|(r, _)| r)
        .filter(|r| {
            r.width * 3 >= panel.width
                && r.x < panel.x + panel.width
                && r.x + r.width > panel.x
                && r.y < panel.y + panel.height
                && r.y + r.height > panel.y
        })
        .max_by_key(|r| u64::from(r.width) * u64::from(r.height))
}

/// The win message's button: the largest solid teal region inside the
/// box over `panel` (the board).
pub fn next_level_button(img: &RgbaImage, panel: Rect) -> Option<Rect> {
    let b = message_box(img, panel)?;
    regions(img, |c| max_channel_diff(c, TEAL) <= 24)
        .into_iter()
        .filter(|(r, n)| {
            *r != b
                && r.x > b.x
                && r.y > b.y
                && r.x + r.width < b.x + b.width
                && r.y + r.height < b.y + b.height
                && u64::from(*n) * 2 >= u64::from(r.width) * u64::from(r.height)
        })
        .map(|(r, _)| r)
        .max_by_key(|r| u64::from(r.width) * u64::from(r.height))
}

/// True when a car's worth of red lies right of the panel, level with row
/// `row`: the primary car driving out (a column of red at least half a
/// cell tall; the red `EXIT` label is a line of text, far shorter).
fn red_beyond(img: &RgbaImage, grid: &Grid, row: usize) -> bool {
    let (w, h) = img.dimensions();
    let top = grid.at(row, 0, 0.0, 0.0).1.max(0.0) as u32;
    let bottom = (top + grid.side as u32).min(h);
    let x0 = grid.panel.x + grid.panel.width;
    (x0..w).step_by(2).any(|x| {
        let mut run = 0u32;
        (top..bottom).any(|y| {
            run = if is_red(rgb_at(img, x, y)) {
                run + 1
            } else {
                0
            };
            f64::from(run) >= grid.side / 2.0
        })
    })
}

/// Reads the board in `img` (a steady frame with the red car on the
/// board), with the grid it was found on.
pub fn read_with_grid(img: &RgbaImage) -> Result<(Reading, Grid), WagnerReadError> {
    let grid = find_grid(img)?;
    log::debug!("Wagner's page: {grid:?}");
    if message_box(img, grid.panel).is_some() || (0..grid.size).any(|r| red_beyond(img, &grid, r)) {
        return Err(WagnerReadError::Exited);
    }
    let kinds = read_kinds(img, &grid)?;
    log::trace!("cells: {kinds:?}");
    let text = board_text(img, &grid, &kinds)?;
    let (board, position) = parse_board(&text)?;
    let reading = Reading {
        board,
        position,
        text,
        origin: grid.origin(),
        cell: grid.pitch,
    };
    Ok((reading, grid))
}

/// Reads the board in `img` (a steady frame with the red car on the board).
pub fn read(img: &RgbaImage) -> Result<Reading, WagnerReadError> {
    read_with_grid(img).map(|(r, _)| r)
}

/// True when `p` lies in `r`.
fn inside(r: Rect, (x, y): (f64, f64)) -> bool {
    x >= f64::from(r.x)
        && y >= f64::from(r.y)
        && x < f64::from(r.x + r.width)
        && y < f64::from(r.y + r.height)
}

fn refuse<T>(why: String) -> Result<T, WagnerReadError> {
    Err(WagnerReadError::ExitUnreadable(why))
}

/// Reads a frame of the solved puzzle (the red car leaving or gone, or the
/// win message up) given `last`, the last steady reading of the same
/// window, and its `grid`: the result is `last` with the red car driven
/// to the exit, which must have had a free run there. The frame must show
/// the win message or the red car leaving; every cell that reads clearly
/// (not under the message box or darkened by its shadow) must be empty or
/// a car as that position has it.
pub fn read_exited(
    img: &RgbaImage,
    last: &Reading,
    grid: &Grid,
) -> Result<Reading, WagnerReadError> {
    let board = &last.board;
    let goal = board.goal_offset();
    let a = last.position.get(0);
    if a != goal && board.exit_path(a) & board.occupied(last.position) != 0 {
        return refuse(format!("in {} the red car's way out is blocked", last.text));
    }
    let solved = last.position.with(0, goal);
    let text = board.to_text(solved);
    let shown = message_box(img, grid.panel);
    let primary_row = board.pieces()[0].line as usize;
    if shown.is_none() && !red_beyond(img, grid, primary_row) {
        return refuse("no win message and no red car leaving the board".into());
    }
    let n = grid.size;
    for r in 0..n {
        for c in 0..n {
            let want = text.as_bytes()[r * n + c];
            let p = grid.at(r, c, SAMPLE, SAMPLE);
            let under = shown.is_some_and(|b| inside(b, p));
            // The red car's own cells: it may be there or already gone.
            let Some(k) = classify(patch(img, p)).filter(|_| want != b'A' && !under) else {
                continue;
            };
            let empty = k == Kind::Empty;
            if empty != (want == b'o') {
                let (seen, wanted) = if empty {
                    ("empty", "a car")
                } else {
                    ("a car", "empty")
                };
                return refuse(format!(
                    "cell (row {r}, column {c}) is {seen}, {text} has {wanted} there"
                ));
            }
        }
    }
    Ok(Reading {
        board: board.clone(),
        position: solved,
        text,
        origin: last.origin,
        cell: last.cell,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hues_pick_the_red_car_only() {
        for red in [[0xe7, 0x4c, 0x3c], [0xc0, 0x39, 0x2b], [0xd3, 0x42, 0x33]] {
            assert!(is_red(red), "{red:?}");
        }
        for other in [
            [0xe6, 0x7e, 0x22], // orange
            [0xd3, 0x54, 0x00],
            [0xa0, 0x52, 0x2d], // brown
            [0x8b, 0x45, 0x13],
            [0xfd, 0x79, 0xa8], // pink
            [0xe8, 0x43, 0x93],
            [0xf1, 0xc4, 0x0f], // yellow
            [0x63, 0x6e, 0x72], // a cell
        ] {
            assert!(!is_red(other), "{other:?}");
        }
    }

    fn fixture(name: &str) -> RgbaImage {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/rush");
        image::open(root.join(name)).unwrap().to_rgba8()
    }

    /// A window dragged over part of the board, or a page that is not
    /// Wagner's: refused, never misread.
    #[test]
    fn covered_boards_and_other_pages_are_refused() {
        let mut image = fixture("wagnerluca-level1-window800x800.png");
        let (grid_x, grid_y) = (214 + 3 * 62, 256 + 2 * 62);
        for y in grid_y..grid_y + 200 {
            for x in grid_x..grid_x + 300 {
                image.put_pixel(x, y, image::Rgba([0xd6, 0xd6, 0xd6, 255]));
            }
        }
        let e = read(&image).unwrap_err();
        assert!(
            matches!(
                e,
                WagnerReadError::NoGrid(_) | WagnerReadError::UnknownCell(..)
            ),
            "{e}"
        );
        let fogleman = fixture("hardest51-window800x800.png");
        assert_eq!(read(&fogleman).unwrap_err(), WagnerReadError::NoBoard);
    }

    /// A win frame is read only with a last board whose red car could
    /// have driven out; and a steady frame is no win.
    #[test]
    fn win_frames_need_a_last_board_that_explains_them() {
        let start = fixture("wagnerluca-level1-window800x800.png");
        let won = fixture("wagnerluca-won-screen1280x1024.png");
        let moved = fixture("wagnerluca-level1-moved-screen1280x1024.png");
        assert_eq!(read(&won).unwrap_err(), WagnerReadError::NoBoard);
        let (blocked, grid) = read_with_grid(&start).unwrap();
        let e = read_exited(&won, &blocked, &grid).unwrap_err();
        assert!(e.to_string().contains("blocked"), "{e}");
        let (last, grid) = read_with_grid(&moved).unwrap();
        let r = read_exited(&won, &last, &grid).unwrap();
        assert!(r.board.is_solved(r.position));
        let e = read_exited(&moved, &last, &grid).unwrap_err();
        assert!(e.to_string().contains("no win message"), "{e}");
    }

    #[test]
    fn pitches_come_from_spacings_of_several_cells() {
        assert_eq!(pitch_of(&[10, 72, 134], 60.0), Some(62.0));
        // Only every other column empty.
        assert_eq!(pitch_of(&[10, 134, 258], 60.0), Some(62.0));
        assert_eq!(pitch_of(&[10, 11], 60.0), None);
    }
}
