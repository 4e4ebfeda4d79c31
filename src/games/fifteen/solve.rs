//! Solving a board: the parity test first, then the strategy for its size.
//!
//! - At most 16 cells: IDA* (the search core's) with pattern databases on
//!   4x4 when given, else Manhattan distance plus linear conflicts. A
//!   finished search is a proven shortest solution.
//! - Larger boards (anytime): first a solution built by placing tiles a
//!   few at a time, each stage a short IDA* towards a subgoal ("these tiles
//!   home"), top row or left column first, whichever side is longer, until
//!   a 3x3 corner is left, which is solved exactly; loops are cut from the
//!   path. Then IDA* on the whole board within what is left of the budget:
//!   either it proves an optimal solution or its last finished threshold is
//!   a proven lower bound. `optimal=unproven` unless proven.

use std::time::{Duration, Instant};

use super::pdb::PatternDb;
use super::problem::{BoundKind, Slide, MAX_CELLS};
use super::rules::{Board, Dir, Unsolvable};
use crate::solver::idastar::idastar;
use crate::solver::{Budget, BudgetExceeded, Outcome, Problem};

/// How to solve.
#[derive(Debug, Clone, Copy, Default)]
pub struct SolveOptions<'a> {
    /// Pattern databases for 4x4 boards (None: Manhattan plus linear
    /// conflicts).
    pub pdb: Option<&'a PatternDb>,
    /// Wall-clock limit for the whole solve (None: no limit).
    pub time_limit: Option<Duration>,
    /// Node limit (None: no limit).
    pub node_limit: Option<u64>,
}

/// Why a board was not searched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The parity test says no solution exists.
    #[error("{0}")]
    Unsolvable(#[from] Unsolvable),
    /// The board is larger than the solver takes.
    #[error("a {width}x{height} board has {} cells; the solver takes at most {MAX_CELLS}", width * height)]
    TooLarge {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
}

/// Which strategy produced an outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Method {
    /// IDA* on the whole board.
    Exact,
    /// Tiles placed a few at a time, then IDA* for the bound.
    Staged,
}

/// A solve's result: the engine's outcome plus which strategy ran.
#[derive(Debug, Clone)]
pub struct Solved {
    /// Moves, bound, proof, nodes, time.
    pub outcome: Outcome<Dir>,
    /// The strategy.
    pub method: Method,
}

/// Solves `board` (see the module docs for what is guaranteed).
pub fn solve(board: &Board, opts: &SolveOptions) -> Result<Solved, SolveError> {
    board.solvability()?;
    let (w, h) = (board.width(), board.height());
    if w * h > MAX_CELLS {
        return Err(SolveError::TooLarge {
            width: w,
            height: h,
        });
    }
    let budget = {
        let b = Budget::new(opts.time_limit, usize::MAX);
        match opts.node_limit {
            Some(n) => b.with_node_limit(n),
            None => b,
        }
    };
    let bound = match opts.pdb {
        Some(db) if w == 4 && h == 4 => BoundKind::Pdb(db),
        _ => BoundKind::LinearConflict,
    };
    let problem = Slide::new(w, h, bound);
    let start = problem.node(board);
    if w * h <= 16 {
        return Ok(Solved {
            outcome: idastar(&problem, &start, &budget),
            method: Method::Exact,
        });
    }
    let t0 = Instant::now();
    let staged = staged(board, &budget);
    let first = match staged {
        Ok((moves, nodes)) => (moves, nodes),
        Err((why, nodes)) => {
            return Ok(Solved {
                outcome: Outcome::stopped(
                    None,
                    problem.lower_bound(&start),
                    why,
                    nodes,
                    t0.elapsed(),
                ),
                method: Method::Staged,
            })
        }
    };
    // Prove what we can in the time left, capped below the first solution
    // so that a finished search is either a shorter (optimal) solution or
    // a proof that the first one is optimal.
    let exact = idastar(&problem, &start, &budget);
    let nodes = first.1 + exact.nodes;
    let outcome = match exact.moves {
        Some(m) if exact.proven_optimal => Outcome::optimal(m, nodes, t0.elapsed()),
        _ => {
            let lb = exact.lower_bound.max(problem.lower_bound(&start));
            let why = exact.stopped.unwrap_or(BudgetExceeded::Time);
            Outcome::stopped(Some(first.0), lb, why, nodes, t0.elapsed())
        }
    };
    Ok(Solved {
        outcome,
        method: Method::Staged,
    })
}

/// The stages for a `w` x `h` board: each is the list of tiles that must
/// be home after it (growing), ending with every tile.
pub fn stages(w: usize, h: usize) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut placed: Vec<u8> = Vec::new();
    let (mut top, mut left) = (0usize, 0usize);
    while h - top > 3 || w - left > 3 {
        let line: Vec<u8> = if h - top >= w - left {
            let r = top;
            top += 1;
            (left..w).map(|c| (r * w + c + 1) as u8).collect()
        } else {
            let c = left;
            left += 1;
            (top..h).map(|r| (r * w + c + 1) as u8).collect()
        };
        // One tile at a time, but the last two of a line together (the
        // classic corner manoeuvre is one subgoal).
        let k = line.len();
        for (i, &t) in line.iter().enumerate() {
            placed.push(t);
            if i + 2 != k {
                out.push(placed.clone());
            }
        }
    }
    out.push((1..(w * h) as u8).collect());
    out
}

/// A first solution by stages; `Err` with why and nodes when the budget
/// ran out.
fn staged(board: &Board, budget: &Budget) -> Result<(Vec<Dir>, u64), (BudgetExceeded, u64)> {
    let (w, h) = (board.width(), board.height());
    let mut b = board.clone();
    let mut moves = Vec::new();
    let mut nodes = 0;
    for targets in stages(w, h) {
        let p = Slide::new(w, h, BoundKind::LinearConflict).with_targets(&targets);
        let o = idastar(&p, &p.node(&b), budget);
        nodes += o.nodes;
        match o.moves {
            Some(m) => {
                let m: Vec<Dir> = m;
                b.play_all(&m).expect("the engine's moves are legal");
                moves.extend(m);
            }
            None => return Err((o.stopped.unwrap_or(BudgetExceeded::Time), nodes)),
        }
    }
    debug_assert!(b.is_solved());
    Ok((cut_loops(board, &moves), nodes))
}

/// Removes every stretch of `moves` that returns to a position already
/// visited (the rest is still a solution, and shorter).
pub fn cut_loops(board: &Board, moves: &[Dir]) -> Vec<Dir> {
    let mut seen: std::collections::HashMap<Vec<u8>, usize> = std::collections::HashMap::new();
    let mut out: Vec<Dir> = Vec::new();
    let mut boards: Vec<Board> = vec![board.clone()];
    seen.insert(board.cells().to_vec(), 0);
    for &d in moves {
        let mut b = boards.last().expect("a board").clone();
        b.play(d);
        if let Some(&i) = seen.get(b.cells()) {
            // Back to position i: forget everything after it.
            for old in boards.drain(i + 1..) {
                seen.remove(old.cells());
            }
            out.truncate(i);
        } else {
            out.push(d);
            seen.insert(b.cells().to_vec(), boards.len());
            boards.push(b);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fifteen::parse::parse_sgt_id;

    #[test]
    fn refuses_bad_parity_at_once() {
        let b = parse_sgt_id("3x3:2,1,3,4,5,6,7,8,0").unwrap();
        let e = solve(&b, &SolveOptions::default()).unwrap_err();
        assert!(e.to_string().starts_with("unsolvable"), "{e}");
    }

    #[test]
    fn stages_cover_every_tile() {
        let s = stages(5, 5);
        assert_eq!(s.last().unwrap().len(), 24);
        for pair in s.windows(2) {
            assert!(pair[0].iter().all(|t| pair[1].contains(t)));
        }
        assert_eq!(s[0], vec![1]);
        assert_eq!(stages(3, 3), vec![(1..9).collect::<Vec<u8>>()]);
    }

    #[test]
    fn cut_loops_keeps_a_solution() {
        let g = Board::goal(3, 3);
        let mut b = g.clone();
        b.play_all(&[Dir::Up, Dir::Left]).unwrap();
        let moves = [Dir::Right, Dir::Left, Dir::Right, Dir::Down];
        let cut = cut_loops(&b, &moves);
        assert_eq!(cut, vec![Dir::Right, Dir::Down]);
    }

    #[test]
    fn large_boards_get_a_first_solution_fast() {
        // A scrambled 5x5 (random walk from the goal).
        let mut b = Board::goal(5, 5);
        let mut rng = 7u64;
        for _ in 0..400 {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let d = Dir::ALL[(rng >> 33) as usize % 4];
            b.play(d);
        }
        let opts = SolveOptions {
            time_limit: Some(Duration::from_millis(500)),
            ..Default::default()
        };
        let s = solve(&b, &opts).unwrap();
        let m = s.outcome.moves.as_ref().expect("a first solution");
        let mut end = b.clone();
        end.play_all(m).unwrap();
        assert!(end.is_solved());
        assert!(s.outcome.lower_bound as usize <= m.len());
    }
}
