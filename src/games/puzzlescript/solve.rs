//! A level as a search problem on the solver core: a state is the level's
//! objects (packed bits per cell), a move is one key (up, down, left,
//! right, action), a turn includes the `again` turns it starts, and the
//! goal is a turn that wins. Breadth-first search with exact duplicate
//! detection finds a shortest key sequence; it is called shortest only
//! when the game has no randomness.

use std::cell::RefCell;

use super::compile::{Game, Level};
use super::engine::{Engine, Input};
use crate::solver::{bfs::bfs, Budget, Keyed, Outcome, Problem};

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

/// A state: the objects, and whether the turn that made it won.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// Object words of every cell.
    pub objects: Box<[u64]>,
    /// The turn that led here won the level.
    pub won: bool,
}

/// One level of a game, ready to search.
pub struct LevelProblem<'g> {
    start: Engine<'g>,
    /// The engine each move is played on, reset to `start` first: its
    /// buffers are reused instead of cloning an engine per move.
    scratch: RefCell<Engine<'g>>,
    inputs: Vec<Input>,
}

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
        let mut start = Engine::new(game, index, "gridbot").ok_or(SolveError::NoLevel {
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
        if !game.flag("noaction") {
            inputs.push(Input::Action);
        }
        let scratch = RefCell::new(start.clone());
        Ok(LevelProblem {
            start,
            scratch,
            inputs,
        })
    }

    /// The starting state.
    pub fn start(&self) -> State {
        State {
            objects: self.start.board.objects.clone().into_boxed_slice(),
            won: false,
        }
    }

    /// Plays `keys` from the start; true if the last key wins.
    pub fn wins(&self, keys: &[Input]) -> bool {
        let mut s = self.start();
        for &k in keys {
            s = self.apply(&s, k);
        }
        s.won
    }
}

impl Problem for LevelProblem<'_> {
    type State = State;
    type Move = Input;

    fn moves(&self, state: &State, out: &mut Vec<Input>) {
        if !state.won {
            out.extend_from_slice(&self.inputs);
        }
    }

    fn apply(&self, state: &State, mv: Input) -> State {
        let mut e = self.scratch.borrow_mut();
        e.reset_from(&self.start);
        e.set_objects(&state.objects);
        e.turn_with_again(Some(mv));
        State {
            objects: e.board.objects.clone().into_boxed_slice(),
            won: e.wins > 0,
        }
    }

    fn is_goal(&self, state: &State) -> bool {
        state.won
    }
}

impl Keyed for LevelProblem<'_> {
    type Key = State;

    fn key(&self, state: &State) -> State {
        state.clone()
    }
}

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

/// The keys as one string over `udlrx`.
pub fn keys_string(keys: &[Input]) -> String {
    keys.iter().map(|k| k.letter()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::puzzlescript::compile::compile;

    const PUSH: &str = "OBJECTS\n\nBackground\nblack\n\nTarget\nyellow\n\nPlayer\nwhite\n\nCrate\norange\n\nWall\nbrown\n\nLEGEND\n\n. = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nTarget\nPlayer, Wall, Crate\n\nRULES\n\n[ > Player | Crate ] -> [ > Player | > Crate ]\n\nWINCONDITIONS\n\nall crate on target\n\nLEVELS\n\nmessage start\n\n######\n#P*.O#\n######\n\n#####\n#.O.#\n#.*.#\n#.P.#\n#####\n\n#####\n#..O#\n#P*.#\n#####\n";

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
}
