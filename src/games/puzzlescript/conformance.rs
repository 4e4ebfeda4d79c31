//! Replays the reference engine's recorded sessions (its `testdata.js`:
//! the game's source, the inputs, the final level in the reference's own
//! serialisation, and optionally the level to start from and the random
//! seed) and compares the final level exactly. The file is read as data:
//! the one JavaScript statement around the array is stripped and the array
//! parsed as JSON, nothing is executed.

use std::time::{Duration, Instant};

use crate::measure::thread_cpu;

use serde_json::Value;
use thiserror::Error;

use super::compile::compile;
use super::engine::{Engine, Input};

/// Why the session file could not be read.
#[derive(Debug, Error)]
pub enum SessionsError {
    /// The text holds no `[ ... ]` array.
    #[error("no array of sessions found (expected `var testdata = [ ... ];`)")]
    NoArray,
    /// The array is not valid JSON.
    #[error("the array of sessions is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// An entry has not the expected shape.
    #[error("session {index}: {what}")]
    Shape {
        /// 0-based index of the entry.
        index: usize,
        /// What is wrong.
        what: String,
    },
}

/// One step of a recorded session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// A key.
    Key(Input),
    /// A turn without input.
    Tick,
    /// Undo.
    Undo,
    /// Restart.
    Restart,
}

/// A recorded session.
#[derive(Debug, Clone)]
pub struct Session {
    /// The session's name.
    pub name: String,
    /// The game's source.
    pub source: String,
    /// The inputs played.
    pub steps: Vec<Step>,
    /// The final level in the reference's serialisation.
    pub expected: String,
    /// The level started (messages count).
    pub level: usize,
    /// The random seed, if recorded.
    pub seed: Option<String>,
}

/// Reads the sessions of a `testdata.js`.
pub fn read_sessions(text: &str) -> Result<Vec<Session>, SessionsError> {
    let start = text.find('[').ok_or(SessionsError::NoArray)?;
    let end = text.rfind(']').ok_or(SessionsError::NoArray)?;
    if end < start {
        return Err(SessionsError::NoArray);
    }
    let mut body = text[start..end].trim_end().to_string();
    if body.ends_with(',') {
        body.pop();
    }
    body.push(']');
    let value: Value = serde_json::from_str(&body)?;
    let entries = value.as_array().ok_or(SessionsError::NoArray)?;
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| session(i, e))
        .collect()
}

fn session(index: usize, e: &Value) -> Result<Session, SessionsError> {
    let bad = |what: &str| SessionsError::Shape {
        index,
        what: what.to_string(),
    };
    let name = e
        .get(0)
        .and_then(Value::as_str)
        .ok_or_else(|| bad("no name"))?;
    let d = e
        .get(1)
        .and_then(Value::as_array)
        .ok_or_else(|| bad("no data"))?;
    let source = d
        .first()
        .and_then(Value::as_str)
        .ok_or_else(|| bad("no source"))?;
    let inputs = d
        .get(1)
        .and_then(Value::as_array)
        .ok_or_else(|| bad("no inputs"))?;
    let expected = d
        .get(2)
        .and_then(Value::as_str)
        .ok_or_else(|| bad("no final level"))?;
    let mut steps = Vec::new();
    for s in inputs {
        steps.push(match s {
            Value::String(s) if s == "undo" => Step::Undo,
            Value::String(s) if s == "restart" => Step::Restart,
            Value::String(s) if s == "tick" => Step::Tick,
            Value::Number(n) => Step::Key(
                n.as_i64()
                    .and_then(Input::from_code)
                    .ok_or_else(|| bad("unknown input"))?,
            ),
            _ => return Err(bad("unknown input")),
        });
    }
    let level = match d.get(3) {
        None | Some(Value::Null) => 0,
        Some(Value::Number(n)) => n.as_u64().ok_or_else(|| bad("bad level"))? as usize,
        Some(Value::String(s)) => s.trim().parse().map_err(|_| bad("bad level"))?,
        _ => return Err(bad("bad level")),
    };
    let seed = match d.get(4) {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    Ok(Session {
        name: name.to_string(),
        source: source.to_string(),
        steps,
        expected: expected.to_string(),
        level,
        seed,
    })
}

/// How a session ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The final level is the recorded one.
    Match,
    /// It is not: the first row (0-based) that differs, and both rows.
    Mismatch {
        /// The first differing row.
        row: usize,
        /// The recorded row.
        expected: String,
        /// The row gridbot ended with.
        got: String,
    },
    /// gridbot refused the source (the reason).
    Refused(String),
}

/// The result of replaying one session.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The session's name.
    pub name: String,
    /// How it ended.
    pub outcome: Outcome,
    /// Turns played (again turns included).
    pub turns: usize,
    /// CPU time of compiling the source and loading the level.
    pub compile: Duration,
    /// CPU time of the turns (with undo and restart).
    pub play: Duration,
}

/// Replays a session.
pub fn replay(s: &Session) -> Replay {
    let refused = |why: String| Replay {
        name: s.name.clone(),
        outcome: Outcome::Refused(why),
        turns: 0,
        compile: Duration::ZERO,
        play: Duration::ZERO,
    };
    let c0 = thread_cpu();
    let game = match compile(&s.source) {
        Ok(g) => g,
        Err(e) => return refused(e.to_string()),
    };
    let seed = s.seed.clone().unwrap_or_else(|| "gridbot".into());
    let Some(mut e) = Engine::new(&game, s.level, &seed) else {
        return refused(format!("the game has no level {}", s.level));
    };
    let c1 = thread_cpu();
    let mut turns = 0;
    let settle = |e: &mut Engine, turns: &mut usize| {
        while e.againing && *turns < 1_000_000 {
            e.againing = false;
            e.turn(None);
            *turns += 1;
        }
    };
    settle(&mut e, &mut turns);
    for step in &s.steps {
        match step {
            Step::Key(k) => {
                e.turn(Some(*k));
                turns += 1;
            }
            Step::Tick => {
                e.turn(None);
                turns += 1;
            }
            Step::Undo => e.undo(),
            Step::Restart => e.restart(),
        }
        settle(&mut e, &mut turns);
    }
    let c2 = thread_cpu();
    let got = e.serialize();
    let outcome = if got == s.expected {
        Outcome::Match
    } else {
        let g: Vec<&str> = got.split('\n').collect();
        let x: Vec<&str> = s.expected.split('\n').collect();
        let row = (0..g.len().max(x.len()))
            .find(|&i| g.get(i) != x.get(i))
            .unwrap_or(0);
        Outcome::Mismatch {
            row,
            expected: x.get(row).unwrap_or(&"").to_string(),
            got: g.get(row).unwrap_or(&"").to_string(),
        }
    };
    Replay {
        name: s.name.clone(),
        outcome,
        turns,
        compile: c1.saturating_sub(c0),
        play: c2.saturating_sub(c1),
    }
}

/// Totals of a conformance run.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Sessions replayed.
    pub sessions: usize,
    /// Sessions whose final level matched.
    pub matches: usize,
    /// Sessions that ended elsewhere.
    pub mismatches: usize,
    /// Sessions whose source was refused.
    pub refusals: usize,
    /// Turns played.
    pub turns: usize,
    /// Seconds spent.
    pub seconds: f64,
    /// CPU seconds spent compiling sources and loading levels.
    pub compile_seconds: f64,
    /// CPU seconds spent playing turns.
    pub turn_seconds: f64,
    /// Every replay, in file order.
    pub replays: Vec<Replay>,
}

/// Replays every session; `progress` is told after each.
pub fn run_all(sessions: &[Session], mut progress: impl FnMut(&Replay)) -> Summary {
    let t0 = Instant::now();
    let mut s = Summary {
        sessions: sessions.len(),
        ..Summary::default()
    };
    for session in sessions {
        let r = replay(session);
        match r.outcome {
            Outcome::Match => s.matches += 1,
            Outcome::Mismatch { .. } => s.mismatches += 1,
            Outcome::Refused(_) => s.refusals += 1,
        }
        s.turns += r.turns;
        s.compile_seconds += r.compile.as_secs_f64();
        s.turn_seconds += r.play.as_secs_f64();
        progress(&r);
        s.replays.push(r);
    }
    s.seconds = t0.elapsed().as_secs_f64();
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: &str = r#"var testdata = [
	[
		"push",
		["========\nOBJECTS\n========\n\nBackground\nBlack\n\nTarget\nYELLOW\n\nPlayer\nPINK\n\nCrate\nRED\n\nWall\nBROWN\n\n=======\nLEGEND\n=======\n\n. = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\n\n=========\nSOUNDS\n=========\n\n================\nCOLLISIONLAYERS\n================\n\nBackground\nTarget\nPlayer, Wall, Crate\n\n======\nRULES\n======\n\n[ > Player | Crate ] -> [ > Player | > Crate ]\n\n==============\nWINCONDITIONS\n==============\n\nall crate on target\n\n=======\nLEVELS\n=======\n\n#####\n#P*.#\n#####\n", [3, 3, "undo"], "background wall:0,0,0,0,background player:1,\n0,0,background crate:2,0,0,\nbackground:3,0,0,0,0,\n"]
	],
];
"#;

    #[test]
    fn reads_and_replays_a_session() {
        let s = read_sessions(ONE).unwrap();
        assert_eq!(s.len(), 1);
        assert_eq!(
            s[0].steps,
            vec![Step::Key(Input::Right), Step::Key(Input::Right), Step::Undo]
        );
        let r = replay(&s[0]);
        assert_eq!(r.turns, 2);
        assert!(
            matches!(r.outcome, Outcome::Mismatch { .. } | Outcome::Match),
            "{:?}",
            r.outcome
        );
    }
}
