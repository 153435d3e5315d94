//! Turning what Cranelift reports about a compiled function into finished stack map records: the
//! offset of each point, where each live value is, whether the shadow holds, and the bytes to nop.
//!
//! Input: the points the lowering planned, the compiled code (the `stackmap` instructions' records,
//! relocations of the patch point and pad dummies, call sites with their exception Context
//! locations, frame layout). Output: records in code order.

use cranelift_codegen::ir::{self as clif, ExternalName};
use cranelift_codegen::{CompiledCode, MachBufferFrameLayout, RegClass, StackmapLoc};
use cranelift_codegen::{ExceptionContextLoc, FinalizedMachExceptionHandler, FinalizedRelocTarget};

use super::Arch;
use crate::ir::Type;
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

/// The code ranges `[start, end)` to turn into nops: patch point calls and pads.
pub type NopRanges = Vec<(u32, u32)>;

/// Resolves `planned` against `compiled` (whose function is `func`). An error is something
/// Cranelift reported that the mechanism does not expect.
pub fn resolve(
    arch: Arch,
    planned: &[PlannedPoint],
    func: &clif::Function,
    compiled: &CompiledCode,
) -> Result<(Vec<PointRecord>, NopRanges), String> {
    let buffer = &compiled.buffer;
    let len = arch.call_len();
    // Each patch point's dummy call is found through its relocation: x86-64's rel32 sits after the
    // opcode byte.
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
    let layout = buffer.frame_layout().ok_or("no frame layout")?;
    let fp = arch.frame_pointer();
    let indirect = |sp_offset: u32, ty: &Type| -> Result<Location, String> {
        Ok(Location::indirect(fp, fp_offset(layout, sp_offset)?, arch.spill_size(ty)))
    };

    let mut records = Vec::with_capacity(planned.len());
    // Stack maps: the `stackmap` instructions' own records. Cranelift removes code it proves
    // unreachable (a branch on a constant, say): like LLVM, no record for a point not in the code.
    for stackmap in buffer.stackmaps() {
        let point = &planned[stackmap.id as usize];
        let mut locations = Vec::with_capacity(point.locations.len());
        for planned_location in &point.locations {
            let location = match planned_location {
                PlannedLocation::Live { index, ty } => {
                    let found = stackmap.locations.get(*index).ok_or("a stackmap lost an operand")?;
                    match *found {
                        StackmapLoc::Reg(reg) => {
                            let hw = reg.hw_enc();
                            let dwarf = match reg.class() {
                                RegClass::Int => arch.gpr_dwarf(hw),
                                RegClass::Float | RegClass::Vector => arch.float_dwarf(hw),
                            };
                            let dwarf = dwarf.ok_or_else(|| format!("register {reg:?} has no DWARF number"))?;
                            PointLocation::Machine(Location::register(dwarf, arch.register_size(ty)))
                        }
                        StackmapLoc::SPOffset(offset) => PointLocation::Machine(indirect(offset, ty)?),
                        // Cranelift folded the value to a constant.
                        StackmapLoc::Const(bits) => {
                            let width = ty.int_bits().unwrap_or(64).min(64) as u32;
                            let value = ((bits << (64 - width)) as i64) >> (64 - width);
                            PointLocation::Constant(arch.recorded_constant(value, ty))
                        }
                    }
                }
                other => fixed_location(arch, fp, layout, other)?,
            };
            locations.push(location);
        }
        records.push(PointRecord {
            id: point.id,
            offset: stackmap.offset,
            shadow: point.shadow,
            locations,
            live_outs: Vec::new(),
            target: None,
        });
    }
    // Patch points: their try_call's Context items.
    for (i, point) in planned.iter().enumerate() {
        let Some(start) = starts[i] else { continue };
        let site = buffer
            .call_sites()
            .find(|s| s.ret_addr == start + len)
            .ok_or_else(|| format!("patch point {} has no call site", point.id))?;
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
                PlannedLocation::Live { index, ty } => match context.get(*index) {
                    Some(ExceptionContextLoc::GPR(hw)) if !ty.is_float() => {
                        let reg = arch.gpr_dwarf(*hw).ok_or_else(|| format!("register encoding {hw}"))?;
                        PointLocation::Machine(Location::register(reg, arch.register_size(ty)))
                    }
                    Some(ExceptionContextLoc::SPOffset(off)) => PointLocation::Machine(indirect(*off, ty)?),
                    other => {
                        return Err(format!("patch point {}: live value {index} of type {ty} at {other:?}", point.id))
                    }
                },
                other => fixed_location(arch, fp, layout, other)?,
            });
        }
        // The region must be the call and its pads back to back: the runtime overwrites all of
        // it, so no code of ours may sit in between.
        let whole = (1..=point.pads).all(|k| nops.iter().any(|&(s, _)| s == start + k * len));
        if !whole {
            return Err(format!("the register allocator placed code inside the region of patch point {}", point.id));
        }
        // The result's register is live out of the region too.
        let mut live_outs = arch.preserved_registers().to_vec();
        if let Some(result) = point.result_register {
            live_outs.push(result);
            live_outs.sort_unstable();
        }
        records.push(PointRecord {
            id: point.id,
            offset: start,
            shadow: point.shadow,
            locations,
            live_outs,
            target: point.region,
        });
    }
    records.sort_by_key(|r| r.offset);
    Ok((records, nops))
}

/// The FP-relative offset of an SP-relative one (SP is fixed in the body).
fn fp_offset(layout: &MachBufferFrameLayout, sp_offset: u32) -> Result<i32, String> {
    let offset = i64::from(sp_offset) - i64::from(layout.frame_to_fp_offset);
    i32::try_from(offset).map_err(|_| format!("frame offset {offset} does not fit 32 bits"))
}

/// A location the lowering fixed before compiling: a constant, an alloca's address, a register the
/// convention chose.
fn fixed_location(
    arch: Arch,
    fp: u16,
    layout: &MachBufferFrameLayout,
    planned: &PlannedLocation,
) -> Result<PointLocation, String> {
    Ok(match planned {
        PlannedLocation::Constant(v) => PointLocation::Constant(*v),
        PlannedLocation::Direct(slot) => {
            PointLocation::Machine(Location::direct(fp, fp_offset(layout, layout.stackslots[*slot].offset)?, 8))
        }
        PlannedLocation::Register { dwarf, ty } => {
            PointLocation::Machine(Location::register(*dwarf, arch.register_size(ty)))
        }
        PlannedLocation::Live { .. } => unreachable!("live values are found in the compiled code"),
    })
}
