//! What the rules can still make: a sound over-approximation of the
//! objects that can ever exist from a position, and an estimate of how far
//! the rules are from making an object that is missing.
//!
//! Objects appear only where a rule's right-hand side puts them (a turn's
//! movements move objects, never make them). A rule can fire only if every
//! object its left-hand side needs can exist, so the objects that can ever
//! exist are the fixpoint of "the objects on the board, plus what every
//! rule whose needs can be met adds" (the rules' other conditions,
//! directions and movements are ignored: an over-approximation). A win
//! condition that needs an object outside that set (`some X`, `some X on
//! Y`) can never hold, and the position is dead: no key sequence from it
//! wins. Games whose rules `restart` or go back to a `checkpoint` (which
//! bring back the objects of an earlier position) are not analysed, and a
//! rule that says `win` and can fire keeps every position alive. The same
//! costs estimate how far a game won only by such a rule is from winning.

use rustc_hash::FxHashMap;

use super::bits::{self, Bits};
use super::compile::{Game, Pattern};

/// The cost [`Makers::need`] gives an object no rule can make.
pub const NEVER: usize = usize::MAX / 8;

/// How deep [`Makers::need`] follows a chain of rules that make the
/// objects the next rule needs.
const CHAIN: usize = 3;

/// Pairs of cells compared for a rule's "meet" distance, at most.
const PAIRS: usize = 4096;

/// A cell of a rule's left-hand side: what it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Need {
    /// The row of the rule the cell is in.
    row: usize,
    /// Its index in the row, `None` after an ellipsis (no fixed offset).
    at: Option<usize>,
    /// Objects that must all be there.
    present: Bits,
    /// Sets of which one object must be there.
    any: Vec<Bits>,
}

impl Need {
    fn is_free(&self) -> bool {
        bits::is_zero(&self.present) && self.any.is_empty()
    }

    /// True if some object of `objects` is one the cell needs.
    fn touches(&self, objects: &[u64]) -> bool {
        bits::meets(&self.present, objects) || self.any.iter().any(|a| bits::meets(a, objects))
    }

    /// True if the objects `have` (one cell's, or the union of all cells)
    /// can meet the cell's needs.
    fn met_by(&self, have: &[u64]) -> bool {
        bits::has_all_and_one_of_each(&self.present, &self.any, have)
    }
}

/// One rule as a maker of objects.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Maker {
    /// The cells its left-hand side needs filled.
    needs: Vec<Need>,
    /// The objects it adds that its cells did not need already.
    adds: Bits,
    /// It gives the `win` command.
    wins: bool,
}

/// One rule as a destroyer of objects: it removes objects one of its
/// cells needs (clears them, or writes another object of their layer) and
/// adds none of them anywhere.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Destroyer {
    /// The cells its left-hand side needs filled.
    needs: Vec<Need>,
    /// The cell whose objects go.
    cell: usize,
    /// The objects that go.
    gone: Bits,
}

/// The rules of a game as makers of objects.
#[derive(Debug, Clone)]
pub struct Makers {
    makers: Vec<Maker>,
    destroyers: Vec<Destroyer>,
    /// The analysis holds: no rule restarts the level or goes back to a
    /// checkpoint.
    sound: bool,
    words: usize,
}

impl Makers {
    /// The makers of `game`'s rules (late ones included).
    pub fn new(game: &Game) -> Makers {
        let words = game.object_words;
        let mut makers = Vec::new();
        let mut destroyers = Vec::new();
        let mut sound = true;
        for rule in game
            .rules
            .iter()
            .chain(&game.late_rules)
            .flat_map(|g| &g.rules)
        {
            sound &= !rule.gives("restart") && !rule.gives("checkpoint");
            let mut m = Maker {
                needs: Vec::new(),
                adds: bits::zero(words),
                wins: rule.gives("win"),
            };
            let mut set_anywhere = bits::zero(words);
            let mut gone = Vec::new();
            for (row, cells) in rule.rows.iter().enumerate() {
                let mut at = Some(0);
                for p in cells {
                    let Pattern::Cell(c) = p else {
                        at = None;
                        continue;
                    };
                    if let Some(r) = &c.replacement {
                        for (w, word) in m.adds.iter_mut().enumerate() {
                            *word |= (r.set[w] | r.random_entity[w]) & !c.present[w];
                        }
                        bits::or(&mut set_anywhere, &r.set);
                        gone.push((m.needs.len(), removed(game, c, &r.clear, &r.set)));
                    }
                    m.needs.push(Need {
                        row,
                        at,
                        present: c.present.clone(),
                        any: c.any_present.clone(),
                    });
                    at = at.map(|i| i + 1);
                }
            }
            for (cell, mut g) in gone {
                for (w, word) in g.iter_mut().enumerate() {
                    *word &= !set_anywhere[w];
                }
                let d = Destroyer {
                    needs: m.needs.clone(),
                    cell,
                    gone: g,
                };
                // A rule's expansions in several directions repeat it.
                if !bits::is_zero(&d.gone) && !destroyers.contains(&d) {
                    destroyers.push(d);
                }
            }
            if (m.wins || !bits::is_zero(&m.adds)) && !makers.contains(&m) {
                makers.push(m);
            }
        }
        Makers {
            makers,
            destroyers,
            sound,
            words,
        }
    }

    /// The objects that can ever exist after a position whose cells hold
    /// `present` (their union), and whether a rule that says `win` can
    /// fire. `None` when the analysis does not hold for the game.
    pub fn possible(&self, present: &[u64]) -> Option<(Bits, bool)> {
        if !self.sound {
            return None;
        }
        let mut have: Bits = present.into();
        let mut fired = vec![false; self.makers.len()];
        let mut wins = false;
        let mut changed = true;
        while changed {
            changed = false;
            for (m, done) in self.makers.iter().zip(fired.iter_mut()) {
                if *done || !m.needs.iter().all(|n| n.met_by(&have)) {
                    continue;
                }
                *done = true;
                wins |= m.wins;
                if !bits::subset(&m.adds, &have) {
                    bits::or(&mut have, &m.adds);
                    changed = true;
                }
            }
        }
        Some((have, wins))
    }

    /// An estimate of the turns the rules need to make one of the objects
    /// in `mask` on a board whose cells (column-major, `height` a column)
    /// hold `objects` (`words` a cell, the union of all of them in
    /// `present`): 0 if one is there; otherwise, over the rules that make
    /// one, the cheapest of one turn, plus what the objects the rule needs
    /// and that are missing cost (a chain of rules, [`CHAIN`] deep), plus
    /// how far apart the cells it needs are (Manhattan, less their offset
    /// in the rule), plus clearing the way (the removal of objects riding
    /// on one needed cell that would let another rule destroy the other).
    /// [`NEVER`] if no rule makes one.
    pub fn need(&self, mask: &[u64], board: &Board, depth: usize) -> usize {
        self.need_with(mask, board, depth, true)
    }

    /// [`Makers::need`]; without `guard`, without how far apart the cells
    /// are or clearing the way (what only the objects present decide).
    fn need_with(&self, mask: &[u64], board: &Board, depth: usize, guard: bool) -> usize {
        if bits::meets(mask, board.present) {
            return 0;
        }
        if depth >= CHAIN {
            return 1;
        }
        let makers = self.makers.iter().filter(|m| bits::meets(&m.adds, mask));
        self.cheapest(makers, board, depth, guard)
    }

    /// The same estimate for the rules that say `win`: the turns the
    /// cheapest of them needs before it can fire ([`NEVER`] if no rule
    /// says `win`). It is asked for every position searched, so only how
    /// far apart the `win` rule's own cells are is read off the board;
    /// what the objects it needs cost (the rules that make them, without
    /// their distances or clearing the way) depends only on the objects
    /// present, and is kept per union of the cells in `known`.
    pub fn win_need(&self, board: &Board, known: &mut FxHashMap<Bits, Vec<usize>>) -> usize {
        let wins = || self.makers.iter().filter(|m| m.wins);
        if !known.contains_key(board.present) {
            let costs = wins()
                .map(|m| self.cheapest(std::iter::once(m), board, 0, false))
                .collect();
            known.insert(board.present.into(), costs);
        }
        let costs = &known[board.present];
        wins()
            .zip(costs)
            .filter(|&(_, &c)| c < NEVER)
            .map(|(m, &c)| c + meet(&m.needs, board) + gather(&m.needs, board))
            .min()
            .unwrap_or(NEVER)
    }

    /// The cheapest of `makers` by [`Makers::need`]'s cost: one turn,
    /// plus the objects it needs, plus how far apart its cells are, plus
    /// clearing the way (as [`Makers::need_with`] says).
    fn cheapest<'m>(
        &self,
        makers: impl Iterator<Item = &'m Maker>,
        board: &Board,
        depth: usize,
        guard: bool,
    ) -> usize {
        let mut best = NEVER;
        for m in makers {
            let mut cost = 1usize;
            for n in &m.needs {
                for b in bits::ones(&n.present) {
                    let mut one = bits::zero(self.words);
                    bits::set(&mut one, b);
                    cost += self.need_with(&one, board, depth + 1, guard);
                }
                for a in &n.any {
                    cost += self.need_with(a, board, depth + 1, guard);
                }
                if cost >= best {
                    break;
                }
            }
            if cost < best {
                best = cost;
                if guard {
                    best += meet(&m.needs, board) + self.guarded(&m.needs, board);
                }
            }
        }
        best.min(NEVER)
    }

    /// True if no key sequence from a position whose cells hold `present`
    /// (their union) can meet `game`'s win conditions: one needs an object
    /// that can never exist again.
    pub fn dead(&self, game: &Game, present: &[u64]) -> bool {
        let Some((have, wins)) = self.possible(present) else {
            return false;
        };
        if wins {
            return false;
        }
        let can = |mask: &[u64], all: bool| holds(mask, all, &have);
        game.winconditions.iter().any(|wc| {
            wc.quantifier == 0 && (!can(&wc.first, wc.first_all) || !can(&wc.second, wc.second_all))
        })
    }
}

impl Makers {
    /// What clearing the way costs for a rule that needs the cells
    /// `needs`: a rule that would destroy the objects one needed cell asks
    /// for, triggered by objects that sit on every cell that meets another
    /// needed cell of the same rule (an object the player carries), fires
    /// before the two cells meet; those objects must go first. The cost
    /// of removing them: the cheapest rule that destroys them, one turn
    /// plus how far apart its cells are ([`NEVER`] is not used: the rules'
    /// directions are ignored, so this is only an estimate).
    fn guarded(&self, needs: &[Need], board: &Board) -> usize {
        // Each object to remove counts once (a rule's expansions in
        // several directions repeat it, some with their rows reversed).
        let mut riding: Vec<&Need> = Vec::new();
        for (i, a) in needs.iter().enumerate() {
            if a.is_free() {
                continue;
            }
            let carriers: Vec<&[u64]> = board
                .cells()
                .filter(|(_, c)| a.met_by(c))
                .map(|x| x.1)
                .collect();
            if carriers.is_empty() {
                continue;
            }
            for (j, b) in needs.iter().enumerate() {
                if i == j || b.is_free() || a.row != b.row {
                    continue;
                }
                for d in &self.destroyers {
                    if !b.touches(&d.gone) {
                        continue;
                    }
                    let riders = d
                        .needs
                        .iter()
                        .enumerate()
                        .filter(|&(k, n)| k != d.cell && !n.is_free());
                    for (_, z) in riders {
                        let known = riding
                            .iter()
                            .any(|r| r.present == z.present && r.any == z.any);
                        if carriers.iter().all(|c| z.met_by(c)) && !known {
                            riding.push(z);
                        }
                    }
                }
            }
        }
        riding.iter().map(|z| self.removal(z, board)).sum()
    }

    /// The cheapest rule that destroys the objects the cell `z` needs:
    /// one turn plus how far apart its cells are.
    fn removal(&self, z: &Need, board: &Board) -> usize {
        self.destroyers
            .iter()
            .filter(|d| z.touches(&d.gone))
            .map(|d| 1 + meet(&d.needs, board))
            .min()
            .unwrap_or(0)
    }
}

/// The objects a rule's cell `c` (clearing `clear`, adding `set`) removes
/// among those it needs: cleared, or replaced by an object of their layer.
fn removed(game: &Game, c: &super::compile::CellPattern, clear: &[u64], set: &[u64]) -> Bits {
    let mut needed: Bits = c.present.clone();
    for a in &c.any_present {
        bits::or(&mut needed, a);
    }
    let mut out = bits::zero(needed.len());
    for o in bits::ones(&needed) {
        let layer = &game.layer_masks[game.objects[o].layer];
        if bits::get(clear, o) || (bits::meets(layer, set) && !bits::get(set, o)) {
            bits::set(&mut out, o);
        }
    }
    out
}

/// True if a cell holding `c` holds `mask`: all of it when `all` (an
/// aggregate), else any of it.
pub fn holds(mask: &[u64], all: bool, c: &[u64]) -> bool {
    if all {
        bits::subset(mask, c)
    } else {
        bits::meets(mask, c)
    }
}

/// A board as [`Makers::need`] reads it.
pub struct Board<'a> {
    /// Object words of every cell, column-major.
    pub objects: &'a [u64],
    /// Words a cell.
    pub words: usize,
    /// Cells a column.
    pub height: usize,
    /// The union of every cell's objects.
    pub present: &'a [u64],
}

impl Board<'_> {
    fn cells(&self) -> impl Iterator<Item = (usize, &[u64])> {
        self.objects.chunks(self.words.max(1)).enumerate()
    }

    fn distance(&self, a: usize, b: usize) -> usize {
        let h = self.height.max(1);
        (a / h).abs_diff(b / h) + (a % h).abs_diff(b % h)
    }

    /// The cells whose objects `holds` accepts.
    fn cells_where(&self, holds: impl Fn(&[u64]) -> bool) -> Vec<usize> {
        self.cells()
            .filter(|(_, c)| holds(c))
            .map(|(i, _)| i)
            .collect()
    }

    /// The shortest distance from a cell of `xs` to one of `ys`; `None`
    /// when either has none, or they make more than [`PAIRS`] pairs.
    fn closest(&self, xs: &[usize], ys: &[usize]) -> Option<usize> {
        if xs.len() * ys.len() > PAIRS {
            return None;
        }
        xs.iter()
            .flat_map(|&x| ys.iter().map(move |&y| self.distance(x, y)))
            .min()
    }
}

/// How far apart the objects one needed cell asks for together are on
/// `board` (a player on a goal): for each cell of `needs` that no cell
/// of the board meets, the largest over what it needs (each object, each
/// set one of which it needs) of the shortest distance (Manhattan) from
/// a cell holding the first of them to one holding it; summed over the
/// cells.
fn gather(needs: &[Need], board: &Board) -> usize {
    let mut total = 0;
    for n in needs {
        let mut wanted: Vec<Bits> = bits::ones(&n.present)
            .map(|b| {
                let mut one = bits::zero(n.present.len());
                bits::set(&mut one, b);
                one
            })
            .collect();
        wanted.extend(n.any.iter().cloned());
        if wanted.len() < 2 || board.cells().any(|(_, c)| n.met_by(c)) {
            continue;
        }
        let at = |w: &Bits| board.cells_where(|c| bits::meets(w, c));
        let first = at(&wanted[0]);
        let far = wanted[1..]
            .iter()
            .filter_map(|w| board.closest(&first, &at(w)))
            .max()
            .unwrap_or(0);
        total += far;
    }
    total
}

/// How far the cells `needs` asks for in one row are from each other on
/// `board`: for each row, the largest over consecutive needy cells with a
/// fixed offset of the smallest distance between two cells that meet them,
/// less that offset.
fn meet(needs: &[Need], board: &Board) -> usize {
    let mut total = 0;
    let fixed: Vec<&Need> = needs
        .iter()
        .filter(|n| n.at.is_some() && !n.is_free())
        .collect();
    for pair in fixed.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if a.row != b.row {
            continue;
        }
        let at = |n: &Need| board.cells_where(|c| n.met_by(c));
        let Some(d) = board.closest(&at(a), &at(b)) else {
            continue;
        };
        let offset = a.at.unwrap_or(0).abs_diff(b.at.unwrap_or(0));
        total = total.max(d.saturating_sub(offset));
    }
    total
}
