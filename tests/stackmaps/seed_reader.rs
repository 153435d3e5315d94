//! A reader of the frame-table layout (rfc2) written from the field list of the 2015 "StackMap v2"
//! proposal (`../shared/seeds/001_*.txt`) alone: a header of six table offsets, packed tables with the
//! alignments the proposal gives, nothing of the project's reader. The frame-table tests check the
//! writer's bytes with it.
use patchmap::stackmap::Endian;

pub struct Blob<'a> {
    pub bytes: &'a [u8],
    pub endian: Endian,
}

#[derive(Debug, PartialEq, Eq)]
pub struct FrameRecord {
    pub address: u64,
    pub function_size: u32,
    pub stack_size: u32,
    pub flags: u16,
    pub base: u16,
    pub num_registers: u16,
    pub register_index: u16,
    pub num_records: u16,
    pub record_index: u16,
}

#[derive(Debug, PartialEq, Eq)]
pub struct StackMapRecord {
    pub id: u64,
    pub offset: u32,
    pub call_size: u8,
    pub flags: u8,
    pub num_locations: u16,
    pub location_index: u16,
    pub num_live_outs: u16,
    pub live_out_index: u16,
}

impl Blob<'_> {
    fn get<const N: usize>(&self, at: usize) -> [u8; N] {
        self.bytes[at..at + N].try_into().unwrap()
    }
    pub fn u8(&self, at: usize) -> u8 {
        self.bytes[at]
    }
    pub fn u16(&self, at: usize) -> u16 {
        match self.endian {
            Endian::Little => u16::from_le_bytes(self.get(at)),
            Endian::Big => u16::from_be_bytes(self.get(at)),
        }
    }
    pub fn u32(&self, at: usize) -> u32 {
        match self.endian {
            Endian::Little => u32::from_le_bytes(self.get(at)),
            Endian::Big => u32::from_be_bytes(self.get(at)),
        }
    }
    pub fn u64(&self, at: usize) -> u64 {
        match self.endian {
            Endian::Little => u64::from_le_bytes(self.get(at)),
            Endian::Big => u64::from_be_bytes(self.get(at)),
        }
    }
    /// Header offsets: Constants, FrameRecords, FrameRegisters, StackMapRecords, Locations, LiveOuts.
    pub fn offsets(&self) -> [usize; 6] {
        std::array::from_fn(|k| self.u32(4 + 4 * k) as usize)
    }
    pub fn constant(&self, i: usize) -> u64 {
        self.u64(self.offsets()[0] + 8 * i)
    }
    pub fn frame_record(&self, i: usize) -> FrameRecord {
        let at = self.offsets()[1] + 28 * i;
        FrameRecord {
            address: self.u64(at),
            function_size: self.u32(at + 8),
            stack_size: self.u32(at + 12),
            flags: self.u16(at + 16),
            base: self.u16(at + 18),
            num_registers: self.u16(at + 20),
            register_index: self.u16(at + 22),
            num_records: self.u16(at + 24),
            record_index: self.u16(at + 26),
        }
    }
    /// (regnum, offset, size, flags).
    pub fn frame_register(&self, i: usize) -> (u16, i16, u8, u8) {
        let at = self.offsets()[2] + 6 * i;
        (self.u16(at), self.u16(at + 2) as i16, self.u8(at + 4), self.u8(at + 5))
    }
    pub fn record(&self, i: usize) -> StackMapRecord {
        let at = self.offsets()[3] + 22 * i;
        StackMapRecord {
            id: self.u64(at),
            offset: self.u32(at + 8),
            call_size: self.u8(at + 12),
            flags: self.u8(at + 13),
            num_locations: self.u16(at + 14),
            location_index: self.u16(at + 16),
            num_live_outs: self.u16(at + 18),
            live_out_index: self.u16(at + 20),
        }
    }
    /// (type, size byte, regnum, offset).
    pub fn location(&self, i: usize) -> (u8, u8, u16, i32) {
        let at = self.offsets()[4] + 8 * i;
        (self.u8(at), self.u8(at + 1), self.u16(at + 2), self.u32(at + 4) as i32)
    }
    /// (regnum, reserved, size).
    pub fn live_out(&self, i: usize) -> (u16, u8, u8) {
        let at = self.offsets()[5] + 4 * i;
        (self.u16(at), self.u8(at + 2), self.u8(at + 3))
    }
}

/// Where each table starts and how many entries it has, as the header and the tables imply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tables {
    /// Constants, FrameRecords, FrameRegisters, StackMapRecords, Locations, LiveOuts.
    pub offsets: [usize; 6],
    /// Entries of the same six tables.
    pub counts: [usize; 6],
    /// End of the last live-out (the blob is this rounded up to 8).
    pub end: usize,
}

/// Entry sizes of the six tables, from the proposal's field widths.
pub const ENTRY_SIZES: [usize; 6] = [8, 28, 6, 22, 8, 4];
/// Alignment of the six tables' starts, from the proposal's "align to".
pub const ALIGNMENTS: [usize; 6] = [8, 8, 4, 8, 4, 2];

impl Blob<'_> {
    /// The tables, checking what the proposal implies: the header is 28 bytes and the Constants start
    /// at it aligned to 8; every table starts right after the previous one, aligned as the proposal
    /// says; FrameRegisters and LiveOuts (which no header field counts) are as long as the largest
    /// index + count referring to them; every table lies inside the blob.
    pub fn tables(&self) -> Result<Tables, String> {
        if self.bytes.len() < 28 {
            return Err(format!("{} bytes: shorter than the 28-byte header", self.bytes.len()));
        }
        let offsets = self.offsets();
        let within = |end: usize| {
            if end <= self.bytes.len() {
                Ok(())
            } else {
                Err(format!("a table ends at {end}, past the blob's {} bytes", self.bytes.len()))
            }
        };
        if offsets[0] != 28usize.next_multiple_of(8) {
            return Err(format!("Constants Offset {} is not the header aligned to 8 (32)", offsets[0]));
        }
        for k in 0..6 {
            within(offsets[k])?;
            if !offsets[k].is_multiple_of(ALIGNMENTS[k]) || (k > 0 && offsets[k] < offsets[k - 1]) {
                return Err(format!("offset {k} ({}) misaligned or out of order: {offsets:?}", offsets[k]));
            }
        }
        let mut counts = [0; 6];
        // Constants, FrameRecords, StackMapRecords and Locations: up to the next table's start.
        for k in [0, 1, 3, 4] {
            counts[k] = (offsets[k + 1] - offsets[k]) / ENTRY_SIZES[k];
        }
        let mut registers = 0;
        for i in 0..counts[1] {
            let f = self.frame_record(i);
            registers = registers.max(usize::from(f.register_index) + usize::from(f.num_registers));
        }
        counts[2] = registers;
        let mut live_outs = 0;
        for i in 0..counts[3] {
            let r = self.record(i);
            live_outs = live_outs.max(usize::from(r.live_out_index) + usize::from(r.num_live_outs));
        }
        counts[5] = live_outs;
        for k in 0..5 {
            let end = offsets[k] + ENTRY_SIZES[k] * counts[k];
            if end.next_multiple_of(ALIGNMENTS[k + 1]) != offsets[k + 1] {
                return Err(format!(
                    "table {k} ends at {end}: the next table should start at it aligned to {}, not at {}",
                    ALIGNMENTS[k + 1],
                    offsets[k + 1]
                ));
            }
        }
        let end = offsets[5] + 4 * counts[5];
        within(end)?;
        Ok(Tables { offsets, counts, end })
    }
}
