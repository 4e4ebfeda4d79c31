//! Game-independent search: the problem interface, the engines built on
//! it, and their building blocks.
//!
//! A game describes one board as a [`Problem`] (and usually [`Keyed`]);
//! every engine is a generic function over it (monomorphised, nothing
//! dynamic in the inner loops) that takes a [`Budget`] and returns an
//! [`Outcome`] saying what was found and what was proven. What each one
//! guarantees (with an admissible [`Problem::lower_bound`]):
//!
//! | engine | finds | proves | used by |
//! |--------|-------|--------|---------|
//! | [`bfs::count_reachable`] | reachable-state count | exact when `exhausted` | Fling! `analyse` |
//! | [`bfs::bfs`] | a shortest solution | optimality; unsolvable when every reachable state is expanded | PuzzleScript |
//! | [`resumable_bfs::ResumableBfs`] | the same, in slices: each call resumes where the last stopped | the same, once the slices add up | PuzzleScript's portfolio |
//! | [`idastar::idastar`] | a shortest solution | optimality; a lower bound when stopped; unsolvable only on finite trees | Fifteen |
//! | [`iddfs::iddfs`] | a shortest solution | optimality; unsolvable when an iteration never reaches its limit | Gemji |
//! | [`dfbnb::dfbnb`] | improving solutions (anytime) | optimality / unsolvable when the final full pass completes | Flood (`bnb`) |
//! | [`astar::astar`] | a shortest solution | optimality; unsolvable when the open list runs dry; a bound when stopped | Flood (`astar`, through [`AstarProblem`]) |
//! | [`astar::weighted_astar`] | a solution, fast (at most `weight` times the shortest with an admissible bound) | optimality only when it meets the start's bound; unsolvable when the open list runs dry | PuzzleScript (after BFS) |
//! | [`layered::layered_bfs`] | a shortest solution, on reversible moves and packed keys, in parallel | optimality; unsolvable when a layer comes out empty | Klotski |
//! | [`layered::layered_astar`] | the same, keeping only states within a limit of depth plus a consistent bound, the limit raised as IDA* raises it | optimality | Klotski (`--search astar`) |
//! | [`bfs::bfs_without_duplicates`] | a shortest solution, as a tree search | optimality | PuzzleScript (the depth figure) |
//! | [`greedy::greedy_scored`], [`greedy::beam`], [`greedy::beam_scored`] | some solution, fast | optimal only if its length meets a proven bound (an uncut beam is a BFS) | Flood, Pegs, Fifteen |
//! | [`greedy::optimise`] | a shorter solution | nothing (a local optimum) | Flood |
//! | [`shortcut::shortcut`] | a shorter solution, by small searches from each position of its path | nothing (a local optimum) | PuzzleScript (after width search and weighted A*) |
//!
//! The tests check every engine against a plain breadth-first search
//! ([`bfs::bfs`], whose one game user is PuzzleScript), and pin
//! each engine's node count on a small fixed problem, so a change that
//! alters a search shows.
//!
//! Three games keep specialised loops instead of an engine, for measured
//! reasons:
//!
//! - Rush Hour (`games/rush/exact.rs`, `search.rs`, `setbfs.rs`,
//!   `densewalk.rs`): breadth-first search and A* over positions packed
//!   into one integer. It minimises steps among the fewest moves, which
//!   needs the arena index of a position already in the next layer (the
//!   engines keep sets and minimise moves only), and keeps each
//!   position's occupancy in its arena entry (docs/rush.md, "Solver").
//! - Pegs (`games/pegs/solve.rs`, `fewest.rs`): depth-first proof searches
//!   over `u128` bitboards that store failures only, key a position once
//!   (a canonicalisation under the board's symmetries) and cut a child by
//!   its pagoda value before keying it, none of which [`iddfs::iddfs`]
//!   offers (docs/pegs.md); the lost positions go in a [`KeySet`], and
//!   its beams run on [`greedy::beam_scored`].
//! - Fling! (`games/fling/endgame.rs`, `analyse.rs`): retrograde endgame
//!   tables filled a 64-placement word at a time over [`Combinations`]
//!   ranks (a [`retrograde::PackedTable`] updates one entry at a time),
//!   and a win oracle over those tables; its reachable counts use
//!   [`bfs::count_reachable`].
//!
//! Building blocks: [`rank`] (perfect hashes of combinations and partial
//! permutations), [`retrograde`] (packed tables indexed by rank, saved with
//! a checksum), [`zero_one`]
//! (the same with sub-states joined by free moves, e.g. a puzzle's gap in
//! a pattern database), [`bigmem`] (zeroed atomic words on huge pages),
//! [`Bits`]
//! (fixed-size bitsets), [`BucketQueue`] (an open list for small integer
//! costs), [`IndexTable`] (a hash table of arena indices), [`KeySet`] (a set of `u128`
//! bitboard keys), [`Budget`]
//! (time, memory and node limits).

pub mod astar;
pub mod bfs;
pub mod bfws;
pub mod bigmem;
pub mod bitset;
pub mod budget;
pub mod cache;
pub mod dfbnb;
pub mod greedy;
pub mod idastar;
pub mod iddfs;
pub mod keyset;
pub mod layer_files;
pub mod layered;
pub mod outcome;
pub mod problem;
pub mod queue;
pub mod rank;
pub mod resumable_bfs;
pub mod retrograde;
pub mod shortcut;
pub mod table;
#[cfg(test)]
pub mod testing;
pub mod zero_one;

pub use astar::{astar, weighted_astar, AstarProblem, ResumableAstar, Weighted};
pub use bfs::{bfs_without_duplicates, count_reachable, Reachable};
pub use bfws::{bfws, iw1, AtomProblem, ResumableBfws};
pub use bitset::Bits;
pub use budget::{Budget, BudgetExceeded, Pacer};
pub use dfbnb::dfbnb;
pub use greedy::{beam, beam_scored, greedy_scored, optimise, Duplicates, Scored};
pub use idastar::idastar;
pub use iddfs::iddfs;
pub use keyset::KeySet;
pub use layer_files::{LayerFileError, LayerFiles, LayerKey};
pub use layered::{
    layered_astar, layered_astar_saved, layered_bfs, layered_bfs_saved, layered_reachable,
    LayeredProblem,
};
pub use outcome::Outcome;
pub use problem::{replay, wins, Keyed, Problem};
pub use queue::BucketQueue;
pub use rank::{Combinations, Permutations};
pub use resumable_bfs::ResumableBfs;
pub use retrograde::{NibbleTable, TableError};
pub use shortcut::{shortcut, Shortened};
pub use table::{IndexTable, Probe};
