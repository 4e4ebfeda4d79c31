//! The Flood-It solver's entry point: [`solve`] builds the region graph,
//! picks a bitset size from the region count, runs the chosen strategy
//! within the budgets and replays the answer on the board before
//! returning it.
//!
//! Strategies and what they guarantee:
//! - [`Strategy::Astar`] (default): exact A*; `proven_optimal` unless a
//!   budget ends it, in which case it returns the best solution found and
//!   the best proven lower bound.
//! - [`Strategy::BranchAndBound`]: anytime depth-first branch and bound with
//!   limited discrepancy passes; proven when its final pass completes.
//! - [`Strategy::Greedy`]: greedy with lookahead; proven only when its
//!   length meets the lower bound.
//! - [`Strategy::Optimise`]: greedy, then the leaf optimiser (drop moves
//!   while the sequence still wins); same guarantee as greedy.

use std::time::Duration;

use super::board::Board;
use super::regions::{BitGraph, RegionGraph};
use super::{astar, bnb, greedy, heuristic};
use crate::solver::{bitset::words_for, Budget, BudgetExceeded};

/// Which search to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// Exact A* with Puchert's layered bound (proves optimality).
    #[default]
    Astar,
    /// Anytime depth-first branch and bound with limited discrepancy search.
    BranchAndBound,
    /// Greedy with lookahead (fast, not exact).
    Greedy,
    /// Greedy followed by the leaf optimiser (drops moves while still winning).
    Optimise,
    /// Beam search (width 64) with the layered bound as guide (fast, not exact).
    Beam,
}

/// Budgets and strategy of one [`solve`] call.
#[derive(Debug, Clone)]
pub struct SolveOptions {
    /// The search to run.
    pub strategy: Strategy,
    /// Stop after this long with the best found so far.
    pub time_limit: Option<Duration>,
    /// Stop when the search's tables reach this many bytes.
    pub memory_limit_bytes: usize,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            strategy: Strategy::Astar,
            time_limit: None,
            memory_limit_bytes: 2 << 30,
        }
    }
}

/// A solved board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The colour of each move, in order.
    pub moves: Vec<u8>,
    /// A proven lower bound on the optimal length.
    pub lower_bound: usize,
    /// True when `moves` is proven to be of optimal length.
    pub proven_optimal: bool,
    /// Search nodes expanded.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Set when a budget ended the search early.
    pub stopped: Option<StopReason>,
}

/// Which budget ended a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// `time_limit` reached.
    TimeLimit,
    /// `memory_limit_bytes` reached.
    MemoryLimit,
    /// The node limit was reached.
    NodeLimit,
}

impl From<BudgetExceeded> for StopReason {
    fn from(e: BudgetExceeded) -> Self {
        match e {
            BudgetExceeded::Time => StopReason::TimeLimit,
            BudgetExceeded::Memory => StopReason::MemoryLimit,
            BudgetExceeded::Nodes => StopReason::NodeLimit,
        }
    }
}

/// Why [`solve`] failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// More regions than the largest bitset holds (cannot happen for boards
    /// up to 64x64).
    #[error("board has {0} regions; at most 4096 are supported")]
    TooManyRegions(usize),
    /// A strategy returned moves that do not win (a bug; never printed).
    #[error("internal error: the {strategy:?} strategy returned a sequence that does not win: {moves:?}")]
    NotAWin {
        /// The strategy.
        strategy: Strategy,
        /// The moves it returned.
        moves: Vec<u8>,
    },
}

/// Solves `board` with `options`; the moves are replayed on the board and
/// checked to win before they are returned.
pub fn solve(board: &Board, options: &SolveOptions) -> Result<Solution, SolveError> {
    let budget = Budget::new(options.time_limit, options.memory_limit_bytes);
    let graph = RegionGraph::new(board);
    let words = words_for(graph.len()).ok_or(SolveError::TooManyRegions(graph.len()))?;
    let mut sol = match words {
        1 => run::<1>(&graph, options.strategy, &budget),
        2 => run::<2>(&graph, options.strategy, &budget),
        3 => run::<3>(&graph, options.strategy, &budget),
        4 => run::<4>(&graph, options.strategy, &budget),
        5 => run::<5>(&graph, options.strategy, &budget),
        6 => run::<6>(&graph, options.strategy, &budget),
        7 => run::<7>(&graph, options.strategy, &budget),
        8 => run::<8>(&graph, options.strategy, &budget),
        10 => run::<10>(&graph, options.strategy, &budget),
        12 => run::<12>(&graph, options.strategy, &budget),
        16 => run::<16>(&graph, options.strategy, &budget),
        24 => run::<24>(&graph, options.strategy, &budget),
        32 => run::<32>(&graph, options.strategy, &budget),
        _ => run::<64>(&graph, options.strategy, &budget),
    };
    sol.elapsed = budget.elapsed();
    if !board.wins_with(&sol.moves) {
        return Err(SolveError::NotAWin {
            strategy: options.strategy,
            moves: sol.moves,
        });
    }
    Ok(sol)
}

fn run<const N: usize>(graph: &RegionGraph, strategy: Strategy, budget: &Budget) -> Solution {
    let g = BitGraph::<N>::new(graph);
    let (f, b) = g.start_state();
    let root_bound = heuristic::best_bound(&g, &f, &b);
    let depth = if strategy == Strategy::Astar {
        1
    } else if graph.len() <= 512 {
        2
    } else {
        1
    };
    let incumbent = greedy::greedy(&g, depth);
    let (moves, lower_bound, nodes, stopped) = match strategy {
        Strategy::Astar => {
            let o = astar::astar(&g, budget, incumbent);
            let lb = (o.lower_bound as usize).max(root_bound);
            (o.moves.unwrap_or_default(), lb, o.nodes, o.stopped)
        }
        Strategy::BranchAndBound => {
            let o = bnb::branch_and_bound(&g, budget, incumbent);
            let moves = o.moves.unwrap_or_default();
            let lb = if o.proven_optimal {
                moves.len()
            } else {
                root_bound
            };
            (moves, lb, o.nodes, o.stopped)
        }
        Strategy::Greedy => (incumbent, root_bound, 0, None),
        Strategy::Beam => match greedy::beam(&g, 64, budget) {
            Some(m) if m.len() < incumbent.len() => (m, root_bound, 0, None),
            Some(_) => (incumbent, root_bound, 0, None),
            None => (incumbent, root_bound, 0, Some(BudgetExceeded::Time)),
        },
        Strategy::Optimise => {
            let m = greedy::optimise(&g, incumbent, budget);
            let stopped = budget.time_up().then_some(BudgetExceeded::Time);
            (m, root_bound, 0, stopped)
        }
    };
    let lower_bound = lower_bound.min(moves.len());
    Solution {
        proven_optimal: lower_bound == moves.len(),
        moves,
        lower_bound,
        nodes,
        elapsed: Duration::ZERO,
        stopped: stopped.map(StopReason::from),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::flood::heuristic::{
        colours_bound, distance_bound, layered_bound, layered_bound_capped, schedule_bound,
    };

    /// A small xorshift generator, so the tests need no extra crate.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    fn random_board(rng: &mut Rng) -> Board {
        let (w, h) = (1 + rng.below(6), 1 + rng.below(6));
        let k = 2 + rng.below(5);
        let cells = (0..w * h).map(|_| rng.below(k) as u8).collect();
        let (r, c) = (rng.below(h), rng.below(w));
        Board::new(w, h, k as u8, cells).with_start(r, c)
    }

    /// Plain breadth-first search over flooded sets of cells (a `u64` mask),
    /// independent of the region graph: the optimal number of moves.
    fn bfs_optimum(board: &Board) -> usize {
        let (w, h) = (board.width(), board.height());
        let cells = board.cells();
        let n = w * h;
        let grow = |mask: u64, colour: u8| -> u64 {
            let mut m = mask;
            let mut stack: Vec<usize> = (0..n).filter(|&i| m >> i & 1 == 1).collect();
            while let Some(i) = stack.pop() {
                let (r, c) = (i / w, i % w);
                let mut nb = Vec::with_capacity(4);
                if c > 0 {
                    nb.push(i - 1);
                }
                if c + 1 < w {
                    nb.push(i + 1);
                }
                if r > 0 {
                    nb.push(i - w);
                }
                if r + 1 < h {
                    nb.push(i + w);
                }
                for j in nb {
                    if m >> j & 1 == 0 && cells[j] == colour {
                        m |= 1 << j;
                        stack.push(j);
                    }
                }
            }
            m
        };
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let (sr, sc) = board.start();
        let start = grow(1u64 << (sr * w + sc), cells[sr * w + sc]);
        let mut seen = std::collections::HashSet::new();
        seen.insert(start);
        let mut layer = vec![start];
        let mut depth = 0;
        loop {
            if layer.contains(&full) {
                return depth;
            }
            let mut next = Vec::new();
            for &m in &layer {
                for c in 0..board.colours() {
                    let nm = grow(m, c);
                    if nm != m && seen.insert(nm) {
                        next.push(nm);
                    }
                }
            }
            layer = next;
            depth += 1;
        }
    }

    /// Number of random boards for the cross-checks (600 by default;
    /// `GRIDBOT_CROSSCHECK_BOARDS` runs more).
    fn crosscheck_boards() -> usize {
        std::env::var("GRIDBOT_CROSSCHECK_BOARDS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(600)
    }

    #[test]
    fn default_solver_matches_breadth_first_search() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        for _ in 0..crosscheck_boards() {
            let board = random_board(&mut rng);
            let want = bfs_optimum(&board);
            let sol = solve(&board, &SolveOptions::default()).unwrap();
            assert_eq!(sol.moves.len(), want, "board {board:?}");
            assert!(sol.proven_optimal && sol.lower_bound == want);
            assert!(board.wins_with(&sol.moves));
        }
    }

    #[test]
    fn bounds_are_admissible_and_layered_dominates() {
        let mut rng = Rng(0x0bad_cafe_f00d_0001);
        for _ in 0..crosscheck_boards() {
            let mut board = random_board(&mut rng);
            // Any state is the start state of the board after its moves.
            for _ in 0..rng.below(4) {
                board.play(rng.below(board.colours() as usize) as u8);
            }
            let want = bfs_optimum(&board);
            let g = BitGraph::<1>::new(&RegionGraph::new(&board));
            let (f, b) = g.start_state();
            let layered = layered_bound(&g, &f, &b, g.colours_left(&f));
            assert!(
                layered <= want,
                "layered bound {layered} > optimum {want} on {board:?}"
            );
            assert!(layered >= colours_bound(&g, &f));
            assert!(layered >= distance_bound(&g, &f));
            for cap in 0..=layered + 1 {
                let capped = layered_bound_capped(&g, &f, &b, g.colours_left(&f), cap);
                assert!(
                    capped <= layered && capped >= cap.min(layered),
                    "cap {cap}: {capped} vs {layered}"
                );
            }
            let schedule = schedule_bound(&g, &f, &b);
            assert!(
                schedule <= want,
                "schedule bound {schedule} > optimum {want} on {board:?}"
            );
            assert!(layered >= schedule);
        }
    }

    #[test]
    fn every_strategy_wins_and_is_honest() {
        let mut rng = Rng(0x5eed_5eed_5eed_5eed);
        for _ in 0..200 {
            let board = random_board(&mut rng);
            let want = bfs_optimum(&board);
            for strategy in [
                Strategy::Astar,
                Strategy::BranchAndBound,
                Strategy::Greedy,
                Strategy::Optimise,
                Strategy::Beam,
            ] {
                let sol = solve(
                    &board,
                    &SolveOptions {
                        strategy,
                        ..Default::default()
                    },
                )
                .unwrap();
                assert!(board.wins_with(&sol.moves));
                assert!(sol.moves.len() >= want && sol.lower_bound <= want);
                if sol.proven_optimal {
                    assert_eq!(
                        sol.moves.len(),
                        want,
                        "{strategy:?} claims optimal on {board:?}"
                    );
                }
                if matches!(strategy, Strategy::Astar | Strategy::BranchAndBound) {
                    assert_eq!(sol.moves.len(), want, "{strategy:?} on {board:?}");
                }
            }
        }
    }

    #[test]
    fn budgets_stop_the_search_with_a_valid_answer() {
        let mut rng = Rng(42);
        let cells = (0..64 * 64).map(|_| rng.below(16) as u8).collect();
        let board = Board::new(64, 64, 16, cells).with_start(32, 32);
        for strategy in [
            Strategy::Astar,
            Strategy::BranchAndBound,
            Strategy::Optimise,
        ] {
            let opts = SolveOptions {
                strategy,
                time_limit: Some(Duration::from_millis(300)),
                ..Default::default()
            };
            let t = std::time::Instant::now();
            let sol = solve(&board, &opts).unwrap();
            assert!(
                t.elapsed() < Duration::from_secs(5),
                "{strategy:?} took {:?}",
                t.elapsed()
            );
            assert!(!sol.proven_optimal && sol.lower_bound < sol.moves.len());
            assert!(board.wins_with(&sol.moves));
        }
        // A tiny memory limit stops A* too.
        let cells = (0..14 * 14).map(|_| rng.below(8) as u8).collect();
        let board = Board::new(14, 14, 8, cells);
        let opts = SolveOptions {
            memory_limit_bytes: 64 << 10,
            ..Default::default()
        };
        let sol = solve(&board, &opts).unwrap();
        assert_eq!(sol.stopped, Some(StopReason::MemoryLimit));
        assert!(board.wins_with(&sol.moves));
    }

    /// The sample set `tests/data/flood-centre.txt` (boards over several
    /// lines, flooded from the middle): its `.optimal` lengths agree with
    /// breadth-first search, and so does the solver.
    #[test]
    fn centre_sample_matches_breadth_first_search() {
        use crate::games::flood::{parse_board_set, StartCell};
        let set = parse_board_set(include_str!("../../../tests/data/flood-centre.txt")).unwrap();
        let optimal: Vec<usize> = include_str!("../../../tests/data/flood-centre.optimal")
            .lines()
            .map(|l| l.trim().parse().unwrap())
            .collect();
        assert_eq!(set.len(), optimal.len());
        for (b, &want) in set.iter().zip(&optimal) {
            let board = StartCell::Centre.apply(b.parsed.board.clone()).unwrap();
            assert!(board.width() * board.height() <= 64);
            assert_eq!(bfs_optimum(&board), want, "board on line {}", b.line);
            let sol = solve(&board, &SolveOptions::default()).unwrap();
            assert_eq!(sol.moves.len(), want, "board on line {}", b.line);
        }
    }

    #[test]
    fn trivial_boards() {
        let b = Board::new(1, 1, 1, vec![0]);
        let sol = solve(&b, &SolveOptions::default()).unwrap();
        assert!(sol.moves.is_empty() && sol.proven_optimal);
        let b = Board::new(2, 1, 2, vec![0, 1]);
        assert_eq!(solve(&b, &SolveOptions::default()).unwrap().moves, vec![1]);
    }
}
