//! Synthetic mouse input: move, click and drag at screen coordinates.
//!
//! Screen coordinates are produced by [`crate::capture::screen::Screenshot::to_screen`];
//! this module never sees image pixels. Input goes through enigo's x11rb
//! backend (XTEST) to the display in `$DISPLAY`, or to a named display with
//! [`Mouse::on_display`].
//!
//! ```no_run
//! let mut mouse = gridbot::actuator::Mouse::new()?;
//! mouse.click(120, 80)?;
//! # Ok::<(), gridbot::actuator::ActuatorError>(())
//! ```

pub mod gesture;

pub use gesture::{Gesture, KeyName};

use std::thread;
use std::time::Duration;

pub use enigo::Button;
use enigo::{Coordinate, Direction, Enigo, Key, Keyboard, Mouse as _, Settings};

use crate::display::{x11, DisplayError};

/// Errors from synthetic input.
#[derive(Debug, thiserror::Error)]
pub enum ActuatorError {
    /// No display, or it does not accept connections.
    #[error(transparent)]
    Display(#[from] DisplayError),
    /// enigo could not open its input connection.
    #[error("cannot open synthetic input on X display {display}: {reason} (the X server needs the XTEST extension)")]
    Connect {
        /// The X display, e.g. `:99`.
        display: String,
        /// What went wrong.
        reason: String,
    },
    /// A point outside the screen.
    #[error("point ({x}, {y}) is outside the {width}x{height} screen of X display {display}")]
    OutOfScreen {
        /// Left edge (or x) in pixels.
        x: i32,
        /// Top edge (or y) in pixels.
        y: i32,
        /// Width.
        width: u32,
        /// Height.
        height: u32,
        /// The X display, e.g. `:99`.
        display: String,
    },
    /// enigo failed to send an event.
    #[error("synthetic input failed while trying to {what}: {reason}")]
    Input {
        /// What was being done.
        what: &'static str,
        /// What went wrong.
        reason: String,
    },
}

/// How fast synthetic input goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pacing {
    /// Pauses between move, press and release (10 ms each, plus enigo's own
    /// XTest delay), so that any program sees separate events: for one-off
    /// clicks and drags into programs we know nothing about.
    Human,
    /// No pauses: events go out back to back and arrive in order. The play
    /// loop uses this with games known to read a click at the pointer
    /// position (sgt-flood), where it saves ~40 ms per click.
    Immediate,
}

impl Pacing {
    /// Pause between the steps of a click or a drag.
    fn step_pause(self) -> Duration {
        match self {
            Pacing::Human => Duration::from_millis(10),
            Pacing::Immediate => Duration::ZERO,
        }
    }
}

/// A synthetic mouse (and keyboard, for the odd key press) on one X display.
/// Buttons still held are released on drop.
pub struct Mouse {
    enigo: Enigo,
    display: String,
    screen: (u32, u32),
    pressed: Vec<Button>,
    pacing: Pacing,
}

impl std::fmt::Debug for Mouse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mouse")
            .field("display", &self.display)
            .field("pressed", &self.pressed)
            .finish()
    }
}

fn input_err(what: &'static str) -> impl FnOnce(enigo::InputError) -> ActuatorError {
    move |err| ActuatorError::Input {
        what,
        reason: err.to_string(),
    }
}

impl Mouse {
    /// Opens synthetic input on the display in `$DISPLAY`.
    pub fn new() -> Result<Self, ActuatorError> {
        Self::on_display(&x11::display_from_env()?)
    }

    /// Opens synthetic input on the named display (e.g. `":57"`), without
    /// touching the process environment, with [`Pacing::Human`].
    pub fn on_display(display: &str) -> Result<Self, ActuatorError> {
        Self::on_display_paced(display, Pacing::Human)
    }

    /// Opens synthetic input on the display in `$DISPLAY` at the given pace.
    pub fn paced(pacing: Pacing) -> Result<Self, ActuatorError> {
        Self::on_display_paced(&x11::display_from_env()?, pacing)
    }

    /// Opens synthetic input on the named display at the given pace.
    pub fn on_display_paced(display: &str, pacing: Pacing) -> Result<Self, ActuatorError> {
        // A plain connection first: its error says what is missing.
        let (conn, screen) = x11::connect(Some(display))?;
        let size = x11::screen_size(&conn, screen);
        drop(conn);
        let mut settings = Settings {
            x11_display: Some(display.to_string()),
            ..Settings::default()
        };
        if pacing == Pacing::Immediate {
            // enigo asks the X server to delay each XTest event by this many
            // milliseconds (12 by default).
            settings.linux_delay = 0;
        }
        let enigo = Enigo::new(&settings).map_err(|err| ActuatorError::Connect {
            display: display.into(),
            reason: err.to_string(),
        })?;
        Ok(Mouse {
            enigo,
            display: display.to_string(),
            screen: size,
            pressed: Vec::new(),
            pacing,
        })
    }

    /// The screen size in pixels.
    pub fn screen_size(&self) -> (u32, u32) {
        self.screen
    }

    /// The display this mouse acts on.
    pub fn display(&self) -> &str {
        &self.display
    }

    fn check(&self, x: i32, y: i32) -> Result<(), ActuatorError> {
        let (width, height) = self.screen;
        if x < 0 || y < 0 || x >= width as i32 || y >= height as i32 {
            return Err(ActuatorError::OutOfScreen {
                x,
                y,
                width,
                height,
                display: self.display.clone(),
            });
        }
        Ok(())
    }

    fn pause(&self) {
        let pause = self.pacing.step_pause();
        if !pause.is_zero() {
            thread::sleep(pause);
        }
    }

    /// Moves the pointer to a screen point.
    pub fn move_to(&mut self, x: i32, y: i32) -> Result<(), ActuatorError> {
        self.check(x, y)?;
        self.enigo
            .move_mouse(x, y, Coordinate::Abs)
            .map_err(input_err("move the pointer"))
    }

    /// Presses `button` and returns a guard that holds it: the button is
    /// released when the guard is released or dropped, so no early return,
    /// `?` or panic between press and release can leave it down.
    pub fn hold(&mut self, button: Button) -> Result<Held<'_>, ActuatorError> {
        self.pressed.push(button);
        if let Err(err) = self.enigo.button(button, Direction::Press) {
            // The press may have reached the server: release to be sure.
            self.release_all();
            return Err(input_err("press a button")(err));
        }
        Ok(Held {
            mouse: self,
            button,
            released: false,
        })
    }

    fn release(&mut self, button: Button) -> Result<(), ActuatorError> {
        self.pressed.retain(|b| *b != button);
        self.enigo
            .button(button, Direction::Release)
            .map_err(input_err("release a button"))
    }

    /// Moves to a screen point and clicks the left button there.
    pub fn click(&mut self, x: i32, y: i32) -> Result<(), ActuatorError> {
        self.move_to(x, y)?;
        self.pause();
        let held = self.hold(Button::Left)?;
        held.mouse.pause();
        held.release()
    }

    /// Presses the left button at `from`, moves in small steps to `to` and
    /// releases it there.
    pub fn drag(&mut self, from: (i32, i32), to: (i32, i32)) -> Result<(), ActuatorError> {
        self.perform(&Gesture::Drag(vec![from, to]))
    }

    /// The pointer's current screen position.
    pub fn position(&self) -> Result<(i32, i32), ActuatorError> {
        self.enigo
            .location()
            .map_err(input_err("read the pointer position"))
    }

    /// Taps a key (press and release), e.g. `'n'` for a new game in sgt-flood.
    pub fn key(&mut self, key: char) -> Result<(), ActuatorError> {
        self.enigo
            .key(Key::Unicode(key), Direction::Click)
            .map_err(input_err("tap a key"))
    }

    /// Plays a gesture at screen points: a click, a drag along its path
    /// (small steps between the points), or a key tap.
    pub fn perform(&mut self, gesture: &Gesture<(i32, i32)>) -> Result<(), ActuatorError> {
        match gesture {
            Gesture::Click((x, y)) => self.click(*x, *y),
            Gesture::Drag(path) => {
                let Some((&first, rest)) = path.split_first() else {
                    return Ok(());
                };
                if rest.is_empty() {
                    return self.click(first.0, first.1);
                }
                // Every point is checked before the button goes down.
                for &(x, y) in path {
                    self.check(x, y)?;
                }
                self.move_to(first.0, first.1)?;
                self.pause();
                let held = self.hold(Button::Left)?;
                let mut from = first;
                for &to in rest {
                    held.mouse.drag_step(from, to)?;
                    from = to;
                }
                held.mouse.pause();
                held.release()
            }
            Gesture::Key(key) => self.key_name(*key),
        }
    }

    /// Moves from `from` to `to` in small steps (with the button held by
    /// the caller's [`Held`], which releases it if a step fails).
    fn drag_step(&mut self, from: (i32, i32), to: (i32, i32)) -> Result<(), ActuatorError> {
        let steps = ((to.0 - from.0).abs().max((to.1 - from.1).abs()) / 8).clamp(1, 50);
        for i in 1..=steps {
            let x = from.0 + (to.0 - from.0) * i / steps;
            let y = from.1 + (to.1 - from.1) * i / steps;
            self.pause();
            self.move_to(x, y)?;
        }
        Ok(())
    }

    /// Taps a named key.
    pub fn key_name(&mut self, key: KeyName) -> Result<(), ActuatorError> {
        let k = match key {
            KeyName::Char(c) => Key::Unicode(c),
            KeyName::Up => Key::UpArrow,
            KeyName::Down => Key::DownArrow,
            KeyName::Left => Key::LeftArrow,
            KeyName::Right => Key::RightArrow,
            KeyName::Enter => Key::Return,
            KeyName::Space => Key::Space,
        };
        self.enigo
            .key(k, Direction::Click)
            .map_err(input_err("tap a key"))
    }

    /// Releases every button this mouse pressed (and, to be safe, the left
    /// one). Errors are ignored: this runs on abort paths and in `Drop`.
    pub fn release_all(&mut self) {
        let mut buttons = std::mem::take(&mut self.pressed);
        if !buttons.contains(&Button::Left) {
            buttons.push(Button::Left);
        }
        for button in buttons {
            let _ = self.enigo.button(button, Direction::Release);
        }
    }
}

/// A pressed mouse button: released by [`Held::release`] or, whatever
/// happens in between (an error, an early return, a panic), on drop.
#[must_use = "the button is released when this guard is dropped"]
pub struct Held<'m> {
    mouse: &'m mut Mouse,
    button: Button,
    released: bool,
}

impl std::fmt::Debug for Held<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Held")
            .field("button", &self.button)
            .finish()
    }
}

impl Held<'_> {
    /// The mouse, to move it while the button is held.
    pub fn mouse(&mut self) -> &mut Mouse {
        self.mouse
    }

    /// Releases the button, reporting a failure (drop would ignore it).
    pub fn release(mut self) -> Result<(), ActuatorError> {
        self.released = true;
        let result = self.mouse.release(self.button);
        if result.is_err() {
            // Try once more, everything, before giving up.
            self.mouse.release_all();
        }
        result
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        if !self.released && self.mouse.release(self.button).is_err() {
            self.mouse.release_all();
        }
    }
}

impl Drop for Mouse {
    fn drop(&mut self) {
        if !self.pressed.is_empty() {
            self.release_all();
        }
    }
}
