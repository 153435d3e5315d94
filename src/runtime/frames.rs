//! Walking a stopped thread's frames of generated code by frame pointer: from captured registers
//! with the frame table's saved registers ([`FrameTable`]), where every record location of every
//! frame can be read and written, callee-saved registers included; or through statepoint records
//! alone ([`StatepointTable`]), finding each frame's GC roots in stack slots. What a precise, moving
//! collector or a deoptimiser needs.
//!
//! ## From captured registers, with the frame table
//!
//! A [`FrameTable`] is a stack map with frame records ([`crate::stackmap::Version::FrameTable`]:
//! each function's size and the slots where its prologue saves callee-saved registers). A walk
//! starts from the [`Registers`] the runtime entry captured: the innermost frame is the function
//! holding the return address, with every register as captured. Each frame's frame record gives
//! its caller's FP (`[FP]`) and return address (`[FP + 8]`); the caller's SP is `FP + 16` (Cranelift's
//! frame record on both targets). The walk goes outwards while the return address lies inside a
//! function of the table. In an outer frame a callee-saved register lives in the slot where the
//! nearest inner frame's prologue saved it (`FP_inner + offset`), or, if no inner frame saved it,
//! in the captured register itself; its caller-saved registers are unknown.
//!
//! ## Through statepoint records
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
use crate::runtime::memory::Memory;
use crate::runtime::registers::Registers;
use crate::runtime::values::Frame;
use crate::stackmap::{
    FunctionRecord, Location, LocationKind, NotAStatepoint, Record, StackMap, StatepointLayout, DYNAMIC_STACK_SIZE,
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
    /// A stack slot at this address holds the pointer (a callee-saved register's save slot too).
    Address(u64),
    /// The captured register with this DWARF number holds it ([`FrameTable`] walks only): write it
    /// back into [`Registers`], which the entry restores.
    Register(u16),
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
    /// The memory holding a location's value (a stack slot or a save slot) could not be read or
    /// written at this address.
    #[error("cannot access the location's memory at {0:#x}")]
    Slot(u64),
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
    /// A [`FrameTable`] needs a frame record for every function.
    #[error("the stack map has no frame records (function at {0:#x}): compile with the frame-table layout (rfc2)")]
    NoFrames(u64),
    /// The captured return address is not in a function of the table.
    #[error("the return address {0:#x} is not in generated code of this stack map")]
    OutsideTable(u64),
    /// A walked function sets up no frame record (or not on the frame pointer), so its caller
    /// cannot be found.
    #[error(
        "function at {function:#x} (return address {return_address:#x}) keeps no frame record on the frame pointer"
    )]
    NoFrameRecord {
        /// The function's address.
        function: u64,
        /// The walked frame's return address in it.
        return_address: u64,
    },
    /// A caller's frame pointer is not above its callee's: the chain is corrupt or loops.
    #[error("corrupt frame chain: the frame at FP {frame_pointer:#x} names a caller FP {caller:#x}, not above it")]
    FrameChain {
        /// The callee's frame pointer, where the bad value was read.
        frame_pointer: u64,
        /// The caller's frame pointer read there.
        caller: u64,
    },
    /// A location names a register of an outer frame that is not callee-saved: the calls since
    /// have not kept it.
    #[error("frame {frame}: R#{register} is not callee-saved, so its value in a caller frame is unknown")]
    CallerSaved {
        /// The frame's index in the walk (0: innermost).
        frame: usize,
        /// The DWARF register.
        register: u16,
    },
    /// A location names a register the target does not have.
    #[error("frame {frame}: no register R#{register} on this target")]
    NoSuchRegister {
        /// The frame's index in the walk.
        frame: usize,
        /// The DWARF register.
        register: u16,
    },
    /// A write to a location that holds no storage: a constant, a `Direct` address, or the frame
    /// or stack pointer of an outer frame (which the walk derives from the frame chain).
    #[error("frame {frame}: {location} cannot be written")]
    NotWritable {
        /// The frame's index in the walk.
        frame: usize,
        /// The location.
        location: String,
    },
    /// A frame index past the walk.
    #[error("no frame {0} in this walk")]
    NoFrame(usize),
    /// A `ConstantIndex` location beyond the stack map's constant pool.
    #[error("constant index {0} is outside the stack map's constant pool")]
    ConstantIndex(u32),
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

/// The value of a `Constant` or `ConstantIndex` location.
fn constant(map: &StackMap, location: &Location) -> Result<u64, WalkError> {
    map.constant_value(location).ok_or(WalkError::ConstantIndex(location.offset as u32))
}

impl GcFrame<'_> {
    /// Where a location of this frame's record is: a slot address, or a constant.
    pub fn slot(&self, location: &Location, map: &StackMap) -> Result<Slot, WalkError> {
        match location.kind {
            LocationKind::Constant | LocationKind::ConstantIndex => Ok(Slot::Constant(constant(map, location)?)),
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

/// The bytes of a frame record (caller's FP, return address) above which a caller's SP is, on
/// both targets (Cranelift's frame setup pushes the pair first).
const FRAME_RECORD: u64 = 16;

/// A stack map with frame records, indexed by code address, for walks from captured registers.
#[derive(Clone, Debug)]
pub struct FrameTable {
    map: StackMap,
    /// (start, end, function index, index of its first record), by start.
    functions: Vec<(u64, u64, usize, usize)>,
}

/// Where a callee-saved register of a walked frame lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Home {
    /// In the captured register: no frame inside this one saved it.
    Captured,
    /// In the stack slot at this address, where an inner frame's prologue saved it.
    Saved(u64),
}

/// A frame of generated code found by [`FrameTable::walk`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkedFrame<'t> {
    /// Index of the frame's function in the stack map.
    pub function: usize,
    /// The function's address.
    pub function_address: u64,
    /// Where the frame resumes: its call's return address.
    pub return_address: u64,
    /// The frame's stack pointer at that address.
    pub stack_pointer: u64,
    /// The frame's frame pointer.
    pub frame_pointer: u64,
    /// The first record at the return address, if any.
    pub record: Option<&'t Record>,
    /// Each callee-saved register (but the frame pointer) and where it lives, for outer frames.
    homes: Vec<(u16, Home)>,
    /// Whether this is the innermost frame, where every register is the captured one.
    innermost: bool,
}

impl WalkedFrame<'_> {
    /// Where the callee-saved register `dwarf` of this frame lives; `None` if it is not
    /// callee-saved (or the frame pointer, which is [`WalkedFrame::frame_pointer`]) in an outer frame.
    pub fn home(&self, dwarf: u16) -> Option<Home> {
        self.homes.iter().find(|h| h.0 == dwarf).map(|h| h.1)
    }

    /// Whether this is the innermost frame, whose registers are all the captured ones.
    pub fn is_innermost(&self) -> bool {
        self.innermost
    }
}

/// Where a record location's value is in a walked frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// In the captured register with this DWARF number.
    Register(u16),
    /// In memory at this address (a spill slot, or a callee-saved register's save slot).
    Address(u64),
    /// This value, which has no storage to write: a constant, a `Direct` location's address, an
    /// outer frame's FP or SP.
    Value(u64),
}

/// The frames of a stopped thread, innermost first, from [`FrameTable::walk`].
#[derive(Clone, Debug)]
pub struct StackWalk<'t> {
    table: &'t FrameTable,
    arch: Arch,
    frames: Vec<WalkedFrame<'t>>,
}

impl FrameTable {
    /// Indexes the functions of `map`, whose addresses are absolute (a linked or JIT section), whose
    /// record counts are known and whose functions all have frame records ([`FunctionRecord::frame`]).
    pub fn new(map: StackMap) -> Result<FrameTable, WalkError> {
        if !map.record_counts_consistent() {
            return Err(WalkError::RecordCounts);
        }
        let mut functions = Vec::with_capacity(map.functions.len());
        let mut first = 0;
        for (f, function) in map.functions.iter().enumerate() {
            let frame = function.frame.as_ref().ok_or(WalkError::NoFrames(function.address))?;
            let end = function.address.wrapping_add(u64::from(frame.function_size));
            functions.push((function.address, end, f, first));
            first += function.record_count as usize;
        }
        functions.sort_by_key(|f| f.0);
        Ok(FrameTable { map, functions })
    }

    /// The stack map.
    pub fn stack_map(&self) -> &StackMap {
        &self.map
    }

    /// The function a return address returns into: (function index, first record index). A return
    /// address follows a call, so it may be the function's end but not its start.
    fn returning_into(&self, address: u64) -> Option<(usize, usize)> {
        let after = self.functions.partition_point(|f| f.0 < address);
        let &(_, end, f, first) = self.functions[..after].last()?;
        (address <= end).then_some((f, first))
    }

    /// The frames of generated code of a thread stopped in the runtime entry, innermost first:
    /// from `registers` (the innermost frame's return address, SP and FP) outwards through frame
    /// records read from `memory`, while return addresses lie in functions of the table.
    pub fn walk<M: Memory>(&self, arch: Arch, registers: &Registers, memory: &M) -> Result<StackWalk<'_>, WalkError> {
        let fp_register = arch.frame_pointer();
        let (mut return_address, mut stack_pointer) = (registers.return_address, registers.stack_pointer);
        let mut frame_pointer = registers.get(arch, fp_register).unwrap_or(0);
        let mut found = self.returning_into(return_address).ok_or(WalkError::OutsideTable(return_address))?;
        let mut homes: Vec<(u16, Home)> = Vec::new();
        let mut frames = Vec::new();
        loop {
            let (f, first) = found;
            let function = &self.map.functions[f];
            let offset = return_address.wrapping_sub(function.address);
            let records = &self.map.records[first..first + function.record_count as usize];
            let record = records.iter().find(|r| u64::from(r.instruction_offset) == offset);
            frames.push(WalkedFrame {
                function: f,
                function_address: function.address,
                return_address,
                stack_pointer,
                frame_pointer,
                record,
                homes: homes.clone(),
                innermost: frames.is_empty(),
            });
            if frames.len() > MAX_FRAMES {
                return Err(WalkError::TooDeep);
            }
            let frame = function.frame.as_ref().expect("checked by FrameTable::new");
            if !frame.has_frame || frame.base_register != fp_register {
                return Err(WalkError::NoFrameRecord { function: function.address, return_address });
            }
            let read = |address: u64| memory.read(address, 8).ok_or(WalkError::Memory(address));
            let caller_fp = read(frame_pointer)?;
            let caller_return = read(frame_pointer.wrapping_add(8))?;
            let Some(caller) = self.returning_into(caller_return) else { break };
            if caller_fp <= frame_pointer {
                return Err(WalkError::FrameChain { frame_pointer, caller: caller_fp });
            }
            // The caller's registers: as this frame's, except those this frame's prologue saved.
            if homes.is_empty() {
                homes =
                    arch.callee_saved().iter().filter(|&&r| r != fp_register).map(|&r| (r, Home::Captured)).collect();
            }
            for saved in &frame.registers {
                if let Some(home) = homes.iter_mut().find(|h| h.0 == saved.dwarf_reg) {
                    home.1 = Home::Saved(frame_pointer.wrapping_add(saved.offset as i64 as u64));
                }
            }
            return_address = caller_return;
            stack_pointer = frame_pointer.wrapping_add(FRAME_RECORD);
            frame_pointer = caller_fp;
            found = caller;
        }
        Ok(StackWalk { table: self, arch, frames })
    }
}

impl<'t> StackWalk<'t> {
    /// The frames, innermost first.
    pub fn frames(&self) -> &[WalkedFrame<'t>] {
        &self.frames
    }

    /// The table walked.
    pub fn table(&self) -> &'t FrameTable {
        self.table
    }

    fn frame(&self, index: usize) -> Result<&WalkedFrame<'t>, WalkError> {
        self.frames.get(index).ok_or(WalkError::NoFrame(index))
    }

    /// Where register `dwarf` of frame `index` is.
    pub fn register_place(&self, index: usize, dwarf: u16) -> Result<Place, WalkError> {
        let frame = self.frame(index)?;
        if self.arch.register_file(dwarf).is_none() {
            return Err(WalkError::NoSuchRegister { frame: index, register: dwarf });
        }
        if frame.is_innermost() {
            return Ok(Place::Register(dwarf));
        }
        if dwarf == self.arch.frame_pointer() {
            return Ok(Place::Value(frame.frame_pointer));
        }
        if dwarf == self.arch.stack_pointer() {
            return Ok(Place::Value(frame.stack_pointer));
        }
        match frame.home(dwarf) {
            Some(Home::Captured) => Ok(Place::Register(dwarf)),
            Some(Home::Saved(address)) => Ok(Place::Address(address)),
            None => Err(WalkError::CallerSaved { frame: index, register: dwarf }),
        }
    }

    /// The value of register `dwarf` in frame `index` (its low 64 bits).
    pub fn register<M: Memory>(
        &self,
        index: usize,
        dwarf: u16,
        registers: &Registers,
        memory: &M,
    ) -> Result<u64, WalkError> {
        self.load(self.register_place(index, dwarf)?, 8, registers, memory)
    }

    /// Where the value of `location` (of frame `index`'s record) is.
    pub fn place<M: Memory>(
        &self,
        index: usize,
        location: &Location,
        registers: &Registers,
        memory: &M,
    ) -> Result<Place, WalkError> {
        let base = || {
            let base = self.register(index, location.dwarf_reg, registers, memory)?;
            Ok::<_, WalkError>(base.wrapping_add(location.offset as i64 as u64))
        };
        match location.kind {
            LocationKind::Register => self.register_place(index, location.dwarf_reg),
            LocationKind::Indirect => Ok(Place::Address(base()?)),
            LocationKind::Direct => Ok(Place::Value(base()?)),
            LocationKind::Constant | LocationKind::ConstantIndex => {
                Ok(Place::Value(constant(&self.table.map, location)?))
            }
        }
    }

    fn load<M: Memory>(&self, place: Place, size: usize, registers: &Registers, memory: &M) -> Result<u64, WalkError> {
        let size = size.clamp(1, 8);
        let low = |v: u64| if size == 8 { v } else { v & ((1u64 << (8 * size)) - 1) };
        match place {
            Place::Register(dwarf) => Ok(low(registers.get(self.arch, dwarf).unwrap_or(0))),
            Place::Address(address) => memory.read(address, size).ok_or(WalkError::Slot(address)),
            Place::Value(value) => Ok(value),
        }
    }

    /// The value `location` of frame `index`'s record holds, in the low bytes of a `u64` (the first
    /// 8 of a larger location), as [`crate::runtime::read_location`] reads it.
    pub fn read<M: Memory>(
        &self,
        index: usize,
        location: &Location,
        registers: &Registers,
        memory: &M,
    ) -> Result<u64, WalkError> {
        let place = self.place(index, location, registers, memory)?;
        self.load(place, usize::from(location.size), registers, memory)
    }

    /// Writes `value`'s low bytes (the location's size, at most 8) where `location` of frame
    /// `index` lives: into the captured register (which the entry restores when it returns) or
    /// the stack slot, a callee-saved register's save slot included (which the inner frame's
    /// epilogue restores into it).
    pub fn write<M: Memory>(
        &self,
        index: usize,
        location: &Location,
        value: u64,
        registers: &mut Registers,
        memory: &mut M,
    ) -> Result<(), WalkError> {
        let size = usize::from(location.size).clamp(1, 8);
        match self.place(index, location, registers, memory)? {
            Place::Register(dwarf) => registers
                .set(self.arch, dwarf, size, value)
                .ok_or(WalkError::NoSuchRegister { frame: index, register: dwarf }),
            Place::Address(address) => memory.write(address, size, value).ok_or(WalkError::Slot(address)),
            Place::Value(_) => Err(WalkError::NotWritable { frame: index, location: location.to_string() }),
        }
    }

    /// The GC roots of frame `index`'s statepoint record: a (base, derived) slot pair for each pair,
    /// in registers or slots ([`Slot::Register`] for a captured register). Empty for a frame
    /// without a record.
    pub fn roots<M: Memory>(&self, index: usize, registers: &Registers, memory: &M) -> Result<Vec<Root>, WalkError> {
        let Some(record) = self.frame(index)?.record else { return Ok(Vec::new()) };
        let layout = StatepointLayout::decode(record, &self.table.map)?;
        let slot = |location: &Location| -> Result<Slot, WalkError> {
            Ok(match self.place(index, location, registers, memory)? {
                Place::Register(dwarf) => Slot::Register(dwarf),
                Place::Address(address) => Slot::Address(address),
                Place::Value(value)
                    if matches!(location.kind, LocationKind::Constant | LocationKind::ConstantIndex) =>
                {
                    Slot::Constant(value)
                }
                Place::Value(_) => {
                    return Err(WalkError::Unlocatable {
                        id: record.id,
                        register: location.dwarf_reg,
                        offset: location.offset,
                    })
                }
            })
        };
        layout.pairs().map(|(base, derived)| Ok(Root { base: slot(base)?, derived: slot(derived)? })).collect()
    }

    /// Frame `index` as a [`Frame`], for [`crate::runtime::read_location`]: a register it does not
    /// know reads as not captured.
    pub fn view<'a, M: Memory>(
        &'a self,
        index: usize,
        registers: &'a Registers,
        memory: &'a M,
    ) -> WalkedFrameView<'a, 't, M> {
        WalkedFrameView { walk: self, index, registers, memory }
    }
}

/// One frame of a [`StackWalk`] as a [`Frame`]: see [`StackWalk::view`].
pub struct WalkedFrameView<'a, 't, M> {
    walk: &'a StackWalk<'t>,
    index: usize,
    registers: &'a Registers,
    memory: &'a M,
}

impl<M: Memory> Frame for WalkedFrameView<'_, '_, M> {
    fn register(&self, dwarf: u16) -> Option<u64> {
        self.walk.register(self.index, dwarf, self.registers, self.memory).ok()
    }

    fn memory(&self, address: u64, size: usize) -> Option<u64> {
        self.memory.read(address, size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::memory::StackDump;
    use crate::stackmap::{Frame as FunctionFrame, FrameRegister};

    fn function_frame(function_size: u32, saves: &[(u16, i32)]) -> Option<FunctionFrame> {
        let registers =
            saves.iter().map(|&(dwarf_reg, offset)| FrameRegister { dwarf_reg, offset, size: 8, is_spilled: true });
        Some(FunctionFrame {
            function_size,
            has_frame: true,
            base_register: 6,
            registers: registers.collect(),
            ..FunctionFrame::default()
        })
    }

    /// x86-64: main (0x3000) calls middle (0x2000), which calls inner (0x1000), which called the
    /// entry. inner saved RBX at FP-8; middle saved RBX at FP-8 and R12 at FP-16. Frames: inner FP
    /// 0x7000, middle FP 0x7100, main FP 0x7200; main's caller is not generated code.
    fn three_frames() -> (FrameTable, Registers, StackDump) {
        let mut map = StackMap::new();
        let record =
            |id, instruction_offset, locations| Record { id, instruction_offset, locations, ..Record::default() };
        map.push_function_with_frame(
            0x1000,
            32,
            function_frame(0x40, &[(6, 0), (3, -8)]),
            [record(1, 0x20, vec![Location::register(3, 8), Location::indirect(6, -16, 4)])],
        );
        map.push_function_with_frame(
            0x2000,
            48,
            function_frame(0x40, &[(6, 0), (3, -8), (12, -16)]),
            [record(2, 0x18, vec![Location::register(3, 8), Location::register(12, 8), Location::register(6, 8)])],
        );
        map.push_function_with_frame(
            0x3000,
            48,
            function_frame(0x40, &[(6, 0)]),
            [record(3, 0x30, vec![Location::register(3, 8), Location::register(12, 4), Location::register(13, 8)])],
        );
        let table = FrameTable::new(map).unwrap();
        let mut registers = Registers::default();
        registers.return_address = 0x1020;
        registers.stack_pointer = 0x6fe0;
        registers.general[6] = 0x7000;
        registers.general[3] = 0xb0; // inner's RBX
        registers.general[12] = 0xc2; // nobody below main saved R12 but middle
        registers.general[13] = 0xd3; // nobody saved R13: main's is the captured one
        let mut stack = StackDump::new(0x6f00, vec![0; 0x400]);
        for (address, value) in [
            (0x6ff0, 0x1234_5678_9abc_def0u64), // inner's [FP-16]
            (0x6ff8, 0xb1),                     // middle's RBX, saved by inner
            (0x7000, 0x7100),
            (0x7008, 0x2018),
            (0x70f0, 0xc3), // main's R12, saved by middle
            (0x70f8, 0xb2), // main's RBX, saved by middle
            (0x7100, 0x7200),
            (0x7108, 0x3030),
            (0x7200, 0x7300),
            (0x7208, 0x9999),
        ] {
            stack.write(address, 8, value).unwrap();
        }
        (table, registers, stack)
    }

    #[test]
    fn callee_saved_registers_are_found_where_inner_frames_saved_them() {
        let (table, mut registers, mut stack) = three_frames();
        let walk = table.walk(Arch::X86_64, &registers, &stack).unwrap();
        let frames = walk.frames();
        assert_eq!(frames.iter().map(|f| f.record.map(|r| r.id)).collect::<Vec<_>>(), [Some(1), Some(2), Some(3)]);
        assert_eq!(frames.iter().map(|f| f.frame_pointer).collect::<Vec<_>>(), [0x7000, 0x7100, 0x7200]);
        assert_eq!(frames.iter().map(|f| f.stack_pointer).collect::<Vec<_>>(), [0x6fe0, 0x7010, 0x7110]);
        assert_eq!(frames[1].home(3), Some(Home::Saved(0x6ff8)));
        assert_eq!(frames[1].home(12), Some(Home::Captured));
        assert_eq!(frames[2].home(12), Some(Home::Saved(0x70f0)));
        let values = |walk: &StackWalk, registers: &Registers, stack: &StackDump| -> Vec<Vec<u64>> {
            (0..3)
                .map(|i| {
                    let record = walk.frames()[i].record.unwrap();
                    record.locations.iter().map(|l| walk.read(i, l, registers, stack).unwrap()).collect()
                })
                .collect()
        };
        assert_eq!(
            values(&walk, &registers, &stack),
            [vec![0xb0, 0x9abc_def0], vec![0xb1, 0xc2, 0x7100], vec![0xb2, 0xc3, 0xd3]]
        );
        // The same through read_location.
        let view = walk.view(2, &registers, &stack);
        assert_eq!(crate::runtime::read_location(&Location::register(12, 8), &[], &view), Ok(0xc3));
        // Writes land in the captured register or the save slot.
        let walk = table.walk(Arch::X86_64, &registers, &stack).unwrap();
        for (i, l, v) in
            [(0, 0, 0x10), (0, 1, 0x11), (1, 0, 0x20), (1, 1, 0x21), (2, 0, 0x30), (2, 1, 0x31), (2, 2, 0x32)]
        {
            let location = walk.frames()[i].record.unwrap().locations[l];
            walk.write(i, &location, v, &mut registers, &mut stack).unwrap();
        }
        assert_eq!((registers.general[3], registers.general[12], registers.general[13]), (0x10, 0x21, 0x32));
        assert_eq!(stack.read(0x6ff0, 8), Some(0x1234_5678_0000_0011));
        assert_eq!(
            (stack.read(0x6ff8, 8), stack.read(0x70f8, 8), stack.read(0x70f0, 8)),
            (Some(0x20), Some(0x30), Some(0x31))
        );
        let walk = table.walk(Arch::X86_64, &registers, &stack).unwrap();
        assert_eq!(
            values(&walk, &registers, &stack),
            [vec![0x10, 0x11], vec![0x20, 0x21, 0x7100], vec![0x30, 0x31, 0x32]]
        );
        // An outer frame's FP is derived, not stored: not writable.
        let fp = Location::register(6, 8);
        assert!(matches!(
            walk.write(1, &fp, 0, &mut registers, &mut stack),
            Err(WalkError::NotWritable { frame: 1, .. })
        ));
    }

    #[test]
    fn walks_from_registers_report_what_they_cannot_do() {
        let (table, registers, stack) = three_frames();
        let walk = table.walk(Arch::X86_64, &registers, &stack).unwrap();
        // Caller-saved registers of outer frames are unknown; the innermost's are captured.
        assert_eq!(walk.register(1, 0, &registers, &stack), Err(WalkError::CallerSaved { frame: 1, register: 0 }));
        assert_eq!(walk.register(0, 0, &registers, &stack), Ok(0));
        assert_eq!(walk.register(0, 16, &registers, &stack), Err(WalkError::NoSuchRegister { frame: 0, register: 16 }));
        assert_eq!(walk.register(3, 3, &registers, &stack), Err(WalkError::NoFrame(3)));
        assert!(walk.roots(0, &registers, &stack).is_err(), "a stack map record is not a statepoint");
        // A slot the memory cannot give is the location's failure, not the frame chain's.
        let far = Location::indirect(6, 0x10_0000, 8);
        let slot = registers.general[6] + 0x10_0000;
        assert_eq!(walk.read(0, &far, &registers, &stack), Err(WalkError::Slot(slot)));
        assert_eq!(walk.write(0, &far, 1, &mut registers.clone(), &mut stack.clone()), Err(WalkError::Slot(slot)));
        assert!(!WalkError::Slot(slot).to_string().contains("frame chain"));
        // Not stopped in generated code.
        let mut outside = registers;
        outside.return_address = 0x1000;
        assert_eq!(table.walk(Arch::X86_64, &outside, &stack).unwrap_err(), WalkError::OutsideTable(0x1000));
        // A chain that points back down, or off the stack.
        let mut looping = stack.clone();
        looping.write(0x7100, 8, 0x7000).unwrap();
        let error = table.walk(Arch::X86_64, &registers, &looping).unwrap_err();
        assert_eq!(error, WalkError::FrameChain { frame_pointer: 0x7100, caller: 0x7000 });
        assert!(error.to_string().contains("0x7100"));
        let mut off = registers;
        off.general[6] = 0x9000;
        assert_eq!(table.walk(Arch::X86_64, &off, &stack).unwrap_err(), WalkError::Memory(0x9000));
        // A function without a frame record, and a table without frames.
        let mut map = table.stack_map().clone();
        map.functions[1].frame.as_mut().unwrap().has_frame = false;
        let error = FrameTable::new(map).unwrap().walk(Arch::X86_64, &registers, &stack).unwrap_err();
        assert_eq!(error, WalkError::NoFrameRecord { function: 0x2000, return_address: 0x2018 });
        let error = FrameTable::new(table.stack_map().without_frames()).unwrap_err();
        assert_eq!(error, WalkError::NoFrames(0x1000));
        assert!(error.to_string().contains("rfc2"));
    }

    #[test]
    fn register_roots_are_allowed_with_frames() {
        let (table, registers, stack) = three_frames();
        let mut map = table.stack_map().clone();
        map.records[1] = statepoint(2, 0x18, &[Location::register(3, 8), Location::register(12, 8)]);
        map.records[2] = statepoint(3, 0x30, &[Location::register(13, 8), Location::indirect(6, -8, 8)]);
        let table = FrameTable::new(map).unwrap();
        let walk = table.walk(Arch::X86_64, &registers, &stack).unwrap();
        assert_eq!(
            walk.roots(1, &registers, &stack).unwrap(),
            [Root { base: Slot::Address(0x6ff8), derived: Slot::Register(12) }]
        );
        assert_eq!(
            walk.roots(2, &registers, &stack).unwrap(),
            [Root { base: Slot::Register(13), derived: Slot::Address(0x71f8) }]
        );
    }

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
