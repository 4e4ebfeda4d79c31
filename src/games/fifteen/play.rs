//! Fifteen for the play loop: the board read off the screen
//! ([`super::read`]), solved by the Fifteen solver (fewest tile moves,
//! which is what sgt-fifteen counts), and played one click per line: the
//! solver's consecutive gap moves in one direction become one [`Slide`], a
//! click on the cell the gap ends on, which slides every tile between
//! that cell and the gap. [`Rules::counted`] is the number of tiles a click
//! moves, so the loop predicts the game's own counter; a game's report
//! gives both counts (tile moves and clicks). A board the exact search
//! cannot finish within the solve budget is played by a beam search's
//! longer line, reported as not proven optimal.

use std::time::{Duration, Instant};

use crate::actuator::Gesture;
use crate::capture::screen::Screenshot;
use crate::play::game::{cells_diff, size_diff};
use crate::play::{Acting, Plan, PlanError, ReadFailure, Reading, Rect, Rules, Solving, Text};
use crate::solver::greedy::beam;
use crate::solver::Budget;

use super::pdb::PatternDb;
use super::problem::{BoundKind, Slide as SlideProblem};
use super::read::{read_board, FifteenReading};
use super::rules::{Board, Dir};
use super::solve::{solve, SolveOptions};

/// One click: the gap moves `count` cells in `dir` (so `count` tiles slide
/// the other way); the cell clicked is where the gap ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slide {
    /// The direction the gap moves.
    pub dir: Dir,
    /// Tiles moved (at least 1).
    pub count: u8,
}

impl Slide {
    /// The cell (row, column) to click on `board` for this slide, if it is
    /// on the board.
    pub fn cell(&self, board: &Board) -> Option<(usize, usize)> {
        let g = board.gap();
        let (r, c) = ((g / board.width()) as isize, (g % board.width()) as isize);
        let (dr, dc) = self.dir.delta();
        let n = self.count as isize;
        let (r, c) = (r + dr * n, c + dc * n);
        (self.count > 0
            && r >= 0
            && c >= 0
            && (r as usize) < board.height()
            && (c as usize) < board.width())
        .then_some((r as usize, c as usize))
    }
}

/// Consecutive gap moves in one direction merged into slides.
pub fn merge(moves: &[Dir]) -> Vec<Slide> {
    let mut out: Vec<Slide> = Vec::new();
    for &d in moves {
        match out.last_mut() {
            Some(s) if s.dir == d && s.count < u8::MAX => s.count += 1,
            _ => out.push(Slide { dir: d, count: 1 }),
        }
    }
    out
}

/// Fifteen as the play loop sees it.
pub struct FifteenGame {
    /// Pattern databases for 4x4 boards (None: Manhattan distance plus
    /// linear conflicts).
    pub pdb: Option<PatternDb>,
}

impl FifteenGame {
    /// The game solved with `pdb` on 4x4 boards.
    pub fn new(pdb: Option<PatternDb>) -> Self {
        FifteenGame { pdb }
    }
}

impl Rules for FifteenGame {
    type State = Board;
    type Move = Slide;

    fn predict(&self, state: &Board, mv: Slide) -> Board {
        let mut next = state.clone();
        for _ in 0..mv.count {
            next.play(mv.dir);
        }
        next
    }

    fn is_won(&self, state: &Board) -> bool {
        state.is_solved()
    }

    fn dimensions(&self, state: &Board) -> (usize, usize) {
        (state.width(), state.height())
    }

    fn counted(&self, _state: &Board, mv: Slide) -> usize {
        mv.count as usize
    }
}

impl Solving for FifteenGame {
    /// The solver's shortest line in tile moves, merged into clicks:
    /// proven optimal when the search finishes within the budget. When it
    /// does not (a hard 4x4 board on a busy machine), a beam search with
    /// the same bound plays a longer line, reported as unproven with the
    /// proven lower bound.
    fn plan(&self, state: &Board, budget: Duration) -> Result<Plan<Slide>, PlanError> {
        let started = Instant::now();
        let limit = budget.max(Duration::from_millis(50));
        let opts = SolveOptions {
            pdb: self.pdb.as_ref(),
            time_limit: Some(limit),
            node_limit: None,
        };
        let solved = solve(state, &opts).map_err(PlanError::solver)?;
        let lower_bound = match Plan::from_outcome(
            solved.outcome,
            started,
            |_| format!("{} is unsolvable", state.sgt_id()),
            |_, ms| format!("the search of {} after {ms:.0} ms", state.sgt_id()),
        ) {
            Ok(plan) => {
                return Ok(Plan {
                    proven_optimal: plan.proven_optimal,
                    lower_bound: if plan.proven_optimal {
                        plan.moves.len()
                    } else {
                        plan.lower_bound
                    },
                    moves: merge(&plan.moves),
                    elapsed: started.elapsed(),
                })
            }
            Err(unproven) => unproven.lower_bound,
        };
        log::warn!(
            "no solution proven within {:.1} s (lower bound {}); playing a beam search's line",
            limit.as_secs_f64(),
            lower_bound
        );
        // The beam ranks by Manhattan distance with linear conflicts (the
        // pattern databases' search node is not keyed for duplicates).
        let problem = SlideProblem::new(state.width(), state.height(), BoundKind::LinearConflict);
        let start = problem.node(state);
        // A beam finishes in well under a second; it gets at least 10 s,
        // and a wider beam if the first dies out.
        let beam_budget = Budget::new(Some(limit.max(Duration::from_secs(10))), usize::MAX);
        let moves = [1000, 8000]
            .into_iter()
            .find_map(|width| beam(&problem, &start, width, &beam_budget).moves)
            .filter(|m| state.clone().play_all(m).is_ok())
            .ok_or_else(|| {
                PlanError::NoLine(format!(
                    "no solution found for {} within {:.1} s",
                    state.sgt_id(),
                    started.elapsed().as_secs_f64()
                ))
            })?;
        Ok(Plan {
            proven_optimal: false,
            lower_bound: lower_bound as usize,
            moves: merge(&moves),
            elapsed: started.elapsed(),
        })
    }
}

impl Reading for FifteenGame {
    type Reading = FifteenReading;

    fn read(&self, shot: &Screenshot) -> Result<FifteenReading, ReadFailure> {
        read_board(&shot.image).map_err(|e| ReadFailure(e.to_string()))
    }

    fn state<'a>(&self, reading: &'a FifteenReading) -> &'a Board {
        &reading.board
    }

    fn board_area(&self, reading: &FifteenReading) -> Rect {
        reading.board_rect()
    }
}

impl Acting for FifteenGame {
    fn gesture(
        &self,
        reading: &FifteenReading,
        state: &Board,
        mv: Slide,
    ) -> Option<Gesture<(f64, f64)>> {
        let (r, c) = mv.cell(state)?;
        Some(Gesture::Click(reading.cell_centre(r, c)))
    }
}

impl Text for FifteenGame {
    fn name(&self) -> &str {
        "Fifteen"
    }

    fn describe_move(&self, _state: &Board, mv: Slide) -> String {
        // The tiles move against the gap.
        let way = match mv.dir {
            Dir::Up => "down",
            Dir::Down => "up",
            Dir::Left => "right",
            Dir::Right => "left",
        };
        let s = if mv.count == 1 { "" } else { "s" };
        format!("slide {} tile{s} {way}", mv.count)
    }

    fn describe_state(&self, state: &Board) -> String {
        state.sgt_id()
    }

    fn diff(&self, expected: &Board, seen: &Board) -> String {
        board_diff(expected, seen)
    }
}

/// What differs between two boards, for the log.
pub fn board_diff(expected: &Board, seen: &Board) -> String {
    let size = |b: &Board| (b.width(), b.height());
    if let Some(d) = size_diff(size(expected), size(seen)) {
        return d;
    }
    let w = expected.width();
    let cells: Vec<String> = expected
        .cells()
        .iter()
        .zip(seen.cells())
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, (a, b))| format!("({},{}) {b} instead of {a}", i / w, i % w))
        .collect();
    cells_diff(&cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fifteen::parse::parse_sgt_id;

    #[test]
    fn moves_merge_into_slides() {
        use Dir::*;
        let s = merge(&[Up, Up, Left, Left, Left, Down, Right]);
        assert_eq!(
            s,
            vec![
                Slide { dir: Up, count: 2 },
                Slide {
                    dir: Left,
                    count: 3
                },
                Slide {
                    dir: Down,
                    count: 1
                },
                Slide {
                    dir: Right,
                    count: 1
                },
            ]
        );
        assert!(merge(&[]).is_empty());
    }

    #[test]
    fn a_slide_clicks_where_the_gap_ends_and_counts_its_tiles() {
        let game = FifteenGame::new(None);
        let b = Board::goal(4, 4);
        let s = Slide {
            dir: Dir::Left,
            count: 3,
        };
        assert_eq!(s.cell(&b), Some((3, 0)));
        assert_eq!(
            Slide {
                dir: Dir::Right,
                count: 1
            }
            .cell(&b),
            None
        );
        let after = game.predict(&b, s);
        assert_eq!(after.cells()[12..], [0, 13, 14, 15]);
        assert_eq!(game.counted(&b, s), 3);
        assert_eq!(game.describe_move(&b, s), "slide 3 tiles right");
    }

    /// The board after `moves` from `b`, and the tile moves they count.
    fn replay(game: &FifteenGame, b: &Board, moves: &[Slide]) -> (Board, usize) {
        moves.iter().fold((b.clone(), 0), |(s, counted), &mv| {
            (game.predict(&s, mv), counted + game.counted(&s, mv))
        })
    }

    #[test]
    fn the_plan_wins_and_counts_the_solvers_moves() {
        let game = FifteenGame::new(None);
        let b = parse_sgt_id("3x3:0,7,2,8,4,5,1,3,6").unwrap();
        let plan = game.plan(&b, Duration::from_secs(5)).unwrap();
        assert!(plan.proven_optimal);
        let (s, counted) = replay(&game, &b, &plan.moves);
        assert!(game.is_won(&s));
        assert_eq!(counted, plan.lower_bound, "the tile moves are the optimum");
        assert!(plan.moves.len() <= counted);
        // Unsolvable boards are refused with the reason.
        let bad = parse_sgt_id("3x3:2,1,3,4,5,6,7,8,0").unwrap();
        assert!(game
            .plan(&bad, Duration::from_secs(1))
            .unwrap_err()
            .to_string()
            .contains("unsolvable"));
    }

    #[test]
    fn a_board_the_search_cannot_finish_gets_a_beam_line() {
        // Needs about 60 moves: Manhattan plus linear conflicts alone does
        // not prove it in 300 ms.
        let game = FifteenGame::new(None);
        let b = parse_sgt_id("4x4:15,7,2,5,4,3,12,10,0,14,6,1,8,13,11,9").unwrap();
        let plan = game.plan(&b, Duration::from_millis(300)).unwrap();
        let (s, counted) = replay(&game, &b, &plan.moves);
        assert!(game.is_won(&s));
        if !plan.proven_optimal {
            assert!(plan.lower_bound <= counted);
        }
    }

    #[test]
    fn diff_names_cells() {
        let a = Board::goal(2, 2);
        let b = parse_sgt_id("2x2:1,2,0,3").unwrap();
        assert_eq!(
            board_diff(&a, &b),
            "2 cells differ: (1,0) 0 instead of 3, (1,1) 3 instead of 0"
        );
    }
}
