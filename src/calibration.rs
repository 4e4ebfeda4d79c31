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
    /// How sure the reader must be of every cell.
    #[serde(default)]
    pub reading: ReadSettings,
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

/// How sure the reader must be of every cell before it vouches for a board
/// (`[reading]` in the TOML). A cell below any threshold fails the read with
/// the cell named; the reader never guesses.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ReadSettings {
    /// Lowest cell confidence accepted, in [0, 1] (default 0.5). Confidence
    /// is the cell's uniformity times how clearly its colour is nearer its
    /// palette entry than the next one (0 half-way between two entries).
    pub min_confidence: f32,
    /// Lowest share of a cell's sampled area (70% of the cell, centred) that
    /// must agree with its colour, in [0, 1] (default 0.75: sgt-flood's keyboard
    /// cursor outline leaves 81% of a 32-pixel cell matching).
    pub min_uniformity: f32,
    /// Largest RGB distance from a cell's colour to its palette entry, in
    /// [0, 442] (default 64).
    pub max_palette_distance: f32,
    /// Read boards with grey or pale colours by the board's dark frame,
    /// accepting unsaturated colours that fill whole cells (default false:
    /// a window over the board can fill whole cells too, so this is for
    /// users who know no window covers their game).
    pub framed_greys: bool,
}

impl Default for ReadSettings {
    fn default() -> Self {
        ReadSettings {
            min_confidence: 0.5,
            min_uniformity: 0.75,
            max_palette_distance: 64.0,
            framed_greys: false,
        }
    }
}

/// Range of every `[timing]` value in milliseconds: up to ten minutes.
pub const MAX_TIMING_MS: u64 = 600_000;

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
    #[error("cannot read the calibration file: {0}")]
    Read(#[from] crate::files::FileError),
    /// The file is not valid TOML or has wrong fields.
    #[error("calibration file {path} is invalid: {message}")]
    Parse {
        /// The file concerned.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A value is outside its documented range.
    #[error("calibration file {path}: {key} = {value} is out of range ({range})")]
    OutOfRange {
        /// The file concerned.
        path: PathBuf,
        /// The TOML key, e.g. `timing.poll_interval_ms`.
        key: &'static str,
        /// The value as written.
        value: String,
        /// The documented range.
        range: &'static str,
    },
    /// A palette with a single colour cannot tell cells apart.
    #[error("calibration file {path}: palette has {count} colour(s); a board palette needs at least 2 (or leave `palette` out to detect colours)")]
    ShortPalette {
        /// The file concerned.
        path: PathBuf,
        /// How many colours it has.
        count: usize,
    },
    /// Two palette entries are the same colour.
    #[error("calibration file {path}: palette entries {first} and {second} are both {colour}")]
    DuplicateColour {
        /// The file concerned.
        path: PathBuf,
        /// The first entry (0-based).
        first: usize,
        /// The second entry (0-based).
        second: usize,
        /// The colour both are.
        colour: String,
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
        let text = crate::files::read_text(
            &path.to_string_lossy(),
            crate::files::SMALL_FILE_CAP,
            "a calibration file",
        )?;
        Self::parse(&text, path)
    }

    /// Parses calibration text; `path` is only used in error messages.
    pub fn parse(text: &str, path: &Path) -> Result<Self, CalibrationError> {
        let calibration: Calibration =
            toml::from_str(text).map_err(|e| CalibrationError::Parse {
                path: path.to_owned(),
                message: e.to_string(),
            })?;
        // `palette = []` written out is refused; a missing key (the same
        // empty vector after serde) means "detect the colours".
        let palette_written = text
            .parse::<toml::Table>()
            .map(|t| t.contains_key("palette"))
            .unwrap_or(false);
        let palette =
            calibration
                .palette_rgb()
                .map_err(|(index, value)| CalibrationError::BadColour {
                    path: path.to_owned(),
                    index,
                    value,
                })?;
        calibration.check(&palette, palette_written, path)?;
        Ok(calibration)
    }

    /// Checks the documented ranges: a palette of 0 (detect) or at least 2
    /// distinct colours, reading thresholds, timings up to [`MAX_TIMING_MS`].
    fn check(
        &self,
        palette: &[[u8; 3]],
        palette_written: bool,
        path: &Path,
    ) -> Result<(), CalibrationError> {
        if palette.len() == 1 || (palette.is_empty() && palette_written) {
            return Err(CalibrationError::ShortPalette {
                path: path.to_owned(),
                count: palette.len(),
            });
        }
        for (i, a) in palette.iter().enumerate() {
            if let Some(j) = palette[..i].iter().position(|b| b == a) {
                return Err(CalibrationError::DuplicateColour {
                    path: path.to_owned(),
                    first: j,
                    second: i,
                    colour: format_hex_colour(*a),
                });
            }
        }
        let out = |key: &'static str, value: String, range: &'static str| {
            Err(CalibrationError::OutOfRange {
                path: path.to_owned(),
                key,
                value,
                range,
            })
        };
        let r = &self.reading;
        let unit = |v: f32| (0.0..=1.0).contains(&v);
        if !unit(r.min_confidence) {
            return out(
                "reading.min_confidence",
                r.min_confidence.to_string(),
                "0 to 1",
            );
        }
        if !unit(r.min_uniformity) {
            return out(
                "reading.min_uniformity",
                r.min_uniformity.to_string(),
                "0 to 1",
            );
        }
        if !(0.0..=442.0).contains(&r.max_palette_distance) {
            return out(
                "reading.max_palette_distance",
                r.max_palette_distance.to_string(),
                "0 to 442",
            );
        }
        let g = &self.geometry;
        for (key, value) in [("geometry.columns", g.columns), ("geometry.rows", g.rows)] {
            if let Some(v) = value.filter(|v| !(1..=64).contains(v)) {
                return out(key, v.to_string(), "1 to 64");
            }
        }
        if let Some(v) = g.cell_size.filter(|v| !(2.0..=1000.0).contains(v)) {
            return out("geometry.cell_size", v.to_string(), "2 to 1000 pixels");
        }
        let t = &self.timing;
        for (key, value) in [
            ("timing.poll_interval_ms", t.poll_interval_ms),
            ("timing.settle_timeout_ms", t.settle_timeout_ms),
            ("timing.after_click_ms", t.after_click_ms),
            ("timing.solve_budget_ms", t.solve_budget_ms),
        ] {
            if value > MAX_TIMING_MS {
                return out(key, value.to_string(), "0 to 600000 ms, ten minutes");
            }
        }
        if t.poll_interval_ms == 0 {
            return out(
                "timing.poll_interval_ms",
                "0".into(),
                "1 to 600000 ms: the settle loop needs a pause between captures",
            );
        }
        if t.settle_timeout_ms < t.poll_interval_ms {
            return out(
                "timing.settle_timeout_ms",
                t.settle_timeout_ms.to_string(),
                "at least timing.poll_interval_ms",
            );
        }
        Ok(())
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

    fn parse_err(text: &str) -> String {
        Calibration::parse(text, Path::new("r.toml"))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn short_or_repeated_palettes_are_errors() {
        let msg = parse_err("game = \"flood\"\npalette = []");
        assert!(msg.contains("palette has 0 colour(s)"), "{msg}");
        let msg = parse_err("game = \"flood\"\npalette = [\"#ff0000\"]");
        assert!(msg.contains("palette has 1 colour(s)"), "{msg}");
        let msg = parse_err("game = \"flood\"\npalette = [\"#ff0000\", \"#00ff00\", \"#FF0000\"]");
        assert!(msg.contains("entries 0 and 2"), "{msg}");
        // No palette key at all: colours are detected.
        assert!(Calibration::parse("game = \"flood\"", Path::new("r.toml")).is_ok());
    }

    #[test]
    fn out_of_range_values_name_their_key() {
        let msg = parse_err("game = \"flood\"\n[timing]\nafter_click_ms = 18446744073709551615");
        assert!(
            msg.contains("timing.after_click_ms = 18446744073709551615 is out of range"),
            "{msg}"
        );
        let msg = parse_err("game = \"flood\"\n[timing]\npoll_interval_ms = 0");
        assert!(msg.contains("timing.poll_interval_ms = 0"), "{msg}");
        let msg = parse_err("game = \"flood\"\n[reading]\nmin_confidence = 1.5");
        assert!(msg.contains("reading.min_confidence = 1.5"), "{msg}");
        let msg = parse_err("game = \"flood\"\n[reading]\nmin_uniformity = nan");
        assert!(msg.contains("reading.min_uniformity = NaN"), "{msg}");
        let msg = parse_err("game = \"flood\"\n[timing]\nsettle_timeout_ms = -1");
        assert!(msg.contains("settle_timeout_ms"), "{msg}");
        let msg = parse_err("game = \"flood\"\n[geometry]\ncell_size = inf");
        assert!(msg.contains("geometry.cell_size = inf"), "{msg}");
        let msg = parse_err("game = \"flood\"\n[geometry]\ncolumns = 0");
        assert!(msg.contains("geometry.columns = 0"), "{msg}");
        let c = Calibration::parse(
            "game = \"flood\"\n[reading]\nmin_confidence = 0.25",
            Path::new("r.toml"),
        )
        .unwrap();
        assert_eq!(c.reading.min_confidence, 0.25);
        assert_eq!(
            c.reading.min_uniformity,
            ReadSettings::default().min_uniformity
        );
    }

    #[test]
    fn unknown_field_is_an_error() {
        let err =
            Calibration::parse("game = \"flood\"\npalete = []", Path::new("q.toml")).unwrap_err();
        assert!(err.to_string().contains("palete"), "{err}");
    }
}

/// Property tests: no text makes the calibration parser panic, and any
/// calibration it accepts is within the documented ranges.
#[cfg(test)]
mod fuzz {
    use super::*;
    use proptest::prelude::*;

    fn value() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<u64>().prop_map(|v| v.to_string()),
            any::<i64>().prop_map(|v| v.to_string()),
            any::<f64>().prop_map(|v| format!("{v:?}")),
            Just("nan".to_string()),
            Just("inf".to_string()),
            Just("[]".to_string()),
            "\"[#0-9a-fA-F]{0,8}\"",
        ]
    }

    proptest! {
        #![proptest_config(crate::fuzz::config(256))]

        #[test]
        fn any_text_parses_or_errs(text in "\\PC{0,120}") {
            let _ = Calibration::parse(&text, Path::new("fuzz.toml"));
        }

        #[test]
        fn accepted_values_are_in_range(
            section in prop_oneof![Just("timing"), Just("reading"), Just("geometry")],
            key in prop_oneof![
                Just("poll_interval_ms"), Just("settle_timeout_ms"), Just("after_click_ms"),
                Just("solve_budget_ms"), Just("min_confidence"), Just("min_uniformity"),
                Just("max_palette_distance"), Just("columns"), Just("rows"), Just("cell_size"),
            ],
            v in value(),
            palette in proptest::collection::vec("#[0-9a-f]{6}", 0..4),
        ) {
            let palette: Vec<String> = palette.iter().map(|c| format!("{c:?}")).collect();
            let text = format!(
                "game = \"flood\"\npalette = [{}]\n[{section}]\n{key} = {v}\n",
                palette.join(", ")
            );
            if let Ok(c) = Calibration::parse(&text, Path::new("fuzz.toml")) {
                prop_assert!(c.palette.len() >= 2);
                prop_assert!(c.timing.after_click_ms <= MAX_TIMING_MS);
                prop_assert!(c.timing.settle_timeout_ms <= MAX_TIMING_MS);
                prop_assert!(c.timing.poll_interval_ms >= 1);
                prop_assert!((0.0..=1.0).contains(&c.reading.min_confidence));
                prop_assert!((0.0..=1.0).contains(&c.reading.min_uniformity));
            }
        }
    }
}
