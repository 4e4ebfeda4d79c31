//! Capture: from the screen (or an image file) to a board.
//!
//! [`screen`] grabs pixels from a monitor or window and knows how image
//! pixels map to screen coordinates. The reading pipeline turns an image into
//! a grid of colour indices, one small stage per module.

pub mod screen;
