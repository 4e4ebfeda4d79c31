//! `gridbot screenshot`: capture the screen, or one window, to a PNG file —
//! exactly the pixels the bot sees.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::capture::screen::{capture_screen, capture_window};
use anyhow::Context;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// PNG file to write.
    #[arg(short, long, value_name = "FILE.png")]
    output: PathBuf,
    /// Capture only the topmost window whose title contains TITLE (case sensitive).
    #[arg(short, long, value_name = "TITLE")]
    window: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let shot = match &args.window {
        Some(title) => capture_window(title)?,
        None => capture_screen()?,
    };
    shot.image
        .save_with_format(&args.output, image::ImageFormat::Png)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    println!(
        "wrote {} ({}x{} pixels; image (0,0) is screen ({},{}), scale {})",
        args.output.display(),
        shot.image.width(),
        shot.image.height(),
        shot.origin_x,
        shot.origin_y,
        shot.scale
    );
    Ok(ExitCode::SUCCESS)
}
