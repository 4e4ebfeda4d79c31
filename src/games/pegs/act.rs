//! A jump as a drag: press on the peg, move in steps to the hole, release.
//!
//! sgt-pegs takes a move as a drag from a peg to a hole two cells away;
//! it needs to see the pointer move between press and release, so the
//! drag passes through intermediate points (`steps` per cell). A chain of
//! jumps is played as one drag per jump (sgt-pegs registers single jumps).

use super::read::PegsReading;
use super::rules::Jump;
use crate::actuator::Gesture;

/// Points per cell of travel in a drag.
pub const DEFAULT_STEPS: usize = 4;

/// The drag that plays `jump` on the board read as `reading`, in image
/// coordinates: press on the peg's centre, `steps` points per cell along
/// the line, release on the hole's centre.
pub fn jump_gesture(reading: &PegsReading, jump: Jump, steps: usize) -> Gesture<(f64, f64)> {
    let b = &reading.game.board;
    let (fr, fc) = b.row_col(jump.from);
    let (tr, tc) = b.row_col(jump.to);
    let a = reading.cell_centre(fr, fc);
    let z = reading.cell_centre(tr, tc);
    let n = (2 * steps.max(1)).max(2);
    let path = (0..=n)
        .map(|k| {
            let t = k as f64 / n as f64;
            (a.0 + (z.0 - a.0) * t, a.1 + (z.1 - a.1) * t)
        })
        .collect();
    Gesture::Drag(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pegs::parse::parse_game;

    #[test]
    fn a_drag_goes_from_peg_centre_to_hole_centre() {
        let g = parse_game("3x1:PPH").unwrap();
        let r = PegsReading {
            game: g,
            x0: 10.0,
            y0: 20.0,
            pitch: 30.0,
            peg_size: 20.0,
        };
        let j = Jump {
            from: 0,
            over: 1,
            to: 2,
        };
        let Gesture::Drag(path) = jump_gesture(&r, j, 4) else {
            panic!("not a drag")
        };
        assert_eq!(path.first(), Some(&(10.0, 20.0)));
        assert_eq!(path.last(), Some(&(70.0, 20.0)));
        assert_eq!(path.len(), 9);
    }
}
