//! The `sgt` host: a program of Simon Tatham's Portable Puzzle Collection
//! as Debian packages it (`/usr/games/sgt-NAME`), on an X display.
//!
//! - Finding the program ([`binary`]), asking it for game IDs without a
//!   display ([`generate`]), and the command that opens exactly one game
//!   with a tile size and a palette ([`Launch`]: the `NAME_TILESIZE` and
//!   `NAME_COLOUR_k` environment variables).
//! - [`SgtHost`]: the loop's view: the status line is the GTK status bar
//!   under the board (read with OCR, interpreted by
//!   [`super::status::parse_status`]); a new game is the `n` key.

use std::path::PathBuf;
use std::process::Command;

use crate::actuator::{Gesture, KeyName};
use crate::capture::ocr;
use crate::capture::screen::Screenshot;
use crate::play::{Rect, StatusReading};

use super::status::parse_status;
use super::Host;

/// Why an sgt program could not be found or run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SgtError {
    /// The program is not installed.
    #[error("sgt-{0} not found in /usr/games or on the PATH (Debian package sgt-puzzles; ./dev deps installs it)")]
    Missing(String),
    /// `--generate` failed or printed no game ID.
    #[error("sgt-{program} --generate {params:?} failed: {reason}")]
    Generate {
        /// The program, e.g. `flood`.
        program: String,
        /// The parameters asked for.
        params: String,
        /// What went wrong.
        reason: String,
    },
}

/// Where `sgt-NAME` is: `/usr/games/sgt-NAME` (Debian), else `sgt-NAME` or
/// `NAME` on the PATH.
pub fn binary(program: &str) -> Result<PathBuf, SgtError> {
    let debian = PathBuf::from(format!("/usr/games/sgt-{program}"));
    if debian.is_file() {
        return Ok(debian);
    }
    let missing = || SgtError::Missing(program.to_string());
    let path = std::env::var_os("PATH").ok_or_else(missing)?;
    std::env::split_paths(&path)
        .flat_map(|dir| [dir.join(format!("sgt-{program}")), dir.join(program)])
        .find(|p| p.is_file())
        .ok_or_else(missing)
}

/// Asks `sgt-PROGRAM --generate 1 PARAMS[#SEED]` for one game ID (the
/// line it prints, e.g. `12x12:0123...,23`). `env` is passed to the
/// program (some parameters need `NAME_DEFAULT`).
pub fn generate(
    program: &str,
    params: &str,
    seed: Option<&str>,
    env: &[(String, String)],
) -> Result<String, SgtError> {
    let exe = binary(program)?;
    let spec = match seed {
        Some(s) => format!("{params}#{s}"),
        None => params.to_string(),
    };
    let fail = |reason: String| SgtError::Generate {
        program: program.to_string(),
        params: spec.clone(),
        reason,
    };
    let out = crate::process::child(&exe)
        .args(["--generate", "1", &spec])
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .map_err(|e| fail(format!("cannot run {}: {e}", exe.display())))?;
    if !out.status.success() {
        return Err(fail(
            String::from_utf8_lossy(&out.stderr).trim().to_string(),
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find(|l| l.contains(':'))
        .map(|l| l.trim().to_string())
        .ok_or_else(|| fail(format!("it printed no game ID: {text:?}")))
}

/// How to open one game in an sgt program.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    /// The program, e.g. `flood` for `sgt-flood`.
    pub program: String,
    /// The game ID or parameters to open.
    pub id: String,
    /// Tile size in pixels (`NAME_TILESIZE`), the program's default if `None`.
    pub tile_size: Option<u32>,
    /// Colours to change (`NAME_COLOUR_k=rrggbb`): index and `rrggbb`.
    pub palette: Vec<(usize, String)>,
    /// Any other environment variables.
    pub env: Vec<(String, String)>,
}

impl Launch {
    /// The command that opens the game.
    pub fn command(&self) -> Result<Command, SgtError> {
        let mut cmd = crate::process::child(binary(&self.program)?);
        let upper = self.program.to_ascii_uppercase();
        if let Some(t) = self.tile_size {
            cmd.env(format!("{upper}_TILESIZE"), t.to_string());
        }
        for (k, rgb) in &self.palette {
            cmd.env(format!("{upper}_COLOUR_{k}"), rgb);
        }
        cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
        cmd.arg(&self.id);
        Ok(cmd)
    }
}

/// An sgt program as the play loop's host.
#[derive(Debug, Clone)]
pub struct SgtHost {
    /// The program, e.g. `flood`.
    pub program: String,
    /// The key that starts a new game (`n` in every sgt program), if any.
    pub new_game_key: Option<char>,
}

impl SgtHost {
    /// The host for `sgt-PROGRAM` with the usual `n` key.
    pub fn new(program: &str) -> Self {
        SgtHost {
            program: program.to_string(),
            new_game_key: Some('n'),
        }
    }
}

/// Where an sgt program's status line is: the strip under the board (the
/// GTK status bar starts a little below the board's bottom edge).
pub fn status_area(board: Rect) -> Rect {
    let margin = 18;
    Rect {
        x: board.x.saturating_sub(margin),
        y: board.y + board.height + 12,
        width: board.width + 2 * margin,
        height: 45,
    }
}

impl Host for SgtHost {
    fn name(&self) -> &str {
        &self.program
    }

    fn status(&self, shot: &Screenshot, board: Rect) -> StatusReading {
        match ocr::read_line(&shot.image, status_area(board)) {
            Ok(text) => parse_status(&text),
            Err(e) => {
                log::warn!("status line not read: {e}");
                StatusReading::unread()
            }
        }
    }

    fn new_game(&self) -> Option<Gesture<(f64, f64)>> {
        self.new_game_key.map(|c| Gesture::Key(KeyName::Char(c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_program_names_the_package() {
        let e = binary("no-such-puzzle").unwrap_err();
        assert!(e.to_string().contains("sgt-puzzles"), "{e}");
    }

    #[test]
    fn launch_sets_tile_size_and_palette() {
        let l = Launch {
            program: "flood".into(),
            id: "3x3:012012012,5".into(),
            tile_size: Some(40),
            palette: vec![(3, "92977d".into())],
            env: vec![],
        };
        if let Ok(cmd) = l.command() {
            let envs: Vec<_> = cmd.get_envs().collect();
            assert!(envs
                .iter()
                .any(|(k, v)| *k == "FLOOD_TILESIZE" && *v == Some("40".as_ref())));
            assert!(envs.iter().any(|(k, _)| *k == "FLOOD_COLOUR_3"));
        }
    }

    #[test]
    fn status_strip_is_under_the_board() {
        let a = status_area(Rect {
            x: 10,
            y: 20,
            width: 100,
            height: 100,
        });
        assert_eq!((a.x, a.y, a.width), (0, 132, 136));
    }
}
