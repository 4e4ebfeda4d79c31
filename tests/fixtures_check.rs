//! Runs `gridbot fixtures check` on the committed screenshot fixtures (real
//! sgt-flood captures and bad inputs): any wrongly read cell, or a bad input
//! that is not refused with its expected error, fails the test.

use std::process::Command;

#[test]
fn every_fixture_reads_right() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new(env!("CARGO_BIN_EXE_gridbot"))
        .args(["fixtures", "flood", "check"])
        .arg(format!("{root}/fixtures"))
        .output()
        .expect("gridbot runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "fixtures check failed:\n{stdout}\n{stderr}"
    );
    let count = stdout.lines().filter(|l| l.starts_with("flood/")).count();
    assert!(
        count >= 20,
        "expected at least 20 flood fixtures, found {count}:\n{stdout}"
    );
}

#[test]
fn check_fails_on_a_wrong_ground_truth() {
    // Copy one fixture with a ground truth that differs in one cell: the
    // check must notice.
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = std::env::temp_dir().join(format!("gridbot-fixture-fail-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = format!("{root}/fixtures/flood/preset-12x12c6");
    std::fs::copy(format!("{src}.png"), dir.join("x.png")).unwrap();
    let text = std::fs::read_to_string(format!("{src}.toml")).unwrap();
    let expected_line = text.lines().find(|l| l.starts_with("expected")).unwrap();
    let start = expected_line.find(':').unwrap() + 1;
    let mut broken = expected_line.to_string();
    let first = broken.as_bytes()[start];
    let other = if first == b'0' { "1" } else { "0" };
    broken.replace_range(start..start + 1, other);
    std::fs::write(dir.join("x.toml"), text.replace(expected_line, &broken)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gridbot"))
        .args(["fixtures", "flood", "check"])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    std::fs::remove_dir_all(&dir).ok();
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains("143/144") && stdout.contains("FAIL"),
        "{stdout}"
    );
}
