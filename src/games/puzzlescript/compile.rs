//! A read source to a runnable game: object ids in collision-layer order,
//! the legend's dictionaries, the rules' cell patterns and replacements as
//! bit masks (the reference's `rulesToMask`), rule groups with their loop
//! points and rigid indices, win conditions, and the levels as packed cells.

use std::collections::HashMap;
use std::hash::BuildHasher;

use rustc_hash::{FxBuildHasher, FxHashMap};

use super::bits::{self, Bits};
use super::error::PsError;
use super::marks::RuleMarks;
use super::parse::{parse_source, LevelDef, Source};
use super::rules::{self, Command, Legend};

/// An object of a compiled game.
#[derive(Debug, Clone)]
pub struct Object {
    /// Its name, lower-case.
    pub name: String,
    /// Its collision layer.
    pub layer: usize,
    /// Its colours as written.
    pub colors: Vec<String>,
    /// Its sprite rows.
    pub sprite: Vec<String>,
}

/// A cell of a rule's left-hand side, with what the right-hand side does to
/// it.
#[derive(Debug, Clone)]
pub struct CellPattern {
    /// Objects that must all be there.
    pub present: Bits,
    /// Objects that must all be absent.
    pub missing: Bits,
    /// Sets of which at least one object must be there (properties).
    pub any_present: Vec<Bits>,
    /// Movement bits that must be set.
    pub moves_present: Bits,
    /// Movement bits that must be clear.
    pub moves_missing: Bits,
    /// The replacement, if the rule changes this cell.
    pub replacement: Option<Replacement>,
    /// The tests above as single words, only the words that test
    /// something, the object tests first (see [`CellPattern::seal`]).
    pub tests: Vec<CellTest>,
    /// True if a set of `any_present` spans words (not in `tests`).
    pub wide_any: bool,
    /// The tests as masks of one word each, when they fit (see
    /// [`SingleWord`]).
    pub single: Option<SingleWord>,
    /// The object tests as lists of objects, for matching on bit boards.
    pub board: BoardTest,
}

/// A cell pattern's object tests as lists of object ids (filled by
/// [`CellPattern::seal`]): matching on bit boards reads one board per
/// object listed, with no walk over the bits of the masks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoardTest {
    /// Objects that must all be there.
    pub present: Box<[usize]>,
    /// Objects that must all be absent.
    pub missing: ObjectSet,
    /// Sets of which at least one object must be there.
    pub any: Box<[ObjectSet]>,
    /// True if the pattern also tests movements (a bit board of objects
    /// then only narrows where it matches).
    pub moves: bool,
    /// True if the pattern needs a movement set in its cell (`> Player`):
    /// it can match only where something moves.
    pub moving: bool,
}

/// Objects whose bit boards are ORed: a property, or the objects a cell
/// excludes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ObjectSet {
    /// The objects.
    pub ids: Box<[usize]>,
    /// Where a cache of ORed boards keeps this set's (a hash of `ids`).
    pub slot: usize,
}

impl ObjectSet {
    fn of(b: &[u64]) -> ObjectSet {
        let ids: Box<[usize]> = bits::ones(b).collect();
        let hash = FxBuildHasher.hash_one(&ids);
        ObjectSet {
            slot: (hash >> 32) as usize,
            ids,
        }
    }
}

impl BoardTest {
    fn of(p: &CellPattern) -> BoardTest {
        BoardTest {
            present: bits::ones(&p.present).collect(),
            missing: ObjectSet::of(&p.missing),
            any: p.any_present.iter().map(|set| ObjectSet::of(set)).collect(),
            moves: !bits::is_zero(&p.moves_present) || !bits::is_zero(&p.moves_missing),
            moving: !bits::is_zero(&p.moves_present),
        }
    }

    /// True if the pattern tests no object.
    pub fn is_empty(&self) -> bool {
        self.present.is_empty() && self.missing.ids.is_empty() && self.any.is_empty()
    }
}

/// A cell pattern whose tests read one object word and one movement
/// word, with one property at most: checked in a few instructions instead
/// of a walk of [`CellPattern::tests`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SingleWord {
    /// The object word tested.
    pub word: usize,
    /// The movement word tested.
    pub move_word: usize,
    /// Objects that must all be there.
    pub all: u64,
    /// Objects of which one must be there (if `has_any`).
    pub any: u64,
    /// True if there is a property to test.
    pub has_any: bool,
    /// Objects that must be absent.
    pub none: u64,
    /// Movement bits that must be set.
    pub moves_all: u64,
    /// Movement bits that must be clear.
    pub moves_none: u64,
}

impl SingleWord {
    /// The single-word form of `tests`, if they read one object word and
    /// one movement word and test one property at most.
    fn of(tests: &[CellTest]) -> Option<SingleWord> {
        let word = |moves: bool| {
            tests
                .iter()
                .find(|t| t.moves == moves)
                .map_or(0, |t| t.word)
        };
        let mut s = SingleWord {
            word: word(false),
            move_word: word(true),
            all: 0,
            any: 0,
            has_any: false,
            none: 0,
            moves_all: 0,
            moves_none: 0,
        };
        for t in tests {
            if t.word != if t.moves { s.move_word } else { s.word } {
                return None;
            }
            match (t.moves, t.kind) {
                (false, TestKind::All) => s.all |= t.mask,
                (false, TestKind::None) => s.none |= t.mask,
                (false, TestKind::Any) if !s.has_any => (s.any, s.has_any) = (t.mask, true),
                (false, TestKind::Any) => return None,
                (true, TestKind::All) => s.moves_all |= t.mask,
                (true, TestKind::None) => s.moves_none |= t.mask,
                (true, TestKind::Any) => return None,
            }
        }
        Some(s)
    }

    /// True if a cell whose tested object word is `o` and movement word
    /// `m` matches.
    #[inline]
    pub fn matches(&self, o: u64, m: u64) -> bool {
        let wrong = (o & self.all) ^ self.all
            | o & self.none
            | (m & self.moves_all) ^ self.moves_all
            | m & self.moves_none;
        wrong == 0 && (o & self.any != 0 || !self.has_any)
    }
}

/// One word of a cell pattern's tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellTest {
    /// True for a word of the movements, false for one of the objects.
    pub moves: bool,
    /// The word's index in the cell.
    pub word: usize,
    /// The bits tested.
    pub mask: u64,
    /// What the bits must be.
    pub kind: TestKind,
}

/// What a [`CellTest`] asks of its bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestKind {
    /// All set.
    All,
    /// At least one set.
    Any,
    /// None set.
    None,
}

impl CellPattern {
    /// ORs the object bits the pattern tests (present, absent or among
    /// alternatives) into `objects` and the movement bits into `moves`.
    pub fn add_reads(&self, objects: &mut [u64], moves: &mut [u64]) {
        bits::or(objects, &self.present);
        bits::or(objects, &self.missing);
        for set in &self.any_present {
            bits::or(objects, set);
        }
        bits::or(moves, &self.moves_present);
        bits::or(moves, &self.moves_missing);
    }

    /// Fills [`CellPattern::tests`] from the masks: required objects, then
    /// properties, excluded objects, required and excluded movements.
    pub fn seal(&mut self) {
        let mut tests = Vec::new();
        let mut add = |moves: bool, b: &[u64], kind: TestKind| {
            for (word, &mask) in b.iter().enumerate() {
                if mask != 0 {
                    tests.push(CellTest {
                        moves,
                        word,
                        mask,
                        kind,
                    });
                }
            }
        };
        add(false, &self.present, TestKind::All);
        let mut wide_any = false;
        for set in &self.any_present {
            if set.iter().filter(|w| **w != 0).count() == 1 {
                add(false, set, TestKind::Any);
            } else {
                wide_any = true;
            }
        }
        add(false, &self.missing, TestKind::None);
        add(true, &self.moves_present, TestKind::All);
        add(true, &self.moves_missing, TestKind::None);
        self.single = (!wide_any).then(|| SingleWord::of(&tests)).flatten();
        self.board = BoardTest::of(self);
        self.tests = tests;
        self.wide_any = wide_any;
        if let Some(r) = &mut self.replacement {
            r.random = !bits::is_zero(&r.random_entity) || !bits::is_zero(&r.random_dir);
            let random = r.random;
            r.object_words = (0..r.set.len())
                .filter(|&w| random || r.set[w] | r.clear[w] != 0)
                .collect();
            r.move_words = (0..r.moves_set.len())
                .filter(|&w| random || r.moves_set[w] | r.moves_clear[w] | r.layer_mask[w] != 0)
                .collect();
        }
    }
}

/// What a rule writes into a matched cell.
#[derive(Debug, Clone)]
pub struct Replacement {
    /// Objects removed.
    pub clear: Bits,
    /// Objects added.
    pub set: Bits,
    /// Movements cleared (layer fields of the layers written included).
    pub moves_clear: Bits,
    /// Movements set.
    pub moves_set: Bits,
    /// Layers whose movement the rule decides (for rigid).
    pub layer_mask: Bits,
    /// One of these objects is added at random.
    pub random_entity: Bits,
    /// Layers that get a random direction.
    pub random_dir: Bits,
    /// True if `random_entity` or `random_dir` is not empty.
    pub random: bool,
    /// The object words the replacement may change (every word when
    /// random), set by [`CellPattern::seal`].
    pub object_words: Vec<usize>,
    /// The movement words the replacement may change (every word when
    /// random).
    pub move_words: Vec<usize>,
}

/// A cell of a pattern row: a cell or an ellipsis.
#[derive(Debug, Clone)]
pub enum Pattern {
    /// A cell.
    Cell(Box<CellPattern>),
    /// Any number of cells.
    Ellipsis,
}

/// A compiled rule.
#[derive(Debug, Clone)]
pub struct Rule {
    /// Scanning direction as a movement bit: 1 up, 2 down, 4 left, 8 right.
    pub direction: u8,
    /// Rows of patterns.
    pub rows: Vec<Vec<Pattern>>,
    /// Ellipses per row.
    pub ellipses: Vec<usize>,
    /// True if the rule has a right-hand side.
    pub has_replacements: bool,
    /// Source line.
    pub line: usize,
    /// Group number (line of the group's first rule).
    pub group: usize,
    /// Rigid rule.
    pub rigid: bool,
    /// Commands given when it matches.
    pub commands: Vec<Command>,
    /// Per row: the objects and the movements every match needs somewhere
    /// in the row (to skip lines of the board that cannot match).
    pub row_masks: Vec<(Bits, Bits)>,
    /// Per row, every object then movement bit its cells test: a match
    /// of the row still holds while none of these bits is written.
    pub row_reads: Vec<Bits>,
    /// The cells that have a replacement, row after row, in order.
    pub replaced: Vec<Replaced>,
}

impl Rule {
    /// True when the rule gives the command `name` (`win`, `cancel`, ...).
    pub fn gives(&self, name: &str) -> bool {
        self.commands.iter().any(|c| c.name == name)
    }
}

/// Where a cell with a replacement is in its rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Replaced {
    /// Its row.
    pub row: usize,
    /// Its index in the row (ellipses counted).
    pub index: usize,
    /// The cells before it in the row (ellipses not counted).
    pub offset: usize,
    /// The ellipses before it in the row.
    pub ellipses: usize,
}

/// The cells of `rows` that have a replacement, in order.
fn replaced_cells(rows: &[Vec<Pattern>]) -> Vec<Replaced> {
    let mut out = Vec::new();
    for (row, patterns) in rows.iter().enumerate() {
        let (mut offset, mut ellipses) = (0, 0);
        for (index, p) in patterns.iter().enumerate() {
            match p {
                Pattern::Ellipsis => ellipses += 1,
                Pattern::Cell(c) => {
                    if c.replacement.is_some() {
                        out.push(Replaced {
                            row,
                            index,
                            offset,
                            ellipses,
                        });
                    }
                    offset += 1;
                }
            }
        }
    }
    out
}

/// Rules applied together until none changes anything.
#[derive(Debug, Clone)]
pub struct Group {
    /// The rules in order.
    pub rules: Vec<Rule>,
    /// Apply one match chosen at random instead.
    pub random: bool,
    /// Per rule, the objects then the movements its rows need somewhere
    /// on the board (the union of its row masks), rule after rule in one
    /// vector so that skipping absent rules stays in cache.
    pub needs: Vec<u64>,
    /// Per rule, every object then every movement bit its cells test
    /// (present, absent or among alternatives), laid out like `needs`: a
    /// rule that found nothing finds nothing again until one of these
    /// bits changes in some cell.
    pub reads: Vec<u64>,
    /// Per rule, the object then movement bits its replacements may
    /// write (cleared or set), laid out like `needs`.
    pub writes: Vec<u64>,
    /// Per rule: true if it settles, that is a second application right
    /// after it was applied to all its matches changes nothing, until a
    /// bit it reads or writes is written by something else: it changes no
    /// bit it reads (so its matches stay the same), its replacements are
    /// neither random nor rigid (each is idempotent on a cell, and so is
    /// any sequence of them), and it gives no command.
    pub settles: Vec<bool>,
    /// The number of its first rule among all rules (the groups' rules
    /// one after the other, late groups after the others).
    pub first: usize,
}

impl Group {
    /// A group of `rules`, drawing one match at random if `random`; its
    /// rules are numbered with the others' by [`number_rules`].
    pub fn new(rules: Vec<Rule>, random: bool) -> Group {
        let reads = Group::reads_of(&rules);
        let writes = Group::writes_of(&rules);
        Group {
            random,
            needs: Group::needs_of(&rules),
            settles: Group::settles_of(&rules, &reads, &Group::changes_of(&rules)),
            reads,
            writes,
            first: 0,
            rules,
        }
    }

    /// One entry of objects then movements (the words of the rule's row
    /// masks) per rule, one after the other, each filled by `fill`.
    fn per_rule(rules: &[Rule], fill: impl Fn(&Rule, &mut [u64], &mut [u64])) -> Vec<u64> {
        let mut out = Vec::new();
        for r in rules {
            let (ow, mw) = r
                .row_masks
                .first()
                .map_or((0, 0), |(o, m)| (o.len(), m.len()));
            let at = out.len();
            out.resize(at + ow + mw, 0);
            let (objects, moves) = out[at..].split_at_mut(ow);
            fill(r, objects, moves);
        }
        out
    }

    /// The needs of every rule, one after the other.
    fn needs_of(rules: &[Rule]) -> Vec<u64> {
        Group::per_rule(rules, |r, objects, moves| {
            for (o, m) in &r.row_masks {
                bits::or(objects, o);
                bits::or(moves, m);
            }
        })
    }

    /// The bits every rule's replacements may write, one rule after the
    /// other.
    fn writes_of(rules: &[Rule]) -> Vec<u64> {
        Group::per_rule(rules, |r, objects, moves| {
            for p in r.rows.iter().flatten() {
                let Pattern::Cell(c) = p else { continue };
                let Some(w) = &c.replacement else { continue };
                bits::or(objects, &w.clear);
                bits::or(objects, &w.set);
                bits::or(moves, &w.moves_clear);
                bits::or(moves, &w.moves_set);
                bits::or(moves, &w.layer_mask);
            }
        })
    }

    /// The bits every rule's replacements may change in a cell they are
    /// applied to, one rule after the other: fewer than its writes, since
    /// a matched cell holds the objects and movements its pattern needs.
    /// A replacement makes a cell `(old & !clear) | set`, which changes
    /// only bits of `set` the pattern does not need, and bits of `clear`
    /// not in `set`. Several replacements on one cell change nothing
    /// outside the union of theirs: a bit none of them may change is as
    /// the pattern found it, so each leaves it alone.
    fn changes_of(rules: &[Rule]) -> Vec<u64> {
        Group::per_rule(rules, |r, objects, moves| {
            for p in r.rows.iter().flatten() {
                let Pattern::Cell(c) = p else { continue };
                let Some(w) = &c.replacement else { continue };
                let changes = |out: &mut [u64], set: &[u64], clear: &[u64], needed: &[u64]| {
                    for (k, o) in out.iter_mut().enumerate() {
                        *o |= (set[k] & !needed[k]) | (clear[k] & !set[k]);
                    }
                };
                changes(objects, &w.set, &w.clear, &c.present);
                let moves_clear: Bits = w
                    .moves_clear
                    .iter()
                    .zip(&w.layer_mask)
                    .map(|(c, l)| c | l)
                    .collect();
                changes(moves, &w.moves_set, &moves_clear, &c.moves_present);
            }
        })
    }

    /// Which rules settle (see [`Group::settles`]), given their reads and
    /// the bits they may change.
    fn settles_of(rules: &[Rule], reads: &[u64], writes: &[u64]) -> Vec<bool> {
        let stride = reads.len() / rules.len().max(1);
        rules
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let span = i * stride..(i + 1) * stride;
                let random = r.rows.iter().flatten().any(|p| {
                    matches!(p, Pattern::Cell(c) if c.replacement.as_ref().is_some_and(|w| w.random))
                });
                r.has_replacements
                    && !r.rigid
                    && !random
                    && r.commands.is_empty()
                    && stride > 0
                    && !bits::meets(&reads[span.clone()], &writes[span])
            })
            .collect()
    }

    /// The bits every rule reads, one rule after the other.
    fn reads_of(rules: &[Rule]) -> Vec<u64> {
        Group::per_rule(rules, |r, objects, moves| {
            for p in r.rows.iter().flatten() {
                if let Pattern::Cell(c) = p {
                    c.add_reads(objects, moves);
                }
            }
        })
    }
}

/// Numbers the rules of `normal` then `late` (each group's
/// [`Group::first`]) and gathers the readers of every bit (`stride` words a
/// rule in [`Group::reads`]) and the rules that settle and write it.
pub fn number_rules(normal: &mut [Group], late: &mut [Group], stride: usize) -> RuleMarks {
    let mut readers = vec![Vec::new(); stride * 64];
    let mut writers = vec![Vec::new(); stride * 64];
    let mut next = 0;
    for g in normal.iter_mut().chain(late.iter_mut()) {
        g.first = next;
        for (r, reads) in g.reads.chunks_exact(stride.max(1)).enumerate() {
            for bit in bits::ones(reads) {
                readers[bit].push((next + r) as u32);
            }
        }
        let writes = g.writes.chunks_exact(stride.max(1));
        for (r, writes) in writes.enumerate().filter(|(r, _)| g.settles[*r]) {
            for bit in bits::ones(writes) {
                writers[bit].push((next + r) as u32);
            }
        }
        next += g.rules.len();
    }
    RuleMarks::new(&readers, &writers)
}

/// A win condition.
#[derive(Debug, Clone)]
pub struct WinCondition {
    /// -1 no, 0 some, 1 all.
    pub quantifier: i8,
    /// The first set.
    pub first: Bits,
    /// The first set is an aggregate (all its objects needed).
    pub first_all: bool,
    /// The second set (`on ...`; every object when absent).
    pub second: Bits,
    /// The second set is an aggregate.
    pub second_all: bool,
}

/// A level as the game starts it.
#[derive(Debug, Clone)]
pub enum Level {
    /// A map: objects per cell, cells column by column (index x*height+y).
    Map {
        /// Width in cells.
        width: usize,
        /// Height in cells.
        height: usize,
        /// Object words per cell, cells in column-major order.
        cells: Vec<u64>,
        /// Line of the level in the source.
        line: usize,
    },
    /// A message screen.
    Message(String),
}

/// A compiled game.
#[derive(Debug, Clone)]
pub struct Game {
    /// Objects by id.
    pub objects: Vec<Object>,
    /// Number of collision layers.
    pub layers: usize,
    /// Words of a cell's object set.
    pub object_words: usize,
    /// Words of a cell's movements.
    pub movement_words: usize,
    /// The objects of each layer.
    pub layer_masks: Vec<Bits>,
    /// The player objects, and whether all are needed together.
    pub player: (bool, Bits),
    /// Rule groups before movement.
    pub rules: Vec<Group>,
    /// Late rule groups.
    pub late_rules: Vec<Group>,
    /// Per object bit, then per movement bit, the rules that read it and
    /// the rules that settle and may write it (rules numbered as
    /// [`Group::first`] says).
    pub marks: RuleMarks,
    /// Loop points: group index at the end of a loop -> group to go back to.
    pub loop_point: FxHashMap<usize, usize>,
    /// The same for late groups.
    pub late_loop_point: FxHashMap<usize, usize>,
    /// Rigid index of each rigid group (by group number).
    pub rigid_index_of_group: HashMap<usize, usize>,
    /// Group index of each rigid index.
    pub group_of_rigid_index: Vec<usize>,
    /// True if any rule is rigid.
    pub rigid: bool,
    /// Win conditions.
    pub winconditions: Vec<WinCondition>,
    /// Levels and messages.
    pub levels: Vec<Level>,
    /// Prelude options, lower-case keys.
    pub metadata: HashMap<String, String>,
}

impl Game {
    /// The number of rules, late ones included (see [`Group::first`]).
    pub fn rule_count(&self) -> usize {
        self.rules
            .iter()
            .chain(&self.late_rules)
            .map(|g| g.rules.len())
            .sum()
    }

    /// True if the prelude sets `key`.
    pub fn flag(&self, key: &str) -> bool {
        self.metadata.contains_key(key)
    }
}

/// Parses and compiles a source.
pub fn compile(text: &str) -> Result<Game, PsError> {
    let src = parse_source(text)?;
    let names = Names::new(&src)?;
    let expanded = rules::expand(&src.rules, &names)?;
    let mut normal: Vec<(usize, Vec<(Rule, bool)>)> = Vec::new();
    let mut late: Vec<(usize, Vec<(Rule, bool)>)> = Vec::new();
    let mut random_groups = Vec::new();
    for r in &expanded.rules {
        let Some((compiled, discard)) = names.to_masks(r)? else {
            continue;
        };
        if r.random {
            random_groups.push(r.group);
        }
        let target = if r.late { &mut late } else { &mut normal };
        match target.iter_mut().find(|g| g.0 == r.group) {
            Some(g) => g.1.push((compiled, discard)),
            None => target.push((r.group, vec![(compiled, discard)])),
        }
    }
    let groups = |mut v: Vec<(usize, Vec<(Rule, bool)>)>| -> Result<Vec<Group>, PsError> {
        v.sort_by_key(|g| g.0);
        let mut out = Vec::new();
        for (number, rules) in v {
            let all_discarded = rules.iter().all(|r| r.1);
            let kept: Vec<Rule> = rules.into_iter().filter(|r| !r.1).map(|r| r.0).collect();
            if kept.is_empty() {
                if all_discarded {
                    return Err(PsError::at(number, "this rule needs two objects of one collision layer to overlap: it can never trigger"));
                }
                continue;
            }
            let random = random_groups.contains(&number) && kept.iter().all(|r| r.group == number);
            out.push(Group::new(kept, random));
        }
        Ok(out)
    };
    let mut rule_groups = groups(normal)?;
    let mut late_groups = groups(late)?;
    let marks = number_rules(&mut rule_groups, &mut late_groups, names.ow + names.mw);
    let mut rigid_index_of_group = HashMap::new();
    let mut group_of_rigid_index = Vec::new();
    for (i, g) in rule_groups.iter().enumerate() {
        if g.rules.iter().any(|r| r.rigid) {
            rigid_index_of_group.insert(g.rules[0].group, group_of_rigid_index.len());
            group_of_rigid_index.push(i);
        }
    }
    if group_of_rigid_index.len() > 30 {
        return Err(PsError::at(
            rule_groups[group_of_rigid_index[30]].rules[0].line,
            "there can't be more than 30 rigid groups",
        ));
    }
    let loops = check_loops(&expanded.loops)?;
    let winconditions = names.winconditions(&src)?;
    let levels = names.levels(&src)?;
    Ok(Game {
        objects: names.objects.clone(),
        layers: names.layers,
        object_words: names.ow,
        movement_words: names.mw,
        layer_masks: names.layer_masks.clone(),
        player: names
            .mask_of("player")
            .ok_or_else(|| PsError::Missing("there must be an object called player".into()))?,
        loop_point: loop_points(&loops, &rule_groups),
        late_loop_point: loop_points(&loops, &late_groups),
        rules: rule_groups,
        late_rules: late_groups,
        marks,
        rigid: !group_of_rigid_index.is_empty(),
        rigid_index_of_group,
        group_of_rigid_index,
        winconditions,
        levels,
        metadata: src
            .metadata
            .iter()
            .map(|m| (m.key.clone(), m.value.clone()))
            .collect(),
    })
}

fn check_loops(loops: &[(usize, i32)]) -> Result<Vec<(usize, i32)>, PsError> {
    for (i, &(line, b)) in loops.iter().enumerate() {
        if i % 2 == 0 && b == -1 {
            return Err(PsError::at(line, "found an ENDLOOP, but I'm not in a loop"));
        }
        if i % 2 == 1 && b == 1 {
            return Err(PsError::at(
                line,
                "found a STARTLOOP, but I'm already inside a loop",
            ));
        }
    }
    if loops.len() % 2 == 1 {
        return Err(PsError::at(
            loops[loops.len() - 1].0,
            "a STARTLOOP without a corresponding ENDLOOP",
        ));
    }
    Ok(loops.to_vec())
}

/// For each loop, the last group inside it points back at the first.
fn loop_points(loops: &[(usize, i32)], groups: &[Group]) -> FxHashMap<usize, usize> {
    let mut points: FxHashMap<usize, usize> = FxHashMap::default();
    for pair in loops.chunks(2) {
        let (start, end) = (pair[0].0, pair[1].0);
        let mut init: Option<usize> = None;
        for (i, g) in groups.iter().enumerate() {
            let first = g.rules[0].line;
            if end < first {
                break;
            }
            if start <= first && first <= end {
                let init_i = *init.get_or_insert(i);
                if i > 0 && points.get(&(i - 1)) == Some(&init_i) {
                    points.remove(&(i - 1));
                }
                points.insert(i, init_i);
            }
        }
    }
    points
}

/// The legend resolved to objects, and the masks of every name.
struct Names {
    objects: Vec<Object>,
    ids: HashMap<String, usize>,
    layers: usize,
    ow: usize,
    mw: usize,
    layer_masks: Vec<Bits>,
    synonyms: Vec<(String, String)>,
    aggregates: Vec<(String, Vec<String>)>,
    properties: Vec<(String, Vec<String>)>,
    single_layer: HashMap<String, usize>,
    object_masks: HashMap<String, Bits>,
    aggregate_masks: HashMap<String, Bits>,
    known: Vec<String>,
    background: (usize, usize),
}

fn find<'a, T>(v: &'a [(String, T)], n: &str) -> Option<&'a T> {
    v.iter().find(|e| e.0 == n).map(|e| &e.1)
}

impl Names {
    fn new(src: &Source) -> Result<Names, PsError> {
        let mut objects = Vec::new();
        let mut ids = HashMap::new();
        // An object named in several layers (or twice in one) ends up where
        // it was named last, as in the reference (which only warns).
        let listed: Vec<(usize, &String)> = src
            .layers
            .iter()
            .enumerate()
            .flat_map(|(l, (names, _))| names.iter().map(move |n| (l, n)))
            .collect();
        for (k, &(layer, n)) in listed.iter().enumerate() {
            if listed[k + 1..].iter().any(|(_, m)| *m == n) {
                continue;
            }
            {
                let Some(def) = src.objects.iter().find(|o| o.name == *n) else {
                    continue;
                };
                ids.insert(n.clone(), objects.len());
                objects.push(Object {
                    name: n.clone(),
                    layer,
                    colors: def.colors.clone(),
                    sprite: def.sprite.clone(),
                });
            }
        }
        for o in &src.objects {
            if !ids.contains_key(&o.name) {
                return Err(PsError::at(
                    o.line,
                    format!(
                        "object \"{}\" has been defined, but not assigned to a layer",
                        o.name.to_uppercase()
                    ),
                ));
            }
        }
        if src.layers.is_empty() {
            return Err(PsError::Missing("no collision layers defined".into()));
        }
        let layers = src.layers.len();
        let ow = bits::words_for(objects.len());
        let mw = bits::movement_words(layers);
        let mut layer_masks = vec![bits::zero(ow); layers];
        for (id, o) in objects.iter().enumerate() {
            bits::set(&mut layer_masks[o.layer], id);
        }
        let (synonyms, aggregates, properties) = dictionaries(src)?;
        let mut single_layer = HashMap::new();
        for (name, members) in &properties {
            let layer_of = |m: &String| ids.get(m).map(|&i| objects[i].layer);
            let first = members.first().and_then(layer_of);
            if first.is_some() && members.iter().all(|m| layer_of(m) == first) {
                single_layer.insert(name.clone(), first.unwrap_or(0));
            }
        }
        let mut known: Vec<String> = src.objects.iter().map(|o| o.name.clone()).collect();
        for d in src
            .synonyms
            .iter()
            .chain(&src.aggregates)
            .chain(&src.properties)
        {
            known.push(d.name.clone());
        }
        let mut names = Names {
            objects,
            ids,
            layers,
            ow,
            mw,
            layer_masks,
            synonyms,
            aggregates,
            properties,
            single_layer,
            object_masks: HashMap::new(),
            aggregate_masks: HashMap::new(),
            known,
            background: (0, 0),
        };
        names.masks(src)?;
        names.background = names.background()?;
        if !names.known.iter().any(|n| n == "player") {
            return Err(PsError::Missing(
                "there must be an object called player".into(),
            ));
        }
        Ok(names)
    }

    fn masks(&mut self, src: &Source) -> Result<(), PsError> {
        for (id, o) in self.objects.iter().enumerate() {
            let mut m = bits::zero(self.ow);
            bits::set(&mut m, id);
            self.object_masks.insert(o.name.clone(), m);
        }
        let mut entries: Vec<(usize, &str, &[String])> = src
            .synonyms
            .iter()
            .map(|d| (d.line, d.name.as_str(), &d.names[..]))
            .chain(
                src.properties
                    .iter()
                    .map(|d| (d.line, d.name.as_str(), &d.names[..])),
            )
            .collect();
        entries.sort_by_key(|e| e.0);
        for (_, name, members) in entries {
            let mut m = bits::zero(self.ow);
            let mut any = false;
            for n in members {
                if let Some(x) = self.object_masks.get(n) {
                    bits::or(&mut m, x);
                    any = true;
                }
            }
            if any {
                self.object_masks.insert(name.to_string(), m);
            }
        }
        for (name, members) in &self.aggregates {
            let mut m = bits::zero(self.ow);
            for n in members {
                let id = self.id(n, 0)?;
                bits::set(&mut m, id);
            }
            self.aggregate_masks.insert(name.clone(), m);
        }
        Ok(())
    }

    fn id(&self, name: &str, line: usize) -> Result<usize, PsError> {
        self.ids.get(name).copied().ok_or_else(|| {
            PsError::at(
                line,
                format!("\"{}\" is not an object", name.to_uppercase()),
            )
        })
    }

    /// The background object's id and layer.
    fn background(&self) -> Result<(usize, usize), PsError> {
        let id = if let Some(&id) = self.ids.get("background") {
            id
        } else if let Some(o) = find(&self.synonyms, "background") {
            self.id(o, 0)?
        } else if let Some(members) = find(&self.properties, "background") {
            // Members on other layers are an error the reference logs and
            // plays on with: the first member is the background.
            self.id(&members[0], 0)?
        } else {
            return Err(PsError::Missing(
                "there must be an object called background".into(),
            ));
        };
        Ok((id, self.objects[id].layer))
    }

    /// The mask of a name and whether it is an aggregate.
    fn mask_of(&self, name: &str) -> Option<(bool, Bits)> {
        if let Some(m) = self.aggregate_masks.get(name) {
            return Some((true, m.clone()));
        }
        self.object_masks.get(name).map(|m| (false, m.clone()))
    }

    fn winconditions(&self, src: &Source) -> Result<Vec<WinCondition>, PsError> {
        let mut out = Vec::new();
        for (words, line) in &src.winconditions {
            let quantifier = match words[0].as_str() {
                "no" => -1,
                "all" => 1,
                "some" | "any" => 0,
                w => {
                    return Err(PsError::at(
                        *line,
                        format!(
                            "expecting the start of a win condition (ALL, SOME, NO) but got \"{}\"",
                            w.to_uppercase()
                        ),
                    ))
                }
            };
            if words.len() != 2 && !(words.len() == 4 && words[2] == "on") {
                return Err(PsError::at(*line, "win conditions look like \"No Fruit\", \"All Target On Crate\", \"Some Gold on Chest\""));
            }
            let lookup = |n: &str| {
                self.mask_of(n).ok_or_else(|| {
                    PsError::at(
                        *line,
                        format!(
                            "error in win condition: \"{}\" is not a valid object name",
                            n.to_uppercase()
                        ),
                    )
                })
            };
            let (first_all, first) = lookup(&words[1])?;
            let (second_all, second) = if words.len() == 4 {
                lookup(&words[3])?
            } else {
                (false, vec![u64::MAX; self.ow].into_boxed_slice())
            };
            out.push(WinCondition {
                quantifier,
                first,
                first_all,
                second,
                second_all,
            });
        }
        Ok(out)
    }

    /// The objects a level character stands for.
    fn glyph(&self, c: char, line: usize) -> Result<Bits, PsError> {
        let n = c.to_string();
        let mut m = bits::zero(self.ow);
        let members: Vec<String> = if self.ids.contains_key(&n) {
            vec![n.clone()]
        } else if let Some(o) = find(&self.synonyms, &n) {
            vec![o.clone()]
        } else if let Some(a) = find(&self.aggregates, &n) {
            a.clone()
        } else if find(&self.properties, &n).is_some() {
            return Err(PsError::at(line, format!("symbol \"{c}\" is defined using OR, and therefore ambiguous - it cannot be used in a map")));
        } else {
            return Err(PsError::at(
                line,
                format!(
                    "key \"{}\" not found; add it to the legend",
                    c.to_uppercase()
                ),
            ));
        };
        let mut used = vec![false; self.layers];
        for name in &members {
            let id = self.id(name, line)?;
            let layer = self.objects[id].layer;
            // Two objects of one layer: the reference logs an error and
            // keeps the first.
            if used[layer] {
                continue;
            }
            used[layer] = true;
            bits::set(&mut m, id);
        }
        Ok(m)
    }

    fn levels(&self, src: &Source) -> Result<Vec<Level>, PsError> {
        let mut out = Vec::new();
        for l in &src.levels {
            match l {
                LevelDef::Message { text, .. } => out.push(Level::Message(text.clone())),
                LevelDef::Map { rows, line } => out.push(self.level(rows, *line)?),
            }
        }
        Ok(out)
    }

    fn level(&self, rows: &[Vec<char>], line: usize) -> Result<Level, PsError> {
        let width = rows[0].len();
        let height = rows.len();
        let ow = self.ow;
        let mut cells = vec![0u64; width * height * ow];
        let mut cache: HashMap<char, Bits> = HashMap::new();
        for (y, row) in rows.iter().enumerate() {
            for x in 0..width {
                let c = row.get(x).or(row.last()).copied().unwrap_or('.');
                if let std::collections::hash_map::Entry::Vacant(v) = cache.entry(c) {
                    v.insert(self.glyph(c, line + y)?);
                }
                let i = x * height + y;
                cells[i * ow..(i + 1) * ow].copy_from_slice(&cache[&c]);
            }
        }
        let (bg_id, bg_layer) = self.background;
        let bg_mask = &self.layer_masks[bg_layer];
        let mut fill = bits::zero(ow);
        match (0..width * height).find(|&i| bits::meets(&cells[i * ow..(i + 1) * ow], bg_mask)) {
            Some(i) => {
                for (w, f) in fill.iter_mut().enumerate() {
                    *f = cells[i * ow + w] & bg_mask[w];
                }
            }
            None => bits::set(&mut fill, bg_id),
        }
        for i in 0..width * height {
            let cell = &mut cells[i * ow..(i + 1) * ow];
            if !bits::meets(cell, bg_mask) {
                bits::or(cell, &fill);
            }
        }
        Ok(Level::Map {
            width,
            height,
            cells,
            line,
        })
    }

    /// The layer of an object, or of a property on one layer.
    fn layer_of(&self, name: &str) -> Option<usize> {
        match self.ids.get(name) {
            Some(&id) => Some(self.objects[id].layer),
            None => self.single_layer.get(name).copied(),
        }
    }

    fn layer_or_error(&self, name: &str, line: usize) -> Result<usize, PsError> {
        self.layer_of(name).ok_or_else(|| {
            PsError::at(
                line,
                format!("{} not assigned to a layer", name.to_uppercase()),
            )
        })
    }

    fn name_mask(&self, name: &str, line: usize) -> Result<&Bits, PsError> {
        self.object_masks.get(name).ok_or_else(|| {
            PsError::at(
                line,
                format!("\"{}\" cannot be used here", name.to_uppercase()),
            )
        })
    }

    /// The masks of one expanded rule (`None` when the rule can never match
    /// and is dropped); the flag says the rule is to be discarded from its
    /// group (two objects of one layer required in a cell).
    fn to_masks(&self, r: &rules::Rule) -> Result<Option<(Rule, bool)>, PsError> {
        let mut rows = Vec::new();
        let mut discard = false;
        let mut ellipses = Vec::new();
        for (j, lrow) in r.lhs.iter().enumerate() {
            let mut row = Vec::new();
            let mut count = 0;
            for (k, cell) in lrow.iter().enumerate() {
                if cell.iter().any(|e| e.0 == "...") {
                    row.push(Pattern::Ellipsis);
                    count += 1;
                    continue;
                }
                let rcell = r.rhs.get(j).map(|row| &row[k]);
                match self.cell_masks(r, cell, rcell, &mut discard)? {
                    Some(mut p) => {
                        p.seal();
                        row.push(Pattern::Cell(Box::new(p)));
                    }
                    None => return Ok(None),
                }
            }
            rows.push(row);
            ellipses.push(count);
        }
        let direction = match r.direction.as_str() {
            "up" => 1,
            "down" => 2,
            "left" => 4,
            _ => 8,
        };
        let mut rule_rows = rows;
        let row_masks = rule_rows
            .iter_mut()
            .map(|row| {
                let mut objects = bits::zero(self.ow);
                let mut moves = bits::zero(self.mw);
                for p in row.iter() {
                    if let Pattern::Cell(c) = p {
                        bits::or(&mut objects, &c.present);
                        bits::or(&mut moves, &c.moves_present);
                    }
                }
                (objects, moves)
            })
            .collect();
        let rows = rule_rows;
        let row_reads = rows
            .iter()
            .map(|row| {
                let mut read = bits::zero(self.ow + self.mw);
                let (objects, moves) = read.split_at_mut(self.ow);
                for p in row {
                    if let Pattern::Cell(c) = p {
                        c.add_reads(objects, moves);
                    }
                }
                read
            })
            .collect();
        Ok(Some((
            Rule {
                direction,
                replaced: replaced_cells(&rows),
                rows,
                ellipses,
                has_replacements: !r.rhs.is_empty(),
                line: r.line,
                group: r.group,
                rigid: r.rigid,
                commands: r.commands.clone(),
                row_masks,
                row_reads,
            },
            discard,
        )))
    }

    fn cell_masks(
        &self,
        r: &rules::Rule,
        cell: &rules::Cell,
        rcell: Option<&rules::Cell>,
        discard: &mut bool,
    ) -> Result<Option<CellPattern>, PsError> {
        let (ow, mw, line) = (self.ow, self.mw, r.line);
        let mut p = CellPattern {
            present: bits::zero(ow),
            missing: bits::zero(ow),
            any_present: Vec::new(),
            moves_present: bits::zero(mw),
            moves_missing: bits::zero(mw),
            replacement: None,
            tests: Vec::new(),
            wide_any: false,
            single: None,
            board: BoardTest::default(),
        };
        let mut layers_l: Vec<Option<&str>> = vec![None; self.layers];
        let mut object_layers_l = bits::zero(mw);
        for (dir, name) in cell {
            if dir == "random" {
                return Err(PsError::at(line, "RANDOM cannot be matched on the left-hand side, it can only appear on the right"));
            }
            let mask = self.name_mask(name, line)?;
            if dir == "no" {
                bits::or(&mut p.missing, mask);
                continue;
            }
            let layer = self.layer_or_error(name, line)?;
            if layers_l[layer].is_some() {
                *discard = true;
            }
            layers_l[layer] = Some(name);
            if self.ids.contains_key(name) {
                bits::or(&mut p.present, mask);
                bits::or_field(&mut object_layers_l, layer, 0x1f);
            } else {
                p.any_present.push(mask.clone());
            }
            if dir == "stationary" {
                bits::or_field(&mut p.moves_missing, layer, 0x1f);
            } else {
                bits::or_field(&mut p.moves_present, layer, dir_mask(dir));
            }
        }
        if bits::meets(&p.present, &p.missing) {
            return Ok(None);
        }
        let Some(rcell) = rcell else {
            return Ok(Some(p));
        };
        let mut rp = Replacement {
            clear: bits::zero(ow),
            set: bits::zero(ow),
            moves_clear: bits::zero(mw),
            moves_set: bits::zero(mw),
            layer_mask: bits::zero(mw),
            random_entity: bits::zero(ow),
            random_dir: bits::zero(mw),
            random: false,
            object_words: Vec::new(),
            move_words: Vec::new(),
        };
        let mut layers_r: Vec<Option<&str>> = vec![None; self.layers];
        let mut layers_rand: Vec<Option<&str>> = vec![None; self.layers];
        let mut object_layers_r = bits::zero(mw);
        for (dir, name) in rcell {
            if dir == "random" {
                let mask = self.name_mask(name, line)?;
                bits::or(&mut rp.random_entity, mask);
                let members: Vec<String> = find(&self.properties, name)
                    .cloned()
                    .unwrap_or_else(|| vec![name.clone()]);
                for m in &members {
                    let id = self.id(m, line)?;
                    layers_rand[self.objects[id].layer] = Some(name);
                }
                continue;
            }
            let mask = self.name_mask(name, line)?;
            if dir == "no" {
                bits::or(&mut rp.clear, mask);
                continue;
            }
            let layer = self.layer_or_error(name, line)?;
            if (layers_r[layer].is_some() || layers_rand[layer].is_some()) && !*discard {
                return Err(PsError::at(
                    line,
                    format!(
                        "rule matches object types that can't overlap: \"{}\"",
                        name.to_uppercase()
                    ),
                ));
            }
            layers_r[layer] = Some(name);
            if !dir.is_empty() {
                bits::or_field(&mut rp.layer_mask, layer, 0x1f);
            }
            if let Some(&id) = self.ids.get(name) {
                bits::set(&mut rp.set, id);
                bits::or(&mut rp.clear, &self.layer_masks[layer]);
                bits::or_field(&mut object_layers_r, layer, 0x1f);
            }
            match dir.as_str() {
                "stationary" => bits::or_field(&mut rp.moves_clear, layer, 0x1f),
                "randomdir" => bits::or_field(&mut rp.random_dir, layer, dir_mask(dir)),
                _ => bits::or_field(&mut rp.moves_set, layer, dir_mask(dir)),
            }
        }
        if !bits::subset(&p.present, &rp.set) {
            bits::or(&mut rp.clear, &p.present);
        }
        if !bits::subset(&p.moves_present, &rp.moves_set) {
            bits::or(&mut rp.moves_clear, &p.moves_present);
        }
        for layer in 0..self.layers {
            if layers_l[layer].is_some() && layers_r[layer].is_none() {
                bits::or(&mut rp.clear, &self.layer_masks[layer]);
                bits::or_field(&mut rp.layer_mask, layer, 0x1f);
            }
        }
        for (w, x) in object_layers_l.iter_mut().enumerate() {
            *x &= !object_layers_r[w];
        }
        bits::or(&mut rp.layer_mask, &object_layers_l);
        let changes = [
            &rp.clear,
            &rp.set,
            &rp.moves_clear,
            &rp.moves_set,
            &rp.layer_mask,
            &rp.random_entity,
            &rp.random_dir,
        ]
        .iter()
        .any(|b| !bits::is_zero(b));
        if changes {
            p.replacement = Some(rp);
        }
        Ok(Some(p))
    }
}

/// The movement bits of a direction word.
fn dir_mask(dir: &str) -> u64 {
    match dir {
        "up" => 1,
        "down" => 2,
        "left" => 4,
        "right" => 8,
        "moving" => 15,
        "no" => 3,
        "randomdir" => 5,
        "random" => 18,
        "action" => 16,
        _ => 0,
    }
}

type Dicts = (
    Vec<(String, String)>,
    Vec<(String, Vec<String>)>,
    Vec<(String, Vec<String>)>,
);

/// The synonym, aggregate and property dictionaries, resolved as the
/// reference resolves them (synonyms of aggregates and properties become
/// aggregates and properties; members that are synonyms or properties are
/// replaced by their objects).
fn dictionaries(src: &Source) -> Result<Dicts, PsError> {
    let mut aggregates: Vec<(String, Vec<String>)> = src
        .aggregates
        .iter()
        .map(|d| (d.name.clone(), d.names.clone()))
        .collect();
    let mut properties: Vec<(String, Vec<String>)> = src
        .properties
        .iter()
        .map(|d| (d.name.clone(), d.names.clone()))
        .collect();
    let mut synonyms: Vec<(String, String)> = Vec::new();
    for d in &src.synonyms {
        let (key, value) = (&d.name, &d.names[0]);
        if let Some(a) = find(&aggregates, value).cloned() {
            aggregates.push((key.clone(), a));
        } else if let Some(p) = find(&properties, value).cloned() {
            properties.push((key.clone(), p));
        } else if key != value {
            let target = find(&synonyms, value)
                .cloned()
                .unwrap_or_else(|| value.clone());
            synonyms.push((key.clone(), target));
        }
    }
    let mut modified = true;
    let mut rounds = 0;
    while modified {
        rounds += 1;
        if rounds > 1000 {
            return Err(PsError::Missing(
                "the legend's definitions refer to each other in a loop".into(),
            ));
        }
        modified = expand_entries(&mut properties, &synonyms, &aggregates, "property")?;
        modified |= expand_entries(&mut aggregates, &synonyms, &properties, "aggregate")?;
    }
    Ok((synonyms, aggregates, properties))
}

fn expand_entries(
    dict: &mut [(String, Vec<String>)],
    synonyms: &[(String, String)],
    conflicting: &[(String, Vec<String>)],
    kind: &str,
) -> Result<bool, PsError> {
    let mut modified = false;
    for n in 0..dict.len() {
        let mut values = dict[n].1.clone();
        let mut i = 0;
        while i < values.len() {
            let value = values[i].clone();
            if let Some(s) = find(synonyms, &value) {
                values[i] = s.clone();
                modified = true;
            } else if let Some(members) = dict
                .iter()
                .find(|e| e.0 == value && e.0 != dict[n].0)
                .map(|e| e.1.clone())
            {
                values.remove(i);
                for m in members {
                    if !values.contains(&m) {
                        values.push(m);
                    }
                }
                modified = true;
            }
            if find(conflicting, &value).is_some() {
                return Err(PsError::Missing(format!(
                    "trying to define {kind} \"{}\" in terms of \"{}\" of the other kind",
                    dict[n].0.to_uppercase(),
                    value.to_uppercase()
                )));
            }
            i += 1;
        }
        dict[n].1 = values;
    }
    Ok(modified)
}

impl Legend for Names {
    fn object_layer(&self, name: &str) -> Option<usize> {
        self.ids.get(name).map(|&i| self.objects[i].layer)
    }
    fn property(&self, name: &str) -> Option<&[String]> {
        find(&self.properties, name).map(|v| &v[..])
    }
    fn aggregate(&self, name: &str) -> Option<&[String]> {
        find(&self.aggregates, name).map(|v| &v[..])
    }
    fn synonym(&self, name: &str) -> Option<&str> {
        find(&self.synonyms, name).map(|s| s.as_str())
    }
    fn single_layer(&self, name: &str) -> Option<usize> {
        self.single_layer.get(name).copied()
    }
    fn known(&self, name: &str) -> bool {
        self.known.iter().any(|k| k == name)
    }
}
