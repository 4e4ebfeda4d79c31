//! `gridbot click X Y`: one left click at a screen point through the
//! actuator (optionally a key tap instead), for checking that input works.
//!
//! The button is held by a guard that releases it on every way out, and
//! SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 and SIGALRM only set a flag while the button is down: the
//! click finishes (or, during `--hold`, is cut short), the button is
//! released, and the command exits non-zero saying it was interrupted.

use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::bail;

use crate::actuator::{Button, Mouse};
use crate::play::abort;

/// The command's arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Screen x (pixels from the left edge of the X screen).
    x: i32,
    /// Screen y (pixels from the top edge).
    y: i32,
    /// Keep the button down this long before releasing it (a long press;
    /// e.g. `500ms`, at most 30 days).
    #[arg(long, value_parser = crate::cli::args::parse_duration)]
    hold: Option<Duration>,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Before anything touches the mouse: a signal from now on only sets
    // the flag, so the process cannot die with the button down.
    let interrupted = abort::interrupt_flag();
    let mut mouse = Mouse::new()?;
    let stop = || interrupted.load(Ordering::SeqCst);
    if stop() {
        bail!("interrupted before clicking; nothing was pressed");
    }
    match args.hold {
        None => mouse.click(args.x, args.y)?,
        Some(hold) => {
            mouse.move_to(args.x, args.y)?;
            let held = mouse.hold(Button::Left)?;
            let end = Instant::now() + hold;
            while !stop() && Instant::now() < end {
                std::thread::sleep((end - Instant::now()).min(Duration::from_millis(10)));
            }
            held.release()?;
        }
    }
    if stop() {
        bail!(
            "interrupted (signal) during the click at ({}, {}); the button was released",
            args.x,
            args.y
        );
    }
    log::info!("clicked at ({}, {}) on {}", args.x, args.y, mouse.display());
    Ok(ExitCode::SUCCESS)
}
