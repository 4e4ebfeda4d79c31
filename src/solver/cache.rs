//! A cache hint shared by the tables of the searches: start loading a
//! slot a lookup will read soon, so that its memory latency overlaps other
//! work.

/// Asks the processor to bring the cache line of `slots[i]` in (a hint: no
/// effect on results, and none on targets other than x86-64). `i` must be
/// in bounds (checked in debug builds).
#[inline(always)]
pub fn prefetch<T>(slots: &[T], i: usize) {
    debug_assert!(i < slots.len());
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `i` is in bounds, so the pointer stays inside `slots`;
    // prefetching never faults and has no side effects.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch(slots.as_ptr().add(i) as *const i8, _MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slots, i);
}
