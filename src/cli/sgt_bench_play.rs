//! `gridbot bench play GAME` for a game an sgt-puzzles program hosts:
//! plays games the program generates on a virtual display and reports the
//! bot's own time per move (capture, read, solve and click, excluding the
//! wait for the game to redraw) and per game, then the game's targets
//! ([`SgtGame::bench_targets`]). The bot is pinned to one CPU unless
//! `--all-cores`.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::bail;

use super::play::{finish_run, parse_size, pin_to_one_core, start_display, LoopArgs};
use super::sgt_game::{play_generated, Found, GeneratedRun, Setup, SgtGame, Target};
use crate::measure::mean;
use crate::play::report::{GameRecord, GameResult};

/// `gridbot bench play GAME`.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchPlayArgs {
    /// Games to play.
    #[arg(long, default_value_t = 5)]
    pub games: usize,
    /// The program's parameters (default: the game's benchmark preset).
    #[arg(long)]
    pub params: Option<String>,
    /// Seed prefix for reproducible games.
    #[arg(long, default_value = "bench")]
    pub seed: String,
    /// Let the bot use every core (default: pinned to one).
    #[arg(long)]
    pub all_cores: bool,
    /// Virtual screen size.
    #[arg(long, default_value = "1600x1200", value_name = "WxH", value_parser = crate::cli::args::valid_screen_size)]
    pub screen: String,
    #[command(flatten)]
    /// The options every play command shares.
    pub common: LoopArgs,
}

/// [`crate::measure::percentile`], 0 when there are no samples.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    crate::measure::percentile(sorted, p).unwrap_or(0.0)
}

/// The figures of the benchmark's text report: the bot's mean time per
/// move and the slowest game's wall time (ms), with the report's lines.
pub struct BenchText {
    /// The report.
    pub text: String,
    /// Mean bot time per move, ms.
    pub per_move_ms: f64,
    /// Wall time of the slowest game, ms.
    pub worst_wall_ms: f64,
}

/// The benchmark's text report (before the game's targets).
pub fn bench_text(records: &[GameRecord], params: &str, one_core: Option<usize>) -> BenchText {
    let mut moves: Vec<f64> = records
        .iter()
        .flat_map(|r| r.move_ms.iter().copied())
        .collect();
    moves.sort_by(f64::total_cmp);
    let total_moves: usize = records.iter().map(|r| r.move_ms.len()).sum();
    let per_move = if total_moves == 0 {
        0.0
    } else {
        records.iter().map(|r| r.bot_ms_total).sum::<f64>() / total_moves as f64
    };
    let weighted = |f: fn(&GameRecord) -> f64| {
        if total_moves == 0 {
            0.0
        } else {
            records
                .iter()
                .map(|r| f(r) * r.move_ms.len() as f64)
                .sum::<f64>()
                / total_moves as f64
        }
    };
    let mut walls: Vec<f64> = records.iter().map(|r| r.wall_ms).collect();
    walls.sort_by(f64::total_cmp);
    let mut out = String::new();
    out.push_str(&format!(
        "bench play: {} games of {} ({} moves), bot {}\n",
        records.len(),
        params,
        total_moves,
        one_core.map_or_else(
            || "on all cores".to_string(),
            |c| format!("pinned to CPU {c}")
        )
    ));
    out.push_str(&format!(
        "per move (bot's own time: capture + read + solve + click): mean {:.1} ms, p50 {:.1}, p95 {:.1}, max {:.1}\n",
        per_move,
        percentile(&moves, 0.5),
        percentile(&moves, 0.95),
        moves.last().copied().unwrap_or(0.0)
    ));
    out.push_str(&format!(
        "  of which: capture {:.2} ms, read {:.2} ms, click {:.2} ms, solve {:.2} ms (amortised: once per game)\n",
        weighted(|r| r.capture_ms),
        weighted(|r| r.read_ms),
        weighted(|r| r.click_ms),
        per_move - weighted(|r| r.bot_ms_per_move_excl_solve)
    ));
    out.push_str(&format!(
        "per game: bot {:.0} ms, solver {:.0} ms (max {:.0}), wall {:.0} ms mean, {:.0} ms max (includes the win flash and the status OCR)\n",
        mean(records.iter().map(|r| r.bot_ms_total)),
        mean(records.iter().map(|r| r.solve_ms)),
        records.iter().map(|r| r.solve_ms).fold(0.0, f64::max),
        mean(walls.iter().copied()),
        walls.last().copied().unwrap_or(0.0)
    ));
    BenchText {
        text: out,
        per_move_ms: per_move,
        worst_wall_ms: walls.last().copied().unwrap_or(0.0),
    }
}

/// Plays the games on the desktop program and prints the figures.
pub fn run_bench_play<S: SgtGame>(spec: &S, args: BenchPlayArgs) -> anyhow::Result<ExitCode> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let params = spec.check_params(args.params.as_deref().unwrap_or(spec.bench_params()))?;
    let one_core = if args.all_cores {
        None
    } else {
        Some(pin_to_one_core()?)
    };
    let setup = Setup::prepare(spec, &args.common)?;
    let display = start_display(parse_size(&args.screen)?)?;
    let started = Instant::now();
    let mut found = Found::default();
    let outcome = play_generated(
        spec,
        &setup,
        &GeneratedRun {
            seed: Some(&args.seed),
            params: &params,
            display: &display,
            first: 1,
            games: args.games,
            screenshots: None,
            record: args.common.record.as_deref(),
            replace: args.common.replace(),
        },
        &mut Target::Desktop { tile_size: None },
        &mut |r| {
            println!(
                "game {}: {} moves (limit {}), bot {:.1} ms/move, solve {:.1} ms, wall {:.2} s",
                r.game,
                r.moves,
                r.limit.map_or("-".into(), |l| l.to_string()),
                r.bot_ms_per_move,
                r.solve_ms,
                r.wall_ms / 1000.0
            )
        },
        &mut found,
    );
    let figures = bench_text(&found.records, &params, one_core);
    print!("{}", figures.text);
    for line in spec.bench_targets(&params, figures.per_move_ms, figures.worst_wall_ms) {
        println!("{line}");
    }
    finish_run(
        &found.records,
        args.common.report.as_deref(),
        args.common.replace(),
    )?;
    println!("run time: {:.1} s", started.elapsed().as_secs_f64());
    outcome?;
    for p in &found.problems {
        eprintln!("bench play: {p}");
    }
    let all_won = found.records.iter().all(|r| r.result == GameResult::Won);
    Ok(if all_won && found.problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(percentile(&v, 0.5), 3.0);
        assert_eq!(percentile(&v, 0.95), 5.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
    }
}
