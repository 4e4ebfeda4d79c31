//! `solve puzzlescript` on the first level of each of the 17 example games
//! of the PuzzleScript editor (`../shared/games/puzzlescript/games`): the
//! deterministic ones breadth-first search finds within a short limit are
//! solved with proven shortest key sequences (pinned lengths), the
//! floating-eyeball game is proven unwinnable, the random games are never
//! called shortest. Skipped with a message when the folder is absent.

use crate::util::{gridbot, run, shared_games, stderr, stdout};

/// Games whose first level is solved within the limit, with the proven
/// shortest length.
const SOLVED: &[(&str, usize)] = &[
    ("blockfaker", 26),
    ("byyourside", 9),
    ("constellationz", 5),
    ("kettle", 4),
    ("microban", 33),
    ("midas", 7),
    ("nekopuzzle", 5),
    ("octat", 5),
    ("sokoban_basic", 33),
    ("sokoban_match3", 13),
    ("whaleworld", 34),
];

fn solve(dir: &std::path::Path, game: &str, limit: &str) -> serde_json::Value {
    let path = dir.join(format!("puzzlescript/games/{game}.txt"));
    let out = run(gridbot(None).args([
        "solve",
        "puzzlescript",
        path.to_str().unwrap(),
        "--time-limit",
        limit,
        "--json",
    ]));
    serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{game}: {e}: {}", stderr(&out)))
}

#[test]
fn first_levels_of_the_example_games() {
    let Some(dir) = shared_games("puzzlescript/games/microban.txt") else {
        return;
    };
    for &(game, length) in SOLVED {
        let r = solve(&dir, game, "20s");
        assert_eq!(r["length"].as_u64(), Some(length as u64), "{game}: {r}");
        assert_eq!(r["proven_shortest"], true, "{game}: {r}");
        let keys = r["keys"].as_str().unwrap();
        assert!(keys.chars().all(|c| "udlrx".contains(c)), "{game}: {keys}");
    }
    let eyeball = solve(&dir, "sokoban_eyeball", "20s");
    assert_eq!(eyeball["proven_unsolvable"], true, "{eyeball}");
    for game in ["randomrobots", "randomspawner"] {
        let r = solve(&dir, game, "1s");
        assert_eq!(r["random"], true, "{game}: {r}");
        assert_eq!(r["proven_shortest"], false, "{game}: {r}");
    }
    for game in ["limerick", "notsnake", "zenpuzzlegarden"] {
        let r = solve(&dir, game, "1s");
        assert!(
            r["keys"].is_null() || r["length"].as_u64().is_some(),
            "{game}: {r}"
        );
    }
}
