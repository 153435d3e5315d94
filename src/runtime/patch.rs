//! Rewriting machine code in place: a stack map's shadow or a patch point's region.
//!
//! The region is made writable (and not executable) while it is written, then executable again, so
//! a page is never writable and executable at once; on AArch64 the instruction cache is made coherent
//! with the new bytes before they can run. The caller must make sure no thread executes the region
//! while it is being patched (as with any code patching that does not use atomic stores).

use crate::arch::{Arch, OutOfReach};

/// Why a patch was refused.
#[derive(Debug, thiserror::Error)]
pub enum PatchError {
    /// The new code is longer than the region it must fit in.
    #[error("{needed} bytes of code do not fit in a {len}-byte region")]
    TooLong {
        /// The length of the new code in bytes.
        needed: usize,
        /// The length of the region in bytes.
        len: usize,
    },
    /// AArch64 code is a whole number of 4-byte instructions.
    #[error("code and regions must be whole instructions long, got {0} bytes")]
    Unaligned(usize),
    /// An address does not fit the call sequence (AArch64 reaches 48-bit addresses, as LLVM's does).
    #[error(transparent)]
    OutOfReach(#[from] OutOfReach),
    /// Changing the pages' protection failed.
    #[error("cannot change the protection of the code pages: {0}")]
    Protection(String),
}

/// Writes `code` at the start of the `len`-byte region at `address` and fills the rest with nops,
/// then flushes the instruction cache (AArch64).
///
/// Protection works on whole pages: every page the region touches is made writable and not
/// executable while it is written (W^X), then gets back the protection it had before, page range by
/// page range. Other code on those pages cannot run meanwhile.
///
/// # Safety
/// `address..address + len` must be code this process mapped (JIT code, or the text of a loaded
/// object), and no thread may execute code on the pages it touches during the call.
pub unsafe fn patch_code(arch: Arch, address: *mut u8, len: usize, code: &[u8]) -> Result<(), PatchError> {
    if code.len() > len {
        return Err(PatchError::TooLong { needed: code.len(), len });
    }
    let whole = |n: usize| n.is_multiple_of(arch.instruction_size() as usize);
    if !whole(code.len()) || !whole(len) {
        return Err(PatchError::Unaligned(if !whole(code.len()) { code.len() } else { len }));
    }
    let mut bytes = code.to_vec();
    bytes.resize(len, 0);
    arch.write_nops(&mut bytes[code.len()..]);
    let error = |e: region::Error| PatchError::Protection(e.to_string());
    // The protection of each mapping the region overlaps, clipped to the region.
    let start = address as usize;
    let previous = region::query_range(address, len)
        .map_err(error)?
        .map(|r| {
            let r = r.map_err(error)?;
            let from = (r.as_ptr::<u8>() as usize).max(start);
            let to = (r.as_ptr::<u8>() as usize + r.len()).min(start + len);
            Ok((from, to - from, r.protection()))
        })
        .collect::<Result<Vec<_>, PatchError>>()?;
    // SAFETY: the caller vouches that the range is this process's code that no thread runs now.
    unsafe {
        region::protect(address, len, region::Protection::READ_WRITE).map_err(error)?;
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), address, len);
        for &(from, size, protection) in &previous {
            region::protect(from as *const u8, size, protection).map_err(error)?;
        }
    }
    flush_instruction_cache(arch, address, len);
    Ok(())
}

/// Makes instruction fetch see bytes just written: nothing to do on x86-64 (coherent caches); on
/// AArch64, clean the data cache and invalidate the instruction cache by line, then synchronise.
#[allow(unused_variables)]
pub(crate) fn flush_instruction_cache(arch: Arch, address: *mut u8, len: usize) {
    // Only code of the host's own architecture runs here, so only the host's maintenance exists.
    #[cfg(target_arch = "aarch64")]
    if !arch.coherent_instruction_cache() {
        // 64 bytes is the smallest line size ARMv8 cores use; stepping by it covers any larger line.
        const LINE: usize = 64;
        let start = address as usize & !(LINE - 1);
        let end = address as usize + len;
        // SAFETY: cache maintenance by virtual address on mapped code has no other effect.
        unsafe {
            let mut line = start;
            while line < end {
                std::arch::asm!("dc cvau, {0}", in(reg) line);
                line += LINE;
            }
            std::arch::asm!("dsb ish");
            let mut line = start;
            while line < end {
                std::arch::asm!("ic ivau, {0}", in(reg) line);
                line += LINE;
            }
            std::arch::asm!("dsb ish", "isb");
        }
    }
}
