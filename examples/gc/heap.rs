//! The demo's runtime: a semispace heap, its copying collector, and the entry points generated code
//! calls (`gc_alloc`, `gc_safepoint`).
//!
//! An entry point must know where the generated code stopped: the return address into it, its stack
//! pointer after the call and its frame pointer. A few instructions of assembly read them on entry,
//! before any Rust code moves the stack, and jump to the Rust function with them as extra arguments.

use std::cell::RefCell;

use patchmap::arch::Arch;
use patchmap::runtime::frames::{FrameState, Slot, StatepointTable};

/// When the heap collects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// When an allocation does not fit.
    WhenFull,
    /// At every allocation and safepoint (stress mode).
    Always,
}

/// What the collector did.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub collections: u64,
    pub copied: u64,
    pub roots: u64,
    pub derived_roots: u64,
    pub deepest_walk: usize,
}

/// Marks a header whose object has moved; the rest of the word is the new address.
const FORWARDED: u64 = 1 << 63;
/// What the old half of the heap is filled with after a collection: a stale pointer fails loudly.
const ERASED: u64 = 0xdead_dead_dead_dead;

pub struct Heap {
    arch: Arch,
    table: StatepointTable,
    from: Vec<u64>,
    to: Vec<u64>,
    /// Words of `from` in use.
    top: usize,
    policy: Policy,
    stats: Stats,
}

impl Heap {
    /// Semispaces of `words` 8-byte words each.
    pub fn new(arch: Arch, table: StatepointTable, words: usize, policy: Policy) -> Heap {
        Heap { arch, table, from: vec![0; words], to: vec![0; words], top: 0, policy, stats: Stats::default() }
    }

    fn contains(&self, address: u64) -> bool {
        let start = self.from.as_ptr() as u64;
        (start..start + 8 * self.from.len() as u64).contains(&address)
    }

    fn alloc(&mut self, pointers: u64, integers: u64, stopped: FrameState) -> u64 {
        let words = 1 + pointers as usize + integers as usize;
        if self.policy == Policy::Always || self.top + words > self.from.len() {
            self.collect(stopped);
        }
        assert!(self.top + words <= self.from.len(), "heap exhausted: {words} words do not fit after a collection");
        let at = self.top;
        self.top += words;
        self.from[at] = (pointers << 32) | integers;
        self.from[at + 1..at + words].fill(0);
        &self.from[at] as *const u64 as u64
    }

    /// Copies every object reachable from the stopped thread's roots into the other semispace.
    fn collect(&mut self, stopped: FrameState) {
        self.stats.collections += 1;
        // SAFETY: the walk reads the frame records and slots of the stopped thread's own stack.
        let read = |address: u64| Some(unsafe { (address as *const u64).read() });
        // All (base, derived) values first: a slot may be the base of several pairs.
        let mut roots = Vec::new();
        let mut frames = 0;
        for frame in self.table.walk(self.arch, stopped, &read) {
            let frame = frame.unwrap_or_else(|e| panic!("frame walk: {e}"));
            frames += 1;
            for root in frame.roots_in(self.table.stack_map()).unwrap_or_else(|e| panic!("roots: {e}")) {
                if let (Slot::Address(base), Slot::Address(derived)) = (root.base, root.derived) {
                    roots.push((base, derived, read(base).unwrap(), read(derived).unwrap()));
                }
            }
        }
        self.stats.deepest_walk = self.stats.deepest_walk.max(frames);
        std::mem::swap(&mut self.from, &mut self.to);
        let old_top = std::mem::replace(&mut self.top, 0);
        let mut moved = Vec::with_capacity(roots.len());
        for &(base_slot, derived_slot, base, derived) in &roots {
            if base == 0 {
                continue;
            }
            let new = self.forward(base);
            moved.push((base_slot, derived_slot, new, new.wrapping_add(derived.wrapping_sub(base))));
            self.stats.roots += 1;
            self.stats.derived_roots += u64::from(derived != base);
        }
        for (base_slot, derived_slot, base, derived) in moved {
            // SAFETY: the slots are the stopped frames' own, named by their records.
            unsafe {
                (derived_slot as *mut u64).write(derived);
                (base_slot as *mut u64).write(base);
            }
        }
        // Cheney's scan: the copied objects' pointer fields, breadth first.
        let mut scan = 0;
        while scan < self.top {
            let header = self.from[scan];
            let (pointers, integers) = ((header >> 32) as usize, (header & 0xffff_ffff) as usize);
            for field in scan + 1..scan + 1 + pointers {
                let p = self.from[field];
                if p != 0 {
                    self.from[field] = self.forward(p);
                }
            }
            scan += 1 + pointers + integers;
        }
        self.to[..old_top].fill(ERASED);
    }

    /// The new address of the object at `old` (in the old semispace, `self.to` during a collection),
    /// copying it on its first visit.
    fn forward(&mut self, old: u64) -> u64 {
        let start = self.to.as_ptr() as u64;
        assert!(
            (start..start + 8 * self.to.len() as u64).contains(&old) && old.is_multiple_of(8),
            "a root or field {old:#x} is not a heap object"
        );
        let index = ((old - start) / 8) as usize;
        let header = self.to[index];
        if header & FORWARDED != 0 {
            return header & !FORWARDED;
        }
        let words = 1 + (header >> 32) as usize + (header & 0xffff_ffff) as usize;
        let at = self.top;
        self.from[at..at + words].copy_from_slice(&self.to[index..index + words]);
        self.top += words;
        self.stats.copied += 1;
        let new = &self.from[at] as *const u64 as u64;
        self.to[index] = FORWARDED | new;
        new
    }
}

thread_local! {
    static HEAP: RefCell<Option<Heap>> = const { RefCell::new(None) };
}

/// Makes `heap` the one the entry points allocate from.
pub fn install(heap: Heap) {
    HEAP.with(|h| *h.borrow_mut() = Some(heap));
}

/// Removes the heap; returns what its collector did.
pub fn uninstall() -> Stats {
    HEAP.with(|h| h.borrow_mut().take().map(|heap| heap.stats).unwrap_or_default())
}

fn with_heap<T>(f: impl FnOnce(&mut Heap) -> T) -> T {
    HEAP.with(|h| f(h.borrow_mut().as_mut().expect("a heap is installed")))
}

extern "C" fn gc_alloc_at(
    pointers: u64,
    integers: u64,
    return_address: u64,
    stack_pointer: u64,
    frame_pointer: u64,
) -> u64 {
    let stopped = FrameState { return_address, stack_pointer, frame_pointer };
    with_heap(|heap| {
        let object = heap.alloc(pointers, integers, stopped);
        debug_assert!(heap.contains(object));
        object
    })
}

extern "C" fn gc_safepoint_at(return_address: u64, stack_pointer: u64, frame_pointer: u64) {
    let stopped = FrameState { return_address, stack_pointer, frame_pointer };
    with_heap(|heap| {
        if heap.policy == Policy::Always {
            heap.collect(stopped);
        }
    });
}

// The entry points: the caller's return address, stack pointer after the return, and frame pointer
// become the Rust function's next arguments, which then returns straight to the generated code.
#[cfg(target_arch = "x86_64")]
std::arch::global_asm!(
    ".text",
    ".p2align 4",
    ".globl patchmap_demo_gc_alloc",
    "patchmap_demo_gc_alloc:",
    "mov rdx, [rsp]",
    "lea rcx, [rsp + 8]",
    "mov r8, rbp",
    "jmp {alloc}",
    ".p2align 4",
    ".globl patchmap_demo_gc_safepoint",
    "patchmap_demo_gc_safepoint:",
    "mov rdi, [rsp]",
    "lea rsi, [rsp + 8]",
    "mov rdx, rbp",
    "jmp {safepoint}",
    alloc = sym gc_alloc_at,
    safepoint = sym gc_safepoint_at,
);

#[cfg(target_arch = "aarch64")]
std::arch::global_asm!(
    ".text",
    ".p2align 4",
    ".globl patchmap_demo_gc_alloc",
    "patchmap_demo_gc_alloc:",
    "mov x2, x30",
    "mov x3, sp",
    "mov x4, x29",
    "b {alloc}",
    ".p2align 4",
    ".globl patchmap_demo_gc_safepoint",
    "patchmap_demo_gc_safepoint:",
    "mov x0, x30",
    "mov x1, sp",
    "mov x2, x29",
    "b {safepoint}",
    alloc = sym gc_alloc_at,
    safepoint = sym gc_safepoint_at,
);

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
extern "C" {
    fn patchmap_demo_gc_alloc();
    fn patchmap_demo_gc_safepoint();
}

/// The entry points, by the names the IR declares.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub fn runtime_symbols() -> Vec<(&'static str, *const u8)> {
    vec![("gc_alloc", patchmap_demo_gc_alloc as *const u8), ("gc_safepoint", patchmap_demo_gc_safepoint as *const u8)]
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub fn runtime_symbols() -> Vec<(&'static str, *const u8)> {
    Vec::new()
}
