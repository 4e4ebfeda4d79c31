//! Per-game calibration files (`calibration/*.toml`): the game's palette in
//! its own colour order, optional geometry hints, the timings the play loop
//! needs, and the keys it presses.
//!
//! Every field but `game` is optional, so a user can start from the output of
//! `gridbot calibrate` and delete what auto-detection gets right anyway.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// A whole calibration file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Calibration {
    /// Which game module reads this file, e.g. `"flood"`.
    pub game: String,
    /// Substring of the game window's title, e.g. `"Flood"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_title: Option<String>,
    /// Palette colours as `"#rrggbb"`, in the game's own colour order: the
    /// colour at index k is the game's colour k (digit k in an sgt game ID).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub palette: Vec<String>,
    /// Hints for locating the board; auto-detected when absent.
    #[serde(default)]
    pub geometry: GeometryHints,
    /// Play-loop timings.
    #[serde(default)]
    pub timing: Timing,
    /// Keys the play loop presses.
    #[serde(default)]
    pub keys: Keys,
}

/// Optional hints for the board finder. Any field left out is detected.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeometryHints {
    /// Number of columns of the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub columns: Option<usize>,
    /// Number of rows of the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<usize>,
    /// Cell pitch in image pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell_size: Option<f64>,
}

/// How the play loop waits for the game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Timing {
    /// Pause between two captures while waiting for the screen to settle.
    pub poll_interval_ms: u64,
    /// Give up waiting for two equal captures in a row after this long.
    pub settle_timeout_ms: u64,
    /// Time to wait after a click before the first capture.
    pub after_click_ms: u64,
    /// Solver budget per move; beyond it the best line found is played.
    pub solve_budget_ms: u64,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            poll_interval_ms: 25,
            settle_timeout_ms: 3000,
            after_click_ms: 0,
            solve_budget_ms: 2000,
        }
    }
}

/// Keys the play loop may press.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Keys {
    /// Starts a new game after a win (sgt puzzles: `n`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_game: Option<char>,
}

/// Why a calibration could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum CalibrationError {
    /// The file could not be read.
    #[error("cannot read calibration file {path}: {source}")]
    Read {
        /// The file concerned.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file is not valid TOML or has wrong fields.
    #[error("calibration file {path} is invalid: {message}")]
    Parse {
        /// The file concerned.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A palette entry is not `#rrggbb`.
    #[error("calibration file {path}: palette entry {index} ({value:?}) is not a colour of the form \"#rrggbb\"")]
    BadColour {
        /// The file concerned.
        path: PathBuf,
        /// Position in the list (0-based).
        index: usize,
        /// The value as written.
        value: String,
    },
}

impl Calibration {
    /// Loads and validates a calibration file.
    pub fn load(path: &Path) -> Result<Self, CalibrationError> {
        let text = std::fs::read_to_string(path).map_err(|source| CalibrationError::Read {
            path: path.to_owned(),
            source,
        })?;
        Self::parse(&text, path)
    }

    /// Parses calibration text; `path` is only used in error messages.
    pub fn parse(text: &str, path: &Path) -> Result<Self, CalibrationError> {
        let calibration: Calibration =
            toml::from_str(text).map_err(|e| CalibrationError::Parse {
                path: path.to_owned(),
                message: e.to_string(),
            })?;
        calibration
            .palette_rgb()
            .map_err(|(index, value)| CalibrationError::BadColour {
                path: path.to_owned(),
                index,
                value,
            })?;
        Ok(calibration)
    }

    /// The palette as RGB triples, or the index and text of the first bad entry.
    pub fn palette_rgb(&self) -> Result<Vec<[u8; 3]>, (usize, String)> {
        self.palette
            .iter()
            .enumerate()
            .map(|(i, s)| parse_hex_colour(s).ok_or_else(|| (i, s.clone())))
            .collect()
    }

    /// Serialises to TOML text.
    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).expect("a calibration always serialises")
    }
}

/// Parses `"#rrggbb"` (the `#` is optional).
pub fn parse_hex_colour(text: &str) -> Option<[u8; 3]> {
    let hex = text.strip_prefix('#').unwrap_or(text);
    if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// Formats an RGB triple as `"#rrggbb"`.
pub fn format_hex_colour([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_full_file_and_defaults() {
        let text =
            "game = \"flood\"\nwindow_title = \"Flood\"\npalette = [\"#ff0000\", \"ffff00\"]\n\
                    [timing]\nsettle_timeout_ms = 500\n[keys]\nnew_game = \"n\"\n";
        let c = Calibration::parse(text, Path::new("x.toml")).unwrap();
        assert_eq!(c.palette_rgb().unwrap(), vec![[255, 0, 0], [255, 255, 0]]);
        assert_eq!(c.timing.settle_timeout_ms, 500);
        assert_eq!(
            c.timing.poll_interval_ms,
            Timing::default().poll_interval_ms
        );
        assert_eq!(c.keys.new_game, Some('n'));
        let again = Calibration::parse(&c.to_toml(), Path::new("y.toml")).unwrap();
        assert_eq!(again, c);
    }

    #[test]
    fn bad_colour_names_entry() {
        let err = Calibration::parse(
            "game = \"flood\"\npalette = [\"#ff0000\", \"#12\"]",
            Path::new("p.toml"),
        )
        .unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("p.toml") && msg.contains("entry 1") && msg.contains("#12"),
            "{msg}"
        );
    }

    #[test]
    fn unknown_field_is_an_error() {
        let err =
            Calibration::parse("game = \"flood\"\npalete = []", Path::new("q.toml")).unwrap_err();
        assert!(err.to_string().contains("palete"), "{err}");
    }
}
