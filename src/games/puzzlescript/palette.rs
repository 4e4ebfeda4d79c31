//! The reference engine's colour palettes (its `colorPalettes` table,
//! copied from the standalone page), and colours as the page paints them.

/// The colour names, in the order of every palette's table.
pub const NAMES: [&str; 24] = [
    "black",
    "white",
    "grey",
    "darkgrey",
    "lightgrey",
    "gray",
    "darkgray",
    "lightgray",
    "red",
    "darkred",
    "lightred",
    "brown",
    "darkbrown",
    "lightbrown",
    "orange",
    "yellow",
    "green",
    "darkgreen",
    "lightgreen",
    "blue",
    "lightblue",
    "darkblue",
    "purple",
    "pink",
];

/// The reference's palettes: name and the colours of [`NAMES`], as `0xRRGGBB`.
pub const PALETTES: [(&str, [u32; 24]); 14] = [
    (
        "mastersystem",
        [
            0x000000, 0xffffff, 0x555555, 0x555500, 0xaaaaaa, 0x555555, 0x555500, 0xaaaaaa,
            0xff0000, 0xaa0000, 0xff5555, 0xaa5500, 0x550000, 0xffaa00, 0xff5500, 0xffff55,
            0x55aa00, 0x005500, 0xaaff00, 0x5555aa, 0xaaffff, 0x000055, 0x550055, 0xffaaff,
        ],
    ),
    (
        "gameboycolour",
        [
            0x000000, 0xffffff, 0x7f7f7c, 0x3e3e44, 0xbaa7a7, 0x7f7f7c, 0x3e3e44, 0xbaa7a7,
            0xa7120c, 0x880606, 0xba381f, 0x57381f, 0x3e2519, 0x8e634b, 0xba4b32, 0xc0ba6f,
            0x517525, 0x385d12, 0x6f8e44, 0x5d6fa7, 0x8ea7a7, 0x4b575d, 0x3e3e44, 0xba381f,
        ],
    ),
    (
        "amiga",
        [
            0x000000, 0xffffff, 0xbbbbbb, 0x333333, 0xffeedd, 0xbbbbbb, 0x333333, 0xffeedd,
            0xdd1111, 0x990000, 0xff4422, 0x663311, 0x331100, 0xaa6644, 0xff6644, 0xffdd66,
            0x448811, 0x335500, 0x88bb77, 0x8899dd, 0xbbddee, 0x666688, 0x665555, 0x997788,
        ],
    ),
    (
        "arnecolors",
        [
            0x000000, 0xffffff, 0x9d9d9d, 0x697175, 0xcccccc, 0x9d9d9d, 0x697175, 0xcccccc,
            0xbe2633, 0x732930, 0xe06f8b, 0xa46422, 0x493c2b, 0xeeb62f, 0xeb8931, 0xf7e26b,
            0x44891a, 0x2f484e, 0xa3ce27, 0x1d57f7, 0xb2dcef, 0x1b2632, 0x342a97, 0xde65e2,
        ],
    ),
    (
        "famicom",
        [
            0x000000, 0xffffff, 0x7c7c7c, 0x080808, 0xbcbcbc, 0x7c7c7c, 0x080808, 0xbcbcbc,
            0xf83800, 0x881400, 0xf87858, 0xac7c00, 0x503000, 0xfce0a8, 0xfca044, 0xf8b800,
            0x00b800, 0x005800, 0xb8f8b8, 0x0058f8, 0x3cbcfc, 0x0000bc, 0x6644fc, 0xf878f8,
        ],
    ),
    (
        "atari",
        [
            0x000000, 0xffffff, 0x909090, 0x404040, 0xb0b0b0, 0x909090, 0x404040, 0xb0b0b0,
            0xa03c50, 0x700014, 0xdc849c, 0x805020, 0x703400, 0xcb9870, 0xccac70, 0xecd09c,
            0x58b06c, 0x006414, 0x70c484, 0x1c3c88, 0x6888c8, 0x000088, 0x3c0080, 0xb484dc,
        ],
    ),
    (
        "pastel",
        [
            0x000000, 0xffffff, 0x3e3e3e, 0x313131, 0x9cbcbc, 0x3e3e3e, 0x313131, 0x9cbcbc,
            0xf56ca2, 0xa63577, 0xffa9cf, 0xb58c53, 0x787562, 0xb58c53, 0xeb792d, 0xffe15f,
            0x00ff4f, 0x2b732c, 0x97c04f, 0x0f88d3, 0x00fffe, 0x293a7b, 0xff6554, 0xeb792d,
        ],
    ),
    (
        "ega",
        [
            0x000000, 0xffffff, 0x555555, 0x555555, 0xaaaaaa, 0x555555, 0x555555, 0xaaaaaa,
            0xff5555, 0xaa0000, 0xff55ff, 0xaa5500, 0xaa5500, 0xffff55, 0xff5555, 0xffff55,
            0x00aa00, 0x00aaaa, 0x55ff55, 0x5555ff, 0x55ffff, 0x0000aa, 0xaa00aa, 0xff55ff,
        ],
    ),
    (
        "proteus_mellow",
        [
            0x3d2d2e, 0xddf1fc, 0x9fb2d4, 0x7b8272, 0xa4bfda, 0x9fb2d4, 0x7b8272, 0xa4bfda,
            0x9d5443, 0x8c5b4a, 0x94614c, 0x89a78d, 0x829e88, 0xaaae97, 0xd1ba86, 0xd6cda2,
            0x75ac8d, 0x8fa67f, 0x8eb682, 0x88a3ce, 0xa5adb0, 0x5c6b8c, 0xd39fac, 0xc8ac9e,
        ],
    ),
    (
        "proteus_night",
        [
            0x010912, 0xfdeeec, 0x051d40, 0x091842, 0x062151, 0x051d40, 0x091842, 0x062151,
            0xad4576, 0x934765, 0xab6290, 0x61646b, 0x3d2d2d, 0x8393a0, 0x0a2227, 0x0a2541,
            0x75ac8d, 0x0a2434, 0x061f2e, 0x0b2c79, 0x809ccb, 0x08153b, 0x666a87, 0x754b4d,
        ],
    ),
    (
        "proteus_rich",
        [
            0x6f686f, 0xd1b1e2, 0xb9aac1, 0x8e8b84, 0xc7b5cd, 0xb9aac1, 0x8e8b84, 0xc7b5cd,
            0xa11f4f, 0x934765, 0xc998ad, 0x89867d, 0x797f75, 0xab9997, 0xce8c5c, 0xf0d959,
            0x75bc54, 0x599d79, 0x90cf5c, 0x8fd0ec, 0xbcdce7, 0x0b2c70, 0x9b377f, 0xcd88e5,
        ],
    ),
    (
        "amstrad",
        [
            0x000000, 0xffffff, 0x7f7f7f, 0x636363, 0xafafaf, 0x7f7f7f, 0x636363, 0xafafaf,
            0xff0000, 0x7f0000, 0xff7f7f, 0xff7f00, 0x7f7f00, 0xffff00, 0xff007f, 0xffff7f,
            0x01ff00, 0x007f00, 0x7fff7f, 0x0000ff, 0x7f7fff, 0x00007f, 0x7f007f, 0xff7fff,
        ],
    ),
    (
        "c64",
        [
            0x000000, 0xffffff, 0x6c6c6c, 0x444444, 0x959595, 0x6c6c6c, 0x444444, 0x959595,
            0x68372b, 0x3f1e17, 0x9a6759, 0x433900, 0x221c02, 0x6d5c0d, 0x6f4f25, 0xb8c76f,
            0x588d43, 0x345129, 0x9ad284, 0x6c5eb5, 0x70a4b2, 0x352879, 0x6f3d86, 0xb044ac,
        ],
    ),
    (
        "whitingjp",
        [
            0x202527, 0xeff8fd, 0x7b7680, 0x3c3b44, 0xbed0d7, 0x7b7680, 0x3c3b44, 0xbed0d7,
            0xbd194b, 0x6b1334, 0xef2358, 0xb52e1c, 0x681c12, 0xe87b45, 0xff8c10, 0xfbd524,
            0x36bc3c, 0x317610, 0x8ce062, 0x3f62c6, 0x57bbe0, 0x2c2fa0, 0x7037d9, 0xec2b8f,
        ],
    ),
];

/// The palettes' numbers (`color_palette 4` is `arnecolors`).
pub const ALIASES: [(&str, &str); 14] = [
    ("1", "mastersystem"),
    ("2", "gameboycolour"),
    ("3", "amiga"),
    ("4", "arnecolors"),
    ("5", "famicom"),
    ("6", "atari"),
    ("7", "pastel"),
    ("8", "ega"),
    ("9", "amstrad"),
    ("10", "proteus_mellow"),
    ("11", "proteus_rich"),
    ("12", "proteus_night"),
    ("13", "c64"),
    ("14", "whitingjp"),
];

/// An opaque colour.
pub type Rgb = [u8; 3];

/// The palette a game's `color_palette` option names (by name or
/// number); `arnecolors` by default or for a name the reference does not
/// know (it falls back the same way).
pub fn palette_of(option: Option<&str>) -> &'static [u32; 24] {
    let name = option.map(|o| o.trim().to_ascii_lowercase());
    let name = name.as_deref().map(|n| {
        ALIASES
            .iter()
            .find(|(number, _)| *number == n)
            .map_or(n, |(_, alias)| *alias)
    });
    PALETTES
        .iter()
        .find(|(p, _)| Some(*p) == name)
        .or_else(|| PALETTES.iter().find(|(p, _)| *p == "arnecolors"))
        .map(|(_, colors)| colors)
        .expect("arnecolors is a palette")
}

/// The colour `text` paints with `palette`: a colour name, `#rgb` or
/// `#rrggbb`; `None` for `transparent` (and anything the page would not
/// paint).
pub fn color(palette: &[u32; 24], text: &str) -> Option<Rgb> {
    let t = text.trim().to_ascii_lowercase();
    if let Some(i) = NAMES.iter().position(|n| *n == t) {
        let v = palette[i];
        return Some([(v >> 16) as u8, (v >> 8) as u8, v as u8]);
    }
    let hex = t.strip_prefix('#')?;
    let digit = |i: usize| u8::from_str_radix(&hex[i..=i], 16).ok();
    match hex.len() {
        3 => Some([digit(0)? * 17, digit(1)? * 17, digit(2)? * 17]),
        6 => {
            let v = u32::from_str_radix(hex, 16).ok()?;
            Some([(v >> 16) as u8, (v >> 8) as u8, v as u8])
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_numbers_and_hex_give_the_pages_colours() {
        let arne = palette_of(None);
        assert_eq!(color(arne, "red"), Some([0xbe, 0x26, 0x33]));
        assert_eq!(color(arne, "#1d57f7"), Some([0x1d, 0x57, 0xf7]));
        assert_eq!(color(arne, "#F0a"), Some([0xff, 0x00, 0xaa]));
        assert_eq!(color(arne, "transparent"), None);
        assert_eq!(palette_of(Some("13")), palette_of(Some("c64")));
        assert_eq!(palette_of(Some("nonsense")), arne);
        assert_eq!(
            color(palette_of(Some("mastersystem")), "white"),
            Some([255; 3])
        );
    }
}
