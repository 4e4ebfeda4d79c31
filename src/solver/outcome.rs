//! The one result type every search engine returns.
//!
//! An [`Outcome`] says what was found (the moves of the best solution, if
//! any), what was proven (a lower bound, optimality, or that no solution
//! exists), what it cost (nodes expanded, time) and why it stopped early,
//! if a budget ended it. The claims are the engine's to make: an engine
//! sets `proven_optimal` only when its search proved that no shorter
//! solution exists, and `proven_unsolvable` only after exhausting every
//! reachable state.

use std::time::Duration;

use super::budget::BudgetExceeded;

/// What one search found and proved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome<M> {
    /// The best solution found, if any.
    pub moves: Option<Vec<M>>,
    /// A proven lower bound on the length of a shortest solution (when
    /// `moves` is `Some`, at most its length).
    pub lower_bound: u32,
    /// True when `moves` is a proven shortest solution.
    pub proven_optimal: bool,
    /// True when the search proved that no solution exists.
    pub proven_unsolvable: bool,
    /// Nodes expanded (states whose moves were generated).
    pub nodes: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// Which budget ended the search early, if one did.
    pub stopped: Option<BudgetExceeded>,
}

impl<M> Outcome<M> {
    /// A proven shortest solution.
    pub fn optimal(moves: Vec<M>, nodes: u64, elapsed: Duration) -> Self {
        Outcome {
            lower_bound: moves.len() as u32,
            moves: Some(moves),
            proven_optimal: true,
            proven_unsolvable: false,
            nodes,
            elapsed,
            stopped: None,
        }
    }

    /// A search that exhausted every reachable state without a solution.
    pub fn unsolvable(nodes: u64, elapsed: Duration) -> Self {
        Outcome {
            moves: None,
            lower_bound: u32::MAX,
            proven_optimal: false,
            proven_unsolvable: true,
            nodes,
            elapsed,
            stopped: None,
        }
    }

    /// A search a budget ended: the best solution found so far (if any)
    /// and the bound proven so far.
    pub fn stopped(
        moves: Option<Vec<M>>,
        lower_bound: u32,
        why: BudgetExceeded,
        nodes: u64,
        elapsed: Duration,
    ) -> Self {
        let lower_bound = match &moves {
            Some(m) => lower_bound.min(m.len() as u32),
            None => lower_bound,
        };
        let proven_optimal = moves
            .as_ref()
            .is_some_and(|m| m.len() as u32 <= lower_bound);
        Outcome {
            moves,
            lower_bound,
            proven_optimal,
            proven_unsolvable: false,
            nodes,
            elapsed,
            stopped: Some(why),
        }
    }

    /// Length of the solution found, if any.
    // Not a container length: "no solution" is `None`, so an `is_empty`
    // would only mislead.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> Option<usize> {
        self.moves.as_ref().map(Vec::len)
    }

    /// The line a solve command prints before its figures: the plan
    /// (`plan()`), or why there is none (proven unsolvable, or the budget
    /// that stopped the search).
    pub fn verdict(&self, plan: impl FnOnce() -> String) -> String {
        if self.proven_unsolvable {
            format!(
                "unsolvable: no solution among the {} positions reachable",
                self.nodes
            )
        } else if let Some(why) = self.stopped.filter(|_| self.moves.is_none()) {
            format!("stopped by the {why} before a solution")
        } else {
            plan()
        }
    }

    /// `"proven"`, `"unproven"` or `"unsolvable"`: what the summary lines
    /// print as `optimal=`.
    pub fn optimality(&self) -> &'static str {
        if self.proven_unsolvable {
            "unsolvable"
        } else if self.proven_optimal {
            "proven"
        } else {
            "unproven"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_search_that_meets_its_bound_is_optimal() {
        let o = Outcome::stopped(
            Some(vec![1u8, 2]),
            2,
            BudgetExceeded::Time,
            5,
            Duration::ZERO,
        );
        assert!(o.proven_optimal);
        let o = Outcome::stopped(
            Some(vec![1u8, 2]),
            1,
            BudgetExceeded::Time,
            5,
            Duration::ZERO,
        );
        assert!(!o.proven_optimal);
        assert_eq!(o.optimality(), "unproven");
        let o: Outcome<u8> = Outcome::unsolvable(3, Duration::ZERO);
        assert_eq!(o.optimality(), "unsolvable");
    }
}
