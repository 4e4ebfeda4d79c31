//! Rush Hour for the play loop: the board is read off Fogleman's player
//! ([`super::read`]), solved by the exact breadth-first search
//! ([`super::search::bfs`]: the fewest moves, then the fewest steps, or a
//! proof that the board cannot be solved), and each move is played as one
//! drag along the piece's axis ([`super::act`]). One drag is one move, as
//! the player counts it.
//!
//! A state is the board's text with the pieces lettered in reading order
//! ([`RushState`]), so the board read after a move compares equal to the
//! board predicted whatever letters the reader gave. A move names its
//! piece by the cell it starts from ([`RushMove`]), so a plan made on one
//! reading stays valid on the next.
//!
//! The win: the player flashes the board white while the primary piece is
//! at the exit. A flash frame is read, not refused: [`RushGame`] remembers
//! where the board was on the last steady frame of the game and reads a
//! flash frame there ([`super::read::read_flashing`]), which gives the
//! solved board (the page flashes only a solved board). So the move that
//! wins is verified like any other, whichever phase of the flash the
//! capture falls in, and the game ends on the loop's usual win test.
//!
//! Recovery is the loop's: a drag that moved the piece too far, not at all
//! or moved another piece leaves a board that differs from the prediction;
//! the loop re-reads it and the plan is solved again from what is there.

use std::cell::RefCell;
use std::time::{Duration, Instant};

use crate::actuator::Gesture;
use crate::capture::screen::Screenshot;
use crate::play::{Acting, Plan, PlanError, ReadFailure, Reading, Rect, Rules, Solving, Text};
use crate::solver::Budget;

use super::act;
use super::board::{Board, Move, Position};
use super::generate::canonical_text;
use super::parse::parse_board;
use super::read::{read, read_flashing, Geometry, ReadError};
use super::search::bfs;
use super::wagner_read::{self, WagnerReadError};

/// A position as the loop sees it: the board's text (`o` empty, `x` wall,
/// `A` the primary piece, the others `B`, `C`, ... in order of their first
/// cell in reading order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RushState {
    text: String,
}

impl RushState {
    /// The state of a board text (any letters; `.` or `o` for empty), or
    /// why it is not a board.
    pub fn from_text(text: &str) -> Result<RushState, String> {
        parse_board(text).map_err(|e| e.to_string())?;
        Ok(RushState {
            text: canonical_text(text.trim()),
        })
    }

    /// The text, pieces lettered in reading order.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The board and position (the text was checked when the state was made).
    pub fn board(&self) -> (Board, Position) {
        parse_board(&self.text).expect("a RushState's text is a board")
    }

    /// Cells on a side.
    pub fn size(&self) -> usize {
        (self.text.len() as f64).sqrt().round() as usize
    }
}

/// One move: the piece whose top (vertical) or left (horizontal) cell is
/// at (`row`, `col`) slides `delta` cells along its axis (right or down
/// positive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RushMove {
    /// Row of the piece's first cell before the move.
    pub row: u8,
    /// Column of the piece's first cell before the move.
    pub col: u8,
    /// True for a piece that moves left and right.
    pub horizontal: bool,
    /// Cells moved, never 0.
    pub delta: i8,
    /// The piece's letter on the board the move was planned on (for
    /// messages only).
    pub label: char,
}

impl RushMove {
    /// The move `mv` of `board` at `pos` as a loop move.
    pub fn of(board: &Board, pos: Position, mv: Move) -> RushMove {
        let piece = board.pieces()[mv.piece as usize];
        let off = pos.get(mv.piece as usize);
        let (row, col) = if piece.horizontal {
            (piece.line, off)
        } else {
            (off, piece.line)
        };
        RushMove {
            row,
            col,
            horizontal: piece.horizontal,
            delta: mv.delta,
            label: piece.label,
        }
    }

    /// The board move this is on `board` at `pos`: the piece of its axis
    /// whose first cell is (row, col), if there is one and the move is legal.
    pub fn on(&self, board: &Board, pos: Position) -> Option<Move> {
        let piece = board.pieces().iter().enumerate().position(|(i, p)| {
            let off = pos.get(i);
            let first = if p.horizontal {
                (p.line, off)
            } else {
                (off, p.line)
            };
            p.horizontal == self.horizontal && first == (self.row, self.col)
        })?;
        let mv = Move {
            piece: piece as u8,
            delta: self.delta,
        };
        board.is_legal(pos, mv).then_some(mv)
    }
}

/// What a screenshot shows: the reader's result and the state.
#[derive(Debug, Clone)]
pub struct RushReading {
    /// The reader's result (board, where it is, cell size).
    pub reading: super::read::Reading,
    /// The state it shows.
    pub state: RushState,
    /// True when it was read off a frame of the solved puzzle (a flash of
    /// Fogleman's player, the red car driving out or the win message of
    /// Wagner's page) with the last steady frame.
    pub flashing: bool,
}

/// Whose drawing of Rush Hour is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// Michael Fogleman's player (a p5 canvas; [`super::read`]).
    Fogleman,
    /// Luca Wagner's page (HTML cars on grey cells; [`super::wagner_read`]).
    WagnerLuca,
}

/// Rush Hour as the play loop sees it.
#[derive(Debug)]
pub struct RushGame {
    /// Memory the solver's tables may hold.
    pub memory_limit_bytes: usize,
    /// The drawing read; `None`: whichever the image shows.
    look: Option<Look>,
    /// Where the board was on the last steady frame of this game (for
    /// reading flash frames).
    geometry: RefCell<Option<Geometry>>,
    /// The last steady reading of Wagner's page (for reading the frames of
    /// the red car driving out and the win message).
    last: RefCell<Option<(super::read::Reading, wagner_read::Grid)>>,
}

impl Default for RushGame {
    fn default() -> Self {
        RushGame::new()
    }
}

impl RushGame {
    /// Rush Hour on Fogleman's player, with a 1 GiB solver table limit.
    pub fn new() -> Self {
        RushGame::of(Some(Look::Fogleman))
    }

    /// Rush Hour drawn by `look` (`None`: either), with a 1 GiB solver
    /// table limit.
    pub fn of(look: Option<Look>) -> Self {
        RushGame {
            memory_limit_bytes: 1 << 30,
            look,
            geometry: RefCell::new(None),
            last: RefCell::new(None),
        }
    }

    /// Reads `image`: a steady frame anywhere, or a frame of the solved
    /// puzzle (a flash, the red car driving out, a win message) where the
    /// last steady frame had the board.
    pub fn read_image(&self, image: &image::RgbaImage) -> Result<RushReading, ReadError> {
        let (reading, flashing) = match self.look {
            Some(Look::Fogleman) => self.read_fogleman(image)?,
            Some(Look::WagnerLuca) => self.read_wagner(image)?,
            None => match self.read_fogleman(image) {
                Err(ReadError::NoBoard) => self.read_wagner(image).map_err(|e| match e {
                    ReadError::Wagner(WagnerReadError::NoBoard) => ReadError::NoBoard,
                    e => e,
                })?,
                r => r?,
            },
        };
        let state = RushState {
            text: canonical_text(&reading.text),
        };
        Ok(RushReading {
            reading,
            state,
            flashing,
        })
    }

    fn read_fogleman(
        &self,
        image: &image::RgbaImage,
    ) -> Result<(super::read::Reading, bool), ReadError> {
        match read(image) {
            Ok(r) => {
                *self.geometry.borrow_mut() = Some(Geometry::of(&r, image.dimensions()));
                Ok((r, false))
            }
            Err(ReadError::Flashing) => {
                let Some(g) = *self.geometry.borrow() else {
                    return Err(ReadError::Flashing);
                };
                Ok((read_flashing(image, &g)?, true))
            }
            Err(e) => Err(e),
        }
    }

    fn read_wagner(
        &self,
        image: &image::RgbaImage,
    ) -> Result<(super::read::Reading, bool), ReadError> {
        let error = match wagner_read::read_with_grid(image) {
            Ok((r, grid)) => {
                *self.last.borrow_mut() = Some((r.clone(), grid));
                return Ok((r, false));
            }
            Err(e) => e,
        };
        // A frame of the solved puzzle is read with the last steady frame;
        // any other frame that fails is refused as the reader said.
        let last = self.last.borrow();
        let Some((last, grid)) = last.as_ref() else {
            return Err(error.into());
        };
        match wagner_read::read_exited(image, last, grid) {
            Ok(r) => Ok((r, true)),
            Err(e) if error == WagnerReadError::Exited => Err(e.into()),
            Err(_) => Err(error.into()),
        }
    }
}

impl Rules for RushGame {
    type State = RushState;
    type Move = RushMove;

    fn predict(&self, state: &RushState, mv: RushMove) -> RushState {
        let (board, pos) = state.board();
        match mv.on(&board, pos) {
            Some(m) => RushState {
                text: canonical_text(&board.to_text(board.apply(pos, m))),
            },
            None => state.clone(),
        }
    }

    fn is_won(&self, state: &RushState) -> bool {
        let (board, pos) = state.board();
        board.is_solved(pos)
    }

    fn dimensions(&self, state: &RushState) -> (usize, usize) {
        (state.size(), state.size())
    }
}

impl Solving for RushGame {
    fn plan(&self, state: &RushState, budget: Duration) -> Result<Plan<RushMove>, PlanError> {
        let started = Instant::now();
        let (board, start) = state.board();
        let outcome = bfs(
            &board,
            start,
            &Budget::new(Some(budget), self.memory_limit_bytes),
        );
        let plan = Plan::from_outcome(
            outcome,
            started,
            |o| {
                format!(
                    "Rush Hour: {} cannot be solved (proven: {} positions reachable, none solved)",
                    state.text, o.nodes
                )
            },
            |o, ms| {
                format!(
                    "the breadth-first search of {} after {ms:.0} ms and {} positions",
                    state.text, o.nodes
                )
            },
        )?;
        let mut pos = start;
        Ok(plan.map_moves(|m| {
            let mv = RushMove::of(&board, pos, m);
            pos = board.apply(pos, m);
            mv
        }))
    }
}

impl Reading for RushGame {
    type Reading = RushReading;

    fn begin_game(&self) {
        *self.geometry.borrow_mut() = None;
        *self.last.borrow_mut() = None;
    }

    fn read(&self, shot: &Screenshot) -> Result<RushReading, ReadFailure> {
        self.read_image(&shot.image)
            .map_err(|e| ReadFailure(e.to_string()))
    }

    fn state<'a>(&self, reading: &'a RushReading) -> &'a RushState {
        &reading.state
    }

    fn board_area(&self, reading: &RushReading) -> Rect {
        board_rect(&reading.reading)
    }
}

/// The board square with its outline and the exit mark on its right, in
/// image pixels.
pub fn board_rect(r: &super::read::Reading) -> Rect {
    let side = r.cell * r.board.size() as f64;
    let pad = (r.cell * 0.05).ceil() + 1.0;
    let x = (r.origin.0 - pad).max(0.0);
    let y = (r.origin.1 - pad).max(0.0);
    Rect {
        x: x as u32,
        y: y as u32,
        width: (side + 2.0 * pad + r.cell * 0.1).ceil() as u32,
        height: (side + 2.0 * pad).ceil() as u32,
    }
}

impl Acting for RushGame {
    fn gesture(
        &self,
        reading: &RushReading,
        state: &RushState,
        mv: RushMove,
    ) -> Option<Gesture<(f64, f64)>> {
        if *state != reading.state {
            return None;
        }
        let r = &reading.reading;
        let m = mv.on(&r.board, r.position)?;
        Some(act::gesture(r, r.position, m))
    }
}

impl Text for RushGame {
    fn name(&self) -> &str {
        "Rush Hour"
    }

    fn describe_move(&self, _state: &RushState, mv: RushMove) -> String {
        let dir = match (mv.horizontal, mv.delta > 0) {
            (true, true) => "right",
            (true, false) => "left",
            (false, true) => "down",
            (false, false) => "up",
        };
        format!("{} {} {}", mv.label, dir, mv.delta.unsigned_abs())
    }

    fn describe_state(&self, state: &RushState) -> String {
        state.text.clone()
    }

    fn diff(&self, expected: &RushState, seen: &RushState) -> String {
        board_diff(expected, seen)
    }
}

/// What differs between two positions, for the log: the cells whose
/// occupant differs (the first few), named by what is there.
pub fn board_diff(expected: &RushState, seen: &RushState) -> String {
    let (e, s) = (expected.text.as_bytes(), seen.text.as_bytes());
    if e.len() != s.len() {
        return format!(
            "the board is {0}x{0} instead of {1}x{1}",
            seen.size(),
            expected.size()
        );
    }
    let n = expected.size();
    let name = |c: u8| match c {
        b'o' => "empty".to_string(),
        b'x' => "wall".to_string(),
        c => format!("piece {}", c as char),
    };
    // Letters are given in reading order, so compare what occupies each
    // cell by the piece's cells, not by its letter.
    let cells_of = |t: &[u8], i: usize| -> Vec<usize> {
        if t[i] == b'o' || t[i] == b'x' {
            Vec::new()
        } else {
            (0..t.len()).filter(|&j| t[j] == t[i]).collect()
        }
    };
    let mut cells = Vec::new();
    for i in 0..e.len() {
        let differs = (e[i] == b'o') != (s[i] == b'o')
            || (e[i] == b'x') != (s[i] == b'x')
            || (e[i] == b'A') != (s[i] == b'A')
            || cells_of(e, i) != cells_of(s, i);
        if differs {
            cells.push(format!(
                "({},{}) {} instead of {}",
                i / n,
                i % n,
                name(s[i]),
                name(e[i])
            ));
        }
    }
    let shown = cells.len().min(4);
    format!(
        "{} cells differ: {}{} (seen {})",
        cells.len(),
        cells[..shown].join(", "),
        if cells.len() > shown { ", ..." } else { "" },
        seen.text
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hardest wall-free puzzle (51 moves) from Fogleman's database.
    const HARD51: &str = "BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo";

    #[test]
    fn plans_are_proven_shortest_and_replay_to_a_win() {
        let game = RushGame::new();
        let s = RushState::from_text(HARD51).unwrap();
        let plan = game.plan(&s, Duration::from_secs(60)).unwrap();
        assert_eq!(plan.moves.len(), 51);
        assert!(plan.proven_optimal);
        assert_eq!(plan.lower_bound, 51);
        let mut state = s.clone();
        for &mv in &plan.moves {
            let next = game.predict(&state, mv);
            assert_ne!(next, state, "{mv:?} changes the board");
            state = next;
        }
        assert!(game.is_won(&state));
        assert!(!game.is_won(&s));
        assert_eq!(game.dimensions(&s), (6, 6));
    }

    #[test]
    fn a_solved_board_needs_no_moves_and_an_unsolvable_one_is_lost() {
        let game = RushGame::new();
        let won = RushState::from_text("ooooooooooooooooAAoooooooooooooooooo").unwrap();
        assert!(game.is_won(&won));
        // A blocked by a wall: proven unsolvable, an empty plan.
        let stuck =
            RushState::from_text(&format!("{}AAxooo{}", "o".repeat(12), "o".repeat(18))).unwrap();
        let plan = game.plan(&stuck, Duration::from_secs(5)).unwrap();
        assert!(plan.moves.is_empty());
        assert!(!plan.proven_optimal);
    }

    #[test]
    fn states_ignore_letters_and_moves_follow_their_piece() {
        // The same board lettered two ways is one state.
        let a = RushState::from_text("ooooooooooZoAAooZooooooooooooooooooo").unwrap();
        let b = RushState::from_text("ooooooooooBoAAooBooooooooooooooooooo").unwrap();
        assert_eq!(a, b);
        assert!(RushState::from_text("oooo").is_err());
        // B (vertical, column 4, rows 1-2) up 1, then A right 4: the move
        // names B by its top cell (1, 4).
        let game = RushGame::new();
        let (board, pos) = a.board();
        let up = RushMove::of(
            &board,
            pos,
            Move {
                piece: 1,
                delta: -1,
            },
        );
        assert_eq!(
            (up.row, up.col, up.horizontal, up.label),
            (1, 4, false, 'B')
        );
        assert_eq!(game.describe_move(&a, up), "B up 1");
        let s1 = game.predict(&a, up);
        assert_eq!(s1.text(), "ooooBoooooBoAAoooooooooooooooooooooo");
        let right = RushMove {
            row: 2,
            col: 0,
            horizontal: true,
            delta: 4,
            label: 'A',
        };
        let s2 = game.predict(&s1, right);
        assert!(game.is_won(&s2));
        // Not legal before B moved: the prediction is the same board.
        assert_eq!(game.predict(&a, right), a);
        // B's three cells: (0,4) and (2,4) changed, (1,4) is B's either way
        // but B is not the same piece.
        let d = game.diff(&a, &s1);
        assert!(
            d.starts_with("3 cells differ: (0,4) piece B instead of empty"),
            "{d}"
        );
    }

    fn fixture(name: &str) -> image::RgbaImage {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/rush")
            .join(name);
        image::open(&path).unwrap().to_rgba8()
    }

    #[test]
    fn gestures_are_drags_from_the_pieces_middle_on_the_read_board() {
        let game = RushGame::new();
        let r = game
            .read_image(&fixture("hardest51-window600x560.png"))
            .unwrap();
        assert_eq!(r.state.text(), canonical_text(HARD51));
        assert!(!r.flashing);
        let plan = game.plan(&r.state, Duration::from_secs(60)).unwrap();
        let mv = plan.moves[0];
        let Some(Gesture::Drag(path)) = game.gesture(&r, &r.state, mv) else {
            panic!("a legal move is a drag")
        };
        let (first, last) = (path[0], *path.last().unwrap());
        let cell = r.reading.cell;
        let moved = if mv.horizontal {
            (last.0 - first.0) / cell
        } else {
            (last.1 - first.1) / cell
        };
        assert!((moved - mv.delta as f64).abs() < 1e-9, "{moved} {mv:?}");
        // A state other than the reading's: no gesture.
        let other = game.predict(&r.state, mv);
        assert!(game.gesture(&r, &other, mv).is_none());
        let area = game.board_area(&r);
        assert!(area.width >= (cell * 6.0) as u32 && area.height >= (cell * 6.0) as u32);
    }

    #[test]
    fn a_flash_frame_is_read_where_the_last_steady_frame_had_the_board() {
        let game = RushGame::new();
        let steady = fixture("won-steady-window700x700.png");
        let flash = fixture("won-flash-window700x700.png");
        // Without a steady frame first, a flash frame is refused.
        assert!(matches!(game.read_image(&flash), Err(ReadError::Flashing)));
        let s = game.read_image(&steady).unwrap();
        assert!(game.is_won(&s.state));
        let f = game.read_image(&flash).unwrap();
        assert!(f.flashing);
        assert_eq!(f.state, s.state);
        // A new game forgets the place.
        game.begin_game();
        assert!(game.read_image(&flash).is_err());
    }
}
