//! `gridbot play` fails cleanly: a clear message, exit code 1, no panic.

mod util;

use gridbot::display::VirtualDisplay;
use util::{assert_clean_failure, gridbot, run};

#[test]
fn without_a_display() {
    let out = run(gridbot(None).args(["play", "flood"]));
    assert_clean_failure(&out, "no X display");
}

#[test]
fn without_the_game_window() {
    let display = VirtualDisplay::start(640, 480).expect("start Xvfb");
    let out = run(gridbot(Some(display.name())).args(["play", "flood"]));
    assert_clean_failure(&out, "no window titled \"Flood\"");
}

#[test]
fn with_a_bad_report_name() {
    let display = VirtualDisplay::start(640, 480).expect("start Xvfb");
    let out = run(gridbot(Some(display.name())).args(["play", "flood", "--report", "out.txt"]));
    assert_clean_failure(&out, "must end in .json or .csv");
}

#[test]
fn with_bad_demo_parameters() {
    let out = run(gridbot(None).args(["demo", "--params", "12x12c12"]));
    assert_clean_failure(&out, "3 to 10 colours");
}
