//! A position's atoms for best-first width search ([`AtomProblem`]):
//! object `o` in cell `i`. Width 1 counts every object bit; width 2
//! counts pairs of the objects that can change (not fixed: see
//! [`super::super::walk::fixed`]), since a fixed object's atoms are true
//! in every position. A position's partition is the number of win
//! condition instances it still misses ([`unmet`]), as BFWS(f5)
//! partitions by the goals still unmet, not the estimate: the estimate
//! changes with every step of the player's walk, so nearly every position
//! would be the first of its partition, novel whatever it is.

use super::reach::holds;
use super::{Informed, LevelProblem, State};
use crate::solver::AtomProblem;

impl AtomProblem for Informed<'_, '_> {
    fn atoms(&self, state: &State, out: &mut Vec<u64>) {
        out.extend_from_slice(&state.objects);
    }

    fn pair_atoms(&self, state: &State, out: &mut Vec<u32>) {
        changing_atoms(self.0, &state.objects, out);
    }

    fn partition(&self, state: &State, _h: u32) -> u64 {
        unmet(self.0, &state.objects) as u64
    }
}

/// Appends the atoms (`64 w + b` for bit `b` of object word `w` of the
/// position) of the objects of `objects` that are not fixed.
fn changing_atoms(p: &LevelProblem, objects: &[u64], out: &mut Vec<u32>) {
    let mask = &p.changing;
    if mask.is_empty() {
        return;
    }
    for (w, (&word, &m)) in objects.iter().zip(mask.iter().cycle()).enumerate() {
        let mut bits = word & m;
        while bits != 0 {
            out.push((w * 64) as u32 + bits.trailing_zeros());
            bits &= bits - 1;
        }
    }
}

/// The win condition instances `objects` misses: for `all X on Y`, the
/// cells with an X and no Y; for `no X on Y`, the cells with both; for
/// `some X on Y`, one when no cell has both.
fn unmet(p: &LevelProblem, objects: &[u64]) -> u32 {
    let game = p.start.game();
    let ow = p.start.board.ow.max(1);
    let mut total = 0;
    for wc in &game.winconditions {
        let (mut first_only, mut both) = (0, 0);
        for cell in objects.chunks(ow) {
            if holds(&wc.first, wc.first_all, cell) {
                match holds(&wc.second, wc.second_all, cell) {
                    true => both += 1,
                    false => first_only += 1,
                }
            }
        }
        total += match wc.quantifier {
            1 => first_only,
            0 => u32::from(both == 0),
            _ => both,
        };
    }
    total
}

#[cfg(test)]
mod tests {
    use super::super::tests::PUSH;
    use super::*;
    use crate::games::puzzlescript::compile::compile;
    use crate::games::puzzlescript::engine::Input;
    use crate::solver::Problem;

    /// A crate one push from its target, then on it: one instance missed,
    /// then none; two atoms that count in pairs (the player's and the
    /// crate's, not the walls', the target's or the background's).
    #[test]
    fn partitions_count_the_instances_missed() {
        let game = compile(PUSH).unwrap();
        let p = LevelProblem::new(&game, 1).unwrap();
        let informed = Informed(&p);
        let mut s = p.start();
        let mut atoms = Vec::new();
        informed.pair_atoms(&s, &mut atoms);
        assert_eq!(atoms.len(), 2);
        assert!(atoms.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(informed.partition(&s, 99), 1);
        s = p.apply(&s, Input::Right);
        assert_eq!(informed.partition(&s, 99), 1);
        s = p.apply(&s, Input::Right);
        assert!(s.won);
        assert_eq!(informed.partition(&s, 99), 0);
    }
}
