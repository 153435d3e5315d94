//! Every register of a thread stopped in the runtime ([`Registers`]), as the runtime entry
//! ([`crate::runtime::entry`]) captures them and restores them, and a view of the stopped frame
//! through which [`read_location`](crate::runtime::read_location) reads a record's values
//! ([`Stopped`]).
//!
//! The layout is the same on both targets (only the meaning of each DWARF number differs), so a
//! capture made on one can be decoded on the other ([`Registers::from_bytes`]).

use crate::arch::{Arch, RegisterFile};
use crate::runtime::memory::Memory;
use crate::runtime::values::Frame;

/// The registers of generated code at the point where it entered the runtime. `#[repr(C)]`,
/// [`Registers::SIZE`] bytes, the same on x86-64 and AArch64; unused entries are zero.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Registers {
    /// General-purpose registers by DWARF number: x86-64 0-15 (RAX, RDX, RCX, RBX, RSI, RDI, RBP,
    /// RSP, R8-R15), AArch64 x0-x30 and SP (31). The stack pointer entry is the stop's
    /// ([`Registers::stack_pointer`]); on AArch64, x30 is the return address.
    pub general: [u64; 32],
    /// Vector registers, all 128 bits (low half first): x86-64 xmm0-15, AArch64 v0-v31.
    pub vector: [[u64; 2]; 32],
    /// RFLAGS, or NZCV as `mrs` reads it.
    pub flags: u64,
    /// The stack pointer at the stop: the caller's, as after the return.
    pub stack_pointer: u64,
    /// Where generated code resumes: the return address of its call into the runtime.
    pub return_address: u64,
    reserved: u64,
}

impl Registers {
    /// Bytes of the layout (a multiple of 16, which keeps the stack aligned around it).
    pub const SIZE: usize = 800;
    /// Offset of [`Registers::vector`].
    pub const VECTOR_OFFSET: usize = 256;
    /// Offset of [`Registers::flags`]; the stack pointer and return address follow.
    pub const FLAGS_OFFSET: usize = 768;

    /// A capture read from its [`Registers::SIZE`] bytes, little-endian (both targets'), as a
    /// runtime on either target writes it; `None` if `bytes` is shorter.
    pub fn from_bytes(bytes: &[u8]) -> Option<Registers> {
        let bytes = bytes.get(..Registers::SIZE)?;
        let word = |i: usize| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes"));
        let mut registers = Registers::default();
        for (i, r) in registers.general.iter_mut().enumerate() {
            *r = word(i);
        }
        for (i, v) in registers.vector.iter_mut().enumerate() {
            *v = [word(32 + 2 * i), word(33 + 2 * i)];
        }
        registers.flags = word(96);
        registers.stack_pointer = word(97);
        registers.return_address = word(98);
        Some(registers)
    }

    /// The [`Registers::SIZE`] bytes of the layout, little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let words = self.general.iter().chain(self.vector.iter().flatten()).chain([
            &self.flags,
            &self.stack_pointer,
            &self.return_address,
            &self.reserved,
        ]);
        words.flat_map(|w| w.to_le_bytes()).collect()
    }

    /// The low 64 bits of the register with this DWARF number on `arch`, if there is one.
    pub fn get(&self, arch: Arch, dwarf: u16) -> Option<u64> {
        match arch.register_file(dwarf)? {
            RegisterFile::General(i) => Some(self.general[i]),
            RegisterFile::Vector(i) => Some(self.vector[i][0]),
        }
    }

    /// Replaces the low `size` (1 to 8) bytes of the register with this DWARF number on `arch`
    /// (a vector register's low lane), keeping the others; `None` if there is no such register.
    pub fn set(&mut self, arch: Arch, dwarf: u16, size: usize, value: u64) -> Option<()> {
        let slot = match arch.register_file(dwarf)? {
            RegisterFile::General(i) => &mut self.general[i],
            RegisterFile::Vector(i) => &mut self.vector[i][0],
        };
        let mask = if size >= 8 { u64::MAX } else { (1u64 << (8 * size)) - 1 };
        *slot = (*slot & !mask) | (value & mask);
        Some(())
    }
}

/// The innermost stopped frame of generated code: every captured register, and memory. Reading
/// a location of a record at [`Registers::return_address`] through it gives the value there.
pub struct Stopped<'a, M> {
    /// The target the registers are of.
    pub arch: Arch,
    /// The capture.
    pub registers: &'a Registers,
    /// The stopped thread's memory.
    pub memory: &'a M,
}

impl<M: Memory> Frame for Stopped<'_, M> {
    fn register(&self, dwarf: u16) -> Option<u64> {
        self.registers.get(self.arch, dwarf)
    }

    fn memory(&self, address: u64, size: usize) -> Option<u64> {
        self.memory.read(address, size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::memory::StackDump;
    use crate::runtime::read_location;
    use crate::stackmap::Location;

    #[test]
    fn the_layout_is_the_same_in_bytes_and_in_memory() {
        assert_eq!(std::mem::size_of::<Registers>(), Registers::SIZE);
        let mut registers = Registers::default();
        registers.general[3] = 0x33;
        registers.vector[1] = [0x10, 0x11];
        registers.flags = 0x246;
        registers.stack_pointer = 0x7000;
        registers.return_address = 0x1234;
        let bytes = registers.to_bytes();
        assert_eq!(bytes.len(), Registers::SIZE);
        // SAFETY: `Registers` is plain `repr(C)` words.
        let in_memory = unsafe {
            std::slice::from_raw_parts(&registers as *const Registers as *const u8, Registers::SIZE).to_vec()
        };
        if cfg!(target_endian = "little") {
            assert_eq!(bytes, in_memory);
        }
        assert_eq!(bytes[Registers::VECTOR_OFFSET + 16], 0x10);
        assert_eq!(bytes[Registers::FLAGS_OFFSET], 0x46);
        assert_eq!(Registers::from_bytes(&bytes), Some(registers));
        assert_eq!(Registers::from_bytes(&bytes[1..]), None);
    }

    #[test]
    fn registers_by_dwarf_number_and_read_location() {
        let mut registers = Registers::default();
        registers.set(Arch::X86_64, 3, 8, u64::MAX).unwrap();
        registers.set(Arch::X86_64, 3, 4, 7).unwrap();
        assert_eq!(registers.general[3], 0xffff_ffff_0000_0007);
        registers.set(Arch::X86_64, 18, 8, 9).unwrap();
        assert_eq!(registers.vector[1], [9, 0]);
        assert_eq!(registers.set(Arch::X86_64, 16, 8, 0), None);
        assert_eq!(registers.get(Arch::Aarch64, 65), Some(9));
        assert_eq!(registers.get(Arch::Aarch64, 40), None);
        registers.general[6] = 0x1010;
        let memory = StackDump::new(0x1000, (0..32).collect());
        let stopped = Stopped { arch: Arch::X86_64, registers: &registers, memory: &memory };
        assert_eq!(read_location(&Location::indirect(6, -8, 1), &[], &stopped), Ok(8));
        assert_eq!(read_location(&Location::register(3, 4), &[], &stopped), Ok(7));
    }
}
