//! A hint to the CPU to start loading a cache line that an upcoming event will read, so the
//! miss overlaps with the work on the current event. It changes nothing a program can observe.
//! A plain load would not do: it holds up everything after it until the line arrives.

/// Starts loading the cache line holding `place` (a no-op where there is no prefetch
/// instruction, as in WebAssembly).
#[inline(always)]
pub fn prefetch<T: ?Sized>(place: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it reads no value into the program and cannot fault,
    // whatever the address.
    unsafe {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(place.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = place;
}

/// Gets the cache line holding `*place` on its way to the CPU: a prefetch where there is one;
/// elsewhere (WebAssembly) a load whose value nothing waits for, so an out-of-order CPU still
/// overlaps the miss with the work that follows.
#[inline(always)]
pub fn warm<T>(place: &T) {
    #[cfg(target_arch = "x86_64")]
    prefetch(place);
    #[cfg(not(target_arch = "x86_64"))]
    // SAFETY: a reference points at memory valid to read; the volatile read keeps the compiler
    // from dropping the load as unused.
    unsafe {
        core::ptr::read_volatile((place as *const T).cast::<u8>());
    }
}

/// Starts loading every cache line `*place` spans, a value or a slice (a no-op where there
/// is no prefetch instruction).
#[inline(always)]
pub fn prefetch_all<T: ?Sized>(place: &T) {
    let start = (place as *const T).cast::<u8>();
    let misalign = start as usize % 64;
    let first_line = start.wrapping_sub(misalign);
    for offset in (0..misalign + std::mem::size_of_val(place)).step_by(64) {
        prefetch(first_line.wrapping_add(offset));
    }
}
