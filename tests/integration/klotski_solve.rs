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
