//! Relevance analysis for search: the objects that cannot change whether
//! or when a level is won (overlays, shadows and borders a game clears and
//! draws again every turn), and the rules that only draw them. A search on
//! the game without them reaches the same positions of everything else,
//! turn for turn, in fewer rule applications a turn; it finds the same
//! solutions and proves the same ones shortest.
//!
//! As in the relevance analysis of classical planning (the goal's causal
//! ancestors), the relevant objects start from the win conditions and the
//! player, and grow to a fixed point: every object and movement a rule
//! reads is relevant when the rule may change a relevant object or the
//! movement of a relevant layer, gives a command other than a sound, or
//! is rigid; a layer that holds a relevant object is relevant as a whole
//! (writing an object clears its layer-mates, and movements are resolved
//! layer by layer). What is left is cosmetic: no rule that matters reads
//! it, so the rules that only write it change nothing else, in any order.
//! A rule group that goes round once more because a cosmetic object
//! changed, or an `again` turn that only redraws, sees the same relevant
//! objects as the pass before and changes none of them. Games that draw
//! random numbers are left whole: a dropped rule would have drawn too.

use super::bits::{self, Bits};
use super::compile::{number_rules, CellPattern, Game, Group, Level, Pattern, Rule};
use super::solve::is_random;

/// A game as searched: without its cosmetic objects (in its levels and
/// its rules' replacements) and the rules that only draw them. Object ids
/// are those of the whole game.
#[derive(Debug, Clone)]
pub struct Lean {
    /// The game without them.
    pub game: Game,
    /// The cosmetic objects.
    pub cosmetic: Bits,
    /// The number of rules dropped (as compiled, one a direction).
    pub dropped: usize,
}

impl Lean {
    /// `game` without its cosmetic objects; `None` if no rule changes
    /// one (objects that stay as the level drew them cost a search
    /// nothing), or if the game draws random numbers.
    pub fn of(game: &Game) -> Option<Lean> {
        if is_random(game) {
            return None;
        }
        let relevant = relevant_objects(game);
        let cosmetic = others(game, &relevant);
        let mut rules = game.rules.iter().chain(&game.late_rules);
        let drawn = rules.any(|g| {
            let mut cells = g.rules.iter().flat_map(cells);
            cells.any(|c| bits::meets(&changes(game, c), &cosmetic))
        });
        if !drawn {
            return None;
        }
        let mut lean = game.clone();
        let mut dropped = 0;
        let mut keep = |groups: &[Group]| -> Vec<Group> {
            groups
                .iter()
                .map(|g| {
                    let kept: Vec<Rule> = g
                        .rules
                        .iter()
                        .filter(|r| matters(game, r, &relevant))
                        .map(|r| without_objects(r, &cosmetic))
                        .collect();
                    dropped += g.rules.len() - kept.len();
                    Group::new(kept, g.random)
                })
                .collect()
        };
        lean.rules = keep(&game.rules);
        lean.late_rules = keep(&game.late_rules);
        let stride = game.object_words + game.movement_words;
        lean.marks = number_rules(&mut lean.rules, &mut lean.late_rules, stride);
        for level in &mut lean.levels {
            if let Level::Map { cells, .. } = level {
                strip(cells, &cosmetic);
            }
        }
        Some(Lean {
            game: lean,
            cosmetic,
            dropped,
        })
    }

    /// A position of the whole game (object words of every cell) as the
    /// lean game holds it: without the cosmetic objects.
    pub fn position(&self, objects: &[u64]) -> Vec<u64> {
        let mut out = objects.to_vec();
        strip(&mut out, &self.cosmetic);
        out
    }
}

/// Clears the objects of `mask` from every cell of `cells`.
fn strip(cells: &mut [u64], mask: &[u64]) {
    for cell in cells.chunks_exact_mut(mask.len()) {
        bits::and_not(cell, mask);
    }
}

/// Every object of `game`.
fn all_objects(game: &Game) -> Bits {
    let mut all = bits::zero(game.object_words);
    for id in 0..game.objects.len() {
        bits::set(&mut all, id);
    }
    all
}

/// The cosmetic objects of `game`: those that are not relevant.
pub fn cosmetic_of(game: &Game) -> Bits {
    others(game, &relevant_objects(game))
}

/// The objects of `game` not in `set`.
fn others(game: &Game, set: &[u64]) -> Bits {
    let all = all_objects(game);
    all.iter().zip(set).map(|(a, r)| a & !r).collect()
}

/// The relevant objects of `game` (see the module's comment).
pub fn relevant_objects(game: &Game) -> Bits {
    let mut relevant = bits::zero(game.object_words);
    bits::or(&mut relevant, &game.player.1);
    let every = all_objects(game);
    for w in &game.winconditions {
        bits::or(&mut relevant, &w.first);
        // Without `on`, the second set is every bit: it names nothing.
        if !bits::subset(&every, &w.second) {
            bits::or(&mut relevant, &w.second);
        }
    }
    loop {
        let before = relevant.clone();
        for layer in &game.layer_masks {
            if bits::meets(layer, &relevant) {
                bits::or(&mut relevant, layer);
            }
        }
        let rules = game.rules.iter().chain(&game.late_rules);
        for rule in rules.flat_map(|g| &g.rules) {
            if matters(game, rule, &relevant) {
                add_reads(game, rule, &mut relevant);
            }
        }
        if relevant == before {
            return relevant;
        }
    }
}

/// True if `rule` may change a relevant object or the movement of a
/// relevant layer, gives a command other than a sound, or is rigid.
fn matters(game: &Game, rule: &Rule, relevant: &[u64]) -> bool {
    if rule.rigid || rule.commands.iter().any(|c| !c.name.starts_with("sfx")) {
        return true;
    }
    cells(rule).any(|c| {
        let Some(r) = &c.replacement else {
            return false;
        };
        let mut moved = r.moves_set.clone();
        for m in [&r.moves_clear, &r.layer_mask, &r.random_dir] {
            bits::or(&mut moved, m);
        }
        let moves_relevant = (0..game.layers)
            .any(|l| bits::field(&moved, l) != 0 && bits::meets(&game.layer_masks[l], relevant));
        moves_relevant
            || !bits::is_zero(&r.random_entity)
            || bits::meets(&changes(game, c), relevant)
    })
}

/// The objects a cell's replacement may change in a cell it matched: the
/// objects it adds that the pattern does not require, and those it
/// clears and does not add, except in the layers where the pattern
/// requires an object the replacement keeps (that object is the layer's
/// one object in the cell: its layer-mates are not there to clear).
fn changes(game: &Game, c: &CellPattern) -> Bits {
    let Some(r) = &c.replacement else {
        return bits::zero(game.object_words);
    };
    let mut held = bits::zero(game.object_words);
    for id in bits::ones(&c.present).filter(|&id| bits::get(&r.set, id)) {
        bits::or(&mut held, &game.layer_masks[game.objects[id].layer]);
    }
    (0..held.len())
        .map(|w| (r.set[w] & !c.present[w]) | (r.clear[w] & !r.set[w] & !held[w]))
        .collect()
}

/// ORs into `relevant` every object `rule` tests, and every object of a
/// layer whose movement it tests.
fn add_reads(game: &Game, rule: &Rule, relevant: &mut [u64]) {
    let mut moves = bits::zero(game.movement_words);
    for c in cells(rule) {
        c.add_reads(relevant, &mut moves);
    }
    for (l, layer) in game.layer_masks.iter().enumerate() {
        if bits::field(&moves, l) != 0 {
            bits::or(relevant, layer);
        }
    }
}

/// The cell patterns of `rule`, row after row.
fn cells(rule: &Rule) -> impl Iterator<Item = &CellPattern> {
    rule.rows.iter().flatten().filter_map(|p| match p {
        Pattern::Cell(c) => Some(&**c),
        Pattern::Ellipsis => None,
    })
}

/// `rule` with the objects of `cosmetic` taken out of its replacements
/// (it reads none of them).
fn without_objects(rule: &Rule, cosmetic: &[u64]) -> Rule {
    let mut rule = rule.clone();
    for p in rule.rows.iter_mut().flatten() {
        let Pattern::Cell(c) = p else { continue };
        let Some(r) = &mut c.replacement else {
            continue;
        };
        bits::and_not(&mut r.set, cosmetic);
        bits::and_not(&mut r.clear, cosmetic);
        c.seal();
    }
    rule
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puzzlescript::compile::compile;
    use crate::games::puzzlescript::engine::Input;
    use crate::games::puzzlescript::solve::{solve_level, LevelProblem, Limits, Method};
    use crate::solver::bfs::bfs;
    use crate::solver::{Budget, Problem};

    /// A crate to push onto a target; mud stops the player; walls cast a
    /// shadow that is cleared and drawn again every turn.
    const ROOM: &str = "title t\n\nOBJECTS\n\nBackground\nblack\n\nTarget\nyellow\n\nMud\ngreen\n\nPlayer\nblue\n\nWall\nbrown\n\nCrate\norange\n\nShadow\ngray\n\nLEGEND\n\n. = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\nm = Mud\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nTarget\nMud\nPlayer, Wall, Crate\nShadow\n\nRULES\n\n[ Shadow ] -> []\n[ > Player | Crate ] -> [ > Player | > Crate ]\n[ > Player | Mud ] -> [ Player | Mud ]\nlate down [ Wall | no Wall ] -> [ Wall | Shadow ]\n\nWINCONDITIONS\n\nall Crate on Target\n\nLEVELS\n\n########\n#......#\n#.P*..O#\n#..m...#\n#......#\n########\n";

    fn names(game: &Game, set: &[u64]) -> Vec<String> {
        bits::ones(set)
            .map(|id| game.objects[id].name.clone())
            .collect()
    }

    #[test]
    fn objects_no_rule_that_matters_reads_are_cosmetic() {
        let game = compile(ROOM).unwrap();
        let lean = Lean::of(&game).unwrap();
        assert_eq!(names(&game, &lean.cosmetic), ["background", "shadow"]);
        // The shadow's two rules; mud stays, since a rule that stops the
        // player reads it.
        assert_eq!(lean.dropped, 2);
        assert_eq!(lean.game.rule_count(), game.rule_count() - 2);
    }

    #[test]
    fn a_command_or_a_shared_layer_makes_an_object_relevant() {
        let again = ROOM.replace("[ Shadow ] -> []", "[ Shadow ] -> [] again");
        let game = compile(&again).unwrap();
        assert_eq!(names(&game, &cosmetic_of(&game)), ["background"]);
        let shared = ROOM.replace(
            "Mud\nPlayer, Wall, Crate\nShadow",
            "Mud, Shadow\nPlayer, Wall, Crate",
        );
        let game = compile(&shared).unwrap();
        assert_eq!(names(&game, &cosmetic_of(&game)), ["background"]);
        let sound = ROOM.replace("[ Shadow ] -> []", "[ Shadow ] -> [] sfx0");
        let lean = Lean::of(&compile(&sound).unwrap()).unwrap();
        assert_eq!(lean.dropped, 2, "a sound changes nothing");
    }

    #[test]
    fn the_lean_game_plays_the_relevant_objects_turn_for_turn() {
        let game = compile(ROOM).unwrap();
        let lean = Lean::of(&game).unwrap();
        let (full, thin) = (
            LevelProblem::new(&game, 1).unwrap(),
            LevelProblem::new(&lean.game, 1).unwrap(),
        );
        let (mut a, mut b) = (full.start(), thin.start());
        assert_eq!(lean.position(&a.objects), &b.objects[..]);
        let keys = [
            Input::Up,
            Input::Left,
            Input::Down,
            Input::Right,
            Input::Action,
        ];
        let mut x = 12345u32;
        for turn in 0..300 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let k = keys[(x >> 16) as usize % keys.len()];
            (a, b) = (full.apply(&a, k), thin.apply(&b, k));
            assert_eq!(lean.position(&a.objects), &b.objects[..], "turn {turn}");
            assert_eq!(a.won, b.won, "turn {turn}");
            if a.won {
                (a, b) = (full.start(), thin.start());
            }
        }
    }

    #[test]
    fn searches_on_the_lean_game_find_the_same_shortest_solutions() {
        let game = compile(ROOM).unwrap();
        let lean = Lean::of(&game).unwrap();
        let full = LevelProblem::new(&game, 1).unwrap();
        let thin = LevelProblem::new(&lean.game, 1).unwrap();
        let a = bfs(&full, &full.start(), &Budget::unlimited());
        let b = bfs(&thin, &thin.start(), &Budget::unlimited());
        let (ka, kb) = (a.moves.unwrap(), b.moves.unwrap());
        assert_eq!(ka.len(), kb.len());
        assert!(a.proven_optimal && b.proven_optimal);
        assert!(full.wins(&kb), "the lean game's keys win the whole game");
        let limits = Limits {
            cpu: false,
            time: None,
            memory: 1 << 30,
            nodes: None,
            weight: 3,
            retry_weight: 3,
            bfs_share: 10,
            width_share: 0,
            stride_share: 0,
            rounds: 0,
        };
        let s = solve_level(&game, 1, Method::Bfs, &limits);
        assert_eq!(s.unwrap().outcome.moves.unwrap().len(), ka.len());
    }

    #[test]
    fn games_that_draw_random_numbers_or_no_cosmetic_object_are_left_whole() {
        let random = ROOM.replace("[ Shadow ] -> []", "random [ Shadow ] -> []");
        assert!(Lean::of(&compile(&random).unwrap()).is_none());
        // The background is cosmetic, but no rule draws it.
        let plain = ROOM
            .replace("[ Shadow ] -> []", "")
            .replace("late down [ Wall | no Wall ] -> [ Wall | Shadow ]", "");
        let game = compile(&plain).unwrap();
        assert_eq!(names(&game, &cosmetic_of(&game)), ["background", "shadow"]);
        assert!(Lean::of(&game).is_none());
    }
}
