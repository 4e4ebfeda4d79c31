//! Waiting for the screen to settle after a click.
//!
//! After a click the loop polls captures of the board area until two in a
//! row agree and differ from the capture taken before the click (the game
//! drew the move and any animation is over), or until a timeout (the click
//! was lost, or it changed nothing). A stricter variant waits until the area
//! has stayed the same for a minimum time, which the loop uses before it
//! believes a board that differs from its prediction: sgt-flood's victory
//! flash changes the board every 30 ms and two quick captures can fall in
//! one frame.

use std::thread;
use std::time::{Duration, Instant};

use crate::capture::screen::Screenshot;

use super::io::{DeviceError, Screen};
use super::Rect;

/// The pixels of one area of a screenshot, for cheap equality tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    rect: Rect,
    origin: (i32, i32),
    pixels: Vec<u8>,
}

impl Fingerprint {
    /// The pixels of `area` (clipped to the image) plus the image's screen
    /// origin, so a moved window never looks unchanged.
    pub fn of(shot: &Screenshot, area: Rect) -> Self {
        let (w, h) = shot.image.dimensions();
        let rect = area.clip(w, h);
        let raw = shot.image.as_raw();
        let stride = w as usize * 4;
        let mut pixels = Vec::with_capacity(rect.width as usize * rect.height as usize * 4);
        for y in rect.y..rect.y + rect.height {
            let start = y as usize * stride + rect.x as usize * 4;
            pixels.extend_from_slice(&raw[start..start + rect.width as usize * 4]);
        }
        Fingerprint {
            rect,
            origin: (shot.origin_x, shot.origin_y),
            pixels,
        }
    }
}

/// How waiting ended.
#[derive(Debug)]
pub enum Settled {
    /// The area changed from `before` and then held still.
    Changed(Screenshot),
    /// The timeout passed; the last capture (the area may or may not differ).
    TimedOut {
        /// Last position found (or seen).
        last: Screenshot,
        /// Whether the picture changed at all.
        changed: bool,
    },
    /// The stop flag was raised while waiting.
    Interrupted,
}

/// Timings of a wait, from the calibration.
#[derive(Debug, Clone, Copy)]
pub struct SettleTiming {
    /// Pause before the first capture.
    pub after_click: Duration,
    /// Pause between captures.
    pub poll_interval: Duration,
    /// Give up after this long.
    pub timeout: Duration,
}

/// Statistics of one wait, to separate the bot's own work from waiting.
#[derive(Debug, Clone, Copy, Default)]
pub struct SettleStats {
    /// Captures taken.
    pub captures: u32,
    /// Time spent capturing and comparing (the rest of the wait is sleep).
    pub busy: Duration,
    /// Whole wait.
    pub total: Duration,
}

/// Polls `screen` until the area changed from `before` and two captures in
/// a row agree, or the timeout passes. With `min_stable` set, the area must
/// also have stayed the same for at least that long. `before = None` means
/// "any stable picture will do". `stop` is polled between captures.
pub fn wait_until_settled(
    screen: &mut dyn Screen,
    area: Rect,
    before: Option<&Fingerprint>,
    timing: SettleTiming,
    min_stable: Duration,
    stop: &dyn Fn() -> bool,
    stats: &mut SettleStats,
) -> Result<Settled, DeviceError> {
    let start = Instant::now();
    let deadline = start + timing.timeout;
    if !timing.after_click.is_zero() {
        thread::sleep(timing.after_click);
    }
    let mut previous: Option<(Fingerprint, Instant)> = None;
    let result = loop {
        if stop() {
            break Settled::Interrupted;
        }
        let t = Instant::now();
        let shot = screen.capture()?;
        let print = Fingerprint::of(&shot, area);
        stats.captures += 1;
        stats.busy += t.elapsed();
        let changed = before.is_none_or(|b| *b != print);
        let now = Instant::now();
        match &previous {
            Some((prev, since))
                if *prev == print && changed && now.duration_since(*since) >= min_stable =>
            {
                break Settled::Changed(shot);
            }
            Some((prev, _)) if *prev == print => {}
            _ => previous = Some((print, t)),
        }
        if now >= deadline {
            break Settled::TimedOut {
                last: shot,
                changed,
            };
        }
        thread::sleep(
            timing
                .poll_interval
                .min(deadline.saturating_duration_since(now)),
        );
    };
    stats.total += start.elapsed();
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgba, RgbaImage};
    use std::collections::VecDeque;

    /// Replays a list of one-pixel-colour frames, repeating the last one.
    struct Frames(VecDeque<u8>, u8);

    impl Screen for Frames {
        fn capture(&mut self) -> Result<Screenshot, DeviceError> {
            if let Some(v) = self.0.pop_front() {
                self.1 = v;
            }
            Ok(Screenshot::from_image(RgbaImage::from_pixel(
                4,
                4,
                Rgba([self.1, 0, 0, 255]),
            )))
        }
    }

    const AREA: Rect = Rect {
        x: 0,
        y: 0,
        width: 4,
        height: 4,
    };

    fn timing() -> SettleTiming {
        SettleTiming {
            after_click: Duration::ZERO,
            poll_interval: Duration::from_millis(1),
            timeout: Duration::from_millis(100),
        }
    }

    /// Settles `frames` (the red value of each capture in turn; the last
    /// one stays), compared with a capture of red 0 when `changed_from_0`.
    fn settle(
        frames: &[u8],
        changed_from_0: bool,
        min_stable: Duration,
        stop: bool,
    ) -> (Settled, SettleStats) {
        let mut screen = Frames(frames.iter().copied().collect(), 0);
        let mut stats = SettleStats::default();
        let before = fp(0);
        // Room for the minimum stable time after the last frame.
        let timing = SettleTiming {
            timeout: timing().timeout + min_stable * 2,
            ..timing()
        };
        let r = wait_until_settled(
            &mut screen,
            AREA,
            changed_from_0.then_some(&before),
            timing,
            min_stable,
            &|| stop,
            &mut stats,
        )
        .unwrap();
        (r, stats)
    }

    fn fp(v: u8) -> Fingerprint {
        Fingerprint::of(
            &Screenshot::from_image(RgbaImage::from_pixel(4, 4, Rgba([v, 0, 0, 255]))),
            AREA,
        )
    }

    #[test]
    fn settles_on_two_equal_changed_captures() {
        let (r, stats) = settle(&[0, 0, 5, 7, 7, 7], true, Duration::ZERO, false);
        match r {
            Settled::Changed(shot) => assert_eq!(shot.image.get_pixel(0, 0)[0], 7),
            other => panic!("{other:?}"),
        }
        assert_eq!(stats.captures, 5);
    }

    #[test]
    fn unchanged_screen_times_out() {
        let (r, _) = settle(&[], true, Duration::ZERO, false);
        assert!(
            matches!(r, Settled::TimedOut { changed: false, .. }),
            "{r:?}"
        );
    }

    #[test]
    fn min_stable_waits_out_a_flash() {
        // Frames alternate quickly and then hold: with a minimum stable time
        // the short-lived equal pair (3, 3) is not taken. The two captures
        // of 3 are one poll (1 ms) apart: only a machine that stalls this
        // thread for half a second between them could take the pair (with
        // 20 ms it flaked on a loaded CI machine).
        let (r, _) = settle(&[1, 3, 3, 4, 9], false, Duration::from_millis(500), false);
        match r {
            Settled::Changed(shot) => assert_eq!(shot.image.get_pixel(0, 0)[0], 9),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn stop_flag_interrupts() {
        let (r, _) = settle(&[], true, Duration::ZERO, true);
        assert!(matches!(r, Settled::Interrupted));
    }
}
