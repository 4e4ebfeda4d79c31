//! The `gridbot` binary: parses the command line and runs the chosen subcommand (see `cli`).

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
