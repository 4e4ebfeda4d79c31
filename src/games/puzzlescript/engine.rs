//! The turn, exactly as the reference engine plays it: the player's
//! movement, rule groups (with `startloop`/`endloop` and rigid retries),
//! movement resolution layer by layer, late rules, then the commands
//! (`cancel`, `restart`, `win`, `checkpoint`, `again`), the win conditions,
//! undo and restart. A won level moves on to the next one, as the
//! reference's own test runner does.

use rustc_hash::FxHashMap;

use super::bits;
use super::compile::{Game, Group, Level, Rule};
use super::matching::{apply_at, find_matches, Board, Matches, RowMatch};
use super::rng::Rng;
use super::sweep::{one_cell, sweep};

/// An input of a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Input {
    /// Up.
    Up,
    /// Left.
    Left,
    /// Down.
    Down,
    /// Right.
    Right,
    /// The action key.
    Action,
}

impl Input {
    /// The movement bits of the input.
    fn mask(self) -> u64 {
        match self {
            Input::Up => 1,
            Input::Down => 2,
            Input::Left => 4,
            Input::Right => 8,
            Input::Action => 16,
        }
    }

    /// The input's letter: `u d l r x`.
    pub fn letter(self) -> char {
        match self {
            Input::Up => 'u',
            Input::Down => 'd',
            Input::Left => 'l',
            Input::Right => 'r',
            Input::Action => 'x',
        }
    }

    /// The input whose letter ([`Input::letter`]) is `c`.
    pub fn from_letter(c: char) -> Option<Input> {
        [
            Input::Up,
            Input::Down,
            Input::Left,
            Input::Right,
            Input::Action,
        ]
        .into_iter()
        .find(|i| i.letter() == c)
    }

    /// The reference's input number: 0 up, 1 left, 2 down, 3 right, 4 action.
    pub fn from_code(code: i64) -> Option<Input> {
        Some(match code {
            0 => Input::Up,
            1 => Input::Left,
            2 => Input::Down,
            3 => Input::Right,
            4 => Input::Action,
            _ => return None,
        })
    }
}

/// A game being played: the current level and everything the reference
/// keeps between turns.
#[derive(Debug, Clone)]
pub struct Engine<'g> {
    game: &'g Game,
    /// The level on screen (the last map level loaded).
    pub board: Board,
    /// Index of the current level (messages count).
    pub level_index: usize,
    rng: Rng,
    /// Undo states, each a copy of the board's objects, one after the other.
    backups: Vec<u64>,
    restart_target: Vec<u64>,
    /// An `again` turn is due.
    pub againing: bool,
    /// A message or the title screen is showing (no win checks).
    pub text_mode: bool,
    /// Levels won since the engine started.
    pub wins: usize,
    /// Move on to the next level after a win (the test runner's way); when
    /// false a win only counts in [`Engine::wins`].
    pub advance_on_win: bool,
    queue: Vec<String>,
    message: String,
    restarting: bool,
    /// The game's `require_player_movement` flag, read every turn.
    require_player_movement: bool,
    /// What the rules last found, to skip the rules that would find
    /// nothing again.
    seen: Seen,
    scratch: Scratch,
}

/// Which rules need matching: per rule (numbered as [`Group::first`]
/// says), false if it found nothing when last matched and no bit it reads
/// has been written since, so that it would find nothing again. Writes by
/// rules and by movement are marked as they happen; anything else done to
/// the board between turns (undo, restart, a new level, a position put
/// back by the solver) is found by comparing the board with the one the
/// flags were last brought up to date with.
///
/// A rule that settles (see [`Group::settles`]) is also idle once it has
/// been applied, until a bit it reads or writes is written by something
/// else: applying it again would change nothing.
#[derive(Debug, Clone, Default)]
struct Seen {
    /// Per rule, one bit a rule: set if it must be matched.
    dirty: Vec<u64>,
    /// Per rule, one bit a rule: set if it is idle (skipped although it
    /// matches).
    idle: Vec<u64>,
    /// The objects when the flags were last up to date.
    objects: Vec<u64>,
    /// Movement bits that may have been on the board then.
    moves: Vec<u64>,
    /// The board's width and height then.
    size: (usize, usize),
}

impl Seen {
    /// Marks the readers of the bits of `written` (objects then
    /// movements) as needing a match, and wakes them and the settled rules
    /// that write those bits.
    fn mark(&mut self, game: &Game, written: &[u64]) {
        game.marks.mark(written, &mut self.dirty, &mut self.idle);
    }

    /// The first rule from `from` on and before `end` that must be matched
    /// and is not idle.
    #[inline]
    fn next_due(&self, from: usize, end: usize) -> Option<usize> {
        let mut w = from / 64;
        let mut keep = !0u64 << (from % 64);
        while w * 64 < end {
            let due = self.dirty[w] & !self.idle[w] & keep;
            if due != 0 {
                let r = w * 64 + due.trailing_zeros() as usize;
                return (r < end).then_some(r);
            }
            w += 1;
            keep = !0;
        }
        None
    }

    /// Sets whether rule `r` must be matched.
    fn set_dirty(&mut self, r: usize, dirty: bool) {
        if dirty {
            bits::set(&mut self.dirty, r);
        } else {
            bits::clear(&mut self.dirty, r);
        }
    }

    /// Sets whether rule `r` is idle.
    fn set_idle(&mut self, r: usize, idle: bool) {
        if idle {
            bits::set(&mut self.idle, r);
        } else {
            bits::clear(&mut self.idle, r);
        }
    }

    /// Forgets everything: every rule must be matched.
    fn reset(&mut self, rules: usize) {
        self.dirty.clear();
        self.dirty.resize(rules.div_ceil(64), !0);
        self.idle.clear();
        self.idle.resize(rules.div_ceil(64), 0);
    }

    /// Brings the flags up to date with `board` at the start of a turn
    /// (after the player's movement is set and the masks recomputed):
    /// every object bit that differs from the last state seen and every
    /// movement bit then or now is marked. `written` is a buffer.
    fn catch_up(&mut self, game: &Game, board: &Board, written: &mut Vec<u64>) {
        let (ow, mw) = (board.ow, board.mw);
        if self.dirty.len() != game.rule_count().div_ceil(64)
            || self.size != (board.width, board.height)
            || self.objects.len() != board.objects.len()
            || self.moves.len() != mw
        {
            self.reset(game.rule_count());
            return;
        }
        written.clear();
        written.resize(ow + mw, 0);
        if ow == 1 {
            let changed = self.objects.iter().zip(&board.objects);
            written[0] = changed.fold(0, |all, (a, b)| all | (a ^ b));
        } else {
            let cells = self.objects.chunks_exact(ow);
            for (a, b) in cells.zip(board.objects.chunks_exact(ow)) {
                for w in 0..ow {
                    written[w] |= a[w] ^ b[w];
                }
            }
        }
        for (w, m) in board.moves_anywhere().iter().enumerate() {
            written[ow + w] = self.moves[w] | m;
        }
        self.mark(game, written);
    }

    /// Records `board` as the state the flags are up to date with.
    fn saw(&mut self, board: &Board) {
        self.objects.clone_from(&board.objects);
        self.size = (board.width, board.height);
        self.moves.clear();
        self.moves.extend_from_slice(board.moves_anywhere());
    }
}

/// Buffers a turn reuses from turn to turn, so that it allocates nothing
/// once they have grown. A turn takes each out while it uses it (a turn
/// may play another inside it: `again` dry runs, restarts).
#[derive(Debug, Clone, Default)]
struct Scratch {
    bak: Vec<u64>,
    start_objects: Vec<u64>,
    start_moves: Vec<u64>,
    banned: Vec<bool>,
    positions: Vec<usize>,
    /// The cells with a movement when movements are resolved.
    movers: Vec<usize>,
    matches: Matches,
    tuple: Vec<RowMatch>,
    /// The bits a rule's replacements changed (objects then movements).
    written: Vec<u64>,
}

/// The buffers of the rules, taken out of the [`Scratch`] while the rules
/// are played.
struct RuleBuffers {
    matches: Matches,
    tuple: Vec<RowMatch>,
    written: Vec<u64>,
}

impl<'g> Engine<'g> {
    /// Starts level `index` of `game` (`None` if there is none), random
    /// numbers seeded by `seed`.
    pub fn new(game: &'g Game, index: usize, seed: &str) -> Option<Engine<'g>> {
        game.levels.get(index)?;
        let mut e = Engine {
            game,
            board: Board::new(0, 0, game.object_words, game.movement_words, Vec::new()),
            level_index: index,
            rng: Rng::new(seed),
            backups: Vec::new(),
            restart_target: Vec::new(),
            againing: false,
            text_mode: false,
            wins: 0,
            advance_on_win: true,
            queue: Vec::new(),
            message: String::new(),
            restarting: false,
            require_player_movement: game.flag("require_player_movement"),
            seen: Seen::default(),
            scratch: Scratch::default(),
        };
        e.load(index, seed);
        Some(e)
    }

    /// The game being played.
    pub fn game(&self) -> &'g Game {
        self.game
    }

    /// Loads level `index`: a map replaces the board, a message only shows.
    fn load(&mut self, index: usize, seed: &str) {
        self.rng = Rng::new(seed);
        self.againing = false;
        match &self.game.levels[index] {
            Level::Map {
                width,
                height,
                cells,
                ..
            } => {
                self.text_mode = false;
                self.board = Board::new(
                    *width,
                    *height,
                    self.game.object_words,
                    self.game.movement_words,
                    cells.clone(),
                );
                self.board.anchor_for(self.game.rule_count());
                self.backups.clear();
                self.restart_target = cells.clone();
                if self.game.flag("run_rules_on_level_start") {
                    self.process(None, true, false);
                }
            }
            Level::Message(_) => self.text_mode = true,
        }
    }

    /// Makes this engine the same as `other` (a copy of the same game),
    /// reusing its buffers: what a clone does, without allocating.
    pub fn reset_from(&mut self, other: &Engine<'g>) {
        self.game = other.game;
        self.board.reset_from(&other.board);
        self.copy_turn_state(other);
        self.againing = other.againing;
        self.queue.clone_from(&other.queue);
        self.require_player_movement = other.require_player_movement;
        self.seen.dirty.clone_from(&other.seen.dirty);
        self.seen.idle.clone_from(&other.seen.idle);
        self.seen.objects.clone_from(&other.seen.objects);
        self.seen.moves.clone_from(&other.seen.moves);
        self.seen.size = other.seen.size;
    }

    /// Puts this engine, a copy of `start` that has played turns since,
    /// back at `start` with `objects` on the board: what
    /// [`Engine::reset_from`] then [`Engine::set_objects`] do, copying
    /// only what a turn changes. The board's masks are left as they are
    /// (every turn recomputes them), and so is what the rules last found,
    /// which the next turn brings up to date with the board (see [`Seen`]).
    pub fn replay_from(&mut self, start: &Engine<'g>, objects: &[u64]) {
        debug_assert!(self.board.objects.len() == start.board.objects.len());
        self.copy_turn_state(start);
        self.restore(objects);
    }

    /// Copies from `other` what a turn changes besides the board and
    /// what is pending: the random numbers, the undo and restart points,
    /// the mode, the wins and the message.
    fn copy_turn_state(&mut self, other: &Engine<'g>) {
        self.level_index = other.level_index;
        self.rng.clone_from(&other.rng);
        self.backups.clone_from(&other.backups);
        self.restart_target.clone_from(&other.restart_target);
        self.text_mode = other.text_mode;
        self.wins = other.wins;
        self.advance_on_win = other.advance_on_win;
        self.message.clone_from(&other.message);
        self.restarting = other.restarting;
    }

    /// The random number generator as it stands (what the next random
    /// rule will draw).
    pub fn rng(&self) -> &Rng {
        &self.rng
    }

    /// Sets the random number generator to `rng` (a state it was in).
    pub fn set_rng(&mut self, rng: &Rng) {
        self.rng.clone_from(rng);
    }

    /// Puts `objects` on the board (a position the engine played before),
    /// with no movement and nothing pending.
    pub fn set_objects(&mut self, objects: &[u64]) {
        self.restore(objects);
    }

    /// Puts `objects` back with no movement. The line masks are left as
    /// they are: only rules read them, and every turn recomputes them
    /// before its rules.
    fn restore(&mut self, objects: &[u64]) {
        self.board.set_objects(objects);
        self.board.clear_movements();
        self.againing = false;
        self.queue.clear();
    }

    /// The last undo state, if any.
    fn last_backup(&self) -> Option<&[u64]> {
        let n = self.board.objects.len();
        (n > 0 && self.backups.len() >= n).then(|| &self.backups[self.backups.len() - n..])
    }

    fn pop_backup(&mut self) {
        let n = self.board.objects.len();
        self.backups
            .truncate(self.backups.len().saturating_sub(n.max(1)));
    }

    /// The text of the last `message` command a turn played (empty if
    /// none since [`Engine::clear_message`]).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Forgets the last message (before a turn whose message matters).
    pub fn clear_message(&mut self) {
        self.message.clear();
    }

    /// Undoes the last turn (the test runner's `undo`).
    pub fn undo(&mut self) {
        if self.game.flag("noundo") {
            return;
        }
        while self.last_backup() == Some(&self.board.objects[..]) {
            self.pop_backup();
        }
        if self.last_backup().is_some() {
            let mut b = std::mem::take(&mut self.scratch.bak);
            b.clear();
            b.extend_from_slice(self.last_backup().unwrap_or_default());
            self.pop_backup();
            self.restore(&b);
            self.scratch.bak = b;
        }
    }

    /// Restarts the level (the `restart` key).
    pub fn restart(&mut self) {
        if self.restarting || self.game.flag("norestart") {
            return;
        }
        if self.againing {
            self.undo();
        }
        self.backups.extend_from_slice(&self.board.objects);
        self.do_restart();
    }

    fn do_restart(&mut self) {
        if self.restarting {
            return;
        }
        self.restarting = true;
        let target = self.restart_target.clone();
        self.restore(&target);
        if self.game.flag("run_rules_on_level_start") {
            self.process(None, true, false);
        }
        self.queue.clear();
        self.restarting = false;
    }

    /// Plays one turn: `None` is a turn without input (a tick or an `again`
    /// turn). True if the level changed.
    pub fn turn(&mut self, input: Option<Input>) -> bool {
        self.process(input, false, false)
    }

    /// Plays a turn, then the `again` turns it asks for.
    pub fn turn_with_again(&mut self, input: Option<Input>) -> bool {
        let changed = self.turn(input);
        let mut guard = 0;
        while self.againing && guard < 10_000 {
            self.againing = false;
            self.turn(None);
            guard += 1;
        }
        changed
    }

    /// The cells of the player into `out`.
    fn player_positions(&self, out: &mut Vec<usize>) {
        let (all, mask) = &self.game.player;
        out.clear();
        let ow = self.board.ow.max(1);
        let cells = self.board.objects.chunks_exact(ow).take(self.board.cells());
        if ow == 1 && !*all {
            let m = mask.first().copied().unwrap_or(0);
            for (i, c) in cells.enumerate() {
                if c[0] & m != 0 {
                    out.push(i);
                }
            }
            return;
        }
        for (i, c) in cells.enumerate() {
            if (*all && bits::subset(mask, c)) || (!*all && bits::meets(mask, c)) {
                out.push(i);
            }
        }
    }

    /// Sets the player's movement `dir` on the cells `positions`.
    fn start_movement(&mut self, dir: u64, positions: &[usize]) {
        let ow = self.board.ow;
        let player = &self.game.player.1;
        for &i in positions {
            for w in 0..ow {
                let mut word = self.board.objects[i * ow + w] & player[w];
                while word != 0 {
                    let id = w * 64 + word.trailing_zeros() as usize;
                    word &= word - 1;
                    if id < self.game.objects.len() {
                        let layer = self.game.objects[id].layer;
                        self.board.add_movement(i, layer, dir);
                    }
                }
            }
        }
    }

    fn process(&mut self, input: Option<Input>, dont_do_win: bool, dont_modify: bool) -> bool {
        self.againing = false;
        let mut bak = std::mem::take(&mut self.scratch.bak);
        bak.clone_from(&self.board.objects);
        let mut positions = std::mem::take(&mut self.scratch.positions);
        positions.clear();
        if let Some(i) = input {
            self.player_positions(&mut positions);
            self.start_movement(i.mask(), &positions);
        }
        self.board.recompute_masks();
        let mut written = std::mem::take(&mut self.scratch.written);
        self.seen.catch_up(self.game, &self.board, &mut written);
        self.scratch.written = written;
        let mut banned = std::mem::take(&mut self.scratch.banned);
        banned.clear();
        banned.resize(self.game.rules.len(), false);
        self.queue.clear();
        let mut start_objects = std::mem::take(&mut self.scratch.start_objects);
        let mut start_moves = std::mem::take(&mut self.scratch.start_moves);
        if self.game.rigid {
            // Only a failed rigid group plays the rules again from here.
            start_objects.clone_from(&self.board.objects);
            start_moves.clone_from(&self.board.movements);
        }
        let mut i = 0;
        loop {
            i += 1;
            let game = self.game;
            self.apply_rules(&game.rules, &game.loop_point, Some(&banned));
            if self.resolve_movements(&mut banned) {
                self.board.set_objects(&start_objects);
                self.board.set_movements(&start_moves);
                self.board.rigid_group.fill(0);
                self.board.rigid_applied.fill(0);
                self.board.recompute_masks();
                self.seen.reset(game.rule_count());
                self.queue.clear();
                if i < 50 {
                    continue;
                }
            } else {
                self.apply_rules(&game.late_rules, &game.late_loop_point, None);
            }
            break;
        }
        self.seen.saw(&self.board);
        self.scratch.start_objects = start_objects;
        self.scratch.start_moves = start_moves;
        self.scratch.banned = banned;
        let unmoved = !positions.is_empty()
            && self.require_player_movement
            && positions
                .iter()
                .all(|&p| bits::meets(&self.game.player.1, self.board.cell(p)));
        self.scratch.positions = positions;
        let changed = if unmoved {
            self.restore(&bak);
            self.message.clear();
            self.text_mode = false;
            false
        } else {
            self.commands(&bak, dont_modify, dont_do_win, input.is_some())
        };
        self.scratch.bak = bak;
        changed
    }

    /// Plays `groups` in order (but those `banned`), going back at the
    /// loop points while a pass of a loop changes something. The scratch
    /// buffers are taken once, when the first group is due, for all the
    /// groups.
    fn apply_rules(
        &mut self,
        groups: &[Group],
        loop_point: &FxHashMap<usize, usize>,
        banned: Option<&[bool]>,
    ) {
        let mut buffers: Option<RuleBuffers> = None;
        let mut propagated = false;
        let mut loops = 0;
        let mut g = 0;
        while g < groups.len() {
            let group = &groups[g];
            if !banned.is_some_and(|b| b[g]) && self.due(group) {
                let b = buffers.get_or_insert_with(|| self.take_rule_buffers());
                propagated = self.apply_group(group, b) || propagated;
            }
            if propagated {
                if let Some(&back) = loop_point.get(&g) {
                    g = back;
                    propagated = false;
                    loops += 1;
                    if loops > 200 {
                        break;
                    }
                    continue;
                }
            }
            g += 1;
        }
        if let Some(b) = buffers {
            self.scratch.matches = b.matches;
            self.scratch.tuple = b.tuple;
            self.scratch.written = b.written;
        }
    }

    /// True if `group` must be played: a random group always, a loop
    /// group if one of its rules is due (else a pass would change nothing).
    fn due(&self, group: &Group) -> bool {
        let end = group.first + group.rules.len();
        group.random || self.seen.next_due(group.first, end).is_some()
    }

    /// Takes the buffers the rules use out of the scratch, `written` sized
    /// for the board (every rule clears it).
    fn take_rule_buffers(&mut self) -> RuleBuffers {
        let mut written = std::mem::take(&mut self.scratch.written);
        written.clear();
        written.resize(self.board.ow + self.board.mw, 0);
        RuleBuffers {
            matches: std::mem::take(&mut self.scratch.matches),
            tuple: std::mem::take(&mut self.scratch.tuple),
            written,
        }
    }

    /// Plays one group that is due; true if it changed a cell.
    fn apply_group(&mut self, group: &Group, b: &mut RuleBuffers) -> bool {
        if group.random {
            self.apply_random_group(group, &mut b.matches, &mut b.written)
        } else {
            self.apply_loop_group(group, &mut b.matches, &mut b.tuple, &mut b.written)
        }
    }

    /// A group played pass after pass until a pass changes nothing. A rule
    /// is matched in a pass unless it found nothing when last matched (in
    /// this turn or an earlier one) and no bit it reads has been written
    /// since (it would find nothing again): the reference's result,
    /// without its repeated scans.
    fn apply_loop_group(
        &mut self,
        group: &Group,
        m: &mut Matches,
        t: &mut Vec<RowMatch>,
        written: &mut [u64],
    ) -> bool {
        let end = group.first + group.rules.len();
        let mut changed = false;
        let mut loops = 0;
        let mut made = true;
        while made && loops < 200 {
            loops += 1;
            made = false;
            // Applying a rule marks others: the next one due is looked up
            // after each.
            let mut next = self.seen.next_due(group.first, end);
            while let Some(at) = next {
                made |= self.apply_due_rule(group, at - group.first, m, t, written);
                next = self.seen.next_due(at + 1, end);
            }
            changed |= made;
        }
        changed
    }

    /// Matches rule `r` of loop group `group` and applies it to all its
    /// matches, updating what the rules last found (see [`Seen`]); true
    /// if a cell changed.
    fn apply_due_rule(
        &mut self,
        group: &Group,
        r: usize,
        m: &mut Matches,
        t: &mut Vec<RowMatch>,
        written: &mut [u64],
    ) -> bool {
        let stride = self.board.ow + self.board.mw;
        let n = group.rules.len();
        let needs = (group.needs.len() == n * stride).then_some(&group.needs);
        let reads = (group.reads.len() == n * stride).then_some(&group.reads);
        let rule = &group.rules[r];
        let absent = needs.is_some_and(|n| !self.board.may_hold(&n[r * stride..(r + 1) * stride]));
        let rule_reads = reads.map(|b| &b[r * stride..(r + 1) * stride]);
        let found = if absent {
            None
        } else {
            self.apply_rule(rule, rule_reads, m, t, written)
        };
        let Some(result) = found else {
            // Without the bits it reads, a rule finds nothing again.
            self.seen.set_dirty(group.first + r, reads.is_none());
            return false;
        };
        if rule.has_replacements {
            self.seen.mark(self.game, written);
            // Applied to all its matches: a rule that settles has
            // nothing left to do until woken.
            let settles = group.settles.get(r) == Some(&true);
            self.seen.set_idle(group.first + r, settles);
        }
        self.queue_commands(rule);
        result
    }

    /// Applies `rule` to all its matches, one after the other, each after
    /// the first checked again unless no bit it reads (`rule_reads`, every
    /// bit when unknown) was written; a rule of one cell is swept (see
    /// [`sweep`]). `None` if it matches nowhere, else true if a cell
    /// changed; the bits written are in `written`.
    fn apply_rule(
        &mut self,
        rule: &Rule,
        rule_reads: Option<&[u64]>,
        m: &mut Matches,
        t: &mut Vec<RowMatch>,
        written: &mut [u64],
    ) -> Option<bool> {
        written.fill(0);
        if let Some(cell) = one_cell(rule) {
            return sweep(rule, cell, &mut self.board, m, written);
        }
        find_matches(rule, &self.board, m);
        if m.is_empty() {
            return None;
        }
        if !rule.has_replacements {
            return Some(false);
        }
        // A match found before this rule's first replacement still holds
        // unless one of them wrote a bit it reads.
        let mut result = false;
        m.first_combination(t);
        for k in 0..m.combinations() {
            if k > 0 {
                m.next_combination(t);
            }
            let check = k > 0 && rule_reads.is_none_or(|b| bits::meets(b, written));
            let board = &mut self.board;
            result |= apply_at(self.game, rule, t, check, board, &mut self.rng, written);
        }
        Some(result)
    }

    /// A random group: one match of all its rules' matches, chosen by the
    /// seeded generator, is applied.
    fn apply_random_group(&mut self, group: &Group, m: &mut Matches, written: &mut [u64]) -> bool {
        let game = self.game;
        let mut all: Vec<(usize, Vec<RowMatch>)> = Vec::new();
        for (r, rule) in group.rules.iter().enumerate() {
            find_matches(rule, &self.board, m);
            for k in 0..if m.is_empty() { 0 } else { m.combinations() } {
                let mut t = Vec::new();
                m.combination(k, &mut t);
                all.push((r, t));
            }
        }
        if all.is_empty() {
            return false;
        }
        let (r, t) = &all[self.rng.below(all.len())];
        let rule = &group.rules[*r];
        written.fill(0);
        let modified = apply_at(
            game,
            rule,
            t,
            false,
            &mut self.board,
            &mut self.rng,
            written,
        );
        self.seen.mark(game, written);
        self.queue_commands(rule);
        modified
    }

    fn queue_commands(&mut self, rule: &Rule) {
        if rule.commands.is_empty() || self.queue.iter().any(|c| c == "cancel") {
            return;
        }
        let (cancel, restart) = (rule.gives("cancel"), rule.gives("restart"));
        if self.queue.iter().any(|c| c == "restart") && !cancel {
            return;
        }
        if cancel || restart {
            self.queue.clear();
            self.message.clear();
        }
        for c in &rule.commands {
            if self.queue.contains(&c.name) {
                continue;
            }
            self.queue.push(c.name.clone());
            if let Some(t) = &c.text {
                self.message = t.clone();
            }
        }
    }

    /// Moves what the movements say, until nothing more moves; true if a
    /// rigid group failed and the turn must be played again without it.
    fn resolve_movements(&mut self, banned: &mut [bool]) -> bool {
        if !self.board.may_move() {
            self.board.clear_movements();
            return false;
        }
        // What may move and every movement bit are written.
        let ow = self.board.ow;
        let mut written = std::mem::take(&mut self.scratch.written);
        written.clear();
        written.resize(ow + self.board.mw, 0);
        let moves = self.board.moves_anywhere();
        for (layer, mask) in self.game.layer_masks.iter().enumerate() {
            if bits::field(moves, layer) != 0 {
                bits::or(&mut written[..ow], mask);
            }
        }
        written[ow..].copy_from_slice(moves);
        self.seen.mark(self.game, &written);
        self.scratch.written = written;
        // Resolving only takes movements away: the cells that have one
        // now are the only ones to visit, in the same order.
        let mut movers = std::mem::take(&mut self.scratch.movers);
        movers.clear();
        let mw = self.board.mw;
        let cells = self.board.cells();
        bits::nonzero_records(&self.board.movements[..cells * mw], mw, &mut movers);
        let mut moved = true;
        while moved {
            moved = false;
            for &i in &movers {
                moved = self.reposition_cell(i) || moved;
            }
        }
        let undo = self.game.rigid && self.rigid_failed(&movers, banned);
        self.scratch.movers = movers;
        self.board.clear_movements();
        undo
    }

    /// After movements are resolved: bans the rigid group of the first
    /// movement of each cell a rigid rule applied to that could not be
    /// made; true if one was newly banned. Only `movers`, the cells that
    /// had a movement before resolving, can still have one.
    fn rigid_failed(&mut self, movers: &[usize], banned: &mut [bool]) -> bool {
        let mut undo = false;
        let mw = self.board.mw;
        for &i in movers {
            if bits::is_zero(self.board.moves(i)) {
                continue;
            }
            let applied = &self.board.rigid_applied[i * mw..(i + 1) * mw];
            if !bits::is_zero(applied) {
                let moves = self.board.moves(i);
                let failed = (0..self.game.layers)
                    .find(|&l| bits::field(moves, l) & bits::field(applied, l) != 0);
                if let Some(layer) = failed {
                    let index = bits::field(&self.board.rigid_group[i * mw..(i + 1) * mw], layer);
                    if index > 0 {
                        let group = self.game.group_of_rigid_index[index as usize - 1];
                        if !banned[group] {
                            banned[group] = true;
                            undo = true;
                        }
                    }
                }
            }
        }
        undo
    }

    fn reposition_cell(&mut self, i: usize) -> bool {
        let mw = self.board.mw;
        if bits::is_zero(self.board.moves(i)) {
            return false;
        }
        let mut moved = false;
        for layer in 0..self.game.layers {
            let m = bits::field(self.board.moves(i), layer);
            if m != 0 && self.reposition_on_layer(i, layer, m) {
                bits::clear_field(&mut self.board.movements[i * mw..(i + 1) * mw], layer);
                moved = true;
            }
        }
        moved
    }

    fn reposition_on_layer(&mut self, i: usize, layer: usize, dir: u64) -> bool {
        let (dx, dy): (isize, isize) = match dir {
            1 => (0, -1),
            2 => (0, 1),
            4 => (-1, 0),
            8 => (1, 0),
            _ => (0, 0),
        };
        let h = self.board.height as isize;
        let (x, y) = (i as isize / h, i as isize % h);
        let (w, hh) = (self.board.width as isize, h);
        if (x == 0 && dx < 0)
            || (x == w - 1 && dx > 0)
            || (y == 0 && dy < 0)
            || (y == hh - 1 && dy > 0)
        {
            return false;
        }
        let target = (i as isize + dy + dx * h) as usize;
        let ow = self.board.ow;
        let layer_mask = &self.game.layer_masks[layer];
        let objects = &self.board.objects;
        if dir != 16 && (0..ow).any(|w| objects[target * ow + w] & layer_mask[w] != 0) {
            return false;
        }
        self.board.move_layer(i, target, layer_mask);
        true
    }

    fn commands(
        &mut self,
        bak: &[u64],
        dont_modify: bool,
        dont_do_win: bool,
        had_input: bool,
    ) -> bool {
        if self.queue.iter().any(|c| c == "cancel") {
            let left = self.queue.len() > 1;
            self.restore(bak);
            return left;
        }
        if self.queue.iter().any(|c| c == "restart") {
            self.backups.extend_from_slice(bak);
            if !dont_modify {
                self.do_restart();
            }
        }
        let modified = self.board.objects != bak;
        if modified {
            if dont_modify {
                self.restore(bak);
                return true;
            }
            if had_input {
                self.backups.extend_from_slice(bak);
            }
        }
        if dont_modify && self.queue.iter().any(|c| c == "win" || c == "restart") {
            return true;
        }
        let moved_on = !self.text_mode && self.check_win(dont_do_win);
        if !moved_on {
            if self.queue.iter().any(|c| c == "checkpoint") {
                self.restart_target = self.board.objects.clone();
            }
            if modified && self.queue.iter().any(|c| c == "again") {
                let message = self.message.clone();
                if self.process(None, true, true) {
                    self.againing = true;
                }
                self.message = message;
            }
        }
        self.queue.clear();
        modified
    }

    /// True if the level is won now (by a `win` command or the conditions).
    pub fn conditions_hold(&self) -> bool {
        if self.game.winconditions.is_empty() {
            return false;
        }
        self.game.winconditions.iter().all(|wc| {
            let f = |mask: &[u64], all: bool, c: &[u64]| {
                if all {
                    bits::subset(mask, c)
                } else {
                    bits::meets(mask, c)
                }
            };
            let mut cells = (0..self.board.cells()).map(|i| self.board.cell(i));
            match wc.quantifier {
                -1 => {
                    !cells.any(|c| f(&wc.first, wc.first_all, c) && f(&wc.second, wc.second_all, c))
                }
                0 => {
                    cells.any(|c| f(&wc.first, wc.first_all, c) && f(&wc.second, wc.second_all, c))
                }
                _ => {
                    cells.all(|c| !f(&wc.first, wc.first_all, c) || f(&wc.second, wc.second_all, c))
                }
            }
        })
    }

    /// Checks for a win and moves on if so. True if the rest of the turn's
    /// commands are void: a new map level was loaded (its queue is empty),
    /// or, without [`Engine::advance_on_win`], the level is won. A level
    /// left for a message or the title keeps its queue, as in the reference.
    fn check_win(&mut self, dont_do_win: bool) -> bool {
        let won = self.queue.iter().any(|c| c == "win") || self.conditions_hold();
        if !won || dont_do_win {
            return false;
        }
        self.wins += 1;
        self.againing = false;
        if !self.advance_on_win {
            return true;
        }
        self.message.clear();
        if self.level_index + 1 < self.game.levels.len() {
            self.level_index += 1;
            self.text_mode = false;
            let next_is_map = matches!(self.game.levels[self.level_index], Level::Map { .. });
            self.load(self.level_index, "level");
            if next_is_map {
                self.queue.clear();
                return true;
            }
            false
        } else {
            self.level_index = 0;
            self.text_mode = true;
            false
        }
    }

    /// The level in the reference's test serialisation: for each cell in
    /// index order, the sorted names of its objects, each new combination
    /// written out with its number the first time.
    pub fn serialize(&self) -> String {
        let b = &self.board;
        let mut out = String::new();
        let mut seen: Vec<String> = Vec::new();
        for y in 0..b.height {
            for x in 0..b.width {
                let i = x + y * b.width;
                let mut names: Vec<&str> = bits::ones(b.cell(i))
                    .filter_map(|id| self.game.objects.get(id).map(|o| o.name.as_str()))
                    .collect();
                names.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
                let key = names.join(" ");
                match seen.iter().position(|s| *s == key) {
                    Some(k) => out.push_str(&format!("{k},")),
                    None => {
                        out.push_str(&format!("{key}:{},", seen.len()));
                        seen.push(key);
                    }
                }
            }
            out.push('\n');
        }
        out
    }
}
