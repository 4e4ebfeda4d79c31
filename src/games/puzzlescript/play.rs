//! A PuzzleScript game for the play loop: the level is read off the
//! reference page ([`super::read`]), every key is predicted by the Rust
//! engine ([`super::engine`]), a level is solved by breadth-first search
//! ([`super::solve`]), and a move is one key.
//!
//! A state is the whole level as the engine holds it, objects that paint
//! nothing included. The screen shows only what is on top, so the reader
//! is given the states the game expects (the last prediction, the last
//! reading) and returns one of them whenever it paints exactly what is
//! seen ([`PsGame::read_image`]); otherwise it reads the level afresh,
//! keeping of each cell's hidden objects what the level's start had.
//!
//! A `message` command fired by a rule shows a text screen that needs the
//! action key: the state says a message is showing ([`PsState::message`]),
//! and the plan puts a [`PsMove::Dismiss`] after every key that raises one.
//!
//! Games that draw random numbers are played one key at a time: the page
//! seeds its generator from the clock, so the plan is made again after
//! every turn from what is seen, and never called optimal.

use std::cell::RefCell;
use std::time::{Duration, Instant};

use image::RgbaImage;

use super::compile::{Game, Level};
use super::engine::{Engine, Input};
use super::read::{find_level, is_text_screen, level_sizes, Grid, Look, Seen};
use super::relevance::Lean;
use super::solve::{is_random, LevelProblem, SEED};
use crate::actuator::{Gesture, KeyName};
use crate::capture::screen::Screenshot;
use crate::play::game::{cells_diff, size_diff};
use crate::play::{Acting, Plan, PlanError, ReadFailure, Reading, Rect, Rules, Solving, Text};
use crate::solver::{bfs::bfs, Budget, Problem};

/// A game gridbot will not play on the page, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// Turns happen on a clock.
    #[error(
        "the game sets realtime_interval: its turns happen on a clock, not key by key, so \
         gridbot cannot plan it; nothing was sent to the page"
    )]
    Realtime,
    /// A window size that is not `WxH`.
    #[error("the game's {0} is not a size WxH; nothing was sent to the page")]
    Window(&'static str),
    /// No level to play.
    #[error("the game has no level to play")]
    NoLevel,
}

/// A position: the level (its index in the source's list, messages
/// counted), every cell's objects as the engine holds them, and whether a
/// message is showing or the level is won.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PsState {
    /// Index of the level in the source's levels (messages count).
    pub level: usize,
    /// Object words of every cell, column by column.
    pub objects: Vec<u64>,
    /// A `message` command's text screen is showing.
    pub message: bool,
    /// The key that led here won the level.
    pub won: bool,
}

/// A key: a turn of the engine, or the action key that closes a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PsMove {
    /// A turn.
    Key(Input),
    /// The action key on a message screen.
    Dismiss,
}

/// What a screenshot shows.
#[derive(Debug, Clone)]
pub struct PsReading {
    /// The state.
    pub state: PsState,
    /// Where the level is (`None` on a message screen).
    pub grid: Option<Grid>,
    /// What settling watches: the level, or the canvas on a text screen.
    pub area: Rect,
}

/// The window of the level the page shows (`flickscreen WxH`: screens
/// of W x H cells, the one holding the player; `zoomscreen WxH`: W x H
/// cells centred on the player, kept inside the level).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View {
    /// Cells across.
    pub width: usize,
    /// Cells down.
    pub height: usize,
    /// `zoomscreen` (else `flickscreen`).
    pub zoom: bool,
}

impl View {
    /// The window `game` sets, if any; an error names a size that is not
    /// `WxH`.
    pub fn of(game: &Game) -> Result<Option<View>, Refused> {
        for (option, zoom) in [("flickscreen", false), ("zoomscreen", true)] {
            let Some(value) = game.metadata.get(option) else {
                continue;
            };
            let size = value
                .trim()
                .split_once(['x', 'X'])
                .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
                .filter(|&(a, b): &(usize, usize)| a > 0 && b > 0);
            let Some((width, height)) = size else {
                return Err(Refused::Window(option));
            };
            return Ok(Some(View {
                width,
                height,
                zoom,
            }));
        }
        Ok(None)
    }
}

/// A PuzzleScript game as the play loop sees it.
#[derive(Debug)]
pub struct PsGame {
    game: Game,
    /// The game as searched, without its cosmetic objects.
    lean: Option<Lean>,
    look: Look,
    random: bool,
    name: String,
    sizes: Vec<(usize, usize)>,
    window: Option<View>,
    /// Memory the search may hold.
    pub memory_limit_bytes: usize,
    /// States the reader prefers when they paint what is seen: the last
    /// prediction and the last reading.
    hints: RefCell<Vec<PsState>>,
}

impl PsGame {
    /// The game `game` called `name`, or why it cannot be played on the
    /// page.
    pub fn new(game: Game, name: &str) -> Result<PsGame, Refused> {
        if game.flag("realtime_interval") {
            return Err(Refused::Realtime);
        }
        let window = View::of(&game)?;
        let mut sizes = level_sizes(&game);
        if sizes.is_empty() {
            return Err(Refused::NoLevel);
        }
        if let Some(v) = window {
            sizes = vec![(v.width, v.height)];
        }
        Ok(PsGame {
            look: Look::of(&game),
            random: is_random(&game),
            name: name.to_string(),
            sizes,
            window,
            lean: Lean::of(&game),
            game,
            memory_limit_bytes: 1 << 30,
            hints: RefCell::new(Vec::new()),
        })
    }

    /// The compiled game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// True if the game draws random numbers.
    pub fn is_random(&self) -> bool {
        self.random
    }

    /// What the game looks like on the page.
    pub fn look(&self) -> &Look {
        &self.look
    }

    /// The state level `index` starts in (its start rules and their
    /// `again` turns played).
    pub fn start_of(&self, index: usize) -> Option<PsState> {
        if !matches!(self.game.levels.get(index), Some(Level::Map { .. })) {
            return None;
        }
        let mut e = Engine::new(&self.game, index, SEED)?;
        while e.againing {
            e.againing = false;
            e.turn(None);
        }
        Some(PsState {
            level: index,
            objects: e.board.objects.clone(),
            message: false,
            won: false,
        })
    }

    /// The playable level number (from 1) of level index `index`.
    pub fn level_number(&self, index: usize) -> usize {
        self.game.levels[..=index.min(self.game.levels.len() - 1)]
            .iter()
            .filter(|l| matches!(l, Level::Map { .. }))
            .count()
    }

    fn size_of(&self, index: usize) -> (usize, usize) {
        match &self.game.levels[index] {
            Level::Map { width, height, .. } => (*width, *height),
            Level::Message(_) => (0, 0),
        }
    }

    /// The state after one engine turn on `state` (no hint kept).
    fn turn(&self, state: &PsState, mv: PsMove) -> PsState {
        match mv {
            // The page checks the win when the message closes.
            PsMove::Dismiss if state.message => PsState {
                message: false,
                won: self.conditions_hold(state),
                ..state.clone()
            },
            PsMove::Dismiss => state.clone(),
            _ if state.won || state.message => state.clone(),
            PsMove::Key(k) => {
                let Some(mut e) = Engine::new(&self.game, state.level, SEED) else {
                    return state.clone();
                };
                e.advance_on_win = false;
                e.set_objects(&state.objects);
                e.clear_message();
                e.turn_with_again(Some(k));
                // A message shows before the win is checked, and the
                // page skips that check while a text screen is up.
                let message = !e.message().is_empty();
                PsState {
                    level: state.level,
                    objects: e.board.objects.clone(),
                    message,
                    won: e.wins > 0 && !message,
                }
            }
        }
    }

    /// True when the win conditions hold on `state`.
    fn conditions_hold(&self, state: &PsState) -> bool {
        Engine::new(&self.game, state.level, SEED).is_some_and(|mut e| {
            e.set_objects(&state.objects);
            e.conditions_hold()
        })
    }

    /// Forgets the states the reader would prefer.
    pub fn forget(&self) {
        self.hints.borrow_mut().clear();
    }

    fn remember(&self, state: &PsState) {
        let mut h = self.hints.borrow_mut();
        h.retain(|s| s != state);
        h.insert(0, state.clone());
        h.truncate(3);
    }

    /// Reads `image`: the level on it, as one of the expected states when
    /// one paints exactly what is seen, else afresh.
    pub fn read_image(&self, image: &RgbaImage) -> Result<PsReading, ReadFailure> {
        let hints = self.hints.borrow().clone();
        let mut sizes: Vec<(usize, usize)> = hints
            .iter()
            .map(|h| self.size_of(h.level))
            .filter(|s| s.0 > 0 && self.window.is_none())
            .collect();
        sizes.extend(self.sizes.iter().copied());
        sizes.dedup();
        let Some(seen) = find_level(&self.look, image, &sizes) else {
            if is_text_screen(&self.look, image) {
                if let Some(h) = hints.iter().find(|h| h.message) {
                    let (w, hh) = image.dimensions();
                    return Ok(PsReading {
                        state: h.clone(),
                        grid: None,
                        area: Rect {
                            x: 0,
                            y: 0,
                            width: w,
                            height: hh,
                        },
                    });
                }
                return Err(ReadFailure(format!(
                    "{} shows a text screen (the title or a message), not a level: press X",
                    self.name
                )));
            }
            return Err(ReadFailure(format!(
                "no level of {} found on the screen (no grid of its sprites on the page's canvas)",
                self.name
            )));
        };
        let state = self.identify(&seen, &hints)?;
        self.remember(&state);
        Ok(PsReading {
            state,
            area: seen.grid.rect(),
            grid: Some(seen.grid),
        })
    }

    /// The state `seen` shows: an expected one that paints it exactly, a
    /// level's start that does, or the cells explained one by one on the
    /// likeliest level (the hint's, else the one whose start agrees on
    /// the most cells).
    fn identify(&self, seen: &Seen, hints: &[PsState]) -> Result<PsState, ReadFailure> {
        let dims = (seen.grid.width, seen.grid.height);
        let ow = self.game.object_words;
        let blank = self.look.render(&[]);
        // Cells of the screen whose level cell paints what is seen.
        let agree = |s: &PsState| {
            self.shown(s)
                .iter()
                .zip(&seen.cells)
                .filter(|(k, c)| match k {
                    Some(k) => self.look.render(&s.objects[k * ow..(k + 1) * ow]) == **c,
                    None => **c == blank,
                })
                .count()
        };
        let fits = |level: usize| self.window.is_some() || self.size_of(level) == dims;
        for h in hints.iter().filter(|h| !h.message) {
            if fits(h.level) && agree(h) == seen.cells.len() {
                return Ok(h.clone());
            }
        }
        let starts: Vec<PsState> = (0..self.game.levels.len())
            .filter(|&i| fits(i))
            .filter_map(|i| self.start_of(i))
            .collect();
        if let Some(s) = starts.iter().find(|s| agree(s) == seen.cells.len()) {
            return Ok(s.clone());
        }
        let base = hints
            .iter()
            .find(|h| !h.message && fits(h.level))
            .cloned()
            .or_else(|| starts.iter().max_by_key(|s| agree(s)).cloned())
            .ok_or_else(|| ReadFailure("no level of this size".into()))?;
        // What is off the screen stays as expected.
        let mut objects = base.objects.clone();
        for (k, c) in self.shown(&base).iter().zip(&seen.cells) {
            let Some(k) = *k else { continue };
            let cell = &mut objects[k * ow..(k + 1) * ow];
            let read = self
                .look
                .explain(c, Some(cell))
                .ok_or_else(|| ReadFailure("a cell no stack of objects paints".into()))?;
            cell.copy_from_slice(&read);
        }
        let mut state = PsState {
            level: base.level,
            objects,
            message: false,
            won: false,
        };
        if self.players(&state) == 0 {
            return Err(ReadFailure(format!(
                "no player of {} seen on the level (is the page still drawing?)",
                self.name
            )));
        }
        state.won = self.conditions_hold(&state);
        Ok(state)
    }

    /// Cells of `state` holding the player (the first is the one the
    /// page's window follows).
    fn player_cells<'a>(&'a self, state: &'a PsState) -> impl Iterator<Item = usize> + 'a {
        let ow = self.game.object_words;
        let (all, mask) = &self.game.player;
        state
            .objects
            .chunks(ow)
            .enumerate()
            .filter(move |(_, c)| {
                if *all {
                    super::bits::subset(mask, c)
                } else {
                    super::bits::meets(mask, c)
                }
            })
            .map(|(i, _)| i)
    }

    fn players(&self, state: &PsState) -> usize {
        self.player_cells(state).count()
    }

    /// The level cell each cell of the screen shows (column by column),
    /// `None` where the screen shows only background: the whole level, or
    /// with `flickscreen`/`zoomscreen` the window the page draws around
    /// the first player cell, as its `redraw` computes it.
    pub fn shown(&self, state: &PsState) -> Vec<Option<usize>> {
        let (w, h) = self.size_of(state.level);
        let Some(view) = self.window else {
            return (0..w * h).map(Some).collect();
        };
        let (sw, sh) = (view.width, view.height);
        let (mini, minj) = match self.player_cells(state).next() {
            None => (0, 0),
            Some(p) => {
                let (px, py) = ((p / h) as i64, (p % h) as i64);
                let (sw, sh, w, h) = (sw as i64, sh as i64, w as i64, h as i64);
                if view.zoom {
                    (
                        (px - sw / 2).min(w - sw).max(0),
                        (py - sh / 2).min(h - sh).max(0),
                    )
                } else {
                    ((px / sw) * sw, (py / sh) * sh)
                }
            }
        };
        let (mini, minj) = (mini as usize, minj as usize);
        let mut out = Vec::with_capacity(sw * sh);
        for i in 0..sw {
            for j in 0..sh {
                let (x, y) = (mini + i, minj + j);
                out.push((x < w && y < h).then_some(x * h + y));
            }
        }
        out
    }

    /// The keys of a search from `state`, with a [`PsMove::Dismiss`]
    /// after each key that raises a message.
    fn with_dismissals(&self, state: &PsState, keys: Vec<Input>) -> Vec<PsMove> {
        let mut out = Vec::new();
        let mut s = state.clone();
        for k in keys {
            s = self.turn(&s, PsMove::Key(k));
            out.push(PsMove::Key(k));
            if s.message {
                s = self.turn(&s, PsMove::Dismiss);
                out.push(PsMove::Dismiss);
            }
        }
        out
    }
}

impl Rules for PsGame {
    type State = PsState;
    type Move = PsMove;

    fn predict(&self, state: &PsState, mv: PsMove) -> PsState {
        let next = self.turn(state, mv);
        self.remember(&next);
        next
    }

    fn is_won(&self, state: &PsState) -> bool {
        state.won
    }

    fn dimensions(&self, state: &PsState) -> (usize, usize) {
        self.size_of(state.level)
    }

    /// Closing a message is not a turn of the game.
    fn counted(&self, _state: &PsState, mv: PsMove) -> usize {
        usize::from(mv != PsMove::Dismiss)
    }
}

impl Solving for PsGame {
    fn plan(&self, state: &PsState, budget: Duration) -> Result<Plan<PsMove>, PlanError> {
        let started = Instant::now();
        let mut lead = Vec::new();
        let mut from = state.clone();
        if from.message {
            lead.push(PsMove::Dismiss);
            from.message = false;
        }
        // Searched without the cosmetic objects: the same keys win.
        let problem = match &self.lean {
            Some(l) => LevelProblem::at(&l.game, from.level, &l.position(&from.objects)),
            None => LevelProblem::at(&self.game, from.level, &from.objects),
        }
        .map_err(PlanError::solver)?;
        let start = problem.start();
        let outcome = bfs(
            &problem,
            &start,
            &Budget::new(Some(budget), self.memory_limit_bytes),
        );
        if outcome.moves.as_ref().is_some_and(|keys| {
            let mut s = start.clone();
            for &k in keys {
                s = problem.apply(&s, k);
            }
            !s.won
        }) {
            return Err(PlanError::NoLine(
                "the search's line does not win when replayed".into(),
            ));
        }
        let level = self.level_number(from.level);
        let plan = Plan::from_outcome(
            outcome,
            started,
            |o| {
                format!(
                    "{} level {level} cannot be won from here (proven: {} positions reachable)",
                    self.name, o.nodes
                )
            },
            |o, ms| {
                format!(
                    "the breadth-first search of {} level {level} after {ms:.0} ms and {} positions",
                    self.name, o.nodes
                )
            },
        )?;
        let mut moves = lead;
        moves.extend(self.with_dismissals(&from, plan.moves));
        if self.random {
            // The page's generator is seeded from the clock: plan again
            // after every key from what is seen.
            moves.truncate(1);
        }
        Ok(Plan {
            moves,
            proven_optimal: plan.proven_optimal && !self.random,
            lower_bound: plan.lower_bound,
            elapsed: plan.elapsed,
        })
    }

    fn metric(&self) -> &'static str {
        "keys"
    }
}

impl Reading for PsGame {
    type Reading = PsReading;

    fn begin_game(&self) {}

    fn read(&self, shot: &Screenshot) -> Result<PsReading, ReadFailure> {
        self.read_image(&shot.image)
    }

    fn state<'a>(&self, reading: &'a PsReading) -> &'a PsState {
        &reading.state
    }

    fn board_area(&self, reading: &PsReading) -> Rect {
        reading.area
    }
}

/// The key a move presses: arrows, and X for action.
pub fn key_of(mv: PsMove) -> KeyName {
    match mv {
        PsMove::Key(Input::Up) => KeyName::Up,
        PsMove::Key(Input::Down) => KeyName::Down,
        PsMove::Key(Input::Left) => KeyName::Left,
        PsMove::Key(Input::Right) => KeyName::Right,
        PsMove::Key(Input::Action) | PsMove::Dismiss => KeyName::Char('x'),
    }
}

impl Acting for PsGame {
    fn gesture(
        &self,
        _reading: &PsReading,
        _state: &PsState,
        mv: PsMove,
    ) -> Option<Gesture<(f64, f64)>> {
        Some(Gesture::Key(key_of(mv)))
    }
}

impl Text for PsGame {
    fn name(&self) -> &str {
        &self.name
    }

    fn describe_move(&self, _state: &PsState, mv: PsMove) -> String {
        match mv {
            PsMove::Key(k) => k.letter().to_string(),
            PsMove::Dismiss => "x (message)".to_string(),
        }
    }

    fn describe_state(&self, state: &PsState) -> String {
        format!(
            "level {}{}{}",
            self.level_number(state.level),
            if state.message { " (message)" } else { "" },
            if state.won { " (won)" } else { "" }
        )
    }

    fn diff(&self, expected: &PsState, seen: &PsState) -> String {
        if expected.level != seen.level {
            return format!(
                "level {} instead of level {}",
                self.level_number(seen.level),
                self.level_number(expected.level)
            );
        }
        if let Some(d) = size_diff(self.size_of(expected.level), self.size_of(seen.level)) {
            return d;
        }
        if expected.message != seen.message {
            return format!(
                "message showing: {} instead of {}",
                seen.message, expected.message
            );
        }
        let ow = self.game.object_words;
        let height = self.size_of(seen.level).1.max(1);
        let names = |cell: &[u64]| -> String {
            let n: Vec<&str> = super::bits::ones(cell)
                .filter_map(|id| self.game.objects.get(id).map(|o| o.name.as_str()))
                .collect();
            n.join("+")
        };
        let cells: Vec<String> = expected
            .objects
            .chunks(ow)
            .zip(seen.objects.chunks(ow))
            .enumerate()
            .filter(|(_, (e, s))| e != s)
            .map(|(i, (e, s))| {
                format!(
                    "({},{}) {} instead of {}",
                    i / height,
                    i % height,
                    names(s),
                    names(e)
                )
            })
            .collect();
        cells_diff(&cells)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puzzlescript::compile::compile;

    const MESSAGE_GAME: &str = "OBJECTS\n\nBackground\ngreen\n\nTarget\nblue\n\nPlayer\nred\n\nWall\nbrown\n\nLEGEND\n\n. = Background\n# = Wall\nP = Player\nO = Target\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nTarget\nPlayer, Wall\n\nRULES\n\n[ > Player | Target ] -> [ > Player | Target ] message on the target\n\nWINCONDITIONS\n\nall target on player\n\nLEVELS\n\n######\n#P.O.#\n######\n";

    #[test]
    fn a_message_fired_by_a_rule_is_dismissed_in_the_plan() {
        let game = PsGame::new(compile(MESSAGE_GAME).unwrap(), "test").unwrap();
        let start = game.start_of(0).unwrap();
        let plan = game.plan(&start, Duration::from_secs(5)).unwrap();
        assert_eq!(
            plan.moves,
            vec![
                PsMove::Key(Input::Right),
                PsMove::Key(Input::Right),
                PsMove::Dismiss
            ]
        );
        assert!(plan.proven_optimal);
        let mut s = start;
        for &m in &plan.moves[..2] {
            s = game.predict(&s, m);
        }
        assert!(s.message && !s.won, "{s:?}");
        assert!(game.predict(&s, PsMove::Dismiss).won);
    }

    /// Walls cast a shadow that the rules clear and draw again every turn.
    const SHADOW_GAME: &str = "run_rules_on_level_start\n\nOBJECTS\n\nBackground\ngreen\n\nTarget\nblue\n\nPlayer\nred\n\nWall\nbrown\n\nShadow\ngray\n\nLEGEND\n\n. = Background\n# = Wall\nP = Player\nO = Target\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nTarget\nPlayer, Wall\nShadow\n\nRULES\n\n[ Shadow ] -> []\nlate down [ Wall | no Wall ] -> [ Wall | Shadow ]\n\nWINCONDITIONS\n\nall target on player\n\nLEVELS\n\n######\n#P.O.#\n######\n";

    #[test]
    fn a_game_with_cosmetic_objects_is_planned_without_them() {
        let game = PsGame::new(compile(SHADOW_GAME).unwrap(), "test").unwrap();
        assert!(game.lean.is_some(), "the shadow is cosmetic");
        let start = game.start_of(0).unwrap();
        let shadow = game.game.objects.iter().position(|o| o.name == "shadow");
        let shadow = shadow.unwrap();
        let ow = game.game.object_words;
        assert!(start
            .objects
            .chunks(ow)
            .any(|c| super::super::bits::get(c, shadow)));
        let plan = game.plan(&start, Duration::from_secs(5)).unwrap();
        let right = PsMove::Key(Input::Right);
        assert_eq!(plan.moves, vec![right, right]);
        assert!(plan.proven_optimal);
        let mut s = start;
        for &m in &plan.moves {
            s = game.predict(&s, m);
        }
        assert!(s.won, "the plan wins the whole game: {s:?}");
    }

    /// The recorded pages read as the levels they show, at two window
    /// sizes, without calibration or hints.
    #[test]
    fn recorded_pages_read_as_their_levels() {
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/puzzlescript/page");
        let load = |name: &str| {
            let text = std::fs::read_to_string(root.join(name)).unwrap();
            PsGame::new(compile(&text).unwrap(), name).unwrap()
        };
        let open = |name: &str| image::open(root.join(name)).unwrap().to_rgba8();
        let microban = load("microban.txt");
        let r = microban
            .read_image(&open("microban-level1-window800x800.png"))
            .unwrap();
        assert_eq!(microban.level_number(r.state.level), 1);
        assert_eq!(Some(r.state.clone()), microban.start_of(r.state.level));
        let g = r.grid.unwrap();
        assert_eq!((g.cell, g.width, g.height), (95, 6, 7));
        microban.forget();
        let r = microban
            .read_image(&open("microban-level3-won-window800x800.png"))
            .unwrap();
        assert_eq!(microban.level_number(r.state.level), 3);
        assert!(r.state.won, "both crates on targets");
        let octat = load("octat.txt");
        let r = octat
            .read_image(&open("octat-level1-window640x480.png"))
            .unwrap();
        assert_eq!(octat.level_number(r.state.level), 1);
        assert_eq!(octat.start_of(r.state.level), Some(r.state));
    }

    #[test]
    fn realtime_and_window_games_are_refused() {
        let src = MESSAGE_GAME.replace("OBJECTS", "realtime_interval 0.5\n\nOBJECTS");
        assert_eq!(
            PsGame::new(compile(&src).unwrap(), "t").err(),
            Some(Refused::Realtime)
        );
        let src = MESSAGE_GAME.replace("OBJECTS", "zoomscreen 5\n\nOBJECTS");
        assert_eq!(
            PsGame::new(compile(&src).unwrap(), "t").err(),
            Some(Refused::Window("zoomscreen"))
        );
    }

    #[test]
    fn the_window_follows_the_player_as_the_page_draws_it() {
        let src = MESSAGE_GAME.replace("OBJECTS", "flickscreen 3x3\n\nOBJECTS");
        let game = PsGame::new(compile(&src).unwrap(), "t").unwrap();
        // The player at column 1 of a 6x3 level: the first screen.
        let start = game.start_of(0).unwrap();
        let shown = game.shown(&start);
        assert_eq!(shown.len(), 9);
        assert_eq!(shown[0], Some(0));
        assert_eq!(shown[8], Some(2 * 3 + 2));
        // Two steps right: column 3, the second screen (columns 3..6).
        let mut s = start;
        for _ in 0..2 {
            s = game.predict(&s, PsMove::Key(Input::Right));
        }
        assert_eq!(game.shown(&s)[0], Some(3 * 3));
        let src = MESSAGE_GAME.replace("OBJECTS", "zoomscreen 3x3\n\nOBJECTS");
        let game = PsGame::new(compile(&src).unwrap(), "t").unwrap();
        let start = game.start_of(0).unwrap();
        // Centred on column 1 and kept inside the level: columns 0..3.
        assert_eq!(game.shown(&start)[0], Some(0));
        let s = game.predict(&start, PsMove::Key(Input::Right));
        assert_eq!(game.shown(&s)[0], Some(3));
    }
}
