//! Reading a live value through its stack map location, from a frame the runtime stopped.

use crate::stackmap::{Location, LocationKind};

/// The registers and memory of a stopped frame, as the runtime captured them (for example from a
/// signal's `ucontext`, or an exit stub that saved every register).
pub trait Frame {
    /// The register with this DWARF number: its low 64 bits (vector registers included), if captured.
    fn register(&self, dwarf: u16) -> Option<u64>;
    /// `size` (1 to 8) bytes at `address`, little-endian, if readable.
    fn memory(&self, address: u64, size: usize) -> Option<u64>;
}

/// Why a location could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The frame has no value for the register the location names.
    #[error("register R#{0} was not captured")]
    Register(u16),
    /// The frame cannot read the memory an `Indirect` location points to.
    #[error("cannot read {size} bytes at {address:#x}")]
    Memory {
        /// The address the location computes (register plus offset).
        address: u64,
        /// The number of bytes to read there (1 to 8).
        size: usize,
    },
    /// A `ConstantIndex` beyond the constant pool.
    #[error("constant index {0} is outside the constant pool")]
    ConstantIndex(u32),
}

/// The value a location holds in `frame`, in the low bytes of a `u64` (a location of more than 8
/// bytes yields its first 8). `Direct` locations yield the address they describe; `Constant`s are
/// sign-extended from 32 bits, as LLVM writes them; `ConstantIndex` reads `constants`, the section's
/// constant pool.
pub fn read_location(location: &Location, constants: &[u64], frame: &impl Frame) -> Result<u64, ReadError> {
    let size = usize::from(location.size).clamp(1, 8);
    let low_bytes = |v: u64| if size == 8 { v } else { v & ((1u64 << (8 * size)) - 1) };
    let register = |reg: u16| frame.register(reg).ok_or(ReadError::Register(reg));
    let address = || Ok(register(location.dwarf_reg)?.wrapping_add(location.offset as i64 as u64));
    match location.kind {
        LocationKind::Register => Ok(low_bytes(register(location.dwarf_reg)?)),
        LocationKind::Direct => address(),
        LocationKind::Indirect => {
            let at = address()?;
            frame.memory(at, size).ok_or(ReadError::Memory { address: at, size })
        }
        LocationKind::Constant => Ok(location.offset as i64 as u64),
        LocationKind::ConstantIndex => {
            let index = location.offset as u32;
            constants.get(index as usize).copied().ok_or(ReadError::ConstantIndex(index))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RBP = 0x1000, RBX = -2; memory holds 8 bytes of 0x11 at 0xff8.
    struct Fake;
    impl Frame for Fake {
        fn register(&self, dwarf: u16) -> Option<u64> {
            match dwarf {
                6 => Some(0x1000),
                3 => Some(-2i64 as u64),
                _ => None,
            }
        }
        fn memory(&self, address: u64, size: usize) -> Option<u64> {
            (address == 0xff8).then(|| 0x1111_1111_1111_1111 & (u64::MAX >> (64 - 8 * size)))
        }
    }

    #[test]
    fn every_kind_of_location() {
        let pool = [1 << 40];
        assert_eq!(read_location(&Location::register(3, 8), &pool, &Fake), Ok(-2i64 as u64));
        assert_eq!(read_location(&Location::register(3, 4), &pool, &Fake), Ok(0xffff_fffe));
        assert_eq!(read_location(&Location::register(3, 16), &pool, &Fake), Ok(-2i64 as u64));
        assert_eq!(read_location(&Location::direct(6, -8, 8), &pool, &Fake), Ok(0xff8));
        assert_eq!(read_location(&Location::indirect(6, -8, 2), &pool, &Fake), Ok(0x1111));
        assert_eq!(read_location(&Location::constant(-1), &pool, &Fake), Ok(u64::MAX));
        assert_eq!(read_location(&Location::constant_index(0), &pool, &Fake), Ok(1 << 40));
        assert_eq!(read_location(&Location::register(7, 8), &pool, &Fake), Err(ReadError::Register(7)));
        assert_eq!(
            read_location(&Location::indirect(6, 8, 8), &pool, &Fake),
            Err(ReadError::Memory { address: 0x1008, size: 8 })
        );
        assert_eq!(read_location(&Location::constant_index(1), &pool, &Fake), Err(ReadError::ConstantIndex(1)));
    }
}
