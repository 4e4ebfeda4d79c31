//! Parsers and readers for command-line values every game's commands share:
//! durations, byte sizes, `ROW,COL` cells, and board arguments given as a
//! file, `-` (standard input) or literal text.

use std::io::Read;
use std::time::Duration;

use anyhow::{bail, Context};

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

/// The text of a board argument: standard input for `-`, the file's
/// contents for a file, otherwise the argument itself (a literal board);
/// a word that looks like a path but names no file is an error.
pub fn read_input(arg: &str) -> anyhow::Result<String> {
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

/// Where a board argument came from, for messages.
pub fn source_name(arg: &str) -> String {
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
