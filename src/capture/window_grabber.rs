//! Fast repeated capture of one window (or the whole screen) of an X display,
//! for the play loop.
//!
//! [`WindowGrabber`] keeps one X connection open and grabs the window's
//! rectangle from the root window with a single `GetImage`: what the user
//! sees, including anything covering the window. It looks the window's
//! position up before every capture, so a moved window is followed, and
//! searches the window tree by title again only when the window it knew is
//! gone. A capture costs a millisecond or two, where [`super::screen`]'s xcap
//! path re-enumerates windows and captures the whole monitor each time; that
//! path stays the one for one-off screenshots.

use image::RgbaImage;
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt as _, ImageFormat, MapState};
use x11rb::rust_connection::RustConnection;

use super::screen::{CaptureError, Screenshot};
use crate::display::x11;

/// Captures a window (by title) or the whole screen of an X display.
pub struct WindowGrabber {
    conn: RustConnection,
    screen: usize,
    root: u32,
    size: (u32, u32),
    title: Option<String>,
    window: Option<u32>,
    display: String,
}

fn x11_err(what: &'static str) -> impl FnOnce(String) -> CaptureError {
    move |reason| CaptureError::X11 { what, reason }
}

impl WindowGrabber {
    /// Opens `$DISPLAY`; captures the window whose title contains `title`,
    /// or the whole screen when `None`. Only 24-bit colour displays are
    /// supported (Xvfb's and every desktop's default).
    pub fn open(title: Option<&str>) -> Result<Self, CaptureError> {
        let mut grabber = Self::open_display(x11::display_from_env()?)?;
        grabber.title = title.map(str::to_string);
        Ok(grabber)
    }

    /// Opens X display `display` (e.g. `":57"`) and captures the window with
    /// X id `window`, following it when it moves; capturing fails once the
    /// window is gone or unmapped. For windows found by process rather than
    /// by title (a browser's, whose title is the page's).
    pub fn open_window(display: &str, window: u32) -> Result<Self, CaptureError> {
        let mut grabber = Self::open_display(display.to_string())?;
        grabber.window = Some(window);
        Ok(grabber)
    }

    fn open_display(display: String) -> Result<Self, CaptureError> {
        let (conn, screen) = x11::connect(Some(&display))?;
        let setup = conn.setup();
        let root_info = &setup.roots[screen];
        let depth = root_info.root_depth;
        let bits_per_pixel = setup
            .pixmap_formats
            .iter()
            .find(|f| f.depth == depth)
            .map_or(0, |f| f.bits_per_pixel);
        if depth != 24 && depth != 32 || bits_per_pixel != 32 {
            return Err(CaptureError::UnsupportedDepth {
                display,
                depth,
                bits_per_pixel,
            });
        }
        let root = root_info.root;
        let size = x11::screen_size(&conn, screen);
        Ok(WindowGrabber {
            conn,
            screen,
            root,
            size,
            title: None,
            window: None,
            display,
        })
    }

    /// The screen size in pixels.
    pub fn screen_size(&self) -> (u32, u32) {
        self.size
    }

    /// The title searched for, `None` for the whole screen.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The X id of the window captured, once found.
    pub fn window(&self) -> Option<u32> {
        self.window
    }

    /// Position and size of a known window, if it is still there and mapped.
    fn window_rect(&self, window: u32) -> Option<(i32, i32, u32, u32)> {
        let attrs = self.conn.get_window_attributes(window).ok()?.reply().ok()?;
        if attrs.map_state != MapState::VIEWABLE {
            return None;
        }
        let geom = self.conn.get_geometry(window).ok()?.reply().ok()?;
        let pos = self
            .conn
            .translate_coordinates(window, self.root, 0, 0)
            .ok()?
            .reply()
            .ok()?;
        Some((
            pos.dst_x.into(),
            pos.dst_y.into(),
            geom.width.into(),
            geom.height.into(),
        ))
    }

    /// The rectangle to capture, in root coordinates.
    fn target(&mut self) -> Result<(i32, i32, u32, u32), CaptureError> {
        let Some(title) = self.title.clone() else {
            return match self.window {
                // A window given by id: no title to search again by.
                Some(window) => self
                    .window_rect(window)
                    .ok_or_else(|| CaptureError::NoWindow {
                        title: format!("(window id {window:#x})"),
                        display: self.display.clone(),
                        open: "the window is gone or not mapped".into(),
                    }),
                None => Ok((0, 0, self.size.0, self.size.1)),
            };
        };
        if let Some(rect) = self.window.and_then(|w| self.window_rect(w)) {
            return Ok(rect);
        }
        let Some(info) = x11::find_window(&self.conn, self.screen, &title)? else {
            self.window = None;
            let open: Vec<String> = x11::list_windows(&self.conn, self.screen)
                .map(|ws| ws.into_iter().map(|w| format!("{:?}", w.title)).collect())
                .unwrap_or_default();
            return Err(CaptureError::NoWindow {
                title,
                display: self.display.clone(),
                open: if open.is_empty() {
                    "none".to_string()
                } else {
                    open.join(", ")
                },
            });
        };
        self.window = Some(info.id);
        Ok((info.x, info.y, info.width, info.height))
    }

    /// Captures the window's current pixels (clipped to the screen).
    pub fn capture(&mut self) -> Result<Screenshot, CaptureError> {
        let (x, y, w, h) = self.target()?;
        // Clip to the screen: GetImage on the root fails outside it.
        let left = x.max(0);
        let top = y.max(0);
        let right = (x + w as i32).min(self.size.0 as i32);
        let bottom = (y + h as i32).min(self.size.1 as i32);
        if right <= left || bottom <= top {
            return Err(CaptureError::Offscreen(
                self.title.clone().unwrap_or_default(),
            ));
        }
        let (cw, ch) = ((right - left) as u16, (bottom - top) as u16);
        let reply = self
            .conn
            .get_image(
                ImageFormat::Z_PIXMAP,
                self.root,
                left as i16,
                top as i16,
                cw,
                ch,
                !0,
            )
            .map_err(|e| x11_err("request an image")(e.to_string()))?
            .reply()
            .map_err(|e| x11_err("receive an image")(e.to_string()))?;
        let mut rgba = reply.data;
        let expected = cw as usize * ch as usize * 4;
        if rgba.len() < expected {
            return Err(x11_err("receive an image")(format!(
                "the X server sent {} bytes for a {cw}x{ch} image",
                rgba.len()
            )));
        }
        rgba.truncate(expected);
        // BGRX (little-endian 0x00RRGGBB) to RGBA.
        for px in rgba.chunks_exact_mut(4) {
            px.swap(0, 2);
            px[3] = 255;
        }
        let image = RgbaImage::from_raw(cw.into(), ch.into(), rgba)
            .expect("the buffer was truncated to width * height * 4 bytes");
        Ok(Screenshot {
            image,
            origin_x: left,
            origin_y: top,
            scale: 1.0,
        })
    }
}
