//! The heap grows WebAssembly memory well ahead of need, not a few pages at a time.
//!
//! The standard allocator on wasm32 (dlmalloc) asks for more memory exactly when it runs out.
//! In Node, each `memory.grow` costs V8 far more than the pages themselves (it also adjusts the
//! engine's external memory, which starts garbage collections), and the Strokkur decoders'
//! tables double thousands of times in a run: 40% of the 250-node Strokkur bench went to
//! growing memory (none once it grows ahead: 0.19-0.30 -> 0.38-0.45 simulated s per wall s).
//! Chromium's workers pay little for it (0.33-0.35 either way), so the page gains nothing but
//! the Node hosts do: the relay's live node, the tests and `npm run bench`.
//!
//! Whenever an allocation has grown memory, this wrapper reserves a further eighth of it at
//! once and frees it again: the freed block joins the free space at the top of the heap, which
//! the next allocations use without growing memory again. The memory kept ahead is at most an
//! eighth of the heap (a quarter was no faster), and a reservation that fails is skipped.

use std::alloc::{GlobalAlloc, Layout, System};
use std::arch::wasm32::memory_size;

const PAGE: usize = 64 * 1024;
/// Never reserve less than this ahead (the first growths of a small heap).
const MIN_AHEAD: usize = 4 << 20;

pub struct GrowAhead;

impl GrowAhead {
    /// After an allocation that grew memory from `pages_before`: reserve ahead.
    #[inline]
    fn after(&self, pages_before: usize) {
        let pages = memory_size::<0>();
        if pages == pages_before {
            return;
        }
        let ahead = (pages * PAGE / 8).max(MIN_AHEAD);
        if let Ok(layout) = Layout::from_size_align(ahead, 16) {
            // SAFETY: a non-zero size and a valid alignment; the block is freed with the
            // same layout it was allocated with, and never read or written.
            unsafe {
                let block = System.alloc(layout);
                if !block.is_null() {
                    System.dealloc(block, layout);
                }
            }
        }
    }
}

// SAFETY: every call is passed to `System` unchanged; the reservation only allocates and
// frees a block of its own.
unsafe impl GlobalAlloc for GrowAhead {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let before = memory_size::<0>();
        let p = System.alloc(layout);
        self.after(before);
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let before = memory_size::<0>();
        let p = System.alloc_zeroed(layout);
        self.after(before);
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let before = memory_size::<0>();
        let p = System.realloc(ptr, layout, new_size);
        self.after(before);
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}
