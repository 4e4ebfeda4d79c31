//! A picture of a Fling! board for the designer: the grid, the balls, the
//! winning first moves as arrows, and the cells where adding or removing a
//! ball changes solvability (green where the change makes the board
//! winnable, red where it makes it unwinnable).

use image::{Rgba, RgbaImage};
use imageproc::drawing::{
    draw_filled_circle_mut, draw_filled_rect_mut, draw_hollow_rect_mut, draw_line_segment_mut,
    draw_polygon_mut,
};
use imageproc::point::Point;
use imageproc::rect::Rect;

use super::analyse::Change;
use super::rules::{coords, Board, Move, HEIGHT, WIDTH};

/// Pixels per cell.
pub const CELL_PX: u32 = 64;
const MARGIN: u32 = 16;

const BACKGROUND: Rgba<u8> = Rgba([24, 32, 72, 255]);
const GRID: Rgba<u8> = Rgba([90, 100, 150, 255]);
const BALL: Rgba<u8> = Rgba([250, 200, 40, 255]);
const ARROW: Rgba<u8> = Rgba([255, 255, 255, 255]);
const TO_WINNABLE: Rgba<u8> = Rgba([40, 150, 70, 255]);
const TO_UNWINNABLE: Rgba<u8> = Rgba([170, 40, 40, 255]);

fn centre(cell: usize) -> (f32, f32) {
    let (x, y) = coords(cell);
    (
        (MARGIN + x as u32 * CELL_PX + CELL_PX / 2) as f32,
        (MARGIN + y as u32 * CELL_PX + CELL_PX / 2) as f32,
    )
}

/// Draws `board` with `moves` as arrows and `changes` highlighted.
pub fn draw(board: Board, moves: &[Move], changes: &[Change]) -> RgbaImage {
    let w = 2 * MARGIN + WIDTH as u32 * CELL_PX;
    let h = 2 * MARGIN + HEIGHT as u32 * CELL_PX;
    let mut img = RgbaImage::from_pixel(w, h, BACKGROUND);
    for c in changes {
        let (x, y) = coords(c.cell as usize);
        let colour = if c.solvable_after {
            TO_WINNABLE
        } else {
            TO_UNWINNABLE
        };
        draw_filled_rect_mut(
            &mut img,
            Rect::at(
                (MARGIN + x as u32 * CELL_PX) as i32,
                (MARGIN + y as u32 * CELL_PX) as i32,
            )
            .of_size(CELL_PX, CELL_PX),
            colour,
        );
    }
    for y in 0..HEIGHT as u32 {
        for x in 0..WIDTH as u32 {
            draw_hollow_rect_mut(
                &mut img,
                Rect::at((MARGIN + x * CELL_PX) as i32, (MARGIN + y * CELL_PX) as i32)
                    .of_size(CELL_PX + 1, CELL_PX + 1),
                GRID,
            );
        }
    }
    for cell in 0..WIDTH * HEIGHT {
        if board.has(cell) {
            let (cx, cy) = centre(cell);
            draw_filled_circle_mut(
                &mut img,
                (cx as i32, cy as i32),
                (CELL_PX * 3 / 8) as i32,
                BALL,
            );
        }
    }
    for m in moves {
        arrow(&mut img, *m);
    }
    img
}

/// A white arrow from the ball's centre out over its edge, pointing the
/// way it is flung.
fn arrow(img: &mut RgbaImage, m: Move) {
    let (cx, cy) = centre(m.cell as usize);
    let (dx, dy) = m.dir.delta();
    let (dx, dy) = (dx as f32, dy as f32);
    let s = CELL_PX as f32;
    let tip = (cx + dx * s * 0.62, cy + dy * s * 0.62);
    let base = (cx + dx * s * 0.38, cy + dy * s * 0.38);
    // A thick shaft: three parallel lines.
    for off in [-1.0f32, 0.0, 1.0] {
        let (ox, oy) = (-dy * off, dx * off);
        draw_line_segment_mut(img, (cx + ox, cy + oy), (base.0 + ox, base.1 + oy), ARROW);
    }
    let half = s * 0.14;
    let p = |x: f32, y: f32| Point::new(x.round() as i32, y.round() as i32);
    draw_polygon_mut(
        img,
        &[
            p(tip.0, tip.1),
            p(base.0 - dy * half, base.1 + dx * half),
            p(base.0 + dy * half, base.1 - dx * half),
        ],
        ARROW,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fling::rules::{cell, Dir};

    #[test]
    fn balls_arrows_and_highlights_land_on_their_cells() {
        let board = Board((1 << cell(0, 0)) | (1 << cell(3, 0)));
        let m = Move {
            cell: 0,
            dir: Dir::Right,
        };
        let ch = Change {
            cell: cell(1, 0) as u8,
            removed: false,
            solvable_after: false,
        };
        let img = draw(board, &[m], &[ch]);
        assert_eq!(
            img.dimensions(),
            (2 * MARGIN + 7 * CELL_PX, 2 * MARGIN + 8 * CELL_PX)
        );
        let (cx, cy) = centre(cell(3, 0));
        assert_eq!(*img.get_pixel(cx as u32, cy as u32), BALL);
        let (ex, ey) = centre(cell(5, 5));
        assert_eq!(*img.get_pixel(ex as u32, ey as u32), BACKGROUND);
        // The highlighted empty cell, away from the arrow.
        let (hx, hy) = centre(cell(1, 0));
        assert_eq!(*img.get_pixel(hx as u32, hy as u32 + 20), TO_UNWINNABLE);
        // The arrow tip crosses into the next cell.
        let (ax, ay) = centre(0);
        assert_eq!(
            *img.get_pixel((ax + CELL_PX as f32 * 0.55) as u32, ay as u32),
            ARROW
        );
    }
}
