//! Hosts are where a game runs: the program or page that shows the board,
//! takes the synthetic input and says how the game went.
//!
//! - [`browser`]: Chromium in app mode on an X display, showing a URL or a
//!   page of a folder served by [`serve`] on 127.0.0.1, with a throwaway
//!   profile; everything it started is torn down on drop.
//! - [`serve`]: the static file server for such folders.
//! - [`browser_status`]: where the status bar of an sgt-puzzles web page is,
//!   relative to the board.
//!
//! The integrator adds the `Host` trait and the `sgt` host (a Debian
//! sgt-puzzles program on an X display).

pub mod browser;
pub mod browser_status;
pub mod serve;
