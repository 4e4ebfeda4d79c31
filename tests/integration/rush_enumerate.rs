//! `gridbot enumerate rush` run as a user would: the database file written
//! with `--out`, in database order and as long as the summary says, the
//! same when the run resumes from its saved units, and a damaged unit
//! reported without touching the database already written; `validate
//! rush --database` reading a database.

use crate::util::{assert_clean_failure, assert_success, gridbot, run, stdout, TempDir};

/// The `puzzles=` and `hardest:` of a summary.
fn puzzles_and_hardest(summary: &str) -> (usize, String) {
    let puzzles = summary
        .split_whitespace()
        .find_map(|w| w.strip_prefix("puzzles="))
        .expect("puzzles= in the summary")
        .parse()
        .expect("a count");
    let hardest = summary
        .lines()
        .find_map(|l| l.strip_prefix("hardest: "))
        .expect("hardest: in the summary")
        .to_string();
    (puzzles, hardest)
}

#[test]
fn the_database_file_is_whole_sorted_and_survives_a_damaged_unit() {
    let dir = TempDir::new("rush-enumerate");
    let db = dir.join("db.txt");
    let db_arg = db.to_str().unwrap();
    let args = [
        "enumerate",
        "rush",
        "--size",
        "4",
        "--walls",
        "1",
        "--out",
        db_arg,
    ];
    let first = run(gridbot(None).args(args));
    assert_success(&first);
    let (puzzles, hardest) = puzzles_and_hardest(&stdout(&first));
    let text = std::fs::read_to_string(&db).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), puzzles);
    assert_eq!(lines[0], hardest);
    // Database order: most moves first, then the board.
    let keys: Vec<(std::cmp::Reverse<u32>, &str)> = lines
        .iter()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            assert_eq!(f.len(), 3, "{l}");
            (std::cmp::Reverse(f[0].parse().unwrap()), f[1])
        })
        .collect();
    assert!(
        keys.windows(2).all(|w| w[0] < w[1]),
        "not in database order"
    );

    // Resumed from the saved units: the same summary and file.
    let again = run(gridbot(None).args(args));
    assert_success(&again);
    assert_eq!(puzzles_and_hardest(&stdout(&again)), (puzzles, hardest));
    assert_eq!(std::fs::read_to_string(&db).unwrap(), text);

    // A damaged unit: a clear error naming it, and the database kept.
    let unit = dir.join("db.txt.units").join("unit-00000.txt");
    std::fs::write(&unit, "# 1 2 3 1\n7 not-a-line\n").unwrap();
    let damaged = run(gridbot(None).args(args));
    assert_clean_failure(&damaged, "unit-00000.txt: damaged unit file");
    assert_eq!(std::fs::read_to_string(&db).unwrap(), text);
}

/// `validate rush --database` picks its puzzles by reading the file a line
/// at a time, so its mistakes are reported before any browser starts: a
/// bad MOVES column names its line, an empty range says how many puzzles
/// the file has, a missing file says so.
#[test]
fn validate_reports_a_bad_database_before_playing() {
    let dir = TempDir::new("rush-validate-db");
    let db = dir.join("db.txt");
    std::fs::write(
        &db,
        "# two puzzles, the second with a broken MOVES column\n\
         20 BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo 4\n\
         2O BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo 4\n",
    )
    .unwrap();
    let db_arg = db.to_str().unwrap();
    let validate = |moves: &str, file: &str| {
        run(gridbot(None).args([
            "validate",
            "rush",
            "--games",
            "1",
            "--moves",
            moves,
            "--database",
            file,
        ]))
    };
    assert_clean_failure(&validate("20", db_arg), "line 3: MOVES is not a number");
    std::fs::write(&db, "20 BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo 4\n").unwrap();
    assert_clean_failure(&validate("30..40", db_arg), "no puzzle of 30..40 moves");
    assert_clean_failure(&validate("30..40", db_arg), "(1 puzzles)");
    let missing = dir.join("missing.txt");
    assert_clean_failure(
        &validate("20", missing.to_str().unwrap()),
        "cannot read the puzzle database",
    );
}
