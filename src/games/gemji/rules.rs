//! Gemji rules: gems on a grid, player moves of one tile, chained effects,
//! finishes to fill. Every decision the Gemji report leaves open is listed
//! in the module documentation of [`super`] and tested below by name.

use std::fmt;

use crate::solver::{Keyed, Problem};

/// Widest and highest board.
pub const MAX_SIDE: usize = 10;
/// Most cells of a board.
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;
/// Words of a packed position key (4 bits per cell).
pub const KEY_WORDS: usize = MAX_CELLS.div_ceil(16);

/// A gem type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[repr(u8)]
pub enum Gem {
    /// Pushes its four neighbours one tile away.
    Red = 1,
    /// Pulls the gems two tiles away one tile closer.
    Yellow = 2,
    /// Springs back to the cell it was moved from.
    Blue = 3,
    /// Swaps places with the gem that moved it (or, moved by the player,
    /// with the nearest gem in clockwise order).
    Purple = 4,
    /// Not movable by the player; moved by effects; activates (no effect).
    White = 5,
    /// Not movable by the player; moved by effects; never activates.
    Grey = 6,
    /// A fixed obstacle: never moves.
    Black = 7,
}

impl Gem {
    /// All types, in code order.
    pub const ALL: [Gem; 7] = [
        Gem::Red,
        Gem::Yellow,
        Gem::Blue,
        Gem::Purple,
        Gem::White,
        Gem::Grey,
        Gem::Black,
    ];

    /// The type of cell code `c` (0 is empty).
    pub fn from_code(c: u8) -> Option<Gem> {
        Gem::ALL.get((c as usize).wrapping_sub(1)).copied()
    }

    /// The letter of the type in level files (`R Y B P W G K`).
    pub fn letter(self) -> char {
        match self {
            Gem::Red => 'R',
            Gem::Yellow => 'Y',
            Gem::Blue => 'B',
            Gem::Purple => 'P',
            Gem::White => 'W',
            Gem::Grey => 'G',
            Gem::Black => 'K',
        }
    }

    /// The type of a level-file letter (either case).
    pub fn from_letter(ch: char) -> Option<Gem> {
        Gem::ALL
            .into_iter()
            .find(|g| g.letter() == ch.to_ascii_uppercase())
    }

    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Gem::Red => "red",
            Gem::Yellow => "yellow",
            Gem::Blue => "blue",
            Gem::Purple => "purple",
            Gem::White => "white",
            Gem::Grey => "grey",
            Gem::Black => "black",
        }
    }

    /// True when the player may move it.
    pub fn player_movable(self) -> bool {
        matches!(self, Gem::Red | Gem::Yellow | Gem::Blue | Gem::Purple)
    }
}

/// A direction of a move or an effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Towards row 0.
    Up,
    /// Towards the last column.
    Right,
    /// Towards the last row.
    Down,
    /// Towards column 0.
    Left,
}

impl Dir {
    /// Clockwise from up: the order effects act in.
    pub const CLOCKWISE: [Dir; 4] = [Dir::Up, Dir::Right, Dir::Down, Dir::Left];

    /// `(dx, dy)`.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::Up => (0, -1),
            Dir::Right => (1, 0),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
        }
    }

    /// The lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Right => "right",
            Dir::Down => "down",
            Dir::Left => "left",
        }
    }
}

/// A player move: the gem on `cell` goes one tile in `dir`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The gem's cell (`y * width + x`).
    pub cell: u8,
    /// The direction.
    pub dir: Dir,
}

/// A position: the gem type on each cell (0 empty).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// Cell codes, `y * width + x`; cells past the board are 0.
    pub cells: [u8; MAX_CELLS],
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let used = self
            .cells
            .iter()
            .rposition(|&c| c != 0)
            .map_or(0, |i| i + 1);
        write!(f, "State({:?})", &self.cells[..used])
    }
}

impl State {
    /// An empty position.
    pub fn empty() -> State {
        State {
            cells: [0; MAX_CELLS],
        }
    }

    /// The gem on `cell`, if any.
    pub fn gem(&self, cell: usize) -> Option<Gem> {
        Gem::from_code(self.cells[cell])
    }

    /// The exact key: 4 bits per cell.
    pub fn key(&self) -> [u64; KEY_WORDS] {
        let mut k = [0u64; KEY_WORDS];
        for (i, &c) in self.cells.iter().enumerate() {
            k[i / 16] |= u64::from(c) << (4 * (i % 16));
        }
        k
    }
}

/// A finish: a cell that must hold a gem (of `gem`'s type when given).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Finish {
    /// The cell.
    pub cell: u8,
    /// The type it needs, if any.
    pub gem: Option<Gem>,
}

/// A level: the board's size, the gems at the start, the finishes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The position at the start.
    pub start: State,
    /// The finishes.
    pub finishes: Vec<Finish>,
}

/// What one turn did, for the difficulty score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TurnReport {
    /// Gems whose effect activated during the turn (the moved gem
    /// included; grey never activates).
    pub activations: u32,
}

const NONE: u8 = u8::MAX;

/// The gems of one turn with identities, so each activates once.
struct Turn<'a> {
    level: &'a Level,
    cells: [u8; MAX_CELLS],
    /// `ids[cell]`: the gem on the cell (NONE when empty).
    ids: [u8; MAX_CELLS],
    pos: Vec<u8>,
    kind: Vec<Gem>,
    activated: Vec<bool>,
    queue: std::collections::VecDeque<(u8, Option<u8>, u8)>,
}

impl<'a> Turn<'a> {
    fn new(level: &'a Level, s: &State) -> Self {
        let mut t = Turn {
            level,
            cells: s.cells,
            ids: [NONE; MAX_CELLS],
            pos: Vec::new(),
            kind: Vec::new(),
            activated: Vec::new(),
            queue: Default::default(),
        };
        for c in 0..level.width * level.height {
            if let Some(g) = s.gem(c) {
                t.ids[c] = t.pos.len() as u8;
                t.pos.push(c as u8);
                t.kind.push(g);
                t.activated.push(false);
            }
        }
        t
    }

    fn step(&self, cell: usize, d: Dir, n: i32) -> Option<usize> {
        let (dx, dy) = d.delta();
        let x = (cell % self.level.width) as i32 + dx * n;
        let y = (cell / self.level.width) as i32 + dy * n;
        (x >= 0 && y >= 0 && (x as usize) < self.level.width && (y as usize) < self.level.height)
            .then(|| y as usize * self.level.width + x as usize)
    }

    /// Moves gem `id` to the empty cell `to`.
    fn relocate(&mut self, id: u8, to: usize) {
        let from = self.pos[id as usize] as usize;
        self.cells[to] = self.cells[from];
        self.cells[from] = 0;
        self.ids[to] = id;
        self.ids[from] = NONE;
        self.pos[id as usize] = to as u8;
    }

    /// Moves gem `id` to `to` because of an effect of `by`: it then
    /// activates (unless grey).
    fn moved_by_effect(&mut self, id: u8, to: usize, by: u8) {
        let from = self.pos[id as usize];
        self.relocate(id, to);
        if self.kind[id as usize] != Gem::Grey {
            self.queue.push_back((id, Some(by), from));
        }
    }

    fn swap(&mut self, a: u8, b: u8) {
        let (pa, pb) = (self.pos[a as usize] as usize, self.pos[b as usize] as usize);
        self.cells.swap(pa, pb);
        self.ids.swap(pa, pb);
        self.pos[a as usize] = pb as u8;
        self.pos[b as usize] = pa as u8;
    }

    /// The nearest gem to `cell` other than black and `me`: rings of
    /// growing Chebyshev distance, each walked clockwise from straight up.
    fn nearest_clockwise(&self, cell: usize, me: u8) -> Option<u8> {
        let w = self.level.width as i32;
        let h = self.level.height as i32;
        let (cx, cy) = (
            (cell % self.level.width) as i32,
            (cell / self.level.width) as i32,
        );
        for r in 1..w.max(h) {
            // Clockwise from (cx, cy - r): right along the top edge, down
            // the right edge, left along the bottom, up the left edge.
            let mut ring = Vec::with_capacity(8 * r as usize);
            for x in cx..=cx + r {
                ring.push((x, cy - r));
            }
            for y in cy - r + 1..=cy + r {
                ring.push((cx + r, y));
            }
            for x in (cx - r..cx + r).rev() {
                ring.push((x, cy + r));
            }
            for y in (cy - r..cy + r).rev() {
                ring.push((cx - r, y));
            }
            for x in cx - r + 1..cx {
                ring.push((x, cy - r));
            }
            for (x, y) in ring {
                if x < 0 || y < 0 || x >= w || y >= h {
                    continue;
                }
                let id = self.ids[(y * w + x) as usize];
                if id != NONE && id != me && self.kind[id as usize] != Gem::Black {
                    return Some(id);
                }
            }
        }
        None
    }

    fn run(&mut self) -> u32 {
        let mut activations = 0;
        while let Some((id, by, from)) = self.queue.pop_front() {
            if self.activated[id as usize] {
                continue;
            }
            self.activated[id as usize] = true;
            activations += 1;
            let p = self.pos[id as usize] as usize;
            match self.kind[id as usize] {
                Gem::Red => {
                    for d in Dir::CLOCKWISE {
                        let Some(n) = self.step(p, d, 1) else {
                            continue;
                        };
                        let other = self.ids[n];
                        if other == NONE || self.kind[other as usize] == Gem::Black {
                            continue;
                        }
                        if let Some(t) = self.step(p, d, 2) {
                            if self.ids[t] == NONE {
                                self.moved_by_effect(other, t, id);
                            }
                        }
                    }
                }
                Gem::Yellow => {
                    for d in Dir::CLOCKWISE {
                        let (Some(m), Some(f)) = (self.step(p, d, 1), self.step(p, d, 2)) else {
                            continue;
                        };
                        let other = self.ids[f];
                        if other == NONE || self.kind[other as usize] == Gem::Black {
                            continue;
                        }
                        if self.ids[m] == NONE {
                            self.moved_by_effect(other, m, id);
                        }
                    }
                }
                Gem::Blue => {
                    if self.ids[from as usize] == NONE {
                        self.relocate(id, from as usize);
                    }
                }
                Gem::Purple => {
                    let partner = match by {
                        Some(b) => Some(b),
                        None => self.nearest_clockwise(p, id),
                    };
                    if let Some(b) = partner {
                        if self.kind[b as usize] != Gem::Black {
                            let bfrom = self.pos[b as usize];
                            self.swap(id, b);
                            if self.kind[b as usize] != Gem::Grey {
                                self.queue.push_back((b, Some(id), bfrom));
                            }
                        }
                    }
                }
                Gem::White | Gem::Grey | Gem::Black => {}
            }
        }
        activations
    }
}

impl Level {
    /// Cells on the board.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// The cell `dir` of `cell`, if on the board.
    pub fn neighbour(&self, cell: usize, dir: Dir) -> Option<usize> {
        let (dx, dy) = dir.delta();
        let x = (cell % self.width) as i32 + dx;
        let y = (cell / self.width) as i32 + dy;
        (x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height)
            .then(|| y as usize * self.width + x as usize)
    }

    /// The legal player moves of `s`: a red, yellow, blue or purple gem
    /// to an empty orthogonal neighbour, gems in cell order, directions
    /// clockwise from up.
    pub fn moves(&self, s: &State, out: &mut Vec<Move>) {
        for c in 0..self.cells() {
            if !s.gem(c).is_some_and(Gem::player_movable) {
                continue;
            }
            for d in Dir::CLOCKWISE {
                if let Some(n) = self.neighbour(c, d) {
                    if s.cells[n] == 0 {
                        out.push(Move {
                            cell: c as u8,
                            dir: d,
                        });
                    }
                }
            }
        }
    }

    /// The position after `mv` and its chain of effects, and what the
    /// turn did. `None` when the move is not legal.
    pub fn play(&self, s: &State, mv: Move) -> Option<(State, TurnReport)> {
        let c = mv.cell as usize;
        if c >= self.cells() || !s.gem(c).is_some_and(Gem::player_movable) {
            return None;
        }
        let to = self.neighbour(c, mv.dir)?;
        if s.cells[to] != 0 {
            return None;
        }
        let mut t = Turn::new(self, s);
        let id = t.ids[c];
        t.relocate(id, to);
        t.queue.push_back((id, None, c as u8));
        let activations = t.run();
        Some((State { cells: t.cells }, TurnReport { activations }))
    }

    /// True when every finish holds a gem of its type (any gem for a
    /// finish without one).
    pub fn won(&self, s: &State) -> bool {
        self.finishes
            .iter()
            .all(|f| match (s.gem(f.cell as usize), f.gem) {
                (Some(_), None) => true,
                (Some(g), Some(want)) => g == want,
                (None, _) => false,
            })
    }

    /// Gems on the board (black included).
    pub fn gem_count(&self) -> usize {
        self.start.cells.iter().filter(|&&c| c != 0).count()
    }

    /// Describes a move as `R c3 right` (column letter, row number from 1).
    pub fn describe(&self, s: &State, mv: Move) -> String {
        let c = mv.cell as usize;
        let g = s.gem(c).map_or('?', Gem::letter);
        format!(
            "{g} {}{} {}",
            (b'a' + (c % self.width) as u8) as char,
            c / self.width + 1,
            mv.dir.name()
        )
    }
}

impl Problem for Level {
    type State = State;
    type Move = Move;

    fn moves(&self, state: &State, out: &mut Vec<Move>) {
        Level::moves(self, state, out);
    }

    fn apply(&self, state: &State, mv: Move) -> State {
        self.play(state, mv)
            .expect("engines apply legal moves only")
            .0
    }

    fn is_goal(&self, state: &State) -> bool {
        self.won(state)
    }

    /// A chain of effects can fill several finishes in one turn, so the
    /// only bound that is always admissible is 1 for an unsolved position.
    fn lower_bound(&self, state: &State) -> u32 {
        u32::from(!self.won(state))
    }
}

impl Keyed for Level {
    type Key = [u64; KEY_WORDS];

    fn key(&self, state: &State) -> [u64; KEY_WORDS] {
        state.key()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A level from rows without finishes (the rules do not need any).
    fn lv(rows: &str) -> Level {
        let h = rows.lines().count();
        let w = rows.lines().next().unwrap().len();
        let mut start = State::empty();
        for (y, row) in rows.lines().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                if ch != '.' {
                    start.cells[y * w + x] = Gem::from_letter(ch).unwrap() as u8;
                }
            }
        }
        Level {
            width: w,
            height: h,
            start,
            finishes: Vec::new(),
        }
    }

    /// The legal move of the gem on `cell` towards `dir` from the level's
    /// start: the state after it and what happened.
    fn play_start(l: &Level, cell: u8, dir: Dir) -> (State, TurnReport) {
        l.play(&l.start, Move { cell, dir }).unwrap()
    }

    fn after(l: &Level, x: usize, y: usize, d: Dir) -> Option<String> {
        let mv = Move {
            cell: (y * l.width + x) as u8,
            dir: d,
        };
        l.play(&l.start, mv).map(|(s, _)| show(l, &s))
    }

    fn show(l: &Level, s: &State) -> String {
        (0..l.height)
            .map(|y| {
                (0..l.width)
                    .map(|x| s.gem(y * l.width + x).map_or('.', Gem::letter))
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// A rule's name, a level, a move (column, row, direction) and the
    /// level after it.
    type Case = (
        &'static str,
        &'static str,
        (usize, usize, Dir),
        &'static str,
    );

    /// One move on a small level and the level after it, each case named
    /// after the rule it shows.
    #[test]
    fn single_moves_follow_the_rules() {
        #[rustfmt::skip]
        let cases: &[Case] = &[
            // Red moves right next to the white and pushes it one tile on.
            ("red pushes simple", "R.W..", (0, 0, Dir::Right), ".R.W."),
            ("red cannot push black", "R.K..", (0, 0, Dir::Right), ".RK.."),
            // Yellow moves to (1,0); the white two tiles right comes one closer.
            ("yellow pulls simple", "Y..W.", (0, 0, Dir::Right), ".YW.."),
            ("yellow cannot pull black", "Y..K.", (0, 0, Dir::Right), ".Y.K."),
            // After the move the cell between yellow and the white is empty:
            // pulled. With a grey between them: not pulled.
            ("decision yellow pull needs the cell between empty", "Y.GW.", (0, 0, Dir::Right), ".YGW."),
            ("blue returns where it started", "B..", (0, 0, Dir::Right), "B.."),
            ("decision blue springs back when pushed", "R.B..", (0, 0, Dir::Right), ".RB.."),
            // Red pushes purple from (2,0) to (3,0); purple swaps with red.
            ("purple swaps with the gem that moved it", "R.P..", (0, 0, Dir::Right), ".P.R."),
            // Purple moves to (1,1). Ring 1 clockwise from straight up: (1,0)
            // is empty, (2,0) holds the white: that one swaps, though the grey
            // at (0,1) is as near.
            ("purple moved by the player swaps with the nearest clockwise", "..W\nG..\n.P.", (1, 2, Dir::Up), "..P\nGW.\n..."),
            // The black is nearest; it is skipped and the white further away
            // swaps.
            ("purple cannot swap with black", "K....\n.....\nP...W", (0, 2, Dir::Up), "K....\nW....\n....P"),
        ];
        for &(rule, level, (x, y, d), want) in cases {
            assert_eq!(after(&lv(level), x, y, d).unwrap(), want, "{rule}");
        }
    }

    #[test]
    fn moving_white_is_not_legal() {
        let l = lv("W..\n...");
        assert_eq!(after(&l, 0, 0, Dir::Right), None);
    }

    #[test]
    fn moving_grey_is_not_legal() {
        let l = lv("G..\n...");
        assert_eq!(after(&l, 0, 0, Dir::Right), None);
    }

    #[test]
    fn moving_black_is_not_legal() {
        let l = lv("K..\n...");
        assert_eq!(after(&l, 0, 0, Dir::Right), None);
        let mut ms = Vec::new();
        l.moves(&l.start, &mut ms);
        assert!(ms.is_empty());
    }

    #[test]
    fn decision_a_move_goes_to_an_empty_cell_on_the_board() {
        let l = lv("RW.\n...");
        assert_eq!(after(&l, 0, 0, Dir::Right), None);
        assert_eq!(after(&l, 0, 0, Dir::Left), None);
        assert_eq!(after(&l, 0, 0, Dir::Up), None);
    }

    #[test]
    fn red_pushes_some() {
        // Red moves right to the centre: its three gem neighbours are
        // pushed one tile away.
        let l = lv(".....\n..W..\n.R.W.\n..G..\n.....");
        let got = after(&l, 1, 2, Dir::Right).unwrap();
        assert_eq!(got, "..W..\n.....\n..R.W\n.....\n..G..");
    }

    #[test]
    fn decision_red_pushes_only_orthogonal_neighbours() {
        let l = lv("W....\n.....\n.R...");
        // Red moves up to (1,1): the white at (0,0) is diagonal: stays.
        assert_eq!(after(&l, 1, 2, Dir::Up).unwrap(), "W....\n.R...\n.....");
    }

    #[test]
    fn decision_a_push_into_a_gem_or_off_the_board_is_blocked() {
        // The white is against the edge: it stays.
        let l = lv("R.W");
        assert_eq!(after(&l, 0, 0, Dir::Right).unwrap(), ".RW");
        // The white has a gem behind it: it stays (no chain push).
        let l = lv("R.WG.");
        assert_eq!(after(&l, 0, 0, Dir::Right).unwrap(), ".RWG.");
    }

    #[test]
    fn yellow_pulls_some() {
        // Yellow moves down to the centre: the four whites two tiles away
        // come one tile closer.
        let l = lv("..W..\n..Y..\nW...W\n.....\n..W..");
        let got = after(&l, 2, 1, Dir::Down).unwrap();
        assert_eq!(got, ".....\n..W..\n.WYW.\n..W..\n.....");
    }

    #[test]
    fn decision_effects_chain_breadth_first_and_each_gem_acts_once() {
        // Red moves to b1 and pushes the yellow to d1; the yellow then
        // pulls the white from f1 to e1 (right comes before left) and the
        // red from b1 to c1; the red has acted already and does not push
        // again; the white activates (no effect).
        let l = lv("R.Y..W.");
        let (s, rep) = play_start(&l, 0, Dir::Right);
        assert_eq!(show(&l, &s), "..RYW..");
        assert_eq!(rep.activations, 3);
        // Two reds pushing each other apart: each acts once, the chain ends.
        let l = lv("R.R....");
        let (s, rep) = play_start(&l, 0, Dir::Right);
        assert_eq!(show(&l, &s), ".R.R...");
        assert_eq!(rep.activations, 2);
    }

    #[test]
    fn decision_grey_never_activates_and_white_does() {
        let l = lv("R.W..");
        let (_, rep) = play_start(&l, 0, Dir::Right);
        assert_eq!(rep.activations, 2);
        let l = lv("R.G..");
        let (_, rep) = play_start(&l, 0, Dir::Right);
        assert_eq!(rep.activations, 1);
    }

    #[test]
    fn won_when_every_finish_holds_a_gem_of_its_type() {
        let mut l = lv("R.\n..");
        l.finishes = vec![
            Finish { cell: 1, gem: None },
            Finish {
                cell: 3,
                gem: Some(Gem::Yellow),
            },
        ];
        assert!(!l.won(&l.start));
        let mut s = State::empty();
        s.cells[1] = Gem::White as u8;
        s.cells[3] = Gem::Yellow as u8;
        assert!(l.won(&s));
        s.cells[3] = Gem::Red as u8;
        assert!(!l.won(&s));
    }

    #[test]
    fn keys_are_exact() {
        let l = lv("RY.\n.PW");
        let mut other = l.start.clone();
        other.cells.swap(0, 1);
        assert_ne!(l.start.key(), other.key());
        assert_eq!(l.start.key(), l.start.clone().key());
    }
}
