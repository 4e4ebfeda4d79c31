//! Screenshot fixtures of Fogleman's Rush Hour player and Luca Wagner's
//! page (`fixtures/rush/`, `wagnerluca-*` for Wagner's;
//! see [`crate::cli::fixtures`] for the layout and the truth format):
//! `expected` is the board in reading-order letters (any letters: compared
//! after renaming), and `after` names the steady frame the play loop would
//! have read before a flash frame.

use std::process::ExitCode;

use image::RgbaImage;

use crate::cli::fixtures::{FixtureGame, Reader, Reading, Truth};
use crate::games::rush::generate::canonical_text;
use crate::games::rush::play::{RushGame, RushState};

/// `gridbot fixtures rush`.
pub type Args = crate::cli::fixtures::Args;

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    crate::cli::fixtures::run(&RushFixtures, args)
}

/// Rush Hour's fixtures.
pub struct RushFixtures;

impl FixtureGame for RushFixtures {
    fn name(&self) -> &'static str {
        "rush"
    }

    fn readers<'a>(&'a self, _: &'a Truth) -> Vec<(&'static str, Reader<'a>)> {
        // One game per fixture: it keeps the place of the last steady
        // frame for a flash frame read `after` it. Either player's drawing.
        let game = RushGame::of(None);
        vec![(
            "reader",
            Box::new(move |image: &RgbaImage| {
                let r = game.read_image(image).map_err(|e| e.to_string())?;
                let board = r.state.text().to_string();
                let how = if r.flashing {
                    ", solved, read with the last steady frame"
                } else {
                    ""
                };
                let detail = format!(
                    "{board} (cell {:.1} px at {:.0},{:.0}{how})",
                    r.reading.cell, r.reading.origin.0, r.reading.origin.1
                );
                Ok(Reading { board, detail })
            }),
        )]
    }

    fn normalise(&self, board: &str, _: &Truth) -> Result<String, String> {
        RushState::from_text(board).map_err(|e| format!("bad board {board:?}: {e}"))?;
        Ok(canonical_text(board))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::fixtures::assert_committed_fixtures_read_right;

    /// Every fixture of `fixtures/rush/` reads as its ground truth.
    #[test]
    fn every_fixture_reads_right() {
        let n = assert_committed_fixtures_read_right(&RushFixtures);
        assert!(n >= 8, "only {n} fixtures");
    }

    #[test]
    fn boards_compare_after_renaming_the_pieces() {
        let t = Truth::default();
        assert_eq!(
            RushFixtures.normalise("CCooAAoxDoooDooo", &t),
            Ok("BBooAAoxCoooCooo".into())
        );
        assert!(RushFixtures
            .normalise("AAA", &t)
            .unwrap_err()
            .contains("bad board"));
    }
}
