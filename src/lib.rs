//! gridbot: plays grid puzzle games by looking at the screen.
//!
//! The pipeline has three stages, each in its own module:
//! - [`capture`]: screen and image to board (find the board, the lattice,
//!   the cell colours, the palette).
//! - [`solver`]: game-independent exact and anytime search (A*, IDA*,
//!   branch and bound, budgets, transposition tables).
//! - [`actuator`]: synthetic mouse input at screen coordinates.
//!
//! [`games`] holds one module per game (rules, heuristics, how it is read
//! off the screen and how a move becomes a click); [`play`] is the
//! game-independent loop that ties the stages together; [`display`] runs
//! virtual X displays for tests and the demo; [`calibration`] loads the
//! per-game TOML files in `calibration/`.

pub mod actuator;
pub mod calibration;
pub mod capture;
pub mod cli;
pub mod display;
pub mod games;
pub mod play;
pub mod solver;
