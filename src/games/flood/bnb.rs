//! Depth-first branch and bound, an anytime strategy, on the search core's
//! engine ([`crate::solver::dfbnb`]): it finds a solution quickly and
//! improves it until the tree is exhausted (then the result is proven
//! optimal) or a budget ends (then it is the best found, with the root's
//! lower bound).
//!
//! The problem is [`super::problem::Flood`]: children are ordered by their
//! layered bound (capped at the incumbent), then by colour; colour
//! elimination leaves a single child where it applies. Limited discrepancy
//! passes allowing 0, 1, 2 and 3 departures from that order run first, each
//! pruning with the best solution so far; then one unrestricted pass proves
//! the result. The engine's transposition table (flooded set -> shallowest
//! depth explored, with the discrepancies left) skips states already
//! searched at least as well.

use super::problem::Flood;
use super::regions::BitGraph;
use crate::solver::dfbnb::{dfbnb_with, Config};
use crate::solver::{Budget, Outcome};

/// Runs limited discrepancy passes then a full pass, improving `incumbent`
/// (a winning sequence: the greedy one). The outcome always holds a line
/// (the incumbent when nothing better was found); it is proven optimal
/// when the unrestricted pass finished.
pub fn branch_and_bound<const N: usize>(
    g: &BitGraph<N>,
    budget: &Budget,
    incumbent: Vec<u8>,
) -> Outcome<u8> {
    let problem = Flood::new(g, budget);
    let config = Config {
        discrepancies: 4,
        initial: Some(incumbent.clone()),
    };
    let mut o = dfbnb_with(&problem, &problem.start(), budget, &config);
    o.moves = Some(o.moves.take().unwrap_or(incumbent));
    o
}
