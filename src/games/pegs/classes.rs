//! Position classes: the invariant that says where the last peg can be.
//!
//! Colour cell (row, col) by `(row + col) mod 3` and, separately, by
//! `(row - col) mod 3`. A jump touches three consecutive cells of a line,
//! one of each colour, and flips the parity of the number of pegs on each
//! colour; so for both colourings the parities of `n0 + n1` and `n1 + n2`
//! never change. A single peg on cell `x` has one such signature, so the
//! last peg of a win can only stand on a cell whose signature equals the
//! start's: [`final_cells`]. When there is none, the position is lost.

use super::rules::{bit, cells_of, Board, Cells};

/// The four invariant parity bits of a position.
pub fn signature(board: &Board, pegs: Cells) -> u8 {
    signature_with(&class_masks(board), pegs)
}

/// [`signature`] with the colour classes computed once.
fn signature_with(masks: &[Cells; 6], pegs: Cells) -> u8 {
    let par = |m: Cells| ((pegs & m).count_ones() & 1) as u8;
    let a = [par(masks[0]), par(masks[1]), par(masks[2])];
    let b = [par(masks[3]), par(masks[4]), par(masks[5])];
    (a[0] ^ a[1]) | ((a[1] ^ a[2]) << 1) | ((b[0] ^ b[1]) << 2) | ((b[1] ^ b[2]) << 3)
}

/// The six colour classes: `(row + col) mod 3` = 0, 1, 2, then
/// `(row - col) mod 3` = 0, 1, 2.
fn class_masks(board: &Board) -> [Cells; 6] {
    let mut m = [0; 6];
    for r in 0..board.height() {
        for c in 0..board.width() {
            let i = board.index(r, c);
            m[(r + c) % 3] |= bit(i);
            m[3 + (r + 2 * c) % 3] |= bit(i);
        }
    }
    m
}

/// The on-board cells where the last peg of a win from `pegs` can stand.
pub fn final_cells(board: &Board, pegs: Cells) -> Cells {
    let masks = class_masks(board);
    let sig = signature_with(&masks, pegs);
    let mut out = 0;
    for i in cells_of(board.cells()) {
        if signature_with(&masks, bit(i)) == sig {
            out |= bit(i);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pegs::parse::{parse_game, ENGLISH};
    use crate::games::pegs::rules::apply;

    #[test]
    fn jumps_keep_the_signature() {
        let g = parse_game(ENGLISH).unwrap();
        let s = signature(&g.board, g.pegs);
        let mut js = Vec::new();
        g.board.jumps(g.pegs, &mut js);
        for j in js {
            assert_eq!(signature(&g.board, apply(g.pegs, j)), s);
        }
        // The central game can end in the centre.
        let f = final_cells(&g.board, g.pegs);
        assert_ne!(f & bit(g.board.index(3, 3)), 0);
        assert_eq!(
            f.count_ones(),
            5,
            "centre and the four (rule of three) cells"
        );
    }
}
