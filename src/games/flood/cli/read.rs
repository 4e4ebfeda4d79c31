//! `gridbot read IMAGE`: reads a board off a screenshot and prints it, with
//! the lattice found and a confidence per cell.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::calibration::{format_hex_colour, Calibration};
use crate::capture::{load_image, ReadOptions};
use crate::cli::args::ReadFormat;
use crate::games::flood::screen::{colour_char, read_board_with, to_sgt, FloodReading};
use anyhow::Context;

#[derive(Debug, clap::Args)]
/// The command's arguments.
pub struct Args {
    /// Screenshot to read (PNG).
    image: PathBuf,
    /// Calibration file: palette in the game's colour order, geometry hints.
    #[arg(short, long)]
    calibration: Option<PathBuf>,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "rows")]
    format: ReadFormat,
    /// Write every pipeline stage's image into this folder.
    #[arg(long, value_name = "DIR")]
    dump_stages: Option<PathBuf>,
}

/// A one-line description of the lattice.
pub fn lattice_line(r: &FloodReading) -> String {
    let l = &r.grid.lattice;
    format!(
        "lattice: {} columns x {} rows, origin ({:.1}, {:.1}), pitch {:.2} x {:.2} px; min confidence {:.2}",
        l.columns,
        l.rows,
        l.origin_x,
        l.origin_y,
        l.pitch_x,
        l.pitch_y,
        r.grid.min_confidence()
    )
}

/// The whole reading as JSON.
pub fn to_json(r: &FloodReading) -> serde_json::Value {
    let l = &r.grid.lattice;
    let centres: Vec<[f64; 2]> = (0..l.rows)
        .flat_map(|row| (0..l.columns).map(move |col| (row, col)))
        .map(|(row, col)| {
            let (x, y) = l.cell_centre(row, col);
            [(x * 10.0).round() / 10.0, (y * 10.0).round() / 10.0]
        })
        .collect();
    serde_json::json!({
        "sgt": to_sgt(&r.board),
        "columns": l.columns,
        "rows": l.rows,
        "lattice": l,
        "palette": r.grid.palette.iter().map(|&c| format_hex_colour(c)).collect::<Vec<_>>(),
        "cells": r.grid.cells,
        "confidence": r.grid.confidence.iter().map(|c| (c * 1000.0).round() / 1000.0).collect::<Vec<_>>(),
        "centres": centres,
    })
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let calibration = args
        .calibration
        .as_deref()
        .map(Calibration::load)
        .transpose()
        .context("cannot use the calibration")?;
    let image = load_image(&args.image)?;
    let options = ReadOptions {
        dump_dir: args.dump_stages.as_deref(),
    };
    let reading = read_board_with(&image, calibration.as_ref(), &options)
        .with_context(|| format!("cannot read a board from {}", args.image.display()))?;
    let mut out = String::new();
    match args.format {
        ReadFormat::Sgt => {
            writeln!(out, "{}", to_sgt(&reading.board))?;
            eprintln!("{}", lattice_line(&reading));
        }
        ReadFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&to_json(&reading))?)?,
        ReadFormat::Rows => {
            let b = &reading.board;
            for r in 0..b.height() {
                let row: String = (0..b.width()).map(|c| colour_char(b.get(r, c))).collect();
                writeln!(out, "{row}")?;
            }
            writeln!(out, "{}", lattice_line(&reading))?;
            let palette: Vec<String> = reading
                .grid
                .palette
                .iter()
                .enumerate()
                .map(|(i, &c)| format!("{}={}", colour_char(i as u8), format_hex_colour(c)))
                .collect();
            writeln!(out, "palette: {}", palette.join(" "))?;
            writeln!(out, "confidence (%):")?;
            for r in 0..b.height() {
                let row: Vec<String> = (0..b.width())
                    .map(|c| {
                        format!(
                            "{:3}",
                            (reading.grid.confidence[r * b.width() + c] * 100.0).round() as u32
                        )
                    })
                    .collect();
                writeln!(out, "{}", row.join(" "))?;
            }
        }
    }
    // A closed pipe (`gridbot read ... | head`) is not an error.
    match std::io::stdout().lock().write_all(out.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
        _ => {}
    }
    Ok(ExitCode::SUCCESS)
}
