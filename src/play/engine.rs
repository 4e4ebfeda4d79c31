//! The play loop proper: [`Player`] plays one game at a time on a
//! [`Screen`] with a [`Pointer`], for any [`PlayableGame`].
//!
//! Per move: check the abort guard, click, wait for the screen to settle,
//! read, compare with the predicted state. A match advances the plan; a
//! mismatch is logged, the board is read again after it has held still, and
//! the game is re-solved from what is seen, at most `max_retries` times in a
//! row before giving up with a message that says what went wrong.

use std::thread;
use std::time::{Duration, Instant};

use crate::actuator::Gesture;
use crate::capture::screen::Screenshot;

use super::abort::{AbortGuard, AbortReason};
use super::io::{DeviceError, Pointer, Screen};
use super::occlusion::{self, Clearance, OcclusionCheck, OcclusionError};
use super::report::{GameRecord, GameResult, StatusResult};
use super::settle::{wait_until_settled, Fingerprint, SettleStats, SettleTiming, Settled};
use super::{Host, Plan, PlanError, PlayableGame, StatusReading};

/// Knobs of the loop.
#[derive(Debug, Clone)]
pub struct PlayConfig {
    /// Waiting for the game after a click.
    pub settle: SettleTiming,
    /// Solver budget.
    pub solve_budget: Duration,
    /// Mismatches in a row tolerated before giving up.
    pub max_retries: usize,
    /// Pause before each click (to watch, or to let a test interfere); the
    /// board is found and read again after it, and the pointer is watched
    /// during it.
    pub pause_between_moves: Duration,
    /// How long a differing board must hold still before it is believed.
    pub confirm_stable: Duration,
    /// How long to keep looking for a board that cannot be read.
    pub find_timeout: Duration,
    /// Read the game's status line when a game ends.
    pub read_status: bool,
    /// Keep a screenshot of the board as found and after every move in
    /// [`Finished::frames`] (for `--record`).
    pub keep_frames: bool,
}

impl Default for PlayConfig {
    fn default() -> Self {
        PlayConfig {
            settle: SettleTiming {
                after_click: Duration::ZERO,
                poll_interval: Duration::from_millis(25),
                timeout: Duration::from_millis(3000),
            },
            solve_budget: Duration::from_millis(2000),
            max_retries: 3,
            pause_between_moves: Duration::ZERO,
            confirm_stable: Duration::from_millis(150),
            find_timeout: Duration::from_millis(5000),
            read_status: true,
            keep_frames: false,
        }
    }
}

/// Why a run stopped before its games were done.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The user stopped the bot.
    #[error("{0}")]
    Aborted(AbortReason),
    /// No board could be read.
    #[error("no {game} board found on the screen: is the game window visible? ({reason})")]
    NoBoard {
        /// The game.
        game: String,
        /// What went wrong.
        reason: String,
    },
    /// Too many mismatches in a row.
    #[error("gave up after {retries} retries: {last}")]
    GaveUp {
        /// Retries made.
        retries: usize,
        /// Last position found (or seen).
        last: String,
    },
    /// The solver failed.
    #[error("the solver failed: {0}")]
    Solve(PlanError),
    /// The game has no point to click for a planned move.
    #[error("no place to click for {0} on the board")]
    NoClickPoint(String),
    /// The screen or the pointer failed.
    #[error(transparent)]
    Device(#[from] DeviceError),
    /// Another window covers the board, or the game window changed.
    #[error(transparent)]
    Occluded(OcclusionError),
}

/// A gesture the bot would make (dry run) or made.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedClick {
    /// The move's name.
    pub label: String,
    /// The gesture at screen points.
    pub gesture: Gesture<(i32, i32)>,
}

impl PlannedClick {
    /// `click red at (10, 20)`, `drag 3,4 at (1, 2) -> (5, 2)`, `key n`.
    pub fn describe(&self) -> String {
        let points: Vec<String> = self
            .gesture
            .points()
            .iter()
            .map(|(x, y)| format!("({x}, {y})"))
            .collect();
        match &self.gesture {
            Gesture::Key(k) => format!("key {k:?} for {}", self.label),
            g => format!("{} {} at {}", g.kind(), self.label, points.join(" -> ")),
        }
    }
}

/// What a dry run found.
#[derive(Debug, Clone)]
pub struct DryRun {
    /// The board as read.
    pub board: String,
    /// The plan's gestures in order.
    pub clicks: Vec<PlannedClick>,
    /// Whether the plan is proven optimal.
    pub proven_optimal: bool,
    /// What the optimality counts (see [`super::Solving::metric`]).
    pub metric: &'static str,
    /// The solver's lower bound.
    pub lower_bound: usize,
    /// Solver time.
    pub solve: Duration,
}

/// Extra facts about a game that the caller knows (e.g. from the game ID).
#[derive(Debug, Clone, Default)]
pub struct GameContext {
    /// The game ID it was started with.
    pub id: Option<String>,
    /// The move limit, if known; otherwise the status line is asked.
    pub limit: Option<usize>,
    /// Moves of the game's own solver, if known.
    pub game_solver_moves: Option<usize>,
}

/// A finished game: the record plus the last screenshot (for `--screenshots`).
pub struct Finished<S> {
    /// The report line.
    pub record: GameRecord,
    /// The start state.
    pub start: S,
    /// The screenshot the game was first read from.
    pub first_shot: Screenshot,
    /// The screenshot the win (or loss) was verified on.
    pub last_shot: Screenshot,
    /// With [`PlayConfig::keep_frames`]: the screenshot the game was first
    /// read from, then the one read after each move (the last is the final
    /// board); empty otherwise.
    pub frames: Vec<Screenshot>,
}

/// Plays games.
pub struct Player<'a, G: PlayableGame> {
    /// The game's roles.
    game: &'a G,
    /// Where it runs: its status line and new-game gesture.
    host: &'a dyn Host,
    /// The devices.
    screen: &'a mut dyn Screen,
    pointer: &'a mut dyn Pointer,
    /// Ctrl-C and the pointer's corner.
    guard: AbortGuard,
    config: PlayConfig,
    /// The window stacking check before every move, when set.
    occlusion: Option<OcclusionCheck<'a>>,
}

/// Bookkeeping of the bot's own time per move.
#[derive(Default)]
struct Clock {
    /// Work since the last click (capture, read, solve), waiting excluded.
    pending: Duration,
    pending_solve: Duration,
    per_move: Vec<(Duration, Duration)>,
    /// Verification captures and reads, and clicks, summed over the game.
    capture: Duration,
    read: Duration,
    click: Duration,
}

impl Clock {
    fn click_done(&mut self, click: Duration) {
        self.click += click;
        self.per_move
            .push((self.pending + click, self.pending_solve));
        self.pending = Duration::ZERO;
        self.pending_solve = Duration::ZERO;
    }
}

/// One game in progress: what the loop sees, plans and has counted.
struct Progress<G: PlayableGame> {
    started: Instant,
    clock: Clock,
    /// The last screenshot read, its reading and state.
    shot: Screenshot,
    reading: G::Reading,
    state: G::State,
    /// The board as found, its text, and the screenshot it was read from.
    start: G::State,
    board_text: String,
    first_shot: Screenshot,
    frames: Vec<Screenshot>,
    limit: Option<usize>,
    /// The plan in use and the index of its next move.
    plan: Plan<G::Move>,
    cursor: usize,
    /// The moves played, by name.
    solution: Vec<String>,
    counted_moves: usize,
    mismatches: usize,
    /// Mismatches in a row.
    retries: usize,
    /// The last clearance check refused a point outside the window.
    refused_outside: bool,
    solves: usize,
    solve_total: Duration,
    proven_optimal_first: bool,
    lower_bound: usize,
    all_proven: bool,
}

impl<G: PlayableGame> Progress<G> {
    /// Takes a new plan (from its first move) and counts the solve.
    fn take_plan(&mut self, plan: Plan<G::Move>) {
        self.solves += 1;
        self.solve_total += plan.elapsed;
        self.clock.pending += plan.elapsed;
        self.clock.pending_solve += plan.elapsed;
        self.all_proven &= plan.proven_optimal;
        self.plan = plan;
        self.cursor = 0;
    }

    /// Makes the next turn solve again from the current state.
    fn force_resolve(&mut self) {
        self.cursor = self.plan.moves.len();
    }
}

/// A move as clicked: its name (on the board it was played on) and the
/// screen point of its gesture.
struct Played {
    name: String,
    point: (i32, i32),
}

impl Played {
    /// `red at (10, 20)`.
    fn at(&self) -> String {
        format!("{} at ({}, {})", self.name, self.point.0, self.point.1)
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

impl<'a, G: PlayableGame> Player<'a, G> {
    /// A player for `game` hosted by `host`, on `screen` with `pointer`.
    pub fn new(
        game: &'a G,
        host: &'a dyn Host,
        screen: &'a mut dyn Screen,
        pointer: &'a mut dyn Pointer,
        guard: AbortGuard,
        config: PlayConfig,
    ) -> Self {
        Player {
            game,
            host,
            screen,
            pointer,
            guard,
            config,
            occlusion: None,
        }
    }

    /// Checks the window stacking before every click (see
    /// [`super::occlusion`]).
    pub fn with_occlusion(mut self, check: OcclusionCheck<'a>) -> Self {
        self.occlusion = Some(check);
        self
    }

    /// The configuration in use.
    pub fn config(&self) -> &PlayConfig {
        &self.config
    }

    fn stop_requested(&self) -> bool {
        self.guard.interrupted()
    }

    /// Checks the guard against the pointer's current position.
    fn check_abort(&mut self) -> Result<(), PlayError> {
        let position = self.pointer.position()?;
        self.guard.check(position).map_err(|reason| {
            self.pointer.release_all();
            PlayError::Aborted(reason)
        })
    }

    /// Remembers where the pointer is now as "where the bot left it": call
    /// once before the first game.
    pub fn note_pointer(&mut self) -> Result<(), PlayError> {
        let position = self.pointer.position()?;
        self.guard.note_position(position);
        Ok(())
    }

    /// Sleeps, watching Ctrl-C and the pointer every 20 ms.
    fn sleep_checked(&mut self, total: Duration) -> Result<(), PlayError> {
        let end = Instant::now() + total;
        loop {
            self.check_abort()?;
            let now = Instant::now();
            if now >= end {
                return Ok(());
            }
            thread::sleep((end - now).min(Duration::from_millis(20)));
        }
    }

    fn settle(
        &mut self,
        area: super::Rect,
        before: Option<&Fingerprint>,
        min_stable: Duration,
        timeout: Duration,
        stats: &mut SettleStats,
    ) -> Result<Settled, PlayError> {
        let timing = SettleTiming {
            timeout,
            ..self.config.settle
        };
        let guard = &self.guard;
        let result = wait_until_settled(
            &mut *self.screen,
            area,
            before,
            timing,
            min_stable,
            &|| guard.interrupted(),
            stats,
        )?;
        if let Settled::Interrupted = result {
            self.pointer.release_all();
            return Err(PlayError::Aborted(AbortReason::Interrupted));
        }
        Ok(result)
    }

    /// Captures until a board can be read on a picture that holds still
    /// (or `find_timeout` passes). Returns the screenshot, the reading and
    /// the bot's busy time spent on the last capture and read.
    pub fn find_board(&mut self) -> Result<(Screenshot, G::Reading, Duration), PlayError> {
        let deadline = Instant::now() + self.config.find_timeout;
        let mut last_error;
        loop {
            if self.stop_requested() {
                self.pointer.release_all();
                return Err(PlayError::Aborted(AbortReason::Interrupted));
            }
            let t = Instant::now();
            let shot = match self.screen.capture() {
                Ok(shot) => shot,
                Err(err) if Instant::now() < deadline => {
                    // The window may be between two places, or not up yet.
                    log::debug!("capture failed, trying again: {err}");
                    thread::sleep(
                        self.config
                            .settle
                            .poll_interval
                            .max(Duration::from_millis(10)),
                    );
                    continue;
                }
                Err(err) => return Err(err.into()),
            };
            match self.game.read(&shot) {
                Ok(reading) => {
                    let busy = t.elapsed();
                    // Make sure the picture holds still (no animation, no
                    // half-drawn window): one more capture of the board area.
                    let area = self.game.board_area(&reading);
                    let again = self.screen.capture()?;
                    if Fingerprint::of(&again, area) == Fingerprint::of(&shot, area) {
                        return Ok((shot, reading, busy));
                    }
                    last_error = "the board kept changing".into();
                }
                Err(err) => last_error = err.0,
            }
            if Instant::now() >= deadline {
                // A window over the game explains a board that is not
                // found (or seems cut off) better than the reader can.
                let reason = match self.occlusion.as_mut().and_then(|o| o.covering_game_window()) {
                    Some(w) => format!(
                        "the game window is covered by {w}: move that window away (the reader said: {last_error})"
                    ),
                    None => last_error,
                };
                return Err(PlayError::NoBoard {
                    game: self.game.name().to_string(),
                    reason,
                });
            }
            thread::sleep(
                self.config
                    .settle
                    .poll_interval
                    .max(Duration::from_millis(10)),
            );
        }
    }

    fn solve(&self, state: &G::State) -> Result<Plan<G::Move>, PlayError> {
        self.game
            .plan(state, self.config.solve_budget)
            .map_err(PlayError::Solve)
    }

    /// Reads and solves without clicking: the clicks the bot would make.
    pub fn dry_run(&mut self) -> Result<DryRun, PlayError> {
        self.game.begin_game();
        let (shot, reading, _) = self.find_board()?;
        let mut state = self.game.state(&reading).clone();
        let board = self.game.describe_state(&state);
        let plan = self.solve(&state)?;
        let mut clicks = Vec::new();
        for &mv in &plan.moves {
            let gesture = self.screen_gesture(&shot, &reading, &state, mv)?;
            let area = self.game.board_area(&reading);
            self.clearance(&shot, area, &gesture)?;
            clicks.push(PlannedClick {
                label: self.game.describe_move(&state, mv),
                gesture,
            });
            state = self.game.predict(&state, mv);
        }
        Ok(DryRun {
            board,
            metric: self.game.metric(),
            clicks,
            proven_optimal: plan.proven_optimal,
            lower_bound: plan.lower_bound,
            solve: plan.elapsed,
        })
    }

    /// Reads the board after a click: waits for a stable changed picture;
    /// if what it shows is not `predicted`, waits until the area has held
    /// still for `confirm_stable` and reads once more.
    fn read_after_click(
        &mut self,
        area: super::Rect,
        before: &Fingerprint,
        predicted: &G::State,
        clock: &mut Clock,
    ) -> Result<(Screenshot, Option<G::Reading>, bool), PlayError> {
        let mut stats = SettleStats::default();
        let settled = self.settle(
            area,
            Some(before),
            Duration::ZERO,
            self.config.settle.timeout,
            &mut stats,
        )?;
        let (shot, changed) = match settled {
            Settled::Changed(shot) => (shot, true),
            Settled::TimedOut { last, changed } => (last, changed),
            Settled::Interrupted => unreachable!("handled in settle"),
        };
        let t = Instant::now();
        let reading = self.game.read(&shot).ok();
        let read_time = t.elapsed();
        let capture_time = stats.busy / stats.captures.max(1);
        clock.pending += read_time + capture_time;
        clock.capture += capture_time;
        clock.read += read_time;
        log::debug!(
            "settled after {:.1} ms ({} captures); capture {:.2} ms, read {:.2} ms",
            ms(stats.total),
            stats.captures,
            ms(capture_time),
            ms(read_time)
        );
        if let Some(r) = &reading {
            if self.game.state(r) == predicted {
                return Ok((shot, reading, changed));
            }
        }
        // Not what was expected: make sure the picture is final (a flash or
        // a half-drawn frame) before believing it.
        let mut stats = SettleStats::default();
        let settled = self.settle(
            area,
            None,
            self.config.confirm_stable,
            self.config.settle.timeout,
            &mut stats,
        )?;
        let shot = match settled {
            Settled::Changed(shot) => shot,
            Settled::TimedOut { last, .. } => last,
            Settled::Interrupted => unreachable!("handled in settle"),
        };
        let t = Instant::now();
        let reading = self.game.read(&shot).ok();
        clock.pending += t.elapsed() + stats.busy / stats.captures.max(1);
        let changed = changed || Fingerprint::of(&shot, area) != *before;
        Ok((shot, reading, changed))
    }

    /// Checks every point of `gesture` against the windows over the game
    /// (see [`super::occlusion`]): clear, or the first point that was not.
    fn clearance(
        &mut self,
        shot: &Screenshot,
        area: super::Rect,
        gesture: &Gesture<(i32, i32)>,
    ) -> Result<Clearance, PlayError> {
        let guard = &self.guard;
        for &point in gesture.points() {
            let c = occlusion::before_move(self.occlusion.as_mut(), shot, area, point, &|| {
                guard.interrupted()
            })?;
            if c != Clearance::Clear {
                return Ok(c);
            }
        }
        Ok(Clearance::Clear)
    }

    /// The gesture for `mv` at screen points.
    fn screen_gesture(
        &self,
        shot: &Screenshot,
        reading: &G::Reading,
        state: &G::State,
        mv: G::Move,
    ) -> Result<Gesture<(i32, i32)>, PlayError> {
        self.game
            .gesture(reading, state, mv)
            .and_then(|g| g.map(|(x, y)| Some(shot.to_screen(x, y))))
            .ok_or_else(|| PlayError::NoClickPoint(self.game.describe_move(state, mv)))
    }

    fn read_status(&self, shot: &Screenshot, reading: &G::Reading) -> StatusReading {
        if self.config.read_status {
            self.host.status(shot, self.game.board_area(reading))
        } else {
            StatusReading::unread()
        }
    }

    /// Plays one game from what is on the screen to a win (or a loss).
    pub fn play_game(
        &mut self,
        number: usize,
        context: &GameContext,
    ) -> Result<Finished<G::State>, PlayError> {
        let mut game = self.start_game(number, context)?;
        let result = loop {
            if let Some(result) = self.step(&mut game)? {
                break result;
            }
        };
        Ok(self.finish(game, result, number, context))
    }

    /// Finds and reads the board, reads the move limit if it is not known,
    /// and makes the first plan.
    fn start_game(
        &mut self,
        number: usize,
        context: &GameContext,
    ) -> Result<Progress<G>, PlayError> {
        let started = Instant::now();
        let mut clock = Clock::default();
        self.game.begin_game();
        let (shot, reading, busy) = self.find_board()?;
        clock.pending += busy;
        let mut frames = Vec::new();
        if self.config.keep_frames {
            frames.push(shot.clone());
        }
        let start = self.game.state(&reading).clone();
        let board_text = self.game.describe_state(&start);
        log::info!("game {number}: board {board_text}");

        let mut limit = context.limit;
        if limit.is_none() && self.config.read_status {
            let status = self.read_status(&shot, &reading);
            log::info!("status line at the start: {:?}", status.text);
            limit = status.limit;
        }

        let plan = self.solve(&start)?;
        log::info!(
            "plan: {} moves, optimal_{}={} (lower bound {}), solved in {:.1} ms",
            plan.moves.len(),
            self.game.metric(),
            if plan.proven_optimal {
                "proven"
            } else {
                "unproven"
            },
            plan.lower_bound,
            ms(plan.elapsed)
        );
        clock.pending += plan.elapsed;
        clock.pending_solve += plan.elapsed;
        Ok(Progress {
            started,
            clock,
            first_shot: shot.clone(),
            shot,
            reading,
            state: start.clone(),
            start,
            board_text,
            frames,
            limit,
            proven_optimal_first: plan.proven_optimal,
            lower_bound: plan.lower_bound,
            solves: 1,
            solve_total: plan.elapsed,
            all_proven: plan.proven_optimal,
            plan,
            cursor: 0,
            solution: Vec::new(),
            counted_moves: 0,
            mismatches: 0,
            retries: 0,
            refused_outside: false,
        })
    }

    /// One turn of the loop: the game's end, a re-solve, a pause, or one
    /// move played and checked. `Some` when the game is over.
    fn step(&mut self, game: &mut Progress<G>) -> Result<Option<GameResult>, PlayError> {
        if self.game.is_won(&game.state) {
            return Ok(Some(GameResult::Won));
        }
        if self.limit_reached(game) {
            return Ok(Some(GameResult::Lost));
        }
        if game.cursor >= game.plan.moves.len() && !game.plan.moves.is_empty() {
            // The plan ran out without a win: the board differs from the
            // solver's model; solve again from what is seen.
            let plan = self.solve(&game.state)?;
            game.take_plan(plan);
        }
        if game.plan.moves.is_empty() {
            // An empty plan for an unfinished board: the solver proved
            // that it cannot be won (see [`Plan::moves`]).
            log::warn!(
                "the board {} cannot be won any more (proven by the solver)",
                self.game.describe_state(&game.state)
            );
            return Ok(Some(GameResult::Lost));
        }
        if !self.config.pause_between_moves.is_zero() && self.pause_and_look(game)? {
            return Ok(None);
        }
        self.play_next_move(game)?;
        Ok(None)
    }

    /// True when the move limit is reached and the status line does not
    /// say the game goes on.
    fn limit_reached(&self, game: &Progress<G>) -> bool {
        let Some(l) = game.limit.filter(|&l| game.counted_moves >= l) else {
            return false;
        };
        let status = self.read_status(&game.shot, &game.reading);
        let over = matches!(status.result, StatusResult::Failed | StatusResult::Unread);
        if over {
            log::warn!(
                "move limit {l} reached without a win; the game says {:?}",
                status.text
            );
        }
        over
    }

    /// The pause before a move, then the board found again (the window
    /// may have moved, the user may have played). True when the board
    /// changed meanwhile (then the game is re-solved).
    fn pause_and_look(&mut self, game: &mut Progress<G>) -> Result<bool, PlayError> {
        self.sleep_checked(self.config.pause_between_moves)?;
        let (s, r, busy) = self.find_board()?;
        game.clock.pending += busy;
        let now = self.game.state(&r).clone();
        game.shot = s;
        game.reading = r;
        if now == game.state {
            return Ok(false);
        }
        game.mismatches += 1;
        log::warn!(
            "the board changed while the bot waited: {}; re-solving",
            self.game.diff(&game.state, &now)
        );
        game.state = now;
        game.force_resolve();
        Ok(true)
    }

    /// Plays the plan's next move (if the way to the board is clear) and
    /// checks what the screen shows after it.
    fn play_next_move(&mut self, game: &mut Progress<G>) -> Result<(), PlayError> {
        let mv = game.plan.moves[game.cursor];
        let predicted = self.game.predict(&game.state, mv);
        let gesture = self.screen_gesture(&game.shot, &game.reading, &game.state, mv)?;
        let point = gesture.points().last().copied().unwrap_or_default();
        let area = self.game.board_area(&game.reading);
        let before = Fingerprint::of(&game.shot, area);
        if !self.cleared(game, area, &gesture)? {
            return Ok(());
        }

        self.check_abort()?;
        let t = Instant::now();
        self.pointer.perform(&gesture)?;
        if !gesture.points().is_empty() {
            self.guard.note_position(point);
        }
        game.clock.click_done(t.elapsed());
        let played = Played {
            name: self.game.describe_move(&game.state, mv),
            point,
        };
        log::debug!("played {}", played.at());

        let (new_shot, new_reading, changed) =
            self.read_after_click(area, &before, &predicted, &mut game.clock)?;
        if self.config.keep_frames {
            game.frames.push(new_shot.clone());
        }
        match new_reading {
            None => self.after_unreadable(game, mv, &played, changed),
            Some(reading) => self.after_move(game, mv, &played, predicted, new_shot, reading),
        }
    }

    /// The clearance check before a move: false when the board had to be
    /// read again first (something was over it, or the window moved once).
    fn cleared(
        &mut self,
        game: &mut Progress<G>,
        area: super::Rect,
        gesture: &Gesture<(i32, i32)>,
    ) -> Result<bool, PlayError> {
        match self.clearance(&game.shot, area, gesture) {
            Ok(Clearance::Clear) => {
                game.refused_outside = false;
                Ok(true)
            }
            Ok(Clearance::ClearedAfterWait(_)) => {
                // Something was over the board: read it again before acting.
                (game.shot, game.reading, _) = self.find_board()?;
                game.state = self.game.state(&game.reading).clone();
                game.force_resolve();
                Ok(false)
            }
            Err(PlayError::Occluded(OcclusionError::OutsideWindow { point, .. }))
                if !game.refused_outside =>
            {
                // The window moved after the capture the point came
                // from: capture and read again once; a second refusal
                // in a row stops the game.
                log::warn!(
                    "({}, {}) is no longer on the game window (moved?); reading the board again",
                    point.0,
                    point.1
                );
                game.refused_outside = true;
                (game.shot, game.reading, _) = self.find_board()?;
                let now = self.game.state(&game.reading).clone();
                if now != game.state {
                    game.state = now;
                    game.force_resolve();
                }
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }

    /// No board could be read after a move: counts the mismatch (and the
    /// move, if the screen changed) and finds the board again.
    fn after_unreadable(
        &mut self,
        game: &mut Progress<G>,
        mv: G::Move,
        played: &Played,
        changed: bool,
    ) -> Result<(), PlayError> {
        game.retries += 1;
        game.mismatches += 1;
        if changed {
            game.counted_moves += self.game.counted(&game.state, mv);
        }
        let what = format!(
            "after playing {} no board could be read on the screen",
            played.at()
        );
        log::warn!("{what}; looking for the board again");
        self.give_up_after_retries(game, what)?;
        let (s, r, busy) = self.find_board()?;
        game.clock.pending += busy;
        game.shot = s;
        game.reading = r;
        game.state = self.game.state(&game.reading).clone();
        game.force_resolve();
        Ok(())
    }

    /// The board read after a move: the plan goes on when it is the
    /// predicted one; otherwise the mismatch is counted (and the move, if
    /// the board changed) and the game re-solved from what is seen.
    fn after_move(
        &mut self,
        game: &mut Progress<G>,
        mv: G::Move,
        played: &Played,
        predicted: G::State,
        shot: Screenshot,
        reading: G::Reading,
    ) -> Result<(), PlayError> {
        let seen = self.game.state(&reading).clone();
        if seen == predicted {
            game.solution.push(played.name.clone());
            game.counted_moves += self.game.counted(&game.state, mv);
            game.cursor += 1;
            game.retries = 0;
        } else {
            game.mismatches += 1;
            game.retries += 1;
            let lost_click = seen == game.state;
            if !lost_click {
                // The board changed, so the game most likely counted a move.
                game.counted_moves += self.game.counted(&game.state, mv);
                game.solution.push(played.name.clone());
            }
            let what = if lost_click {
                format!(
                    "after playing {} the board did not change (lost click?)",
                    played.at()
                )
            } else {
                format!(
                    "after playing {} the board differs from the prediction: {}",
                    played.at(),
                    self.game.diff(&predicted, &seen)
                )
            };
            log::warn!("{what}; re-solving from what is on the screen");
            self.give_up_after_retries(game, what)?;
            game.force_resolve();
        }
        game.shot = shot;
        game.reading = reading;
        game.state = seen;
        Ok(())
    }

    /// Gives up when the mismatches in a row exceed `max_retries`, `what`
    /// saying what the last one was.
    fn give_up_after_retries(&self, game: &Progress<G>, what: String) -> Result<(), PlayError> {
        if game.retries > self.config.max_retries {
            return Err(PlayError::GaveUp {
                retries: game.retries - 1,
                last: what,
            });
        }
        Ok(())
    }

    /// The game's record from what the loop counted and the status line.
    fn finish(
        &self,
        game: Progress<G>,
        result: GameResult,
        number: usize,
        context: &GameContext,
    ) -> Finished<G::State> {
        let status = self.read_status(&game.shot, &game.reading);
        let counted_moves = game.counted_moves;
        if result == GameResult::Won {
            log::info!(
                "won in {} moves; status line: {:?}",
                counted_moves,
                status.text
            );
        }
        if let Some(game_moves) = status.moves.filter(|&m| m != counted_moves) {
            log::warn!(
                "the game counts {game_moves} moves, the bot counted {counted_moves}; reporting the game's count"
            );
        }
        let wall = game.started.elapsed();
        let clock = &game.clock;
        let n = clock.per_move.len().max(1) as f64;
        let total: Duration = clock.per_move.iter().map(|m| m.0).sum();
        let total_solve: Duration = clock.per_move.iter().map(|m| m.1).sum();
        let max = clock.per_move.iter().map(|m| m.0).max().unwrap_or_default();
        let (width, height) = self.game.dimensions(&game.start);
        let (moves, moves_disagree) = super::report::reported_moves(counted_moves, status.moves);
        let record = GameRecord {
            game: number,
            id: context.id.clone(),
            board: game.board_text,
            width,
            height,
            limit: game.limit.or(status.limit),
            game_solver_moves: context.game_solver_moves,
            moves,
            bot_moves: counted_moves,
            moves_disagree,
            solution: game.solution,
            proven_optimal: game.all_proven && game.proven_optimal_first && game.mismatches == 0,
            metric: self.game.metric(),
            lower_bound: game.lower_bound,
            result,
            status: status.result,
            status_text: status.text.clone(),
            status_moves: status.moves,
            board_matches_id: None,
            mismatches: game.mismatches,
            solves: game.solves,
            solve_ms: ms(game.solve_total),
            bot_ms_per_move: ms(total) / n,
            bot_ms_per_move_excl_solve: ms(total.saturating_sub(total_solve)) / n,
            bot_ms_max: ms(max),
            bot_ms_total: ms(total),
            capture_ms: ms(clock.capture) / n,
            read_ms: ms(clock.read) / n,
            click_ms: ms(clock.click) / n,
            move_ms: clock.per_move.iter().map(|m| ms(m.0)).collect(),
            wall_ms: ms(wall),
        };
        Finished {
            record,
            start: game.start,
            first_shot: game.first_shot,
            last_shot: game.shot,
            frames: game.frames,
        }
    }

    /// Presses the game's new-game key and waits until a new, unfinished
    /// board is on the screen.
    pub fn new_game(&mut self) -> Result<(), PlayError> {
        let Some(gesture) = self.host.new_game() else {
            return Err(PlayError::Device(DeviceError(format!(
                "{} has no way to start a new game",
                self.host.name()
            ))));
        };
        let (shot, reading, _) = self.find_board()?;
        let area = self.game.board_area(&reading);
        let before = Fingerprint::of(&shot, area);
        self.check_abort()?;
        let gesture = gesture
            .map(|(x, y)| Some(shot.to_screen(x, y)))
            .ok_or_else(|| PlayError::Device(DeviceError("no point for a new game".into())))?;
        self.pointer.perform(&gesture)?;
        let mut stats = SettleStats::default();
        let _ = self.settle(
            area,
            Some(&before),
            Duration::ZERO,
            self.config.settle.timeout,
            &mut stats,
        )?;
        let deadline = Instant::now() + self.config.find_timeout;
        loop {
            let (_, reading, _) = self.find_board()?;
            if !self.game.is_won(self.game.state(&reading)) {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(PlayError::Device(DeviceError(format!(
                    "asked {} for a new game but the board stayed finished",
                    self.host.name()
                ))));
            }
            self.sleep_checked(self.config.settle.poll_interval)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    use super::*;
    use crate::play::fake::{Board, FakeFlood, FakeHost, FakePointer, FakeScreen, World};
    use crate::play::Solving;

    fn board() -> Board {
        Board::new(
            4,
            4,
            4,
            vec![0, 1, 2, 3, 1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2],
        )
    }

    fn config() -> PlayConfig {
        PlayConfig {
            settle: SettleTiming {
                after_click: Duration::ZERO,
                poll_interval: Duration::from_millis(1),
                timeout: Duration::from_millis(60),
            },
            confirm_stable: Duration::from_millis(5),
            find_timeout: Duration::from_millis(60),
            ..PlayConfig::default()
        }
    }

    struct Rig {
        world: std::rc::Rc<std::cell::RefCell<World>>,
        game: FakeFlood,
        flag: Arc<AtomicBool>,
    }

    impl Rig {
        fn new() -> Self {
            Rig {
                world: World::new(board()),
                game: FakeFlood {
                    colours: 4,
                    width: 4,
                    height: 4,
                },
                flag: Arc::new(AtomicBool::new(false)),
            }
        }

        /// Runs `f` with a player on the fake window (pointer noted when
        /// `note`); returns its answer and how often buttons were released.
        fn with_player<T>(
            &self,
            config: PlayConfig,
            note: bool,
            f: impl FnOnce(&mut Player<FakeFlood>) -> T,
        ) -> (T, usize) {
            let mut screen = FakeScreen(self.world.clone());
            let mut pointer = FakePointer {
                world: self.world.clone(),
                released: 0,
            };
            let guard = AbortGuard::new(self.flag.clone(), (1000, 800));
            let result = {
                let mut player = Player::new(
                    &self.game,
                    &FakeHost,
                    &mut screen,
                    &mut pointer,
                    guard,
                    config,
                );
                if note {
                    player.note_pointer().unwrap();
                }
                f(&mut player)
            };
            (result, pointer.released)
        }

        /// Plays one game; returns the result and how often buttons were released.
        fn play(
            &self,
            config: PlayConfig,
            context: &GameContext,
        ) -> (Result<GameRecord, PlayError>, usize) {
            self.with_player(config, true, |player| {
                player.play_game(1, context).map(|f| f.record)
            })
        }

        fn optimum(&self) -> usize {
            self.game
                .plan(&board(), Duration::ZERO)
                .unwrap()
                .moves
                .len()
        }
    }

    #[test]
    fn wins_with_one_solve_and_verified_moves() {
        let rig = Rig::new();
        let (record, _) = rig.play(config(), &GameContext::default());
        let record = record.unwrap();
        let world = rig.world.borrow();
        assert!(world.board.is_won());
        assert_eq!(record.result, GameResult::Won);
        assert_eq!(record.moves, rig.optimum());
        assert_eq!(world.moves, record.moves);
        assert_eq!((record.solves, record.mismatches), (1, 0));
        assert!(record.proven_optimal);
        assert_eq!(record.solution.len(), record.moves);
        assert!(record.bot_ms_per_move > 0.0 && record.wall_ms >= record.bot_ms_total);
    }

    #[test]
    fn a_lost_click_is_retried() {
        let rig = Rig::new();
        rig.world.borrow_mut().lose_clicks.insert(2);
        let (record, _) = rig.play(config(), &GameContext::default());
        let record = record.unwrap();
        assert!(rig.world.borrow().board.is_won());
        assert_eq!(record.mismatches, 1);
        assert_eq!(record.solves, 2);
        assert_eq!(record.moves, rig.optimum(), "the lost click is not counted");
        assert!(
            !record.proven_optimal,
            "a disturbed game is not reported as proven optimal"
        );
    }

    #[test]
    fn a_move_behind_the_bots_back_is_absorbed() {
        let rig = Rig::new();
        rig.world.borrow_mut().interfere.push((1, 3));
        let (record, _) = rig.play(config(), &GameContext::default());
        let record = record.unwrap();
        assert!(rig.world.borrow().board.is_won());
        assert_eq!(record.result, GameResult::Won);
        assert!(record.mismatches >= 1);
    }

    #[test]
    fn a_moved_window_is_followed() {
        let rig = Rig::new();
        rig.world.borrow_mut().move_window.push((1, (37, -20)));
        rig.world.borrow_mut().move_window.push((2, (-100, 60)));
        let (record, _) = rig.play(config(), &GameContext::default());
        let record = record.unwrap();
        assert!(rig.world.borrow().board.is_won());
        assert_eq!(record.result, GameResult::Won);
    }

    #[test]
    fn pausing_between_moves_still_follows_a_moved_window() {
        let rig = Rig::new();
        rig.world.borrow_mut().move_window.push((1, (5, 5)));
        let config = PlayConfig {
            pause_between_moves: Duration::from_millis(3),
            ..config()
        };
        let (record, _) = rig.play(config, &GameContext::default());
        let record = record.unwrap();
        assert!(rig.world.borrow().board.is_won());
        assert_eq!((record.moves, record.mismatches), (rig.optimum(), 0));
    }

    #[test]
    fn gives_up_after_bounded_retries_with_a_clear_message() {
        let rig = Rig::new();
        rig.world.borrow_mut().lose_clicks.extend(1..100);
        let (result, _) = rig.play(config(), &GameContext::default());
        let err = result.unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.starts_with("gave up after 3 retries: after playing"),
            "{msg}"
        );
        assert!(msg.contains("did not change"), "{msg}");
        assert_eq!(rig.world.borrow().clicks, 4);
    }

    #[test]
    fn the_pointer_in_a_corner_stops_before_the_next_click() {
        let rig = Rig::new();
        rig.world.borrow_mut().user_pointer.push((1, (0, 0)));
        let (result, released) = rig.play(config(), &GameContext::default());
        let err = result.unwrap_err();
        assert_eq!(
            err.to_string(),
            "aborted: the mouse moved to the top-left corner"
        );
        assert_eq!(rig.world.borrow().clicks, 1);
        assert!(released >= 1, "buttons are released on abort");
    }

    #[test]
    fn a_pointer_moved_by_hand_stops_the_bot() {
        let rig = Rig::new();
        rig.world.borrow_mut().user_pointer.push((2, (500, 500)));
        let (result, _) = rig.play(config(), &GameContext::default());
        assert!(
            matches!(
                result,
                Err(PlayError::Aborted(AbortReason::PointerMoved { .. }))
            ),
            "{result:?}"
        );
        assert_eq!(rig.world.borrow().clicks, 2);
    }

    #[test]
    fn ctrl_c_stops_before_the_first_click() {
        let rig = Rig::new();
        rig.flag.store(true, std::sync::atomic::Ordering::SeqCst);
        let (result, _) = rig.play(config(), &GameContext::default());
        assert!(
            matches!(result, Err(PlayError::Aborted(AbortReason::Interrupted))),
            "{result:?}"
        );
        assert_eq!(rig.world.borrow().clicks, 0);
    }

    #[test]
    fn a_victory_flash_is_waited_out() {
        let rig = Rig::new();
        rig.world.borrow_mut().flash_frames = 4;
        let (record, _) = rig.play(config(), &GameContext::default());
        let record = record.unwrap();
        assert_eq!(record.mismatches, 0, "the flash is not a mismatch");
        assert_eq!(record.moves, rig.optimum());
    }

    #[test]
    fn reaching_the_limit_without_a_win_is_a_loss() {
        let rig = Rig::new();
        let context = GameContext {
            limit: Some(1),
            ..GameContext::default()
        };
        let (record, _) = rig.play(config(), &context);
        let record = record.unwrap();
        assert_eq!(record.result, GameResult::Lost);
        assert_eq!(record.moves, 1);
        assert!(!rig.world.borrow().board.is_won());
    }

    #[test]
    fn dry_run_lists_clicks_and_touches_nothing() {
        let rig = Rig::new();
        let (dry, _) = rig.with_player(config(), false, |player| player.dry_run().unwrap());
        assert_eq!(dry.clicks.len(), rig.optimum());
        assert!(dry.proven_optimal);
        // Every click lands on the fake window's board (window at 100, 50).
        assert!(dry
            .clicks
            .iter()
            .all(|c| matches!(c.gesture, Gesture::Click((x, y)) if (110..150).contains(&x) && (60..100).contains(&y))));
        assert_eq!(rig.world.borrow().clicks, 0);
    }

    #[test]
    fn new_game_key_starts_the_next_game() {
        let rig = Rig::new();
        let next = Board::new(
            4,
            4,
            4,
            vec![1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 0, 0, 3, 3, 0, 0],
        );
        rig.world.borrow_mut().next_boards.push_back(next.clone());
        let ((first, second), _) = rig.with_player(config(), true, |player| {
            let first = player.play_game(1, &GameContext::default()).unwrap();
            player.new_game().unwrap();
            let second = player.play_game(2, &GameContext::default()).unwrap();
            (first, second)
        });
        assert_eq!(first.record.result, GameResult::Won);
        assert_eq!(second.start, next);
        assert_eq!(second.record.result, GameResult::Won);
        assert_eq!(rig.world.borrow().keys, vec!['n']);
    }
}
