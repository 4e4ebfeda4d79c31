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
        SolveOptions { strategy: Strategy::Astar, time_limit: None, memory_limit_bytes: 2 << 30 }
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
}

impl From<BudgetExceeded> for StopReason {
    fn from(e: BudgetExceeded) -> Self {
        match e {
            BudgetExceeded::Time => StopReason::TimeLimit,
            BudgetExceeded::Memory => StopReason::MemoryLimit,
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
    NotAWin { strategy: Strategy, moves: Vec<u8> },
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
        4 => run::<4>(&graph, options.strategy, &budget),
        8 => run::<8>(&graph, options.strategy, &budget),
        16 => run::<16>(&graph, options.strategy, &budget),
        32 => run::<32>(&graph, options.strategy, &budget),
        _ => run::<64>(&graph, options.strategy, &budget),
    };
    sol.elapsed = budget.elapsed();
    if !board.wins_with(&sol.moves) {
        return Err(SolveError::NotAWin { strategy: options.strategy, moves: sol.moves });
    }
    Ok(sol)
}

fn run<const N: usize>(graph: &RegionGraph, strategy: Strategy, budget: &Budget) -> Solution {
    let g = BitGraph::<N>::new(graph);
    let (f, b) = g.start_state();
    let root_bound = heuristic::best_bound(&g, &f, &b);
    let depth = if graph.len() <= 512 { 2 } else { 1 };
    let incumbent = greedy::greedy(&g, depth);
    let (moves, lower_bound, nodes, stopped) = match strategy {
        Strategy::Astar => {
            let o = astar::astar(&g, budget, incumbent);
            (o.moves, o.lower_bound.max(root_bound), o.nodes, o.stopped)
        }
        Strategy::BranchAndBound => {
            let o = bnb::branch_and_bound(&g, budget, incumbent);
            let lb = if o.exhausted { o.moves.len() } else { root_bound };
            (o.moves, lb, o.nodes, o.stopped)
        }
        Strategy::Greedy => (incumbent, root_bound, 0, None),
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
