//! Rules of one row of one cell (`[target] -> [target2]`), applied to
//! every cell they match in one sweep. Each match writes only its own
//! cell and whether a cell matches depends only on that cell, so no match
//! can spoil another: applying them in any order gives what the
//! reference's one by one application with re-checks gives. The sweep
//! needs no list of matches, no combination stepping and no re-check, and
//! on an anchored board it updates the occupancy a word of cells at a time.

use super::bits;
use super::compile::{CellPattern, Pattern, Replacement, Rule};
use super::matching::{cell_matches, Board, CellWrite, Matches};

/// The cell and replacement of `rule` if it can be swept: one row of one
/// cell with a replacement that is neither random nor rigid.
pub fn one_cell(rule: &Rule) -> Option<(&CellPattern, &Replacement)> {
    if rule.rigid || rule.rows.len() != 1 || rule.rows[0].len() != 1 {
        return None;
    }
    let Pattern::Cell(p) = &rule.rows[0][0] else {
        return None;
    };
    let r = p.replacement.as_ref()?;
    (!r.random).then_some((p, r))
}

/// Applies the one-cell rule `rule` (see [`one_cell`]) to every cell it
/// matches. `None` if it matches nowhere, else true if a cell changed.
/// The bits that changed are ORed into `written` (objects then
/// movements), as [`super::matching::apply_at`] does.
pub fn sweep(
    rule: &Rule,
    (p, r): (&CellPattern, &Replacement),
    b: &mut Board,
    m: &mut Matches,
    written: &mut [u64],
) -> Option<bool> {
    let (objects, moves) = &rule.row_masks[0];
    if !b.may_hold_all(objects, moves) {
        return None;
    }
    if !b.anchored() {
        return sweep_cells(p, r, (objects, moves), b, written);
    }
    let cells = m.cells_matching(&rule.rows[0], b, b.delta(rule.direction));
    if bits::is_zero(cells) {
        return None;
    }
    let mut changed = false;
    for i in bits::ones(cells) {
        changed |= write_words(r, b, i, written);
    }
    b.occupy_cells(r, cells);
    Some(changed)
}

/// The sweep on a board without occupancy: the columns that may match,
/// cell by cell, each matching cell written as it is found.
fn sweep_cells(
    p: &CellPattern,
    r: &Replacement,
    masks: (&[u64], &[u64]),
    b: &mut Board,
    written: &mut [u64],
) -> Option<bool> {
    let h = b.height;
    let (mut found, mut changed) = (false, false);
    for x in 0..b.width {
        if !b.line_may_match(true, x, masks.0, masks.1) {
            continue;
        }
        for i in x * h..(x + 1) * h {
            if cell_matches(p, b, i) {
                found = true;
                changed |= b.write_replacement(r, &CellWrite::of(r), i, written);
            }
        }
    }
    found.then_some(changed)
}

/// Writes replacement `r` into the words of cell `i`, leaving the
/// occupancy and the masks to [`Board::occupy_cells`]; true if it changed.
fn write_words(r: &Replacement, b: &mut Board, i: usize, written: &mut [u64]) -> bool {
    let (ow, mw) = (b.ow, b.mw);
    let masks = CellWrite::of(r);
    let mut changed = 0;
    for &w in &r.object_words {
        let old = b.objects[i * ow + w];
        let new = masks.objects(w, old);
        b.objects[i * ow + w] = new;
        written[w] |= old ^ new;
        changed |= old ^ new;
    }
    for &w in &r.move_words {
        let old = b.movements[i * mw + w];
        let new = masks.moves(w, old);
        b.movements[i * mw + w] = new;
        written[ow + w] |= old ^ new;
        changed |= old ^ new;
    }
    changed != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puzzlescript::compile::compile;
    use crate::games::puzzlescript::engine::Engine;
    use crate::games::puzzlescript::matching::{apply_at, find_matches, RowMatch};
    use crate::games::puzzlescript::rng::Rng;

    const GAME: &str = "title t\n\nOBJECTS\n\nBackground\nblack\n\nTarget\nyellow\n\nGlow\nwhite\n\nPlayer\nblue\n\nWall\nbrown\n\nCrate\norange\n\nMark\nred\n\nLEGEND\n\n. = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\n@ = Crate and Target\nObstacle = Wall or Crate\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nTarget, Glow\nPlayer, Wall, Crate\nMark\n\nRULES\n\n[ Target ] -> [ Glow ]\n[ Crate Glow ] -> [ Crate Target ]\n[ Player no Mark ] -> [ Player Mark ]\n[ Obstacle no Target ] -> [ Obstacle Mark ]\n[ no Obstacle no Mark ] -> [ right Mark ]\n[ Mark ] -> [ ]\n\nWINCONDITIONS\n\nall Crate on Target\n\nLEVELS\n\n#*.O#*@.P*O.##*.\n.*O#P@..*#O*.@#.\nO#*.@P*#.O*.#@*P\n*@.#O*P.#*O@.*#.\n#.O*#@*.P#O.*@.#\n.*#O@.*P#*.O@#*.\n@#*.O*#.@P*O#.*@\n*.#@O.*#P*@.#O*.\n\n#*.O#*@.\n.*O#P@..\nO#*.@P*#\n*@.#O*P.\n";

    /// Every match of `rule` on `b`, in order.
    fn matches_of(rule: &Rule, b: &Board) -> Vec<RowMatch> {
        let (mut m, mut t, mut all) = (Matches::default(), Vec::new(), Vec::new());
        find_matches(rule, b, &mut m);
        for k in 0..if m.is_empty() { 0 } else { m.combinations() } {
            m.combination(k, &mut t);
            all.extend_from_slice(&t);
        }
        all
    }

    /// The rule applied match by match, each checked again: the general way.
    fn one_by_one(
        rule: &Rule,
        game: &super::super::compile::Game,
        b: &mut Board,
    ) -> (Option<bool>, Vec<u64>) {
        let mut written = vec![0; b.ow + b.mw];
        let matches = matches_of(rule, b);
        let mut result = None;
        for (k, m) in matches.iter().enumerate() {
            let changed = apply_at(
                game,
                rule,
                &[*m],
                k > 0,
                b,
                &mut Rng::new("t"),
                &mut written,
            );
            result = Some(result.unwrap_or(false) | changed);
        }
        (result, written)
    }

    #[test]
    fn a_sweep_writes_what_the_matches_one_by_one_write() {
        let game = compile(GAME).unwrap();
        let rules: Vec<&Rule> = game.rules.iter().flat_map(|g| &g.rules).collect();
        let (mut swept, mut boards) = (0, 0);
        let mut anchored = Vec::new();
        for level in 0..2 {
            let start = Engine::new(&game, level, "t").unwrap().board;
            anchored.push(start.anchored());
            let mut b = start.clone();
            b.recompute_masks();
            for rule in &rules {
                let Some(cell) = one_cell(rule) else { continue };
                let mut general = b.clone();
                let want = one_by_one(rule, &game, &mut general);
                let mut written = vec![0; b.ow + b.mw];
                let got = sweep(rule, cell, &mut b, &mut Matches::default(), &mut written);
                assert_eq!((got, written), want, "rule line {}", rule.line);
                assert_eq!(
                    (&b.objects, &b.movements),
                    (&general.objects, &general.movements)
                );
                for other in &rules {
                    assert_eq!(matches_of(other, &b), matches_of(other, &general));
                }
                swept += usize::from(got == Some(true));
            }
            boards += usize::from(b.objects != start.objects);
        }
        assert_eq!(anchored, [true, false], "one board of each kind");
        assert!(swept >= 8 && boards == 2, "{swept} sweeps changed a board");
    }
}
