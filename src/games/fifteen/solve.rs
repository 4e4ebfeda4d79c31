//! Solving a board: the parity test first, then the strategy for its size.
//!
//! - At most 16 cells: IDA* (the search core's) with pattern databases
//!   when given for the board's size (the compact problem of
//!   [`super::packed`]), else Manhattan distance plus linear conflicts. A
//!   finished search is a proven shortest solution.
//! - Larger boards (anytime): first a solution built by placing tiles a
//!   few at a time, each stage a short IDA* towards a subgoal ("these tiles
//!   home"), top row or left column first, whichever side is longer, until
//!   a 3x3 corner is left, which is solved exactly; a stage whose IDA*
//!   needs more than a few hundred thousand nodes (the last two tiles of a
//!   long line) is done by a beam search guided by the same bound instead;
//!   loops are cut from the path. Then IDA* on the whole board within what is left of the budget:
//!   either it proves an optimal solution or its last finished threshold is
//!   a proven lower bound. `optimal=unproven` unless proven.

use std::time::{Duration, Instant};

use super::packed::PdbSlide;
use super::pdb::PatternDb;
use super::problem::{BoundKind, Slide, MAX_CELLS};
use super::rules::{Board, Dir, Unsolvable};
use crate::solver::greedy::beam;
use crate::solver::idastar::idastar;
use crate::solver::{Budget, BudgetExceeded, Outcome, Problem};

/// How to solve.
#[derive(Debug, Clone, Copy, Default)]
pub struct SolveOptions<'a> {
    /// Pattern databases, used on boards of their size (None, or another
    /// size: Manhattan plus linear conflicts).
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
    if let Some(db) = opts.pdb.filter(|db| PdbSlide::fits(db, board)) {
        let problem = PdbSlide::new(db);
        return Ok(Solved {
            outcome: idastar(&problem, &problem.node(board), &budget),
            method: Method::Exact,
        });
    }
    let problem = Slide::new(w, h, BoundKind::LinearConflict);
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
    // Improve: re-solve windows of the path exactly, half the time left.
    let improve_budget = match opts.time_limit {
        Some(t) => Budget::new(Some(t.saturating_sub(t0.elapsed()) / 2), usize::MAX),
        None => Budget::unlimited(),
    };
    let (better, improve_nodes) = improve(board, first.0, &improve_budget);
    let first = (better, first.1 + improve_nodes);
    // Then prove what we can in the time left: a finished IDA* is an
    // optimal solution; a stopped one leaves a proven lower bound.
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

/// Nodes one stage's IDA* may spend before the beam takes over.
const STAGE_NODES: u64 = 200_000;
/// Width of a stage's beam search.
const STAGE_BEAM: usize = 2_000;

/// A first solution by stages; `Err` with why and nodes when the budget
/// ran out.
fn staged(board: &Board, budget: &Budget) -> Result<(Vec<Dir>, u64), (BudgetExceeded, u64)> {
    let (w, h) = (board.width(), board.height());
    let mut b = board.clone();
    let mut moves = Vec::new();
    let mut nodes = 0;
    for targets in stages(w, h) {
        let p = Slide::new(w, h, BoundKind::LinearConflict).with_targets(&targets);
        let start = p.node(&b);
        // A shortest placement when it is cheap; some stages (the last
        // two tiles of a long line) need detours the bound cannot see,
        // and there a beam search guided by the same bound finds one.
        let stage_budget = budget
            .clone()
            .with_node_limit(budget.node_limit().min(STAGE_NODES));
        let mut o = idastar(&p, &start, &stage_budget);
        if o.moves.is_none() && o.stopped == Some(BudgetExceeded::Nodes) && !budget.time_up() {
            nodes += o.nodes;
            o = beam(&p, &start, STAGE_BEAM, budget);
        }
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

/// Shortens a solution by replacing each window of `WINDOW` moves with a
/// shortest path between its two ends (IDA* towards the window's end
/// position, at most `WINDOW_NODES` nodes each), windows overlapping by
/// half, until a pass gains nothing or the budget ends. Returns the moves
/// and the nodes spent.
pub fn improve(board: &Board, mut moves: Vec<Dir>, budget: &Budget) -> (Vec<Dir>, u64) {
    const WINDOW: usize = 24;
    const WINDOW_NODES: u64 = 200_000;
    let mut nodes = 0;
    loop {
        let before = moves.len();
        let mut i = 0;
        let mut at = board.clone();
        while i + 2 <= moves.len() {
            if budget.time_up() {
                return (moves, nodes);
            }
            let j = (i + WINDOW).min(moves.len());
            let mut end = at.clone();
            end.play_all(&moves[i..j]).expect("legal moves");
            let p = Slide::towards(&end);
            let b = Budget::new(None, usize::MAX).with_node_limit(WINDOW_NODES);
            let o = idastar(&p, &p.node(&at), &b);
            nodes += o.nodes;
            if let Some(m) = o.moves {
                if m.len() < j - i {
                    moves.splice(i..j, m);
                }
            }
            let step = (WINDOW / 2).min(moves.len() - i);
            at.play_all(&moves[i..i + step]).expect("legal moves");
            i += step;
        }
        if moves.len() >= before {
            return (moves, nodes);
        }
    }
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
        assert!(!s.outcome.proven_optimal || s.outcome.stopped.is_none());
    }

    #[test]
    fn improve_shortens_a_detour() {
        // Goal, then a long detour around a 2x2 block and back, then one
        // real move: improvement must find the single move.
        let g = Board::goal(5, 5);
        let mut b = g.clone();
        b.play(Dir::Up);
        let mut detour = Vec::new();
        for _ in 0..3 {
            detour.extend([Dir::Left, Dir::Up, Dir::Right, Dir::Down]);
        }
        detour.push(Dir::Down);
        let mut end = b.clone();
        end.play_all(&detour).unwrap();
        assert!(end.is_solved());
        let (m, _) = improve(&b, detour, &Budget::unlimited());
        assert_eq!(m, vec![Dir::Down]);
    }

    use crate::games::fifteen::pdb::{Partition, PatternDb};
    use crate::games::fifteen::problem::{BoundKind, Slide};
    use crate::solver::bfs::bfs_distances;

    /// Distances from the goal of a `w` x `h` board, by the core's BFS
    /// (moves are reversible), at most `limit` states expanded: exact for
    /// every state returned.
    fn distances(w: usize, h: usize, limit: u64) -> Vec<(Board, u32)> {
        let p = Slide::new(w, h, BoundKind::Manhattan);
        let budget = Budget::unlimited().with_node_limit(limit);
        let d = bfs_distances(&p, &p.node(&Board::goal(w, h)), &budget);
        let mut v: Vec<(Board, u32)> = d
            .depth
            .into_iter()
            .map(|(k, d)| {
                let nums: Vec<usize> = k[..w * h].iter().map(|&c| c as usize).collect();
                (Board::try_new(w, h, &nums).unwrap(), d)
            })
            .collect();
        v.sort_by(|a, b| a.0.cells().cmp(b.0.cells()));
        v
    }

    fn sample<T: Clone>(v: &[T], k: usize, seed: u64) -> Vec<T> {
        let mut rng = seed;
        (0..k)
            .map(|_| {
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                v[(rng >> 33) as usize % v.len()].clone()
            })
            .collect()
    }

    fn check_bounds_admissible(all: &[(Board, u32)], kinds: &[BoundKind]) {
        let (w, h) = (all[0].0.width(), all[0].0.height());
        for &kind in kinds {
            let p = Slide::new(w, h, kind);
            for (b, d) in all {
                let lb = p.lower_bound(&p.node(b));
                assert!(lb <= *d, "{kind:?}: bound {lb} > distance {d} on\n{b}");
                assert_eq!(lb % 2, d % 2, "{kind:?}: parity of the bound on\n{b}");
            }
        }
    }

    /// The databases' bound (direct and mirrored) on every board given.
    fn check_pdb_admissible(all: &[(Board, u32)], db: &PatternDb) {
        let mut exact = 0;
        for (b, d) in all {
            let lb = db.bound(b);
            assert!(lb <= *d, "{}: bound {lb} > distance {d} on\n{b}", db.name());
            assert_eq!(lb % 2, d % 2, "{}: parity of the bound on\n{b}", db.name());
            exact += usize::from(lb == *d);
        }
        // Not a bound of 0 everywhere: it is exact on many boards.
        assert!(
            exact * 10 > all.len(),
            "{}: exact on {exact} of {}",
            db.name(),
            all.len()
        );
    }

    fn check_solver(all: &[(Board, u32)], k: usize, pdb: Option<&PatternDb>) {
        let opts = SolveOptions {
            pdb,
            ..Default::default()
        };
        for (b, d) in sample(all, k, 99) {
            let s = solve(&b, &opts).unwrap();
            let m = s.outcome.moves.as_ref().unwrap();
            assert_eq!(m.len() as u32, d, "on\n{b}");
            assert!(s.outcome.proven_optimal);
            let mut end = b.clone();
            end.play_all(m).unwrap();
            assert!(end.is_solved());
        }
    }

    #[test]
    fn every_2x4_position_matches_bfs() {
        let all = distances(4, 2, u64::MAX);
        assert_eq!(all.len(), 20160);
        check_bounds_admissible(&all, &[BoundKind::Manhattan, BoundKind::LinearConflict]);
        check_solver(&all, 200, None);
        let db = PatternDb::build_patterns(4, 2, &[vec![1, 2, 5], vec![3, 4, 6, 7]]);
        check_pdb_admissible(&all, &db);
        check_solver(&all, 200, Some(&db));
        // The other half of the positions is refused by parity.
        let mut odd = Board::goal(4, 2).cells().to_vec();
        odd.swap(0, 1);
        let nums: Vec<usize> = odd.iter().map(|&c| c as usize).collect();
        let b = Board::try_new(4, 2, &nums).unwrap();
        assert!(all.iter().all(|(x, _)| x != &b));
        assert!(solve(&b, &SolveOptions::default()).is_err());
    }

    #[test]
    fn random_3x3_positions_match_bfs() {
        let all = distances(3, 3, u64::MAX);
        assert_eq!(all.len(), 181440);
        assert_eq!(all.iter().map(|x| x.1).max(), Some(31));
        check_bounds_admissible(&all, &[BoundKind::LinearConflict]);
        check_solver(&all, 100, None);
        // Two patterns and the mirrored lookup.
        let db = PatternDb::build_patterns(3, 3, &[vec![1, 2, 3, 4], vec![5, 6, 7, 8]]);
        assert!(db.mirrored());
        check_pdb_admissible(&all, &db);
        check_solver(&all, 100, Some(&db));
    }

    #[test]
    fn random_3x4_and_4x4_positions_match_bfs() {
        // Partial walks: every returned depth is exact.
        let some = distances(4, 3, 300_000);
        check_bounds_admissible(&some, &[BoundKind::LinearConflict]);
        let deep: Vec<_> = some.iter().filter(|x| x.1 >= 14).cloned().collect();
        check_solver(&deep, 40, None);
        let db = PatternDb::build_patterns(4, 3, &[vec![1, 2, 3, 5, 6], vec![4, 7, 8, 9, 10, 11]]);
        check_pdb_admissible(&some, &db);
        check_solver(&deep, 40, Some(&db));
        // 4x4 with 5-5-5 (6-6-3 is checked on Korf's instances below).
        let db = PatternDb::build(Partition::P555);
        let some = distances(4, 4, 200_000);
        check_bounds_admissible(&some, &[BoundKind::LinearConflict]);
        check_pdb_admissible(&some, &db);
        let deep: Vec<_> = some.iter().filter(|x| x.1 >= 12).cloned().collect();
        check_solver(&deep, 30, Some(&db));
    }

    #[test]
    fn ten_easiest_korf_instances_proven_with_663() {
        let db = PatternDb::build(Partition::P663);
        let text = include_str!("../../../tests/data/fifteen/korf-easiest10.txt");
        let opts = SolveOptions {
            pdb: Some(&db),
            ..Default::default()
        };
        let mut n = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let nums: Vec<&str> = line.split_whitespace().collect();
            let want: usize = nums[1].parse().unwrap();
            let b = crate::games::fifteen::parse::parse_board(
                &nums[2..].join(" "),
                crate::games::fifteen::parse::Convention::BlankFirst,
            )
            .unwrap();
            let s = solve(&b, &opts).unwrap();
            assert!(s.outcome.proven_optimal, "instance {}", nums[0]);
            assert_eq!(s.outcome.len(), Some(want), "instance {}", nums[0]);
            n += 1;
        }
        assert_eq!(n, 10);
    }
}
