//! The `gridbot` binary: everything is in the library's [`gridbot::cli`].

use std::process::ExitCode;

fn main() -> ExitCode {
    // Output to a reader that went away (`gridbot games | head -1`) is the
    // end of the output, not an error: restore the default SIGPIPE action
    // (Rust ignores the signal, and `println!` then panics on EPIPE), so the
    // process ends quietly as other command-line tools do. The play loop
    // writes between gestures, never while a button is held.
    // SAFETY: called first thing, before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    gridbot::cli::main()
}
