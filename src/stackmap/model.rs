//! The owned, version-independent model of one stack map blob.
//!
//! The compiler builds a [`StackMap`] and hands it to [`StackMap::write`]; the parser produces one with
//! [`StackMapView::to_model`](super::StackMapView::to_model). The model holds what every version can
//! express plus the per-function record counts of v2/v3 ([`FunctionRecord::record_count`]), which a v1
//! section does not store (see [`StackMap::derive_record_counts`]), and the frame table of the 2015
//! "StackMap v2" proposal ([`Version::FrameTable`]): a [`Frame`] per function ([`FunctionRecord::frame`])
//! and a call size and live-out flag per record ([`Record::call_size`], [`Record::has_live_out_info`]).
//! Versions 1–3 neither write nor read the frame-table fields: they are `None`/0/`false` after parsing
//! such a section, and writing one ignores them.

use std::collections::HashMap;

use super::Error;

/// The layout of a stack map blob. Byte 0 of every blob is [`Version::number`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Version {
    /// LLVM 3.5–3.9: 16-byte function records (no record count), 8-byte locations whose size is a `u8`.
    V1,
    /// LLVM 4.0: v1 plus a `u64` record count per function record.
    V2,
    /// LLVM 5 and later (still LLVM 19): 12-byte locations with a `u16` size, padded to 8 after them.
    V3,
    /// The frame-table layout of the 2015 "StackMap v2" proposal, which LLVM never shipped: a header of
    /// table offsets, flat tables of frame records, frame registers, records, uniqued locations and
    /// live-outs (see [`crate::stackmap::frame_table`]). Named `rfc2` in text. Its version byte is 2, as
    /// LLVM 4.0's [`Version::V2`]; the reader tells the two apart by the header's structure.
    FrameTable,
}

impl Version {
    /// The version for a version byte, if it is 1, 2 or 3. Byte 2 gives [`Version::V2`]: the byte alone
    /// cannot tell LLVM 4.0's layout from [`Version::FrameTable`] (see
    /// [`StackMapView::parse`](super::StackMapView::parse)).
    pub fn from_byte(byte: u8) -> Option<Version> {
        match byte {
            1 => Some(Version::V1),
            2 => Some(Version::V2),
            3 => Some(Version::V3),
            _ => None,
        }
    }

    /// The version byte (2 for [`Version::FrameTable`]).
    pub fn number(self) -> u8 {
        match self {
            Version::V1 => 1,
            Version::V2 | Version::FrameTable => 2,
            Version::V3 => 3,
        }
    }

    /// Size in bytes of one function record: 16 in v1, 24 in v2 and v3, 28 for a frame-table
    /// FrameRecord.
    pub fn function_record_size(self) -> usize {
        match self {
            Version::V1 => 16,
            Version::V2 | Version::V3 => 24,
            Version::FrameTable => 28,
        }
    }

    /// Size in bytes of one location: 8 in v1, v2 and the frame table, 12 in v3.
    pub fn location_size(self) -> usize {
        match self {
            Version::V1 | Version::V2 | Version::FrameTable => 8,
            Version::V3 => 12,
        }
    }

    /// Whether function records carry a record count (all but v1).
    pub fn has_record_counts(self) -> bool {
        self != Version::V1
    }

    /// Every version, in the order of [`Version`]'s variants.
    pub const ALL: [Version; 4] = [Version::V1, Version::V2, Version::V3, Version::FrameTable];
}

/// `1`, `2`, `3` or `rfc2`: the names [`Version`]'s `FromStr` accepts.
impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Version::FrameTable => f.write_str("rfc2"),
            v => write!(f, "{}", v.number()),
        }
    }
}

/// A version name that is not `1`, `2`, `3` or `rfc2`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown stack map version '{0}' (expected 1, 2, 3 or rfc2)")]
pub struct UnknownVersion(pub String);

impl std::str::FromStr for Version {
    type Err = UnknownVersion;

    fn from_str(text: &str) -> Result<Version, UnknownVersion> {
        match text {
            "1" => Ok(Version::V1),
            "2" => Ok(Version::V2),
            "3" => Ok(Version::V3),
            "rfc2" => Ok(Version::FrameTable),
            _ => Err(UnknownVersion(text.to_owned())),
        }
    }
}

/// Byte order of the section's multi-byte fields: the target's byte order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Endian {
    /// Little-endian (x86-64, AArch64).
    #[default]
    Little,
    /// Big-endian (for example `aarch64_be`).
    Big,
}

impl Endian {
    /// The byte order of the machine running this code.
    pub fn native() -> Endian {
        if cfg!(target_endian = "big") {
            Endian::Big
        } else {
            Endian::Little
        }
    }
}

/// Stack size value meaning "not known statically" (variable-sized objects or stack realignment).
pub const DYNAMIC_STACK_SIZE: u64 = u64::MAX;

/// Largest tables [`StackMap::derive_record_counts`] builds (functions × spare records; 9 bytes a cell).
const MAX_SPLIT_CELLS: usize = 1 << 23;

/// The v1 record splits of a stack map, as [`StackMap::derive_record_counts`] and
/// [`StackMap::ambiguous_records`] search them: function f can only start at records f..=f+slack
/// (every function has at least one record), so the tables of "splits of the records j.. among the
/// functions f.." are bands of `cells()` entries.
struct SplitBand<'s> {
    functions: usize,
    records: usize,
    slack: usize,
    sizes: &'s [u64],
    offsets: Vec<u64>,
}

impl<'s> SplitBand<'s> {
    /// The band of `map`'s records among functions of `sizes`; an error where no split can exist
    /// or the tables would be too large.
    fn new(map: &StackMap, sizes: &'s [u64]) -> Result<SplitBand<'s>, Error> {
        let (n, m) = (map.functions.len(), map.records.len());
        if sizes.len() != n {
            return Err(Error::FunctionSizesMismatch { functions: n, sizes: sizes.len() });
        }
        if m < n || (n == 0 && m > 0) {
            return Err(Error::NoRecordSplit);
        }
        let band = SplitBand {
            functions: n,
            records: m,
            slack: m - n,
            sizes,
            offsets: map.records.iter().map(|r| u64::from(r.instruction_offset)).collect(),
        };
        if band.cells() > MAX_SPLIT_CELLS {
            return Err(Error::RecordSplitTooLarge { functions: n, records: m });
        }
        Ok(band)
    }

    fn cells(&self) -> usize {
        (self.functions + 1).saturating_mul(self.slack + 1)
    }

    /// The index of (function f, first record j) in a table.
    fn at(&self, f: usize, j: usize) -> usize {
        f * (self.slack + 1) + (j - f)
    }

    /// The ends `end` (inclusive) function f may take from start j, in increasing order (function
    /// f+1 must start by record f+1+slack).
    fn ends(&self, f: usize, j: usize) -> impl Iterator<Item = usize> + '_ {
        let (size, offsets) = (self.sizes[f], &self.offsets);
        (j..=f + self.slack)
            .take_while(move |&end| offsets[end] <= size && (end == j || offsets[end] >= offsets[end - 1]))
    }
}

/// Record ID LLVM writes for a record with more than 65535 locations or live-outs (the overflow record).
pub const OVERFLOW_RECORD_ID: u64 = u64::MAX;

/// One entry of the function table: a function that has at least one record.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct FunctionRecord {
    /// The function's address: 0 in relocatable objects (a relocation fills it in), absolute after linking.
    pub address: u64,
    /// Bytes the prologue moves the stack pointer, or [`DYNAMIC_STACK_SIZE`].
    pub stack_size: u64,
    /// Number of records of this function. The records of function *i* follow those of functions
    /// `0..i` in [`StackMap::records`]. Not stored in v1 sections: a v1 parse sets it to 0 for every
    /// function (see [`StackMap::derive_record_counts`]); the v1 writer ignores it.
    pub record_count: u64,
    /// What the frame table adds about the function ([`Version::FrameTable`] only): `None` when it is
    /// not known (every parse of a v1, v2 or v3 section). The frame-table writer refuses a function
    /// without it rather than invent one; the other versions ignore it.
    pub frame: Option<Frame>,
}

/// The frame-table fields of one function ([`Version::FrameTable`]'s FrameRecord beyond address, stack
/// size and records).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Frame {
    /// Size of the function's code in bytes.
    pub function_size: u32,
    /// The function sets up a frame (a frame base register addresses its slots).
    pub has_frame: bool,
    /// The function has variable-sized stack objects (its stack size is not static). The compiler
    /// never sets it: its dynamic allocas come from an arena, never from the machine stack, whose SP
    /// stays fixed in the body (such functions still record LLVM's unknown stack size).
    pub has_variable_size_alloca: bool,
    /// The function realigns its stack dynamically. The compiler sets it when the prologue rounds
    /// SP down for an alloca aligned beyond 16 bytes; the records' frame addresses are then
    /// SP-relative, as llc-19's.
    pub has_stack_realignment: bool,
    /// The function's records carry live-out information (liveness was computed); the compiler sets
    /// it for a function with a patch point.
    pub has_live_out_info: bool,
    /// DWARF number of the register the frame registers' offsets are relative to.
    pub base_register: u16,
    /// Where the prologue saved registers (callee-saved registers), in the order the compiler lists them
    /// (the compiler: by offset, the frame pointer at 0 and on AArch64 the link register at 8 included).
    pub registers: Vec<FrameRegister>,
}

/// A register the prologue saved in the frame: read (or rewrite) the caller's value at
/// `frame base register + offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FrameRegister {
    /// DWARF number of the saved register.
    pub dwarf_reg: u16,
    /// Offset of its slot from the frame base register. The section stores an `i16`; the writer refuses
    /// offsets outside `i16`.
    pub offset: i32,
    /// Bytes saved.
    pub size: u8,
    /// The register's value was spilled to the slot (the IsSpilled flag).
    pub is_spilled: bool,
}

/// What a location's fields mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LocationKind {
    /// The value is in register `dwarf_reg` (`offset` is a sub-register offset, normally 0).
    Register = 1,
    /// The value is the address `dwarf_reg + offset` (an `alloca` passed directly).
    Direct = 2,
    /// The value is in memory at `[dwarf_reg + offset]` (a spill slot).
    Indirect = 3,
    /// The value is `offset` itself (a constant that fits in 32 bits, sign-extended by LLVM).
    Constant = 4,
    /// The value is `constants[offset]` of the section's constant pool.
    ConstantIndex = 5,
}

impl LocationKind {
    /// The kind for a location type byte, if it is 1..=5.
    pub fn from_byte(byte: u8) -> Option<LocationKind> {
        match byte {
            1 => Some(LocationKind::Register),
            2 => Some(LocationKind::Direct),
            3 => Some(LocationKind::Indirect),
            4 => Some(LocationKind::Constant),
            5 => Some(LocationKind::ConstantIndex),
            _ => None,
        }
    }
}

/// Where a live value is at a record's instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Location {
    /// How to read the other fields.
    pub kind: LocationKind,
    /// Size of the value in bytes. v1 and v2 store only its low 8 bits.
    pub size: u16,
    /// DWARF register number (0 for constants).
    pub dwarf_reg: u16,
    /// Offset (Register/Direct/Indirect), the small constant (Constant) or the pool index (ConstantIndex).
    pub offset: i32,
}

impl Location {
    /// A value held in a register; `size` is the spill size of its register class.
    pub fn register(dwarf_reg: u16, size: u16) -> Location {
        Location { kind: LocationKind::Register, size, dwarf_reg, offset: 0 }
    }

    /// The address `dwarf_reg + offset` (LLVM always records size 8 = pointer size).
    pub fn direct(dwarf_reg: u16, offset: i32, size: u16) -> Location {
        Location { kind: LocationKind::Direct, size, dwarf_reg, offset }
    }

    /// A value in memory at `[dwarf_reg + offset]` of `size` bytes.
    pub fn indirect(dwarf_reg: u16, offset: i32, size: u16) -> Location {
        Location { kind: LocationKind::Indirect, size, dwarf_reg, offset }
    }

    /// A constant that fits in an `i32` (LLVM records size 8).
    pub fn constant(value: i32) -> Location {
        Location { kind: LocationKind::Constant, size: 8, dwarf_reg: 0, offset: value }
    }

    /// Entry `index` of the constant pool (LLVM records size 8).
    pub fn constant_index(index: u32) -> Location {
        Location { kind: LocationKind::ConstantIndex, size: 8, dwarf_reg: 0, offset: index as i32 }
    }

    /// The small constant as llvm-readobj prints it (the 32 bits as unsigned).
    pub fn small_constant(&self) -> u32 {
        self.offset as u32
    }

    /// The constant-pool index of a [`LocationKind::ConstantIndex`] location.
    pub fn constant_pool_index(&self) -> u32 {
        self.offset as u32
    }
}

/// The location as llvm-readobj names it (`Register R#3`, `Indirect [R#6 + -8]`, ...), without its
/// size; a `ConstantIndex` shows its index only, as the pool value lives in the section.
impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            LocationKind::Register => write!(f, "Register R#{}", self.dwarf_reg),
            LocationKind::Direct => write!(f, "Direct R#{} + {}", self.dwarf_reg, self.offset),
            LocationKind::Indirect => write!(f, "Indirect [R#{} + {}]", self.dwarf_reg, self.offset),
            LocationKind::Constant => write!(f, "Constant {}", self.small_constant()),
            LocationKind::ConstantIndex => write!(f, "ConstantIndex #{}", self.constant_pool_index()),
        }
    }
}

/// A register live after a patch point (only patch points have live-outs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LiveOut {
    /// DWARF register number.
    pub dwarf_reg: u16,
    /// Size in bytes of the live part of the register.
    pub size: u8,
}

/// The most locations (and live-outs) one record can hold: the format counts them in 16 bits. The
/// compiler refuses IR whose record would hold more, with a positioned error.
pub const MAX_RECORD_LOCATIONS: usize = u16::MAX as usize;

/// One record: a stackmap, patchpoint or statepoint call site.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Record {
    /// The ID given in the IR (or [`OVERFLOW_RECORD_ID`]).
    pub id: u64,
    /// Offset of the recorded instruction from the start of its function.
    pub instruction_offset: u32,
    /// Locations of the live values, in operand order.
    pub locations: Vec<Location>,
    /// Registers live after the instruction (patch points only), ascending by register.
    pub live_outs: Vec<LiveOut>,
    /// Bytes of the call instruction whose return address is `instruction_offset`, 0 when the record is
    /// not at a return address ([`Version::FrameTable`] only; 0 after parsing other versions).
    ///
    /// The compiler's rule: the record's offset is a call's return address -> that call
    /// instruction's length (x86-64: 5 for `call rel32`, 6 through the GOT, 2 or 3 for `call *%reg`;
    /// AArch64: 4 for `bl`/`blr`; the materialisation of the target and the argument moves are not
    /// counted), else 0. Records at a return address: a statepoint whose call is an ordinary call
    /// (NUMPATCHBYTES = 0, which includes every call with a `"deopt"` bundle), and a stack map placed
    /// right after a call with no instruction between (where a frame walk arrives from the callee).
    /// Records with 0: other stack maps, statepoints with NUMPATCHBYTES > 0 (recorded at the region's
    /// end, no call) and patch points, null target or not, which LLVM records at the region's start,
    /// before their own call sequence, and which keep 0 even where a call ends right before them.
    pub call_size: u8,
    /// Whether `live_outs` were computed (liveness ran), as opposed to not known ([`Version::FrameTable`]
    /// only; `false` after parsing other versions).
    ///
    /// The compiler's rule: true for patch point records (with a target or not), which carry the
    /// registers live across the region, even when that list is empty; false for stack maps and
    /// statepoints, which record no live-outs (as llc-19).
    pub has_live_out_info: bool,
}

impl Record {
    /// Whether this record cannot be written as is: it has more than 65535 locations or live-outs.
    /// The writer then emits LLVM's overflow record instead.
    pub fn overflows(&self) -> bool {
        self.locations.len() > MAX_RECORD_LOCATIONS || self.live_outs.len() > MAX_RECORD_LOCATIONS
    }
}

/// One stack map blob: what one compiled module contributes to `.llvm_stackmaps`.
///
/// Records are contiguous per function, in function-table order: the first `functions[0].record_count`
/// records belong to function 0, and so on.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct StackMap {
    /// Functions that have records, in the order of their first record.
    pub functions: Vec<FunctionRecord>,
    /// The constant pool: 64-bit constants referenced by [`LocationKind::ConstantIndex`] locations.
    pub constants: Vec<u64>,
    /// All records, grouped by function.
    pub records: Vec<Record>,
}

impl StackMap {
    /// An empty stack map.
    pub fn new() -> StackMap {
        StackMap::default()
    }

    /// The 64-bit value of a constant location: a `Constant`'s offset sign-extended, as LLVM writes
    /// it, or a `ConstantIndex`'s pool entry; `None` for other locations or an index past the pool.
    pub fn constant_value(&self, location: &Location) -> Option<u64> {
        match location.kind {
            LocationKind::Constant => Some(location.offset as i64 as u64),
            LocationKind::ConstantIndex => self.constants.get(location.offset as u32 as usize).copied(),
            _ => None,
        }
    }

    /// Appends a function and its records, setting its record count.
    pub fn push_function(&mut self, address: u64, stack_size: u64, records: impl IntoIterator<Item = Record>) {
        self.push_function_with_frame(address, stack_size, None, records);
    }

    /// Appends a function with its frame-table fields and its records, setting its record count.
    pub fn push_function_with_frame(
        &mut self,
        address: u64,
        stack_size: u64,
        frame: Option<Frame>,
        records: impl IntoIterator<Item = Record>,
    ) {
        let before = self.records.len();
        self.records.extend(records);
        let record_count = (self.records.len() - before) as u64;
        self.functions.push(FunctionRecord { address, stack_size, record_count, frame });
    }

    /// Whether every function has its frame-table fields ([`FunctionRecord::frame`]), as
    /// [`Version::FrameTable`] needs.
    pub fn has_frames(&self) -> bool {
        self.functions.iter().all(|f| f.frame.is_some())
    }

    /// The map without what only [`Version::FrameTable`] holds (frames, call sizes, live-out flags): what
    /// a v1, v2 or v3 section keeps of it.
    pub fn without_frames(&self) -> StackMap {
        let mut map = self.clone();
        for f in &mut map.functions {
            f.frame = None;
        }
        for r in &mut map.records {
            r.call_size = 0;
            r.has_live_out_info = false;
        }
        map
    }

    /// The location LLVM records for the 64-bit constant `value`: a [`LocationKind::Constant`] when it fits
    /// in an `i32`, otherwise a [`LocationKind::ConstantIndex`] into the pool, which is uniqued by value
    /// (a linear search: [`ConstantPool::location`] does the same in constant time, for many constants).
    pub fn constant_location(&mut self, value: i64) -> Location {
        match i32::try_from(value) {
            Ok(small) => Location::constant(small),
            Err(_) => Location::constant_index(self.add_constant(value as u64)),
        }
    }

    /// The pool index of `value`, appending it if it is not there yet.
    pub fn add_constant(&mut self, value: u64) -> u32 {
        let index = match self.constants.iter().position(|&c| c == value) {
            Some(index) => index,
            None => {
                self.constants.push(value);
                self.constants.len() - 1
            }
        };
        index as u32
    }

    /// The records of function `index` (by the record counts), or `None` if the counts do not cover it.
    pub fn records_of(&self, index: usize) -> Option<&[Record]> {
        let mut start = 0usize;
        for f in self.functions.get(..index)? {
            start = start.checked_add(usize::try_from(f.record_count).ok()?)?;
        }
        let count = usize::try_from(self.functions.get(index)?.record_count).ok()?;
        self.records.get(start..start.checked_add(count)?)
    }

    /// Whether the record counts add up to the number of records.
    pub fn record_counts_consistent(&self) -> bool {
        let total = self.functions.iter().try_fold(0u64, |sum, f| sum.checked_add(f.record_count));
        total == Some(self.records.len() as u64)
    }

    /// Fills in the record counts a v1 section does not store, from the functions' code sizes
    /// (`function_sizes[i]` for `functions[i]`, from the symbol table; `u64::MAX` when unknown).
    ///
    /// LLVM emits the records of a function contiguously, in code-layout order (so their instruction
    /// offsets never decrease), every function in the table has at least one record, and a record's
    /// offset is at most the function's size. This finds every split of the records into contiguous
    /// groups that satisfies those rules; if exactly one exists, it is stored. If several exist, the one
    /// whose functions' last records come closest to their ends (the least code after each function's
    /// last record, summed over the functions of known size) is stored, fewest records to the earliest
    /// functions among equals, and [`Error::AmbiguousRecordCounts`] is returned so the caller can decide
    /// whether that is acceptable. The common ambiguous case is a small function followed by a larger
    /// one whose first records would also fit the small one. No rule can always be right (v1 does not
    /// hold the answer); on llc-19's output for generated multi-function programs this one picks the
    /// true split in about half of the ambiguous cases, fewest-records-first in one in six.
    pub fn derive_record_counts(&mut self, function_sizes: &[u64]) -> Result<(), Error> {
        let band = SplitBand::new(self, function_sizes)?;
        let (n, m, slack, cells) = (band.functions, band.records, band.slack, band.cells());
        if n == 0 {
            return Ok(());
        }
        let offsets = band.offsets.as_slice();
        let at = |f: usize, j: usize| band.at(f, j);
        // How many splits there are (capped at 2), and the least code left after the last records.
        let mut ways = vec![0u8; cells];
        let mut tail = vec![0u64; cells];
        ways[at(n, m)] = 1;
        let ends = |f: usize, j: usize| band.ends(f, j);
        // Code after function f's last record, `end` (clamped, so a corrupt size cannot overflow the sums).
        // A record at the very end is rare (only a stack map before `unreachable` can end a function),
        // so it counts as if the whole function followed it.
        let tail_of = |f: usize, end: usize| match function_sizes[f] {
            u64::MAX => 0,
            size if offsets[end] == size => size.min(u64::from(u32::MAX)),
            size => (size - offsets[end]).min(u64::from(u32::MAX)),
        };
        // The end function f takes from start j in the chosen split (the first of the least tail).
        let best_end = |ways: &[u8], tail: &[u64], f: usize, j: usize| {
            ends(f, j)
                .filter(|&end| ways[at(f + 1, end + 1)] > 0)
                .min_by_key(|&end| tail_of(f, end) + tail[at(f + 1, end + 1)])
        };
        for f in (0..n).rev() {
            for j in (f..=f + slack).rev() {
                let mut total = 0u8;
                for end in ends(f, j) {
                    total = total.saturating_add(ways[at(f + 1, end + 1)]).min(2);
                }
                ways[at(f, j)] = total;
                if let Some(end) = best_end(&ways, &tail, f, j) {
                    tail[at(f, j)] = tail_of(f, end) + tail[at(f + 1, end + 1)];
                }
            }
        }
        if ways[at(0, 0)] == 0 {
            return Err(Error::NoRecordSplit);
        }
        let mut j = 0;
        for f in 0..n {
            let end = best_end(&ways, &tail, f, j).ok_or(Error::NoRecordSplit)?;
            self.functions[f].record_count = (end + 1 - j) as u64;
            j = end + 1;
        }
        if ways[at(0, 0)] > 1 {
            return Err(Error::AmbiguousRecordCounts);
        }
        Ok(())
    }

    /// The records that more than one function can hold among the splits
    /// [`StackMap::derive_record_counts`] accepts (same rules, same sizes), each with the indices of
    /// those functions in table order; empty when the split is unambiguous.
    pub fn ambiguous_records(&self, function_sizes: &[u64]) -> Result<Vec<AmbiguousRecord>, Error> {
        let band = SplitBand::new(self, function_sizes)?;
        let (n, m, slack, cells) = (band.functions, band.records, band.slack, band.cells());
        let at = |f: usize, j: usize| band.at(f, j);
        let ends = |f: usize, j: usize| band.ends(f, j);
        // Whether records j.. split among functions f.. (`completes`), and records ..j among ..f
        // (`reached`).
        let mut completes = vec![false; cells];
        completes[at(n, m)] = true;
        for f in (0..n).rev() {
            for j in f..=f + slack {
                completes[at(f, j)] = ends(f, j).any(|end| completes[at(f + 1, end + 1)]);
            }
        }
        let mut reached = vec![false; cells];
        reached[at(0, 0)] = true;
        // Per function, the records it can hold, as ranges in increasing order of start.
        let mut holds: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
        for f in 0..n {
            for j in f..=f + slack {
                if !reached[at(f, j)] {
                    continue;
                }
                let mut last = None;
                for end in ends(f, j) {
                    if completes[at(f + 1, end + 1)] {
                        reached[at(f + 1, end + 1)] = true;
                        last = Some(end);
                    }
                }
                if let Some(end) = last {
                    holds[f].push((j, end));
                }
            }
        }
        // A function's ranges may overlap: each function is named once per record.
        let mut candidates: Vec<Vec<usize>> = vec![Vec::new(); m];
        for (f, ranges) in holds.iter().enumerate() {
            for &(start, end) in ranges {
                for functions in &mut candidates[start..=end] {
                    if functions.last() != Some(&f) {
                        functions.push(f);
                    }
                }
            }
        }
        Ok(candidates
            .into_iter()
            .enumerate()
            .filter(|(_, functions)| functions.len() > 1)
            .map(|(record, functions)| AmbiguousRecord { record, functions })
            .collect())
    }

    /// Sets the record counts to `counts` (one per function), after checking that they split the
    /// records as LLVM lays them out (see [`StackMap::derive_record_counts`]) for functions of
    /// `function_sizes`: a stated split for a v1 blob whose records several splits fit.
    pub fn set_record_counts(&mut self, counts: &[u64], function_sizes: &[u64]) -> Result<(), Error> {
        let n = self.functions.len();
        if counts.len() != n || function_sizes.len() != n {
            return Err(Error::StatedRecordCounts {
                reason: format!("{} counts given for {n} functions", counts.len()),
            });
        }
        let total = counts.iter().try_fold(0u64, |sum, &c| sum.checked_add(c));
        if total != Some(self.records.len() as u64) {
            return Err(Error::StatedRecordCounts {
                reason: format!(
                    "the counts add up to {}, the blob has {} records",
                    total.map_or_else(|| "more than 2^64".to_owned(), |t| t.to_string()),
                    self.records.len()
                ),
            });
        }
        let mut start = 0usize;
        for (f, &count) in counts.iter().enumerate() {
            let count = count as usize;
            let records = &self.records[start..start + count];
            let reason = if count == 0 {
                Some("no records (every function in the table has one)".to_owned())
            } else if records.windows(2).any(|w| w[1].instruction_offset < w[0].instruction_offset) {
                Some("record offsets that decrease".to_owned())
            } else if records.iter().any(|r| u64::from(r.instruction_offset) > function_sizes[f]) {
                Some(format!("a record past its size ({} bytes)", function_sizes[f]))
            } else {
                None
            };
            if let Some(reason) = reason {
                return Err(Error::StatedRecordCounts { reason: format!("function {f} would get {reason}") });
            }
            start += count;
        }
        for (function, &count) in self.functions.iter_mut().zip(counts) {
            function.record_count = count;
        }
        Ok(())
    }
}

/// A record of a v1 blob that more than one function can hold ([`StackMap::ambiguous_records`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AmbiguousRecord {
    /// The record's index in the blob.
    pub record: usize,
    /// The functions (indices in the function table) that can hold it.
    pub functions: Vec<usize>,
}

/// The pool indices of a [`StackMap`]'s constants by value: [`StackMap::constant_location`] in constant
/// rather than linear time, for a writer that pools many constants (the compiler, which may pool one per
/// stack map: 256k distinct constants took 10 s by the linear search).
#[derive(Debug, Clone, Default)]
pub struct ConstantPool {
    indices: HashMap<u64, u32>,
}

impl ConstantPool {
    /// The pool of `map` as it is now (a constant pooled twice is found at its first index, as
    /// [`StackMap::add_constant`] finds it).
    pub fn of(map: &StackMap) -> ConstantPool {
        let mut indices = HashMap::with_capacity(map.constants.len());
        for (index, &value) in map.constants.iter().enumerate() {
            indices.entry(value).or_insert(index as u32);
        }
        ConstantPool { indices }
    }

    /// [`StackMap::constant_location`] for `map`, whose constants must have been pooled through `self`
    /// since [`ConstantPool::of`] (or `map` was empty when `self` was made by `default`).
    pub fn location(&mut self, map: &mut StackMap, value: i64) -> Location {
        match i32::try_from(value) {
            Ok(small) => Location::constant(small),
            Err(_) => {
                let index = *self.indices.entry(value as u64).or_insert_with(|| {
                    map.constants.push(value as u64);
                    (map.constants.len() - 1) as u32
                });
                Location::constant_index(index)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offsets_only(functions: usize, offsets: &[u32]) -> StackMap {
        StackMap {
            functions: vec![FunctionRecord::default(); functions],
            constants: vec![],
            records: offsets
                .iter()
                .map(|&instruction_offset| Record { instruction_offset, ..Record::default() })
                .collect(),
        }
    }

    fn counts(map: &StackMap) -> Vec<u64> {
        map.functions.iter().map(|f| f.record_count).collect()
    }

    #[test]
    fn a_decreasing_offset_starts_a_new_function() {
        let mut map = offsets_only(2, &[10, 17, 4]);
        map.derive_record_counts(&[u64::MAX, u64::MAX]).unwrap();
        assert_eq!(counts(&map), [2, 1]);
    }

    #[test]
    fn function_sizes_settle_what_offsets_cannot() {
        // Without sizes 4 | 4 29 29 and 4 4 | 29 29 (and more) would fit.
        let mut map = offsets_only(3, &[4, 4, 29, 29]);
        map.derive_record_counts(&[6, 10, 40]).unwrap();
        assert_eq!(counts(&map), [1, 1, 2]);
        let mut map = offsets_only(3, &[4, 4, 29, 29]);
        assert!(matches!(map.derive_record_counts(&[u64::MAX; 3]), Err(Error::AmbiguousRecordCounts)));
        // The earliest functions get the fewest records.
        assert_eq!(counts(&map), [1, 1, 2]);
    }

    #[test]
    fn ambiguous_splits_prefer_records_that_reach_each_function_s_end() {
        // llc-19 -O0, x86-64: an internal 14-byte function with 3 stack maps, then a 46-byte one with 4.
        // Its records 25.. also fit the first function, and its first records fit the second.
        let mut map = offsets_only(2, &[4, 8, 12, 25, 37, 40, 40]);
        assert!(matches!(map.derive_record_counts(&[14, 46]), Err(Error::AmbiguousRecordCounts)));
        assert_eq!(counts(&map), [3, 4]);
        // AArch64 -O2: the second function's first record (24) is at the first one's very end.
        let mut map = offsets_only(2, &[8, 12, 16, 24, 28, 32, 32]);
        assert!(matches!(map.derive_record_counts(&[24, 44]), Err(Error::AmbiguousRecordCounts)));
        assert_eq!(counts(&map), [3, 4]);
    }

    #[test]
    fn ambiguous_records_name_every_function_that_can_hold_them() {
        // A 14-byte function then a 46-byte one: records 1 and 2 fit either, 0 only the first (every
        // function has a record), 3.. only the second (past 14 bytes).
        let map = offsets_only(2, &[4, 8, 12, 25, 37, 40, 40]);
        let ambiguous = map.ambiguous_records(&[14, 46]).unwrap();
        let named: Vec<(usize, Vec<usize>)> = ambiguous.into_iter().map(|a| (a.record, a.functions)).collect();
        assert_eq!(named, [(1, vec![0, 1]), (2, vec![0, 1])]);
        // A decreasing offset settles it.
        let map = offsets_only(2, &[10, 17, 4]);
        assert_eq!(map.ambiguous_records(&[u64::MAX, u64::MAX]).unwrap(), []);
        // Three functions of unknown size over four records: the middle records move.
        let map = offsets_only(3, &[4, 4, 29, 29]);
        let named: Vec<(usize, Vec<usize>)> =
            map.ambiguous_records(&[u64::MAX; 3]).unwrap().into_iter().map(|a| (a.record, a.functions)).collect();
        assert_eq!(named, [(1, vec![0, 1]), (2, vec![1, 2])]);
    }

    #[test]
    fn stated_record_counts_are_checked_against_the_layout() {
        let mut map = offsets_only(2, &[4, 8, 12, 25, 37, 40, 40]);
        map.set_record_counts(&[2, 5], &[14, 46]).unwrap();
        assert_eq!(counts(&map), [2, 5]);
        for bad in [&[4u64, 3][..], &[0, 7], &[3, 3], &[3, 4, 0]] {
            let mut map = offsets_only(2, &[4, 8, 12, 25, 37, 40, 40]);
            assert!(matches!(map.set_record_counts(bad, &[14, 46]), Err(Error::StatedRecordCounts { .. })), "{bad:?}");
            assert_eq!(counts(&map), [0, 0], "{bad:?}: unchanged");
        }
        let mut map = offsets_only(2, &[10, 17, 4]);
        assert!(matches!(map.set_record_counts(&[1, 2], &[u64::MAX; 2]), Err(Error::StatedRecordCounts { .. })));
    }

    #[test]
    fn impossible_layouts_are_refused() {
        let mut map = offsets_only(1, &[10, 4]);
        assert!(matches!(map.derive_record_counts(&[u64::MAX]), Err(Error::NoRecordSplit)));
        let mut map = offsets_only(2, &[4]);
        assert!(matches!(map.derive_record_counts(&[8, 8]), Err(Error::NoRecordSplit)));
        let mut map = offsets_only(1, &[12]);
        assert!(matches!(map.derive_record_counts(&[8]), Err(Error::NoRecordSplit)));
        assert!(matches!(map.derive_record_counts(&[]), Err(Error::FunctionSizesMismatch { .. })));
    }

    #[test]
    fn constants_are_pooled_like_llvm() {
        let mut map = StackMap::new();
        assert_eq!(map.constant_location(-1), Location::constant(-1));
        assert_eq!(map.constant_location(i64::from(i32::MAX) + 1), Location::constant_index(0));
        assert_eq!(map.constant_location(1 << 32), Location::constant_index(1));
        assert_eq!(map.constant_location(i64::from(i32::MAX) + 1), Location::constant_index(0));
        assert_eq!(map.constants, [1 << 31, 1 << 32]);
    }

    #[test]
    fn constant_pool_pools_as_the_linear_search_does() {
        let values = [-1, 1 << 40, i64::MIN, 5, 1 << 40, i64::from(i32::MAX) + 1, i64::MIN, 7 << 33];
        let mut linear = StackMap::new();
        linear.constants.push(1 << 33); // a constant already in the pool, pooled before the index
        let mut hashed = linear.clone();
        let mut pool = ConstantPool::of(&hashed);
        for v in values.into_iter().chain([1 << 33]) {
            assert_eq!(pool.location(&mut hashed, v), linear.constant_location(v), "{v}");
        }
        assert_eq!(hashed, linear);
        assert_eq!(hashed.constants.len(), 5);
    }
}
