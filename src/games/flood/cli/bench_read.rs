//! `gridbot bench read DIR`: reads every screenshot under DIR repeatedly
//! and reports the time per image (decoding excluded; the reader only),
//! on one thread.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::calibration::Calibration;
use crate::capture::load_image;
use crate::games::flood::screen::read_board;
use anyhow::bail;

#[derive(Debug, clap::Args)]
/// The command's arguments.
pub struct Args {
    /// Folder (searched recursively) or a single PNG.
    dir: PathBuf,
    /// Calibration to read with (default: auto-detected palette).
    #[arg(short, long)]
    calibration: Option<PathBuf>,
    /// Timed reads per image.
    #[arg(long, default_value_t = 30)]
    runs: usize,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let calibration = args
        .calibration
        .as_deref()
        .map(Calibration::load)
        .transpose()?;
    let files = crate::cli::args::png_files(&args.dir)?;
    if files.is_empty() {
        bail!("no PNG files under {}", args.dir.display());
    }
    let runs = args.runs.max(1);
    println!(
        "{:<48} {:>10} {:>7} {:>9} {:>9} {:>9}",
        "image", "size", "board", "min ms", "median ms", "max ms"
    );
    let mut medians = Vec::new();
    for file in &files {
        let name = file
            .strip_prefix(&args.dir)
            .unwrap_or(file)
            .display()
            .to_string();
        let Ok(image) = load_image(file) else {
            println!("{name:<48} (not an image, skipped)");
            continue;
        };
        let first = read_board(&image, calibration.as_ref());
        let board = match &first {
            Ok(r) => format!("{}x{}", r.board.width(), r.board.height()),
            Err(_) => "error".into(),
        };
        let mut times: Vec<Duration> = (0..runs)
            .map(|_| {
                let start = Instant::now();
                let r = read_board(&image, calibration.as_ref());
                let t = start.elapsed();
                std::hint::black_box(r.is_ok());
                t
            })
            .collect();
        times.sort();
        let median = times[times.len() / 2];
        medians.push(ms(median));
        println!(
            "{:<48} {:>10} {:>7} {:>9.3} {:>9.3} {:>9.3}",
            name,
            format!("{}x{}", image.width(), image.height()),
            board,
            ms(times[0]),
            ms(median),
            ms(times[times.len() - 1])
        );
    }
    medians.sort_by(f64::total_cmp);
    if let (Some(lo), Some(hi)) = (medians.first(), medians.last()) {
        println!(
            "{} images; median read time from {lo:.3} ms to {hi:.3} ms",
            medians.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}
