//! Shared setup of the property tests (`proptest`) that fuzz the parsers
//! and the reader: a modest number of cases by default so that the whole
//! suite runs in seconds, more with `PROPTEST_CASES=N` (`./dev fuzz` sets
//! it high).

use proptest::test_runner::Config;

/// A proptest configuration with `default` cases, or `$PROPTEST_CASES`
/// when set (a number).
pub fn config(default: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default);
    Config {
        cases,
        // No persistence files in the source tree; failures print the
        // minimal input instead.
        failure_persistence: None,
        ..Config::default()
    }
}
