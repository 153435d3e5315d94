//! The frame-table layout of the 2015 "StackMap v2" proposal ([`Version::FrameTable`], `rfc2` in text):
//! its byte layout, its writer and the structural checks of its reader.
//!
//! LLVM never emitted this layout (its version 2 is [`Version::V2`], LLVM 4.0's record counts). It adds
//! what runtimes asked for: function and call sizes, frame flags, the frame base register and where the
//! prologue saved registers, in flat tables addressed by offsets and indexes.
//!
//! # Layout
//!
//! All fields are in the target byte order; the blob starts 8-aligned and every alignment below is from
//! the blob start. The only padding is where the proposal says "align to": entries of a table follow
//! each other with no padding, so an entry's stride is its size (28, 6, 22, 8 and 4 bytes below). The
//! proposal gives no padding inside its tables, so none is added: the `u64` fields of odd FrameRecords
//! and of StackMapRecords are therefore not 8-aligned, and a reader must read them unaligned (this
//! module's reader reads bytes). Padding bytes are zero.
//!
//! ```text
//! Header (28 bytes), at 0
//!    0 u8      version = 2
//!    1 u8[3]   reserved = 0
//!    4 u32     Constants Offset        = 32 (the header, aligned to 8)
//!    8 u32     Frame Records Offset
//!   12 u32     Frame Registers Offset
//!   16 u32     StackMap Records Offset
//!   20 u32     Locations Offset
//!   24 u32     LiveOuts Offset
//! align to 8: Constants[], 8 bytes each
//!    0 u64     LargeConstant
//! align to 8: FrameRecord[], 28 bytes each
//!    0 u64     Function Address (0 in relocatable objects: a relocation fills it in)
//!    8 u32     Function Size (bytes of code)
//!   12 u32     Stack Size; 0xFFFFFFFF = not static (the model's DYNAMIC_STACK_SIZE)
//!   16 u16     Flags: bit 0 HasFrame, bit 1 HasVariableSizeAlloca, bit 2 HasStackRealignment,
//!              bit 3 HasLiveOutInfo, bits 4-15 reserved = 0
//!   18 u16     Frame Base Register (DWARF)
//!   20 u16     Num Frame Registers
//!   22 u16     Frame Register Index (first entry in FrameRegister[])
//!   24 u16     Num StackMap Records
//!   26 u16     StackMap Record Index (first entry in StackMapRecord[])
//! align to 4: FrameRegister[], 6 bytes each
//!    0 u16     DWARF RegNum
//!    2 i16     Offset from the frame base register
//!    4 u8      Size in bytes
//!    5 u8      Flags: bit 0 IsSpilled, bits 1-7 reserved = 0
//! align to 8: StackMapRecord[], 22 bytes each
//!    0 u64     PatchPoint ID
//!    8 u32     Instruction Offset (from the function start)
//!   12 u8      Call Size (bytes of the call whose return address is the instruction offset; 0 if none)
//!   13 u8      Flags: bit 0 HasLiveOutInfo, bits 1-7 reserved = 0
//!   14 u16     Num Locations
//!   16 u16     Location Index (first entry in Location[])
//!   18 u16     Num LiveOuts
//!   20 u16     LiveOut Index (first entry in LiveOut[])
//! align to 4: Location[], 8 bytes each
//!    0 u8      Type: 1 Register, 2 Direct, 3 Indirect, 4 Constant, 5 ConstantIndex
//!    1 u8      Size in bytes (the proposal's "Reserved (location flags)"; see below)
//!    2 u16     DWARF RegNum
//!    4 i32     Offset, SmallConstant or constant-pool index
//! align to 2: LiveOut[], 4 bytes each
//!    0 u16     DWARF RegNum
//!    2 u8      reserved = 0
//!    3 u8      Size in bytes
//! align to 8 (the end of the blob)
//! ```
//!
//! Bit 0 of a flags field is the first bool the proposal lists. The header has offsets but no counts:
//! the counts of constants, FrameRecords, StackMapRecords and Locations are the distances between
//! consecutive offsets divided by the entry size (each table ends where the next one's alignment begins).
//! FrameRegister[] (6-byte entries, then up to 6 bytes of padding to 8) and LiveOut[] (the last table: the
//! header does not give the blob's end) are as long as the largest `index + count` referring to them.
//!
//! # Where the proposal is silent, what this module does
//! - **Location size.** The proposal's Location has a reserved byte where v3 has a `u16` size. LLVM's v1
//!   and v2 emitters wrote the location size in that very byte (see `docs/stackmap-format.md`), so it
//!   holds the size here too. Sizes above 255 cannot be written: the writer refuses them with
//!   [`Error::FrameTableOverflow`] rather than truncate (v1/v2 truncate, as LLVM did).
//! - **Stack size** is a `u32` (the model's is a `u64`): [`DYNAMIC_STACK_SIZE`] is written as
//!   `0xFFFFFFFF` and read back as [`DYNAMIC_STACK_SIZE`]; any other size of `0xFFFFFFFF` or more is
//!   refused.
//! - **Ownership of records.** Function *i*'s records are StackMapRecords `index..index + count`. This
//!   writer lays them out in function order, so each function's index is the previous one's index plus
//!   count, and the reader requires exactly that (every record belongs to one function, as in the model;
//!   [`Error::InvalidFrameTable`] otherwise).
//! - **Uniquing.** Locations, live-outs and frame registers are uniqued by whole list: two records (or
//!   functions) whose lists are equal, entry for entry, share one range of the table, the one written for
//!   the first of them. Lists are not merged by prefix or overlap. An empty list is written as count 0,
//!   index 0. The reader accepts any ranges inside the tables, overlapping or not.
//! - **Limits.** Counts and indexes are `u16`: a function with more than 65535 records or frame
//!   registers, a record with more than 65535 locations or live-outs (v1–v3 write LLVM's overflow record
//!   instead), a list starting past entry 65535 of its table, and a frame-register offset outside `i16`
//!   are [`Error::FrameTableOverflow`] naming the function; the section is never truncated.
//! - **End of the blob.** The writer pads the blob with zeros to a multiple of 8, as v1–v3 blobs always
//!   are, so blobs concatenated by a linker stay 8-aligned. The reader's blob ends after that padding
//!   when the section holds it, else right after the last live-out.
//! - **Strictness of the reader.** Reserved header bytes and reserved flag bits must be zero, the
//!   Constants Offset must be 32, every offset must be the end of the previous table rounded up to the
//!   table's alignment (no gaps, no unreferenced frame registers), and every location is checked as in
//!   v1–v3 (type 1..=5, pool index in range). The LiveOut reserved byte is ignored, as in v1–v3.
//!
//! # Telling it from LLVM 4.0's version 2
//! Both start with the byte 2. [`StackMapView::parse`] reads a version-2 blob both ways: if exactly one
//! reading is valid it is used; if both are, the blob is refused with [`Error::AmbiguousVersion2`] (read
//! it with [`StackMapView::parse_version`] naming the layout). If neither is, the error reported is the
//! frame-table one when the `u32` at byte 4 is 32 (this layout's Constants Offset; for v2 it would be
//! NumFunctions) and the v2 one otherwise. Valid frame-table blobs of this writer are rarely valid v2:
//! a v2 reading would need 32 function records whose record counts sum to the Frame Registers Offset.
//! The writer checks its own blob and refuses to return one a v2 reading accepts (also
//! [`Error::AmbiguousVersion2`]), so what it writes always reads back; a linker concatenating blobs could
//! in principle give a v2 reading more bytes to succeed with, which the reader then reports as ambiguous.

use std::collections::HashMap;

use super::model::{
    Endian, FrameRegister, LiveOut, Location, LocationKind, Record, StackMap, Version, DYNAMIC_STACK_SIZE,
};
use super::read::{array, need};
use super::write::Encoder;
use super::{Error, Result, StackMapView};

/// Size of the header before its padding to 8.
pub const HEADER_SIZE: usize = 28;
/// Where the constants start: the header aligned to 8.
pub const CONSTANTS_OFFSET: usize = 32;
/// Size of one FrameRecord.
pub const FRAME_RECORD_SIZE: usize = 28;
/// Size of one FrameRegister.
pub const FRAME_REGISTER_SIZE: usize = 6;
/// Size of one StackMapRecord.
pub const RECORD_SIZE: usize = 22;
/// Size of one Location.
pub const LOCATION_SIZE: usize = 8;
/// Size of one LiveOut.
pub const LIVE_OUT_SIZE: usize = 4;

/// FrameRecord flag bits.
pub const HAS_FRAME: u16 = 1 << 0;
/// FrameRecord flag: variable-sized stack objects.
pub const HAS_VARIABLE_SIZE_ALLOCA: u16 = 1 << 1;
/// FrameRecord flag: dynamic stack realignment.
pub const HAS_STACK_REALIGNMENT: u16 = 1 << 2;
/// FrameRecord and StackMapRecord flag: live-outs were computed.
pub const HAS_LIVE_OUT_INFO: u16 = 1 << 3;
/// StackMapRecord flag bit of HasLiveOutInfo.
pub const RECORD_HAS_LIVE_OUT_INFO: u8 = 1 << 0;
/// FrameRegister flag: the register was spilled to its slot.
pub const IS_SPILLED: u8 = 1 << 0;

/// The stack size field for [`DYNAMIC_STACK_SIZE`].
const DYNAMIC_STACK_SIZE_U32: u32 = u32::MAX;

/// Offsets of the tables from the blob start, and the counts of their entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Tables {
    pub constants: usize,
    pub frame_records: usize,
    pub frame_registers: usize,
    pub records: usize,
    pub locations: usize,
    pub live_outs: usize,
    pub num_constants: usize,
    pub num_functions: usize,
    pub num_frame_registers: usize,
    pub num_records: usize,
    pub num_locations: usize,
    pub num_live_outs: usize,
}

impl Tables {
    /// Where each table starts, for the given counts, as the writer lays them out.
    fn laid_out(counts: [usize; 6]) -> Tables {
        let [num_constants, num_functions, num_frame_registers, num_records, num_locations, num_live_outs] = counts;
        let constants = CONSTANTS_OFFSET;
        let frame_records = constants + 8 * num_constants;
        let frame_registers = (frame_records + FRAME_RECORD_SIZE * num_functions).next_multiple_of(4);
        let records = (frame_registers + FRAME_REGISTER_SIZE * num_frame_registers).next_multiple_of(8);
        let locations = (records + RECORD_SIZE * num_records).next_multiple_of(4);
        let live_outs = (locations + LOCATION_SIZE * num_locations).next_multiple_of(2);
        Tables {
            constants,
            frame_records,
            frame_registers,
            records,
            locations,
            live_outs,
            num_constants,
            num_functions,
            num_frame_registers,
            num_records,
            num_locations,
            num_live_outs,
        }
    }

    /// Size of the blob.
    pub fn end(&self) -> usize {
        self.live_outs + LIVE_OUT_SIZE * self.num_live_outs
    }
}

/// A table of uniqued lists: each distinct list is stored once, at the index of its first use.
struct Uniqued<'m, T> {
    entries: Vec<&'m T>,
    starts: HashMap<&'m [T], usize>,
}

impl<'m, T: Eq + std::hash::Hash> Uniqued<'m, T> {
    fn new() -> Self {
        Uniqued { entries: Vec::new(), starts: HashMap::new() }
    }

    /// The index of `list` in the table, adding it if it is new; an empty list is index 0.
    fn index(&mut self, list: &'m [T]) -> usize {
        if list.is_empty() {
            return 0;
        }
        let next = self.entries.len();
        let start = *self.starts.entry(list).or_insert(next);
        if start == next {
            self.entries.extend(list.iter());
        }
        start
    }
}

/// What the writer computed before writing: table contents and every index, checked against the limits.
struct Plan<'m> {
    tables: Tables,
    /// Per function: stack size field, flags, frame register index, record index.
    functions: Vec<(u32, u16, u16, u16)>,
    frame_registers: Vec<(u16, i16, u8, u8)>,
    /// Per record: location index, live-out index.
    records: Vec<(u16, u16)>,
    locations: Vec<&'m Location>,
    live_outs: Vec<&'m LiveOut>,
}

/// A value's fit in a u16 field of function `function`.
fn fit_u16(map: &StackMap, function: usize, field: impl FnOnce() -> String, value: usize) -> Result<u16> {
    u16::try_from(value).map_err(|_| Error::FrameTableOverflow {
        function,
        address: map.functions[function].address,
        field: field(),
        value: value as i128,
        limit: "u16",
    })
}

fn plan(map: &StackMap) -> Result<Plan<'_>> {
    if !map.record_counts_consistent() {
        let counted = map.functions.iter().fold(0u64, |sum, f| sum.saturating_add(f.record_count));
        return Err(Error::RecordCountMismatch { offset: 0, counted, records: map.records.len() as u64 });
    }
    let mut registers: Vec<Vec<(u16, i16, u8, u8)>> = Vec::with_capacity(map.functions.len());
    for (i, f) in map.functions.iter().enumerate() {
        let frame = f.frame.as_ref().ok_or(Error::MissingFrame { function: i, address: f.address })?;
        let list = frame
            .registers
            .iter()
            .map(|r: &FrameRegister| {
                let offset = i16::try_from(r.offset).map_err(|_| Error::FrameTableOverflow {
                    function: i,
                    address: f.address,
                    field: format!("frame register offset of R#{}", r.dwarf_reg),
                    value: i128::from(r.offset),
                    limit: "i16",
                })?;
                Ok((r.dwarf_reg, offset, r.size, if r.is_spilled { IS_SPILLED } else { 0 }))
            })
            .collect::<Result<Vec<_>>>()?;
        registers.push(list);
    }
    let mut frame_registers = Uniqued::new();
    let mut locations = Uniqued::new();
    let mut live_outs = Uniqued::new();
    let mut functions = Vec::with_capacity(map.functions.len());
    let mut records = Vec::with_capacity(map.records.len());
    let mut first_record = 0usize;
    for (i, f) in map.functions.iter().enumerate() {
        let frame = f.frame.as_ref().ok_or(Error::MissingFrame { function: i, address: f.address })?;
        let stack_size = match f.stack_size {
            DYNAMIC_STACK_SIZE => DYNAMIC_STACK_SIZE_U32,
            size if size < u64::from(DYNAMIC_STACK_SIZE_U32) => size as u32,
            size => {
                return Err(Error::FrameTableOverflow {
                    function: i,
                    address: f.address,
                    field: "stack size".into(),
                    value: i128::from(size),
                    limit: "u32 (below 0xFFFFFFFF, which means a dynamic stack size)",
                })
            }
        };
        let flags = [
            (frame.has_frame, HAS_FRAME),
            (frame.has_variable_size_alloca, HAS_VARIABLE_SIZE_ALLOCA),
            (frame.has_stack_realignment, HAS_STACK_REALIGNMENT),
            (frame.has_live_out_info, HAS_LIVE_OUT_INFO),
        ]
        .iter()
        .filter(|(set, _)| *set)
        .fold(0, |flags, (_, bit)| flags | bit);
        fit_u16(map, i, || "number of frame registers".into(), registers[i].len())?;
        let register_index = frame_registers.index(&registers[i]);
        let register_index = fit_u16(map, i, || "frame register index".into(), register_index)?;
        let count = f.record_count as usize;
        fit_u16(map, i, || "number of records".into(), count)?;
        let record_index = fit_u16(map, i, || "record index".into(), first_record)?;
        functions.push((stack_size, flags, register_index, record_index));
        for (k, r) in map.records[first_record..first_record + count].iter().enumerate() {
            records.push(plan_record(map, i, k, r, &mut locations, &mut live_outs)?);
        }
        first_record += count;
    }
    // Tables of references only: rebuild the register entries from the uniqued lists.
    let frame_registers: Vec<(u16, i16, u8, u8)> = frame_registers.entries.into_iter().copied().collect();
    let tables = Tables::laid_out([
        map.constants.len(),
        map.functions.len(),
        frame_registers.len(),
        map.records.len(),
        locations.entries.len(),
        live_outs.entries.len(),
    ]);
    if tables.end() > u32::MAX as usize {
        return Err(Error::TooMany { what: "bytes in one blob", count: tables.end() as u64, limit: u32::MAX.into() });
    }
    Ok(Plan { tables, functions, frame_registers, records, locations: locations.entries, live_outs: live_outs.entries })
}

/// Checks record `k` of function `function` and uniques its lists.
fn plan_record<'m>(
    map: &StackMap,
    function: usize,
    k: usize,
    r: &'m Record,
    locations: &mut Uniqued<'m, Location>,
    live_outs: &mut Uniqued<'m, LiveOut>,
) -> Result<(u16, u16)> {
    for (l, loc) in r.locations.iter().enumerate() {
        if loc.size > u16::from(u8::MAX) {
            return Err(Error::FrameTableOverflow {
                function,
                address: map.functions[function].address,
                field: format!("size of location {} of record {k} (ID {})", l + 1, r.id),
                value: i128::from(loc.size),
                limit: "u8",
            });
        }
    }
    let what = |s: &str| format!("{s} of record {k} (ID {})", r.id);
    fit_u16(map, function, || what("number of locations"), r.locations.len())?;
    fit_u16(map, function, || what("number of live-outs"), r.live_outs.len())?;
    let location_index = fit_u16(map, function, || what("location index"), locations.index(&r.locations))?;
    let live_out_index = fit_u16(map, function, || what("live-out index"), live_outs.index(&r.live_outs))?;
    Ok((location_index, live_out_index))
}

/// Size of the blob [`write`] writes, or 0 when it would refuse the map.
pub(crate) fn encoded_size(map: &StackMap) -> usize {
    plan(map).map_or(0, |plan| plan.tables.end().next_multiple_of(8))
}

/// Appends `map` in the frame-table layout to `out` (already padded to 8).
pub(crate) fn write(map: &StackMap, endian: Endian, out: &mut Vec<u8>) -> Result<()> {
    let plan = plan(map)?;
    let t = plan.tables;
    let start = out.len();
    out.reserve(t.end());
    let mut e = Encoder { out, endian, start };
    e.u8(Version::FrameTable.number());
    e.u8(0);
    e.u16(0);
    for offset in [t.constants, t.frame_records, t.frame_registers, t.records, t.locations, t.live_outs] {
        e.u32(offset as u32);
    }
    e.align(8);
    for &c in &map.constants {
        e.u64(c);
    }
    for (i, (f, &(stack_size, flags, register_index, record_index))) in
        map.functions.iter().zip(&plan.functions).enumerate()
    {
        let frame = f.frame.as_ref().ok_or(Error::MissingFrame { function: i, address: f.address })?;
        e.u64(f.address);
        e.u32(frame.function_size);
        e.u32(stack_size);
        e.u16(flags);
        e.u16(frame.base_register);
        e.u16(frame.registers.len() as u16);
        e.u16(register_index);
        e.u16(f.record_count as u16);
        e.u16(record_index);
    }
    e.align(4);
    for &(reg, offset, size, flags) in &plan.frame_registers {
        e.u16(reg);
        e.u16(offset as u16);
        e.u8(size);
        e.u8(flags);
    }
    e.align(8);
    for (r, &(location_index, live_out_index)) in map.records.iter().zip(&plan.records) {
        e.u64(r.id);
        e.u32(r.instruction_offset);
        e.u8(r.call_size);
        e.u8(if r.has_live_out_info { RECORD_HAS_LIVE_OUT_INFO } else { 0 });
        e.u16(r.locations.len() as u16);
        e.u16(location_index);
        e.u16(r.live_outs.len() as u16);
        e.u16(live_out_index);
    }
    e.align(4);
    for loc in &plan.locations {
        e.u8(loc.kind as u8);
        e.u8(loc.size as u8);
        e.u16(loc.dwarf_reg);
        e.u32(loc.offset as u32);
    }
    e.align(2);
    for lo in &plan.live_outs {
        e.u16(lo.dwarf_reg);
        e.u8(0);
        e.u8(lo.size);
    }
    e.align(8);
    debug_assert_eq!(out.len() - start, t.end().next_multiple_of(8));
    // Never hand out a blob the reader would refuse as ambiguous.
    if StackMapView::parse_version(&out[start..], Version::V2, endian).is_ok() {
        return Err(Error::AmbiguousVersion2 { offset: 0 });
    }
    Ok(())
}

/// Reads the header and checks the structure of the frame-table blob at `start` of `section`: the
/// tables' offsets and counts, every FrameRecord, FrameRegister, StackMapRecord and Location. Returns the
/// tables with section offsets (not blob offsets).
pub(crate) fn validate(section: &[u8], start: usize, endian: Endian) -> Result<Tables> {
    let invalid = |offset: usize, reason: String| Error::InvalidFrameTable { offset, reason };
    need(section, start, HEADER_SIZE as u64, "frame-table header")?;
    let u16_at = |at: usize| endian.read_u16(array(section, at));
    let u32_at = |at: usize| endian.read_u32(array(section, at)) as usize;
    if let Some(k) = (1..4).find(|&k| section[start + k] != 0) {
        return Err(invalid(start + k, format!("reserved header byte {k} is {} (must be 0)", section[start + k])));
    }
    let offsets: Vec<usize> = (0..6).map(|k| u32_at(start + 4 + 4 * k)).collect();
    let field = |k: usize| start + 4 + 4 * k;
    if offsets[0] != CONSTANTS_OFFSET {
        return Err(invalid(field(0), format!("Constants Offset is {} (must be {CONSTANTS_OFFSET})", offsets[0])));
    }
    const NAMES: [&str; 6] =
        ["Constants", "Frame Records", "Frame Registers", "StackMap Records", "Locations", "LiveOuts"];
    for k in 1..6 {
        if offsets[k] < offsets[k - 1] {
            return Err(invalid(
                field(k),
                format!("{} Offset {} is before {} Offset {}", NAMES[k], offsets[k], NAMES[k - 1], offsets[k - 1]),
            ));
        }
    }
    // The header says where each table starts; the counts follow from the distances.
    let whole = |k: usize, size: usize| -> Result<usize> {
        let span = offsets[k + 1] - offsets[k];
        if !span.is_multiple_of(size) {
            return Err(invalid(
                field(k + 1),
                format!("{} table of {span} bytes is not a whole number of {size}-byte entries", NAMES[k]),
            ));
        }
        Ok(span / size)
    };
    let num_constants = whole(0, 8)?;
    let num_functions = whole(1, FRAME_RECORD_SIZE)?;
    let num_records = (offsets[4] - offsets[3]) / RECORD_SIZE;
    if (offsets[3] + RECORD_SIZE * num_records).next_multiple_of(4) != offsets[4] {
        return Err(invalid(
            field(4),
            format!("Locations Offset {} is not the end of the StackMap Records table aligned to 4", offsets[4]),
        ));
    }
    let num_locations = whole(4, LOCATION_SIZE)?;
    if !offsets[3].is_multiple_of(8) {
        return Err(invalid(field(3), format!("StackMap Records Offset {} is not 8-aligned", offsets[3])));
    }
    let at = |k: usize| start + offsets[k];
    need(section, at(0), (offsets[5] - offsets[0]) as u64, "frame-table tables")?;

    // FrameRecords: flags, and records owned in order.
    let mut num_frame_registers = 0usize;
    let mut next_record = 0usize;
    for i in 0..num_functions {
        let fr = at(1) + i * FRAME_RECORD_SIZE;
        let flags = u16_at(fr + 16);
        if flags & !0xf != 0 {
            return Err(invalid(fr + 16, format!("function {i} has reserved flag bits set ({flags:#06x})")));
        }
        let registers_end = usize::from(u16_at(fr + 22)) + usize::from(u16_at(fr + 20));
        num_frame_registers = num_frame_registers.max(registers_end);
        let (count, index) = (usize::from(u16_at(fr + 24)), usize::from(u16_at(fr + 26)));
        if index != next_record {
            return Err(invalid(
                fr + 26,
                format!(
                    "function {i}'s records start at index {index}, not {next_record} after the previous function's"
                ),
            ));
        }
        next_record += count;
        if next_record > num_records {
            return Err(invalid(
                fr + 24,
                format!("function {i}'s records end at {next_record}, past the {num_records} records"),
            ));
        }
    }
    if next_record != num_records {
        return Err(invalid(
            at(3),
            format!("the functions own {next_record} records but the StackMap Records table holds {num_records}"),
        ));
    }
    if (offsets[2] + FRAME_REGISTER_SIZE * num_frame_registers).next_multiple_of(8) != offsets[3] {
        return Err(invalid(
            field(3),
            format!(
                "StackMap Records Offset {} is not the end of the {num_frame_registers} referenced frame registers \
                 aligned to 8",
                offsets[3]
            ),
        ));
    }
    for g in 0..num_frame_registers {
        let flags_at = at(2) + g * FRAME_REGISTER_SIZE + 5;
        if section[flags_at] & !IS_SPILLED != 0 {
            return Err(invalid(
                flags_at,
                format!("frame register {g} has reserved flag bits set ({:#04x})", section[flags_at]),
            ));
        }
    }
    let mut num_live_outs = 0usize;
    for r in 0..num_records {
        let rec = at(3) + r * RECORD_SIZE;
        if section[rec + 13] & !RECORD_HAS_LIVE_OUT_INFO != 0 {
            return Err(invalid(
                rec + 13,
                format!("record {r} has reserved flag bits set ({:#04x})", section[rec + 13]),
            ));
        }
        let locations_end = usize::from(u16_at(rec + 16)) + usize::from(u16_at(rec + 14));
        if locations_end > num_locations {
            return Err(invalid(
                rec + 14,
                format!("record {r}'s locations end at {locations_end}, past the {num_locations} locations"),
            ));
        }
        num_live_outs = num_live_outs.max(usize::from(u16_at(rec + 20)) + usize::from(u16_at(rec + 18)));
    }
    for l in 0..num_locations {
        let loc = at(4) + l * LOCATION_SIZE;
        let kind = section[loc];
        if LocationKind::from_byte(kind).is_none() {
            return Err(Error::InvalidLocationKind { offset: loc, kind });
        }
        if kind == LocationKind::ConstantIndex as u8 {
            let index = endian.read_u32(array(section, loc + 4));
            if index as usize >= num_constants {
                return Err(Error::ConstantIndexOutOfRange { offset: loc, index, constants: num_constants as u32 });
            }
        }
    }
    need(section, at(5), (LIVE_OUT_SIZE * num_live_outs) as u64, "live-outs")?;
    Ok(Tables {
        constants: at(0),
        frame_records: at(1),
        frame_registers: at(2),
        records: at(3),
        locations: at(4),
        live_outs: at(5),
        num_constants,
        num_functions,
        num_frame_registers,
        num_records,
        num_locations,
        num_live_outs,
    })
}

/// The stack size a frame-table stack size field means.
pub(crate) fn stack_size(field: u32) -> u64 {
    if field == DYNAMIC_STACK_SIZE_U32 {
        DYNAMIC_STACK_SIZE
    } else {
        u64::from(field)
    }
}
