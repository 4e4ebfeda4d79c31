//! `--record FILE.gif`: an animated GIF of a played game, so a user can
//! watch what the bot did on a display they could not see (the demo plays on
//! a virtual one).
//!
//! The play loop keeps the screenshot the board was first read from and the
//! one read after every move ([`super::engine::Finished::frames`] with
//! [`super::PlayConfig::keep_frames`]); [`write_gif`] turns them into one
//! looping animation: each move's frame shown for [`GifOptions::frame_delay`],
//! the final board held for [`GifOptions::final_delay`]. A run of several
//! games writes one file per game, named by [`game_path`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, Frame, RgbaImage};

use crate::files::Replace;

/// Why an animation could not be written.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The file name does not end in `.gif`.
    #[error("--record {path}: the file name must end in .gif")]
    NotGif {
        /// The path given.
        path: String,
    },
    /// The folder the file would go into does not exist.
    #[error("--record {path}: the folder {folder} does not exist")]
    NoFolder {
        /// The path given.
        path: String,
        /// Its folder.
        folder: String,
    },
    /// Nothing to write.
    #[error("cannot write {path}: no frames were recorded")]
    NoFrames {
        /// The file.
        path: String,
    },
    /// Creating or writing the file failed.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// The GIF could not be encoded.
    #[error("cannot write {path}: {message}")]
    Write {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
}

/// Timing and quality of an animation.
#[derive(Debug, Clone, Copy)]
pub struct GifOptions {
    /// How long each frame but the last is shown.
    pub frame_delay: Duration,
    /// How long the final board is shown before the animation loops.
    pub final_delay: Duration,
    /// Colour quantisation speed, 1 (best, slowest) to 30 (fastest).
    pub speed: i32,
}

impl Default for GifOptions {
    fn default() -> Self {
        GifOptions {
            frame_delay: Duration::from_millis(600),
            final_delay: Duration::from_millis(2500),
            speed: 10,
        }
    }
}

/// Checks a `--record` path before anything is played: it must end in
/// `.gif` and its folder must exist.
pub fn check_record_path(path: &Path) -> Result<(), RecordError> {
    let shown = path.display().to_string();
    let is_gif = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gif"));
    if !is_gif {
        return Err(RecordError::NotGif { path: shown });
    }
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        if !folder.is_dir() {
            return Err(RecordError::NoFolder {
                path: shown,
                folder: folder.display().to_string(),
            });
        }
    }
    Ok(())
}

/// The file for game `game` of a run of `games`: `path` itself when the run
/// has one game, otherwise the game number inserted before the extension
/// (`run.gif` -> `run-1.gif`, `run-2.gif`, ...).
pub fn game_path(path: &Path, game: usize, games: usize) -> PathBuf {
    if games <= 1 {
        return path.to_path_buf();
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{game}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{game}"),
    };
    path.with_file_name(name)
}

/// Writes `frames` (in order) as a looping GIF to `path`. Frames of another
/// size than the first (a window that was resized) are cut or padded to the
/// first one's size, anchored at the top-left corner.
pub fn write_gif(
    path: &Path,
    frames: &[&RgbaImage],
    options: &GifOptions,
    replace: Replace,
) -> Result<(), RecordError> {
    let shown = path.display().to_string();
    let Some(first) = frames.first() else {
        return Err(RecordError::NoFrames { path: shown });
    };
    let write_err = |e: &dyn std::fmt::Display| RecordError::Write {
        path: shown.clone(),
        message: e.to_string(),
    };
    let (w, h) = first.dimensions();
    // Checked before encoding, and written all at once after it.
    crate::files::check_output(path, replace)?;
    let mut bytes = Vec::new();
    let mut encoder = GifEncoder::new_with_speed(&mut bytes, options.speed.clamp(1, 30));
    encoder
        .set_repeat(Repeat::Infinite)
        .map_err(|e| write_err(&e))?;
    for (i, image) in frames.iter().enumerate() {
        let delay = if i + 1 == frames.len() {
            options.final_delay
        } else {
            options.frame_delay
        };
        let canvas = if image.dimensions() == (w, h) {
            (*image).clone()
        } else {
            let mut c = RgbaImage::from_pixel(w, h, image::Rgba([0, 0, 0, 255]));
            image::imageops::replace(&mut c, *image, 0, 0);
            c
        };
        let frame = Frame::from_parts(canvas, 0, 0, Delay::from_saturating_duration(delay));
        encoder.encode_frame(frame).map_err(|e| write_err(&e))?;
    }
    // Dropping the encoder writes the trailer.
    drop(encoder);
    Ok(crate::files::write_all(path, &bytes, replace)?)
}

/// Writes the frames of game `game` of a run of `games` to its file (see
/// [`game_path`]) with the default options; returns the file written.
pub fn record_game(
    path: &Path,
    game: usize,
    games: usize,
    shots: &[crate::capture::screen::Screenshot],
    replace: Replace,
) -> Result<PathBuf, RecordError> {
    let file = game_path(path, game, games);
    let images: Vec<&RgbaImage> = shots.iter().map(|s| &s.image).collect();
    write_gif(&file, &images, &GifOptions::default(), replace)?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::codecs::gif::GifDecoder;
    use image::AnimationDecoder;

    fn frame(colour: [u8; 3], w: u32, h: u32) -> RgbaImage {
        RgbaImage::from_fn(w, h, |x, y| {
            if x < w / 2 && y < h / 2 {
                image::Rgba([colour[0], colour[1], colour[2], 255])
            } else {
                image::Rgba([0xd5, 0xd5, 0xd5, 255])
            }
        })
    }

    #[test]
    fn writes_a_gif_with_one_frame_each() {
        let dir = std::env::temp_dir().join(format!("gridbot-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.gif");
        let frames = [
            frame([255, 0, 0], 40, 30),
            frame([0, 255, 0], 40, 30),
            frame([0, 0, 255], 50, 20),
        ];
        let refs: Vec<&RgbaImage> = frames.iter().collect();
        write_gif(&path, &refs, &GifOptions::default(), Replace::Allow).unwrap();
        let decoder =
            GifDecoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap())).unwrap();
        let decoded = decoder.into_frames().collect_frames().unwrap();
        assert_eq!(decoded.len(), 3);
        for (i, f) in decoded.iter().enumerate() {
            assert_eq!(f.buffer().dimensions(), (40, 30), "frame {i}");
        }
        // The colours survive quantisation.
        let px = decoded[1].buffer().get_pixel(5, 5).0;
        assert!(px[1] > 200 && px[0] < 50 && px[2] < 50, "{px:?}");
        let (n, d) = decoded[2].delay().numer_denom_ms();
        assert_eq!(n / d, 2500);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn paths() {
        assert_eq!(
            game_path(Path::new("a/run.gif"), 1, 1),
            Path::new("a/run.gif")
        );
        assert_eq!(
            game_path(Path::new("a/run.gif"), 2, 3),
            Path::new("a/run-2.gif")
        );
        assert!(matches!(
            check_record_path(Path::new("run.png")),
            Err(RecordError::NotGif { .. })
        ));
        assert!(matches!(
            check_record_path(Path::new("/no/such/folder/run.gif")),
            Err(RecordError::NoFolder { .. })
        ));
        assert!(check_record_path(Path::new("run.GIF")).is_ok());
        let err = write_gif(
            Path::new("x.gif"),
            &[],
            &GifOptions::default(),
            Replace::Allow,
        )
        .unwrap_err();
        assert!(err.to_string().contains("no frames"), "{err}");
        let err = write_gif(
            Path::new("/no/such/folder/x.gif"),
            &[&frame([1, 2, 3], 4, 4)],
            &GifOptions::default(),
            Replace::Allow,
        )
        .unwrap_err();
        assert!(err.to_string().contains("/no/such/folder/x.gif"), "{err}");
    }
}
