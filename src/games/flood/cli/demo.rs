//! `gridbot demo`: the README's main command. Starts its own virtual display
//! and sgt-flood, plays N games (the `n` key starts each next one), prints a
//! line per game and a summary, and tears everything down.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use crate::games::flood::play::SgtParams;
use crate::play::x11::open_screen;
use anyhow::{bail, Context};

use super::play::{FloodArgs, GameSetup};
use super::validate::open_page;
use crate::capture::window_grabber::WindowGrabber;
use crate::cli::play::{parse_size, play_series, start_display};
use crate::games::flood::play::generate;
use crate::hosts::sgt_web::{sgt_web_dir, SgtWebHost};

/// `gridbot demo flood`.
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
    /// Play in Chromium: the sgt web build's flood.html (found in
    /// $GRIDBOT_GAMES/sgt-web or ../shared/games/sgt-web) instead of sgt-flood.
    #[arg(long)]
    browser: bool,
    #[command(flatten)]
    flood: FloodArgs,
}

/// Starts sgt-flood on a virtual display and plays it.
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
        host,
    } = GameSetup::prepare(&args.flood)?;

    if args.browser {
        let dir = sgt_web_dir().map_err(anyhow::Error::msg)?;
        // The page needs about 1000 pixels of height for its menus, the
        // board and the status bar under it.
        let (w, h) = parse_size(&args.screen)?;
        let display = start_display((w, h.max(1024)))?;
        let generated = generate(&params, None).map_err(anyhow::Error::msg)?;
        let browser = open_page(&display, &dir, Some(&generated.id))?;
        println!(
            "demo: flood.html#{} in Chromium on virtual display {} ({})",
            generated.id,
            display.name(),
            args.screen
        );
        let mut screen = WindowGrabber::open_window(display.name(), browser.window().id)?;
        let web = SgtWebHost {
            page: "flood.html".into(),
        };
        return play_series(
            &game,
            &web,
            &mut screen,
            config,
            args.games,
            args.screenshots.as_deref(),
            args.flood.common.record.as_deref(),
            args.flood.common.report.as_deref(),
        );
    }
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
        &host,
        &mut screen,
        config,
        args.games,
        args.screenshots.as_deref(),
        args.flood.common.record.as_deref(),
        args.flood.common.report.as_deref(),
    )
}
