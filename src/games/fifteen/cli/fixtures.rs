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

use anyhow::{bail, Context};
use clap::Subcommand;

use crate::capture::load_image;
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

/// Every `*.png` under `dir` with a `*.txt` beside it, sorted.
pub fn find_fixtures(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in
            std::fs::read_dir(&d).with_context(|| format!("cannot list {}", d.display()))?
        {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "png")
                && path.with_extension("txt").exists()
            {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
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

fn check(dir: &Path) -> anyhow::Result<ExitCode> {
    let fixtures = find_fixtures(dir)?;
    if fixtures.is_empty() {
        bail!(
            "no fixtures (NAME.png with NAME.txt) under {}",
            dir.display()
        );
    }
    let name = |p: &PathBuf| {
        p.strip_prefix(dir)
            .unwrap_or(p)
            .with_extension("")
            .display()
            .to_string()
    };
    let width = fixtures
        .iter()
        .map(|p| name(p).len())
        .max()
        .unwrap_or(7)
        .max(7);
    println!(
        "{:<width$}  {:>6}  {:>8}  read",
        "fixture", "result", "time ms"
    );
    let mut failures = 0;
    for png in &fixtures {
        let (ok, ms, seen) = check_one(png)?;
        failures += usize::from(!ok);
        println!(
            "{:<width$}  {:>6}  {:>8.2}  {seen}",
            name(png),
            if ok { "ok" } else { "FAIL" },
            ms
        );
    }
    println!("{} fixtures, {} failed", fixtures.len(), failures);
    Ok(if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.action {
        Action::Check { dir } => check(&dir),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let fixtures = find_fixtures(&dir).unwrap();
        assert!(fixtures.len() >= 20, "only {} fixtures", fixtures.len());
        for png in &fixtures {
            let (ok, _, seen) = check_one(png).unwrap();
            assert!(ok, "{}: {seen}", png.display());
        }
    }
}
