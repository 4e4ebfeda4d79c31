//! Never click into another window: before every move the play loop asks
//! whether the game window is still the one it started with (by X window
//! id, not by title) and whether any window stacked above it overlaps the
//! board. A covered board is waited for, a bounded time; if it stays
//! covered, the run stops with a message naming the window (title and id).
//! A click point outside the game window's visible area is refused.
//!
//! The X side is the small [`Stacking`] trait (implemented on an X display
//! by [`crate::display::stacking::XStacking`]), so the decision logic here is
//! unit-tested with a fake.

use std::fmt;
use std::thread;
use std::time::{Duration, Instant};

use super::engine::PlayError;
use super::io::DeviceError;
use super::{AbortReason, Rect};
use crate::capture::screen::Screenshot;
pub use crate::display::stacking::{ScreenRect, StackedWindow, Stacking};

/// Why a move was not made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OcclusionError {
    /// Another window stayed over the board.
    #[error("another window covers the game board: {window}; waited {waited_ms} ms, stopping without clicking")]
    Covered {
        /// The covering window.
        window: StackedWindow,
        /// How long the loop waited for it to go.
        waited_ms: u64,
    },
    /// The game window the run started with is gone.
    #[error("the game window the run started with (id 0x{id:x}) is gone; stopping rather than play in another window")]
    WindowGone {
        /// Its id.
        id: u32,
    },
    /// The screen is captured from another window than the one the run
    /// started with (e.g. a second game window with the same title).
    #[error("the board is now read from window id 0x{now:x}, not the game window 0x{started:x} the run started with; stopping")]
    WindowSwitched {
        /// The window the run started with.
        started: u32,
        /// The window captured now.
        now: u32,
    },
    /// The click point is not on the game window's visible area.
    #[error("refusing to click at ({}, {}): outside the game window {window}", point.0, point.1)]
    OutsideWindow {
        /// The point.
        point: (i32, i32),
        /// The game window.
        window: StackedWindow,
    },
    /// The window system could not be asked.
    #[error("cannot check the window stacking: {0}")]
    Device(String),
    /// Ctrl-C or a termination signal during the wait.
    #[error("interrupted while waiting for the board to be uncovered")]
    Interrupted,
}

/// How a check ended when it did not refuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clearance {
    /// Nothing over the board.
    Clear,
    /// Something was over the board and went away: the caller should read
    /// the board again before clicking (what it read may have been covered).
    ClearedAfterWait(Duration),
}

/// The occlusion check the play loop runs before each move.
pub struct OcclusionCheck<'a> {
    stacking: Box<dyn Stacking + 'a>,
    started_with: Option<u32>,
    max_wait: Duration,
    poll: Duration,
}

impl fmt::Debug for OcclusionCheck<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OcclusionCheck")
            .field("started_with", &self.started_with)
            .field("max_wait", &self.max_wait)
            .finish()
    }
}

/// How long the loop waits by default for a covering window to go.
pub const DEFAULT_MAX_WAIT: Duration = Duration::from_secs(5);

impl<'a> OcclusionCheck<'a> {
    /// A check on `stacking`, waiting up to [`DEFAULT_MAX_WAIT`] for a
    /// covering window to go.
    pub fn new(stacking: impl Stacking + 'a) -> Self {
        OcclusionCheck {
            stacking: Box::new(stacking),
            started_with: None,
            max_wait: DEFAULT_MAX_WAIT,
            poll: Duration::from_millis(50),
        }
    }

    /// Waits at most `max_wait` (zero: stop at once).
    pub fn with_max_wait(mut self, max_wait: Duration) -> Self {
        self.max_wait = max_wait;
        self
    }

    /// The topmost window over any part of the game window, if any: why a
    /// board could not be found before its place is known.
    pub fn covering_game_window(&mut self) -> Option<StackedWindow> {
        let game = self.stacking.game_window().ok()??;
        let above = self.stacking.windows_above().ok()?;
        above
            .into_iter()
            .rev()
            .find(|w| w.rect.overlaps(&game.rect))
    }

    /// One look: the covering window, if any, or a refusal.
    fn look(
        &mut self,
        board: ScreenRect,
        point: (i32, i32),
    ) -> Result<Option<StackedWindow>, OcclusionError> {
        let dev = |e: DeviceError| OcclusionError::Device(e.0);
        let Some(game) = self.stacking.game_window().map_err(dev)? else {
            return Err(OcclusionError::WindowGone {
                id: self.started_with.unwrap_or(0),
            });
        };
        let started = *self.started_with.get_or_insert(game.id);
        if game.id != started {
            return Err(OcclusionError::WindowSwitched {
                started,
                now: game.id,
            });
        }
        if let Some(now) = self.stacking.captured_window() {
            if now != started {
                return Err(OcclusionError::WindowSwitched { started, now });
            }
        }
        if !game.rect.contains(point) {
            return Err(OcclusionError::OutsideWindow {
                point,
                window: game,
            });
        }
        let above = self.stacking.windows_above().map_err(dev)?;
        Ok(above
            .into_iter()
            .rev()
            .find(|w| w.rect.overlaps(&board) || w.rect.contains(point)))
    }

    /// Checks that the board (screen rectangle) is uncovered and the click
    /// point on the game window; waits (bounded, watching `interrupted`)
    /// while another window covers it.
    pub fn check(
        &mut self,
        board: ScreenRect,
        point: (i32, i32),
        interrupted: &dyn Fn() -> bool,
    ) -> Result<Clearance, OcclusionError> {
        let start = Instant::now();
        let mut logged = false;
        loop {
            let Some(window) = self.look(board, point)? else {
                log::debug!(
                    "occlusion check: clear in {:.2} ms",
                    start.elapsed().as_secs_f64() * 1e3
                );
                return Ok(if logged {
                    Clearance::ClearedAfterWait(start.elapsed())
                } else {
                    Clearance::Clear
                });
            };
            let waited = start.elapsed();
            if waited >= self.max_wait {
                return Err(OcclusionError::Covered {
                    window,
                    waited_ms: waited.as_millis() as u64,
                });
            }
            if !logged {
                log::warn!(
                    "{window} is over the game board; waiting up to {:?} for it to go",
                    self.max_wait
                );
                logged = true;
            }
            if interrupted() {
                return Err(OcclusionError::Interrupted);
            }
            thread::sleep(self.poll.min(self.max_wait - waited));
        }
    }
}

impl From<OcclusionError> for PlayError {
    fn from(err: OcclusionError) -> Self {
        match err {
            OcclusionError::Interrupted => PlayError::Aborted(AbortReason::Interrupted),
            other => PlayError::Occluded(other),
        }
    }
}

/// The screen rectangle of an image area of a screenshot.
pub fn screen_rect(shot: &Screenshot, area: Rect) -> ScreenRect {
    let (x0, y0) = shot.to_screen(area.x as f64, area.y as f64);
    let (x1, y1) = shot.to_screen(
        area.x as f64 + area.width as f64,
        area.y as f64 + area.height as f64,
    );
    ScreenRect {
        x: x0,
        y: y0,
        width: (x1 - x0).max(0) as u32,
        height: (y1 - y0).max(0) as u32,
    }
}

/// The play loop's one call before each move: with a check, the board
/// `area` of `shot` must be uncovered and `point` (screen) on the game
/// window; without one (a whole-screen capture, the fakes), clear.
pub fn before_move(
    check: Option<&mut OcclusionCheck<'_>>,
    shot: &Screenshot,
    area: Rect,
    point: (i32, i32),
    interrupted: &dyn Fn() -> bool,
) -> Result<Clearance, OcclusionError> {
    match check {
        Some(check) => check.check(screen_rect(shot, area), point, interrupted),
        None => Ok(Clearance::Clear),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    /// Scripted stacking: each look pops the next "above" list (the last
    /// one repeats).
    #[derive(Clone)]
    struct Fake {
        game: Rc<RefCell<Option<StackedWindow>>>,
        above: Rc<RefCell<Vec<Vec<StackedWindow>>>>,
        captured: Option<u32>,
    }

    impl Stacking for Fake {
        fn game_window(&mut self) -> Result<Option<StackedWindow>, DeviceError> {
            Ok(self.game.borrow().clone())
        }
        fn windows_above(&mut self) -> Result<Vec<StackedWindow>, DeviceError> {
            let mut above = self.above.borrow_mut();
            Ok(if above.len() > 1 {
                above.remove(0)
            } else {
                above.first().cloned().unwrap_or_default()
            })
        }
        fn captured_window(&mut self) -> Option<u32> {
            self.captured
        }
    }

    fn window(id: u32, title: &str, x: i32, y: i32, w: u32, h: u32) -> StackedWindow {
        StackedWindow {
            id,
            title: title.into(),
            rect: ScreenRect {
                x,
                y,
                width: w,
                height: h,
            },
        }
    }

    fn fake(above: Vec<Vec<StackedWindow>>) -> Fake {
        Fake {
            game: Rc::new(RefCell::new(Some(window(7, "Flood", 0, 0, 480, 540)))),
            above: Rc::new(RefCell::new(above)),
            captured: None,
        }
    }

    const BOARD: ScreenRect = ScreenRect {
        x: 16,
        y: 41,
        width: 448,
        height: 448,
    };

    #[test]
    fn clear_when_nothing_overlaps() {
        let far = window(9, "xterm", 600, 0, 300, 300);
        let mut check = OcclusionCheck::new(fake(vec![vec![far]]));
        assert_eq!(
            check.check(BOARD, (100, 100), &|| false),
            Ok(Clearance::Clear)
        );
    }

    #[test]
    fn a_window_that_stays_stops_the_run_naming_it() {
        let over = window(0x400007, "Flood", 300, 300, 480, 540);
        let mut check = OcclusionCheck::new(fake(vec![vec![over.clone()]]))
            .with_max_wait(Duration::from_millis(120));
        let err = check.check(BOARD, (100, 100), &|| false).unwrap_err();
        match &err {
            OcclusionError::Covered { window, waited_ms } => {
                assert_eq!(window, &over);
                assert!(*waited_ms >= 120);
            }
            other => panic!("{other:?}"),
        }
        let msg = err.to_string();
        assert!(msg.contains("\"Flood\" (id 0x400007)"), "{msg}");
    }

    #[test]
    fn a_window_that_goes_away_is_waited_for() {
        let over = window(9, "menu", 20, 20, 50, 50);
        let mut check = OcclusionCheck::new(fake(vec![vec![over.clone()], vec![over], vec![]]));
        match check.check(BOARD, (100, 100), &|| false) {
            Ok(Clearance::ClearedAfterWait(_)) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_click_point_outside_the_window_or_under_another_is_refused() {
        let mut check = OcclusionCheck::new(fake(vec![vec![]]));
        let err = check.check(BOARD, (500, 100), &|| false).unwrap_err();
        assert!(
            matches!(
                err,
                OcclusionError::OutsideWindow {
                    point: (500, 100),
                    ..
                }
            ),
            "{err}"
        );
        // A small window over the click point only (not the board area).
        let small = window(9, "tooltip", 98, 98, 5, 5);
        let mut check = OcclusionCheck::new(fake(vec![vec![small]])).with_max_wait(Duration::ZERO);
        let far_board = ScreenRect {
            x: 200,
            y: 200,
            width: 10,
            height: 10,
        };
        assert!(matches!(
            check.check(far_board, (100, 100), &|| false),
            Err(OcclusionError::Covered { .. })
        ));
    }

    #[test]
    fn the_window_is_tracked_by_id() {
        let f = fake(vec![vec![]]);
        let game = f.game.clone();
        let mut check = OcclusionCheck::new(f);
        assert_eq!(
            check.check(BOARD, (100, 100), &|| false),
            Ok(Clearance::Clear)
        );
        // Same title, another window: refused.
        *game.borrow_mut() = Some(window(8, "Flood", 0, 0, 480, 540));
        assert_eq!(
            check.check(BOARD, (100, 100), &|| false),
            Err(OcclusionError::WindowSwitched { started: 7, now: 8 })
        );
        *game.borrow_mut() = None;
        assert_eq!(
            check.check(BOARD, (100, 100), &|| false),
            Err(OcclusionError::WindowGone { id: 7 })
        );
    }

    #[test]
    fn capture_from_another_window_is_refused() {
        let mut f = fake(vec![vec![]]);
        f.captured = Some(99);
        let mut check = OcclusionCheck::new(f);
        assert_eq!(
            check.check(BOARD, (100, 100), &|| false),
            Err(OcclusionError::WindowSwitched {
                started: 7,
                now: 99
            })
        );
    }

    #[test]
    fn interrupt_ends_the_wait() {
        let over = window(9, "x", 0, 0, 1000, 1000);
        let mut check = OcclusionCheck::new(fake(vec![vec![over]]));
        assert_eq!(
            check.check(BOARD, (100, 100), &|| true),
            Err(OcclusionError::Interrupted)
        );
    }

    #[test]
    fn rectangles() {
        let a = ScreenRect {
            x: 0,
            y: 0,
            width: 10,
            height: 10,
        };
        assert!(a.overlaps(&ScreenRect {
            x: 9,
            y: 9,
            width: 1,
            height: 1
        }));
        assert!(!a.overlaps(&ScreenRect {
            x: 10,
            y: 0,
            width: 5,
            height: 5
        }));
        assert!(!a.overlaps(&ScreenRect {
            x: 0,
            y: 0,
            width: 0,
            height: 0
        }));
        assert!(a.contains((0, 0)) && !a.contains((10, 5)) && !a.contains((-1, 5)));
    }
}
