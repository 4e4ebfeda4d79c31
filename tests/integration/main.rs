//! gridbot's integration tests: one test binary, one module per area, one
//! shared harness ([`util`]: temporary folders, the real binary, a virtual
//! display with a game on it; [`play_util`]: the bot as a child process
//! whose log is watched, and `xdotool` as the user who interferes).
//!
//! Tests that need the third-party web games (`../shared/games/` or
//! `$GRIDBOT_GAMES`) print why they skip when those are missing.
#![allow(dead_code)]

mod play_util;
mod util;

mod browser;
mod capture_cli;
mod capture_fresh;
mod cluster;
mod display;
mod every_verb;
mod fifteen_play;
mod fixtures_check;
mod flood_cstby;
mod hostile_io;
mod klotski_play;
mod klotski_solve;
mod pegs_omerkel;
mod pegs_play;
mod play_abort;
mod play_dry_run;
mod play_e2e;
mod play_errors;
mod play_recovery;
mod play_sgt_solver;
mod puzzlescript;
mod puzzlescript_play;
mod puzzlescript_solve;
mod reliability;
mod rush_enumerate;
mod rush_play;
mod solver_cli;
mod units;
