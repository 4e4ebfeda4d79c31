//! Pegs for the play loop: the board is read off the screen by
//! [`super::read`], solved by [`super::solve::WinSolver`], and each jump is
//! played as a drag ([`super::act`]). A move of the loop is one jump (one
//! drag); a chain of jumps by one peg is one move in the usual metric,
//! reported beside the jumps.
//!
//! What a plan guarantees: every win takes exactly `pegs - 1` jumps, so a
//! win found is shortest in jumps (`proven_optimal`, lower bound
//! `pegs - 1`); nothing is claimed about chains. A position the solver
//! proves lost gives an empty plan, which the loop reports as a lost game;
//! a budget that ends before an answer is an error (`unproven`), never a
//! guess.

use std::time::{Duration, Instant};

use crate::actuator::Gesture;
use crate::capture::screen::Screenshot;
use crate::play::game::cells_diff;
use crate::play::{Acting, Plan, PlanError, ReadFailure, Reading, Rect, Rules, Solving, Text};
use crate::solver::Budget;

use super::act::{jump_gesture, DEFAULT_STEPS};
use super::read::{read_board, PegsReading};
use super::rules::{apply, bit, is_won, Game, Jump};
use super::solve::{SolveOptions, WinSolver};

/// Pegs as the play loop sees it.
#[derive(Debug)]
pub struct PegsGame {
    /// Points per cell of travel in a drag.
    pub drag_steps: usize,
    /// Memory the solver's table of lost positions may hold.
    pub memory_limit_bytes: usize,
}

impl Default for PegsGame {
    fn default() -> Self {
        PegsGame::new()
    }
}

impl PegsGame {
    /// Pegs with drags of [`DEFAULT_STEPS`] points per cell.
    pub fn new() -> Self {
        PegsGame {
            drag_steps: DEFAULT_STEPS,
            memory_limit_bytes: 1 << 30,
        }
    }
}

impl Rules for PegsGame {
    type State = Game;
    type Move = Jump;

    fn predict(&self, state: &Game, mv: Jump) -> Game {
        Game {
            board: state.board.clone(),
            pegs: apply(state.pegs, mv),
        }
    }

    fn is_won(&self, state: &Game) -> bool {
        is_won(state.pegs)
    }

    fn dimensions(&self, state: &Game) -> (usize, usize) {
        (state.board.width(), state.board.height())
    }
}

impl Solving for PegsGame {
    fn metric(&self) -> &'static str {
        "jumps"
    }

    fn plan(&self, state: &Game, budget: Duration) -> Result<Plan<Jump>, PlanError> {
        let started = Instant::now();
        let lower_bound = state.peg_count().saturating_sub(1) as usize;
        let mut solver = WinSolver::new(&state.board, SolveOptions::default());
        let mut outcome = solver.solve(
            state.pegs,
            &Budget::new(Some(budget), self.memory_limit_bytes),
        );
        // Every win takes exactly one jump per peg but the last.
        outcome.lower_bound = lower_bound as u32;
        outcome.proven_optimal = outcome.moves.is_some();
        Ok(Plan::from_outcome(
            outcome,
            started,
            |_| {
                format!(
                    "Pegs: no sequence of jumps from {} leaves one peg (proven)",
                    state.id()
                )
            },
            |_, ms| {
                format!(
                    "after {ms:.0} ms before the solver found a win or proved {} lost",
                    state.id()
                )
            },
        )?)
    }
}

impl Reading for PegsGame {
    type Reading = PegsReading;

    fn read(&self, shot: &Screenshot) -> Result<PegsReading, ReadFailure> {
        read_board(&shot.image).map_err(|e| ReadFailure(e.to_string()))
    }

    fn state<'a>(&self, reading: &'a PegsReading) -> &'a Game {
        &reading.game
    }

    fn board_area(&self, reading: &PegsReading) -> Rect {
        let b = &reading.game.board;
        let half = reading.pitch / 2.0;
        let x = (reading.x0 - half).max(0.0).floor() as u32;
        let y = (reading.y0 - half).max(0.0).floor() as u32;
        Rect {
            x,
            y,
            width: (reading.pitch * b.width() as f64).ceil() as u32,
            height: (reading.pitch * b.height() as f64).ceil() as u32,
        }
    }
}

impl Acting for PegsGame {
    fn gesture(
        &self,
        reading: &PegsReading,
        state: &Game,
        mv: Jump,
    ) -> Option<Gesture<(f64, f64)>> {
        let legal = state.board == reading.game.board && state.board.is_legal(state.pegs, mv);
        legal.then(|| jump_gesture(reading, mv, self.drag_steps))
    }
}

impl Text for PegsGame {
    fn name(&self) -> &str {
        "Pegs"
    }

    fn describe_move(&self, state: &Game, mv: Jump) -> String {
        let w = state.board.width();
        let cell = |i: u8| format!("{},{}", i as usize / w, i as usize % w);
        format!("{}->{}", cell(mv.from), cell(mv.to))
    }

    fn describe_state(&self, state: &Game) -> String {
        state.id()
    }

    fn diff(&self, expected: &Game, seen: &Game) -> String {
        board_diff(expected, seen)
    }
}

/// What differs between two positions, for the log: the cells whose peg
/// came or went (the first few), or the shapes when they differ.
pub fn board_diff(expected: &Game, seen: &Game) -> String {
    let (e, s) = (&expected.board, &seen.board);
    if e.width() != s.width() || e.height() != s.height() || e.cells() != s.cells() {
        return format!(
            "the board's shape differs: {}x{} with {} cells instead of {}x{} with {}",
            s.width(),
            s.height(),
            s.len(),
            e.width(),
            e.height(),
            e.len()
        );
    }
    let mut cells = Vec::new();
    for r in 0..e.height() {
        for c in 0..e.width() {
            let i = e.index(r, c);
            let (a, b) = (expected.pegs & bit(i) != 0, seen.pegs & bit(i) != 0);
            if a != b {
                let what = if b {
                    "peg instead of hole"
                } else {
                    "hole instead of peg"
                };
                cells.push(format!("({r},{c}) {what}"));
            }
        }
    }
    cells_diff(&cells)
}

/// Moves in the usual metric (chains of jumps by one peg) of a line of
/// jumps named as [`PegsGame::describe_move`] names them (`r,c->r,c`): a
/// jump starting where the previous one ended continues its chain.
pub fn chains_in(named: &[String]) -> usize {
    let ends = |s: &str| {
        s.split_once("->")
            .map(|(a, b)| (a.to_string(), b.to_string()))
    };
    let mut moves = 0;
    let mut last_to: Option<String> = None;
    for n in named {
        match ends(n) {
            Some((from, to)) => {
                if last_to.as_deref() != Some(from.as_str()) {
                    moves += 1;
                }
                last_to = Some(to);
            }
            None => {
                moves += 1;
                last_to = None;
            }
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pegs::cli::count_moves;
    use crate::games::pegs::parse::{parse_game, ENGLISH};

    #[test]
    fn plans_win_the_english_board_and_name_their_jumps() {
        let g = parse_game(ENGLISH).unwrap();
        let game = PegsGame::new();
        let plan = game.plan(&g, Duration::from_secs(30)).unwrap();
        assert_eq!(plan.moves.len(), 31);
        assert!(plan.proven_optimal);
        assert_eq!(plan.lower_bound, 31);
        let mut s = g.clone();
        for &j in &plan.moves {
            assert!(s.board.is_legal(s.pegs, j));
            s = game.predict(&s, j);
        }
        assert!(game.is_won(&s));
        let named: Vec<String> = plan
            .moves
            .iter()
            .map(|&j| game.describe_move(&g, j))
            .collect();
        assert!(named.iter().all(|n| n.contains("->")), "{named:?}");
        assert_eq!(chains_in(&named), count_moves(&plan.moves));
    }

    #[test]
    fn a_lost_position_gives_an_empty_plan_and_an_unanswered_one_an_error() {
        // Two pegs apart with nothing to jump: proven lost.
        let g = parse_game("5x1:PHHHP").unwrap();
        let game = PegsGame::new();
        let plan = game.plan(&g, Duration::from_secs(5)).unwrap();
        assert!(plan.moves.is_empty());
        assert!(!game.is_won(&g));
        // A won position needs no moves.
        let won = parse_game("3x1:HPH").unwrap();
        assert!(game.is_won(&won));
        // No time at all: the solver cannot answer the English board.
        let e = game
            .plan(&parse_game(ENGLISH).unwrap(), Duration::ZERO)
            .unwrap_err();
        assert!(e.to_string().starts_with("unproven"), "{e}");
    }

    #[test]
    fn gestures_are_drags_of_legal_jumps_only() {
        let g = parse_game("4x1:PPHP").unwrap();
        let reading = PegsReading {
            game: g.clone(),
            x0: 20.0,
            y0: 20.0,
            pitch: 40.0,
            peg_size: 30.0,
        };
        let game = PegsGame::new();
        let ok = Jump {
            from: 0,
            over: 1,
            to: 2,
        };
        let Some(Gesture::Drag(path)) = game.gesture(&reading, &g, ok) else {
            panic!("a legal jump is a drag")
        };
        assert_eq!(path.first(), Some(&(20.0, 20.0)));
        assert_eq!(path.last(), Some(&(100.0, 20.0)));
        let bad = Jump {
            from: 1,
            over: 2,
            to: 3,
        };
        assert!(game.gesture(&reading, &g, bad).is_none());
        let area = game.board_area(&reading);
        assert_eq!((area.x, area.y, area.width, area.height), (0, 0, 160, 40));
    }

    #[test]
    fn diffs_and_chains() {
        let a = parse_game("3x2:PPHHPP").unwrap();
        let b = parse_game("3x2:HHPHPP").unwrap();
        let game = PegsGame::new();
        assert_eq!(
            game.diff(&a, &b),
            "3 cells differ: (0,0) hole instead of peg, (0,1) hole instead of peg, (0,2) peg instead of hole"
        );
        let c = parse_game("2x2:PPHH").unwrap();
        assert!(game.diff(&a, &c).starts_with("the board's shape differs"));
        let named: Vec<String> = ["0,0->0,2", "0,2->2,2", "4,4->4,2", "2,2->2,0"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(chains_in(&named), 3);
        assert_eq!(
            game.describe_move(
                &a,
                Jump {
                    from: 5,
                    over: 4,
                    to: 3
                }
            ),
            "1,2->1,0"
        );
    }
}
