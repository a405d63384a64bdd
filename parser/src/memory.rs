//! Large buffers and the kernel's page size.
//!
//! A 10 MB file's tree takes about 66 MB: 12-byte tokens and 20-byte nodes, millions of each.
//! Touching that much fresh memory in 4 KiB pages costs one page fault per page, which on a
//! virtual machine is a few microseconds each: about 20 ms for the node array alone, a third
//! of the parse. Asking the kernel for transparent huge pages on such buffers makes that a few
//! dozen faults. The advice changes neither the memory's contents nor its ownership; where the
//! kernel does not support it, or declines, nothing changes.

/// Buffers smaller than this are left alone: they are not worth a system call.
const MIN_BYTES: usize = 8 << 20;

/// Asks the kernel to back the spare capacity and contents of `buffer` with huge pages.
pub fn prefer_huge_pages<T>(buffer: &Vec<T>) {
    let bytes = buffer.capacity() * std::mem::size_of::<T>();
    if bytes < MIN_BYTES {
        return;
    }
    advise_huge_pages(buffer.as_ptr() as usize, bytes);
}

#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages(start: usize, bytes: usize) {
    const HUGE_PAGE: usize = 2 << 20;
    // Only whole huge pages inside the buffer: the advice applies to whole pages, and the
    // memory around the buffer is not ours to advise.
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: `first..end` lies inside an allocation this process owns (the buffer's
        // capacity). MADV_HUGEPAGE only changes how the kernel backs those pages, never their
        // contents or mapping, so no Rust reference can observe it. The result is ignored: the
        // advice is optional and failure leaves the memory as it was.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: usize, _bytes: usize) {}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// How much of the mapping that contains `address` is backed by huge pages, in KiB.
    fn huge_kib_at(address: usize) -> Option<u64> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            let range = line.split_whitespace().next().and_then(|r| r.split_once('-'));
            if let Some((Ok(lo), Ok(hi))) =
                range.map(|(lo, hi)| (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16)))
            {
                inside = lo <= address && address < hi;
            } else if inside {
                if let Some(kib) = line.strip_prefix("AnonHugePages:") {
                    return kib.trim().trim_end_matches("kB").trim().parse().ok();
                }
            }
        }
        None
    }

    /// Where huge pages are given on request (`madvise` mode, this project's CI machines), a
    /// large advised buffer gets them once touched.
    #[test]
    fn large_buffers_get_huge_pages_where_the_kernel_offers_them_on_request() {
        let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
        if !mode.is_ok_and(|mode| mode.contains("[madvise]")) {
            return;
        }
        let mut buffer: Vec<u64> = Vec::with_capacity((32 << 20) / 8);
        prefer_huge_pages(&buffer);
        buffer.resize(buffer.capacity(), 1);
        let huge = huge_kib_at(buffer.as_ptr() as usize + (16 << 20)).unwrap_or(0);
        assert!(huge >= 2048, "no huge pages behind the advised buffer ({huge} KiB)");
    }
}
