//! Fling!: a 7 by 8 board of balls; a ball flung towards another (not
//! adjacent) one rolls up to it, that one takes over the motion and the
//! last ball of the line rolls off the board. One ball left wins. The
//! rules are in [`rules`], the board text format in [`parse`].
//!
//! This module is a design tool (after Sturtevant's Fling! paper): it
//! analyses boards rather than playing them on screen.

pub mod analyse;
pub mod bench;
pub mod cli;
pub mod draw;
pub mod endgame;
pub mod endgame_cli;
pub mod lines;
pub mod parse;
pub mod plot;
pub mod rules;
pub mod tables_job;

pub use parse::{parse_boards, LevelBoard, ParseError};
pub use rules::{Board, Dir, Fling, Move};
