//! The X server's window stacking, for the play loop's occlusion check
//! ([`crate::play::occlusion`]): the game window by id (found once by
//! title, then followed by id only) and every viewable window stacked above
//! it, from the root window's children in `QueryTree` order (bottom to top;
//! with a window manager these are the frames, without one the clients).

use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt as _, MapState, Window, WindowClass};
use x11rb::rust_connection::RustConnection;

use super::{x11, DisplayError};
use crate::play::io::DeviceError;
use crate::play::occlusion::{ScreenRect, StackedWindow, Stacking};

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
