//! Flood-It: a grid of k colours; the region connected to the start cell
//! takes the chosen colour and absorbs neighbouring cells of that colour.

pub mod board;
pub mod screen;

pub use board::Board;
