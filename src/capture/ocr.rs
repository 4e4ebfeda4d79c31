//! Reading one line of text off the screen (a game's status line) with the
//! `tesseract` OCR program, run as a subprocess on the cropped line scaled up
//! three times. Used once per game, so its ~0.2 s does not count per move.
//! When tesseract is not installed the caller reports the status as unread
//! rather than guess.

use std::io::{ErrorKind, Write};
use std::process::{Command, Output, Stdio};

use image::imageops::{self, FilterType};
use image::RgbaImage;

use super::screen::Rect;

/// Why a line could not be read.
#[derive(Debug, thiserror::Error)]
pub enum OcrError {
    /// The program is not installed.
    #[error("tesseract is not installed (Debian package tesseract-ocr), so the status line cannot be read")]
    Missing,
    /// The crop is empty.
    #[error("the status line area is empty")]
    Empty,
    /// Writing the temporary image or running the program failed.
    #[error("OCR failed: {0}")]
    Failed(String),
}

/// `text` (in upper case) with the usual slips of OCR in numbers mended:
/// `O` read for `0`, and `I`, `L` or `|` for `1`.
pub fn digit_slips(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'O' => '0',
            'I' | 'L' | '|' => '1',
            c => c,
        })
        .collect()
}

/// What follows `label` in `upper` (OCR text in upper case), with the
/// colon, spaces and other marks read around it dropped and the slips of
/// [`digit_slips`] mended: where a status line's number begins. `None`
/// when the label is not there.
pub fn after_label(upper: &str, label: &str) -> Option<String> {
    let at = upper.find(label)? + label.len();
    Some(digit_slips(
        upper[at..].trim_start_matches([':', ';', '.', ' ']),
    ))
}

/// Reads the text in `area` of `image` as a single line.
pub fn read_line(image: &RgbaImage, area: Rect) -> Result<String, OcrError> {
    read_line_scaled(image, area, 3)
}

/// [`read_line`] with the crop scaled up `scale` times (1 to 8) instead of
/// three: tesseract misreads large glyphs scaled too far (a 24-pixel `5`
/// scaled four times reads as `D`), so a caller that reads text of several
/// sizes can compare readings at two scales.
pub fn read_line_scaled(image: &RgbaImage, area: Rect, scale: u32) -> Result<String, OcrError> {
    let scale = scale.clamp(1, 8);
    let area = area.clip(image.width(), image.height());
    if area.width == 0 || area.height == 0 {
        return Err(OcrError::Empty);
    }
    let crop = imageops::crop_imm(image, area.x, area.y, area.width, area.height).to_image();
    let gray = imageops::grayscale(&crop);
    let big = imageops::resize(
        &gray,
        area.width * scale,
        area.height * scale,
        FilterType::Triangle,
    );
    // The image goes to tesseract through a pipe: no temporary file, so no
    // predictable name to plant a symlink at and nothing left behind when
    // the process is killed.
    let mut png = Vec::new();
    big.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .map_err(|e| OcrError::Failed(format!("cannot encode the status line image: {e}")))?;
    let output = run_with_stdin(
        crate::process::child("tesseract").args(["stdin", "stdout", "--psm", "7"]),
        &png,
    );
    let output = match output {
        Ok(o) => o,
        Err(e) if e.kind() == ErrorKind::NotFound => return Err(OcrError::Missing),
        Err(e) => return Err(OcrError::Failed(e.to_string())),
    };
    if !output.status.success() {
        return Err(OcrError::Failed(
            String::from_utf8_lossy(&output.stderr).trim().to_string(),
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// Runs `command` with `input` on its standard input (written from a thread,
/// so a program that fills its output pipe first cannot deadlock us) and
/// collects its output.
fn run_with_stdin(command: &mut Command, input: &[u8]) -> std::io::Result<Output> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stdin = child.stdin.take().expect("stdin was piped");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // A program that exits early closes the pipe: its status says why.
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output();
    let _ = writer.join();
    output
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_goes_through_stdin() {
        let out = run_with_stdin(&mut Command::new("cat"), b"status line").unwrap();
        assert_eq!(out.stdout, b"status line");
    }

    #[test]
    fn leaves_no_file_in_the_temporary_folder() {
        let image = RgbaImage::from_pixel(60, 12, image::Rgba([255, 255, 255, 255]));
        let before = ocr_files();
        let _ = read_line(
            &image,
            Rect {
                x: 0,
                y: 0,
                width: 60,
                height: 12,
            },
        );
        assert_eq!(ocr_files(), before);
    }

    fn ocr_files() -> Vec<std::path::PathBuf> {
        let pid = format!("gridbot-ocr-{}-", std::process::id());
        std::fs::read_dir(std::env::temp_dir())
            .map(|d| {
                d.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.to_string_lossy().contains(&pid))
                    .collect()
            })
            .unwrap_or_default()
    }
}
