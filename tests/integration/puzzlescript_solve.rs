//! `solve puzzlescript` on the first level of each of the 17 example games
//! of the PuzzleScript editor (`../shared/games/puzzlescript/games`): the
//! deterministic ones breadth-first search finds within a short limit are
//! solved with proven shortest key sequences (pinned lengths), the
//! floating-eyeball game is proven unwinnable, the random games are never
//! called shortest. Skipped with a message when the folder is absent.
//! The level bench: its refusals (a realtime game, bad input) and the
//! portfolio's weighted A* on a level breadth-first search does not
//! finish.

use crate::util::{assert_clean_failure, gridbot, run, shared_games, stderr, stdout, TempDir};

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
    solve_json(&[path.to_str().unwrap(), "--time-limit", limit])
}

/// `solve puzzlescript ARGS... --json`, parsed.
fn solve_json(args: &[&str]) -> serde_json::Value {
    let out = run(gridbot(None)
        .args(["solve", "puzzlescript"])
        .args(args)
        .arg("--json"));
    serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stderr(&out)))
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

/// A test data file.
fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/puzzlescript")
        .join(name)
}

/// `bench puzzlescript DIR --json` with `more` arguments: its report (the
/// run must succeed).
fn bench_json(dir: &TempDir, more: &[&str]) -> serde_json::Value {
    let out = run(gridbot(None)
        .args([
            "bench",
            "puzzlescript",
            dir.path().to_str().unwrap(),
            "--json",
        ])
        .args(more));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

/// The game named `name` in a bench report.
fn game_of(r: &serde_json::Value, name: &str) -> serde_json::Value {
    let games = r["games"].as_array().unwrap();
    games.iter().find(|g| g["game"] == name).unwrap().clone()
}

#[test]
fn the_bench_refuses_a_realtime_game_and_bad_input_by_name() {
    let dir = TempDir::new("ps-bench-bad");
    std::fs::write(dir.join("empty.txt"), "").unwrap();
    std::fs::write(dir.join("binary.txt"), [0u8, 159, 146, 150, 255, 0, 1]).unwrap();
    std::fs::copy(data("realtime.txt"), dir.join("realtime.txt")).unwrap();
    std::fs::copy(data("syntax_error.txt"), dir.join("syntax_error.txt")).unwrap();
    let r = bench_json(&dir, &[]);
    let game = |name: &str| game_of(&r, name);
    assert!(
        game("empty")["refused"].as_str().unwrap().contains("empty"),
        "{r}"
    );
    assert!(
        game("binary")["refused"]
            .as_str()
            .unwrap()
            .contains("UTF-8"),
        "{r}"
    );
    assert!(
        game("syntax_error")["refused"]
            .as_str()
            .unwrap()
            .contains("line 54"),
        "{r}"
    );
    let realtime = game("realtime");
    assert!(
        realtime["summary"]["refused"].as_u64().unwrap() >= 1,
        "{realtime}"
    );
    assert!(
        realtime["levels"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("realtime_interval"),
        "{realtime}"
    );
    assert_eq!(r["all"]["solved"], 0, "{r}");
    assert_eq!(r["refused_games"], 3, "{r}");
    // The text report names them too.
    let out = run(gridbot(None).args([
        "bench",
        "puzzlescript",
        dir.join("realtime.txt").to_str().unwrap(),
    ]));
    assert!(
        stdout(&out).contains("refused realtime level 1: the game sets realtime_interval"),
        "{}",
        stdout(&out)
    );
    // solve says the same as an error.
    for (file, says) in [("empty.txt", "empty"), ("binary.txt", "UTF-8")] {
        let out =
            run(gridbot(None).args(["solve", "puzzlescript", dir.join(file).to_str().unwrap()]));
        assert_clean_failure(&out, says);
    }
    // A reference page that is missing or holds no engine is refused,
    // named, before any level is searched.
    let game = dir.join("realtime.txt");
    for (page, says) in [
        ("empty.txt", "not the PuzzleScript engine"),
        ("none.txt", "none.txt"),
    ] {
        let page = dir.join(page);
        let args = [
            game.to_str().unwrap(),
            "--reference",
            page.to_str().unwrap(),
        ];
        let out = run(gridbot(None).args(["bench", "puzzlescript"]).args(args));
        assert_clean_failure(&out, says);
        assert_eq!(stdout(&out), "", "nothing searched before the refusal");
    }
    // The two modes do not mix, and one is needed.
    let out = run(gridbot(None).args(["bench", "puzzlescript", "--time-limit", "1s"]));
    assert_clean_failure(&out, "--conformance");
    let out = run(gridbot(None).args(["bench", "puzzlescript", "x.txt", "--conformance", "y.js"]));
    assert!(
        stderr(&out).contains("cannot be used with"),
        "{}",
        stderr(&out)
    );
}

/// `solve --check` plays the keys given instead of searching: whether,
/// and after how many keys, they win; success only when they do.
#[test]
fn check_plays_the_keys_given_and_says_whether_they_win() {
    let game = data("win_by_rule.txt");
    let game = game.to_str().unwrap();
    let r = solve_json(&[game, "--check", "rrr"]);
    assert_eq!(r["wins"], true, "{r}");
    assert_eq!(r["won_after"], 3, "{r}");
    let check =
        |keys: &str| run(gridbot(None).args(["solve", "puzzlescript", game, "--check", keys]));
    let longer = check("RRRL");
    assert_eq!(longer.status.code(), Some(0), "{}", stderr(&longer));
    assert!(
        stdout(&longer).contains("wins after 3 of 4 keys"),
        "{}",
        stdout(&longer)
    );
    let short = check("rr");
    assert_eq!(short.status.code(), Some(2), "{}", stderr(&short));
    assert!(
        stdout(&short).contains("does not win"),
        "{}",
        stdout(&short)
    );
    let bad = check("rqr");
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(stderr(&bad).contains("'q' (key 2)"), "{}", stderr(&bad));
    assert!(!stderr(&bad).contains("panicked"), "{}", stderr(&bad));
    // A search option has nothing to do with a check, and is refused.
    let out = run(gridbot(None).args([
        "solve",
        "puzzlescript",
        game,
        "--check",
        "rrr",
        "--search",
        "bfs",
    ]));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cannot be used with"),
        "{}",
        stderr(&out)
    );
}

/// A game without win conditions is searched when a rule of it gives
/// `win` (some real games win only that way), and refused when none does.
#[test]
fn the_bench_searches_a_game_won_by_a_rule_and_refuses_one_never_won() {
    let dir = TempDir::new("ps-bench-win");
    for name in ["win_by_rule.txt", "no_win.txt"] {
        std::fs::copy(data(name), dir.join(name)).unwrap();
    }
    // The time limit counts this thread's CPU time, as the report says.
    let r = bench_json(&dir, &["--clock", "cpu", "--time-limit", "2s"]);
    assert_eq!(r["clock"], "cpu", "{r}");
    let game = |name: &str| game_of(&r, name);
    let won = game("win_by_rule");
    assert_eq!(won["levels"][0]["keys"], "rrr", "{won}");
    assert_eq!(won["levels"][0]["verdict"], "proven_shortest", "{won}");
    let never = game("no_win");
    let why = never["levels"][0]["reason"].as_str().unwrap_or_default();
    assert!(why.contains("no rule that wins"), "{never}");
}

/// `bench puzzlescript GAMES --reference PAGE`: the reference engine
/// plays every solution found under node, from the level's start with the
/// solver's seed, and wins with each (games won by a rule's `win`, with
/// random numbers, with a message, and microban's ten levels).
#[test]
fn the_reference_engine_wins_with_every_solution() {
    let Some(games) = shared_games("puzzlescript/standalone_inlined.txt") else {
        return;
    };
    let dir = TempDir::new("ps-bench-reference");
    for name in ["win_by_rule.txt", "random.txt", "message.txt"] {
        std::fs::copy(data(name), dir.join(name)).unwrap();
    }
    let microban = games.join("puzzlescript/games/microban.txt");
    std::fs::copy(microban, dir.join("microban.txt")).unwrap();
    let page = games.join("puzzlescript/standalone_inlined.txt");
    let page = page.to_str().unwrap();
    let r = bench_json(&dir, &["--max-nodes", "20000", "--reference", page]);
    let solved = r["all"]["solved"].as_u64().unwrap();
    assert!(solved >= 8, "{r}");
    assert_eq!(r["reference"]["solutions"].as_u64(), Some(solved), "{r}");
    assert_eq!(r["reference"]["won"].as_u64(), Some(solved), "{r}");
}

/// A level of limerick that breadth-first search does not finish within
/// the node limit, and weighted A* solves.
const LIMERICK_LEVEL: &str = "2";

#[test]
fn weighted_astar_solves_a_level_breadth_first_search_does_not_finish() {
    let Some(dir) = shared_games("puzzlescript/games/microban.txt") else {
        return;
    };
    let path = dir.join("puzzlescript/games/limerick.txt");
    let solve = |search: &str| {
        solve_json(&[
            path.to_str().unwrap(),
            "--level",
            LIMERICK_LEVEL,
            "--max-nodes",
            "20000",
            "--search",
            search,
        ])
    };
    let bfs = solve("bfs");
    assert!(bfs["keys"].is_null(), "{bfs}");
    // notsnake: breadth-first search does not finish level 1 in 10 s.
    let path = dir.join("puzzlescript/games/notsnake.txt");
    let r = solve_json(&[
        path.to_str().unwrap(),
        "--search",
        "weighted-astar",
        "--time-limit",
        "20s",
    ]);
    assert_eq!(r["search"], "weighted-astar", "{r}");
    assert!(r["length"].as_u64().unwrap() >= 34, "{r}");
    let r = solve("weighted-astar");
    assert_eq!(r["search"], "weighted-astar", "{r}");
    assert!(r["length"].as_u64().is_some(), "{r}");
    // The portfolio's width search (before weighted A*) solves it first;
    // with strides asked for, width search on strides does.
    let r = solve("portfolio");
    assert_eq!(r["search"], "bfws", "{r}");
    let limerick = dir.join("puzzlescript/games/limerick.txt");
    let r = solve_json(&[
        limerick.to_str().unwrap(),
        "--level",
        LIMERICK_LEVEL,
        "--max-nodes",
        "20000",
        "--stride-share",
        "20",
    ]);
    assert_eq!(r["search"], "strides", "{r}");
    assert_eq!(r["proven_shortest"], false, "{r}");
    assert!(r["length"].as_u64().is_some(), "{r}");
}

/// Weighted A* on `levels` of the game at `path` within `max_nodes`: the
/// length and the positions expanded of each solution (unproven).
fn weighted_astar_levels(
    path: &std::path::Path,
    levels: std::ops::RangeInclusive<usize>,
    max_nodes: u64,
) -> Vec<(u64, u64)> {
    let mut got = Vec::new();
    for level in levels {
        let r = solve_json(&[
            path.to_str().unwrap(),
            "--level",
            &level.to_string(),
            "--max-nodes",
            &max_nodes.to_string(),
            "--search",
            "weighted-astar",
        ]);
        assert_eq!(r["search"], "weighted-astar", "level {level}: {r}");
        assert_eq!(r["proven_shortest"], false, "level {level}: {r}");
        got.push((r["length"].as_u64().unwrap(), r["nodes"].as_u64().unwrap()));
    }
    got
}

/// Midas's levels 5 to 8: the win condition (`some Love`) names an object
/// no level starts with, which the rules make when the player meets the
/// target without the crown (the crown would turn her to gold first, a
/// dead position). The estimate follows the rules that make the object
/// and counts the crown's way to the water; before it, it was a constant
/// and weighted A* found none of these within 20 s. Node limits, no time:
/// the search is deterministic, so the node counts are pinned.
#[test]
fn weighted_astar_makes_a_missing_object_through_the_rules() {
    let Some(dir) = shared_games("puzzlescript/games/midas.txt") else {
        return;
    };
    let got = weighted_astar_levels(&dir.join("puzzlescript/games/midas.txt"), 5..=8, 20_000);
    assert_eq!(got, vec![(35, 980), (32, 257), (32, 739), (24, 1920)]);
}

/// Zen puzzle garden: a path through every sand cell, raked as the player
/// walks off it and never stood on again. The walk analysis (walk.rs)
/// cuts the positions where a sand cell can no longer be entered and
/// left; before it, the portfolio found levels 1, 2 and 5 in none of
/// 60 s (level 1: no solution in 469,760 positions). Node limits, no time:
/// the search is deterministic, so the node counts are pinned (levels 3,
/// 4 and 5 took 12,070, 524 and 34,473 before the estimate's distances
/// went around walls, and a met `no` condition stopped counting; levels 2
/// to 5 took 1,903, 12,063, 510 and 35,628 before sand raked across and
/// sand raked along were keyed as one, as twins.rs finds them).
#[test]
fn weighted_astar_rakes_every_zen_garden() {
    let Some(dir) = shared_games("puzzlescript/games/zenpuzzlegarden.txt") else {
        return;
    };
    let path = dir.join("puzzlescript/games/zenpuzzlegarden.txt");
    let got = weighted_astar_levels(&path, 1..=5, 50_000);
    assert_eq!(
        got,
        vec![(39, 42), (48, 536), (63, 1948), (41, 335), (52, 4356)]
    );
}

/// Midas's level 14: weighted A* with weight 10 follows the estimate into
/// positions that lead nowhere (nothing within 60 s); with weight 3 it
/// finds a way in a few thousand positions. The portfolio runs both, one
/// after the other, after breadth-first search; with `--retry-weight`
/// equal to `--weight` it runs one, as before, and finds nothing. Node
/// limits (each search's), no time: the node counts are pinned.
#[test]
fn the_portfolio_retries_weighted_astar_with_a_smaller_weight() {
    let Some(dir) = shared_games("puzzlescript/games/midas.txt") else {
        return;
    };
    let path = dir.join("puzzlescript/games/midas.txt");
    let solve = |extra: &[&str]| {
        let mut args = vec![
            path.to_str().unwrap(),
            "--level",
            "14",
            "--max-nodes",
            "5000",
            // No width search first: the weights alone.
            "--width-share",
            "0",
            "--stride-share",
            "0",
        ];
        args.extend_from_slice(extra);
        solve_json(&args)
    };
    let r = solve(&[]);
    assert_eq!(r["search"], "weighted-astar", "{r}");
    assert_eq!(r["proven_shortest"], false, "{r}");
    // The nodes include the shortcut searches' 1,635, which find nothing
    // shorter.
    assert_eq!(
        (r["length"].as_u64(), r["nodes"].as_u64()),
        (Some(21), Some(16_349)),
        "{r}"
    );
    let one = solve(&["--retry-weight", "10"]);
    assert!(one["keys"].is_null(), "{one}");
    assert_eq!(one["nodes"], 10_000, "{one}");
}
