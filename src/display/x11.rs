//! Small X11 queries done in Rust through x11rb, so that the program needs no
//! `xdotool`/`xwininfo` at run time: connecting to a display with a clear
//! error, listing the visible top-level windows with their titles and root
//! coordinates, and checking whether a window manager is running.

use std::env;

use x11rb::connection::Connection;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _, MapState, Window};
use x11rb::rust_connection::RustConnection;

use super::DisplayError;

/// A visible window on an X display, in root-window (screen) coordinates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowInfo {
    /// X window id.
    pub id: u32,
    /// The window title (`_NET_WM_NAME`, else `WM_NAME`).
    pub title: String,
    /// Screen x of the window's top-left pixel (inside any frame).
    pub x: i32,
    /// Screen y of the window's top-left pixel.
    pub y: i32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// The display to use when none is given: `$DISPLAY`, or an error saying how
/// to get one.
pub fn display_from_env() -> Result<String, DisplayError> {
    match env::var("DISPLAY") {
        Ok(name) if !name.trim().is_empty() => Ok(name),
        _ => Err(DisplayError::NoDisplay),
    }
}

/// Connects to `display` (e.g. `":57"`), or to `$DISPLAY` when `None`.
pub fn connect(display: Option<&str>) -> Result<(RustConnection, usize), DisplayError> {
    let name = match display {
        Some(name) => name.to_string(),
        None => display_from_env()?,
    };
    x11rb::connect(Some(&name)).map_err(|err| DisplayError::Connect {
        display: name,
        reason: err.to_string(),
    })
}

fn get_text_property(
    conn: &RustConnection,
    window: Window,
    property: u32,
    type_: u32,
) -> Option<String> {
    let reply = conn
        .get_property(false, window, property, type_, 0, 1024)
        .ok()?
        .reply()
        .ok()?;
    if reply.value.is_empty() {
        None
    } else {
        Some(String::from_utf8_lossy(&reply.value).into_owned())
    }
}

fn intern(conn: &RustConnection, name: &str) -> Option<u32> {
    Some(
        conn.intern_atom(false, name.as_bytes())
            .ok()?
            .reply()
            .ok()?
            .atom,
    )
}

/// The title of one window: `_NET_WM_NAME` (UTF-8) if set, else `WM_NAME`.
fn window_title(
    conn: &RustConnection,
    window: Window,
    net_wm_name: Option<u32>,
    utf8: Option<u32>,
) -> Option<String> {
    if let (Some(net_wm_name), Some(utf8)) = (net_wm_name, utf8) {
        if let Some(title) = get_text_property(conn, window, net_wm_name, utf8) {
            return Some(title);
        }
    }
    get_text_property(conn, window, AtomEnum::WM_NAME.into(), AtomEnum::ANY.into())
}

/// The title of `window` or, for a window manager's frame, of the first
/// titled window inside it (searched two levels down).
pub fn title_of(conn: &RustConnection, window: Window) -> Option<String> {
    let net_wm_name = intern(conn, "_NET_WM_NAME");
    let utf8 = intern(conn, "UTF8_STRING");
    let mut level = vec![window];
    for _ in 0..3 {
        let mut next = Vec::new();
        for w in level {
            if let Some(title) = window_title(conn, w, net_wm_name, utf8) {
                return Some(title);
            }
            if let Some(tree) = conn.query_tree(w).ok().and_then(|c| c.reply().ok()) {
                next.extend(tree.children);
            }
        }
        level = next;
    }
    None
}

/// All viewable windows that have a title, in stacking order (bottom first),
/// searched through the whole window tree so that it works with and without a
/// window manager (which reparents clients into frames).
pub fn list_windows(conn: &RustConnection, screen: usize) -> Result<Vec<WindowInfo>, DisplayError> {
    let root = conn.setup().roots[screen].root;
    let net_wm_name = intern(conn, "_NET_WM_NAME");
    let utf8 = intern(conn, "UTF8_STRING");
    let mut found = Vec::new();
    let mut stack = vec![root];
    // Depth-first, children in stacking order.
    while let Some(window) = stack.pop() {
        let tree = match conn.query_tree(window).map_err(x_err)?.reply() {
            Ok(tree) => tree,
            Err(_) => continue, // the window went away meanwhile
        };
        for &child in tree.children.iter().rev() {
            stack.push(child);
        }
        if window == root {
            continue;
        }
        let Ok(attrs) = conn.get_window_attributes(window).map_err(x_err)?.reply() else {
            continue;
        };
        if attrs.map_state != MapState::VIEWABLE {
            continue;
        }
        let Some(title) = window_title(conn, window, net_wm_name, utf8) else {
            continue;
        };
        let Ok(geom) = conn.get_geometry(window).map_err(x_err)?.reply() else {
            continue;
        };
        let Ok(pos) = conn
            .translate_coordinates(window, root, 0, 0)
            .map_err(x_err)?
            .reply()
        else {
            continue;
        };
        found.push(WindowInfo {
            id: window,
            title,
            x: pos.dst_x.into(),
            y: pos.dst_y.into(),
            width: geom.width.into(),
            height: geom.height.into(),
        });
    }
    Ok(found)
}

/// The topmost visible window whose title contains `title`, if any.
pub fn find_window(
    conn: &RustConnection,
    screen: usize,
    title: &str,
) -> Result<Option<WindowInfo>, DisplayError> {
    Ok(list_windows(conn, screen)?
        .into_iter()
        .rev()
        .find(|w| w.title.contains(title)))
}

/// Whether an EWMH window manager runs and maintains
/// `_NET_CLIENT_LIST_STACKING` (which xcap's `Window::all()` needs): it has
/// set `_NET_SUPPORTING_WM_CHECK` and lists the atom in `_NET_SUPPORTED`.
pub fn has_ewmh_window_manager(conn: &RustConnection, screen: usize) -> bool {
    let root = conn.setup().roots[screen].root;
    let (Some(stacking), Some(check), Some(supported)) = (
        intern(conn, "_NET_CLIENT_LIST_STACKING"),
        intern(conn, "_NET_SUPPORTING_WM_CHECK"),
        intern(conn, "_NET_SUPPORTED"),
    ) else {
        return false;
    };
    let get = |prop| {
        conn.get_property(false, root, prop, AtomEnum::ANY, 0, 1024)
            .ok()
            .and_then(|c| c.reply().ok())
    };
    let has_check = get(check).is_some_and(|r| r.type_ != u32::from(AtomEnum::NONE));
    let lists_stacking = get(supported)
        .and_then(|r| r.value32().map(|mut atoms| atoms.any(|a| a == stacking)))
        .unwrap_or(false);
    has_check && lists_stacking
}

/// Size of the root window (the whole X screen) in pixels.
pub fn screen_size(conn: &RustConnection, screen: usize) -> (u32, u32) {
    let s = &conn.setup().roots[screen];
    (s.width_in_pixels.into(), s.height_in_pixels.into())
}

fn x_err(err: x11rb::errors::ConnectionError) -> DisplayError {
    DisplayError::Protocol(err.to_string())
}
