//! The two devices the play loop touches, as small traits: a [`Screen`] to
//! capture and a [`Pointer`] to click with. The loop never talks to X
//! directly, so tests drive it with fakes.

use crate::actuator::Gesture;
use crate::capture::screen::Screenshot;
pub use crate::display::DeviceError;

/// Something that produces screenshots (the whole screen or one window).
pub trait Screen {
    /// Captures the current pixels.
    fn capture(&mut self) -> Result<Screenshot, DeviceError>;
}

/// Something that moves the mouse pointer, clicks, drags and taps keys.
pub trait Pointer {
    /// Where the pointer is now, in screen coordinates.
    fn position(&mut self) -> Result<(i32, i32), DeviceError>;
    /// Plays a gesture at screen points (click, drag or key).
    fn perform(&mut self, gesture: &Gesture<(i32, i32)>) -> Result<(), DeviceError>;
    /// Releases every button; used on abort paths, must not fail.
    fn release_all(&mut self);
    /// The screen size in pixels, for the corner check.
    fn screen_size(&self) -> (u32, u32);
}
