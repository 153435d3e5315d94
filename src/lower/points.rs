//! Lowering of `llvm.experimental.stackmap` and `llvm.experimental.patchpoint.*` calls: each becomes a
//! *point* whose machine-code offset and live-value locations `compile` reads back after register
//! allocation.
//!
//! A stack map is the vendored Cranelift's `stackmap` instruction (`vendor/patches/`): no code, no
//! clobbers, an "any" use of each live value, so values stay wherever the register allocator put
//! them; Cranelift records each value's register or stack slot and pads the shadow with nops where
//! the code after the point is shorter, as LLVM does.
//!
//! A patch point region is a handler-less `try_call` to a patchable, colocated dummy with the
//! SystemV convention whose exception table carries one `Context` item per live value (the only
//! other "any" uses Cranelift has), followed by pad calls; `compile` rewrites the region into the
//! call sequence or nops.
//!
//! Constants never reach the code: they are recorded from the IR, as LLVM does.

use cranelift_codegen::ir::{
    self as clif, AbiParam, BlockArg, BlockCall, ExceptionTableData, ExceptionTableItem, ExtFuncData, ExternalName,
    InstBuilder, Signature, StackSlot, UserExternalName,
};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::FunctionBuilder;

use super::{clif_type, Lowering};
use crate::compile::Arch;
use crate::ir::{CallConv as CallConv_, Const, InstId, IrError, Operand, Type, Value};

/// External-name namespace of the dummy callee of each point (index: the point's number).
pub const POINT_NAMESPACE: u32 = 2;
/// External-name namespace of the pads that extend a point's shadow (index: the point's number).
pub const PAD_NAMESPACE: u32 = 3;

/// What the lowering decided about one stack map point or patch point, completed by `compile` once
/// the code exists.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedPoint {
    /// The ID the IR gave the point (its first argument).
    pub id: u64,
    /// Stack maps: bytes after the point that must hold no other point, block entry or return
    /// address. Patch points: the region's length as the record promises it (NUMBYTES).
    pub shadow: u32,
    /// One entry per live operand, in operand order.
    pub locations: Vec<PlannedLocation>,
    /// Patch points: the pad calls after the region's first call that make up the region.
    pub pads: u32,
    /// For a patch point: what its region calls.
    pub region: Option<CallTarget>,
    /// For a patch point with a result: its register (DWARF number) and size.
    pub result_register: Option<(u16, u8)>,
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
}

/// Where a live operand will be found.
#[derive(Clone, Debug, PartialEq)]
pub enum PlannedLocation {
    /// An integer constant, already extended to 64 bits the way llc-19 does for the target.
    Constant(i64),
    /// An alloca passed directly: its address, `Direct [FP + offset]` of the slot.
    Direct(StackSlot),
    /// A value in the code: the `index`-th operand of the `stackmap` instruction or Context item of
    /// the patch point, of IR type `ty`.
    Live {
        /// The position of the value among the point's `stackmap` operands or Context items.
        index: usize,
        /// The value's IR type, which fixes the location's size.
        ty: Type,
    },
    /// A value in a register the calling convention fixes (anyregcc arguments and results).
    Register {
        /// The register's DWARF number.
        dwarf: u16,
        /// The value's IR type, which fixes the location's size.
        ty: Type,
    },
}

/// The constant LLVM records for `undef`/`poison` operands: 0xFEFEFEFE as a sign-extended `i32`.
pub const UNDEF_CONSTANT: i64 = 0xFEFE_FEFEu32 as i32 as i64;

impl Lowering<'_> {
    /// Lowers `llvm.experimental.stackmap(id, shadow, live...)` at instruction `inst`.
    pub(super) fn stackmap(&mut self, inst: InstId, args: &[Operand]) -> Result<(), IrError> {
        let span = self.f.inst(inst).span;
        let constant = |i: usize, what: &str| match args.get(i).map(|a| &a.value) {
            Some(Value::Const(Const::Int(v))) => Ok(*v),
            _ => Err(self.error(span, format!("stackmap {what} must be an integer constant"))),
        };
        let id = constant(0, "ID")? as u64;
        let shadow = constant(1, "shadow byte count")?;
        let shadow = u32::try_from(shadow as i32)
            .map_err(|_| self.error(span, format!("stackmap shadow byte count {shadow} is negative")))?;
        if self.is_aarch64() && shadow % 4 != 0 {
            // llc-19 loops forever on these (its nop count wraps).
            return Err(
                self.error(span, format!("stackmap shadow of {shadow} bytes is not a multiple of 4 on AArch64"))
            );
        }
        let index = self.points.len();
        let (locations, live) = self.plan_live_values(&args[2..])?;
        // The instruction's ID is the point's index, which `compile` maps back to the IR's ID.
        self.b.ins().stackmap(index as u64, shadow, &live);
        self.points.push(PlannedPoint { id, shadow, locations, pads: 0, region: None, result_register: None });
        Ok(())
    }

    /// Lowers `llvm.experimental.patchpoint.*(id, bytes, target, nargs, args..., live...)` with the C
    /// convention: the region starts with a call carrying the arguments (in their ABI registers at the
    /// region's start) and the live values as Context items, continues with pads up to NUMBYTES, and
    /// `compile` rewrites it into the call sequence (or nops). The result comes from the call.
    pub(super) fn patchpoint(&mut self, inst: InstId, cc: CallConv_, args: &[Operand]) -> Result<(), IrError> {
        let data = self.f.inst(inst);
        let span = data.span;
        let constant = |i: usize, what: &str| match args.get(i).map(|a| &a.value) {
            Some(Value::Const(Const::Int(v))) => Ok(*v),
            _ => Err(self.error(span, format!("patchpoint {what} must be an integer constant"))),
        };
        let id = constant(0, "ID")? as u64;
        let bytes = constant(1, "byte count")?;
        let nargs = constant(3, "argument count")?;
        let bytes = u32::try_from(bytes as i32)
            .map_err(|_| self.error(span, format!("patchpoint byte count {bytes} is negative")))?;
        let nargs = usize::try_from(nargs as i32).ok().filter(|n| 4 + n <= args.len()).ok_or_else(|| {
            self.error(span, format!("patchpoint argument count {nargs} does not match its operands"))
        })?;
        let target = match &args[2].value {
            Value::Const(Const::Zero) => CallTarget::Null,
            Value::Const(Const::IntToPtr(a)) if *a == 0 => CallTarget::Null,
            Value::Const(Const::IntToPtr(a)) => CallTarget::Address(*a as u64),
            Value::Func(f) if self.module.function(*f).intrinsic().is_none() => CallTarget::Function(*f),
            _ => {
                return Err(self.error(span, "patchpoint target must be null, 'inttoptr (i64 C to ptr)' or a function"))
            }
        };
        let (call_len, sequence) = if self.is_aarch64() { (4, 16) } else { (5, 13) };
        // AArch64 regions are whole instructions, as llc-19 rounds them.
        let bytes = if self.is_aarch64() { bytes.next_multiple_of(4) } else { bytes };
        if target != CallTarget::Null && bytes < sequence {
            // llc-19 loops forever on these on x86-64 and overruns the region on AArch64.
            return Err(self.error(
                span,
                format!("patchpoint region of {bytes} bytes cannot hold the {sequence}-byte call sequence"),
            ));
        }
        if let (CallTarget::Address(a), true) = (target, self.is_aarch64()) {
            if a >> 48 != 0 {
                return Err(self.error(
                    span,
                    format!("patchpoint target {a:#x} is beyond the 48 bits AArch64's call sequence reaches"),
                ));
            }
        }
        let mut call_args = Vec::with_capacity(nargs);
        for operand in &args[4..4 + nargs] {
            call_args.push((self.value(&operand.value, &operand.ty)?, operand.ty.clone()));
        }
        let index = self.points.len();
        let (live, context) = self.plan_live_values(&args[4 + nargs..])?;
        let result = (data.ty != Type::Void).then(|| data.ty.clone());
        // anyregcc: the registers are ours to choose, and we choose the C convention's, so the record
        // holds the result's register, then each argument's, then the live values.
        let locations = if cc == CallConv_::AnyReg {
            let mut fixed = Vec::with_capacity(1 + nargs + live.len());
            if let Some(ty) = &result {
                fixed.push(PlannedLocation::Register { dwarf: self.result_register(ty), ty: ty.clone() });
            }
            let registers = self.argument_registers(args[4..4 + nargs].iter().map(|a| &a.ty)).ok_or_else(|| {
                let (ints, target) = if self.is_aarch64() { (8, "AArch64") } else { (6, "x86-64") };
                self.error(
                    span,
                    format!(
                        "anyregcc patch point with {nargs} arguments: patchmap passes them in the C argument \
                         registers, {ints} integer and 8 floating-point ones on {target}"
                    ),
                )
            })?;
            fixed.extend(
                registers
                    .into_iter()
                    .zip(&args[4..4 + nargs])
                    .map(|(dwarf, a)| PlannedLocation::Register { dwarf, ty: a.ty.clone() }),
            );
            fixed.extend(live);
            fixed
        } else {
            live
        };
        // The region: the try_call, pads, and the call that defines the result, if any.
        let units = bytes.max(call_len).div_ceil(call_len).max(1 + u32::from(result.is_some()));
        let pads = units - 1 - u32::from(result.is_some());
        let value = self.emit_point(index, &context, &call_args, result.as_ref(), pads);
        self.values[inst.0 as usize] = value;
        let result_register = result.as_ref().map(|ty| {
            let size = if ty.is_float() && !self.is_aarch64() { 16 } else { 8 };
            (self.result_register(ty), size)
        });
        self.points.push(PlannedPoint {
            id,
            shadow: bytes,
            locations,
            pads: units - 1,
            region: Some(target),
            result_register,
        });
        Ok(())
    }

    /// Decides each live operand's kind of location; returns the Context values to pass.
    fn plan_live_values(&mut self, live: &[Operand]) -> Result<(Vec<PlannedLocation>, Vec<clif::Value>), IrError> {
        let mut locations = Vec::with_capacity(live.len());
        let mut context = Vec::new();
        for operand in live {
            let planned = match (&operand.value, &operand.ty) {
                (Value::Const(Const::Int(v)), ty) if ty.is_int() => {
                    PlannedLocation::Constant(Arch::of(self.isa).recorded_constant(*v, ty))
                }
                (Value::Const(Const::IntToPtr(v)), _) => PlannedLocation::Constant(*v),
                (Value::Const(Const::Zero), ty) if !ty.is_float() => PlannedLocation::Constant(0),
                (Value::Const(Const::Undef | Const::Poison), _) => PlannedLocation::Constant(UNDEF_CONSTANT),
                (Value::Inst(id), _) if self.slots.contains_key(id) => PlannedLocation::Direct(self.slots[id]),
                (value, ty) => {
                    let v = self.value(value, ty)?;
                    context.push(v);
                    PlannedLocation::Live { index: context.len() - 1, ty: ty.clone() }
                }
            };
            locations.push(planned);
        }
        Ok((locations, context))
    }

    /// DWARF numbers of the C convention's argument registers for arguments of these types, or `None`
    /// when some argument would go on the stack (x86-64: rdi rsi rdx rcx r8 r9, xmm0-7; AArch64: x0-x7,
    /// v0-v7).
    fn argument_registers<'t>(&self, types: impl Iterator<Item = &'t Type>) -> Option<Vec<u16>> {
        let (ints, floats): (&[u16], [u16; 8]) = if self.is_aarch64() {
            (&[0, 1, 2, 3, 4, 5, 6, 7], [64, 65, 66, 67, 68, 69, 70, 71])
        } else {
            (&[5, 4, 1, 2, 8, 9], [17, 18, 19, 20, 21, 22, 23, 24])
        };
        let (mut next_int, mut next_float) = (0, 0);
        types
            .map(|ty| {
                let (bank, next) = if ty.is_float() { (&floats[..], &mut next_float) } else { (ints, &mut next_int) };
                let reg = bank.get(*next).copied();
                *next += 1;
                reg
            })
            .collect()
    }

    /// DWARF number of the C convention's result register for `ty` (rax/xmm0, x0/v0).
    fn result_register(&self, ty: &Type) -> u16 {
        match (self.is_aarch64(), ty.is_float()) {
            (false, false) | (true, false) => 0,
            (false, true) => 17,
            (true, true) => 64,
        }
    }

    /// Emits the point: a try_call carrying `args` in the C convention and the live values,
    /// continuing in a fresh block, then `pads` pad calls, then, for a `result`, a last call that
    /// returns it. Returns the result's value.
    ///
    /// The result comes from that last unit, not from the try_call: the region's code (the target's
    /// call, once rewritten) leaves it in the return register, which the pads preserve, and a result
    /// defined at the region's end needs no move inside the region.
    fn emit_point(
        &mut self,
        index: usize,
        context: &[clif::Value],
        args: &[(clif::Value, Type)],
        result: Option<&Type>,
        pads: u32,
    ) -> Option<clif::Value> {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params.extend(args.iter().map(|(_, t)| AbiParam::new(clif_type(t))));
        let signature = self.b.import_signature(sig);
        let name = self.b.func.declare_imported_user_function(UserExternalName::new(POINT_NAMESPACE, index as u32));
        let callee = self.b.import_function(ExtFuncData {
            name: ExternalName::user(name),
            signature,
            colocated: true,
            patchable: args.is_empty(),
        });
        let continuation = self.b.create_block();
        let normal = BlockCall::new(continuation, std::iter::empty::<BlockArg>(), &mut self.b.func.dfg.value_lists);
        let items: Vec<_> = context.iter().map(|&v| ExceptionTableItem::Context(v)).collect();
        let table = self.b.func.dfg.exception_tables.push(ExceptionTableData::new(signature, normal, items));
        let arg_values: Vec<clif::Value> = args.iter().map(|(v, _)| *v).collect();
        self.b.ins().try_call(callee, &arg_values, table);
        self.b.switch_to_block(continuation);
        if pads == 0 && result.is_none() {
            return None;
        }
        // PreserveAll: a pad clobbers nothing, so it never moves a value.
        let pad_name = self.b.func.declare_imported_user_function(UserExternalName::new(PAD_NAMESPACE, index as u32));
        // The result's call is a C call (PreserveAll cannot return values); like the try_call before it,
        // it finds values live across already in callee-saved registers or slots.
        let import = |b: &mut FunctionBuilder, returns: Option<&Type>| {
            let cc = if returns.is_some() { CallConv::SystemV } else { CallConv::PreserveAll };
            let mut sig = Signature::new(cc);
            sig.returns.extend(returns.map(|t| AbiParam::new(clif_type(t))));
            let signature = b.import_signature(sig);
            b.import_function(ExtFuncData {
                name: ExternalName::user(pad_name),
                signature,
                colocated: true,
                patchable: returns.is_none(),
            })
        };
        let pad = import(&mut self.b, None);
        for _ in 0..pads {
            self.b.ins().call(pad, &[]);
        }
        let last = import(&mut self.b, Some(result?));
        let call = self.b.ins().call(last, &[]);
        self.b.inst_results(call).first().copied()
    }
}
