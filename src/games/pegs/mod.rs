//! Pegs (peg solitaire, as in Simon Tatham's `sgt-pegs`): a board of W x H
//! cells, each a peg, a hole or off the board. A jump moves a peg over an
//! orthogonally adjacent peg into the hole behind it and removes the
//! jumped peg; the game is won when one peg is left, anywhere. A *move* is
//! a chain of jumps by one peg (the usual peg-solitaire metric).
//!
//! Strategies and what they guarantee:
//! - [`solve::WinSolver`]: depth-first search with a table of lost
//!   positions, symmetry reduction, pagoda pruning and move ordering. A win
//!   it returns is legal (and, in jumps, trivially shortest: every win takes
//!   `pegs - 1` jumps); "lost" is proven by exhausting the position; when
//!   the budget ends first the answer is unproven.
//!   Between its depth-first searches it runs beam searches
//!   ([`beam::Aimed`] with the core's `beam_scored`): a win they find is
//!   legal; a beam cut to its width that fails proves nothing.
//! - [`fewest::fewest_moves`]: iterative deepening over moves (chains) with
//!   an admissible Merson-region bound; its answer is a proven minimum
//!   number of moves when the search completes, otherwise the best bound.

pub mod act;
pub mod analyse;
pub mod beam;
pub mod bench;
mod bits;
pub mod classes;
pub mod cli;
mod crosscheck;
pub mod fewest;
pub mod hosted;
pub mod lattice;
pub mod merson;
pub mod omerkel;
pub mod pagoda;
pub mod parse;
pub mod play;
pub mod read;
pub mod rules;
pub mod solve;
pub mod symmetry;
pub mod vacancies;

pub use parse::{parse_game, ParseError};
pub use rules::{Board, Game, Jump};
