//! Game-independent search: the problem interface, the engines built on
//! it, and their building blocks.
//!
//! A game describes one board as a [`Problem`] (and usually [`Keyed`]);
//! every engine is a generic function over it (monomorphised, nothing
//! dynamic in the inner loops) that takes a [`Budget`] and returns an
//! [`Outcome`] saying what was found and what was proven. What each one
//! guarantees (with an admissible [`Problem::lower_bound`]):
//!
//! | engine | finds | proves |
//! |--------|-------|--------|
//! | [`bfs::bfs`] | a shortest solution | optimality; unsolvable when every reachable state is expanded |
//! | [`bfs::count_reachable`], [`bfs::bfs_distances`] | reachable-state count / depth map | exact when `exhausted` |
//! | [`idastar::idastar`], [`idastar::idastar_tt`] | a shortest solution | optimality; a lower bound when stopped; unsolvable only on finite trees |
//! | [`iddfs::iddfs`] | a shortest solution | optimality; unsolvable when an iteration never reaches its limit |
//! | [`dfbnb::dfbnb`] | improving solutions (anytime) | optimality / unsolvable when the final full pass completes |
//! | [`astar::astar`] | a shortest solution | optimality; unsolvable when the open list runs dry; a bound when stopped |
//! | [`greedy::greedy`], [`greedy::beam`] | some solution, fast | optimal only if its length meets a proven bound (an uncut beam is a BFS) |
//! | [`greedy::drop_moves`], [`greedy::optimise`] | a shorter solution | nothing (a local optimum) |
//!
//! Building blocks: [`rank`] (perfect hashes of combinations and partial
//! permutations), [`retrograde`] (bit/nibble/byte tables indexed by rank,
//! saved with a checksum, filled by parallel backward BFS), [`zero_one`]
//! (the same with sub-states joined by free moves, e.g. a puzzle's gap in
//! a pattern database), [`bigmem`] (zeroed atomic words on huge pages),
//! [`Bits`]
//! (fixed-size bitsets), [`BucketQueue`] (an open list for small integer
//! costs), [`IndexTable`] (a hash table of arena indices), [`KeySet`] (a set of `u128`
//! bitboard keys), [`Budget`]
//! (time, memory and node limits).

pub mod astar;
pub mod bfs;
pub mod bigmem;
pub mod bitset;
pub mod budget;
pub mod dfbnb;
pub mod greedy;
pub mod idastar;
pub mod iddfs;
pub mod keyset;
pub mod outcome;
pub mod problem;
pub mod queue;
pub mod rank;
pub mod retrograde;
pub mod table;
#[cfg(test)]
pub mod testing;
pub mod zero_one;

pub use astar::{astar, AstarProblem};
pub use bfs::{bfs, bfs_distances, count_reachable, Reachable};
pub use bitset::Bits;
pub use budget::{Budget, BudgetExceeded};
pub use dfbnb::dfbnb;
pub use greedy::{
    beam, beam_scored, drop_moves, greedy, greedy_scored, optimise, Duplicates, Scored,
};
pub use idastar::{idastar, idastar_tt};
pub use iddfs::iddfs;
pub use keyset::KeySet;
pub use outcome::Outcome;
pub use problem::{replay, wins, Keyed, Problem};
pub use queue::BucketQueue;
pub use rank::{Combinations, Permutations};
pub use retrograde::{BitTable, ByteTable, NibbleTable, TableError};
pub use table::{IndexTable, Probe};
