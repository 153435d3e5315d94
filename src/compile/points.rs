//! Turning what Cranelift reports about a compiled function into finished stack map records: the
//! offset of each point, where each live value is, whether the shadow holds, and the bytes to nop.
//!
//! Input: the points the lowering planned, the compiled code (the records of the `stackmap` and
//! `patchpoint` instructions, frame layout). Output: records in code order.

use cranelift_codegen::isa::unwind::UnwindInst;
use cranelift_codegen::{CompiledCode, MachBufferFrameLayout, RegClass, StackmapLoc};

use super::CodegenFailure;
use crate::arch::{Arch, Scalar};
use crate::lower::points::{CallTarget, Returned, StatepointOffset};
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
    /// The length of the call that returns to `offset`: statepoints (and `"deopt"` calls, lowered
    /// as statepoints) with a call, and stack maps right after a call; 0 for every other record,
    /// which is not at a return address. `None`: a call whose length the target's decoder cannot tell from the bytes before
    /// its return address (`Arch::call_length`). Only the frame-table layout stores call sizes, and
    /// it refuses such a record ([`crate::emit::section::stack_map`]) rather than guess; the other
    /// versions do not need it.
    pub call_size: Option<u8>,
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

/// Resolves `planned` against `compiled`: the records of the `stackmap` and `patchpoint`
/// instructions, in code order. An error is something Cranelift reported that the mechanism does
/// not expect.
pub fn resolve(
    arch: Arch,
    planned: &[PlannedPoint],
    compiled: &CompiledCode,
) -> Result<Vec<PointRecord>, CodegenFailure> {
    let buffer = &compiled.buffer;
    let layout = buffer.frame_layout().ok_or(CodegenFailure::NoFrameLayout)?;
    let dwarf = |class: RegClass, hw: u8| -> Result<u16, CodegenFailure> {
        let (dwarf, class) = match class {
            RegClass::Int => (arch.gpr_dwarf(hw), "integer"),
            RegClass::Float => (arch.float_dwarf(hw), "float"),
            RegClass::Vector => (arch.float_dwarf(hw), "vector"),
        };
        dwarf.ok_or(CodegenFailure::UnknownRegister { class, hw })
    };
    let mut records = Vec::with_capacity(planned.len());
    let mut return_addresses: Vec<u32> = buffer.call_sites().map(|c| c.ret_addr).collect();
    return_addresses.sort_unstable();
    let mut relocated: Vec<usize> = buffer.relocs().iter().map(|r| r.offset as usize).collect();
    relocated.sort_unstable();
    let saved = saved_registers(arch, compiled)?;
    // The patch points' offsets, in code order (a region of 0 bytes starts where the next begins).
    let is_asm = |id: u64| planned[id as usize].region == Some(CallTarget::InlineAsmNops);
    let patch_point_starts: Vec<u32> =
        buffer.stackmaps().filter(|s| s.patchpoint && !is_asm(s.id)).map(|s| s.offset).collect();
    let mut patch_points_seen = 0;
    // Cranelift removes code it proves unreachable (a branch on a constant, say): like LLVM, no
    // record for a point not in the code.
    for stackmap in buffer.stackmaps() {
        let point = &planned[stackmap.id as usize];
        // The size of each register whose value the record names: llc-19 records a live-out
        // register at the width of the value in it (its widest live sub-register).
        let mut held: Vec<(u16, u8)> = Vec::new();
        if is_asm(stackmap.id) {
            // Its region, for `compile` to fill; no live values, no live-outs.
            records.push(PointRecord {
                id: point.id,
                offset: stackmap.offset,
                shadow: point.shadow,
                locations: Vec::new(),
                live_outs: Vec::new(),
                target: point.region,
                call_size: Some(0),
            });
            continue;
        }
        let mut locations = Vec::with_capacity(point.locations.len());
        for planned_location in &point.locations {
            let location = match planned_location {
                &PlannedLocation::Live { index, value } => {
                    let found = stackmap.locations.get(index).ok_or(CodegenFailure::LostOperand)?;
                    match *found {
                        StackmapLoc::Reg(reg) => {
                            let register = dwarf(reg.class(), reg.hw_enc())?;
                            held.push((register, arch.live_out_size(value)));
                            PointLocation::Machine(Location::register(register, arch.register_size(value)))
                        }
                        StackmapLoc::SPOffset(offset) => {
                            let (base, offset) = frame_address(arch, layout, offset)?;
                            PointLocation::Machine(Location::indirect(base, offset, arch.spill_size(value)))
                        }
                        // Cranelift folded the value to a constant.
                        StackmapLoc::Const(bits) => {
                            let width = match value {
                                Scalar::Int(bits) => bits.min(64),
                                Scalar::F16 | Scalar::F32 | Scalar::F64 => 64,
                            };
                            let extended = ((bits << (64 - u32::from(width))) as i64) >> (64 - u32::from(width));
                            PointLocation::Constant(arch.recorded_constant(extended, width))
                        }
                    }
                }
                other => fixed_location(arch, layout, other)?,
            };
            locations.push(location);
        }
        // Statepoints record none, as llc-19.
        let live_outs = if stackmap.patchpoint && point.statepoint.is_none() {
            let region_end = stackmap.offset + point.shadow;
            // Nothing after the region reads SP when another patch point or a trap (`unreachable`:
            // LLVM's block then has no live-outs) starts where it ends.
            // An invoked region ends its block: LLVM's live-outs are then its successors' live-ins,
            // which list the landing pad's exception registers and never SP.
            let invoked = buffer.call_sites().any(|c| c.ret_addr == region_end && !c.exception_handlers.is_empty());
            let sp_unread = patch_point_starts.get(patch_points_seen + 1) == Some(&region_end)
                || buffer.data().get(region_end as usize..).is_none_or(|after| arch.starts_with_trap(after))
                || invoked;
            // The region writes only its results (and clobbers): a register that held an operand at
            // its start and is live after it holds that operand still, unless a result is there.
            match &point.returned {
                Some(Returned::Scalar(value)) => {
                    let register = match value {
                        Scalar::Int(_) => arch.integer_result(),
                        Scalar::F16 | Scalar::F32 | Scalar::F64 => {
                            arch.float_dwarf(0).ok_or(CodegenFailure::LostOperand)?
                        }
                    };
                    held.insert(0, (register, arch.live_out_size(*value)));
                }
                Some(Returned::Vector(pieces)) => {
                    for (i, &bytes) in pieces.iter().enumerate() {
                        let register = arch.float_dwarf(i as u8).ok_or(CodegenFailure::LostOperand)?;
                        held.insert(i, (register, arch.vector_live_out_size(bytes)));
                    }
                }
                None => {}
            }
            let mut live_outs = Vec::new();
            for &reg in stackmap.live_outs {
                let register = dwarf(reg.class(), reg.hw_enc())?;
                let size = match (held.iter().find(|h| h.0 == register), reg.class()) {
                    (Some(&(_, size)), _) => size,
                    (None, RegClass::Int) => 8,
                    (None, RegClass::Float | RegClass::Vector) => arch.float_live_out_size(),
                };
                live_outs.push((register, size));
            }
            live_outs.extend(live_outs_beyond_allocation(arch, &saved, sp_unread));
            if invoked {
                live_outs.extend(arch.landing_pad_registers().map(|r| (r, 8)));
            }
            live_outs.sort_unstable();
            live_outs.dedup_by_key(|l| l.0);
            live_outs
        } else {
            Vec::new()
        };
        if stackmap.patchpoint {
            patch_points_seen += 1;
        }
        let call_size_at = |at: u32| arch.call_length(buffer.data(), at, |at| relocated.binary_search(&at).is_ok());
        let (offset, shadow, call_size) = match point.statepoint {
            // A stack map right after a call (nothing between) is at the call's return address,
            // where a walk arrives: the call's size, as for statepoints.
            None if !stackmap.patchpoint && return_addresses.binary_search(&stackmap.offset).is_ok() => {
                (stackmap.offset, point.shadow, call_size_at(stackmap.offset))
            }
            None => (stackmap.offset, point.shadow, Some(0)),
            Some(StatepointOffset::ReturnAddress) => {
                let after = return_addresses.partition_point(|&r| r <= stackmap.offset);
                let r = *return_addresses.get(after).ok_or(CodegenFailure::LostStatepointCall { id: point.id })?;
                (r, 0, call_size_at(r))
            }
            Some(StatepointOffset::RegionEnd) => (stackmap.offset + point.shadow, 0, Some(0)),
            Some(StatepointOffset::Recorded) => {
                let r = stackmap.offset;
                if return_addresses.binary_search(&r).is_err() {
                    return Err(CodegenFailure::LostStatepointCall { id: point.id });
                }
                // Cranelift knows the call's length: `call *%reg` may follow a byte that reads like
                // the REX prefix of another register, which the decoder refuses to guess.
                (r, 0, u8::try_from(stackmap.call_bytes).ok().filter(|&n| n > 0))
            }
        };
        records.push(PointRecord {
            id: point.id,
            offset,
            shadow,
            locations,
            live_outs,
            target: point.region,
            call_size,
        });
    }
    records.sort_by_key(|r| r.offset);
    Ok(records)
}

/// The live-outs of a patch point that Cranelift's liveness of the allocated code does not see, by
/// LLVM 19's rules (`StackMapLivenessAnalysis`: the block's live-outs plus the pristine registers,
/// stepped back to the point; `StackMaps::parseRegisterLiveOutMask`):
/// - the callee-saved registers the prologue did not save (`saved`): they hold the caller's values
///   until the return. A saved one is restored by the epilogue, so it is live only while it holds a
///   value of ours, which Cranelift's liveness lists;
/// - SP, which the code after the region reads (calls, frame teardown), unless (`sp_unread`)
///   another patch point's region starts where this one ends (LLVM's patch point defines SP
///   without reading it: llc-19 omits SP there, on both targets) or a trap does;
/// - the frame pointer where the epilogue reads it ([`Arch::epilogue_reads_frame_pointer`]).
fn live_outs_beyond_allocation(arch: Arch, saved: &[u16], sp_unread: bool) -> Vec<(u16, u8)> {
    let mut live: Vec<(u16, u8)> =
        arch.live_out_callee_saved().iter().copied().filter(|(reg, _)| !saved.contains(reg)).collect();
    if !sp_unread {
        live.push((arch.stack_pointer(), 8));
    }
    if arch.epilogue_reads_frame_pointer() {
        live.push((arch.frame_pointer(), 8));
    }
    live
}

/// The DWARF numbers of the registers the prologue saves (Cranelift's `SaveReg` unwind records).
fn saved_registers(arch: Arch, compiled: &CompiledCode) -> Result<Vec<u16>, CodegenFailure> {
    let mut saved = Vec::new();
    for (_, inst) in &compiled.buffer.unwind_info {
        if let UnwindInst::SaveReg { reg, .. } = *inst {
            let dwarf = match reg.class() {
                RegClass::Int => arch.gpr_dwarf(reg.hw_enc()),
                RegClass::Float | RegClass::Vector => arch.float_dwarf(reg.hw_enc()),
            };
            saved.push(dwarf.ok_or(CodegenFailure::UnknownRegister { class: "saved", hw: reg.hw_enc() })?);
        }
    }
    Ok(saved)
}

/// The base register (DWARF) and offset that name the frame address `sp_offset` bytes above SP (SP is
/// fixed in the body): FP-relative, as llc-19 records frame addresses, unless the prologue realigned
/// SP, which leaves FP at a distance from it known only at run time: then SP-relative, as llc-19
/// records them in realigned frames.
fn frame_address(arch: Arch, layout: &MachBufferFrameLayout, sp_offset: u32) -> Result<(u16, i32), CodegenFailure> {
    let (base, offset) = match layout.stack_realignment {
        Some(_) => (arch.stack_pointer(), i64::from(sp_offset)),
        None => (arch.frame_pointer(), i64::from(sp_offset) - i64::from(layout.frame_to_fp_offset)),
    };
    Ok((base, i32::try_from(offset).map_err(|_| CodegenFailure::FrameOffset(offset))?))
}

/// A location the lowering fixed before compiling: a constant or an alloca's address.
fn fixed_location(
    arch: Arch,
    layout: &MachBufferFrameLayout,
    planned: &PlannedLocation,
) -> Result<PointLocation, CodegenFailure> {
    Ok(match planned {
        PlannedLocation::Constant(v) => PointLocation::Constant(*v),
        PlannedLocation::Direct(slot) => {
            let (base, offset) = frame_address(arch, layout, layout.stackslots[*slot].offset)?;
            PointLocation::Machine(Location::direct(base, offset, 8))
        }
        PlannedLocation::Spilled { slot, size } => {
            let (base, offset) = frame_address(arch, layout, layout.stackslots[*slot].offset)?;
            PointLocation::Machine(Location::indirect(base, offset, *size))
        }
        PlannedLocation::Live { .. } => unreachable!("live values are found in the compiled code"),
    })
}
