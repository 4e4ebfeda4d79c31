//! Fling! rules on a 56-bit bitboard.
//!
//! The board is 7 cells wide and 8 high; cell `(x, y)` (column `x` from the
//! left, row `y` from the top) is bit `y * 7 + x` of a `u64`, the same
//! numbering as the `Hash:` lines of the level files (and hog2's
//! `Fling::GetStateHash`).
//!
//! A move flings one ball up, down, left or right. It is legal when there
//! is a ball somewhere ahead of it in that direction and that ball is not
//! on the adjacent cell. The ball rolls until the cell before the next ball
//! and stops; that ball takes over the motion: a ball touching another one
//! ahead passes the motion on without moving, a ball with a gap ahead rolls
//! to the cell before the next ball, and the last ball of the line rolls
//! off the board. Every move removes exactly one ball; one ball left wins.

use std::fmt;

use crate::solver::{Keyed, Problem};

/// Columns of the board.
pub const WIDTH: usize = 7;
/// Rows of the board.
pub const HEIGHT: usize = 8;
/// Cells of the board.
pub const CELLS: usize = WIDTH * HEIGHT;
/// The bits of the 56 cells.
pub const FULL: u64 = (1u64 << CELLS) - 1;

/// A direction to fling a ball in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Towards row 0.
    Up,
    /// Towards row 7.
    Down,
    /// Towards column 0.
    Left,
    /// Towards column 6.
    Right,
}

impl Dir {
    /// The four directions, in the order moves are generated.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// Cell-index step of one cell in this direction.
    pub const fn step(self) -> i32 {
        match self {
            Dir::Up => -(WIDTH as i32),
            Dir::Down => WIDTH as i32,
            Dir::Left => -1,
            Dir::Right => 1,
        }
    }

    /// `(dx, dy)` of one cell in this direction.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::Up => (0, -1),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
        }
    }

    /// The lower-case name (`up`, `down`, `left`, `right`).
    pub const fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }

    /// True when "ahead" means towards larger cell indices.
    const fn increasing(self) -> bool {
        matches!(self, Dir::Down | Dir::Right)
    }

    const fn index(self) -> usize {
        self as usize
    }
}

/// One move: fling the ball on `cell` in `dir`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The cell of the flung ball (`y * 7 + x`).
    pub cell: u8,
    /// The direction it is flung in.
    pub dir: Dir,
}

impl fmt::Display for Move {
    /// `c3 right`: column letter `a..g`, row number `1..8` from the top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (x, y) = coords(self.cell as usize);
        write!(
            f,
            "{}{} {}",
            (b'a' + x as u8) as char,
            y + 1,
            self.dir.name()
        )
    }
}

/// `(x, y)` of a cell index.
pub const fn coords(cell: usize) -> (usize, usize) {
    (cell % WIDTH, cell / WIDTH)
}

/// The cell index of `(x, y)`.
pub const fn cell(x: usize, y: usize) -> usize {
    y * WIDTH + x
}

/// `RAYS[dir][cell]`: the cells strictly ahead of `cell` in `dir`.
const RAYS: [[u64; CELLS]; 4] = make_rays();

const fn make_rays() -> [[u64; CELLS]; 4] {
    let mut rays = [[0u64; CELLS]; 4];
    let dirs = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];
    let mut d = 0;
    while d < 4 {
        let (dx, dy) = dirs[d].delta();
        let mut c = 0;
        while c < CELLS {
            let mut x = (c % WIDTH) as i32 + dx;
            let mut y = (c / WIDTH) as i32 + dy;
            let mut m = 0u64;
            while x >= 0 && x < WIDTH as i32 && y >= 0 && y < HEIGHT as i32 {
                m |= 1u64 << (y as usize * WIDTH + x as usize);
                x += dx;
                y += dy;
            }
            rays[d][c] = m;
            c += 1;
        }
        d += 1;
    }
    rays
}

/// The first ball ahead of `cell` in `dir` on `balls`, if any.
#[inline(always)]
fn next_ball(balls: u64, cell: u32, dir: Dir) -> Option<u32> {
    let ahead = balls & RAYS[dir.index()][cell as usize];
    if ahead == 0 {
        None
    } else if dir.increasing() {
        Some(ahead.trailing_zeros())
    } else {
        Some(63 - ahead.leading_zeros())
    }
}

/// A Fling! position: the set of cells holding a ball.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Board(pub u64);

impl Board {
    /// The board with balls on `bits` (bits above 55 are an error).
    pub fn new(bits: u64) -> Option<Board> {
        (bits & !FULL == 0).then_some(Board(bits))
    }

    /// Number of balls.
    #[inline]
    pub fn balls(self) -> u32 {
        self.0.count_ones()
    }

    /// True when `cell` holds a ball.
    #[inline]
    pub fn has(self, cell: usize) -> bool {
        self.0 >> cell & 1 == 1
    }

    /// The same board with `cell` toggled (ball added or removed).
    #[inline]
    pub fn toggled(self, cell: usize) -> Board {
        Board(self.0 ^ (1u64 << cell))
    }

    /// True when one ball is left.
    #[inline]
    pub fn won(self) -> bool {
        self.balls() == 1
    }

    /// True when flinging the ball on `cell` in `dir` is legal.
    #[inline]
    pub fn legal(self, cell: usize, dir: Dir) -> bool {
        if !self.has(cell) {
            return false;
        }
        match next_ball(self.0, cell as u32, dir) {
            Some(q) => q as i32 != cell as i32 + dir.step(),
            None => false,
        }
    }

    /// Calls `f` with every legal move and the board after it, balls in
    /// cell order, directions in [`Dir::ALL`] order.
    #[inline]
    pub fn for_each_move(self, mut f: impl FnMut(Move, Board)) {
        self.any_move(|m, b| {
            f(m, b);
            false
        });
    }

    /// Calls `f` with the legal moves in [`Board::for_each_move`] order
    /// until it returns true; true when it did.
    #[inline]
    pub fn any_move(self, mut f: impl FnMut(Move, Board) -> bool) -> bool {
        let mut rest = self.0;
        while rest != 0 {
            let c = rest.trailing_zeros();
            rest &= rest - 1;
            for dir in Dir::ALL {
                if let Some(q) = next_ball(self.0, c, dir) {
                    if q as i32 != c as i32 + dir.step() {
                        let mv = Move { cell: c as u8, dir };
                        if f(mv, Board(self.roll(c, q, dir))) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// True when some move is legal.
    #[inline]
    pub fn can_move(self) -> bool {
        let mut rest = self.0;
        while rest != 0 {
            let c = rest.trailing_zeros();
            rest &= rest - 1;
            for dir in Dir::ALL {
                if let Some(q) = next_ball(self.0, c, dir) {
                    if q as i32 != c as i32 + dir.step() {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The legal moves, in [`Board::for_each_move`] order.
    pub fn moves(self) -> Vec<Move> {
        let mut v = Vec::new();
        self.for_each_move(|m, _| v.push(m));
        v
    }

    /// The board after `mv`, or `None` when it is not legal.
    pub fn play(self, mv: Move) -> Option<Board> {
        if !self.legal(mv.cell as usize, mv.dir) {
            return None;
        }
        let c = mv.cell as u32;
        let q = next_ball(self.0, c, mv.dir).expect("a legal move has a ball ahead");
        Some(Board(self.roll(c, q, mv.dir)))
    }

    /// The motion of a legal move: the ball on `c` rolls up to the ball
    /// on `q`, which takes over, and so on until the last one rolls off.
    #[inline(always)]
    fn roll(self, c: u32, q: u32, dir: Dir) -> u64 {
        let step = dir.step();
        let mut b = self.0;
        let mut mover = c;
        let mut hit = q;
        loop {
            let stop = (hit as i32 - step) as u32;
            // The mover leaves its cell and lands before the ball it hit
            // (a touching ball lands where it already is).
            b ^= (1u64 << mover) ^ (1u64 << stop);
            mover = hit;
            match next_ball(b, mover, dir) {
                Some(n) => hit = n,
                None => {
                    b &= !(1u64 << mover);
                    return b;
                }
            }
        }
    }

    /// Mirror image left to right (the rules are symmetric under it).
    pub fn mirror_x(self) -> Board {
        let mut out = 0u64;
        for y in 0..HEIGHT {
            let row = (self.0 >> (y * WIDTH)) & 0x7f;
            let rev = (row.reverse_bits() >> (64 - WIDTH)) & 0x7f;
            out |= rev << (y * WIDTH);
        }
        Board(out)
    }

    /// Mirror image top to bottom (the rules are symmetric under it).
    pub fn mirror_y(self) -> Board {
        let mut out = 0u64;
        for y in 0..HEIGHT {
            let row = (self.0 >> (y * WIDTH)) & 0x7f;
            out |= row << ((HEIGHT - 1 - y) * WIDTH);
        }
        Board(out)
    }
}

impl fmt::Display for Board {
    /// Eight rows of seven `o`/`.` characters, one row a line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                f.write_str(if self.has(cell(x, y)) { "o" } else { "." })?;
            }
            if y + 1 < HEIGHT {
                f.write_str("\n")?;
            }
        }
        Ok(())
    }
}

/// Fling! as a search problem (every board is its own context-free state).
#[derive(Debug, Clone, Copy, Default)]
pub struct Fling;

impl Problem for Fling {
    type State = Board;
    type Move = Move;

    fn moves(&self, state: &Board, out: &mut Vec<Move>) {
        state.for_each_move(|m, _| out.push(m));
    }

    fn apply(&self, state: &Board, mv: Move) -> Board {
        state.play(mv).expect("engines apply legal moves only")
    }

    fn is_goal(&self, state: &Board) -> bool {
        state.won()
    }

    /// Every move removes exactly one ball: the distance to a win is
    /// exactly balls - 1 when it is winnable.
    fn lower_bound(&self, state: &Board) -> u32 {
        state.balls().saturating_sub(1)
    }
}

impl Keyed for Fling {
    type Key = u64;

    fn key(&self, state: &Board) -> u64 {
        state.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &str) -> Board {
        let mut b = 0u64;
        for (y, line) in rows.lines().enumerate() {
            for (x, ch) in line.chars().enumerate() {
                if ch == 'o' {
                    b |= 1 << cell(x, y);
                }
            }
        }
        Board(b)
    }

    /// The move flinging the ball on `cell` towards `dir`.
    fn mv(cell: u8, dir: Dir) -> Move {
        Move { cell, dir }
    }

    #[test]
    fn a_ball_rolls_to_the_next_and_that_one_rolls_off() {
        // o . . o . . .  flung right: the first stops at x=2, the second
        // rolls off the right edge.
        let b = board("o..o...");
        let after = b.play(mv(0, Dir::Right)).unwrap();
        assert_eq!(after, board("..o...."));
        assert_eq!(after.balls(), 1);
    }

    #[test]
    fn cannot_fling_towards_an_adjacent_ball() {
        let b = board("oo.....");
        assert!(!b.legal(0, Dir::Right));
        assert!(!b.legal(1, Dir::Left));
        assert!(b.moves().is_empty());
    }

    #[test]
    fn cannot_fling_with_nothing_ahead() {
        let b = board("o.o....");
        assert!(!b.legal(0, Dir::Left));
        assert!(!b.legal(2, Dir::Right));
        assert!(!b.legal(0, Dir::Down));
        assert_eq!(b.moves(), vec![mv(0, Dir::Right), mv(2, Dir::Left)]);
    }

    #[test]
    fn motion_passes_through_touching_balls() {
        // o . o o . o . : the flung ball stops at x=1, the ball at x=2
        // touches x=3 and stays, x=3 rolls to x=4 (before x=5), x=5 rolls
        // off (as hog2's FlingBoard::Move does).
        let b = board("o.oo.o.");
        let after = b.play(mv(0, Dir::Right)).unwrap();
        assert_eq!(after, board(".oo.o.."));
    }

    #[test]
    fn vertical_moves_and_the_edge() {
        let b = board(".o.....\n.......\n.......\n.o.....");
        let down = b.play(mv(1, Dir::Down)).unwrap();
        assert_eq!(down, board(".......\n.......\n.o....."));
        let up = b.play(mv(cell(1, 3) as u8, Dir::Up)).unwrap();
        assert_eq!(up, board(".......\n.o....."));
        // Rows do not wrap: a ball at the end of row 0 has nothing to its
        // right even if row 1 starts with a ball.
        let b = board("......o\no......");
        assert!(!b.legal(6, Dir::Right));
        assert!(b.moves().is_empty());
    }

    #[test]
    fn mirrors_are_involutions_and_keep_the_rules() {
        let b = board("o.oo.o.\n.......\n..o....\n.......\n.o.....\n.......\n.......\n......o");
        assert_eq!(b.mirror_x().mirror_x(), b);
        assert_eq!(b.mirror_y().mirror_y(), b);
        let mut n = 0;
        b.for_each_move(|_, _| n += 1);
        let mut m = 0;
        b.mirror_x().for_each_move(|_, _| m += 1);
        assert_eq!(n, m);
    }

    #[test]
    fn problem_interface_agrees_with_the_board() {
        let p = Fling;
        let b = board("o..o...\n.......\no......");
        let mut ms = Vec::new();
        p.moves(&b, &mut ms);
        assert_eq!(ms, b.moves());
        for m in ms {
            assert_eq!(p.apply(&b, m).balls(), 2);
        }
        assert_eq!(p.lower_bound(&b), 2);
        assert_eq!(mv(cell(2, 3) as u8, Dir::Up).to_string(), "c4 up");
    }
}
