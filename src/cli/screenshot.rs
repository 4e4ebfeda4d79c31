//! `gridbot screenshot`: capture the screen, or one window, to a PNG file —
//! exactly the pixels the bot sees.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::capture::screen::{capture_screen, capture_window};

#[derive(Debug, clap::Args)]
/// The command's arguments.
pub struct Args {
    /// PNG file to write.
    #[arg(short, long, value_name = "FILE.png")]
    output: PathBuf,
    /// Capture only the topmost window whose title contains TITLE (case sensitive).
    #[arg(short, long, value_name = "TITLE")]
    window: Option<String>,
    /// Replace FILE.png if it exists (without it an existing file is an
    /// error, checked before capturing).
    #[arg(long)]
    force: bool,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let replace = crate::files::Replace::from_force(args.force);
    crate::files::check_output(&args.output, replace)?;
    let shot = match &args.window {
        Some(title) => capture_window(title)?,
        None => capture_screen()?,
    };
    crate::files::write_png(&args.output, &shot.image, replace)?;
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
