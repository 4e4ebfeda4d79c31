//! Flood-It by Carl Steib (`flood-cstby/index.html` of the shared games) in
//! Chromium, for the play loop: the game's roles and its host.
//!
//! What is special about this page:
//! - The board is an SVG square of `n` x `n` flat pastel cells with no
//!   separators, in a thick dark frame; it is read by
//!   [`super::page::read_board`] without a calibration (the cell count and
//!   palette are learnt on the level's first reading and kept for the
//!   level: a flooded board has fewer edges, a won one none; a board whose
//!   colours stay off the palette for 2.5 s is a new deal, and its palette
//!   is learnt again).
//! - A cell changes colour over a second (a CSS transition): a reading in
//!   the middle of it meets a colour off the palette and fails, so the loop
//!   waits until the board holds still.
//! - There is no palette to pick from: a move is a click on a cell of the
//!   colour, and the bot clicks one that touches the flooded region.
//! - The status is one line of text above the board, `Move: n/limit` on the
//!   left and `Level: k/8` on the right ([`parse_status_line`]); it is read
//!   with OCR after every move and is part of the state the loop compares
//!   with its prediction, so a counter that disagrees with the plan is a
//!   mismatch like a board that does.
//! - A won level shows a message over the board (`Nice!`, ...; `Game Over`
//!   when the limit is reached); clicking the message's text starts the
//!   next level ([`message_point`]). There are eight levels of growing size,
//!   each with new random colours.

use std::cell::RefCell;
use std::time::{Duration, Instant};

use image::RgbaImage;

use crate::actuator::Gesture;
use crate::calibration::Calibration;
use crate::capture::ocr;
use crate::capture::screen::Screenshot;
use crate::play::game::{cells_diff, size_diff};
use crate::play::{
    Acting, Host, Plan, PlanError, ReadFailure, Reading, Rect, Rules, Solving, StatusReading,
    StatusResult, Text,
};

use super::page::{distance, read_board, PageBoard, Rgb};
use super::play::{board_text, click_cell, FloodGame};
use super::Board;

/// The page in its folder.
pub const PAGE: &str = "index.html";
/// The folder of the shared games that holds the page.
pub const FOLDER: &str = "flood-cstby";
/// The page's number of levels.
pub const LEVELS: usize = 8;

/// What the status line says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageStatus {
    /// Moves made in this level.
    pub moves: usize,
    /// The level's move limit.
    pub limit: usize,
    /// The level.
    pub level: usize,
    /// The number of levels.
    pub levels: usize,
}

/// The number after `word` (and a colon), then the one after a slash, as
/// OCR gives them: `O` for `0`, `l`, `I` or `|` for `1`, spaces anywhere.
fn pair_after(upper: &str, word: &str) -> Option<(usize, usize)> {
    let at = upper.find(word)? + word.len();
    let rest: String = upper[at..]
        .chars()
        .skip_while(|c| c.is_ascii_alphabetic() && *c != 'O' && *c != 'I' && *c != 'L')
        .collect();
    let rest = ocr::digit_slips(rest.trim_start_matches([':', ';', '.', ' ']));
    let mut numbers = rest
        .split(['/', ' ', ';', '!'])
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        });
    let a = numbers.next()?.parse().ok()?;
    let b = numbers.next()?.parse().ok()?;
    Some((a, b))
}

/// Parses the status line `Move: n/limit    Level: k/8`.
pub fn parse_status_line(text: &str) -> Option<PageStatus> {
    let upper = text.to_ascii_uppercase();
    let level_at = upper.find("LEVEL")?;
    let (moves, limit) = pair_after(&upper[..level_at], "MOVE")?;
    let (level, levels) = pair_after(&upper[level_at..], "LEVEL")?;
    (limit > 0 && (1..=levels).contains(&level)).then_some(PageStatus {
        moves,
        limit,
        level,
        levels,
    })
}

/// The frame's outer box around the board's inside `inner`: the frame's
/// colour (the pixel just outside) followed outwards on each side.
pub fn outer_of(image: &RgbaImage, inner: Rect) -> Rect {
    let (w, h) = image.dimensions();
    if inner.x == 0 || inner.y == 0 || inner.x + inner.width >= w || inner.y + inner.height >= h {
        return inner;
    }
    let at = |x: u32, y: u32| image.get_pixel(x, y).0;
    let (mx, my) = (inner.x + inner.width / 2, inner.y + inner.height / 2);
    let c = at(mx, inner.y - 1);
    let top = (0..inner.y)
        .rev()
        .find(|&y| at(mx, y) != c)
        .map_or(0, |y| y + 1);
    let left = (0..inner.x)
        .rev()
        .find(|&x| at(x, my) != c)
        .map_or(0, |x| x + 1);
    let right = (inner.x + inner.width..w)
        .find(|&x| at(x, my) != c)
        .unwrap_or(w);
    let bottom = (inner.y + inner.height..h)
        .find(|&y| at(mx, y) != c)
        .unwrap_or(h);
    Rect {
        x: left,
        y: top,
        width: right - left,
        height: bottom - top,
    }
}

/// The line of text above the board's frame `outer`: the first band of
/// rows, going up, with pixels far from the page's background (the colour
/// just above the frame); with a margin for OCR.
pub fn status_line(image: &RgbaImage, outer: Rect) -> Option<Rect> {
    let (w, _) = image.dimensions();
    if outer.y < 4 {
        return None;
    }
    let background = {
        let p = image.get_pixel(outer.x + outer.width / 2, outer.y - 2).0;
        [p[0], p[1], p[2]]
    };
    let x0 = outer.x.saturating_sub(10);
    let x1 = (outer.x + outer.width + 10).min(w);
    let ink = |x: u32, y: u32| {
        let p = image.get_pixel(x, y).0;
        distance([p[0], p[1], p[2]], background) > 80
    };
    let row_has_ink = |y: u32| (x0..x1).any(|x| ink(x, y));
    let bottom = (0..outer.y - 1).rev().find(|&y| row_has_ink(y))? + 1;
    let top = (0..bottom)
        .rev()
        .find(|&y| !row_has_ink(y))
        .map_or(0, |y| y + 1);
    let height = bottom - top;
    if !(6..=80).contains(&height) || outer.y - bottom > 3 * outer.height / 4 {
        return None;
    }
    let columns: Vec<u32> = (x0..x1)
        .filter(|&x| (top..bottom).any(|y| ink(x, y)))
        .collect();
    let (&left, &right) = (columns.first()?, columns.last()?);
    let margin = 8;
    Some(
        Rect {
            x: left.saturating_sub(margin),
            y: top.saturating_sub(margin),
            width: right + 1 - left + 2 * margin,
            height: height + 2 * margin,
        }
        .clip(w, image.height()),
    )
}

/// Reads the status line above the board with OCR: at scales 3 and 2
/// until one parses.
pub fn read_status_line(image: &RgbaImage, outer: Rect) -> Result<PageStatus, String> {
    let line = status_line(image, outer).ok_or("no line of text above the board")?;
    let mut texts = Vec::new();
    for scale in [3, 2, 4] {
        let text = ocr::read_line_scaled(image, line, scale).map_err(|e| e.to_string())?;
        if let Some(s) = parse_status_line(&text) {
            return Ok(s);
        }
        texts.push(text);
    }
    Err(format!(
        "the line above the board does not say `Move: n/limit  Level: k/8` (read {texts:?})"
    ))
}

/// A point on the message shown over a finished board (the text to click
/// for the next level): the pixel of the text nearest the board's centre,
/// the text being the pixels far from the board's one colour. `None` when
/// the board shows no message.
pub fn message_point(image: &RgbaImage, read: &PageBoard) -> Option<(u32, u32)> {
    let inner = read.frame.inner;
    let colour: Rgb = *read.palette.get(read.board.get(0, 0) as usize)?;
    let (cx, cy) = (inner.x + inner.width / 2, inner.y + inner.height / 2);
    let mut best: Option<(u64, (u32, u32))> = None;
    let mut count = 0;
    for y in inner.y..inner.y + inner.height {
        for x in inner.x..inner.x + inner.width {
            let p = image.get_pixel(x, y).0;
            if distance([p[0], p[1], p[2]], colour) <= 60 {
                continue;
            }
            // A solid pixel of the glyph: its four neighbours are text too.
            let solid = [(0i64, 1i64), (1, 0), (0, -1), (-1, 0)]
                .iter()
                .all(|&(dx, dy)| {
                    let q = image
                        .get_pixel((x as i64 + dx) as u32, (y as i64 + dy) as u32)
                        .0;
                    distance([q[0], q[1], q[2]], colour) > 60
                });
            if !solid {
                continue;
            }
            count += 1;
            let d = u64::from(x.abs_diff(cx)).pow(2) + u64::from(y.abs_diff(cy)).pow(2);
            if best.is_none_or(|b| d < b.0) {
                best = Some((d, (x, y)));
            }
        }
    }
    (count >= 20).then_some(best?.1)
}

/// The page's state: the board and the move counter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageState {
    /// The board.
    pub board: Board,
    /// The page's move counter (`Move: n/...`).
    pub moves: usize,
}

/// A reading: the board as read, the status line and the screenshot's
/// board geometry.
#[derive(Debug, Clone)]
pub struct PageReading {
    /// The state.
    pub state: PageState,
    /// The board as read.
    pub read: PageBoard,
    /// The status line.
    pub status: PageStatus,
}

/// Flood-It on Carl Steib's page, for the play loop.
pub struct CstbyFlood {
    /// The solver (the sgt game's roles give the plan: exact A* first).
    solver: FloodGame,
    /// The level's cell count and palette, learnt on its first reading.
    learnt: RefCell<Option<(usize, Vec<Rgb>)>>,
    /// Since when readings with the learnt palette have failed.
    failing_since: RefCell<Option<Instant>>,
}

/// How long readings with the learnt palette must fail before the board
/// is taken as a new deal with new colours (a password typed, a restart)
/// and its palette learnt again: longer than a cell's colour transition.
const RELEARN_AFTER: Duration = Duration::from_millis(2500);

impl CstbyFlood {
    /// The game, its solver (the sgt game's portfolio, exact A* first)
    /// configured by `calibration` (whose palette is not used: the page's
    /// colours are learnt).
    pub fn new(calibration: Calibration) -> Self {
        CstbyFlood {
            solver: FloodGame::new(calibration),
            learnt: RefCell::new(None),
            failing_since: RefCell::new(None),
        }
    }

    /// Reads the board alone (no status line, no OCR), with what was
    /// learnt about this level.
    /// A board whose colours stay off the learnt palette for
    /// [`RELEARN_AFTER`] is read afresh: the page dealt new colours.
    pub fn read_board(&self, image: &RgbaImage) -> Result<PageBoard, ReadFailure> {
        let mut learnt = self.learnt.borrow().clone();
        let mut read = read_board(
            image,
            learnt.as_ref().map(|l| l.0),
            learnt.as_ref().map(|l| l.1.as_slice()),
        );
        if read.is_ok() || learnt.is_none() {
            *self.failing_since.borrow_mut() = None;
        } else {
            let since = *self
                .failing_since
                .borrow_mut()
                .get_or_insert_with(Instant::now);
            if since.elapsed() >= RELEARN_AFTER {
                let fresh = read_board(image, learnt.as_ref().map(|l| l.0), None);
                if fresh.is_ok() {
                    log::info!("the board's colours changed: its palette is learnt again");
                    (learnt, read) = (None, fresh);
                    *self.failing_since.borrow_mut() = None;
                }
            }
        }
        let read = read.map_err(|e| ReadFailure(e.to_string()))?;
        if learnt.is_none() && !read.board.is_won() {
            *self.learnt.borrow_mut() = Some((read.cells, read.palette.clone()));
        }
        Ok(read)
    }
}

impl Rules for CstbyFlood {
    type State = PageState;
    type Move = u8;

    fn predict(&self, state: &PageState, mv: u8) -> PageState {
        PageState {
            board: self.solver.predict(&state.board, mv),
            moves: state.moves + 1,
        }
    }

    fn is_won(&self, state: &PageState) -> bool {
        state.board.is_won()
    }

    fn dimensions(&self, state: &PageState) -> (usize, usize) {
        (state.board.width(), state.board.height())
    }
}

impl Reading for CstbyFlood {
    type Reading = PageReading;

    fn begin_game(&self) {
        *self.learnt.borrow_mut() = None;
        *self.failing_since.borrow_mut() = None;
    }

    fn read(&self, shot: &Screenshot) -> Result<PageReading, ReadFailure> {
        let read = self.read_board(&shot.image).inspect_err(|e| {
            log::debug!("board not read: {e}");
        })?;
        let status = read_status_line(&shot.image, read.frame.outer).map_err(|e| {
            log::debug!("status line not read: {e}");
            ReadFailure(e)
        })?;
        Ok(PageReading {
            state: PageState {
                board: read.board.clone(),
                moves: status.moves,
            },
            read,
            status,
        })
    }

    fn state<'a>(&self, reading: &'a PageReading) -> &'a PageState {
        &reading.state
    }

    fn board_area(&self, reading: &PageReading) -> Rect {
        reading.read.frame.inner
    }
}

impl Solving for CstbyFlood {
    fn plan(&self, state: &PageState, budget: Duration) -> Result<Plan<u8>, PlanError> {
        self.solver.plan(&state.board, budget)
    }
}

impl Acting for CstbyFlood {
    /// A click in the middle of a cell of the colour that touches the
    /// flooded region (never elsewhere: a cell of the colour away from the
    /// region would do the same on this page, but is not what the plan
    /// means).
    fn gesture(
        &self,
        reading: &PageReading,
        state: &PageState,
        mv: u8,
    ) -> Option<Gesture<(f64, f64)>> {
        let b = &state.board;
        let (r, c) = click_cell(b, mv)?;
        let region = b.flooded_region();
        let touches = b.neighbours(r * b.width() + c).any(|n| region[n]);
        touches.then(|| Gesture::Click(reading.read.cell_centre(r, c)))
    }
}

impl Text for CstbyFlood {
    fn name(&self) -> &str {
        "Flood-It (cstby)"
    }

    fn describe_move(&self, _state: &PageState, mv: u8) -> String {
        format!("colour {mv}")
    }

    fn describe_state(&self, state: &PageState) -> String {
        board_text(&state.board)
    }

    fn diff(&self, expected: &PageState, seen: &PageState) -> String {
        let (e, s) = (&expected.board, &seen.board);
        let mut text =
            size_diff((e.width(), e.height()), (s.width(), s.height())).unwrap_or_else(|| {
                let cells: Vec<String> = (0..e.cells().len())
                    .filter(|&i| e.cells()[i] != s.cells()[i])
                    .map(|i| {
                        let (r, c) = (i / e.width(), i % e.width());
                        format!("({r},{c}) {} instead of {}", s.cells()[i], e.cells()[i])
                    })
                    .collect();
                if cells.is_empty() {
                    "the board is as predicted".into()
                } else {
                    cells_diff(&cells)
                }
            });
        if expected.moves != seen.moves {
            text.push_str(&format!(
                "; the page counts {} moves where the plan has {}",
                seen.moves, expected.moves
            ));
        }
        text
    }
}

/// The page as the loop's host: the status line above the board.
#[derive(Debug, Clone, Copy, Default)]
pub struct CstbyHost;

impl Host for CstbyHost {
    fn name(&self) -> &str {
        "flood-cstby"
    }

    /// `board` is the frame's inside; the line is above the frame. The
    /// result is `failed` once the counter reaches the limit (the page
    /// shows `Game Over` then unless the board is won, which the loop
    /// sees on the board).
    fn status(&self, shot: &Screenshot, board: Rect) -> StatusReading {
        let outer = outer_of(&shot.image, board);
        match read_status_line(&shot.image, outer) {
            Ok(s) => StatusReading {
                result: if s.moves >= s.limit {
                    StatusResult::Failed
                } else {
                    StatusResult::Playing
                },
                text: Some(format!(
                    "Move: {}/{} Level: {}/{}",
                    s.moves, s.limit, s.level, s.levels
                )),
                moves: Some(s.moves),
                limit: Some(s.limit),
            },
            Err(e) => {
                log::warn!("status line not read: {e}");
                StatusReading::unread()
            }
        }
    }

    /// The next level is a click on the message over the won board, which
    /// the commands make themselves ([`message_point`]).
    fn new_game(&self) -> Option<Gesture<(f64, f64)>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_lines_parse_with_ocr_slips() {
        let s = parse_status_line("Move: 0/10 Level: 1/8").unwrap();
        assert_eq!(
            s,
            PageStatus {
                moves: 0,
                limit: 10,
                level: 1,
                levels: 8
            }
        );
        let s = parse_status_line("Move:12/ 2O   Level : 5/8").unwrap();
        assert_eq!((s.moves, s.limit, s.level), (12, 20, 5));
        let s = parse_status_line("Move: l/16 Level: 2/8").unwrap();
        assert_eq!((s.moves, s.limit), (1, 16));
        assert!(parse_status_line("MOVES: 0 / 51").is_none());
        assert!(parse_status_line("Move: 0/10").is_none());
        assert!(parse_status_line("Move: 0/10 Level: 9/8").is_none());
    }
}
