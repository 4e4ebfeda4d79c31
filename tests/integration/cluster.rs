//! `gridbot cluster` on a real Slurm cluster: the project's own (`./dev
//! slurm up`, which `./dev test` starts) or any whose `sinfo` answers.
//! Without one the tests that need it print `skipped: ...` and why; the
//! checks that need no cluster (no Slurm installed, a folder of another
//! command, --dry-run) always run.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::util::{assert_clean_failure, assert_success, gridbot, run, stdout, TempDir};

/// Why no cluster can be used, or `None` when `sinfo` answers with a node.
fn no_cluster() -> Option<String> {
    match Command::new("sinfo").args(["-h", "-o", "%D %t"]).output() {
        Err(e) => Some(format!("sinfo could not run ({e}): Slurm is not installed here; `./dev slurm up` starts a local cluster")),
        Ok(o) if !o.status.success() => Some(format!(
            "sinfo failed ({}): no cluster answers (SLURM_CONF={}); `./dev slurm up` and `eval \"$(./dev slurm env)\"` start one",
            String::from_utf8_lossy(&o.stderr).trim(),
            std::env::var("SLURM_CONF").unwrap_or_else(|_| "unset".into())
        )),
        Ok(o) if o.stdout.is_empty() => Some("sinfo lists no node".into()),
        Ok(_) => None,
    }
}

/// Returns early from a test, saying why, when no cluster answers.
macro_rules! need_cluster {
    () => {
        if let Some(why) = no_cluster() {
            println!("skipped: {why}");
            return;
        }
    };
}

/// The job ids of the first submission to `dir`: the arrays and the merge.
fn job_ids(dir: &Path) -> (Vec<String>, String) {
    let text = std::fs::read_to_string(dir.join("slurm/1/jobs.txt")).unwrap();
    let mut arrays = Vec::new();
    let mut merge = String::new();
    for l in text.lines() {
        let w: Vec<&str> = l.split(' ').collect();
        match w[0] {
            "array" => arrays.push(w[1].to_string()),
            "merge" => merge = w[1].to_string(),
            "stage-merge" => {}
            _ => panic!("jobs.txt: {l}"),
        }
    }
    (arrays, merge)
}

/// Waits until job `id` has left the queue.
fn wait_gone(id: &str) {
    let t0 = Instant::now();
    loop {
        let out = Command::new("squeue")
            .args(["-h", "-o", "%i", "-j", id])
            .output()
            .unwrap();
        if !out.status.success() || out.stdout.is_empty() {
            return;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(300),
            "job {id} still queued after 5 min"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// The local 5x5 database, made in `dir`.
fn local_database(dir: &TempDir) -> Vec<u8> {
    let local = dir.join("local.db");
    assert_success(&run(gridbot(None).args([
        "enumerate",
        "rush",
        "--size",
        "5",
        "--out",
        local.to_str().unwrap(),
    ])));
    std::fs::read(local).unwrap()
}

/// `gridbot cluster submit OPTIONS -- gridbot enumerate rush --size 5
/// --out JOB`.
fn submit_rush5(job: &Path, options: &[&str]) -> std::process::Output {
    submit(options, &["enumerate", "rush", "--size", "5"], job)
}

/// `gridbot cluster submit OPTIONS -- gridbot COMMAND --out JOB`.
fn submit(options: &[&str], command: &[&str], job: &Path) -> std::process::Output {
    run(gridbot(None)
        .args(["cluster", "submit"])
        .args(options)
        .args(["--", "gridbot"])
        .args(command)
        .arg("--out")
        .arg(job))
}

#[test]
fn enumerate_rush_through_slurm_in_8_tasks_is_byte_identical() {
    need_cluster!();
    let dir = TempDir::new("cluster-rush");
    let local = local_database(&dir);
    let job = dir.join("job");
    let out = submit_rush5(&job, &["--tasks", "8", "--wait"]);
    assert_success(&out);
    assert!(
        stdout(&out).contains("merged every unit"),
        "{}",
        stdout(&out)
    );
    assert_eq!(std::fs::read(job.join("database.txt")).unwrap(), local);
    // Eight tasks ran, each a range of units.
    let script = std::fs::read_to_string(job.join("slurm/1/array-0.sh")).unwrap();
    assert!(script.contains("#SBATCH --array=0-7\n"), "{script}");
    assert!(script.contains("#SBATCH --open-mode=append"), "{script}");
    let status = run(gridbot(None).args(["cluster", "status", job.to_str().unwrap()]));
    assert_success(&status);
    assert!(
        stdout(&status).contains("178 of 178 units done, 0 running, 0 pending, 0 failed"),
        "{}",
        stdout(&status)
    );
}

#[test]
fn a_cancelled_task_is_named_by_the_merge_and_resumed_alone() {
    need_cluster!();
    let dir = TempDir::new("cluster-resume");
    let local = local_database(&dir);
    let job = dir.join("job");
    let job_arg = job.to_str().unwrap();
    // One task at a time, so that task 5 is still pending when cancelled.
    let submit = submit_rush5(&job, &["--tasks", "8", "--max-parallel", "1"]);
    assert_success(&submit);
    let (arrays, merge_id) = job_ids(&job);
    assert_eq!(arrays.len(), 1);
    let cancel = Command::new("scancel")
        .arg(format!("{}_5", arrays[0]))
        .status()
        .unwrap();
    assert!(cancel.success());
    wait_gone(&merge_id);
    // The merge job refused, naming the units of task 5 (115..137).
    let log = std::fs::read_to_string(job.join("slurm/1/merge.log")).unwrap();
    assert!(
        log.contains("155 of 178 units done, nothing merged; missing units 115..137"),
        "{log}"
    );
    assert!(!job.join("database.txt").exists());
    assert_clean_failure(
        &run(gridbot(None).args(["merge", job_arg])),
        "missing units 115..137",
    );
    let status = run(gridbot(None).args(["cluster", "status", job_arg]));
    assert!(
        stdout(&status).contains("155 of 178 units done, 0 running, 0 pending, 23 failed"),
        "{}",
        stdout(&status)
    );
    // Resume submits those units only, then the merge.
    let resume = run(gridbot(None).args(["cluster", "resume", "--wait", job_arg]));
    assert_success(&resume);
    assert!(
        stdout(&resume).contains("submitted 23 units"),
        "{}",
        stdout(&resume)
    );
    let script = std::fs::read_to_string(job.join("slurm/2/array-0.sh")).unwrap();
    assert!(script.contains("RANGES=(115..115 116..116"), "{script}");
    assert!(script.contains(" 137..137)"), "{script}");
    assert_eq!(std::fs::read(job.join("database.txt")).unwrap(), local);
}

/// The Fling! tables of 2..=`max` balls in `dir`, as bytes.
fn fling_tables(dir: &Path, max: u32) -> Vec<Vec<u8>> {
    (2..=max)
        .flat_map(|k| ["win", "unique"].map(|kind| dir.join(format!("fling-{kind}-{k}.bin"))))
        .map(|p| std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .collect()
}

#[test]
fn endgame_fling_through_slurm_in_stages_gives_the_local_tables() {
    need_cluster!();
    let dir = TempDir::new("cluster-fling");
    let local = dir.join("local");
    // The local build in units of a whole level; the cluster's in units
    // of 2^22 placements (the 6-ball level in 8).
    assert_success(&run(gridbot(None).args([
        "endgame",
        "fling",
        "--balls",
        "6",
        "--out",
        local.to_str().unwrap(),
    ])));
    let job = dir.join("job");
    let command = [
        "endgame",
        "fling",
        "--balls",
        "6",
        "--unit-placements",
        "4194304",
    ];
    let out = submit(&["--wait"], &command, &job);
    assert_success(&out);
    let text = stdout(&out);
    assert!(text.contains("submitted 12 units"), "{text}");
    assert!(text.contains("4 stage merge job(s)"), "{text}");
    assert!(text.contains("merged every unit"), "{text}");
    assert_eq!(fling_tables(&job, 6), fling_tables(&local, 6));
    // Stage 4 (six balls) waited for the merge of stage 3.
    let jobs = std::fs::read_to_string(job.join("slurm/1/jobs.txt")).unwrap();
    let kinds: Vec<&str> = jobs.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "stage-merge").count(),
        4,
        "{jobs}"
    );
    let script = std::fs::read_to_string(job.join("slurm/1/stage-4-array-0.sh")).unwrap();
    assert!(script.contains("#SBATCH --array=0-7\n"), "{script}");
    let log = std::fs::read_to_string(job.join("slurm/1/merge-stage-3.log")).unwrap();
    assert!(log.contains("k= 5 placements="), "{log}");
    // A unit run before its stage's merge says which merge it needs.
    let early = dir.join("early");
    let unit = run(gridbot(None).args([
        "endgame",
        "fling",
        "--balls",
        "4",
        "--units",
        "2..2",
        "--out",
        early.to_str().unwrap(),
    ]));
    assert_clean_failure(&unit, "need the merge of stage 1 first");
}

#[test]
fn validate_flood_through_slurm_plays_each_game_on_a_display_of_its_own() {
    need_cluster!();
    let dir = TempDir::new("cluster-validate");
    let job = dir.join("job");
    let command = [
        "validate", "flood", "--games", "6", "--seed", "cluster", "--params", "6x6c4m0",
    ];
    let out = submit(&["--wait"], &command, &job);
    assert_success(&out);
    assert!(
        stdout(&out).contains("merged every unit"),
        "{}",
        stdout(&out)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(job.join("report.json")).unwrap()).unwrap();
    let games = report["games"].as_array().unwrap();
    let numbers: Vec<u64> = games.iter().map(|g| g["game"].as_u64().unwrap()).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
    assert!(games.iter().all(|g| g["result"] == "won"), "{report}");
    // Every unit started a virtual display of its own (its task's log
    // names it).
    let mut displays = Vec::new();
    for task in 0..6 {
        let log = std::fs::read_to_string(job.join(format!("slurm/1/array-0-{task}.log"))).unwrap();
        let line = log
            .lines()
            .find(|l| l.starts_with("validate: game"))
            .unwrap();
        displays.push(line.rsplit(' ').next().unwrap().to_string());
        assert!(
            line.contains(&format!("games {0}..{0} of 6", task + 1)),
            "{line}"
        );
    }
    assert!(displays.iter().all(|d| d.starts_with(':')), "{displays:?}");
}

#[test]
fn without_slurm_or_with_a_foreign_folder_nothing_is_submitted() {
    let dir = TempDir::new("cluster-errors");
    let job = dir.join("job");
    let job_arg = job.to_str().unwrap();
    // No Slurm tools on PATH: a clear error, nothing merged or written.
    let empty = dir.join("bin");
    std::fs::create_dir_all(&empty).unwrap();
    let out = run(gridbot(None).env("PATH", &empty).args([
        "cluster",
        "submit",
        "--",
        "gridbot",
        "enumerate",
        "rush",
        "--size",
        "4",
        "--out",
        job_arg,
    ]));
    assert_clean_failure(&out, "Slurm's `scontrol` was not found");
    // The dry run prints the scripts and writes nothing.
    let dry = run(gridbot(None).args([
        "cluster",
        "submit",
        "--dry-run",
        "--tasks",
        "3",
        "--partition",
        "debug",
        "--time",
        "10:00",
        "--mem",
        "1G",
        "--",
        "gridbot",
        "enumerate",
        "rush",
        "--size",
        "4",
        "--out",
        dir.join("dry").to_str().unwrap(),
    ]));
    assert_success(&dry);
    let text = stdout(&dry);
    for want in [
        "#SBATCH --array=0-2\n",
        "#SBATCH --partition=debug\n",
        "#SBATCH --time=10:00\n",
        "#SBATCH --mem=1G\n",
        "RANGES=(0..6 7..13 14..20)",
        "#SBATCH --kill-on-invalid-dep=yes",
    ] {
        assert!(text.contains(want), "no {want:?} in\n{text}");
    }
    assert!(!dir.join("dry").exists());
    // A folder of no job, and a command that cannot be split.
    let mine = dir.join("mine");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "x").unwrap();
    assert_clean_failure(
        &run(gridbot(None).args(["cluster", "resume", mine.to_str().unwrap()])),
        "not a job folder",
    );
    assert_clean_failure(
        &run(gridbot(None).args([
            "cluster",
            "submit",
            "--dry-run",
            "--",
            "gridbot",
            "solve",
            "rush",
            "x",
            "--out",
            job_arg,
        ])),
        "cannot be split into units",
    );
    // Units of a validation must each play the same game wherever they run.
    assert_clean_failure(
        &run(gridbot(None).args([
            "cluster",
            "submit",
            "--dry-run",
            "--",
            "gridbot",
            "validate",
            "flood",
            "--games",
            "3",
            "--out",
            job_arg,
        ])),
        "needs --seed",
    );
    assert_clean_failure(
        &run(gridbot(None).args([
            "cluster",
            "submit",
            "--dry-run",
            "--",
            "gridbot",
            "enumerate",
            "rush",
            "--units",
            "0..1",
            "--out",
            job_arg,
        ])),
        "may not have --units",
    );
    let bad_mem = run(gridbot(None).args([
        "cluster",
        "submit",
        "--mem",
        "lots",
        "--",
        "gridbot",
        "enumerate",
        "rush",
        "--out",
        job_arg,
    ]));
    assert_eq!(bad_mem.status.code(), Some(2));
    assert!(!job.exists());
}
