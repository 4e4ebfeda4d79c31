//! Where an object can move, from the rules and the objects that stay
//! put: the ground [`super::stranded`] reasons on.
//!
//! An object moves only when a movement in its collision layer is set in
//! its cell and the cell beyond is free in that layer, one cell a turn.
//! Movements come from the keys (only in player objects' cells) and from
//! rules that set a new one ([`Origin`]). Such a rule matches a row of
//! cells around the object at fixed offsets (up to an ellipsis); if one
//! of those cells is off the board or holds, for good, an object that
//! keeps out what the rule needs there (an object of the same layer that
//! stays put: a wall where the pushing player would stand), the rule
//! cannot fire with the object in that cell ([`Ground::may_fire`]). The
//! objects that stay put are [`Walls`]: fixed objects ([`walk::fixed`]),
//! and for one position also objects shown to be frozen there.

use super::bits;
use super::compile::{CellPattern, Game, Pattern, Rule};
use super::walk;

/// The four directions: movement bit, column step, row step.
pub const STEPS: [(u64, isize, isize); 4] = [(1, 0, -1), (2, 0, 1), (4, -1, 0), (8, 1, 0)];

/// A way a rule may give an object a movement: the rule's row, the index
/// of the cell that sets it, the row's step and the directions set.
#[derive(Debug, Clone)]
pub struct Origin<'g> {
    row: &'g [Pattern],
    at: usize,
    step: (isize, isize),
    dirs: u64,
}

/// The row step of a rule's direction.
fn step_of(rule: &Rule) -> (isize, isize) {
    let &(_, dx, dy) = STEPS
        .iter()
        .find(|s| s.0 == rule.direction as u64)
        .unwrap_or(&STEPS[0]);
    (dx, dy)
}

/// Every rule cell that may give `object` a new movement.
pub fn origins(game: &Game, object: usize) -> Vec<Origin<'_>> {
    let layer = game.objects[object].layer;
    let mut out = Vec::new();
    let groups = game.rules.iter().chain(&game.late_rules);
    for rule in groups.flat_map(|g| &g.rules) {
        for row in &rule.rows {
            for (at, p) in row.iter().enumerate() {
                let Pattern::Cell(c) = p else { continue };
                let Some(r) = &c.replacement else { continue };
                if !bits::get(&walk::moves(game, c), object) {
                    continue;
                }
                let random = bits::field(&r.random_dir, layer) != 0;
                let dirs = if random {
                    15
                } else {
                    bits::field(&r.moves_set, layer) & 15
                };
                let step = step_of(rule);
                out.push(Origin {
                    row,
                    at,
                    step,
                    dirs,
                });
            }
        }
    }
    out
}

/// The objects that stay put, per cell, and the objects they keep out of
/// their cell (the others of their layers).
#[derive(Debug, Clone, Default)]
pub struct Walls {
    /// Per cell, the objects that stay put.
    pub put: Vec<u64>,
    /// Per cell, the objects those keep out.
    pub kept_out: Vec<u64>,
}

impl Walls {
    /// Sets cell `i`'s objects that stay put to `put` (its `words`
    /// words), and what they keep out.
    pub fn set_cell(&mut self, game: &Game, i: usize, put: &[u64]) {
        let words = put.len();
        let (cell, out) = (i * words, &mut self.kept_out[i * words..(i + 1) * words]);
        self.put[cell..cell + words].copy_from_slice(put);
        out.fill(0);
        for o in bits::ones(put).filter(|&o| o < game.objects.len()) {
            bits::or(out, &game.layer_masks[game.objects[o].layer]);
        }
        for (k, p) in out.iter_mut().zip(put) {
            *k &= !p;
        }
    }
}

/// A level's size, for the steps between its cells.
#[derive(Debug, Clone, Copy)]
pub struct Ground {
    /// Columns.
    pub width: usize,
    /// Cells of a column.
    pub height: usize,
    /// Object words per cell.
    pub words: usize,
}

impl Ground {
    /// The objects of `fixed` ([`walk::fixed`]) in the level starting
    /// with `objects`.
    pub fn fixed(&self, game: &Game, fixed: &[u64], objects: &[u64]) -> Walls {
        let mut walls = Walls {
            put: vec![0; objects.len()],
            kept_out: vec![0; objects.len()],
        };
        let mut put = vec![0; self.words];
        for i in 0..objects.len() / self.words.max(1) {
            for (w, p) in put.iter_mut().enumerate() {
                *p = objects[i * self.words + w] & fixed[w];
            }
            walls.set_cell(game, i, &put);
        }
        walls
    }

    /// The cell `n` steps of `step` from `i`, if on the board.
    pub fn beyond(&self, i: usize, step: (isize, isize), n: isize) -> Option<usize> {
        let h = self.height as isize;
        let (x, y) = ((i as isize) / h, (i as isize) % h);
        let (x, y) = (x + step.0 * n, y + step.1 * n);
        let inside = (0..self.width as isize).contains(&x) && (0..h).contains(&y);
        inside.then(|| (x * h + y) as usize)
    }

    /// Cell `i`'s words of `v`.
    pub fn cell<'a>(&self, v: &'a [u64], i: usize) -> &'a [u64] {
        &v[i * self.words..(i + 1) * self.words]
    }

    /// True if no match of `c` can be in cell `i` while `walls` stay: it
    /// needs an object they keep out, or the absence of one of them.
    fn keeps_out(&self, walls: &Walls, c: &CellPattern, i: usize) -> bool {
        let out = self.cell(&walls.kept_out, i);
        bits::meets(&c.present, out)
            || bits::meets(&c.missing, self.cell(&walls.put, i))
            || c.any_present
                .iter()
                .any(|a| !bits::is_zero(a) && bits::subset(a, out))
    }

    /// True if the rule of `o` may fire with its setting cell in `i`:
    /// every cell at a fixed offset from it is on the board and can be
    /// matched there.
    fn may_fire(&self, walls: &Walls, o: &Origin, i: usize) -> bool {
        if let Pattern::Cell(c) = &o.row[o.at] {
            if self.keeps_out(walls, c, i) {
                return false;
            }
        }
        let ahead = o.row[o.at + 1..].iter().zip(1isize..);
        let behind = o.row[..o.at].iter().rev().zip(1isize..);
        let behind = behind.map(|(p, n)| (p, -n));
        self.side_fits(walls, ahead, o.step, i) && self.side_fits(walls, behind, o.step, i)
    }

    /// True if the cells of `side` (patterns and their offsets from `i`
    /// in steps of `step`, up to an ellipsis) are on the board and can
    /// be matched there.
    fn side_fits<'p>(
        &self,
        walls: &Walls,
        side: impl Iterator<Item = (&'p Pattern, isize)>,
        step: (isize, isize),
        i: usize,
    ) -> bool {
        for (p, n) in side {
            let Pattern::Cell(c) = p else { break };
            match self.beyond(i, step, n) {
                Some(j) if !self.keeps_out(walls, c, j) => {}
                _ => return false,
            }
        }
        true
    }

    /// The cell `object` (of the objects in `layer`, moved by `origins`)
    /// may move to from cell `i` in direction `dir` while `walls` stay: a
    /// neighbour they leave free in its layer, if some rule may give it
    /// that movement there.
    pub fn step(
        &self,
        walls: &Walls,
        origins: &[Origin],
        layer: &[u64],
        i: usize,
        &(dir, dx, dy): &(u64, isize, isize),
    ) -> Option<usize> {
        let j = self.beyond(i, (dx, dy), 1)?;
        let walled = bits::meets(self.cell(&walls.put, j), layer);
        let pushed = || {
            origins
                .iter()
                .any(|o| o.dirs & dir != 0 && self.may_fire(walls, o, i))
        };
        (!walled && pushed()).then_some(j)
    }

    /// Per cell, true if `object` can get from it to a cell of `goal`
    /// (moving one cell a turn as [`Ground::step`] allows, among the
    /// fixed objects `walls`).
    pub fn reaching(&self, game: &Game, walls: &Walls, object: usize, goal: &[bool]) -> Vec<bool> {
        let origins = origins(game, object);
        let layer = &game.layer_masks[game.objects[object].layer];
        let mut into: Vec<Vec<usize>> = vec![Vec::new(); goal.len()];
        for i in 0..goal.len() {
            for s in &STEPS {
                if let Some(j) = self.step(walls, &origins, layer, i, s) {
                    into[j].push(i);
                }
            }
        }
        let mut reach = goal.to_vec();
        let mut queue: Vec<usize> = (0..goal.len()).filter(|&i| goal[i]).collect();
        while let Some(j) = queue.pop() {
            for &i in &into[j] {
                if !reach[i] {
                    reach[i] = true;
                    queue.push(i);
                }
            }
        }
        reach
    }
}
