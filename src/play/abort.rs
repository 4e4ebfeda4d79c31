//! The abort guard: a bot that drives the user's mouse must be easy to stop.
//!
//! Before every click the loop asks the guard whether to go on. It stops when
//! Ctrl-C was pressed, when the pointer is in a screen corner, or when the
//! pointer is anywhere but where the bot itself last left it (the user took
//! the mouse). The guard holds no device; the loop passes the pointer's
//! position in, so the logic is tested without X.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// Why a run was aborted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AbortReason {
    /// Ctrl-C (SIGINT) or another of [`STOP_SIGNALS`].
    Interrupted,
    /// The pointer was moved into a screen corner.
    Corner(&'static str),
    /// The pointer is not where the bot left it.
    PointerMoved {
        /// What was expected.
        expected: (i32, i32),
        /// Where it is now.
        actual: (i32, i32),
    },
}

impl fmt::Display for AbortReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AbortReason::Interrupted => {
                write!(f, "aborted: interrupted (Ctrl-C or a termination signal)")
            }
            AbortReason::Corner(name) => write!(f, "aborted: the mouse moved to the {name} corner"),
            AbortReason::PointerMoved { expected, actual } => write!(
                f,
                "aborted: the mouse was moved by hand (the bot left it at ({}, {}), it is at ({}, {}))",
                expected.0, expected.1, actual.0, actual.1
            ),
        }
    }
}

/// The signals that ask a run to stop instead of killing it: every one
/// whose default action ends the process and that can be caught. SIGKILL
/// and SIGSTOP cannot be caught; after a SIGKILL a held button stays down
/// until `gridbot click X Y` (a press and a release) or the user's own
/// click releases it (see the README's "Stopping the bot").
pub const STOP_SIGNALS: [(i32, &str); 7] = [
    (libc::SIGINT, "SIGINT"),
    (libc::SIGTERM, "SIGTERM"),
    (libc::SIGHUP, "SIGHUP"),
    (libc::SIGQUIT, "SIGQUIT"),
    (libc::SIGUSR1, "SIGUSR1"),
    (libc::SIGUSR2, "SIGUSR2"),
    (libc::SIGALRM, "SIGALRM"),
];

/// The process-wide interrupt flag, set by any of [`STOP_SIGNALS`] (Ctrl-C,
/// SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM): those signals no
/// longer kill the process, they ask it to stop, so it can release the
/// mouse, say why and write its report first. The handlers are installed
/// once; later calls return the same flag. A signal whose handler cannot
/// be installed is logged and keeps its default action.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        for (signal, name) in STOP_SIGNALS {
            if let Err(err) = signal_hook::flag::register(signal, Arc::clone(&flag)) {
                log::warn!("cannot catch {name}: {err}");
            }
        }
        flag
    })
    .clone()
}

/// Decides, before each click, whether the run may go on.
#[derive(Debug)]
pub struct AbortGuard {
    interrupted: Arc<AtomicBool>,
    screen: (u32, u32),
    corner_margin: i32,
    /// Where the bot last left the pointer (or where it was at the start).
    expected: Option<(i32, i32)>,
    /// Pixels of slack when comparing with `expected`.
    tolerance: i32,
}

impl AbortGuard {
    /// A guard for a screen of `screen` pixels, watching `interrupted`.
    pub fn new(interrupted: Arc<AtomicBool>, screen: (u32, u32)) -> Self {
        AbortGuard {
            interrupted,
            screen,
            corner_margin: 3,
            expected: None,
            tolerance: 1,
        }
    }

    /// Distance from a screen edge, in pixels, that counts as "in the corner".
    pub fn with_corner_margin(mut self, margin: i32) -> Self {
        self.corner_margin = margin;
        self
    }

    /// True once Ctrl-C was pressed.
    pub fn interrupted(&self) -> bool {
        self.interrupted.load(Ordering::SeqCst)
    }

    /// Remembers where the pointer is (the bot just put it there, or the run
    /// starts there).
    pub fn note_position(&mut self, position: (i32, i32)) {
        self.expected = Some(position);
    }

    /// Forgets the remembered position (e.g. after the user was asked to
    /// set things up); the next check only looks at corners.
    pub fn forget_position(&mut self) {
        self.expected = None;
    }

    /// The corner the point is in, if any.
    pub fn corner_of(&self, (x, y): (i32, i32)) -> Option<&'static str> {
        let m = self.corner_margin;
        let (w, h) = (self.screen.0 as i32, self.screen.1 as i32);
        let left = x < m;
        let right = x >= w - m;
        let top = y < m;
        let bottom = y >= h - m;
        match (top, bottom, left, right) {
            (true, _, true, _) => Some("top-left"),
            (true, _, _, true) => Some("top-right"),
            (_, true, true, _) => Some("bottom-left"),
            (_, true, _, true) => Some("bottom-right"),
            _ => None,
        }
    }

    /// Checks the flag and the pointer position; `Err` means stop now.
    pub fn check(&self, position: (i32, i32)) -> Result<(), AbortReason> {
        if self.interrupted() {
            return Err(AbortReason::Interrupted);
        }
        if let Some(corner) = self.corner_of(position) {
            return Err(AbortReason::Corner(corner));
        }
        if let Some(expected) = self.expected {
            if (expected.0 - position.0).abs() > self.tolerance
                || (expected.1 - position.1).abs() > self.tolerance
            {
                return Err(AbortReason::PointerMoved {
                    expected,
                    actual: position,
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard() -> AbortGuard {
        AbortGuard::new(Arc::new(AtomicBool::new(false)), (1280, 800))
    }

    #[test]
    fn corners_abort_and_the_middle_does_not() {
        let g = guard();
        assert_eq!(g.check((640, 400)), Ok(()));
        assert_eq!(g.check((0, 0)), Err(AbortReason::Corner("top-left")));
        assert_eq!(g.check((1279, 0)), Err(AbortReason::Corner("top-right")));
        assert_eq!(g.check((2, 799)), Err(AbortReason::Corner("bottom-left")));
        assert_eq!(
            g.check((1277, 797)),
            Err(AbortReason::Corner("bottom-right"))
        );
        // An edge that is not a corner is fine.
        assert_eq!(g.check((0, 400)), Ok(()));
        assert_eq!(g.check((640, 0)), Ok(()));
        assert_eq!(
            AbortReason::Corner("top-left").to_string(),
            "aborted: the mouse moved to the top-left corner"
        );
    }

    #[test]
    fn a_pointer_moved_by_hand_aborts() {
        let mut g = guard();
        g.note_position((100, 100));
        assert_eq!(
            g.check((100, 101)),
            Ok(()),
            "one pixel of rounding is tolerated"
        );
        let err = g.check((300, 100)).unwrap_err();
        assert_eq!(
            err,
            AbortReason::PointerMoved {
                expected: (100, 100),
                actual: (300, 100)
            }
        );
        assert!(err.to_string().contains("moved by hand"));
        g.forget_position();
        assert_eq!(g.check((300, 100)), Ok(()));
    }

    #[test]
    fn interrupt_flag_aborts_first() {
        let flag = Arc::new(AtomicBool::new(false));
        let g = AbortGuard::new(flag.clone(), (100, 100));
        assert_eq!(g.check((50, 50)), Ok(()));
        flag.store(true, Ordering::SeqCst);
        assert_eq!(g.check((50, 50)), Err(AbortReason::Interrupted));
    }
}
