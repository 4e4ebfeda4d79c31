//! The one place that maps game names to game modules, and the contract a
//! game's command line fulfils.
//!
//! `gridbot VERB GAME ...`: a game lists its verbs as [`Entry`] values, one
//! line each, and the command line offers `gridbot VERB GAME` for every
//! entry. An entry is built from one clap derive `Args` type and the
//! function that runs it, so the command clap builds and the struct the
//! function reads come from the same definition and cannot drift apart.
//!
//! The verbs several games share are the constants of [`verbs`]; a verb
//! only one game has is a constant in that game's `cli` module (Flood-It's
//! `calibrate`, Rush Hour's `enumerate`, ...). A game lists itself by one
//! line in [`all`]; everything else about it lives in its own folder under
//! `src/games/`.

use std::process::ExitCode;

use clap::{ArgMatches, Args, Command};

/// A verb of the command line: the words typed before the game's name.
#[derive(Debug, Clone, Copy)]
pub struct Verb {
    /// The verb this one is typed after (`bench` for `bench read`), if any.
    pub parent: Option<&'static str>,
    /// The word typed.
    pub name: &'static str,
    /// One line of help.
    pub about: &'static str,
}

impl Verb {
    /// A verb typed directly after `gridbot`.
    pub const fn new(name: &'static str, about: &'static str) -> Verb {
        Verb {
            parent: None,
            name,
            about,
        }
    }

    /// A verb typed after another one (`bench read`).
    pub const fn nested(parent: &'static str, name: &'static str, about: &'static str) -> Verb {
        Verb {
            parent: Some(parent),
            name,
            about,
        }
    }

    /// How `gridbot games` and `--help` name the verb: `solve`, `bench read`.
    pub fn label(&self) -> String {
        match self.parent {
            Some(p) => format!("{p} {}", self.name),
            None => self.name.to_string(),
        }
    }

    /// True if both are typed the same way.
    pub fn same(&self, other: &Verb) -> bool {
        self.parent == other.parent && self.name == other.name
    }
}

/// The verbs that more than one game offers.
pub mod verbs {
    use super::Verb;

    /// Solve a position.
    pub const SOLVE: Verb = Verb::new(
        "solve",
        "Solve a position given as text, a file or standard input",
    );
    /// Read a position off a screenshot.
    pub const READ: Verb = Verb::new("read", "Read a position off a screenshot");
    /// Play on the current display.
    pub const PLAY: Verb = Verb::new("play", "Play a game on the current display");
    /// Start a virtual display with the game and play it to a win.
    pub const DEMO: Verb = Verb::new(
        "demo",
        "Start a virtual display with a real game and play it to a win",
    );
    /// Play generated games and compare with the game's own answers.
    pub const VALIDATE: Verb = Verb::new(
        "validate",
        "Play generated games and compare with the game's own answers",
    );
    /// Benchmark the solver on a file of positions.
    pub const BENCH: Verb = Verb::new(
        "bench",
        "Measure speed and memory of a game's solver (or: bench read, bench play)",
    );
    /// Benchmark the reader on screenshots.
    pub const BENCH_READ: Verb = Verb::nested(
        "bench",
        "read",
        "Read every screenshot of a folder and report time per image",
    );
    /// Check or record screenshot fixtures.
    pub const FIXTURES: Verb = Verb::new("fixtures", "Check or record screenshot fixtures");
    /// Analyse a position.
    pub const ANALYSE: Verb = Verb::new(
        "analyse",
        "Analyse a position: reachable states, winning moves, critical cells",
    );
    /// Generate puzzles.
    pub const GENERATE: Verb = Verb::new("generate", "Generate puzzles of a chosen difficulty");

    /// The shared verbs in the order `gridbot --help` lists them; a game's
    /// own verbs follow.
    pub const ORDER: [Verb; 10] = [
        SOLVE, READ, PLAY, DEMO, VALIDATE, BENCH, BENCH_READ, FIXTURES, ANALYSE, GENERATE,
    ];
}

/// Runs a verb's parsed arguments.
type Runner = Box<dyn Fn(&ArgMatches) -> anyhow::Result<ExitCode>>;

/// One verb of one game: `gridbot VERB GAME ARGS...`.
pub struct Entry {
    verb: Verb,
    about: &'static str,
    augment: fn(Command) -> Command,
    run: Runner,
}

impl Entry {
    /// The verb `verb` with the arguments of the clap derive struct `A`,
    /// run by `run`. `about` is the one line of `gridbot VERB --help` for
    /// this game.
    pub fn new<A, F>(verb: Verb, about: &'static str, run: F) -> Entry
    where
        A: Args + 'static,
        F: Fn(A) -> anyhow::Result<ExitCode> + 'static,
    {
        Entry {
            verb,
            about,
            augment: A::augment_args,
            run: Box::new(move |m| run(A::from_arg_matches(m)?)),
        }
    }

    /// The entry's verb.
    pub fn verb(&self) -> Verb {
        self.verb
    }

    /// The command `gridbot VERB GAME` for the game called `game`.
    pub fn command(&self, game: &'static str) -> Command {
        (self.augment)(Command::new(game))
            .about(self.about)
            .long_about(None)
    }

    /// Runs the entry with the arguments clap matched against
    /// [`Entry::command`].
    pub fn run(&self, matches: &ArgMatches) -> anyhow::Result<ExitCode> {
        (self.run)(matches)
    }
}

/// A game as the command line knows it.
pub struct GameCli {
    /// The name typed on the command line, e.g. `flood`.
    pub name: &'static str,
    /// The game's title, e.g. `Flood-It`.
    pub title: &'static str,
    /// One paragraph for `gridbot games`: the rules in brief, what the
    /// solvers guarantee, where the game runs.
    pub about: &'static str,
    /// The programs the game is played on, one line each: the `--host`
    /// name (where there is a choice) and the program. Empty for the
    /// design tools that play nothing.
    pub hosts: &'static [&'static str],
    /// The game's verbs, in the order `gridbot games` lists them.
    pub entries: fn() -> Vec<Entry>,
}

impl GameCli {
    /// The game's entry for `verb`, if it has one.
    pub fn entry(&self, verb: &Verb) -> Option<Entry> {
        (self.entries)().into_iter().find(|e| e.verb.same(verb))
    }

    /// The verbs the game supports, in its own order.
    pub fn verbs(&self) -> Vec<Verb> {
        (self.entries)().iter().map(Entry::verb).collect()
    }
}

/// Every game gridbot knows, one line each.
pub fn all() -> [&'static GameCli; 8] {
    [
        &super::flood::cli::GAME,
        &super::fifteen::cli::GAME,
        &super::fling::cli::GAME,
        &super::gemji::cli::GAME,
        &super::klotski::cli::GAME,
        &super::pegs::cli::GAME,
        &super::puzzlescript::cli::GAME,
        &super::rush::cli::GAME,
    ]
}

/// The game called `name`.
pub fn find(name: &str) -> Option<&'static GameCli> {
    all().into_iter().find(|g| g.name == name)
}

/// Every verb some game offers, each once: the shared verbs in
/// [`verbs::ORDER`], then the games' own in the order the games list them.
pub fn all_verbs() -> Vec<Verb> {
    let mut out: Vec<Verb> = Vec::new();
    let offered: Vec<Verb> = all().iter().flat_map(|g| g.verbs()).collect();
    for v in verbs::ORDER.iter().chain(&offered) {
        if offered.iter().any(|o| o.same(v)) && !out.iter().any(|o| o.same(v)) {
            out.push(*v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verb_two_games_offer_is_a_shared_verb() {
        for v in all_verbs() {
            let offering: Vec<&str> = all()
                .iter()
                .filter(|g| g.entry(&v).is_some())
                .map(|g| g.name)
                .collect();
            let shared = verbs::ORDER.iter().any(|s| s.same(&v));
            assert!(
                shared || offering.len() == 1,
                "`{}` is offered by {offering:?}: make it a constant of registry::verbs",
                v.label()
            );
        }
    }

    #[test]
    fn names_are_unique_and_nested_verbs_have_their_parent() {
        let games = all();
        for (i, g) in games.iter().enumerate() {
            assert!(games[..i].iter().all(|o| o.name != g.name), "{}", g.name);
            let verbs = g.verbs();
            for (j, v) in verbs.iter().enumerate() {
                assert!(
                    !verbs[..j].iter().any(|o| o.same(v)),
                    "{} {}",
                    g.name,
                    v.label()
                );
            }
        }
        let all = all_verbs();
        for v in &all {
            if let Some(p) = v.parent {
                assert!(
                    all.iter().any(|o| o.parent.is_none() && o.name == p),
                    "{}: no verb `{p}`",
                    v.label()
                );
            }
        }
    }
}
