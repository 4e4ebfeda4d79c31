//! Flood-It's screenshot fixtures (`fixtures/flood/`, see
//! [`crate::cli::fixtures`] for the layout and the truth format).
//!
//! Each screenshot is read without a calibration (the colours found mapped
//! to the game's through the fixture's `palette`, or, without one, both
//! boards numbered by first appearance) and, when the fixture has a
//! palette, again with that palette as the calibration: both must give
//! the `expected` board.

use std::path::Path;
use std::process::ExitCode;

use image::RgbaImage;

use crate::calibration::{format_hex_colour, parse_hex_colour, Calibration};
use crate::capture::colour::distance;
use crate::cli::fixtures::{FixtureGame, Reader, Reading, Truth};
use crate::games::flood::cstby::CstbyFlood;
use crate::games::flood::screen::{colour_char, from_sgt, read_board, to_sgt, FloodReading};

/// `gridbot fixtures flood`.
pub type Args = crate::cli::fixtures::Args;

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    crate::cli::fixtures::run(&FloodFixtures, args)
}

/// Flood-It's fixtures.
pub struct FloodFixtures;

/// A calibration for reading a fixture: `palette` (may be empty) and the
/// fixture's reading settings.
fn fixture_calibration(palette: Vec<String>, framed_greys: bool) -> Calibration {
    Calibration {
        game: "flood".into(),
        window_title: None,
        palette,
        geometry: Default::default(),
        reading: crate::calibration::ReadSettings {
            framed_greys,
            ..Default::default()
        },
        timing: Default::default(),
        keys: Default::default(),
    }
}

/// Colour numbers renumbered in order of first appearance.
fn by_first_appearance(cells: &[u8]) -> Vec<u8> {
    let mut seen: Vec<u8> = Vec::new();
    cells
        .iter()
        .map(|&c| {
            let k = seen.iter().position(|&s| s == c).unwrap_or_else(|| {
                seen.push(c);
                seen.len() - 1
            });
            k as u8
        })
        .collect()
}

/// `WxH:cells` of `cells`.
fn board_text(width: usize, height: usize, cells: &[u8]) -> String {
    let cells: String = cells.iter().map(|&c| colour_char(c)).collect();
    format!("{width}x{height}:{cells}")
}

/// Where the lattice was found.
fn lattice(r: &FloodReading) -> String {
    let l = &r.grid.lattice;
    format!(
        "{}x{} at ({:.0},{:.0}) pitch {:.1}x{:.1}",
        l.columns, l.rows, l.origin_x, l.origin_y, l.pitch_x, l.pitch_y
    )
}

/// An uncalibrated reading in the game's colour numbers: each colour found
/// mapped to the nearest of `palette`, or by first appearance without one.
fn in_game_colours(r: &FloodReading, palette: &[[u8; 3]]) -> Reading {
    let cells = r.board.cells();
    let mapped: Vec<u8> = if palette.is_empty() {
        by_first_appearance(cells)
    } else {
        let map: Vec<u8> = r
            .grid
            .palette
            .iter()
            .map(|&c| {
                palette
                    .iter()
                    .enumerate()
                    .map(|(k, &p)| (k, distance(c, p)))
                    .min_by(|a, b| a.1.total_cmp(&b.1))
                    .map_or(u8::MAX, |(k, _)| k as u8)
            })
            .collect();
        cells
            .iter()
            .map(|&c| map.get(c as usize).copied().unwrap_or(u8::MAX))
            .collect()
    };
    Reading {
        board: board_text(r.board.width(), r.board.height(), &mapped),
        detail: lattice(r),
    }
}

impl FixtureGame for FloodFixtures {
    fn name(&self) -> &'static str {
        "flood"
    }

    fn readers<'a>(&'a self, truth: &'a Truth) -> Vec<(&'static str, Reader<'a>)> {
        if truth.reader.as_deref() == Some("page") {
            return vec![("page", page_reader())];
        }
        let palette: Vec<[u8; 3]> = truth
            .palette
            .iter()
            .filter_map(|s| parse_hex_colour(s))
            .collect();
        let plain = truth
            .framed_greys
            .then(|| fixture_calibration(Vec::new(), true));
        let has_palette = !palette.is_empty();
        let mut readers: Vec<(&'static str, Reader<'a>)> = vec![(
            "plain",
            Box::new(move |image: &RgbaImage| {
                read_board(image, plain.as_ref())
                    .map(|r| in_game_colours(&r, &palette))
                    .map_err(|e| e.to_string())
            }),
        )];
        if has_palette {
            let calibration = fixture_calibration(truth.palette.clone(), truth.framed_greys);
            readers.push((
                "calibrated",
                Box::new(move |image: &RgbaImage| {
                    read_board(image, Some(&calibration))
                        .map(|r| Reading {
                            board: to_sgt(&r.board),
                            detail: lattice(&r),
                        })
                        .map_err(|e| e.to_string())
                }),
            ));
        }
        readers
    }

    fn normalise(&self, board: &str, truth: &Truth) -> Result<String, String> {
        let b = from_sgt(board, None).map_err(|e| e.to_string())?;
        if truth.palette.iter().any(|s| parse_hex_colour(s).is_some()) {
            Ok(to_sgt(&b))
        } else {
            Ok(board_text(
                b.width(),
                b.height(),
                &by_first_appearance(b.cells()),
            ))
        }
    }

    fn capture_lines(
        &self,
        image: &RgbaImage,
        calibration: Option<&Path>,
    ) -> anyhow::Result<Vec<String>> {
        let palette: Vec<String> = match calibration {
            Some(path) => Calibration::load(path)?.palette,
            None => read_board(image, None)?
                .grid
                .palette
                .iter()
                .map(|&c| format_hex_colour(c))
                .collect(),
        };
        Ok(vec![format!("palette = {palette:?}")])
    }
}

/// The reader of framed boards without separators (Carl Steib's page), as
/// the play loop uses it: what the first screenshot read teaches (cell
/// count, palette) is kept for the next (`after`). Colours are numbered by
/// first appearance, as the page reader numbers them.
fn page_reader<'a>() -> Reader<'a> {
    let game = CstbyFlood::new(fixture_calibration(Vec::new(), false));
    Box::new(move |image: &RgbaImage| {
        let r = game.read_board(image).map_err(|e| e.0)?;
        let i = r.frame.inner;
        Ok(Reading {
            board: board_text(r.cells, r.cells, &by_first_appearance(r.board.cells())),
            detail: format!(
                "{}x{} at ({},{}) side {}, {} colours{}",
                r.cells,
                r.cells,
                i.x,
                i.y,
                i.width,
                r.palette.len(),
                if r.covered { ", message over it" } else { "" }
            ),
        })
    })
}

/// Property test: whatever a fixture's TOML says (and whatever its PNG
/// holds), checking it returns a result or an error, never a panic.
#[cfg(test)]
mod fuzz {
    use super::*;
    use crate::cli::fixtures::check_one;
    use proptest::prelude::*;

    fn cases() -> u32 {
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(48)
    }

    fn field() -> impl Strategy<Value = String> {
        prop_oneof![
            "[0-9]{1,2}x[0-9]{1,2}:[0-9A-Za-z]{0,12}(,[0-9]{1,3})?",
            "2x2:[0-9]{4}",
            "\\PC{0,20}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn any_fixture_file_checks_or_errs(
            expected in proptest::option::of(field()),
            id in proptest::option::of(field()),
            palette in proptest::collection::vec(prop_oneof!["#[0-9a-f]{6}", "\\PC{0,8}"], 0..4),
            error in proptest::option::of("\\PC{0,10}"),
            real_png in any::<bool>(),
            junk in proptest::collection::vec(any::<u8>(), 0..64),
        ) {
            let dir = std::env::temp_dir().join(format!(
                "gridbot-fixture-fuzz-{}-{:?}",
                std::process::id(),
                std::thread::current().id()
            ));
            std::fs::create_dir_all(&dir).unwrap();
            let png = dir.join("f.png");
            if real_png {
                std::fs::copy(
                    concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/flood/size-2x2c3.png"),
                    &png,
                )
                .unwrap();
            } else {
                std::fs::write(&png, &junk).unwrap();
            }
            let mut toml = String::new();
            let q = |s: &str| toml::Value::String(s.to_string()).to_string();
            if let Some(e) = &expected { toml += &format!("expected = {}\n", q(e)); }
            if let Some(i) = &id { toml += &format!("id = {}\n", q(i)); }
            if let Some(e) = &error { toml += &format!("error = {}\n", q(e)); }
            let list: Vec<String> = palette.iter().map(|p| q(p)).collect();
            toml += &format!("palette = [{}]\n", list.join(", "));
            std::fs::write(png.with_extension("toml"), toml).unwrap();
            let _ = check_one(&FloodFixtures, &png);
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}
