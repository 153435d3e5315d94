//! The memory of a stopped thread, as a walk reads and writes it: this process's own
//! ([`ProcessMemory`]), or a copy of a stack range ([`StackDump`]), for example one another process
//! printed.

/// Reads and writes little-endian values of 1 to 8 bytes.
pub trait Memory {
    /// `size` bytes at `address`, zero-extended, if readable.
    fn read(&self, address: u64, size: usize) -> Option<u64>;
    /// Writes the low `size` bytes of `value` at `address`; `None` if not writable.
    fn write(&mut self, address: u64, size: usize, value: u64) -> Option<()>;
}

/// This process's memory, read and written without checks.
#[derive(Debug)]
pub struct ProcessMemory(());

impl ProcessMemory {
    /// # Safety
    /// Every address the user of this value reads or writes must be mapped and not in use by
    /// anything else meanwhile: the stack of a thread stopped in the runtime, whose frames a walk
    /// finds.
    pub unsafe fn new() -> ProcessMemory {
        ProcessMemory(())
    }
}

impl Memory for ProcessMemory {
    fn read(&self, address: u64, size: usize) -> Option<u64> {
        let mut bytes = [0u8; 8];
        let size = size.min(8);
        // SAFETY: the creator of `self` vouched for the addresses read.
        unsafe { std::ptr::copy_nonoverlapping(address as *const u8, bytes.as_mut_ptr(), size) };
        Some(u64::from_le_bytes(bytes))
    }

    fn write(&mut self, address: u64, size: usize, value: u64) -> Option<()> {
        let size = size.min(8);
        // SAFETY: as for `read`.
        unsafe { std::ptr::copy_nonoverlapping(value.to_le_bytes().as_ptr(), address as *mut u8, size) };
        Some(())
    }
}

/// A copy of the memory from `start`, little-endian: reads and writes outside it fail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackDump {
    start: u64,
    bytes: Vec<u8>,
}

impl StackDump {
    /// The bytes found at `start..start + bytes.len()`.
    pub fn new(start: u64, bytes: Vec<u8>) -> StackDump {
        StackDump { start, bytes }
    }

    /// The first address held.
    pub fn start(&self) -> u64 {
        self.start
    }

    /// The bytes held.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    fn range(&self, address: u64, size: usize) -> Option<std::ops::Range<usize>> {
        let at = usize::try_from(address.checked_sub(self.start)?).ok()?;
        let end = at.checked_add(size.min(8))?;
        (end <= self.bytes.len()).then_some(at..end)
    }
}

impl Memory for StackDump {
    fn read(&self, address: u64, size: usize) -> Option<u64> {
        let range = self.range(address, size)?;
        let mut bytes = [0u8; 8];
        bytes[..range.len()].copy_from_slice(&self.bytes[range]);
        Some(u64::from_le_bytes(bytes))
    }

    fn write(&mut self, address: u64, size: usize, value: u64) -> Option<()> {
        let range = self.range(address, size)?;
        let n = range.len();
        self.bytes[range].copy_from_slice(&value.to_le_bytes()[..n]);
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dump_reads_and_writes_inside_only() {
        let mut dump = StackDump::new(0x100, vec![1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(dump.read(0x100, 2), Some(0x0201));
        assert_eq!(dump.read(0x101, 8), Some(0x0908_0706_0504_0302));
        assert_eq!(dump.read(0x102, 8), None);
        assert_eq!(dump.read(0xff, 1), None);
        assert_eq!(dump.write(0x108, 1, 0xaa), Some(()));
        assert_eq!(dump.write(0x108, 2, 0xaa), None);
        assert_eq!(dump.bytes()[8], 0xaa);
        let mut word = 0u64;
        // SAFETY: `word` is a live local.
        let mut process = unsafe { ProcessMemory::new() };
        process.write(&mut word as *mut u64 as u64, 4, 0x1122_3344_5566).unwrap();
        assert_eq!(process.read(&word as *const u64 as u64, 8), Some(0x3344_5566));
    }
}
