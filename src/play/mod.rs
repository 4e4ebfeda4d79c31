//! The game-independent play loop: capture, read, solve, click, wait for the
//! screen to settle, verify, recover.
