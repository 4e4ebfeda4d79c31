//! Finding where a rule matches and writing its replacement, as the
//! reference engine does: rows scanned column by column (vertical rules)
//! or row by row (horizontal ones), ellipsis gaps from short to long, the
//! matches of several rows combined with the first row varying fastest,
//! and every combination after the first checked again before it is
//! applied (an earlier replacement may have spoiled it). On boards of
//! 128 cells or more, and on smaller ones of games with many rules, a
//! row's starts are found word by word on bit boards of the objects (see
//! [`Boards`]).

use std::borrow::Cow;

use super::bits::{self, Bits};
use super::compile::{
    BoardTest, CellPattern, Game, ObjectSet, Pattern, Replacement, Rule, TestKind,
};
use super::rng::Rng;

/// A level's cells while a turn is played.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// Width in cells.
    pub width: usize,
    /// Height in cells.
    pub height: usize,
    /// Object words per cell.
    pub ow: usize,
    /// Movement words per cell.
    pub mw: usize,
    /// Objects, cell `x*height+y` at words `[i*ow, (i+1)*ow)`.
    pub objects: Vec<u64>,
    /// Movements, five bits per layer. Set them through the board's
    /// methods, which keep [`Board::moving`] (clearing one directly is
    /// safe).
    pub movements: Vec<u64>,
    /// Rigid group index + 1 per layer, for cells a rigid rule moved.
    pub rigid_group: Vec<u64>,
    /// Layers a rigid rule decided the movement of.
    pub rigid_applied: Vec<u64>,
    /// Objects that may be in each row (a superset, as the reference keeps).
    row_objects: Vec<u64>,
    /// Objects that may be in each column.
    col_objects: Vec<u64>,
    /// Movements that may be in each row.
    row_moves: Vec<u64>,
    /// Movements that may be in each column.
    col_moves: Vec<u64>,
    /// Objects that may be anywhere on the board.
    all_objects: Vec<u64>,
    /// Movements that may be anywhere on the board.
    all_moves: Vec<u64>,
    /// Per object id, the cells that hold it: bit `i` of words
    /// `[id*cw, (id+1)*cw)`, `cw` words a board. Kept on boards of
    /// [`ANCHOR_MIN_CELLS`] cells or more, exact while rules run: rebuilt
    /// when a turn starts and updated by every write of the turn.
    occupancy: Vec<u64>,
    /// The cells that may have a movement (a superset), one bit a cell as
    /// the occupancy: kept on an anchored board by every write of a
    /// movement, cleared with them. A cell pattern that needs a movement
    /// matches only there.
    moving: Vec<u64>,
    /// Rows are matched on the occupancy ([`Board::anchored`]).
    bit_boards: bool,
    /// The occupancy is that of the cells: [`Board::set_objects`] may
    /// update it cell by cell instead of rebuilding it.
    occupancy_exact: bool,
    /// No cell has a movement or a rigid mark: clearing them is free.
    still: bool,
    /// Counts the changes of the occupancy (see [`Union`]).
    generation: u64,
}

impl Board {
    /// A board with `objects` and no movement.
    pub fn new(width: usize, height: usize, ow: usize, mw: usize, objects: Vec<u64>) -> Board {
        let n = width * height;
        Board {
            width,
            height,
            ow,
            mw,
            objects,
            movements: vec![0; n * mw],
            rigid_group: vec![0; n * mw],
            rigid_applied: vec![0; n * mw],
            row_objects: vec![0; height * ow],
            col_objects: vec![0; width * ow],
            row_moves: vec![0; height * mw],
            col_moves: vec![0; width * mw],
            all_objects: vec![0; ow],
            all_moves: vec![0; mw],
            occupancy: vec![0; ow * 64 * bits::words_for(n)],
            moving: vec![0; bits::words_for(n)],
            bit_boards: n >= ANCHOR_MIN_CELLS,
            occupancy_exact: false,
            still: false,
            generation: 0,
        }
    }

    /// Matches rows on bit boards whatever the board's size: for a game
    /// of `rules` rules (as compiled, one a direction), when they are
    /// [`MANY_RULES`] or more. Scanning a small board cell by cell for
    /// each of many rules costs more than keeping the occupancy.
    pub fn anchor_for(&mut self, rules: usize) {
        if rules >= MANY_RULES && !self.bit_boards {
            self.bit_boards = true;
            self.occupancy_exact = false;
            self.rebuild_moving();
        }
    }

    /// Words of one object's occupancy (one bit a cell).
    fn occupancy_words(&self) -> usize {
        bits::words_for(self.cells())
    }

    /// True if rows are matched on the occupancy: the board is large
    /// enough, or the game's rules many enough (a small board of a game
    /// with few rules is scanned: keeping the occupancy would cost more).
    pub(super) fn anchored(&self) -> bool {
        self.bit_boards
    }

    /// Rebuilds the occupancy from the cells.
    fn rebuild_occupancy(&mut self) {
        let (ow, cw) = (self.ow, self.occupancy_words());
        self.generation += 1;
        self.occupancy.fill(0);
        for (i, cell) in self.objects.chunks_exact(ow).enumerate() {
            let bit = 1u64 << (i % 64);
            for (w, &word) in cell.iter().enumerate() {
                let mut o = word;
                while o != 0 {
                    let id = w * 64 + o.trailing_zeros() as usize;
                    o &= o - 1;
                    self.occupancy[id * cw + i / 64] |= bit;
                }
            }
        }
    }

    /// Rebuilds the cells that may move from the cells' movements.
    fn rebuild_moving(&mut self) {
        let mw = self.mw.max(1);
        self.moving.fill(0);
        for (i, m) in self.movements.chunks_exact(mw).enumerate() {
            if m.iter().any(|&w| w != 0) {
                self.moving[i / 64] |= 1 << (i % 64);
            }
        }
    }

    /// Notes that cell `i` may have a movement.
    fn mark_moving(&mut self, i: usize) {
        if self.anchored() {
            self.moving[i / 64] |= 1 << (i % 64);
        }
    }

    /// The cells that hold object `id`.
    fn occupied(&self, id: usize) -> &[u64] {
        let cw = self.occupancy_words();
        &self.occupancy[id * cw..(id + 1) * cw]
    }

    /// Makes this board the same as `other`, reusing its buffers.
    pub fn reset_from(&mut self, other: &Board) {
        self.width = other.width;
        self.height = other.height;
        self.ow = other.ow;
        self.mw = other.mw;
        self.objects.clone_from(&other.objects);
        self.movements.clone_from(&other.movements);
        self.rigid_group.clone_from(&other.rigid_group);
        self.rigid_applied.clone_from(&other.rigid_applied);
        self.row_objects.clone_from(&other.row_objects);
        self.col_objects.clone_from(&other.col_objects);
        self.row_moves.clone_from(&other.row_moves);
        self.col_moves.clone_from(&other.col_moves);
        self.all_objects.clone_from(&other.all_objects);
        self.all_moves.clone_from(&other.all_moves);
        self.occupancy.clone_from(&other.occupancy);
        self.moving.clone_from(&other.moving);
        // What was ORed from this board's occupancy no longer holds.
        self.generation = self.generation.max(other.generation) + 1;
        self.bit_boards = other.bit_boards;
        self.occupancy_exact = other.occupancy_exact;
        self.still = other.still;
    }

    /// Puts `objects` on the board, updating the occupancy of the cells
    /// that change when it is exact (rebuilding it costs more).
    pub fn set_objects(&mut self, objects: &[u64]) {
        if self.anchored() && self.occupancy_exact {
            let ow = self.ow;
            for (k, &new) in objects.iter().enumerate() {
                let old = self.objects[k];
                if old != new {
                    self.occupy_word(k / ow, k % ow, old, new);
                }
            }
        }
        self.objects.copy_from_slice(objects);
    }

    /// Sets the movements of every cell to `movements`.
    pub fn set_movements(&mut self, movements: &[u64]) {
        self.movements.copy_from_slice(movements);
        self.still = false;
        if self.anchored() {
            self.rebuild_moving();
        }
    }

    /// ORs the five-bit movement `dir` into layer `layer` of cell `i`.
    pub fn add_movement(&mut self, i: usize, layer: usize, dir: u64) {
        let mw = self.mw;
        bits::or_field(&mut self.movements[i * mw..(i + 1) * mw], layer, dir);
        self.still = false;
        self.mark_moving(i);
    }

    /// Recomputes the masks from the cells: on an anchored board the
    /// occupancy (rebuilt unless exact) and the board's masks, its rows'
    /// and columns' being unused (see [`Board::line_may_match`]); on
    /// another the row and column masks.
    pub fn recompute_masks(&mut self) {
        if self.anchored() {
            if !self.occupancy_exact {
                self.rebuild_occupancy();
                self.occupancy_exact = true;
            }
            self.board_masks_from_occupancy();
            return;
        }
        self.row_objects.fill(0);
        self.col_objects.fill(0);
        self.row_moves.fill(0);
        self.col_moves.fill(0);
        self.all_objects.fill(0);
        self.all_moves.fill(0);
        let h = self.height;
        if h == 0 {
            return;
        }
        line_masks(
            &self.objects,
            self.ow,
            h,
            &mut self.row_objects,
            &mut self.col_objects,
            &mut self.all_objects,
        );
        line_masks(
            &self.movements,
            self.mw,
            h,
            &mut self.row_moves,
            &mut self.col_moves,
            &mut self.all_moves,
        );
    }

    /// Sets the board's object mask from the occupancy and its movement
    /// mask from the cells.
    fn board_masks_from_occupancy(&mut self) {
        let cw = self.occupancy_words();
        self.all_objects.fill(0);
        for (id, cells) in self.occupancy.chunks_exact(cw).enumerate() {
            if !bits::is_zero(cells) {
                bits::set(&mut self.all_objects, id);
            }
        }
        bits::or_records(&self.movements, &mut self.all_moves);
    }

    /// Adds cell `i`'s objects and movements to its row and column masks.
    pub fn note(&mut self, i: usize) {
        let (ow, mw, h) = (self.ow, self.mw, self.height);
        let (x, y) = (i / h, i % h);
        for w in 0..ow {
            let o = self.objects[i * ow + w];
            self.row_objects[y * ow + w] |= o;
            self.col_objects[x * ow + w] |= o;
            self.all_objects[w] |= o;
        }
        for w in 0..mw {
            let m = self.movements[i * mw + w];
            self.row_moves[y * mw + w] |= m;
            self.col_moves[x * mw + w] |= m;
            self.all_moves[w] |= m;
        }
    }

    /// Sets word `w` of cell `i`'s objects to `new`, adds the objects it
    /// gains to the cell's line masks (they hold what the cell held
    /// already) and updates the occupancy. Returns the bits that changed.
    fn write_objects(&mut self, i: usize, w: usize, new: u64) -> u64 {
        let ow = self.ow;
        let old = std::mem::replace(&mut self.objects[i * ow + w], new);
        let added = new & !old;
        if added != 0 {
            let line = (i / self.height, i % self.height);
            self.row_objects[line.1 * ow + w] |= added;
            self.col_objects[line.0 * ow + w] |= added;
            self.all_objects[w] |= added;
        }
        self.occupy_word(i, w, old, new);
        old ^ new
    }

    /// Updates the occupancy for word `w` of cell `i` going from `old` to
    /// `new` (nothing on a board too small to keep one).
    fn occupy_word(&mut self, i: usize, w: usize, old: u64, new: u64) {
        if !self.anchored() {
            return;
        }
        let cw = self.occupancy_words();
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let (mut added, mut removed) = (new & !old, old & !new);
        self.generation += u64::from(added | removed != 0);
        while added != 0 {
            let id = w * 64 + added.trailing_zeros() as usize;
            added &= added - 1;
            self.occupancy[id * cw + word] |= bit;
        }
        while removed != 0 {
            let id = w * 64 + removed.trailing_zeros() as usize;
            removed &= removed - 1;
            self.occupancy[id * cw + word] &= !bit;
        }
    }

    /// Moves the objects of `layer_mask` from cell `from` to cell `to`
    /// (whose layer is free) and notes `to` in the masks.
    pub fn move_layer(&mut self, from: usize, to: usize, layer_mask: &[u64]) {
        let ow = self.ow;
        for (w, l) in layer_mask.iter().enumerate().take(ow) {
            let moving = self.objects[from * ow + w] & l;
            if moving == 0 {
                continue;
            }
            self.objects[from * ow + w] &= !l;
            self.occupy_word(from, w, moving, 0);
            let old = self.objects[to * ow + w];
            self.objects[to * ow + w] |= moving;
            self.occupy_word(to, w, old, old | moving);
        }
        self.note(to);
    }

    /// Sets word `w` of cell `i`'s movements to `new` and adds the
    /// movements it gains to the line masks. Returns the bits that changed.
    fn write_moves(&mut self, i: usize, w: usize, new: u64) -> u64 {
        let mw = self.mw;
        // Clearing movements keeps a still board still.
        self.still &= new == 0;
        let old = std::mem::replace(&mut self.movements[i * mw + w], new);
        let added = new & !old;
        if added != 0 {
            let line = (i / self.height, i % self.height);
            self.row_moves[line.1 * mw + w] |= added;
            self.col_moves[line.0 * mw + w] |= added;
            self.all_moves[w] |= added;
            self.mark_moving(i);
        }
        old ^ new
    }

    /// True if row `y` (or column `x` when `column`) may hold `objects` and
    /// `moves`; always on an anchored board, which keeps no line masks.
    pub(super) fn line_may_match(
        &self,
        column: bool,
        k: usize,
        objects: &[u64],
        moves: &[u64],
    ) -> bool {
        if self.anchored() {
            return true;
        }
        let (ow, mw) = (self.ow, self.mw);
        if column {
            bits::subset(objects, &self.col_objects[k * ow..(k + 1) * ow])
                && bits::subset(moves, &self.col_moves[k * mw..(k + 1) * mw])
        } else {
            bits::subset(objects, &self.row_objects[k * ow..(k + 1) * ow])
                && bits::subset(moves, &self.row_moves[k * mw..(k + 1) * mw])
        }
    }

    /// True if the board may hold `needs`: objects (`ow` words) then
    /// movements (`mw` words), each somewhere.
    pub fn may_hold(&self, needs: &[u64]) -> bool {
        let (objects, moves) = needs.split_at(self.ow);
        self.may_hold_all(objects, moves)
    }

    /// True if the board may hold every bit of `objects` and of `moves`,
    /// each somewhere.
    pub fn may_hold_all(&self, objects: &[u64], moves: &[u64]) -> bool {
        bits::subset(objects, &self.all_objects) && bits::subset(moves, &self.all_moves)
    }

    /// Writes replacement `r` into cell `i` with `masks` (its own, or
    /// with what a random pick added), updating the cell's masks and the
    /// occupancy; true if it changed. The bits that changed are ORed into
    /// `written`.
    pub(super) fn write_replacement(
        &mut self,
        r: &Replacement,
        masks: &CellWrite,
        i: usize,
        written: &mut [u64],
    ) -> bool {
        let (ow, mw) = (self.ow, self.mw);
        let mut changed = 0;
        for &w in &r.object_words {
            let x = self.write_objects(i, w, masks.objects(w, self.objects[i * ow + w]));
            written[w] |= x;
            changed |= x;
        }
        for &w in &r.move_words {
            let x = self.write_moves(i, w, masks.moves(w, self.movements[i * mw + w]));
            written[ow + w] |= x;
            changed |= x;
        }
        changed != 0
    }

    /// After replacement `r` (neither random nor rigid) was written into
    /// the words of `cells` (one bit a cell, at least one): the occupancy
    /// of the objects it sets gains them and that of the objects it
    /// clears loses them, a word of cells at a time, and the board's
    /// masks gain what it sets (a cell that held it already was in them).
    pub(super) fn occupy_cells(&mut self, r: &Replacement, cells: &[u64]) {
        let cw = self.occupancy_words();
        self.generation += 1;
        for &w in &r.object_words {
            let (set, cleared) = (r.set[w], r.clear[w] & !r.set[w]);
            for id in bits::ones(&[set]).map(|k| w * 64 + k) {
                bits::or(&mut self.occupancy[id * cw..(id + 1) * cw], cells);
            }
            for id in bits::ones(&[cleared]).map(|k| w * 64 + k) {
                bits::and_not(&mut self.occupancy[id * cw..(id + 1) * cw], cells);
            }
            self.all_objects[w] |= set;
        }
        for &w in &r.move_words {
            self.all_moves[w] |= r.moves_set[w];
            // Clearing movements keeps a still board still.
            self.still &= r.moves_set[w] == 0;
            if r.moves_set[w] != 0 {
                bits::or(&mut self.moving, cells);
            }
        }
    }

    /// Movement bits that may be somewhere on the board (a superset).
    pub fn moves_anywhere(&self) -> &[u64] {
        &self.all_moves
    }

    /// False if no cell can have a movement (the masks say none).
    pub fn may_move(&self) -> bool {
        !bits::is_zero(&self.all_moves)
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// The objects of cell `i`.
    pub fn cell(&self, i: usize) -> &[u64] {
        &self.objects[i * self.ow..(i + 1) * self.ow]
    }

    /// The movements of cell `i`.
    pub fn moves(&self, i: usize) -> &[u64] {
        &self.movements[i * self.mw..(i + 1) * self.mw]
    }

    /// Clears every movement and rigid mark.
    pub fn clear_movements(&mut self) {
        if self.still {
            return;
        }
        self.movements.fill(0);
        self.rigid_group.fill(0);
        self.rigid_applied.fill(0);
        self.moving.fill(0);
        self.still = true;
    }

    /// The index step of one cell in direction `dir` (1 up, 2 down, 4 left,
    /// 8 right).
    pub fn delta(&self, dir: u8) -> isize {
        match dir {
            1 => -1,
            2 => 1,
            4 => -(self.height as isize),
            _ => self.height as isize,
        }
    }
}

/// ORs every cell of `cells` (`words` words each, columns of `h` cells)
/// into its row's, its column's and the board's mask.
fn line_masks(
    cells: &[u64],
    words: usize,
    h: usize,
    rows: &mut [u64],
    cols: &mut [u64],
    all: &mut [u64],
) {
    if words == 1 {
        let mut any = 0;
        for (column, col) in cells.chunks_exact(h).zip(cols.iter_mut()) {
            let mut c = 0;
            for (cell, row) in column.iter().zip(rows.iter_mut()) {
                c |= cell;
                *row |= cell;
            }
            *col = c;
            any |= c;
        }
        all[0] = any;
        return;
    }
    for (column, col) in cells
        .chunks_exact(words * h)
        .zip(cols.chunks_exact_mut(words))
    {
        for (cell, row) in column.chunks_exact(words).zip(rows.chunks_exact_mut(words)) {
            for w in 0..words {
                col[w] |= cell[w];
                row[w] |= cell[w];
                all[w] |= cell[w];
            }
        }
    }
}

/// Where one row of a rule matched: its first cell and its ellipsis gaps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowMatch {
    /// Index of the row's first cell.
    pub start: usize,
    /// The gap of each ellipsis.
    pub gaps: [usize; 2],
}

#[inline]
pub(super) fn cell_matches(p: &CellPattern, b: &Board, i: usize) -> bool {
    match &p.single {
        Some(s) => s.matches(
            b.objects[i * b.ow + s.word],
            b.movements[i * b.mw + s.move_word],
        ),
        None => tests_match(p, b, i),
    }
}

/// True if cell `i` passes every test of `p`, walked one by one.
fn tests_match(p: &CellPattern, b: &Board, i: usize) -> bool {
    let (o, m) = (i * b.ow, i * b.mw);
    for t in &p.tests {
        let v = if t.moves {
            b.movements[m + t.word]
        } else {
            b.objects[o + t.word]
        } & t.mask;
        let ok = match t.kind {
            TestKind::All => v == t.mask,
            TestKind::Any => v != 0,
            TestKind::None => v == 0,
        };
        if !ok {
            return false;
        }
    }
    !p.wide_any || p.any_present.iter().all(|m| bits::meets(m, b.cell(i)))
}

/// True if `row` matches from `start` with the given ellipsis gaps.
pub fn row_matches_at(
    row: &[Pattern],
    b: &Board,
    start: usize,
    d: isize,
    gaps: &[usize; 2],
) -> bool {
    let mut pos = start as isize;
    let mut e = 0;
    for p in row {
        match p {
            Pattern::Ellipsis => {
                pos += d * gaps[e] as isize;
                e += 1;
            }
            Pattern::Cell(c) => {
                if !cell_matches(c, b, pos as usize) {
                    return false;
                }
                pos += d;
            }
        }
    }
    true
}

/// True if the cells of `segment` (no ellipsis in it) match from `start`.
fn segment_matches(segment: &[Pattern], b: &Board, start: isize, d: isize) -> bool {
    let mut pos = start;
    for p in segment {
        if let Pattern::Cell(c) = p {
            if !cell_matches(c, b, pos as usize) {
                return false;
            }
        }
        pos += d;
    }
    true
}

/// The starts of a row of `len` cells in direction `dir` that keep it on
/// the board: `(xmin, xmax, ymin, ymax)`, the ends excluded.
fn start_range(len: isize, dir: u8, b: &Board) -> [isize; 4] {
    let (w, h) = (b.width as isize, b.height as isize);
    match dir {
        1 => [0, w, len - 1, h],
        2 => [0, w, 0, h - (len - 1)],
        4 => [len - 1, w, 0, h],
        _ => [0, w - (len - 1), 0, h],
    }
}

/// Buffers of matching on bit boards (one bit a cell, in the order of the
/// occupancy), reused from row to row.
#[derive(Debug, Clone, Default)]
pub struct Boards {
    /// The cells a row may start from.
    starts: Vec<u64>,
    /// One cell's board.
    cell: Vec<u64>,
    /// The boards of object sets last ORed (see [`Union`]).
    unions: Vec<Union>,
}

/// The OR of the bit boards of an [`ObjectSet`], kept while the board's
/// occupancy is unchanged: rules tested one after the other without a
/// write between them (most find nothing) share it.
#[derive(Debug, Clone, Default)]
pub struct Union {
    /// The objects ORed.
    ids: Vec<usize>,
    /// The board's [`Board::generation`] then.
    generation: u64,
    /// Their cells.
    board: Vec<u64>,
}

impl Union {
    /// Slots of the cache, a power of two.
    const SLOTS: usize = 32;

    /// The cells of `b` that hold an object of `set`: from the cache when
    /// nothing was written since it was ORed.
    fn of<'a>(cache: &'a mut Vec<Union>, set: &ObjectSet, b: &'a Board) -> &'a [u64] {
        if let [only] = set.ids[..] {
            return b.occupied(only);
        }
        if cache.is_empty() {
            cache.resize(Self::SLOTS, Union::default());
        }
        let u = &mut cache[set.slot % Self::SLOTS];
        if u.generation != b.generation || u.ids[..] != set.ids[..] || u.board.is_empty() {
            u.board.clear();
            u.board.resize(b.occupancy_words(), 0);
            for &id in set.ids.iter() {
                bits::or(&mut u.board, b.occupied(id));
            }
            u.generation = b.generation;
            u.ids.clear();
            u.ids.extend_from_slice(&set.ids);
        }
        &u.board
    }
}

impl Boards {
    /// Computes the cells from which `segment` (cells without an ellipsis,
    /// in steps of `d`) may match on an anchored board: the AND of every
    /// cell's board shifted by the cell's offset in the row, a cell's board
    /// being the AND of the boards of the objects it needs, less those of
    /// the objects it excludes, ANDed with the OR of each property's. True
    /// if that is exactly where the segment matches (it tests no
    /// movement), false if a cell test must confirm each start; `None` if
    /// the segment tests no object (every start stays possible).
    fn compute(&mut self, segment: &[Pattern], b: &Board, d: isize) -> Option<bool> {
        let cw = b.occupancy_words();
        let mut exact = true;
        let mut narrowed = false;
        self.starts.clear();
        self.starts.resize(cw, !0);
        for (k, p) in segment.iter().enumerate() {
            let Pattern::Cell(c) = p else { continue };
            exact &= !c.board.moves;
            if narrowed && bits::is_zero(&self.starts) {
                // No start is left: the later cells cannot add one.
                continue;
            }
            if c.board.moving {
                narrowed = true;
                and_shifted(&mut self.starts, &b.moving, k as isize * d);
            }
            let Some(cell) = Self::cell_board(&mut self.cell, &mut self.unions, &c.board, b) else {
                continue;
            };
            narrowed = true;
            and_shifted(&mut self.starts, cell, k as isize * d);
        }
        narrowed.then_some(exact)
    }

    /// The cells that pass the object tests `t` of a cell: the AND of the
    /// boards of the objects it needs, less those of the objects it
    /// excludes, ANDed with the OR of each property's. A cell that needs
    /// one object and tests nothing else is that object's board, not
    /// copied. `None` if `t` tests no object.
    fn cell_board<'a>(
        cell: &'a mut Vec<u64>,
        unions: &'a mut Vec<Union>,
        t: &BoardTest,
        b: &'a Board,
    ) -> Option<&'a [u64]> {
        match (&t.present[..], t.missing.ids.is_empty(), t.any.is_empty()) {
            ([only], true, true) => return Some(b.occupied(*only)),
            ([], true, false) if t.any.len() == 1 => return Some(Union::of(unions, &t.any[0], b)),
            _ if t.is_empty() => return None,
            _ => {}
        }
        cell.clear();
        match t.present.split_first() {
            Some((&first, _)) => cell.extend_from_slice(b.occupied(first)),
            None => cell.resize(b.occupancy_words(), !0),
        }
        for &id in t.present.iter().skip(1) {
            bits::and(cell, b.occupied(id));
        }
        if !t.missing.ids.is_empty() {
            bits::and_not(cell, Union::of(unions, &t.missing, b));
        }
        for set in t.any.iter() {
            bits::and(cell, Union::of(unions, set, b));
        }
        Some(cell)
    }

    /// The number of starts computed (those outside the board included).
    fn count(&self) -> usize {
        self.starts.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The starts computed within `range`, row by row (y outermost).
    fn each_by_rows(&self, b: &Board, range: [isize; 4], mut f: impl FnMut(isize, isize)) {
        let h = b.height as isize;
        for y in range[2]..range[3] {
            for x in range[0]..range[1] {
                if bits::get(&self.starts, (x * h + y) as usize) {
                    f(x, y);
                }
            }
        }
    }

    /// The starts computed, as cell coordinates within `range` (see
    /// [`start_range`]), in the occupancy's order (column by column).
    fn each(&self, b: &Board, range: [isize; 4], mut f: impl FnMut(isize, isize)) {
        let h = b.height;
        for c in bits::ones(&self.starts).take_while(|&c| c < b.cells()) {
            let (x, y) = ((c / h) as isize, (c % h) as isize);
            if (range[0]..range[1]).contains(&x) && (range[2]..range[3]).contains(&y) {
                f(x, y);
            }
        }
    }
}

/// The number of starts above which a horizontal rule's starts are
/// visited row by row rather than sorted.
const ROW_SCAN_MIN_STARTS: usize = 24;

/// The 64 bits of `c` from bit `start` on (bits outside `c` are zero).
fn window(c: &[u64], start: isize) -> u64 {
    let (w, s) = (start.div_euclid(64), start.rem_euclid(64) as u32);
    let get = |i: isize| {
        usize::try_from(i)
            .ok()
            .and_then(|i| c.get(i))
            .copied()
            .unwrap_or(0)
    };
    if s == 0 {
        get(w)
    } else {
        get(w) >> s | get(w + 1) << (64 - s)
    }
}

/// `starts[j] &= window(cell, j * 64 + offset)` for every word `j`: the
/// cells of `cell` moved back by `offset` bits (zero outside `cell`).
fn and_shifted(starts: &mut [u64], cell: &[u64], offset: isize) {
    let (q, s) = (offset.div_euclid(64), offset.rem_euclid(64) as u32);
    let n = starts.len() as isize;
    // The words `j` for which `cell[j + q]` and `cell[j + q + 1]` both
    // exist take the quick loop; the rest read zeros outside.
    let lo = (-q).clamp(0, n);
    let hi = (cell.len() as isize - 1 - q).clamp(lo, n);
    for j in (0..lo).chain(hi..n) {
        starts[j as usize] &= window(cell, j * 64 + offset);
    }
    if lo >= hi {
        return;
    }
    let (lo, hi, q) = (lo as usize, hi as usize, (lo + q) as usize);
    if s == 0 {
        for (x, c) in starts[lo..hi].iter_mut().zip(&cell[q..]) {
            *x &= c;
        }
    } else {
        for (x, c) in starts[lo..hi].iter_mut().zip(cell[q..].windows(2)) {
            *x &= c[0] >> s | c[1] << (64 - s);
        }
    }
}

/// The row's cells before its first ellipsis, and its cuts: the indices
/// of its first two ellipses (the row's length when there are fewer).
fn first_segment(row: &[Pattern]) -> (&[Pattern], [usize; 2]) {
    let mut cuts = [row.len(); 2];
    for (k, i) in row
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p, Pattern::Ellipsis))
        .map(|(i, _)| i)
        .take(2)
        .enumerate()
    {
        cuts[k] = i;
    }
    (&row[..cuts[0]], cuts)
}

/// False if `row` (with `ellipses` ellipses) surely matches nowhere on an
/// anchored board, by its first segment's bit boards.
fn may_match(row: &[Pattern], ellipses: usize, dir: u8, b: &Board, boards: &mut Boards) -> bool {
    let (first, _) = first_segment(row);
    if boards.compute(first, b, b.delta(dir)).is_none() {
        return true;
    }
    let range = start_range((row.len() - ellipses) as isize, dir, b);
    let mut any = false;
    boards.each(b, range, |_, _| any = true);
    any
}

/// Appends every match of `row` on the board to `out`, in the reference's
/// order. A row with ellipses is matched segment by segment, as the
/// reference's generated matchers do: the part before the first ellipsis
/// once per start, the next part once per gap. On an anchored board the
/// starts of the first part come from the bit boards (see
/// [`Boards::compute`]); on a smaller one the lines that may match are
/// scanned.
pub fn row_matches(
    row: &[Pattern],
    masks: &(Bits, Bits),
    ellipses: usize,
    dir: u8,
    b: &Board,
    out: &mut Vec<RowMatch>,
    boards: &mut Boards,
) {
    let len = (row.len() - ellipses) as isize;
    let (w, h) = (b.width as isize, b.height as isize);
    let range = start_range(len, dir, b);
    let d = b.delta(dir);
    let (first, cuts) = first_segment(row);
    let second = &row[(cuts[0] + 1).min(row.len())..cuts[1]];
    let third = &row[(cuts[1] + 1).min(row.len())..];
    let before = out.len();
    // `known`: the first segment is known to match from (x, y).
    let mut visit = |x: isize, y: isize, known: bool| {
        let i = x * h + y;
        if !known && !segment_matches(first, b, i, d) {
            return;
        }
        let start = i as usize;
        if ellipses == 0 {
            out.push(RowMatch {
                start,
                gaps: [0, 0],
            });
            return;
        }
        let kmax = match dir {
            4 => x - len + 2,
            8 => w - (x + len) + 1,
            2 => h - (y + len) + 1,
            _ => y - len + 2,
        };
        let second_at = i + d * first.len() as isize;
        for k1 in 0..kmax.max(0) as usize {
            let at = second_at + d * k1 as isize;
            if !segment_matches(second, b, at, d) {
                continue;
            }
            if ellipses == 1 {
                out.push(RowMatch {
                    start,
                    gaps: [k1, 0],
                });
                continue;
            }
            let third_at = at + d * second.len() as isize;
            for k2 in 0..(kmax as usize - k1) {
                if segment_matches(third, b, third_at + d * k2 as isize, d) {
                    out.push(RowMatch {
                        start,
                        gaps: [k1, k2],
                    });
                }
            }
        }
    };
    if let Some(exact) = b.anchored().then(|| boards.compute(first, b, d)).flatten() {
        if dir > 2 && boards.count() > ROW_SCAN_MIN_STARTS {
            // Many starts: visiting the cells row by row (the reference's
            // order for horizontal rules) beats sorting the matches.
            boards.each_by_rows(b, range, |x, y| visit(x, y, exact));
            return;
        }
        boards.each(b, range, |x, y| visit(x, y, exact));
        if dir > 2 {
            // The reference scans rows (y) outermost for horizontal rules;
            // the boards are in column order. Matches are unique by start
            // and gaps, so an unstable sort gives the same order.
            out[before..]
                .sort_unstable_by_key(|m| (m.start % b.height, m.start / b.height, m.gaps));
        }
        return;
    }
    let [xmin, xmax, ymin, ymax] = range;
    if dir > 2 {
        for y in ymin..ymax {
            if !b.line_may_match(false, y as usize, &masks.0, &masks.1) {
                continue;
            }
            for x in xmin..xmax {
                visit(x, y, false);
            }
        }
    } else {
        for x in xmin..xmax {
            if !b.line_may_match(true, x as usize, &masks.0, &masks.1) {
                continue;
            }
            for y in ymin..ymax {
                visit(x, y, false);
            }
        }
    }
}

/// The smallest board matched on bit boards in any game.
const ANCHOR_MIN_CELLS: usize = 128;

/// The fewest rules (as compiled) for which a board of any size is matched
/// on bit boards. Instructions per BFS node under callgrind, bit boards
/// against cell scans: microban 5 (4 rules) 26% more; purple 3, extra-push
/// 3, collapsing-tiles 1, the-packing-crate 2, unconventional-guns 12 (12
/// to 116 rules in the source) 29 to 44% fewer.
pub const MANY_RULES: usize = 8;

/// The matches of every row of a rule, in buffers reused from rule to rule
/// so that a turn allocates nothing once they have grown.
#[derive(Debug, Clone, Default)]
pub struct Matches {
    /// Every row's matches, row after row.
    all: Vec<RowMatch>,
    /// The end of each row's matches in `all`.
    ends: Vec<usize>,
    /// Buffers of the bit boards.
    boards: Boards,
    /// The match of each row in the current combination (see
    /// [`Matches::next_combination`]).
    cursor: Vec<usize>,
}

impl Matches {
    /// True if the rule does not match (some row has no match).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The matches of row `r`.
    fn row(&self, r: usize) -> &[RowMatch] {
        let start = if r == 0 { 0 } else { self.ends[r - 1] };
        &self.all[start..self.ends[r]]
    }

    /// The cells where the one cell of `row` (in direction step `d`)
    /// matches, one bit a cell in the occupancy's order, on an anchored
    /// board.
    pub(super) fn cells_matching(&mut self, row: &[Pattern], b: &Board, d: isize) -> &[u64] {
        let exact = self.boards.compute(row, b, d);
        let starts = &mut self.boards.starts;
        let cells = b.cells();
        if !cells.is_multiple_of(64) {
            // Only a cell that excludes objects and needs none may start
            // past the board's end.
            starts[cells / 64] &= (1u64 << (cells % 64)) - 1;
        }
        if exact != Some(true) {
            let Pattern::Cell(p) = &row[0] else {
                return starts;
            };
            for (w, start) in starts.iter_mut().enumerate() {
                let mut word = *start;
                while word != 0 {
                    let k = word.trailing_zeros() as usize;
                    word &= word - 1;
                    if !cell_matches(p, b, w * 64 + k) {
                        *start &= !(1u64 << k);
                    }
                }
            }
        }
        starts
    }

    /// The number of combinations of one match per row.
    pub fn combinations(&self) -> usize {
        (0..self.ends.len()).map(|r| self.row(r).len()).product()
    }

    /// The first combination (every row's first match) into `out`, for
    /// [`Matches::next_combination`].
    pub fn first_combination(&mut self, out: &mut Vec<RowMatch>) {
        out.clear();
        self.cursor.clear();
        self.cursor.resize(self.ends.len(), 0);
        for r in 0..self.ends.len() {
            out.push(self.row(r)[0]);
        }
    }

    /// Makes `out`, combination `k` (see [`Matches::combination`]), the
    /// next one, `k + 1`, without dividing: the first row's match moves
    /// on, and each row that wraps around moves the next one on.
    pub fn next_combination(&mut self, out: &mut [RowMatch]) {
        for (r, slot) in out.iter_mut().enumerate() {
            let start = if r == 0 { 0 } else { self.ends[r - 1] };
            let len = self.ends[r] - start;
            self.cursor[r] += 1;
            if self.cursor[r] < len {
                *slot = self.all[start + self.cursor[r]];
                return;
            }
            self.cursor[r] = 0;
            *slot = self.all[start];
        }
    }

    /// Combination `k` of one match per row into `out`, the first row
    /// varying fastest (the reference's order).
    pub fn combination(&self, mut k: usize, out: &mut Vec<RowMatch>) {
        out.clear();
        if self.ends.len() == 1 {
            // One row: no division (its cost shows in long match lists).
            out.push(self.all[k]);
            return;
        }
        for r in 0..self.ends.len() {
            let row = self.row(r);
            out.push(row[k % row.len()]);
            k /= row.len();
        }
    }
}

/// Finds the matches of every row of `rule` into `out`; it is left empty
/// if a row has none.
pub fn find_matches(rule: &Rule, b: &Board, out: &mut Matches) {
    out.all.clear();
    out.ends.clear();
    let absent = |(objects, moves): &(Bits, Bits)| {
        !bits::subset(objects, &b.all_objects) || !bits::subset(moves, &b.all_moves)
    };
    if rule.row_masks.iter().any(absent) {
        return;
    }
    // A later row that matches nowhere makes the first row's matches
    // useless: the bit boards tell at once.
    let mut later = rule.rows.iter().zip(&rule.ellipses).skip(1);
    if b.anchored() && !later.all(|(row, &e)| may_match(row, e, rule.direction, b, &mut out.boards))
    {
        return;
    }
    for ((row, &e), masks) in rule.rows.iter().zip(&rule.ellipses).zip(&rule.row_masks) {
        let before = out.all.len();
        row_matches(
            row,
            masks,
            e,
            rule.direction,
            b,
            &mut out.all,
            &mut out.boards,
        );
        if out.all.len() == before {
            out.all.clear();
            out.ends.clear();
            return;
        }
        out.ends.push(out.all.len());
    }
}

/// Applies `rule` at one combination of row matches; `check` re-tests the
/// match first. True if a cell changed. The object and movement bits that
/// changed in some cell are ORed into `written` (objects then movements,
/// `ow + mw` words).
pub fn apply_at(
    game: &Game,
    rule: &Rule,
    tuple: &[RowMatch],
    check: bool,
    b: &mut Board,
    rng: &mut Rng,
    written: &mut [u64],
) -> bool {
    let rigid_index = if rule.rigid {
        game.rigid_index_of_group
            .get(&rule.group)
            .map_or(0, |&r| r as u64 + 1)
    } else {
        0
    };
    let d = b.delta(rule.direction);
    if check {
        // A row none of whose read bits was written still matches.
        let rows = rule.rows.iter().zip(&rule.row_reads).zip(tuple);
        for ((row, reads), m) in rows {
            debug_assert_eq!(reads.len(), written.len());
            if bits::meets(reads, written) && !row_matches_at(row, b, m.start, d, &m.gaps) {
                return false;
            }
        }
    }
    let mut result = false;
    for c in &rule.replaced {
        let m = &tuple[c.row];
        let gaps: usize = m.gaps[..c.ellipses].iter().sum();
        let pos = m.start as isize + d * (c.offset + gaps) as isize;
        if let Pattern::Cell(p) = &rule.rows[c.row][c.index] {
            let rigid = (rule.rigid, rigid_index);
            result |= replace(game, p, b, pos as usize, rigid, rng, written);
        }
    }
    result
}

/// Writes a pattern's replacement into cell `i`; true if it changed. The
/// bits that changed are ORed into `written`.
fn replace(
    game: &Game,
    p: &CellPattern,
    b: &mut Board,
    i: usize,
    rigid: (bool, u64),
    rng: &mut Rng,
    written: &mut [u64],
) -> bool {
    let (rigid, rigid_index) = rigid;
    let Some(r) = &p.replacement else {
        return false;
    };
    if !r.random && !rigid {
        return b.write_replacement(r, &CellWrite::of(r), i, written);
    }
    let mw = b.mw;
    let mut set = Cow::Borrowed(&r.set[..]);
    let mut clear = Cow::Borrowed(&r.clear[..]);
    let mut moves_set = Cow::Borrowed(&r.moves_set[..]);
    let mut moves_clear = Cow::Borrowed(&r.moves_clear[..]);
    if r.random && !bits::is_zero(&r.random_entity) {
        let count = r
            .random_entity
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum();
        let k = rng.below(count);
        let pick = bits::ones(&r.random_entity).nth(k).unwrap_or(0);
        bits::set(set.to_mut(), pick);
        let layer = game.objects[pick].layer;
        bits::or(clear.to_mut(), &game.layer_masks[layer]);
        bits::or_field(moves_clear.to_mut(), layer, 0x1f);
    }
    if r.random && !bits::is_zero(&r.random_dir) {
        for layer in 0..game.layers {
            if bits::field(&r.random_dir, layer) & 1 == 1 {
                let dir = rng.below(4);
                bits::or_field(moves_set.to_mut(), layer, 1 << dir);
            }
        }
    }
    let mut rigid_change = false;
    if rigid {
        // The group's index in the field of every layer the replacement
        // decides.
        let every_field = bits::every_field(rigid_index);
        let rigid_mask = |w: usize| every_field & r.layer_mask[w];
        let group = &b.rigid_group[i * mw..(i + 1) * mw];
        let applied = &b.rigid_applied[i * mw..(i + 1) * mw];
        let grouped = (0..mw).all(|w| rigid_mask(w) & !group[w] == 0);
        if !grouped && !bits::subset(&r.layer_mask, applied) {
            b.still = false;
            for w in 0..mw {
                b.rigid_group[i * mw + w] |= rigid_mask(w);
                b.rigid_applied[i * mw + w] |= r.layer_mask[w];
            }
            rigid_change = true;
        }
    }
    // Writing what a cell holds already changes nothing (not its masks).
    let masks = CellWrite {
        set: &set,
        clear: &clear,
        moves_set: &moves_set,
        moves_clear: &moves_clear,
        layer_mask: &r.layer_mask,
    };
    b.write_replacement(r, &masks, i, written) || rigid_change
}

/// The masks a replacement writes a cell with: its own, or with what a
/// random pick added.
pub struct CellWrite<'a> {
    /// Objects added.
    pub set: &'a [u64],
    /// Objects removed.
    pub clear: &'a [u64],
    /// Movements set.
    pub moves_set: &'a [u64],
    /// Movements cleared.
    pub moves_clear: &'a [u64],
    /// Layers whose movement the replacement decides (cleared too).
    pub layer_mask: &'a [u64],
}

impl<'a> CellWrite<'a> {
    /// The masks of `r` as written.
    pub fn of(r: &'a Replacement) -> CellWrite<'a> {
        CellWrite {
            set: &r.set,
            clear: &r.clear,
            moves_set: &r.moves_set,
            moves_clear: &r.moves_clear,
            layer_mask: &r.layer_mask,
        }
    }

    /// Object word `w` of a cell that held `old`.
    pub fn objects(&self, w: usize, old: u64) -> u64 {
        (old & !self.clear[w]) | self.set[w]
    }

    /// Movement word `w` of a cell that had `old`.
    pub fn moves(&self, w: usize, old: u64) -> u64 {
        (old & !(self.moves_clear[w] | self.layer_mask[w])) | self.moves_set[w]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puzzlescript::compile::compile;
    use crate::games::puzzlescript::engine::Engine;

    const GAME: &str = "title t\n\nOBJECTS\n\nBackground\nblack\n\nTarget\nyellow\n\nPlayer\nblue\n\nWall\nbrown\n\nCrate\norange\n\nLEGEND\n\n. = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\n@ = Crate and Target\nObstacle = Wall or Crate\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nTarget\nPlayer, Wall, Crate\n\nRULES\n\n[ > Player | Crate ] -> [ > Player | > Crate ]\n[ Crate | no Wall | Target ] -> [ Crate | | Target ]\ndown [ Wall | Crate no Target ] -> [ Wall | Crate ]\n[ Obstacle | Target | Obstacle ] -> [ Obstacle | Target | Obstacle ]\n[ no Obstacle | Player ] -> [ | Player ]\n\nWINCONDITIONS\n\nall Crate on Target\n\nLEVELS\n\n#*.O#*@.P*O.##*.\n.*O#P@..*#O*.@#.\nO#*.@P*#.O*.#@*P\n*@.#O*P.#*O@.*#.\n#.O*#@*.P#O.*@.#\n.*#O@.*P#*.O@#*.\n@#*.O*#.@P*O#.*@\n*.#@O.*#P*@.#O*.\n";

    /// Every start from which `row` (no ellipsis) matches, found cell by
    /// cell in the reference's order.
    fn brute(row: &[Pattern], dir: u8, b: &Board) -> Vec<usize> {
        let (w, h) = (b.width as isize, b.height as isize);
        let (dx, dy) = match dir {
            1 => (0, -1),
            2 => (0, 1),
            4 => (-1, 0),
            _ => (1, 0),
        };
        let last = row.len() as isize - 1;
        let fits = |x: isize, y: isize| {
            (0..w).contains(&(x + dx * last)) && (0..h).contains(&(y + dy * last))
        };
        let mut starts: Vec<(isize, isize)> = Vec::new();
        if dir > 2 {
            (0..h).for_each(|y| (0..w).for_each(|x| starts.push((x, y))));
        } else {
            (0..w).for_each(|x| (0..h).for_each(|y| starts.push((x, y))));
        }
        starts
            .into_iter()
            .filter(|&(x, y)| fits(x, y))
            .map(|(x, y)| (x * h + y) as usize)
            .filter(|&i| row_matches_at(row, b, i, b.delta(dir), &[0, 0]))
            .collect()
    }

    #[test]
    fn bit_boards_find_the_matches_of_a_cell_by_cell_scan() {
        let game = compile(GAME).unwrap();
        let mut b = Engine::new(&game, 0, "test").unwrap().board;
        assert!(b.anchored());
        let player = game
            .objects
            .iter()
            .position(|o| o.name == "player")
            .unwrap();
        for i in 0..b.cells() {
            if bits::get(b.cell(i), player) {
                b.add_movement(i, game.objects[player].layer, 8);
            }
        }
        b.recompute_masks();
        let (mut out, mut boards, mut tested) = (Vec::new(), Boards::default(), 0);
        for rule in game.rules.iter().flat_map(|g| &g.rules) {
            for (row, masks) in rule.rows.iter().zip(&rule.row_masks) {
                out.clear();
                row_matches(row, masks, 0, rule.direction, &b, &mut out, &mut boards);
                let found: Vec<usize> = out.iter().map(|m| m.start).collect();
                assert_eq!(
                    found,
                    brute(row, rule.direction, &b),
                    "rule line {}",
                    rule.line
                );
                tested += usize::from(!found.is_empty());
            }
        }
        assert!(tested >= 10, "only {tested} rows matched somewhere");
    }

    #[test]
    fn the_single_word_form_agrees_with_the_tests() {
        let game = compile(GAME).unwrap();
        let mut b = Engine::new(&game, 0, "test").unwrap().board;
        for (i, m) in b.movements.iter_mut().enumerate() {
            *m = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 7;
        }
        let (mut singles, mut matched) = (0, 0);
        let cells = game
            .rules
            .iter()
            .flat_map(|g| &g.rules)
            .flat_map(|r| &r.rows);
        for p in cells.flatten() {
            let Pattern::Cell(c) = p else { continue };
            let Some(s) = &c.single else { continue };
            singles += 1;
            for i in 0..b.cells() {
                let quick = s.matches(b.objects[i], b.movements[i]);
                assert_eq!(quick, tests_match(c, &b, i), "cell {i} of {c:?}");
                matched += usize::from(quick);
            }
        }
        assert!(
            singles >= 10 && matched >= 10,
            "{singles} patterns, {matched} matches"
        );
    }

    #[test]
    fn a_window_reads_across_words_and_zero_outside() {
        let c = [0x8000_0000_0000_0001u64, 0b101];
        assert_eq!(window(&c, 0), c[0]);
        assert_eq!(window(&c, 63), 0b1011);
        assert_eq!(window(&c, -1), c[0] << 1);
        assert_eq!(window(&c, 128), 0);
    }

    #[test]
    fn a_shifted_and_reads_as_the_windows_do() {
        let cell = [0x8000_0000_0000_0001u64, 0xf0f0_1234_5678_9abc, 0b101];
        for offset in -200..200 {
            let mut starts = [!0u64; 3];
            and_shifted(&mut starts, &cell, offset);
            for (j, &s) in starts.iter().enumerate() {
                assert_eq!(s, window(&cell, j as isize * 64 + offset), "{offset} {j}");
            }
        }
    }
}
