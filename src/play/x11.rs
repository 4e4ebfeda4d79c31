//! The real devices for the play loop on an X display.
//!
//! [`X11Screen`] keeps one X connection open and grabs the game window's
//! rectangle from the root window with a single `GetImage` (what the user
//! sees, including anything covering it). It looks the window's position up
//! before every capture, so a moved window is followed, and searches the
//! window tree again by title only when the window it knew is gone. Without
//! a title it captures the whole screen. This costs a few milliseconds per
//! capture, where a generic screenshot library re-enumerates windows and
//! captures the whole monitor each time.
//!
//! [`X11Pointer`] clicks through XTest (enigo) without the pauses a
//! human-like click would have: sgt-flood reads the button press at the
//! pointer position, and XTest events arrive in order.

use enigo::{Button, Coordinate, Direction, Enigo, Key, Keyboard, Mouse as _, Settings};
use image::RgbaImage;
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt as _, ImageFormat, MapState};
use x11rb::rust_connection::RustConnection;

use crate::capture::screen::Screenshot;
use crate::display::x11;

use super::io::{DeviceError, Pointer, Screen};

/// Captures a window (by title) or the whole screen of an X display.
pub struct X11Screen {
    conn: RustConnection,
    root: u32,
    size: (u32, u32),
    title: Option<String>,
    window: Option<u32>,
    bits_per_pixel: u8,
    display: String,
}

impl X11Screen {
    /// Opens `$DISPLAY`; captures the window whose title contains `title`,
    /// or the whole screen when `None`.
    pub fn open(title: Option<&str>) -> Result<Self, DeviceError> {
        let display = x11::display_from_env().map_err(DeviceError::from_display)?;
        let (conn, screen) = x11::connect(Some(&display)).map_err(DeviceError::from_display)?;
        let setup = conn.setup();
        let root_info = &setup.roots[screen];
        let depth = root_info.root_depth;
        let bits_per_pixel = setup
            .pixmap_formats
            .iter()
            .find(|f| f.depth == depth)
            .map_or(0, |f| f.bits_per_pixel);
        if depth != 24 && depth != 32 || bits_per_pixel != 32 {
            return Err(DeviceError(format!(
                "display {display} has depth {depth} at {bits_per_pixel} bits per pixel; only 24-bit colour is supported"
            )));
        }
        let root = root_info.root;
        let size = x11::screen_size(&conn, screen);
        Ok(X11Screen {
            conn,
            root,
            size,
            title: title.map(str::to_string),
            window: None,
            bits_per_pixel,
            display,
        })
    }

    /// The screen size in pixels.
    pub fn screen_size(&self) -> (u32, u32) {
        self.size
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
    fn target(&mut self) -> Result<(i32, i32, u32, u32), DeviceError> {
        let Some(title) = self.title.clone() else {
            return Ok((0, 0, self.size.0, self.size.1));
        };
        if let Some(rect) = self.window.and_then(|w| self.window_rect(w)) {
            return Ok(rect);
        }
        let screen = 0;
        let found =
            x11::find_window(&self.conn, screen, &title).map_err(DeviceError::from_display)?;
        let Some(info) = found else {
            self.window = None;
            let open: Vec<String> = x11::list_windows(&self.conn, screen)
                .map(|ws| ws.into_iter().map(|w| format!("{:?}", w.title)).collect())
                .unwrap_or_default();
            return Err(DeviceError(format!(
                "no window titled {title:?} on display {} (open windows: {}): is the game running?",
                self.display,
                if open.is_empty() {
                    "none".to_string()
                } else {
                    open.join(", ")
                }
            )));
        };
        self.window = Some(info.id);
        Ok((info.x, info.y, info.width, info.height))
    }
}

impl Screen for X11Screen {
    fn capture(&mut self) -> Result<Screenshot, DeviceError> {
        let (x, y, w, h) = self.target()?;
        // Clip to the screen: GetImage on the root fails outside it.
        let left = x.max(0);
        let top = y.max(0);
        let right = (x + w as i32).min(self.size.0 as i32);
        let bottom = (y + h as i32).min(self.size.1 as i32);
        if right <= left || bottom <= top {
            return Err(DeviceError(format!(
                "the window {:?} is off the screen (at {x}, {y})",
                self.title.as_deref().unwrap_or("")
            )));
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
            .map_err(DeviceError::from_display)?
            .reply()
            .map_err(DeviceError::from_display)?;
        debug_assert_eq!(self.bits_per_pixel, 32);
        let mut rgba = reply.data;
        if rgba.len() < cw as usize * ch as usize * 4 {
            return Err(DeviceError("the X server sent a short image".into()));
        }
        rgba.truncate(cw as usize * ch as usize * 4);
        // BGRX (little-endian 0x00RRGGBB) to RGBA.
        for px in rgba.chunks_exact_mut(4) {
            px.swap(0, 2);
            px[3] = 255;
        }
        let image = RgbaImage::from_raw(cw.into(), ch.into(), rgba)
            .ok_or_else(|| DeviceError("the captured image has the wrong size".into()))?;
        Ok(Screenshot {
            image,
            origin_x: left,
            origin_y: top,
            scale: 1.0,
        })
    }
}

/// Synthetic clicks and keys on `$DISPLAY`.
pub struct X11Pointer {
    enigo: Enigo,
    size: (u32, u32),
    pressed: bool,
}

impl X11Pointer {
    /// Opens synthetic input on `$DISPLAY`.
    pub fn open() -> Result<Self, DeviceError> {
        let display = x11::display_from_env().map_err(DeviceError::from_display)?;
        let (conn, screen) = x11::connect(Some(&display)).map_err(DeviceError::from_display)?;
        let size = x11::screen_size(&conn, screen);
        drop(conn);
        // enigo asks the X server to delay each XTest button event by
        // `linux_delay` ms (12 by default, 24 ms per click); the game needs none.
        let settings = Settings {
            x11_display: Some(display.clone()),
            linux_delay: 0,
            ..Settings::default()
        };
        let enigo = Enigo::new(&settings).map_err(|e| {
            DeviceError(format!(
                "cannot open synthetic input on display {display}: {e}"
            ))
        })?;
        Ok(X11Pointer {
            enigo,
            size,
            pressed: false,
        })
    }
}

impl Pointer for X11Pointer {
    fn position(&mut self) -> Result<(i32, i32), DeviceError> {
        self.enigo
            .location()
            .map_err(|e| DeviceError(format!("cannot read the pointer position: {e}")))
    }

    fn click(&mut self, x: i32, y: i32) -> Result<(), DeviceError> {
        if x < 0 || y < 0 || x >= self.size.0 as i32 || y >= self.size.1 as i32 {
            return Err(DeviceError(format!(
                "click at ({x}, {y}) is outside the {}x{} screen",
                self.size.0, self.size.1
            )));
        }
        let err = |e: enigo::InputError| DeviceError(format!("cannot click at ({x}, {y}): {e}"));
        self.enigo.move_mouse(x, y, Coordinate::Abs).map_err(err)?;
        self.pressed = true;
        self.enigo
            .button(Button::Left, Direction::Press)
            .map_err(err)?;
        self.enigo
            .button(Button::Left, Direction::Release)
            .map_err(err)?;
        self.pressed = false;
        Ok(())
    }

    fn key(&mut self, key: char) -> Result<(), DeviceError> {
        self.enigo
            .key(Key::Unicode(key), Direction::Click)
            .map_err(|e| DeviceError(format!("cannot press key {key:?}: {e}")))
    }

    fn release_all(&mut self) {
        let _ = self.enigo.button(Button::Left, Direction::Release);
        self.pressed = false;
    }

    fn screen_size(&self) -> (u32, u32) {
        self.size
    }
}

impl Drop for X11Pointer {
    fn drop(&mut self) {
        if self.pressed {
            self.release_all();
        }
    }
}
