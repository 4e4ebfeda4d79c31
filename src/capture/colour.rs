//! Colour arithmetic shared by the stages: saturation (chroma) and distances
//! between RGB triples.

/// Chroma: max channel minus min channel. Greys (frames, menus, text,
/// backgrounds, separator lines) have chroma near 0; board cells are far above.
#[inline]
pub fn chroma(p: [u8; 3]) -> u8 {
    let max = p[0].max(p[1]).max(p[2]);
    let min = p[0].min(p[1]).min(p[2]);
    max - min
}

/// Pixels with at least this chroma count as saturated (sgt-flood's least
/// saturated default colour, brown #804c4c, has 52).
pub const SATURATED_CHROMA: u8 = 32;

/// True if the pixel is saturated enough to be part of a board.
#[inline]
pub fn is_saturated(p: [u8; 3]) -> bool {
    chroma(p) >= SATURATED_CHROMA
}

/// Largest absolute channel difference (a cheap edge strength).
#[inline]
pub fn max_channel_diff(a: [u8; 3], b: [u8; 3]) -> u8 {
    a[0].abs_diff(b[0])
        .max(a[1].abs_diff(b[1]))
        .max(a[2].abs_diff(b[2]))
}

/// Euclidean distance in RGB.
#[inline]
pub fn distance(a: [u8; 3], b: [u8; 3]) -> f32 {
    let d = |i: usize| a[i] as f32 - b[i] as f32;
    (d(0) * d(0) + d(1) * d(1) + d(2) * d(2)).sqrt()
}

/// The RGB part of an RGBA pixel of `image` at `(x, y)` (no bounds check
/// beyond the slice's own).
#[inline]
pub fn rgb_at(image: &image::RgbaImage, x: u32, y: u32) -> [u8; 3] {
    let i = (y as usize * image.width() as usize + x as usize) * 4;
    let raw = image.as_raw();
    [raw[i], raw[i + 1], raw[i + 2]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chroma_separates_greys_from_board_colours() {
        assert_eq!(chroma([0xd5, 0xd5, 0xd5]), 0);
        assert!(!is_saturated([0, 0, 0]));
        assert!(is_saturated([0x80, 0x4c, 0x4c]));
        assert!(is_saturated([0xff, 0, 0]));
    }

    #[test]
    fn distances() {
        assert_eq!(max_channel_diff([10, 200, 30], [20, 100, 30]), 100);
        assert_eq!(distance([0, 0, 0], [3, 4, 0]), 5.0);
    }
}
