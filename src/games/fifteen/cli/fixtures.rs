//! Fifteen's screenshot fixtures (`fixtures/fifteen/`, made by
//! `fixtures/fifteen/make-fixtures.py`; see [`crate::cli::fixtures`] for
//! the layout and the truth format): `expected` is the sgt-fifteen game
//! ID the screenshot must read as.

use std::process::ExitCode;

use image::RgbaImage;

use crate::cli::fixtures::{FixtureGame, Reader, Reading, Truth};
use crate::games::fifteen::parse::parse_sgt_id;
use crate::games::fifteen::read::read_board;

/// `gridbot fixtures fifteen`.
pub type Args = crate::cli::fixtures::Args;

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    crate::cli::fixtures::run(&FifteenFixtures, args)
}

/// Fifteen's fixtures.
pub struct FifteenFixtures;

impl FixtureGame for FifteenFixtures {
    fn name(&self) -> &'static str {
        "fifteen"
    }

    fn readers<'a>(&'a self, _: &'a Truth) -> Vec<(&'static str, Reader<'a>)> {
        vec![(
            "reader",
            Box::new(|image: &RgbaImage| {
                read_board(image)
                    .map(|r| {
                        let board = r.board.sgt_id();
                        let detail = format!("{board} (tile {} px at {},{})", r.tile, r.x0, r.y0);
                        Reading { board, detail }
                    })
                    .map_err(|e| e.to_string())
            }),
        )]
    }

    fn normalise(&self, board: &str, _: &Truth) -> Result<String, String> {
        parse_sgt_id(board)
            .map(|b| b.sgt_id())
            .map_err(|e| format!("bad game ID {board:?}: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::fixtures::assert_committed_fixtures_read_right;

    #[test]
    fn every_committed_fixture_reads_right() {
        let n = assert_committed_fixtures_read_right(&FifteenFixtures);
        assert!(n >= 20, "only {n} fixtures");
    }

    #[test]
    fn expected_boards_are_game_ids() {
        let t = Truth::default();
        assert_eq!(
            FifteenFixtures.normalise("2x2:1,2,3,0", &t),
            Ok("2x2:1,2,3,0".into())
        );
        assert!(FifteenFixtures
            .normalise("2x2:1,1,3,0", &t)
            .unwrap_err()
            .contains("bad game ID"));
    }
}
