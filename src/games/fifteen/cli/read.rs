//! `gridbot read fifteen SHOT.png`: finds the sgt-fifteen board on a
//! screenshot and prints it (rows of numbers, the game ID with
//! `--format sgt`, or JSON with where each cell is).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;

use crate::capture::load_image;
use crate::cli::args::ReadFormat;
use crate::games::fifteen::read::{read_board, FifteenReading};

/// `gridbot read fifteen`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Screenshot to read (PNG).
    pub image: PathBuf,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "rows")]
    pub format: ReadFormat,
}

/// Where the board is, in one line.
pub fn lattice_line(r: &FifteenReading) -> String {
    format!(
        "board {}x{} at ({}, {}), tile {} px, bevel {} px",
        r.board.width(),
        r.board.height(),
        r.x0,
        r.y0,
        r.tile,
        r.bevel
    )
}

/// The reading as JSON.
pub fn to_json(r: &FifteenReading) -> serde_json::Value {
    let cells: Vec<[u32; 4]> = r
        .cells()
        .iter()
        .map(|c| [c.x, c.y, c.width, c.height])
        .collect();
    serde_json::json!({
        "id": r.board.sgt_id(),
        "width": r.board.width(),
        "height": r.board.height(),
        "cells": r.board.cells(),
        "origin": [r.x0, r.y0],
        "tile": r.tile,
        "bevel": r.bevel,
        "rects": cells,
    })
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let image = load_image(&args.image)?;
    let t = Instant::now();
    let reading = read_board(&image).with_context(|| format!("in {}", args.image.display()))?;
    let elapsed = t.elapsed();
    match args.format {
        ReadFormat::Rows => {
            print!("{}", reading.board);
            println!(
                "{}; read in {:.2} ms",
                lattice_line(&reading),
                elapsed.as_secs_f64() * 1000.0
            );
        }
        ReadFormat::Sgt => println!("{}", reading.board.sgt_id()),
        ReadFormat::Json => println!("{}", to_json(&reading)),
    }
    Ok(ExitCode::SUCCESS)
}
