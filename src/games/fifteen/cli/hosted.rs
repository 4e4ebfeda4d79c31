//! `gridbot play fifteen`, `demo fifteen [--browser]` and `validate fifteen
//! [--browser]`: Fifteen described for the generic commands of
//! [`crate::cli::sgt_game`] (sgt-fifteen on the desktop, `fifteen.html` of
//! the sgt web build in Chromium), with the pattern-database option, and
//! for `validate` the game's own hints: on a fresh sgt-fifteen with the same
//! ID, the `h` key (which plays one move of the game's own solver) is
//! pressed until the board is solved, and the moves its status line counts
//! are the game's solver's figure gridbot is compared with.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Context;

use super::PdbChoice;
use crate::actuator::{Gesture, KeyName};
use crate::calibration::Calibration;
use crate::capture::ocr;
use crate::capture::window_grabber::WindowGrabber;
use crate::cli::sgt_game::{
    run_demo, run_play, run_validate_split, DemoArgs, Generated, PlayArgs, SgtGame, SgtGameError,
    ValidateArgs,
};
use crate::display::x11;
use crate::games::fifteen::parse::parse_sgt_id;
use crate::games::fifteen::pdb::{cache_dir, PatternDb};
use crate::games::fifteen::play::FifteenGame;
use crate::games::fifteen::read::read_board;
use crate::games::fifteen::rules::Board;
use crate::hosts::sgt::{status_area, Launch};
use crate::hosts::status::parse_status;
use crate::play::report::GameRecord;
use crate::play::x11::open_pointer;
use crate::play::StatusResult;

/// The built-in calibration (timings, the new-game key).
pub const DEFAULT_CALIBRATION: &str = include_str!("../../../../calibration/sgt-fifteen.toml");

/// The solver's options of the play commands.
#[derive(Debug, Clone, clap::Args)]
pub struct SolverArgs {
    /// Pattern databases for 4x4 boards (kept in $XDG_CACHE_HOME/gridbot or
    /// ~/.cache/gridbot, built there on first use: 6-6-3 in seconds, 7-8
    /// in minutes).
    #[arg(long, value_parser = PdbChoice::parser(), default_value = "663")]
    pub pdb: PdbChoice,
    /// Folder for the databases (default: the cache folder).
    #[arg(long)]
    pub pdb_dir: Option<PathBuf>,
}

/// `gridbot play fifteen`.
#[derive(Debug, clap::Args)]
pub struct PlayCmd {
    #[command(flatten)]
    base: PlayArgs,
    #[command(flatten)]
    solver: SolverArgs,
}

/// `gridbot demo fifteen`.
#[derive(Debug, clap::Args)]
pub struct DemoCmd {
    #[command(flatten)]
    base: DemoArgs,
    #[command(flatten)]
    solver: SolverArgs,
}

/// `gridbot validate fifteen`.
#[derive(Debug, clap::Args)]
pub struct ValidateCmd {
    #[command(flatten)]
    base: ValidateArgs,
    #[command(flatten)]
    solver: SolverArgs,
    /// Most `h` presses (the game's own hint moves) per board before the
    /// game's solver is reported as not finishing; 0 skips the comparison.
    #[arg(long, default_value_t = 3000, value_parser = crate::cli::args::parse_number::<u32, 0, 100_000>)]
    hint_cap: u32,
}

/// What the game's own hints did on one board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HintRun {
    /// Moves on the status line once solved (None: not solved in the cap).
    pub moves: Option<usize>,
    /// `h` presses made.
    pub presses: usize,
}

/// Fifteen for the generic sgt commands.
pub struct Fifteen {
    solver: SolverArgs,
    /// Hint presses per board in `generate` (0: no hint runs).
    hint_cap: usize,
    /// Tile size of the hint runs' window.
    tile_size: Option<u32>,
    /// Hint runs made, by game ID (behind a lock, so that the units of a
    /// validation split into units may share one description).
    hints: Mutex<Vec<(String, HintRun)>>,
}

impl Clone for Fifteen {
    fn clone(&self) -> Self {
        Fifteen {
            solver: self.solver.clone(),
            hint_cap: self.hint_cap,
            tile_size: self.tile_size,
            hints: Mutex::new(self.hint_list().clone()),
        }
    }
}

impl Fifteen {
    fn new(solver: SolverArgs) -> Self {
        Fifteen {
            solver,
            hint_cap: 0,
            tile_size: None,
            hints: Mutex::new(Vec::new()),
        }
    }

    /// The hint runs made (a thread that panicked holding them left
    /// them whole: each is pushed at once).
    fn hint_list(&self) -> std::sync::MutexGuard<'_, Vec<(String, HintRun)>> {
        self.hints.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn hint_run(&self, id: &str) -> Option<HintRun> {
        self.hint_list()
            .iter()
            .find(|(i, _)| i == id)
            .map(|(_, h)| h.clone())
    }
}

impl SgtGame for Fifteen {
    type Game = FifteenGame;

    fn program(&self) -> &'static str {
        "fifteen"
    }

    fn window_title(&self) -> &'static str {
        "Fifteen"
    }

    fn builtin_calibration(&self) -> (&'static str, &'static str) {
        (DEFAULT_CALIBRATION, "built-in sgt-fifteen.toml")
    }

    fn default_params(&self) -> &'static str {
        "4x4"
    }

    fn check_params(&self, params: &str) -> Result<String, SgtGameError> {
        let bad = || {
            SgtGameError::Params(format!(
                "bad sgt-fifteen parameters {params:?}: expected WxH, e.g. 4x4"
            ))
        };
        let (w, h) = params.trim().split_once('x').ok_or_else(bad)?;
        let w: usize = w.parse().map_err(|_| bad())?;
        let h: usize = h.parse().map_err(|_| bad())?;
        if !(2..=Board::MAX_SIDE).contains(&w) || !(2..=Board::MAX_SIDE).contains(&h) {
            return Err(SgtGameError::Params(format!(
                "board size {w}x{h} is out of range (2 to {} each way)",
                Board::MAX_SIDE
            )));
        }
        Ok(format!("{w}x{h}"))
    }

    fn generate(&self, params: &str, seed: Option<&str>) -> Result<Generated, SgtGameError> {
        let id = crate::hosts::sgt::generate("fifteen", params, seed, &[])?;
        let mut game_solver_moves = None;
        if self.hint_cap > 0 {
            let run = hint_moves(&id, self.tile_size, self.hint_cap)
                .map_err(|e| SgtGameError::Game(format!("{e:#}")))?;
            game_solver_moves = run.moves;
            self.hint_list().push((id.clone(), run));
        }
        Ok(Generated {
            id,
            limit: None,
            game_solver_moves,
        })
    }

    fn game(&self, _calibration: &Calibration) -> anyhow::Result<FifteenGame> {
        let pdb = match self.solver.pdb.partition() {
            None => None,
            Some(p) => {
                let dir = match &self.solver.pdb_dir {
                    Some(d) => d.clone(),
                    None => cache_dir()?,
                };
                let (db, report) = PatternDb::open(p, &dir)
                    .with_context(|| format!("cannot open the {} pattern databases", p.name()))?;
                if report.built > 0 {
                    eprintln!(
                        "built the {} pattern databases in {:.1} s",
                        p.name(),
                        report.build_time.as_secs_f64()
                    );
                }
                Some(db)
            }
        };
        Ok(FifteenGame::new(pdb))
    }

    fn expected_state(&self, id: &str) -> Result<Board, SgtGameError> {
        parse_sgt_id(id).map_err(|e| SgtGameError::Id(e.to_string()))
    }

    fn extra_line(&self, r: &GameRecord) -> Option<String> {
        let hints =
            r.id.as_deref()
                .and_then(|id| self.hint_run(id))
                .map(|h| match h.moves {
                    Some(m) => format!("; the game's own hints: {m} moves"),
                    None => format!(
                        "; the game's own hints: not solved in {} presses",
                        h.presses
                    ),
                })
                .unwrap_or_default();
        Some(format!(
            "tile moves {} ({}), {} clicks, the game's counter {}{hints}",
            r.bot_moves,
            if r.proven_optimal {
                "proven optimal"
            } else {
                "not proven optimal"
            },
            r.solution.len(),
            r.status_moves
                .map_or_else(|| "unread".to_string(), |m| m.to_string()),
        ))
    }
}

/// Opens game `id` in a fresh sgt-fifteen on `$DISPLAY` and presses `h`
/// (one move of the game's own solver) until the board reads solved or
/// `cap` presses were made; the moves are the status line's count.
pub fn hint_moves(id: &str, tile_size: Option<u32>, cap: usize) -> anyhow::Result<HintRun> {
    let display = x11::display_from_env()?;
    let (conn, screen) = x11::connect(Some(&display))?;
    let before: Vec<u32> = x11::list_windows(&conn, screen)?
        .iter()
        .map(|w| w.id)
        .collect();
    let launch = Launch {
        program: "fifteen".into(),
        id: id.to_string(),
        tile_size,
        palette: Vec::new(),
        env: Vec::new(),
    };
    let mut child = launch
        .command()?
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .context("cannot start sgt-fifteen for the hint run")?;
    let result = (|| {
        // The new window titled Fifteen (Chromium's page may have that title too).
        let deadline = Instant::now() + Duration::from_secs(20);
        let window = loop {
            let found = x11::list_windows(&conn, screen)?
                .into_iter()
                .find(|w| w.title.contains("Fifteen") && !before.contains(&w.id));
            if let Some(w) = found {
                break w;
            }
            if Instant::now() > deadline {
                anyhow::bail!("sgt-fifteen's window for the hint run did not appear");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        // On top and with the keyboard: the `h` presses must reach this
        // window, not a browser showing the same game.
        {
            use x11rb::connection::Connection as _;
            use x11rb::protocol::xproto::{
                ConfigureWindowAux, ConnectionExt as _, InputFocus, StackMode,
            };
            conn.configure_window(
                window.id,
                &ConfigureWindowAux::new().stack_mode(StackMode::ABOVE),
            )?;
            conn.set_input_focus(InputFocus::PARENT, window.id, x11rb::CURRENT_TIME)?;
            conn.flush()?;
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut grabber = WindowGrabber::open_window(&display, window.id)?;
        let mut pointer = open_pointer()?;
        // Wait for the board, then click the margin under it to give the
        // window the keyboard (a click off the tiles moves nothing).
        let deadline = Instant::now() + Duration::from_secs(10);
        let (shot, reading) = loop {
            let shot = grabber.capture()?;
            if let Ok(r) = read_board(&shot.image) {
                break (shot, r);
            }
            if Instant::now() > deadline {
                anyhow::bail!("no board read in the hint run's window");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let b = reading.board_rect();
        let margin = (
            (b.x + b.width / 2) as f64,
            (b.y + b.height + reading.bevel + reading.tile / 5) as f64,
        );
        let (mx, my) = shot.to_screen(margin.0, margin.1);
        pointer.perform(&Gesture::Click((mx, my)))?;
        let mut presses = 0;
        let mut last = reading.board.clone();
        loop {
            if last.is_solved() {
                break;
            }
            if presses >= cap {
                return Ok(HintRun {
                    moves: None,
                    presses,
                });
            }
            for _ in 0..10.min(cap - presses) {
                pointer.perform(&Gesture::Key(KeyName::Char('h')))?;
                presses += 1;
                std::thread::sleep(Duration::from_millis(5));
            }
            std::thread::sleep(Duration::from_millis(150));
            if let Ok(r) = read_board(&grabber.capture()?.image) {
                last = r.board;
            }
        }
        // The status line once the completion flash is over.
        let mut moves = None;
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(200));
            let shot = grabber.capture()?;
            if let Ok(text) = ocr::read_line(&shot.image, status_area(b)) {
                let s = parse_status(&text);
                if s.result == StatusResult::Completed && s.moves.is_some() {
                    moves = s.moves;
                    break;
                }
            }
        }
        Ok(HintRun { moves, presses })
    })();
    let _ = child.kill();
    let _ = child.wait();
    // Wait until the window is gone, so the next window found is the game's.
    let deadline = Instant::now() + Duration::from_secs(10);
    while x11::list_windows(&conn, screen)?
        .iter()
        .any(|w| w.title.contains("Fifteen") && !before.contains(&w.id))
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    result
}

/// Runs `play fifteen`.
pub fn run_play_cmd(args: PlayCmd) -> anyhow::Result<ExitCode> {
    run_play(&Fifteen::new(args.solver), args.base)
}

/// Runs `demo fifteen`.
pub fn run_demo_cmd(args: DemoCmd) -> anyhow::Result<ExitCode> {
    run_demo(&Fifteen::new(args.solver), args.base)
}

/// Fifteen as `validate fifteen`'s arguments describe it, and the
/// validation's own arguments.
fn validate_spec(args: ValidateCmd) -> (Fifteen, ValidateArgs) {
    let mut spec = Fifteen::new(args.solver);
    spec.hint_cap = args.hint_cap as usize;
    spec.tile_size = args.base.tile_size;
    (spec, args.base)
}

/// Runs `validate fifteen` (with `--units A..B --out DIR`: those games
/// only, see `gridbot cluster`).
pub fn run_validate_cmd(args: ValidateCmd) -> anyhow::Result<ExitCode> {
    let (spec, base) = validate_spec(args);
    run_validate_split(&spec, base)
}

/// `validate fifteen` as a job of units (for `gridbot merge` and
/// `gridbot cluster`).
pub fn validate_plan(
    words: &[String],
    _dir: &std::path::Path,
) -> anyhow::Result<Box<dyn crate::cli::units::Plan>> {
    crate::cli::validate_units::validate_plan(words, validate_spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_are_checked() {
        let f = Fifteen::new(SolverArgs {
            pdb: PdbChoice::NONE,
            pdb_dir: None,
        });
        assert_eq!(f.check_params(" 4x3 ").unwrap(), "4x3");
        assert!(f.check_params("4").is_err());
        assert!(f
            .check_params("1x4")
            .unwrap_err()
            .to_string()
            .contains("out of range"));
        assert!(f.check_params("16x4").is_err());
        assert_eq!(f.page(), "fifteen.html");
    }
}
