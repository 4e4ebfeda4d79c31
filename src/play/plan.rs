//! What a solver hands the loop: a [`Plan`], and the one conversion from a
//! search's [`Outcome`] to a plan that every search-backed game uses
//! ([`Plan::from_outcome`]): a line found is played, a state proven
//! unsolvable gives the empty plan (the loop ends the game as lost), and a
//! search a budget ended first is [`Unproven`] (raise --solve-budget-ms);
//! [`PlanError`] is every reason a solver gives no plan.

use std::time::{Duration, Instant};

use crate::solver::Outcome;

/// A plan from the solver for the current state.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan<M> {
    /// Moves to play in order; empty when the state is already won, or
    /// when the solver proved that it cannot be won (the loop then ends the
    /// game as lost). A solver that merely found no win within its budget
    /// returns an error instead.
    pub moves: Vec<M>,
    /// True when no shorter solution exists.
    pub proven_optimal: bool,
    /// Best lower bound on the number of moves the solver proved.
    pub lower_bound: usize,
    /// Time the solver took.
    pub elapsed: Duration,
}

/// A search a budget ended before it found a line or proved the state
/// lost.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unproven: the {stopped} ended {what} (raise --solve-budget-ms)")]
pub struct Unproven {
    /// The budget that ended the search (`budget` when none is named).
    pub stopped: String,
    /// What it ended, in the game's words.
    pub what: String,
    /// The lower bound the search proved.
    pub lower_bound: u32,
}

/// Why a game's solver gave the loop no plan.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// A budget ended the search first.
    #[error(transparent)]
    Unproven(#[from] Unproven),
    /// The solver found no line, in the game's words (e.g. a fallback
    /// search that died out).
    #[error("{0}")]
    NoLine(String),
    /// The game's solver refused the state (e.g. an unsolvable Fifteen
    /// board, a board too large for it).
    #[error(transparent)]
    Solver(Box<dyn std::error::Error + Send + Sync>),
}

impl PlanError {
    /// The solver's own error.
    pub fn solver(e: impl std::error::Error + Send + Sync + 'static) -> Self {
        PlanError::Solver(Box::new(e))
    }
}

impl<M> Plan<M> {
    /// The plan of a search's `outcome` (started at `started`): its line,
    /// proven optimal as the outcome says, with the outcome's lower bound;
    /// the empty plan when the outcome proves the state unsolvable (`lost`
    /// says why, logged as a warning; the bound is the outcome's unless it
    /// has none, then 0); and otherwise [`Unproven`], `unproven` naming
    /// what the budget ended given the search's time in ms.
    pub fn from_outcome(
        outcome: Outcome<M>,
        started: Instant,
        lost: impl FnOnce(&Outcome<M>) -> String,
        unproven: impl FnOnce(&Outcome<M>, f64) -> String,
    ) -> Result<Plan<M>, Unproven> {
        if outcome.moves.is_none() && !outcome.proven_unsolvable {
            return Err(Unproven {
                stopped: outcome
                    .stopped
                    .map_or("budget".to_string(), |s| s.to_string()),
                what: unproven(&outcome, started.elapsed().as_secs_f64() * 1000.0),
                lower_bound: outcome.lower_bound,
            });
        }
        let lower_bound = outcome.lower_bound;
        let Some(moves) = outcome.moves else {
            log::warn!("{}", lost(&outcome));
            return Ok(Plan {
                moves: Vec::new(),
                proven_optimal: false,
                lower_bound: if lower_bound == u32::MAX {
                    0
                } else {
                    lower_bound as usize
                },
                elapsed: started.elapsed(),
            });
        };
        Ok(Plan {
            moves,
            proven_optimal: outcome.proven_optimal,
            lower_bound: lower_bound as usize,
            elapsed: started.elapsed(),
        })
    }

    /// The same plan with each move mapped by `f`, in order.
    pub fn map_moves<N>(self, f: impl FnMut(M) -> N) -> Plan<N> {
        Plan {
            moves: self.moves.into_iter().map(f).collect(),
            proven_optimal: self.proven_optimal,
            lower_bound: self.lower_bound,
            elapsed: self.elapsed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::BudgetExceeded;

    fn convert(o: Outcome<u8>) -> Result<Plan<u8>, Unproven> {
        Plan::from_outcome(
            o,
            Instant::now(),
            |o| format!("lost after {} nodes", o.nodes),
            |o, _ms| format!("the search after {} nodes", o.nodes),
        )
    }

    #[test]
    fn a_line_is_played_as_proven_as_the_outcome_says() {
        let p = convert(Outcome::optimal(vec![1, 2], 7, Duration::ZERO)).unwrap();
        assert_eq!(
            (p.moves, p.proven_optimal, p.lower_bound),
            (vec![1, 2], true, 2)
        );
        let o = Outcome::stopped(
            Some(vec![1, 2, 3]),
            2,
            BudgetExceeded::Time,
            9,
            Duration::ZERO,
        );
        let p = convert(o).unwrap();
        assert_eq!(
            (p.moves.len(), p.proven_optimal, p.lower_bound),
            (3, false, 2)
        );
    }

    #[test]
    fn a_proven_loss_is_the_empty_plan() {
        let p = convert(Outcome::unsolvable(5, Duration::ZERO)).unwrap();
        assert!(p.moves.is_empty() && !p.proven_optimal);
        assert_eq!(p.lower_bound, 0);
    }

    #[test]
    fn no_answer_in_the_budget_says_which_budget_and_what_to_raise() {
        let o = Outcome::<u8>::stopped(None, 4, BudgetExceeded::Nodes, 12, Duration::ZERO);
        let e = convert(o).unwrap_err();
        assert_eq!(e.lower_bound, 4);
        assert_eq!(
            e.to_string(),
            format!(
                "unproven: the {} ended the search after 12 nodes (raise --solve-budget-ms)",
                BudgetExceeded::Nodes
            )
        );
    }
}
