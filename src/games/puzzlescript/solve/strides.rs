//! Strides: a level for best-first width search where a move is a walk
//! and one key, as Sokoban solvers search pushes rather than steps.
//! Expanding a position finds every position the player reaches by
//! *walking* (turns that change nothing but the player objects' cells
//! and do not win), breadth first from it; a stride is one of those
//! walks followed by a key whose turn does more (moves or changes
//! another object, or wins).
//!
//! The estimate does not change while the player walks, so on the plain
//! level width search spends most of its nodes on plateaus of player
//! positions; here a node is a position after something happened. Every
//! position of the plain level is still reached (as a walk of a stride's
//! start or as a stride's end), so a search that runs dry proves the
//! level unwinnable, unless positions were merged by the region they
//! walk ([`Strides::expand`]). A stride costs one however long its walk,
//! so nothing found here is shortest, and weighted A* (which counts
//! keys) stays on the plain level; [`Strides::keys`] turns a solution
//! back into keys. Games with randomness are searched key by key (no
//! walks): a turn there also draws numbers.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::{Duration, Instant};

use rustc_hash::FxHashSet;

use super::super::engine::Input;
use super::{Informed, LevelProblem, State};
use crate::solver::{AstarProblem, AtomProblem, Keyed, Outcome, Problem};

/// The most turns one expansion plays; the walks it did not expand
/// are strides of their own (as on the plain level).
const WALK_TURNS: usize = 2048;

/// The most time one expansion takes in the search (a game whose turns
/// are slow would otherwise hold the search past its time limit), with
/// the walks not expanded by then strides of their own.
const WALK_TIME: Duration = Duration::from_millis(20);

/// One move: walk to the expanded position's walk number `walk` (0: stay),
/// then press `key`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stride {
    /// The walk's number among the expanded position's walks.
    pub walk: u16,
    /// The key pressed at the walk's end.
    pub key: Input,
}

/// The walks and strides of the position last expanded.
#[derive(Default)]
struct Expansion {
    /// The objects of the position expanded.
    origin: Option<Rc<[u64]>>,
    /// Positions reached by walking, the first the origin: objects, the
    /// walk before and the key from it.
    walks: Vec<(Rc<[u64]>, u16, Input)>,
    /// The strides and the positions they lead to.
    strides: Vec<(Stride, State)>,
    /// Every walk was expanded (none left for a deadline or the turns).
    complete: bool,
}

/// A level searched stride by stride, with the estimate of [`Informed`].
pub struct Strides<'a, 'g> {
    informed: Informed<'a, 'g>,
    /// The player objects, a mask of a cell's object words.
    player: Vec<u64>,
    /// Whether moves walk (false in games with randomness).
    walking: bool,
    last: RefCell<Expansion>,
    /// The least position (by its object words) of every complete walk
    /// expanded: a position whose walks reach one of them again is not
    /// expanded twice (see [`Strides::expand`]).
    regions: RefCell<FxHashSet<Rc<[u64]>>>,
    /// Some position was left unexpanded for that.
    merged: Cell<bool>,
}

impl<'a, 'g> Strides<'a, 'g> {
    /// Strides on `level`.
    pub fn new(level: &'a LevelProblem<'g>) -> Self {
        let words = level.start.board.ow.max(1);
        let mut player = level.start.game().player.1.to_vec();
        player.resize(words, 0);
        Strides {
            informed: Informed(level),
            player,
            walking: !level.random,
            last: RefCell::new(Expansion::default()),
            regions: RefCell::new(FxHashSet::default()),
            merged: Cell::new(false),
        }
    }

    fn level(&self) -> &'a LevelProblem<'g> {
        self.informed.0
    }

    /// True when `after` differs from `before` only in player objects.
    fn walked(&self, before: &[u64], after: &[u64]) -> bool {
        let m = &self.player;
        before
            .iter()
            .zip(after)
            .zip(m.iter().cycle())
            .all(|((&b, &a), &p)| (b ^ a) & !p == 0)
    }

    /// Expands `state` into `self.last` unless it holds it already. A
    /// position whose walks are complete and whose least walk is the
    /// least walk of a position expanded before gets no strides: where
    /// walking is reversible both walked the same region and have the
    /// same strides (two orders of the same pushes, say). Where it is
    /// not, its strides may be lost, so a search that ran dry after
    /// such a merge no longer proves anything ([`Strides::in_keys`]).
    fn expand(&self, state: &State) {
        let mut last = self.last.borrow_mut();
        if last.origin.as_ref() == Some(&state.objects) {
            return;
        }
        *last = self.expansion(state, Some(Instant::now() + WALK_TIME));
        if !last.complete || last.walks.len() < 2 {
            return;
        }
        let least = last.walks.iter().map(|w| &w.0).min().cloned();
        if let Some(least) = least {
            if !self.regions.borrow_mut().insert(least) {
                last.strides.clear();
                self.merged.set(true);
            }
        }
    }

    /// The walks breadth first from `state` and the strides from each,
    /// until [`WALK_TURNS`] turns were played or `deadline` passed.
    /// Walks are numbered in the order they are found, so an expansion
    /// stopped earlier numbers its walks as one stopped later does.
    fn expansion(&self, state: &State, deadline: Option<Instant>) -> Expansion {
        let mut x = Expansion {
            origin: Some(state.objects.clone()),
            walks: vec![(state.objects.clone(), 0, Input::Up)],
            strides: Vec::new(),
            complete: true,
        };
        if state.won || self.level().is_dead(&state.objects) {
            return x;
        }
        let level = self.level();
        let mut seen: FxHashSet<Rc<[u64]>> = FxHashSet::default();
        let mut ends: FxHashSet<State> = FxHashSet::default();
        seen.insert(state.objects.clone());
        let mut i = 0;
        let mut turns = 0;
        while i < x.walks.len() {
            let late = deadline.is_some_and(|d| Instant::now() > d);
            if turns >= WALK_TURNS || late {
                break;
            }
            let here = self.at(state, &x.walks[i].0);
            for &key in &level.inputs {
                let next = level.apply(&here, key);
                turns += 1;
                if next == here {
                    continue;
                }
                if !next.won && self.walking && self.walked(&here.objects, &next.objects) {
                    if seen.insert(next.objects.clone()) {
                        x.walks.push((next.objects, i as u16, key));
                    }
                } else if ends.insert(next.clone()) {
                    let walk = i as u16;
                    x.strides.push((Stride { walk, key }, next));
                }
            }
            i += 1;
        }
        x.complete = i == x.walks.len();
        // The walks found but not expanded: a stride to each.
        for (objects, walk, key) in &x.walks[i.max(1)..] {
            let (walk, key) = (*walk, *key);
            x.strides
                .push((Stride { walk, key }, self.at(state, objects)));
        }
        x
    }

    /// The position `state` walked to `objects` (its random numbers).
    fn at(&self, state: &State, objects: &Rc<[u64]>) -> State {
        State {
            objects: objects.clone(),
            won: false,
            rng: state.rng.clone(),
        }
    }

    /// The state after stride `s` from `state`, and its keys appended to
    /// `keys`: the walk found again (with no deadline: an expansion
    /// numbers its walks as any earlier one did), then the key.
    fn replay(&self, state: &State, s: Stride, keys: &mut Vec<Input>) -> State {
        let x = self.expansion(state, None);
        let mut walk = Vec::new();
        let mut w = s.walk as usize;
        while w != 0 {
            let (_, before, key) = x.walks[w];
            walk.push(key);
            w = before as usize;
        }
        keys.extend(walk.iter().rev());
        keys.push(s.key);
        let here = self.at(state, &x.walks[s.walk as usize].0);
        self.level().apply(&here, s.key)
    }

    /// The keys of `strides` played from `start`: each stride's walk, then
    /// its key.
    pub fn keys(&self, start: &State, strides: &[Stride]) -> Vec<Input> {
        let mut keys = Vec::new();
        let mut state = start.clone();
        for &s in strides {
            state = self.replay(&state, s, &mut keys);
        }
        keys
    }

    /// `o` with its strides turned into keys from `start`.
    pub fn in_keys(&self, start: &State, o: Outcome<Stride>) -> Outcome<Input> {
        Outcome {
            moves: o.moves.as_ref().map(|m| self.keys(start, m)),
            lower_bound: o.lower_bound,
            proven_optimal: o.proven_optimal,
            proven_unsolvable: o.proven_unsolvable && !self.merged.get(),
            nodes: o.nodes,
            elapsed: o.elapsed,
            stopped: o.stopped,
        }
    }
}

impl Problem for Strides<'_, '_> {
    type State = State;
    type Move = Stride;

    fn moves(&self, state: &State, out: &mut Vec<Stride>) {
        self.expand(state);
        out.extend(self.last.borrow().strides.iter().map(|s| s.0));
    }

    fn apply(&self, state: &State, mv: Stride) -> State {
        self.expand(state);
        let last = self.last.borrow();
        match last.strides.iter().find(|s| s.0 == mv) {
            Some((_, next)) => next.clone(),
            None => self.replay(state, mv, &mut Vec::new()),
        }
    }

    fn is_goal(&self, state: &State) -> bool {
        state.won
    }

    fn lower_bound(&self, state: &State) -> u32 {
        self.informed.lower_bound(state)
    }
}

impl Keyed for Strides<'_, '_> {
    type Key = State;

    fn key(&self, state: &State) -> State {
        self.level().key_of(state)
    }
}

impl AstarProblem for Strides<'_, '_> {}

impl AtomProblem for Strides<'_, '_> {
    fn atoms(&self, state: &State, out: &mut Vec<u64>) {
        self.informed.atoms(state, out);
    }

    fn pair_atoms(&self, state: &State, out: &mut Vec<u32>) {
        self.informed.pair_atoms(state, out);
    }

    fn partition(&self, state: &State, h: u32) -> u64 {
        self.informed.partition(state, h)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{push_level, with_level, PUSH};
    use super::*;
    use crate::games::puzzlescript::compile::compile;
    use crate::solver::{bfws, weighted_astar, Budget};

    /// Level 1 of PUSH is a corridor: the player can only push right, and
    /// the search's two strides replay as two keys.
    #[test]
    fn a_corridor_is_one_stride_a_push() {
        let game = compile(PUSH).unwrap();
        let p = LevelProblem::new(&game, 1).unwrap();
        let strides = Strides::new(&p);
        let mut moves = Vec::new();
        strides.moves(&p.start(), &mut moves);
        let right = Stride {
            walk: 0,
            key: Input::Right,
        };
        assert_eq!(moves, vec![right]);
        let o = weighted_astar(&strides, &p.start(), &Budget::unlimited(), 3);
        assert_eq!(o.moves, Some(vec![right, right]));
        let keys = strides.keys(&p.start(), o.moves.as_ref().unwrap());
        assert_eq!(keys, vec![Input::Right, Input::Right]);
    }

    /// A crate in a room, the player on its side away from the target.
    const AROUND: &str = "#######\n#O*..P#\n#.....#\n#######\n";

    /// The player walks up to the crate (or around it) before it pushes:
    /// two strides, each ending with the crate moved, and the winning one
    /// replays as the walk and the push.
    #[test]
    fn walks_are_inside_strides_and_replay() {
        let game = push_level(AROUND);
        let p = LevelProblem::new(&game, 1).unwrap();
        let strides = Strides::new(&p);
        let start = p.start();
        let mut moves = Vec::new();
        strides.moves(&start, &mut moves);
        assert_eq!(moves.len(), 2, "{moves:?}");
        for &m in &moves {
            let end = strides.apply(&start, m);
            assert!(!strides.walked(&start.objects, &end.objects));
        }
        let o = bfws(&strides, &start, &Budget::unlimited());
        assert_eq!(o.moves.as_ref().map(Vec::len), Some(1));
        let keys = strides.keys(&start, o.moves.as_ref().unwrap());
        assert_eq!(keys, vec![Input::Left, Input::Left, Input::Left]);
        assert!(p.wins(&keys));
    }

    /// A search that runs dry on strides still proves the level
    /// unwinnable (PUSH level 3: the crate only goes into a corner).
    #[test]
    fn running_dry_proves_unwinnable() {
        let game = compile(PUSH).unwrap();
        let p = LevelProblem::new(&game, 3).unwrap();
        let o = weighted_astar(&Strides::new(&p), &p.start(), &Budget::unlimited(), 3);
        assert!(o.proven_unsolvable);
    }

    /// Three crates for two targets: no win, but no crate is stranded.
    /// Crates pushed in either order end in the same region, the second
    /// is not expanded, so running dry proves nothing any more (breadth
    /// first on the plain level does).
    #[test]
    fn pushes_in_either_order_merge() {
        let game = push_level("#######\n#.....#\n#.*.*.#\n#.*...#\n#..O..#\n#.O.P.#\n#######\n");
        let p = LevelProblem::new(&game, 1).unwrap();
        let strides = Strides::new(&p);
        let o = weighted_astar(&strides, &p.start(), &Budget::unlimited(), 3);
        assert!(o.moves.is_none() && o.stopped.is_none());
        assert!(strides.merged.get());
        assert!(!strides.in_keys(&p.start(), o).proven_unsolvable);
        assert!(crate::solver::bfs::bfs(&p, &p.start(), &Budget::unlimited()).proven_unsolvable);
    }

    /// In a game with randomness a turn that moves nothing still draws
    /// numbers: a robot walled in draws a direction every turn, so a key
    /// that the walls block leads to a new position, with the same objects
    /// and other numbers to come, and it is a stride.
    #[test]
    fn a_turn_that_only_draws_is_a_stride() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/puzzlescript/random.txt"
        );
        let src = std::fs::read_to_string(path).unwrap();
        let game = with_level(&src, "#####\n#P.O#\n#####\n##R##\n#####\n");
        let p = LevelProblem::new(&game, 1).unwrap();
        let s = Strides::new(&p);
        let start = p.start();
        let mut moves = Vec::new();
        s.moves(&start, &mut moves);
        let up = Stride {
            walk: 0,
            key: Input::Up,
        };
        assert!(moves.contains(&up), "{moves:?}");
        let end = s.apply(&start, up);
        assert_eq!(end.objects, start.objects);
        assert_ne!(end.rng, start.rng);
    }

    /// Walking changes only player objects; a push changes a crate.
    #[test]
    fn walked_ignores_only_player_objects() {
        let game = compile(PUSH).unwrap();
        let p = LevelProblem::new(&game, 2).unwrap();
        let s = Strides::new(&p);
        let start = p.start();
        let up = p.apply(&start, Input::Up);
        assert!(!s.walked(&start.objects, &up.objects));
        let left = p.apply(&start, Input::Left);
        assert!(s.walked(&start.objects, &left.objects));
    }
}
