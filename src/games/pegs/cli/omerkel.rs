//! `gridbot demo pegs --host omerkel`: Oliver Merkel's Peg Solitaire page
//! (`../shared/games/pegs-omerkel`) in Chromium on a virtual display.
//!
//! What is special about this host: the board is chosen on the page's
//! Options tab and takes effect with the Board tab's `New` button; the
//! first click on a full board takes that peg away (the vacancy); a jump
//! is two clicks, the peg (it is highlighted) and then the hole it lands
//! in; the page has no status line, so a game is over when one peg is
//! left. Every click pair is verified by reading the board again.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

use crate::actuator::{KeyName, Mouse};
use crate::capture::screen::{Rect, Screenshot};
use crate::cli::play::{parse_size, start_display};
use crate::games::pegs::lattice::{LatticeBoard, NAMES};
use crate::games::pegs::omerkel::{find_buttons, read_cells, read_page, PageReading};
use crate::games::pegs::rules::{bit, Cells};
use crate::games::pegs::vacancies::{decide, replays_to_one_peg};
use crate::hosts::browser::{Browser, BrowserOptions};
use crate::hosts::sgt_web::games_dir;
use crate::solver::Budget;

/// The page inside its folder.
pub const PAGE: &str = "index.html";

/// The page's folder is not where it was looked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "Oliver Merkel's Peg Solitaire was not found: set GRIDBOT_GAMES to the folder that \
     holds pegs-omerkel/ (the project's ../shared/games)"
)]
pub struct OmerkelMissing;

/// The folder of the page: `$GRIDBOT_GAMES/pegs-omerkel` or beside the
/// project.
pub fn omerkel_dir() -> Result<PathBuf, OmerkelMissing> {
    match games_dir().map(|d| d.join("pegs-omerkel")) {
        Some(d) if d.join(PAGE).is_file() => Ok(d),
        _ => Err(OmerkelMissing),
    }
}

/// What to play on the page.
#[derive(Debug, Clone)]
pub struct OmerkelRun {
    /// english, french, tri15 or tri21.
    pub board: String,
    /// `ROW,COL` of the vacancy (0-based; on a triangle COL from the row's
    /// left end); the centre, else the first solvable cell, when not given.
    pub vacancy: Option<String>,
    /// Games to play one after the other.
    pub games: usize,
    /// The virtual screen, `WxH`.
    pub screen: String,
    /// Chromium's window, `WxH`.
    pub window: String,
    /// Where to store screenshots with their truth files (fixtures), if
    /// anywhere.
    pub screenshots: Option<PathBuf>,
}

/// The figures of one game.
#[derive(Debug, Clone)]
pub struct GameFigures {
    /// Won (one peg left, every jump verified).
    pub won: bool,
    /// Jumps played.
    pub jumps: usize,
    /// The bot's time per jump: reading, deciding and the two clicks, up to
    /// the verified reading.
    pub per_jump: Duration,
}

/// The vacancy cell of `run` on `board`.
fn vacancy_cell(board: &LatticeBoard, text: Option<&str>) -> anyhow::Result<u8> {
    if let Some(t) = text {
        let (r, c) = t
            .split_once(',')
            .with_context(|| format!("--vacancy {t:?}: expected ROW,COL"))?;
        let num = |x: &str| {
            x.trim()
                .parse::<i32>()
                .with_context(|| format!("--vacancy {t:?}: bad number {x:?}"))
        };
        let (r, c) = (num(r)?, num(c)?);
        return board.index(r, c).with_context(|| {
            format!(
                "--vacancy {t:?}: no such cell on the {} board",
                board.name()
            )
        });
    }
    let centre = board.coords().iter().position(|&(r, c)| {
        board.lattice() == super::super::lattice::Lattice::Square && r == 3 && c == 3
    });
    let solvable = |v: u8| decide(board, v, &Budget::unlimited()).moves.is_some();
    match centre {
        Some(c) if solvable(c as u8) => Ok(c as u8),
        _ => (0..board.len() as u8)
            .find(|&v| solvable(v))
            .context("no single vacancy of this board is solvable"),
    }
}

/// Runs `demo pegs --host omerkel`.
pub fn run(run: &OmerkelRun) -> anyhow::Result<ExitCode> {
    let board = LatticeBoard::named(&run.board)?;
    let vacancy = vacancy_cell(&board, run.vacancy.as_deref())?;
    let plan = decide(
        &board,
        vacancy,
        &Budget::new(Some(Duration::from_secs(120)), 1 << 31),
    );
    let Some(jumps) = plan.moves else {
        let (r, c) = board.coords()[vacancy as usize];
        bail!(
            "the vacancy {r},{c} of the {} board cannot end in one peg ({}); \
             `gridbot analyse pegs --board {} --vacancies` lists the ones that can",
            board.name(),
            if plan.proven_unsolvable {
                "proven"
            } else {
                "not decided in time"
            },
            board.name()
        );
    };
    let dir = omerkel_dir()?;
    let window = parse_size(&run.window)?;
    let screen = parse_size(&run.screen)?;
    anyhow::ensure!(
        window.0 <= screen.0 && window.1 <= screen.1,
        "Chromium's window {} does not fit on the screen {} (--screen)",
        run.window,
        run.screen
    );
    let display = start_display(screen)?;
    let mut options = BrowserOptions::served(display.name(), &dir, PAGE, None);
    (options.width, options.height) = window;
    // The page (jQuery UI, Snap.svg, a photograph) draws in about a
    // second, a few on a loaded machine. Now and then Chromium's first
    // paint is lost and the window stays one colour for good (twice in a
    // row in one CI run at 60 s each; a fresh Chromium then drew at once):
    // give each try 20 s and try up to four times.
    options.draw_timeout = Duration::from_secs(20);
    let mut browser = Browser::open(options.clone());
    for attempt in 2..=4 {
        let Err(e) = &browser else { break };
        log::warn!("Chromium did not show the page ({e}); try {attempt} of 4");
        browser = Browser::open(options.clone());
    }
    let mut page = Page {
        browser: browser.context("cannot show Oliver Merkel's Peg Solitaire in Chromium")?,
        mouse: Mouse::on_display(display.name())?,
        screenshots: run.screenshots.clone(),
        tag: format!("omerkel-{}-{}x{}", board.name(), window.0, window.1),
    };
    page.wait_for(Duration::from_secs(20), |_| true)
        .context("the page shows no board it can read; is it Oliver Merkel's Peg Solitaire?")?;
    println!(
        "demo: {PAGE} of pegs-omerkel in Chromium on virtual display {} (window {}x{}), board {}",
        display.name(),
        window.0,
        window.1,
        board.name()
    );
    let mut won = 0;
    let mut times = Vec::new();
    for game in 1..=run.games {
        let played = page
            .choose_board(board.name())
            .and_then(|()| page.play(&board, vacancy, &jumps));
        let f = match played {
            Ok(f) => f,
            Err(e) => {
                page.keep_failure();
                return Err(e);
            }
        };
        let (r, c) = board.coords()[vacancy as usize];
        println!(
            "game {game}: {} vacancy {r},{c}: {} in {} jumps ({} click pairs, each verified), bot time per jump {:.0} ms",
            board.name(),
            if f.won { "won" } else { "NOT won" },
            f.jumps,
            f.jumps,
            f.per_jump.as_secs_f64() * 1e3
        );
        won += usize::from(f.won);
        times.push(f.per_jump);
    }
    let mean = times.iter().sum::<Duration>() / times.len().max(1) as u32;
    println!(
        "won {won} of {} games; bot time per jump {:.0} ms (mean)",
        run.games,
        mean.as_secs_f64() * 1e3
    );
    Ok(if won == run.games {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The page in its browser and the mouse that clicks it.
pub struct Page {
    /// Chromium showing the page.
    pub browser: Browser,
    /// Synthetic input on its display.
    pub mouse: Mouse,
    /// Where to store fixtures, if anywhere.
    pub screenshots: Option<PathBuf>,
    /// The start of the fixtures' names.
    pub tag: String,
}

impl Page {
    /// A capture of the page.
    fn shot(&mut self) -> anyhow::Result<Screenshot> {
        Ok(self.browser.capture()?)
    }

    /// Clicks image point (x, y) of `shot`'s picture.
    fn click(&mut self, shot: &Screenshot, (x, y): (f64, f64)) -> anyhow::Result<()> {
        let sx = shot.origin_x + (x / shot.scale).round() as i32;
        let sy = shot.origin_y + (y / shot.scale).round() as i32;
        self.mouse.click(sx, sy)?;
        Ok(())
    }

    /// Clicks the middle of `r`, then moves the pointer to the page's
    /// corner (a button under the pointer changes colour).
    fn press(&mut self, shot: &Screenshot, r: Rect) -> anyhow::Result<()> {
        self.click(
            shot,
            ((r.x + r.width / 2) as f64, (r.y + r.height / 2) as f64),
        )?;
        self.mouse.move_to(shot.origin_x + 1, shot.origin_y + 1)?;
        Ok(())
    }

    /// Stores the page as `NAME-failed.png` (for a look at what went
    /// wrong), when screenshots are asked for; a failure to store it is
    /// only logged.
    fn keep_failure(&mut self) {
        let Some(dir) = self.screenshots.clone() else {
            return;
        };
        let path = dir.join(format!("{}-failed.png", self.tag));
        let stored = self.shot().and_then(|s| {
            Ok(crate::files::write_png(
                &path,
                &s.image,
                crate::files::Replace::Allow,
            )?)
        });
        if let Err(e) = stored {
            log::warn!("the failed page was not stored: {e}");
        }
    }

    /// Stores the page as fixture `NAME-what.png` with its truth file
    /// (`pegs` on `board`, made from `vacancy`), when asked to.
    fn keep(
        &mut self,
        what: &str,
        board: &LatticeBoard,
        pegs: Cells,
        vacancy: u8,
    ) -> anyhow::Result<()> {
        let Some(dir) = self.screenshots.clone() else {
            return Ok(());
        };
        self.browser.wait_until_drawn()?;
        let shot = self.shot()?;
        let name = format!("{}-{what}", self.tag);
        let replace = crate::files::Replace::Allow;
        crate::files::write_png(&dir.join(format!("{name}.png")), &shot.image, replace)?;
        let (r, c) = board.coords()[vacancy as usize];
        let truth = format!(
            "expected = \"{}\"\nid = \"omerkel:{}:{r},{c}\"\n",
            board.letters(pegs),
            board.name()
        );
        crate::files::write_all(&dir.join(format!("{name}.toml")), truth.as_bytes(), replace)?;
        Ok(())
    }

    /// Waits (up to `timeout`) for a steady picture whose board reads and
    /// satisfies `ok`; the reading.
    pub fn wait_for(
        &mut self,
        timeout: Duration,
        ok: impl Fn(&PageReading) -> bool,
    ) -> anyhow::Result<PageReading> {
        self.browser
            .wait_until(timeout, |image| read_page(image).is_ok_and(|r| ok(&r)))?;
        let shot = self.shot()?;
        Ok(read_page(&shot.image)?)
    }

    /// Waits for a steady picture (no board needed) and captures it.
    fn settled(&mut self) -> anyhow::Result<Screenshot> {
        self.browser.wait_until_drawn()?;
        self.shot()
    }

    /// Picks the board `name` on the Options tab, goes back to the Board
    /// tab and presses `New`; waits for the full board.
    pub fn choose_board(&mut self, name: &str) -> anyhow::Result<()> {
        let which = NAMES
            .iter()
            .position(|&n| n == name)
            .context("unknown board")?;
        // The page's order of its shape buttons: tri15, tri21, english,
        // french.
        let order = [2, 3, 0, 1][which];
        let shot = self.settled()?;
        let disc = read_page(&shot.image)?.disc;
        let top_row = |b: &[Rect]| -> Vec<Rect> {
            b.iter()
                .copied()
                .filter(|r| (r.y as f64) < disc.1 - disc.2)
                .collect()
        };
        let tabs = top_row(&find_buttons(&shot.image));
        if tabs.len() < 2 {
            bail!(
                "the page's tabs were not found above the board ({} buttons); refusing to click",
                tabs.len()
            );
        }
        let new = find_buttons(&shot.image)
            .into_iter()
            .find(|r| r.y as f64 > disc.1 + disc.2)
            .context("no New button below the board")?;
        self.press(&shot, tabs[1])?;
        let shot = self.settled()?;
        // The first button under the tabs is the first board shape; the
        // others follow it in the radio group, reached by the arrow key
        // (the buttons of a wrapped row touch and are not told apart).
        let first = find_buttons(&shot.image)
            .into_iter()
            .find(|r| r.y > tabs[1].y + tabs[1].height)
            .context("the Options tab shows no board-shape button; refusing to click")?;
        log::info!("tabs {tabs:?}; first board-shape button {first:?}");
        self.press(&shot, first)?;
        for _ in 0..order {
            self.mouse.key_name(KeyName::Right)?;
        }
        self.settled()?;
        self.press(&shot, tabs[0])?;
        let shot = self.settled()?;
        self.press(&shot, new)?;
        let board = LatticeBoard::named(name)?;
        self.wait_for(Duration::from_secs(10), |r| {
            r.board.name() == name && r.pegs == board.full()
        })
        .with_context(|| format!("the page did not show a full {name} board after New"))?;
        Ok(())
    }

    /// Clicks the vacancy, then plays `jumps` by click pairs, each verified.
    pub fn play(
        &mut self,
        board: &LatticeBoard,
        vacancy: u8,
        jumps: &[crate::games::pegs::rules::Jump],
    ) -> anyhow::Result<GameFigures> {
        let mut pegs: Cells = board.full() & !bit(vacancy);
        if !replays_to_one_peg(board, pegs, jumps) {
            bail!("the plan does not replay on the {} board", board.name());
        }
        let shot = self.shot()?;
        let layout = read_page(&shot.image)?;
        if layout.board.name() != board.name() || layout.pegs != board.full() {
            bail!(
                "the page does not show a full {} board; refusing to click",
                board.name()
            );
        }
        self.keep("full", board, board.full(), vacancy)?;
        self.click(&shot, layout.centres[vacancy as usize])?;
        self.expect(&layout, pegs)?;
        self.keep("vacancy", board, pegs, vacancy)?;
        let t0 = Instant::now();
        for (k, j) in jumps.iter().enumerate() {
            let shot = self.shot()?;
            self.click(&shot, layout.centres[j.from as usize])?;
            self.click(&shot, layout.centres[j.to as usize])?;
            pegs ^= j.mask();
            self.expect(&layout, pegs)
                .with_context(|| format!("after jump {} of {}", k + 1, jumps.len()))?;
            if k + 1 == jumps.len() / 2 {
                self.keep("middle", board, pegs, vacancy)?;
            }
        }
        self.keep("won", board, pegs, vacancy)?;
        Ok(GameFigures {
            won: pegs.count_ones() == 1,
            jumps: jumps.len(),
            per_jump: t0.elapsed() / jumps.len().max(1) as u32,
        })
    }

    /// Waits until the cells of `layout` read as `pegs`; an error naming
    /// what the page shows instead.
    fn expect(&mut self, layout: &PageReading, pegs: Cells) -> anyhow::Result<()> {
        let waited = self.browser.wait_until(Duration::from_secs(5), |image| {
            read_cells(image, layout).is_ok_and(|p| p == pegs)
        });
        if let Err(e) = waited {
            let shot = self.shot()?;
            let seen = read_cells(&shot.image, layout)
                .map(|p| layout.board.picture(p))
                .unwrap_or_else(|e| e.to_string());
            bail!(
                "the page does not show the expected position:\n{}it shows:\n{seen}\n({e})",
                layout.board.picture(pegs)
            );
        }
        Ok(())
    }
}

/// Checks a `ROW,COL` cell argument (two numbers 0 to 20) and returns it.
fn valid_cell(text: &str) -> Result<String, String> {
    let num = |x: &str| x.trim().parse::<u8>().ok().filter(|&n| n <= 20);
    match text.split_once(',') {
        Some((r, c)) if num(r).is_some() && num(c).is_some() => Ok(text.to_string()),
        _ => Err(format!(
            "{text:?} is not a cell: expected ROW,COL (0-based), e.g. 3,3"
        )),
    }
}

/// `gridbot demo pegs`: sgt-pegs (the default host) or `--host omerkel`.
#[derive(Debug, clap::Args)]
pub struct PegsDemoArgs {
    /// Where to play: `sgt` (sgt-pegs, desktop or `--browser`) or `omerkel`
    /// (Oliver Merkel's Peg Solitaire page in Chromium).
    #[arg(long, default_value = "sgt", value_parser = ["sgt", "omerkel"])]
    pub host: String,
    /// With `--host omerkel`: english, french, tri15 or tri21.
    #[arg(long, default_value = "english")]
    pub board: String,
    /// With `--host omerkel`: the vacancy `ROW,COL` (0-based; on a triangle
    /// COL counts from the row's left end); default the centre when it can
    /// be won, else the first cell that can.
    #[arg(long, value_name = "ROW,COL", value_parser = valid_cell)]
    pub vacancy: Option<String>,
    /// With `--host omerkel`: Chromium's window size.
    #[arg(long, default_value = "800x800", value_name = "WxH", value_parser = crate::cli::args::valid_screen_size)]
    pub window_size: String,
    /// The sgt host's options (`--games` and `--screen` apply to both).
    #[command(flatten)]
    pub sgt: crate::cli::sgt_game::DemoArgs,
}

impl PegsDemoArgs {
    /// The omerkel run these arguments ask for.
    pub fn omerkel(&self) -> OmerkelRun {
        OmerkelRun {
            board: self.board.clone(),
            vacancy: self.vacancy.clone(),
            games: self.sgt.games,
            screen: self.sgt.screen.clone(),
            window: self.window_size.clone(),
            screenshots: self.sgt.screenshots.clone(),
        }
    }
}
