//! Encoding a [`StackMap`] as a section blob in version 1, 2 or 3, in either byte order, byte for byte
//! as LLVM's `StackMaps::serializeToStackMapSection` lays it out; the frame-table layout
//! ([`Version::FrameTable`]) is written by [`super::frame_table`].

use super::model::{Endian, Location, Record, StackMap, Version, OVERFLOW_RECORD_ID};
use super::{Error, Result};

/// Appends fields in one byte order.
pub(crate) struct Encoder<'a> {
    pub out: &'a mut Vec<u8>,
    pub endian: Endian,
    /// Where the blob starts in `out`: alignment is relative to it.
    pub start: usize,
}

impl Encoder<'_> {
    pub fn u8(&mut self, v: u8) {
        self.out.push(v);
    }
    pub fn u16(&mut self, v: u16) {
        self.out.extend_from_slice(&match self.endian {
            Endian::Little => v.to_le_bytes(),
            Endian::Big => v.to_be_bytes(),
        });
    }
    pub fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&match self.endian {
            Endian::Little => v.to_le_bytes(),
            Endian::Big => v.to_be_bytes(),
        });
    }
    pub fn u64(&mut self, v: u64) {
        self.out.extend_from_slice(&match self.endian {
            Endian::Little => v.to_le_bytes(),
            Endian::Big => v.to_be_bytes(),
        });
    }
    /// Zero padding up to a multiple of 8 from the blob start (LLVM's `.p2align 3, 0x0`).
    fn align8(&mut self) {
        self.align(8);
    }
    /// Zero padding up to a multiple of `n` (a power of two) from the blob start.
    pub fn align(&mut self, n: usize) {
        let len = self.out.len() - self.start;
        self.out.resize(self.out.len() + (len.wrapping_neg() & (n - 1)), 0);
    }
}

fn count_u32(what: &'static str, count: usize) -> Result<u32> {
    u32::try_from(count).map_err(|_| Error::TooMany { what, count: count as u64, limit: u64::from(u32::MAX) })
}

impl StackMap {
    /// Encodes the stack map as one blob of the given version and byte order.
    ///
    /// v2/v3 need [`FunctionRecord::record_count`](super::FunctionRecord::record_count)s that add up to the
    /// number of records ([`Error::RecordCountMismatch`] otherwise); v1 ignores them. Records with more than
    /// 65535 locations or live-outs become LLVM's overflow record (see [`Record::overflows`]). Location
    /// sizes are truncated to 8 bits in v1/v2, as LLVM 3.5–4.0 did. v1–v3 ignore the frame-table fields
    /// ([`FunctionRecord::frame`](super::FunctionRecord::frame), [`Record::call_size`],
    /// [`Record::has_live_out_info`]).
    ///
    /// [`Version::FrameTable`] needs every function's frame ([`Error::MissingFrame`]) and refuses values
    /// that do not fit its fields ([`Error::FrameTableOverflow`]); see [`super::frame_table`].
    pub fn write(&self, version: Version, endian: Endian) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(self.encoded_size(version));
        self.write_into(version, endian, &mut out)?;
        Ok(out)
    }

    /// Appends the blob to `out`, first padding `out` with zeros to a multiple of 8 as a linker
    /// concatenating sections does. On error `out` may hold a partial blob.
    pub fn write_into(&self, version: Version, endian: Endian, out: &mut Vec<u8>) -> Result<()> {
        out.resize(out.len().next_multiple_of(8), 0);
        if version == Version::FrameTable {
            return super::frame_table::write(self, endian, out);
        }
        let num_functions = count_u32("functions", self.functions.len())?;
        let num_constants = count_u32("constants", self.constants.len())?;
        let num_records = count_u32("records", self.records.len())?;
        if version.has_record_counts() && !self.record_counts_consistent() {
            let counted = self.functions.iter().fold(0u64, |sum, f| sum.saturating_add(f.record_count));
            return Err(Error::RecordCountMismatch { offset: 0, counted, records: self.records.len() as u64 });
        }
        out.reserve(self.encoded_size(version));
        let start = out.len();
        let mut e = Encoder { out, endian, start };
        e.u8(version.number());
        e.u8(0);
        e.u16(0);
        e.u32(num_functions);
        e.u32(num_constants);
        e.u32(num_records);
        for f in &self.functions {
            e.u64(f.address);
            e.u64(f.stack_size);
            if version.has_record_counts() {
                e.u64(f.record_count);
            }
        }
        for &c in &self.constants {
            e.u64(c);
        }
        for r in &self.records {
            write_record(&mut e, version, r);
        }
        Ok(())
    }

    /// Offset from the blob start of the function table (the first function's address field) in the
    /// blob [`StackMap::write`] writes for `version`.
    pub fn function_table_offset(&self, version: Version) -> usize {
        match version {
            Version::FrameTable => super::frame_table::CONSTANTS_OFFSET + 8 * self.constants.len(),
            Version::V1 | Version::V2 | Version::V3 => 16,
        }
    }

    /// Size in bytes of the blob [`StackMap::write`] produces for `version` (0 for a
    /// [`Version::FrameTable`] blob it would refuse to write).
    pub fn encoded_size(&self, version: Version) -> usize {
        if version == Version::FrameTable {
            return super::frame_table::encoded_size(self);
        }
        let head = 16 + self.functions.len() * version.function_record_size() + 8 * self.constants.len();
        head + self.records.iter().map(|r| record_size(version, r)).sum::<usize>()
    }
}

/// Size of one encoded record.
pub(crate) fn record_size(version: Version, r: &Record) -> usize {
    if r.overflows() {
        return 24;
    }
    let locations_end = 16 + r.locations.len() * version.location_size();
    let live_outs_start = match version {
        Version::V3 => locations_end.next_multiple_of(8),
        Version::V1 | Version::V2 | Version::FrameTable => locations_end,
    };
    (live_outs_start + 4 + 4 * r.live_outs.len()).next_multiple_of(8)
}

fn write_record(e: &mut Encoder<'_>, version: Version, r: &Record) {
    if r.overflows() {
        // LLVM: "too many locations or live-outs": ID -1, the offset, and nothing else.
        e.u64(OVERFLOW_RECORD_ID);
        e.u32(r.instruction_offset);
        e.u16(0);
        e.u16(0);
        e.u16(0);
        e.u16(0);
        e.u32(0);
        return;
    }
    e.u64(r.id);
    e.u32(r.instruction_offset);
    e.u16(0);
    e.u16(r.locations.len() as u16);
    for loc in &r.locations {
        write_location(e, version, loc);
    }
    if version == Version::V3 {
        e.align8();
    }
    e.u16(0);
    e.u16(r.live_outs.len() as u16);
    for lo in &r.live_outs {
        e.u16(lo.dwarf_reg);
        e.u8(0);
        e.u8(lo.size);
    }
    e.align8();
}

fn write_location(e: &mut Encoder<'_>, version: Version, loc: &Location) {
    e.u8(loc.kind as u8);
    match version {
        Version::V1 | Version::V2 | Version::FrameTable => {
            e.u8(loc.size as u8);
            e.u16(loc.dwarf_reg);
        }
        Version::V3 => {
            e.u8(0);
            e.u16(loc.size);
            e.u16(loc.dwarf_reg);
            e.u16(0);
        }
    }
    e.u32(loc.offset as u32);
}
