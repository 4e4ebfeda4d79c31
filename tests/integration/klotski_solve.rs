//! `solve klotski --layers DIR`: the search's layers kept in a folder, a
//! run that finds them goes on from the last whole one (here after the
//! last layers are removed, as a killed run leaves them), and a folder of
//! another puzzle is refused.

use crate::util::{assert_clean_failure, assert_success, gridbot, run, stdout, TempDir};

const PUZZLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/klotski/puzzles.txt");

/// `solve klotski --puzzle NAME --layers DIR --json`: its JSON.
fn solve_in(dir: &std::path::Path, name: &str) -> std::process::Output {
    let dir = dir.to_str().unwrap();
    run(gridbot(None).args([
        "solve", "klotski", PUZZLES, "--puzzle", name, "--json", "--layers", dir,
    ]))
}

fn length_and_nodes(out: &std::process::Output) -> (u64, u64) {
    assert_success(out);
    let v: serde_json::Value = serde_json::from_str(stdout(out).trim()).unwrap();
    (v["length"].as_u64().unwrap(), v["nodes"].as_u64().unwrap())
}

#[test]
fn a_search_kept_in_a_folder_resumes_and_refuses_another_puzzle() {
    let tmp = TempDir::new("klotski-layers");
    let dir = tmp.join("daisy");
    let first = length_and_nodes(&solve_in(&dir, "Daisy"));
    assert_eq!(first.0, 28);
    assert!(dir.join("search.txt").is_file());
    assert!(dir.join("layer-00028.bin").is_file());
    // A killed run leaves whole layers only: drop the last ten.
    for d in 19..=28 {
        std::fs::remove_file(dir.join(format!("layer-{d:05}.bin"))).unwrap();
    }
    assert_eq!(length_and_nodes(&solve_in(&dir, "Daisy")), first);
    assert!(dir.join("layer-00028.bin").is_file());
    // Found again at once from the folder's last layer.
    assert_eq!(length_and_nodes(&solve_in(&dir, "Daisy")), first);
    assert_clean_failure(
        &solve_in(&dir, "Violet"),
        "holds the layers of another search",
    );
    let all = run(gridbot(None).args([
        "solve",
        "klotski",
        PUZZLES,
        "--layers",
        dir.to_str().unwrap(),
    ]));
    assert_clean_failure(&all, "--layers keeps one search");
}

/// `solve klotski --search astar`: the minimum breadth-first search
/// proves, with fewer positions from the whole layers a stopped search
/// left, which it does not change; a guessed first limit above the
/// minimum still finds the minimum.
#[test]
fn walks_within_a_limit_prove_the_same_minimum() {
    let tmp = TempDir::new("klotski-astar");
    let dir = tmp.join("violet");
    let astar = |extra: &[&str]| {
        let mut cmd = gridbot(None);
        cmd.args(["solve", "klotski", PUZZLES, "--puzzle", "Violet", "--json"]);
        cmd.args(["--search", "astar"]).args(extra);
        length_and_nodes(&run(&mut cmd))
    };
    let bfs = length_and_nodes(&solve_in(&dir, "Violet"));
    assert_eq!(bfs.0, 27);
    let plain = astar(&[]);
    assert_eq!(plain.0, 27);
    let guessed = astar(&["--from", "40"]);
    assert_eq!(guessed.0, 27);
    // Whole layers 0 to 20 left, as a run stopped at 21 leaves them.
    for d in 21..=27 {
        std::fs::remove_file(dir.join(format!("layer-{d:05}.bin"))).unwrap();
    }
    let resumed = astar(&["--layers", dir.to_str().unwrap()]);
    assert_eq!(resumed.0, 27);
    assert!(!dir.join("layer-00021.bin").exists(), "nothing written");
}
