//! Memory as interpreted code sees it: the process's own. Loads and stores go through raw pointers,
//! so addresses an embedder passes in (a stopped JIT frame's allocas, the JIT's globals) just work;
//! allocas and the interpreter's own globals are heap blocks it allocates and frees.

use std::alloc::{self, Layout};
use std::ptr::NonNull;

use super::scalar;
use crate::ir::{Const, Init, Symbol, Type};

/// The largest single allocation the interpreter makes, so that a wild `alloca` count is an error
/// rather than an abort of the whole process.
const MAX_ALLOCATION: u64 = 1 << 30;

/// A zeroed heap block the interpreter owns: an alloca of one frame, or a global it initialised.
pub struct Allocation {
    ptr: NonNull<u8>,
    layout: Layout,
}

impl Allocation {
    /// `size` zeroed bytes (at least one, so that every object has its own address) aligned to `align`.
    pub fn zeroed(size: u64, align: u64) -> Result<Allocation, String> {
        if size > MAX_ALLOCATION {
            return Err(format!("cannot allocate {size} bytes: the interpreter's limit is {MAX_ALLOCATION}"));
        }
        let layout = Layout::from_size_align(size.max(1) as usize, align as usize).map_err(|_| {
            format!("cannot allocate {size} bytes aligned to {align}: the alignment is not a power of 2")
        })?;
        // SAFETY: the layout's size is non-zero.
        let ptr = NonNull::new(unsafe { alloc::alloc_zeroed(layout) })
            .ok_or_else(|| format!("out of memory allocating {size} bytes"))?;
        Ok(Allocation { ptr, layout })
    }

    pub fn address(&self) -> u64 {
        self.ptr.as_ptr() as u64
    }

    /// Writes a global's initial contents, of type `ty`, at the start of the block; `address_of`
    /// gives the address of a global or function the contents point to.
    pub fn initialise(&mut self, ty: &Type, init: &Init, address_of: &Addresses<'_>) {
        // SAFETY: the block holds `ty.alloc_size()` bytes, which is what `write_init` writes at most.
        unsafe { write_init(self.address(), ty, init, address_of) }
    }
}

impl Drop for Allocation {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this layout.
        unsafe { alloc::dealloc(self.ptr.as_ptr(), self.layout) }
    }
}

/// What the addresses in constants are: a global's or function's, and a `blockaddress`'s number.
pub struct Addresses<'a> {
    /// The address of a global or function.
    pub symbol: &'a dyn Fn(Symbol) -> u64,
    /// The value of a `blockaddress` (`ir::Module::block_address_value`).
    pub block: &'a dyn Fn(&crate::ir::BlockAddress) -> u64,
}

/// Writes the initialiser `init` of type `ty` at `address`.
///
/// # Safety
/// `address` must be writable for `ty.alloc_size()` bytes.
unsafe fn write_init(address: u64, ty: &Type, init: &Init, address_of: &Addresses<'_>) {
    match (init, ty) {
        // SAFETY: the constant lies within the block (the caller's contract).
        (Init::Scalar(c), _) => unsafe { write_constant(address, ty, c, address_of) },
        (Init::Array(items) | Init::Struct(items), _) => {
            for (i, item) in items.iter().enumerate() {
                let Some((member, offset)) = ty.member(i as u64) else { break };
                // SAFETY: member i lies within the block.
                unsafe { write_init(address + offset, member, item, address_of) };
            }
        }
        (Init::Bytes(bytes), _) => {
            let len = bytes.len().min(ty.alloc_size() as usize);
            // SAFETY: at most `ty.alloc_size()` bytes, within the block.
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), address as *mut u8, len) };
        }
        // The block starts zeroed; a verified module has no other combination.
        _ => {}
    }
}

/// Writes constant `c` of type `ty` (a scalar or an aggregate) at `address`; `zeroinitializer`,
/// `undef` and `poison` write zeros.
///
/// # Safety
/// `address` must be writable for `ty.alloc_size()` bytes.
pub unsafe fn write_constant(address: u64, ty: &Type, c: &Const, address_of: &Addresses<'_>) {
    match c {
        // A vector's lanes, packed (a mask's a bit each).
        Const::Aggregate(items) if ty.is_vector() => {
            let elem = ty.lane_type();
            for (i, item) in items.iter().enumerate() {
                if *elem == Type::I1 {
                    let bit = u8::from(scalar::constant(item, elem) & 1 != 0) << (i % 8);
                    // SAFETY: byte i / 8 lies within the vector's bytes.
                    unsafe { *((address + i as u64 / 8) as *mut u8) |= bit };
                } else {
                    // SAFETY: lane i lies within the vector's bytes.
                    unsafe { write_constant(address + i as u64 * elem.store_size(), elem, item, address_of) };
                }
            }
        }
        Const::Aggregate(items) => {
            for (i, item) in items.iter().enumerate() {
                let Some((member, offset)) = ty.member(i as u64) else { break };
                // SAFETY: member i lies within the `ty.alloc_size()` bytes.
                unsafe { write_constant(address + offset, member, item, address_of) };
            }
        }
        // SAFETY: within the bytes (the caller's contract).
        Const::Zero | Const::Undef | Const::Poison if ty.is_split() => unsafe {
            std::ptr::write_bytes(address as *mut u8, 0, ty.alloc_size() as usize)
        },
        // SAFETY: a pointer within the bytes.
        Const::Address(symbol, offset) => unsafe {
            store(&Type::PTR, address, (address_of.symbol)(*symbol).wrapping_add(i64::from(*offset) as u64))
        },
        // SAFETY: an integer within the bytes.
        Const::Relative(r) => unsafe {
            let distance = (address_of.symbol)(r.target).wrapping_sub((address_of.symbol)(r.base));
            store(ty, address, distance.wrapping_add(i64::from(r.offset) as u64))
        },
        // SAFETY: a pointer within the bytes.
        Const::BlockAddress(b) => unsafe { store(&Type::PTR, address, (address_of.block)(b)) },
        // SAFETY: an integer within the bytes.
        Const::LabelDifference(pair) => unsafe {
            store(ty, address, (address_of.block)(&pair.0).wrapping_sub((address_of.block)(&pair.1)))
        },
        // SAFETY: a scalar within the bytes.
        _ => unsafe { store(ty, address, scalar::constant(c, ty)) },
    }
}

/// Reads a scalar of type `ty` at `address` (any alignment).
///
/// # Safety
/// `address` must be readable for `ty.alloc_size()` bytes.
pub unsafe fn load(ty: &Type, address: u64) -> u64 {
    let p = address as *const u8;
    // SAFETY: `ty.alloc_size()` readable bytes (the caller's contract); unaligned reads.
    unsafe {
        match ty {
            // LLVM leaves a stored i1 byte other than 0 or 1 undefined; read its low bit.
            Type::Int(1) => u64::from(p.read() & 1),
            Type::Int(8) => u64::from(p.read()),
            Type::Int(16) | Type::Half => u64::from(p.cast::<u16>().read_unaligned()),
            Type::Int(32) | Type::Float => u64::from(p.cast::<u32>().read_unaligned()),
            // Other widths read their store size (3 bytes for an i24), keeping N bits.
            Type::Int(bits) if *bits < 64 => {
                let mut bytes = [0u8; 8];
                std::ptr::copy_nonoverlapping(p, bytes.as_mut_ptr(), usize::from(bits.div_ceil(8)));
                scalar::mask(*bits, u64::from_le_bytes(bytes))
            }
            _ => p.cast::<u64>().read_unaligned(),
        }
    }
}

/// Writes the scalar `bits` of type `ty` at `address` (any alignment).
///
/// # Safety
/// `address` must be writable for `ty.alloc_size()` bytes.
pub unsafe fn store(ty: &Type, address: u64, bits: u64) {
    let p = address as *mut u8;
    // SAFETY: `ty.alloc_size()` writable bytes (the caller's contract); unaligned writes.
    unsafe {
        match ty.store_size() {
            1 => p.write(bits as u8),
            2 => p.cast::<u16>().write_unaligned(bits as u16),
            4 => p.cast::<u32>().write_unaligned(bits as u32),
            8 => p.cast::<u64>().write_unaligned(bits),
            // 3, 5, 6 or 7 bytes (an i24, i40...): no more than the store size is written.
            n => std::ptr::copy_nonoverlapping(bits.to_le_bytes().as_ptr(), p, n as usize),
        }
    }
}
