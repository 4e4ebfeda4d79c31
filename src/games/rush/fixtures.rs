//! Screenshot fixtures of Fogleman's player (`fixtures/rush/`): each
//! `NAME.png` has a `NAME.txt` with `#` comment lines (how it was made),
//! optionally `after: OTHER.png` (read OTHER.png first, as the play loop
//! would have read the steady frame before a flash frame, then this one
//! where OTHER.png had the board), and the ground truth: the board (any
//! letters, compared in reading order) or `error: TEXT` for a screenshot
//! that must be refused with a message containing TEXT (any case).
//! `gridbot fixtures rush check` and the reader's unit test both use
//! [`check_one`].

use std::path::Path;
use std::time::Instant;

use super::generate::canonical_text;
use super::play::RushGame;
use crate::capture::load_image;

/// What a fixture must read as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Want {
    /// This board (in reading-order letters).
    Board(String),
    /// An error whose message holds this text (lower case).
    Error(String),
}

/// A fixture's ground truth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Truth {
    /// A screenshot of the same window to read first, if any.
    pub after: Option<String>,
    /// What the screenshot must read as.
    pub want: Want,
}

/// Parses a fixture's `.txt`.
pub fn parse_truth(text: &str) -> Result<Truth, String> {
    let mut after = None;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(file) = line.strip_prefix("after:") {
            after = Some(file.trim().to_string());
            continue;
        }
        if let Some(e) = line.strip_prefix("error:") {
            let e = e.trim();
            if e.is_empty() {
                return Err("`error:` with no text to look for".into());
            }
            return Ok(Truth {
                after,
                want: Want::Error(e.to_lowercase()),
            });
        }
        super::play::RushState::from_text(line).map_err(|e| format!("bad board {line:?}: {e}"))?;
        return Ok(Truth {
            after,
            want: Want::Board(canonical_text(line)),
        });
    }
    Err("no ground truth line (a board or `error: TEXT`)".into())
}

/// Checks the fixture `png` against the `.txt` beside it: whether it
/// passed, the time to read it in ms, and what was read.
pub fn check_one(png: &Path) -> anyhow::Result<(bool, f64, String)> {
    use anyhow::Context;
    let txt = png.with_extension("txt");
    let text =
        std::fs::read_to_string(&txt).with_context(|| format!("cannot read {}", txt.display()))?;
    let truth = parse_truth(&text)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("in {}", txt.display()))?;
    let game = RushGame::new();
    if let Some(first) = &truth.after {
        let path = png.with_file_name(first);
        let image = load_image(&path).with_context(|| format!("`after:` of {}", txt.display()))?;
        game.read_image(&image).map_err(|e| {
            anyhow::anyhow!("{} (`after:` of {}): {e}", path.display(), txt.display())
        })?;
    }
    let image = match load_image(png) {
        Ok(i) => i,
        Err(e) => {
            let msg = e.to_string();
            let ok = matches!(&truth.want, Want::Error(w) if msg.to_lowercase().contains(w));
            return Ok((ok, 0.0, format!("error: {msg}")));
        }
    };
    let t = Instant::now();
    let result = game.read_image(&image);
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    Ok(match (&truth.want, result) {
        (Want::Board(want), Ok(r)) => {
            let got = r.state.text();
            let how = if r.flashing { ", a flash frame" } else { "" };
            if got == want {
                (
                    true,
                    ms,
                    format!(
                        "{got} (cell {:.1} px at {:.0},{:.0}{how})",
                        r.reading.cell, r.reading.origin.0, r.reading.origin.1
                    ),
                )
            } else {
                (false, ms, format!("read {got}, expected {want}"))
            }
        }
        (Want::Board(want), Err(e)) => (false, ms, format!("error: {e} (expected {want})")),
        (Want::Error(want), Err(e)) => {
            let msg = e.to_string();
            (
                msg.to_lowercase().contains(want),
                ms,
                format!("error: {msg}"),
            )
        }
        (Want::Error(want), Ok(r)) => (
            false,
            ms,
            format!(
                "read {} but expected an error with {want:?}",
                r.state.text()
            ),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truths_parse() {
        assert_eq!(
            parse_truth("# made by hand\nafter: a.png\nCCooAAoxDoooDooo\n"),
            Ok(Truth {
                after: Some("a.png".into()),
                want: Want::Board("BBooAAoxCoooCooo".into())
            })
        );
        assert_eq!(
            parse_truth("error: No Grid\n").map(|t| t.want),
            Ok(Want::Error("no grid".into()))
        );
        assert!(parse_truth("# nothing\n").is_err());
        assert!(parse_truth("error:\n").is_err());
        assert!(parse_truth("AAA\n").unwrap_err().contains("bad board"));
    }

    /// Every fixture of `fixtures/rush/` reads as its ground truth.
    #[test]
    fn every_fixture_reads_right() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/rush");
        let mut checked = 0;
        for png in crate::cli::args::png_files(&dir).unwrap() {
            if !png.with_extension("txt").exists() {
                continue;
            }
            let (ok, _, seen) = check_one(&png).unwrap();
            assert!(ok, "{}: {seen}", png.display());
            checked += 1;
        }
        assert!(checked >= 8, "only {checked} fixtures");
    }
}
