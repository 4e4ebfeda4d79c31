//! `gridbot fixtures check [DIR]` reads every screenshot fixture and
//! compares it with its ground truth; `gridbot fixtures record NAME`
//! captures the live screen and stores it with the board the reader sees.
//!
//! A fixture is `NAME.png` beside `NAME.toml`. The TOML holds the game ID
//! the game was started with (`id`), the palette the game used in its own
//! colour order (`palette`), the colours played (`moves`) and the board on
//! the screenshot in sgt cell format (`expected`); or, for inputs that must
//! be refused, `error`: a piece of the expected error message.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use crate::calibration::{parse_hex_colour, Calibration};
use crate::capture::colour::distance;
use crate::capture::{load_image, screen};
use crate::cli::fixtures::find_fixtures;
use crate::games::flood::screen::{from_sgt, read_board, to_sgt};
use anyhow::{bail, Context};
use clap::Subcommand;

#[derive(Debug, clap::Args)]
/// The command's arguments.
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, Subcommand)]
enum Action {
    /// Read every fixture under DIR and print a table; exits non-zero on any wrong cell.
    ///
    /// Each screenshot is read without a calibration (colours mapped to the
    /// game's through the fixture's palette) and, if the fixture has a
    /// palette, again with that palette as calibration; both must be right.
    Check {
        /// Folder searched recursively for NAME.png + NAME.toml pairs.
        #[arg(default_value = "fixtures")]
        dir: PathBuf,
    },
    /// Capture the live screen ($DISPLAY) and store it as a fixture with the board read from it.
    Record {
        /// Fixture name (file stem).
        name: String,
        /// Folder to store it in.
        #[arg(long, default_value = "fixtures/flood")]
        dir: PathBuf,
        /// Calibration for the palette (game colour order); default: auto-detected colours.
        #[arg(short, long)]
        calibration: Option<PathBuf>,
        /// The game ID the game was started with, stored as ground truth.
        #[arg(long)]
        id: Option<String>,
    },
}

/// Ground truth of one fixture.
#[derive(Debug, serde::Deserialize)]
struct Truth {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    expected: Option<String>,
    #[serde(default)]
    palette: Vec<String>,
    #[serde(default)]
    error: Option<String>,
    /// Read with `reading.framed_greys` (boards of grey or pale colours).
    #[serde(default)]
    framed_greys: bool,
}

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

/// Outcome of one fixture.
struct Outcome {
    name: String,
    right: usize,
    total: usize,
    lattice: String,
    millis: f64,
    ok: bool,
}

fn check_one(png: &Path, root: &Path) -> anyhow::Result<Outcome> {
    let name = png
        .strip_prefix(root)
        .unwrap_or(png)
        .with_extension("")
        .display()
        .to_string();
    let toml_path = png.with_extension("toml");
    let text = std::fs::read_to_string(&toml_path)
        .with_context(|| format!("cannot read {}", toml_path.display()))?;
    let truth: Truth = toml::from_str(&text)
        .with_context(|| format!("{} is not a fixture file", toml_path.display()))?;

    // Time the reading only, not the PNG decoding.
    let mut millis = 0.0;
    let plain = truth
        .framed_greys
        .then(|| fixture_calibration(Vec::new(), true));
    let result = load_image(png).and_then(|img| {
        let start = Instant::now();
        let r = read_board(&img, plain.as_ref());
        millis = start.elapsed().as_secs_f64() * 1000.0;
        r
    });

    if let Some(want) = truth.error {
        let (ok, lattice) = match &result {
            Err(e) => (e.to_string().contains(&want), format!("error: {e}")),
            Ok(r) => (
                false,
                format!("read {} but expected an error", to_sgt(&r.board)),
            ),
        };
        return Ok(Outcome {
            name,
            right: ok as usize,
            total: 1,
            lattice,
            millis,
            ok,
        });
    }

    let expected_text = truth
        .expected
        .or(truth.id)
        .context("fixture has neither `expected` nor `id`")?;
    let expected = from_sgt(&expected_text, None)
        .with_context(|| format!("bad expected board {expected_text:?}"))?;
    let total = expected.cells().len();
    let reading = match result {
        Ok(r) => r,
        Err(e) => {
            return Ok(Outcome {
                name,
                right: 0,
                total,
                lattice: format!("error: {e}"),
                millis,
                ok: false,
            })
        }
    };
    let l = &reading.grid.lattice;
    let lattice = format!(
        "{}x{} at ({:.0},{:.0}) pitch {:.1}x{:.1}",
        l.columns, l.rows, l.origin_x, l.origin_y, l.pitch_x, l.pitch_y
    );
    if (l.columns, l.rows) != (expected.width(), expected.height()) {
        return Ok(Outcome {
            name,
            right: 0,
            total,
            lattice,
            millis,
            ok: false,
        });
    }
    // The reader numbers colours by first appearance; map each colour it
    // found to the game's colour number through the fixture's palette.
    let palette: Vec<[u8; 3]> = truth
        .palette
        .iter()
        .filter_map(|s| parse_hex_colour(s))
        .collect();
    let map: Vec<u8> = if palette.is_empty() {
        // No palette: colours must match up to renumbering in order of
        // first appearance.
        let mut seen: Vec<u8> = Vec::new();
        for &c in expected.cells() {
            if !seen.contains(&c) {
                seen.push(c);
            }
        }
        (0..reading.grid.palette.len())
            .map(|i| seen.get(i).copied().unwrap_or(u8::MAX))
            .collect()
    } else {
        reading
            .grid
            .palette
            .iter()
            .map(|&c| {
                let (k, _) = palette
                    .iter()
                    .enumerate()
                    .map(|(k, &p)| (k, distance(c, p)))
                    .min_by(|a, b| a.1.total_cmp(&b.1))
                    .unwrap_or((255, 0.0));
                k as u8
            })
            .collect()
    };
    let mut right = reading
        .board
        .cells()
        .iter()
        .zip(expected.cells())
        .filter(|(&got, &want)| map.get(got as usize) == Some(&want))
        .count();
    // With the fixture's palette as calibration, the reading must be the
    // expected board exactly (game colour numbers).
    let mut lattice = lattice;
    if !palette.is_empty() {
        let calibration = fixture_calibration(truth.palette.clone(), truth.framed_greys);
        let calibrated = load_image(png).and_then(|img| read_board(&img, Some(&calibration)));
        match calibrated {
            Ok(r) if r.board.cells() == expected.cells() => {}
            Ok(r) => {
                right = right.min(
                    r.board
                        .cells()
                        .iter()
                        .zip(expected.cells())
                        .filter(|(a, b)| a == b)
                        .count(),
                );
                lattice += "; calibrated read differs";
            }
            Err(e) => {
                right = 0;
                lattice += &format!("; calibrated read: {e}");
            }
        }
    }
    Ok(Outcome {
        name,
        right,
        total,
        lattice,
        millis,
        ok: right == total,
    })
}

fn check(dir: &Path) -> anyhow::Result<ExitCode> {
    let fixtures = find_fixtures(dir, "toml")?;
    if fixtures.is_empty() {
        bail!(
            "no fixtures (NAME.png with NAME.toml) under {}",
            dir.display()
        );
    }
    let width = fixtures
        .iter()
        .map(|p| {
            p.strip_prefix(dir)
                .unwrap_or(p)
                .with_extension("")
                .display()
                .to_string()
                .len()
        })
        .max()
        .unwrap_or(7)
        .max(7);
    println!(
        "{:<width$}  {:>11}  {:>9}  lattice",
        "fixture", "cells right", "time ms"
    );
    let mut failures = 0;
    for png in &fixtures {
        let o = check_one(png, dir)?;
        if !o.ok {
            failures += 1;
        }
        println!(
            "{:<width$}  {:>11}  {:>9.2}  {}{}",
            o.name,
            format!("{}/{}", o.right, o.total),
            o.millis,
            o.lattice,
            if o.ok { "" } else { "  FAIL" }
        );
    }
    println!("{} fixtures, {} failed", fixtures.len(), failures);
    Ok(if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn record(
    name: &str,
    dir: &Path,
    calibration: Option<&Path>,
    id: Option<&str>,
) -> anyhow::Result<ExitCode> {
    let calibration = calibration.map(Calibration::load).transpose()?;
    let shot = screen::capture_screen().context("cannot capture the screen")?;
    let reading = read_board(&shot.image, calibration.as_ref())
        .context("the reader sees no board on the screen; nothing recorded")?;
    std::fs::create_dir_all(dir)?;
    let png = dir.join(format!("{name}.png"));
    shot.image
        .save(&png)
        .with_context(|| format!("cannot write {}", png.display()))?;
    let sgt = to_sgt(&reading.board);
    let palette: Vec<String> = reading
        .grid
        .palette
        .iter()
        .map(|&c| crate::calibration::format_hex_colour(c))
        .collect();
    let mut text = String::from("# Recorded by `gridbot fixtures record`: check `expected` against the game before committing.\n");
    if let Some(id) = id {
        text += &format!("id = {id:?}\n");
    }
    text += &format!("palette = {palette:?}\nexpected = {sgt:?}\n");
    let toml_path = dir.join(format!("{name}.toml"));
    std::fs::write(&toml_path, text)
        .with_context(|| format!("cannot write {}", toml_path.display()))?;
    println!(
        "{}\n{sgt}\nrecorded {} and {} : confirm the board above against the game",
        super::read::lattice_line(&reading),
        png.display(),
        toml_path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.action {
        Action::Check { dir } => check(&dir),
        Action::Record {
            name,
            dir,
            calibration,
            id,
        } => record(&name, &dir, calibration.as_deref(), id.as_deref()),
    }
}

/// Property test: whatever a fixture's TOML says (and whatever its PNG
/// holds), checking it returns a result or an error, never a panic.
#[cfg(test)]
mod fuzz {
    use super::*;
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
            let _ = check_one(&png, &dir);
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}
