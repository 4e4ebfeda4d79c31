//! Klotski's rules: a rectangle of floor cells and walls, blocks of any
//! shape on the floor, one of them the target; the goal area (`.`) where
//! the target must end and the exit (`-`), floor only the target may
//! cross. A move takes one block to any place it can reach by single-cell
//! steps with every other block still (GNOME Klotski counts a move once
//! while the same block keeps moving, so a move is one block however far,
//! around corners included).
//!
//! Positions are canonical: the blocks of one shape (a *class*) are
//! interchangeable, so a position is, per class, the sorted list of the
//! blocks' anchors (the cell of the top-left corner of the shape's
//! bounding box). Two positions that differ only by which of two identical
//! blocks stands where are one position. The target is a class of its own
//! even when another block has its shape.

use std::ops::Range;

/// The largest board side, in cells.
pub const MAX_SIDE: usize = 64;
/// The most blocks a board may hold (a move names its block in a byte).
pub const MAX_BLOCKS: usize = 255;
/// The letter of the target block.
pub const TARGET: char = '*';

/// What a cell is under the blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Floor {
    /// Never entered.
    Wall,
    /// Free floor.
    Open,
    /// Floor of the goal area: the target wins with all its cells on it.
    Goal,
    /// The exit: floor for the target only.
    Exit,
}

impl Floor {
    /// The map character: `#`, space, `.`, `-`.
    pub fn symbol(self) -> char {
        match self {
            Floor::Wall => '#',
            Floor::Open => ' ',
            Floor::Goal => '.',
            Floor::Exit => '-',
        }
    }

    /// The floor a map character stands for, `None` for a block's letter.
    pub fn of_symbol(c: char) -> Option<Floor> {
        match c {
            '#' => Some(Floor::Wall),
            ' ' => Some(Floor::Open),
            '.' => Some(Floor::Goal),
            '-' => Some(Floor::Exit),
            _ => None,
        }
    }
}

/// A block as a map or a reader gives it: its letter and its cells
/// `(x, y)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockSpec {
    /// The block's letter (`*` for the target).
    pub name: char,
    /// Its cells, `(column, row)` from 0.
    pub cells: Vec<(usize, usize)>,
}

/// Why blocks and a floor do not make a board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// A side is 0 or above [`MAX_SIDE`], or the floor has the wrong size.
    #[error("a board is 1 to {MAX_SIDE} cells a side ({0}x{1} given)")]
    Size(usize, usize),
    /// More than [`MAX_BLOCKS`] blocks.
    #[error("{0} blocks: at most {MAX_BLOCKS}")]
    TooManyBlocks(usize),
    /// A block without cells, or with a cell outside the board.
    #[error("block {0:?} has a cell outside the board or no cell at all")]
    Outside(char),
    /// Two blocks on one cell.
    #[error("blocks {0:?} and {1:?} overlap at column {2}, row {3}")]
    Overlap(char, char, usize, usize),
    /// A block on a wall, or a block other than the target on the exit.
    #[error("block {0:?} stands on a {1} at column {2}, row {3}")]
    OnFloor(char, &'static str, usize, usize),
    /// A block whose cells do not all touch.
    #[error("block {0:?} is in separate pieces: give each block its own letter")]
    Split(char),
    /// Two blocks share a letter.
    #[error("two blocks are called {0:?}")]
    SameName(char),
    /// No block `*`.
    #[error("no target block (the letter `*`)")]
    NoTarget,
    /// No goal cell `.`.
    #[error("no exit: the map has no goal cell `.` for the target to reach")]
    NoGoal,
    /// A block of a shape the board has no block of.
    #[error("block {0:?} has a shape no block of this puzzle has")]
    Shape(char),
    /// A shape with more or fewer blocks than the board has of it.
    #[error("{found} blocks of a shape the puzzle has {expected} of")]
    Count {
        /// Blocks of the shape on the board.
        expected: usize,
        /// Blocks of it given.
        found: usize,
    },
    /// The target's shape fits nowhere in the goal area.
    #[error("the target's shape fits nowhere on the goal cells `.`")]
    TargetNeverFits,
}

/// The blocks of one shape: interchangeable.
#[derive(Debug, Clone)]
struct Class {
    /// The shape's cells, `(dx, dy)` from the bounding box's corner.
    offsets: Vec<(usize, usize)>,
    /// The class of the target block.
    target: bool,
    /// The slots of the position that hold this class's anchors.
    slots: Range<usize>,
    /// Per anchor: where its cells start in `cells`, or `NONE` when the
    /// shape does not fit there on the floor alone.
    fit: Vec<u32>,
    /// The cells of the shape at each anchor it fits, `offsets.len()` each.
    cells: Vec<u16>,
}

const NONE: u32 = u32::MAX;

/// The scratch of [`Board::moves_of`], kept between calls (a search walks
/// every movable block of every position it expands).
#[derive(Default)]
struct Scratch {
    /// The mark of the current walk.
    stamp: u32,
    /// Per anchor: the stamp of the walk that reached it.
    seen: Vec<u32>,
    /// The anchors reached, in order.
    queue: Vec<u16>,
    /// Per cell: the slot + 1 of the block on it, 0 when free.
    occ: Vec<u8>,
    /// Per slot: the block touches a free cell (else it cannot move).
    movable: Vec<bool>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// One board: the floor and the block shapes, the static facts every
/// position shares.
#[derive(Debug, Clone)]
pub struct Board {
    width: usize,
    height: usize,
    floor: Vec<Floor>,
    classes: Vec<Class>,
    /// The class of each slot.
    class_of: Vec<u8>,
    /// The letters of the start's blocks, by slot.
    names: Vec<char>,
    /// Per anchor: the target there stands wholly on goal cells.
    goal: Vec<bool>,
}

/// A position: the anchor of every block, by slot, sorted within each
/// class (the canonical form).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    anchors: Box<[u16]>,
}

impl Position {
    /// The anchor cell (`y * width + x`) of each slot.
    pub fn anchors(&self) -> &[u16] {
        &self.anchors
    }
}

/// One move: the block in `slot` goes to anchor `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The slot of the block moved, in the position it is played on.
    pub slot: u8,
    /// The new anchor cell.
    pub to: u16,
}

impl Board {
    /// The board of `floor` (`width x height`, row by row) with `blocks`,
    /// and the position they stand in.
    pub fn new(
        width: usize,
        height: usize,
        floor: Vec<Floor>,
        blocks: &[BlockSpec],
    ) -> Result<(Board, Position), BoardError> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(BoardError::Size(width, height));
        }
        if floor.len() != width * height {
            return Err(BoardError::Size(width, height));
        }
        if blocks.len() > MAX_BLOCKS {
            return Err(BoardError::TooManyBlocks(blocks.len()));
        }
        check_blocks(width, height, &floor, blocks)?;
        if !blocks.iter().any(|b| b.name == TARGET) {
            return Err(BoardError::NoTarget);
        }
        if !floor.contains(&Floor::Goal) {
            return Err(BoardError::NoGoal);
        }
        // Classes: the target first, then the shapes in order of first
        // appearance.
        let mut order: Vec<&BlockSpec> = blocks.iter().filter(|b| b.name == TARGET).collect();
        order.extend(blocks.iter().filter(|b| b.name != TARGET));
        let mut classes: Vec<Class> = Vec::new();
        let mut members: Vec<Vec<(u16, char)>> = Vec::new();
        for b in order {
            let (corner, offsets) = normalise(&b.cells);
            let target = b.name == TARGET;
            let anchor = (corner.1 * width + corner.0) as u16;
            match classes
                .iter()
                .position(|c| c.offsets == offsets && c.target == target)
            {
                Some(i) => members[i].push((anchor, b.name)),
                None => {
                    classes.push(Class {
                        offsets,
                        target,
                        slots: 0..0,
                        fit: Vec::new(),
                        cells: Vec::new(),
                    });
                    members.push(vec![(anchor, b.name)]);
                }
            }
        }
        let mut anchors = Vec::with_capacity(blocks.len());
        let mut names = Vec::with_capacity(blocks.len());
        let mut class_of = Vec::with_capacity(blocks.len());
        for (i, (class, mut m)) in classes.iter_mut().zip(members).enumerate() {
            m.sort_unstable();
            class.slots = anchors.len()..anchors.len() + m.len();
            for (a, n) in m {
                anchors.push(a);
                names.push(n);
                class_of.push(i as u8);
            }
            fill_fits(class, width, height, &floor);
        }
        let target = &classes[0];
        let goal: Vec<bool> = (0..width * height)
            .map(|a| {
                let at = target.fit[a];
                at != NONE
                    && target.cells[at as usize..at as usize + target.offsets.len()]
                        .iter()
                        .all(|&c| floor[c as usize] == Floor::Goal)
            })
            .collect();
        if !goal.contains(&true) {
            return Err(BoardError::TargetNeverFits);
        }
        let board = Board {
            width,
            height,
            floor,
            classes,
            class_of,
            names,
            goal,
        };
        let start = Position {
            anchors: anchors.into_boxed_slice(),
        };
        Ok((board, start))
    }

    /// The position of this board that `blocks` show (the target named
    /// `*`, the other names free): every block on floor it may stand on,
    /// apart, and of the shapes and numbers of the board's blocks.
    pub fn position_of(&self, blocks: &[BlockSpec]) -> Result<Position, BoardError> {
        check_blocks(self.width, self.height, &self.floor, blocks)?;
        let mut per_class: Vec<Vec<u16>> = vec![Vec::new(); self.classes.len()];
        for b in blocks {
            let (corner, offsets) = normalise(&b.cells);
            let target = b.name == TARGET;
            let i = self
                .classes
                .iter()
                .position(|c| c.offsets == offsets && c.target == target)
                .ok_or(BoardError::Shape(b.name))?;
            per_class[i].push((corner.1 * self.width + corner.0) as u16);
        }
        let mut anchors = Vec::with_capacity(self.blocks());
        for (c, mut list) in self.classes.iter().zip(per_class) {
            if list.len() != c.slots.len() {
                return Err(BoardError::Count {
                    expected: c.slots.len(),
                    found: list.len(),
                });
            }
            list.sort_unstable();
            anchors.extend(list);
        }
        Ok(Position {
            anchors: anchors.into_boxed_slice(),
        })
    }

    /// The blocks of `pos`, lettered as [`Board::render`] letters them.
    pub fn blocks_of(&self, pos: &Position) -> Vec<BlockSpec> {
        (0..self.blocks())
            .map(|slot| BlockSpec {
                name: self.names[slot],
                cells: self.cells(pos, slot).iter().map(|&c| self.xy(c)).collect(),
            })
            .collect()
    }

    /// The target's shape: its cells from its bounding box's corner,
    /// sorted by row then column.
    pub fn target_shape(&self) -> &[(usize, usize)] {
        &self.classes[0].offsets
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The floor of cell `(x, y)`.
    pub fn floor(&self, x: usize, y: usize) -> Floor {
        self.floor[y * self.width + x]
    }

    /// How many blocks.
    pub fn blocks(&self) -> usize {
        self.class_of.len()
    }

    /// How many distinct classes (shapes, the target apart).
    pub fn classes(&self) -> usize {
        self.classes.len()
    }

    /// The cells of the block in `slot` of `pos`.
    pub fn cells(&self, pos: &Position, slot: usize) -> &[u16] {
        self.cells_at(&pos.anchors, slot)
    }

    /// The cells of the block in `slot` of the anchors `anchors`.
    fn cells_at(&self, anchors: &[u16], slot: usize) -> &[u16] {
        let c = &self.classes[self.class_of[slot] as usize];
        let at = c.fit[anchors[slot] as usize] as usize;
        &c.cells[at..at + c.offsets.len()]
    }

    /// The cells a block of class `class` covers at anchor `anchor`, or
    /// `None` when its shape does not lie on floor it may stand on there.
    pub fn shape_cells(&self, class: usize, anchor: u16) -> Option<&[u16]> {
        let c = &self.classes[class];
        let at = *c.fit.get(anchor as usize)?;
        (at != NONE).then(|| &c.cells[at as usize..at as usize + c.offsets.len()])
    }

    /// The anchors where a block of class `class` lies on floor it may
    /// stand on (the board's other blocks aside), in increasing order.
    pub fn fitting_anchors(&self, class: usize) -> Vec<u16> {
        let fit = &self.classes[class].fit;
        (0..fit.len() as u16)
            .filter(|&a| fit[a as usize] != NONE)
            .collect()
    }

    /// True when the target anchored at `anchor` stands wholly on goal
    /// cells.
    pub fn is_goal_anchor(&self, anchor: u16) -> bool {
        self.goal[anchor as usize]
    }

    /// The position with these anchors (by slot, each class sorted).
    pub fn position_from(&self, anchors: &[u16]) -> Position {
        Position {
            anchors: anchors.into(),
        }
    }

    /// The slots of the blocks of class `class`.
    pub fn class_slots(&self, class: usize) -> Range<usize> {
        self.classes[class].slots.clone()
    }

    /// The class (shape) of the block in `slot`.
    pub fn class_of(&self, slot: usize) -> usize {
        self.class_of[slot] as usize
    }

    /// The slot of `pos` holding the block of class `class` anchored at
    /// `anchor`, if there is one (blocks of one class never share an
    /// anchor).
    pub fn slot_of(&self, pos: &Position, class: usize, anchor: u16) -> Option<usize> {
        let slots = self.classes.get(class)?.slots.clone();
        slots.into_iter().find(|&s| pos.anchors[s] == anchor)
    }

    /// True when `slot` holds the target.
    pub fn is_target(&self, slot: usize) -> bool {
        self.classes[self.class_of[slot] as usize].target
    }

    /// True when the target stands wholly on the goal cells.
    pub fn is_solved(&self, pos: &Position) -> bool {
        self.goal[pos.anchors[0] as usize]
    }

    /// Fills `occ` with the block on each cell (the slot + 1, 0 when free).
    fn fill_occupancy(&self, anchors: &[u16], occ: &mut Vec<u8>) {
        occ.clear();
        occ.resize(self.width * self.height, 0);
        for slot in 0..self.blocks() {
            for &c in self.cells_at(anchors, slot) {
                occ[c as usize] = slot as u8 + 1;
            }
        }
    }

    /// Marks in `movable` the blocks next to a free cell: a block none of
    /// whose neighbours is free cannot take a single step.
    fn mark_movable(&self, occ: &[u8], movable: &mut Vec<bool>) {
        movable.clear();
        movable.resize(self.blocks(), false);
        for (c, &o) in occ.iter().enumerate() {
            if o != 0 || self.floor[c] == Floor::Wall {
                continue;
            }
            for n in self.neighbours(c) {
                if occ[n] != 0 {
                    movable[occ[n] as usize - 1] = true;
                }
            }
        }
    }

    /// The anchors next to `a` (the shape's fit decides the rest).
    pub fn neighbours(&self, a: usize) -> impl Iterator<Item = usize> {
        let (w, x, y) = (self.width, a % self.width, a / self.width);
        [
            (x > 0).then(|| a - 1),
            (x + 1 < w).then_some(a + 1),
            (y > 0).then(|| a - w),
            (y + 1 < self.height).then_some(a + w),
        ]
        .into_iter()
        .flatten()
    }

    /// True when the block of class `class` fits at anchor `a` on the
    /// cells `occ` leaves free.
    fn fits(&self, class: &Class, a: usize, occ: &[u8]) -> bool {
        let at = class.fit[a];
        at != NONE
            && class.cells[at as usize..at as usize + class.offsets.len()]
                .iter()
                .all(|&c| occ[c as usize] == 0)
    }

    /// Walks the places the block in `slot` reaches by single steps, the
    /// others still (`occ` their cells), calling `found(anchor, parent)`
    /// for each new one.
    fn walk(
        &self,
        anchors: &[u16],
        slot: usize,
        occ: &mut [u8],
        walk: (&mut u32, &mut Vec<u32>, &mut Vec<u16>),
        mut found: impl FnMut(u16, u16),
    ) {
        let (stamp, seen, queue) = walk;
        let class = &self.classes[self.class_of[slot] as usize];
        let from = anchors[slot] as usize;
        for &c in self.cells_at(anchors, slot) {
            occ[c as usize] = 0;
        }
        // A new stamp marks nothing seen without clearing the table.
        *stamp = stamp.wrapping_add(1);
        if *stamp == 0 || seen.len() < occ.len() {
            seen.clear();
            seen.resize(occ.len(), 0);
            *stamp = 1;
        }
        let stamp = *stamp;
        seen[from] = stamp;
        queue.clear();
        queue.push(from as u16);
        let mut next = 0;
        while next < queue.len() {
            let a = queue[next] as usize;
            next += 1;
            for b in self.neighbours(a) {
                if seen[b] != stamp && self.fits(class, b, occ) {
                    seen[b] = stamp;
                    queue.push(b as u16);
                    found(b as u16, a as u16);
                }
            }
        }
        for &c in self.cells_at(anchors, slot) {
            occ[c as usize] = slot as u8 + 1;
        }
    }

    /// Walks the block in `slot` of `anchors` (or, when `slot` is `None`,
    /// every block that can move), with the thread's scratch.
    fn walk_blocks(
        &self,
        anchors: &[u16],
        slot: Option<usize>,
        mut found: impl FnMut(usize, u16, u16),
    ) {
        SCRATCH.with(|scratch| {
            let s = &mut *scratch.borrow_mut();
            self.fill_occupancy(anchors, &mut s.occ);
            self.mark_movable(&s.occ, &mut s.movable);
            for b in 0..self.blocks() {
                if s.movable[b] && slot.is_none_or(|only| only == b) {
                    let walk = (&mut s.stamp, &mut s.seen, &mut s.queue);
                    self.walk(anchors, b, &mut s.occ, walk, |to, from| found(b, to, from));
                }
            }
        });
    }

    /// Appends every move of `pos` to `out`.
    pub fn moves(&self, pos: &Position, out: &mut Vec<Move>) {
        self.moves_of(&pos.anchors, out);
    }

    /// Appends every move of the position with anchors `anchors` to `out`.
    pub fn moves_of(&self, anchors: &[u16], out: &mut Vec<Move>) {
        self.walk_blocks(anchors, None, |slot, to, _| {
            out.push(Move {
                slot: slot as u8,
                to,
            })
        });
    }

    /// The anchors the block of `mv` passes through, its start and end
    /// included, one cell apart: the drag that plays the move. `None` when
    /// the move is not legal.
    pub fn path(&self, pos: &Position, mv: Move) -> Option<Vec<u16>> {
        let slot = mv.slot as usize;
        if slot >= self.blocks() {
            return None;
        }
        let mut parent = vec![u16::MAX; self.width * self.height];
        self.walk_blocks(&pos.anchors, Some(slot), |_, a, p| parent[a as usize] = p);
        if parent[mv.to as usize] == u16::MAX {
            return None;
        }
        let from = pos.anchors[slot];
        let mut path = vec![mv.to];
        while *path.last()? != from {
            path.push(parent[*path.last()? as usize]);
        }
        path.reverse();
        Some(path)
    }

    /// The position after `mv` (a legal move), canonical again.
    pub fn apply(&self, pos: &Position, mv: Move) -> Position {
        let mut anchors = pos.anchors.to_vec();
        let mut names = Vec::new();
        self.reseat(&mut anchors, &mut names, mv);
        Position {
            anchors: anchors.into_boxed_slice(),
        }
    }

    /// Plays `mv` on `anchors`, keeps its class sorted, and carries the
    /// block letters in `names` (when not empty) along.
    pub fn reseat(&self, anchors: &mut [u16], names: &mut [char], mv: Move) {
        let slots = self.classes[self.class_of[mv.slot as usize] as usize]
            .slots
            .clone();
        let mut i = mv.slot as usize;
        anchors[i] = mv.to;
        while i > slots.start && anchors[i - 1] > anchors[i] {
            anchors.swap(i - 1, i);
            if !names.is_empty() {
                names.swap(i - 1, i);
            }
            i -= 1;
        }
        while i + 1 < slots.end && anchors[i + 1] < anchors[i] {
            anchors.swap(i + 1, i);
            if !names.is_empty() {
                names.swap(i + 1, i);
            }
            i += 1;
        }
    }

    /// The column and row of an anchor.
    pub fn xy(&self, a: u16) -> (usize, usize) {
        (a as usize % self.width, a as usize / self.width)
    }

    /// Each move of a solution from `start` as `LETTER (x,y)->(x,y)`
    /// (anchor columns and rows from 0), the letters those of the start's
    /// blocks, followed as they move.
    pub fn describe(&self, start: &Position, moves: &[Move]) -> Vec<String> {
        let mut anchors = start.anchors.to_vec();
        let mut names = self.names.clone();
        moves
            .iter()
            .map(|&mv| {
                let (fx, fy) = self.xy(anchors[mv.slot as usize]);
                let (tx, ty) = self.xy(mv.to);
                let name = names[mv.slot as usize];
                self.reseat(&mut anchors, &mut names, mv);
                format!("{name} ({fx},{fy})->({tx},{ty})")
            })
            .collect()
    }

    /// The map of `pos`, one string a row; identical blocks take the
    /// start's letters in reading order.
    pub fn render(&self, pos: &Position) -> Vec<String> {
        let mut grid: Vec<char> = self.floor.iter().map(|f| f.symbol()).collect();
        for slot in 0..self.blocks() {
            for &c in self.cells(pos, slot) {
                grid[c as usize] = self.names[slot];
            }
        }
        grid.chunks(self.width)
            .map(|r| r.iter().collect())
            .collect()
    }

    /// [`Board::render`] on one line, rows between `|`: the one-line form
    /// the parser reads back.
    pub fn to_text(&self, pos: &Position) -> String {
        let rows = self.render(pos);
        format!("|{}|", rows.join("|"))
    }
}

/// Checks that the blocks lie on the board, on floor they may stand on,
/// apart from each other, each in one piece and with its own letter.
fn check_blocks(
    width: usize,
    height: usize,
    floor: &[Floor],
    blocks: &[BlockSpec],
) -> Result<(), BoardError> {
    let mut owner: Vec<Option<char>> = vec![None; width * height];
    for (i, b) in blocks.iter().enumerate() {
        if blocks[..i].iter().any(|o| o.name == b.name) {
            return Err(BoardError::SameName(b.name));
        }
        if b.cells.is_empty() || b.cells.iter().any(|&(x, y)| x >= width || y >= height) {
            return Err(BoardError::Outside(b.name));
        }
        for &(x, y) in &b.cells {
            let c = y * width + x;
            if let Some(o) = owner[c] {
                return Err(BoardError::Overlap(o, b.name, x, y));
            }
            owner[c] = Some(b.name);
            match floor[c] {
                Floor::Wall => return Err(BoardError::OnFloor(b.name, "wall", x, y)),
                Floor::Exit if b.name != TARGET => {
                    return Err(BoardError::OnFloor(b.name, "exit", x, y))
                }
                _ => {}
            }
        }
        if !connected(&b.cells) {
            return Err(BoardError::Split(b.name));
        }
    }
    Ok(())
}

/// True when the cells form one piece (edge to edge).
fn connected(cells: &[(usize, usize)]) -> bool {
    let mut reached = vec![false; cells.len()];
    reached[0] = true;
    let mut stack = vec![cells[0]];
    while let Some((x, y)) = stack.pop() {
        for (i, &(u, v)) in cells.iter().enumerate() {
            if !reached[i] && x.abs_diff(u) + y.abs_diff(v) == 1 {
                reached[i] = true;
                stack.push((u, v));
            }
        }
    }
    reached.iter().all(|&r| r)
}

/// The shape of `cells`: the cells from their bounding box's corner,
/// sorted by row then column (as [`Board::target_shape`]).
pub fn shape_of(cells: &[(usize, usize)]) -> Vec<(usize, usize)> {
    normalise(cells).1
}

/// The corner of the cells' bounding box and the cells from it, sorted.
fn normalise(cells: &[(usize, usize)]) -> ((usize, usize), Vec<(usize, usize)>) {
    let x0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let y0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let mut offsets: Vec<(usize, usize)> = cells.iter().map(|&(x, y)| (x - x0, y - y0)).collect();
    offsets.sort_unstable_by_key(|&(x, y)| (y, x));
    ((x0, y0), offsets)
}

/// Fills the class's fit table: the anchors where its shape lies on the
/// board on floor it may cross.
fn fill_fits(class: &mut Class, width: usize, height: usize, floor: &[Floor]) {
    class.fit = vec![NONE; width * height];
    class.cells.clear();
    for a in 0..width * height {
        let (x, y) = (a % width, a / width);
        let cells: Option<Vec<u16>> = class
            .offsets
            .iter()
            .map(|&(dx, dy)| {
                let (u, v) = (x + dx, y + dy);
                if u >= width || v >= height {
                    return None;
                }
                let c = v * width + u;
                match floor[c] {
                    Floor::Wall => None,
                    Floor::Exit if !class.target => None,
                    _ => Some(c as u16),
                }
            })
            .collect();
        if let Some(cells) = cells {
            class.fit[a] = class.cells.len() as u32;
            class.cells.extend(cells);
        }
    }
}
