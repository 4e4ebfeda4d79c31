//! `gridbot games`: the games gridbot knows and what each supports.

use std::process::ExitCode;

use crate::games::registry;

/// `gridbot games`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Prints the games, their verbs and their descriptions.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let games = registry::all();
    if args.json {
        let list: Vec<serde_json::Value> = games
            .iter()
            .map(|g| {
                serde_json::json!({
                    "name": g.name,
                    "title": g.title,
                    "verbs": g.verbs().iter().map(|v| v.label()).collect::<Vec<_>>(),
                    "hosts": g.hosts,
                    "about": g.about,
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(ExitCode::SUCCESS);
    }
    for g in games {
        let verbs: Vec<String> = g.verbs().iter().map(|v| v.label()).collect();
        println!("{} ({})", g.name, g.title);
        println!("  commands: {}", verbs.join(", "));
        match g.hosts {
            [] => {}
            [one] => println!("  plays on: {one}"),
            many => {
                println!("  plays on:");
                for h in many {
                    println!("    {h}");
                }
            }
        }
        for line in wrap(g.about, 76) {
            println!("  {line}");
        }
        println!();
    }
    Ok(ExitCode::SUCCESS)
}

/// Splits `text` into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_words_whole() {
        assert_eq!(wrap("a bb ccc dddd", 6), vec!["a bb", "ccc", "dddd"]);
    }
}
