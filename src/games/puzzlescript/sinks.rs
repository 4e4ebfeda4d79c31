//! Where the objects of a `no X` win condition can go away, for the
//! estimate: a whale leaves the sea only on the void, a crate only down a
//! hole. When every rule that removes an X needs a *fixed* object in the
//! X's own cell ([`super::walk::fixed`]: it never moves or goes), an X can
//! go away only on a cell holding such objects, so the estimate walks
//! each X to the nearest of those cells ([`super::ways`]). A rule that
//! removes an X anywhere (it needs nothing fixed in the X's cell, or
//! needs it in a neighbouring cell) leaves the condition without sinks,
//! and the estimate counts the Xs only, as before. A rule that replaces
//! an X by another X removes nothing the condition counts.

use super::bits::{self, Bits};
use super::compile::{CellPattern, Game};
use super::walk::{removes, RuleCell};

/// The sinks of each win condition (`None`: not a plain `no X`, or an X
/// can go away anywhere).
#[derive(Debug, Clone)]
pub struct Sinks {
    per_condition: Vec<Option<Vec<usize>>>,
}

/// What a rule cell that removes an X needs in the X's cell: the fixed
/// objects it must hold, and fixed sets one of which it must hold.
struct Need {
    all: Bits,
    any: Vec<Bits>,
}

impl Need {
    fn met_by(&self, cell: &[u64]) -> bool {
        bits::has_all_and_one_of_each(&self.all, &self.any, cell)
    }
}

impl Sinks {
    /// The sinks on a level whose cells (of `words` object words each)
    /// hold `objects`, from the rule cells of `game` and its `fixed`
    /// objects.
    pub(super) fn new(
        game: &Game,
        cells: &[RuleCell],
        fixed: &[u64],
        objects: &[u64],
        words: usize,
    ) -> Sinks {
        let everything = game.objects.len();
        let per_condition = game
            .winconditions
            .iter()
            .map(|wc| {
                let plain_no = wc.quantifier == -1
                    && !wc.first_all
                    && bits::ones(&wc.second).filter(|&o| o < everything).count() == everything;
                if !plain_no {
                    return None;
                }
                let needs = needs(game, cells, fixed, &wc.first)?;
                let sinks: Vec<usize> = objects
                    .chunks(words.max(1))
                    .enumerate()
                    .filter(|(_, c)| needs.iter().any(|n| n.met_by(c)))
                    .map(|(i, _)| i)
                    .collect();
                (!sinks.is_empty()).then_some(sinks)
            })
            .collect();
        Sinks { per_condition }
    }

    /// The cells where an object of win condition `k` can go away.
    pub fn of(&self, k: usize) -> Option<&[usize]> {
        self.per_condition.get(k)?.as_deref()
    }
}

/// What each rule cell that removes an object of `xs` needs of the fixed
/// objects in that cell; `None` when one needs none of them (it removes
/// an X anywhere) or no rule removes an X.
fn needs(game: &Game, cells: &[RuleCell], fixed: &[u64], xs: &[u64]) -> Option<Vec<Need>> {
    let mut out = Vec::new();
    for c in cells.iter().map(|rc| rc.cell) {
        if !removes_an_x(game, c, xs) {
            continue;
        }
        let all: Bits = c.present.iter().zip(fixed).map(|(p, f)| p & f).collect();
        let any: Vec<Bits> = c
            .any_present
            .iter()
            .filter(|a| !bits::is_zero(a) && bits::subset(a, fixed))
            .cloned()
            .collect();
        if bits::is_zero(&all) && any.is_empty() {
            return None;
        }
        out.push(Need { all, any });
    }
    (!out.is_empty()).then_some(out)
}

/// True when `c`'s replacement may remove an object of `xs` and writes
/// none in its place.
fn removes_an_x(game: &Game, c: &CellPattern, xs: &[u64]) -> bool {
    let writes_an_x = c
        .replacement
        .as_ref()
        .is_some_and(|r| bits::meets(&r.set, xs) || bits::meets(&r.random_entity, xs));
    bits::meets(&removes(game, c), xs) && !writes_an_x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puzzlescript::compile::{compile, Level};
    use crate::games::puzzlescript::walk::{rule_cells, Changes};

    const HOLES: &str = "title t\nOBJECTS\nBackground\nblack\nWall\ngrey\nPlayer\nblue\n\
        Crate\norange\nHole\nred\nLEGEND\n. = Background\n# = Wall\nP = Player\n\
        * = Crate\nO = Hole\nSOUNDS\nCOLLISIONLAYERS\nBackground\nHole\nPlayer, Wall, Crate\n\
        RULES\n[ > Player | Crate ] -> [ > Player | > Crate ]\nRULE_HERE\n\
        WINCONDITIONS\nno Crate\nLEVELS\n#####\n#P*O#\n#O..#\n#####\n";

    fn sinks(rule: &str) -> Option<Vec<usize>> {
        let game = compile(&HOLES.replace("RULE_HERE", rule)).unwrap();
        let Level::Map { cells: objects, .. } = &game.levels[0] else {
            panic!("level 1 is a map")
        };
        let fixed = Changes::of(&game).fixed(&game);
        let s = Sinks::new(
            &game,
            &rule_cells(&game),
            &fixed,
            objects,
            game.object_words,
        );
        s.of(0).map(|c| c.to_vec())
    }

    #[test]
    fn a_crate_goes_away_only_in_a_hole() {
        // Cells column by column, four a column: the holes at (3,1), (1,2).
        assert_eq!(sinks("late [ Crate Hole ] -> [ Hole ]"), Some(vec![6, 13]));
    }

    #[test]
    fn a_crate_that_can_go_anywhere_has_no_sinks() {
        assert_eq!(sinks("[ action Player | Crate ] -> [ Player | ]"), None);
        // The hole is next to the crate, not under it.
        assert_eq!(sinks("[ > Crate | Hole ] -> [ | Hole ]"), None);
    }

    #[test]
    fn a_crate_no_rule_removes_has_no_sinks() {
        assert_eq!(sinks("late [ Crate Hole ] -> [ Crate Hole ]"), None);
    }
}
