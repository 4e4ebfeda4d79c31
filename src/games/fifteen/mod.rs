//! Fifteen (the sliding-tile puzzle, `sgt-fifteen`): a W x H frame holds
//! tiles 1..W*H-1 and one gap; a move slides a tile next to the gap into
//! it. The goal is the tiles in row order with the gap at the bottom
//! right. Half of all positions cannot be solved (a parity argument, see
//! [`rules::Board::solvability`]); those are refused at once. The game
//! counts every tile moved; one click on a cell in the gap's row or column
//! slides every tile in between, so consecutive moves along one line make
//! one click ([`rules::clicks`]).
//!
//! What each strategy guarantees:
//! - 4x4 and smaller: IDA* with an admissible bound (pattern databases on
//!   4x4, else Manhattan distance plus linear conflicts) returns a proven
//!   shortest solution, unless the budget runs out first.
//! - Larger boards (anytime): a first solution at once by the constructive
//!   method ([`construct`], line by line, not optimal), shortened within
//!   the budget, then IDA* in the time left to prove a lower bound or an
//!   optimal solution; `optimal=unproven` with the lower bound unless
//!   proven.

pub mod bench;
pub mod bounds;
pub mod cli;
pub mod construct;
pub mod digits;
pub mod packed;
pub mod parse;
pub mod pdb;
pub mod play;
pub mod problem;
pub mod read;
pub mod rules;
pub mod solve;

pub use parse::{parse_board, parse_sgt_id, Convention, ParseError};
pub use rules::{Board, BoardError, Dir, Unsolvable};
