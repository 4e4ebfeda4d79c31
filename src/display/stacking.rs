//! The X server's window stacking, for the play loop's occlusion check
//! (`play::occlusion`): the [`Stacking`] trait it asks, and [`XStacking`],
//! its answer on an X display: the game window by id (found once by
//! title, then followed by id only) and every viewable window stacked above
//! it, from the root window's children in `QueryTree` order (bottom to top;
//! with a window manager these are the frames, without one the clients).

use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt as _, MapState, Window, WindowClass};
use x11rb::rust_connection::RustConnection;

use std::fmt;

use super::{x11, DeviceError, DisplayError};

/// A rectangle in screen (root window) coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScreenRect {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

impl ScreenRect {
    /// True if the two rectangles share at least one pixel.
    pub fn overlaps(&self, other: &ScreenRect) -> bool {
        let (ax1, ay1) = (
            self.x as i64 + self.width as i64,
            self.y as i64 + self.height as i64,
        );
        let (bx1, by1) = (
            other.x as i64 + other.width as i64,
            other.y as i64 + other.height as i64,
        );
        (self.x as i64) < bx1
            && (other.x as i64) < ax1
            && (self.y as i64) < by1
            && (other.y as i64) < ay1
    }

    /// True if the point is inside.
    pub fn contains(&self, (x, y): (i32, i32)) -> bool {
        let (x, y) = (x as i64, y as i64);
        x >= self.x as i64
            && y >= self.y as i64
            && x < self.x as i64 + self.width as i64
            && y < self.y as i64 + self.height as i64
    }
}

/// A window on the screen, as the stacking reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StackedWindow {
    /// X window id (of the top-level window or frame).
    pub id: u32,
    /// Its title, or an empty string if it has none.
    pub title: String,
    /// Where it is on the screen.
    pub rect: ScreenRect,
}

impl fmt::Display for StackedWindow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let title = if self.title.is_empty() {
            "(no title)".to_string()
        } else {
            format!("{:?}", crate::files::shorten(&self.title))
        };
        write!(
            f,
            "window {title} (id 0x{:x}) at ({}, {}) {}x{}",
            self.id, self.rect.x, self.rect.y, self.rect.width, self.rect.height
        )
    }
}

/// What the window system says about the game window and what is above it.
pub trait Stacking {
    /// The game window as it is now, or `None` when the window the run
    /// started with is gone (closed or unmapped).
    fn game_window(&mut self) -> Result<Option<StackedWindow>, DeviceError>;
    /// Every viewable window stacked above the game window, bottom first.
    fn windows_above(&mut self) -> Result<Vec<StackedWindow>, DeviceError>;
    /// The id of the window the screen is captured from now, when the
    /// capture follows a window (so a switch to another window is seen).
    fn captured_window(&mut self) -> Option<u32> {
        None
    }
}

/// The stacking of one X display around one game window.
pub struct XStacking {
    conn: RustConnection,
    root: Window,
    screen: usize,
    /// The game's client window (the one with the title), pinned at the
    /// first look.
    window: Option<Window>,
    title: String,
}

impl std::fmt::Debug for XStacking {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("XStacking")
            .field("window", &self.window)
            .field("title", &self.title)
            .finish()
    }
}

fn dev(err: impl std::fmt::Display) -> DeviceError {
    DeviceError(err.to_string())
}

impl XStacking {
    /// Connects to `$DISPLAY`. The first look pins the topmost window whose
    /// title contains `title` (the one the screen grabber captures); from
    /// then on that window is followed by id only.
    pub fn open(title: &str) -> Result<Self, DisplayError> {
        let (conn, screen) = x11::connect(None)?;
        let root = conn.setup().roots[screen].root;
        Ok(XStacking {
            conn,
            root,
            screen,
            window: None,
            title: title.to_string(),
        })
    }

    /// The game window's id, once pinned.
    pub fn window(&self) -> Option<u32> {
        self.window
    }

    /// The pinned window, pinning it now if this is the first look.
    fn pinned(&mut self) -> Result<Option<Window>, DeviceError> {
        if self.window.is_none() {
            if let Some(info) =
                x11::find_window(&self.conn, self.screen, &self.title).map_err(dev)?
            {
                self.window = Some(info.id);
                self.title = info.title;
            }
        }
        Ok(self.window)
    }

    /// The child of the root that holds `window` (its frame under a window
    /// manager, itself without one).
    fn top_level(&self, mut window: Window) -> Result<Option<Window>, DeviceError> {
        for _ in 0..64 {
            let Some(tree) = self.conn.query_tree(window).map_err(dev)?.reply().ok() else {
                return Ok(None);
            };
            if tree.parent == self.root || tree.parent == 0 {
                return Ok(Some(window));
            }
            window = tree.parent;
        }
        Ok(None)
    }

    /// Root rectangle of a viewable window, `None` if gone or unmapped.
    fn rect(&self, window: Window) -> Result<Option<ScreenRect>, DeviceError> {
        let Some(attrs) = self
            .conn
            .get_window_attributes(window)
            .map_err(dev)?
            .reply()
            .ok()
        else {
            return Ok(None);
        };
        if attrs.map_state != MapState::VIEWABLE || attrs.class == WindowClass::INPUT_ONLY {
            return Ok(None);
        }
        let Some(geom) = self.conn.get_geometry(window).map_err(dev)?.reply().ok() else {
            return Ok(None);
        };
        let Some(pos) = self
            .conn
            .translate_coordinates(window, self.root, 0, 0)
            .map_err(dev)?
            .reply()
            .ok()
        else {
            return Ok(None);
        };
        // Include the border: it covers what is below too.
        let border = i32::from(geom.border_width);
        Ok(Some(ScreenRect {
            x: i32::from(pos.dst_x) - border,
            y: i32::from(pos.dst_y) - border,
            width: u32::from(geom.width) + 2 * border as u32,
            height: u32::from(geom.height) + 2 * border as u32,
        }))
    }
}

impl Stacking for XStacking {
    fn game_window(&mut self) -> Result<Option<StackedWindow>, DeviceError> {
        let Some(window) = self.pinned()? else {
            return Ok(None);
        };
        let Some(rect) = self.rect(window)? else {
            return Ok(None);
        };
        Ok(Some(StackedWindow {
            id: window,
            title: self.title.clone(),
            rect,
        }))
    }

    fn windows_above(&mut self) -> Result<Vec<StackedWindow>, DeviceError> {
        let Some(window) = self.pinned()? else {
            return Ok(Vec::new());
        };
        let Some(top) = self.top_level(window)? else {
            return Ok(Vec::new());
        };
        let tree = self
            .conn
            .query_tree(self.root)
            .map_err(dev)?
            .reply()
            .map_err(dev)?;
        let Some(at) = tree.children.iter().position(|&w| w == top) else {
            return Ok(Vec::new());
        };
        let mut above = Vec::new();
        for &w in &tree.children[at + 1..] {
            if let Some(rect) = self.rect(w)? {
                above.push(StackedWindow {
                    id: w,
                    title: x11::title_of(&self.conn, w).unwrap_or_default(),
                    rect,
                });
            }
        }
        Ok(above)
    }
}
