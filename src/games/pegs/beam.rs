//! Pegs aimed at one cell, as a problem for the search core's beam search
//! ([`crate::solver::beam_scored`]): layer by layer (every jump removes one
//! peg, so a layer holds positions with the same number of pegs), the
//! children of the kept positions are generated, pruned by the target's
//! pagoda functions, made unique within the layer, and only the `width`
//! best by [`Aimed`]'s score go on.
//!
//! The score (lower first) is [`ISOLATED_WEIGHT`] per peg with no
//! orthogonal neighbour plus the sum over the pegs of their squared
//! distance to the target cell: few stranded pegs, pegs gathered towards
//! where the last one must stand.
//!
//! What it guarantees: a win it returns is legal (built from legal jumps;
//! [`super::solve::WinSolver`] returns it as found and `bench pegs`
//! replays it). It is not complete: a failure after a layer was cut to the
//! width proves nothing. Uncut, it is breadth-first search over the layers
//! and finds a win on the target whenever one exists. The solver runs it
//! beside its depth-first searches, which alone prove positions lost.

use super::pagoda::{Pagodas, EPS};
use super::rules::{bit, cells_of, Board, Cells, Jump};
use crate::solver::{Keyed, Problem, Scored};

/// Score per isolated peg, in units of squared cell distance. Measured on
/// the 20 hardest of 800 generated 9x9 boards (width 1,000, aimed at the
/// middle cell): 20 won with 16 (and with 16 plus a little noise), 17 with
/// 64, 17 with the distances alone, 15-16 with the move-ordering weights
/// of the depth-first search (1,024 an isolated peg, 16 a legal jump).
pub const ISOLATED_WEIGHT: i64 = 16;

/// Positions of one board to be brought down to one peg on `target`.
pub struct Aimed<'a> {
    board: &'a Board,
    target: u8,
    pagodas: &'a Pagodas,
    /// Per cell: its squared distance to the target.
    dist: Vec<i64>,
    /// Cells not in the first column, and not in the last (the neighbour
    /// shifts must not wrap around a row).
    not_first_col: Cells,
    not_last_col: Cells,
}

impl<'a> Aimed<'a> {
    /// Aimed at `target`, pruned by `pagodas` (functions aimed at that
    /// cell, [`Pagodas::for_target`], or none).
    pub fn new(board: &'a Board, target: u8, pagodas: &'a Pagodas) -> Self {
        let w = board.width();
        let (tr, tc) = board.row_col(target);
        let h = board.height();
        let column = |c: usize| -> Cells { (0..h).fold(0, |m, r| m | bit((r * w + c) as u8)) };
        let dist = (0..w * h)
            .map(|i| ((i / w) as i64 - tr as i64).pow(2) + ((i % w) as i64 - tc as i64).pow(2))
            .collect();
        Aimed {
            board,
            target,
            pagodas,
            dist,
            not_first_col: !column(0),
            not_last_col: !column(w - 1),
        }
    }

    /// Pegs of `p` with no orthogonal neighbour peg.
    fn isolated(&self, p: Cells) -> u32 {
        let w = self.board.width();
        let nb =
            ((p << 1) & self.not_first_col) | ((p >> 1) & self.not_last_col) | (p << w) | (p >> w);
        (p & !nb).count_ones()
    }
}

impl Problem for Aimed<'_> {
    type State = Cells;
    type Move = Jump;

    /// The legal jumps whose position a pagoda function does not prove
    /// lost for the target.
    fn moves(&self, state: &Cells, out: &mut Vec<Jump>) {
        let vals = self.values(*state);
        let src = self.board.jump_sources(*state);
        for (d, &set) in src.iter().enumerate() {
            for f in cells_of(set) {
                let j = self.board.jump(f, d);
                let (to, from, over) = (j.to as usize, j.from as usize, j.over as usize);
                let lost = self.pagodas.list.iter().zip(&vals).any(|(p, v)| {
                    v + p.weights[to] - p.weights[from] - p.weights[over] < p.need - EPS
                });
                if !lost {
                    out.push(j);
                }
            }
        }
    }

    fn is_legal(&self, state: &Cells, mv: Jump) -> bool {
        self.board.is_legal(*state, mv)
    }

    fn apply(&self, state: &Cells, mv: Jump) -> Cells {
        state ^ mv.mask()
    }

    fn is_goal(&self, state: &Cells) -> bool {
        *state == bit(self.target)
    }

    /// Every jump removes one peg: exactly `pegs - 1` jumps are left.
    fn lower_bound(&self, state: &Cells) -> u32 {
        state.count_ones().saturating_sub(1)
    }
}

impl Aimed<'_> {
    /// The value of `pegs` under each pagoda function. Kept out of line:
    /// inlined into [`Problem::moves`], its sums were kept on the stack
    /// (a store after every add), 9% slower on 400 9x9 boards.
    #[inline(never)]
    fn values(&self, pegs: Cells) -> [f64; 8] {
        let mut vals = [0.0; 8];
        for (v, p) in vals.iter_mut().zip(&self.pagodas.list) {
            *v = p.value(pegs);
        }
        vals
    }
}

impl Keyed for Aimed<'_> {
    type Key = Cells;

    fn key(&self, state: &Cells) -> Cells {
        *state
    }
}

impl Scored for Aimed<'_> {
    fn score(&self, state: &Cells) -> i64 {
        ISOLATED_WEIGHT * self.isolated(*state) as i64
            + cells_of(*state).map(|c| self.dist[c as usize]).sum::<i64>()
    }
}

/// A beam of `width` aimed at the target of `p` from `pegs`, dropping
/// duplicates within each layer, with no budget (for tests).
#[cfg(test)]
pub(crate) fn unlimited_beam(
    p: &Aimed,
    pegs: &Cells,
    width: usize,
) -> crate::solver::Outcome<Jump> {
    use crate::solver::{beam_scored, Budget, Duplicates};
    beam_scored(
        p,
        pegs,
        width,
        Duplicates::WithinLayer,
        &Budget::unlimited(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pegs::parse_game;
    use crate::solver::{beam_scored, wins, Budget, Duplicates, Outcome};

    fn run(id: &str, row: usize, col: usize, width: usize) -> (Cells, Outcome<Jump>, bool) {
        let g = parse_game(id).unwrap();
        let t = g.board.index(row, col);
        let pag = Pagodas::for_target(&g.board, t);
        let p = Aimed::new(&g.board, t, &pag);
        let o = unlimited_beam(&p, &g.pegs, width);
        let replays = o.moves.as_ref().is_some_and(|m| wins(&p, &g.pegs, m));
        (g.pegs, o, replays)
    }

    const ENGLISH: &str = "7x7:OOPPPOOOOPPPOOPPPPPPPPPPHPPPPPPPPPPOOPPPOOOOPPPOO";

    /// A generated 9x9 board the depth-first portfolio needed 22 s for
    /// (won by the dual search after 41.6 M nodes).
    const HARD: &str =
        "9x9:PPOOOOOOOHPPOOOOOOPPOOOOOOOPPPOPOOOOPHPPPPPOOPPPPPPPPOPPPPOPPHPPPPPOOPPPPHPPOPHPP";

    #[test]
    fn the_english_board_is_won_on_its_middle() {
        let (_, o, replays) = run(ENGLISH, 3, 3, 1000);
        assert_eq!(o.moves.as_ref().map(Vec::len), Some(31));
        assert!(replays);
    }

    #[test]
    fn a_narrow_beam_misses_what_a_wider_one_finds() {
        let (_, narrow, _) = run(HARD, 4, 4, 30);
        assert!(narrow.moves.is_none());
        assert!(!narrow.proven_unsolvable, "a cut beam proves nothing");
        let (_, wide, replays) = run(HARD, 4, 4, 1000);
        assert!(wide.moves.is_some() && replays);
    }

    #[test]
    fn an_uncut_beam_proves_a_target_unreachable() {
        // `PPHPP` in a row: either first jump leaves two pegs apart.
        let (_, o, _) = run("5x1:PPHPP", 0, 2, usize::MAX);
        assert!(o.moves.is_none() && o.proven_unsolvable);
        // `PPHP` ends on its second cell and nowhere else.
        let (_, o, _) = run("4x1:PPHP", 0, 2, usize::MAX);
        assert!(o.moves.is_none() && o.proven_unsolvable);
        let (_, o, replays) = run("4x1:PPHP", 0, 1, usize::MAX);
        assert!(replays && o.proven_optimal, "{o:?}");
    }

    #[test]
    fn a_wide_beam_stops_at_the_memory_limit() {
        let g = parse_game(ENGLISH).unwrap();
        let t = g.board.index(3, 3);
        let pag = Pagodas::for_target(&g.board, t);
        let p = Aimed::new(&g.board, t, &pag);
        // Width 2^14 wins within about 30 MB; its duplicate set alone
        // stays under 4 MB, so the limit must count the layers kept for
        // the path back and the children's buffer too.
        let budget = Budget::new(None, 8 << 20);
        let o = beam_scored(&p, &g.pegs, 1 << 14, Duplicates::WithinLayer, &budget);
        assert_eq!(o.stopped, Some(crate::solver::BudgetExceeded::Memory));
        assert!(o.moves.is_none() && !o.proven_unsolvable);
    }

    #[test]
    fn pegs_on_the_edge_of_a_row_are_not_neighbours_of_the_next_row() {
        let g = parse_game("3x3:PPPHHHPPP").unwrap();
        let pag = Pagodas::none();
        let p = Aimed::new(&g.board, 4, &pag);
        // Cells 2 and 6 sit at the ends of rows 0 and 2: neither touches
        // cell 3 or 5 across the row break; all pegs have a row neighbour.
        assert_eq!(p.isolated(bit(2) | bit(3)), 2);
        assert_eq!(p.isolated(g.pegs), 0);
        // A lone peg is isolated too.
        assert_eq!(p.score(&bit(4)), ISOLATED_WEIGHT);
        assert_eq!(p.score(&bit(0)), ISOLATED_WEIGHT + 2);
    }
}
