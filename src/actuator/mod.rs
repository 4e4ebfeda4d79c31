//! Synthetic mouse input: move, click and drag at screen coordinates.
//!
//! Screen coordinates are produced by [`crate::capture::screen::Screenshot::to_screen`];
//! this module never sees image pixels.
