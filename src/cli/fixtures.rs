//! What the `gridbot fixtures GAME check` commands share: finding the
//! screenshots that have a ground-truth file beside them, and the table of
//! results a check prints.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;

use super::args::png_files;

/// Every `NAME.png` under `dir` (recursively, sorted) with a
/// `NAME.<truth_ext>` beside it.
pub fn find_fixtures(dir: &Path, truth_ext: &str) -> anyhow::Result<Vec<PathBuf>> {
    Ok(png_files(dir)?
        .into_iter()
        .filter(|p| p.with_extension(truth_ext).is_file())
        .collect())
}

/// Checks every fixture under `dir` with `check_one` (passed, time to read
/// in ms, what was seen) and prints one line each; exits non-zero when any
/// failed, and is an error when there is no fixture at all.
pub fn check_table(
    dir: &Path,
    truth_ext: &str,
    check_one: impl Fn(&Path) -> anyhow::Result<(bool, f64, String)>,
) -> anyhow::Result<ExitCode> {
    let fixtures = find_fixtures(dir, truth_ext)?;
    if fixtures.is_empty() {
        bail!(
            "no fixtures (NAME.png with NAME.{truth_ext}) under {}",
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
