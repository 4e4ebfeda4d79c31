//! The errors of reading and compiling a PuzzleScript source: each names the
//! line it was found on (1-based, as the reference engine's editor counts),
//! or says that the source uses a feature gridbot refuses.

use thiserror::Error;

/// Why a source could not be turned into a playable game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PsError {
    /// The source breaks the language: the reference engine rejects it too.
    #[error("line {line}: {message}")]
    Syntax {
        /// The 1-based line of the source.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The source as a whole lacks something (a player, a background, a
    /// section).
    #[error("{0}")]
    Missing(String),
    /// A feature gridbot does not support, named.
    #[error("line {line}: unsupported feature: {feature}")]
    Unsupported {
        /// The 1-based line of the source.
        line: usize,
        /// The feature's name.
        feature: String,
    },
}

impl PsError {
    /// A syntax error on `line`.
    pub fn at(line: usize, message: impl Into<String>) -> PsError {
        PsError::Syntax {
            line,
            message: message.into(),
        }
    }
}
