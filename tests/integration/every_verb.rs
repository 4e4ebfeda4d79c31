//! Every verb of every game runs at least once: one cheap real invocation
//! per `gridbot VERB GAME` on small inputs. The list of verbs and games is
//! the binary's own (`gridbot games --json`), so a verb added to a game
//! without a line here fails [`every_verb_of_every_game_runs`].
//!
//! The play verbs that need a game window or the third-party web games are
//! run by the play tests; their line here names that test, and this file
//! checks that the test exists and types the same verb and game.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

use crate::util::{gridbot, run, stderr, stdout, FloodOnDisplay, TempDir, FLOOD_ID};

/// How a verb of a game is run.
enum How {
    /// `gridbot ARGS...` in a folder holding the files of [`write_inputs`];
    /// `@ROOT` at the start of an argument is the repository's root.
    Run(&'static [&'static str]),
    /// `gridbot ARGS...` on a display showing sgt-flood.
    OnFlood(&'static [&'static str]),
    /// Run by `test` in `source` (a file of the play tests).
    Covered {
        source: &'static str,
        test: &'static str,
    },
}

use How::{Covered, OnFlood, Run};

/// One line per verb of every game: `(verb, game, how)`.
const CASES: &[(&str, &str, How)] = &[
    ("solve", "flood", Run(&["solve", "flood", "012\n120\n201"])),
    (
        "read",
        "flood",
        Run(&["read", "flood", "@ROOT/fixtures/flood/4k-14x14c6.png"]),
    ),
    (
        "calibrate",
        "flood",
        Run(&[
            "calibrate",
            "flood",
            "@ROOT/fixtures/flood/4k-14x14c6.png",
            "-o",
            "flood.toml",
        ]),
    ),
    ("play", "flood", OnFlood(&["play", "flood", "--dry-run"])),
    (
        "demo",
        "flood",
        Run(&["demo", "flood", "--games", "1", "--params", "3x3c3m5"]),
    ),
    (
        "validate",
        "flood",
        Run(&[
            "validate", "flood", "--games", "1", "--params", "3x3c3m5", "--seed", "v",
        ]),
    ),
    (
        "bench",
        "flood",
        Run(&["bench", "flood", "flood.txt", "--threads", "1"]),
    ),
    (
        "solve",
        "puzzlescript",
        Run(&[
            "solve",
            "puzzlescript",
            "@ROOT/fixtures/puzzlescript/push.txt",
        ]),
    ),
    (
        "play",
        "puzzlescript",
        Covered {
            source: include_str!("puzzlescript_play.rs"),
            test: "a_key_pressed_behind_the_bots_back_is_absorbed",
        },
    ),
    (
        "demo",
        "puzzlescript",
        Covered {
            source: include_str!("puzzlescript_play.rs"),
            test: "microban_levels_1_to_3_are_won_in_a_row",
        },
    ),
    (
        "validate",
        "puzzlescript",
        Covered {
            source: include_str!("puzzlescript_play.rs"),
            test: "an_octat_level_with_late_and_cancel_rules_is_validated",
        },
    ),
    (
        "bench",
        "puzzlescript",
        Run(&[
            "bench",
            "puzzlescript",
            "--conformance",
            "@ROOT/fixtures/puzzlescript/sessions.js",
        ]),
    ),
    (
        "bench read",
        "flood",
        Run(&[
            "bench",
            "read",
            "flood",
            "@ROOT/fixtures/flood/4k-14x14c6.png",
            "--runs",
            "1",
        ]),
    ),
    (
        "bench play",
        "flood",
        Run(&[
            "bench", "play", "flood", "--games", "1", "--params", "3x3c3m5", "--seed", "b",
        ]),
    ),
    (
        "fixtures",
        "flood",
        Run(&["fixtures", "flood", "check", "@ROOT/fixtures/flood"]),
    ),
    (
        "solve",
        "fifteen",
        Run(&["solve", "fifteen", "3x3:1,2,3,4,5,6,0,7,8", "--pdb", "none"]),
    ),
    (
        "read",
        "fifteen",
        Run(&["read", "fifteen", "@ROOT/fixtures/fifteen/desktop-2x2.png"]),
    ),
    (
        "play",
        "fifteen",
        Covered {
            source: include_str!("fifteen_play.rs"),
            test: "a_3x3_game_is_won_on_the_desktop",
        },
    ),
    (
        "demo",
        "fifteen",
        Run(&["demo", "fifteen", "--games", "1", "--params", "2x2"]),
    ),
    (
        "validate",
        "fifteen",
        Run(&[
            "validate", "fifteen", "--games", "1", "--params", "2x2", "--seed", "v",
        ]),
    ),
    (
        "bench",
        "fifteen",
        Run(&[
            "bench",
            "fifteen",
            "fifteen.txt",
            "--pdb",
            "none",
            "--threads",
            "1",
        ]),
    ),
    (
        "bench read",
        "fifteen",
        Run(&[
            "bench",
            "read",
            "fifteen",
            "@ROOT/fixtures/fifteen/desktop-2x2.png",
            "--runs",
            "1",
        ]),
    ),
    (
        "fixtures",
        "fifteen",
        Run(&["fixtures", "fifteen", "check", "@ROOT/fixtures/fifteen"]),
    ),
    ("bench", "fling", Run(&["bench", "fling", "fling"])),
    ("analyse", "fling", Run(&["analyse", "fling", FLING_BOARD])),
    (
        "endgame",
        "fling",
        Run(&["endgame", "fling", "--balls", "3", "--out", "tables"]),
    ),
    ("solve", "gemji", Run(&["solve", "gemji", "gemji.txt"])),
    (
        "generate",
        "gemji",
        Run(&[
            "generate", "gemji", "--size", "6x6", "--gems", "6", "--moves", "4..8",
        ]),
    ),
    ("solve", "pegs", Run(&["solve", "pegs", "3x1:PPH"])),
    (
        "play",
        "pegs",
        Covered {
            source: include_str!("pegs_play.rs"),
            test: "an_octagon_is_won_with_play_pegs",
        },
    ),
    (
        "demo",
        "pegs",
        Run(&["demo", "pegs", "--games", "1", "--params", "5x5random"]),
    ),
    (
        "validate",
        "pegs",
        Covered {
            source: include_str!("pegs_play.rs"),
            test: "the_english_cross_is_won_on_the_desktop",
        },
    ),
    ("bench", "pegs", Run(&["bench", "pegs", "pegs.txt"])),
    ("analyse", "pegs", Run(&["analyse", "pegs", "3x1:PPH"])),
    (
        "fixtures",
        "pegs",
        Run(&["fixtures", "pegs", "check", "@ROOT/fixtures/pegs"]),
    ),
    (
        "solve",
        "klotski",
        Run(&["solve", "klotski", "|#*a#|#  #|#..#|"]),
    ),
    (
        "play",
        "klotski",
        Covered {
            source: include_str!("klotski_play.rs"),
            test: "a_puzzle_started_over_behind_the_bots_back_is_won_from_the_start",
        },
    ),
    (
        "demo",
        "klotski",
        Covered {
            source: include_str!("klotski_play.rs"),
            test: "only_18_steps_is_won_on_gnome_klotski_in_18_moves",
        },
    ),
    (
        "validate",
        "klotski",
        Covered {
            source: include_str!("klotski_play.rs"),
            test: "validate_counts_violet_in_its_27_moves",
        },
    ),
    (
        "bench",
        "klotski",
        Run(&[
            "bench",
            "klotski",
            "@ROOT/fixtures/klotski/puzzles.txt",
            "--boards",
            "2",
        ]),
    ),
    (
        "fixtures",
        "klotski",
        Run(&["fixtures", "klotski", "check", "@ROOT/fixtures/klotski"]),
    ),
    (
        "analyse",
        "klotski",
        Run(&[
            "analyse",
            "klotski",
            "@ROOT/fixtures/klotski/puzzles.txt",
            "--puzzle",
            "Daisy",
        ]),
    ),
    ("solve", "rush", Run(&["solve", "rush", RUSH_BOARD])),
    (
        "play",
        "rush",
        Covered {
            source: include_str!("rush_play.rs"),
            test: "a_move_taken_back_behind_the_bots_back_is_replayed",
        },
    ),
    (
        "demo",
        "rush",
        Covered {
            source: include_str!("rush_play.rs"),
            test: "a_20_move_puzzle_is_won_in_the_browser",
        },
    ),
    (
        "validate",
        "rush",
        Covered {
            source: include_str!("rush_enumerate.rs"),
            test: "validate_reports_a_bad_database_before_playing",
        },
    ),
    ("bench", "rush", Run(&["bench", "rush", "rush.txt"])),
    (
        "fixtures",
        "rush",
        Run(&["fixtures", "rush", "check", "@ROOT/fixtures/rush"]),
    ),
    ("analyse", "rush", Run(&["analyse", "rush", RUSH_BOARD])),
    (
        "enumerate",
        "rush",
        Run(&["enumerate", "rush", "--size", "4"]),
    ),
    (
        "generate",
        "rush",
        Run(&[
            "generate", "rush", "--moves", "1..3", "--size", "4", "--seed", "1",
        ]),
    ),
];

/// A Fling! board with three balls and one solution.
const FLING_BOARD: &str = "......./......./..o..../......./......./......./......./.o....o";

/// Fogleman's 51-move Rush Hour puzzle.
const RUSH_BOARD: &str = "BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo";

/// The input files the [`Run`] lines name, written into `dir`.
fn write_inputs(dir: &Path) {
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write("flood.txt", "012\n120\n201\n");
    write("fifteen.txt", "3x3:1,2,3,4,5,6,0,7,8\n");
    write("pegs.txt", "3x1:PPH\n");
    write("rush.txt", &format!("51 {RUSH_BOARD} 4780\n"));
    write(
        "gemji.txt",
        "size 4x4\nboard\nB...\n....\n.WP.\n....\nfinish\n....\n.*..\n....\n..*.\n",
    );
    std::fs::create_dir(dir.join("fling")).unwrap();
    write("fling/level1.txt", &(FLING_BOARD.replace('/', "\n") + "\n"));
}

/// Every `(verb, game)` pair the binary lists.
fn listed() -> BTreeSet<(String, String)> {
    let out = run(gridbot(None).args(["games", "--json"]));
    assert!(out.status.success(), "{}", stderr(&out));
    let games: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let mut pairs = BTreeSet::new();
    for g in games.as_array().unwrap() {
        let name = g["name"].as_str().unwrap();
        for v in g["verbs"].as_array().unwrap() {
            pairs.insert((v.as_str().unwrap().to_string(), name.to_string()));
        }
    }
    pairs
}

/// A message unless `out` is a success with output and no panic.
fn failure(args: &[String], out: &Output) -> Option<String> {
    let ok =
        out.status.success() && !stdout(out).trim().is_empty() && !stderr(out).contains("panicked");
    (!ok).then(|| {
        format!(
            "gridbot {args:?} ({}):\nstdout:\n{}\nstderr:\n{}",
            out.status,
            stdout(out),
            stderr(out)
        )
    })
}

/// Runs one line of [`CASES`]; `None` when it passed.
fn check(verb: &str, game: &str, how: &How, dir: &Path) -> Option<String> {
    let root = env!("CARGO_MANIFEST_DIR");
    let expand = |args: &[&str]| -> Vec<String> {
        args.iter()
            .map(|a| match a.strip_prefix("@ROOT") {
                Some(rest) => format!("{root}{rest}"),
                None => a.to_string(),
            })
            .collect()
    };
    match how {
        Run(args) => {
            let args = expand(args);
            failure(&args, &run(gridbot(None).current_dir(dir).args(&args)))
        }
        OnFlood(args) => {
            let game = FloodOnDisplay::start(FLOOD_ID, false);
            let args = expand(args);
            failure(
                &args,
                &run(gridbot(Some(game.name())).current_dir(dir).args(&args)),
            )
        }
        Covered { source, test } => {
            let words = verb.split(' ').chain([game]);
            // `play_util::Interference` types `gridbot play GAME` itself.
            let typed = words.clone().all(|w| {
                source.contains(&format!("\"{w}\""))
                    || (w == "play" && source.contains("Interference {"))
            });
            (!source.contains(&format!("fn {test}()")) || !typed)
                .then(|| format!("{verb} {game}: no test {test} typing it"))
        }
    }
}

#[test]
fn every_verb_of_every_game_runs() {
    let cases: BTreeSet<(String, String)> = CASES
        .iter()
        .map(|(v, g, _)| (v.to_string(), g.to_string()))
        .collect();
    assert_eq!(cases.len(), CASES.len(), "a verb is listed twice");
    let listed = listed();
    let missing: Vec<_> = listed.difference(&cases).collect();
    let stale: Vec<_> = cases.difference(&listed).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "verbs without a line in CASES: {missing:?}; lines for verbs the binary lacks: {stale:?}"
    );
    let dir = TempDir::new("every-verb");
    write_inputs(dir.path());
    // A few at a time: the play verbs each start a virtual display.
    let next = AtomicUsize::new(0);
    let failures: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    let mut failed = Vec::new();
                    while let Some((verb, game, how)) = CASES.get(next.fetch_add(1, SeqCst)) {
                        failed.extend(check(verb, game, how, dir.path()));
                    }
                    failed
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
