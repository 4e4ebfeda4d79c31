//! Twins: objects of one collision layer that nothing in the game tells
//! apart. A player drawn facing the way it last moved is the common case:
//! `[ left Player ] -> [ left PlayerLeft ]` writes the facing, but when
//! every rule, win condition and the player set read `Player` (all its
//! facings or none), two positions that differ only in the facings behave
//! alike turn for turn, and a search that keeps both searches the same
//! future up to four times.
//!
//! Twins are found by partition refinement: the objects start in classes
//! by collision layer, and every set of objects the game tests (a rule
//! cell's objects that must be there, must be absent or of which one must
//! be there, the objects a replacement removes, each win condition's two
//! sets, the players) splits each class it cuts. What is left are classes
//! whose members every test sees alike; writing one member (a facing) is
//! no test. Objects that never change (no rule creates, moves or removes
//! them: walls drawn in several ways) are left out, since two positions
//! never differ in them. A search then keys a position by its canonical form, each
//! twin replaced by its class's first object ([`Twins::canonical`]), and
//! expands one position of each form: shortest solutions stay shortest
//! and a search that runs dry still proves the level unwinnable, since
//! the positions of one form have the same futures.
//!
//! What that needs of the turn: a rule's commands, a group's or loop's
//! repeat and movement resolution must not depend on whether a write
//! changed a cell. `again` does (another turn is played only when the turn
//! changed the level, and a write of the other facing is a change), as do
//! rigid groups (played again when they fail) and random draws (a rule
//! that writes nothing may still draw); games with any of these have no
//! twins here.

use std::rc::Rc;

use super::bits::{self, Bits};
use super::compile::{Game, Group, Pattern};
use super::solve::is_random;
use super::walk;

/// The twins of a game: for each object word, the objects that are not
/// the first of their class, and for each such object its class's first.
#[derive(Debug, Clone)]
pub struct Twins {
    /// Per object word of a cell, the bits of objects to replace.
    others: Vec<u64>,
    /// Per object id, the id of its class's first object.
    first: Vec<usize>,
    /// The classes with more than one object, as object ids.
    classes: Vec<Vec<usize>>,
}

impl Twins {
    /// The twins of `game`, whose rules make `changes`; `None` if it has
    /// none, or plays `again` turns, rigid groups or random draws (see
    /// the module's doc).
    pub(super) fn of(game: &Game, changes: &walk::Changes) -> Option<Twins> {
        let groups = || game.rules.iter().chain(&game.late_rules);
        let again = groups().any(|g| g.rules.iter().any(|r| r.gives("again")));
        if again || game.rigid || is_random(game) {
            return None;
        }
        let mut classes = by_layer(game);
        for test in tests(game) {
            classes = split(classes, &test);
        }
        let fixed = changes.fixed(game);
        let constant = |o: usize| bits::get(&fixed, o) && !bits::get(&changes.created, o);
        for c in &mut classes {
            c.retain(|&o| !constant(o));
        }
        classes.retain(|c| c.len() > 1);
        if classes.is_empty() {
            return None;
        }
        let n = game.objects.len();
        let mut first: Vec<usize> = (0..n).collect();
        let mut others = vec![0u64; game.object_words.max(1)];
        for c in &classes {
            for &o in &c[1..] {
                first[o] = c[0];
                bits::set(&mut others, o);
            }
        }
        Some(Twins {
            others,
            first,
            classes,
        })
    }

    /// The classes of twins, as object ids (each of two or more).
    pub fn classes(&self) -> &[Vec<usize>] {
        &self.classes
    }

    /// `objects` (cells of `others.len()` words each) with every twin
    /// replaced by its class's first object; the same buffer when no cell
    /// holds a twin that is not first.
    pub fn canonical(&self, objects: &Rc<[u64]>) -> Rc<[u64]> {
        let ow = self.others.len();
        let touched = |cell: &[u64]| cell.iter().zip(&self.others).any(|(a, b)| a & b != 0);
        if !objects.chunks_exact(ow).any(touched) {
            return objects.clone();
        }
        let mut out: Rc<[u64]> = Rc::from(&objects[..]);
        let cells = Rc::get_mut(&mut out).expect("a buffer of its own");
        for cell in cells.chunks_exact_mut(ow) {
            for w in 0..ow {
                let mut twins = cell[w] & self.others[w];
                cell[w] &= !twins;
                while twins != 0 {
                    let o = w * 64 + twins.trailing_zeros() as usize;
                    twins &= twins - 1;
                    bits::set(cell, self.first[o]);
                }
            }
        }
        out
    }
}

/// The objects in classes by collision layer.
fn by_layer(game: &Game) -> Vec<Vec<usize>> {
    let mut classes = vec![Vec::new(); game.layers];
    for (id, o) in game.objects.iter().enumerate() {
        classes[o.layer].push(id);
    }
    classes.retain(|c| !c.is_empty());
    classes
}

/// Every set of objects the game tests (see the module's doc).
fn tests(game: &Game) -> Vec<Bits> {
    let mut out = vec![game.player.1.clone()];
    for w in &game.winconditions {
        out.push(w.first.clone());
        out.push(w.second.clone());
    }
    for g in game.rules.iter().chain(&game.late_rules) {
        group_tests(g, &mut out);
    }
    out
}

/// The sets of objects the cells of `group`'s rules test or remove.
fn group_tests(group: &Group, out: &mut Vec<Bits>) {
    let cells = group.rules.iter().flat_map(|r| r.rows.iter().flatten());
    for p in cells {
        let Pattern::Cell(c) = p else { continue };
        out.push(c.present.clone());
        out.push(c.missing.clone());
        out.extend(c.any_present.iter().cloned());
        if let Some(r) = &c.replacement {
            out.push(r.clear.clone());
        }
    }
}

/// `classes`, each split into the objects in `test` and those not.
fn split(classes: Vec<Vec<usize>>, test: &[u64]) -> Vec<Vec<usize>> {
    let mut out = Vec::with_capacity(classes.len());
    for c in classes {
        let (inside, outside): (Vec<usize>, Vec<usize>) =
            c.into_iter().partition(|&o| bits::get(test, o));
        out.extend([inside, outside].into_iter().filter(|c| !c.is_empty()));
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::games::puzzlescript::compile::compile;

    /// A Sokoban whose player faces the way it moves: the four facings
    /// push alike and win alike.
    pub(crate) const FACING: &str = "OBJECTS\n\nBackground\nblack\n\nTarget\nyellow\n\nPlayerUp\nwhite\n\nPlayerDown\nwhite\n\nPlayerLeft\nwhite\n\nPlayerRight\nwhite\n\nCrate\norange\n\nWall\nbrown\n\nLEGEND\n\nPlayer = PlayerUp or PlayerDown or PlayerLeft or PlayerRight\n. = Background\n# = Wall\nP = PlayerDown\n* = Crate\nO = Target\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nTarget\nPlayer, Wall, Crate\n\nRULES\n\n[ up Player ] -> [ up PlayerUp ]\n[ down Player ] -> [ down PlayerDown ]\n[ left Player ] -> [ left PlayerLeft ]\n[ right Player ] -> [ right PlayerRight ]\n[ > Player | Crate ] -> [ > Player | > Crate ]\n\nWINCONDITIONS\n\nall Crate on Target\n\nLEVELS\n\n#######\n#.....#\n#.*.*.#\n#..P..#\n#O...O#\n#######\n";

    /// The twins of `game`, with what its rules change worked out here.
    fn twins(game: &Game) -> Option<Twins> {
        Twins::of(game, &walk::Changes::of(game))
    }

    fn names(game: &Game, t: &Twins) -> Vec<Vec<String>> {
        let name = |&o: &usize| game.objects[o].name.clone();
        t.classes()
            .iter()
            .map(|c| c.iter().map(name).collect())
            .collect()
    }

    #[test]
    fn the_facings_of_a_player_are_twins() {
        let game = compile(FACING).unwrap();
        let t = twins(&game).expect("twins");
        assert_eq!(
            names(&game, &t),
            vec![vec!["playerup", "playerdown", "playerleft", "playerright"]]
        );
    }

    #[test]
    fn a_rule_that_reads_one_facing_tells_them_apart() {
        let src = FACING.replace(
            "[ > Player | Crate ]",
            "[ action PlayerLeft | Crate ] -> [ PlayerLeft | ]\n[ > Player | Crate ]",
        );
        let game = compile(&src).unwrap();
        let t = twins(&game).expect("twins");
        assert_eq!(
            names(&game, &t),
            vec![vec!["playerup", "playerdown", "playerright"]]
        );
        let src = FACING.replace("all Crate on Target", "some PlayerUp on Target");
        let game = compile(&src).unwrap();
        let t = twins(&game).expect("twins");
        assert_eq!(
            names(&game, &t),
            vec![vec!["playerdown", "playerleft", "playerright"]]
        );
    }

    #[test]
    fn no_twins_in_games_that_play_again() {
        let src = FACING.replace(
            "[ > Player | Crate ] -> [ > Player | > Crate ]",
            "[ > Player | Crate ] -> [ > Player | > Crate ] again",
        );
        assert!(twins(&compile(&src).unwrap()).is_none());
    }

    #[test]
    fn the_canonical_form_keeps_the_first_twin() {
        let game = compile(FACING).unwrap();
        let t = twins(&game).unwrap();
        let ow = game.object_words.max(1);
        let id = |n: &str| game.objects.iter().position(|o| o.name == n).unwrap();
        let mut cells = vec![0u64; 2 * ow];
        bits::set(&mut cells[..ow], id("playerright"));
        bits::set(&mut cells[..ow], id("target"));
        bits::set(&mut cells[ow..], id("crate"));
        let mut want = vec![0u64; 2 * ow];
        bits::set(&mut want[..ow], id("playerup"));
        bits::set(&mut want[..ow], id("target"));
        bits::set(&mut want[ow..], id("crate"));
        let objects: Rc<[u64]> = Rc::from(cells);
        assert_eq!(&t.canonical(&objects)[..], &want[..]);
        let same: Rc<[u64]> = Rc::from(want);
        assert!(Rc::ptr_eq(&t.canonical(&same), &same));
    }
}
