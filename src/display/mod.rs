//! Virtual X displays (Xvfb) for tests and the demo: start on a free display
//! number, wait until it accepts connections, run programs on it, and tear
//! everything down on drop.
