//! Lowering of `llvm.experimental.stackmap` and `llvm.experimental.patchpoint.*` calls: each becomes a
//! *point* whose machine-code offset and live-value locations `compile` reads back after register
//! allocation.
//!
//! A stack map is the vendored Cranelift's `stackmap` instruction (`vendor/patches/`): no code, no
//! clobbers, an "any" use of each live value, so values stay wherever the register allocator put
//! them; Cranelift records each value's register or stack slot and pads the shadow with nops where
//! the code after the point is shorter, as LLVM does.
//!
//! A patch point is the vendored Cranelift's `patchpoint` (C convention) or `patchpoint_anyreg`
//! instruction: a region of NUMBYTES nops emitted in one piece, so nothing can be placed inside it,
//! with its call's operands and "any" uses of the live values; `compile` writes the target's call
//! sequence into it and takes the live-outs from Cranelift's record.
//!
//! An inline asm of `nop`s is a `patchpoint_anyreg` region too, with no operands (it clobbers
//! nothing itself, and holds one piece of code of the right length): `compile` writes the nops
//! into it and makes no record of it.
//!
//! Constants never reach the code: they are recorded from the IR, as LLVM does.

use cranelift_codegen::ir::{
    self as clif, types, AbiParam, InstBuilder, Signature, StackSlot, StackSlotData, StackSlotKind,
};
use cranelift_codegen::isa::CallConv;

use super::exceptions::Invoked;
use super::{clif_type, explicit, vectors, Lowering};
use crate::arch::Scalar;
use crate::ir::{BlockId, CastOp, Const, Inst, InstId, InvokeDests, IrError, Operand, PatchPointCall, Type, Value};

/// What the lowering decided about one stack map point or patch point, completed by `compile` once
/// the code exists.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedPoint {
    /// The ID the IR gave the point (its first argument).
    pub id: u64,
    /// Stack maps: bytes after the point that must hold no other point, block entry or return
    /// address. Patch points: the region's length as the record promises it (NUMBYTES).
    pub shadow: u32,
    /// One entry per location of the record, in its order (anyregcc: result, arguments, then the
    /// live operands).
    pub locations: Vec<PlannedLocation>,
    /// For a patch point: what its region calls.
    pub region: Option<CallTarget>,
    /// For a statepoint: where its record's offset is, relative to the instruction that marks it.
    pub statepoint: Option<StatepointOffset>,
    /// For a C-convention patch point with a result: what it returns in the convention's result
    /// register(s) (an anyregcc patch point's result is its first location).
    pub returned: Option<Returned>,
}

/// A C-convention patch point's result, as far as its registers' live-out sizes need it.
#[derive(Clone, Debug, PartialEq)]
pub enum Returned {
    /// A scalar in the integer or first float result register.
    Scalar(Scalar),
    /// A vector in the first float/vector result registers, the bytes each piece fills (8 or 16).
    Vector(Vec<u8>),
}

/// Where a statepoint's record is: LLVM records the address its call returns to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatepointOffset {
    /// The return address of the first call after the zero-byte marker (argument moves may come
    /// between them, never another call).
    ReturnAddress,
    /// The end of the patchable region (NUMPATCHBYTES of nops, no call).
    RegionEnd,
    /// The offset Cranelift recorded: a `statepoint_call`'s record is at its return address.
    Recorded,
}

/// The target of a patch point's call sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallTarget {
    /// `null`: the region is all nops until a runtime patches it.
    Null,
    /// `inttoptr (i64 A to ptr)`.
    Address(u64),
    /// `ptr @f`: an address the linker (or the JIT) fills in.
    Function(crate::ir::FuncId),
    /// Not a patch point: the `nop`s of an inline asm, which have no record.
    InlineAsmNops,
}

/// Where a live operand will be found.
#[derive(Clone, Debug, PartialEq)]
pub enum PlannedLocation {
    /// An integer constant, already extended to 64 bits the way llc-19 does for the target.
    Constant(i64),
    /// An alloca passed directly: its address, `Direct [FP + offset]` of the slot (`[SP + offset]` in a
    /// frame realigned for an over-aligned alloca).
    Direct(StackSlot),
    /// A value the code stored in a frame slot: `Indirect [FP + offset]` (or `[SP + offset]`) of `size` bytes.
    Spilled {
        /// The slot.
        slot: StackSlot,
        /// The value's size in bytes.
        size: u16,
    },
    /// A value in the code: the `index`-th location Cranelift records for the point.
    Live {
        /// The position of the value among the locations Cranelift records for the point.
        index: usize,
        /// What the value is, which fixes the location's size.
        value: Scalar,
    },
}

/// The constant LLVM records for `undef`/`poison` operands: 0xFEFEFEFE as a sign-extended `i32`.
pub const UNDEF_CONSTANT: i64 = 0xFEFE_FEFEu32 as i32 as i64;

impl Lowering<'_> {
    /// The ID and immediate (shadow, region length or relocated count) of a `stackmap`,
    /// `patchpoint` or `statepoint_call` and their `try_` forms, which refer to them in the
    /// function's table: `InstructionData`'s 16 bytes have no room for a 64-bit ID.
    pub(super) fn stackmap_record(&mut self, id: u64, imm: u32) -> clif::StackmapRecord {
        self.b.func.dfg.stackmap_records.push(clif::StackmapRecordData { id, imm })
    }

    /// Lowers `llvm.experimental.stackmap(id, shadow, live...)` at instruction `inst`.
    pub(super) fn stackmap(&mut self, inst: InstId, id: u64, shadow: u32, live: &[Operand]) -> Result<(), IrError> {
        let span = self.f.inst(inst).span;
        let instruction = self.arch.instruction_size();
        if !shadow.is_multiple_of(instruction) {
            // llc-19 loops forever on these on AArch64 (its nop count wraps).
            return Err(self.error(
                span,
                format!("stackmap shadow of {shadow} bytes is not a multiple of {instruction} on {}", self.arch.name()),
            ));
        }
        let index = self.points.len();
        let (locations, live) = self.plan_live_values(live)?;
        // The instruction's ID is the point's index, which `compile` maps back to the IR's ID.
        let record = self.stackmap_record(index as u64, shadow);
        self.b.ins().stackmap(record, &live);
        self.points.push(PlannedPoint { id, shadow, locations, region: None, statepoint: None, returned: None });
        Ok(())
    }

    /// Lowers `llvm.experimental.patchpoint.*(id, bytes, target, nargs, args..., live...)`: the
    /// vendored Cranelift's `patchpoint` (C convention: arguments and result where the convention
    /// puts them, its caller-saved registers clobbered) or `patchpoint_anyreg` (arguments and result
    /// in registers the allocator picks, nothing else clobbered). Either emits the region as NUMBYTES
    /// of nops in one piece; `compile` writes the target's call sequence into it. With `invoke` (its
    /// block and destinations), the C convention's region is the vendored `try_patchpoint`.
    pub(super) fn patchpoint(
        &mut self,
        invoke: Option<(BlockId, InvokeDests)>,
        inst: InstId,
        call: &PatchPointCall,
    ) -> Result<(), IrError> {
        let &PatchPointCall { id, bytes, target, args, live, anyreg, chain } = call;
        let data = self.f.inst(inst);
        let span = data.span;
        let target = match self.constant_target(target) {
            Some(0) => CallTarget::Null,
            Some(a) => CallTarget::Address(a),
            None => match target {
                Value::Func(f) if self.module.function(*f).intrinsic().is_none() => CallTarget::Function(*f),
                _ => {
                    // llc-19 calls address 0 for a run-time target.
                    return Err(self.error(
                        span,
                        "patchpoint target must be null, a constant address or a function, not a run-time value",
                    ));
                }
            },
        };
        let sequence = self.arch.call_sequence_len();
        // Regions are whole instructions, as llc-19 rounds them.
        let bytes = bytes.next_multiple_of(self.arch.instruction_size());
        if target != CallTarget::Null && bytes < sequence {
            // llc-19 loops forever on these on x86-64 and overruns the region on AArch64.
            return Err(self.error(
                span,
                format!("patchpoint region of {bytes} bytes cannot hold the {sequence}-byte call sequence"),
            ));
        }
        if let (CallTarget::Address(a), Some(bits)) = (target, self.arch.call_reach_bits()) {
            if a >> bits != 0 {
                return Err(self.error(
                    span,
                    format!(
                        "patchpoint target {a:#x} is beyond the {bits} bits {}'s call sequence reaches",
                        self.arch.name()
                    ),
                ));
            }
        }
        if anyreg {
            // Every argument needs a register of its own at the region's start.
            let ((ints, floats), target) = (self.arch.anyreg_registers(), self.arch.name());
            let float_args = args.iter().filter(|a| a.ty.is_float()).count();
            if args.len() - float_args > ints || float_args > floats {
                return Err(self.error(
                    span,
                    format!(
                        "anyregcc patch point with {} integer and {float_args} floating-point arguments: at most \
                         {ints} and {floats} fit in {target}'s allocatable registers",
                        args.len() - float_args
                    ),
                ));
            }
        }
        let result = (data.ty != Type::Void).then(|| data.ty.clone());
        let mut sig = Signature::new(CallConv::SystemV);
        let mut operands = Vec::with_capacity(args.len() + live.len());
        let vectors = result.iter().chain(args.iter().map(|a| &a.ty)).any(|t| t.is_vector());
        if anyreg && vectors {
            return Err(self.error(span, "unsupported anyregcc patch point with a vector argument or result"));
        }
        for (i, operand) in args.iter().enumerate() {
            if operand.ty.is_vector() {
                // In the C convention's vector register(s), as llc-19 passes it (`abi_shape`).
                let mut pieces = Vec::new();
                vectors::push_abi_pieces(self.arch, &operand.ty, &mut pieces).map_err(|e| self.error(span, e))?;
                sig.params.extend(pieces.into_iter().map(AbiParam::new));
                let lanes = self.scalars(&operand.value, &operand.ty)?;
                operands.extend(self.packed_for_abi(&operand.ty, &lanes));
                continue;
            }
            let param = AbiParam::new(clif_type(&operand.ty));
            // anyregcc's arguments are in any register anyway.
            sig.params.push(match chain {
                Some(c) if c == i && !anyreg => param.in_register(explicit::preg(self.arch, self.arch.static_chain())),
                _ => param,
            });
            operands.push(self.value(&operand.value, &operand.ty)?);
        }
        match &result {
            Some(ty) if ty.is_vector() => {
                let mut pieces = Vec::new();
                vectors::push_abi_pieces(self.arch, ty, &mut pieces).map_err(|e| self.error(span, e))?;
                sig.returns.extend(pieces.into_iter().map(AbiParam::new));
            }
            Some(ty) => sig.returns.push(AbiParam::new(clif_type(ty))),
            None => {}
        }
        // The record lists anyregcc's result and arguments before the live values.
        let mut locations = Vec::new();
        if anyreg {
            let fixed = result.iter().chain(args.iter().map(|a| &a.ty));
            locations.extend(fixed.enumerate().map(|(index, ty)| PlannedLocation::Live { index, value: scalar(ty) }));
        }
        let first_live = locations.len();
        let (live, values) = self.plan_live_values(live)?;
        locations.extend(live.into_iter().map(|location| match location {
            PlannedLocation::Live { index, value } => PlannedLocation::Live { index: first_live + index, value },
            other => other,
        }));
        operands.extend(values);
        let index = self.points.len();
        let signature = self.b.import_signature(sig);
        let results = match invoke {
            Some(_) if anyreg => return Err(self.error(span, "unsupported 'invoke' of an anyregcc patch point")),
            Some((block, dests)) => {
                let region = Invoked::Region { sig: signature, index: index as u64, bytes };
                self.emit_invoke(block, region, &operands, dests)?
            }
            None if anyreg => {
                let record = self.stackmap_record(index as u64, bytes);
                let point = self.b.ins().patchpoint_anyreg(signature, record, &operands);
                self.b.inst_results(point).to_vec()
            }
            None => {
                let record = self.stackmap_record(index as u64, bytes);
                let point = self.b.ins().patchpoint(signature, record, &operands);
                self.b.inst_results(point).to_vec()
            }
        };
        match &result {
            Some(ty) if ty.is_vector() => {
                let lanes = self.unpacked_from_abi(ty, &results);
                self.aggregates.insert(inst, lanes);
            }
            _ => self.values[inst.0 as usize] = results.first().copied(),
        }
        let returned = match &result {
            _ if anyreg => None,
            Some(ty) if ty.is_vector() => {
                let shape = vectors::abi_shape(self.arch, ty).map_err(|e| self.error(span, e))?;
                Some(Returned::Vector(shape.pieces.iter().map(|p| p.bytes() as u8).collect()))
            }
            Some(ty) => Some(Returned::Scalar(scalar(ty))),
            None => None,
        };
        self.points.push(PlannedPoint {
            id,
            shadow: bytes,
            locations,
            region: Some(target),
            statepoint: None,
            returned,
        });
        Ok(())
    }

    /// The address a patch point target folds to: null, `inttoptr` of a constant (as an operand or an
    /// instruction, as LLVM's tests write them).
    /// `nops` `nop` instructions of an inline asm, in one piece (see the module's documentation).
    pub(super) fn inline_asm_nops(&mut self, nops: u32) {
        let bytes = nops.saturating_mul(self.arch.nop_instruction().len() as u32);
        let signature = self.b.import_signature(Signature::new(CallConv::SystemV));
        let record = self.stackmap_record(self.points.len() as u64, bytes);
        self.b.ins().patchpoint_anyreg(signature, record, &[]);
        let region = Some(CallTarget::InlineAsmNops);
        let point =
            PlannedPoint { id: 0, shadow: bytes, locations: Vec::new(), region, statepoint: None, returned: None };
        self.points.push(point);
    }

    fn constant_target(&self, value: &Value) -> Option<u64> {
        match value {
            Value::Const(Const::Zero) => Some(0),
            Value::Const(Const::IntToPtr(a)) => Some(*a as u64),
            Value::Inst(id) => match &self.f.inst(*id).kind {
                Inst::Cast { op: CastOp::IntToPtr, val, .. } => match val {
                    Value::Const(Const::Int(a)) => Some(*a as u64),
                    Value::Const(Const::Zero) => Some(0),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// Decides each live operand's kind of location; returns the values to pass to the instruction.
    fn plan_live_values(&mut self, live: &[Operand]) -> Result<(Vec<PlannedLocation>, Vec<clif::Value>), IrError> {
        let mut locations = Vec::with_capacity(live.len());
        let mut context = Vec::new();
        for operand in live {
            let planned = match (&operand.value, &operand.ty) {
                // A vector is stored in a frame slot of its own, at LLVM's memory layout, and
                // recorded there: `Indirect` of its allocation size, as llc-19 records a spilled one.
                (value, ty @ Type::Vector(..)) if !matches!(value, Value::Const(Const::Undef | Const::Poison)) => {
                    let lanes = self.scalars(value, ty)?;
                    let size = ty.alloc_size();
                    let data = StackSlotData::new(StackSlotKind::ExplicitSlot, size as u32, 4);
                    let slot = self.b.create_sized_stack_slot(data);
                    let address = self.b.ins().stack_addr(types::I64, slot, 0);
                    self.store_vector(ty, &lanes, address);
                    PlannedLocation::Spilled { slot, size: size as u16 }
                }
                (Value::Const(Const::Int(v)), &Type::Int(bits)) => {
                    PlannedLocation::Constant(self.arch.recorded_constant(*v, bits))
                }
                // llc-19 records an i128 constant's low 64 bits (llvm-project issue 55609).
                (Value::Const(Const::WideInt(v)), _) => PlannedLocation::Constant(**v as i64),
                (Value::Const(Const::IntToPtr(v)), _) => PlannedLocation::Constant(*v),
                (Value::Const(Const::Zero), ty) if !ty.is_float() => PlannedLocation::Constant(0),
                (Value::Const(Const::Undef | Const::Poison), _) => PlannedLocation::Constant(UNDEF_CONSTANT),
                (Value::Inst(id), _) if self.slots.contains_key(id) => PlannedLocation::Direct(self.slots[id]),
                (value, ty) => {
                    let v = self.value(value, ty)?;
                    context.push(v);
                    PlannedLocation::Live { index: context.len() - 1, value: scalar(ty) }
                }
            };
            locations.push(planned);
        }
        Ok((locations, context))
    }
}

/// What the target's size rules need to know of an IR type.
pub(super) fn scalar(ty: &Type) -> Scalar {
    match ty {
        Type::Int(bits) => Scalar::Int(*bits),
        Type::Half => Scalar::F16,
        Type::Float => Scalar::F32,
        Type::Double => Scalar::F64,
        _ => Scalar::Int(64),
    }
}
