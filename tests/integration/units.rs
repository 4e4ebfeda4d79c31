//! Jobs split into units, run as a user would: `enumerate rush --units
//! A..B --out DIR` in pieces and `gridbot merge DIR` give the database of
//! the local run byte for byte; a merge refuses, naming what is wrong and
//! writing nothing, when a unit is missing, edited, of another job or of
//! another version, when the manifest is gone, and `--units` outside the
//! job is refused.

use std::path::Path;

use crate::util::{assert_clean_failure, assert_success, gridbot, run, stdout, TempDir};

/// `enumerate rush --size SIZE` with `extra` options.
fn enumerate(size: &str, extra: &[&str]) -> std::process::Output {
    run(gridbot(None)
        .args(["enumerate", "rush", "--size", size])
        .args(extra))
}

fn merge(dir: &Path, out: &Path) -> std::process::Output {
    run(gridbot(None).args([
        "merge",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]))
}

/// The summary lines without the wall time.
fn summary(out: &std::process::Output) -> String {
    stdout(out)
        .lines()
        .map(|l| l.split(" wall_s=").next().unwrap().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The done logs of job folder `dir`.
fn done_logs(dir: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "log"))
        .collect()
}

/// Rewrites `key=` in the done marker line of `unit` in the logs of job
/// folder `dir` and seals the line again, as a unit made by another
/// gridbot would read.
fn forge_marker(dir: &Path, unit: usize, key: &str, value: &str) {
    let mut forged = 0;
    for log in done_logs(dir) {
        let text = std::fs::read_to_string(&log).unwrap();
        let mut out = String::new();
        for line in text.lines() {
            if !line.contains(&format!("\tunit={unit}\t")) {
                out.push_str(line);
                out.push('\n');
                continue;
            }
            let (body, _) = line.rsplit_once("\tsealed=").unwrap();
            let body: Vec<String> = body
                .split('\t')
                .map(|f| match f.split_once('=') {
                    Some((k, _)) if k == key => format!("{k}={value}"),
                    _ => f.to_string(),
                })
                .collect();
            let body = body.join("\t");
            let seal = xxhash_rust::xxh3::xxh3_64(body.as_bytes());
            out.push_str(&format!("{body}\tsealed={seal:016x}\n"));
            forged += 1;
        }
        std::fs::write(&log, out).unwrap();
    }
    assert!(forged > 0, "no marker of unit {unit} in {}", dir.display());
}

#[test]
fn units_run_in_pieces_merge_to_the_local_database() {
    let dir = TempDir::new("units-merge");
    let local = dir.join("local.db");
    let whole = enumerate("5", &["--out", local.to_str().unwrap()]);
    assert_success(&whole);
    let job = dir.join("job");
    let job_arg = job.to_str().unwrap();
    // The 178 units of 5x5 in three pieces, out of order, one overlapping.
    for range in ["100..177", "0..49", "40..99"] {
        let part = enumerate("5", &["--units", range, "--out", job_arg]);
        assert_success(&part);
        assert!(stdout(&part).contains("of 178 done"), "{}", stdout(&part));
    }
    let merged = dir.join("merged.db");
    let m = merge(&job, &merged);
    assert_success(&m);
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&local).unwrap(),
        "the merged database differs from the local run's"
    );
    assert_eq!(summary(&m), summary(&whole));
    // Without --out the merge writes the job's own output file.
    assert_success(&run(gridbot(None).args(["merge", job_arg])));
    assert_eq!(
        std::fs::read(job.join("database.txt")).unwrap(),
        std::fs::read(&local).unwrap()
    );
    // The local run's folder merges back to its own file.
    std::fs::remove_file(&local).unwrap();
    let units = dir.join("local.db.units");
    assert_success(&run(gridbot(None).args(["merge", units.to_str().unwrap()])));
    assert_eq!(
        std::fs::read(&local).unwrap(),
        std::fs::read(&merged).unwrap()
    );
    // An existing --out is kept unless --force.
    assert_clean_failure(&merge(&job, &merged), "--force");
}

#[test]
fn a_merge_refuses_missing_edited_foreign_and_other_version_units() {
    let dir = TempDir::new("units-refuse");
    let job = dir.join("job");
    let job_arg = job.to_str().unwrap();
    let out = dir.join("db.txt");
    assert_success(&enumerate(
        "4",
        &["--walls", "1", "--units", "0..5", "--out", job_arg],
    ));
    // Not every unit done: the missing ones are listed, nothing written.
    let m = merge(&job, &out);
    assert_clean_failure(
        &m,
        "6 of 55 units done, nothing merged; missing units 6..54",
    );
    assert!(!out.exists());
    assert_success(&enumerate(
        "4",
        &["--walls", "1", "--units", "6..54", "--out", job_arg],
    ));
    assert_success(&merge(&job, &out));
    let good = std::fs::read(&out).unwrap();
    std::fs::remove_file(&out).unwrap();

    // A line of a unit edited (a MOVES value): named, nothing merged.
    let unit = job.join("unit-00003.txt");
    let text = std::fs::read_to_string(&unit).unwrap();
    let edited = text.replacen("\n1 ", "\n9 ", 1);
    assert_ne!(edited, text, "unit 3 has a 1-move line to edit");
    std::fs::write(&unit, &edited).unwrap();
    assert_clean_failure(
        &merge(&job, &out),
        "unit-00003.txt: its contents do not match the checksum of its done marker, delete it",
    );
    assert!(!out.exists());
    // Resuming refuses it too; deleting it redoes the unit.
    assert_clean_failure(
        &enumerate("4", &["--walls", "1", "--units", "0..54", "--out", job_arg]),
        "unit-00003.txt: damaged unit file",
    );
    std::fs::remove_file(&unit).unwrap();
    assert_success(&enumerate(
        "4",
        &["--walls", "1", "--units", "3..3", "--out", job_arg],
    ));
    assert_success(&merge(&job, &out));
    assert_eq!(std::fs::read(&out).unwrap(), good);
    std::fs::remove_file(&out).unwrap();

    // A unit of another board size, with its marker: named, nothing merged.
    let other = dir.join("other");
    assert_success(&enumerate(
        "5",
        &["--units", "3..3", "--out", other.to_str().unwrap()],
    ));
    std::fs::copy(other.join("unit-00003.txt"), job.join("unit-00003.txt")).unwrap();
    for (i, log) in done_logs(&other).iter().enumerate() {
        std::fs::copy(log, job.join(format!("done-other-{i}.log"))).unwrap();
    }
    assert_clean_failure(
        &merge(&job, &out),
        "unit-00003.txt: made by `gridbot enumerate rush --size 5",
    );
    assert!(!out.exists());
    std::fs::remove_file(job.join("unit-00003.txt")).unwrap();
    assert_success(&enumerate(
        "4",
        &["--walls", "1", "--units", "3..3", "--out", job_arg],
    ));

    // A unit from another version of gridbot.
    forge_marker(&job, 5, "version", "0.0.1");
    assert_clean_failure(
        &merge(&job, &out),
        "unit-00005.txt: made by gridbot 0.0.1, not",
    );
    assert!(!out.exists());

    // A job folder of another command is refused by a run.
    assert_clean_failure(
        &enumerate("5", &["--units", "0..1", "--out", job_arg]),
        "holds units of another job",
    );
    // The manifest gone: no merge, and no run adds units of another size.
    std::fs::remove_file(job.join("job.txt")).unwrap();
    assert_clean_failure(&merge(&job, &out), "not a job folder (no job.txt)");
    assert_clean_failure(
        &enumerate("5", &["--units", "0..1", "--out", job_arg]),
        "not a job folder (no job.txt)",
    );
    assert!(!out.exists());
}

#[test]
fn units_outside_the_job_are_refused() {
    let dir = TempDir::new("units-range");
    let job = dir.join("job");
    let job_arg = job.to_str().unwrap();
    assert_clean_failure(
        &enumerate("4", &["--units", "21..25", "--out", job_arg]),
        "--units 21..25: the job has 21 units, numbered 0..20",
    );
    let reversed = enumerate("4", &["--units", "5..2", "--out", job_arg]);
    assert_eq!(reversed.status.code(), Some(2));
    assert!(crate::util::stderr(&reversed).contains("'5..2' for '--units"));
    // --units needs the job folder.
    let out = run(gridbot(None).args(["enumerate", "rush", "--size", "4", "--units", "0..1"]));
    assert_eq!(out.status.code(), Some(2));
    // A folder that is not a job folder.
    let not_job = dir.join("mine");
    std::fs::create_dir_all(&not_job).unwrap();
    std::fs::write(not_job.join("notes.txt"), "mine").unwrap();
    assert_clean_failure(
        &run(gridbot(None).args(["merge", not_job.to_str().unwrap()])),
        "not a job folder",
    );
    assert_clean_failure(
        &enumerate(
            "4",
            &["--units", "0..1", "--out", not_job.to_str().unwrap()],
        ),
        "not a job folder",
    );
    assert_eq!(
        std::fs::read_to_string(not_job.join("notes.txt")).unwrap(),
        "mine"
    );
    // A file where the job folder should be, and a folder where the
    // database should be: refused before any work, nothing made.
    let file = not_job.join("notes.txt");
    assert_clean_failure(
        &enumerate("4", &["--units", "0..1", "--out", file.to_str().unwrap()]),
        "notes.txt: a regular file, where a folder is needed",
    );
    assert_clean_failure(
        &enumerate("4", &["--out", not_job.to_str().unwrap()]),
        "mine: a directory, but the database must be a regular file",
    );
    assert!(!dir.join("mine.units").exists());
}

#[test]
fn a_bench_in_units_merges_to_the_local_figures() {
    let dir = TempDir::new("units-bench");
    let file = dir.join("rush.txt");
    let board = "BCDDEoBCFoEGBoFAAGHHHIoGooJIKKLLJMMo 4780";
    // Five puzzles, the fourth with a wrong MOVES column.
    let lines: Vec<String> = [51, 51, 51, 50, 51]
        .iter()
        .map(|m| format!("{m} {board}\n"))
        .collect();
    std::fs::write(&file, lines.concat()).unwrap();
    let f = file.to_str().unwrap();
    let local = run(gridbot(None).args(["bench", "rush", f, "--json"]));
    assert_eq!(local.status.code(), Some(1), "the mismatch fails the bench");
    let local: serde_json::Value = serde_json::from_str(&stdout(&local)).unwrap();
    let job = dir.join("job");
    let j = job.to_str().unwrap();
    let bench = |units: &str| {
        run(gridbot(None).args([
            "bench",
            "rush",
            f,
            "--unit-boards",
            "2",
            "--units",
            units,
            "--out",
            j,
        ]))
    };
    assert_success(&bench("0..1"));
    assert_clean_failure(
        &run(gridbot(None).args(["merge", j])),
        "2 of 3 units done, nothing merged; missing units 2",
    );
    assert_clean_failure(&bench("2..3"), "the job has 3 units, numbered 0..2");
    assert_success(&bench("2..2"));
    let merged = run(gridbot(None).args(["merge", j]));
    assert_clean_failure(&merged, "1 puzzle(s) differ from their MOVES column");
    assert!(
        stdout(&merged).contains("line 4: file says 50, found 51"),
        "{}",
        stdout(&merged)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(job.join("report.json")).unwrap()).unwrap();
    for key in [
        "puzzles",
        "proven",
        "total_moves",
        "total_steps",
        "nodes",
        "mismatches",
    ] {
        assert_eq!(report[key], local[key], "{key}");
    }
}

/// Removes the fields `keys` wherever they occur in `v` (the times of a
/// bench report, which a merge cannot reproduce).
fn without(v: &mut serde_json::Value, keys: &[&str]) {
    match v {
        serde_json::Value::Object(m) => {
            m.retain(|k, _| !keys.contains(&k.as_str()));
            m.values_mut().for_each(|x| without(x, keys));
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(|x| without(x, keys)),
        _ => {}
    }
}

/// Runs `bench GAME ARGS...` (`args` = the game, its file and options)
/// locally with `--json`, then as one unit and as units of `per` boards
/// (`units` of them: the last left out first, which the merge names),
/// and checks that both merges write the local report but for the
/// fields `times`. Returns the exit code of the local run and the
/// output of the merge of the split run.
fn bench_split(
    args: &[&str],
    per: usize,
    units: usize,
    times: &[&str],
) -> (Option<i32>, std::process::Output) {
    let dir = TempDir::new(&format!("units-bench-{}", args[0]));
    let bench = |extra: &[&str]| run(gridbot(None).arg("bench").args(args).args(extra));
    let local = bench(&["--json"]);
    let code = local.status.code();
    let mut local: serde_json::Value =
        serde_json::from_str(&stdout(&local)).unwrap_or_else(|e| panic!("{e}: {}", stdout(&local)));
    without(&mut local, times);
    let mut merged = None;
    for (name, per, units) in [("one", usize::MAX / 2, 1), ("split", per, units)] {
        let job = dir.join(name);
        let j = job.to_str().unwrap();
        let per = per.min(1_000_000).to_string();
        let part = |range: &str| bench(&["--unit-boards", &per, "--units", range, "--out", j]);
        if units > 1 {
            assert_success(&part(&format!("0..{}", units - 2)));
            assert_clean_failure(
                &run(gridbot(None).args(["merge", j])),
                &format!(
                    "{} of {units} units done, nothing merged; missing units {}",
                    units - 1,
                    units - 1
                ),
            );
        }
        assert_success(&part(&format!("{}..{}", units - 1, units - 1)));
        let m = run(gridbot(None).args(["merge", j]));
        assert_eq!(
            m.status.success(),
            code == Some(0),
            "{}",
            crate::util::stderr(&m)
        );
        let text = std::fs::read_to_string(job.join("report.json")).unwrap();
        let mut report: serde_json::Value = serde_json::from_str(&text).unwrap();
        without(&mut report, times);
        assert_eq!(
            report, local,
            "{name}: the merged report differs from the local run's"
        );
        merged = Some(m);
    }
    (code, merged.unwrap())
}

#[test]
fn a_klotski_bench_in_units_merges_to_the_local_report() {
    let (code, merged) = bench_split(
        &["klotski", "fixtures/klotski/puzzles.txt", "--boards", "4"],
        3,
        2,
        &["ms", "wall_ms"],
    );
    assert_eq!(code, Some(0));
    // The merge writes the JSON: --json is not an option of a unit.
    let dir = TempDir::new("units-klotski-json");
    assert_clean_failure(
        &run(gridbot(None).args([
            "bench",
            "klotski",
            "fixtures/klotski/puzzles.txt",
            "--json",
            "--units",
            "0..0",
            "--out",
            dir.join("job").to_str().unwrap(),
        ])),
        "--json (the merge writes the report as JSON, report.json)",
    );
    assert!(
        stdout(&merged).contains("puzzles=4 disagreements=0 nodes=98588"),
        "{}",
        stdout(&merged)
    );
}

#[test]
fn a_pegs_bench_in_units_merges_to_the_local_report() {
    let dir = TempDir::new("units-pegs-file");
    let file = dir.join("pegs.txt");
    std::fs::write(&file, "3x1:PPH\n5x1:PHHHP\n3x1:PPH\n5x1:PHHHP\n3x1:PPH\n").unwrap();
    let f = file.to_str().unwrap();
    let times = [
        "cpu_ms",
        "wall_ms",
        "median_ms",
        "max_ms",
        "median_cpu_ms",
        "max_cpu_ms",
        "slowest",
        "cpu_us",
        "wall_us",
        "peak_rss_bytes",
    ];
    let (code, merged) = bench_split(&["pegs", f, "--node-limit", "100000"], 2, 3, &times);
    assert_eq!(code, Some(0));
    assert!(
        stdout(&merged).contains("boards=5 solved=3 lost=2 unproven=0 invalid=0"),
        "{}",
        stdout(&merged)
    );
    // Boards generated anew by each unit cannot be split.
    assert_clean_failure(
        &run(gridbot(None).args([
            "bench",
            "pegs",
            "--generate",
            "3",
            "7x7cross",
            "--units",
            "0..0",
            "--out",
            dir.join("job").to_str().unwrap(),
        ])),
        "--generate makes new boards at every run",
    );
}

#[test]
fn a_fifteen_bench_in_units_merges_to_the_local_report() {
    let dir = TempDir::new("units-fifteen-file");
    let file = dir.join("fifteen.txt");
    let optimal = dir.join("optimal.txt");
    std::fs::write(
        &file,
        "3x3:1,2,3,4,5,6,0,7,8\n3x3:1,2,3,4,5,6,7,0,8\n3x3:1,2,3,4,0,6,7,5,8\n\
         3x3:1,2,3,4,5,6,7,8,0\n3x3:8,6,7,2,5,4,3,0,1\n",
    )
    .unwrap();
    // The fourth length is wrong: the local run and the merge both fail.
    std::fs::write(&optimal, "2\n1\n2\n9\n31\n").unwrap();
    let times = [
        "search_cpu_s",
        "wall_s",
        "median_cpu_ms",
        "max_cpu_ms",
        "median_first_ms",
        "max_first_ms",
        "cpu",
        "first_time",
        "threads",
        "pdb_built",
        "pdb_build_s",
        "pdb_load_s",
        "pdb_bytes",
        "peak_rss_bytes",
    ];
    let args = [
        "fifteen",
        file.to_str().unwrap(),
        "--pdb",
        "none",
        "--optimal",
        optimal.to_str().unwrap(),
    ];
    let (code, merged) = bench_split(&args, 2, 3, &times);
    assert_eq!(code, Some(1));
    let text = stdout(&merged);
    assert!(text.contains("line 4: found 0 expected 9"), "{text}");
    assert!(text.contains("total moves:     36 (24 clicks)"), "{text}");
}

#[test]
fn a_flood_bench_in_units_merges_to_the_local_report() {
    let dir = TempDir::new("units-flood-file");
    let file = dir.join("flood.txt");
    let optimal = dir.join("optimal.txt");
    std::fs::write(
        &file,
        "012120201\n001122001\n012201120\n012012012\n011011222\n",
    )
    .unwrap();
    // The last length is wrong: the local run and the merge both fail.
    std::fs::write(&optimal, "4\n3\n5\n2\n9\n").unwrap();
    let times = [
        "cpu_s",
        "search_cpu_s",
        "wall_s",
        "median_ms",
        "max_ms",
        "threads",
        "peak_rss_bytes",
    ];
    let args = [
        "flood",
        file.to_str().unwrap(),
        "--optimal",
        optimal.to_str().unwrap(),
    ];
    let (code, merged) = bench_split(&args, 2, 3, &times);
    assert_eq!(code, Some(1));
    assert!(
        stdout(&merged).contains("total moves:     16"),
        "{}",
        stdout(&merged)
    );
    assert!(
        crate::util::stderr(&merged).contains("board on line 5: length 2, but --optimal says 9"),
        "{}",
        crate::util::stderr(&merged)
    );
}

#[test]
fn a_fling_bench_in_units_merges_to_the_local_report() {
    let dir = TempDir::new("units-fling-levels");
    let levels = dir.join("fling");
    std::fs::create_dir_all(&levels).unwrap();
    // Two boards of level 1 (benchmarks/fling/level1.txt), twice.
    let two = "Hash: 37154696925872128\n.......\n.......\n..o....\n.......\n.......\n.......\n\
               .......\n.o....o\n----\nHash: 6656\n.......\n..o.oo.\n.......\n.......\n\
               .......\n.......\n.......\n.......\n";
    std::fs::write(levels.join("level1.txt"), two).unwrap();
    std::fs::write(levels.join("level2.txt"), two).unwrap();
    let times = ["wall_seconds", "cpu_seconds", "micros"];
    let (code, merged) = bench_split(&["fling", levels.to_str().unwrap()], 1, 4, &times);
    assert_eq!(code, Some(0));
    assert!(
        stdout(&merged).contains("unique: every board has exactly one solution"),
        "{}",
        stdout(&merged)
    );
    // The random boards' timing is one thread's: refused with --units.
    assert_clean_failure(
        &run(gridbot(None).args([
            "bench",
            "fling",
            levels.to_str().unwrap(),
            "--random",
            "3",
            "--units",
            "0..0",
            "--out",
            dir.join("job").to_str().unwrap(),
        ])),
        "--random times the analysis of random boards on one thread",
    );
}

#[test]
fn validate_fifteen_in_units_plays_each_game_and_merges_them_in_order() {
    if !Path::new("/usr/games/sgt-fifteen").exists() {
        println!("skipped: no /usr/games/sgt-fifteen");
        return;
    }
    if gridbot::display::VirtualDisplay::start(320, 240).is_err() {
        println!("skipped: no Xvfb");
        return;
    }
    let dir = TempDir::new("units-validate-fifteen");
    let job = dir.join("job");
    let j = job.to_str().unwrap();
    let validate = |units: &str| {
        run(gridbot(None).args([
            "validate", "fifteen", "--games", "2", "--seed", "units", "--params", "3x3", "--pdb",
            "none", "--units", units, "--out", j,
        ]))
    };
    assert_success(&validate("1..1"));
    assert_clean_failure(
        &run(gridbot(None).args(["merge", j])),
        "1 of 2 units done, nothing merged; missing units 0",
    );
    assert_success(&validate("0..0"));
    let merged = run(gridbot(None).args(["merge", j]));
    assert_success(&merged);
    assert!(
        stdout(&merged).contains("won 2/2 games"),
        "{}",
        stdout(&merged)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(job.join("report.json")).unwrap()).unwrap();
    let games = report["games"].as_array().unwrap();
    let numbers: Vec<u64> = games.iter().map(|g| g["game"].as_u64().unwrap()).collect();
    assert_eq!(numbers, [1, 2]);
    assert!(games.iter().all(|g| g["result"] == "won"), "{report}");
}
