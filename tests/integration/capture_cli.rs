//! `gridbot read` end to end on real sgt-flood screenshots: the sgt-flood
//! calibration reproduces the game ID exactly, auto mode numbers colours by
//! first appearance, and bad inputs give clear errors and a non-zero exit,
//! never a panic.

use std::process::{Command, Output};

fn root() -> &'static str {
    env!("CARGO_MANIFEST_DIR")
}

fn gridbot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gridbot"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("gridbot runs")
}

fn field(toml_text: &str, key: &str) -> String {
    let v: toml::Value = toml::from_str(toml_text).unwrap();
    v[key].as_str().unwrap().to_string()
}

#[test]
fn calibrated_read_prints_the_game_id() {
    for name in [
        "preset-12x12c6",
        "colours-10-14x14",
        "scaled-150-smooth",
        "played-16x16c6-9moves",
    ] {
        let text =
            std::fs::read_to_string(format!("{}/fixtures/flood/{name}.toml", root())).unwrap();
        let out = gridbot(&[
            "read",
            "flood",
            &format!("fixtures/flood/{name}.png"),
            "--calibration",
            "calibration/sgt-flood.toml",
            "--format",
            "sgt",
        ]);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            field(&text, "expected"),
            "{name}"
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("lattice:") && stderr.contains("pitch"),
            "{stderr}"
        );
    }
}

#[test]
fn auto_read_numbers_colours_by_first_appearance() {
    let out = gridbot(&[
        "read",
        "flood",
        "fixtures/flood/preset-12x12c3.png",
        "--format",
        "json",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let cells: Vec<u64> = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!(cells.len(), 144);
    assert_eq!(cells[0], 0);
    let mut next = 0;
    for &c in &cells {
        assert!(c <= next, "colour {c} appears before {next}");
        if c == next {
            next += 1;
        }
    }
    assert_eq!(v["palette"].as_array().unwrap().len(), 3);
    assert_eq!(v["confidence"].as_array().unwrap().len(), 144);
    assert_eq!(v["lattice"]["columns"], 12);
}

#[test]
fn bad_inputs_are_clear_errors() {
    let cases = [
        ("fixtures/flood/bad/not-an-image.png", "cannot decode image"),
        ("fixtures/flood/bad/truncated.png", "cannot decode image"),
        ("fixtures/flood/bad/one-colour.png", "one colour"),
        ("fixtures/flood/bad/no-board.png", "no board found"),
        (
            "fixtures/flood/bad/cut-off-right.png",
            "cut off at the right edge",
        ),
        ("fixtures/flood/bad/covered.png", "covered"),
        ("fixtures/does-not-exist.png", "cannot open image"),
    ];
    for (file, want) in cases {
        let out = gridbot(&["read", "flood", file]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{file}: {stderr}");
        assert!(
            stderr.contains(want) && !stderr.contains("panicked"),
            "{file}: {stderr}"
        );
    }
}

#[test]
fn calibration_rejects_colours_far_from_its_palette() {
    // A custom-palette screenshot read with the default sgt palette: its
    // colours are not in the palette, so the reader refuses to guess: the
    // first cell, #ffd700, is between yellow and orange.
    let out = gridbot(&[
        "read",
        "flood",
        "fixtures/flood/palette-custom-6.png",
        "-c",
        "calibration/sgt-flood.toml",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr
            .contains("cell (0, 0) colour #ffd700 is between palette colours #ffff00 and #ff8000"),
        "{stderr}"
    );
    // A cell far from every colour is named too.
    let dir = std::env::temp_dir().join(format!("gridbot-far-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cal = dir.join("c.toml");
    std::fs::write(
        &cal,
        "game = \"flood\"\npalette = [\"#000080\", \"#008000\"]\n",
    )
    .unwrap();
    let out = gridbot(&[
        "read",
        "flood",
        "fixtures/flood/palette-custom-6.png",
        "-c",
        cal.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("cell (0, 0) colour #ffd700 is far from every palette colour (nearest #"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn calibrate_writes_a_file_that_reads_back() {
    let out_path =
        std::env::temp_dir().join(format!("gridbot-calibrate-{}.toml", std::process::id()));
    let out_str = out_path.to_str().unwrap();
    let out = gridbot(&[
        "calibrate",
        "flood",
        "fixtures/flood/palette-custom-9-tile28.png",
        "-o",
        out_str,
        "--force",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let calibration = gridbot::calibration::Calibration::load(&out_path).unwrap();
    assert_eq!(calibration.game, "flood");
    assert_eq!(calibration.palette.len(), 9);
    // Reading with it gives the same board as reading without it (both
    // number colours by first appearance).
    let with = gridbot(&[
        "read",
        "flood",
        "fixtures/flood/palette-custom-9-tile28.png",
        "-c",
        out_str,
        "-f",
        "sgt",
    ]);
    let without = gridbot(&[
        "read",
        "flood",
        "fixtures/flood/palette-custom-9-tile28.png",
        "-f",
        "sgt",
    ]);
    std::fs::remove_file(&out_path).ok();
    assert!(with.status.success());
    assert_eq!(with.stdout, without.stdout);
    // It refuses to overwrite without --force.
    let out = gridbot(&[
        "calibrate",
        "flood",
        "fixtures/flood/preset-12x12c6.png",
        "-o",
        "calibration/sgt-flood.toml",
    ]);
    assert!(!out.status.success());
}

#[test]
fn won_board_needs_and_takes_geometry_hints() {
    let out = gridbot(&["read", "flood", "fixtures/flood/bad/won-5x5c3.png"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("all one colour (#ffff00)"));
    let path = std::env::temp_dir().join(format!("gridbot-won-{}.toml", std::process::id()));
    let base = std::fs::read_to_string(format!("{}/calibration/sgt-flood.toml", root())).unwrap();
    std::fs::write(
        &path,
        base.replace("# columns = 12", "columns = 5")
            .replace("# rows = 12", "rows = 5"),
    )
    .unwrap();
    let out = gridbot(&[
        "read",
        "flood",
        "fixtures/flood/bad/won-5x5c3.png",
        "-c",
        path.to_str().unwrap(),
        "-f",
        "sgt",
    ]);
    std::fs::remove_file(&path).ok();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "5x5:1111111111111111111111111"
    );
}

#[test]
fn dump_stages_writes_one_image_per_stage() {
    let dir = std::env::temp_dir().join(format!("gridbot-stages-{}", std::process::id()));
    let out = gridbot(&[
        "read",
        "flood",
        "fixtures/flood/preset-12x12c4.png",
        "--dump-stages",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    for name in [
        "1-mask.png",
        "2-edges.png",
        "2-lattice.png",
        "3-cells.png",
        "4-palette.png",
    ] {
        let image = image::open(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(image.width() > 0, "{name}");
    }
    // A failed read still shows the mask.
    std::fs::remove_dir_all(&dir).ok();
    let out = gridbot(&[
        "read",
        "flood",
        "fixtures/flood/bad/no-board.png",
        "--dump-stages",
        dir.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(dir.join("1-mask.png").exists());
    std::fs::remove_dir_all(&dir).ok();
}
