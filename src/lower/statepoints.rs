//! Lowering of `llvm.experimental.gc.statepoint` and of the `gc.result` and `gc.relocate` calls
//! of its token, as llc-19 lowers them by default:
//!
//! - before the call, each recorded value that is not a constant or a static alloca is stored in a
//!   frame slot of its own, and the record names the slot (`Indirect [FP + offset]`); a collector
//!   that moves an object rewrites the slot;
//! - the call is an ordinary call (NUMPATCHBYTES = 0; the record's offset is its return address,
//!   found through a zero-byte `stackmap` marker just before it) or a region of nops for a runtime
//!   to patch (the record's offset is the region's end);
//! - right after it, every `gc.relocate` of the token reads its pointer back from the slot, so the
//!   code sees what the collector left there.
//!
//! An ordinary call with a `"deopt"` bundle is lowered the same way, as llc-19 makes it a statepoint.
//!
//! An `invoke` of a statepoint is the same with a `try_call`: the `gc.relocate`s of the landing
//! pad's token read the same record's slots as the pad is entered (the unwinder leaves the frame as
//! the collector rewrote it), as llc-19 reads them.
//!
//! With llc-19's options `-max-registers-for-gc-values=N` and `-use-registers-for-deopt-values`
//! ([`StatepointRegisters`]), a statepoint with a call (NUMPATCHBYTES = 0) is the vendored
//! `statepoint_call` instead: up to N of its GC pointers (no more than the target has callee-saved
//! registers for them) stay in callee-saved registers, which the call redefines as the relocated
//! pointers, and the record at its return address names those registers; deopt values stay in a
//! callee-saved register or a spill slot, wherever the allocator keeps them. The rest keep their
//! slots. A collector rewrites a register root where the frame table says the register is saved.
//!
//! The record's layout and which pointers get a (base, derived) pair follow llc-19 (see
//! [`Lowering::statepoint_record`]), so runtimes written against LLVM's records read ours.

use std::borrow::Cow;
use std::collections::HashMap;

use cranelift_codegen::ir::{self as clif, AbiParam, InstBuilder, Signature, StackSlot, StackSlotData, StackSlotKind};
use cranelift_codegen::isa::CallConv;
use cranelift_codegen::settings::OptLevel;

use super::{clif_type, exceptions, Lowering};
use crate::arch::Scalar;
use crate::ir::statepoints::is_gc_pointer;
use crate::ir::{self, Const, Inst, InstId, IrError, Operand, ParamAbi, StatepointCall, TokenUse, Type, Value};
use crate::lower::points::{scalar, PlannedLocation, PlannedPoint, StatepointOffset};
use crate::stackmap::MAX_RECORD_LOCATIONS;

/// llc-19's constant for an `undef` or `poison` deopt value: 0xFEFEFEFE, zero-extended.
const UNDEF_DEOPT_CONSTANT: i64 = 0xFEFE_FEFE;

/// llc-19 folds a derived pointer `getelementptr base, C...` whose indices are constants up to this
/// into its relocated base (CodeGenPrepare's `simplifyOffsetableRelocate`), at -O1 and above.
const MAX_FOLDED_GEP_INDEX: u64 = 20;

/// What statepoints may leave in registers, as llc-19's options say. The default leaves nothing:
/// every recorded value in a frame slot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatepointRegisters {
    /// `-max-registers-for-gc-values`: GC pointers per statepoint kept in callee-saved registers.
    pub gc_values: u32,
    /// `-use-registers-for-deopt-values`.
    pub deopt_values: bool,
}

/// What a call calls, before it is emitted.
pub(super) enum Callee {
    Direct(clif::FuncRef),
    Indirect(clif::SigRef, clif::Value),
}

/// The statepoint FLAGS bit of deopt values that are the call's inputs (LLVM's
/// `StatepointFlags::DeoptLiveIn`).
const DEOPT_LIVE_IN: u32 = 2;

/// The values a `statepoint_call` records: `relocated` in callee-saved registers that the call
/// redefines, `read` wherever they are across it.
pub(super) struct RecordedOperands {
    /// The record's index among the function's points.
    index: u64,
    pub(super) relocated: Vec<clif::Value>,
    read: Vec<clif::Value>,
}

/// A `gc.relocate` of a statepoint.
#[derive(Clone, Copy, Debug)]
pub(super) struct Relocate {
    inst: InstId,
    base: u32,
    derived: u32,
    /// The IR block it is in.
    block: usize,
    /// Whether it relocates on the exceptional edge of the statepoint's `invoke` (its token is
    /// the landing pad's).
    unwound: bool,
}

/// A `gc.relocate` of a landing pad's token, and where the pad reads its pointer.
pub(super) struct PadRelocate {
    inst: InstId,
    source: PadSource,
}

/// Where a landing pad reads a relocated pointer: the unwinder leaves the frame's slots as the
/// collector rewrote them, as llc-19 reads them (its landing pads never take GC pointers in
/// registers).
enum PadSource {
    Slot(StackSlot),
    /// A value that was not stored (a constant, or an alloca's address).
    Value(clif::Value),
    /// Another relocate of the pad plus an offset (llc-19's folded relocates).
    Folded(InstId, i64),
}

/// What a statepoint's record holds, decided from the IR before any code exists.
struct RecordPlan<'v> {
    /// The locations after the three leading constants.
    locations: Vec<Planned<'v>>,
    /// The values that need a slot, in the order their slots are assigned.
    spilled: Vec<&'v Operand>,
    /// Relocates that llc-19 folds into `base + offset` (at -O1 and above): the relocate, the
    /// relocate of its base, the offset.
    folded: Vec<(InstId, InstId, i64)>,
    /// The GC pointers among `spilled` (those of the (base, derived) pairs): derived pointers in the
    /// pairs' order, then bases.
    gc: Vec<&'v Operand>,
}

/// A location before slots are assigned.
enum Planned<'v> {
    Constant(i64),
    Alloca(StackSlot),
    Spilled(&'v Operand),
}

impl Lowering<'_> {
    /// Lowers the statepoint `inst`.
    /// With `invoke` (its block and destinations), the call is a `try_call` and the relocates of
    /// the landing pad's token are read back as the pad is entered.
    pub(super) fn statepoint(
        &mut self,
        invoke: Option<(ir::BlockId, ir::InvokeDests)>,
        inst: InstId,
        call: &StatepointCall,
    ) -> Result<(), IrError> {
        let span = self.f.inst(inst).span;
        if let Value::Func(f) = call.target {
            if self.module.function(*f).intrinsic().is_some() {
                return Err(self.error(span, "a statepoint cannot call an intrinsic"));
            }
        }
        let relocates = self.relocates_of(inst);
        let relocates = &relocates[..];
        let plan = self.statepoint_record(call, relocates);
        // The three leading constants, then the planned locations.
        let count = 3 + plan.locations.len();
        if count > MAX_RECORD_LOCATIONS {
            return Err(self.error(
                span,
                format!(
                    "this statepoint's record would hold {count} locations: a stack map record holds at most \
                     {MAX_RECORD_LOCATIONS} (the format counts them in 16 bits)"
                ),
            ));
        }
        // With a call, and as the options ask: the GC pointers kept in callee-saved registers, and
        // the deopt values (not GC pointers, one register wide) left where the allocator keeps them.
        let with_call = call.patch_bytes == 0;
        let limit = (self.registers.gc_values as usize).min(self.arch.statepoint_relocation_registers());
        // As llc-19 (without `-use-registers-for-gc-values-in-landing-pad`), the pointers a landing
        // pad relocates stay in slots; a vector of GC pointers keeps its slot too, as llc-19 spills it.
        let in_landing_pad = |o: &Operand| {
            relocates.iter().filter(|r| r.unwound).any(|r| {
                let (base, derived) = (self.gc_live_operand(call, r.base), self.gc_live_operand(call, r.derived));
                base.value == o.value || derived.value == o.value
            })
        };
        let in_registers: Vec<&Operand> = if with_call {
            plan.gc
                .iter()
                .copied()
                .filter(|o| !in_landing_pad(o) && !matches!(o.ty, Type::Vector(..)))
                .take(limit)
                .collect()
        } else {
            Vec::new()
        };
        // FLAGS bit 1 (LLVM's `DeoptLiveIn`): llc-19 lowers the deopt values as the call's inputs,
        // in registers, as `-use-registers-for-deopt-values` keeps them for every statepoint.
        let deopt_in_registers = self.registers.deopt_values || call.flags & DEOPT_LIVE_IN != 0;
        let read: Vec<&Operand> = if with_call && deopt_in_registers {
            let fits = |ty: &Type| match ty {
                Type::Int(bits) => self.arch.deopt_integer_in_register(*bits),
                Type::Half | Type::Float | Type::Double | Type::Ptr(_) => true,
                _ => false,
            };
            plan.spilled
                .iter()
                .copied()
                .filter(|o| fits(&o.ty) && !plan.gc.iter().any(|g| g.value == o.value))
                .collect()
        } else {
            Vec::new()
        };
        let position = |list: &[&Operand], value: &Value| list.iter().position(|o| o.value == *value);
        // One slot per spilled value, from a pool every statepoint of the function reuses: each
        // reads its slots back right after its call.
        let stored: Vec<&Operand> = plan
            .spilled
            .iter()
            .copied()
            .filter(|o| position(&in_registers, &o.value).is_none() && position(&read, &o.value).is_none())
            .collect();
        let mut slots: Vec<(&Value, StackSlot)> = Vec::with_capacity(stored.len());
        for (i, operand) in stored.iter().enumerate() {
            // 8 bytes hold every value but an i128, which takes 16 as in llc-19's spill slots.
            let bytes = operand.ty.alloc_size().max(8) as u32;
            let fits = |this: &Self, slot: StackSlot| this.b.func.sized_stack_slots[slot].size >= bytes;
            if self.statepoint_slots.get(i).is_none_or(|&slot| !fits(self, slot)) {
                let data = StackSlotData::new(StackSlotKind::ExplicitSlot, bytes, bytes.trailing_zeros() as u8);
                let slot = self.b.create_sized_stack_slot(data);
                if i == self.statepoint_slots.len() {
                    self.statepoint_slots.push(slot);
                } else {
                    self.statepoint_slots[i] = slot;
                }
            }
            let slot = self.statepoint_slots[i];
            if let Type::Vector(..) = operand.ty {
                // A vector is stored whole, at LLVM's memory layout: one record location.
                let lanes = self.scalars(&operand.value, &operand.ty)?;
                let address = self.b.ins().stack_addr(clif::types::I64, slot, 0);
                self.store_vector(&operand.ty, &lanes, address);
            } else {
                let value = self.value(&operand.value, &operand.ty)?;
                self.b.ins().stack_store(clif::types::I64, value, slot, 0);
            }
            slots.push((&operand.value, slot));
        }
        for operand in call.transition {
            // Evaluated for their effects on the IR's order only: no code runs around the call here.
            self.value(&operand.value, &operand.ty)?;
        }
        let mut locations = vec![
            PlannedLocation::Constant(i64::from(call.cc.llvm_id())),
            PlannedLocation::Constant(i64::from(call.flags)),
            PlannedLocation::Constant(call.deopt.len() as i64),
        ];
        locations.extend(plan.locations.iter().map(|l| match l {
            Planned::Constant(v) => PlannedLocation::Constant(*v),
            Planned::Alloca(slot) => PlannedLocation::Direct(*slot),
            // The statepoint_call records the relocated values, then the read ones.
            Planned::Spilled(operand) => {
                match (position(&in_registers, &operand.value), position(&read, &operand.value)) {
                    (Some(index), _) => PlannedLocation::Live { index, value: Scalar::Int(64) },
                    (None, Some(i)) => {
                        PlannedLocation::Live { index: in_registers.len() + i, value: scalar(&operand.ty) }
                    }
                    (None, None) => PlannedLocation::Spilled {
                        slot: slot_of(&slots, &operand.value).expect("every stored value has a slot"),
                        size: operand.ty.store_size().max(1) as u16,
                    },
                }
            }
        }));
        // The landing pad's relocates: what is not in a slot is computed here, before the call, in
        // the invoke's block, which dominates the pad.
        let mut unwound = Vec::new();
        for r in relocates.iter().filter(|r| r.unwound) {
            let source = match plan.folded.iter().find(|f| f.0 == r.inst) {
                Some(&(_, base, offset)) => PadSource::Folded(base, offset),
                None => {
                    let operand = self.gc_live_operand(call, r.derived);
                    if let Type::Vector(..) = operand.ty {
                        return Err(self.error(
                            span,
                            "unsupported 'gc.relocate' of a vector in a landing pad: only the normal edge reads \
                             vectors back"
                                .to_string(),
                        ));
                    }
                    match slot_of(&slots, &operand.value) {
                        Some(slot) => PadSource::Slot(slot),
                        None => PadSource::Value(self.value(&operand.value, &operand.ty)?),
                    }
                }
            };
            unwound.push(PadRelocate { inst: r.inst, source });
        }
        let index = self.points.len() as u64;
        let mut relocated_values = Vec::new();
        if with_call && !(in_registers.is_empty() && read.is_empty()) {
            let mut recorded = RecordedOperands { index, relocated: Vec::new(), read: Vec::new() };
            for operand in &in_registers {
                recorded.relocated.push(self.value(&operand.value, &operand.ty)?);
            }
            for operand in &read {
                recorded.read.push(self.value(&operand.value, &operand.ty)?);
            }
            self.points.push(PlannedPoint {
                id: call.id,
                shadow: 0,
                locations,
                region: None,
                statepoint: Some(StatepointOffset::Recorded),
                returned: None,
            });
            let target_type = with_chain(call);
            relocated_values =
                self.plain_call_from(invoke, inst, call.target, &target_type, call.args, Some(&recorded))?;
        } else if with_call {
            let record = self.stackmap_record(index, 0);
            self.b.ins().stackmap(record, &[]);
            self.points.push(PlannedPoint {
                id: call.id,
                shadow: 0,
                locations,
                region: None,
                statepoint: Some(StatepointOffset::ReturnAddress),
                returned: None,
            });
            self.plain_call_from(invoke, inst, call.target, &with_chain(call), call.args, None)?;
        } else {
            self.patched_statepoint(invoke, inst, index, call)?;
            self.points.push(PlannedPoint {
                id: call.id,
                shadow: call.patch_bytes.next_multiple_of(self.arch.instruction_size()),
                locations,
                region: None,
                statepoint: Some(StatepointOffset::RegionEnd),
                returned: None,
            });
        }
        // The relocated pointers: the statepoint_call's results, or read back from their slots before
        // anything else can run.
        for r in relocates {
            if r.unwound || plan.folded.iter().any(|f| f.0 == r.inst) {
                continue;
            }
            let operand = self.gc_live_operand(call, r.derived);
            if let Type::Vector(..) = operand.ty {
                let lanes = match slot_of(&slots, &operand.value) {
                    Some(slot) => {
                        let address = self.b.ins().stack_addr(clif::types::I64, slot, 0);
                        self.load_vector(&operand.ty, address)
                    }
                    None => self.scalars(&operand.value, &operand.ty)?,
                };
                self.aggregates.insert(r.inst, lanes);
                continue;
            }
            self.values[r.inst.0 as usize] = Some(match position(&in_registers, &operand.value) {
                Some(i) => relocated_values[i],
                None => match slot_of(&slots, &operand.value) {
                    Some(slot) => self.b.ins().stack_load(clif::types::I64, clif::types::I64, slot, 0),
                    None => self.value(&operand.value, &operand.ty)?,
                },
            });
        }
        for &(relocate, base, offset) in &plan.folded {
            self.folded.insert(relocate, (base, offset));
            // A folded relocate is in its base relocate's block: both on one edge.
            if relocates.iter().any(|r| r.inst == relocate && r.unwound) {
                continue;
            }
            let base = self.values[base.0 as usize].expect("a base relocate is read back");
            self.values[relocate.0 as usize] = Some(self.b.ins().iadd_imm_s(base, offset));
        }
        if let Some((_, dests)) = invoke {
            if !unwound.is_empty() {
                let pad = exceptions::landing_pad(self.f, dests.unwind).expect("verified: an invoke unwinds to a pad");
                self.pad_relocates.insert(pad, unwound);
            }
        }
        Ok(())
    }

    /// Reads back, as landing pad `pad` is entered, the pointers its `gc.relocate`s relocate.
    pub(super) fn unwound_relocates(&mut self, pad: InstId) {
        let mut relocates = self.pad_relocates.remove(&pad).unwrap_or_default();
        // Folded relocates read their base's.
        relocates.sort_by_key(|r| matches!(r.source, PadSource::Folded(..)));
        for relocate in relocates {
            let value = match relocate.source {
                PadSource::Slot(slot) => self.b.ins().stack_load(clif::types::I64, clif::types::I64, slot, 0),
                PadSource::Value(value) => value,
                PadSource::Folded(base, offset) => {
                    let base = self.values[base.0 as usize].expect("a base relocate is read back first");
                    self.b.ins().iadd_imm_s(base, offset)
                }
            };
            self.values[relocate.inst.0 as usize] = Some(value);
        }
    }

    /// Emits a call of `callee` with `values`: an ordinary call, or with `recorded` the vendored
    /// `statepoint_call`, whose callee is an address: a direct callee's `func_addr`, which Cranelift
    /// turns back into a direct call when the function is colocated (objects; the JIT calls through a
    /// register).
    pub(super) fn emit_call(
        &mut self,
        callee: Callee,
        values: &[clif::Value],
        recorded: Option<&RecordedOperands>,
    ) -> clif::Inst {
        let Some(recorded) = recorded else {
            return match callee {
                Callee::Direct(r) => self.b.ins().call(r, values),
                Callee::Indirect(sig, address) => self.b.ins().call_indirect(sig, address, values),
            };
        };
        let (sig, args) = self.statepoint_call_args(callee, values, recorded);
        let record = self.stackmap_record(recorded.index, recorded.relocated.len() as u32);
        self.b.ins().statepoint_call(sig, record, &args)
    }

    /// The signature and operands of a `statepoint_call` or `try_statepoint_call` of `callee`: its
    /// address, `values`, the relocated values, then the read ones.
    fn statepoint_call_args(
        &mut self,
        callee: Callee,
        values: &[clif::Value],
        recorded: &RecordedOperands,
    ) -> (clif::SigRef, Vec<clif::Value>) {
        let (sig, address) = match callee {
            Callee::Direct(r) => {
                let sig = self.b.func.dfg.ext_funcs[r].signature;
                (sig, self.b.ins().func_addr(clif::types::I64, r))
            }
            Callee::Indirect(sig, address) => (sig, address),
        };
        let mut args = Vec::with_capacity(1 + values.len() + recorded.relocated.len() + recorded.read.len());
        args.push(address);
        args.extend_from_slice(values);
        args.extend_from_slice(&recorded.relocated);
        args.extend_from_slice(&recorded.read);
        (sig, args)
    }

    /// Emits the vendored `try_statepoint_call` ending the current block, with exception table
    /// `table` (whose normal return takes the call's results, then the relocated values).
    pub(super) fn emit_try_statepoint_call(
        &mut self,
        callee: Callee,
        values: &[clif::Value],
        recorded: &RecordedOperands,
        table: clif::ExceptionTable,
    ) {
        let (_, args) = self.statepoint_call_args(callee, values, recorded);
        // Built as a `try_call_indirect` with the same table, then replaced: the frontend knows the
        // successors of the instructions it was built with only (it fills the block and declares
        // the table's blocks as successors), and both instructions have the same ones.
        let call = self.b.ins().try_call_indirect(args[0], &args[1..], table);
        let record = self.stackmap_record(recorded.index, recorded.relocated.len() as u32);
        self.b.func.replace(call).try_statepoint_call(record, &args, table);
    }

    /// A statepoint with NUMPATCHBYTES > 0: the vendored `patchpoint` instruction, a region of nops
    /// with the call's arguments and result where the C convention puts them; the target is not
    /// called (llc-19 ignores it too).
    /// With `invoke` (its block and destinations), the region is the vendored `try_patchpoint`.
    fn patched_statepoint(
        &mut self,
        invoke: Option<(ir::BlockId, ir::InvokeDests)>,
        inst: InstId,
        index: u64,
        call: &StatepointCall,
    ) -> Result<(), IrError> {
        let span = self.f.inst(inst).span;
        // Whole instructions, as llc-19 rounds them (3 bytes are one AArch64 nop).
        let bytes = call.patch_bytes.next_multiple_of(self.arch.instruction_size());
        let ret = &call.target_type.ret;
        if !(ret.is_scalar() || *ret == Type::Void) || call.args.iter().any(|a| !a.ty.is_scalar()) {
            return Err(self.error(span, "a statepoint with patch bytes passes and returns scalars only"));
        }
        let mut sig = Signature::new(CallConv::SystemV);
        let mut operands = Vec::with_capacity(call.args.len());
        for a in call.args {
            sig.params.push(AbiParam::new(clif_type(&a.ty)));
            operands.push(self.value(&a.value, &a.ty)?);
        }
        if *ret != Type::Void {
            sig.returns.push(AbiParam::new(clif_type(ret)));
        }
        let signature = self.b.import_signature(sig);
        let results = match invoke {
            Some((block, dests)) => {
                let region = exceptions::Invoked::Region { sig: signature, index, bytes };
                self.emit_invoke(block, region, &operands, dests)?
            }
            None => {
                let record = self.stackmap_record(index, bytes);
                let region = self.b.ins().patchpoint(signature, record, &operands);
                self.b.inst_results(region).to_vec()
            }
        };
        self.values[inst.0 as usize] = results.first().copied();
        Ok(())
    }

    /// The `gc.relocate` calls of statepoint `token`, in llc-19's order: the token's use list,
    /// which for IR read from text is the reverse of the text's order. The function's relocates
    /// are found in one pass, at its first statepoint.
    fn relocates_of(&mut self, token: InstId) -> Vec<Relocate> {
        let (module, f) = (self.module, self.f);
        let by_token = self.relocates.get_or_insert_with(|| {
            let mut by_token: HashMap<InstId, Vec<Relocate>> = HashMap::new();
            for (block, b) in f.blocks.iter().enumerate() {
                for &inst in &b.insts {
                    if !matches!(f.inst(inst).kind, Inst::Call { .. }) {
                        continue;
                    }
                    if let Some(Ok(TokenUse::Relocate { token, base, derived, unwound })) =
                        TokenUse::decode(module, f, f.inst(inst))
                    {
                        by_token.entry(token).or_default().push(Relocate { inst, base, derived, block, unwound });
                    }
                }
            }
            // LLVM's `getGCRelocates`: the token's users, then the landing pad's.
            for relocates in by_token.values_mut() {
                relocates.reverse();
                relocates.sort_by_key(|r| r.unwound);
            }
            by_token
        });
        by_token.get(&token).cloned().unwrap_or_default()
    }

    /// llc-19's record after the three leading constants (calling convention, flags, deopt count):
    /// - each deopt value: a constant (integers sign-extended, floating point as its bits, `undef` as
    ///   0xFEFEFEFE, `null` as 0), an alloca's address, or else its slot (of the value's size);
    /// - a (base, derived) pair per relocated derived pointer not seen before, in the relocates'
    ///   order, then one per GC pointer among the deopt values not seen yet; constants are
    ///   recorded as such, allocas form pairs only cast to the GC address space (their slots'
    ///   addresses, `Direct`), and at -O1 and above a relocate of
    ///   `getelementptr base, small constants` with a relocate of `base` in its block is folded
    ///   into that one (no pair);
    /// - the address of each alloca among the gc-live values.
    fn statepoint_record<'v>(&self, call: &StatepointCall<'v>, relocates: &[Relocate]) -> RecordPlan<'v> {
        let mut plan = RecordPlan { locations: Vec::new(), spilled: Vec::new(), folded: Vec::new(), gc: Vec::new() };
        fn spill<'v>(plan: &mut RecordPlan<'v>, operand: &'v Operand) -> Planned<'v> {
            if !plan.spilled.iter().any(|s| s.value == operand.value) {
                plan.spilled.push(operand);
            }
            Planned::Spilled(operand)
        }
        for operand in call.deopt {
            let planned = match (self.recorded_constant(operand), self.alloca_slot(&operand.value)) {
                (Some(v), _) => Planned::Constant(v),
                (None, Some(slot)) => Planned::Alloca(slot),
                (None, None) => spill(&mut plan, operand),
            };
            plan.locations.push(planned);
        }
        if self.isa.flags().opt_level() != OptLevel::None {
            plan.folded = self.folded_relocates(call, relocates);
        }
        let mut seen: Vec<&Value> = Vec::new();
        let mut pairs: Vec<(&'v Operand, &'v Operand)> = Vec::new();
        for r in relocates {
            if plan.folded.iter().any(|f| f.0 == r.inst) {
                continue;
            }
            let derived = self.gc_live_operand(call, r.derived);
            // An alloca's address is a GC pointer only cast to the collector's address space.
            let alloca = self.alloca_slot(&derived.value).is_some();
            if (alloca && !is_gc_pointer(&derived.ty)) || seen.contains(&&derived.value) {
                continue;
            }
            seen.push(&derived.value);
            pairs.push((self.gc_live_operand(call, r.base), derived));
        }
        for operand in call.deopt.iter().filter(|_| !call.deopt_call) {
            if is_gc_pointer(&operand.ty) && !seen.iter().any(|v| self.same_gc_value(v, &operand.value)) {
                seen.push(&operand.value);
                pairs.push((operand, operand));
            }
        }
        // The GC pointers that may stay in registers: derived pointers first, then bases, as llc-19
        // gives derived pointers the first registers.
        for operand in pairs.iter().map(|p| p.1).chain(pairs.iter().map(|p| p.0)) {
            let fixed = self.recorded_constant(operand).is_some() || self.alloca_slot(&operand.value).is_some();
            if !fixed && !plan.gc.iter().any(|g| g.value == operand.value) {
                plan.gc.push(operand);
            }
        }
        for (base, derived) in pairs {
            for operand in [base, derived] {
                let planned = match (self.recorded_constant(operand), self.alloca_slot(&operand.value)) {
                    (Some(v), _) => Planned::Constant(v),
                    (None, Some(slot)) => Planned::Alloca(slot),
                    (None, None) => spill(&mut plan, operand),
                };
                plan.locations.push(planned);
            }
        }
        for operand in call.gc_live {
            if let Some(slot) = self.alloca_slot(&operand.value) {
                plan.locations.push(Planned::Alloca(slot));
            }
        }
        plan
    }

    /// The relocates llc-19's CodeGenPrepare turns into `relocated base + offset`.
    fn folded_relocates(&self, call: &StatepointCall, relocates: &[Relocate]) -> Vec<(InstId, InstId, i64)> {
        let mut folded = Vec::new();
        let mut pairs_done: Vec<(u32, u32)> = Vec::new();
        for r in relocates {
            let (relocate, base, derived) = (r.inst, r.base, r.derived);
            // Vectors are relocated whole, never folded.
            let is_vector = matches!(call.gc_live[derived as usize].ty, Type::Vector(..));
            if base == derived || is_vector || pairs_done.contains(&(base, derived)) {
                continue;
            }
            let Some(base_relocate) = relocates.iter().find(|b| b.base == base && b.derived == base) else {
                continue;
            };
            if base_relocate.block != r.block {
                continue;
            }
            let base_relocate = base_relocate.inst;
            let Value::Inst(derived_inst) = call.gc_live[derived as usize].value else { continue };
            // A relocate folded at an earlier statepoint is a `getelementptr` of its base's by then.
            let (pointer, offset) = match (self.folded.get(&derived_inst), &self.f.inst(derived_inst).kind) {
                (Some(&(base, offset)), _) => (Value::Inst(base), Some(offset)),
                (None, Inst::Gep { source, base: pointer, indices, .. }) => {
                    (pointer.clone(), small_constant_offset(source, indices))
                }
                _ => continue,
            };
            let Some(offset) = offset.filter(|_| pointer == call.gc_live[base as usize].value) else { continue };
            pairs_done.push((base, derived));
            folded.push((relocate, base_relocate, offset));
        }
        folded
    }

    /// The constant llc-19 records for a constant statepoint operand.
    fn recorded_constant(&self, operand: &Operand) -> Option<i64> {
        // A relocated constant is the constant (llc-19's SelectionDAG relocates the same node).
        let mut operand = operand;
        while let Some(relocated) = self.relocated_operand(&operand.value) {
            operand = relocated;
        }
        // `inttoptr` of a constant is the constant's node in llc-19's SelectionDAG.
        if let Value::Inst(id) = &operand.value {
            if let Inst::Cast { op: ir::CastOp::IntToPtr, from: Type::Int(64), val: Value::Const(Const::Int(v)) } =
                &self.f.inst(*id).kind
            {
                return Some(*v);
            }
        }
        let Value::Const(c) = &operand.value else { return None };
        if operand.ty == Type::I128 || matches!(operand.ty, Type::Vector(..)) {
            // llc-19 spills an i128 constant to a 16-byte slot as it spills an i128 value, and a
            // constant vector (zero and undef included) as it spills a vector.
            return None;
        }
        Some(match (c, &operand.ty) {
            (Const::Int(v), _) => *v,
            (Const::Float(v), Type::Half) => i64::from(crate::ir::half::constant_bits(*v)),
            (Const::Float(v), Type::Float) => i64::from((*v as f32).to_bits()),
            (Const::Float(v), _) => v.to_bits() as i64,
            (Const::Zero, _) => 0,
            (Const::IntToPtr(v), _) => *v,
            (Const::Undef | Const::Poison, _) => UNDEF_DEOPT_CONSTANT,
            // An address: a value in the code.
            _ => return None,
        })
    }

    /// `call`'s gc-live operand `index`, or the first of its gc-live operands that is the same value
    /// to llc-19 ([`Lowering::same_gc_value`]): llc-19 gives such operands one (base, derived) pair
    /// and one slot, and their relocates read the same relocated value.
    fn gc_live_operand<'v>(&self, call: &StatepointCall<'v>, index: u32) -> &'v Operand {
        let operand = &call.gc_live[index as usize];
        call.gc_live.iter().find(|o| self.same_gc_value(&o.value, &operand.value)).unwrap_or(operand)
    }

    /// Whether `a` and `b` are one value to llc-19's SelectionDAG: the same IR value, or relocates
    /// by one statepoint of operands that are (every relocate of a value gives the same node).
    fn same_gc_value(&self, a: &Value, b: &Value) -> bool {
        let (mut a, mut b) = (a, b);
        loop {
            if a == b {
                return true;
            }
            match (self.relocation(a), self.relocation(b)) {
                (Some((token_a, _)), Some((token_b, _))) if token_a != token_b => return false,
                (Some(_), Some(_)) => match (self.relocated_operand(a), self.relocated_operand(b)) {
                    (Some(x), Some(y)) => (a, b) = (&x.value, &y.value),
                    _ => return false,
                },
                _ => return false,
            }
        }
    }

    /// The statepoint and gc-live index a `gc.relocate` result `value` relocates.
    fn relocation(&self, value: &Value) -> Option<(InstId, u32)> {
        let Value::Inst(id) = value else { return None };
        let data = self.f.inst(*id);
        if !matches!(data.kind, Inst::Call { .. }) {
            return None;
        }
        match TokenUse::decode(self.module, self.f, data) {
            Some(Ok(TokenUse::Relocate { token, derived, .. })) => Some((token, derived)),
            _ => None,
        }
    }

    /// The gc-live operand a `gc.relocate` result `value` relocates.
    fn relocated_operand(&self, value: &Value) -> Option<&Operand> {
        let (token, derived) = self.relocation(value)?;
        let call = StatepointCall::decode(self.module, self.f.inst(token))?.ok()?;
        call.gc_live.get(derived as usize)
    }

    /// The frame slot of a static alloca, also seen through pointer casts that are no-ops in
    /// llc-19's SelectionDAG (`addrspacecast`, `bitcast`), which records the frame index.
    fn alloca_slot(&self, value: &Value) -> Option<StackSlot> {
        let Value::Inst(id) = value else { return None };
        if let Some(&slot) = self.slots.get(id) {
            return Some(slot);
        }
        match &self.f.inst(*id).kind {
            Inst::Cast { op: ir::CastOp::AddrSpaceCast | ir::CastOp::BitCast, from: Type::Ptr(_), val } => {
                self.alloca_slot(val)
            }
            _ => None,
        }
    }

    /// Lowers `gc.result` and `gc.relocate`: the values the statepoint left.
    pub(super) fn token_use(&mut self, inst: InstId, token_use: TokenUse) {
        if let TokenUse::Result { token } = token_use {
            if let Some(scalars) = self.aggregates.get(&token).cloned() {
                self.aggregates.insert(inst, scalars);
            } else {
                self.values[inst.0 as usize] = self.values[token.0 as usize];
            }
        }
        // Relocates were read back at their statepoint.
    }
}

/// The slot a value was stored in.
fn slot_of(slots: &[(&Value, StackSlot)], value: &Value) -> Option<StackSlot> {
    slots.iter().find(|(v, _)| *v == value).map(|s| s.1)
}

/// The byte offset of `getelementptr source, base, indices` if every index is a constant integer
/// of at most [`MAX_FOLDED_GEP_INDEX`] (unsigned), as llc-19 requires to fold it.
fn small_constant_offset(source: &Type, indices: &[Operand]) -> Option<i64> {
    let mut offset = 0i64;
    let mut ty = source;
    for (i, index) in indices.iter().enumerate() {
        let n = match (&index.value, &index.ty) {
            (Value::Const(Const::Int(v)), Type::Int(bits)) => {
                let zext = (*v as u64) & (u64::MAX >> (64 - u32::from(*bits).min(64)));
                if zext > MAX_FOLDED_GEP_INDEX {
                    return None;
                }
                zext as i64
            }
            _ => return None,
        };
        if i == 0 {
            offset += n * ty.alloc_size() as i64;
        } else {
            let (member, step) = ty.gep_step(n)?;
            offset += step;
            ty = member;
        }
    }
    Some(offset)
}

/// The function type `call` calls its target with, its `nest` argument marked as the statepoint
/// marks it (`elementtype` has no attributes).
fn with_chain<'c>(call: &StatepointCall<'c>) -> Cow<'c, ir::Signature> {
    let Some(chain) = call.chain else { return Cow::Borrowed(call.target_type) };
    let mut sig = call.target_type.clone();
    let mut abi = sig.abi.into_vec();
    abi.resize(abi.len().max(chain + 1), ParamAbi::Plain);
    abi[chain] = ParamAbi::Nest;
    sig.abi = abi.into_boxed_slice();
    Cow::Owned(sig)
}
