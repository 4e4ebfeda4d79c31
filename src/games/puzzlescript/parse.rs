//! Reads a PuzzleScript source into its sections, line by line, as the
//! reference engine's editor mode does: nested `( )` comments, the prelude's
//! options, objects with their colours and 5x5 sprites (and aliases on the
//! name line), the legend's synonyms, `and` aggregates and `or` properties,
//! collision layers, rule lines (kept as text for [`super::rules`]), win
//! conditions, and levels with their messages. Names are lower-cased, as
//! the language is case-insensitive.

use super::error::PsError;

/// One option of the prelude: `key value` or a flag (value `true`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meta {
    /// The option's name, lower-case.
    pub key: String,
    /// Its value (original case for title, author, homepage).
    pub value: String,
    /// The line it is on.
    pub line: usize,
}

/// An object of the OBJECTS section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectDef {
    /// Its name, lower-case.
    pub name: String,
    /// Its colours as written (palette names or `#rgb` / `#rrggbb`).
    pub colors: Vec<String>,
    /// Its sprite rows (`.` transparent, digits index `colors`); empty when
    /// the object is drawn in its first colour.
    pub sprite: Vec<String>,
    /// The line of its name.
    pub line: usize,
}

/// A legend entry: a name for other names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegendDef {
    /// The new name, lower-case.
    pub name: String,
    /// The names it stands for (objects, after resolving as the reference
    /// does at this point of the source).
    pub names: Vec<String>,
    /// The line it is on.
    pub line: usize,
}

/// A rule line, kept as text until the rules are compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleLine {
    /// The line lower-cased, without its comments.
    pub text: String,
    /// The line as written (for `message` texts).
    pub original: String,
    /// The line number.
    pub line: usize,
}

/// A level or a message between levels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LevelDef {
    /// A map: rows of legend characters (lower-case).
    Map {
        /// The rows, top first.
        rows: Vec<Vec<char>>,
        /// The line of the first row.
        line: usize,
    },
    /// A message screen.
    Message {
        /// The text as written.
        text: String,
        /// Its line.
        line: usize,
    },
}

/// Every section of a source, read but not yet compiled.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Source {
    /// Prelude options.
    pub metadata: Vec<Meta>,
    /// Objects in the order declared.
    pub objects: Vec<ObjectDef>,
    /// Synonyms `a = b` (object aliases included), in order.
    pub synonyms: Vec<LegendDef>,
    /// Aggregates `a = b and c`.
    pub aggregates: Vec<LegendDef>,
    /// Properties `a = b or c`.
    pub properties: Vec<LegendDef>,
    /// Collision layers: object names, and the line of each layer.
    pub layers: Vec<(Vec<String>, usize)>,
    /// Rule lines.
    pub rules: Vec<RuleLine>,
    /// Win conditions as words, with their line.
    pub winconditions: Vec<(Vec<String>, usize)>,
    /// Levels and messages in order.
    pub levels: Vec<LevelDef>,
}

const SECTIONS: [&str; 7] = [
    "objects",
    "legend",
    "sounds",
    "collisionlayers",
    "rules",
    "winconditions",
    "levels",
];

const WITH_VALUE: [&str; 12] = [
    "title",
    "author",
    "homepage",
    "background_color",
    "text_color",
    "key_repeat_interval",
    "realtime_interval",
    "again_interval",
    "flickscreen",
    "zoomscreen",
    "color_palette",
    "youtube",
];

const NO_VALUE: [&str; 10] = [
    "run_rules_on_level_start",
    "norepeat_action",
    "require_player_movement",
    "debug",
    "verbose_logging",
    "throttle_movement",
    "noundo",
    "noaction",
    "norestart",
    "scanline",
];

/// The colour names the reference accepts: its palettes' names
/// ([`super::palette::NAMES`]) and `transparent`.
fn color_names() -> impl Iterator<Item = &'static str> {
    super::palette::NAMES.iter().copied().chain(["transparent"])
}

/// True if `w` (lower-case) is a colour the reference accepts.
pub fn is_color(w: &str) -> bool {
    if color_names().any(|n| n == w) {
        return true;
    }
    match w.strip_prefix('#') {
        Some(h) => (h.len() == 3 || h.len() == 6) && h.chars().all(|c| c.is_ascii_hexdigit()),
        None => false,
    }
}

/// The colour at the start of `s`, as the reference's colour pattern
/// matches it (no separator is needed after a `#rrggbb` colour).
fn color_prefix(s: &str) -> Option<&str> {
    if let Some(h) = s.strip_prefix('#') {
        let n = h.chars().take_while(char::is_ascii_hexdigit).count();
        let n = if n >= 6 {
            6
        } else if n >= 3 {
            3
        } else {
            return None;
        };
        return Some(&s[..n + 1]);
    }
    color_names()
        .filter(|c| s.starts_with(c))
        .max_by_key(|c| c.len())
        .map(|c| &s[..c.len()])
}

/// An error the reference logs and plays on with (kept in `logged`), until it has logged
/// more than [`MAX_LOGGED`] distinct ones: then it gives up, and so
/// does this reader.
fn log_error(
    logged: &mut Vec<(usize, String)>,
    line: usize,
    message: String,
) -> Result<(), PsError> {
    if logged.iter().any(|(n, m)| *n == line && *m == message) {
        return Ok(());
    }
    log::warn!("line {line}: {message}; skipped, as the reference does");
    logged.push((line, message));
    if logged.len() > MAX_LOGGED {
        let (first, what) = &logged[0];
        return Err(PsError::at(
            line,
            format!(
                "more than {MAX_LOGGED} errors, so the reference aborts compiling \
                 (the first, line {first}: {what})"
            ),
        ));
    }
    Ok(())
}

/// The token the reference skips where it wanted a colour: a name (with
/// the spaces after it), else the rest of the line.
fn junk_token(s: &str) -> &str {
    let name = s.find(|c: char| !is_word_char(c)).unwrap_or(s.len());
    if name == 0 {
        return s;
    }
    let spaces = s[name..].len() - s[name..].trim_start().len();
    &s[..name + spaces]
}

/// A name character of the language (letters, digits, underscore).
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// One line with its comments removed.
struct Line {
    /// 1-based number.
    number: usize,
    /// Visible text, lower-case.
    text: String,
    /// Visible text, original case.
    mixed: String,
    /// True if the reference treats the line as blank (ends a level).
    blank: bool,
    /// The original line.
    original: String,
}

/// Removes comments from `raw`, carrying the nesting `depth` across lines.
/// Text after a leading `message` word (levels) or a `message` token
/// (rules) is kept as written, parentheses included.
fn strip(raw: &str, depth: &mut usize, message_mode: MessageMode) -> (String, bool) {
    let mut out = String::new();
    let mut touched = *depth > 0;
    // Visible text after the last comment closed: the reference restarts
    // the line there, and a line left with only spaces counts as blank.
    let mut tail = String::new();
    let chars: Vec<char> = raw.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if *depth == 0 && raw_from(&chars, i, &out, message_mode) {
            out.extend(&chars[i..]);
            tail.extend(&chars[i..]);
            break;
        }
        match c {
            '(' => {
                *depth += 1;
                touched = true;
            }
            ')' if *depth > 0 => {
                *depth -= 1;
                if *depth == 0 {
                    tail.clear();
                }
            }
            // An unmatched `)`: the reference warns and skips it.
            ')' => {}
            _ if *depth > 0 => {}
            _ => {
                out.push(c);
                tail.push(c);
            }
        }
    }
    let empty = out.trim().is_empty();
    let blank = empty && (!touched || !tail.is_empty());
    (out, blank)
}

/// Where `message` keeps the rest of a line raw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MessageMode {
    /// Nowhere.
    None,
    /// A line starting with the word `message` (levels section).
    LineStart,
    /// After a `message` token (rules section).
    Token,
}

/// True if the text from `i` on is to be kept raw.
fn raw_from(chars: &[char], i: usize, before: &str, mode: MessageMode) -> bool {
    let at_word = |i: usize| {
        let w: String = chars[i..].iter().take(7).collect::<String>().to_lowercase();
        w == "message" && chars.get(i + 7).is_none_or(|c| !is_word_char(*c))
    };
    match mode {
        MessageMode::None => false,
        MessageMode::LineStart => before.trim().is_empty() && at_word(i),
        MessageMode::Token => {
            (i == 0 || !is_word_char(chars[i - 1]) && chars[i - 1] != '_')
                && (before.is_empty() || before.ends_with(|c: char| c.is_whitespace() || c == ']'))
                && at_word(i)
        }
    }
}

/// Reads `text` into its sections.
pub fn parse_source(text: &str) -> Result<Source, PsError> {
    let mut p = Parser::default();
    let mut depth = 0usize;
    for (i, raw) in text.split('\n').enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let mode = match p.section {
            Some(6) => MessageMode::LineStart,
            Some(4) => MessageMode::Token,
            _ => MessageMode::None,
        };
        let (mixed, blank) = strip(raw, &mut depth, mode);
        let line = Line {
            number: i + 1,
            text: mixed.to_lowercase(),
            mixed,
            blank,
            original: raw.to_string(),
        };
        p.line(&line)?;
    }
    p.finish()
}

/// The reader's state between lines.
#[derive(Default)]
struct Parser {
    src: Source,
    /// Index into [`SECTIONS`]; `None` in the prelude.
    section: Option<usize>,
    visited: Vec<usize>,
    /// Objects section: 0/1 expect a name, 2 colours, 3 sprite rows.
    object_stage: u8,
    /// Levels: the level being read is open (rows may follow).
    level_open: bool,
    /// The distinct errors the reference would log and play on with
    /// (its line and message), so far.
    logged: Vec<(usize, String)>,
}

/// The reference aborts compiling once it has logged more distinct
/// errors than this (its `MAX_ERRORS`).
const MAX_LOGGED: usize = 5;

impl Parser {
    fn line(&mut self, l: &Line) -> Result<(), PsError> {
        if l.blank {
            if self.section == Some(0) {
                self.object_stage = 0;
            }
            self.level_open = false;
            return Ok(());
        }
        let t = l.text.trim();
        if t.is_empty() {
            return Ok(());
        }
        let equals_only = t.chars().all(|c| c == '=' || c.is_whitespace());
        if t.starts_with('=') && (self.section != Some(6) || equals_only) {
            return Ok(());
        }
        if self.section != Some(6) {
            let word: String = t.chars().take_while(|c| is_word_char(*c)).collect();
            if let Some(k) = SECTIONS.iter().position(|s| *s == word) {
                return self.enter(k, l.number, t[word.len()..].trim());
            }
        }
        match self.section {
            None => self.prelude(l),
            Some(0) => self.object_line(l),
            Some(1) => self.legend_line(l),
            Some(2) => Ok(()),
            Some(3) => self.layer_line(l),
            Some(4) => {
                self.src.rules.push(RuleLine {
                    text: l.text.clone(),
                    original: l.original.clone(),
                    line: l.number,
                });
                Ok(())
            }
            Some(5) => {
                let words: Vec<String> = t.split_whitespace().map(str::to_string).collect();
                self.src.winconditions.push((words, l.number));
                Ok(())
            }
            _ => self.level_line(l),
        }
    }

    fn enter(&mut self, k: usize, line: usize, rest: &str) -> Result<(), PsError> {
        if !rest.is_empty() {
            return Err(PsError::at(
                line,
                format!(
                    "only comments should follow the section name {}",
                    SECTIONS[k].to_uppercase()
                ),
            ));
        }
        if self.visited.contains(&k) {
            return Err(PsError::at(
                line,
                format!(
                    "cannot duplicate sections (you tried to duplicate \"{}\")",
                    SECTIONS[k].to_uppercase()
                ),
            ));
        }
        if k == 0 && !self.visited.is_empty() || k > 0 && !self.visited.contains(&(k - 1)) {
            return Err(PsError::at(
                line,
                format!(
                    "section \"{}\" is out of order or a section before it is missing",
                    SECTIONS[k].to_uppercase()
                ),
            ));
        }
        self.visited.push(k);
        self.section = Some(k);
        self.object_stage = 0;
        self.level_open = false;
        Ok(())
    }

    fn prelude(&mut self, l: &Line) -> Result<(), PsError> {
        let t = l.text.trim();
        let key: String = t.chars().take_while(|c| is_word_char(*c)).collect();
        let rest_at = l.text.find(&key).map_or(0, |p| p + key.len());
        if WITH_VALUE.contains(&key.as_str()) {
            let source = if matches!(key.as_str(), "title" | "author" | "homepage") {
                &l.mixed
            } else {
                &l.text
            };
            let value = source.get(rest_at..).unwrap_or("").trim().to_string();
            if value.is_empty() {
                return Err(PsError::at(
                    l.number,
                    format!("MetaData \"{key}\" needs a value."),
                ));
            }
            self.src.metadata.push(Meta {
                key,
                value,
                line: l.number,
            });
            Ok(())
        } else if NO_VALUE.contains(&key.as_str()) {
            self.src.metadata.push(Meta {
                key,
                value: "true".into(),
                line: l.number,
            });
            Ok(())
        } else {
            Err(PsError::at(
                l.number,
                format!("unrecognised stuff \"{t}\" in the prelude"),
            ))
        }
    }

    fn object_line(&mut self, l: &Line) -> Result<(), PsError> {
        if self.object_stage == 2 {
            self.object_stage = 3;
        }
        if self.object_stage == 1 {
            self.object_stage = 2;
        }
        let t = l.text.trim();
        match self.object_stage {
            2 => {
                let obj = self
                    .src
                    .objects
                    .last_mut()
                    .expect("an object before its colours");
                let mut rest = t;
                while !rest.is_empty() {
                    let Some(c) = color_prefix(rest) else {
                        let junk = junk_token(rest);
                        let e = format!(
                            "was looking for a colour for object {}, got \"{}\" instead",
                            obj.name.to_uppercase(),
                            junk.trim_end()
                        );
                        if obj.colors.is_empty() {
                            return Err(PsError::at(l.number, e));
                        }
                        // After a colour, the reference logs the error,
                        // skips the token and plays on with the colours read.
                        log_error(&mut self.logged, l.number, e)?;
                        rest = rest[junk.len()..].trim_start();
                        continue;
                    };
                    obj.colors.push(c.to_string());
                    rest = rest[c.len()..].trim_start();
                }
                Ok(())
            }
            3 => {
                let first = t.chars().next().unwrap_or(' ');
                let obj = self
                    .src
                    .objects
                    .last_mut()
                    .expect("an object before its sprite");
                if !(first == '.' || first.is_ascii_digit()) {
                    if obj.sprite.is_empty() {
                        return self.object_name(l);
                    }
                    return Err(PsError::at(
                        l.number,
                        format!(
                            "unknown junk in the sprite of object {}",
                            obj.name.to_uppercase()
                        ),
                    ));
                }
                let row: String = t
                    .chars()
                    .take_while(|c| *c == '.' || c.is_ascii_digit())
                    .collect();
                let row: String = row.chars().take(5).collect();
                for c in row.chars() {
                    if let Some(d) = c.to_digit(10) {
                        if d as usize >= obj.colors.len() {
                            return Err(PsError::at(
                                l.number,
                                format!(
                                    "trying to access colour number {d} of sprite {}, but it has only {}",
                                    obj.name.to_uppercase(),
                                    obj.colors.len()
                                ),
                            ));
                        }
                    }
                }
                obj.sprite.push(row);
                if obj.sprite.len() == 5 {
                    self.object_stage = 0;
                }
                Ok(())
            }
            _ => self.object_name(l),
        }
    }

    fn object_name(&mut self, l: &Line) -> Result<(), PsError> {
        let t = l.text.trim();
        let mut words = t.split_whitespace();
        let name = words.next().unwrap_or("");
        if name.is_empty() || !name.chars().all(is_word_char) {
            // The reference only warns about such junk and reads on.
            return Ok(());
        }
        if self.declared(name) {
            return Err(PsError::at(
                l.number,
                format!("object \"{}\" defined multiple times", name.to_uppercase()),
            ));
        }
        self.src.objects.push(ObjectDef {
            name: name.to_string(),
            colors: Vec::new(),
            sprite: Vec::new(),
            line: l.number,
        });
        for alias in words {
            self.src.synonyms.push(LegendDef {
                name: alias.to_string(),
                names: vec![name.to_string()],
                line: l.number,
            });
        }
        self.object_stage = 1;
        Ok(())
    }

    /// True if `n` names an object or a legend entry already.
    fn declared(&self, n: &str) -> bool {
        self.src.objects.iter().any(|o| o.name == n)
            || self.src.aggregates.iter().any(|a| a.name == n)
            || self.src.properties.iter().any(|a| a.name == n)
            || self.src.synonyms.iter().any(|a| a.name == n)
    }

    /// What `n` stands for: follows synonyms to an object, an aggregate or a
    /// property.
    fn lookup(&self, n: &str) -> Lookup {
        if self.src.objects.iter().any(|o| o.name == n) {
            return Lookup::Object(n.to_string());
        }
        if let Some(s) = self.src.synonyms.iter().find(|s| s.name == n) {
            return self.lookup(&s.names[0]);
        }
        if let Some(a) = self.src.aggregates.iter().find(|a| a.name == n) {
            return Lookup::Aggregate(a.names.clone());
        }
        if let Some(p) = self.src.properties.iter().find(|p| p.name == n) {
            return Lookup::Property(n.to_string(), p.names.clone());
        }
        Lookup::Undeclared(n.to_string())
    }

    fn or_members(&self, n: &str, line: usize) -> Result<Vec<String>, PsError> {
        match self.lookup(n) {
            Lookup::Object(o) | Lookup::Undeclared(o) => Ok(vec![o]),
            Lookup::Aggregate(_) => Err(PsError::at(
                line,
                format!("cannot define a property (with 'or') in terms of the aggregate \"{n}\" (with 'and')"),
            )),
            Lookup::Property(name, members) => {
                let mut out = Vec::new();
                for m in members.iter().filter(|m| **m != name) {
                    out.extend(self.or_members(m, line)?);
                }
                Ok(out)
            }
        }
    }

    fn and_members(&self, n: &str, line: usize) -> Result<Vec<String>, PsError> {
        match self.lookup(n) {
            Lookup::Object(o) | Lookup::Undeclared(o) => Ok(vec![o]),
            Lookup::Aggregate(members) => {
                let mut out = Vec::new();
                for m in &members {
                    out.extend(self.and_members(m, line)?);
                }
                Ok(out)
            }
            Lookup::Property(..) => Err(PsError::at(
                line,
                "cannot define an aggregate (using 'and') in terms of properties (something that uses 'or')",
            )),
        }
    }

    fn legend_line(&mut self, l: &Line) -> Result<(), PsError> {
        let t = l.text.trim();
        let Some(eq) = t.find('=') else {
            return Err(PsError::at(
                l.number,
                "legend entries look like \"A = B\", \"A = B or C\", \"A = B and C\"",
            ));
        };
        let name = t[..eq].trim().to_string();
        let rhs: Vec<&str> = t[eq + 1..].split_whitespace().collect();
        if name.is_empty()
            || name.contains(char::is_whitespace)
            || rhs.is_empty()
            || rhs.len().is_multiple_of(2)
        {
            return Err(PsError::at(l.number, "incorrect format of legend: should be one of \"A = B\", \"A = B or C [ or D ...]\", \"A = B and C [ and D ...]\""));
        }
        // A name declared twice is an error the reference logs and plays
        // on with: the first declaration wins wherever names are looked up.
        let names: Vec<String> = rhs.iter().step_by(2).map(|s| s.to_string()).collect();
        let joins: Vec<&str> = rhs.iter().skip(1).step_by(2).copied().collect();
        for n in &names {
            if *n == name {
                return Err(PsError::at(
                    l.number,
                    format!(
                        "you can't define object {} in terms of itself",
                        name.to_uppercase()
                    ),
                ));
            }
            if !n.chars().all(is_word_char) {
                return Err(PsError::at(
                    l.number,
                    "something bad's happening in the LEGEND",
                ));
            }
            if !self.declared(n) {
                return Err(PsError::at(
                    l.number,
                    format!(
                        "you're talking about {} but it's not defined anywhere",
                        n.to_uppercase()
                    ),
                ));
            }
        }
        if let Some(j) = joins.first() {
            if joins.iter().any(|x| x != j) || (*j != "and" && *j != "or") {
                return Err(PsError::at(
                    l.number,
                    "you can't mix ANDs and ORs in a single legend entry",
                ));
            }
        }
        let line = l.number;
        match joins.first() {
            None => self.src.synonyms.push(LegendDef { name, names, line }),
            Some(&"and") => {
                let mut all = Vec::new();
                for n in &names {
                    all.extend(self.and_members(n, line)?);
                }
                self.src.aggregates.push(LegendDef {
                    name,
                    names: all,
                    line,
                });
            }
            _ => {
                let mut all = self.or_members(&names[0], line)?;
                all.extend(self.or_members(&names[1], line)?);
                all.extend(names[2..].iter().cloned());
                self.src.properties.push(LegendDef {
                    name,
                    names: all,
                    line,
                });
            }
        }
        Ok(())
    }

    fn layer_line(&mut self, l: &Line) -> Result<(), PsError> {
        let mut layer = Vec::new();
        for w in l
            .text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
        {
            if !w.chars().all(is_word_char) {
                return Err(PsError::at(
                    l.number,
                    format!("unexpected character in collision layer: \"{w}\""),
                ));
            }
            match self.lookup(w) {
                Lookup::Object(o) => layer.push(o),
                Lookup::Property(..) => layer.extend(self.or_members(w, l.number)?),
                Lookup::Aggregate(_) => {
                    return Err(PsError::at(
                        l.number,
                        format!("\"{w}\" is an aggregate (defined using \"and\"), and cannot be added to a single layer"),
                    ))
                }
                Lookup::Undeclared(_) => {
                    return Err(PsError::at(
                        l.number,
                        format!("cannot add \"{}\" to a collision layer; it has not been declared", w.to_uppercase()),
                    ))
                }
            }
        }
        self.src.layers.push((layer, l.number));
        Ok(())
    }

    fn level_line(&mut self, l: &Line) -> Result<(), PsError> {
        let t = l.text.trim();
        let is_message =
            t.starts_with("message") && t[7..].chars().next().is_none_or(|c| !is_word_char(c));
        if is_message {
            let at = l.mixed.to_lowercase().find("message").unwrap_or(0) + 7;
            let text = l.mixed.get(at..).unwrap_or("").trim().to_string();
            self.src.levels.push(LevelDef::Message {
                text,
                line: l.number,
            });
            return Ok(());
        }
        let row: Vec<char> = t.chars().collect();
        match self.src.levels.last_mut() {
            Some(LevelDef::Map { rows, .. }) if self.level_open => rows.push(row),
            _ => self.src.levels.push(LevelDef::Map {
                rows: vec![row],
                line: l.number,
            }),
        }
        self.level_open = true;
        Ok(())
    }

    fn finish(self) -> Result<Source, PsError> {
        for (k, name) in SECTIONS.iter().enumerate() {
            if !self.visited.contains(&k) {
                return Err(PsError::Missing(format!(
                    "the section {} is missing",
                    name.to_uppercase()
                )));
            }
        }
        Ok(self.src)
    }
}

/// What a name stands for, while the legend is being read.
enum Lookup {
    Object(String),
    Aggregate(Vec<String>),
    Property(String, Vec<String>),
    Undeclared(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINI: &str = "title Mini\n\n========\nOBJECTS\n========\n\nBackground\nblack\n\nPlayer P\nwhite\n.000.\n.0.0.\n00000\n.000.\n.0.0.\n\nCrate\norange\n\n=======\nLEGEND\n=======\n\n. = Background\n* = Crate\nThing = Player or Crate\nBoth = Player and Crate\n\n=======\nSOUNDS\n=======\n\n================\nCOLLISIONLAYERS\n================\n\nBackground\nPlayer, Crate\n\n======\nRULES\n======\n\n[ > Player | Crate ] -> [ > Player | > Crate ] (push)\n\n==============\nWINCONDITIONS\n==============\n\nno crate\n\n=======\nLEVELS\n=======\n\nmessage Hello (world)\n\n(a comment)\n.P*.\n....\n\n..P.\n";

    #[test]
    fn reads_every_section() {
        let s = parse_source(MINI).unwrap();
        assert_eq!(s.metadata[0].value, "Mini");
        assert_eq!(s.objects.len(), 3);
        assert_eq!(s.objects[1].sprite.len(), 5);
        assert_eq!(
            s.synonyms.iter().find(|d| d.name == "p").unwrap().names,
            vec!["player"]
        );
        assert_eq!(s.properties[0].names, vec!["player", "crate"]);
        assert_eq!(s.aggregates[0].names, vec!["player", "crate"]);
        assert_eq!(s.layers.len(), 2);
        assert_eq!(s.rules.len(), 1);
        assert!(!s.rules[0].text.contains("push"));
        assert_eq!(s.winconditions[0].0, vec!["no", "crate"]);
        assert_eq!(s.levels.len(), 3);
        assert_eq!(
            s.levels[0],
            LevelDef::Message {
                text: "Hello (world)".into(),
                line: 57
            }
        );
        match &s.levels[1] {
            LevelDef::Map { rows, .. } => assert_eq!(rows.len(), 2),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn errors_name_their_line() {
        let bad = MINI.replace("* = Crate", "* = Crat");
        match parse_source(&bad) {
            Err(PsError::Syntax { line, .. }) => assert_eq!(line, 26),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_source("hello"),
            Err(PsError::Syntax { line: 1, .. })
        ));
        assert!(matches!(parse_source(""), Err(PsError::Missing(_))));
        let no_colour = MINI.replace("Crate\norange", "Crate\noranje");
        match parse_source(&no_colour) {
            Err(PsError::Syntax { line, message }) => {
                assert_eq!(line, 19);
                assert!(message.contains("got \"oranje\""), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn junk_after_a_colour_is_skipped_as_the_reference_does() {
        // `#0af2` reads as the colour `#0af` and the junk `2`.
        let s = parse_source(&MINI.replace("Crate\norange", "Crate\n#0af2 red")).unwrap();
        assert_eq!(s.objects[2].colors, vec!["#0af", "red"]);
        let s = parse_source(&MINI.replace("Crate\norange", "Crate\norange ~~ blue")).unwrap();
        assert_eq!(s.objects[2].colors, vec!["orange"]);
        // Six distinct errors are one too many for the reference.
        let crate_line = "Crate\norange a b c d e f";
        match parse_source(&MINI.replace("Crate\norange", crate_line)) {
            Err(PsError::Syntax { line, message }) => {
                assert_eq!(line, 19);
                assert!(message.contains("more than 5 errors"), "{message}");
                assert!(message.contains("got \"a\""), "{message}");
            }
            other => panic!("{other:?}"),
        }
        assert!(parse_source(&MINI.replace("Crate\norange", "Crate\norange a b c d e")).is_ok());
    }
}
