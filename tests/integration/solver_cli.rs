//! Integration tests of `gridbot solve flood` and `gridbot bench flood`:
//! they run the real binary on boards given in every input form, check the
//! output format, the error messages for malformed input, and run a sample
//! of the shared benchmark sets against their proven optimal lengths.
//!
//! The benchmark data is looked up in `CARGO_MANIFEST_DIR/../shared`, then
//! in `$GRIDBOT_SHARED`; the sample test fails (it does not skip) when
//! neither holds it.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn gridbot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gridbot"))
        .args(args)
        .output()
        .expect("run gridbot")
}

fn gridbot_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gridbot"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gridbot");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp_file(name: &str, content: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("gridbot-solver-{}-{name}", std::process::id()));
    std::fs::write(&p, content).unwrap();
    p
}

/// Parses the `length=… lower_bound=… optimal=…` line.
fn summary(out: &str) -> (usize, usize, String) {
    let line = out
        .lines()
        .find(|l| l.starts_with("length="))
        .expect("summary line");
    let field = |k: &str| {
        line.split_whitespace()
            .find_map(|kv| kv.strip_prefix(&format!("{k}=")).map(str::to_string))
            .unwrap_or_else(|| panic!("no {k} in {line}"))
    };
    (
        field("length").parse().unwrap(),
        field("lower_bound").parse().unwrap(),
        field("optimal"),
    )
}

#[test]
fn solves_rows_and_prints_moves_and_summary() {
    let o = gridbot(&["solve", "flood", "112\n323\n331"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let (len, lb, opt) = summary(&out);
    assert_eq!((len, lb, opt.as_str()), (3, 3, "proven"));
    let moves: Vec<&str> = out.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(moves.len(), 3);
    assert!(moves.iter().all(|m| ["1", "2", "3"].contains(m)));
    assert!(out.contains("nodes=") && out.contains("time_ms="));
}

#[test]
fn solves_a_game_id_from_stdin_and_reports_the_move_limit() {
    let id = "12x12:055535514224240332145231514120031450430011231011225131434344125350102510242100425402300134414411140521343152353334311422305430455442054140344440,23";
    let o = gridbot_stdin(&["solve", "flood", "-"], id);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let (len, lb, opt) = summary(&out);
    assert_eq!(opt, "proven");
    assert_eq!(len, lb);
    assert!(len <= 23);
    assert!(out.contains("move_limit=23"));
}

#[test]
fn solves_a_one_line_board_from_a_file_with_json() {
    let f = temp_file("oneline.txt", "1213\n");
    let o = gridbot(&["solve", "flood", f.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["length"], 2);
    assert_eq!(v["optimal"], "proven");
    assert_eq!(v["moves"].as_array().unwrap().len(), 2);
    std::fs::remove_file(f).ok();
}

#[test]
fn start_cell_and_strategies() {
    // From the centre of "121/232/121" one move of 1 then 2... check it wins
    // in the optimum and that every strategy prints a valid summary.
    for strategy in ["astar", "branch-and-bound", "greedy", "optimise", "beam"] {
        let o = gridbot(&[
            "solve",
            "flood",
            "121\n232\n121",
            "--start",
            "1,1",
            "--strategy",
            strategy,
        ]);
        assert!(o.status.success(), "{strategy}: {}", stderr(&o));
        let (len, lb, _) = summary(&stdout(&o));
        assert!(lb <= 2 && len >= 2, "{strategy}: {}", stdout(&o));
    }
    let o = gridbot(&["solve", "flood", "121\n232\n121", "--start", "1,1"]);
    assert_eq!(summary(&stdout(&o)), (2, 2, "proven".to_string()));
    let o = gridbot(&["solve", "flood", "12\n21", "--start", "5,0"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("outside"), "{}", stderr(&o));
}

#[test]
fn time_limit_returns_an_unproven_answer() {
    // A large random board cannot be proven in 200 ms.
    let mut x: u64 = 7;
    let rows: Vec<String> = (0..40)
        .map(|_| {
            (0..40)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    char::from_digit((x % 12) as u32, 16).unwrap()
                })
                .collect()
        })
        .collect();
    let t = std::time::Instant::now();
    let o = gridbot_stdin(
        &["solve", "flood", "-", "--time-limit", "200ms"],
        &rows.join("\n"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(t.elapsed().as_secs_f64() < 5.0);
    let (len, lb, opt) = summary(&stdout(&o));
    assert_eq!(opt, "unproven");
    assert!(lb < len);
}

#[test]
fn malformed_input_names_line_and_column() {
    let cases = [
        ("123\n12\n", "line 2"),
        ("12\n1?\n", "line 2, column 2"),
        ("12345", "not a square"),
        ("   \n", "empty input"),
        ("0123456789abcdefg\n0123456789abcdefg", "17th colour"),
        ("4x4:0123", "game ID"),
    ];
    for (input, want) in cases {
        let o = gridbot_stdin(&["solve", "flood", "-"], input);
        assert!(!o.status.success(), "{input:?} was accepted");
        let err = stderr(&o);
        assert!(
            err.contains(want),
            "{input:?}: expected {want:?} in {err:?}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// The sample of the shared Flood-It sets the repository carries
/// (`tests/data/flood/`, see `tests/data/README.md`).
fn shared_flood_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/flood")
}

/// Solves the first `n` boards of a shared set and compares with the
/// proven optimal lengths.
fn sample(set: &str, n: usize) {
    let dir = shared_flood_dir();
    let boards = std::fs::read_to_string(dir.join(format!("{set}.txt"))).expect("board file");
    let optimal =
        std::fs::read_to_string(dir.join(format!("{set}.optimal"))).expect("optimal file");
    let boards: Vec<&str> = boards.lines().take(n).collect();
    let optimal: Vec<&str> = optimal.lines().take(n).collect();
    assert_eq!(boards.len(), n);
    let bf = temp_file(&format!("{set}.txt"), &(boards.join("\n") + "\n"));
    let of = temp_file(&format!("{set}.optimal"), &(optimal.join("\n") + "\n"));
    let o = gridbot(&[
        "bench",
        "flood",
        bf.to_str().unwrap(),
        "--optimal",
        of.to_str().unwrap(),
        "--threads",
        "2",
        "--json",
    ]);
    assert!(o.status.success(), "{set}: {}\n{}", stdout(&o), stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let want: usize = optimal
        .iter()
        .map(|l| l.trim().parse::<usize>().unwrap())
        .sum();
    assert_eq!(v["boards"], n);
    assert_eq!(v["total_moves"], want);
    assert_eq!(v["proven_optimal"], n);
    assert_eq!(v["differ_from_optimal"], 0);
    std::fs::remove_file(bf).ok();
    std::fs::remove_file(of).ok();
}

#[test]
fn benchmark_sample_pc19() {
    sample("pc19-14x14c6", 100);
}

#[test]
fn benchmark_sample_b24c4() {
    sample("b24c4", 100);
}

#[test]
fn benchmark_sample_b14c8() {
    sample("b14c8", 50);
}

#[test]
fn bench_fails_when_lengths_differ() {
    let dir = shared_flood_dir();
    let boards = std::fs::read_to_string(dir.join("pc19-14x14c6.txt")).unwrap();
    let bf = temp_file(
        "wrong.txt",
        &(boards.lines().take(3).collect::<Vec<_>>().join("\n") + "\n"),
    );
    let of = temp_file("wrong.optimal", "1\n1\n1\n");
    let o = gridbot(&[
        "bench",
        "flood",
        bf.to_str().unwrap(),
        "--optimal",
        of.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let out = stdout(&o);
    assert!(out.contains("differ from --optimal: 3"), "{out}");
    assert!(stderr(&o).contains("differ"));
    std::fs::remove_file(bf).ok();
    std::fs::remove_file(of).ok();
}

/// `tests/data/flood-centre.txt`: boards over several lines separated by
/// blank lines, flooded from the middle cell, against lengths proven by
/// breadth-first search (see tests/data/README.md).
#[test]
fn bench_multi_line_boards_from_the_centre() {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let boards = data.join("flood-centre.txt");
    let optimal = data.join("flood-centre.optimal");
    let want: usize = std::fs::read_to_string(&optimal)
        .unwrap()
        .lines()
        .map(|l| l.trim().parse::<usize>().unwrap())
        .sum();
    for start in ["centre", "center"] {
        let o = gridbot(&[
            "bench",
            "flood",
            boards.to_str().unwrap(),
            "--start",
            start,
            "--optimal",
            optimal.to_str().unwrap(),
            "--json",
        ]);
        assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["boards"], 8);
        assert_eq!(v["total_moves"], want);
        assert_eq!(v["proven_optimal"], 8);
        assert_eq!(v["differ_from_optimal"], 0);
    }
    // From the top-left corner the same boards need other lengths.
    let o = gridbot(&[
        "bench",
        "flood",
        boards.to_str().unwrap(),
        "--optimal",
        optimal.to_str().unwrap(),
    ]);
    assert!(!o.status.success(), "{}", stdout(&o));
    // An explicit cell outside a board names the board's line.
    let o = gridbot(&["bench", "flood", boards.to_str().unwrap(), "--start", "5,5"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("board on line 1"), "{}", stderr(&o));
    let o = gridbot(&["bench", "flood", boards.to_str().unwrap(), "--start", "x"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("ROW,COL or centre"), "{}", stderr(&o));
}

#[test]
fn bench_errors_name_the_line_of_a_multi_line_set() {
    let bf = temp_file("bad-set.txt", "123\n231\n312\n\n123\n2?1\n312\n");
    let o = gridbot(&["bench", "flood", bf.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("line 6, column 2"), "{err}");
    std::fs::remove_file(bf).ok();
}
