//! A move as a mouse gesture on Fogleman's player: press on the middle of
//! the piece, drag along its axis by the move's distance in cells, release.
//! The player rounds the drag to whole cells and clamps it to the legal
//! range, so the release point is the centre of the cell the piece's
//! pressed cell ends on.

use super::board::{Move, Position};
use super::read::Reading;
use crate::actuator::Gesture;

/// The drag that plays `mv` on the board of `reading` (whose position is
/// `pos`), in image pixels, through intermediate points a quarter cell apart.
pub fn gesture(reading: &Reading, pos: Position, mv: Move) -> Gesture<(f64, f64)> {
    let piece = reading.board.pieces()[mv.piece as usize];
    let off = pos.get(mv.piece as usize) as f64 + piece.len as f64 / 2.0 - 0.5;
    let line = piece.line as f64;
    let (row, col) = if piece.horizontal {
        (line, off)
    } else {
        (off, line)
    };
    let start = (
        reading.origin.0 + (col + 0.5) * reading.cell,
        reading.origin.1 + (row + 0.5) * reading.cell,
    );
    let (dx, dy) = if piece.horizontal {
        (1.0, 0.0)
    } else {
        (0.0, 1.0)
    };
    let quarters = 4 * mv.delta.unsigned_abs() as i32;
    let sign = mv.delta.signum() as f64;
    let path = (0..=quarters)
        .map(|q| {
            let t = sign * q as f64 * reading.cell / 4.0;
            (start.0 + dx * t, start.1 + dy * t)
        })
        .collect();
    Gesture::Drag(path)
}

#[cfg(test)]
mod tests {
    use super::super::board::Move;
    use super::super::parse::parse_board;
    use super::*;

    #[test]
    fn drags_run_along_the_axis_by_the_distance() {
        let (board, position) = parse_board("oooooooooBooAAoBoooooooooooooooooooo").unwrap();
        let text = board.to_text(position);
        let r = Reading {
            board,
            position,
            text,
            origin: (100.0, 50.0),
            cell: 10.0,
        };
        // B (vertical, column 3, rows 1-2) down 2: press at its middle
        // (row 2.0 boundary, y = 50 + 2.0 * 10), release 20 px lower.
        let Gesture::Drag(path) = gesture(&r, position, Move { piece: 1, delta: 2 }) else {
            panic!()
        };
        assert_eq!(path.first(), Some(&(135.0, 70.0)));
        assert_eq!(path.last(), Some(&(135.0, 90.0)));
        assert_eq!(path.len(), 9);
        // A (row 2, columns 0-1) right 1.
        let Gesture::Drag(path) = gesture(&r, position, Move { piece: 0, delta: 1 }) else {
            panic!()
        };
        assert_eq!(path.first(), Some(&(110.0, 75.0)));
        assert_eq!(path.last(), Some(&(120.0, 75.0)));
    }
}
