//! `gridbot solve flood BOARD|FILE|-`: solves one board given as text, a
//! file or standard input, and prints the moves and a summary line
//! (`length=N lower_bound=L optimal=proven|unproven nodes=… time_ms=…`),
//! or the same as JSON with `--json`.

use std::io::Read;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use gridbot::games::flood::{parse_board, solve, SolveOptions, Strategy};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The board: a file name, `-` for standard input, or the board text
    /// itself (rows of digits/letters, one square line, or an sgt-flood
    /// game ID such as `12x12:0123...,23`).
    board: String,
    /// Start cell as ROW,COL (0-based; default 0,0, the top-left cell).
    #[arg(long, value_parser = parse_start)]
    start: Option<(usize, usize)>,
    #[command(flatten)]
    search: SearchArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// The search options `solve` and `bench flood` share.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// Search strategy.
    #[arg(long, value_enum, default_value_t = Strategy::Astar)]
    pub strategy: Strategy,
    /// Stop a search after this long (e.g. `1.5`, `500ms`, `2s`, `1m`) and
    /// use the best solution found.
    #[arg(long, value_parser = parse_duration)]
    pub time_limit: Option<Duration>,
    /// Stop a search when its tables hold this much memory (e.g. `512M`, `2G`).
    #[arg(long, value_parser = parse_bytes, default_value = "2G")]
    pub memory_limit: usize,
}

impl SearchArgs {
    /// The solver's options.
    pub fn options(&self) -> SolveOptions {
        SolveOptions {
            strategy: self.strategy,
            time_limit: self.time_limit,
            memory_limit_bytes: self.memory_limit,
        }
    }
}

/// Parses `ROW,COL`.
pub fn parse_start(s: &str) -> Result<(usize, usize), String> {
    let (r, c) = s
        .split_once(',')
        .ok_or_else(|| format!("expected ROW,COL, got {s:?}"))?;
    let r = r.trim().parse().map_err(|_| format!("bad row {r:?}"))?;
    let c = c.trim().parse().map_err(|_| format!("bad column {c:?}"))?;
    Ok((r, c))
}

/// Parses a duration: plain seconds (`1.5`) or with a unit (`ms`, `s`, `m`).
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else {
        (t, 1.0)
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("bad duration {s:?} (try 1.5, 500ms, 2s, 1m)"))?;
    if !(v >= 0.0 && v.is_finite()) {
        return Err(format!("bad duration {s:?}"));
    }
    Ok(Duration::from_secs_f64(v * scale))
}

/// Parses a byte count: plain bytes or with `K`, `M`, `G` (binary, with or
/// without `iB`/`B`).
pub fn parse_bytes(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (num, scale) = match t.chars().last() {
        Some('K' | 'k') => (&t[..t.len() - 1], 1u64 << 10),
        Some('M' | 'm') => (&t[..t.len() - 1], 1 << 20),
        Some('G' | 'g') => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1),
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("bad size {s:?} (try 512M, 2G)"))?;
    if !(v > 0.0 && v.is_finite()) {
        return Err(format!("bad size {s:?}"));
    }
    Ok((v * scale as f64) as usize)
}

fn read_input(arg: &str) -> anyhow::Result<String> {
    if arg == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("reading standard input")?;
        return Ok(s);
    }
    let path = std::path::Path::new(arg);
    if path.is_file() {
        return std::fs::read_to_string(path).with_context(|| format!("reading {arg}"));
    }
    if arg.contains(['/', '.']) && !arg.contains(':') {
        bail!("no such file: {arg}");
    }
    Ok(arg.to_string())
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let text = read_input(&args.board)?;
    let parsed = parse_board(&text)
        .with_context(|| format!("reading the board from {}", source_name(&args.board)))?;
    let mut board = parsed.board.clone();
    if let Some((r, c)) = args.start {
        board = board.try_with_start(r, c)?;
    }
    let sol = solve(&board, &args.search.options())?;
    let symbols: Vec<String> = sol
        .moves
        .iter()
        .map(|&c| parsed.symbol(c).to_string())
        .collect();
    let optimal = if sol.proven_optimal {
        "proven"
    } else {
        "unproven"
    };
    let time_ms = sol.elapsed.as_secs_f64() * 1e3;
    if args.json {
        let v = serde_json::json!({
            "moves": symbols,
            "colours": sol.moves,
            "length": sol.moves.len(),
            "lower_bound": sol.lower_bound,
            "optimal": optimal,
            "nodes": sol.nodes,
            "time_ms": (time_ms * 1000.0).round() / 1000.0,
            "strategy": args.search.strategy,
            "stopped": sol.stopped,
            "move_limit": parsed.move_limit,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!("{}", symbols.join(" "));
        println!(
            "length={} lower_bound={} optimal={} nodes={} time_ms={:.3}",
            sol.moves.len(),
            sol.lower_bound,
            optimal,
            sol.nodes,
            time_ms
        );
        if let Some(limit) = parsed.move_limit {
            println!(
                "move_limit={limit} margin={}",
                limit as i64 - sol.moves.len() as i64
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn source_name(arg: &str) -> String {
    match arg {
        "-" => "standard input".into(),
        a if std::path::Path::new(a).is_file() => a.into(),
        _ => "the command line".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert!(parse_duration("x").is_err());
        assert_eq!(parse_bytes("2G"), Ok(2 << 30));
        assert_eq!(parse_bytes("512MiB"), Ok(512 << 20));
        assert_eq!(parse_bytes("1000"), Ok(1000));
        assert!(parse_bytes("-1").is_err());
        assert_eq!(parse_start("3, 4"), Ok((3, 4)));
        assert!(parse_start("3").is_err());
    }
}
