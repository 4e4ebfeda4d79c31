//! PuzzleScript: the open description language of puzzle games. This
//! folder reads a game's source ([`parse`]), compiles its rules
//! ([`rules`], [`compile`], [`marks`]), and runs its turns exactly as the reference
//! JavaScript engine does ([`engine`]), so that recorded sessions of the
//! reference replay to the same final level ([`conformance`]). It solves
//! levels ([`solve`], with what the rules can still make from [`reach`],
//! distances around walls from [`ways`], and without the objects that
//! only decorate from [`relevance`]) and plays
//! them on the reference's own page in Chromium ([`page`], [`read`],
//! [`play`], [`cli_play`]).

pub mod bench;
pub mod bits;
pub mod cli;
pub mod cli_play;
pub mod compile;
pub mod conformance;
pub mod engine;
pub mod error;
pub mod ground;
pub mod marks;
pub mod matching;
pub mod page;
pub mod palette;
pub mod parse;
pub mod play;
pub mod reach;
pub mod read;
pub mod reference;
pub mod relevance;
pub mod rng;
pub mod rules;
pub mod sinks;
pub mod solve;
pub mod stranded;
pub mod sweep;
pub mod twins;
pub mod walk;
pub mod ways;
