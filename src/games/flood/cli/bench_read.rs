//! `gridbot bench read flood DIR`: reads every screenshot under DIR
//! repeatedly and reports the time per image (decoding excluded; the reader
//! only), on one thread. The loop is [`crate::cli::bench::bench_read`].

use std::path::PathBuf;
use std::process::ExitCode;

use crate::calibration::Calibration;
use crate::cli::bench::{bench_read, ReadTable};
use crate::games::flood::screen::read_board;

#[derive(Debug, clap::Args)]
/// The command's arguments.
pub struct Args {
    /// Folder (searched recursively) or a single PNG.
    dir: PathBuf,
    /// Calibration to read with (default: auto-detected palette).
    #[arg(short, long)]
    calibration: Option<PathBuf>,
    /// Timed reads per image (1 to 10000).
    #[arg(long, default_value_t = 30, value_parser = crate::cli::args::parse_runs)]
    runs: u32,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let calibration = args
        .calibration
        .as_deref()
        .map(Calibration::load)
        .transpose()?;
    let table = ReadTable {
        name: 48,
        min_max: 9,
    };
    bench_read(&args.dir, args.runs, table, |image| {
        read_board(image, calibration.as_ref()).map(|r| (r.board.width(), r.board.height()))
    })?;
    Ok(ExitCode::SUCCESS)
}
