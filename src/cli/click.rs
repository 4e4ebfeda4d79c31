//! `gridbot click X Y`: one left click at a screen point through the
//! actuator (optionally a key tap instead), for checking that input works.

use std::process::ExitCode;

use crate::actuator::Mouse;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Screen x (pixels from the left edge of the X screen).
    x: i32,
    /// Screen y (pixels from the top edge).
    y: i32,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut mouse = Mouse::new()?;
    mouse.click(args.x, args.y)?;
    log::info!("clicked at ({}, {}) on {}", args.x, args.y, mouse.display());
    Ok(ExitCode::SUCCESS)
}
