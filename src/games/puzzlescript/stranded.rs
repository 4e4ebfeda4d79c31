//! Objects stranded where they can never meet their win condition,
//! Sokoban's dead squares for any game: a proven cut of dead positions
//! for `all X on Y` win conditions.
//!
//! An object moves only when a movement in its collision layer is set in
//! its cell and the cell beyond is free in that layer, one cell a turn.
//! Movements come from the keys (only in player objects' cells) and from
//! rules that set a new one. Such a rule matches a row of cells around
//! the object at fixed offsets (up to an ellipsis); if one of those cells
//! is off the board or holds, for good, an object that keeps out what the
//! rule needs there (a fixed object of the same layer: a wall where the
//! pushing player would stand), the rule cannot fire with the object in
//! that cell. Fixed objects ([`walk::fixed`]) never move and are never
//! removed, so from the level's start alone this gives, for an object
//! that is not a player object and that no rule creates or removes, the
//! cells it may go to from each cell, and so the cells from which it can
//! never get to a given set of cells.
//!
//! Two cuts follow, each for an `all X on Y` condition (neither set an
//! aggregate):
//! - X can move, Y objects never appear, move or leave (fixed and never
//!   created): an X in a cell from which it can never get to a Y cell can
//!   never be on one.
//! - X objects never appear, move or leave, Y objects are never created
//!   or removed: every X cell needs a Y object of its own, so the position
//!   is dead when fewer Y objects than X cells are left outside the cells
//!   from which a Y can never get to an X cell.
//!
//! Games whose rules `restart`, go back to a `checkpoint` or say `win`
//! are not analysed, as in [`super::reach`].

use super::bits::{self, Bits};
use super::compile::{CellPattern, Game, Pattern, Rule, WinCondition};
use super::walk;

/// The four directions: movement bit, column step, row step.
const STEPS: [(u64, isize, isize); 4] = [(1, 0, -1), (2, 0, 1), (4, -1, 0), (8, 1, 0)];

/// The level's dead cells per object, as the cut tests them.
#[derive(Debug, Clone)]
pub struct Stranded {
    /// Per cell, the objects that make a position dead there (they can
    /// never get from it to a cell with the Y they need).
    deadly: Vec<u64>,
    /// The second cut, per condition it applies to.
    short: Vec<Short>,
    /// Object words per cell.
    words: usize,
}

/// The second cut for one condition: per cell, the Y objects stranded
/// there (never to get to an X cell), how many Y objects there are, how
/// many X cells.
#[derive(Debug, Clone)]
struct Short {
    stuck: Vec<u64>,
    objects: usize,
    targets: usize,
}

/// A way a rule may give an object a movement: the rule's row, the index
/// of the cell that sets it, the row's step and the directions set.
struct Origin<'g> {
    row: &'g [Pattern],
    at: usize,
    step: (isize, isize),
    dirs: u64,
}

/// The level: its size, and per cell its fixed objects and the objects
/// those keep out (the others of their layers).
struct Ground {
    width: usize,
    height: usize,
    words: usize,
    fixed: Vec<u64>,
    kept_out: Vec<u64>,
}

impl Ground {
    fn new(game: &Game, objects: &[u64], height: usize) -> Ground {
        let words = game.object_words;
        let cells = objects.len() / words.max(1);
        let fixed_objects = walk::fixed(game);
        let mut fixed = vec![0; objects.len()];
        let mut kept_out = vec![0; objects.len()];
        for i in 0..cells {
            let cell = &objects[i * words..(i + 1) * words];
            let f = &mut fixed[i * words..(i + 1) * words];
            for w in 0..words {
                f[w] = cell[w] & fixed_objects[w];
            }
            for o in bits::ones(&fixed[i * words..(i + 1) * words]) {
                let layer = &game.layer_masks[game.objects[o].layer];
                for w in 0..words {
                    kept_out[i * words + w] |= layer[w];
                }
            }
            for w in 0..words {
                kept_out[i * words + w] &= !fixed[i * words + w];
            }
        }
        Ground {
            width: cells / height.max(1),
            height,
            words,
            fixed,
            kept_out,
        }
    }

    /// The cell `n` steps of `step` from `i`, if on the board.
    fn beyond(&self, i: usize, step: (isize, isize), n: isize) -> Option<usize> {
        let h = self.height as isize;
        let (x, y) = ((i as isize) / h, (i as isize) % h);
        let (x, y) = (x + step.0 * n, y + step.1 * n);
        let inside = (0..self.width as isize).contains(&x) && (0..h).contains(&y);
        inside.then(|| (x * h + y) as usize)
    }

    fn cell<'a>(&self, v: &'a [u64], i: usize) -> &'a [u64] {
        &v[i * self.words..(i + 1) * self.words]
    }

    /// True if no match of `c` can ever be in cell `i`: it needs an
    /// object kept out of it, or the absence of a fixed object there.
    fn keeps_out(&self, c: &CellPattern, i: usize) -> bool {
        let out = self.cell(&self.kept_out, i);
        bits::meets(&c.present, out)
            || bits::meets(&c.missing, self.cell(&self.fixed, i))
            || c.any_present
                .iter()
                .any(|a| !bits::is_zero(a) && bits::subset(a, out))
    }

    /// True if the rule of `o` may fire with its setting cell in `i`:
    /// every cell at a fixed offset from it is on the board and can be
    /// matched there.
    fn may_fire(&self, o: &Origin, i: usize) -> bool {
        if let Pattern::Cell(c) = &o.row[o.at] {
            if self.keeps_out(c, i) {
                return false;
            }
        }
        let ahead = o.row[o.at + 1..].iter().zip(1isize..);
        let behind = o.row[..o.at].iter().rev().zip(1isize..);
        self.side_fits(ahead, o.step, i) && self.side_fits(behind.map(|(p, n)| (p, -n)), o.step, i)
    }

    /// True if the cells of `side` (patterns and their offsets from `i`
    /// in steps of `step`, up to an ellipsis) are on the board and can
    /// be matched there.
    fn side_fits<'p>(
        &self,
        side: impl Iterator<Item = (&'p Pattern, isize)>,
        step: (isize, isize),
        i: usize,
    ) -> bool {
        for (p, n) in side {
            let Pattern::Cell(c) = p else { break };
            match self.beyond(i, step, n) {
                Some(j) if !self.keeps_out(c, j) => {}
                _ => return false,
            }
        }
        true
    }

    /// The cells `object` may move to from cell `i` in one turn: the
    /// neighbours not walled off in its layer in a direction some rule
    /// may give it there.
    fn steps(&self, game: &Game, origins: &[Origin], object: usize, i: usize) -> Vec<usize> {
        let layer = &game.layer_masks[game.objects[object].layer];
        let open = |&(dir, dx, dy): &(u64, isize, isize)| {
            let j = self.beyond(i, (dx, dy), 1)?;
            let walled = bits::meets(self.cell(&self.fixed, j), layer);
            let pushed = || {
                origins
                    .iter()
                    .any(|o| o.dirs & dir != 0 && self.may_fire(o, i))
            };
            (!walled && pushed()).then_some(j)
        };
        STEPS.iter().filter_map(open).collect()
    }

    /// Per cell, true if `object` can get from it to a cell of `goal`
    /// (moving one cell a turn as [`Ground::steps`] allows).
    fn reaching(&self, game: &Game, object: usize, goal: &[bool]) -> Vec<bool> {
        let origins = origins(game, object);
        let mut into: Vec<Vec<usize>> = vec![Vec::new(); goal.len()];
        for i in 0..goal.len() {
            for j in self.steps(game, &origins, object, i) {
                into[j].push(i);
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

/// The row step of a rule's direction.
fn step_of(rule: &Rule) -> (isize, isize) {
    let &(_, dx, dy) = STEPS
        .iter()
        .find(|s| s.0 == rule.direction as u64)
        .unwrap_or(&STEPS[0]);
    (dx, dy)
}

/// Every rule cell that may give `object` a new movement.
fn origins(game: &Game, object: usize) -> Vec<Origin<'_>> {
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

/// What the rules do to objects: those created, those removed.
fn changed(game: &Game) -> (Bits, Bits) {
    let mut created = bits::zero(game.object_words);
    let mut removed = bits::zero(game.object_words);
    let groups = game.rules.iter().chain(&game.late_rules);
    for rule in groups.flat_map(|g| &g.rules) {
        for p in rule.rows.iter().flatten() {
            let Pattern::Cell(c) = p else { continue };
            let Some(r) = &c.replacement else { continue };
            for w in 0..game.object_words {
                created[w] |= (r.set[w] & !c.present[w]) | r.random_entity[w];
            }
            bits::or(&mut removed, &walk::removes(game, c));
        }
    }
    (created, removed)
}

/// The objects a win condition's set names.
fn members(set: &[u64], objects: usize) -> Vec<usize> {
    bits::ones(set).filter(|&o| o < objects).collect()
}

impl Stranded {
    /// The analysis of a level of `game` starting with `objects` (columns
    /// of `height` cells); `None` when it does not hold or finds nothing
    /// to cut.
    pub fn new(game: &Game, objects: &[u64], height: usize) -> Option<Stranded> {
        let gives = |r: &Rule| r.gives("restart") || r.gives("checkpoint") || r.gives("win");
        let groups = game.rules.iter().chain(&game.late_rules);
        if groups.flat_map(|g| &g.rules).any(gives) || game.object_words == 0 {
            return None;
        }
        let ground = Ground::new(game, objects, height);
        let (created, removed) = changed(game);
        let fixed = walk::fixed(game);
        let n = game.objects.len();
        let kept = |o: usize| {
            !bits::get(&game.player.1, o) && !bits::get(&created, o) && !bits::get(&removed, o)
        };
        let settled = |o: usize| bits::get(&fixed, o) && !bits::get(&created, o);
        let mut out = Stranded {
            deadly: vec![0; objects.len()],
            short: Vec::new(),
            words: game.object_words,
        };
        let mut found = false;
        for wc in game.winconditions.iter().filter(|w| simple(w)) {
            let (xs, ys) = (members(&wc.first, n), members(&wc.second, n));
            if ys.iter().all(|&y| settled(y)) {
                for &x in xs.iter().filter(|&&x| kept(x)) {
                    found |= out.stuck_off(game, &ground, x, &wc.second);
                }
            } else if xs.iter().all(|&x| settled(x)) && ys.iter().all(|&y| kept(y)) {
                found |= out.short_of(game, &ground, objects, wc);
            }
        }
        if found {
            let deadly = out.deadly.iter().map(|w| w.count_ones()).sum::<u32>();
            log::debug!(
                "stranded objects: {deadly} deadly object cells, {} counted conditions",
                out.short.len()
            );
        }
        found.then_some(out)
    }

    /// Marks the cells from which `x` can never get to a cell with a
    /// `second` object as deadly for it; true if there is one.
    fn stuck_off(&mut self, game: &Game, ground: &Ground, x: usize, second: &[u64]) -> bool {
        let cells = self.deadly.len() / self.words;
        let goal: Vec<bool> = (0..cells)
            .map(|i| bits::meets(ground.cell(&ground.fixed, i), second))
            .collect();
        let reach = ground.reaching(game, x, &goal);
        let mut any = false;
        for i in (0..cells).filter(|&i| !reach[i]) {
            bits::set(&mut self.deadly[i * self.words..(i + 1) * self.words], x);
            any = true;
        }
        any
    }

    /// Adds the second cut for `wc`; true if a Y object can be stranded,
    /// in a cell from which it can never get to an X cell.
    fn short_of(
        &mut self,
        game: &Game,
        ground: &Ground,
        objects: &[u64],
        wc: &WinCondition,
    ) -> bool {
        let words = self.words;
        let cells = objects.len() / words;
        let cell = |i: usize| &objects[i * words..(i + 1) * words];
        let goal: Vec<bool> = (0..cells)
            .map(|i| bits::meets(cell(i), &wc.first))
            .collect();
        let count = |i: usize| {
            let c = cell(i);
            (0..words)
                .map(|w| (c[w] & wc.second[w]).count_ones() as usize)
                .sum::<usize>()
        };
        let mut stuck = vec![0; objects.len()];
        let mut any = false;
        for y in members(&wc.second, game.objects.len()) {
            let reach = ground.reaching(game, y, &goal);
            for i in (0..cells).filter(|&i| !reach[i]) {
                bits::set(&mut stuck[i * words..(i + 1) * words], y);
                any = true;
            }
        }
        if any {
            self.short.push(Short {
                stuck,
                objects: (0..cells).map(count).sum(),
                targets: goal.iter().filter(|&&g| g).count(),
            });
        }
        any
    }

    /// True if the position `objects` is dead by either cut.
    pub fn dead(&self, objects: &[u64]) -> bool {
        let hit = objects.iter().zip(&self.deadly).any(|(o, d)| o & d != 0);
        hit || self.short.iter().any(|s| {
            let stuck: usize = objects
                .iter()
                .zip(&s.stuck)
                .map(|(o, d)| (o & d).count_ones() as usize)
                .sum();
            s.objects < s.targets + stuck
        })
    }
}

/// An `all X on Y` condition with neither set an aggregate.
fn simple(wc: &WinCondition) -> bool {
    wc.quantifier == 1 && !wc.first_all && !wc.second_all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puzzlescript::compile::compile;
    use crate::games::puzzlescript::solve::{solve_level, LevelProblem, Limits, Method, BFS_SHARE};

    /// Sokoban with `win` as its win condition and `more` rules after
    /// the push.
    fn sokoban(win: &str, more: &str, levels: &str) -> Game {
        let src = format!(
            "OBJECTS\n\nBackground\ngreen\n\nWall\ngray\n\nPlayer\nwhite\n\nCrate\norange\n\nTarget\nred\n\nHole\nblack\n\nLEGEND\n\n. = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\nH = Hole\n@ = Crate and Target\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nTarget, Hole\nPlayer, Wall, Crate\n\nRULES\n\n[ > Player | Crate ] -> [ > Player | > Crate ]\n{more}\nWINCONDITIONS\n\n{win}\n\nLEVELS\n\n{levels}"
        );
        compile(&src).unwrap()
    }

    /// True if level 1 of `game` is dead from its start.
    fn dead_at_start(game: &Game) -> bool {
        let p = LevelProblem::new(game, 1).unwrap();
        p.is_dead(&p.start().objects)
    }

    const WINS: [&str; 2] = ["All Target on Crate", "All Crate on Target"];
    const CORNER: &str = "#######\n#*...O#\n#..P..#\n#######\n";
    const ALONG: &str = "#######\n#..*.O#\n#..P..#\n#.....#\n#######\n";
    const OPEN: &str = "#######\n#....O#\n#..*..#\n#.P...#\n#######\n";
    const HOME: &str = "#######\n#@..*O#\n#..P..#\n#.....#\n#######\n";
    const EDGE: &str = "#######\n#..*..#\n#..P..#\n#....O#\n#######\n";
    const TWO: &str = "#######\n#*...*#\n#..P..#\n#..O..#\n#######\n";
    const ONE_OF_TWO: &str = "#######\n#*....#\n#..P*.#\n#..O..#\n#######\n";

    #[test]
    fn a_crate_in_a_corner_off_target_is_dead_either_way_round() {
        for win in WINS {
            assert!(dead_at_start(&sokoban(win, "", CORNER)), "{win}");
            assert!(!dead_at_start(&sokoban(win, "", ALONG)), "{win}");
            assert!(!dead_at_start(&sokoban(win, "", OPEN)), "{win}");
            assert!(!dead_at_start(&sokoban(win, "", HOME)), "{win}");
            assert!(dead_at_start(&sokoban(win, "", EDGE)), "{win}");
            assert!(dead_at_start(&sokoban(win, "", TWO)), "{win}");
        }
    }

    #[test]
    fn a_spare_crate_may_be_stranded_when_every_target_needs_one() {
        assert!(!dead_at_start(&sokoban(WINS[0], "", ONE_OF_TWO)));
        assert!(dead_at_start(&sokoban(WINS[1], "", ONE_OF_TWO)));
    }

    #[test]
    fn a_crate_a_rule_can_remove_or_a_pull_can_move_is_not_stranded() {
        for win in WINS {
            let holes = sokoban(win, "[ > Crate | Hole ] -> [ | Hole ]", CORNER);
            assert!(!dead_at_start(&holes), "{win}");
            let pull = "[ < Player | Crate ] -> [ < Player | < Crate ]";
            assert!(!dead_at_start(&sokoban(win, pull, CORNER)), "{win}");
        }
    }

    #[test]
    fn a_game_that_can_say_win_is_not_analysed() {
        let game = sokoban(WINS[0], "[ Player Target ] -> win", CORNER);
        assert!(!dead_at_start(&game));
    }

    #[test]
    fn breadth_first_still_proves_the_shortest_and_the_unwinnable() {
        let limits = Limits {
            cpu: false,
            time: None,
            memory: 1 << 30,
            nodes: None,
            weight: 10,
            retry_weight: 10,
            bfs_share: BFS_SHARE,
            width_share: 0,
            rounds: 0,
        };
        for win in WINS {
            let open = solve_level(&sokoban(win, "", OPEN), 1, Method::Bfs, &limits).unwrap();
            assert!(open.proven_shortest);
            assert_eq!(open.outcome.len(), Some(6), "{win}");
            let corner = solve_level(&sokoban(win, "", CORNER), 1, Method::Bfs, &limits).unwrap();
            assert!(corner.outcome.proven_unsolvable && corner.outcome.nodes <= 1);
        }
    }
}
