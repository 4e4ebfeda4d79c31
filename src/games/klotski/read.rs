//! Reading GNOME Klotski's window: the board of a known puzzle (the window
//! title names it) found by what it is, at any window size.
//!
//! The game draws the board inside a thin dark frame on the window's light
//! background, `width x tile + 3` by `height x tile + 3` pixels, the cells
//! starting 3 pixels inside it (the tile size follows the window). The
//! reader finds that frame (the largest rectangle whose four sides are
//! long grey lines), takes the tile size from its width and checks it
//! against its height, then reads each cell that is not a wall of the
//! puzzle's map: a block's tile is blue (walls are drawn with the same
//! tiles, so the wall cells of the map must read blue too, or the reading
//! is refused as not this puzzle), the floor is the light background, the
//! goal and the exit are green. Two neighbouring block cells are one block
//! when the blue runs on across their border (separate blocks leave a gap
//! and a shadow between them). The target is the block of the target's
//! shape; when another block has that shape too, the one whose cells carry
//! the target's marks (a small pyramid or green square near each cell's
//! centre) is the target.
//!
//! What is read must be a position of the puzzle: the blocks' shapes and
//! numbers those of its map ([`Board::position_of`]); anything else is
//! refused, never guessed.

use image::RgbaImage;

use super::board::{BlockSpec, Board, BoardError, Floor, Position, TARGET};
use crate::play::Rect;

/// Why a screenshot is not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// No frame of four long grey lines.
    #[error("no Klotski board: no frame of four long lines around a board on this image")]
    NoFrame,
    /// The frame's sides do not fit the puzzle's map.
    #[error("the frame ({0}x{1} px) does not fit a {2}x{3} map: not this puzzle, or the window is too small")]
    Size(u32, u32, usize, usize),
    /// The map's walls do not read as walls.
    #[error("only {0} of the puzzle's {1} wall cells look like walls: not this puzzle's board")]
    Walls(usize, usize),
    /// The target cannot be told apart.
    #[error("unsure which block is the target ({0} blocks of its shape, marks on {1})")]
    Target(usize, usize),
    /// The blocks read are not a position of the puzzle.
    #[error("the blocks read are not a position of this puzzle: {0}")]
    Board(#[from] BoardError),
}

/// Where the board is on the image.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometry {
    /// The frame, in image pixels.
    pub frame: Rect,
    /// The top-left corner of cell (0, 0).
    pub origin: (f64, f64),
    /// The tile side, pixels.
    pub tile: f64,
}

impl Geometry {
    /// The image point at fraction `(fx, fy)` of cell `(x, y)`.
    pub fn point(&self, x: usize, y: usize, fx: f64, fy: f64) -> (f64, f64) {
        (
            self.origin.0 + (x as f64 + fx) * self.tile,
            self.origin.1 + (y as f64 + fy) * self.tile,
        )
    }
}

/// A board read off an image.
#[derive(Debug, Clone)]
pub struct Reading {
    /// Where it is.
    pub geometry: Geometry,
    /// The position it shows.
    pub position: Position,
}

fn px(image: &RgbaImage, (x, y): (f64, f64)) -> [u8; 3] {
    let x = (x.max(0.0) as u32).min(image.width() - 1);
    let y = (y.max(0.0) as u32).min(image.height() - 1);
    let p = image.get_pixel(x, y).0;
    [p[0], p[1], p[2]]
}

/// A pixel of a block's (or a wall's) tile: clearly blue.
fn blue(p: [u8; 3]) -> bool {
    let [r, g, b] = p.map(i32::from);
    b - r > 40 && b - g > 15
}

/// A pixel of the frame's line: grey, darker than the background.
fn line(p: [u8; 3]) -> bool {
    let (lo, hi) = (p.iter().min().copied(), p.iter().max().copied());
    matches!((lo, hi), (Some(lo), Some(hi)) if hi < 200 && hi - lo < 25)
}

/// Shortest side of the frame looked for, pixels.
const MIN_SIDE: u32 = 60;

/// The largest rectangle whose four sides are grey lines.
pub fn find_frame(image: &RgbaImage) -> Option<Rect> {
    let (w, h) = image.dimensions();
    let at = |x: u32, y: u32| {
        let p = image.get_pixel(x, y).0;
        line([p[0], p[1], p[2]])
    };
    // Horizontal runs of line pixels at least MIN_SIDE long.
    let mut runs: Vec<(u32, u32, u32)> = Vec::new();
    for y in 0..h {
        let mut x = 0;
        while x < w {
            if !at(x, y) {
                x += 1;
                continue;
            }
            let x0 = x;
            while x < w && at(x, y) {
                x += 1;
            }
            if x - x0 >= MIN_SIDE {
                runs.push((y, x0, x - 1));
            }
        }
    }
    let column = |x: u32, y0: u32, y1: u32| {
        let n = (y0..=y1).filter(|&y| at(x, y)).count() as u32;
        n * 10 >= (y1 - y0 + 1) * 9
    };
    let mut best: Option<Rect> = None;
    for (i, &(y0, a0, a1)) in runs.iter().enumerate() {
        for &(y1, b0, b1) in &runs[i + 1..] {
            if y1 < y0 + MIN_SIDE || a0.abs_diff(b0) > 1 || a1.abs_diff(b1) > 1 {
                continue;
            }
            let (x0, x1) = (a0.min(b0), a1.max(b1));
            let area = (x1 - x0 + 1) * (y1 - y0 + 1);
            if best.is_some_and(|b| b.width * b.height >= area) {
                continue;
            }
            if column(x0, y0, y1) && column(x1, y0, y1) {
                best = Some(Rect {
                    x: x0,
                    y: y0,
                    width: x1 - x0 + 1,
                    height: y1 - y0 + 1,
                });
            }
        }
    }
    best
}

/// The geometry of `board` in `frame`: the tile from the width, checked
/// against the height.
fn geometry(frame: Rect, board: &Board) -> Result<Geometry, ReadError> {
    let (w, h) = (board.width() as f64, board.height() as f64);
    let tile_w = (frame.width as f64 - 4.0) / w;
    let tile_h = (frame.height as f64 - 4.0) / h;
    if tile_w < 8.0 || (tile_w - tile_h).abs() > 1.5 {
        return Err(ReadError::Size(
            frame.width,
            frame.height,
            board.width(),
            board.height(),
        ));
    }
    let tile = tile_w.round();
    Ok(Geometry {
        frame,
        origin: (frame.x as f64 + 3.0, frame.y as f64 + 3.0),
        tile,
    })
}

/// True when at least three of four points inside cell `(x, y)` are blue.
fn occupied(image: &RgbaImage, g: &Geometry, x: usize, y: usize) -> bool {
    [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]
        .iter()
        .filter(|&&(fx, fy)| blue(px(image, g.point(x, y, fx, fy))))
        .count()
        >= 3
}

/// True when the blue runs on across the border between cell `(x, y)` and
/// its neighbour `(dx, dy)` further (right or down).
fn joined(image: &RgbaImage, g: &Geometry, x: usize, y: usize, right: bool) -> bool {
    let reach = (g.tile * 0.08).max(2.0);
    [0.4, 0.7].iter().all(|&f| {
        (-2..=2).all(|k| {
            let d = k as f64 * reach / 2.0;
            let p = if right {
                g.point(x + 1, y, 0.0, f)
            } else {
                g.point(x, y + 1, f, 0.0)
            };
            let p = if right {
                (p.0 + d, p.1)
            } else {
                (p.0, p.1 + d)
            };
            blue(px(image, p))
        })
    })
}

/// True when cell `(x, y)` carries the target's mark near its centre: a
/// spread of brightness a plain tile does not have.
fn marked(image: &RgbaImage, g: &Geometry, x: usize, y: usize) -> bool {
    let (mut lo, mut hi) = (u32::MAX, 0u32);
    for i in 0..8 {
        for j in 0..8 {
            let (fx, fy) = (0.31 + 0.03 * i as f64, 0.31 + 0.03 * j as f64);
            let p = px(image, g.point(x, y, fx, fy));
            let l = p.iter().map(|&c| c as u32).sum::<u32>();
            lo = lo.min(l);
            hi = hi.max(l);
        }
    }
    hi - lo > 120
}

/// Reads the position of `board` (the puzzle the window shows) off `image`.
pub fn read(image: &RgbaImage, board: &Board) -> Result<Reading, ReadError> {
    let frame = find_frame(image).ok_or(ReadError::NoFrame)?;
    let g = geometry(frame, board)?;
    let (w, h) = (board.width(), board.height());
    let walls: Vec<(usize, usize)> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| board.floor(x, y) == Floor::Wall)
        .collect();
    let wall_blue = walls
        .iter()
        .filter(|&&(x, y)| occupied(image, &g, x, y))
        .count();
    if wall_blue * 10 < walls.len() * 9 {
        return Err(ReadError::Walls(wall_blue, walls.len()));
    }
    let full: Vec<bool> = (0..w * h)
        .map(|c| board.floor(c % w, c / w) != Floor::Wall && occupied(image, &g, c % w, c / w))
        .collect();
    // Blocks: the cells joined to each other.
    let mut block_of = vec![usize::MAX; w * h];
    let mut blocks: Vec<Vec<(usize, usize)>> = Vec::new();
    for start in 0..w * h {
        if !full[start] || block_of[start] != usize::MAX {
            continue;
        }
        let id = blocks.len();
        block_of[start] = id;
        let mut cells = vec![];
        let mut stack = vec![start];
        while let Some(c) = stack.pop() {
            let (x, y) = (c % w, c / w);
            cells.push((x, y));
            let mut next = Vec::new();
            if x + 1 < w && joined(image, &g, x, y, true) {
                next.push(c + 1);
            }
            if x > 0 && joined(image, &g, x - 1, y, true) {
                next.push(c - 1);
            }
            if y + 1 < h && joined(image, &g, x, y, false) {
                next.push(c + w);
            }
            if y > 0 && joined(image, &g, x, y - 1, false) {
                next.push(c - w);
            }
            for n in next {
                if full[n] && block_of[n] == usize::MAX {
                    block_of[n] = id;
                    stack.push(n);
                }
            }
        }
        blocks.push(cells);
    }
    let target = find_target(image, &g, board, &blocks)?;
    let specs: Vec<BlockSpec> = blocks
        .into_iter()
        .enumerate()
        .map(|(i, cells)| BlockSpec {
            name: if i == target {
                TARGET
            } else {
                char::from_u32(0x100 + i as u32).unwrap_or('?')
            },
            cells,
        })
        .collect();
    let position = board.position_of(&specs)?;
    Ok(Reading {
        geometry: g,
        position,
    })
}

/// The index of the target among `blocks`: the only one of the target's
/// shape, or the one of that shape with the most marked cells.
fn find_target(
    image: &RgbaImage,
    g: &Geometry,
    board: &Board,
    blocks: &[Vec<(usize, usize)>],
) -> Result<usize, ReadError> {
    let shape = board.target_shape();
    let candidates: Vec<usize> = (0..blocks.len())
        .filter(|&i| super::board::shape_of(&blocks[i]) == shape)
        .collect();
    if candidates.len() == 1 {
        return Ok(candidates[0]);
    }
    let marks: Vec<usize> = candidates
        .iter()
        .map(|&i| {
            blocks[i]
                .iter()
                .filter(|&&(x, y)| marked(image, g, x, y))
                .count()
        })
        .collect();
    let with_marks: Vec<usize> = (0..candidates.len())
        .filter(|&k| marks[k] * 2 > shape.len())
        .collect();
    match with_marks.as_slice() {
        [k] => Ok(candidates[*k]),
        _ => Err(ReadError::Target(candidates.len(), with_marks.len())),
    }
}
