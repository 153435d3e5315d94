//! Turning what Cranelift reports about a compiled function into finished stack map records: the
//! offset of each point, where each live value is, whether the shadow holds, and the bytes to nop.
//!
//! Input: the points the lowering planned, the compiled code (relocations of the point and pad
//! dummies, call sites with their exception Context locations, frame layout, block starts and edges).
//! Output: records in code order, or the shadow deficits that call for a compile with pads.

use cranelift_codegen::ir::{self as clif, ExternalName};
use cranelift_codegen::CompiledCode;
use cranelift_codegen::{ExceptionContextLoc, FinalizedMachExceptionHandler, FinalizedRelocTarget};

use super::Arch;
use crate::lower::points::CallTarget;
use crate::lower::points::{PAD_NAMESPACE, POINT_NAMESPACE};
use crate::lower::{PlannedLocation, PlannedPoint};
use crate::stackmap::Location;

/// A finished record of one function, before module-wide constants are pooled.
#[derive(Clone, Debug, PartialEq)]
pub struct PointRecord {
    /// The ID the IR gave the stack map or patch point.
    pub id: u64,
    /// Offset of the point from the function's start.
    pub offset: u32,
    /// Bytes from `offset` a runtime may overwrite: an instruction starts where they end.
    pub shadow: u32,
    /// One location per live operand, in operand order.
    pub locations: Vec<PointLocation>,
    /// Patch points: the registers live across the region (DWARF number, size), by number.
    pub live_outs: Vec<(u16, u8)>,
    /// Patch points: what the region calls.
    pub target: Option<CallTarget>,
}

/// A location, with constants kept as values until the module's constant pool is built.
#[derive(Clone, Debug, PartialEq)]
pub enum PointLocation {
    /// A constant operand's value; the section writer makes it a `Constant` location if it fits in
    /// 32 signed bits, else a `ConstantIndex` into the pool.
    Constant(i64),
    /// A register, direct or indirect location, final as the section will hold it.
    Machine(Location),
}

/// Why a function's points could not be resolved.
pub enum Unresolved {
    /// Point `i` needs `bytes` more bytes of code after it before its shadow ends.
    Shadow(Vec<(usize, u32)>),
    /// Cranelift reported something the mechanism does not expect.
    Internal(String),
}

/// The code ranges `[start, end)` to turn into nops: point and pad calls.
pub type NopRanges = Vec<(u32, u32)>;

/// Resolves `planned` against `compiled` (whose function is `func`).
pub fn resolve(
    arch: Arch,
    planned: &[PlannedPoint],
    func: &clif::Function,
    compiled: &CompiledCode,
) -> Result<(Vec<PointRecord>, NopRanges), Unresolved> {
    let buffer = &compiled.buffer;
    let len = arch.call_len();
    let internal = |m: String| Unresolved::Internal(m);
    // Each dummy call is found through its relocation: x86-64's rel32 sits after the opcode byte.
    let mut starts = vec![None; planned.len()];
    let mut nops: NopRanges = Vec::new();
    for reloc in buffer.relocs() {
        let FinalizedRelocTarget::ExternalName(ExternalName::User(name)) = &reloc.target else { continue };
        let name = &func.params.user_named_funcs()[*name];
        if name.namespace != POINT_NAMESPACE && name.namespace != PAD_NAMESPACE {
            continue;
        }
        let start = if arch == Arch::X86_64 { reloc.offset - 1 } else { reloc.offset };
        nops.push((start, start + len));
        if name.namespace == POINT_NAMESPACE {
            starts[name.index as usize] = Some(start);
        }
    }
    nops.sort_unstable();
    let layout = buffer.frame_layout().ok_or_else(|| internal("no frame layout".into()))?;
    let fp = arch.frame_pointer();
    let fp_offset = |sp_offset: u32| i64::from(sp_offset) - i64::from(layout.frame_to_fp_offset);

    let mut records = Vec::with_capacity(planned.len());
    let mut deficits = Vec::new();
    for (i, point) in planned.iter().enumerate() {
        // Cranelift removes code it proves unreachable (a branch on a constant, say): like LLVM, no
        // record for a point that is not in the code.
        let Some(start) = starts[i] else { continue };
        let site = buffer
            .call_sites()
            .find(|s| s.ret_addr == start + len)
            .ok_or_else(|| internal(format!("stackmap {} has no call site", point.id)))?;
        let context: Vec<ExceptionContextLoc> = site
            .exception_handlers
            .iter()
            .filter_map(|h| match h {
                FinalizedMachExceptionHandler::Context(loc) => Some(*loc),
                _ => None,
            })
            .collect();
        let mut locations = Vec::with_capacity(point.locations.len());
        for planned_location in &point.locations {
            locations.push(match planned_location {
                PlannedLocation::Constant(v) => PointLocation::Constant(*v),
                PlannedLocation::Direct(slot) => {
                    let offset = fp_offset(layout.stackslots[*slot].offset);
                    PointLocation::Machine(Location::direct(fp, to_i32(offset)?, 8))
                }
                PlannedLocation::Register { dwarf, ty } => {
                    PointLocation::Machine(Location::register(*dwarf, arch.register_size(ty)))
                }
                PlannedLocation::Live { index, ty } => match context.get(*index) {
                    Some(ExceptionContextLoc::GPR(hw)) if !ty.is_float() => {
                        let reg = arch.gpr_dwarf(*hw).ok_or_else(|| internal(format!("register encoding {hw}")))?;
                        PointLocation::Machine(Location::register(reg, arch.register_size(ty)))
                    }
                    Some(ExceptionContextLoc::SPOffset(off)) => {
                        PointLocation::Machine(Location::indirect(fp, to_i32(fp_offset(*off))?, arch.spill_size(ty)))
                    }
                    other => {
                        return Err(internal(format!(
                            "stackmap {}: live value {index} of type {ty} at {other:?}",
                            point.id
                        )))
                    }
                },
            });
        }
        let live_outs = match point.region {
            Some(_) => {
                // The region must be the call and its pads back to back: the runtime overwrites all of
                // it, so no code of ours may sit in between.
                let whole = (1..=point.pads).all(|k| nops.iter().any(|&(s, _)| s == start + k * len));
                if !whole {
                    return Err(internal(format!(
                        "the register allocator placed code inside the region of patch point {}",
                        point.id
                    )));
                }
                // The result's register is live out of the region too.
                let mut live_outs = arch.preserved_registers().to_vec();
                if let Some(result) = point.result_register {
                    live_outs.push(result);
                    live_outs.sort_unstable();
                }
                live_outs
            }
            None => {
                let available = shadow_room(arch, compiled, &starts, &nops, start);
                if available < point.shadow {
                    deficits.push((i, point.shadow - available));
                }
                Vec::new()
            }
        };
        records.push(PointRecord {
            id: point.id,
            offset: start,
            shadow: point.shadow,
            locations,
            live_outs,
            target: point.region,
        });
    }
    if !deficits.is_empty() {
        return Err(Unresolved::Shadow(deficits));
    }
    records.sort_by_key(|r| r.offset);
    Ok((records, nops))
}

fn to_i32(offset: i64) -> Result<i32, Unresolved> {
    i32::try_from(offset).map_err(|_| Unresolved::Internal(format!("frame offset {offset} does not fit 32 bits")))
}

/// Bytes from a point at `start` to the first thing a shadow must not cover, as LLVM bounds it: the
/// end of the point's block, another point, the return address of a real call (a frame suspended in
/// that call returns there after the shadow has been overwritten), or the end of the code. The block
/// a point's own dummy call ends (the `try_call` continuation) is the same straight-line block.
fn shadow_room(arch: Arch, compiled: &CompiledCode, points: &[Option<u32>], nops: &NopRanges, start: u32) -> u32 {
    let len = arch.call_len();
    let dummy_end = |offset: u32| nops.iter().any(|&(_, end)| end == offset);
    let mut limit = compiled.buffer.data().len() as u32;
    for &other in points.iter().flatten() {
        if other > start {
            limit = limit.min(other);
        }
    }
    for site in compiled.buffer.call_sites() {
        if site.ret_addr > start + len && !dummy_end(site.ret_addr) {
            limit = limit.min(site.ret_addr);
        }
    }
    for &block in &compiled.bb_starts {
        if block > start && !dummy_end(block) {
            limit = limit.min(block);
        }
    }
    limit - start
}
