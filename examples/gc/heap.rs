//! The demo's runtime: a semispace heap, its copying collector, and the entry points generated code
//! calls (`gc_alloc`, `gc_safepoint`).
//!
//! Generated code calls the entry points through [`patchmap::runtime::entry::Entry`]s, which capture
//! every register of the stopped code and restore them afterwards; the collector walks the stopped
//! frames from that capture with the frame table ([`FrameTable`]), so a root may be in a stack slot,
//! in a callee-saved register an inner frame saved, or in a captured register, and is rewritten
//! where it is.

use std::cell::RefCell;

use patchmap::arch::Arch;
use patchmap::runtime::entry::{Entry, EntryError};
use patchmap::runtime::frames::{FrameTable, Slot};
use patchmap::runtime::memory::{Memory, ProcessMemory};
use patchmap::runtime::registers::Registers;
use patchmap::stackmap::{LocationKind, StatepointLayout};

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
    /// Roots found in registers (captured, or saved by an inner frame's prologue).
    pub register_roots: u64,
    pub deepest_walk: usize,
}

/// Marks a header whose object has moved; the rest of the word is the new address.
const FORWARDED: u64 = 1 << 63;
/// What the old half of the heap is filled with after a collection: a stale pointer fails loudly.
const ERASED: u64 = 0xdead_dead_dead_dead;

pub struct Heap {
    arch: Arch,
    table: FrameTable,
    from: Vec<u64>,
    to: Vec<u64>,
    /// Words of `from` in use.
    top: usize,
    policy: Policy,
    stats: Stats,
}

impl Heap {
    /// Semispaces of `words` 8-byte words each.
    pub fn new(arch: Arch, table: FrameTable, words: usize, policy: Policy) -> Heap {
        Heap { arch, table, from: vec![0; words], to: vec![0; words], top: 0, policy, stats: Stats::default() }
    }

    fn contains(&self, address: u64) -> bool {
        let start = self.from.as_ptr() as u64;
        (start..start + 8 * self.from.len() as u64).contains(&address)
    }

    fn alloc(&mut self, pointers: u64, integers: u64, stopped: &mut Registers) -> u64 {
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
    fn collect(&mut self, stopped: &mut Registers) {
        self.stats.collections += 1;
        // SAFETY: the walk reads and writes the frame records and slots of the stopped thread's own
        // stack, which is this thread's, below the runtime's frames.
        let mut memory = unsafe { ProcessMemory::new() };
        let walk = self.table.walk(self.arch, stopped, &memory).unwrap_or_else(|e| panic!("frame walk: {e}"));
        let read = |slot: Slot, memory: &ProcessMemory| match slot {
            Slot::Address(address) => memory.read(address, 8).expect("a stack slot"),
            Slot::Register(dwarf) => stopped.get(self.arch, dwarf).expect("a captured register"),
            Slot::Constant(value) => value,
        };
        // All (base, derived) values first: a slot may be the base of several pairs. Each noted with
        // whether its record places the base in a register (the register lowering of statepoints).
        let mut roots = Vec::new();
        for (index, frame) in walk.frames().iter().enumerate() {
            let Some(record) = frame.record else { continue };
            let layout = StatepointLayout::decode(record, self.table.stack_map()).expect("a statepoint record");
            let found = walk.roots(index, stopped, &memory).unwrap_or_else(|e| panic!("roots: {e}"));
            for (root, (base, _)) in found.into_iter().zip(layout.pairs()) {
                if matches!(root.base, Slot::Constant(_)) {
                    continue;
                }
                let in_register = base.kind == LocationKind::Register;
                roots.push((
                    root.base,
                    root.derived,
                    read(root.base, &memory),
                    read(root.derived, &memory),
                    in_register,
                ));
            }
        }
        self.stats.deepest_walk = self.stats.deepest_walk.max(walk.frames().len());
        std::mem::swap(&mut self.from, &mut self.to);
        let old_top = std::mem::replace(&mut self.top, 0);
        let mut moved = Vec::with_capacity(roots.len());
        for &(base_slot, derived_slot, base, derived, in_register) in &roots {
            if base == 0 {
                continue;
            }
            self.stats.register_roots += u64::from(in_register);
            let new = self.forward(base);
            moved.push((base_slot, derived_slot, new, new.wrapping_add(derived.wrapping_sub(base))));
            self.stats.roots += 1;
            self.stats.derived_roots += u64::from(derived != base);
        }
        for (base_slot, derived_slot, base, derived) in moved {
            for (slot, value) in [(derived_slot, derived), (base_slot, base)] {
                match slot {
                    Slot::Address(address) => memory.write(address, 8, value).expect("a stack slot"),
                    Slot::Register(dwarf) => stopped.set(self.arch, dwarf, 8, value).expect("a captured register"),
                    Slot::Constant(_) => {}
                }
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

/// Frees every object of the installed heap: only when nothing generated code holds is live.
pub fn empty() {
    with_heap(|heap| heap.top = 0);
}

/// Removes the heap; returns what its collector did.
pub fn uninstall() -> Stats {
    HEAP.with(|h| h.borrow_mut().take().map(|heap| heap.stats).unwrap_or_default())
}

fn with_heap<T>(f: impl FnOnce(&mut Heap) -> T) -> T {
    HEAP.with(|h| f(h.borrow_mut().as_mut().expect("a heap is installed")))
}

/// The runtime's entry points, which generated code calls by the names the IR declares.
pub struct Runtime {
    alloc: Entry,
    safepoint: Entry,
}

impl Runtime {
    /// `gc_alloc(pointers, integers) -> object` and `gc_safepoint()`, for code running on `arch`.
    pub fn new(arch: Arch) -> Result<Runtime, EntryError> {
        let arguments = arch.integer_arguments();
        let (pointers, integers, result) = (arguments[0], arguments[1], arch.integer_result());
        let alloc = Entry::with_closure(move |registers| {
            let (p, i) = (registers.get(arch, pointers).unwrap(), registers.get(arch, integers).unwrap());
            let object = with_heap(|heap| {
                let object = heap.alloc(p, i, registers);
                debug_assert!(heap.contains(object));
                object
            });
            registers.set(arch, result, 8, object).unwrap();
        })?;
        let safepoint = Entry::with_closure(|registers| {
            with_heap(|heap| {
                if heap.policy == Policy::Always {
                    heap.collect(registers);
                }
            })
        })?;
        Ok(Runtime { alloc, safepoint })
    }

    /// The entry points by the names the IR declares, for the JIT.
    pub fn symbols(&self) -> Vec<(&'static str, *const u8)> {
        vec![("gc_alloc", self.alloc.address()), ("gc_safepoint", self.safepoint.address())]
    }
}
