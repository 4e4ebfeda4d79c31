//! Gestures: what a move becomes on the screen. A game turns a move into a
//! [`Gesture`] in image coordinates of the board it read; the play loop
//! maps it to screen coordinates ([`Gesture::map`]) and plays it through
//! [`crate::actuator::Mouse::perform`].

/// A key a gesture can press.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyName {
    /// A character key, e.g. `'n'`.
    Char(char),
    /// Cursor up.
    Up,
    /// Cursor down.
    Down,
    /// Cursor left.
    Left,
    /// Cursor right.
    Right,
    /// Return.
    Enter,
    /// Space bar.
    Space,
}

/// One input action of a move, at points of type `P` (image points as
/// `(f64, f64)` from a game, screen points as `(i32, i32)` for the mouse).
#[derive(Debug, Clone, PartialEq)]
pub enum Gesture<P> {
    /// Left click at a point.
    Click(P),
    /// Press the left button at the first point, move through the others in
    /// order and release at the last (at least two points).
    Drag(Vec<P>),
    /// Tap a key.
    Key(KeyName),
}

impl<P: Copy> Gesture<P> {
    /// The same gesture with every point mapped by `f`; `None` when `f`
    /// refuses a point (outside the window, say).
    pub fn map<Q>(&self, mut f: impl FnMut(P) -> Option<Q>) -> Option<Gesture<Q>> {
        Some(match self {
            Gesture::Click(p) => Gesture::Click(f(*p)?),
            Gesture::Drag(path) => {
                Gesture::Drag(path.iter().map(|p| f(*p)).collect::<Option<Vec<Q>>>()?)
            }
            Gesture::Key(k) => Gesture::Key(*k),
        })
    }

    /// Every point the gesture touches, in order.
    pub fn points(&self) -> &[P] {
        match self {
            Gesture::Click(p) => std::slice::from_ref(p),
            Gesture::Drag(path) => path,
            Gesture::Key(_) => &[],
        }
    }

    /// Short name of the kind: `click`, `drag` or `key`.
    pub fn kind(&self) -> &'static str {
        match self {
            Gesture::Click(_) => "click",
            Gesture::Drag(_) => "drag",
            Gesture::Key(_) => "key",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_converts_every_point_or_refuses() {
        let g = Gesture::Drag(vec![(1.5, 2.5), (10.0, 2.5)]);
        let s = g.map(|(x, y)| Some((x as i32 + 100, y as i32))).unwrap();
        assert_eq!(s, Gesture::Drag(vec![(101, 2), (110, 2)]));
        assert!(g.map(|(x, _)| (x < 5.0).then_some(0)).is_none());
        assert_eq!(Gesture::<(f64, f64)>::Key(KeyName::Up).points().len(), 0);
    }
}
