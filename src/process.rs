//! The processes gridbot starts (the OCR, a game, Chromium, Xvfb) die with
//! it: each gets a parent-death signal, so none outlives gridbot even when
//! gridbot itself is killed with SIGKILL and runs no destructor.

use std::os::unix::process::CommandExt;
use std::process::Command;

/// Makes the child get SIGKILL from the kernel when the thread that
/// spawned it dies (Linux's `PR_SET_PDEATHSIG`). Spawn long-lived children
/// from the main thread or a thread that outlives them.
pub fn die_with_parent(command: &mut Command) -> &mut Command {
    // SAFETY: the hook makes one prctl system call; it allocates nothing
    // and touches no memory shared with the parent.
    unsafe {
        command.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        })
    }
}

/// A [`Command`] for `program` whose process dies with gridbot.
pub fn child(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut command = Command::new(program);
    die_with_parent(&mut command);
    command
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// A child of a thread that ends is killed at once: the parent-death
    /// signal is really set.
    #[test]
    fn a_child_dies_with_the_thread_that_started_it() {
        let pid = std::thread::spawn(|| child("sleep").arg("30").spawn().unwrap().id())
            .join()
            .unwrap();
        let end = Instant::now() + Duration::from_secs(10);
        let alive = || {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "))
        };
        while alive() && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!alive(), "sleep {pid} outlived the thread that started it");
        // Reap it.
        unsafe { libc::waitpid(pid as i32, std::ptr::null_mut(), 0) };
    }
}
