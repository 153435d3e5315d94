//! Rewriting machine code in place: a stack map's shadow or a patch point's region.
//!
//! The region is made writable (and not executable) while it is written, then executable again, so
//! a page is never writable and executable at once; on AArch64 the instruction cache is made coherent
//! with the new bytes before they can run. The caller must make sure no thread executes the region
//! while it is being patched (as with any code patching that does not use atomic stores).

/// The instruction set of the code being patched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchTarget {
    /// x86-64: variable-length instructions, coherent instruction cache.
    X86_64,
    /// AArch64: 4-byte instructions; the instruction cache is flushed after patching.
    Aarch64,
}

impl PatchTarget {
    /// The instruction set of this process's own code, where the JIT runs: `None` on other hosts.
    pub fn host() -> Option<PatchTarget> {
        match std::env::consts::ARCH {
            "x86_64" => Some(PatchTarget::X86_64),
            "aarch64" => Some(PatchTarget::Aarch64),
            _ => None,
        }
    }
}

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
    #[error("AArch64 code must be a multiple of 4 bytes long, got {0}")]
    Unaligned(usize),
    /// An address does not fit the call sequence (AArch64 reaches 48-bit addresses, as LLVM's does).
    #[error("address {0:#x} is out of reach of the call sequence")]
    OutOfReach(u64),
    /// Changing the pages' protection failed.
    #[error("cannot change the protection of the code pages: {0}")]
    Protection(String),
}

/// The code LLVM puts in a patch point region to call `target`: `movabs r11, target; call r11`
/// (13 bytes) on x86-64; `movz/movk/movk x16, target; blr x16` (16 bytes, 48-bit addresses) on AArch64.
/// Both use the scratch register LLVM reserves for this, which no stack map location names.
pub fn encode_call(arch: PatchTarget, target: u64) -> Result<Vec<u8>, PatchError> {
    match arch {
        PatchTarget::X86_64 => {
            let mut code = vec![0x49, 0xbb];
            code.extend_from_slice(&target.to_le_bytes());
            code.extend_from_slice(&[0x41, 0xff, 0xd3]);
            Ok(code)
        }
        PatchTarget::Aarch64 => {
            if target >> 48 != 0 {
                return Err(PatchError::OutOfReach(target));
            }
            let imm = |shift: u32| ((target >> shift) & 0xffff) as u32;
            let words = [
                0xd2c0_0010 | imm(32) << 5, // movz x16, #hi, lsl #32
                0xf2a0_0010 | imm(16) << 5, // movk x16, #mid, lsl #16
                0xf280_0010 | imm(0) << 5,  // movk x16, #lo
                0xd63f_0200,                // blr x16
            ];
            Ok(words.iter().flat_map(|w| w.to_le_bytes()).collect())
        }
    }
}

/// A call to `target` that leaves every register as it was except the return address, for patching a
/// stack map's shadow with a call to an exit stub: the stub then sees each live value where the
/// record says it is. x86-64: `call [rip + 0]` and the 8-byte address (14 bytes; the return address
/// is the point + 6). AArch64: `ldr x16, #8; blr x16` and the address (16 bytes; x30 is the point +
/// 8): x16 (IP0) and x30 are registers no stack map location names, as neither is allocatable.
pub fn encode_exit_call(arch: PatchTarget, target: u64) -> Vec<u8> {
    let mut code = match arch {
        PatchTarget::X86_64 => vec![0xff, 0x15, 0, 0, 0, 0],
        PatchTarget::Aarch64 => [0x5800_0050u32, 0xd63f_0200].iter().flat_map(|w| w.to_le_bytes()).collect(),
    };
    code.extend_from_slice(&target.to_le_bytes());
    code
}

/// How far past the patched point the return address of [`encode_exit_call`]'s call lies: an exit
/// stub subtracts it to find the record it was called from.
pub fn exit_call_return_offset(arch: PatchTarget) -> u64 {
    match arch {
        PatchTarget::X86_64 => 6,
        PatchTarget::Aarch64 => 8,
    }
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
pub unsafe fn patch_code(arch: PatchTarget, address: *mut u8, len: usize, code: &[u8]) -> Result<(), PatchError> {
    if code.len() > len {
        return Err(PatchError::TooLong { needed: code.len(), len });
    }
    if arch == PatchTarget::Aarch64 && (!code.len().is_multiple_of(4) || !len.is_multiple_of(4)) {
        return Err(PatchError::Unaligned(if !code.len().is_multiple_of(4) { code.len() } else { len }));
    }
    let mut bytes = code.to_vec();
    bytes.resize(len, 0);
    write_nops(arch, &mut bytes[code.len()..]);
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

/// Fills `bytes` with the nops llc-19 emits: on x86-64 its longest-first encodings of at most 10
/// bytes (`emitX86Nops` without `-mcpu`, displacements 8 and 512); on AArch64 `hint #0` (`bytes` a
/// multiple of 4 long).
pub fn write_nops(arch: PatchTarget, bytes: &mut [u8]) {
    const X86: [&[u8]; 11] = [
        &[],
        &[0x90],
        &[0x66, 0x90],
        &[0x0f, 0x1f, 0x00],
        &[0x0f, 0x1f, 0x40, 0x08],
        &[0x0f, 0x1f, 0x44, 0x00, 0x08],
        &[0x66, 0x0f, 0x1f, 0x44, 0x00, 0x08],
        &[0x0f, 0x1f, 0x80, 0x00, 0x02, 0x00, 0x00],
        &[0x0f, 0x1f, 0x84, 0x00, 0x00, 0x02, 0x00, 0x00],
        &[0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x02, 0x00, 0x00],
        &[0x2e, 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x02, 0x00, 0x00],
    ];
    match arch {
        PatchTarget::X86_64 => {
            let mut rest = bytes;
            while !rest.is_empty() {
                let n = rest.len().min(X86.len() - 1);
                let (head, tail) = rest.split_at_mut(n);
                head.copy_from_slice(X86[n]);
                rest = tail;
            }
        }
        PatchTarget::Aarch64 => {
            for word in bytes.chunks_exact_mut(4) {
                word.copy_from_slice(&0xd503_201fu32.to_le_bytes());
            }
        }
    }
}

/// Makes instruction fetch see bytes just written: nothing to do on x86-64 (coherent caches); on
/// AArch64, clean the data cache and invalidate the instruction cache by line, then synchronise.
#[allow(unused_variables)]
fn flush_instruction_cache(arch: PatchTarget, address: *mut u8, len: usize) {
    #[cfg(target_arch = "aarch64")]
    if arch == PatchTarget::Aarch64 {
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
