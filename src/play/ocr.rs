//! Reading one line of text off the screen (a game's status line) with the
//! `tesseract` OCR program, run as a subprocess on the cropped line scaled up
//! three times. Used once per game, so its ~0.2 s does not count per move.
//! When tesseract is not installed the caller reports the status as unread
//! rather than guess.

use std::io::ErrorKind;
use std::process::Command;

use image::imageops::{self, FilterType};
use image::RgbaImage;

use super::Rect;

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

/// Reads the text in `area` of `image` as a single line.
pub fn read_line(image: &RgbaImage, area: Rect) -> Result<String, OcrError> {
    let area = area.clip(image.width(), image.height());
    if area.width == 0 || area.height == 0 {
        return Err(OcrError::Empty);
    }
    let crop = imageops::crop_imm(image, area.x, area.y, area.width, area.height).to_image();
    let gray = imageops::grayscale(&crop);
    let big = imageops::resize(&gray, area.width * 3, area.height * 3, FilterType::Triangle);
    let dir = std::env::temp_dir();
    let path = dir.join(format!(
        "gridbot-ocr-{}-{:?}.png",
        std::process::id(),
        std::thread::current().id()
    ));
    big.save(&path)
        .map_err(|e| OcrError::Failed(format!("cannot write {}: {e}", path.display())))?;
    let output = Command::new("tesseract")
        .arg(&path)
        .arg("stdout")
        .args(["--psm", "7"])
        .output();
    let _ = std::fs::remove_file(&path);
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
