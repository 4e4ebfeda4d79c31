//! Reading a PuzzleScript level off a screenshot of the reference page,
//! without calibration: the game's own sprites say what every cell shows.
//!
//! The page ([`super::page`]) fills its canvas with the background colour
//! and draws the level centred on it: cells are squares whose side is a
//! multiple of 5 pixels (each sprite pixel a block of side/5), every
//! object of a cell painted in object order (collision layer by layer),
//! `transparent` pixels and `.` leaving what is beneath. The canvas is the
//! page's game container: the whole width, from 3.5 em under the top to
//! 3 em over the bottom ([`canvas_candidates`] tries the usual font sizes).
//! The cell side and origin follow from the canvas and the level's size
//! by the engine's own formula ([`layout`]), and a candidate grid is
//! believed only when every one of its cells is a uniform 5x5 block
//! pattern that some stack of the game's objects paints ([`Look::explain`])
//! and the ring around it is background.
//!
//! A cell shows only what is on top: objects hidden under others, or that
//! paint nothing, cannot be seen. [`Look::explain`] therefore takes a hint
//! (the cell the engine predicted, or the level's start) and keeps it
//! whenever it paints exactly what is seen.
//!
//! Text screens (the title, messages between levels, a `message` command)
//! are drawn in the game's text colour on its background:
//! [`is_text_screen`].

use image::RgbaImage;

use super::bits;
use super::compile::{Game, Level};
use super::palette::{color, palette_of, Rgb};
use crate::play::Rect;

/// How one object paints: its collision layer and its 25 pixels, row by
/// row, `None` where transparent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sprite {
    /// The object's collision layer.
    pub layer: usize,
    /// The pixels, row by row.
    pub pixels: [Option<Rgb>; 25],
}

/// What a game looks like on the page: its background and text colours
/// and its objects' sprites.
#[derive(Debug, Clone)]
pub struct Look {
    /// The canvas's colour (`background_color`, black by default).
    pub background: Rgb,
    /// The text screens' colour (`text_color`, white by default).
    pub text: Rgb,
    /// `scanline`: every sprite pixel paints only the top half of its block.
    pub scanline: bool,
    /// Sprites by object id.
    pub sprites: Vec<Sprite>,
    /// Object ids of each collision layer, top layer first.
    layers_top_down: Vec<Vec<usize>>,
    words: usize,
}

/// The 25 colours of one cell, row by row.
pub type Cell = [Rgb; 25];

impl Look {
    /// The look of `game`, in its palette.
    pub fn of(game: &Game) -> Look {
        let palette = palette_of(game.metadata.get("color_palette").map(String::as_str));
        let meta = |key: &str, default: Rgb| {
            game.metadata
                .get(key)
                .and_then(|c| color(palette, c))
                .unwrap_or(default)
        };
        let sprites: Vec<Sprite> = game
            .objects
            .iter()
            .map(|o| {
                let colors: Vec<Option<Rgb>> = o.colors.iter().map(|c| color(palette, c)).collect();
                let mut pixels = [None; 25];
                for (k, p) in pixels.iter_mut().enumerate() {
                    *p = if o.sprite.is_empty() {
                        colors.first().copied().flatten()
                    } else {
                        let ch = o.sprite.get(k / 5).and_then(|r| r.chars().nth(k % 5));
                        ch.and_then(|c| c.to_digit(10))
                            .and_then(|d| colors.get(d as usize).copied().flatten())
                    };
                }
                Sprite {
                    layer: o.layer,
                    pixels,
                }
            })
            .collect();
        let mut layers_top_down = vec![Vec::new(); game.layers];
        for (id, s) in sprites.iter().enumerate() {
            layers_top_down[s.layer].push(id);
        }
        layers_top_down.reverse();
        Look {
            background: meta("background_color", [0, 0, 0]),
            text: meta("text_color", [255, 255, 255]),
            scanline: game.flag("scanline"),
            sprites,
            layers_top_down,
            words: game.object_words,
        }
    }

    /// The colours a cell holding `objects` shows.
    pub fn render(&self, objects: &[u64]) -> Cell {
        let mut out = [self.background; 25];
        for id in bits::ones(objects) {
            if let Some(s) = self.sprites.get(id) {
                for (o, p) in out.iter_mut().zip(&s.pixels) {
                    if let Some(c) = p {
                        *o = *c;
                    }
                }
            }
        }
        out
    }

    /// Objects that paint `seen`, one or none per collision layer: the
    /// hint's wherever it paints exactly `seen`, else a stack found layer
    /// by layer from the top, each object painting what is seen where
    /// nothing above it painted. `None` when no stack paints `seen`.
    pub fn explain(&self, seen: &Cell, hint: Option<&[u64]>) -> Option<Vec<u64>> {
        if let Some(h) = hint {
            if self.render(h) == *seen {
                return Some(h.to_vec());
            }
        }
        let mut chosen = bits::zero(self.words).to_vec();
        self.explain_from(seen, 0, 0, hint, &mut chosen)
            .then_some(chosen)
    }

    /// Layers `depth..` explain the pixels not in `covered` (a bit per
    /// pixel); on success their objects are in `chosen`.
    fn explain_from(
        &self,
        seen: &Cell,
        depth: usize,
        covered: u32,
        hint: Option<&[u64]>,
        chosen: &mut Vec<u64>,
    ) -> bool {
        let Some(layer) = self.layers_top_down.get(depth) else {
            return (0..25).all(|k| covered & (1 << k) != 0 || seen[k] == self.background);
        };
        let hinted = |id: usize| hint.is_some_and(|h| bits::get(h, id));
        // The hint's object first, then the others that show somewhere,
        // then none.
        let mut order: Vec<usize> = layer.iter().copied().filter(|&id| hinted(id)).collect();
        order.extend(layer.iter().copied().filter(|&id| !hinted(id)));
        for id in order {
            let s = &self.sprites[id];
            let mut adds = 0u32;
            let fits = (0..25).all(|k| match s.pixels[k] {
                Some(c) if covered & (1 << k) == 0 => {
                    adds |= 1 << k;
                    c == seen[k]
                }
                _ => true,
            });
            if !fits || (adds == 0 && !hinted(id)) {
                continue;
            }
            bits::set(chosen, id);
            if self.explain_from(seen, depth + 1, covered | adds, hint, chosen) {
                return true;
            }
            chosen[id / 64] &= !(1u64 << (id % 64));
        }
        self.explain_from(seen, depth + 1, covered, hint, chosen)
    }
}

/// Where a level is drawn: the top-left corner of its first cell, the
/// cell side, and the cells across and down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grid {
    /// Left edge of the first column, in image pixels.
    pub x: u32,
    /// Top edge of the first row.
    pub y: u32,
    /// Cell side in pixels (a multiple of 5).
    pub cell: u32,
    /// Cells across.
    pub width: usize,
    /// Cells down.
    pub height: usize,
}

impl Grid {
    /// The level's rectangle in image pixels.
    pub fn rect(&self) -> Rect {
        Rect {
            x: self.x,
            y: self.y,
            width: self.cell * self.width as u32,
            height: self.cell * self.height as u32,
        }
    }

    /// The centre of cell (`i`, `j`) (column, row) in image pixels.
    pub fn centre(&self, i: usize, j: usize) -> (f64, f64) {
        let c = f64::from(self.cell);
        (
            f64::from(self.x) + (i as f64 + 0.5) * c,
            f64::from(self.y) + (j as f64 + 0.5) * c,
        )
    }

    /// The colours of cell (`i`, `j`): each sprite pixel's block sampled
    /// at its centre and two corners (the top half only with `scanline`);
    /// `None` when a block is not one colour or lies off the image.
    pub fn cell_colors(
        &self,
        image: &RgbaImage,
        i: usize,
        j: usize,
        scanline: bool,
    ) -> Option<Cell> {
        let p = self.cell / 5;
        let ph = if scanline { p.div_ceil(2) } else { p };
        let (w, h) = image.dimensions();
        let x0 = self.x + i as u32 * self.cell;
        let y0 = self.y + j as u32 * self.cell;
        if x0 + self.cell > w || y0 + self.cell > h {
            return None;
        }
        let at = |x: u32, y: u32| {
            let q = image.get_pixel(x, y);
            [q[0], q[1], q[2]]
        };
        let mut out = [[0; 3]; 25];
        for (k, o) in out.iter_mut().enumerate() {
            let bx = x0 + (k as u32 % 5) * p;
            let by = y0 + (k as u32 / 5) * p;
            let c = at(bx + p / 2, by + (ph - 1) / 2);
            if at(bx, by) != c || at(bx + p - 1, by + ph - 1) != c {
                return None;
            }
            *o = c;
        }
        Some(out)
    }
}

/// The grid the engine draws a `width` x `height` screen of cells on, in
/// a canvas at `canvas` (x, y, width, height): its `canvasResize`.
pub fn layout(canvas: (u32, u32, u32, u32), width: usize, height: usize) -> Option<Grid> {
    let (cx, cy, cw, ch) = canvas;
    if width == 0 || height == 0 {
        return None;
    }
    let by_width = f64::from(cw) / width as f64;
    let by_height = f64::from(ch) / height as f64;
    let side = |v: f64| 5.0 * ((v / 5.0).floor()).max(1.0);
    let cell = side(by_width).min(side(by_height)) as u32;
    let xoff = (i64::from(cw) - i64::from(cell) * width as i64) / 2;
    let yoff = (i64::from(ch) - i64::from(cell) * height as i64) / 2;
    if xoff < 0 || yoff < 0 {
        return None;
    }
    Some(Grid {
        x: cx + xoff as u32,
        y: cy + yoff as u32,
        cell,
        width,
        height,
    })
}

/// Where the canvas may be in a screenshot of the page's window of size
/// `w` x `h`: the game container spans the width, from 3.5 em under the
/// top to 3 em over the bottom; the page's font is 16 pixels unless the
/// browser is set otherwise, so other sizes are tried after it.
pub fn canvas_candidates(w: u32, h: u32) -> Vec<(u32, u32, u32, u32)> {
    [16.0, 15.0, 17.0, 14.0, 18.0, 12.0, 13.0, 20.0, 24.0]
        .iter()
        .filter_map(|em: &f64| {
            let top = (3.5 * em).round() as u32;
            let bottom = (3.0 * em).round() as u32;
            (h > top + bottom + 5).then(|| (0, top, w, h - top - bottom))
        })
        .collect()
}

/// The cells a grid shows, column by column (the engine's cell order,
/// index `x * height + y`), or `None` when one of them is not a cell of
/// the game or the ring of pixels around the grid is not background.
pub fn read_cells(look: &Look, image: &RgbaImage, grid: &Grid) -> Option<Vec<Cell>> {
    if !ring_is_background(look, image, grid) {
        return None;
    }
    let mut cells = Vec::with_capacity(grid.width * grid.height);
    for i in 0..grid.width {
        for j in 0..grid.height {
            let c = grid.cell_colors(image, i, j, look.scanline)?;
            look.explain(&c, None)?;
            cells.push(c);
        }
    }
    // A canvas of background only (the page between two screens) is no
    // level.
    let blank = [look.background; 25];
    cells.iter().any(|c| *c != blank).then_some(cells)
}

/// True when the pixels just outside the grid (where inside the image)
/// are background.
fn ring_is_background(look: &Look, image: &RgbaImage, grid: &Grid) -> bool {
    let (w, h) = image.dimensions();
    let r = grid.rect();
    let bg = |x: u32, y: u32| {
        if x >= w || y >= h {
            return true;
        }
        let q = image.get_pixel(x, y);
        [q[0], q[1], q[2]] == look.background
    };
    let step = (grid.cell / 5).max(1) as usize;
    let left = r.x.checked_sub(1);
    let top = r.y.checked_sub(1);
    let right = r.x + r.width;
    let bottom = r.y + r.height;
    (r.y..bottom)
        .step_by(step)
        .all(|y| left.is_none_or(|x| bg(x, y)) && bg(right, y))
        && (r.x..right)
            .step_by(step)
            .all(|x| top.is_none_or(|y| bg(x, y)) && bg(x, bottom))
}

/// A level found on a screenshot: its grid and the colours of its cells.
#[derive(Debug, Clone)]
pub struct Seen {
    /// Where it is.
    pub grid: Grid,
    /// The cells' colours, column by column.
    pub cells: Vec<Cell>,
}

/// Finds a level of one of the sizes `sizes` (cells across and down,
/// the likeliest first) on `image`.
pub fn find_level(look: &Look, image: &RgbaImage, sizes: &[(usize, usize)]) -> Option<Seen> {
    let (w, h) = image.dimensions();
    for canvas in canvas_candidates(w, h) {
        for &(sw, sh) in sizes {
            let Some(grid) = layout(canvas, sw, sh) else {
                continue;
            };
            if let Some(cells) = read_cells(look, image, &grid) {
                return Some(Seen { grid, cells });
            }
        }
    }
    None
}

/// The sizes of the game's map levels, each once, in level order.
pub fn level_sizes(game: &Game) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for l in &game.levels {
        if let Level::Map { width, height, .. } = l {
            if !out.contains(&(*width, *height)) {
                out.push((*width, *height));
            }
        }
    }
    out
}

/// True when the page shows a text screen (the title or a message): the
/// canvas (the page's layout at its usual font size) holds only the
/// background and the text colour, and some of the latter.
pub fn is_text_screen(look: &Look, image: &RgbaImage) -> bool {
    let (w, h) = image.dimensions();
    let Some(&(x, y, cw, ch)) = canvas_candidates(w, h).first() else {
        return false;
    };
    let mut text = false;
    for yy in (y..y + ch).step_by(2) {
        for xx in (x..x + cw).step_by(2) {
            let q = image.get_pixel(xx, yy);
            let c = [q[0], q[1], q[2]];
            if c == look.text {
                text = true;
            } else if c != look.background {
                return false;
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puzzlescript::compile::compile;

    const GAME: &str = "OBJECTS\n\nBackground\ngreen\n\nTarget\nblue\n.....\n.000.\n.0.0.\n.000.\n.....\n\nPlayer\nred\n..0..\n.000.\n..0..\n.0.0.\n.....\n\nCrate\norange\n00000\n0...0\n0...0\n0...0\n00000\n\nWall\nbrown\n\nMarker\ntransparent\n\nLEGEND\n\n. = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nTarget, Marker\nPlayer, Wall, Crate\n\nRULES\n\n[ > Player | Crate ] -> [ > Player | > Crate ]\n\nWINCONDITIONS\n\nall crate on target\n\nLEVELS\n\n#####\n#P*O#\n#####\n";

    fn paint(look: &Look, grid: &Grid, cells: &[Vec<u64>], size: (u32, u32)) -> RgbaImage {
        let bg = look.background;
        let mut img =
            RgbaImage::from_pixel(size.0, size.1, image::Rgba([bg[0], bg[1], bg[2], 255]));
        let p = grid.cell / 5;
        for i in 0..grid.width {
            for j in 0..grid.height {
                let colors = look.render(&cells[i * grid.height + j]);
                for (k, c) in colors.iter().enumerate() {
                    for dy in 0..p {
                        for dx in 0..p {
                            let x = grid.x + i as u32 * grid.cell + (k as u32 % 5) * p + dx;
                            let y = grid.y + j as u32 * grid.cell + (k as u32 / 5) * p + dy;
                            img.put_pixel(x, y, image::Rgba([c[0], c[1], c[2], 255]));
                        }
                    }
                }
            }
        }
        img
    }

    #[test]
    fn the_engines_layout_centres_the_level() {
        // Microban's first level in an 800x600 window: 60-pixel cells.
        let g = layout((0, 56, 800, 496), 6, 7).unwrap();
        assert_eq!((g.x, g.y, g.cell), (190, 59, 70));
        let g = layout((0, 56, 800, 439), 6, 7).unwrap();
        assert_eq!((g.x, g.y, g.cell), (220, 65, 60));
    }

    #[test]
    fn a_painted_level_is_found_and_explained_with_its_hidden_objects_from_the_hint() {
        let game = compile(GAME).unwrap();
        let look = Look::of(&game);
        let Level::Map {
            width,
            height,
            cells,
            ..
        } = &game.levels[0]
        else {
            panic!()
        };
        let ow = game.object_words;
        let mut per_cell: Vec<Vec<u64>> = cells.chunks(ow).map(<[u64]>::to_vec).collect();
        // A transparent marker under the player: invisible.
        let marker = game
            .objects
            .iter()
            .position(|o| o.name == "marker")
            .unwrap();
        bits::set(&mut per_cell[height + 1], marker);
        let canvas = canvas_candidates(700, 500)[0];
        let grid = layout(canvas, *width, *height).unwrap();
        let image = paint(&look, &grid, &per_cell, (700, 500));
        let seen = find_level(&look, &image, &[(3, 3), (5, 3)]).unwrap();
        assert_eq!(seen.grid, grid);
        let plain = look.explain(&seen.cells[height + 1], None).unwrap();
        assert!(!bits::get(&plain, marker), "the marker cannot be seen");
        let hinted = look
            .explain(&seen.cells[height + 1], Some(&per_cell[height + 1]))
            .unwrap();
        assert_eq!(hinted, per_cell[height + 1]);
        for (k, c) in seen.cells.iter().enumerate() {
            assert_eq!(look.render(&look.explain(c, None).unwrap()), *c, "cell {k}");
        }
        assert!(!is_text_screen(&look, &image));
        // The page between two screens: only background, no level.
        let bg = look.background;
        let blank = RgbaImage::from_pixel(700, 500, image::Rgba([bg[0], bg[1], bg[2], 255]));
        assert!(find_level(&look, &blank, &[(5, 3)]).is_none());
    }
}
