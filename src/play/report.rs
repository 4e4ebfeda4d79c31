//! What a run reports: one [`GameRecord`] per game, a [`Summary`], and their
//! output as a terminal table, JSON or CSV.

use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::measure::mean;

/// How a game ended, as the bot saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// The board was won (verified on the screen).
    Won,
    /// The move limit was reached without a win.
    Lost,
}

/// What the game's own status line said at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StatusResult {
    /// The game says it is won (sgt: `COMPLETED!`).
    Completed,
    /// The game says it is lost (sgt: `FAILED!`).
    Failed,
    /// The game says neither.
    Playing,
    /// The status could not be read off the screen.
    Unread,
}

impl StatusResult {
    /// Lower-case name as in the reports.
    pub fn as_str(self) -> &'static str {
        match self {
            StatusResult::Completed => "completed",
            StatusResult::Failed => "failed",
            StatusResult::Playing => "playing",
            StatusResult::Unread => "unread",
        }
    }
}

/// One game of a run (read back by the merge of a validation split into
/// units).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GameRecord {
    /// 1-based number of the game in the run.
    pub game: usize,
    /// The game ID the game was started with, when the bot started it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The board as first read, compact text.
    pub board: String,
    /// Board width and height.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// The game's move limit, when known (from the ID or the status line).
    pub limit: Option<usize>,
    /// Moves of the game's own solver, when known (with leniency 0 this is the limit).
    pub game_solver_moves: Option<usize>,
    /// Moves played: the game's own count when its status line showed one
    /// (see [`reported_moves`]), else the bot's count.
    pub moves: usize,
    /// Moves the bot counted itself (clicks after which the board changed).
    pub bot_moves: usize,
    /// True when the status line showed a move count different from the
    /// bot's: the game's count is reported, and this flags the difference.
    pub moves_disagree: bool,
    /// The moves, by name.
    pub solution: Vec<String>,
    /// Whether the plan played was proven optimal.
    pub proven_optimal: bool,
    /// What the optimality counts (see [`crate::play::Solving::metric`]),
    /// e.g. `moves` or `jumps`.
    #[serde(skip)]
    pub metric: &'static str,
    /// The solver's lower bound for the first board.
    pub lower_bound: usize,
    /// The outcome as the bot saw it.
    pub result: GameResult,
    /// The outcome as the game's status line says it.
    pub status: StatusResult,
    /// The status text as read.
    pub status_text: Option<String>,
    /// The move count the status line shows, if read.
    pub status_moves: Option<usize>,
    /// Whether the board read at the start equals the game ID's board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board_matches_id: Option<bool>,
    /// Moves after which the screen differed from the prediction.
    pub mismatches: usize,
    /// Times the solver ran (1 when nothing went wrong).
    pub solves: usize,
    /// Solver time over the game, ms.
    pub solve_ms: f64,
    /// The bot's own time per move (capture + read + solve + click), mean, ms.
    pub bot_ms_per_move: f64,
    /// The same without solver time: the steady-state per-move cost, ms.
    pub bot_ms_per_move_excl_solve: f64,
    /// Slowest move, bot time, ms.
    pub bot_ms_max: f64,
    /// The bot's own time over the game, ms.
    pub bot_ms_total: f64,
    /// Wall time from the first capture to the verified win, ms.
    pub wall_ms: f64,
    /// Mean time of the capture a move is verified on, ms.
    pub capture_ms: f64,
    /// Mean time to read the board off that capture, ms.
    pub read_ms: f64,
    /// Mean time to click, ms.
    pub click_ms: f64,
    /// The bot's own time for each move, ms (JSON only).
    pub move_ms: Vec<f64>,
}

/// The move count a record reports and whether the two counts disagree:
/// the game's own count (`status`, read off its status line) wins over the
/// bot's whenever it was read, because the game is what the user sees.
pub fn reported_moves(bot: usize, status: Option<usize>) -> (usize, bool) {
    match status {
        Some(game) => (game, game != bot),
        None => (bot, false),
    }
}

impl GameRecord {
    /// True when the bot used fewer moves than the game's own solver.
    pub fn beat_game_solver(&self) -> Option<bool> {
        self.game_solver_moves.map(|g| self.moves < g)
    }

    /// True when the bot used no more moves than the limit.
    pub fn within_limit(&self) -> Option<bool> {
        self.limit.map(|l| self.moves <= l)
    }
}

/// Totals over a run.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Games won.
    pub won: usize,
    /// Games whose status line said `COMPLETED!`.
    pub status_completed: usize,
    /// Games whose status line was read at all (0 for a game without one).
    pub status_read: usize,
    /// Games whose plan was proven optimal.
    pub proven_optimal: usize,
    /// What the optimality counts (the games' [`GameRecord::metric`]).
    #[serde(skip)]
    pub metric: &'static str,
    /// Mean moves of the bot.
    pub mean_moves: f64,
    /// Mean moves of the game's solver, over games where it is known.
    pub mean_game_solver_moves: Option<f64>,
    /// Games where the bot used fewer moves than the game's solver.
    pub beat_game_solver: usize,
    /// Games where the bot used more moves than the game's solver.
    pub worse_than_game_solver: usize,
    /// Mean wall time per game, ms.
    pub mean_wall_ms: f64,
    /// Mean bot time per move (including solving), ms.
    pub mean_bot_ms_per_move: f64,
    /// Mean bot time per move without solving, ms.
    pub mean_bot_ms_per_move_excl_solve: f64,
    /// Mean solver time per game, ms.
    pub mean_solve_ms: f64,
}

impl Summary {
    /// Sums up `records`.
    pub fn of(records: &[GameRecord]) -> Self {
        let known: Vec<&GameRecord> = records
            .iter()
            .filter(|r| r.game_solver_moves.is_some())
            .collect();
        Summary {
            games: records.len(),
            metric: records.first().map_or("moves", |r| r.metric),
            won: records
                .iter()
                .filter(|r| r.result == GameResult::Won)
                .count(),
            status_completed: records
                .iter()
                .filter(|r| r.status == StatusResult::Completed)
                .count(),
            status_read: records
                .iter()
                .filter(|r| r.status != StatusResult::Unread)
                .count(),
            proven_optimal: records.iter().filter(|r| r.proven_optimal).count(),
            mean_moves: mean(records.iter().map(|r| r.moves as f64)),
            mean_game_solver_moves: (!known.is_empty()).then(|| {
                mean(
                    known
                        .iter()
                        .map(|r| r.game_solver_moves.unwrap_or(0) as f64),
                )
            }),
            beat_game_solver: records
                .iter()
                .filter(|r| r.beat_game_solver() == Some(true))
                .count(),
            worse_than_game_solver: known
                .iter()
                .filter(|r| Some(r.moves) > r.game_solver_moves)
                .count(),
            mean_wall_ms: mean(records.iter().map(|r| r.wall_ms)),
            mean_bot_ms_per_move: mean(records.iter().map(|r| r.bot_ms_per_move)),
            mean_bot_ms_per_move_excl_solve: mean(
                records.iter().map(|r| r.bot_ms_per_move_excl_solve),
            ),
            mean_solve_ms: mean(records.iter().map(|r| r.solve_ms)),
        }
    }

    /// The summary as terminal lines.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let status = if self.status_read > 0 {
            format!(" (status line COMPLETED! on {})", self.status_completed)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "won {}/{} games{status}; plans proven optimal in {}: {}/{}",
            self.won, self.games, self.metric, self.proven_optimal, self.games
        );
        match self.mean_game_solver_moves {
            Some(g) => {
                let _ = writeln!(
                    out,
                    "mean moves: gridbot {:.2} vs game's solver {:.2}; beat the game's solver on {} games, worse on {}",
                    self.mean_moves, g, self.beat_game_solver, self.worse_than_game_solver
                );
            }
            None => {
                let _ = writeln!(out, "mean moves: {:.2}", self.mean_moves);
            }
        }
        let _ = writeln!(
            out,
            "time: {:.0} ms wall per game; bot {:.1} ms per move ({:.1} ms without solving); solver {:.0} ms per game",
            self.mean_wall_ms, self.mean_bot_ms_per_move, self.mean_bot_ms_per_move_excl_solve, self.mean_solve_ms
        );
        out
    }
}

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map_or_else(|| "-".to_string(), T::to_string)
}

/// The header of the terminal table.
pub fn table_header() -> String {
    format!(
        "{:>4} {:>7} {:>5} {:>5} {:>6} {:>9} {:>6} {:>10} {:>8} {:>8}",
        "game",
        "size",
        "limit",
        "moves",
        "beat",
        "optimal",
        "result",
        "status",
        "ms/move",
        "wall ms"
    )
}

/// One line of the terminal table.
pub fn table_row(r: &GameRecord) -> String {
    format!(
        "{:>4} {:>7} {:>5} {:>5} {:>6} {:>9} {:>6} {:>10} {:>8.1} {:>8.0}",
        r.game,
        format!("{}x{}", r.width, r.height),
        opt(&r.limit),
        r.moves,
        opt(&r.beat_game_solver().map(|b| if b { "yes" } else { "no" })),
        if r.proven_optimal {
            "proven"
        } else {
            "unproven"
        },
        match r.result {
            GameResult::Won => "won",
            GameResult::Lost => "lost",
        },
        r.status.as_str(),
        r.bot_ms_per_move,
        r.wall_ms
    )
}

const CSV_COLUMNS: &[&str] = &[
    "game",
    "id",
    "width",
    "height",
    "board",
    "limit",
    "game_solver_moves",
    "moves",
    "bot_moves",
    "moves_disagree",
    "beat_game_solver",
    "proven_optimal",
    "lower_bound",
    "result",
    "status",
    "status_text",
    "status_moves",
    "board_matches_id",
    "mismatches",
    "solves",
    "solve_ms",
    "bot_ms_per_move",
    "bot_ms_per_move_excl_solve",
    "bot_ms_max",
    "bot_ms_total",
    "wall_ms",
    "capture_ms",
    "read_ms",
    "click_ms",
    "solution",
];

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The records as CSV text with a header line.
pub fn to_csv(records: &[GameRecord]) -> String {
    let mut out = CSV_COLUMNS.join(",");
    out.push('\n');
    for r in records {
        let fields = [
            r.game.to_string(),
            r.id.clone().unwrap_or_default(),
            r.width.to_string(),
            r.height.to_string(),
            r.board.clone(),
            r.limit.map(|v| v.to_string()).unwrap_or_default(),
            r.game_solver_moves
                .map(|v| v.to_string())
                .unwrap_or_default(),
            r.moves.to_string(),
            r.bot_moves.to_string(),
            r.moves_disagree.to_string(),
            r.beat_game_solver()
                .map(|v| v.to_string())
                .unwrap_or_default(),
            r.proven_optimal.to_string(),
            r.lower_bound.to_string(),
            match r.result {
                GameResult::Won => "won".into(),
                GameResult::Lost => "lost".into(),
            },
            r.status.as_str().to_string(),
            r.status_text.clone().unwrap_or_default(),
            r.status_moves.map(|v| v.to_string()).unwrap_or_default(),
            r.board_matches_id
                .map(|v| v.to_string())
                .unwrap_or_default(),
            r.mismatches.to_string(),
            r.solves.to_string(),
            format!("{:.3}", r.solve_ms),
            format!("{:.3}", r.bot_ms_per_move),
            format!("{:.3}", r.bot_ms_per_move_excl_solve),
            format!("{:.3}", r.bot_ms_max),
            format!("{:.3}", r.bot_ms_total),
            format!("{:.1}", r.wall_ms),
            format!("{:.3}", r.capture_ms),
            format!("{:.3}", r.read_ms),
            format!("{:.3}", r.click_ms),
            r.solution.join(" "),
        ];
        let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        out.push_str(&line.join(","));
        out.push('\n');
    }
    out
}

/// The records and summary as pretty JSON.
pub fn to_json(records: &[GameRecord]) -> String {
    #[derive(Serialize)]
    struct Report<'a> {
        games: &'a [GameRecord],
        summary: Summary,
    }
    serde_json::to_string_pretty(&Report {
        games: records,
        summary: Summary::of(records),
    })
    .expect("a report always serialises")
}

/// Why a report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The extension is neither `.json` nor `.csv`.
    #[error("report file {0} must end in .json or .csv")]
    Format(String),
    /// The file could not be written.
    #[error("cannot write the report: {0}")]
    Write(#[from] crate::files::FileError),
}

/// Checks that `path` ends in `.json` or `.csv` (before a long run).
pub fn check_report_path(path: &Path) -> Result<(), ReportError> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("json" | "csv") => Ok(()),
        _ => Err(ReportError::Format(path.display().to_string())),
    }
}

/// Writes the records to `path`, as JSON or CSV by its extension.
pub fn write_report(
    path: &Path,
    records: &[GameRecord],
    replace: crate::files::Replace,
) -> Result<(), ReportError> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let text = match ext.as_deref() {
        Some("json") => to_json(records),
        Some("csv") => to_csv(records),
        _ => return Err(ReportError::Format(path.display().to_string())),
    };
    Ok(crate::files::write_all(path, text.as_bytes(), replace)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(game: usize, moves: usize, solver: Option<usize>) -> GameRecord {
        GameRecord {
            metric: "moves",
            game,
            id: Some("3x1:012,2".into()),
            board: "012".into(),
            width: 3,
            height: 1,
            limit: solver,
            game_solver_moves: solver,
            moves,
            bot_moves: moves,
            moves_disagree: false,
            solution: vec!["yellow".into(), "green".into()],
            proven_optimal: true,
            lower_bound: moves,
            result: GameResult::Won,
            status: StatusResult::Completed,
            status_text: Some("COMPLETED! 2 / 2 moves".into()),
            status_moves: Some(2),
            board_matches_id: Some(true),
            mismatches: 0,
            solves: 1,
            solve_ms: 1.0,
            bot_ms_per_move: 10.0,
            bot_ms_per_move_excl_solve: 9.0,
            bot_ms_max: 12.0,
            bot_ms_total: 20.0,
            wall_ms: 300.0,
            capture_ms: 1.0,
            read_ms: 5.0,
            click_ms: 1.0,
            move_ms: vec![9.0, 11.0],
        }
    }

    #[test]
    fn the_game_count_wins_and_a_disagreement_is_flagged() {
        assert_eq!(reported_moves(22, Some(23)), (23, true));
        assert_eq!(reported_moves(20, Some(20)), (20, false));
        assert_eq!(reported_moves(20, None), (20, false));
    }

    #[test]
    fn summary_counts_wins_and_beats() {
        let records = vec![
            record(1, 2, Some(3)),
            record(2, 3, Some(3)),
            record(3, 5, Some(4)),
        ];
        let s = Summary::of(&records);
        assert_eq!(
            (s.games, s.won, s.beat_game_solver, s.worse_than_game_solver),
            (3, 3, 1, 1)
        );
        assert!((s.mean_moves - 10.0 / 3.0).abs() < 1e-9);
        assert_eq!(s.mean_game_solver_moves, Some(10.0 / 3.0));
        assert!(s.to_text().contains("beat the game's solver on 1 games"));
        assert!(s.to_text().contains("(status line COMPLETED! on"));
        // A game without a status line: no claim about one.
        let unread: Vec<GameRecord> = records
            .into_iter()
            .map(|mut r| {
                r.status = StatusResult::Unread;
                r
            })
            .collect();
        let text = Summary::of(&unread).to_text();
        assert!(text.starts_with("won 3/3 games; plans"), "{text}");
    }

    #[test]
    fn csv_has_header_and_quotes() {
        let mut r = record(1, 2, None);
        r.status_text = Some("COMPLETED! 2 / 2, \"moves\"".into());
        let csv = to_csv(&[r]);
        let mut lines = csv.lines();
        assert_eq!(lines.next().unwrap().split(',').count(), CSV_COLUMNS.len());
        let row = lines.next().unwrap();
        assert!(row.contains("\"COMPLETED! 2 / 2, \"\"moves\"\"\""), "{row}");
        assert!(row.ends_with("yellow green"), "{row}");
    }

    #[test]
    fn json_has_games_and_summary() {
        let json: serde_json::Value =
            serde_json::from_str(&to_json(&[record(1, 2, Some(2))])).unwrap();
        assert_eq!(json["games"][0]["moves"], 2);
        assert_eq!(json["games"][0]["status"], "completed");
        assert_eq!(json["summary"]["won"], 1);
    }

    #[test]
    fn report_extension_is_checked() {
        assert!(check_report_path(Path::new("r.CSV")).is_ok());
        assert!(check_report_path(Path::new("r")).is_err());
        let err =
            write_report(Path::new("/tmp/x.txt"), &[], crate::files::Replace::Refuse).unwrap_err();
        assert!(err.to_string().contains(".json or .csv"));
    }
}
