//! Walking a stopped thread's frames of generated code by frame pointer, and finding each frame's
//! GC roots through its statepoint record: what a precise, moving collector needs.
//!
//! Every frame of generated code keeps a frame record (`[FP]` = the caller's FP, `[FP + 8]` = the
//! return address into the caller) on both targets, and a statepoint record sits at each return
//! address where a collection may happen. A walk starts from the innermost such frame, as the
//! runtime function the code called sees it at entry (x86-64: the return address at `[SP]`, the
//! caller's SP is `SP + 8`; AArch64: `x30` and `SP`; FP unchanged on both), and goes outwards
//! until a return address has no statepoint record: the frame of the code that entered the
//! generated code.
//!
//! ```
//! use patchmap::arch::Arch;
//! use patchmap::runtime::frames::{FrameState, Slot, StatepointTable};
//! use patchmap::stackmap::{Location, Record, StackMap};
//!
//! // One function at 0x1000 with a frame of 32 bytes; its statepoint at 0x1010 records one pair
//! // in the slot at [FP - 16].
//! let mut map = StackMap::new();
//! let slot = Location::indirect(Arch::X86_64.frame_pointer(), -16, 8);
//! let locations = vec![Location::constant(0), Location::constant(0), Location::constant(0), slot, slot];
//! map.push_function(0x1000, 32, [Record { id: 1, instruction_offset: 0x10, locations, ..Record::default() }]);
//! let table = StatepointTable::new(map).unwrap();
//!
//! // The stopped thread: that frame's FP is 0x7f00; its frame record says the caller (not generated
//! // code) returns to 0x9999.
//! let memory = |address: u64| match address {
//!     0x7f00 => Some(0x8000),
//!     0x7f08 => Some(0x9999),
//!     _ => None,
//! };
//! let start = FrameState { return_address: 0x1010, stack_pointer: 0x7ee0, frame_pointer: 0x7f00 };
//! let frames: Vec<_> = table.walk(Arch::X86_64, start, &memory).collect::<Result<_, _>>().unwrap();
//! assert_eq!(frames.len(), 1);
//! let roots = frames[0].roots().unwrap();
//! assert_eq!((roots[0].base, roots[0].derived), (Slot::Address(0x7ef0), Slot::Address(0x7ef0)));
//! ```

use crate::arch::Arch;
use crate::stackmap::{
    FunctionRecord, Location, LocationKind, NotAStatepoint, StackMap, StatepointLayout, DYNAMIC_STACK_SIZE,
};

/// Most frames a walk visits: a corrupt frame chain ends in an error, not a hang.
const MAX_FRAMES: usize = 1 << 20;

/// The statepoint records of a stack map, by the absolute address each one is at.
#[derive(Clone, Debug)]
pub struct StatepointTable {
    map: StackMap,
    /// (address, function index, record index), by address.
    index: Vec<(u64, usize, usize)>,
}

/// A frame of generated code stopped at a return address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameState {
    /// Where the frame's call returns to: a statepoint record's address.
    pub return_address: u64,
    /// The frame's stack pointer at that address.
    pub stack_pointer: u64,
    /// The frame's frame pointer.
    pub frame_pointer: u64,
}

/// A frame of generated code at a statepoint, found by a walk.
#[derive(Clone, Debug)]
pub struct GcFrame<'t> {
    /// The frame's registers at its statepoint.
    pub state: FrameState,
    /// The statepoint's ID.
    pub id: u64,
    /// The record's locations, by role.
    pub layout: StatepointLayout<'t>,
    arch: Arch,
}

/// A place a GC root is read from and written back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// A stack slot at this address holds the pointer.
    Address(u64),
    /// The pointer is this constant (`null`): nothing to update.
    Constant(u64),
}

/// A base pointer and a pointer derived from it (equal for a plain root). A collector that moves
/// the base's object writes the new base, and the derived pointer moved by the same distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Root {
    /// Where the base pointer is.
    pub base: Slot,
    /// Where the derived pointer is.
    pub derived: Slot,
}

/// Why a walk or a root lookup failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WalkError {
    /// The stack map does not say which records belong to which function (a v1 section whose
    /// record counts were not derived).
    #[error("the stack map's record counts do not match its records (v1: derive them from the function sizes)")]
    RecordCounts,
    /// A record at a walked return address is not a statepoint's.
    #[error(transparent)]
    NotAStatepoint(#[from] NotAStatepoint),
    /// The frame chain could not be read at this address.
    #[error("cannot read the frame chain at {0:#x}")]
    Memory(u64),
    /// A root location is in a register, which a walk by frame pointer cannot recover.
    #[error("statepoint {id}: a GC pointer is in register R#{register}; only stack slots can be walked")]
    RegisterRoot {
        /// The statepoint's ID.
        id: u64,
        /// The DWARF register.
        register: u16,
    },
    /// A location is relative to a register other than SP and FP, or to SP in a frame whose stack
    /// size is dynamic.
    #[error("statepoint {id}: cannot locate [R#{register} + {offset}] in this frame")]
    Unlocatable {
        /// The statepoint's ID.
        id: u64,
        /// The base register.
        register: u16,
        /// The offset.
        offset: i32,
    },
    /// The walk went on for more frames than any real stack has.
    #[error("more than {MAX_FRAMES} frames: the frame chain loops")]
    TooDeep,
}

impl StatepointTable {
    /// Indexes the records of `map`, whose function addresses are absolute (a linked or JIT
    /// section) and whose record counts are known (v2 and v3; v1 after
    /// [`StackMap::derive_record_counts`]).
    pub fn new(map: StackMap) -> Result<StatepointTable, WalkError> {
        if !map.record_counts_consistent() {
            return Err(WalkError::RecordCounts);
        }
        let mut index = Vec::with_capacity(map.records.len());
        let mut next = 0;
        for (f, function) in map.functions.iter().enumerate() {
            for r in next..next + function.record_count as usize {
                index.push((function.address.wrapping_add(u64::from(map.records[r].instruction_offset)), f, r));
            }
            next += function.record_count as usize;
        }
        index.sort_by_key(|e| e.0);
        Ok(StatepointTable { map, index })
    }

    /// The stack map.
    pub fn stack_map(&self) -> &StackMap {
        &self.map
    }

    /// The function and statepoint record at `address` (the first, if records share it).
    pub fn lookup(&self, address: u64) -> Option<Result<(FunctionRecord, u64, StatepointLayout<'_>), WalkError>> {
        let at = self.index.partition_point(|e| e.0 < address);
        let &(found, f, r) = self.index.get(at)?;
        if found != address {
            return None;
        }
        let record = &self.map.records[r];
        Some(
            StatepointLayout::decode(record, &self.map)
                .map(|layout| (self.map.functions[f].clone(), record.id, layout))
                .map_err(WalkError::from),
        )
    }

    /// The frames of generated code from `innermost` outwards, read through `memory` (8 bytes at an
    /// address, if readable), until a return address without a statepoint record.
    pub fn walk<'t, M: Fn(u64) -> Option<u64>>(
        &'t self,
        arch: Arch,
        innermost: FrameState,
        memory: &'t M,
    ) -> Walk<'t, M> {
        Walk { table: self, arch, next: Some(innermost), memory, frames: 0 }
    }
}

/// The iterator of [`StatepointTable::walk`].
pub struct Walk<'t, M> {
    table: &'t StatepointTable,
    arch: Arch,
    next: Option<FrameState>,
    memory: &'t M,
    frames: usize,
}

impl<'t, M: Fn(u64) -> Option<u64>> Iterator for Walk<'t, M> {
    type Item = Result<GcFrame<'t>, WalkError>;

    fn next(&mut self) -> Option<Self::Item> {
        let state = self.next.take()?;
        let (function, id, layout) = match self.table.lookup(state.return_address)? {
            Ok(found) => found,
            Err(e) => return Some(Err(e)),
        };
        self.frames += 1;
        if self.frames > MAX_FRAMES {
            return Some(Err(WalkError::TooDeep));
        }
        let fp = state.frame_pointer;
        let read = |address: u64| (self.memory)(address).ok_or(WalkError::Memory(address));
        let caller = read(fp).and_then(|caller_fp| Ok((caller_fp, read(fp.wrapping_add(8))?)));
        let (caller_fp, caller_return) = match caller {
            Ok(c) => c,
            Err(e) => return Some(Err(e)),
        };
        // The caller's SP is this frame's CFA: known from the stack size, else (x86-64) from FP.
        let caller_sp = if function.stack_size != DYNAMIC_STACK_SIZE {
            state.stack_pointer.wrapping_add(function.stack_size).wrapping_add(self.arch.call_pushes())
        } else if self.arch == Arch::X86_64 {
            fp.wrapping_add(16)
        } else {
            0
        };
        self.next =
            Some(FrameState { return_address: caller_return, stack_pointer: caller_sp, frame_pointer: caller_fp });
        Some(Ok(GcFrame { state, id, layout, arch: self.arch }))
    }
}

impl GcFrame<'_> {
    /// Where a location of this frame's record is: a slot address, or a constant.
    pub fn slot(&self, location: &Location, map: &StackMap) -> Result<Slot, WalkError> {
        match location.kind {
            LocationKind::Constant | LocationKind::ConstantIndex => {
                Ok(Slot::Constant(map.constant_value(location).unwrap_or(0)))
            }
            LocationKind::Register => Err(WalkError::RegisterRoot { id: self.id, register: location.dwarf_reg }),
            LocationKind::Direct | LocationKind::Indirect => {
                let base = if location.dwarf_reg == self.arch.frame_pointer() {
                    Some(self.state.frame_pointer)
                } else if location.dwarf_reg == self.arch.stack_pointer() && self.state.stack_pointer != 0 {
                    Some(self.state.stack_pointer)
                } else {
                    None
                };
                let base = base.ok_or(WalkError::Unlocatable {
                    id: self.id,
                    register: location.dwarf_reg,
                    offset: location.offset,
                })?;
                Ok(Slot::Address(base.wrapping_add(location.offset as i64 as u64)))
            }
        }
    }

    /// The frame's roots: a (base, derived) slot pair for each pair of its record. The slots of the
    /// GC allocas ([`StatepointLayout::allocas`]) are not included: the collector scans those
    /// objects in place.
    pub fn roots_in(&self, map: &StackMap) -> Result<Vec<Root>, WalkError> {
        self.layout
            .pairs()
            .map(|(base, derived)| Ok(Root { base: self.slot(base, map)?, derived: self.slot(derived, map)? }))
            .collect()
    }

    /// [`GcFrame::roots_in`] for records whose pairs need no constant pool (null pointers are small
    /// constants).
    pub fn roots(&self) -> Result<Vec<Root>, WalkError> {
        self.roots_in(&StackMap::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stackmap::Record;

    fn statepoint(id: u64, offset: u32, pairs: &[Location]) -> Record {
        let mut locations = vec![Location::constant(0), Location::constant(0), Location::constant(0)];
        locations.extend_from_slice(pairs);
        Record { id, instruction_offset: offset, locations, ..Record::default() }
    }

    /// Two frames of generated code (a caller at 0x2000 whose call returns to 0x2020, a callee at
    /// 0x1000 stopped at 0x1008) under an embedder frame, on both targets.
    #[test]
    fn walks_two_frames_and_finds_their_slots() {
        for arch in [Arch::X86_64, Arch::Aarch64] {
            let (fp, sp) = (arch.frame_pointer(), arch.stack_pointer());
            let mut map = StackMap::new();
            map.push_function(
                0x1000,
                48,
                [statepoint(1, 8, &[Location::indirect(fp, -8, 8), Location::indirect(sp, 0, 8)])],
            );
            map.push_function(
                0x2000,
                DYNAMIC_STACK_SIZE,
                [statepoint(2, 0x20, &[Location::constant(0), Location::constant(0), Location::direct(fp, -32, 8)])],
            );
            let table = StatepointTable::new(map).unwrap();
            // Callee frame: FP 0x7000, SP 0x6fd0 (48 bytes below the caller's 0x7000 + pushes).
            let memory = |a: u64| match a {
                0x7000 => Some(0x7100),
                0x7008 => Some(0x2020),
                0x7100 => Some(0x7200),
                0x7108 => Some(0xdead),
                _ => None,
            };
            let start = FrameState { return_address: 0x1008, stack_pointer: 0x6fd0, frame_pointer: 0x7000 };
            let frames: Vec<_> = table.walk(arch, start, &memory).collect::<Result<_, _>>().unwrap();
            assert_eq!(frames.iter().map(|f| f.id).collect::<Vec<_>>(), vec![1, 2]);
            let roots = frames[0].roots().unwrap();
            assert_eq!(roots, vec![Root { base: Slot::Address(0x6ff8), derived: Slot::Address(0x6fd0) }]);
            assert_eq!(frames[1].state.frame_pointer, 0x7100);
            assert_eq!(frames[1].state.stack_pointer, 0x6fd0 + 48 + arch.call_pushes());
            assert_eq!(frames[1].roots().unwrap(), vec![Root { base: Slot::Constant(0), derived: Slot::Constant(0) }]);
            assert_eq!(frames[1].layout.allocas, &[Location::direct(fp, -32, 8)]);
        }
    }

    #[test]
    fn errors_name_what_cannot_be_walked() {
        let arch = Arch::X86_64;
        let mut map = StackMap::new();
        map.push_function(0x1000, 16, [statepoint(1, 8, &[Location::register(3, 8), Location::register(3, 8)])]);
        let table = StatepointTable::new(map).unwrap();
        let start = FrameState { return_address: 0x1008, stack_pointer: 0x6ff0, frame_pointer: 0x7000 };
        let unreadable = |_: u64| None;
        let first = table.walk(arch, start, &unreadable).next().unwrap();
        assert_eq!(first.unwrap_err(), WalkError::Memory(0x7000));
        let memory = |a: u64| (a >= 0x7000).then_some(0);
        let frame = table.walk(arch, start, &memory).next().unwrap().unwrap();
        assert_eq!(frame.roots().unwrap_err(), WalkError::RegisterRoot { id: 1, register: 3 });
        // A v1 section's counts are unknown until derived.
        let mut v1 = table.stack_map().clone();
        v1.functions[0].record_count = 0;
        assert_eq!(StatepointTable::new(v1).unwrap_err(), WalkError::RecordCounts);
        // A frame chain that loops ends in an error.
        let mut map = StackMap::new();
        map.push_function(0x1000, 16, [statepoint(1, 8, &[])]);
        let table = StatepointTable::new(map).unwrap();
        let looping = |a: u64| match a {
            0x7000 => Some(0x7000),
            0x7008 => Some(0x1008),
            _ => None,
        };
        let last = table.walk(arch, start, &looping).last().unwrap();
        assert_eq!(last.unwrap_err(), WalkError::TooDeep);
    }
}
