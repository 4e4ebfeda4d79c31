//! A level as a search problem on the solver core: a state is the level's
//! objects (packed bits per cell), a move is one key (up, down, left,
//! right, action), a turn includes the `again` turns it starts, and the
//! goal is a turn that wins. Breadth-first search with exact duplicate
//! detection finds a shortest key sequence; it is called shortest only
//! when the game has no randomness. When it does not finish, weighted A*
//! (the solver core's) searches on with an estimate from the win
//! conditions ([`LevelProblem::estimate`]); what it finds is never called
//! shortest, since no estimate holds for every game's rules. Both searches
//! skip dead positions, where a win condition needs an object the rules
//! can no longer make ([`super::reach`]): that cut is proven, so breadth
//! first still proves shortest solutions and unwinnable levels.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;

use super::bits::{self, Bits};
use super::compile::{Game, Level};
use super::engine::{Engine, Input};
use super::reach::{self, holds, Makers};
use super::relevance::Lean;
use super::rng::Rng;
use super::sinks::Sinks;
use super::stranded::Stranded;
use super::twins::Twins;
use super::walk::{self, Walk};
use super::ways::Ways;
use crate::measure::thread_cpu;
use crate::solver::{
    bfs::bfs, bfs_without_duplicates, bfws, shortcut, weighted_astar, AstarProblem, Budget,
    BudgetExceeded, Keyed, Outcome, Problem, ResumableBfs, Weighted,
};
use transitions::Transitions;

mod assign;
mod atoms;
mod race;
mod strides;
mod transitions;

pub use strides::{Stride, Strides};

/// Why a level cannot be searched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// No such playable level.
    #[error("the game has {count} playable levels; there is no level {asked}")]
    NoLevel {
        /// The level asked for (from 1).
        asked: usize,
        /// Playable levels in the game.
        count: usize,
    },
    /// A real-time game: its turns also happen without keys.
    #[error("the game sets realtime_interval: turns happen on a clock, so it cannot be searched key by key")]
    Realtime,
    /// A solution that does not win when replayed (a bug).
    #[error("the solution {0} does not win when replayed")]
    ReplayLost(String),
}

/// A state: the objects, whether the turn that made it won, and in a
/// game with randomness the random numbers still to come (two positions
/// with the same objects but different draws ahead are different
/// positions; without it, every turn would draw the level start's numbers
/// again and a solution would not win when played in order). The objects
/// are shared: a state's copies (its key in a search's table, the copy a
/// search expands) cost a count, not a buffer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// Object words of every cell.
    pub objects: Rc<[u64]>,
    /// The turn that led here won the level.
    pub won: bool,
    /// The random number generator, in a game that draws from it.
    pub rng: Option<Box<Rng>>,
}

/// One level of a game, ready to search.
pub struct LevelProblem<'g> {
    start: Engine<'g>,
    /// The engine each move is played on, put back at `start` first
    /// ([`Engine::replay_from`]): its buffers are reused instead of
    /// cloning an engine per move.
    scratch: RefCell<Engine<'g>>,
    /// The turns played so far, for the searches that meet positions
    /// another expanded (none kept until [`LevelProblem::keep_turns`]).
    turns: RefCell<Transitions>,
    inputs: Vec<Input>,
    /// The rules as makers of objects, for the dead positions and the
    /// estimate of objects still to make.
    makers: Makers,
    /// Some win condition needs an object to exist (`some X`), so a
    /// position can be dead ([`Makers::dead`]).
    prunes: bool,
    /// Whether a position whose cells hold these objects (their union)
    /// is dead: the union changes seldom, the answer is kept.
    dead: RefCell<FxHashMap<Box<[u64]>, bool>>,
    /// What the objects the rules that say `win` need cost, per union of
    /// a position's cells ([`Makers::win_need`]).
    win_needs: RefCell<FxHashMap<Bits, Vec<usize>>>,
    /// The union of a position's cells while [`LevelProblem::is_dead`]
    /// or the estimate looks it up (a buffer reused, not one allocated per
    /// position).
    union: RefCell<Vec<u64>>,
    /// Walls and the cells the player must still visit, for `no` win
    /// conditions only the player can meet ([`Walk::dead`]).
    walk: Option<Walk>,
    /// Objects frozen where an `all X on Y` condition can no longer be
    /// met ([`Stranded::dead`]).
    stranded: Option<Stranded<'g>>,
    /// The game draws random numbers: they are part of a position.
    random: bool,
    /// The level's walls, for the estimate's distances.
    ways: Ways,
    /// Where the objects of `no X` conditions can go away.
    sinks: Sinks,
    /// The objects that are not fixed ([`walk::fixed`]), a mask of
    /// object words (empty when every object is fixed).
    changing: Vec<u64>,
    /// Objects nothing tells apart: positions are keyed by their
    /// canonical form ([`Twins::canonical`]).
    twins: Option<Twins>,
}

/// The objects of `game` that are not fixed ([`walk::fixed`]), as a mask
/// of `words` object words (a cell's); empty when every object is fixed.
fn changing(game: &Game, fixed: &[u64], words: usize) -> Vec<u64> {
    let mut mask = vec![0u64; words.max(1)];
    for o in (0..game.objects.len()).filter(|&o| !bits::get(fixed, o)) {
        bits::set(&mut mask, o);
    }
    if bits::is_zero(&mask) {
        mask.clear();
    }
    mask
}

/// The seed of the random numbers the solver searches with (a game's
/// page seeds them from the clock).
pub const SEED: &str = "gridbot";

/// The index in `game.levels` of playable level `n` (from 1).
pub fn level_index(game: &Game, n: usize) -> Result<usize, SolveError> {
    let maps: Vec<usize> = (0..game.levels.len())
        .filter(|&i| matches!(game.levels[i], Level::Map { .. }))
        .collect();
    match n.checked_sub(1).and_then(|k| maps.get(k)) {
        Some(&i) => Ok(i),
        None => Err(SolveError::NoLevel {
            asked: n,
            count: maps.len(),
        }),
    }
}

/// True if the game draws random numbers (random rule groups, `random`
/// objects, `randomdir`).
pub fn is_random(game: &Game) -> bool {
    game.rules.iter().chain(&game.late_rules).any(|g| {
        g.random
            || g.rules.iter().any(|r| {
                r.rows.iter().flatten().any(|p| match p {
                    super::compile::Pattern::Cell(c) => c.replacement.as_ref().is_some_and(|x| {
                        x.random_entity.iter().any(|w| *w != 0)
                            || x.random_dir.iter().any(|w| *w != 0)
                    }),
                    super::compile::Pattern::Ellipsis => false,
                })
            })
    })
}

/// Why [`action_is_idle`] holds, for the log.
const ACTION_IDLE: &str = "every rule needs a move up, down, left or right, and the late \
rules settle";

/// True if the action key changes nothing in a position a turn ended
/// in. At a turn's start only the player moves, and the action key
/// gives it no direction: if every rule needs a cell moving up, down,
/// left or right, none fires. The late rules then run on a position they
/// left settled, if nothing runs them in a loop or gives a command, and
/// no late group writes a bit an earlier late group reads (each group
/// ran until it changed nothing). No random draws. A level's first
/// position was not left by a turn: [`LevelProblem`] tries the key there.
pub fn action_is_idle(game: &Game) -> bool {
    let directional = bits::every_field(0b01111);
    let needs_direction = |r: &super::compile::Rule| {
        r.rows.iter().flatten().any(|p| match p {
            super::compile::Pattern::Cell(c) => {
                c.moves_present.iter().any(|w| w & directional != 0)
            }
            super::compile::Pattern::Ellipsis => false,
        })
    };
    let late = &game.late_rules;
    let commands = late
        .iter()
        .flat_map(|g| &g.rules)
        .any(|r| !r.commands.is_empty());
    !is_random(game)
        && game.late_loop_point.is_empty()
        && !commands
        && game
            .rules
            .iter()
            .flat_map(|g| &g.rules)
            .all(needs_direction)
        && (1..late.len()).all(|k| {
            let writes = union(&late[k].writes, late[k].rules.len());
            (0..k).all(|j| !bits::meets(&writes, &union(&late[j].reads, late[j].rules.len())))
        })
}

/// True if the action key changes nothing in `start` and does not win
/// (a level may start with its conditions met, or its late rules not
/// settled).
fn idle_at(start: &Engine) -> bool {
    let mut e = start.clone();
    e.turn_with_again(Some(Input::Action));
    e.board.objects == start.board.objects && e.wins == 0
}

/// The OR of the `rules` equal chunks of `per_rule`.
fn union(per_rule: &[u64], rules: usize) -> Vec<u64> {
    let stride = per_rule.len() / rules.max(1);
    let mut out = vec![0; stride];
    for chunk in per_rule.chunks_exact(stride.max(1)) {
        bits::or(&mut out, chunk);
    }
    out
}

impl<'g> LevelProblem<'g> {
    /// Playable level `n` (from 1) of `game`.
    pub fn new(game: &'g Game, n: usize) -> Result<LevelProblem<'g>, SolveError> {
        LevelProblem::from(game, level_index(game, n)?, None)
    }

    /// A search on the level at `index` of `game.levels` (messages
    /// count) from `objects`, a position the engine played there.
    pub fn at(
        game: &'g Game,
        index: usize,
        objects: &[u64],
    ) -> Result<LevelProblem<'g>, SolveError> {
        LevelProblem::from(game, index, Some(objects))
    }

    fn from(
        game: &'g Game,
        index: usize,
        objects: Option<&[u64]>,
    ) -> Result<LevelProblem<'g>, SolveError> {
        if game.flag("realtime_interval") {
            return Err(SolveError::Realtime);
        }
        let mut start = Engine::new(game, index, SEED).ok_or(SolveError::NoLevel {
            asked: index + 1,
            count: 0,
        })?;
        start.advance_on_win = false;
        while start.againing {
            start.againing = false;
            start.turn(None);
        }
        if let Some(o) = objects {
            start.set_objects(o);
        }
        let mut inputs = vec![Input::Up, Input::Down, Input::Left, Input::Right];
        let idle = action_is_idle(game) && idle_at(&start);
        if !game.flag("noaction") && !idle {
            inputs.push(Input::Action);
        }
        let scratch = RefCell::new(start.clone());
        let rule_cells = walk::rule_cells(game);
        let changes = walk::changes(game, &rule_cells);
        let fixed = changes.fixed(game);
        let (objects, height) = (&start.board.objects, start.board.height);
        let sinks = Sinks::new(game, &rule_cells, &fixed, objects, start.board.ow);
        Ok(LevelProblem {
            scratch,
            turns: RefCell::default(),
            inputs,
            makers: Makers::new(game),
            prunes: game.winconditions.iter().any(|w| w.quantifier == 0),
            dead: RefCell::new(FxHashMap::default()),
            win_needs: RefCell::default(),
            union: RefCell::new(Vec::new()),
            walk: Walk::new(game),
            stranded: Stranded::new(game, &changes, objects, height),
            random: is_random(game),
            ways: Ways::new(game, &fixed, objects, height),
            sinks,
            changing: changing(game, &fixed, start.board.ow),
            twins: Twins::of(game, &changes),
            start,
        })
    }

    /// The key of `state` in a search's table: the state itself, or with
    /// twins, its canonical form (positions of one form have the same
    /// futures).
    pub fn key_of(&self, state: &State) -> State {
        match &self.twins {
            Some(t) => State {
                objects: t.canonical(&state.objects),
                won: state.won,
                rng: state.rng.clone(),
            },
            None => state.clone(),
        }
    }

    /// The buffers a position's entry holds: its state's, and its key's
    /// when twins give keys of their own.
    fn buffers(&self) -> usize {
        1 + self.twins.is_some() as usize
    }

    /// The union of the objects of every cell, into `out` (cleared first).
    fn union_into(&self, objects: &[u64], out: &mut Vec<u64>) {
        out.clear();
        out.resize(self.start.board.ow.max(1), 0);
        for c in objects.chunks(out.len()) {
            bits::or(out, c);
        }
    }

    /// True if no key sequence from `objects` can win: a win condition
    /// needs an object the rules can no longer make ([`Makers::dead`]), or
    /// the player cannot reach a cell only it can fix ([`Walk::dead`]).
    pub fn is_dead(&self, objects: &[u64]) -> bool {
        let game = self.start.game();
        let walled = |w: &Walk| w.dead(game, objects, self.start.board.height);
        if self.walk.as_ref().is_some_and(walled) {
            return true;
        }
        if self.stranded.as_ref().is_some_and(|f| f.dead(objects)) {
            return true;
        }
        if !self.prunes {
            return false;
        }
        let mut union = self.union.borrow_mut();
        self.union_into(objects, &mut union);
        if let Some(&d) = self.dead.borrow().get(&union[..]) {
            return d;
        }
        let d = self.makers.dead(game, &union);
        self.dead.borrow_mut().insert(union[..].into(), d);
        d
    }

    /// An estimate of the keys still needed from `objects`, from the win
    /// conditions, with distances in cells along the way around the
    /// level's walls ([`Ways`]: cells holding a fixed object of the
    /// mover's layer): for `all X on Y`, the ways of the Xs not on a Y
    /// to distinct Ys no X holds (`solve/assign.rs`; each to its nearest Y when
    /// the movers are players, or there are too many pairs), plus the
    /// player's way to the nearest mover of those pairs (less one); for
    /// `some X on Y` when none is, the shortest way between an X and a Y,
    /// or, when there is no X (or no Y) at all, what the rules
    /// need to make one ([`Makers::need`]: the rules that make it, how far
    /// apart the cells they need are, and the removal of what would
    /// destroy one of them on the way); for `no X on Y`, how many cells
    /// have both, plus the player's way to the nearest (less one), plus,
    /// for a plain `no X` whose Xs go away only on certain cells
    /// ([`Sinks`]), each X's way to the nearest of those; with no win
    /// conditions at all, what the cheapest rule that says `win` needs
    /// ([`Makers::win_need`]). A
    /// missing object, or one with no way to its target, counts as far as
    /// the level is wide and high. Admissible only where one key moves one
    /// object one cell (rules may slide, carry, create or remove objects),
    /// so it is never used to call a solution shortest.
    pub fn estimate(&self, objects: &[u64]) -> u32 {
        let game = self.start.game();
        let board = &self.start.board;
        let (height, ow) = (board.height, board.ow);
        let cells = objects.len() / ow.max(1);
        let cell = |i: usize| &objects[i * ow..(i + 1) * ow];
        let far = board.width + board.height;
        let ways = &self.ways;
        // The way of `side` from `to`'s cells to the nearest of `at`.
        let nearest = |side: &[u64], to: &[usize], at: &[usize]| {
            ways.with_map(game, side, to, far, |d| {
                at.iter().map(|&i| d[i]).min().unwrap_or(far)
            })
        };
        let (all_players, player) = &game.player;
        let players: Vec<usize> = (0..cells)
            .filter(|&i| holds(player, *all_players, cell(i)))
            .collect();
        // The player's way to the nearest of `wrong`, less the step onto it.
        let walk = |wrong: &[usize]| {
            if wrong.is_empty() || players.is_empty() {
                0
            } else {
                nearest(player, wrong, &players).saturating_sub(1)
            }
        };
        let mut total = 0;
        for (k, wc) in game.winconditions.iter().enumerate() {
            let first: Vec<usize> = (0..cells)
                .filter(|&i| holds(&wc.first, wc.first_all, cell(i)))
                .collect();
            let on = |i: &usize| holds(&wc.second, wc.second_all, cell(*i));
            let second: Vec<usize> = (0..cells).filter(on).collect();
            let movers = ways.movers(&wc.first, &wc.second);
            match wc.quantifier {
                1 => {
                    let wrong: Vec<usize> = first.iter().copied().filter(|i| !on(i)).collect();
                    if wrong.is_empty() {
                        continue;
                    }
                    let is_first = |i: &usize| holds(&wc.first, wc.first_all, cell(*i));
                    let free: Vec<usize> =
                        second.iter().copied().filter(|i| !is_first(i)).collect();
                    let x_moves = ways.any_changes(&wc.first);
                    let sides = (&wrong[..], &free[..]);
                    // Several players move as one: each to its nearest Y.
                    let assigned = (!bits::meets(&movers, player)).then(|| {
                        assign::assign(ways, game, &movers, sides, far, (!x_moves, x_moves))
                    });
                    match assigned.flatten() {
                        Some(a) if !a.movers.is_empty() => total += a.cost + walk(&a.movers),
                        Some(a) => total += a.cost + walk(&wrong),
                        None => {
                            total += ways.with_map(game, &movers, &second, far, |d| {
                                wrong.iter().map(|&x| d[x]).sum::<usize>()
                            });
                            total += walk(&wrong);
                        }
                    }
                }
                0 if first.is_empty() || second.is_empty() => {
                    let mut present = self.union.borrow_mut();
                    self.union_into(objects, &mut present);
                    let b = reach::Board {
                        objects,
                        words: ow,
                        height,
                        present: &present,
                    };
                    let make =
                        self.makers.need(&wc.first, &b, 0) + self.makers.need(&wc.second, &b, 0);
                    total += if make >= reach::NEVER {
                        far
                    } else {
                        make.max(1)
                    }
                }
                0 if !first.iter().any(on) => total += nearest(&movers, &second, &first).max(1),
                0 => {}
                _ => {
                    let wrong: Vec<usize> = first.iter().copied().filter(on).collect();
                    let away = match self.sinks.of(k) {
                        Some(sinks) if !wrong.is_empty() => {
                            ways.with_map(game, &wc.first, sinks, far, |d| {
                                wrong.iter().map(|&x| d[x]).sum::<usize>()
                            })
                        }
                        _ => 0,
                    };
                    total += wrong.len() + away + walk(&wrong);
                }
            }
        }
        if game.winconditions.is_empty() {
            total += self.win_need(objects);
        }
        total.min(u32::MAX as usize / 4) as u32
    }

    /// For a game won only by a rule that says `win`, what the cheapest
    /// such rule needs before it can fire ([`Makers::win_need`]); 0 when
    /// no rule can.
    fn win_need(&self, objects: &[u64]) -> usize {
        let mut present = self.union.borrow_mut();
        self.union_into(objects, &mut present);
        let board = reach::Board {
            objects,
            words: self.start.board.ow,
            height: self.start.board.height,
            present: &present,
        };
        let need = self
            .makers
            .win_need(&board, &mut self.win_needs.borrow_mut());
        if need >= reach::NEVER {
            0
        } else {
            need
        }
    }

    /// The starting state.
    pub fn start(&self) -> State {
        State {
            objects: Rc::from(&self.start.board.objects[..]),
            won: false,
            rng: self.random.then(|| Box::new(self.start.rng().clone())),
        }
    }

    /// Keeps the turns the searches play, up to `cap` bytes, for the
    /// searches after them ([`Transitions`]).
    pub fn keep_turns(&self, cap: usize) {
        let buffer = state_buffer(self.start.board.objects.len());
        *self.turns.borrow_mut() = Transitions::new(cap, buffer);
    }

    /// Plays `keys` in order on a copy of the level's engine, as a player
    /// would (not through the search's positions); true if they win.
    pub fn wins(&self, keys: &[Input]) -> bool {
        self.won_after(keys).is_some()
    }

    /// Plays `keys` in order as [`LevelProblem::wins`] does: how many of
    /// them were played when the level was first won (the keys after
    /// that are not played).
    pub fn won_after(&self, keys: &[Input]) -> Option<usize> {
        let mut e = self.start.clone();
        for (played, &k) in keys.iter().enumerate() {
            e.turn_with_again(Some(k));
            if e.wins > 0 {
                return Some(played + 1);
            }
        }
        None
    }
}

impl Problem for LevelProblem<'_> {
    type State = State;
    type Move = Input;

    fn moves(&self, state: &State, out: &mut Vec<Input>) {
        if !state.won && !self.is_dead(&state.objects) {
            out.extend_from_slice(&self.inputs);
        }
    }

    fn apply(&self, state: &State, mv: Input) -> State {
        if let Some(kept) = self.turns.borrow().get(state, mv) {
            return kept;
        }
        let mut e = self.scratch.borrow_mut();
        e.replay_from(&self.start, &state.objects);
        if let Some(rng) = &state.rng {
            e.set_rng(rng);
        }
        e.turn_with_again(Some(mv));
        let out = State {
            objects: Rc::from(&e.board.objects[..]),
            won: e.wins > 0,
            rng: state.rng.as_ref().map(|_| Box::new(e.rng().clone())),
        };
        self.turns.borrow_mut().put(state, mv, &out);
        out
    }

    fn is_goal(&self, state: &State) -> bool {
        state.won
    }
}

impl Keyed for LevelProblem<'_> {
    type Key = State;

    fn key(&self, state: &State) -> State {
        self.key_of(state)
    }
}

/// A level for A*: the same moves and positions as the [`LevelProblem`]
/// it borrows, with the win conditions' estimate as the bound (not
/// admissible: A* on it proves no solution shortest) and a dead position
/// bounded at infinity.
pub struct Informed<'a, 'g>(pub &'a LevelProblem<'g>);

impl Problem for Informed<'_, '_> {
    type State = State;
    type Move = Input;

    fn moves(&self, state: &State, out: &mut Vec<Input>) {
        self.0.moves(state, out);
    }

    fn apply(&self, state: &State, mv: Input) -> State {
        self.0.apply(state, mv)
    }

    fn is_goal(&self, state: &State) -> bool {
        state.won
    }

    fn lower_bound(&self, state: &State) -> u32 {
        if !state.won && self.0.is_dead(&state.objects) {
            u32::MAX
        } else {
            self.0.estimate(&state.objects)
        }
    }
}

impl Keyed for Informed<'_, '_> {
    type Key = State;

    fn key(&self, state: &State) -> State {
        self.0.key_of(state)
    }
}

impl AstarProblem for Informed<'_, '_> {}

/// Searches level `n` of `game` breadth first within `budget`; a solution
/// found is replayed from the start and must win.
pub fn solve(game: &Game, n: usize, budget: &Budget) -> Result<Outcome<Input>, SolveError> {
    let p = LevelProblem::new(game, n)?;
    let o = bfs(&p, &p.start(), budget);
    if let Some(keys) = &o.moves {
        if !p.wins(keys) {
            return Err(SolveError::ReplayLost(keys_string(keys)));
        }
    }
    Ok(o)
}

/// Which search [`solve_level`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// Breadth-first search: proves a shortest solution when it finishes.
    Bfs,
    /// Breadth-first search without duplicate detection (a tree search),
    /// for measuring what the duplicate detection is worth.
    BfsNoHashing,
    /// A* with the win conditions' estimate (not admissible: unproven).
    Astar,
    /// Weighted A* (the estimate times `--weight`), stopping at the
    /// first solution.
    WeightedAstar,
    /// Best-first width search with the win conditions' estimate: novel
    /// positions (an object in a cell no position of the same estimate
    /// had) first, then by the estimate; stops at the first solution.
    Bfws,
    /// Best-first width search on strides ([`Strides`]): a move is a walk
    /// of the player and one key whose turn does more; stops at the first
    /// solution.
    Strides,
    /// Breadth-first search, best-first width search (on strides and key
    /// by key) and weighted A* (`--weight`, then `--retry-weight`) taking
    /// turns in slices that double over `--rounds` rounds, each resumed
    /// where it stopped, each getting its share below by the last round;
    /// the first to solve the level stops the others, and breadth first
    /// resumes as below. With
    /// `--rounds 0` (or no time limit), one after the other:
    /// breadth-first search for `--bfs-share` of the time limit, then,
    /// when it neither solved the level nor proved it unwinnable,
    /// best-first width search on strides for `--stride-share` of the
    /// rest, key by key for `--width-share` of what is left, then
    /// weighted A* for three quarters of what is left and weighted A*
    /// with `--retry-weight` for the last quarter; then the first
    /// breadth-first search, paused meanwhile, resumes for whatever time
    /// is left (a shortest solution, the proof that the one found is
    /// shortest, or a level the others stopped on for memory), keeping an
    /// eighth of it to shorten a solution it did not prove by shortcuts.
    Portfolio,
}

impl Method {
    /// The name printed for the search (`bfs`, `astar`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Method::Bfs => "bfs",
            Method::Portfolio => "portfolio",
            Method::BfsNoHashing => "bfs-no-hashing",
            Method::Astar => "astar",
            Method::WeightedAstar => "weighted-astar",
            Method::Bfws => "bfws",
            Method::Strides => "strides",
        }
    }
}

/// The weight of the estimate in weighted A*, by default.
pub const WEIGHT: u32 = 10;

/// The weight of the portfolio's second weighted A*, by default: a search
/// closer to A*, for levels where the first one follows the estimate
/// into positions that lead nowhere.
pub const RETRY_WEIGHT: u32 = 3;

/// The percentage of the time limit the portfolio's first breadth-first
/// search gets, by default.
pub const BFS_SHARE: u32 = 10;

/// The percentage of the time left after the portfolio's first
/// breadth-first search that best-first width search gets, by default.
pub const WIDTH_SHARE: u32 = 50;

/// The percentage of the time left after the portfolio's first
/// breadth-first search that best-first width search on strides gets, by
/// default: none. Measured side by side at 20%, it gained levels on the
/// tuning sample and lost as many on the held-out games and the shared
/// ones (docs/puzzlescript.md), so it is there to ask for.
pub const STRIDE_SHARE: u32 = 0;

/// The rounds of the portfolio's round robin, by default: each search's
/// first slice is its share of the time limit over `2^ROUNDS`, and each
/// slice after it doubles what the search had.
pub const ROUNDS: u32 = 5;

/// The most positions a shortcut search from one position of a found
/// solution's path holds ([`shortcut`]).
pub const SHORTCUT_SEARCH: usize = 32;

/// When weighted A* or width search found a solution, the portfolio
/// keeps one part in this many of the time left for shortcuts, and
/// breadth-first search gets the rest to prove it shortest or find a
/// shorter one.
pub const SHORTCUT_PART: u32 = 8;

/// The limits of one level's search.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Time for the whole search (every method of a portfolio): wall
    /// time, or with [`Limits::cpu`] this thread's CPU time.
    pub time: Option<Duration>,
    /// [`Limits::time`] counts the CPU time of the searching thread ("3 s
    /// on one thread" whatever else the machine runs), not wall time.
    pub cpu: bool,
    /// Memory the search may hold, states' own buffers included.
    pub memory: usize,
    /// Nodes expanded, per search.
    pub nodes: Option<u64>,
    /// The weight of the estimate in weighted A* ([`WEIGHT`] by default).
    pub weight: u32,
    /// The portfolio's second weight ([`RETRY_WEIGHT`] by default): when
    /// weighted A* with [`Limits::weight`] has found nothing in three
    /// quarters of the time left after breadth-first search, weighted A*
    /// with this weight searches the rest from the start. Equal to
    /// `weight`: no second search.
    pub retry_weight: u32,
    /// The portfolio's breadth-first search gets this percentage of
    /// [`Limits::time`] ([`BFS_SHARE`] by default).
    pub bfs_share: u32,
    /// The percentage of the time left after the portfolio's first
    /// breadth-first search that best-first width search gets, before
    /// weighted A* ([`WIDTH_SHARE`] by default; 0: none).
    pub width_share: u32,
    /// The percentage of the time left after the portfolio's first
    /// breadth-first search that best-first width search on strides gets,
    /// before width search key by key ([`STRIDE_SHARE`] by default; 0:
    /// none).
    pub stride_share: u32,
    /// The portfolio's rounds ([`ROUNDS`] by default): its searches take
    /// turns in slices that double from round to round, each resumed
    /// where it stopped, until each had its share; 0: one after the
    /// other, each once, breadth first resumed last.
    pub rounds: u32,
}

/// What [`solve_level`] found.
#[derive(Debug, Clone)]
pub struct Solved {
    /// The outcome (nodes and time of every search run).
    pub outcome: Outcome<Input>,
    /// The search that found the solution or proved there is none
    /// (`None` when none did).
    pub search: Option<Method>,
    /// The solution is a proven shortest one: breadth-first search found
    /// it and the game has no randomness.
    pub proven_shortest: bool,
}

/// A budget of `time` whose memory ceiling counts what the searches do
/// not see: each state's cells live in one buffer its copies share (after
/// the buffer's two counts), which a search counts as a pointer, so
/// `buffers` bytes of such buffers come with each state it keeps
/// ([`Budget::with_state_bytes`]). `held` bytes of the memory limit are
/// taken by searches still alive (paused).
fn budget_for(limits: &Limits, time: Option<Duration>, buffers: usize, held: usize) -> Budget {
    let memory = limits.memory.saturating_sub(held);
    let b = match time {
        Some(t) if limits.cpu => Budget::new(None, memory).with_cpu_limit(t),
        _ => Budget::new(time, memory),
    };
    let b = b.with_state_bytes(buffers);
    match limits.nodes {
        Some(n) => b.with_node_limit(n),
        None => b,
    }
}

/// The bytes of one state's buffer of `words` object words (with its two
/// counts, rounded as the allocator rounds).
fn state_buffer(words: usize) -> usize {
    (words * 8 + 16).next_multiple_of(16) + 16
}

/// The part of the memory limit the turns kept take ([`Transitions`]).
const TURNS_PART: usize = 8;

/// Breadth-first search on a level, between slices of the portfolio.
type Paused<'g> = ResumableBfs<LevelProblem<'g>>;

/// Searches level `n` of `game` with `method` within `limits`, on the
/// game without its cosmetic objects ([`Lean`]); a solution found is
/// replayed from the start on the whole game and must win.
pub fn solve_level(
    game: &Game,
    n: usize,
    method: Method,
    limits: &Limits,
) -> Result<Solved, SolveError> {
    let lean = Lean::of(game);
    if let Some(l) = &lean {
        let names: Vec<&str> = bits::ones(&l.cosmetic)
            .map(|id| game.objects[id].name.as_str())
            .collect();
        log::info!(
            "searching without {} cosmetic objects ({}) and the {} rules that only draw them",
            names.len(),
            names.join(", "),
            l.dropped
        );
    }
    let run = Run::new(lean.as_ref().map_or(game, |l| &l.game), n, limits)?;
    if let Some(t) = &run.plain.twins {
        let class = |c: &Vec<usize>| {
            let names: Vec<&str> = c.iter().map(|&o| game.objects[o].name.as_str()).collect();
            names.join(" = ")
        };
        let classes: Vec<String> = t.classes().iter().map(class).collect();
        log::info!("positions keyed with twins as one: {}", classes.join("; "));
    }
    for (k, wc) in run.plain.start.game().winconditions.iter().enumerate() {
        if let Some(cells) = run.plain.sinks.of(k) {
            let names: Vec<&str> = bits::ones(&wc.first)
                .filter_map(|o| game.objects.get(o).map(|o| o.name.as_str()))
                .collect();
            log::info!(
                "{} go away on {} cells only",
                names.join(" or "),
                cells.len()
            );
        }
    }
    if !game.flag("noaction") && !run.plain.inputs.contains(&Input::Action) {
        log::info!("the action key is left out: it changes nothing ({ACTION_IDLE})");
    }
    let (o, search) = match method {
        Method::Bfs => (run.breadth_first(limits.time), Method::Bfs),
        Method::BfsNoHashing => (run.tree(limits.time), Method::BfsNoHashing),
        Method::Astar => (run.weighted(limits.time, 1, 0), Method::Astar),
        Method::WeightedAstar => (
            run.weighted(limits.time, limits.weight, 0),
            Method::WeightedAstar,
        ),
        Method::Bfws => (run.width(limits.time, 0), Method::Bfws),
        Method::Strides => (run.strides(limits.time, 0), Method::Strides),
        Method::Portfolio => run.portfolio(),
    };
    if let Some(keys) = &o.moves {
        // Replayed on the whole game, cosmetic objects and all.
        let wins = match lean {
            Some(_) => LevelProblem::new(game, n)?.wins(keys),
            None => run.plain.wins(keys),
        };
        if !wins {
            return Err(SolveError::ReplayLost(keys_string(keys)));
        }
    }
    let found = o.moves.is_some() || o.proven_unsolvable;
    Ok(Solved {
        proven_shortest: o.proven_optimal && !is_random(game),
        search: found.then_some(search),
        outcome: o,
    })
}

/// One level's search: the level (breadth first on it as it is, A* on
/// its [`Informed`] view), its start, the limits and the clock they
/// count on.
struct Run<'g> {
    plain: LevelProblem<'g>,
    start: State,
    limits: Limits,
    t0: Instant,
    cpu0: Duration,
}

impl<'g> Run<'g> {
    fn new(game: &'g Game, n: usize, limits: &Limits) -> Result<Run<'g>, SolveError> {
        let (t0, cpu0) = (Instant::now(), thread_cpu());
        let plain = LevelProblem::new(game, n)?;
        // The turns kept take their part of the memory off the searches'.
        let turns = limits.memory / TURNS_PART;
        plain.keep_turns(turns);
        Ok(Run {
            start: plain.start(),
            plain,
            limits: Limits {
                memory: limits.memory - turns,
                ..*limits
            },
            t0,
            cpu0,
        })
    }

    /// Time spent so far, on the limits' clock.
    fn spent(&self) -> Duration {
        if self.limits.cpu {
            thread_cpu() - self.cpu0
        } else {
            self.t0.elapsed()
        }
    }

    /// What is left of the time limit (`None`: no limit).
    fn left(&self) -> Option<Duration> {
        self.limits.time.map(|t| t.saturating_sub(self.spent()))
    }

    /// A budget of `time` for a search beside searches holding `held`
    /// bytes of the memory ([`budget_for`]).
    fn budget(&self, time: Option<Duration>, held: usize) -> Budget {
        budget_for(&self.limits, time, self.buffers(), held)
    }

    /// The bytes a search keeping `states` states holds with `tables`
    /// bytes of its own: its states' buffers included.
    fn with_buffers(&self, states: usize, tables: usize) -> usize {
        tables + states * self.buffers()
    }

    /// The bytes a paused breadth-first search holds, its states'
    /// buffers included.
    fn held(&self, paused: &Paused<'g>) -> usize {
        self.with_buffers(paused.states(), paused.bytes())
    }

    /// Breadth-first search for `time`.
    fn breadth_first(&self, time: Option<Duration>) -> Outcome<Input> {
        self.resume(&mut self.fresh(), time)
    }

    /// A breadth-first search from the start that has expanded nothing.
    fn fresh(&self) -> Paused<'g> {
        ResumableBfs::new(&self.plain, &self.start)
    }

    /// `paused` resumed for `time`, alone in memory; its node limit is
    /// what the limits' per-search node limit leaves.
    fn resume(&self, paused: &mut Paused<'g>, time: Option<Duration>) -> Outcome<Input> {
        let mut limits = self.limits;
        limits.nodes = limits.nodes.map(|n| n.saturating_sub(paused.nodes()));
        self.resume_beside(paused, time, 0, &limits)
    }

    /// `paused` resumed for `time` within `limits`, beside searches
    /// holding `held` bytes.
    fn resume_beside(
        &self,
        paused: &mut Paused<'g>,
        time: Option<Duration>,
        held: usize,
        limits: &Limits,
    ) -> Outcome<Input> {
        let budget = budget_for(limits, time, self.buffers(), held);
        paused.run(&self.plain, &budget)
    }

    /// The bytes of the buffers of a position's entry in a search: its
    /// state's, and with twins its key's.
    fn buffers(&self) -> usize {
        state_buffer(self.start.objects.len()) * self.plain.buffers()
    }

    /// Breadth-first search without duplicate detection for `time`.
    fn tree(&self, time: Option<Duration>) -> Outcome<Input> {
        let budget = self.budget(time, 0);
        bfs_without_duplicates(&self.plain, &self.start, &budget)
    }

    /// Weighted A* with `weight` for `time` (unproven), beside searches
    /// holding `held` bytes.
    fn weighted(&self, time: Option<Duration>, weight: u32, held: usize) -> Outcome<Input> {
        let budget = self.budget(time, held);
        unproven(weighted_astar(
            &Informed(&self.plain),
            &self.start,
            &budget,
            weight,
        ))
    }

    /// Best-first width search for `time` (unproven), beside searches
    /// holding `held` bytes.
    fn width(&self, time: Option<Duration>, held: usize) -> Outcome<Input> {
        let budget = self.budget(time, held);
        unproven(bfws(&Informed(&self.plain), &self.start, &budget))
    }

    /// Best-first width search on strides for `time` (unproven), beside
    /// searches holding `held` bytes.
    fn strides(&self, time: Option<Duration>, held: usize) -> Outcome<Input> {
        let budget = self.budget(time, held);
        let strides = Strides::new(&self.plain);
        unproven(strides.in_keys(&self.start, bfws(&strides, &self.start, &budget)))
    }

    /// `o` after the searches before it, which expanded `nodes`.
    fn after(&self, nodes: u64, o: Outcome<Input>) -> Outcome<Input> {
        Outcome {
            nodes: nodes + o.nodes,
            elapsed: self.t0.elapsed(),
            ..o
        }
    }

    /// The portfolio: breadth-first search, best-first width search and
    /// weighted A* taking turns in slices ([`Run::race`]) until one settles
    /// the level; then breadth first, paused, resumed to prove a
    /// solution shortest ([`Run::proved`]), or shortcuts. With
    /// [`Limits::rounds`] 0 or no time limit, one after the other
    /// ([`Run::in_turn`]).
    fn portfolio(&self) -> (Outcome<Input>, Method) {
        if self.limits.rounds == 0 || self.limits.time.is_none() {
            return self.in_turn();
        }
        let informed = Informed(&self.plain);
        let l = &self.limits;
        let mut weights = vec![Weighted::new(&informed, l.weight)];
        if l.retry_weight != l.weight {
            weights.push(Weighted::new(&informed, l.retry_weight));
        }
        let strides = (l.stride_share > 0).then(|| Strides::new(&self.plain));
        let end = self.race(&informed, strides.as_ref(), &weights, l.rounds);
        let (found, search) = (end.outcome, end.settled_by.unwrap_or(Method::Portfolio));
        match end.breadth {
            Some(paused) if !found.proven_unsolvable => self.proved(paused, found, search),
            _ if search == Method::Bfs => (found, search),
            _ => (self.shortened(found, self.left()), search),
        }
    }

    /// `found` (by `search`) after breadth-first search `paused` resumed
    /// for what is left ([`Run::confirm`]; an eighth of it kept for
    /// shortcuts when there is a solution), then shortcuts.
    fn proved(
        &self,
        mut paused: Paused<'g>,
        found: Outcome<Input>,
        search: Method,
    ) -> (Outcome<Input>, Method) {
        let time = match (&found.moves, self.left()) {
            (Some(_), Some(left)) => Some(left - left / SHORTCUT_PART),
            (_, left) => left,
        };
        let (o, by) = self.confirm(&mut paused, found, search, time);
        (self.shortened(o, self.left()), by)
    }

    /// The portfolio one search after the other ([`Limits::rounds`] 0):
    /// breadth first for its share, paused; width search; weighted A*;
    /// breadth first resumed.
    fn in_turn(&self) -> (Outcome<Input>, Method) {
        let first = self.limits.time.map(|t| t * self.limits.bfs_share / 100);
        let mut paused = self.fresh();
        let o = self.resume(&mut paused, first);
        if o.moves.is_some() || o.proven_unsolvable {
            return (self.after(0, o), Method::Bfs);
        }
        // A search that filled the memory makes way for the others.
        let paused = (o.stopped != Some(BudgetExceeded::Memory)).then_some(paused);
        let held = paused.as_ref().map_or(0, |p| self.held(p));
        let (found, search) = match self.widths(o, held) {
            (o, m @ (Method::Bfws | Method::Strides)) => (o, m),
            (o, _) => self.retries(o, held),
        };
        match paused {
            Some(paused) if !found.proven_unsolvable => self.proved(paused, found, search),
            _ => (self.shortened(found, self.left()), search),
        }
    }

    /// `o`'s solution after shortcuts ([`shortcut`]) for at most `time`,
    /// when it is not proven shortest.
    fn shortened(&self, o: Outcome<Input>, time: Option<Duration>) -> Outcome<Input> {
        let Some(moves) = o.moves.as_ref().filter(|_| !o.proven_optimal) else {
            return o;
        };
        let budget = self.budget(time, 0);
        let s = shortcut(&self.plain, &self.start, moves, &budget, SHORTCUT_SEARCH);
        log::debug!("shortcuts: {} keys to {}", moves.len(), s.moves.len());
        Outcome {
            moves: Some(s.moves),
            nodes: o.nodes + s.nodes,
            elapsed: self.t0.elapsed(),
            ..o
        }
    }

    /// Breadth-first search `paused` resumed for `time` after
    /// width search or weighted A* (`by`) found `found` (its nodes count
    /// the search's first slice): its solution when it finds one (a
    /// shortest), else `found`, proven shortest when breadth first
    /// searched every shorter key sequence; with no solution found, what
    /// breadth first proved (no solution, or its bound).
    fn confirm(
        &self,
        paused: &mut Paused<'g>,
        found: Outcome<Input>,
        by: Method,
        time: Option<Duration>,
    ) -> (Outcome<Input>, Method) {
        let before = paused.nodes();
        let b = self.resume(paused, time);
        let nodes = found.nodes + paused.nodes() - before;
        if b.moves.is_some() || b.proven_unsolvable {
            return (self.after(0, Outcome { nodes, ..b }), Method::Bfs);
        }
        let mut o = self.after(0, Outcome { nodes, ..found });
        match o.len() {
            Some(len) if b.lower_bound as usize >= len => {
                o.lower_bound = len as u32;
                o.proven_optimal = true;
            }
            Some(_) => {}
            None => {
                o.lower_bound = b.lower_bound;
                o.stopped = b.stopped;
            }
        }
        (o, by)
    }

    /// Best-first width search on strides for [`Limits::stride_share`] of
    /// the time left, then key by key for [`Limits::width_share`] of what
    /// is left then, after breadth-first search (`o`, paused, holding
    /// `held` bytes) found nothing; `o` with the method that settled the
    /// level ([`Method::Strides`] or [`Method::Bfws`] when one did).
    fn widths(&self, mut o: Outcome<Input>, held: usize) -> (Outcome<Input>, Method) {
        let l = &self.limits;
        for (share, method) in [
            (l.stride_share, Method::Strides),
            (l.width_share, Method::Bfws),
        ] {
            if share == 0 {
                continue;
            }
            let time = self.left().map(|t| t * share / 100);
            o = self.after(
                o.nodes,
                match method {
                    Method::Strides => self.strides(time, held),
                    _ => self.width(time, held),
                },
            );
            if o.moves.is_some() || o.proven_unsolvable {
                return (o, method);
            }
        }
        (o, Method::Portfolio)
    }

    /// Weighted A* after breadth-first search (`o`, paused, holding
    /// `held` bytes) found nothing: with
    /// [`Limits::weight`] for three quarters of the time left, then with
    /// [`Limits::retry_weight`] for the rest (one search when they are
    /// equal).
    fn retries(&self, mut o: Outcome<Input>, held: usize) -> (Outcome<Input>, Method) {
        let l = &self.limits;
        let weights = if l.retry_weight == l.weight {
            vec![l.weight]
        } else {
            vec![l.weight, l.retry_weight]
        };
        for (k, &w) in weights.iter().enumerate() {
            if o.moves.is_some() || o.proven_unsolvable {
                break;
            }
            let last = k + 1 == weights.len();
            let share = self.left().map(|t| if last { t } else { t * 3 / 4 });
            o = self.after(o.nodes, self.weighted(share, w, held));
        }
        (o, Method::WeightedAstar)
    }
}

/// An A* outcome with the win conditions' estimate: its optimality and
/// its bound do not hold (the estimate is not admissible); a search that
/// ran dry still proves that there is no solution.
fn unproven(mut o: Outcome<Input>) -> Outcome<Input> {
    if !o.proven_unsolvable {
        o.proven_optimal = false;
        o.lower_bound = 0;
    }
    o
}

/// The keys as one string over `udlrx`.
pub fn keys_string(keys: &[Input]) -> String {
    keys.iter().map(|k| k.letter()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puzzlescript::compile::compile;

    pub(super) const PUSH: &str = "OBJECTS\n\nBackground\nblack\n\nTarget\nyellow\n\nPlayer\nwhite\n\nCrate\norange\n\nWall\nbrown\n\nLEGEND\n\n. = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nTarget\nPlayer, Wall, Crate\n\nRULES\n\n[ > Player | Crate ] -> [ > Player | > Crate ]\n\nWINCONDITIONS\n\nall crate on target\n\nLEVELS\n\nmessage start\n\n######\n#P*.O#\n######\n\n#####\n#.O.#\n#.*.#\n#.P.#\n#####\n\n#####\n#..O#\n#P*.#\n#####\n";

    #[test]
    fn bad_sources_are_refused_not_panicked_on() {
        use crate::games::puzzlescript::error::PsError;
        assert!(matches!(compile(""), Err(PsError::Missing(_))));
        assert!(compile("\u{0}\u{1}garbage(((").is_err());
        // A rule whose properties multiply into millions of rules.
        let objects: String = (0..40).map(|i| format!("O{i}\nred\n\n")).collect();
        let thing: Vec<String> = (0..40).map(|i| format!("O{i}")).collect();
        let layers = thing.join("\n");
        let src = format!(
            "OBJECTS\n\nBackground\nblack\n\nPlayer\nwhite\n\n{objects}LEGEND\n\nP = Player\n. = Background\nThing = {}\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nPlayer\n{layers}\n\nRULES\n\n[ Thing | Thing | Thing | Thing ] -> [ Thing | Thing | Thing | Thing ]\n\nWINCONDITIONS\n\nLEVELS\n\n.P.\n",
            thing.join(" or ")
        );
        assert!(matches!(compile(&src), Err(PsError::Unsupported { .. })));
    }

    #[test]
    fn finds_a_shortest_push() {
        let game = compile(PUSH).unwrap();
        assert!(!is_random(&game));
        let o = solve(&game, 1, &Budget::unlimited()).unwrap();
        assert_eq!(keys_string(o.moves.as_ref().unwrap()), "rr");
        assert!(o.proven_optimal);
        let o = solve(&game, 2, &Budget::unlimited()).unwrap();
        let keys = o.moves.unwrap();
        assert_eq!(keys_string(&keys), "u");
        assert!(LevelProblem::new(&game, 2).unwrap().wins(&keys));
        // The crate goes into a corner or along the bottom wall: no win.
        assert!(
            solve(&game, 3, &Budget::unlimited())
                .unwrap()
                .proven_unsolvable
        );
        assert_eq!(
            solve(&game, 4, &Budget::unlimited()).err(),
            Some(SolveError::NoLevel { asked: 4, count: 3 })
        );
    }

    /// Limits of the tests: no time limit, a node limit, weight 3.
    fn limits(nodes: Option<u64>) -> Limits {
        Limits {
            cpu: false,
            time: None,
            memory: 1 << 30,
            nodes,
            weight: 3,
            retry_weight: 3,
            bfs_share: BFS_SHARE,
            width_share: 0,
            stride_share: 0,
            rounds: 0,
        }
    }

    /// Weighted A*'s solution is replaced by breadth first's when the
    /// paused breadth-first search, resumed, finds one, and called
    /// shortest only when no shorter sequence is left unsearched.
    #[test]
    fn confirm_proves_a_solution_shortest_only_with_the_bound() {
        let game = compile(PUSH).unwrap();
        let best = solve_level(&game, 1, Method::Bfs, &limits(None)).unwrap();
        let len = best.outcome.len().unwrap();
        assert!(best.proven_shortest && len > 1);
        let found = unproven(best.outcome.clone());
        assert!(!found.proven_optimal);
        let run = Run::new(&game, 1, &limits(None)).unwrap();
        let (o, search) = run.confirm(&mut run.fresh(), found.clone(), Method::WeightedAstar, None);
        assert_eq!((o.len(), o.proven_optimal), (Some(len), true));
        assert_eq!(search, Method::Bfs);
        // No node: breadth first proves nothing itself.
        let run = Run::new(&game, 1, &limits(Some(0))).unwrap();
        let (o, search) = run.confirm(&mut run.fresh(), found.clone(), Method::WeightedAstar, None);
        assert!(!o.proven_optimal && o.len() == Some(len));
        assert_eq!(search, Method::WeightedAstar);
        // A first slice of one node already proved the bound: the
        // resumed search has no node left, and the bound stands.
        let run = Run::new(&game, 1, &limits(Some(1))).unwrap();
        let mut paused = run.fresh();
        assert!(run.resume(&mut paused, None).stopped.is_some());
        assert_eq!(paused.lower_bound() as usize, len);
        let (o, search) = run.confirm(&mut paused, found.clone(), Method::WeightedAstar, None);
        assert!(o.proven_optimal && o.lower_bound as usize == len);
        assert_eq!((search, o.nodes), (Method::WeightedAstar, found.nodes));
    }

    #[test]
    fn the_solver_agrees_with_a_plain_breadth_first_search() {
        let game = compile(PUSH).unwrap();
        let mut nodes = Vec::new();
        for n in 1..=3 {
            let plain = bfs_without_duplicates(
                &LevelProblem::new(&game, n).unwrap(),
                &LevelProblem::new(&game, n).unwrap().start(),
                &Budget::unlimited().with_node_limit(20_000),
            );
            let s = solve_level(&game, n, Method::Bfs, &limits(None)).unwrap();
            assert_eq!(s.outcome.len(), plain.len(), "level {n}");
            assert_eq!(s.proven_shortest, plain.moves.is_some(), "level {n}");
            // Level 3 is unwinnable: its crate can only slide along the
            // wall below it, away from the target's row, which the start
            // already shows ([`super::super::stranded`]).
            assert_eq!(s.outcome.proven_unsolvable, n == 3);
            let a = solve_level(&game, n, Method::Astar, &limits(None)).unwrap();
            assert_eq!(a.outcome.len().is_some(), n != 3);
            assert!(!a.proven_shortest);
            assert_eq!(a.outcome.proven_unsolvable, n == 3);
            nodes.push((s.outcome.nodes, plain.nodes, a.outcome.nodes));
        }
        // Pinned: a change to the turn or the searches shows here.
        assert_eq!(nodes, vec![(2, 5, 2), (1, 1, 1), (1, 1, 0)]);
    }

    /// A player that faces the way it moves: its facings are twins, and
    /// positions keyed by their canonical form make breadth first expand
    /// fewer positions and prove the same length.
    #[test]
    fn twins_shrink_breadth_first_and_keep_it_shortest() {
        let game = compile(crate::games::puzzlescript::twins::tests::FACING).unwrap();
        let with = LevelProblem::new(&game, 1).unwrap();
        assert!(with.twins.is_some());
        let mut without = LevelProblem::new(&game, 1).unwrap();
        without.twins = None;
        let a = crate::solver::bfs::bfs(&with, &with.start(), &Budget::unlimited());
        let b = crate::solver::bfs::bfs(&without, &without.start(), &Budget::unlimited());
        assert!(a.proven_optimal && b.proven_optimal);
        assert_eq!(a.len(), b.len());
        assert!(with.wins(a.moves.as_ref().unwrap()));
        assert!(a.nodes * 2 < b.nodes, "{} against {}", a.nodes, b.nodes);
    }

    /// In a game with randomness, the search's positions carry the random
    /// numbers: a line of keys played through them ends where the engine
    /// playing the same keys in order ends (the robot's random walk
    /// included), and a solution found wins when played in order.
    #[test]
    fn positions_of_a_random_game_follow_its_draws() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/puzzlescript/random.txt"
        );
        let game = compile(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert!(is_random(&game));
        let p = LevelProblem::new(&game, 1).unwrap();
        let (mut s, mut e) = (p.start(), p.start.clone());
        for k in [
            Input::Right,
            Input::Left,
            Input::Right,
            Input::Right,
            Input::Right,
        ] {
            s = p.apply(&s, k);
            e.turn_with_again(Some(k));
            assert_eq!(&s.objects[..], &e.board.objects[..], "after {k:?}");
        }
        let o = solve(&game, 1, &Budget::unlimited()).unwrap();
        assert!(p.wins(o.moves.as_ref().unwrap()));
    }

    /// A crate to push across an open room: too many positions for
    /// breadth-first search within the node limit.
    fn room() -> Game {
        push_level("############\n#P.........#\n#..........#\n#..........#\n#...*......#\n#..........#\n#..........#\n#..........#\n#.........O#\n############\n")
    }

    /// PUSH's objects and rules with one level of its own.
    pub(super) fn push_level(level: &str) -> Game {
        with_level(PUSH, level)
    }

    /// The game of `src` (everything before its levels) with `level` as
    /// its only level.
    pub(super) fn with_level(src: &str, level: &str) -> Game {
        let rules = src.split("LEVELS").next().unwrap();
        compile(&format!("{rules}LEVELS\n\n{level}")).unwrap()
    }

    #[test]
    fn weighted_astar_solves_a_level_breadth_first_search_does_not_finish() {
        let game = room();
        let cap = limits(Some(2000));
        let b = solve_level(&game, 1, Method::Bfs, &cap).unwrap();
        assert!(b.outcome.moves.is_none() && b.outcome.stopped.is_some());
        assert_eq!(b.search, None);
        let s = solve_level(&game, 1, Method::Portfolio, &cap).unwrap();
        let keys = s.outcome.moves.as_ref().unwrap();
        assert!(LevelProblem::new(&game, 1).unwrap().wins(keys));
        assert_eq!(s.search, Some(Method::WeightedAstar));
        assert!(!s.proven_shortest);
        // The nodes include the shortcut searches, which find nothing
        // shorter. Pinned: 3,484 with the action key, which is idle here.
        assert_eq!((keys.len(), s.outcome.nodes), (17, 3191));
    }

    /// PUSH with a mark, and `rules` after its own, on `level`.
    fn marked(rules: &str, level: &str) -> Game {
        let src = PUSH
            .replace(
                "Wall\nbrown\n\nLEGEND",
                "Wall\nbrown\n\nMark\ngreen\n\nLEGEND",
            )
            .replace("Target\nPlayer, Wall", "Target\nMark\nPlayer, Wall")
            .replace("\nWINCONDITIONS", &format!("{rules}\n\nWINCONDITIONS"));
        with_level(&src, level)
    }

    #[test]
    fn the_action_key_is_left_out_where_it_changes_nothing() {
        let has_action = |g: &Game| {
            let p = LevelProblem::new(g, 1).unwrap();
            p.inputs.contains(&Input::Action)
        };
        let open = "#####\n#.O.#\n#.*.#\n#.P.#\n#####\n";
        assert!(action_is_idle(&push_level(open)) && !has_action(&push_level(open)));
        // No crate off a target at the start: the idle key would win.
        let met = push_level("#####\n#P.O#\n#####\n");
        assert!(action_is_idle(&met) && has_action(&met));
        let mark = "late [ Player no Mark ] -> [ Player Mark ]";
        let g = marked(mark, open);
        // The mark is not down at the start: the key puts it there.
        assert!(action_is_idle(&g) && has_action(&g));
        let g = marked(&format!("late [ Mark no Player ] -> [ ]\n{mark}"), open);
        assert!(!action_is_idle(&g) && has_action(&g));
        let g = marked("[ Player | Crate ] -> [ Player | Crate Mark ]", open);
        assert!(!action_is_idle(&g) && has_action(&g));
    }

    /// Where the key is left out, playing it anywhere changes nothing.
    #[test]
    fn the_action_key_left_out_is_idle_all_along() {
        let game = push_level("#######\n#..O..#\n#.*.*.#\n#..P..#\n#.O...#\n#######\n");
        let p = LevelProblem::new(&game, 1).unwrap();
        assert!(!p.inputs.contains(&Input::Action));
        let mut s = p.start();
        let mut x = 7u32;
        for _ in 0..400 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            s = p.apply(&s, p.inputs[(x >> 16) as usize % 4]);
            let idle = p.apply(&s, Input::Action);
            assert_eq!((idle.objects, idle.won), (s.objects.clone(), s.won));
        }
    }

    #[test]
    fn the_estimate_counts_distances_to_the_targets() {
        let game = room();
        let p = LevelProblem::new(&game, 1).unwrap();
        // The crate is 6 + 4 cells from the target; the player 3 + 3
        // from the crate (less the step onto it).
        assert_eq!(p.estimate(&p.start().objects), 10 + 5);
        let game = compile(PUSH).unwrap();
        let p = LevelProblem::new(&game, 1).unwrap();
        assert_eq!(p.estimate(&p.start().objects), 2);
    }

    /// Two crates whose nearest target is the same one: the estimate
    /// sends one to each target (a greedy assignment), not both to the
    /// nearer, and the player to the crate nearest it.
    #[test]
    fn the_estimate_gives_each_crate_its_own_target() {
        let game = push_level("#########\n#O**...O#\n#....P..#\n#########\n");
        let p = LevelProblem::new(&game, 1).unwrap();
        // Crates 1 and 4 cells from their targets (both nearest the left
        // one: 1 + 2); the player 3 cells from the nearer crate, less 1.
        assert_eq!(p.estimate(&p.start().objects), 1 + 4 + 2);
    }

    #[test]
    fn walls_are_fixed_though_crates_of_their_layer_move() {
        let game = compile(PUSH).unwrap();
        let fixed = super::super::walk::fixed(&game);
        let names: Vec<&str> = bits::ones(&fixed)
            .filter(|&o| o < game.objects.len())
            .map(|o| game.objects[o].name.as_str())
            .collect();
        assert_eq!(names, ["background", "target", "wall"]);
    }

    /// A crate to take around a wall: its target is 3 cells below it, on
    /// the other side of the wall.
    #[test]
    fn the_estimate_walks_around_walls() {
        let game = push_level("##########\n#........#\n#....*.P.#\n#..#######\n#........#\n#....O...#\n#........#\n##########\n");
        let p = LevelProblem::new(&game, 1).unwrap();
        // The crate is 3 cells from the target as the crow flies, 9 around
        // the wall; the player 2 from the crate (less the step onto it).
        assert_eq!(p.estimate(&p.start().objects), 9 + 1);
        let s = solve_level(&game, 1, Method::Bfs, &limits(None)).unwrap();
        let a = solve_level(&game, 1, Method::Astar, &limits(None)).unwrap();
        // Pinned: 348 before positions with a stranded crate were cut.
        assert_eq!((s.outcome.len(), s.outcome.nodes), (Some(14), 235));
        // Pinned: with distances through the wall, A* expanded 52; 28 before
        // stranded crates were cut.
        assert_eq!((a.outcome.len(), a.outcome.nodes), (Some(14), 27));
    }

    /// A flower to make bloom (`some Bloom`, an object no level starts
    /// with): the action key next to it. Walking into it crushes it, and
    /// the crown the player wears turns it to rock when it comes near;
    /// the crown falls off next to water.
    const BLOOM: &str = "OBJECTS\n\nBackground\nblack\n\nWall\nbrown\n\nWater\nblue\n\nPlayer\nwhite\n\nCrown\nyellow\n\nFlower\nred\n\nBloom\npink\n\nRock\ngray\n\nLEGEND\n\n. = Background\n# = Wall\nW = Water\nP = Player\nQ = Player and Crown\nF = Flower\nR = Rock\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nCrown\nPlayer, Wall, Water, Flower, Bloom, Rock\n\nRULES\n\n[ action Player | Flower ] -> [ Player | Bloom ]\n[ > Player | Flower ] -> [ Player | Rock ]\nlate [ Crown no Player ] [ Player ] -> [ ] [ Crown Player ]\nlate [ Crown | Flower ] -> [ Crown | Rock ]\nlate [ Crown | Water ] -> [ | Water ]\n\nWINCONDITIONS\n\nsome Bloom\n\nLEVELS\n\n######\n#P..F#\n######\n\n######\n#P..R#\n######\n\n##########\n#.W.Q...F#\n##########\n";

    #[test]
    fn positions_that_cannot_make_a_needed_object_are_dead() {
        let game = compile(BLOOM).unwrap();
        let p = LevelProblem::new(&game, 1).unwrap();
        assert!(!p.is_dead(&p.start().objects));
        // Three steps right crush the flower: nothing can make a bloom.
        let mut s = p.start();
        for _ in 0..3 {
            s = p.apply(&s, Input::Right);
        }
        assert!(p.is_dead(&s.objects) && !s.won);
        let o = solve(&game, 1, &Budget::unlimited()).unwrap();
        assert_eq!(keys_string(o.moves.as_ref().unwrap()), "rrx");
        // No flower at all: dead from the start, proven in one expansion
        // (without the analysis, every walk of the player is expanded).
        let o = solve(&game, 2, &Budget::unlimited()).unwrap();
        assert!(o.proven_unsolvable);
        assert_eq!(o.nodes, 1);
        // With the crown on, the player walks left to drop it in the
        // water first.
        let o = solve(&game, 3, &Budget::unlimited()).unwrap();
        assert_eq!(keys_string(o.moves.as_ref().unwrap()), "lrrrrx");
        let p = LevelProblem::new(&game, 3).unwrap();
        let mut s = p.start();
        for _ in 0..3 {
            s = p.apply(&s, Input::Right);
        }
        assert!(p.is_dead(&s.objects), "the crown turned the flower to rock");
    }

    #[test]
    fn the_estimate_follows_the_rules_that_make_a_missing_object() {
        let game = compile(BLOOM).unwrap();
        let p = LevelProblem::new(&game, 1).unwrap();
        // One turn of the rule that makes a bloom, and the player 3
        // cells from the flower (less the one of the rule's offset).
        assert_eq!(p.estimate(&p.start().objects), 1 + 2);
        // The crown would turn the flower to rock first: its removal
        // (one turn, the water 2 cells from it, less one) counts too.
        let p = LevelProblem::new(&game, 3).unwrap();
        assert_eq!(p.estimate(&p.start().objects), 1 + 3 + 1 + 1);
        let a = solve_level(&game, 3, Method::WeightedAstar, &limits(None)).unwrap();
        assert_eq!(
            (a.outcome.len(), a.outcome.nodes, a.search),
            (Some(6), 6, Some(Method::WeightedAstar))
        );
    }

    #[test]
    fn the_estimate_of_a_game_won_by_a_rule_walks_to_what_the_rule_needs() {
        // No win conditions: the player wins standing on the target above
        // a wall, or touching the gem.
        let rules = "late down [ Player Target | Wall ] -> [ Player Target | Wall ] win\n\
                     [ > Player | Gem ] -> [ > Player | Gem ] win";
        let src = PUSH
            .replace("Wall\nbrown\n\n", "Wall\nbrown\n\nGem\nblue\n\n")
            .replace("O = Target\n", "O = Target\nG = Gem\n")
            .replace("Player, Wall, Crate", "Player, Wall, Crate, Gem")
            .replace("[ > Player | Crate ] -> [ > Player | > Crate ]", rules)
            .replace("all crate on target", "");
        let game = with_level(&src, "#######\n#P...O#\n#######\n");
        let p = LevelProblem::new(&game, 1).unwrap();
        // One turn, and the player 4 cells from the target.
        assert_eq!(p.estimate(&p.start().objects), 1 + 4);
        let right = p.apply(&p.start(), Input::Right);
        assert_eq!(p.estimate(&right.objects), 1 + 3);
        // The gem is nearer: one turn, and the player 2 cells from it,
        // less the rule's offset of one.
        let game = with_level(&src, "#######\n#P..GO#\n#######\n");
        let p = LevelProblem::new(&game, 1).unwrap();
        assert_eq!(p.estimate(&p.start().objects), 1 + 2);
    }
}
