//! `gridbot analyse pegs --board NAME --vacancies`: the table of single
//! vacancies of a named board, solvable or proven unsolvable.

use std::process::ExitCode;

use crate::games::pegs::lattice::LatticeBoard;
use crate::games::pegs::vacancies::{vacancies, Verdict};
use crate::solver::Budget;

/// Prints the vacancy table of the board called `name`: exit 0 when every
/// orbit was decided, 2 when a budget ended first.
pub fn run(name: &str, budget: impl Fn() -> Budget, json: bool) -> anyhow::Result<ExitCode> {
    let board = LatticeBoard::named(name)?;
    let t0 = std::time::Instant::now();
    let answers = vacancies(&board, budget);
    let undecided = answers.iter().any(|a| a.verdict == Verdict::Unknown);
    if json {
        println!("{}", serde_json::to_string_pretty(&answers)?);
    } else {
        let solvable: usize = answers
            .iter()
            .filter(|a| a.verdict == Verdict::Solvable)
            .map(|a| a.orbit.len())
            .sum();
        println!(
            "board: {} ({} cells, {:?} lattice, {} symmetries)",
            board.name(),
            board.len(),
            board.lattice(),
            board.symmetries().len() + 1
        );
        println!("vacancies up to symmetry (cells ROW,COL, 0-based; on a triangle COL counts from the row's left end):");
        for a in &answers {
            let orbit: Vec<String> = a.orbit.iter().map(|(r, c)| format!("{r},{c}")).collect();
            println!(
                "  {},{} [{}]: {} nodes={} time_ms={:.1}",
                a.vacancy.0,
                a.vacancy.1,
                orbit.join(" "),
                a.verdict.text(),
                a.nodes,
                a.time_ms
            );
        }
        println!(
            "solvable single vacancies: {solvable} of {}; time_ms={:.1}",
            board.len(),
            t0.elapsed().as_secs_f64() * 1e3
        );
    }
    Ok(if undecided {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}
