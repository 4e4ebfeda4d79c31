//! Solving a board: the parity test first, then the strategy for its size.
//!
//! - At most 16 cells: IDA* (the search core's) with pattern databases
//!   when given for the board's size (the compact problem of
//!   [`super::packed`]), else Manhattan distance plus linear conflicts. A
//!   finished search is a proven shortest solution.
//! - Larger boards (anytime): a first solution at once by the constructive
//!   method ([`super::construct`]: line by line, the last two tiles of a
//!   line by the corner manoeuvre, a 3x3 corner solved exactly; about a
//!   millisecond on 6x6). Then, in a share of the time, the same stages
//!   each first tried by a short IDA* towards its subgoal ("the tiles
//!   placed so far and this one home"; the hand method where that IDA*
//!   passes its node limit or the time runs out). The shorter is improved
//!   by re-solving windows of it exactly, and IDA* on the whole board runs
//!   in what is left of the budget: either it proves an optimal solution
//!   or its last finished threshold is a proven lower bound (never below
//!   Manhattan distance plus linear conflicts). `optimal=unproven` unless
//!   proven.

use std::time::{Duration, Instant};

use super::construct::{construct, construct_searching};
use super::packed::PdbSlide;
use super::pdb::PatternDb;
use super::problem::{BoundKind, Slide, MAX_CELLS};
use super::rules::{Board, Dir, Unsolvable};
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
    /// Anytime: a constructed first solution, shortened (tiles placed a
    /// few at a time, windows re-solved), then IDA* for the bound.
    Staged,
}

/// A solve's result: the engine's outcome plus which strategy ran.
#[derive(Debug, Clone)]
pub struct Solved {
    /// Moves, bound, proof, nodes, time.
    pub outcome: Outcome<Dir>,
    /// The strategy.
    pub method: Method,
    /// The anytime solver's first solution (boards above 16 cells).
    pub first: Option<FirstSolution>,
}

/// When the anytime solver had its first solution, and how long it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct FirstSolution {
    /// Its length in moves.
    pub length: usize,
    /// Time from the start of the solve.
    pub time: Duration,
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
            first: None,
        });
    }
    let problem = Slide::new(w, h, BoundKind::LinearConflict);
    let start = problem.node(board);
    if w * h <= 16 {
        return Ok(Solved {
            outcome: idastar(&problem, &start, &budget),
            method: Method::Exact,
            first: None,
        });
    }
    let t0 = Instant::now();
    // A first solution at once, by construction.
    let Some(first) = construct(board) else {
        // Not reached for a solvable board (the constructive method
        // always succeeds there); say so rather than panic.
        return Ok(Solved {
            outcome: Outcome::stopped(
                None,
                problem.lower_bound(&start),
                BudgetExceeded::Time,
                0,
                t0.elapsed(),
            ),
            method: Method::Staged,
            first: None,
        });
    };
    let first_info = FirstSolution {
        length: first.len(),
        time: t0.elapsed(),
    };
    log::info!(
        "first solution: {} moves after {:.1} ms (constructive)",
        first_info.length,
        first_info.time.as_secs_f64() * 1000.0
    );
    let mut best = first;
    let mut nodes = 0u64;
    let left = |share: f64| -> Budget {
        match opts.time_limit {
            Some(t) => Budget::new(
                Some(t.saturating_sub(t0.elapsed()).mul_f64(share)),
                usize::MAX,
            ),
            None => Budget::unlimited(),
        }
    };
    // A second candidate, usually shorter: the same stages, each first
    // tried by a short IDA* towards its subgoal.
    if let Some((m, n)) = construct_searching(board, STAGE_NODES, &left(STAGED_SHARE)) {
        nodes += n;
        log::info!(
            "searched stages: {} moves after {:.1} ms",
            m.len(),
            t0.elapsed().as_secs_f64() * 1000.0
        );
        if m.len() < best.len() {
            best = m;
        }
    }
    // Improve: re-solve windows of the path exactly, half the time left.
    let (better, improve_nodes) = improve(board, best, &left(0.5));
    nodes += improve_nodes;
    log::info!(
        "improved: {} moves after {:.1} ms",
        better.len(),
        t0.elapsed().as_secs_f64() * 1000.0
    );
    // Then prove what we can in the time left: a finished IDA* is an
    // optimal solution; a stopped one leaves a proven lower bound.
    let exact = idastar(&problem, &start, &budget);
    let nodes = nodes + exact.nodes;
    let outcome = match exact.moves {
        Some(m) if exact.proven_optimal => Outcome::optimal(m, nodes, t0.elapsed()),
        _ => {
            let lb = exact.lower_bound.max(problem.lower_bound(&start));
            let why = exact.stopped.unwrap_or(BudgetExceeded::Time);
            Outcome::stopped(Some(better), lb, why, nodes, t0.elapsed())
        }
    };
    Ok(Solved {
        outcome,
        method: Method::Staged,
        first: Some(first_info),
    })
}

/// Share of the time left (after the first solution) the searched stages
/// may take (they fall back to the hand method when it runs out).
const STAGED_SHARE: f64 = 0.35;
/// Nodes one stage's IDA* may spend before the hand method takes over.
const STAGE_NODES: u64 = 200_000;

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
        // Random 5x5 and 6x6 boards: the first and the final solutions
        // replay to the goal, the bound is below both, nothing is called
        // optimal that was not proven.
        let mut rng = crate::solver::testing::Rng::new(7);
        for &(w, h) in &[(5, 5), (6, 6), (7, 5)] {
            for _ in 0..3 {
                let b = crate::games::fifteen::construct::random_board(w, h, &mut rng);
                let opts = SolveOptions {
                    time_limit: Some(Duration::from_millis(150)),
                    ..Default::default()
                };
                let s = solve(&b, &opts).unwrap();
                let first = s
                    .first
                    .expect("the anytime solver reports its first solution");
                let m = s.outcome.moves.as_ref().expect("a solution");
                let mut end = b.clone();
                end.play_all(m).unwrap();
                assert!(end.is_solved());
                assert!(m.len() <= first.length, "improving never lengthens");
                assert!(s.outcome.lower_bound as usize <= m.len());
                assert!(
                    !s.outcome.proven_optimal,
                    "{w}x{h} random boards are not proven in 150 ms"
                );
                assert_eq!(s.method, Method::Staged);
            }
        }
    }

    #[test]
    fn anytime_bound_never_exceeds_a_proven_optimum() {
        // 5x5 boards a short walk from the goal: the exact IDA* proves the
        // optimum, and the anytime solver's bound stays below it, its
        // length above it.
        let mut rng = crate::solver::testing::Rng::new(21);
        let p = Slide::new(5, 5, BoundKind::LinearConflict);
        for walk in [8usize, 14, 20, 26, 30] {
            let mut b = Board::goal(5, 5);
            for _ in 0..walk {
                let moves = b.moves();
                b.play(moves[rng.below(moves.len() as u64) as usize]);
            }
            let exact = idastar(&p, &p.node(&b), &Budget::unlimited());
            assert!(exact.proven_optimal);
            let opt = exact.moves.unwrap().len();
            for ms in [1, 30] {
                let opts = SolveOptions {
                    time_limit: Some(Duration::from_millis(ms)),
                    ..Default::default()
                };
                let s = solve(&b, &opts).unwrap();
                let m = s.outcome.moves.as_ref().unwrap();
                assert!(
                    s.outcome.lower_bound as usize <= opt,
                    "walk {walk}: bound above the optimum {opt}"
                );
                assert!(m.len() >= opt);
                if s.outcome.proven_optimal {
                    assert_eq!(m.len(), opt);
                }
                let mut end = b.clone();
                end.play_all(m).unwrap();
                assert!(end.is_solved());
            }
        }
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
