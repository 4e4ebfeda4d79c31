//! `gridbot fixtures fifteen check [DIR]`: reads every screenshot fixture
//! of sgt-fifteen and compares it with its ground truth.
//!
//! A fixture is `NAME.png` beside `NAME.txt`: `#` comment lines (how the
//! screenshot was made), then either the sgt-fifteen game ID the screenshot
//! must read as, or `error: TEXT` for a screenshot that must be refused with
//! a message containing TEXT. `fixtures/fifteen/make-fixtures.py` makes
//! them. (`.txt`, not Flood-It's `.toml`, so that `fixtures flood check`
//! over the whole `fixtures/` folder leaves these alone.)

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::Subcommand;

use crate::capture::load_image;
use crate::cli::fixtures::check_table;
use crate::games::fifteen::parse::parse_sgt_id;
use crate::games::fifteen::read::read_board;

/// `gridbot fixtures fifteen`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, Subcommand)]
enum Action {
    /// Read every fixture under DIR and print a table; exits non-zero on any wrong board.
    Check {
        /// Folder searched recursively for NAME.png + NAME.txt pairs.
        #[arg(default_value = "fixtures/fifteen")]
        dir: PathBuf,
    },
}

/// What a fixture must read as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Truth {
    /// This game ID.
    Board(String),
    /// An error whose message holds this text.
    Error(String),
}

/// Parses a fixture's `.txt`.
pub fn parse_truth(text: &str) -> Result<Truth, String> {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .ok_or("no ground truth line (a game ID or `error: TEXT`)")?;
    if let Some(e) = line.strip_prefix("error:") {
        let e = e.trim();
        if e.is_empty() {
            return Err("`error:` with no text to look for".into());
        }
        return Ok(Truth::Error(e.to_string()));
    }
    let board = parse_sgt_id(line).map_err(|e| format!("bad game ID {line:?}: {e}"))?;
    Ok(Truth::Board(board.sgt_id()))
}

/// The outcome of one fixture: passed, time to read in ms, what was seen.
pub fn check_one(png: &Path) -> anyhow::Result<(bool, f64, String)> {
    let txt = png.with_extension("txt");
    let text =
        std::fs::read_to_string(&txt).with_context(|| format!("cannot read {}", txt.display()))?;
    let truth = parse_truth(&text)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("in {}", txt.display()))?;
    let image = match load_image(png) {
        Ok(i) => i,
        Err(e) => {
            let ok = matches!(&truth, Truth::Error(want) if e.to_string().contains(want.as_str()));
            return Ok((ok, 0.0, format!("error: {e}")));
        }
    };
    let t = Instant::now();
    let result = read_board(&image);
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    Ok(match (&truth, result) {
        (Truth::Board(want), Ok(r)) => {
            let got = r.board.sgt_id();
            if &got == want {
                (
                    true,
                    ms,
                    format!("{got} (tile {} px at {},{})", r.tile, r.x0, r.y0),
                )
            } else {
                (false, ms, format!("read {got}, expected {want}"))
            }
        }
        (Truth::Board(want), Err(e)) => (false, ms, format!("error: {e} (expected {want})")),
        (Truth::Error(want), Err(e)) => {
            let msg = e.to_string();
            (msg.contains(want.as_str()), ms, format!("error: {msg}"))
        }
        (Truth::Error(want), Ok(r)) => (
            false,
            ms,
            format!(
                "read {} but expected an error with {want:?}",
                r.board.sgt_id()
            ),
        ),
    })
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.action {
        Action::Check { dir } => check_table(&dir, "txt", check_one),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::fixtures::find_fixtures;

    #[test]
    fn truths_parse() {
        assert_eq!(
            parse_truth("# made by hand\n2x2:1,2,3,0\n"),
            Ok(Truth::Board("2x2:1,2,3,0".into()))
        );
        assert_eq!(
            parse_truth("error: cut off\n"),
            Ok(Truth::Error("cut off".into()))
        );
        assert!(parse_truth("# nothing\n").is_err());
        assert!(parse_truth("error:  \n").is_err());
        assert!(parse_truth("2x2:1,1,3,0")
            .unwrap_err()
            .contains("bad game ID"));
    }

    #[test]
    fn every_committed_fixture_reads_right() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fifteen");
        let fixtures = find_fixtures(&dir, "txt").unwrap();
        assert!(fixtures.len() >= 20, "only {} fixtures", fixtures.len());
        for png in &fixtures {
            let (ok, _, seen) = check_one(png).unwrap();
            assert!(ok, "{}: {seen}", png.display());
        }
    }
}
