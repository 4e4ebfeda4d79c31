//! The real devices for the play loop on an X display: the loop's
//! [`Screen`] is a [`WindowGrabber`] and its [`Pointer`] a [`Mouse`], opened
//! with [`Pacing::Immediate`] (sgt-flood reads a click at the pointer
//! position, so no pauses between move, press and release are needed).

use crate::actuator::{Gesture, Mouse, Pacing};
use crate::capture::screen::Screenshot;
use crate::capture::window_grabber::WindowGrabber;

use super::io::{DeviceError, Pointer, Screen};

/// Opens the screen the loop captures: the window whose title contains
/// `title` on `$DISPLAY`, or the whole screen when `None`.
pub fn open_screen(title: Option<&str>) -> Result<WindowGrabber, DeviceError> {
    WindowGrabber::open(title).map_err(DeviceError::from_display)
}

/// Opens the pointer the loop clicks with, on `$DISPLAY`.
pub fn open_pointer() -> Result<Mouse, DeviceError> {
    Mouse::paced(Pacing::Immediate).map_err(DeviceError::from_display)
}

impl Screen for WindowGrabber {
    fn capture(&mut self) -> Result<Screenshot, DeviceError> {
        WindowGrabber::capture(self).map_err(DeviceError::from_display)
    }
}

impl Pointer for Mouse {
    fn position(&mut self) -> Result<(i32, i32), DeviceError> {
        Mouse::position(self).map_err(DeviceError::from_display)
    }

    fn perform(&mut self, gesture: &Gesture<(i32, i32)>) -> Result<(), DeviceError> {
        Mouse::perform(self, gesture).map_err(DeviceError::from_display)
    }

    fn release_all(&mut self) {
        Mouse::release_all(self);
    }

    fn screen_size(&self) -> (u32, u32) {
        Mouse::screen_size(self)
    }
}
