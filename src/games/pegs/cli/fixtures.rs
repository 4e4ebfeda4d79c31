//! Pegs' screenshot fixtures (`fixtures/pegs/`: sgt-pegs windows, the
//! sgt web build's page and Oliver Merkel's page; see
//! [`crate::cli::fixtures`] for the layout and the truth format):
//! `expected` is the sgt-pegs game ID of the position, compared with the
//! reading after both are trimmed to the rows and columns that hold board
//! cells. A fixture of Oliver Merkel's page says so by its `id`
//! (`omerkel:BOARD:ROW,COL`, the board and vacancy it was made with); its
//! `expected` is the board's name and a letter per cell
//! ([`LatticeBoard::letters`]).

use std::process::ExitCode;

use image::RgbaImage;

use crate::cli::fixtures::{FixtureGame, Reader, Reading, Truth};
use crate::games::pegs::lattice::LatticeBoard;
use crate::games::pegs::omerkel::read_page;
use crate::games::pegs::parse::parse_game;
use crate::games::pegs::read::{read_board, trimmed};

/// `gridbot fixtures pegs`.
pub type Args = crate::cli::fixtures::Args;

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    crate::cli::fixtures::run(&PegsFixtures, args)
}

/// Pegs' fixtures.
pub struct PegsFixtures;

impl FixtureGame for PegsFixtures {
    fn name(&self) -> &'static str {
        "pegs"
    }

    fn readers<'a>(&'a self, truth: &'a Truth) -> Vec<(&'static str, Reader<'a>)> {
        if is_omerkel(truth) {
            return vec![(
                "omerkel",
                Box::new(|image: &RgbaImage| {
                    let r = read_page(image).map_err(|e| e.to_string())?;
                    let board = r.board.letters(r.pegs);
                    let detail = format!(
                        "{board} (step {:.1} px, disc r {:.0} px at {:.0},{:.0})",
                        r.step, r.disc.2, r.disc.0, r.disc.1
                    );
                    Ok(Reading { board, detail })
                }),
            )];
        }
        vec![(
            "reader",
            Box::new(|image: &RgbaImage| {
                let r = read_board(image).map_err(|e| e.to_string())?;
                let board = r.game.id();
                let detail = format!(
                    "{board} (pitch {:.1} px, first cell at {:.0},{:.0})",
                    r.pitch, r.x0, r.y0
                );
                Ok(Reading { board, detail })
            }),
        )]
    }

    fn normalise(&self, board: &str, truth: &Truth) -> Result<String, String> {
        if is_omerkel(truth) {
            let (b, pegs) = LatticeBoard::parse_letters(board)?;
            return Ok(b.letters(pegs));
        }
        let g = parse_game(board).map_err(|e| format!("bad game ID {board:?}: {e}"))?;
        Ok(trimmed(&g).id())
    }
}

/// True when the fixture is of Oliver Merkel's page (its `id` starts
/// with `omerkel:`).
fn is_omerkel(truth: &Truth) -> bool {
    truth
        .id
        .as_deref()
        .is_some_and(|id| id.starts_with("omerkel:"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::fixtures::assert_committed_fixtures_read_right;

    #[test]
    fn every_fixture_reads_as_its_game_or_fails_with_its_message() {
        let n = assert_committed_fixtures_read_right(&PegsFixtures);
        assert!(n >= 12, "only {n} fixtures");
    }

    #[test]
    fn expected_positions_are_trimmed() {
        let t = Truth::default();
        assert_eq!(
            PegsFixtures.normalise("3x3:OOOOPHOOO", &t),
            Ok("2x1:PH".into())
        );
        assert!(PegsFixtures.normalise("3x3:OOQ", &t).is_err());
    }
}
