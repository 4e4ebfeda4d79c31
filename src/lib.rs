//! gridbot: plays grid puzzle games by looking at the screen.
//!
//! The pipeline has three stages, each in its own module:
//! - [`capture`]: screen and image to board (find the board, the lattice,
//!   the cell colours, the palette).
//! - [`solver`]: game-independent exact and anytime search (A*, IDA*,
//!   branch and bound, budgets, transposition tables).
//! - [`actuator`]: synthetic input (clicks, drags, keys) at screen
//!   coordinates.
//!
//! [`games`] holds one folder per game (rules, solvers, how it is read off
//! the screen, how a move becomes a gesture, its commands); [`play`] is the
//! game-independent loop that ties the stages together; [`display`] runs
//! virtual X displays for tests and the demo; [`measure`] holds the
//! benchmarks' clocks and percentiles; [`calibration`] loads the
//! per-game TOML files in `calibration/`; [`hosts`] are where games run
//! (an sgt-puzzles program, a page in Chromium); [`cli`] is the command
//! line, and [`cli::args`] checks values typed by a user (durations,
//! sizes, thread counts, board arguments) at the edge; [`units`] splits
//! big jobs into numbered units whose files merge into the local output.

#![deny(missing_docs)]

pub mod actuator;
pub mod calibration;
pub mod capture;
pub mod cli;
pub mod display;
pub mod files;
pub mod games;
pub mod hosts;
pub mod measure;
pub mod play;
pub mod process;
pub mod solver;
pub mod units;

#[cfg(test)]
mod fuzz;
