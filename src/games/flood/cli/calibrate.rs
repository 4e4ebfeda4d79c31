//! `gridbot calibrate IMAGE -o FILE`: writes a calibration file from a
//! screenshot by auto-detection, for a user to edit: the palette found (in
//! order of first appearance: reorder it into the game's own colour order),
//! the lattice found as commented-out geometry hints, and default timings.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::calibration::{format_hex_colour, Calibration, GeometryHints, Keys, Timing};
use crate::capture::{load_image, read_grid};
use anyhow::Context;

#[derive(Debug, clap::Args)]
/// The command's arguments.
pub struct Args {
    /// Screenshot showing the game's board.
    image: PathBuf,
    /// Calibration file to write.
    #[arg(short, long)]
    output: PathBuf,
    /// Game module the file is for.
    #[arg(long, default_value = "flood")]
    game: String,
    /// Substring of the game window's title.
    #[arg(long)]
    window_title: Option<String>,
    /// Overwrite an existing file.
    #[arg(long)]
    force: bool,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let replace = crate::files::Replace::from_force(args.force);
    crate::files::check_output(&args.output, replace)?;
    let image = load_image(&args.image)?;
    let reading = read_grid(&image, None)
        .with_context(|| format!("cannot detect a board in {}", args.image.display()))?;
    let l = &reading.lattice;
    let calibration = Calibration {
        game: args.game.clone(),
        window_title: args
            .window_title
            .clone()
            .or_else(|| (args.game == "flood").then(|| "Flood".into())),
        palette: reading
            .palette
            .iter()
            .map(|&c| format_hex_colour(c))
            .collect(),
        geometry: GeometryHints::default(),
        reading: Default::default(),
        timing: Timing::default(),
        keys: Keys {
            new_game: (args.game == "flood").then_some('n'),
        },
    };
    let body = calibration.to_toml();
    let text = format!(
        "# Written by `gridbot calibrate {image}`: edit to taste (docs/capture.md).\n\
         # The palette is in order of first appearance on the screenshot\n\
         # (row by row); reorder it into the game's own colour order so that\n\
         # colour k of a read board is the game's colour k. Colours the\n\
         # screenshot did not show are missing: add them.\n\
         #\n\
         # Lattice found: {cols} columns x {rows} rows, pitch {px:.2} x {py:.2} px,\n\
         # origin ({ox:.1}, {oy:.1}). Geometry hints are only needed when\n\
         # detection fails (a board all one colour); to fix them, add under [geometry]:\n\
         #   columns = {cols}\n\
         #   rows = {rows}\n\
         #   cell_size = {px:.1}\n\n{body}",
        image = args.image.display(),
        cols = l.columns,
        rows = l.rows,
        px = l.pitch_x,
        py = l.pitch_y,
        ox = l.origin_x,
        oy = l.origin_y,
    );
    // The file must load back.
    Calibration::parse(&text, &args.output)
        .context("internal error: the written calibration does not parse")?;
    crate::files::write_all(&args.output, text.as_bytes(), replace)?;
    println!(
        "wrote {}: {} colours, {}x{} board",
        args.output.display(),
        reading.palette.len(),
        l.columns,
        l.rows
    );
    Ok(ExitCode::SUCCESS)
}
