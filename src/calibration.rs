//! Per-game calibration files (`calibration/*.toml`): palette in the game's
//! own colour order, optional geometry hints, and play-loop timings.
