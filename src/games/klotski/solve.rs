//! Klotski's exact solver: breadth-first search over canonical positions,
//! so identical blocks are one (see [`super::board`]). A move is one block
//! to any place it reaches, the game's own count, so the length found is
//! the fewest moves GNOME Klotski can count for the puzzle; a search that
//! runs dry proves the puzzle unsolvable.
//!
//! Every move can be taken back (a block walks back the way it came), so
//! the search is [`crate::solver::layered`]'s: sorted layers of positions
//! packed into keys of a few words ([`super::pack`]), in parallel. A board
//! whose keys would take more than [`MAX_WORDS`] words is searched by the
//! core's hashed search ([`crate::solver::bfs`]) on whole positions.

use std::cell::RefCell;

use super::blockers::Blockers;
use super::board::{Board, Move, Position};
use super::pack::{Packer, MAX_WORDS};
use crate::solver::bfs::{bfs, count_reachable, Reachable};
use crate::solver::layered::{
    layered_astar_saved, layered_bfs_saved, layered_reachable, least, LayeredProblem,
};
use crate::solver::{Budget, Keyed, Outcome, Problem};
use crate::solver::{LayerFileError, LayerFiles};

/// One board as a search problem on whole positions.
#[derive(Debug, Clone, Copy)]
pub struct KlotskiProblem<'a> {
    /// The board.
    pub board: &'a Board,
}

impl Problem for KlotskiProblem<'_> {
    type State = Position;
    type Move = Move;

    fn moves(&self, state: &Position, out: &mut Vec<Move>) {
        self.board.moves(state, out);
    }

    fn apply(&self, state: &Position, mv: Move) -> Position {
        self.board.apply(state, mv)
    }

    fn is_goal(&self, state: &Position) -> bool {
        self.board.is_solved(state)
    }
}

impl Keyed for KlotskiProblem<'_> {
    type Key = Position;

    fn key(&self, state: &Position) -> Position {
        state.clone()
    }
}

/// One board as a search problem on keys of `N` words.
pub struct PackedProblem<'a, const N: usize> {
    board: &'a Board,
    packer: Packer,
    /// The bound of [`crate::solver::layered_astar`], when it searches.
    blockers: Option<Blockers>,
}

/// A thread's buffers for expanding a packed position: its anchors, a
/// child's, and the moves.
type Buffers = (Vec<u16>, Vec<u16>, Vec<Move>);

thread_local! {
    static BUFFERS: RefCell<Buffers> = RefCell::new(Default::default());
}

impl<const N: usize> PackedProblem<'_, N> {
    /// Calls `each(move, child key, anchors, child's anchors)` for every
    /// move of the position in `key`.
    fn each_child(&self, key: &[u64; N], mut each: impl FnMut(Move, [u64; N], &[u16], &[u16])) {
        BUFFERS.with(|b| {
            let (anchors, child, moves) = &mut *b.borrow_mut();
            anchors.resize(self.board.blocks(), 0);
            self.packer.unpack(key, anchors);
            moves.clear();
            self.board.moves_of(anchors, moves);
            for &mv in moves.iter() {
                child.clear();
                child.extend_from_slice(anchors);
                self.board.reseat(child, &mut [], mv);
                let mut next = *key;
                let class = self.board.class_of(mv.slot as usize);
                self.packer
                    .repack(&mut next, child, self.board.class_slots(class));
                each(mv, next, anchors, child);
            }
        })
    }
}

impl<const N: usize> LayeredProblem for PackedProblem<'_, N> {
    type Key = [u64; N];
    type Move = Move;

    fn successors(&self, key: &[u64; N], out: &mut Vec<[u64; N]>) {
        self.each_child(key, |_, child, _, _| out.push(child));
    }

    fn is_goal(&self, key: &[u64; N]) -> bool {
        self.board.is_goal_anchor(self.packer.anchor_of(key, 0))
    }

    fn bound(&self, key: &[u64; N]) -> u32 {
        let Some(blockers) = &self.blockers else {
            return 0;
        };
        BUFFERS.with(|b| {
            let anchors = &mut b.borrow_mut().0;
            anchors.resize(self.board.blocks(), 0);
            self.packer.unpack(key, anchors);
            blockers.bound(self.board, anchors)
        })
    }

    /// A child's bound is its parent's with the terms of the moved block's
    /// class changed, unless the target moved.
    fn successors_within(&self, key: &[u64; N], most: u32, out: &mut Vec<[u64; N]>) -> Option<u32> {
        let Some(blockers) = &self.blockers else {
            self.successors(key, out);
            return None;
        };
        let (mut base, mut left_out) = (None, None::<u32>);
        self.each_child(key, |mv, child, anchors, child_anchors| {
            let slot = mv.slot as usize;
            let b = if self.board.is_target(slot) {
                blockers.bound(self.board, child_anchors)
            } else {
                // The moved block's class is re-sorted: its slots' terms
                // are what changed.
                let base = *base.get_or_insert_with(|| blockers.bound(self.board, anchors));
                let slots = self.board.class_slots(self.board.class_of(slot));
                let terms = |a: &[u16]| -> u32 {
                    slots.clone().map(|s| blockers.term(self.board, a, s)).sum()
                };
                base + terms(child_anchors) - terms(anchors)
            };
            if b <= most {
                out.push(child);
            } else {
                left_out = least(left_out, Some(b));
            }
        });
        left_out
    }

    fn move_between(&self, from: &[u64; N], to: &[u64; N]) -> Option<Move> {
        let mut found = None;
        self.each_child(from, |mv, child, _, _| {
            if child == *to && found.is_none() {
                found = Some(mv);
            }
        });
        found
    }
}

/// Runs `$run::<N>` on the packed problem with the smallest key that
/// holds the board's positions, or `$whole` when none does.
macro_rules! by_key_size {
    ($board:expr, $run:ident ($($arg:expr),*), $whole:expr) => {{
        let packer = Packer::new($board);
        match packer.words() {
            1 => $run::<1>($board, packer, $($arg),*),
            2 => $run::<2>($board, packer, $($arg),*),
            3 => $run::<3>($board, packer, $($arg),*),
            4 => $run::<4>($board, packer, $($arg),*),
            5 | 6 => $run::<6>($board, packer, $($arg),*),
            7 | 8 => $run::<8>($board, packer, $($arg),*),
            9..=12 => $run::<12>($board, packer, $($arg),*),
            w if w <= MAX_WORDS => $run::<MAX_WORDS>($board, packer, $($arg),*),
            _ => $whole,
        }
    }};
}

fn solve_packed<const N: usize>(
    board: &Board,
    packer: Packer,
    start: &Position,
    budget: &Budget,
    files: Option<&LayerFiles>,
) -> Result<Outcome<Move>, LayerFileError> {
    let key = packer.pack(start.anchors());
    let problem = PackedProblem::<N> {
        board,
        packer,
        blockers: None,
    };
    layered_bfs_saved(&problem, key, budget, files)
}

fn astar_packed<const N: usize>(
    board: &Board,
    packer: Packer,
    start: &Position,
    budget: &Budget,
    (from, files): (u32, Option<&LayerFiles>),
) -> Result<Outcome<Move>, LayerFileError> {
    let key = packer.pack(start.anchors());
    let blockers = Some(Blockers::new(board));
    let problem = PackedProblem::<N> {
        board,
        packer,
        blockers,
    };
    layered_astar_saved(&problem, key, budget, from, files)
}

fn reachable_packed<const N: usize>(
    board: &Board,
    packer: Packer,
    start: &Position,
    budget: &Budget,
) -> Reachable {
    let key = packer.pack(start.anchors());
    let problem = PackedProblem::<N> {
        board,
        packer,
        blockers: None,
    };
    layered_reachable(&problem, key, budget)
}

/// The fewest moves from `start`, proven, or the proof that there is
/// none, within `budget`.
pub fn solve(board: &Board, start: &Position, budget: &Budget) -> Outcome<Move> {
    match solve_saved(board, start, budget, None) {
        Ok(outcome) => outcome,
        Err(e) => unreachable!("a search without a folder writes no file: {e}"),
    }
}

/// [`solve`] with the search's layers kept in `files`, when given (see
/// [`crate::solver::layered_bfs_saved`]: a stopped search goes on from
/// there when run again). A board too large to pack is searched in memory.
pub fn solve_saved(
    board: &Board,
    start: &Position,
    budget: &Budget,
    files: Option<&LayerFiles>,
) -> Result<Outcome<Move>, LayerFileError> {
    by_key_size!(board, solve_packed(start, budget, files), {
        Ok(bfs(&KlotskiProblem { board }, start, budget))
    })
}

/// [`solve`] by layered walks that keep only positions within a limit of
/// moves by the [`Blockers`] bound, the limit raised until a walk finds a
/// solution ([`crate::solver::layered_astar`]): the same minimum, proven, with fewer
/// positions where the bound cuts (the node count is then the sum of the
/// walks'). The first limit is at least `from` (see [`crate::solver::layered_astar`]).
pub fn solve_astar(board: &Board, start: &Position, budget: &Budget, from: u32) -> Outcome<Move> {
    match solve_astar_saved(board, start, budget, from, None) {
        Ok(outcome) => outcome,
        Err(e) => unreachable!("a search without a folder reads no file: {e}"),
    }
}

/// [`solve_astar`] whose walks start from the whole layers a
/// [`solve_saved`] search left in `files` (read, never written; see
/// [`crate::solver::layered_astar_saved`]).
pub fn solve_astar_saved(
    board: &Board,
    start: &Position,
    budget: &Budget,
    from: u32,
    files: Option<&LayerFiles>,
) -> Result<Outcome<Move>, LayerFileError> {
    by_key_size!(board, astar_packed(start, budget, (from, files)), {
        Ok(bfs(&KlotskiProblem { board }, start, budget))
    })
}

/// The positions reachable from `start`: how many, how many solved, the
/// farthest distance.
pub fn reachable(board: &Board, start: &Position, budget: &Budget) -> Reachable {
    by_key_size!(board, reachable_packed(start, budget), {
        count_reachable(&KlotskiProblem { board }, start, budget)
    })
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet, VecDeque};

    use super::*;
    use crate::games::klotski::board::{BlockSpec, Floor};
    use crate::games::klotski::parse::parse_puzzles;
    use crate::solver::problem::wins;
    use crate::solver::testing::Rng;

    /// The plain search the solver is checked against: positions are
    /// whole maps with every block's letter (no identical blocks merged),
    /// a block moves by single-cell steps as GNOME Klotski's rules say,
    /// and one move is one block however far. Returns the fewest moves.
    fn plain_bfs(width: usize, map: &[char], floor: &[Floor]) -> Option<u32> {
        let solved = |m: &[char]| (0..m.len()).all(|c| m[c] != '*' || floor[c] == Floor::Goal);
        let mut dist: HashMap<Vec<char>, u32> = HashMap::new();
        let mut queue = VecDeque::from([map.to_vec()]);
        dist.insert(map.to_vec(), 0);
        while let Some(m) = queue.pop_front() {
            let d = dist[&m];
            if solved(&m) {
                return Some(d);
            }
            let mut letters: Vec<char> = m
                .iter()
                .copied()
                .filter(|&c| Floor::of_symbol(c).is_none())
                .collect();
            letters.sort_unstable();
            letters.dedup();
            for l in letters {
                // Every map the block `l` reaches by single steps.
                let mut inner = VecDeque::from([m.clone()]);
                let mut seen = HashSet::from([m.clone()]);
                while let Some(g) = inner.pop_front() {
                    for (dx, dy) in [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)] {
                        if let Some(n) = step(width, &g, floor, l, dx, dy) {
                            if seen.insert(n.clone()) {
                                inner.push_back(n.clone());
                                if !dist.contains_key(&n) {
                                    dist.insert(n.clone(), d + 1);
                                    queue.push_back(n);
                                }
                            }
                        }
                    }
                }
            }
        }
        None
    }

    /// The map after block `l` steps by `(dx, dy)`, if it may.
    fn step(
        width: usize,
        g: &[char],
        floor: &[Floor],
        l: char,
        dx: i64,
        dy: i64,
    ) -> Option<Vec<char>> {
        let height = g.len() / width;
        let mut n: Vec<char> = g
            .iter()
            .enumerate()
            .map(|(c, &x)| if x == l { floor[c].symbol() } else { x })
            .collect();
        for c in (0..g.len()).filter(|&c| g[c] == l) {
            let (x, y) = ((c % width) as i64 + dx, (c / width) as i64 + dy);
            if x < 0 || y < 0 || x >= width as i64 || y >= height as i64 {
                return None;
            }
            let t = y as usize * width + x as usize;
            let free = match floor[t] {
                Floor::Wall => false,
                Floor::Exit => l == '*',
                _ => true,
            };
            if !free || (g[t] != l && Floor::of_symbol(g[t]).is_none()) {
                return None;
            }
            n[t] = l;
        }
        Some(n)
    }

    const SHAPES: [&[(usize, usize)]; 6] = [
        &[(0, 0)],
        &[(0, 0), (1, 0)],
        &[(0, 0), (0, 1)],
        &[(0, 0), (1, 0), (0, 1), (1, 1)],
        &[(0, 0), (0, 1), (1, 1)],
        &[(0, 0)],
    ];

    /// A random small board: walls, a goal the target fits, maybe an exit
    /// cell, and up to five blocks besides the target, of a few shapes (many
    /// identical).
    fn random_board(rng: &mut Rng) -> (usize, Vec<char>, Vec<Floor>, Vec<BlockSpec>) {
        let (w, h) = (3 + rng.below(2) as usize, 3 + rng.below(3) as usize);
        let mut floor: Vec<Floor> = (0..w * h)
            .map(|_| {
                if rng.below(10) == 0 {
                    Floor::Wall
                } else {
                    Floor::Open
                }
            })
            .collect();
        let tshape = SHAPES[rng.below(4) as usize];
        let (gx, gy) = (
            rng.below(w as u64 - 1) as usize,
            rng.below(h as u64 - 1) as usize,
        );
        for &(dx, dy) in tshape {
            floor[(gy + dy) * w + gx + dx] = Floor::Goal;
        }
        if rng.below(2) == 0 {
            let c = rng.below((w * h) as u64) as usize;
            if floor[c] == Floor::Open {
                floor[c] = Floor::Exit;
            }
        }
        let mut map: Vec<char> = floor.iter().map(|f| f.symbol()).collect();
        let mut blocks = Vec::new();
        for (i, name) in ['*', 'a', 'b', 'c', 'd', 'e'].into_iter().enumerate() {
            let shape = if i == 0 {
                tshape
            } else {
                SHAPES[rng.below(SHAPES.len() as u64) as usize]
            };
            for _try in 0..20 {
                let (x, y) = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
                let cells: Vec<(usize, usize)> =
                    shape.iter().map(|&(dx, dy)| (x + dx, y + dy)).collect();
                let ok = cells.iter().all(|&(u, v)| {
                    u < w
                        && v < h
                        && map[v * w + u] == ' '
                        && !(i == 0 && floor[v * w + u] == Floor::Goal)
                });
                if ok {
                    for &(u, v) in &cells {
                        map[v * w + u] = name;
                    }
                    blocks.push(BlockSpec { name, cells });
                    break;
                }
            }
            if i == 0 && blocks.is_empty() {
                break;
            }
        }
        (w, map, floor, blocks)
    }

    /// Packed keys tell apart exactly the positions that differ, anchors
    /// straddling a word boundary included.
    #[test]
    fn the_solver_agrees_with_a_plain_search_on_random_boards() {
        let mut rng = Rng::new(28);
        let (mut solved, mut unsolvable, mut merged) = (0, 0, 0);
        for i in 0..300 {
            let (w, map, floor, blocks) = random_board(&mut rng);
            let Ok((board, start)) = Board::new(w, map.len() / w, floor.clone(), &blocks) else {
                continue;
            };
            merged += (board.classes() < board.blocks()) as usize;
            let o = solve(&board, &start, &Budget::unlimited());
            let expected = plain_bfs(w, &map, &floor);
            assert_eq!(
                o.len().map(|l| l as u32),
                expected,
                "board {i}: {}",
                board.to_text(&start)
            );
            let from = rng.below(8) as u32;
            let a = solve_astar(&board, &start, &Budget::unlimited(), from);
            assert_eq!(a.len(), o.len(), "board {i}: A* from {from}");
            assert_eq!(a.proven_unsolvable, o.proven_unsolvable, "board {i}");
            assert_eq!(a.proven_optimal, o.proven_optimal, "board {i}");
            let p = KlotskiProblem { board: &board };
            if let Some(m) = &o.moves {
                bound_is_consistent_along(&board, &start, m, i);
            }
            match &o.moves {
                Some(m) => {
                    solved += 1;
                    assert!(o.proven_optimal && wins(&p, &start, m), "board {i}");
                    let mut pos = start.clone();
                    for &mv in m {
                        let path = board.path(&pos, mv).unwrap();
                        for pair in path.windows(2) {
                            let ((x0, y0), (x1, y1)) = (board.xy(pair[0]), board.xy(pair[1]));
                            assert_eq!(x0.abs_diff(x1) + y0.abs_diff(y1), 1, "board {i}");
                        }
                        pos = board.apply(&pos, mv);
                    }
                }
                None => {
                    unsolvable += 1;
                    assert!(o.proven_unsolvable, "board {i}");
                }
            }
        }
        assert!(
            solved > 100 && unsolvable > 5 && merged > 50,
            "{solved} {unsolvable} {merged}"
        );
    }

    /// The blockers' bound never exceeds the moves left on a shortest
    /// solution, and no move (of the path, or from any position on it)
    /// lowers it by more than one.
    fn bound_is_consistent_along(board: &Board, start: &Position, moves: &[Move], i: usize) {
        let blockers = Blockers::new(board);
        let mut pos = start.clone();
        let mut children = Vec::new();
        for (done, &mv) in moves.iter().enumerate() {
            let b = blockers.bound(board, pos.anchors());
            assert!(
                b as usize <= moves.len() - done,
                "board {i}: bound {b} at move {done}"
            );
            children.clear();
            board.moves(&pos, &mut children);
            for &c in &children {
                let child = board.apply(&pos, c);
                assert!(b <= blockers.bound(board, child.anchors()) + 1, "board {i}");
            }
            pos = board.apply(&pos, mv);
        }
        assert_eq!(blockers.bound(board, pos.anchors()), 0, "board {i}");
    }

    #[test]
    fn the_games_quick_puzzles_have_their_pinned_minima() {
        // The old game's minima (Only 18 Steps 18, Daisy 28, Violet 27,
        // Poppy 40) and gridbot's proven ones, from the puzzles file; the
        // puzzles below 60,000 positions expanded (every position closer
        // than the minimum: the layered search completes the goal's layer).
        let quick = [
            ("Only 18 Steps", 18, 1019),
            ("Daisy", 28, 16022),
            ("Violet", 27, 22614),
            ("Poppy", 40, 58933),
            ("Pansy", 28, 20151),
            ("Red Donkey", 81, 23792),
            ("Trail", 102, 29153),
            ("Agatka", 30, 2732),
            ("Bone", 14, 6276),
            ("Cleopatra", 31, 2773),
            ("Pennant Puzzle", 59, 1114),
        ];
        let all = parse_puzzles(include_str!("../../../fixtures/klotski/puzzles.txt")).unwrap();
        for (name, moves, nodes) in quick {
            let p = all.iter().find(|p| p.name == name).unwrap();
            assert_eq!(p.moves, Some(moves), "{name}: the file");
            let o = solve(&p.board, &p.start, &Budget::unlimited());
            assert!(o.proven_optimal, "{name}");
            assert_eq!((o.len(), o.nodes), (Some(moves as usize), nodes), "{name}");
            assert!(wins(
                &KlotskiProblem { board: &p.board },
                &p.start,
                o.moves.as_ref().unwrap()
            ));
        }
    }

    #[test]
    fn identical_blocks_make_one_position() {
        let p = &parse_puzzles("|*ab|\n|.  |\n").unwrap()[0];
        let moved = parse_puzzles("|*ba|\n|.  |\n").unwrap();
        assert_eq!(moved[0].start, p.start);
        // Either square sliding down, or right, or the target down.
        let r = reachable(&p.board, &p.start, &Budget::unlimited());
        assert!(r.exhausted);
        let o = solve(&p.board, &p.start, &Budget::unlimited());
        assert_eq!(o.len(), Some(1));
    }

    #[test]
    fn a_move_goes_round_corners_and_the_exit_lets_only_the_target_through() {
        // The target walks down, right and down again in one move.
        let p = &parse_puzzles("|#*##|\n|#  #|\n|## #|\n|##.#|\n").unwrap()[0];
        let o = solve(&p.board, &p.start, &Budget::unlimited());
        assert_eq!(o.len(), Some(1));
        let path = p
            .board
            .path(&p.start, o.moves.as_ref().unwrap()[0])
            .unwrap();
        assert_eq!(path.len(), 5);
        // A block may not cross the exit to free the way.
        let q = &parse_puzzles("|*a-|\n|##.|\n").unwrap()[0];
        let o = solve(&q.board, &q.start, &Budget::unlimited());
        assert!(o.proven_unsolvable);
    }
}
