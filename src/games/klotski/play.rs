//! Klotski for the play loop, on GNOME Klotski (`gnome-klotski`).
//!
//! [`KlotskiGame`] is one puzzle of the game (the window's title names
//! it): its positions are read off the window ([`super::read`]) and
//! solved by the exact breadth-first search ([`super::solve`]). The game
//! moves a dragged block only to a neighbouring cell at a time, and GTK
//! merges the motion events of a fast drag, so each move of the plan is
//! played as [`Step`]s: one drag each, from a cell of the block to the
//! next cell of its path, verified by reading the board after each. The
//! game counts one move while the same block keeps moving, so a step that
//! continues its block's move counts 0 ([`Rules::counted`]) and the loop's
//! count is the game's. Recovery is the loop's: a board that differs from
//! the prediction is read again and solved from there.
//!
//! [`KlotskiHost`] is the game's window: the move counter is the number on
//! the header bar's button right of the title, read with tesseract along
//! with the title, which says `Level completed.` when the puzzle is
//! solved. A puzzle is chosen at start-up (the `level` key of the game's
//! settings, see [`launch`]); there is no new-game gesture. A win that
//! makes the game's top ten opens a "Congratulations!" dialog over the
//! board; [`launch`] gives the game full score tables so none opens.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::actuator::Gesture;
use crate::capture::ocr;
use crate::capture::screen::Screenshot;
use crate::hosts::Host;
use crate::play::game::cells_diff;
use crate::play::{
    Acting, Plan, PlanError, ReadFailure, Reading, Rect, Rules, Solving, StatusReading,
    StatusResult, Text,
};
use crate::solver::Budget;

use super::board::{Board, Move, Position};

use super::parse::{parse_puzzles, Puzzle};
use super::read::{read, Reading as BoardReading};
use super::solve::solve;

/// The game's 28 puzzles, in its order (`fixtures/klotski/puzzles.txt`).
pub const PUZZLES: &str = include_str!("../../../fixtures/klotski/puzzles.txt");

/// The game's puzzles, parsed.
pub fn game_puzzles() -> Vec<Puzzle> {
    parse_puzzles(PUZZLES).expect("the built-in puzzles parse")
}

/// The puzzle called `name` (any case) and its number in the game's order.
pub fn find_puzzle(name: &str) -> Option<(usize, Puzzle)> {
    game_puzzles()
        .into_iter()
        .enumerate()
        .find(|(_, p)| p.name.eq_ignore_ascii_case(name.trim()))
}

/// One step of a move: the block of class `class` anchored at `from` goes
/// to the neighbouring anchor `to`; `first` when the step starts a move
/// (the game's counter goes up), not when it continues one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The block's class (shape) on the board.
    pub class: u8,
    /// Its anchor before the step.
    pub from: u16,
    /// Its anchor after: one cell away.
    pub to: u16,
    /// True for the first step of a move.
    pub first: bool,
}

impl KlotskiGame {
    /// The board move of `step` on `state`, when it is one legal step.
    fn step_move(&self, state: &Position, step: Step) -> Option<Move> {
        let slot = self.board.slot_of(state, step.class as usize, step.from)?;
        let mv = Move {
            slot: slot as u8,
            to: step.to,
        };
        self.board
            .path(state, mv)
            .filter(|p| p.len() == 2)
            .map(|_| mv)
    }

    /// The steps of the solver's `moves` from `start`.
    pub fn steps(&self, start: &Position, moves: &[Move]) -> Vec<Step> {
        let mut out = Vec::new();
        let mut pos = start.clone();
        for &mv in moves {
            let class = self.board.class_of(mv.slot as usize) as u8;
            if let Some(path) = self.board.path(&pos, mv) {
                for (i, pair) in path.windows(2).enumerate() {
                    out.push(Step {
                        class,
                        from: pair[0],
                        to: pair[1],
                        first: i == 0,
                    });
                }
            }
            pos = self.board.apply(&pos, mv);
        }
        out
    }
}

/// One puzzle of GNOME Klotski as the loop plays it.
#[derive(Debug, Clone)]
pub struct KlotskiGame {
    /// The puzzle's name (the window's title).
    pub name: String,
    /// Its board.
    pub board: Board,
    /// Memory the solver may use.
    pub memory_limit_bytes: usize,
}

impl KlotskiGame {
    /// The game of `puzzle`.
    pub fn new(puzzle: &Puzzle) -> Self {
        KlotskiGame {
            name: puzzle.name.clone(),
            board: puzzle.board.clone(),
            memory_limit_bytes: 2 << 30,
        }
    }
}

impl Rules for KlotskiGame {
    type State = Position;
    type Move = Step;

    fn predict(&self, state: &Position, step: Step) -> Position {
        match self.step_move(state, step) {
            Some(mv) => self.board.apply(state, mv),
            None => state.clone(),
        }
    }

    fn counted(&self, _state: &Position, step: Step) -> usize {
        step.first as usize
    }

    fn is_won(&self, state: &Position) -> bool {
        self.board.is_solved(state)
    }

    fn dimensions(&self, _state: &Position) -> (usize, usize) {
        (self.board.width(), self.board.height())
    }
}

impl Solving for KlotskiGame {
    fn plan(&self, state: &Position, budget: Duration) -> Result<Plan<Step>, PlanError> {
        let started = Instant::now();
        let outcome = solve(
            &self.board,
            state,
            &Budget::new(Some(budget), self.memory_limit_bytes),
        );
        let plan = Plan::from_outcome(
            outcome,
            started,
            |o| {
                format!(
                    "Klotski {}: no solution among the {} positions reachable",
                    self.name, o.nodes
                )
            },
            |o, ms| {
                format!(
                    "the breadth-first search of {} after {ms:.0} ms and {} positions",
                    self.name, o.nodes
                )
            },
        )?;
        Ok(Plan {
            moves: self.steps(state, &plan.moves),
            proven_optimal: plan.proven_optimal,
            lower_bound: plan.lower_bound,
            elapsed: plan.elapsed,
        })
    }
}

impl Reading for KlotskiGame {
    type Reading = BoardReading;

    fn read(&self, shot: &Screenshot) -> Result<BoardReading, ReadFailure> {
        read(&shot.image, &self.board).map_err(|e| ReadFailure(e.to_string()))
    }

    fn state<'a>(&self, reading: &'a BoardReading) -> &'a Position {
        &reading.position
    }

    fn board_area(&self, reading: &BoardReading) -> Rect {
        reading.geometry.frame
    }
}

impl Acting for KlotskiGame {
    fn gesture(
        &self,
        reading: &BoardReading,
        state: &Position,
        step: Step,
    ) -> Option<Gesture<(f64, f64)>> {
        if *state != reading.position {
            return None;
        }
        let mv = self.step_move(state, step)?;
        let grab = self.board.cells(state, mv.slot as usize)[0];
        let (gx, gy) = self.board.xy(grab);
        let ((ax, ay), (bx, by)) = (self.board.xy(step.from), self.board.xy(step.to));
        let g = &reading.geometry;
        Some(Gesture::Drag(vec![
            g.point(gx, gy, 0.5, 0.5),
            g.point(gx + bx - ax, gy + by - ay, 0.5, 0.5),
        ]))
    }
}

impl Text for KlotskiGame {
    fn name(&self) -> &str {
        "Klotski"
    }

    fn describe_move(&self, _state: &Position, step: Step) -> String {
        let (fx, fy) = self.board.xy(step.from);
        let (tx, ty) = self.board.xy(step.to);
        let more = if step.first { "" } else { " (same move)" };
        format!("block at ({fx},{fy}) to ({tx},{ty}){more}")
    }

    fn describe_state(&self, state: &Position) -> String {
        self.board.to_text(state)
    }

    fn diff(&self, expected: &Position, seen: &Position) -> String {
        let (e, s) = (self.board.render(expected), self.board.render(seen));
        let mut cells = Vec::new();
        for (y, (re, rs)) in e.iter().zip(&s).enumerate() {
            for (x, (ce, cs)) in re.chars().zip(rs.chars()).enumerate() {
                if ce != cs {
                    cells.push(format!("({x},{y}) {cs:?} instead of {ce:?}"));
                }
            }
        }
        if cells.is_empty() {
            // The same cells covered, blocks cut differently.
            return format!("the blocks differ (seen {})", self.board.to_text(seen));
        }
        cells_diff(&cells)
    }
}

/// GNOME Klotski's window as the loop's host.
#[derive(Debug, Clone)]
pub struct KlotskiHost {
    /// The puzzle's name: the window's title until it is solved.
    pub puzzle: String,
}

/// The header bar's text as tesseract gives it: `Level completed.` in the
/// title means solved; the counter is the last number after the title.
pub fn status_of(text: &str, puzzle: &str) -> StatusReading {
    let lower = text.to_lowercase();
    let after = match lower.find(&puzzle.to_lowercase()) {
        Some(at) => &text[at + puzzle.len()..],
        None => text,
    };
    let moves = after
        .split_whitespace()
        .rfind(|t| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()))
        .and_then(|t| t.parse().ok());
    let result = if lower.contains("completed") {
        StatusResult::Completed
    } else if moves.is_some() {
        StatusResult::Playing
    } else {
        StatusResult::Unread
    };
    StatusReading {
        result,
        text: (!text.trim().is_empty()).then(|| text.trim().to_string()),
        moves,
        limit: None,
    }
}

impl Host for KlotskiHost {
    fn name(&self) -> &str {
        "gnome-klotski"
    }

    fn status(&self, shot: &Screenshot, board: Rect) -> StatusReading {
        // The header bar: the window's top strip, above the board.
        let height = board.y.min(64);
        if height < 16 {
            return StatusReading::unread();
        }
        let area = Rect {
            x: 0,
            y: 0,
            width: shot.image.width(),
            height,
        };
        match ocr::read_line(&shot.image, area) {
            Ok(text) => status_of(&text, &self.puzzle),
            Err(_) => StatusReading::unread(),
        }
    }

    fn new_game(&self) -> Option<Gesture<(f64, f64)>> {
        None
    }
}

/// The command that starts `gnome-klotski` on puzzle number `level` (from
/// 0, the game's order) with a window of `size`: the game reads its
/// `level` and window size from GSettings at start-up, given here in a
/// key file of a fresh settings folder `home` (GSETTINGS_BACKEND=keyfile),
/// so nothing of the user's own settings is read or changed. Its data
/// folder holds full score tables, so a win opens no scores dialog.
pub fn launch(level: usize, size: (u32, u32), home: &Path) -> std::io::Result<Command> {
    let settings = home.join("config/glib-2.0/settings");
    std::fs::create_dir_all(&settings)?;
    std::fs::write(
        settings.join("keyfile"),
        format!(
            "[org/gnome/Klotski]\nlevel={level}\nwindow-width={}\nwindow-height={}\n",
            size.0, size.1
        ),
    )?;
    // A full score table (ten 1-move scores a puzzle): no score of a win
    // is a high score, so the game opens no "Congratulations!" dialog over
    // the board.
    let scores = home.join("data/gnome-klotski/scores");
    std::fs::create_dir_all(&scores)?;
    for p in game_puzzles() {
        let key = p.name.to_lowercase().replace(' ', "-");
        std::fs::write(scores.join(key), "1 0 gridbot\n".repeat(10))?;
    }
    let binary = ["/usr/games/gnome-klotski", "/usr/bin/gnome-klotski"]
        .into_iter()
        .find(|b| Path::new(b).is_file())
        .unwrap_or("gnome-klotski");
    let mut c = crate::process::child(binary);
    c.env("GSETTINGS_BACKEND", "keyfile")
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("HOME", home)
        .env("NO_AT_BRIDGE", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counter_is_the_last_number_after_the_title() {
        let s = status_of("Change Puzzle Only 18 Steps 7 = _ o x", "Only 18 Steps");
        assert_eq!((s.result, s.moves), (StatusResult::Playing, Some(7)));
        let s = status_of("Change Puzzle Level completed. 18 =", "Only 18 Steps");
        assert_eq!((s.result, s.moves), (StatusResult::Completed, Some(18)));
        assert_eq!(status_of("", "Daisy").result, StatusResult::Unread);
    }

    #[test]
    fn a_plan_replays_to_a_win_and_drags_walk_one_cell_at_a_time() {
        let (_, p) = find_puzzle("only 18 steps").unwrap();
        let game = KlotskiGame::new(&p);
        let plan = game.plan(&p.start, Duration::from_secs(30)).unwrap();
        assert_eq!(plan.lower_bound, 18);
        let counted: usize = plan.moves.iter().map(|&m| game.counted(&p.start, m)).sum();
        assert_eq!(counted, 18);
        let mut s = p.start.clone();
        for &step in &plan.moves {
            let (a, b) = (p.board.xy(step.from), p.board.xy(step.to));
            assert_eq!(a.0.abs_diff(b.0) + a.1.abs_diff(b.1), 1, "{step:?}");
            let next = game.predict(&s, step);
            assert_ne!(next, s);
            s = next;
        }
        assert!(game.is_won(&s));
        assert_eq!(game.diff(&p.start, &p.start), "the blocks differ (seen |######|#a**b#|#m**n#|#cdef#|#ghij#|#k  l#|##--##|    ..|    ..|)");
    }
}
