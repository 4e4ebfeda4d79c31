//! Fakes for testing the loop without X: a small flood-fill game of its
//! own ([`Board`]: Flood-It's rules, no game module needed), a simulated
//! window drawn into images, a pointer whose clicks play on it (and which
//! can lose clicks, let a "user" interfere, or be moved into a corner), and
//! a game implementation that reads the fake window's pixels.

use std::cell::RefCell;
use std::collections::{HashSet, VecDeque};
use std::rc::Rc;
use std::time::Duration;

use image::{Rgba, RgbaImage};

use crate::capture::screen::Screenshot;

use super::io::{DeviceError, Pointer, Screen};
use super::{Acting, Plan, PlanError, ReadFailure, Reading, Rect, Rules, Solving, Text};
use crate::actuator::{Gesture, KeyName};

pub const CELL: u32 = 10;

/// A flood-fill board: a move gives the region connected to the top-left
/// cell a colour; won when every cell has one colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub width: usize,
    pub height: usize,
    pub cells: Vec<u8>,
}

impl Board {
    /// A `width` x `height` board of `cells` (row by row); `colours` is
    /// the palette size (the fake's palette has four).
    pub fn new(width: usize, height: usize, colours: u8, cells: Vec<u8>) -> Self {
        assert_eq!(cells.len(), width * height);
        assert!(cells.iter().all(|&c| c < colours));
        Board {
            width,
            height,
            cells,
        }
    }

    pub fn get(&self, r: usize, c: usize) -> u8 {
        self.cells[r * self.width + c]
    }

    pub fn is_won(&self) -> bool {
        self.cells.iter().all(|&c| c == self.cells[0])
    }

    /// Gives the region connected to the top-left cell `colour`.
    pub fn play(&mut self, colour: u8) {
        let old = self.cells[0];
        if old == colour {
            return;
        }
        let mut stack = vec![0usize];
        self.cells[0] = colour;
        while let Some(i) = stack.pop() {
            let (r, c) = (i / self.width, i % self.width);
            let mut near = Vec::with_capacity(4);
            if r > 0 {
                near.push(i - self.width);
            }
            if r + 1 < self.height {
                near.push(i + self.width);
            }
            if c > 0 {
                near.push(i - 1);
            }
            if c + 1 < self.width {
                near.push(i + 1);
            }
            for j in near {
                if self.cells[j] == old {
                    self.cells[j] = colour;
                    stack.push(j);
                }
            }
        }
    }
}

pub const PALETTE: [[u8; 3]; 4] = [[255, 0, 0], [255, 255, 0], [0, 255, 0], [50, 80, 255]];

/// The simulated game window and everything that happens to it.
pub struct World {
    pub board: Board,
    pub moves: usize,
    /// Window position on the (fake) screen.
    pub window: (i32, i32),
    pub pointer: (i32, i32),
    pub clicks: usize,
    /// Clicks (1-based) that are swallowed.
    pub lose_clicks: HashSet<usize>,
    /// After click n, the "user" plays this colour.
    pub interfere: Vec<(usize, u8)>,
    /// After click n, the window moves by this much.
    pub move_window: Vec<(usize, (i32, i32))>,
    /// After click n, the "user" puts the pointer here.
    pub user_pointer: Vec<(usize, (i32, i32))>,
    /// Captures that show a garbled frame (flash) right after a click.
    pub flash_frames: usize,
    pending_flash: usize,
    pub keys: Vec<char>,
    pub next_boards: VecDeque<Board>,
}

impl World {
    pub fn new(board: Board) -> Rc<RefCell<World>> {
        Rc::new(RefCell::new(World {
            board,
            moves: 0,
            window: (100, 50),
            pointer: (400, 300),
            clicks: 0,
            lose_clicks: HashSet::new(),
            interfere: Vec::new(),
            move_window: Vec::new(),
            user_pointer: Vec::new(),
            flash_frames: 0,
            pending_flash: 0,
            keys: Vec::new(),
            next_boards: VecDeque::new(),
        }))
    }

    fn render(&mut self) -> Screenshot {
        let (w, h) = (self.board.width as u32, self.board.height as u32);
        let mut image =
            RgbaImage::from_pixel(w * CELL + 20, h * CELL + 20, Rgba([200, 200, 200, 255]));
        let flash = self.pending_flash > 0;
        if flash {
            self.pending_flash -= 1;
        }
        for r in 0..h {
            for c in 0..w {
                let colour = if flash {
                    (r + c + self.pending_flash as u32) as u8 % 4
                } else {
                    self.board.get(r as usize, c as usize)
                };
                let [red, g, b] = PALETTE[colour as usize];
                for y in 0..CELL {
                    for x in 0..CELL {
                        image.put_pixel(
                            10 + c * CELL + x,
                            10 + r * CELL + y,
                            Rgba([red, g, b, 255]),
                        );
                    }
                }
            }
        }
        Screenshot {
            image,
            origin_x: self.window.0,
            origin_y: self.window.1,
            scale: 1.0,
        }
    }

    fn click(&mut self, x: i32, y: i32) {
        self.pointer = (x, y);
        self.clicks += 1;
        let n = self.clicks;
        if !self.lose_clicks.contains(&n) {
            let (ix, iy) = (x - self.window.0 - 10, y - self.window.1 - 10);
            if ix >= 0 && iy >= 0 {
                let (c, r) = ((ix as u32 / CELL) as usize, (iy as u32 / CELL) as usize);
                if r < self.board.height && c < self.board.width {
                    let colour = self.board.get(r, c);
                    if colour != self.board.get(0, 0) {
                        self.board.play(colour);
                        self.moves += 1;
                        if self.board.is_won() {
                            self.pending_flash = self.flash_frames;
                        }
                    }
                }
            }
        }
        for &(k, colour) in &self.interfere.clone() {
            if k == n {
                self.board.play(colour);
                self.moves += 1;
            }
        }
        for &(k, (dx, dy)) in &self.move_window.clone() {
            if k == n {
                self.window = (self.window.0 + dx, self.window.1 + dy);
            }
        }
        for &(k, p) in &self.user_pointer.clone() {
            if k == n {
                self.pointer = p;
            }
        }
    }
}

pub struct FakeScreen(pub Rc<RefCell<World>>);

impl Screen for FakeScreen {
    fn capture(&mut self) -> Result<Screenshot, DeviceError> {
        Ok(self.0.borrow_mut().render())
    }
}

pub struct FakePointer {
    pub world: Rc<RefCell<World>>,
    pub released: usize,
}

impl Pointer for FakePointer {
    fn position(&mut self) -> Result<(i32, i32), DeviceError> {
        Ok(self.world.borrow().pointer)
    }
    fn perform(&mut self, gesture: &Gesture<(i32, i32)>) -> Result<(), DeviceError> {
        let key = match gesture {
            Gesture::Click((x, y)) => {
                self.world.borrow_mut().click(*x, *y);
                return Ok(());
            }
            Gesture::Key(KeyName::Char(c)) => *c,
            other => {
                return Err(DeviceError(format!(
                    "the fake window takes no {}",
                    other.kind()
                )))
            }
        };
        let mut w = self.world.borrow_mut();
        w.keys.push(key);
        if let Some(b) = w.next_boards.pop_front() {
            w.board = b;
            w.moves = 0;
        }
        Ok(())
    }
    fn release_all(&mut self) {
        self.released += 1;
    }
    fn screen_size(&self) -> (u32, u32) {
        (1000, 800)
    }
}

/// Reading of the fake window: the board and its cell grid origin.
pub struct FakeReading {
    pub board: Board,
    pub origin: (u32, u32),
}

/// A Flood-It game over the fake window, with an exact breadth-first solver.
pub struct FakeFlood {
    pub colours: u8,
    pub width: usize,
    pub height: usize,
}

impl Rules for FakeFlood {
    type State = Board;
    type Move = u8;

    fn predict(&self, state: &Board, mv: u8) -> Board {
        let mut b = state.clone();
        b.play(mv);
        b
    }

    fn is_won(&self, state: &Board) -> bool {
        state.is_won()
    }

    fn dimensions(&self, state: &Board) -> (usize, usize) {
        (state.width, state.height)
    }
}

impl Reading for FakeFlood {
    type Reading = FakeReading;

    fn read(&self, shot: &Screenshot) -> Result<FakeReading, ReadFailure> {
        let mut cells = Vec::new();
        for r in 0..self.height as u32 {
            for c in 0..self.width as u32 {
                let p = shot
                    .image
                    .get_pixel(10 + c * CELL + CELL / 2, 10 + r * CELL + CELL / 2);
                let i = PALETTE
                    .iter()
                    .position(|q| q[..] == p.0[..3])
                    .ok_or_else(|| ReadFailure(format!("unknown colour at cell {r},{c}")))?;
                cells.push(i as u8);
            }
        }
        Ok(FakeReading {
            board: Board::new(self.width, self.height, self.colours, cells),
            origin: (10, 10),
        })
    }

    fn state<'a>(&self, reading: &'a FakeReading) -> &'a Board {
        &reading.board
    }

    fn board_area(&self, reading: &FakeReading) -> Rect {
        Rect {
            x: reading.origin.0,
            y: reading.origin.1,
            width: self.width as u32 * CELL,
            height: self.height as u32 * CELL,
        }
    }
}

impl Solving for FakeFlood {
    fn plan(&self, state: &Board, _budget: Duration) -> Result<Plan<u8>, PlanError> {
        // Breadth-first search over move sequences: exact, fine for tiny boards.
        let mut queue = VecDeque::from([(state.clone(), Vec::new())]);
        let mut seen = HashSet::from([state.cells.clone()]);
        while let Some((b, moves)) = queue.pop_front() {
            if b.is_won() {
                return Ok(Plan {
                    lower_bound: moves.len(),
                    moves,
                    proven_optimal: true,
                    elapsed: Duration::from_micros(5),
                });
            }
            for c in 0..self.colours {
                if c == b.get(0, 0) {
                    continue;
                }
                let mut next = b.clone();
                next.play(c);
                if seen.insert(next.cells.clone()) {
                    let mut m = moves.clone();
                    m.push(c);
                    queue.push_back((next, m));
                }
            }
        }
        Err(PlanError::NoLine("no solution".into()))
    }
}

impl Acting for FakeFlood {
    fn gesture(&self, reading: &FakeReading, state: &Board, mv: u8) -> Option<Gesture<(f64, f64)>> {
        for r in 0..state.height {
            for c in 0..state.width {
                if state.get(r, c) == mv {
                    let x = reading.origin.0 as f64 + (c as f64 + 0.5) * CELL as f64;
                    let y = reading.origin.1 as f64 + (r as f64 + 0.5) * CELL as f64;
                    return Some(Gesture::Click((x, y)));
                }
            }
        }
        None
    }
}

impl Text for FakeFlood {
    fn name(&self) -> &str {
        "fake Flood-It"
    }

    fn describe_move(&self, _state: &Self::State, mv: u8) -> String {
        ["red", "yellow", "green", "blue"][mv as usize].to_string()
    }

    fn describe_state(&self, state: &Board) -> String {
        state.cells.iter().map(|c| char::from(b'0' + c)).collect()
    }

    fn diff(&self, expected: &Board, seen: &Board) -> String {
        let n = expected
            .cells
            .iter()
            .zip(&seen.cells)
            .filter(|(a, b)| a != b)
            .count();
        format!("{n} cells differ")
    }
}

/// The fake window's host: no status line, `n` for a new game.
pub struct FakeHost;

impl super::Host for FakeHost {
    fn name(&self) -> &str {
        "fake window"
    }
    fn status(&self, _shot: &Screenshot, _board: Rect) -> super::StatusReading {
        super::StatusReading::unread()
    }
    fn new_game(&self) -> Option<Gesture<(f64, f64)>> {
        Some(Gesture::Key(KeyName::Char('n')))
    }
}
