//! `gridbot fixtures rush check [DIR]`: reads every screenshot fixture of
//! Fogleman's player and compares it with its ground truth (see
//! [`crate::games::rush::fixtures`] for the format).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;
use clap::Subcommand;

use crate::cli::args::png_files;
use crate::games::rush::fixtures::check_one;

/// `gridbot fixtures rush`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, Subcommand)]
enum Action {
    /// Read every fixture under DIR and print a table; exits non-zero on any wrong reading.
    Check {
        /// Folder searched recursively for NAME.png + NAME.txt pairs.
        #[arg(default_value = "fixtures/rush")]
        dir: PathBuf,
    },
}

fn check(dir: &Path) -> anyhow::Result<ExitCode> {
    let fixtures: Vec<PathBuf> = png_files(dir)?
        .into_iter()
        .filter(|p| p.with_extension("txt").is_file())
        .collect();
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
