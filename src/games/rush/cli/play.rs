//! `gridbot play|demo|validate rush`: Rush Hour played on Fogleman's
//! player (`rush-web/index.html#BOARD/MOVES` of the shared games) by
//! dragging each piece, with the loop of [`crate::play`], the roles of
//! [`crate::games::rush::play`] and the host of [`crate::games::rush::web`].
//!
//! - `play rush`: a player already open (the window titled `Rush Hour`,
//!   or `--window TITLE`), one puzzle; `--dry-run` prints the drags.
//! - `demo rush`: a virtual display with Chromium showing the player,
//!   by default the hardest wall-free puzzle (51 moves), played to the win.
//! - `validate rush`: `--games N` puzzles of `--moves A..B` moves, from
//!   the benchmark database (or `--generate`d from random positions), each
//!   opened by its fragment; per puzzle the optimum the breadth-first
//!   search proved, the moves played, and the page's own counter
//!   `MOVES: n / required` read off the screen, with a flag where the
//!   page's required number differs from the proven optimum.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

use crate::capture::window_grabber::WindowGrabber;
use crate::cli::args::{parse_number, parse_seed};
use crate::cli::play::{
    config_from, finish_run, game_line, load_calibration, play_one, play_series, print_dry_run,
    print_run_time, problems_exit, save_recording, save_screenshots, start_display,
    window_on_screen, LoopArgs, SeriesOutput, WindowArgs,
};
use crate::display::VirtualDisplay;
use crate::games::rush::generate::{generate_random, spread_from_database, Rng};
use crate::games::rush::parse::{parse_board, parse_line};
use crate::games::rush::play::{Look, RushGame, RushState};
use crate::games::rush::read::read;
use crate::games::rush::search::bfs;
use crate::games::rush::wagner::{WagnerHost, LEVELS};
use crate::games::rush::web::{fragment, parse_counter, rush_web_dir, RushWebHost, PAGE};
use crate::hosts::browser::{Browser, BrowserOptions};
use crate::hosts::sgt_web::games_dir;
use crate::hosts::Host;
use crate::play::engine::{GameContext, PlayConfig, PlayError};
use crate::play::x11::open_screen;
use crate::play::GameResult;
use crate::solver::Budget;

/// The built-in calibration (window title and timings; no palette).
pub const DEFAULT_CALIBRATION: &str = include_str!("../../../../calibration/rush-web.toml");

/// The hardest wall-free 6x6 puzzle (Fogleman's database line): the demo's
/// default.
pub const HARDEST_WALL_FREE: &str = "51 BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo 4780";

/// The program that shows the puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RushHost {
    /// Michael Fogleman's player (`rush-web/`): any puzzle, by fragment.
    Fogleman,
    /// Luca Wagner's page (`rush-wagnerluca/`): its eight levels.
    Wagnerluca,
}

impl RushHost {
    fn look(self) -> Look {
        match self {
            RushHost::Fogleman => Look::Fogleman,
            RushHost::Wagnerluca => Look::WagnerLuca,
        }
    }

    fn host(self) -> &'static dyn Host {
        match self {
            RushHost::Fogleman => &RushWebHost,
            RushHost::Wagnerluca => &WagnerHost,
        }
    }
}

/// `gridbot play rush`.
#[derive(Debug, Clone, clap::Args)]
pub struct PlayArgs {
    /// The program in the window.
    #[arg(long, value_enum, default_value_t = RushHost::Fogleman)]
    pub host: RushHost,
    #[command(flatten)]
    /// The window to play in (default title `Rush Hour`).
    pub window: WindowArgs,
    /// Read, solve and print the drags it would make, without moving the mouse.
    #[arg(long)]
    pub dry_run: bool,
    /// Save the board before and after the game into this folder.
    #[arg(long, value_name = "DIR")]
    pub screenshots: Option<PathBuf>,
    #[command(flatten)]
    /// The options every play command shares.
    pub common: LoopArgs,
}

/// Where the browser runs.
#[derive(Debug, Clone, clap::Args)]
pub struct BrowserArgs {
    /// Chromium's window size (the board scales with it).
    #[arg(long, default_value = "800x800", value_name = "WxH", value_parser = crate::cli::args::valid_screen_size)]
    pub window_size: String,
    /// Virtual screen size (at least the window's).
    #[arg(long, default_value = "1280x1024", value_name = "WxH", value_parser = crate::cli::args::valid_screen_size)]
    pub screen: String,
    /// Save the board before and after each puzzle into this folder.
    #[arg(long, value_name = "DIR")]
    pub screenshots: Option<PathBuf>,
}

/// `gridbot demo rush`.
#[derive(Debug, Clone, clap::Args)]
pub struct DemoArgs {
    /// The program to play on: Fogleman's player (one puzzle) or Wagner's
    /// page (its eight levels in a row).
    #[arg(long, value_enum, default_value_t = RushHost::Fogleman)]
    pub host: RushHost,
    /// The puzzle: a board (`BCDDEo...`, 36 characters for 6x6), `BOARD/MOVES`
    /// as in the page's fragment, or a database line `MOVES BOARD SIZE`;
    /// default: the hardest wall-free puzzle, 51 moves.
    #[arg(long, value_name = "PUZZLE")]
    pub puzzle: Option<String>,
    #[command(flatten)]
    /// Window and screen.
    pub browser: BrowserArgs,
    #[command(flatten)]
    /// The options every play command shares.
    pub common: LoopArgs,
}

/// `gridbot validate rush`.
#[derive(Debug, Clone, clap::Args)]
pub struct ValidateArgs {
    /// The program to play on: Fogleman's player (puzzles from a database
    /// or generated) or Wagner's page (its levels, `--levels`).
    #[arg(long, value_enum, default_value_t = RushHost::Fogleman)]
    pub host: RushHost,
    /// Wagner's page: the levels to play, `A..B` or `N` (default: all 8).
    #[arg(long, value_parser = super::wagner::parse_levels, value_name = "A..B")]
    pub levels: Option<(usize, usize)>,
    /// Puzzles to play.
    #[arg(long, default_value_t = 5, value_parser = parse_number::<usize, 1, 100_000>)]
    pub games: usize,
    /// Moves of the puzzles: `A..B`, `N`, or a class (easy, medium, hard, very-hard).
    #[arg(long, value_parser = super::parse_moves, default_value = "15..60")]
    pub moves: (u32, u32),
    /// Database to pick from (`MOVES BOARD CLUSTER_SIZE` lines; puzzles
    /// spread evenly over those in range); default: the benchmark file
    /// `rush/fogleman-hard.txt` beside the shared games.
    #[arg(long, value_name = "FILE", conflicts_with = "generate")]
    pub database: Option<PathBuf>,
    /// Generate the puzzles from random wall-free 6x6 positions instead
    /// (their MOVES is then gridbot's own search, not an independent count).
    #[arg(long)]
    pub generate: bool,
    /// Seed of the random positions (default: from the clock).
    #[arg(long, requires = "generate", value_parser = parse_seed)]
    pub seed: Option<u64>,
    #[command(flatten)]
    /// Window and screen.
    pub browser: BrowserArgs,
    #[command(flatten)]
    /// The options every play command shares.
    pub common: LoopArgs,
}

/// A puzzle to open: the board and the number the page shows as required.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    /// The board text.
    pub board: String,
    /// The page's `/MOVES`, when known.
    pub required: Option<u32>,
}

/// Parses `BOARD`, `BOARD/MOVES` or `MOVES BOARD SIZE`.
pub fn parse_puzzle(text: &str) -> anyhow::Result<Chosen> {
    let t = text.trim();
    let (line, required) = match t.split_once('/') {
        Some((board, moves)) => {
            let m = moves.trim().parse::<u32>().with_context(|| {
                format!("bad puzzle {text:?}: {moves:?} after `/` is not a number of moves")
            })?;
            (board, Some(m))
        }
        None => (t, None),
    };
    let p = parse_line(line, 1).map_err(|e| anyhow::anyhow!("bad puzzle {text:?}: {e}"))?;
    Ok(Chosen {
        board: p.board.to_text(p.start),
        required: required.or(p.moves),
    })
}

/// `gridbot play rush`.
pub fn run_play(args: PlayArgs) -> anyhow::Result<ExitCode> {
    let (config, title) = setup(&args.common)?;
    let title = args.window.title(&title);
    let mut screen = open_screen(title.as_deref())?;
    let game = RushGame::of(Some(args.host.look()));
    if args.dry_run {
        return print_dry_run(&game, args.host.host(), &mut screen, config);
    }
    play_series(
        &game,
        args.host.host(),
        &mut screen,
        config,
        &SeriesOutput {
            games: 1,
            screenshots: args.screenshots.as_deref(),
            record: args.common.record.as_deref(),
            report: args.common.report.as_deref(),
            replace: args.common.replace(),
            extra_line: &|_| None,
        },
    )
}

/// `gridbot demo rush`.
pub fn run_demo(args: DemoArgs) -> anyhow::Result<ExitCode> {
    if args.host == RushHost::Wagnerluca {
        if args.puzzle.is_some() {
            bail!("--puzzle is for Fogleman's player; Wagner's page plays its own eight levels");
        }
        return super::wagner::run_levels("demo", (1, LEVELS), &args.browser, &args.common);
    }
    let puzzle = parse_puzzle(args.puzzle.as_deref().unwrap_or(HARDEST_WALL_FREE))?;
    run_puzzles("demo", &[puzzle], &args.browser, &args.common)
}

/// `gridbot validate rush`.
pub fn run_validate(args: ValidateArgs) -> anyhow::Result<ExitCode> {
    match (args.host, args.levels) {
        (RushHost::Wagnerluca, levels) => {
            if args.database.is_some() || args.generate {
                bail!("--database and --generate are for Fogleman's player; Wagner's page has its own levels (--levels A..B)");
            }
            let levels = levels.unwrap_or((1, LEVELS));
            return super::wagner::run_levels("validate", levels, &args.browser, &args.common);
        }
        (RushHost::Fogleman, Some(_)) => {
            bail!("--levels is for Wagner's page (--host wagnerluca); Fogleman's player takes --games and --moves")
        }
        (RushHost::Fogleman, None) => {}
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let puzzles = choose(&args)?;
    run_puzzles("validate", &puzzles, &args.browser, &args.common)
}

/// The loop's configuration and the window title, from the calibration.
pub(super) fn setup(common: &LoopArgs) -> anyhow::Result<(PlayConfig, String)> {
    let calibration = load_calibration(
        common.calibration.as_deref(),
        DEFAULT_CALIBRATION,
        "built-in rush-web.toml",
    )?;
    let config = config_from(&calibration, common)?;
    let title = calibration
        .window_title
        .clone()
        .unwrap_or_else(|| "Rush Hour".to_string());
    Ok((config, title))
}

/// The benchmark database beside the shared games, if there.
fn default_database() -> Option<PathBuf> {
    games_dir()
        .map(|g| g.join("../benchmarks/rush/fogleman-hard.txt"))
        .filter(|p| p.is_file())
}

/// The puzzles `validate` plays.
fn choose(args: &ValidateArgs) -> anyhow::Result<Vec<Chosen>> {
    let (lo, hi) = args.moves;
    if args.generate {
        let seed = args.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        let attempts = 200_000;
        let found = generate_random(
            6,
            0,
            args.moves,
            args.games,
            attempts,
            &mut Rng::new(seed),
            |_, _| {},
        );
        if found.len() < args.games {
            bail!(
                "found {} of {} random puzzles of {lo}..{hi} moves in {attempts} positions \
                 (seed {seed}): widen --moves, or pick from a database",
                found.len(),
                args.games
            );
        }
        println!("validate: {} random puzzles, seed {seed}", found.len());
        return Ok(found
            .into_iter()
            .map(|g| Chosen {
                board: g.board,
                required: Some(g.moves),
            })
            .collect());
    }
    let path = args.database.clone().or_else(default_database).context(
        "no puzzle database: the benchmark file rush/fogleman-hard.txt was not found beside \
         the shared games (set GRIDBOT_GAMES to ../shared/games); give --database FILE or \
         --generate",
    )?;
    // Two passes a line at a time (count, then pick): an enumeration's
    // whole output, larger than memory, will do.
    let open = || crate::files::open_lines(&path).map_err(std::io::Error::other);
    let spread = spread_from_database(open, (lo, hi), args.games)
        .with_context(|| format!("cannot read the puzzle database {}", path.display()))?;
    if spread.matching == 0 {
        bail!(
            "no puzzle of {lo}..{hi} moves in {} ({} puzzles)",
            path.display(),
            spread.puzzles
        );
    }
    let n = spread.picked.len();
    if n < args.games {
        eprintln!(
            "validate: only {n} puzzles of {lo}..{hi} moves in {}",
            path.display()
        );
    }
    println!(
        "validate: {n} of the {} puzzles of {lo}..{hi} moves in {}, spread evenly",
        spread.matching,
        path.display()
    );
    Ok(spread
        .picked
        .into_iter()
        .map(|g| Chosen {
            board: g.board,
            required: Some(g.moves),
        })
        .collect())
}

/// Opens the player with `frag` in Chromium on `display` and waits until
/// a board can be read on it.
fn open_player(
    display: &VirtualDisplay,
    dir: &Path,
    frag: &str,
    window: (u32, u32),
) -> anyhow::Result<Browser> {
    let mut options = BrowserOptions::served(display.name(), dir, PAGE, Some(frag));
    options.width = window.0;
    options.height = window.1;
    let mut browser =
        Browser::open(options).context("cannot show Fogleman's Rush Hour player in Chromium")?;
    wait_for_board(&mut browser)?;
    Ok(browser)
}

/// Waits until the page shows a board the reader takes (the canvas has
/// drawn the puzzle).
fn wait_for_board(browser: &mut Browser) -> anyhow::Result<()> {
    browser
        .wait_until(Duration::from_secs(20), |image| read(image).is_ok())
        .context("the Rush Hour player did not draw a readable board")
}

/// What the run of one puzzle found, beyond the loop's record.
struct Checked {
    optimum: Option<usize>,
    line: String,
    problems: Vec<String>,
}

/// The proven optimum of `board`: `Some(moves)` (breadth-first search),
/// or why there is none.
pub(super) fn optimum_of(board: &str) -> Result<usize, String> {
    let (b, start) = parse_board(board).map_err(|e| e.to_string())?;
    let o = bfs(
        &b,
        start,
        &Budget::new(Some(Duration::from_secs(120)), 1 << 30),
    );
    if o.proven_unsolvable {
        return Err(format!(
            "unsolvable ({} positions reachable, none solved)",
            o.nodes
        ));
    }
    match o.moves {
        Some(m) if o.proven_optimal => Ok(m.len()),
        _ => Err("the search ended before a proof".into()),
    }
}

/// Plays `puzzles` one after the other in one Chromium (a new fragment
/// each), prints a line per puzzle and the summary, writes the report;
/// fails when any puzzle has a problem (not won, board not the puzzle's,
/// more moves than the proven optimum without a mismatch to explain
/// them, the page's count differing from the moves played, or the page's
/// required number differing from the proven optimum).
fn run_puzzles(
    verb: &str,
    puzzles: &[Chosen],
    browser_args: &BrowserArgs,
    common: &LoopArgs,
) -> anyhow::Result<ExitCode> {
    let dir = rush_web_dir()?;
    let (config, _) = setup(common)?;
    let (window, screen_size) = window_on_screen(&browser_args.window_size, &browser_args.screen)?;
    let game = RushGame::new();
    let display = start_display(screen_size)?;
    let mut browser: Option<Browser> = None;
    let started = Instant::now();
    let mut records = Vec::new();
    let mut problems = Vec::new();
    let outcome = (|| -> anyhow::Result<()> {
        for (i, p) in puzzles.iter().enumerate() {
            let number = i + 1;
            let frag = fragment(&p.board, p.required);
            let b = match browser.as_mut() {
                None => {
                    let b = open_player(&display, &dir, &frag, window)?;
                    println!(
                        "{verb}: {PAGE}#{frag} in Chromium on virtual display {} (window {}x{})",
                        display.name(),
                        window.0,
                        window.1
                    );
                    browser.insert(b)
                }
                Some(b) => {
                    b.navigate_fragment(&frag)
                        .context("cannot open the next puzzle in the browser")?;
                    wait_for_board(b)?;
                    b
                }
            };
            let mut screen = WindowGrabber::open_window(display.name(), b.window().id)?;
            let context = GameContext {
                id: Some(frag.clone()),
                limit: None,
                game_solver_moves: p.required.map(|m| m as usize),
            };
            let mut finished = match play_one(
                &game,
                &RushWebHost,
                &mut screen,
                config.clone(),
                number,
                &context,
            )? {
                Ok(f) => f,
                Err(PlayError::Solve(why)) => {
                    println!("puzzle {number}: {frag}: the solver failed: {why}");
                    problems.push(format!("puzzle {number}: the solver failed: {why}"));
                    continue;
                }
                Err(e) => return Err(e.into()),
            };
            let expected = RushState::from_text(&p.board).map_err(anyhow::Error::msg)?;
            let matches = finished.start == expected;
            finished.record.board_matches_id = Some(matches);
            let checked = check(number, p, &finished.record, matches, config.read_status);
            println!("{}", checked.line);
            println!("      {}", game_line(&finished.record));
            if let Some(o) = checked.optimum {
                log::info!("puzzle {number}: proven optimum {o}");
            }
            problems.extend(checked.problems);
            if let Some(dir) = &browser_args.screenshots {
                save_screenshots(dir, &finished, common.replace())?;
            }
            save_recording(
                common.record.as_deref(),
                puzzles.len(),
                &finished,
                common.replace(),
            )?;
            let lost = finished.record.result == GameResult::Lost;
            records.push(finished.record);
            if lost && verb == "demo" {
                break;
            }
        }
        Ok(())
    })();
    finish_run(&records, common.report.as_deref(), common.replace())?;
    print_run_time(started, records.len(), "puzzles");
    drop(browser);
    outcome?;
    Ok(problems_exit(
        verb,
        &problems,
        records.len() == puzzles.len(),
    ))
}

/// The line for one puzzle and its problems.
fn check(
    number: usize,
    p: &Chosen,
    r: &crate::play::GameRecord,
    board_matches: bool,
    read_status: bool,
) -> Checked {
    let mut problems = Vec::new();
    let optimum = optimum_of(&p.board);
    if r.result != GameResult::Won {
        problems.push(format!("puzzle {number}: not won"));
    }
    if !board_matches {
        problems.push(format!(
            "puzzle {number}: the board read off the page ({}) is not the puzzle {}",
            r.board, p.board
        ));
    }
    match &optimum {
        Ok(o) if r.bot_moves != *o && r.mismatches == 0 => problems.push(format!(
            "puzzle {number}: {} moves played without a mismatch, the proven optimum is {o}",
            r.bot_moves
        )),
        Err(why) => problems.push(format!("puzzle {number}: no proven optimum: {why}")),
        _ => {}
    }
    let counter = r.status_text.as_deref().and_then(parse_counter);
    let page = match counter {
        Some(c) => {
            if c.moves != r.bot_moves {
                problems.push(format!(
                    "puzzle {number}: the page counted {} moves, the bot played {}",
                    c.moves, r.bot_moves
                ));
            }
            format!(
                "page {} / {}",
                c.moves,
                c.required.map_or("-".into(), |m| m.to_string())
            )
        }
        None => {
            if read_status {
                problems.push(format!(
                    "puzzle {number}: the page's counter was not read ({:?})",
                    r.status_text.as_deref().unwrap_or("nothing found")
                ));
            }
            "page counter unread".to_string()
        }
    };
    let required = counter.and_then(|c| c.required);
    let mut flag = String::new();
    if let (Ok(o), Some(req)) = (&optimum, required) {
        if req != *o {
            flag = format!("  FLAG: the page requires {req}, gridbot proved {o}");
            problems.push(format!(
                "puzzle {number}: the page says {req} moves are required, the breadth-first \
                 search proved {o}"
            ));
        }
    }
    if read_status && counter.is_some() && required.is_none() && p.required.is_some() {
        problems.push(format!(
            "puzzle {number}: the page shows no required number (the fragment gave {})",
            p.required.unwrap_or(0)
        ));
    }
    let line = format!(
        "puzzle {number}: {}  optimal {} , played {} , {page}{flag}",
        p.board,
        match &optimum {
            Ok(o) => format!("{o} (proven)"),
            Err(_) => "unknown".into(),
        },
        r.bot_moves,
    );
    Checked {
        optimum: optimum.ok(),
        line,
        problems,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzles_parse_in_three_forms() {
        let d = parse_puzzle(HARDEST_WALL_FREE).unwrap();
        assert_eq!(d.board, "BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo");
        assert_eq!(d.required, Some(51));
        let f = parse_puzzle("BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo/50").unwrap();
        assert_eq!(f.required, Some(50));
        let b = parse_puzzle("BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo").unwrap();
        assert_eq!(b.required, None);
        let e = parse_puzzle("BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo/x").unwrap_err();
        assert!(format!("{e:#}").contains("\"x\""), "{e:#}");
        let e = parse_puzzle("AAB").unwrap_err();
        assert!(format!("{e:#}").contains("bad puzzle"), "{e:#}");
    }

    #[test]
    fn the_builtin_calibration_parses() {
        let c =
            crate::calibration::Calibration::parse(DEFAULT_CALIBRATION, Path::new("rush-web.toml"))
                .unwrap();
        assert_eq!(c.window_title.as_deref(), Some("Rush Hour"));
    }

    #[test]
    fn the_hardest_puzzle_is_proven_at_51() {
        assert_eq!(
            optimum_of(&parse_puzzle(HARDEST_WALL_FREE).unwrap().board),
            Ok(51)
        );
    }
}
