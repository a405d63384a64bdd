//! Giving freed memory back to the system, and keeping it for a batch.
//!
//! glibc's allocator keeps memory a program frees for its own later use, returning only what
//! lies at the very top of its heaps. The cold check of a large file builds a tree and a
//! lowering of every item (about 700 MB at 15 MB of IR) of which the database keeps a small
//! part; without this, the server would go on holding the rest for its whole session.

/// Returns the allocator's free pages to the system, where the allocator is glibc's.
pub fn give_back_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[allow(unsafe_code)]
    // SAFETY: `malloc_trim` only releases pages the allocator holds free (with `madvise`); it
    // takes no pointer, has no preconditions, locks the allocator's arenas itself, and no
    // allocation a Rust value refers to is moved or changed.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Inputs of at least this many bytes make `hsir check` rerun itself with glibc's allocator
/// tuned for one large batch (`rerun_tuned_for_batch`): below it, starting again costs more
/// than the tuning saves.
const BATCH_MIN_BYTES: u64 = 1 << 20;

/// glibc's allocator settings for a process that allocates much once and then exits: heaps
/// grown 64 MiB at a time, backed by transparent huge pages where the kernel allows, and never
/// trimmed. Checking 10 MB of IR otherwise faults in some 7,000 pages of 4 KiB, one by one
/// (400 to 900 faults with these settings, and 8 % less CPU time; docs/benchmarks.md).
const BATCH_TUNABLES: &str =
    "glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864:glibc.malloc.trim_threshold=4294967295";

/// The `GLIBC_TUNABLES` to rerun with for `input_bytes` of input, given the current setting:
/// none for small inputs, nor when the variable is set already (by an earlier run of this
/// process, or by the user, whose choice stands).
fn batch_tunables(input_bytes: u64, current: Option<&std::ffi::OsStr>) -> Option<&'static str> {
    (input_bytes >= BATCH_MIN_BYTES && current.is_none()).then_some(BATCH_TUNABLES)
}

/// Replaces this process by a run of the same command with glibc's allocator tuned for a
/// batch of `input_bytes` (`BATCH_TUNABLES`), when the allocator is glibc's and the input is
/// large; glibc reads its tunables only when a process starts. Returns if it does not, or if
/// starting again fails (the run goes on untuned). Call it before any output.
pub fn rerun_tuned_for_batch(input_bytes: u64) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::os::unix::process::CommandExt;
        let current = std::env::var_os("GLIBC_TUNABLES");
        let Some(tunables) = batch_tunables(input_bytes, current.as_deref()) else { return };
        let Ok(exe) = std::env::current_exe() else { return };
        let mut args = std::env::args_os();
        let arg0 = args.next().unwrap_or_else(|| exe.clone().into_os_string());
        // `exec` returns only on failure.
        let _failed = std::process::Command::new(&exe)
            .arg0(arg0)
            .args(args)
            .env("GLIBC_TUNABLES", tunables)
            .exec();
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = input_bytes;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_large_input_without_tunables_reruns() {
        assert_eq!(batch_tunables(BATCH_MIN_BYTES, None), Some(BATCH_TUNABLES));
        assert_eq!(batch_tunables(BATCH_MIN_BYTES - 1, None), None);
        // The rerun itself, and a user's own setting, keep what they have.
        assert_eq!(batch_tunables(1 << 30, Some(BATCH_TUNABLES.as_ref())), None);
        assert_eq!(batch_tunables(1 << 30, Some("glibc.malloc.arena_max=1".as_ref())), None);
    }
}
