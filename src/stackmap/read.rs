//! Zero-copy parsing of stack map sections: one [`StackMapView`] per blob, borrowing the section bytes.
//!
//! [`parse_section`] walks every blob of a section (a linked executable holds one blob per linked
//! object, each starting 8-aligned). Parsing checks the whole blob once — every table fits in the
//! section, every location type is valid, every constant index is in the pool, v2/v3 record counts add
//! up — and records where each record starts. After that the accessors cannot fail: malformed input is
//! reported by `parse*` as an [`Error`] naming the section byte offset, never by a panic.
//!
//! A blob with version byte 2 is LLVM 4.0's [`Version::V2`] or the frame-table layout
//! ([`Version::FrameTable`]); [`StackMapView::parse`] reads it both ways and refuses a blob valid under
//! both (see [`super::frame_table`] for the rule).

use std::ops::Range;

use super::frame_table::{self, Tables};
use super::model::{
    Endian, Frame, FrameRegister, FunctionRecord, LiveOut, Location, LocationKind, Record, StackMap, Version,
};
use super::{Error, Result};

/// Fixed-size reads in one byte order; the caller has checked the bounds.
impl Endian {
    #[inline(always)]
    pub(super) fn read_u16(self, b: [u8; 2]) -> u16 {
        match self {
            Endian::Little => u16::from_le_bytes(b),
            Endian::Big => u16::from_be_bytes(b),
        }
    }
    #[inline(always)]
    pub(super) fn read_u32(self, b: [u8; 4]) -> u32 {
        match self {
            Endian::Little => u32::from_le_bytes(b),
            Endian::Big => u32::from_be_bytes(b),
        }
    }
    #[inline(always)]
    pub(super) fn read_u64(self, b: [u8; 8]) -> u64 {
        match self {
            Endian::Little => u64::from_le_bytes(b),
            Endian::Big => u64::from_be_bytes(b),
        }
    }

    /// Guesses the byte order of a section whose producer is unknown: the order in which the first blob
    /// parses (little-endian first); if neither parses, the order whose header counts fit the section.
    ///
    /// Prefer the object file's byte order when there is one: a blob can parse both ways.
    pub fn guess(section: &[u8]) -> Endian {
        if StackMapView::parse(section, Endian::Little).is_ok() {
            return Endian::Little;
        }
        if StackMapView::parse(section, Endian::Big).is_ok() {
            return Endian::Big;
        }
        let fits = |endian: Endian| {
            let Some(header) = section.get(..16) else { return false };
            let count = |at: usize| u64::from(endian.read_u32(header[at..at + 4].try_into().unwrap_or([0; 4])));
            16 + 16 * (count(4) + count(8) + count(12)) <= section.len() as u64
        };
        if !fits(Endian::Little) && fits(Endian::Big) {
            Endian::Big
        } else {
            Endian::Little
        }
    }
}

#[inline(always)]
pub(super) fn array<const N: usize>(data: &[u8], at: usize) -> [u8; N] {
    // Callers pass offsets inside checked ranges; the fallback only keeps this function panic-free.
    match data.get(at..at + N) {
        Some(s) => s.try_into().unwrap_or([0; N]),
        None => [0; N],
    }
}

/// Bounds checks with an error that says what was cut off and where.
pub(super) fn need(data: &[u8], offset: usize, len: u64, what: &'static str) -> Result<usize> {
    let available = data.len().saturating_sub(offset);
    match usize::try_from(len) {
        Ok(n) if n <= available => Ok(offset + n),
        _ => Err(Error::UnexpectedEnd { offset, what, needed: len, available }),
    }
}

/// Parses every blob of a section. Zero bytes after the last blob (alignment padding) are skipped.
pub fn parse_section(section: &[u8], endian: Endian) -> Result<Vec<StackMapView<'_>>> {
    let mut blobs = Vec::new();
    let mut offset = 0;
    while offset < section.len() {
        if section[offset..].iter().all(|&b| b == 0) {
            break;
        }
        let blob = StackMapView::parse_at(section, offset, endian)?;
        offset = blob.range().end.next_multiple_of(8);
        blobs.push(blob);
    }
    Ok(blobs)
}

/// A parsed, validated stack map blob borrowing the section bytes.
#[derive(Debug, Clone)]
pub struct StackMapView<'data> {
    section: &'data [u8],
    start: usize,
    end: usize,
    endian: Endian,
    version: Version,
    num_functions: u32,
    num_constants: u32,
    functions_at: usize,
    constants_at: usize,
    /// Section offset of each record, plus the blob end.
    record_offsets: Vec<usize>,
    /// Record index at which each function's records start, plus the total; `None` in v1 until
    /// [`StackMapView::with_record_counts`] supplies the counts.
    function_starts: Option<Vec<usize>>,
    /// The frame-table layout's tables (section offsets), for [`Version::FrameTable`] only.
    tables: Option<Tables>,
}

impl<'data> StackMapView<'data> {
    /// Parses the blob at the start of `data`; bytes after it are ignored (see [`StackMapView::len`]).
    pub fn parse(data: &'data [u8], endian: Endian) -> Result<StackMapView<'data>> {
        StackMapView::parse_at(data, 0, endian)
    }

    /// Parses the blob starting at `offset` of `section`; errors name offsets in `section`.
    ///
    /// Version byte 2 is read both as LLVM 4.0's [`Version::V2`] and as [`Version::FrameTable`]: the one
    /// that is valid is used, a blob valid as both is [`Error::AmbiguousVersion2`], and when neither is
    /// valid the error is the frame-table one if the `u32` at byte 4 is 32 (its Constants Offset), else
    /// the v2 one.
    pub fn parse_at(section: &'data [u8], offset: usize, endian: Endian) -> Result<StackMapView<'data>> {
        let start = offset;
        need(section, start, 16, "stack map header")?;
        let version_byte = section[start];
        let version = Version::from_byte(version_byte)
            .ok_or(Error::UnsupportedVersion { offset: start, version: version_byte })?;
        if version != Version::V2 {
            return StackMapView::parse_version_at(section, offset, version, endian);
        }
        let v2 = StackMapView::parse_version_at(section, offset, Version::V2, endian);
        let rfc2 = StackMapView::parse_version_at(section, offset, Version::FrameTable, endian);
        match (v2, rfc2) {
            (Ok(_), Ok(_)) => Err(Error::AmbiguousVersion2 { offset: start }),
            (Ok(view), Err(_)) | (Err(_), Ok(view)) => Ok(view),
            (Err(v2), Err(rfc2)) => {
                let looks_like_frame_table =
                    endian.read_u32(array(section, start + 4)) as usize == frame_table::CONSTANTS_OFFSET;
                Err(if looks_like_frame_table { rfc2 } else { v2 })
            }
        }
    }

    /// Parses the blob at the start of `data` as `version`, whatever its version byte says beyond
    /// 1, 2 or 3 (for example a version-2 blob as [`Version::FrameTable`] without the check against
    /// LLVM 4.0's layout).
    pub fn parse_version(data: &'data [u8], version: Version, endian: Endian) -> Result<StackMapView<'data>> {
        StackMapView::parse_version_at(data, 0, version, endian)
    }

    /// [`StackMapView::parse_version`] for the blob starting at `offset` of `section`. The version byte must
    /// be `version`'s number.
    pub fn parse_version_at(
        section: &'data [u8],
        offset: usize,
        version: Version,
        endian: Endian,
    ) -> Result<StackMapView<'data>> {
        let start = offset;
        need(section, start, 16, "stack map header")?;
        let version_byte = section[start];
        if version_byte != version.number() {
            return Err(Error::UnsupportedVersion { offset: start, version: version_byte });
        }
        if version == Version::FrameTable {
            return StackMapView::parse_frame_table(section, start, endian);
        }
        let count = |at: usize| endian.read_u32(array(section, start + at));
        let (num_functions, num_constants, num_records) = (count(4), count(8), count(12));
        let functions_at = start + 16;
        let fr_size = version.function_record_size() as u64;
        let constants_at = need(section, functions_at, u64::from(num_functions) * fr_size, "function table")?;
        let records_at = need(section, constants_at, u64::from(num_constants) * 8, "constant pool")?;

        // Each record takes at least 16 bytes: refuse absurd counts before allocating for them.
        need(section, records_at, u64::from(num_records) * 16, "records")?;
        let mut record_offsets = Vec::with_capacity(num_records as usize + 1);
        let walker = RecordWalker { section, start, endian, version, num_constants };
        let mut at = records_at;
        for _ in 0..num_records {
            record_offsets.push(at);
            at = walker.record_end(at)?;
        }
        record_offsets.push(at);

        let mut view = StackMapView {
            section,
            start,
            end: at,
            endian,
            version,
            num_functions,
            num_constants,
            functions_at,
            constants_at,
            record_offsets,
            function_starts: None,
            tables: None,
        };
        if version.has_record_counts() {
            let counts: Vec<u64> = (0..num_functions as usize)
                .map(|i| endian.read_u64(array(section, functions_at + i * 24 + 16)))
                .collect();
            view.function_starts = Some(view.starts_from_counts(&counts)?);
        }
        Ok(view)
    }

    fn parse_frame_table(section: &'data [u8], start: usize, endian: Endian) -> Result<StackMapView<'data>> {
        let t = frame_table::validate(section, start, endian)?;
        let record_offsets: Vec<usize> =
            (0..=t.num_records).map(|i| t.records + i * frame_table::RECORD_SIZE).collect();
        let mut starts = Vec::with_capacity(t.num_functions + 1);
        starts.push(0);
        for i in 0..t.num_functions {
            let at = t.frame_records + i * frame_table::FRAME_RECORD_SIZE;
            starts.push(starts[i] + usize::from(endian.read_u16(array(section, at + 24))));
        }
        Ok(StackMapView {
            section,
            start,
            // The writer's padding to 8, when the section holds it.
            end: (start + (t.end() - start).next_multiple_of(8)).min(section.len()),
            endian,
            version: Version::FrameTable,
            num_functions: t.num_functions as u32,
            num_constants: t.num_constants as u32,
            functions_at: t.frame_records,
            constants_at: t.constants,
            record_offsets,
            function_starts: Some(starts),
            tables: Some(t),
        })
    }

    fn starts_from_counts(&self, counts: &[u64]) -> Result<Vec<usize>> {
        let records = self.num_records() as u64;
        let mismatch = |counted: u64| Error::RecordCountMismatch { offset: self.start, counted, records };
        let mut starts = Vec::with_capacity(counts.len() + 1);
        let mut total = 0u64;
        starts.push(0);
        for &c in counts {
            total = total
                .checked_add(c)
                .filter(|&t| t <= records)
                .ok_or_else(|| mismatch(counts.iter().fold(0u64, |s, &c| s.saturating_add(c))))?;
            starts.push(total as usize);
        }
        if total != records || counts.len() != self.num_functions as usize {
            return Err(mismatch(total));
        }
        Ok(starts)
    }

    /// Supplies the per-function record counts a v1 blob lacks (for example from
    /// [`StackMap::derive_record_counts`]); for v2/v3 this replaces the stored ones.
    pub fn with_record_counts(mut self, counts: &[u64]) -> Result<StackMapView<'data>> {
        self.function_starts = Some(self.starts_from_counts(counts)?);
        Ok(self)
    }

    /// The blob's version.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The byte order the blob was parsed with.
    pub fn endian(&self) -> Endian {
        self.endian
    }

    /// Where the blob lies in the section.
    pub fn range(&self) -> Range<usize> {
        self.start..self.end
    }

    /// The blob's size in bytes.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether the blob is empty (never: a blob has at least its 16-byte header).
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }

    /// The blob's bytes.
    pub fn bytes(&self) -> &'data [u8] {
        &self.section[self.start..self.end]
    }

    /// NumFunctions.
    pub fn num_functions(&self) -> u32 {
        self.num_functions
    }

    /// NumConstants.
    pub fn num_constants(&self) -> u32 {
        self.num_constants
    }

    /// NumRecords.
    pub fn num_records(&self) -> u32 {
        (self.record_offsets.len() - 1) as u32
    }

    /// Whether the record counts are known (v2/v3, or v1 after [`StackMapView::with_record_counts`]).
    pub fn has_record_counts(&self) -> bool {
        self.function_starts.is_some()
    }

    /// Function record `index`. Its `record_count` is the stored one (v2/v3), the supplied one, or 0 for
    /// a v1 blob without supplied counts.
    pub fn function(&self, index: usize) -> Option<FunctionRecord> {
        if index >= self.num_functions as usize {
            return None;
        }
        let at = self.functions_at + index * self.version.function_record_size();
        let read = |field: usize| self.endian.read_u64(array(self.section, at + field));
        let record_count = match &self.function_starts {
            Some(starts) => (starts[index + 1] - starts[index]) as u64,
            None => 0,
        };
        if self.version == Version::FrameTable {
            let u16_at = |field: usize| self.endian.read_u16(array(self.section, at + field));
            let flags = u16_at(16);
            let frame = Frame {
                function_size: self.endian.read_u32(array(self.section, at + 8)),
                has_frame: flags & frame_table::HAS_FRAME != 0,
                has_variable_size_alloca: flags & frame_table::HAS_VARIABLE_SIZE_ALLOCA != 0,
                has_stack_realignment: flags & frame_table::HAS_STACK_REALIGNMENT != 0,
                has_live_out_info: flags & frame_table::HAS_LIVE_OUT_INFO != 0,
                base_register: u16_at(18),
                registers: self.frame_registers(index).collect(),
            };
            let stack_size = frame_table::stack_size(self.endian.read_u32(array(self.section, at + 12)));
            return Some(FunctionRecord { address: read(0), stack_size, record_count, frame: Some(frame) });
        }
        Some(FunctionRecord { address: read(0), stack_size: read(8), record_count, frame: None })
    }

    /// The registers function `index`'s prologue saved (its FrameRegisters), read in place; empty for
    /// versions 1–3, which do not record them.
    pub fn frame_registers(&self, index: usize) -> impl ExactSizeIterator<Item = FrameRegister> + '_ {
        let (first, count) = match &self.tables {
            Some(t) if index < t.num_functions => {
                let at = t.frame_records + index * frame_table::FRAME_RECORD_SIZE;
                let u16_at = |field: usize| usize::from(self.endian.read_u16(array(self.section, at + field)));
                (t.frame_registers + u16_at(22) * frame_table::FRAME_REGISTER_SIZE, u16_at(20))
            }
            _ => (0, 0),
        };
        (0..count).map(move |k| {
            let at = first + k * frame_table::FRAME_REGISTER_SIZE;
            FrameRegister {
                dwarf_reg: self.endian.read_u16(array(self.section, at)),
                offset: i32::from(self.endian.read_u16(array(self.section, at + 2)) as i16),
                size: self.section.get(at + 4).copied().unwrap_or(0),
                is_spilled: self.section.get(at + 5).copied().unwrap_or(0) & frame_table::IS_SPILLED != 0,
            }
        })
    }

    /// All function records, in order.
    pub fn functions(&self) -> impl ExactSizeIterator<Item = FunctionRecord> + '_ {
        (0..self.num_functions as usize).map(|i| self.function(i).unwrap_or_default())
    }

    /// Section offset of function record `index`'s address field (where its relocation applies).
    pub fn function_address_offset(&self, index: usize) -> usize {
        self.functions_at + index * self.version.function_record_size()
    }

    /// Constant `index` of the pool.
    pub fn constant(&self, index: usize) -> Option<u64> {
        (index < self.num_constants as usize)
            .then(|| self.endian.read_u64(array(self.section, self.constants_at + index * 8)))
    }

    /// The constant pool, in order.
    pub fn constants(&self) -> impl ExactSizeIterator<Item = u64> + '_ {
        (0..self.num_constants as usize).map(|i| self.constant(i).unwrap_or_default())
    }

    /// Record `index` (across all functions).
    pub fn record(&self, index: usize) -> Option<RecordView<'data>> {
        let start = *self.record_offsets.get(index)?;
        let end = *self.record_offsets.get(index + 1)?;
        let bytes = self.section.get(start..end)?;
        let shared = self.tables.map(|t| {
            let u16_at = |field: usize| usize::from(self.endian.read_u16(array(bytes, field)));
            (
                t.locations + u16_at(16) * frame_table::LOCATION_SIZE,
                t.live_outs + u16_at(20) * frame_table::LIVE_OUT_SIZE,
            )
        });
        Some(RecordView {
            bytes,
            offset: start,
            endian: self.endian,
            version: self.version,
            section: self.section,
            shared: shared.unwrap_or_default(),
        })
    }

    /// Record `index` for indices known to be in range.
    fn record_in_range(&self, index: usize) -> RecordView<'data> {
        self.record(index).unwrap_or(RecordView {
            bytes: &[],
            offset: 0,
            endian: self.endian,
            version: self.version,
            section: &[],
            shared: (0, 0),
        })
    }

    /// All records, in order.
    pub fn records(&self) -> impl ExactSizeIterator<Item = RecordView<'data>> + '_ {
        (0..self.num_records() as usize).map(|i| self.record_in_range(i))
    }

    /// Indices (into [`StackMapView::records`]) of function `function`'s records.
    pub fn record_range(&self, function: usize) -> Result<Range<usize>> {
        let starts = self.function_starts.as_ref().ok_or(Error::RecordCountsUnknown { offset: self.start })?;
        match (starts.get(function), starts.get(function + 1)) {
            (Some(&s), Some(&e)) => Ok(s..e),
            _ => Err(Error::NoSuchFunction { index: function, functions: self.num_functions }),
        }
    }

    /// The records of function `function`.
    pub fn records_of(&self, function: usize) -> Result<impl ExactSizeIterator<Item = RecordView<'data>> + '_> {
        Ok(self.record_range(function)?.map(|i| self.record_in_range(i)))
    }

    /// The first record of function `function` at `instruction_offset` from the function start.
    pub fn record_at(&self, function: usize, instruction_offset: u32) -> Result<Option<RecordView<'data>>> {
        Ok(self.records_of(function)?.find(|r| r.instruction_offset() == instruction_offset))
    }

    /// Index of every record by the absolute address of its instruction (function address + instruction
    /// offset). Meaningful once function addresses are final (linked or JIT code); for a return address,
    /// the caller subtracts the call's length first.
    pub fn address_index(&self) -> Result<AddressIndex> {
        let starts = self.function_starts.as_ref().ok_or(Error::RecordCountsUnknown { offset: self.start })?;
        let mut entries = Vec::with_capacity(self.num_records() as usize);
        for (f, w) in starts.windows(2).enumerate() {
            let address = self.endian.read_u64(array(self.section, self.function_address_offset(f)));
            for i in w[0]..w[1] {
                let offset = self.endian.read_u32(array(self.section, self.record_offsets[i] + 8));
                entries.push((address.wrapping_add(u64::from(offset)), i as u32));
            }
        }
        // Stable: records at the same address keep their section order. Usually already sorted.
        entries.sort_by_key(|&(address, _)| address);
        Ok(AddressIndex { entries })
    }

    /// The records at `address` (absolute instruction address), using an index from
    /// [`StackMapView::address_index`].
    pub fn records_at_address<'a>(
        &'a self,
        index: &'a AddressIndex,
        address: u64,
    ) -> impl Iterator<Item = RecordView<'data>> + 'a {
        index.lookup(address).map(|i| self.record_in_range(i))
    }

    /// The owned model of this blob. A v1 blob without supplied counts gets record count 0 for every
    /// function.
    pub fn to_model(&self) -> StackMap {
        StackMap {
            functions: self.functions().collect(),
            constants: self.constants().collect(),
            records: self.records().map(|r| r.to_record()).collect(),
        }
    }
}

/// Records sorted by absolute instruction address, from [`StackMapView::address_index`].
#[derive(Debug, Clone, Default)]
pub struct AddressIndex {
    entries: Vec<(u64, u32)>,
}

impl AddressIndex {
    /// Indices of the records at `address` (several records may share an instruction).
    pub fn lookup(&self, address: u64) -> impl Iterator<Item = usize> + '_ {
        let first = self.entries.partition_point(|&(a, _)| a < address);
        self.entries[first..].iter().take_while(move |&&(a, _)| a == address).map(|&(_, i)| i as usize)
    }

    /// Number of indexed records.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no record is indexed.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Walks and validates records.
struct RecordWalker<'data> {
    section: &'data [u8],
    start: usize,
    endian: Endian,
    version: Version,
    num_constants: u32,
}

impl RecordWalker<'_> {
    /// Validates the record at `at` and returns where it ends (8-aligned from the blob start).
    #[inline]
    fn record_end(&self, at: usize) -> Result<usize> {
        let section = self.section;
        need(section, at, 16, "record header")?;
        let num_locations = self.endian.read_u16(array(section, at + 14));
        let location_size = self.version.location_size();
        let locations_at = at + 16;
        let locations_end = need(section, locations_at, u64::from(num_locations) * location_size as u64, "locations")?;
        let value_field = if self.version == Version::V3 { 8 } else { 4 };
        let mut loc = locations_at;
        while loc < locations_end {
            let kind = section[loc];
            if !(1..=5).contains(&kind) {
                return Err(Error::InvalidLocationKind { offset: loc, kind });
            }
            if kind == LocationKind::ConstantIndex as u8 {
                let index = self.endian.read_u32(array(section, loc + value_field));
                if index >= self.num_constants {
                    return Err(Error::ConstantIndexOutOfRange { offset: loc, index, constants: self.num_constants });
                }
            }
            loc += location_size;
        }
        let live_outs_at = match self.version {
            Version::V3 => self.align8(locations_end),
            Version::V1 | Version::V2 | Version::FrameTable => locations_end,
        };
        need(section, live_outs_at, 4, "live-out header")?;
        let num_live_outs = self.endian.read_u16(array(section, live_outs_at + 2));
        let live_outs_end = need(section, live_outs_at + 4, u64::from(num_live_outs) * 4, "live-outs")?;
        let end = self.align8(live_outs_end);
        need(section, live_outs_end, (end - live_outs_end) as u64, "record padding")?;
        Ok(end)
    }

    #[inline(always)]
    fn align8(&self, at: usize) -> usize {
        self.start + (at - self.start).next_multiple_of(8)
    }
}

/// One record of a parsed blob, borrowing its bytes.
#[derive(Debug, Clone, Copy)]
pub struct RecordView<'data> {
    bytes: &'data [u8],
    offset: usize,
    endian: Endian,
    version: Version,
    /// The section, for the frame-table layout's shared location and live-out tables.
    section: &'data [u8],
    /// Frame-table layout: section offsets of this record's first location and first live-out.
    shared: (usize, usize),
}

impl<'data> RecordView<'data> {
    /// The record's ID.
    pub fn id(&self) -> u64 {
        self.endian.read_u64(array(self.bytes, 0))
    }

    /// The instruction's offset from its function's start.
    pub fn instruction_offset(&self) -> u32 {
        self.endian.read_u32(array(self.bytes, 8))
    }

    /// Offset of the record in the section.
    pub fn section_offset(&self) -> usize {
        self.offset
    }

    /// The record's encoded bytes, padding included (for [`Version::FrameTable`], the 22-byte
    /// StackMapRecord: its locations and live-outs are in the shared tables).
    pub fn bytes(&self) -> &'data [u8] {
        self.bytes
    }

    /// NumLocations.
    pub fn num_locations(&self) -> u16 {
        self.endian.read_u16(array(self.bytes, 14))
    }

    /// Bytes of the call whose return address is the record's instruction (0 if none, and always 0 in
    /// versions 1–3, which do not record it).
    pub fn call_size(&self) -> u8 {
        match self.version {
            Version::FrameTable => self.bytes.get(12).copied().unwrap_or(0),
            _ => 0,
        }
    }

    /// The record's HasLiveOutInfo flag (always `false` in versions 1–3, which do not record it).
    pub fn has_live_out_info(&self) -> bool {
        match self.version {
            Version::FrameTable => {
                self.bytes.get(13).copied().unwrap_or(0) & frame_table::RECORD_HAS_LIVE_OUT_INFO != 0
            }
            _ => false,
        }
    }

    /// Location `index`.
    pub fn location(&self, index: usize) -> Option<Location> {
        if index >= usize::from(self.num_locations()) {
            return None;
        }
        let (b, at) = match self.version {
            Version::FrameTable => (self.section, self.shared.0 + index * frame_table::LOCATION_SIZE),
            _ => (self.bytes, 16 + index * self.version.location_size()),
        };
        // The kind was validated when parsing.
        let kind = LocationKind::from_byte(b.get(at).copied().unwrap_or(0)).unwrap_or(LocationKind::Register);
        Some(match self.version {
            Version::V1 | Version::V2 | Version::FrameTable => Location {
                kind,
                size: u16::from(b.get(at + 1).copied().unwrap_or(0)),
                dwarf_reg: self.endian.read_u16(array(b, at + 2)),
                offset: self.endian.read_u32(array(b, at + 4)) as i32,
            },
            Version::V3 => Location {
                kind,
                size: self.endian.read_u16(array(b, at + 2)),
                dwarf_reg: self.endian.read_u16(array(b, at + 4)),
                offset: self.endian.read_u32(array(b, at + 8)) as i32,
            },
        })
    }

    /// The locations, in order.
    pub fn locations(&self) -> impl ExactSizeIterator<Item = Location> + '_ {
        (0..usize::from(self.num_locations())).map(|i| self.location(i).unwrap_or(Location::constant(0)))
    }

    fn live_outs_at(&self) -> usize {
        let end = 16 + usize::from(self.num_locations()) * self.version.location_size();
        match self.version {
            Version::V3 => end.next_multiple_of(8),
            Version::V1 | Version::V2 | Version::FrameTable => end,
        }
    }

    /// NumLiveOuts.
    pub fn num_live_outs(&self) -> u16 {
        match self.version {
            Version::FrameTable => self.endian.read_u16(array(self.bytes, 18)),
            _ => self.endian.read_u16(array(self.bytes, self.live_outs_at() + 2)),
        }
    }

    /// The live-out registers, in order.
    pub fn live_outs(&self) -> impl ExactSizeIterator<Item = LiveOut> + '_ {
        let (b, at) = match self.version {
            Version::FrameTable => (self.section, self.shared.1),
            _ => (self.bytes, self.live_outs_at() + 4),
        };
        (0..usize::from(self.num_live_outs())).map(move |i| {
            let e = at + 4 * i;
            LiveOut { dwarf_reg: self.endian.read_u16(array(b, e)), size: b.get(e + 3).copied().unwrap_or(0) }
        })
    }

    /// The owned record.
    pub fn to_record(&self) -> Record {
        Record {
            id: self.id(),
            instruction_offset: self.instruction_offset(),
            locations: self.locations().collect(),
            live_outs: self.live_outs().collect(),
            call_size: self.call_size(),
            has_live_out_info: self.has_live_out_info(),
        }
    }
}
