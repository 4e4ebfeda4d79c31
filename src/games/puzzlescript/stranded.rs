//! Objects stranded where they can never meet their win condition,
//! Sokoban's dead squares and frozen crates for any game: proven cuts of
//! dead positions for `all X on Y` win conditions.
//!
//! From the level's start, [`Ground`] gives, for an object that is not a
//! player object and that no rule creates or removes, the cells it may go
//! to from each cell among the fixed objects, and so the cells from which
//! it can never get to a given set of cells. For one position, such
//! objects may also be *frozen*: held in place by each other and the
//! fixed objects (two crates side by side against a wall). All of them
//! are taken as walls, then taken out one by one while one of them can
//! move with the others still in place; those left can never move, since
//! the first of them to move would have to move while all the others are
//! still in place.
//!
//! Two cuts follow, each for an `all X on Y` condition (neither set an
//! aggregate):
//! - X can move, Y objects never appear, move or leave (fixed and never
//!   created): an X in a cell from which it can never get to a Y cell, or
//!   frozen in a cell without a Y, can never be on one.
//! - X objects never appear, move or leave, Y objects are never created
//!   or removed: every X cell needs a Y object of its own, so the position
//!   is dead when fewer Y objects than X cells are left once those that
//!   can never get to an X cell, or are frozen outside one, are counted
//!   out.
//!
//! Games whose rules `restart`, go back to a `checkpoint` or say `win`
//! are not analysed, as in [`super::reach`].

use std::cell::RefCell;

use super::bits::{self, Bits};
use super::compile::{Game, Rule, WinCondition};
use super::ground::{origins, Ground, Origin, Walls, STEPS};
use super::walk;

/// The cuts of a level: per object, the cells it can never leave for a
/// cell it must reach, and the objects that may freeze.
#[derive(Debug)]
pub struct Stranded<'g> {
    game: &'g Game,
    ground: Ground,
    /// The level's fixed objects.
    fixed: Walls,
    /// Per cell, the objects that make a position dead there (they can
    /// never get from it to a cell with the Y they need).
    deadly: Vec<u64>,
    /// Per cell, the objects that make a position dead if frozen there
    /// (an X of the first cut, in a cell without a Y).
    off: Vec<u64>,
    /// The second cut, per condition it applies to.
    short: Vec<Short>,
    /// The objects that may freeze: never created or removed, not player
    /// objects, not fixed; per object id, how rules move it.
    movers: Vec<Option<Mover<'g>>>,
    mover_mask: Bits,
    /// Per cell, the objects whose freezing there would matter to a cut
    /// (`off` and the second cut's `off` together).
    matters: Vec<u64>,
    /// The buffers of [`Stranded::freeze`].
    scratch: RefCell<Freeze>,
}

/// The buffers of [`Stranded::freeze`]: the walls (the fixed objects
/// between two calls), the frozen candidates (cell, object), one cell's
/// words, the cells changed.
#[derive(Debug, Default)]
struct Freeze {
    walls: Walls,
    live: Vec<(usize, usize)>,
    put: Vec<u64>,
    touched: Vec<usize>,
}

/// How the rules move an object: the rule cells that give it a movement,
/// and its layer's objects.
#[derive(Debug)]
struct Mover<'g> {
    origins: Vec<Origin<'g>>,
    layer: Bits,
}

/// The second cut for one condition: per cell, the Y objects stranded
/// there (never to get to an X cell) and the Y objects that would be
/// useless if frozen there (outside the X cells), how many Y objects
/// there are, how many X cells.
#[derive(Debug)]
struct Short {
    stuck: Vec<u64>,
    off: Vec<u64>,
    objects: usize,
    targets: usize,
}

/// The objects a win condition's set names.
fn members(set: &[u64], objects: usize) -> Vec<usize> {
    bits::ones(set).filter(|&o| o < objects).collect()
}

/// True if `rule` can end the level another way than by its conditions,
/// or bring back an earlier position.
fn escapes(rule: &Rule) -> bool {
    rule.gives("restart") || rule.gives("checkpoint") || rule.gives("win")
}

impl<'g> Stranded<'g> {
    /// The analysis of a level of `game` (whose rules make `changes`)
    /// starting with `objects` (columns of `height` cells); `None` when
    /// it does not hold or no condition has a cut.
    pub(super) fn new(
        game: &'g Game,
        changes: &walk::Changes,
        objects: &[u64],
        height: usize,
    ) -> Option<Stranded<'g>> {
        let groups = game.rules.iter().chain(&game.late_rules);
        if groups.flat_map(|g| &g.rules).any(escapes) || game.object_words == 0 {
            return None;
        }
        let words = game.object_words;
        let ground = Ground {
            width: objects.len() / words / height.max(1),
            height,
            words,
        };
        let fixed = changes.fixed(game);
        let walk::Changes {
            created, removable, ..
        } = changes;
        let n = game.objects.len();
        let kept = |o: usize| {
            !bits::get(&game.player.1, o) && !bits::get(created, o) && !bits::get(removable, o)
        };
        let mut out = Stranded {
            game,
            ground,
            fixed: ground.fixed(game, &fixed, objects),
            deadly: vec![0; objects.len()],
            off: vec![0; objects.len()],
            short: Vec::new(),
            movers: (0..n).map(|_| None).collect(),
            mover_mask: bits::zero(words),
            matters: Vec::new(),
            scratch: RefCell::default(),
        };
        for o in (0..n).filter(|&o| kept(o) && !bits::get(&fixed, o)) {
            bits::set(&mut out.mover_mask, o);
            out.movers[o] = Some(Mover {
                origins: origins(game, o),
                layer: game.layer_masks[game.objects[o].layer].clone(),
            });
        }
        let settled = |o: usize| bits::get(&fixed, o) && !bits::get(created, o);
        let mut found = false;
        for wc in game.winconditions.iter().filter(|w| simple(w)) {
            let (xs, ys) = (members(&wc.first, n), members(&wc.second, n));
            if ys.iter().all(|&y| settled(y)) {
                for &x in xs.iter().filter(|&&x| kept(x)) {
                    out.stuck_off(x, &wc.second);
                    found = true;
                }
            } else if xs.iter().all(|&x| settled(x)) && ys.iter().all(|&y| kept(y)) {
                out.short_of(objects, wc);
                found = true;
            }
        }
        out.matters = out.off.clone();
        for s in &out.short {
            bits::or(&mut out.matters, &s.off);
        }
        for (m, k) in out.matters.iter_mut().zip(0..) {
            *m &= out.mover_mask[k % words];
        }
        found.then_some(out)
    }

    /// Marks the cells from which `x` can never get to a cell with a
    /// `second` object as deadly for it, and those without one as off.
    fn stuck_off(&mut self, x: usize, second: &[u64]) {
        let (g, words) = (&self.ground, self.ground.words);
        let cells = self.deadly.len() / words;
        let goal: Vec<bool> = (0..cells)
            .map(|i| bits::meets(g.cell(&self.fixed.put, i), second))
            .collect();
        let reach = g.reaching(self.game, &self.fixed, x, &goal);
        for i in 0..cells {
            if !reach[i] {
                bits::set(&mut self.deadly[i * words..(i + 1) * words], x);
            }
            if !goal[i] {
                bits::set(&mut self.off[i * words..(i + 1) * words], x);
            }
        }
    }

    /// Adds the second cut for `wc`.
    fn short_of(&mut self, objects: &[u64], wc: &WinCondition) {
        let words = self.ground.words;
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
        let mut off = vec![0; objects.len()];
        for y in members(&wc.second, self.game.objects.len()) {
            let reach = self.ground.reaching(self.game, &self.fixed, y, &goal);
            for i in 0..cells {
                if !reach[i] {
                    bits::set(&mut stuck[i * words..(i + 1) * words], y);
                }
                if !goal[i] {
                    bits::set(&mut off[i * words..(i + 1) * words], y);
                }
            }
        }
        self.short.push(Short {
            stuck,
            off,
            objects: (0..cells).map(count).sum(),
            targets: goal.iter().filter(|&&g| g).count(),
        });
    }

    /// True if the position `objects` is dead: an object is stranded
    /// where it cannot meet its condition, or frozen there.
    pub fn dead(&self, objects: &[u64]) -> bool {
        let count = |a: &[u64], b: &[u64]| -> usize {
            a.iter()
                .zip(b)
                .map(|(x, y)| (x & y).count_ones() as usize)
                .sum()
        };
        if objects.iter().zip(&self.deadly).any(|(o, d)| o & d != 0) {
            return true;
        }
        if self
            .short
            .iter()
            .any(|s| s.objects < s.targets + count(objects, &s.stuck))
        {
            return true;
        }
        let mut scratch = self.scratch.borrow_mut();
        let Freeze {
            walls,
            live,
            put,
            touched,
        } = &mut *scratch;
        if walls.put.is_empty() {
            walls.clone_from(&self.fixed);
        }
        if !self.freeze(objects, walls, live, put, touched) {
            return false;
        }
        let words = self.ground.words;
        let has =
            |v: &[u64], &(i, o): &(usize, usize)| bits::get(&v[i * words..(i + 1) * words], o);
        if live.iter().any(|f| has(&self.off, f)) {
            return true;
        }
        self.short.iter().any(|s| {
            let stuck = count(objects, &s.stuck);
            let useless = live.iter().filter(|f| has(&s.off, f) && !has(&s.stuck, f));
            s.objects < s.targets + stuck + useless.count()
        })
    }

    /// The objects of `objects` that may freeze, held as walls in `walls`
    /// beside the fixed ones, then taken out one by one while one of them
    /// can move with the others in place, until none can: those left, in
    /// `live` (cell, object), can never move (the first of them to move
    /// would have to move while all the others are still in place).
    /// `walls` holds the fixed objects before and after. False, and
    /// nothing done, if none may freeze where it matters.
    fn freeze(
        &self,
        objects: &[u64],
        walls: &mut Walls,
        live: &mut Vec<(usize, usize)>,
        put: &mut Vec<u64>,
        touched: &mut Vec<usize>,
    ) -> bool {
        let words = self.ground.words;
        if !objects.iter().zip(&self.matters).any(|(o, m)| o & m != 0) {
            return false;
        }
        live.clear();
        touched.clear();
        put.resize(words, 0);
        for i in 0..objects.len() / words {
            let cell = &objects[i * words..(i + 1) * words];
            if !bits::meets(cell, &self.mover_mask) {
                continue;
            }
            for w in 0..words {
                put[w] = self.fixed.put[i * words + w] | (cell[w] & self.mover_mask[w]);
                let mut m = cell[w] & self.mover_mask[w];
                while m != 0 {
                    live.push((i, w * 64 + m.trailing_zeros() as usize));
                    m &= m - 1;
                }
            }
            walls.set_cell(self.game, i, put);
            touched.push(i);
        }
        loop {
            let before = live.len();
            let mut k = 0;
            while k < live.len() {
                let (i, o) = live[k];
                if self.can_move(walls, i, o) {
                    put.copy_from_slice(self.ground.cell(&walls.put, i));
                    bits::clear(put, o);
                    walls.set_cell(self.game, i, put);
                    live.swap_remove(k);
                } else {
                    k += 1;
                }
            }
            if live.len() == before {
                break;
            }
        }
        for &i in touched.iter() {
            walls.set_cell(self.game, i, self.ground.cell(&self.fixed.put, i));
        }
        true
    }

    /// True if `object` in cell `i` may move while `walls` stay.
    fn can_move(&self, walls: &Walls, i: usize, object: usize) -> bool {
        let Some(m) = &self.movers[object] else {
            return true;
        };
        STEPS.iter().any(|s| {
            self.ground
                .step(walls, &m.origins, &m.layer, i, s)
                .is_some()
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
    fn crates_side_by_side_against_a_wall_freeze_unless_one_pushes_the_other() {
        let pair = "########\n#O.**..#\n#......#\n#..P..O#\n########\n";
        let apart = "########\n#O.*.*.#\n#......#\n#..P..O#\n########\n";
        let chain = "[ > Crate | Crate ] -> [ > Crate | > Crate ]";
        for win in WINS {
            assert!(dead_at_start(&sokoban(win, "", pair)), "{win}");
            assert!(!dead_at_start(&sokoban(win, "", apart)), "{win}");
            assert!(!dead_at_start(&sokoban(win, chain, pair)), "{win}");
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
            stride_share: 0,
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
