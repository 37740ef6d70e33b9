//! Room on the thread's stack for one more level of serde's recursion.
//!
//! Serde walks its data model recursively, one call chain per level of the
//! input, as every serde format does. `max_depth` (512 by default) bounds
//! that, but it can be raised, and a thread's stack can be small: each
//! sequence, map, enum or tag a target type goes into checks that 64 KiB of
//! the thread's stack are left, else it is
//! [`Status::Depth`](crate::Status::Depth) at that item's head instead of a
//! stack overflow. The thread's bounds are asked once per thread (Linux with
//! glibc; elsewhere nothing is checked, and a frame outside them, on a
//! `stacker` segment or a coroutine's stack, passes) and kept in the
//! deserializer, which asks again when a check finds it short of room (it
//! ran low, or the deserializer moved to another thread). A check is made
//! unless a head's depth is within a window of levels below the depth
//! checked last: 8 levels, fewer where the levels between the last two
//! checks took more than 2 KiB of stack each, so that about 16 KiB at most
//! pass between checks (a compare of the item's depth otherwise: a check
//! at each level cost canada's 56,000 coordinate pairs 5 % more
//! instructions, a countdown 3 %, the stack pointer compared at each head
//! 4.4 %; a fixed 8 let levels of more than 8 KiB overflow). A type that
//! recurses through `Option` or a newtype alone (`struct A(Option<Box<A>>)`)
//! takes no input per level: on anything but null serde recurses without
//! end. Each `Option` that is not null and each newtype notes the item it
//! stands on, and every 8th level in a row on the same item checks the
//! stack in the same way (`Status::Depth` at that item).
use std::cell::Cell;

/// What must be left below a level that goes deeper.
const MARGIN: usize = 64 << 10;

/// About how far the stack may grow past the last check before a head
/// checks again: the levels between two checks are as many as took this
/// much stack between the two before (1 to 8; a quarter of the margin).
pub(crate) const STEP: usize = 16 << 10;

thread_local! {
    /// This thread's `bounds()`, found at first use.
    static FLOOR: Cell<Option<(usize, usize)>> = const { Cell::new(None) };
}

/// The calling thread's stack, [lowest address, highest).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn stack_bounds() -> Option<(usize, usize)> {
    /// glibc's `pthread_attr_t` (56 bytes on x86-64, 64 on aarch64), opaque.
    #[repr(C, align(16))]
    struct Attr([u8; 128]);
    unsafe extern "C" {
        fn pthread_self() -> usize;
        fn pthread_getattr_np(thread: usize, attr: *mut Attr) -> i32;
        fn pthread_attr_getstack(
            attr: *const Attr,
            addr: *mut *mut std::ffi::c_void,
            size: *mut usize,
        ) -> i32;
        fn pthread_attr_destroy(attr: *mut Attr) -> i32;
    }
    let mut attr = std::mem::MaybeUninit::<Attr>::uninit();
    // SAFETY: glibc's documented calls on this thread, with an attribute
    // object larger than glibc's, destroyed once initialised.
    unsafe {
        if pthread_getattr_np(pthread_self(), attr.as_mut_ptr()) != 0 {
            return None;
        }
        let mut addr = std::ptr::null_mut();
        let mut size = 0usize;
        let got = pthread_attr_getstack(attr.as_ptr(), &mut addr, &mut size) == 0;
        pthread_attr_destroy(attr.as_mut_ptr());
        got.then_some((addr as usize, (addr as usize).saturating_add(size)))
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn stack_bounds() -> Option<(usize, usize)> {
    None
}

/// The calling thread's stack, [lowest address, highest), asked once per
/// thread; (0, 0) where not known.
pub(crate) fn bounds() -> (usize, usize) {
    FLOOR.with(|f| match f.get() {
        Some(range) => range,
        None => {
            let range = stack_bounds().unwrap_or((0, 0));
            f.set(Some(range));
            range
        }
    })
}

/// Whether a frame at `at` has room for one more level on a stack of
/// `bounds`: `MARGIN` above its lowest address. A frame outside the bounds
/// is on another stack than the thread's own (a `stacker` segment, a
/// coroutine's), which this cannot measure: it passes.
#[inline]
fn room(at: usize, bounds: (usize, usize)) -> bool {
    !(at >= bounds.0 && at < bounds.1 && at - bounds.0 < MARGIN)
}

/// Whether the frame at `at` has room for one more level, with `kept` the
/// bounds a caller found last: asked again (and kept) when `at` is not on
/// that stack with room (the first check, a stack running low, another
/// thread). The deserializer's and the serializer's checks.
pub(crate) fn has_room(at: usize, kept: &mut (usize, usize)) -> bool {
    if room(at, *kept) && at >= kept.0 && at < kept.1 {
        return true;
    }
    *kept = bounds();
    room(at, *kept)
}

/// The stack pointer (near enough elsewhere than x86-64 and AArch64: an
/// address in the caller's frame).
#[inline(always)]
pub(crate) fn here() -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        let sp: usize;
        // SAFETY: reads a register; no memory, stack or flags touched.
        unsafe {
            std::arch::asm!("mov {}, rsp", out(reg) sp, options(nomem, nostack, preserves_flags))
        };
        sp
    }
    #[cfg(target_arch = "aarch64")]
    {
        let sp: usize;
        // SAFETY: reads a register; no memory, stack or flags touched.
        unsafe {
            std::arch::asm!("mov {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags))
        };
        sp
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let here = 0u8;
        std::hint::black_box(std::ptr::addr_of!(here)) as usize
    }
}
