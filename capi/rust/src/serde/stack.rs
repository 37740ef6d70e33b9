//! Room on the thread's stack for one more level of serde's recursion.
//!
//! Serde walks its data model recursively, one call chain per level of the
//! input, as every serde format does. `max_depth` (512 by default) bounds
//! that, but it can be raised, a thread's stack can be small, and a target
//! type's level can take much stack (a struct with large arrays inline; a
//! debug build keeps several copies of each). So the deserializer and the
//! serializer keep a [`Guard`]: every sequence, map, enum, tag, newtype and
//! `Option` that is not null compares the stack pointer with the address
//! `STEP` below the last check. Past it, the guard checks that the stack
//! has `MARGIN` left plus what it grew between the last two checks (the
//! value's own levels), else it is [`Status::Depth`](crate::Status::Depth)
//! at that item instead of a stack overflow. So any level of up to about
//! `MARGIN - STEP` finds room, and larger levels are measured by the check
//! after the first: a type whose levels take 200 KiB each stops where the
//! stack has room for one more and the margin. (Twice the growth refused
//! three debug-build levels of 4 KiB arrays on a 256 KiB thread.) The guard
//! is placed where a value starts (`deserialize_one`, `to_vec`), so that
//! the first check measures the value's own levels; a guard made elsewhere
//! (`Deserializer::new` or `Serializer::new` used through serde's traits)
//! measures from its first check on.
//!
//! What it cannot do: the first check comes `STEP` below where a value
//! starts, so a thread that cannot hold that, the first level and the
//! deserializer (16 KiB) overflows before it (64-96 KiB threads in a debug
//! build); and the last growth is an estimate: a level more than about
//! `MARGIN - STEP` larger than it can still overflow, and a value that
//! would fit can be refused.
//!
//! The thread's bounds are asked once per thread (Linux with glibc;
//! elsewhere nothing is checked, nor on a stack outside them: a `stacker`
//! segment, a coroutine's stack). A stack pointer above the thread's stack
//! the guard was placed on (it moved to another thread) checks too. A type
//! that recurses through an `Option` or a newtype alone
//! (`struct A(Option<Box<A>>)`) takes no input per level, so no limit on
//! the input stops it: the same compare does.
//!
//! This replaced a compare of each head's depth with a window of levels
//! that each check measured: the first check came at depth 8 and a level of
//! more than 64 KiB used up the margin between two, an abort on a type with
//! large arrays inline. Counting instructions, the compare of the stack
//! pointer costs less than the depth window and the bookkeeping `Option`
//! and newtype levels needed beside it.
use std::cell::Cell;

/// What must be left below a level that goes deeper.
const MARGIN: usize = 64 << 10;

/// How far the stack may grow past the last check before a level checks
/// again (a quarter of the margin).
const STEP: usize = 16 << 10;

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
fn bounds() -> (usize, usize) {
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
/// `bounds`: `MARGIN + extra` above its lowest address. A frame outside
/// the bounds is on another stack than the thread's own (a `stacker`
/// segment, a coroutine's), which this cannot measure: it passes.
#[inline]
fn room(at: usize, bounds: (usize, usize), extra: usize) -> bool {
    !(at >= bounds.0 && at < bounds.1 && at - bounds.0 < MARGIN.saturating_add(extra))
}

/// The stack check of one deserializer or serializer (see the module).
pub(crate) struct Guard {
    /// A level with the stack pointer in `[next_check, next_check + span)`
    /// goes on without a check (`deeper`): `STEP` below the last check up
    /// to the top of the thread's stack. A pointer outside, deeper or on
    /// another thread's stack, checks.
    next_check: usize,
    span: usize,
    /// Where the stack pointer stood at the last check (or at `new`,
    /// `rebase`), and the depth of the item that made it.
    checked_at: usize,
    checked_depth: u32,
    /// Room wanted above `MARGIN`: the stack the levels took between two
    /// checks, measured when that stack is the value's own levels.
    extra: usize,
    /// The stack since `checked_at` is the value's own levels: set by
    /// `rebase` where a value starts, cleared by the check after it. Later
    /// the deserializer measures a check whose item is deeper than the
    /// last one's (a value used again from deeper in its caller starts
    /// shallower); the serializer, which has no depths, only within a value
    /// `to_vec` started.
    fresh: bool,
    measured: bool,
}

impl Guard {
    /// A guard whose first check comes `STEP` below here (or anywhere
    /// outside `STEP` of here: on another thread) and measures nothing (the
    /// caller may use it deeper than it was made). The thread's bounds are
    /// not asked yet: a shallow value never asks (a main thread's cost
    /// glibc's parse of `/proc/self/maps`, about 145,000 instructions).
    #[inline]
    pub(crate) fn new() -> Guard {
        Guard::placed_here(false)
    }

    /// A guard where a value starts (`to_vec`; `rebase` for the
    /// deserializer's `deserialize_one`): its first check measures that
    /// value's levels and not the caller's frames since the guard was made
    /// (a deserializer made at a thread's top and used 2 MiB deeper found
    /// 4 MiB wanted at its first level).
    #[inline]
    pub(crate) fn at_value() -> Guard {
        Guard::placed_here(true)
    }

    /// `at_value` for a guard that exists.
    #[inline]
    pub(crate) fn rebase(&mut self) {
        *self = Guard::at_value();
    }

    #[inline(always)]
    fn placed_here(value: bool) -> Guard {
        let at = here();
        Guard {
            next_check: at.saturating_sub(STEP),
            span: 2 * STEP,
            checked_at: at,
            checked_depth: 0,
            extra: 0,
            fresh: value,
            measured: value,
        }
    }

    /// Sets the next check `STEP` below `at`, on a thread's stack `kept`;
    /// off it (a `stacker` segment, a coroutine's stack, an unknown stack)
    /// nothing is checked.
    fn place(&mut self, at: usize, kept: (usize, usize)) {
        self.checked_at = at;
        self.next_check = at.saturating_sub(STEP);
        self.span = if at >= kept.0 && at < kept.1 { kept.1 - self.next_check } else { usize::MAX };
    }

    /// Whether one more level may go on, for the deserializer's item at
    /// `depth`: a subtract and a compare, and a check each time the stack
    /// has grown `STEP` past the last one.
    #[inline(always)]
    pub(crate) fn deeper_at(&mut self, depth: u32) -> bool {
        here().wrapping_sub(self.next_check) < self.span || self.check(Some(depth))
    }

    /// The same for the serializer.
    #[inline(always)]
    pub(crate) fn deeper(&mut self) -> bool {
        here().wrapping_sub(self.next_check) < self.span || self.check(None)
    }

    #[cold]
    #[inline(never)]
    fn check(&mut self, depth: Option<u32>) -> bool {
        let at = here();
        let kept = bounds();
        let on = |p: usize| p >= kept.0 && p < kept.1;
        let levels = match depth {
            Some(d) => self.fresh || (self.measured && d > self.checked_depth),
            None => self.measured,
        };
        if levels && on(at) && on(self.checked_at) && at < self.checked_at {
            self.extra = self.checked_at - at;
        }
        if let Some(d) = depth {
            self.checked_depth = d;
            self.measured = true;
        }
        self.fresh = false;
        self.place(at, kept);
        room(at, kept, self.extra)
    }
}

/// The stack pointer (near enough elsewhere than x86-64 and AArch64: an
/// address in the caller's frame).
#[inline(always)]
fn here() -> usize {
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
