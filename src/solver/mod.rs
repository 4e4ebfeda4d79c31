//! Game-independent search building blocks: fixed-size bitsets chosen by
//! problem size at run time, a bucketed priority queue for A* with small
//! integer costs, a hash table of arena indices for transposition tables,
//! and search budgets (time and memory).
//!
//! The game modules (see [`crate::games`]) build their exact and anytime
//! searches (A*, branch and bound, greedy) out of these pieces.

pub mod bfs;
pub mod bitset;
pub mod budget;
pub mod dfbnb;
pub mod greedy;
pub mod idastar;
pub mod iddfs;
pub mod outcome;
pub mod problem;
pub mod queue;
pub mod rank;
pub mod retrograde;
pub mod table;
#[cfg(test)]
pub mod testing;

pub use bitset::Bits;
pub use budget::{Budget, BudgetExceeded};
pub use outcome::Outcome;
pub use problem::{replay, wins, Keyed, Problem};
pub use queue::BucketQueue;
pub use table::{IndexTable, Probe};
