//! Which single vacancies of a named board can end in one peg (anywhere).
//!
//! The board's cells are grouped into orbits of its symmetries (a vacancy
//! and its images are won or lost together); each orbit is decided once:
//! first by the position-class test ([`LatticeBoard::final_cells`]: no
//! cell of the start's class, proven unsolvable), then by a solver (the
//! square lattice's [`WinSolver`] on the English and French boards, the
//! [`LatticeSolver`] on the triangles). A win is replayed on the lattice
//! board before it is reported; "unsolvable" is said only when proven.

use super::lattice::{LatticeBoard, LatticeSolver};
use super::rules::{bit, Cells, Jump};
use super::solve::{SolveOptions, WinSolver};
use crate::solver::{Budget, Outcome};

/// How a vacancy was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// A win was found and replayed.
    Solvable,
    /// No cell has the start's position class.
    UnsolvableByClass,
    /// The search exhausted every reachable position.
    UnsolvableBySearch,
    /// The budget ended first.
    Unknown,
}

impl Verdict {
    /// The verdict as the report prints it.
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Solvable => "solvable",
            Verdict::UnsolvableByClass => "unsolvable (proven: position classes)",
            Verdict::UnsolvableBySearch => "unsolvable (proven: search exhausted)",
            Verdict::Unknown => "unknown (budget ended)",
        }
    }
}

/// The answer for one orbit of vacancies.
#[derive(Debug, Clone, serde::Serialize)]
pub struct VacancyAnswer {
    /// (row, column) of the orbit's first cell.
    pub vacancy: (u8, u8),
    /// (row, column) of every cell of the orbit.
    pub orbit: Vec<(u8, u8)>,
    /// The answer.
    pub verdict: Verdict,
    /// The win's jumps as (row, column) triples (from, over, to).
    pub win: Option<Vec<[(u8, u8); 3]>>,
    /// Positions the solver expanded.
    pub nodes: u64,
    /// Wall time of the decision in milliseconds.
    pub time_ms: f64,
}

/// The orbits of the cells under the board's symmetries, each sorted,
/// in the order of their first cells.
pub fn orbits(board: &LatticeBoard) -> Vec<Vec<u8>> {
    let mut seen: Cells = 0;
    let mut out = Vec::new();
    for i in 0..board.len() as u8 {
        if seen & bit(i) != 0 {
            continue;
        }
        let mut orbit: Vec<u8> = std::iter::once(i)
            .chain(board.symmetries().iter().map(|s| s[i as usize]))
            .collect();
        orbit.sort_unstable();
        orbit.dedup();
        seen |= orbit.iter().fold(0, |a, &c| a | bit(c));
        out.push(orbit);
    }
    out
}

/// Decides the start with only `vacancy` empty.
pub fn decide(board: &LatticeBoard, vacancy: u8, budget: &Budget) -> Outcome<Jump> {
    let pegs = board.full() & !bit(vacancy);
    if board.final_cells(pegs) == 0 {
        return Outcome::unsolvable(0, budget.elapsed());
    }
    match board.square_game(pegs) {
        Some(game) => {
            let mut o =
                WinSolver::new(&game.board, SolveOptions::default()).solve(game.pegs, budget);
            // Back to the lattice board's cell numbers.
            let cell = |sq: u8| {
                let (r, c) = game.board.row_col(sq);
                board
                    .index(r as i32, c as i32)
                    .expect("a square cell of the board")
            };
            o.moves = o.moves.map(|ms| {
                ms.iter()
                    .map(|j| Jump {
                        from: cell(j.from),
                        over: cell(j.over),
                        to: cell(j.to),
                    })
                    .collect()
            });
            o
        }
        None => LatticeSolver::new(board).solve(pegs, budget),
    }
}

/// True when `jumps` are legal one after another from `pegs` on `board`
/// and leave one peg.
pub fn replays_to_one_peg(board: &LatticeBoard, mut pegs: Cells, jumps: &[Jump]) -> bool {
    let mut legal = Vec::new();
    for &j in jumps {
        legal.clear();
        board.jumps(pegs, &mut legal);
        if !legal.contains(&j) {
            return false;
        }
        pegs ^= j.mask();
    }
    pegs.count_ones() == 1
}

/// Every orbit of single vacancies of `board`, decided (each with a fresh
/// budget from `budget`).
pub fn vacancies(board: &LatticeBoard, budget: impl Fn() -> Budget) -> Vec<VacancyAnswer> {
    let rc = |i: u8| board.coords()[i as usize];
    orbits(board)
        .into_iter()
        .map(|orbit| {
            let v = orbit[0];
            let b = budget();
            let class_ruled_out = board.final_cells(board.full() & !bit(v)) == 0;
            let o = decide(board, v, &b);
            let verdict = match &o.moves {
                Some(ms) if replays_to_one_peg(board, board.full() & !bit(v), ms) => {
                    Verdict::Solvable
                }
                Some(_) => panic!("the solver's win from vacancy {v} does not replay"),
                None if class_ruled_out => Verdict::UnsolvableByClass,
                None if o.proven_unsolvable => Verdict::UnsolvableBySearch,
                None => Verdict::Unknown,
            };
            VacancyAnswer {
                vacancy: rc(v),
                orbit: orbit.iter().map(|&c| rc(c)).collect(),
                verdict,
                win: o.moves.map(|ms| {
                    ms.iter()
                        .map(|j| [rc(j.from), rc(j.over), rc(j.to)])
                        .collect()
                }),
                nodes: o.nodes,
                time_ms: o.elapsed.as_secs_f64() * 1e3,
            }
        })
        .collect()
}

/// The cells of `board` whose single vacancy is solvable, from `answers`.
pub fn solvable_cells(board: &LatticeBoard, answers: &[VacancyAnswer]) -> Cells {
    answers
        .iter()
        .filter(|a| a.verdict == Verdict::Solvable)
        .flat_map(|a| a.orbit.iter())
        .filter_map(|&(r, c)| board.index(r as i32, c as i32))
        .fold(0, |acc, i| acc | bit(i))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(name: &str) -> (LatticeBoard, Vec<VacancyAnswer>) {
        let board = LatticeBoard::named(name).unwrap();
        let answers = vacancies(&board, || Budget::new(None, 1 << 30));
        (board, answers)
    }

    #[test]
    fn every_vacancy_of_the_15_triangle_is_solvable() {
        let (board, answers) = table("tri15");
        assert_eq!(answers.len(), 4, "four orbits under the six symmetries");
        assert_eq!(solvable_cells(&board, &answers), board.full());
        for a in &answers {
            assert!(a.win.as_ref().is_some_and(|w| w.len() == 13));
        }
    }

    #[test]
    fn every_vacancy_of_the_21_triangle_and_the_english_board_is_solvable() {
        for name in ["tri21", "english"] {
            let (board, answers) = table(name);
            assert_eq!(solvable_cells(&board, &answers), board.full(), "{name}");
        }
    }

    #[test]
    fn the_french_board_is_solvable_from_16_vacancies_and_the_rest_proven_not() {
        let (board, answers) = table("french");
        let solvable = solvable_cells(&board, &answers);
        assert_eq!(solvable.count_ones(), 16);
        let at = |r, c| bit(board.index(r, c).unwrap());
        assert_ne!(solvable & at(2, 3), 0, "one off the centre wins");
        assert_ne!(solvable & at(0, 2), 0, "a corner of the top arm wins");
        assert_eq!(solvable & at(3, 3), 0, "the centre does not");
        let centre = answers.iter().find(|a| a.vacancy == (3, 3)).unwrap();
        assert_eq!(centre.verdict, Verdict::UnsolvableByClass);
        assert!(answers.iter().all(|a| a.verdict != Verdict::Unknown));
    }

    #[test]
    fn a_wrong_win_does_not_replay() {
        let board = LatticeBoard::named("tri15").unwrap();
        let start = board.full() & !bit(0);
        let j = board.all_jumps()[0];
        assert!(!replays_to_one_peg(&board, start, &[j, j]));
    }
}
