//! Flood-It as sgt-flood hosts it, for the generic commands of
//! [`crate::cli::sgt_game`] (`play`, `demo`, `validate`) and
//! [`crate::cli::sgt_bench_play`] (`bench play`): the program, its window,
//! its parameters (`WxHcKmL`; `FLOOD_DEFAULT` is set too, as more than 6
//! colours open only with it), what a game ID reads as, the built-in
//! calibration, and the solver strategy option.
//!
//! With leniency m0 the move limit in a generated ID is exactly the game's
//! own solver's count, so `validate` compares with it directly.

use std::process::ExitCode;

use crate::calibration::Calibration;
use crate::cli::sgt_bench_play::{run_bench_play, BenchPlayArgs};
use crate::cli::sgt_game::{
    run_demo, run_play, run_validate_split, DemoArgs, Generated, PlayArgs, SgtGame, SgtGameError,
    ValidateArgs,
};

use super::cli::cstby;
use super::play::{generate, FloodGame, FloodIdError, GeneratedGame, SgtParams};
use super::{Board, Strategy};

/// The built-in sgt-flood calibration, used when no file is given.
pub const DEFAULT_CALIBRATION: &str = include_str!("../../../calibration/sgt-flood.toml");

/// Flood-It's own option of the play commands.
#[derive(Debug, Clone, clap::Args)]
pub struct StrategyArgs {
    /// Solver strategy: astar (default) runs a portfolio (exact A* on half
    /// the budget, then sgt-flood's own lookahead, beam, greedy + optimiser
    /// and branch and bound on the rest; the shortest line wins); any other
    /// runs that search alone.
    #[arg(long, value_enum, default_value = "astar")]
    pub strategy: Strategy,
}

/// Flood-It for the generic sgt commands.
#[derive(Debug, Clone, Copy)]
pub struct SgtFlood {
    /// The solver strategy of the play roles.
    pub strategy: Strategy,
}

impl SgtGame for SgtFlood {
    type Game = FloodGame;

    fn program(&self) -> &'static str {
        "flood"
    }

    fn window_title(&self) -> &'static str {
        "Flood"
    }

    fn builtin_calibration(&self) -> (&'static str, &'static str) {
        (DEFAULT_CALIBRATION, "built-in sgt-flood.toml")
    }

    fn default_params(&self) -> &'static str {
        "12x12c6m5"
    }

    fn validate_params(&self) -> &'static str {
        "12x12c6m0"
    }

    fn bench_params(&self) -> &'static str {
        "14x14c6m0"
    }

    fn validate_note(&self, params: &str) -> Option<String> {
        let leniency = SgtParams::parse(params).ok()?.leniency;
        (leniency != 0).then(|| {
            format!(
                "with leniency m{leniency} the game's solver used the limit less {leniency}; \
                 m0 compares directly"
            )
        })
    }

    fn check_params(&self, params: &str) -> Result<String, SgtGameError> {
        SgtParams::parse(params)
            .map(|p| p.text())
            .map_err(|e| SgtGameError::Params(e.to_string()))
    }

    fn env(&self, params: &str) -> Vec<(String, String)> {
        vec![("FLOOD_DEFAULT".to_string(), params.to_string())]
    }

    fn generate(&self, params: &str, seed: Option<&str>) -> Result<Generated, SgtGameError> {
        let params = SgtParams::parse(params).map_err(|e| SgtGameError::Params(e.to_string()))?;
        let g = generate(&params, seed).map_err(|e| match e {
            FloodIdError::Program(e) => SgtGameError::Program(e),
            e => SgtGameError::Id(e.to_string()),
        })?;
        Ok(Generated {
            limit: Some(g.limit),
            game_solver_moves: Some(g.solver_moves()),
            id: g.id,
        })
    }

    fn game(&self, calibration: &Calibration) -> anyhow::Result<FloodGame> {
        let mut game = FloodGame::new(calibration.clone());
        game.strategy = self.strategy;
        Ok(game)
    }

    fn expected_state(&self, id: &str) -> Result<Board, SgtGameError> {
        GeneratedGame::from_id(id)
            .map(|g| g.board)
            .map_err(|e| SgtGameError::Id(e.to_string()))
    }

    /// The same cells in the same shape (the number of colours read off
    /// the screen is the calibration's, not the ID's).
    fn same_board(&self, read: &Board, expected: &Board) -> bool {
        read.cells() == expected.cells() && read.width() == expected.width()
    }

    fn bench_targets(&self, params: &str, per_move_ms: f64, worst_wall_ms: f64) -> Vec<String> {
        let Ok(p) = SgtParams::parse(params) else {
            return Vec::new();
        };
        let verdict = |ok: bool| if ok { "met" } else { "NOT met" };
        let mut lines = Vec::new();
        if p.width == 14 && p.height == 14 {
            lines.push(format!(
                "target <= 30 ms per move on 14x14: {} ({per_move_ms:.1} ms)",
                verdict(per_move_ms <= 30.0)
            ));
        }
        if p.width == 12 && p.height == 12 {
            lines.push(format!(
                "target 12x12 game won in <= 3 s wall: {} (worst {:.2} s)",
                verdict(worst_wall_ms <= 3000.0),
                worst_wall_ms / 1000.0
            ));
        }
        lines
    }
}

/// Where Flood-It is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FloodHost {
    /// Simon Tatham's sgt-flood (the desktop program, or its web build with
    /// `--browser`).
    Sgt,
    /// Carl Steib's Flood-It page (`flood-cstby/` of the shared games) in
    /// Chromium: eight levels, a move limit each.
    Cstby,
}

/// `gridbot play flood`.
#[derive(Debug, clap::Args)]
pub struct PlayCmd {
    #[command(flatten)]
    base: PlayArgs,
    #[command(flatten)]
    solver: StrategyArgs,
    /// The program that shows the game.
    #[arg(long, value_enum, default_value = "sgt")]
    host: FloodHost,
}

/// `gridbot demo flood`.
#[derive(Debug, clap::Args)]
pub struct DemoCmd {
    #[command(flatten)]
    base: DemoArgs,
    #[command(flatten)]
    solver: StrategyArgs,
    /// The program that shows the game.
    #[arg(long, value_enum, default_value = "sgt")]
    host: FloodHost,
    /// With `--host cstby`: the levels to play from level 1 (all eight by
    /// default; `--games` is for sgt).
    #[arg(long, value_name = "N", value_parser = crate::cli::args::parse_number::<usize, 1, 8>)]
    levels: Option<usize>,
    /// Chromium's window size with `--host cstby` (default 800x800).
    #[arg(long, value_name = "WxH", value_parser = crate::cli::args::valid_screen_size)]
    window_size: Option<String>,
}

/// `gridbot validate flood`.
#[derive(Debug, clap::Args)]
pub struct ValidateCmd {
    #[command(flatten)]
    base: ValidateArgs,
    #[command(flatten)]
    solver: StrategyArgs,
}

/// `gridbot bench play flood`.
#[derive(Debug, clap::Args)]
pub struct BenchPlayCmd {
    #[command(flatten)]
    base: BenchPlayArgs,
    #[command(flatten)]
    solver: StrategyArgs,
}

fn spec(solver: &StrategyArgs) -> SgtFlood {
    SgtFlood {
        strategy: solver.strategy,
    }
}

/// Runs `play flood`.
pub fn run_play_cmd(args: PlayCmd) -> anyhow::Result<ExitCode> {
    match args.host {
        FloodHost::Sgt => run_play(&spec(&args.solver), args.base),
        FloodHost::Cstby => {
            if args.base.games != 1 {
                anyhow::bail!("--host cstby plays the level shown: --games does not apply");
            }
            cstby::run_play(&args.base.window, args.base.dry_run, &args.base.common)
        }
    }
}

/// Runs `demo flood`.
pub fn run_demo_cmd(args: DemoCmd) -> anyhow::Result<ExitCode> {
    match args.host {
        FloodHost::Sgt => {
            if args.window_size.is_some() || args.levels.is_some() {
                anyhow::bail!("--window-size and --levels are for --host cstby");
            }
            run_demo(&spec(&args.solver), args.base)
        }
        FloodHost::Cstby => {
            let b = &args.base;
            if b.params.is_some() || b.tile_size.is_some() || b.browser {
                anyhow::bail!(
                    "--params, --tile-size and --browser are sgt options: the cstby page has \
                     eight fixed levels in Chromium"
                );
            }
            let (screen, window) = cstby::sizes(&b.screen, args.window_size.as_deref())?;
            cstby::run_demo(&cstby::DemoSetup {
                levels: args.levels.unwrap_or(super::cstby::LEVELS),
                screen,
                window,
                screenshots: b.screenshots.as_deref(),
                common: &b.common,
            })
        }
    }
}

/// Runs `validate flood`.
pub fn run_validate_cmd(args: ValidateCmd) -> anyhow::Result<ExitCode> {
    run_validate_split(&spec(&args.solver), args.base)
}

/// `validate flood` as a job of units (for `gridbot merge` and `gridbot
/// cluster`).
pub fn validate_plan(
    words: &[String],
    _dir: &std::path::Path,
) -> anyhow::Result<Box<dyn crate::cli::units::Plan>> {
    crate::cli::validate_units::validate_plan(words, |c: ValidateCmd| (spec(&c.solver), c.base))
}

/// Runs `bench play flood`.
pub fn run_bench_play_cmd(args: BenchPlayCmd) -> anyhow::Result<ExitCode> {
    run_bench_play(&spec(&args.solver), args.base)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLOOD: SgtFlood = SgtFlood {
        strategy: Strategy::Astar,
    };

    #[test]
    fn params_are_checked_and_the_presets_differ_by_command() {
        assert_eq!(FLOOD.check_params("5").unwrap(), "5x5c6m5");
        assert!(FLOOD
            .check_params("12x12c12")
            .unwrap_err()
            .to_string()
            .contains("3 to 10 colours"));
        assert_eq!(FLOOD.default_params(), "12x12c6m5");
        assert_eq!(FLOOD.validate_params(), "12x12c6m0");
        assert_eq!(FLOOD.bench_params(), "14x14c6m0");
        assert!(FLOOD.validate_note("12x12c6m0").is_none());
        assert!(FLOOD.validate_note("12x12c6m2").unwrap().contains("m2"));
        assert_eq!(FLOOD.page(), "flood.html");
    }

    #[test]
    fn an_id_reads_as_its_board_whatever_the_palette_size() {
        let id = "3x2c4m1:012330,4";
        let board = FLOOD.expected_state(id).unwrap();
        assert_eq!(board.cells(), &[0, 1, 2, 3, 3, 0]);
        let read = Board::new(3, 2, 6, vec![0, 1, 2, 3, 3, 0]);
        assert!(FLOOD.same_board(&read, &board));
        let other = Board::new(2, 3, 6, vec![0, 1, 2, 3, 3, 0]);
        assert!(!FLOOD.same_board(&other, &board));
    }

    #[test]
    fn bench_targets_by_size() {
        let t = FLOOD.bench_targets("14x14c6m0", 12.0, 9000.0);
        assert_eq!(t, ["target <= 30 ms per move on 14x14: met (12.0 ms)"]);
        let t = FLOOD.bench_targets("12x12c6m0", 40.0, 3500.0);
        assert_eq!(
            t,
            ["target 12x12 game won in <= 3 s wall: NOT met (worst 3.50 s)"]
        );
        assert!(FLOOD.bench_targets("16x16c6m0", 1.0, 1.0).is_empty());
    }
}
