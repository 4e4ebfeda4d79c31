//! Searches specialised to Rush Hour's packed positions: an exact
//! layered breadth-first search (fewest moves, then fewest steps; in
//! [`super::exact`]), the seed's greedy best-first search with the
//! blocking-cars score, and A* with the admissible blocker count.
//!
//! The best-first searches keep states in an arena (packed `u64` positions
//! in discovery order with their parents) and find duplicates with a
//! [`PosTable`].
//!
//! Guarantees: [`bfs`] proves the fewest moves and, among solutions of
//! that length, the fewest steps, or proves the board unsolvable after
//! exhausting every reachable position. [`astar`] proves the fewest moves
//! (its bound is consistent) but not the fewest steps. [`greedy`] proves
//! nothing about length; it finds a solution when one exists (it explores
//! the whole cluster before giving up) and proves unsolvability the same
//! way.

use std::cell::RefCell;
use std::time::Instant;

use super::board::{Board, Move, Position};
use super::table::PosTable;
use crate::solver::{BucketQueue, Budget, Outcome};

/// How often (in expansions) the searches check their budget.
const CHECK_EVERY: u64 = 4096;

/// The hash of a packed position (its high bits are well mixed).
#[inline]
pub fn hash(key: u64) -> u64 {
    let h = (key ^ (key >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^ (h >> 29)
}

/// Total steps (cells travelled) of `moves`.
pub fn steps(moves: &[Move]) -> u32 {
    moves.iter().map(|m| m.steps()).sum()
}

/// The arena of states a search discovered; one per thread, reused by
/// the next search (its memory stays allocated).
struct Arena {
    keys: Vec<u64>,
    parent: Vec<u32>,
    mv: Vec<Move>,
    table: PosTable,
}

const NO_MOVE: Move = Move { piece: 0, delta: 0 };

thread_local! {
    static ARENA: RefCell<Arena> = RefCell::new(Arena {
        keys: Vec::new(),
        parent: Vec::new(),
        mv: Vec::new(),
        table: PosTable::new(),
    });
}

/// Runs `f` with this thread's arena, emptied and holding `start`.
fn with_arena<R>(start: Position, f: impl FnOnce(&mut Arena) -> R) -> R {
    ARENA.with(|a| {
        let mut a = a.borrow_mut();
        a.keys.clear();
        a.parent.clear();
        a.mv.clear();
        a.table.clear();
        a.add(start.0, u32::MAX, NO_MOVE)
            .expect_err("an empty table");
        f(&mut a)
    })
}

impl Arena {
    fn bytes(&self) -> usize {
        self.keys.capacity() * 14 + self.table.bytes()
    }

    /// The index of `key`, or `Err(new index)` after adding it.
    #[inline]
    fn add(&mut self, key: u64, parent: u32, mv: Move) -> Result<u32, u32> {
        let idx = self.keys.len() as u32;
        let r = self.table.get_or_insert(key, idx);
        if r.is_err() {
            self.keys.push(key);
            self.parent.push(parent);
            self.mv.push(mv);
        }
        r
    }

    fn path(&self, mut i: u32) -> Vec<Move> {
        let mut moves = Vec::new();
        while self.parent[i as usize] != u32::MAX {
            moves.push(self.mv[i as usize]);
            i = self.parent[i as usize];
        }
        moves.reverse();
        moves
    }
}

/// Exact breadth-first search: the fewest moves, and among those the
/// fewest steps; proves the board unsolvable when it exhausts the
/// positions reachable from `start` (`nodes` is then their number). See
/// [`super::exact`].
pub fn bfs(board: &Board, start: Position, budget: &Budget) -> Outcome<Move> {
    super::exact::bfs(board, start, budget)
}

/// What a best-first search orders its frontier by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    /// The blocking-cars score alone (the seed's greedy best-first search).
    Greedy,
    /// Moves so far plus the admissible blocker count (A*).
    Astar,
}

/// The seed's greedy best-first search ordered by the blocking-cars score
/// ([`Board::blocking_score`]): fast, solutions not the shortest (it
/// proves nothing about their length). It explores the whole cluster
/// before declaring a board unsolvable (then proven).
pub fn greedy(board: &Board, start: Position, budget: &Budget) -> Outcome<Move> {
    best_first(board, start, budget, Order::Greedy)
}

/// A* with the admissible, consistent blocker count
/// ([`Board::admissible_bound`]): proves the fewest moves (not the fewest
/// steps among them), or unsolvability.
pub fn astar(board: &Board, start: Position, budget: &Budget) -> Outcome<Move> {
    best_first(board, start, budget, Order::Astar)
}

fn best_first(board: &Board, start: Position, budget: &Budget, order: Order) -> Outcome<Move> {
    let t0 = Instant::now();
    with_arena(start, |arena| {
        best_first_in(board, start, budget, order, arena, t0)
    })
}

fn best_first_in(
    board: &Board,
    start: Position,
    budget: &Budget,
    order: Order,
    arena: &mut Arena,
    t0: Instant,
) -> Outcome<Move> {
    let h = |p: Position| match order {
        Order::Greedy => board.blocking_score(p),
        Order::Astar => board.admissible_bound(p),
    } as usize;
    let mut g: Vec<u32> = vec![0];
    let mut open: BucketQueue<u32> = BucketQueue::new();
    open.push(h(start), 0, 0);
    let mut nodes = 0u64;
    let node_limit = budget.node_limit();
    let mut bound = 0u32;
    while let Some((f, depth, i)) = open.pop() {
        let iu = i as usize;
        if depth as u32 != g[iu] {
            continue; // a stale entry: reached again by a shorter path
        }
        let pos = Position(arena.keys[iu]);
        if order == Order::Astar {
            bound = bound.max(f as u32);
        }
        if board.is_solved(pos) {
            let moves = arena.path(i);
            return match order {
                Order::Astar => Outcome::optimal(moves, nodes, t0.elapsed()),
                Order::Greedy => Outcome {
                    lower_bound: board.admissible_bound(start),
                    moves: Some(moves),
                    proven_optimal: false,
                    proven_unsolvable: false,
                    nodes,
                    elapsed: t0.elapsed(),
                    stopped: None,
                },
            };
        }
        nodes += 1;
        if nodes.is_multiple_of(CHECK_EVERY) || nodes >= node_limit {
            let lb = match order {
                Order::Astar => bound,
                Order::Greedy => board.admissible_bound(start),
            };
            if let Err(why) =
                budget.check_nodes(nodes, arena.bytes() + g.capacity() * 4 + open.len() * 4)
            {
                return Outcome::stopped(None, lb, why, nodes, t0.elapsed());
            }
        }
        let ng = g[iu] + 1;
        board.for_each_move(pos, |mv, next| match arena.add(next.0, i, mv) {
            Err(idx) => {
                g.push(ng);
                let hn = h(next);
                let f = match order {
                    Order::Greedy => hn,
                    Order::Astar => ng as usize + hn,
                };
                open.push(f, ng as usize, idx);
            }
            Ok(j) => {
                let j = j as usize;
                if order == Order::Astar && ng < g[j] {
                    g[j] = ng;
                    arena.parent[j] = i;
                    arena.mv[j] = mv;
                    open.push(ng as usize + h(next), ng as usize, j as u32);
                }
            }
        });
    }
    Outcome::unsolvable(nodes, t0.elapsed())
}

#[cfg(test)]
mod tests {
    use super::super::parse::parse_board;
    use super::*;
    use crate::solver::wins;

    #[test]
    fn solves_a_small_board_exactly() {
        // A must wait for B (vertical, column 3) to move down twice.
        let (b, pos) = parse_board("ooooooooooooAAoBoooooBoooooooooooooo").unwrap();
        let o = bfs(&b, pos, &Budget::unlimited());
        let moves = o.moves.clone().unwrap();
        assert!(o.proven_optimal);
        assert_eq!(moves.len(), 2);
        let p = super::super::problem::RushProblem { board: &b };
        assert!(wins(&p, &pos, &moves));
        // B (rows 2-3) clears row 2 by 2 cells up or 1 down: the fewest
        // steps is B down 1, then A right 4.
        assert_eq!(steps(&moves), 1 + 4);
        let a = astar(&b, pos, &Budget::unlimited());
        assert_eq!(a.len(), Some(2));
        assert!(a.proven_optimal);
        let g = greedy(&b, pos, &Budget::unlimited());
        assert!(wins(&p, &pos, g.moves.as_ref().unwrap()));
        assert!(!g.proven_optimal);
    }

    #[test]
    fn a_horizontal_piece_in_front_makes_it_unsolvable() {
        let (b, pos) = parse_board("ooooooooooooAAoBBooooooooooooooooooo").unwrap();
        for o in [
            bfs(&b, pos, &Budget::unlimited()),
            astar(&b, pos, &Budget::unlimited()),
            greedy(&b, pos, &Budget::unlimited()),
        ] {
            assert!(o.proven_unsolvable, "{o:?}");
            assert!(o.moves.is_none());
        }
        // Every position of the cluster: A in 1 + B in ... A at 0..=1 with B at 3..=4.
        assert_eq!(bfs(&b, pos, &Budget::unlimited()).nodes, 6);
    }

    #[test]
    fn a_node_budget_stops_the_search_honestly() {
        // 15 moves, a cluster of 541934 positions.
        let (b, pos) = parse_board("BBoCoooDoCEEoDAAFGHoIIFGHoJKKoLLJooo").unwrap();
        for o in [
            bfs(&b, pos, &Budget::unlimited().with_node_limit(1000)),
            astar(&b, pos, &Budget::unlimited().with_node_limit(1000)),
        ] {
            assert!(o.stopped.is_some(), "{o:?}");
            assert!(!o.proven_optimal && !o.proven_unsolvable);
            assert!(o.lower_bound <= 15);
        }
    }
}

#[cfg(test)]
mod against_reference {
    use super::super::parse::{parse_board, parse_puzzles};
    use super::super::reference;
    use super::*;
    use crate::solver::wins;

    #[test]
    fn random_small_boards_match_a_plain_search() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let (mut solvable, mut unsolvable) = (0, 0);
        for n in [4usize, 5] {
            for _ in 0..150 {
                let text = reference::random_board(n, &mut seed, 2 * n);
                let (b, pos) = parse_board(&text).unwrap();
                let expected = reference::solve(&text, n);
                let o = bfs(&b, pos, &Budget::unlimited());
                let a = astar(&b, pos, &Budget::unlimited());
                let g = greedy(&b, pos, &Budget::unlimited());
                let p = super::super::problem::RushProblem { board: &b };
                match expected {
                    Some((moves, st)) => {
                        solvable += 1;
                        let m = o.moves.as_ref().expect(&text);
                        assert!(o.proven_optimal);
                        assert_eq!((m.len() as u32, steps(m)), (moves, st), "{text}");
                        assert!(wins(&p, &pos, m), "{text}");
                        assert_eq!(a.len(), Some(moves as usize), "{text}");
                        assert!(wins(&p, &pos, a.moves.as_ref().unwrap()));
                        assert!(g.len().unwrap() >= moves as usize);
                        assert!(wins(&p, &pos, g.moves.as_ref().unwrap()));
                    }
                    None => {
                        unsolvable += 1;
                        assert!(
                            o.proven_unsolvable && a.proven_unsolvable && g.proven_unsolvable,
                            "{text}"
                        );
                    }
                }
            }
        }
        // The sample must exercise both kinds.
        assert!(solvable > 50 && unsolvable > 10, "{solvable} {unsolvable}");
    }

    #[test]
    fn benchmark_sample_solves_to_its_listed_length() {
        let text = include_str!("../../../tests/data/rush-sample.txt");
        let puzzles = parse_puzzles(text).unwrap();
        assert_eq!(puzzles.len(), 20);
        for p in &puzzles {
            let o = bfs(&p.board, p.start, &Budget::unlimited());
            assert_eq!(o.len().map(|l| l as u32), p.moves, "line {}", p.line);
            let prob = super::super::problem::RushProblem { board: &p.board };
            assert!(wins(&prob, &p.start, o.moves.as_ref().unwrap()));
        }
    }
}
