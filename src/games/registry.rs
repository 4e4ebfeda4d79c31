//! The one place that maps game names to game modules, and the contract a
//! game's command line fulfils.
//!
//! `gridbot VERB GAME ...`: for each [`Verb`], the command line offers a
//! subcommand per game whose [`GameCli::command`] returns one. A game lists
//! itself by one line in [`all`]; everything else about it lives in its own
//! folder under `src/games/`.

use std::process::ExitCode;

use clap::{ArgMatches, Args, Command, FromArgMatches};

/// What a user can ask of a game on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verb {
    /// Solve a position given as text, a file or standard input.
    Solve,
    /// Read a position off a screenshot.
    Read,
    /// Write a calibration file from a screenshot.
    Calibrate,
    /// Play on the current display.
    Play,
    /// Start a virtual display with the game and play it to a win.
    Demo,
    /// Play generated games and compare with the game's own answers.
    Validate,
    /// Benchmark the solver on a file of positions.
    Bench,
    /// Benchmark the reader on screenshots.
    BenchRead,
    /// Benchmark the play loop.
    BenchPlay,
    /// Check or record screenshot fixtures.
    Fixtures,
    /// Analyse a position (reachable states, winning moves, ...).
    Analyse,
    /// Enumerate every position of the game.
    Enumerate,
    /// Generate puzzles.
    Generate,
    /// Build endgame tables.
    Endgame,
}

impl Verb {
    /// Every verb, in the order `gridbot --help` lists them.
    pub const ALL: [Verb; 14] = [
        Verb::Solve,
        Verb::Read,
        Verb::Calibrate,
        Verb::Play,
        Verb::Demo,
        Verb::Validate,
        Verb::Bench,
        Verb::BenchRead,
        Verb::BenchPlay,
        Verb::Fixtures,
        Verb::Analyse,
        Verb::Enumerate,
        Verb::Generate,
        Verb::Endgame,
    ];

    /// The verb as typed (`bench-read` is typed `bench read`).
    pub fn name(self) -> &'static str {
        match self {
            Verb::Solve => "solve",
            Verb::Read => "read",
            Verb::Calibrate => "calibrate",
            Verb::Play => "play",
            Verb::Demo => "demo",
            Verb::Validate => "validate",
            Verb::Bench => "bench",
            Verb::BenchRead => "read",
            Verb::BenchPlay => "play",
            Verb::Fixtures => "fixtures",
            Verb::Analyse => "analyse",
            Verb::Enumerate => "enumerate",
            Verb::Generate => "generate",
            Verb::Endgame => "endgame",
        }
    }

    /// How `gridbot games` and `--help` name the verb.
    pub fn label(self) -> &'static str {
        match self {
            Verb::BenchRead => "bench read",
            Verb::BenchPlay => "bench play",
            v => v.name(),
        }
    }

    /// One line of help.
    pub fn about(self) -> &'static str {
        match self {
            Verb::Solve => "Solve a position given as text, a file or standard input",
            Verb::Read => "Read a position off a screenshot",
            Verb::Calibrate => "Write a calibration file from a screenshot by auto-detection",
            Verb::Play => "Play a game on the current display",
            Verb::Demo => "Start a virtual display with a real game and play it to a win",
            Verb::Validate => "Play generated games and compare with the game's own answers",
            Verb::Bench => {
                "Measure speed and memory of a game's solver (or: bench read, bench play)"
            }
            Verb::BenchRead => "Read every screenshot of a folder and report time per image",
            Verb::BenchPlay => {
                "Play games on a virtual display and report the bot's own time per move"
            }
            Verb::Fixtures => "Check or record screenshot fixtures",
            Verb::Analyse => "Analyse a position: reachable states, winning moves, critical cells",
            Verb::Enumerate => "Enumerate every position of a game",
            Verb::Generate => "Generate puzzles of a chosen difficulty",
            Verb::Endgame => "Build endgame tables by retrograde analysis",
        }
    }
}

/// A game's command line: which verbs it supports, their arguments, and
/// how each runs. The arguments are clap derive structs turned into
/// commands with [`command_for`] and back with [`parse`].
pub trait GameCli: Sync {
    /// The name typed on the command line, e.g. `flood`.
    fn name(&self) -> &'static str;
    /// The game's title, e.g. `Flood-It`.
    fn title(&self) -> &'static str;
    /// One paragraph for `gridbot games`: the rules in brief, what the
    /// solvers guarantee, where the game runs.
    fn about(&self) -> &'static str;
    /// The arguments of `gridbot VERB NAME`, or `None` when the game does
    /// not support the verb.
    fn command(&self, verb: Verb) -> Option<Command>;
    /// Runs `gridbot VERB NAME` with the parsed arguments.
    fn run(&self, verb: Verb, matches: &ArgMatches) -> anyhow::Result<ExitCode>;

    /// The verbs the game supports.
    fn verbs(&self) -> Vec<Verb> {
        Verb::ALL
            .into_iter()
            .filter(|&v| self.command(v).is_some())
            .collect()
    }
}

/// The command `name` with the arguments of the derive struct `A`.
pub fn command_for<A: Args>(name: &'static str, about: &'static str) -> Command {
    A::augment_args(Command::new(name))
        .about(about)
        .long_about(None)
}

/// The derive struct `A` from parsed arguments.
pub fn parse<A: FromArgMatches>(matches: &ArgMatches) -> anyhow::Result<A> {
    Ok(A::from_arg_matches(matches)?)
}

/// Every game gridbot knows, one line each.
pub fn all() -> &'static [&'static dyn GameCli] {
    &[
        &super::flood::cli::Flood,
        &super::fifteen::cli::Fifteen,
        &super::fling::cli::FlingCli,
        &super::gemji::cli::GemjiCli,
        &super::pegs::cli::Pegs,
        &super::rush::cli::Rush,
    ]
}

/// The game called `name`.
pub fn find(name: &str) -> Option<&'static dyn GameCli> {
    all().iter().copied().find(|g| g.name() == name)
}
