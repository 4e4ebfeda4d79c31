//! `gridbot fixtures rush check [DIR]`: reads every screenshot fixture of
//! Fogleman's player and compares it with its ground truth (see
//! [`crate::games::rush::fixtures`] for the format).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;

use crate::cli::fixtures::check_table;
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

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.action {
        Action::Check { dir } => check_table(&dir, "txt", check_one),
    }
}
