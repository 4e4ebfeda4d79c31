//! The turns already played on a level, shared by every search on it.
//!
//! The portfolio's searches expand many of the same positions: breadth
//! first, width search and the two weighted A* all start at the level's
//! start and meet again around it, and the shortcut searches replay a
//! solution's positions. A turn costs tens of microseconds; looking it up
//! costs a hash of the position. A deterministic turn's outcome depends
//! only on the position and the key, so each (position, key) is played
//! once and its outcome kept, until the table reaches its size in bytes;
//! after that only the turns kept are reused. Positions of a game that
//! draws random numbers are never kept (their numbers are part of them).

use std::mem::size_of;
use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::super::engine::Input;
use super::State;

/// Bytes an entry takes besides its outcome's buffer: the key, the
/// outcome, a control byte and the table's slack.
const ENTRY: usize = (size_of::<(Rc<[u64]>, Input)>() + size_of::<State>() + 1) * 8 / 7;

/// The outcomes of the turns played, within a size.
#[derive(Debug, Default)]
pub struct Transitions {
    played: FxHashMap<(Rc<[u64]>, Input), State>,
    /// Bytes an entry counts, its outcome's buffer included.
    entry: usize,
    /// The most bytes the table may count; 0: keep nothing.
    cap: usize,
}

impl Transitions {
    /// A table of at most `cap` bytes for positions whose buffers take
    /// `buffer` bytes.
    pub fn new(cap: usize, buffer: usize) -> Transitions {
        Transitions {
            played: FxHashMap::default(),
            entry: ENTRY + buffer,
            cap,
        }
    }

    /// The outcome of `key` in `from`, if it was kept.
    pub fn get(&self, from: &State, key: Input) -> Option<State> {
        if self.cap == 0 || from.rng.is_some() {
            return None;
        }
        self.played.get(&(from.objects.clone(), key)).cloned()
    }

    /// Keeps `to` as the outcome of `key` in `from`, if there is room.
    pub fn put(&mut self, from: &State, key: Input, to: &State) {
        if from.rng.is_some() || self.bytes() + self.entry > self.cap {
            return;
        }
        self.played.insert((from.objects.clone(), key), to.clone());
    }

    /// The bytes the table counts now.
    pub fn bytes(&self) -> usize {
        self.played.len() * self.entry
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(word: u64) -> State {
        State {
            objects: Rc::from(&[word, 0][..]),
            won: false,
            rng: None,
        }
    }

    #[test]
    fn a_turn_kept_is_found_by_position_and_key() {
        let mut t = Transitions::new(1 << 20, 32);
        let (a, b) = (state(1), state(2));
        t.put(&a, Input::Up, &b);
        assert_eq!(t.get(&state(1), Input::Up), Some(b));
        assert_eq!(t.get(&a, Input::Down), None);
        assert_eq!(t.get(&state(3), Input::Up), None);
        assert_eq!(t.bytes(), ENTRY + 32);
    }

    #[test]
    fn nothing_is_kept_past_the_cap_or_with_random_numbers() {
        let mut t = Transitions::new(ENTRY + 32, 32);
        t.put(&state(1), Input::Up, &state(2));
        t.put(&state(2), Input::Up, &state(3));
        assert_eq!(t.get(&state(2), Input::Up), None);
        assert_eq!(t.bytes(), ENTRY + 32);
        let mut random = state(4);
        random.rng = Some(Box::new(crate::games::puzzlescript::rng::Rng::new("seed")));
        let mut t = Transitions::new(1 << 20, 32);
        t.put(&random, Input::Up, &state(5));
        assert_eq!(t.bytes(), 0);
        assert_eq!(Transitions::new(0, 32).get(&state(1), Input::Up), None);
    }
}
