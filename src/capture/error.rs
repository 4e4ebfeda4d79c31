//! Why a screenshot could not be read: one error type for every stage of the
//! reading pipeline, with messages that say what was not found.

use crate::calibration::format_hex_colour;

/// A reading failure. Every variant says what was looked for and not found;
/// none of them is a panic, whatever the input.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be opened.
    #[error("cannot open image {path}: {message}")]
    Open {
        /// The file concerned.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// The file is not a decodable image (wrong format, truncated...).
    #[error("cannot decode image {path}: {message}")]
    Decode {
        /// The file concerned.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// The image has no pixels.
    #[error("no board found: the image is empty ({width}x{height} pixels)")]
    Empty {
        /// Width.
        width: u32,
        /// Height.
        height: u32,
    },
    /// Every pixel has the same colour.
    #[error("no board found: the image is one colour ({})", format_hex_colour(*.colour))]
    OneColour {
        /// The colour (RGB).
        colour: [u8; 3],
    },
    /// No rectangular area of saturated pixels.
    #[error(
        "no board found: the image has no area of saturated cells (is the game window visible?)"
    )]
    NoBoard,
    /// The board touches an edge of the image.
    #[error("board is cut off at the {edge} edge of the screenshot, or covered there by another window (move the game window fully onto the screen, and other windows off it)")]
    CutOff {
        /// Which edge.
        edge: &'static str,
    },
    /// The board was found but its cells could not be counted.
    #[error("no lattice found on the {width}x{height} board area at ({x}, {y}): {reason}")]
    NoLattice {
        /// Left edge (or x) in pixels.
        x: u32,
        /// Top edge (or y) in pixels.
        y: u32,
        /// Width.
        width: u32,
        /// Height.
        height: u32,
        /// What went wrong.
        reason: String,
    },
    /// Part of the board area is covered by something grey.
    #[error("the board at ({x}, {y}) is partly covered ({percent}% of its area is grey): is another window on top of it?")]
    Covered {
        /// Left edge (or x) in pixels.
        x: u32,
        /// Top edge (or y) in pixels.
        y: u32,
        /// Share in percent.
        percent: u32,
    },
    /// The board area shows no edges at all (e.g. a won Flood-It board), so
    /// its cells cannot be counted without geometry hints.
    #[error(
        "the {width}x{height} board at ({x}, {y}) is all one colour ({}), so its cells cannot be counted \
         (give geometry hints: columns and rows, or cell_size)",
        format_hex_colour(*.colour)
    )]
    UniformBoard {
        /// Left edge (or x) in pixels.
        x: u32,
        /// Top edge (or y) in pixels.
        y: u32,
        /// Width.
        width: u32,
        /// Height.
        height: u32,
        /// The colour (RGB).
        colour: [u8; 3],
    },
    /// The cells do not fill the board area evenly: the first or last row
    /// or column is cut.
    #[error(
        "the board's cells do not fill its area evenly along {axis} (margins {first:.1} and {last:.1} px \
         at its two ends, pitch {pitch:.1} px): is part of the board covered by another window or off the screen?"
    )]
    Uneven {
        /// `x` or `y`.
        axis: &'static str,
        /// First position found, in pixels.
        first: f64,
        /// Last position found (or seen).
        last: f64,
        /// Distance between neighbours, in pixels.
        pitch: f64,
    },
    /// A cell is not one flat colour (something covers it).
    #[error(
        "cell ({row}, {col}) is not one colour (only {percent}% of its area matches {}, \
         reading.min_uniformity is {min_percent}%): is the board covered by another window?",
        format_hex_colour(*.colour)
    )]
    NotUniform {
        /// Row (0-based).
        row: usize,
        /// Column (0-based).
        col: usize,
        /// The colour (RGB).
        colour: [u8; 3],
        /// Share in percent.
        percent: u32,
        /// The least share required, in percent.
        min_percent: u32,
    },
    /// A cell is a neutral grey that the palette does not contain: a window,
    /// a menu or a frame over the board, not a board colour.
    #[error(
        "cell ({row}, {col}) colour {} is a neutral grey the palette does not contain: \
         is a window or menu over the board?",
        format_hex_colour(*.colour)
    )]
    WindowGrey {
        /// Row (0-based).
        row: usize,
        /// Column (0-based).
        col: usize,
        /// The colour (RGB).
        colour: [u8; 3],
    },
    /// A cell's colour is too close to two palette colours to tell which.
    #[error(
        "cell ({row}, {col}) colour {} is between palette colours {} and {} (confidence {confidence:.2} \
         below reading.min_confidence {min:.2}): is the board covered, or the palette wrong?",
        format_hex_colour(*.colour),
        format_hex_colour(*.nearest),
        format_hex_colour(*.second)
    )]
    Unsure {
        /// Row (0-based).
        row: usize,
        /// Column (0-based).
        col: usize,
        /// The colour (RGB).
        colour: [u8; 3],
        /// The nearest palette colour (RGB).
        nearest: [u8; 3],
        /// The second nearest palette colour (RGB).
        second: [u8; 3],
        /// How sure the reading is (0 to 1).
        confidence: f32,
        /// The least accepted.
        min: f32,
    },
    /// A cell is a neutral grey, so it is not a board colour (without a
    /// calibration, board colours must have some tint).
    #[error(
        "cell ({row}, {col}) colour {} is a neutral grey, not a board colour: is the board covered \
         by another window? (boards with neutral grey colours need a calibration palette)",
        format_hex_colour(*.colour)
    )]
    GreyCell {
        /// Row (0-based).
        row: usize,
        /// Column (0-based).
        col: usize,
        /// The colour (RGB).
        colour: [u8; 3],
    },
    /// A cell's colour is far from every calibration palette colour.
    #[error(
        "cell ({row}, {col}) colour {} is far from every palette colour (nearest {}, distance {distance})",
        format_hex_colour(*.colour),
        format_hex_colour(*.nearest)
    )]
    FarColour {
        /// Row (0-based).
        row: usize,
        /// Column (0-based).
        col: usize,
        /// The colour (RGB).
        colour: [u8; 3],
        /// The nearest palette colour (RGB).
        nearest: [u8; 3],
        /// Its distance from the colour.
        distance: u32,
    },
    /// More distinct colours than a board can have.
    #[error("found {count} distinct cell colours, more than the {max} a board can have")]
    TooManyColours {
        /// How many there are.
        count: usize,
        /// The most supported.
        max: usize,
    },
    /// The lattice is larger than a board can be.
    #[error("found a {columns}x{rows} lattice, larger than the {max}x{max} a board can be")]
    TooLarge {
        /// Columns.
        columns: usize,
        /// Rows.
        rows: usize,
        /// The most supported.
        max: usize,
    },
    /// A stage image could not be written (`--dump-stages`).
    #[error("cannot write stage image {path}: {message}")]
    Dump {
        /// The file concerned.
        path: String,
        /// What went wrong.
        message: String,
    },
}
