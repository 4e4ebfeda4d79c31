//! The PuzzleScript commands: `bench puzzlescript --conformance FILE`
//! replays the reference engine's recorded sessions and reports how many
//! end exactly where the reference ended.

use std::io::IsTerminal;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use serde_json::json;

use super::conformance::{read_sessions, run_all, Outcome};
use crate::files::read_text;
use crate::games::registry::{verbs, Entry, GameCli};

/// PuzzleScript in the registry.
pub static GAME: GameCli = GameCli {
    name: "puzzlescript",
    title: "PuzzleScript",
    about: "A family of games: any game written in PuzzleScript, the open description language \
         of puzzle games (objects, legend, collision layers, rewrite rules, win conditions, \
         levels), read from its source and run turn by turn as the reference JavaScript engine \
         runs it (rule groups, ellipses, late rules, movement by collision layer, cancel, \
         again, win, restart, checkpoint, rigid, random with the reference's seeded \
         generator). Conformance is measured by replaying the reference's own recorded \
         sessions.",
    entries,
};

/// PuzzleScript's verbs, one line each.
fn entries() -> Vec<Entry> {
    vec![Entry::new(
        verbs::BENCH,
        "Replay the reference engine's recorded sessions and compare the final levels",
        |a: BenchArgs| run_bench(&a),
    )]
}

/// `gridbot bench puzzlescript --conformance FILE`.
#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// The reference engine's session file (`testdata.js`).
    #[arg(long, value_name = "FILE")]
    pub conformance: String,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Largest session file read (the reference's is about 4 MB).
const MAX_SESSIONS_BYTES: u64 = 256 << 20;

/// Runs `bench puzzlescript --conformance`.
pub fn run_bench(args: &BenchArgs) -> Result<ExitCode> {
    let text = read_text(&args.conformance, MAX_SESSIONS_BYTES)?;
    let sessions = read_sessions(&text).with_context(|| args.conformance.clone())?;
    let bar = if std::io::stderr().is_terminal() && !args.json {
        indicatif::ProgressBar::new(sessions.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let s = run_all(&sessions, |_| bar.inc(1));
    bar.finish_and_clear();
    let turns_per_second = s.turns as f64 / s.seconds.max(1e-9);
    if args.json {
        let cases: Vec<_> = s
            .replays
            .iter()
            .filter(|r| r.outcome != Outcome::Match)
            .map(|r| match &r.outcome {
                Outcome::Mismatch { row, expected, got } => {
                    json!({"name": r.name, "outcome": "mismatch", "row": row, "expected": expected, "got": got})
                }
                Outcome::Refused(why) => json!({"name": r.name, "outcome": "refused", "reason": why}),
                Outcome::Match => json!({"name": r.name, "outcome": "match"}),
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "sessions": s.sessions,
                "matches": s.matches,
                "mismatches": s.mismatches,
                "refusals": s.refusals,
                "turns": s.turns,
                "seconds": s.seconds,
                "turns_per_second": turns_per_second,
                "not_matching": cases,
            }))?
        );
    } else {
        for r in &s.replays {
            match &r.outcome {
                Outcome::Match => {}
                Outcome::Mismatch { row, expected, got } => {
                    println!(
                        "mismatch  {}: row {row}\n  expected {expected}\n  got      {got}",
                        r.name
                    )
                }
                Outcome::Refused(why) => println!("refused   {}: {why}", r.name),
            }
        }
        println!(
            "sessions={} matches={} mismatches={} refusals={} turns={} seconds={:.2} turns_per_second={:.0}",
            s.sessions, s.matches, s.mismatches, s.refusals, s.turns, s.seconds, turns_per_second
        );
        println!("the first differing turn is not known: the sessions record only the final level");
    }
    Ok(if s.matches == s.sessions {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}
