//! The `gridbot` binary: everything is in the library's [`gridbot::cli`].

use std::process::ExitCode;

fn main() -> ExitCode {
    gridbot::cli::main()
}
