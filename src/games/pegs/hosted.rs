//! Pegs as sgt-pegs hosts it, for the generic commands of
//! [`crate::cli::sgt_game`]: the program, its window, its presets, what a
//! game ID reads as on the screen, and the built-in calibration.
//! sgt-pegs has no status line: a game is over when one peg is left (or
//! the solver proves the position lost).

use crate::calibration::Calibration;
use crate::cli::sgt_game::{Generated, SgtGame, SgtGameError};
use crate::play::report::GameRecord;

use super::parse::parse_game;
use super::play::{chains_in, PegsGame};
use super::read::trimmed;
use super::rules::{Game, MAX_SIDE};

/// The built-in calibration (timings and the new-game key; no palette).
pub const DEFAULT_CALIBRATION: &str = include_str!("../../../calibration/sgt-pegs.toml");

/// sgt-pegs as the host of the play commands.
#[derive(Debug, Clone, Copy, Default)]
pub struct SgtPegs;

/// Checks sgt-pegs parameters `WxHTYPE` (TYPE `cross`, `octagon` or
/// `random`, sides 3 to 11) and returns them in lower case.
pub fn check_params(text: &str) -> Result<String, String> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || {
        format!(
            "bad sgt-pegs parameters {text:?}: expected WxH followed by cross, octagon or \
             random, e.g. 7x7cross or 9x9random"
        )
    };
    let kind = ["cross", "octagon", "random"]
        .into_iter()
        .find(|k| t.ends_with(k))
        .ok_or_else(bad)?;
    let size = &t[..t.len() - kind.len()];
    let (w, h) = size.split_once('x').ok_or_else(bad)?;
    let w: usize = w.parse().map_err(|_| bad())?;
    let h: usize = h.parse().map_err(|_| bad())?;
    if !(3..=MAX_SIDE).contains(&w) || !(3..=MAX_SIDE).contains(&h) {
        return Err(format!(
            "sgt-pegs board {w}x{h} is out of range (sides 3 to {MAX_SIDE})"
        ));
    }
    Ok(t)
}

/// The position the board of game `id` reads as on the screen: the ID's
/// game with the rows and columns that hold no board cell trimmed.
pub fn expected_state(id: &str) -> Result<Game, String> {
    let game = parse_game(id).map_err(|e| e.to_string())?;
    Ok(trimmed(&game))
}

impl SgtGame for SgtPegs {
    type Game = PegsGame;

    fn program(&self) -> &'static str {
        "pegs"
    }

    fn window_title(&self) -> &'static str {
        "Pegs"
    }

    fn builtin_calibration(&self) -> (&'static str, &'static str) {
        (DEFAULT_CALIBRATION, "built-in sgt-pegs.toml")
    }

    fn default_params(&self) -> &'static str {
        "7x7random"
    }

    fn check_params(&self, params: &str) -> Result<String, SgtGameError> {
        check_params(params).map_err(SgtGameError::Params)
    }

    fn generate(&self, params: &str, seed: Option<&str>) -> Result<Generated, SgtGameError> {
        let id = crate::hosts::sgt::generate("pegs", params, seed, &[])?;
        // The ID must be one the reader and solver take.
        parse_game(&id).map_err(|e| SgtGameError::Id(format!("sgt-pegs printed {id:?}: {e}")))?;
        Ok(Generated {
            id,
            limit: None,
            game_solver_moves: None,
        })
    }

    fn game(&self, _calibration: &Calibration) -> anyhow::Result<PegsGame> {
        Ok(PegsGame::new())
    }

    fn expected_state(&self, id: &str) -> Result<Game, SgtGameError> {
        expected_state(id).map_err(SgtGameError::Id)
    }

    fn has_status_line(&self) -> bool {
        false
    }

    fn extra_line(&self, record: &GameRecord) -> Option<String> {
        Some(format!(
            "{} jumps = {} moves (a move is a chain of jumps by one peg)",
            record.solution.len(),
            chains_in(&record.solution)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_are_checked() {
        assert_eq!(check_params("7x7Cross").unwrap(), "7x7cross");
        assert_eq!(check_params("9x9random").unwrap(), "9x9random");
        for bad in [
            "7x7",
            "7x7square",
            "x7random",
            "7random",
            "12x12random",
            "2x2cross",
        ] {
            let e = check_params(bad).unwrap_err();
            assert!(e.contains("sgt-pegs"), "{bad}: {e}");
        }
    }

    #[test]
    fn an_id_reads_as_its_trimmed_board() {
        let g = expected_state("4x3:OOOOOPPHOOOO").unwrap();
        assert_eq!(g.id(), "3x1:PPH");
        assert!(expected_state("3x3:PPP").is_err());
        assert!(SgtPegs.builtin_calibration().0.contains("Pegs"));
        assert!(Calibration::parse(DEFAULT_CALIBRATION, std::path::Path::new("x")).is_ok());
    }
}
