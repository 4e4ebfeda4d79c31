//! `gridbot demo`: the README's main command. Starts its own virtual display
//! and sgt-flood, plays N games (the `n` key starts each next one), prints a
//! line per game and a summary, and tears everything down.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use crate::display::VirtualDisplay;
use crate::games::flood::play::SgtParams;
use crate::play::x11::open_screen;
use anyhow::{bail, Context};

use super::play::{play_series, GameSetup, LoopArgs};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 3)]
    games: usize,
    /// sgt-flood parameters: WxH, colours (c), extra moves allowed (m).
    #[arg(long, default_value = "12x12c6m5")]
    params: String,
    /// Save the board before and after each game into this folder.
    #[arg(long, value_name = "DIR")]
    screenshots: Option<PathBuf>,
    /// Virtual screen size.
    #[arg(long, default_value = "1280x800", value_name = "WxH")]
    screen: String,
    #[command(flatten)]
    common: LoopArgs,
}

/// Parses `WxH`.
pub fn parse_size(text: &str) -> anyhow::Result<(u32, u32)> {
    let (w, h) = text
        .split_once('x')
        .context("screen size must be WxH, e.g. 1280x800")?;
    Ok((
        w.parse().context("bad screen width")?,
        h.parse().context("bad screen height")?,
    ))
}

/// Starts a virtual display and points this process's `DISPLAY` at it.
/// Must run before any X connection of this process.
pub fn start_display(size: (u32, u32)) -> anyhow::Result<VirtualDisplay> {
    let display = VirtualDisplay::start(size.0, size.1)
        .context("cannot start the virtual display (is Xvfb installed? ./dev deps)")?;
    std::env::set_var("DISPLAY", display.name());
    for var in ["WAYLAND_DISPLAY", "XDG_SESSION_TYPE"] {
        std::env::remove_var(var);
    }
    Ok(display)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let params = SgtParams::parse(&args.params).map_err(anyhow::Error::msg)?;
    let GameSetup {
        binary,
        title,
        config,
        game,
    } = GameSetup::prepare(&args.common)?;

    let display = start_display(parse_size(&args.screen)?)?;
    let mut command = std::process::Command::new(&binary);
    command
        .env("FLOOD_DEFAULT", params.text())
        .arg(params.text());
    let _sgt = display
        .spawn(&mut command)
        .context("cannot start sgt-flood")?;
    display
        .wait_for_window(&title, Duration::from_secs(20))
        .context("sgt-flood's window did not appear")?;
    println!(
        "demo: sgt-flood {} on virtual display {} ({})",
        params.text(),
        display.name(),
        args.screen
    );

    let mut screen = open_screen(Some(&title))?;
    play_series(
        &game,
        &mut screen,
        config,
        args.games,
        args.screenshots.as_deref(),
        args.common.report.as_deref(),
    )
}
