//! Lowering of `llvm.experimental.stackmap` calls: each becomes a *point* whose machine-code offset and
//! live-value locations `compile` reads back after register allocation.
//!
//! A point is a handler-less `try_call` to a patchable, colocated dummy with the SystemV convention
//! whose exception table carries one `Context` item per live value. Context operands are the only
//! uses Cranelift lets sit in any register or stack slot, so recording a value costs no move when it
//! is live across the point anyway; the SystemV clobbers leave values in callee-saved registers or
//! spill slots, as LLVM's stackmaps see them. The 5-byte `call` (x86-64) or 4-byte `bl` (AArch64)
//! becomes nops afterwards. See `docs/stackmap-points.md` for the measurements behind this.
//!
//! Constants never reach the code: they are recorded from the IR, as LLVM does.

use cranelift_codegen::ir::{
    self as clif, BlockArg, BlockCall, ExceptionTableData, ExceptionTableItem, ExtFuncData, ExternalName, InstBuilder,
    Signature, StackSlot, UserExternalName,
};
use cranelift_codegen::isa::CallConv;

use super::Lowering;
use crate::ir::{Const, InstId, IrError, Operand, Type, Value};

/// External-name namespace of the dummy callee of each point (index: the point's number).
pub const POINT_NAMESPACE: u32 = 2;
/// External-name namespace of the pads that extend a point's shadow (index: the point's number).
pub const PAD_NAMESPACE: u32 = 3;

/// What the lowering decided about one stack map point, completed by `compile` once the code exists.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedPoint {
    pub id: u64,
    /// Bytes after the point that must hold no other point, block entry or return address.
    pub shadow: u32,
    /// One entry per live operand, in operand order.
    pub locations: Vec<PlannedLocation>,
    /// Pad calls inserted after the point to lengthen its shadow (0 on a first compile).
    pub pads: u32,
}

/// Where a live operand will be found.
#[derive(Clone, Debug, PartialEq)]
pub enum PlannedLocation {
    /// An integer constant, already extended to 64 bits the way llc-19 does for the target.
    Constant(i64),
    /// An alloca passed directly: its address, `Direct [FP + offset]` of the slot.
    Direct(StackSlot),
    /// A value in the code: the `index`-th Context item of the point, of IR type `ty`.
    Live { index: usize, ty: Type },
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
            return Err(self.error(span, format!("stackmap shadow of {shadow} bytes is not a multiple of 4 on AArch64")));
        }
        let index = self.points.len();
        let (locations, context) = self.plan_live_values(&args[2..])?;
        let pads = self.pads.get(index).copied().unwrap_or(0);
        self.emit_point(index, &context, pads);
        self.points.push(PlannedPoint { id, shadow, locations, pads });
        Ok(())
    }

    /// Decides each live operand's kind of location; returns the Context values to pass.
    fn plan_live_values(&mut self, live: &[Operand]) -> Result<(Vec<PlannedLocation>, Vec<clif::Value>), IrError> {
        let mut locations = Vec::with_capacity(live.len());
        let mut context = Vec::new();
        for operand in live {
            let planned = match (&operand.value, &operand.ty) {
                (Value::Const(Const::Int(v)), ty) if ty.is_int() => PlannedLocation::Constant(self.recorded_constant(*v, ty)),
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

    /// The 64-bit value llc-19 records for an integer constant of type `ty`: after legalisation it
    /// sign-extends from the legal width, so on AArch64 (legal i32/i64) narrower constants read as
    /// zero-extended, while x86-64 (legal i8/i16 too) sign-extends all but i1.
    fn recorded_constant(&self, v: i64, ty: &Type) -> i64 {
        let bits = ty.int_bits().unwrap_or(64);
        let zero_extended = |b: u8| v & ((1i64 << b) - 1);
        match bits {
            1 => zero_extended(1),
            8 | 16 if self.is_aarch64() => zero_extended(bits),
            _ => v,
        }
    }

    /// Emits the point: a try_call carrying the live values, continuing in a fresh block, then
    /// `pads` pad calls that lengthen the shadow.
    fn emit_point(&mut self, index: usize, context: &[clif::Value], pads: u32) {
        let signature = self.b.import_signature(Signature::new(CallConv::SystemV));
        let name = self.b.func.declare_imported_user_function(UserExternalName::new(POINT_NAMESPACE, index as u32));
        let callee = self.b.import_function(ExtFuncData {
            name: ExternalName::user(name),
            signature,
            colocated: true,
            patchable: true,
        });
        let continuation = self.b.create_block();
        let normal = BlockCall::new(continuation, std::iter::empty::<BlockArg>(), &mut self.b.func.dfg.value_lists);
        let items: Vec<_> = context.iter().map(|&v| ExceptionTableItem::Context(v)).collect();
        let table = self.b.func.dfg.exception_tables.push(ExceptionTableData::new(signature, normal, items));
        self.b.ins().try_call(callee, &[], table);
        self.b.switch_to_block(continuation);
        if pads == 0 {
            return;
        }
        // PreserveAll: a pad clobbers nothing, so it never moves a value.
        let pad_signature = self.b.import_signature(Signature::new(CallConv::PreserveAll));
        let pad_name = self.b.func.declare_imported_user_function(UserExternalName::new(PAD_NAMESPACE, index as u32));
        let pad = self.b.import_function(ExtFuncData {
            name: ExternalName::user(pad_name),
            signature: pad_signature,
            colocated: true,
            patchable: true,
        });
        for _ in 0..pads {
            self.b.ins().call(pad, &[]);
        }
    }
}
