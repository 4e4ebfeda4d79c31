//! Screen capture through xcap, and the one place where image pixels are
//! converted to screen coordinates (origin and HiDPI scale).

use image::RgbaImage;

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
        Screenshot { image, origin_x: 0, origin_y: 0, scale: 1.0 }
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
        let shot = Screenshot { image: RgbaImage::new(4, 4), origin_x: 100, origin_y: 50, scale: 2.0 };
        assert_eq!(shot.to_screen(10.0, 21.0), (105, 61));
        let plain = Screenshot::from_image(RgbaImage::new(4, 4));
        assert_eq!(plain.to_screen(3.4, 2.6), (3, 3));
    }
}
