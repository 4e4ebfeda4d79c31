//! Screen capture through xcap, and the one place where image pixels are
//! converted to screen coordinates (origin and HiDPI scale).
//!
//! "Screen coordinates" are the coordinates the [`crate::actuator::Mouse`]
//! uses: X root-window pixels. [`capture_screen`] grabs the primary monitor of
//! `$DISPLAY`; [`capture_window`] grabs one window by title. Both return a
//! [`Screenshot`] whose [`Screenshot::to_screen`] turns an image point into
//! the point to click, so callers never add window offsets themselves.
//!
//! Window lookup goes through xcap's `Window::all()`, which needs an EWMH
//! window manager (`_NET_CLIENT_LIST_STACKING`); without one, the window is
//! found by walking the X window tree and cut out of a monitor capture.

use image::RgbaImage;

use crate::display::{x11, DisplayError};

/// Errors from capturing the screen.
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// No display, or it does not accept connections.
    #[error(transparent)]
    Display(#[from] DisplayError),
    /// The display has no monitor xcap can capture.
    #[error("no monitor found on X display {0}")]
    NoMonitor(String),
    /// No visible window has a title containing the text.
    #[error(
        "no window whose title contains {title:?} on X display {display}; open windows: {open}"
    )]
    NoWindow {
        /// The window title looked for.
        title: String,
        /// The X display, e.g. `:99`.
        display: String,
        /// The windows that are open.
        open: String,
    },
    /// The window is entirely outside the screen.
    #[error("window {0:?} is not on the screen")]
    Offscreen(String),
    /// The display's pixel format is not 24-bit colour.
    #[error("X display {display} has depth {depth} at {bits_per_pixel} bits per pixel; only 24-bit colour is supported")]
    UnsupportedDepth {
        /// The X display, e.g. `:99`.
        display: String,
        /// Its colour depth in bits.
        depth: u8,
        /// Bits per pixel of its images.
        bits_per_pixel: u8,
    },
    /// A request to the X server failed.
    #[error("screen capture failed (could not {what}): {reason}")]
    X11 {
        /// What was being done.
        what: &'static str,
        /// What went wrong.
        reason: String,
    },
    /// xcap failed.
    #[error("screen capture failed ({what}): {source}")]
    Xcap {
        /// What was being done.
        what: &'static str,
        #[source]
        /// The underlying error.
        source: Box<xcap::XCapError>,
    },
}

fn xcap_err(what: &'static str) -> impl FnOnce(xcap::XCapError) -> CaptureError {
    move |source| CaptureError::Xcap {
        what,
        source: Box::new(source),
    }
}

/// Makes xcap capture through X11 even inside a Wayland session, so that
/// what is captured is the X display in `$DISPLAY` (for example a virtual one)
/// and matches where the X11 actuator clicks. xcap switches to the Wayland
/// screenshot portal when `XDG_SESSION_TYPE=wayland` or `WAYLAND_DISPLAY` is
/// set; this removes both from the process environment when `DISPLAY` is set.
///
/// Call it once at start-up, before other threads exist (the CLI does).
pub fn use_x11_only() {
    if std::env::var_os("DISPLAY").is_none() {
        return;
    }
    for var in ["WAYLAND_DISPLAY", "XDG_SESSION_TYPE"] {
        if std::env::var_os(var).is_some() {
            log::debug!(
                "ignoring {var} so that capture uses X11 display {:?}",
                std::env::var_os("DISPLAY")
            );
            std::env::remove_var(var);
        }
    }
}

/// Checks that `$DISPLAY` names an X server that accepts connections, so
/// errors say what is missing instead of failing deep inside xcap.
fn check_display() -> Result<String, CaptureError> {
    let name = x11::display_from_env()?;
    x11::connect(Some(&name))?;
    Ok(name)
}

/// The primary monitor (or the first one) of `$DISPLAY`.
fn primary_monitor(display: &str) -> Result<xcap::Monitor, CaptureError> {
    let monitors = xcap::Monitor::all().map_err(xcap_err("listing monitors"))?;
    let primary = monitors
        .iter()
        .position(|m| m.is_primary().unwrap_or(false))
        .unwrap_or(0);
    monitors
        .into_iter()
        .nth(primary)
        .ok_or_else(|| CaptureError::NoMonitor(display.into()))
}

/// The monitor's position and size in X root pixels (xcap reports them
/// divided by its scale factor).
fn monitor_rect(monitor: &xcap::Monitor) -> Result<(i32, i32, u32, u32), CaptureError> {
    let scale = f64::from(monitor.scale_factor().unwrap_or(1.0));
    let x = f64::from(monitor.x().map_err(xcap_err("monitor position"))?);
    let y = f64::from(monitor.y().map_err(xcap_err("monitor position"))?);
    let w = f64::from(monitor.width().map_err(xcap_err("monitor size"))?);
    let h = f64::from(monitor.height().map_err(xcap_err("monitor size"))?);
    Ok((
        (x * scale).round() as i32,
        (y * scale).round() as i32,
        (w * scale).round() as u32,
        (h * scale).round() as u32,
    ))
}

fn scale_of(image: &RgbaImage, screen_width: u32) -> f64 {
    if screen_width == 0 {
        1.0
    } else {
        f64::from(image.width()) / f64::from(screen_width)
    }
}

/// Captures the primary monitor of `$DISPLAY`.
pub fn capture_screen() -> Result<Screenshot, CaptureError> {
    let display = check_display()?;
    let monitor = primary_monitor(&display)?;
    let (x, y, width, _) = monitor_rect(&monitor)?;
    let image = monitor
        .capture_image()
        .map_err(xcap_err("capturing the monitor"))?;
    let scale = scale_of(&image, width);
    log::debug!(
        "captured monitor of {display}: {}x{} at ({x},{y}), scale {scale}",
        image.width(),
        image.height()
    );
    Ok(Screenshot {
        image,
        origin_x: x,
        origin_y: y,
        scale,
    })
}

/// Captures the topmost visible window whose title contains `title` (case
/// sensitive). The screenshot's origin is the window's screen position.
pub fn capture_window(title: &str) -> Result<Screenshot, CaptureError> {
    let display = check_display()?;
    // Preferred path: xcap's own window capture (needs an EWMH window manager).
    if let Ok(windows) = xcap::Window::all() {
        let found = windows.into_iter().find(|w| {
            w.title().is_ok_and(|t| t.contains(title)) && !w.is_minimized().unwrap_or(false)
        });
        if let Some(window) = found {
            let x = window.x().map_err(xcap_err("window position"))?;
            let y = window.y().map_err(xcap_err("window position"))?;
            let width = window.width().map_err(xcap_err("window size"))?;
            let image = window
                .capture_image()
                .map_err(xcap_err("capturing the window"))?;
            let scale = scale_of(&image, width);
            log::debug!(
                "captured window {title:?} via xcap: {}x{} at ({x},{y})",
                image.width(),
                image.height()
            );
            return Ok(Screenshot {
                image,
                origin_x: x,
                origin_y: y,
                scale,
            });
        }
    }
    // Fallback: find it in the X window tree and cut it out of the monitor.
    let (conn, screen) = x11::connect(Some(&display))?;
    let Some(window) = x11::find_window(&conn, screen, title)? else {
        let windows = x11::list_windows(&conn, screen)?;
        return Err(CaptureError::NoWindow {
            title: crate::files::shorten(title),
            display,
            open: crate::display::titles_for_message(windows.iter().map(|w| w.title.as_str())),
        });
    };
    let monitor = primary_monitor(&display)?;
    let (mx, my, mw, mh) = monitor_rect(&monitor)?;
    let left = window.x.max(mx);
    let top = window.y.max(my);
    let right = (window.x + window.width as i32).min(mx + mw as i32);
    let bottom = (window.y + window.height as i32).min(my + mh as i32);
    if right <= left || bottom <= top {
        return Err(CaptureError::Offscreen(window.title));
    }
    let full = monitor
        .capture_image()
        .map_err(xcap_err("capturing the monitor"))?;
    let scale = scale_of(&full, mw);
    let px = |v: i32| (f64::from(v) * scale).round() as u32;
    let image = image::imageops::crop_imm(
        &full,
        px(left - mx),
        px(top - my),
        px(right - left),
        px(bottom - top),
    )
    .to_image();
    log::debug!(
        "captured window {title:?} from the monitor: {}x{} at ({left},{top})",
        image.width(),
        image.height()
    );
    Ok(Screenshot {
        image,
        origin_x: left,
        origin_y: top,
        scale,
    })
}

/// An axis-aligned rectangle in image pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// Left column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

impl Rect {
    /// The rectangle clipped to an image of `width` x `height` pixels.
    pub fn clip(self, width: u32, height: u32) -> Rect {
        let x = self.x.min(width);
        let y = self.y.min(height);
        Rect {
            x,
            y,
            width: self.width.min(width - x),
            height: self.height.min(height - y),
        }
    }
}

/// A captured image and how its pixels map to screen coordinates.
#[derive(Debug, Clone)]
pub struct Screenshot {
    /// The captured pixels.
    pub image: RgbaImage,
    /// Screen x of image pixel column 0 (logical screen coordinates).
    pub origin_x: i32,
    /// Screen y of image pixel row 0.
    pub origin_y: i32,
    /// Image pixels per logical screen pixel (2.0 on a 2x HiDPI screen).
    pub scale: f64,
}

impl Screenshot {
    /// Wraps an image that was not captured from a screen (a file): its
    /// pixels are taken to be screen pixels at the origin.
    pub fn from_image(image: RgbaImage) -> Self {
        Screenshot {
            image,
            origin_x: 0,
            origin_y: 0,
            scale: 1.0,
        }
    }

    /// Converts a point in image pixels (fractional, e.g. a cell centre) to
    /// the screen point to click.
    pub fn to_screen(&self, x: f64, y: f64) -> (i32, i32) {
        (
            self.origin_x + (x / self.scale).round() as i32,
            self.origin_y + (y / self.scale).round() as i32,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_screen_applies_origin_and_scale() {
        let shot = Screenshot {
            image: RgbaImage::new(4, 4),
            origin_x: 100,
            origin_y: 50,
            scale: 2.0,
        };
        assert_eq!(shot.to_screen(10.0, 21.0), (105, 61));
        let plain = Screenshot::from_image(RgbaImage::new(4, 4));
        assert_eq!(plain.to_screen(3.4, 2.6), (3, 3));
    }
}
