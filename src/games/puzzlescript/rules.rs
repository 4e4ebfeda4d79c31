//! Rule lines to concrete rules, as the reference engine expands them: the
//! line's tokens (directions, `late`, `rigid`, `random`, `+`, cells,
//! commands), one rule per scanning direction, relative directions made
//! absolute, up and left rules turned into down and right ones, aggregates
//! split into their objects, synonyms replaced, ambiguous movements
//! (`moving`, `horizontal`, ...) and properties expanded into one rule per
//! choice, objects that appear from nowhere made stationary, and duplicates
//! dropped. The order of the expansion is the reference's: it decides the
//! order in which rules apply.

use super::error::PsError;
use super::parse::RuleLine;

/// One entry of a cell: a direction word (empty for none, `no`,
/// `stationary`, `random`, ... or `...` for an ellipsis) and a name.
pub type Entry = (String, String);
/// A cell of a pattern.
pub type Cell = Vec<Entry>;
/// A row of cells between brackets.
pub type Row = Vec<Cell>;

/// A command a rule gives when it matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// `cancel`, `again`, `win`, `restart`, `checkpoint`, `message`,
    /// `sfx0`..`sfx10`.
    pub name: String,
    /// The text of a `message`.
    pub text: Option<String>,
}

/// A rule while it is being expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// The scanning direction: `up`, `down`, `left` or `right`.
    pub direction: String,
    /// Directions from the line, before one rule is made per direction.
    pub directions: Vec<String>,
    /// Left-hand side rows.
    pub lhs: Vec<Row>,
    /// Right-hand side rows (empty for a rule that only gives commands).
    pub rhs: Vec<Row>,
    /// The source line.
    pub line: usize,
    /// A late rule (after movement).
    pub late: bool,
    /// A rigid rule.
    pub rigid: bool,
    /// The group: the line of the group's first rule.
    pub group: usize,
    /// Commands.
    pub commands: Vec<Command>,
    /// The group applies one random match.
    pub random: bool,
}

/// What the legend says about names, as the rules need it.
pub trait Legend {
    /// The collision layer of object `name`, if it is an object.
    fn object_layer(&self, name: &str) -> Option<usize>;
    /// The objects a property stands for.
    fn property(&self, name: &str) -> Option<&[String]>;
    /// The objects an aggregate stands for.
    fn aggregate(&self, name: &str) -> Option<&[String]>;
    /// The object a synonym stands for.
    fn synonym(&self, name: &str) -> Option<&str>;
    /// The layer of a property whose objects are all on one layer.
    fn single_layer(&self, name: &str) -> Option<usize>;
    /// True if `name` is any declared name.
    fn known(&self, name: &str) -> bool;
}

/// The rules of a game and its loop markers.
#[derive(Debug, Clone, Default)]
pub struct Expanded {
    /// Concrete rules in application order (groups not yet formed).
    pub rules: Vec<Rule>,
    /// `startloop` (+1) and `endloop` (-1) markers with their lines.
    pub loops: Vec<(usize, i32)>,
}

const DIRECTION_WORDS: [&str; 19] = [
    ">",
    "<",
    "^",
    "v",
    "up",
    "down",
    "left",
    "right",
    "moving",
    "stationary",
    "no",
    "randomdir",
    "random",
    "horizontal",
    "vertical",
    "orthogonal",
    "perpendicular",
    "parallel",
    "action",
];

const COMMANDS: [&str; 17] = [
    "sfx0",
    "sfx1",
    "sfx2",
    "sfx3",
    "sfx4",
    "sfx5",
    "sfx6",
    "sfx7",
    "sfx8",
    "sfx9",
    "sfx10",
    "cancel",
    "checkpoint",
    "restart",
    "win",
    "message",
    "again",
];

/// The concrete directions of an ambiguous direction word.
fn aggregate_dirs(word: &str) -> Option<&'static [&'static str]> {
    Some(match word {
        "horizontal" | "horizontal_par" | "horizontal_perp" => &["left", "right"],
        "vertical" | "vertical_par" | "vertical_perp" => &["up", "down"],
        "moving" => &["up", "down", "left", "right", "action"],
        "orthogonal" => &["up", "down", "left", "right"],
        "perpendicular" => &["^", "v"],
        "parallel" => &["<", ">"],
        _ => return None,
    })
}

fn is_relative(word: &str) -> bool {
    matches!(word, "^" | "v" | "<" | ">" | "perpendicular" | "parallel")
}

/// Reads every rule line and expands the rules.
pub fn expand(lines: &[RuleLine], legend: &dyn Legend) -> Result<Expanded, PsError> {
    let mut parsed: Vec<Rule> = Vec::new();
    let mut loops = Vec::new();
    for l in lines {
        match parse_rule(l, &parsed, legend)? {
            Parsed::Loop(b) => loops.push((l.line, b)),
            Parsed::Rule(r) => parsed.push(*r),
            Parsed::Nothing => {}
        }
    }
    let mut per_direction = Vec::new();
    for r in &parsed {
        for d in &r.directions {
            let mut n = r.clone();
            n.direction = d.clone();
            per_direction.push(n);
        }
    }
    for r in &mut per_direction {
        absolutify(r);
        rewrite_up_left(r);
        atomize_aggregates(r, legend)?;
        rephrase_synonyms(r, legend);
    }
    let mut moving = Vec::new();
    for r in per_direction {
        moving.extend(concretize_moving(r, legend)?);
    }
    let mut props = Vec::new();
    for r in moving {
        props.extend(concretize_properties(r, legend)?);
    }
    for r in &mut props {
        make_spawned_stationary(r, legend);
    }
    Ok(Expanded {
        rules: remove_duplicates(props),
        loops,
    })
}

enum Parsed {
    Rule(Box<Rule>),
    Loop(i32),
    Nothing,
}

/// The rule text the reference reads: the line up to its first `(`, unless
/// the line starts inside a comment.
fn rule_text(l: &RuleLine) -> String {
    let lower = l.original.to_lowercase();
    let cut = lower.split('(').next().unwrap_or("");
    if cut.trim().is_empty() {
        l.text.clone()
    } else {
        cut.to_string()
    }
}

fn tokenize(line: &str) -> Vec<String> {
    let mut s = line
        .replace('[', " [ ")
        .replace(']', " ] ")
        .replace('|', " | ")
        .replace("->", " -> ");
    s = s.trim().to_string();
    if let Some(rest) = s.strip_prefix('+') {
        s = format!("+ {rest}");
    }
    s.split_whitespace().map(str::to_string).collect()
}

/// What a rule line is when it is not a rule (nothing, a loop mark), an
/// error when it cannot be one, `None` for a rule.
fn not_a_rule(l: &RuleLine, text: &str, tokens: &[String]) -> Result<Option<Parsed>, PsError> {
    if tokens.is_empty() {
        return Ok(Some(Parsed::Nothing));
    }
    if tokens.len() == 1 && tokens[0] == "startloop" {
        return Ok(Some(Parsed::Loop(1)));
    }
    if tokens.len() == 1 && tokens[0] == "endloop" {
        return Ok(Some(Parsed::Loop(-1)));
    }
    if l.original.contains('(') && !text.contains("->") {
        return Err(PsError::at(l.line, "you can't have comments inside rules"));
    }
    if !tokens.iter().any(|t| t == "->") {
        return Err(PsError::at(l.line, "a rule has to have an arrow in it"));
    }
    Ok(None)
}

fn parse_rule(l: &RuleLine, previous: &[Rule], legend: &dyn Legend) -> Result<Parsed, PsError> {
    let line = l.line;
    let text = rule_text(l);
    let tokens = tokenize(&text);
    if let Some(other) = not_a_rule(l, &text, &tokens)? {
        return Ok(other);
    }
    let mut rule = Rule {
        direction: String::new(),
        directions: Vec::new(),
        lhs: Vec::new(),
        rhs: Vec::new(),
        line,
        late: false,
        rigid: false,
        group: line,
        commands: Vec::new(),
        random: false,
    };
    let mut in_prelude = true;
    let mut cell: Vec<String> = Vec::new();
    let mut row: Row = Vec::new();
    let mut in_row = false;
    let mut on_rhs = false;
    let mut has_plus = false;
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i].as_str();
        if in_prelude {
            if t == "[" {
                if rule.directions.is_empty() {
                    rule.directions = ["up", "down", "left", "right"].map(String::from).to_vec();
                }
                in_prelude = false;
                continue;
            }
            prelude_word(&mut rule, t, i == 0, &mut has_plus, previous)?;
            i += 1;
            continue;
        }
        if t == "[" {
            if !cell.is_empty() {
                return Err(PsError::at(
                    line,
                    "malformed cell rule: \"[\" before the previous bracket was closed",
                ));
            }
            in_row = true;
        } else if DIRECTION_WORDS.contains(&t) {
            if cell.len() % 2 == 1 {
                return Err(PsError::at(
                    line,
                    "an item can only have one direction or action at a time",
                ));
            }
            if in_row {
                if rule.late && !matches!(t, "no" | "random" | "randomdir") {
                    return Err(PsError::at(line, "movements cannot appear in late rules"));
                }
                cell.push(t.to_string());
            }
        } else if t == "|" || t == "]" {
            if cell.len() % 2 == 1 {
                return Err(PsError::at(
                    line,
                    "in a rule, a movement has to act on an object",
                ));
            }
            if in_row {
                row.push(
                    cell.chunks(2)
                        .map(|c| (c[0].clone(), c[1].clone()))
                        .collect(),
                );
                cell.clear();
            }
            if t == "]" {
                if !in_row {
                    return Err(PsError::at(line, "a \"]\" without its \"[\""));
                }
                let r = std::mem::take(&mut row);
                if on_rhs {
                    rule.rhs.push(r);
                } else {
                    rule.lhs.push(r);
                }
                in_row = false;
            }
        } else if t == "->" {
            if on_rhs {
                return Err(PsError::at(line, "you can only use \"->\" once in a rule"));
            }
            if !in_row {
                on_rhs = true;
            }
        } else if t == "..." {
            if in_row {
                cell.push("...".into());
                cell.push("...".into());
            }
        } else if legend.known(t) {
            if in_row {
                // The same object twice in a cell is an error the reference
                // logs and plays on with.
                if cell.len().is_multiple_of(2) {
                    cell.push(String::new());
                }
                cell.push(t.to_string());
            }
        } else if COMMANDS.contains(&t) {
            if !on_rhs {
                return Err(PsError::at(
                    line,
                    "commands should only appear at the end of rules",
                ));
            }
            if t == "message" {
                let text = message_text(&l.original, &tokens, i);
                rule.commands.push(Command {
                    name: t.into(),
                    text: Some(if text.is_empty() { " ".into() } else { text }),
                });
                break;
            }
            rule.commands.push(Command {
                name: t.into(),
                text: None,
            });
        }
        // Anything else in a rule is an error the reference logs and skips.
        i += 1;
    }
    if rule.late && rule.rigid {
        return Err(PsError::at(line, "late rules cannot be marked as rigid"));
    }
    check_shape(&rule)?;
    if !directional(&rule) && rule.directions.len() > 1 {
        rule.directions.truncate(1);
    }
    Ok(Parsed::Rule(Box::new(rule)))
}

/// One word before a rule's first bracket: `+`, `late`, `rigid`,
/// `random` or directions.
fn prelude_word(
    rule: &mut Rule,
    t: &str,
    first: bool,
    has_plus: &mut bool,
    previous: &[Rule],
) -> Result<(), PsError> {
    let line = rule.line;
    match t {
        "+" => {
            if *has_plus {
                return Err(PsError::at(line, "two \"+\"s applied to the same rule"));
            }
            let Some(p) = previous.last() else {
                return Err(PsError::at(
                    line,
                    "the \"+\" symbol needs a previous rule to join",
                ));
            };
            if !first {
                return Err(PsError::at(
                    line,
                    "the \"+\" symbol must be the first symbol on the line",
                ));
            }
            *has_plus = true;
            rule.group = p.group;
        }
        "late" => rule.late = true,
        "rigid" => rule.rigid = true,
        "random" => {
            if *has_plus {
                return Err(PsError::at(
                    line,
                    "a rule-group can only be marked random by its first rule",
                ));
            }
            rule.random = true;
        }
        "up" | "down" | "left" | "right" => rule.directions.push(t.to_string()),
        _ => match aggregate_dirs(t) {
            Some(ds) if !is_relative(t) => rule.directions.extend(ds.iter().map(|d| d.to_string())),
            _ => {
                return Err(PsError::at(
                    line,
                    format!(
                    "the start of a rule must be directions before the first bracket, not \"{}\"",
                    t.to_uppercase()
                ),
                ))
            }
        },
    }
    Ok(())
}

/// The text after the `message` token at `index`, from the line as written.
fn message_text(original: &str, tokens: &[String], index: usize) -> String {
    let lower = original.to_lowercase();
    let mut at = 0;
    for t in &tokens[..=index] {
        at = lower[at..].find(t.as_str()).map_or(at, |p| at + p) + t.len();
    }
    original.get(at..).unwrap_or("").trim().to_string()
}

fn check_shape(rule: &Rule) -> Result<(), PsError> {
    let line = rule.line;
    if rule.lhs.is_empty() {
        return Err(PsError::at(line, "this rule refers to nothing"));
    }
    if rule.lhs.len() != rule.rhs.len() {
        // A rule with no right-hand side at all only matches (the
        // reference warns and keeps it).
        if !rule.rhs.is_empty() {
            return Err(PsError::at(
                line,
                "the number of patterns on the left of the arrow must equal the number on the right",
            ));
        }
    } else {
        for (l, r) in rule.lhs.iter().zip(&rule.rhs) {
            if l.len() != r.len() {
                return Err(PsError::at(
                    line,
                    "each pattern on the left must have a pattern of equal length on the right",
                ));
            }
        }
    }
    for (k, row) in rule.lhs.iter().enumerate() {
        if row.is_empty() {
            return Err(PsError::at(line, "an empty pattern on the left-hand side"));
        }
        for (j, c) in row.iter().enumerate() {
            let ellipsis = c.iter().any(|e| e.0 == "...");
            if ellipsis && c.len() != 1 {
                return Err(PsError::at(
                    line,
                    "you can't have anything in with an ellipsis",
                ));
            }
            if ellipsis && (j == 0 || j == row.len() - 1) {
                return Err(PsError::at(line, "there's no point in putting an ellipsis at the very start or the end of a rule"));
            }
            if let Some(rrow) = rule.rhs.get(k) {
                let rell = rrow[j].iter().any(|e| e.0 == "...");
                if ellipsis != rell || rell && rrow[j].len() != 1 {
                    return Err(PsError::at(line, "an ellipsis on one side must be matched by one in the same place on the other"));
                }
            }
        }
        if row
            .iter()
            .filter(|c| c.iter().any(|e| e.0 == "..."))
            .count()
            > 2
        {
            return Err(PsError::at(
                line,
                "you can't use more than two ellipses in a single cell match pattern",
            ));
        }
    }
    Ok(())
}

fn row_has_relative(row: &Row) -> bool {
    row.iter().any(|c| c.iter().any(|e| is_relative(&e.0)))
}

/// True if the rule's meaning depends on its direction.
fn directional(rule: &Rule) -> bool {
    rule.lhs.iter().any(|r| r.len() > 1 || row_has_relative(r))
        || rule.rhs.iter().any(row_has_relative)
}

fn cells_mut(rule: &mut Rule) -> impl Iterator<Item = &mut Cell> {
    rule.lhs
        .iter_mut()
        .chain(rule.rhs.iter_mut())
        .flat_map(|r| r.iter_mut())
}

/// `^ v < > parallel perpendicular` to absolute directions.
fn absolutify(rule: &mut Rule) {
    let table: [&str; 6] = match rule.direction.as_str() {
        "right" => [
            "up",
            "down",
            "left",
            "right",
            "horizontal_par",
            "vertical_perp",
        ],
        "up" => [
            "left",
            "right",
            "down",
            "up",
            "vertical_par",
            "horizontal_perp",
        ],
        "down" => [
            "right",
            "left",
            "up",
            "down",
            "vertical_par",
            "horizontal_perp",
        ],
        _ => [
            "down",
            "up",
            "right",
            "left",
            "horizontal_par",
            "vertical_perp",
        ],
    };
    let rel = ["^", "v", "<", ">", "parallel", "perpendicular"];
    for c in cells_mut(rule) {
        for e in c.iter_mut() {
            if let Some(k) = rel.iter().position(|r| *r == e.0) {
                e.0 = table[k].to_string();
            }
        }
    }
}

/// Up and left rules without ellipses become down and right rules with
/// their rows reversed.
fn rewrite_up_left(rule: &mut Rule) {
    if rule
        .lhs
        .iter()
        .any(|r| r.iter().any(|c| c.iter().any(|e| e.1 == "...")))
    {
        return;
    }
    rule.direction = match rule.direction.as_str() {
        "up" => "down".into(),
        "left" => "right".into(),
        _ => return,
    };
    for r in rule.lhs.iter_mut().chain(rule.rhs.iter_mut()) {
        r.reverse();
    }
}

fn atomize_aggregates(rule: &mut Rule, legend: &dyn Legend) -> Result<(), PsError> {
    let line = rule.line;
    for c in cells_mut(rule) {
        let mut i = 0;
        while i < c.len() {
            if let Some(members) = legend.aggregate(&c[i].1) {
                if c[i].0 == "no" {
                    return Err(PsError::at(
                        line,
                        format!(
                            "you cannot use 'no' to exclude the aggregate object {}",
                            c[i].1.to_uppercase()
                        ),
                    ));
                }
                let dir = c[i].0.clone();
                c[i].1 = members[0].clone();
                for m in &members[1..] {
                    c.push((dir.clone(), m.clone()));
                }
            }
            i += 1;
        }
    }
    Ok(())
}

fn rephrase_synonyms(rule: &mut Rule, legend: &dyn Legend) {
    for c in cells_mut(rule) {
        for e in c.iter_mut() {
            if let Some(o) = legend.synonym(&e.1) {
                e.1 = o.to_string();
            }
        }
    }
}

/// A record of how an ambiguous word was made concrete in a derived rule.
#[derive(Debug, Clone)]
struct Replacement {
    key: String,
    concrete: String,
    count: usize,
    ambiguous: String,
    name: String,
    at: (usize, usize),
}

fn record(
    list: &mut Vec<Replacement>,
    key: String,
    concrete: &str,
    ambiguous: &str,
    name: &str,
    at: (usize, usize),
    by_cell: bool,
) {
    match list.iter_mut().find(|r| r.key == key) {
        Some(r) => {
            if !by_cell || r.at != at {
                r.count += 1;
            }
        }
        None => list.push(Replacement {
            key,
            concrete: concrete.into(),
            count: 1,
            ambiguous: ambiguous.into(),
            name: name.into(),
            at,
        }),
    }
}

fn rhs_cells(rule: &mut Rule) -> impl Iterator<Item = &mut Cell> {
    rule.rhs.iter_mut().flat_map(|r| r.iter_mut())
}

/// Most concrete rules one rule line may expand into.
const MAX_EXPANSION: usize = 200_000;

/// Replaces every item that `step` expands by its children (appended at
/// the end), until no item expands: the reference's worklist order. `None`
/// when the items pass [`MAX_EXPANSION`].
fn expand_until_fixed<T: Clone>(
    mut items: Vec<T>,
    mut step: impl FnMut(&T) -> Option<Vec<T>>,
) -> Option<Vec<T>> {
    let mut modified = true;
    while modified {
        modified = false;
        let mut i = 0;
        while i < items.len() {
            match step(&items[i]) {
                Some(children) => {
                    if items.len() + children.len() > MAX_EXPANSION {
                        return None;
                    }
                    items.extend(children);
                    items.remove(i);
                    modified = true;
                }
                None => i += 1,
            }
        }
    }
    Some(items)
}

fn too_many(line: usize) -> PsError {
    PsError::Unsupported {
        line,
        feature: format!("a rule expanding into more than {MAX_EXPANSION} concrete rules"),
    }
}

/// One rule per concrete direction of each ambiguous movement on the left.
fn concretize_moving(rule: Rule, _legend: &dyn Legend) -> Result<Vec<Rule>, PsError> {
    let line = rule.line;
    type Item = (Rule, Option<(Vec<Replacement>, Vec<Replacement>)>);
    let result: Vec<Item> = vec![(rule, None)];
    let result = expand_until_fixed(result, |(cur, reps)| {
        let mut children = Vec::new();
        for j in 0..cur.lhs.len() {
            for k in 0..cur.lhs[j].len() {
                let Some((name, amb)) = cur.lhs[j][k]
                    .iter()
                    .find(|e| aggregate_dirs(&e.0).is_some())
                    .map(|e| (e.1.clone(), e.0.clone()))
                else {
                    continue;
                };
                for concrete in aggregate_dirs(&amb).unwrap_or(&[]) {
                    let mut n = cur.clone();
                    let (mut moving, mut dirs) = reps.clone().unwrap_or_default();
                    for e in n.lhs[j][k].iter_mut() {
                        if e.0 == amb && e.1 == name {
                            e.0 = concrete.to_string();
                        }
                    }
                    if let Some(r) = n.rhs.get_mut(j) {
                        for e in r[k].iter_mut() {
                            if e.0 == amb && e.1 == name {
                                e.0 = concrete.to_string();
                            }
                        }
                    }
                    record(
                        &mut moving,
                        format!("{name}{amb}"),
                        concrete,
                        &amb,
                        &name,
                        (j, k),
                        true,
                    );
                    record(&mut dirs, amb.clone(), concrete, &amb, "", (j, k), false);
                    children.push((n, Some((moving, dirs))));
                }
            }
        }
        (!children.is_empty()).then_some(children)
    })
    .ok_or_else(|| too_many(line))?;
    let mut out = Vec::new();
    for (mut r, reps) in result {
        if let Some((moving, dirs)) = reps {
            for m in moving.iter().filter(|m| m.count == 1) {
                for c in rhs_cells(&mut r) {
                    for e in c.iter_mut() {
                        if e.0 == m.ambiguous && e.1 == m.name {
                            e.0 = m.concrete.clone();
                        }
                    }
                }
            }
            let mut names: Vec<(String, Option<String>)> = Vec::new();
            for d in &dirs {
                match names.iter_mut().find(|n| n.0 == d.ambiguous) {
                    Some(n) => n.1 = None,
                    None => names.push((
                        d.ambiguous.clone(),
                        (d.count == 1).then(|| d.concrete.clone()),
                    )),
                }
            }
            for (amb, concrete) in names {
                let Some(concrete) = concrete else { continue };
                for c in rhs_cells(&mut r) {
                    for e in c.iter_mut() {
                        if e.0 == amb {
                            e.0 = concrete.clone();
                        }
                    }
                }
            }
        }
        if r.rhs
            .iter()
            .flatten()
            .flatten()
            .any(|e| aggregate_dirs(&e.0).is_some())
        {
            return Err(PsError::at(
                r.line,
                "this rule has an ambiguous movement on the right-hand side that can't be inferred from the left-hand side",
            ));
        }
        out.push(r);
    }
    Ok(out)
}

fn properties_of(cell: &Cell, legend: &dyn Legend) -> Vec<String> {
    cell.iter()
        .filter(|e| e.0 != "random" && legend.property(&e.1).is_some())
        .map(|e| e.1.clone())
        .collect()
}

fn expand_no_properties(cell: &Cell, legend: &dyn Legend) -> Cell {
    let mut out = Vec::new();
    for e in cell {
        match legend.property(&e.1) {
            Some(members) if e.0 == "no" => {
                out.extend(members.iter().map(|m| ("no".to_string(), m.clone())))
            }
            _ => out.push(e.clone()),
        }
    }
    out
}

fn concretize_in_cell(cell: &mut Cell, property: &str, concrete: &str) {
    for e in cell.iter_mut() {
        if e.1 == property && e.0 != "random" {
            e.1 = concrete.to_string();
        }
    }
}

/// One rule per object of each property that must be made concrete.
fn concretize_properties(mut rule: Rule, legend: &dyn Legend) -> Result<Vec<Rule>, PsError> {
    let line = rule.line;
    for j in 0..rule.lhs.len() {
        for k in 0..rule.lhs[j].len() {
            rule.lhs[j][k] = expand_no_properties(&rule.lhs[j][k], legend);
            if let Some(r) = rule.rhs.get_mut(j) {
                r[k] = expand_no_properties(&r[k], legend);
            }
        }
    }
    let mut ambiguous: Vec<String> = Vec::new();
    for (j, row) in rule.rhs.iter().enumerate() {
        for (k, cell) in row.iter().enumerate() {
            let left = properties_of(&rule.lhs[j][k], legend);
            for p in properties_of(cell, legend) {
                if !left.contains(&p) && !ambiguous.contains(&p) {
                    ambiguous.push(p);
                }
            }
        }
    }
    // Each derived rule with the properties made concrete in it: the
    // property, the object chosen, and how many cells it was chosen for.
    type Chosen = Vec<(String, String, usize)>;
    let result: Vec<(Rule, Option<Chosen>)> = vec![(rule, None)];
    let result = expand_until_fixed(result, |(cur, reps)| {
        let mut children = Vec::new();
        'rows: for j in 0..cur.lhs.len() {
            for k in 0..cur.lhs[j].len() {
                for p in properties_of(&cur.lhs[j][k], legend) {
                    if legend.single_layer(&p).is_some() && !ambiguous.contains(&p) {
                        continue;
                    }
                    for alias in legend.property(&p).unwrap_or(&[]) {
                        let mut n = cur.clone();
                        let mut reps = reps.clone().unwrap_or_default();
                        concretize_in_cell(&mut n.lhs[j][k], &p, alias);
                        if let Some(r) = n.rhs.get_mut(j) {
                            concretize_in_cell(&mut r[k], &p, alias);
                        }
                        match reps.iter_mut().find(|r| r.0 == p) {
                            Some(r) => r.2 += 1,
                            None => reps.push((p.clone(), alias.clone(), 1)),
                        }
                        children.push((n, Some(reps)));
                    }
                    break 'rows;
                }
            }
        }
        (!children.is_empty()).then_some(children)
    })
    .ok_or_else(|| too_many(line))?;
    let mut out = Vec::new();
    for (mut r, reps) in result {
        for (p, concrete, count) in reps.unwrap_or_default() {
            if count == 1 {
                for c in rhs_cells(&mut r) {
                    concretize_in_cell(c, &p, &concrete);
                }
            }
        }
        for c in r.rhs.iter().flatten() {
            if let Some(p) = properties_of(c, legend)
                .into_iter()
                .find(|p| ambiguous.contains(p))
            {
                return Err(PsError::at(
                    r.line,
                    format!(
                        "this rule has a property on the right-hand side, \"{}\", that can't be inferred from the left-hand side",
                        p.to_uppercase()
                    ),
                ));
            }
        }
        out.push(r);
    }
    Ok(out)
}

/// Objects written on the right without a movement, on a layer the left
/// cell does not mention, are made stationary (so they do not inherit a
/// movement left on their layer).
fn make_spawned_stationary(rule: &mut Rule, legend: &dyn Legend) {
    if rule.late {
        return;
    }
    for j in 0..rule.rhs.len() {
        for k in 0..rule.rhs[j].len() {
            let mut objects_l: Vec<String> = Vec::new();
            for e in &rule.lhs[j][k] {
                if legend.object_layer(&e.1).is_some() {
                    objects_l.push(e.1.clone());
                } else if let Some(m) = legend.property(&e.1) {
                    objects_l.extend(m.iter().cloned());
                }
            }
            let layers: Vec<Option<usize>> =
                objects_l.iter().map(|n| legend.object_layer(n)).collect();
            for e in rule.rhs[j][k].iter_mut() {
                if !e.0.is_empty() || legend.property(&e.1).is_some() || objects_l.contains(&e.1) {
                    continue;
                }
                let layer = legend.object_layer(&e.1);
                if layer.is_some() && !layers.contains(&layer) {
                    e.0 = "stationary".into();
                }
            }
        }
    }
}

/// Drops a rule equal to a later one of the same run of its group, as the
/// reference does (it compares the rules' printed forms).
fn remove_duplicates(rules: Vec<Rule>) -> Vec<Rule> {
    let key = |r: &Rule| {
        let directed = r.lhs.iter().any(|row| row.len() > 1);
        (
            r.line,
            if directed {
                r.direction.clone()
            } else {
                String::new()
            },
            r.rigid,
            r.random,
            r.late,
            r.lhs.clone(),
            r.rhs.clone(),
            r.commands.clone(),
        )
    };
    let mut keep = vec![false; rules.len()];
    let mut seen = Vec::new();
    let mut last_group = usize::MAX;
    for i in (0..rules.len()).rev() {
        if rules[i].group != last_group {
            seen.clear();
        }
        let k = key(&rules[i]);
        if !seen.contains(&k) {
            seen.push(k);
            keep[i] = true;
        }
        last_group = rules[i].group;
    }
    rules
        .into_iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(r, _)| r)
        .collect()
}
