//! Where the player can still go, and the cells it must still visit: a
//! proven cut of dead positions for `no X` win conditions whose X only
//! the player standing on it can change (a garden to rake, a floor to
//! paint).
//!
//! From the compiled rules, per object:
//! - *static*: no rule removes it (clears it, or writes another object of
//!   its layer), no rule sets a movement in its layer, and it is not a
//!   player object. It stays where it is for good.
//! - a *wall*: static, and the player can never end a turn on its cell:
//!   it shares the player's collision layer, or a `late` rule of one cell
//!   that needs only it and a player object says `cancel`.
//! - *pinned*: not a player object, no rule moves its layer, and every
//!   rule that removes it needs a player object in the same cell.
//! - *one-shot*: pinned, every rule that removes it writes a wall of the
//!   second kind (`cancel`) into its cell, and for each of the four
//!   directions a rule of one cell removes it when a player object on it
//!   moves that way (no rule gives the player's layer a movement of its
//!   own). The player leaves a one-shot cell only once: it is a wall after.
//!
//! A cell that fails a `no` condition and can only be fixed by removing a
//! pinned object needs the player on it: if the player cannot get there
//! through cells without walls, the position is dead. If it can only be
//! fixed by removing a one-shot object, the player must also leave it
//! (the wall written there ends any turn it stays in): a cell the player
//! is not on needs a way in and a way out, so with no free neighbour, or
//! one that is itself one-shot (entering from it walls it off), it is dead.
//! Not analysed (no cut): games whose rules make a player object where no
//! player was (a player can appear anywhere), `restart`, go back to a
//! `checkpoint` or say `win` (which wins whatever the conditions say).
//! Rules of random groups count only as removers and movers, never as
//! the `cancel` or leaving rules the walls and one-shot objects rest on.

use super::bits::{self, Bits};
use super::compile::{CellPattern, Game, Pattern, Replacement};
use super::reach::holds;

/// What fixing a failing cell asks of the player, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Fix {
    /// Something else may fix it.
    Free,
    /// The player has to stand on it.
    Visit,
    /// The player has to enter it (or be on it) and leave it.
    Leave,
}

/// The walls and the cells the player must visit, from a game's rules.
#[derive(Debug, Clone)]
pub struct Walk {
    /// Objects that keep the player out of their cell for good.
    walls: Bits,
    /// Objects only a player standing on them can remove.
    pinned: Bits,
    /// Pinned objects whose cell the player leaves only once.
    one_shot: Bits,
    /// The player objects.
    player: Bits,
    /// The `no` win conditions (indices in `game.winconditions`).
    conditions: Vec<usize>,
    words: usize,
}

/// True if a cell matching `c` holds a player object.
fn needs_player(c: &CellPattern, player: &[u64]) -> bool {
    bits::meets(&c.present, player)
        || c.any_present
            .iter()
            .any(|a| !bits::is_zero(a) && bits::subset(a, player))
}

/// True if a cell holding just the objects `have` meets `c`'s object
/// needs.
fn fires_on(c: &CellPattern, have: &[u64]) -> bool {
    bits::has_all_and_one_of_each(&c.present, &c.any_present, have)
        && !bits::meets(&c.missing, have)
}

/// The objects `c`'s replacement may remove: cleared, or replaced by
/// another object of their layer, among those the cell can hold (what it
/// needs in that layer, or anything of the layer).
pub(super) fn removes(game: &Game, c: &CellPattern) -> Bits {
    let mut out = bits::zero(game.object_words);
    let Some(r) = &c.replacement else {
        return out;
    };
    for layer in &game.layer_masks {
        let written = bits::meets(layer, &r.set) || bits::meets(layer, &r.random_entity);
        if !written && !bits::meets(layer, &r.clear) {
            continue;
        }
        let there = there(c, layer);
        for (w, word) in out.iter_mut().enumerate() {
            let gone = if written { layer[w] } else { r.clear[w] };
            *word |= gone & there[w] & !r.set[w];
        }
    }
    out
}

/// The objects of `layer` a cell matching `c` can hold: what it needs
/// in that layer, or anything of the layer.
fn there(c: &CellPattern, layer: &[u64]) -> Bits {
    if bits::meets(layer, &c.present) {
        layer.iter().zip(&c.present).map(|(l, p)| l & p).collect()
    } else if let Some(a) = c.any_present.iter().find(|a| bits::subset(a, layer)) {
        a.clone()
    } else {
        layer.into()
    }
}

/// The objects `c`'s replacement may give a movement: per layer it sets
/// a new movement in, those the cell can hold there ([`there`]) and those
/// the replacement writes there.
pub(super) fn moves(game: &Game, c: &CellPattern) -> Bits {
    let mut out = bits::zero(game.object_words);
    let Some(r) = &c.replacement else {
        return out;
    };
    for (l, layer) in game.layer_masks.iter().enumerate() {
        if !sets_movement(c, r, l) {
            continue;
        }
        bits::or(&mut out, &there(c, layer));
        for (w, word) in out.iter_mut().enumerate() {
            *word |= layer[w] & (r.set[w] | r.random_entity[w]);
        }
    }
    out
}

/// True when `c`'s replacement `r` sets a movement in layer `l` that the
/// cell did not need there (a new movement, not one kept).
fn sets_movement(c: &CellPattern, r: &Replacement, l: usize) -> bool {
    let set = bits::field(&r.moves_set, l) | bits::field(&r.random_dir, l);
    set != 0 && set != bits::field(&c.moves_present, l)
}

/// One cell of a rule, with the rule's commands and whether it is late,
/// alone in its rule, and in a group that fires one rule at random.
pub(super) struct RuleCell<'g> {
    pub(super) cell: &'g CellPattern,
    late: bool,
    alone: bool,
    random: bool,
    commands: Vec<&'g str>,
}

pub(super) fn rule_cells(game: &Game) -> Vec<RuleCell<'_>> {
    let normal = game.rules.iter().map(|g| (g, false));
    let late = game.late_rules.iter().map(|g| (g, true));
    let mut out = Vec::new();
    for (group, late) in normal.chain(late) {
        for rule in &group.rules {
            let alone = rule.rows.len() == 1 && rule.rows[0].len() == 1;
            let commands: Vec<&str> = rule.commands.iter().map(|c| c.name.as_str()).collect();
            for p in rule.rows.iter().flatten() {
                if let Pattern::Cell(cell) = p {
                    out.push(RuleCell {
                        cell,
                        late,
                        alone,
                        random: group.random,
                        commands: commands.clone(),
                    });
                }
            }
        }
    }
    out
}

/// What the rules change: the layers given a movement, the objects
/// removed, and those removed without a player object in their cell.
pub(super) struct Changes {
    moved: Vec<bool>,
    /// The objects a rule may give a movement ([`moves`]).
    moving: Bits,
    /// The objects a rule may remove ([`removes`]).
    pub removable: Bits,
    unpinned: Bits,
    /// The objects a rule may put in a cell its left-hand side does not
    /// need them in (written, or picked at random).
    pub created: Bits,
}

/// What the rules of `cells` change.
pub(super) fn changes(game: &Game, cells: &[RuleCell]) -> Changes {
    let player = &game.player.1;
    let mut out = Changes {
        moved: vec![false; game.layers],
        moving: bits::zero(game.object_words),
        removable: bits::zero(game.object_words),
        unpinned: bits::zero(game.object_words),
        created: bits::zero(game.object_words),
    };
    for rc in cells {
        let c = rc.cell;
        let Some(r) = &c.replacement else { continue };
        for (l, m) in out.moved.iter_mut().enumerate() {
            *m |= sets_movement(c, r, l);
        }
        bits::or(&mut out.moving, &moves(game, c));
        for w in 0..game.object_words {
            out.created[w] |= (r.set[w] & !c.present[w]) | r.random_entity[w];
        }
        let gone = removes(game, c);
        bits::or(&mut out.removable, &gone);
        if !needs_player(c, player) {
            bits::or(&mut out.unpinned, &gone);
        }
    }
    out
}

/// The objects that stay in their cell for good: not player objects, no
/// rule removes them (clears them or writes another object of their
/// layer) and no rule gives them a movement (sets one in their layer in
/// a cell that can hold them: a crate that is pushed does not move the
/// walls of its layer). Rules that `restart` or go back to a `checkpoint`
/// do not change the answer: they bring back an earlier position, whose
/// fixed objects are where they were.
pub fn fixed(game: &Game) -> Bits {
    Changes::of(game).fixed(game)
}

impl Changes {
    /// What all the rules of `game` change.
    pub(super) fn of(game: &Game) -> Changes {
        changes(game, &rule_cells(game))
    }

    /// The objects of `game` these changes leave fixed ([`fixed`]).
    pub(super) fn fixed(&self, game: &Game) -> Bits {
        let mut out = bits::zero(game.object_words);
        for o in 0..game.objects.len() {
            let still = !bits::get(&game.player.1, o) && !bits::get(&self.moving, o);
            if still && !bits::get(&self.removable, o) {
                bits::set(&mut out, o);
            }
        }
        out
    }
}

impl Walk {
    /// The analysis of `game`'s rules; `None` when it does not hold (see
    /// the module's notes) or no win condition is a `no`.
    pub fn new(game: &Game) -> Option<Walk> {
        let words = game.object_words;
        let (player_all, player) = &game.player;
        let conditions: Vec<usize> = (0..game.winconditions.len())
            .filter(|&i| game.winconditions[i].quantifier < 0)
            .collect();
        if *player_all || conditions.is_empty() {
            return None;
        }
        let cells = rule_cells(game);
        let layer_of = |o: usize| game.objects[o].layer;
        for rc in &cells {
            let c = rc.cell;
            if rc
                .commands
                .iter()
                .any(|&n| n == "restart" || n == "checkpoint" || n == "win")
            {
                return None;
            }
            let Some(r) = &c.replacement else { continue };
            let mut adds: Bits = r.set.clone();
            bits::or(&mut adds, &r.random_entity);
            if bits::meets(&adds, player) && !needs_player(c, player) {
                return None;
            }
        }
        let Changes {
            moved,
            removable,
            unpinned,
            ..
        } = changes(game, &cells);
        let objects = game.objects.len();
        let players: Vec<usize> = (0..objects).filter(|&o| bits::get(player, o)).collect();
        let player_layer = players.first().map(|&p| layer_of(p));
        let one_layer = players.iter().all(|&p| Some(layer_of(p)) == player_layer);
        let still = |o: usize| !bits::get(player, o) && !moved[layer_of(o)];
        let mut walls = bits::zero(words);
        let mut cancel_walls = bits::zero(words);
        let mut pinned = bits::zero(words);
        for o in (0..objects).filter(|&o| still(o)) {
            if !bits::get(&unpinned, o) {
                bits::set(&mut pinned, o);
            }
            if bits::get(&removable, o) {
                continue;
            }
            let cancels = players.iter().all(|&p| {
                let mut have = bits::zero(words);
                bits::set(&mut have, o);
                bits::set(&mut have, p);
                cells.iter().any(|rc| {
                    rc.late
                        && rc.alone
                        && !rc.random
                        && rc.commands.contains(&"cancel")
                        && bits::is_zero(&rc.cell.missing)
                        && bits::is_zero(&rc.cell.moves_present)
                        && bits::is_zero(&rc.cell.moves_missing)
                        && fires_on(rc.cell, &have)
                })
            });
            if cancels && !players.is_empty() {
                bits::set(&mut cancel_walls, o);
                bits::set(&mut walls, o);
            } else if one_layer && Some(layer_of(o)) == player_layer {
                bits::set(&mut walls, o);
            }
        }
        let player_moved = player_layer.is_some_and(|l| moved[l]);
        let mut one_shot = bits::zero(words);
        for o in bits::ones(&pinned).filter(|&o| o < objects) {
            let removers: Vec<&RuleCell> = cells
                .iter()
                .filter(|rc| bits::get(&removes(game, rc.cell), o))
                .collect();
            let walled = removers.iter().all(|rc| {
                let r = rc.cell.replacement.as_ref().expect("a remover replaces");
                bits::meets(&r.set, &cancel_walls) && !r.random
            });
            let leaving = |p: usize| {
                let l = layer_of(p);
                let mut have = bits::zero(words);
                bits::set(&mut have, o);
                bits::set(&mut have, p);
                let mut dirs = 0;
                for rc in removers
                    .iter()
                    .filter(|rc| !rc.late && rc.alone && !rc.random)
                {
                    let c = rc.cell;
                    let dir = bits::field(&c.moves_present, l);
                    let only_player =
                        (0..game.layers).all(|k| k == l || bits::field(&c.moves_present, k) == 0);
                    if dir.count_ones() == 1
                        && dir < 16
                        && only_player
                        && bits::is_zero(&c.moves_missing)
                        && bits::is_zero(&c.missing)
                        && fires_on(c, &have)
                        && rc.commands.is_empty()
                    {
                        dirs |= dir;
                    }
                }
                dirs == 15
            };
            if !removers.is_empty()
                && walled
                && !player_moved
                && players.iter().all(|&p| leaving(p))
            {
                bits::set(&mut one_shot, o);
            }
        }
        // A cell is fixed without the player unless an object of the
        // first set (`no X`'s X) is pinned.
        let pins = |&k: &usize| bits::meets(&game.winconditions[k].first, &pinned);
        if !conditions.iter().any(pins) {
            return None;
        }
        Some(Walk {
            walls,
            pinned,
            one_shot,
            player: player.clone(),
            conditions,
            words,
        })
    }

    /// What fixing one side (`mask`, an aggregate when `all`) of a
    /// failing condition in a cell holding `c` asks of the player.
    fn side(&self, mask: &[u64], all: bool, c: &[u64]) -> Fix {
        // Per word: the side's objects here, and those of them that are
        // one-shot or pinned (every one-shot object is pinned).
        let (mut here, mut shot, mut pin) = (false, [false; 2], [false; 2]);
        let (mut all_shot, mut all_pin) = (true, true);
        for w in 0..self.words {
            let h = mask[w] & c[w];
            here |= h != 0;
            shot[0] |= h & self.one_shot[w] != 0;
            pin[0] |= h & self.pinned[w] != 0;
            all_shot &= h & !self.one_shot[w] == 0;
            all_pin &= h & !self.pinned[w] == 0;
        }
        (shot[1], pin[1]) = (here && all_shot, here && all_pin);
        let k = usize::from(all);
        if shot[k] {
            Fix::Leave
        } else if pin[k] {
            Fix::Visit
        } else {
            Fix::Free
        }
    }

    /// True if no key sequence from a position whose cells (column-major,
    /// `height` a column, `words` a cell) hold `objects` can meet `game`'s
    /// `no` conditions: a cell only the player can fix is out of its reach,
    /// or is one it must leave and cannot.
    pub fn dead(&self, game: &Game, objects: &[u64], height: usize) -> bool {
        let words = self.words.max(1);
        let n = objects.len() / words;
        let cell = |i: usize| &objects[i * words..(i + 1) * words];
        let mut fixes = vec![Fix::Free; n];
        let mut any = false;
        for &k in &self.conditions {
            let wc = &game.winconditions[k];
            for (i, f) in fixes.iter_mut().enumerate() {
                let c = cell(i);
                if holds(&wc.first, wc.first_all, c) && holds(&wc.second, wc.second_all, c) {
                    let fix = self.side(&wc.first, wc.first_all, c).min(self.side(
                        &wc.second,
                        wc.second_all,
                        c,
                    ));
                    *f = (*f).max(fix);
                    any |= fix > Fix::Free;
                }
            }
        }
        if !any {
            return false;
        }
        let free = |i: usize| !bits::meets(&self.walls, cell(i));
        let players: Vec<usize> = (0..n)
            .filter(|&i| bits::meets(&self.player, cell(i)))
            .collect();
        let mut seen = vec![false; n];
        let mut stack = players.clone();
        for &p in &players {
            seen[p] = true;
        }
        while let Some(i) = stack.pop() {
            for j in around(i, height, n).into_iter().flatten() {
                if !seen[j] && free(j) {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        if (0..n).any(|i| fixes[i] > Fix::Free && !seen[i]) {
            return true;
        }
        match players.as_slice() {
            [p] => self.cornered(&fixes, objects, height, *p),
            _ => false,
        }
    }

    /// True if the one player, on cell `player`, cannot enter and leave
    /// every cell whose fix is [`Fix::Leave`]: a one-shot cell is entered
    /// at most once and left once (the player's own is only left). Such a
    /// cell off the player with no free neighbour, or only one and that
    /// one one-shot (entering from it walls it off), is dead; one with
    /// exactly two free neighbours, both one-shot, is a corridor whose
    /// two moves are forced, and a one-shot cell with more forced moves
    /// than it has (two, one for the player's) is dead.
    fn cornered(&self, fixes: &[Fix], objects: &[u64], height: usize, player: usize) -> bool {
        let words = self.words.max(1);
        let n = fixes.len();
        let cell = |i: usize| &objects[i * words..(i + 1) * words];
        let free = |i: usize| !bits::meets(&self.walls, cell(i));
        let once = |i: usize| free(i) && bits::meets(&self.one_shot, cell(i));
        let mut forced = Vec::new();
        for i in (0..n).filter(|&i| fixes[i] == Fix::Leave) {
            let (mut open, mut k) = ([0; 4], 0);
            for j in around(i, height, n)
                .into_iter()
                .flatten()
                .filter(|&j| free(j))
            {
                open[k] = j;
                k += 1;
            }
            match &open[..k] {
                [] => return true,
                [m] if i != player && once(*m) => return true,
                [a, b] if i != player && once(*a) && once(*b) => {
                    forced.push((i.min(*a), i.max(*a)));
                    forced.push((i.min(*b), i.max(*b)));
                }
                _ => {}
            }
        }
        // Two corridors side by side force the same move: count it once.
        forced.sort_unstable();
        forced.dedup();
        let mut moves = vec![0u8; n];
        for (a, b) in forced {
            moves[a] += 1;
            moves[b] += 1;
        }
        (0..n).any(|k| moves[k] > if k == player { 1 } else { 2 })
    }
}

/// The cells next to cell `i` of a board of `n` cells stored column by
/// column, `height` a column.
pub(super) fn around(i: usize, height: usize, n: usize) -> [Option<usize>; 4] {
    let (x, y) = (i / height, i % height);
    [
        (y > 0).then(|| i - 1),
        (y + 1 < height).then(|| i + 1),
        (x > 0).then(|| i - height),
        (i + height < n).then(|| i + height),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puzzlescript::compile::compile;
    use crate::games::puzzlescript::engine::Input;
    use crate::games::puzzlescript::solve::{solve_level, LevelProblem, Limits, Method, BFS_SHARE};
    use crate::solver::Problem;

    /// A garden to rake: the player rakes the sand it walks off, may not
    /// stand on raked sand, and wins when no sand is left unraked; `more`
    /// rules after those.
    fn garden(more: &str, levels: &str) -> Game {
        let src = format!(
            "OBJECTS\n\nBackground\ngreen\n\nRock\ngray\n\nSand\nyellow\n\nRaked\norange\n\nPlayer\nwhite\n\nLEGEND\n\n; = Background\nO = Rock\n. = Sand\nP = Player\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nSand, Raked\nPlayer, Rock\n\nRULES\n\n[ Sand > Player ] -> [ Raked > Player ]\nlate [ Player Raked ] -> cancel\n{more}\nWINCONDITIONS\n\nno Sand\n\nLEVELS\n\n{levels}"
        );
        compile(&src).unwrap()
    }

    /// Six by five cells of sand with two rocks in the middle.
    const OPEN: &str =
        ";;;;;;;;;;\n;;......;;\n;;......;;\nP;..OO..;;\n;;......;;\n;;......;;\n;;;;;;;;;;\n";

    /// A pocket: the sand cell at the bottom can be entered only from the
    /// sand above it, which is raked on the way in.
    const POCKET: &str = "OOOOO\n;P..O\nOOO.O\nOOOOO\n";

    #[test]
    fn the_rules_tell_walls_pinned_and_one_shot_objects() {
        let game = garden("", OPEN);
        let w = Walk::new(&game).unwrap();
        let has = |b: &[u64], name: &str| {
            let o = game
                .objects
                .iter()
                .position(|o| o.name.eq_ignore_ascii_case(name));
            bits::get(b, o.unwrap())
        };
        assert!(has(&w.walls, "Rock") && has(&w.walls, "Raked"));
        assert!(!has(&w.walls, "Sand") && !has(&w.walls, "Background"));
        assert!(has(&w.pinned, "Sand") && has(&w.one_shot, "Sand"));
        assert!(!has(&w.one_shot, "Raked") && !has(&w.pinned, "Player"));
        // A rule that can put the player anywhere: no analysis.
        let jump = garden("[ action Player | Sand ] -> [ | Sand Player ]\n", OPEN);
        assert!(Walk::new(&jump).is_none());
        // A rule that rakes sand without the player: nothing is pinned.
        let wind = garden("[ Sand | Rock ] -> [ Raked | Rock ]\n", OPEN);
        assert!(Walk::new(&wind).is_none());
    }

    #[test]
    fn a_cell_the_player_cannot_enter_and_leave_is_dead() {
        let game = garden("", POCKET);
        let p = LevelProblem::new(&game, 1).unwrap();
        assert!(p.is_dead(&p.start().objects));
        let s = solve_level(&game, 1, Method::Bfs, &limits(None)).unwrap();
        assert!(s.outcome.proven_unsolvable);
        assert_eq!(s.outcome.nodes, 1);
        // Walking into the open garden and boxing a corner cell in.
        let game = garden("", OPEN);
        let p = LevelProblem::new(&game, 1).unwrap();
        let mut s = p.start();
        assert!(!p.is_dead(&s.objects));
        // In, up to the top row, right along it and down beside the
        // rocks: the sand cell above the first rock can still be raked
        // on the way back left.
        let (r, u, d) = (Input::Right, Input::Up, Input::Down);
        for k in [r, r, u, u, r, r, r, d] {
            s = p.apply(&s, k);
            assert!(!p.is_dead(&s.objects));
        }
        // One more step right: that cell is left with one way in, from
        // sand, and no way out.
        s = p.apply(&s, Input::Right);
        assert!(p.is_dead(&s.objects) && !s.won);
    }

    fn limits(nodes: Option<u64>) -> Limits {
        Limits {
            cpu: false,
            time: None,
            memory: 1 << 30,
            nodes,
            weight: 10,
            retry_weight: 10,
            bfs_share: BFS_SHARE,
            width_share: 0,
            stride_share: 0,
            rounds: 0,
        }
    }

    /// Without the cut, weighted A* expands 2,979 positions here (main's
    /// binary before this module); with it, 36.
    #[test]
    fn weighted_astar_rakes_the_garden_within_a_small_budget() {
        let game = garden("", OPEN);
        let s = solve_level(&game, 1, Method::WeightedAstar, &limits(Some(1000))).unwrap();
        let keys = s.outcome.moves.as_ref().unwrap();
        assert!(LevelProblem::new(&game, 1).unwrap().wins(keys));
        assert!(!s.proven_shortest);
        assert_eq!((keys.len(), s.outcome.nodes), (33, 36));
    }
}
