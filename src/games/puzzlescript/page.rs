//! The reference engine's page for one game.
//!
//! The shared games hold the engine's standalone page template
//! (`puzzlescript/standalone_inlined.txt`, MIT). A playable page is the
//! template with `"__GAMEDAT__"` (quotes included) replaced by the game's
//! source as a JSON string literal and the title, colours and homepage
//! filled in ([`build_page`]); it loads nothing from the network.
//! [`PageFolder`] writes it into a throwaway folder that
//! [`crate::hosts::serve`] serves to Chromium
//! ([`crate::hosts::browser`]).
//!
//! The page has no status line and needs no new-game gesture (a level won
//! moves on by itself), so the loop plays it with the bare host,
//! [`crate::hosts::Bare`].

use std::path::{Path, PathBuf};

use crate::files::{read_text, write_all, Replace};
use crate::hosts::sgt_web::games_dir;

/// The page's file name in its folder.
pub const PAGE: &str = "game.html";

/// The template's path under the shared games.
pub const TEMPLATE: &str = "puzzlescript/standalone_inlined.txt";

/// The engine's page template was not found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateMissing {
    /// A games folder without the template.
    #[error(
        "the PuzzleScript engine page was not found at {}: set GRIDBOT_GAMES to the folder that \
         holds puzzlescript/standalone_inlined.txt (the project's ../shared/games; the template \
         is src/standalone_inlined.txt of github.com/increpare/PuzzleScript)",
        .0.display()
    )]
    NotThere(PathBuf),
    /// No shared games folder.
    #[error(
        "the PuzzleScript engine page was not found: set GRIDBOT_GAMES to the folder that holds \
         puzzlescript/standalone_inlined.txt (the project's ../shared/games; the template is \
         src/standalone_inlined.txt of github.com/increpare/PuzzleScript)"
    )]
    NoGames,
}

/// The template's path.
pub fn template_path() -> Result<PathBuf, TemplateMissing> {
    let Some(dir) = games_dir() else {
        return Err(TemplateMissing::NoGames);
    };
    let path = dir.join(TEMPLATE);
    if path.is_file() {
        Ok(path)
    } else {
        Err(TemplateMissing::NotThere(path))
    }
}

/// The page for `source` from `template`: the game's source as a JSON
/// string, `title` as the page's title (and so its window's), the page
/// black with light blue text around the game's canvas (the canvas
/// itself is filled with the game's own background colour).
pub fn build_page(template: &str, source: &str, title: &str) -> String {
    let data = serde_json::to_string(source).expect("a string serialises");
    let escaped_title: String = title
        .chars()
        .map(|c| match c {
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            '&' => "&amp;".to_string(),
            '"' => "&quot;".to_string(),
            c => c.to_string(),
        })
        .collect();
    // The source goes in last so that nothing in it is taken for a
    // placeholder.
    template
        .replace("__GAMETITLE__", &escaped_title)
        .replace("___BGCOLOR___", "black")
        .replace("___TEXTCOLOR___", "lightblue")
        .replace("__HOMEPAGE_STRIPPED_PROTOCOL__", "")
        .replace("__HOMEPAGE__", "about:blank")
        .replacen("\"__GAMEDAT__\"", &data, 1)
}

/// The window title gridbot gives a game's page: `gridbot: TITLE` (the
/// game's own `title`, else the file's name).
pub fn window_title(game_title: Option<&str>, file: &Path) -> String {
    let name = game_title
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .unwrap_or_else(|| {
            file.file_stem()
                .map_or("game".into(), |s| s.to_string_lossy().into_owned())
        });
    format!("gridbot: {name}")
}

/// A throwaway folder holding one game's page (removed on drop).
#[derive(Debug)]
pub struct PageFolder {
    dir: tempfile::TempDir,
}

impl PageFolder {
    /// Writes the page of `source` titled `title` from the template.
    pub fn write(source: &str, title: &str) -> anyhow::Result<PageFolder> {
        let template_file = template_path()?;
        let template = read_text(
            &template_file.to_string_lossy(),
            16 << 20,
            "the PuzzleScript page template",
        )?;
        let dir = tempfile::Builder::new().prefix("gridbot-ps-").tempdir()?;
        let page = build_page(&template, source, title);
        write_all(&dir.path().join(PAGE), page.as_bytes(), Replace::Refuse)?;
        Ok(PageFolder { dir })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_source_goes_in_as_one_json_string() {
        let template = "<title>__GAMETITLE__</title><body style=\"background:___BGCOLOR___\">\
                        <script>var sourceCode = \"__GAMEDAT__\"; var home='__HOMEPAGE__'</script>";
        let source = "title a \"$1\" __GAMETITLE__\nline two\\";
        let page = build_page(template, source, "x<y");
        assert!(page.contains("<title>x&lt;y</title>"), "{page}");
        assert!(page.contains("background:black"));
        let start = page.find("sourceCode = ").unwrap() + "sourceCode = ".len();
        let end = page.find("; var home").unwrap();
        let back: String = serde_json::from_str(&page[start..end]).unwrap();
        assert_eq!(back, source);
        assert_eq!(
            window_title(None, Path::new("/a/microban.txt")),
            "gridbot: microban"
        );
        assert_eq!(
            window_title(Some(" Kettle "), Path::new("k.txt")),
            "gridbot: Kettle"
        );
    }

    #[test]
    fn a_missing_template_names_the_variable() {
        if let Err(e) = template_path() {
            assert!(e.to_string().contains("GRIDBOT_GAMES"), "{e}");
        }
    }
}
