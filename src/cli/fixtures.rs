//! `gridbot fixtures GAME check|record [DIR]`: golden screenshots, one
//! layout and one truth format for every game read off the screen.
//!
//! A fixture is `fixtures/GAME/NAME.png` beside `NAME.toml` (inputs that
//! must be refused in `fixtures/GAME/bad/`). The TOML says what the
//! game's reader must make of the screenshot:
//!
//! - `expected = "BOARD"`: the board in the game's own notation (Flood-It
//!   `WxH:cells`, Fifteen and Pegs game IDs, Rush Hour's letters in
//!   reading order), or
//! - `error = "TEXT"`: the screenshot must be refused with a message
//!   holding TEXT (an `expected` beside it then only records the board
//!   under the damage);
//! - `after = "OTHER.png"` (optional): read OTHER.png first with the same
//!   reader, as the play loop would have read it just before;
//! - anything else records how the screenshot was made (`#` comments,
//!   `id`, `params`, `[env]`), and Flood-It's `palette` (the game's colours
//!   in its order), `framed_greys` and `reader` set how its board is read.
//!
//! `check` reads every screenshot and compares (in the manner of
//! imageproc's golden images); `record` rewrites the truth files from what
//! the reader reads now (review the diff before committing), or with
//! `--capture NAME` stores the live screen as a new fixture.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use clap::Subcommand;
use image::RgbaImage;

use super::args::png_files;
use crate::capture::load_image;

/// A fixture's truth file.
#[derive(Debug, Clone, Default, serde::Deserialize)]
pub struct Truth {
    /// The board the screenshot shows, in the game's notation.
    #[serde(default)]
    pub expected: Option<String>,
    /// A piece of the error message the screenshot must be refused with.
    #[serde(default)]
    pub error: Option<String>,
    /// A screenshot of the same window to read first.
    #[serde(default)]
    pub after: Option<String>,
    /// The game ID the game was started with (a record of how it was made).
    #[serde(default)]
    pub id: Option<String>,
    /// Flood-It: the game's colours in its own order, `#rrggbb`.
    #[serde(default)]
    pub palette: Vec<String>,
    /// Flood-It: read with `reading.framed_greys` (grey or pale boards).
    #[serde(default)]
    pub framed_greys: bool,
    /// The game's reader to use when it has several (Flood-It: `page`, the
    /// reader of framed boards without separators); the usual ones when
    /// absent.
    #[serde(default)]
    pub reader: Option<String>,
}

impl Truth {
    /// Parses a truth file's text.
    pub fn parse(text: &str) -> Result<Truth, String> {
        let t: Truth = toml::from_str(text).map_err(|e| e.message().to_string())?;
        match (&t.expected, &t.error) {
            (None, None) => Err("neither `expected` nor `error`".into()),
            (_, Some(e)) if e.trim().is_empty() => Err("`error` with no text to look for".into()),
            _ => Ok(t),
        }
    }
}

/// What a reader made of a screenshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The board, in the truth file's notation.
    pub board: String,
    /// Where and how it was found (lattice, tile size), for the table.
    pub detail: String,
}

/// One way of reading a fixture's screenshots; it may keep state from one
/// image to the next (`after`).
pub type Reader<'a> = Box<dyn FnMut(&RgbaImage) -> Result<Reading, String> + 'a>;

/// A game with screenshot fixtures.
pub trait FixtureGame {
    /// The game's name: its fixtures are in `fixtures/NAME/`.
    fn name(&self) -> &'static str;

    /// The readers a fixture's screenshot goes through, each with a label;
    /// every one must read the expected board. The first is timed, decides
    /// the error fixtures and is the one `record` writes down.
    fn readers<'a>(&'a self, truth: &'a Truth) -> Vec<(&'static str, Reader<'a>)>;

    /// `board` (an `expected`) written as the readers write it.
    fn normalise(&self, board: &str, truth: &Truth) -> Result<String, String>;

    /// Extra truth lines for a screenshot captured live (Flood-It: the
    /// palette, from `calibration` when given).
    fn capture_lines(
        &self,
        image: &RgbaImage,
        calibration: Option<&Path>,
    ) -> anyhow::Result<Vec<String>> {
        let _ = image;
        if calibration.is_some() {
            bail!(
                "{} is not read by colour: --calibration does not apply",
                self.name()
            );
        }
        Ok(Vec::new())
    }
}

/// The outcome of checking one fixture.
#[derive(Debug, Clone)]
pub struct Checked {
    /// Whether every reader read what the truth says.
    pub ok: bool,
    /// Cells read right (1 or 0 for error fixtures).
    pub right: usize,
    /// Cells in all.
    pub total: usize,
    /// Time of the first reader, ms (the PNG decoding excluded).
    pub millis: f64,
    /// What was read.
    pub seen: String,
}

/// `WxH:cells` or plain cells: the size prefix (if any) and the cells,
/// split at commas when there are any, else one character each.
fn cells(board: &str) -> (&str, Vec<&str>) {
    let (prefix, rest) = board.split_once(':').unwrap_or(("", board));
    let cells = if rest.contains(',') {
        rest.split(',').collect()
    } else {
        rest.char_indices()
            .map(|(i, c)| &rest[i..i + c.len_utf8()])
            .collect()
    };
    (prefix, cells)
}

/// Cells of `got` equal to those of `want`, and the cells of `want` (none
/// right when the sizes differ).
fn score(got: &str, want: &str) -> (usize, usize) {
    let (gp, g) = cells(got);
    let (wp, w) = cells(want);
    if gp != wp || g.len() != w.len() {
        return (0, w.len());
    }
    (g.iter().zip(&w).filter(|(a, b)| a == b).count(), w.len())
}

/// The truth file beside `png`.
pub fn truth_of(png: &Path) -> anyhow::Result<Truth> {
    let path = png.with_extension("toml");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    Truth::parse(&text)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("{} is not a fixture file", path.display()))
}

/// Reads `png` with `reader`, after the truth's `after` screenshot; the
/// time of the read of `png` alone, ms.
fn read_with(
    reader: &mut Reader<'_>,
    png: &Path,
    truth: &Truth,
) -> anyhow::Result<(Result<Reading, String>, f64)> {
    if let Some(first) = &truth.after {
        let path = png.with_file_name(first);
        let image = load_image(&path).with_context(|| format!("`after` of {}", png.display()))?;
        reader(&image).map_err(|e| anyhow::anyhow!("{} (`after`): {e}", path.display()))?;
    }
    let image = match load_image(png) {
        Ok(i) => i,
        Err(e) => return Ok((Err(e.to_string()), 0.0)),
    };
    let t = Instant::now();
    let r = reader(&image);
    Ok((r, t.elapsed().as_secs_f64() * 1000.0))
}

/// An error fixture's outcome: `result` must be an error holding `want`.
fn refused(result: &Result<Reading, String>, want: &str, millis: f64) -> Checked {
    let (ok, seen) = match result {
        Err(e) => (e.contains(want), format!("error: {e}")),
        Ok(r) => (false, format!("read {} but expected an error", r.board)),
    };
    Checked {
        ok,
        right: usize::from(ok),
        total: 1,
        millis,
        seen,
    }
}

/// Checks one fixture: every reader of `game` against the truth file.
pub fn check_one(game: &dyn FixtureGame, png: &Path) -> anyhow::Result<Checked> {
    let truth = truth_of(png)?;
    let mut readers = game.readers(&truth);
    let mut first = readers.remove(0).1;
    let (result, millis) = read_with(&mut first, png, &truth)?;
    if let Some(want) = &truth.error {
        return Ok(refused(&result, want, millis));
    }
    let expected = truth.expected.as_deref().unwrap_or_default();
    let want = game
        .normalise(expected, &truth)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("{}: bad expected board {expected:?}", png.display()))?;
    let total = cells(&want).1.len();
    let reading = match result {
        Ok(r) => r,
        Err(e) => {
            return Ok(Checked {
                ok: false,
                right: 0,
                total,
                millis,
                seen: format!("error: {e} (expected {want})"),
            })
        }
    };
    let (mut right, _) = score(&reading.board, &want);
    let mut seen = if reading.board == want {
        reading.detail
    } else {
        format!(
            "read {}, expected {want}; {}",
            reading.board, reading.detail
        )
    };
    for (label, mut reader) in readers {
        match read_with(&mut reader, png, &truth)?.0 {
            Ok(r) if r.board == want => {}
            Ok(r) => {
                right = right.min(score(&r.board, &want).0);
                seen += &format!("; {label} read differs");
            }
            Err(e) => {
                right = 0;
                seen += &format!("; {label} read: {e}");
            }
        }
    }
    Ok(Checked {
        ok: right == total,
        right,
        total,
        millis,
        seen,
    })
}

/// Every `NAME.png` under `dir` (recursively, sorted) with a `NAME.toml`
/// beside it.
pub fn find_fixtures(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    Ok(png_files(dir)?
        .into_iter()
        .filter(|p| p.with_extension("toml").is_file())
        .collect())
}

/// The fixtures under `dir`, an error when there is none.
fn fixtures_in(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let fixtures = find_fixtures(dir)?;
    if fixtures.is_empty() {
        bail!(
            "no fixtures (NAME.png with NAME.toml) under {}",
            dir.display()
        );
    }
    Ok(fixtures)
}

/// A fixture's name: its path under `dir` without the extension.
fn name_in(dir: &Path, png: &Path) -> String {
    png.strip_prefix(dir)
        .unwrap_or(png)
        .with_extension("")
        .display()
        .to_string()
}

/// Checks every fixture under `dir` and prints a table; exits non-zero
/// when any failed.
pub fn check(game: &dyn FixtureGame, dir: &Path) -> anyhow::Result<ExitCode> {
    let fixtures = fixtures_in(dir)?;
    let width = fixtures
        .iter()
        .map(|p| name_in(dir, p).len())
        .max()
        .unwrap_or(7)
        .max(7);
    println!(
        "{:<width$}  {:>6}  {:>11}  {:>8}  read",
        "fixture", "result", "cells right", "time ms"
    );
    let mut failures = 0;
    for png in &fixtures {
        let c = check_one(game, png)?;
        failures += usize::from(!c.ok);
        println!(
            "{:<width$}  {:>6}  {:>11}  {:>8.2}  {}",
            name_in(dir, png),
            if c.ok { "ok" } else { "FAIL" },
            format!("{}/{}", c.right, c.total),
            c.millis,
            c.seen
        );
    }
    println!("{} fixtures, {} failed", fixtures.len(), failures);
    Ok(super::bench::exit_code(failures == 0))
}

/// `text` (a truth file) with `key = value` in place of its `expected` and
/// `error` lines (`drop` names one more key to remove), or inserted before
/// the first table.
fn set_line(text: &str, key: &str, value: &str, drop: &str) -> String {
    let line = format!("{key} = {}", toml::Value::String(value.to_string()));
    let is = |l: &str, k: &str| {
        l.strip_prefix(k)
            .is_some_and(|rest| rest.trim_start().starts_with('='))
    };
    let mut out: Vec<String> = Vec::new();
    let mut placed = false;
    let mut in_table = false;
    for l in text.lines() {
        in_table |= l.trim_start().starts_with('[');
        if !in_table && (is(l, key) || is(l, drop)) {
            if !placed {
                out.push(line.clone());
                placed = true;
            }
            continue;
        }
        if in_table && !placed {
            out.push(line.clone());
            placed = true;
        }
        out.push(l.to_string());
    }
    if !placed {
        out.push(line);
    }
    out.join("\n") + "\n"
}

/// Rewrites the truth file of `png` from what the first reader reads now:
/// the board read as `expected` (dropping `error`), or, when it is refused
/// with a message that no longer holds the truth's `error`, the message
/// as `error`. Returns what was written, or `None` when nothing changed.
pub fn record_one(game: &dyn FixtureGame, png: &Path) -> anyhow::Result<Option<String>> {
    let path = png.with_extension("toml");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let truth: Truth = toml::from_str(&text)
        .with_context(|| format!("{} is not a fixture file", path.display()))?;
    let mut readers = game.readers(&truth);
    let (result, _) = read_with(&mut readers.remove(0).1, png, &truth)?;
    let new = match result {
        Ok(r) => {
            let same = truth.error.is_none()
                && truth
                    .expected
                    .as_deref()
                    .and_then(|e| game.normalise(e, &truth).ok())
                    .is_some_and(|e| e == r.board);
            (!same).then(|| (set_line(&text, "expected", &r.board, "error"), r.board))
        }
        Err(e) => {
            let kept = truth.error.as_deref().is_some_and(|w| e.contains(w));
            (!kept).then(|| (set_line(&text, "error", &e, ""), format!("error: {e}")))
        }
    };
    let Some((new_text, what)) = new else {
        return Ok(None);
    };
    // Rewriting the truth files is what `record` is for.
    crate::files::write_all(&path, new_text.as_bytes(), crate::files::Replace::Allow)?;
    Ok(Some(what))
}

/// Captures the screen ($DISPLAY) as `dir/NAME.png` with a truth file
/// read from it; nothing is written when the reader sees no board.
fn capture(
    game: &dyn FixtureGame,
    dir: &Path,
    name: &str,
    (id, calibration): (Option<&str>, Option<&Path>),
    replace: crate::files::Replace,
) -> anyhow::Result<ExitCode> {
    let png = dir.join(format!("{name}.png"));
    let toml_path = png.with_extension("toml");
    crate::files::check_output(&png, replace)?;
    crate::files::check_output(&toml_path, replace)?;
    let shot = crate::capture::screen::capture_screen().context("cannot capture the screen")?;
    let mut lines = vec![format!(
        "# Recorded by `gridbot fixtures {} record --capture`: check `expected` against the game before committing.",
        game.name()
    )];
    if let Some(id) = id {
        lines.push(format!("id = {}", toml::Value::String(id.to_string())));
    }
    lines.extend(game.capture_lines(&shot.image, calibration)?);
    let truth: Truth = toml::from_str(&lines.join("\n"))?;
    let mut readers = game.readers(&truth);
    let reading = (readers.remove(0).1)(&shot.image)
        .map_err(anyhow::Error::msg)
        .context("the reader sees no board on the screen; nothing recorded")?;
    lines.push(format!(
        "expected = {}",
        toml::Value::String(reading.board.clone())
    ));
    crate::files::ensure_dir(dir)?;
    crate::files::write_png(&png, &shot.image, replace)?;
    crate::files::write_all(&toml_path, (lines.join("\n") + "\n").as_bytes(), replace)?;
    println!(
        "{}\n{}\nrecorded {} and {} : confirm the board above against the game",
        reading.detail,
        reading.board,
        png.display(),
        toml_path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Rewrites every truth file under `dir` ([`record_one`]) and prints what
/// changed.
fn record(game: &dyn FixtureGame, dir: &Path) -> anyhow::Result<ExitCode> {
    let fixtures = fixtures_in(dir)?;
    let mut changed = 0;
    for png in &fixtures {
        if let Some(what) = record_one(game, png)? {
            changed += 1;
            println!("{}: now {what}", name_in(dir, png));
        }
    }
    println!(
        "{} fixtures, {changed} truth files rewritten: review them (git diff) before committing",
        fixtures.len()
    );
    Ok(ExitCode::SUCCESS)
}

/// `gridbot fixtures GAME`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, Subcommand)]
enum Action {
    /// Read every fixture under DIR and compare it with its truth file;
    /// print a table and exit non-zero on any difference.
    Check {
        /// Folder searched recursively for NAME.png + NAME.toml pairs
        /// (default: fixtures/GAME).
        dir: Option<PathBuf>,
    },
    /// Rewrite the truth files under DIR from what the reader reads now
    /// (review the diff before committing); with --capture NAME, store the
    /// live screen ($DISPLAY) as DIR/NAME.png with the board read from it.
    Record {
        /// Folder of the fixtures (default: fixtures/GAME).
        dir: Option<PathBuf>,
        /// Capture the live screen as a new fixture of this name.
        #[arg(long, value_name = "NAME")]
        capture: Option<String>,
        /// With --capture: the game ID the game was started with, kept in the truth file.
        #[arg(long, requires = "capture")]
        id: Option<String>,
        /// With --capture: a calibration whose palette (the game's colour
        /// order) is stored with the fixture (games read by colour).
        #[arg(short, long, requires = "capture")]
        calibration: Option<PathBuf>,
        /// With --capture: replace a fixture of the same name.
        #[arg(long, requires = "capture")]
        force: bool,
    },
}

/// Runs `gridbot fixtures GAME ...` for `game`.
pub fn run(game: &dyn FixtureGame, args: Args) -> anyhow::Result<ExitCode> {
    let default = || PathBuf::from(format!("fixtures/{}", game.name()));
    match args.action {
        Action::Check { dir } => check(game, &dir.unwrap_or_else(default)),
        Action::Record {
            dir,
            capture: Some(name),
            id,
            calibration,
            force,
        } => capture(
            game,
            &dir.unwrap_or_else(default),
            &name,
            (id.as_deref(), calibration.as_deref()),
            crate::files::Replace::from_force(force),
        ),
        Action::Record { dir, .. } => record(game, &dir.unwrap_or_else(default)),
    }
}

/// Checks every committed fixture of `game` (for the games' unit tests):
/// panics naming each one read wrong; returns how many there are.
#[cfg(test)]
pub fn assert_committed_fixtures_read_right(game: &dyn FixtureGame) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(game.name());
    let fixtures = find_fixtures(&dir).unwrap();
    for png in &fixtures {
        let c = check_one(game, png).unwrap();
        assert!(c.ok, "{}: {}", png.display(), c.seen);
    }
    fixtures.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truths_parse() {
        let t = Truth::parse("# made by hand\nafter = \"a.png\"\nexpected = \"2x2:1,2,3,0\"\n")
            .unwrap();
        assert_eq!(t.expected.as_deref(), Some("2x2:1,2,3,0"));
        assert_eq!(t.after.as_deref(), Some("a.png"));
        let t = Truth::parse("error = \"cut off\"\n").unwrap();
        assert_eq!(t.error.as_deref(), Some("cut off"));
        assert!(Truth::parse("# nothing\n").is_err());
        assert!(Truth::parse("error = \" \"\n").is_err());
        assert!(Truth::parse("expected = [1]\n").is_err());
    }

    #[test]
    fn cells_are_scored_one_by_one() {
        assert_eq!(score("2x2:0110", "2x2:0111"), (3, 4));
        assert_eq!(score("2x2:1,2,3,0", "2x2:1,2,3,0"), (4, 4));
        assert_eq!(score("3x1:011", "2x2:0111"), (0, 4));
        assert_eq!(score("AAoB", "AAoo"), (3, 4));
    }

    #[test]
    fn recording_replaces_the_truth_in_place() {
        let text =
            "# how\nid = \"x\"\nexpected = \"old\"\nerror = \"gone\"\n\n[env]\nscreen = \"1\"\n";
        assert_eq!(
            set_line(text, "expected", "new", "error"),
            "# how\nid = \"x\"\nexpected = \"new\"\n\n[env]\nscreen = \"1\"\n"
        );
        let quoted = set_line("# how\n[env]\na = 1\n", "error", "no \"board\"", "");
        assert!(quoted.starts_with("# how\nerror = ") && quoted.ends_with("\n[env]\na = 1\n"));
        let t = Truth::parse(&quoted).unwrap();
        assert_eq!(t.error.as_deref(), Some("no \"board\""));
        assert_eq!(set_line("", "expected", "b", ""), "expected = \"b\"\n");
    }
}
