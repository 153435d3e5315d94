//! Lowering of calls to the intrinsics of `ir::intrinsics` other than stack maps and patch points:
//! value operations inline, memory operations as Cranelift's small copies or `memcpy`/`memmove`/
//! `memset` calls, `trap`, the dynamic stack's save and restore, and nothing for hints.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{self as clif, types, InstBuilder, MemFlagsData, TrapCode};

use super::{clif_type, dynamic_stack, symbols, Lowering};
use crate::ir::{
    Extension, FloatRoutine, InstId, Intrinsic, IntrinsicOp, IrError, LibraryRoutine, Operand, Overflow, ParamAbi,
    Type, Value,
};

/// The type of an intrinsic's first operand.
fn ty_of(args: &[Operand]) -> Type {
    args.first().map_or(Type::Void, |a| a.ty.clone())
}

/// Every class `llvm.is.fpclass` names (bits 0-9).
const FP_CLASSES: u32 = 0x3ff;

/// What `llvm.trap` and its kin leave in trap records.
pub(crate) const LLVM_TRAP: TrapCode = TrapCode::unwrap_user(2);

impl Lowering<'_> {
    /// Lowers a call of `intrinsic` at instruction `inst`; the result, if any, is the call's value.
    pub(super) fn intrinsic(
        &mut self,
        inst: InstId,
        intrinsic: Intrinsic,
        args: &[Operand],
    ) -> Result<Option<clif::Value>, IrError> {
        let span = self.f.inst(inst).span;
        let ty = self.f.inst(inst).ty.clone();
        match intrinsic {
            Intrinsic::Reduce(op) => return self.reduce(op, args).map(Some),
            Intrinsic::Op(op) if ty.is_vector() => {
                let lanes = self.intrinsic_lanes(op, &ty, args)?;
                self.aggregates.insert(inst, lanes);
                return Ok(None);
            }
            Intrinsic::FloatToIntSat { signed } if ty.is_vector() => {
                let operand = args[0].ty.lane_type();
                let lanes = self.scalars(&args[0].value, &args[0].ty)?;
                let lanes = lanes.into_iter().map(|x| self.saturated_to_int(signed, operand, ty.lane_type(), x));
                let lanes = lanes.collect();
                self.aggregates.insert(inst, lanes);
                return Ok(None);
            }
            Intrinsic::IsFpClass if ty.is_vector() => {
                let classes = self.class_mask(span, &args[1])?;
                let operand = args[0].ty.lane_type();
                let lanes = self.scalars(&args[0].value, &args[0].ty)?;
                let lanes = lanes.into_iter().map(|x| self.of_classes(operand, x, classes)).collect();
                self.aggregates.insert(inst, lanes);
                return Ok(None);
            }
            Intrinsic::ThreeWayCompare { signed } if ty.is_vector() => {
                let operand = args[0].ty.lane_type();
                let (a, b) = (self.scalars(&args[0].value, &args[0].ty)?, self.scalars(&args[1].value, &args[1].ty)?);
                let lanes = a.iter().zip(&b).map(|(&a, &b)| self.three_way(signed, operand, ty.lane_type(), a, b));
                let lanes = lanes.collect();
                self.aggregates.insert(inst, lanes);
                return Ok(None);
            }
            _ => {}
        }
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            values.push(self.value(&a.value, &a.ty)?);
        }
        Ok(match intrinsic {
            Intrinsic::Op(op) => Some(self.intrinsic_op(op, &ty, &values)),
            Intrinsic::ThreeWayCompare { signed } => {
                Some(self.three_way(signed, &args[0].ty, &ty, values[0], values[1]))
            }
            Intrinsic::FloatToIntSat { signed } => Some(self.saturated_to_int(signed, &args[0].ty, &ty, values[0])),
            Intrinsic::IsFpClass => {
                let classes = self.class_mask(span, &args[1])?;
                Some(self.of_classes(&args[0].ty, values[0], classes))
            }
            Intrinsic::FloatRoutine(routine) => Some(self.float_routine(routine, &ty, args, &values)),
            Intrinsic::MemCpy | Intrinsic::MemMove | Intrinsic::MemSet => {
                self.memory_intrinsic(intrinsic, args, &values);
                None
            }
            Intrinsic::Trap => {
                self.b.ins().trap(LLVM_TRAP);
                // What follows in the IR block (an `unreachable`, usually) lands in a block of its own
                // that nothing reaches.
                let rest = self.b.create_block();
                self.b.switch_to_block(rest);
                None
            }
            Intrinsic::StackSave => {
                let (state, _) = self.dynamic_stack.expect("set up for functions that save the dynamic stack");
                Some(self.b.ins().load(types::I64, MemFlagsData::trusted(), state, dynamic_stack::TOP))
            }
            Intrinsic::StackRestore => {
                let (state, _) = self.dynamic_stack.expect("set up for functions that restore the dynamic stack");
                self.b.ins().store(MemFlagsData::trusted(), values[0], state, dynamic_stack::TOP);
                None
            }
            Intrinsic::WithOverflow(op) if ty_of(args) == Type::I128 => {
                let (result, overflow) = self.wide_overflow(op, values[0], values[1]);
                self.aggregates.insert(inst, vec![result, overflow]);
                None
            }
            Intrinsic::WithOverflow(op) => {
                let (a, b) = (values[0], values[1]);
                let (result, overflow) = match op {
                    Overflow::SAdd => self.b.ins().sadd_overflow(a, b),
                    Overflow::UAdd => self.b.ins().uadd_overflow(a, b),
                    Overflow::SSub => self.b.ins().ssub_overflow(a, b),
                    Overflow::USub => self.b.ins().usub_overflow(a, b),
                    Overflow::SMul => self.b.ins().smul_overflow(a, b),
                    Overflow::UMul => self.b.ins().umul_overflow(a, b),
                };
                self.aggregates.insert(inst, vec![result, overflow]);
                None
            }
            Intrinsic::ObjectSize => {
                let min = matches!(args[1].value, Value::Const(crate::ir::Const::Int(v)) if v & 1 != 0);
                Some(self.b.ins().iconst(clif_type(&ty), if min { 0 } else { -1 }))
            }
            Intrinsic::IsConstant => {
                Some(self.b.ins().iconst(types::I8, i64::from(matches!(args[0].value, Value::Const(_)))))
            }
            Intrinsic::PtrMask => Some(self.b.ins().band(values[0], values[1])),
            Intrinsic::LoadRelative => {
                let offset = match args[1].ty {
                    Type::Int(32) => self.b.ins().sextend(types::I64, values[1]),
                    _ => values[1],
                };
                let entry = self.b.ins().iadd(values[0], offset);
                let relative = self.b.ins().sload32(MemFlagsData::trusted(), entry, 0);
                Some(self.b.ins().iadd(values[0], relative))
            }
            Intrinsic::ThreadLocalAddress => Some(values[0]),
            Intrinsic::Hint | Intrinsic::VaEnd => None,
            Intrinsic::PassThrough => Some(values[0]),
            Intrinsic::InvariantStart => Some(self.b.ins().iconst(types::I64, 0)),
            Intrinsic::VaStart => {
                self.va_start(values[0], span)?;
                None
            }
            Intrinsic::VaCopy => {
                self.va_copy(values[0], values[1]);
                None
            }
            // Frame pointers are always kept (`preserve_frame_pointers`): each frame's starts with
            // the caller's frame pointer, then the return address (x86-64's pushed one, AArch64's
            // saved lr), as LLVM's lowering of both intrinsics assumes.
            Intrinsic::FrameAddress => Some(self.frame_address(span, &args[0], "frameaddress")?),
            Intrinsic::ThreadPointer => Some(self.b.ins().get_thread_pointer(types::I64)),
            Intrinsic::ReturnAddress => {
                let frame = self.frame_address(span, &args[0], "returnaddress")?;
                Some(self.b.ins().load(types::I64, MemFlagsData::trusted(), frame, 8))
            }
            Intrinsic::AddressOfReturnAddress => {
                let frame = self.b.ins().get_frame_pointer(types::I64);
                Some(self.b.ins().iadd_imm_s(frame, 8))
            }
            Intrinsic::TypeIdFor => Some(self.type_id_for(span, &args[0])?),
            Intrinsic::StackMap
            | Intrinsic::PatchPoint
            | Intrinsic::Statepoint
            | Intrinsic::GcResult
            | Intrinsic::GcRelocate
            | Intrinsic::ReturnWithRegisters
            | Intrinsic::Reduce(_) => {
                return Err(self.error(span, "this intrinsic is lowered elsewhere or not supported"));
            }
        })
    }

    /// `op.with.overflow` on I128 values, which Cranelift's overflow instructions do not take:
    /// the wrapped result and whether the exact one differs, from the halves.
    fn wide_overflow(&mut self, op: Overflow, a: clif::Value, b: clif::Value) -> (clif::Value, clif::Value) {
        match op {
            Overflow::UAdd => {
                let sum = self.b.ins().iadd(a, b);
                (sum, self.b.ins().icmp(IntCC::UnsignedLessThan, sum, a))
            }
            Overflow::USub => {
                let difference = self.b.ins().isub(a, b);
                (difference, self.b.ins().icmp(IntCC::UnsignedLessThan, a, b))
            }
            Overflow::SAdd | Overflow::SSub => {
                // The result's sign is wrong when the operands' signs allowed an overflow (alike for
                // a sum, different for a difference) and it differs from a's.
                let (result, possible) = if op == Overflow::SAdd {
                    let sum = self.b.ins().iadd(a, b);
                    let same = self.b.ins().bxor(a, b);
                    (sum, self.b.ins().bnot(same))
                } else {
                    (self.b.ins().isub(a, b), self.b.ins().bxor(a, b))
                };
                let changed = self.b.ins().bxor(a, result);
                let both = self.b.ins().band(possible, changed);
                let (_, high) = self.b.ins().isplit(both);
                (result, self.b.ins().icmp_imm_s(IntCC::SignedLessThan, high, 0))
            }
            Overflow::UMul => {
                // (ah·2^64 + al)(bh·2^64 + bl) fits in 128 bits when ah or bh is 0, the cross
                // product fits in 64 bits and adding it to the high half of al·bl does not carry.
                let product = self.b.ins().imul(a, b);
                let (al, ah) = self.b.ins().isplit(a);
                let (bl, bh) = self.b.ins().isplit(b);
                let a_wide = self.b.ins().icmp_imm_s(IntCC::NotEqual, ah, 0);
                let b_wide = self.b.ins().icmp_imm_s(IntCC::NotEqual, bh, 0);
                let both_wide = self.b.ins().band(a_wide, b_wide);
                let (cross_a, carry_a) = self.b.ins().umul_overflow(ah, bl);
                let (cross_b, carry_b) = self.b.ins().umul_overflow(bh, al);
                let cross = self.b.ins().iadd(cross_a, cross_b);
                let low_high = self.b.ins().umulhi(al, bl);
                let (_, carry) = self.b.ins().uadd_overflow(low_high, cross);
                let mut overflow = self.b.ins().bor(both_wide, carry_a);
                for flag in [carry_b, carry] {
                    overflow = self.b.ins().bor(overflow, flag);
                }
                (product, overflow)
            }
            Overflow::SMul => unreachable!("refused by the intrinsic's signature"),
        }
    }

    /// `scmp`/`ucmp` of `a` and `b` (of integer type `operand`): `(a > b) - (a < b)` as type `ty`,
    /// which is how llc-19 computes it (two flags of one comparison on x86-64).
    fn three_way(&mut self, signed: bool, operand: &Type, ty: &Type, a: clif::Value, b: clif::Value) -> clif::Value {
        let (a, b, above, below) = match signed {
            // An iN is held zero-extended; a signed comparison sees its sign bit as the container's.
            true => (self.signed(operand, a), self.signed(operand, b), IntCC::SignedGreaterThan, IntCC::SignedLessThan),
            false => (a, b, IntCC::UnsignedGreaterThan, IntCC::UnsignedLessThan),
        };
        let t = clif_type(ty);
        let [above, below] = [above, below].map(|cc| {
            let flag = self.b.ins().icmp(cc, a, b);
            if t == types::I8 {
                flag
            } else {
                self.b.ins().uextend(t, flag)
            }
        });
        let difference = self.b.ins().isub(above, below);
        self.canonical(ty, difference)
    }

    /// `fptosi.sat`/`fptoui.sat` of `x` (of type `from`) to integer type `to`: Cranelift's
    /// saturating conversion to 32 or 64 bits, clamped again to a narrower `to`'s range.
    fn saturated_to_int(&mut self, signed: bool, from: &Type, to: &Type, x: clif::Value) -> clif::Value {
        let x = if *from == Type::Half { self.half_to_float(x) } else { x };
        let bits = to.int_bits().expect("verified: an integer result");
        let wide = if bits > 32 { types::I64 } else { types::I32 };
        let mut v =
            if signed { self.b.ins().fcvt_to_sint_sat(wide, x) } else { self.b.ins().fcvt_to_uint_sat(wide, x) };
        if u32::from(bits) < wide.bits() {
            let max = if signed { (1i64 << (bits - 1)) - 1 } else { ((1u64 << bits) - 1) as i64 };
            let high = self.int_const(wide, i128::from(max));
            v = if signed { self.b.ins().smin(v, high) } else { self.b.ins().umin(v, high) };
            if signed {
                let low = self.int_const(wide, -(1i128 << (bits - 1)));
                v = self.b.ins().smax(v, low);
            }
        }
        let t = clif_type(to);
        let narrowed = if t.bits() < wide.bits() { self.b.ins().ireduce(t, v) } else { v };
        self.canonical(to, narrowed)
    }

    /// The constant class mask of `llvm.is.fpclass` (an `immarg`).
    fn class_mask(&self, span: crate::ir::Span, mask: &Operand) -> Result<u32, IrError> {
        match mask.value {
            Value::Const(crate::ir::Const::Int(m)) => Ok(m as u32 & FP_CLASSES),
            _ => Err(self.error(span, "llvm.is.fpclass takes a constant class mask")),
        }
    }

    /// Whether `x` (of type `ty`) is of one of the classes of `llvm.is.fpclass` mask `classes`, as
    /// an `i8` 0 or 1: integer tests on its bits (NaN and infinity by the exponent, normal and
    /// subnormal numbers by one unsigned range test each, the sign by the top bit).
    fn of_classes(&mut self, ty: &Type, x: clif::Value, classes: u32) -> clif::Value {
        let (it, mantissa_bits) = match ty {
            Type::Half => (types::I16, 10),
            Type::Float => (types::I32, 23),
            _ => (types::I64, 52),
        };
        if classes == 0 || classes == FP_CLASSES {
            return self.b.ins().iconst(types::I8, i64::from(classes != 0));
        }
        let sign = 1u64 << (it.bits() - 1);
        let infinity = (sign - 1) & !((1u64 << mantissa_bits) - 1);
        let quiet = 1u64 << (mantissa_bits - 1);
        let min_normal = 1u64 << mantissa_bits;
        let bits = self.b.ins().bitcast(it, MemFlagsData::new(), x);
        let magnitude = self.b.ins().band_imm_u(bits, (sign - 1) as i64);
        let mut tests: Vec<(u32, clif::Value)> = Vec::new();
        let pair = |negative: u32, positive: u32| (1u32 << negative) | (1u32 << positive);
        // (classes of either sign, test of the magnitude)
        let kinds = [
            (pair(2, 9), IntCC::Equal, infinity, 0u64),
            (pair(5, 6), IntCC::Equal, 0, 0),
            // magnitude - min_normal < infinity - min_normal: normal
            (pair(3, 8), IntCC::UnsignedLessThan, infinity - min_normal, min_normal),
            // magnitude - 1 < min_normal - 1: subnormal
            (pair(4, 7), IntCC::UnsignedLessThan, min_normal - 1, 1),
        ];
        let negative = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, bits, 0);
        for (both, cc, bound, offset) in kinds {
            let wanted = classes & both;
            if wanted == 0 {
                continue;
            }
            let shifted = if offset == 0 { magnitude } else { self.b.ins().iadd_imm_s(magnitude, -(offset as i64)) };
            let k = self.int_const(it, i128::from(bound));
            let test = self.b.ins().icmp(cc, shifted, k);
            let test = match wanted {
                w if w == both => test,
                // Only the negative ones: the lower bit of the pair.
                w if w.trailing_zeros() == both.trailing_zeros() => self.b.ins().band(test, negative),
                _ => {
                    let positive = self.b.ins().bxor_imm_u(negative, 1);
                    self.b.ins().band(test, positive)
                }
            };
            tests.push((wanted, test));
        }
        let nan = classes & 0b11;
        if nan != 0 {
            // Quiet NaNs have the top mantissa bit; signalling ones not (and are not infinity).
            let (cc, bound) = match nan {
                0b11 => (IntCC::UnsignedGreaterThan, infinity),
                0b10 => (IntCC::UnsignedGreaterThanOrEqual, infinity | quiet),
                _ => (IntCC::UnsignedGreaterThan, infinity),
            };
            let k = self.int_const(it, i128::from(bound));
            let mut test = self.b.ins().icmp(cc, magnitude, k);
            if nan == 0b01 {
                let quiet_k = self.int_const(it, i128::from(infinity | quiet));
                let not_quiet = self.b.ins().icmp(IntCC::UnsignedLessThan, magnitude, quiet_k);
                test = self.b.ins().band(test, not_quiet);
            }
            tests.push((nan, test));
        }
        let mut any = tests[0].1;
        for &(_, t) in &tests[1..] {
            any = self.b.ins().bor(any, t);
        }
        any
    }

    /// A call of [`FloatRoutine`] `routine` with IR operands `args` (lowered: `v`) and result type `ty`.
    fn float_routine(&mut self, routine: FloatRoutine, ty: &Type, args: &[Operand], v: &[clif::Value]) -> clif::Value {
        let params: Vec<Type> = args.iter().map(|a| a.ty.clone()).collect();
        let library = Intrinsic::FloatRoutine(routine).library_routine(ty, &params).expect("verified operand types");
        let mut operands = v.to_vec();
        if args[0].ty == Type::Half {
            operands[0] = self.half_to_float(operands[0]);
        }
        let result = self.call_routine(&library, &operands);
        match ty {
            Type::Half => self.rounded_to_half(result),
            Type::Int(32) => self.b.ins().ireduce(types::I32, result),
            _ => result,
        }
    }

    /// A call of the C library routine that computes `op` on `float` or `double` operands `v`
    /// ([`IntrinsicOp::library_routine`]).
    fn library_call(&mut self, op: IntrinsicOp, ty: &Type, v: &[clif::Value]) -> clif::Value {
        let params = vec![ty.clone(); v.len()];
        let library = Intrinsic::Op(op).library_routine(ty, &params).expect("a library operation on float or double");
        self.call_routine(&library, v)
    }

    /// A call of `routine`, imported by [`super::Symbols`] for the module's intrinsics, with `operands`.
    fn call_routine(&mut self, routine: &LibraryRoutine, operands: &[clif::Value]) -> clif::Value {
        let id = self.symbols.math_routine(routine.name).expect("imported for the intrinsic's declaration");
        let plain: Vec<_> = routine.params.iter().map(|p| (p, &ParamAbi::Plain, Extension::None)).collect();
        let sig = symbols::signature(self.isa.default_call_conv(), self.arch, (&routine.ret, Extension::None), plain);
        let callee = self.import(id, sig);
        let call = self.b.ins().call(callee, operands);
        self.b.inst_results(call)[0]
    }

    /// The frame pointer of this function, or of the frame `depth` frames up (the constant
    /// `depth` operand of `llvm.<name>`), through the saved frame pointers.
    fn frame_address(&mut self, span: crate::ir::Span, depth: &Operand, name: &str) -> Result<clif::Value, IrError> {
        let Value::Const(crate::ir::Const::Int(depth)) = depth.value else {
            return Err(self.error(span, format!("llvm.{name} takes a constant depth")));
        };
        let mut frame = self.b.ins().get_frame_pointer(types::I64);
        for _ in 0..depth {
            frame = self.b.ins().load(types::I64, MemFlagsData::trusted(), frame, 0);
        }
        Ok(frame)
    }

    /// A value operation on operands of type `ty` (its result's type).
    pub(super) fn intrinsic_op(&mut self, op: IntrinsicOp, ty: &Type, v: &[clif::Value]) -> clif::Value {
        if *ty == Type::Half {
            // Promoted as LLVM does: computed in float, rounded back to half.
            let wide: Vec<clif::Value> = v
                .iter()
                .map(|&x| if self.b.func.dfg.value_type(x) == types::F16 { self.half_to_float(x) } else { x })
                .collect();
            let result = self.intrinsic_op(op, &Type::Float, &wide);
            return self.rounded_to_half(result);
        }
        if let Some(n) = ty.int_bits().filter(|&n| n < crate::ir::container_bits(n)) {
            return self.narrow_intrinsic_op(op, ty, n, v);
        }
        let t = clif_type(ty);
        let bits = i64::from(t.bits());
        match op {
            IntrinsicOp::Math(_) => self.library_call(op, ty, v),
            IntrinsicOp::Ctpop => self.b.ins().popcnt(v[0]),
            IntrinsicOp::Ctlz if self.zero_is_poison(v) && self.arch.counts_zeros_with_stop_bit() => {
                let stopped = self.b.ins().bor_imm_u(v[0], 1);
                self.b.ins().clz(stopped)
            }
            IntrinsicOp::Ctlz => self.b.ins().clz(v[0]),
            IntrinsicOp::Cttz if self.zero_is_poison(v) && self.arch.counts_zeros_with_stop_bit() => {
                let stopped = self.b.ins().bor_imm_u(v[0], 1u64.wrapping_shl(t.bits() - 1) as i64);
                self.b.ins().ctz(stopped)
            }
            IntrinsicOp::Cttz => self.b.ins().ctz(v[0]),
            IntrinsicOp::Bswap => self.b.ins().bswap(v[0]),
            IntrinsicOp::Bitreverse if t.bits() >= 16 && t.bits() <= 64 && !self.arch.reverses_bits() => {
                self.reversed_by_bytes(t, v[0])
            }
            IntrinsicOp::Bitreverse => self.b.ins().bitrev(v[0]),
            // Neither backend has these at 128 bits: a comparison picks the operand.
            IntrinsicOp::Abs if t == types::I128 => {
                let negative = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, v[0], 0);
                let negated = self.b.ins().ineg(v[0]);
                self.select(negative, negated, v[0])
            }
            IntrinsicOp::SMax | IntrinsicOp::SMin | IntrinsicOp::UMax | IntrinsicOp::UMin if t == types::I128 => {
                let cc = match op {
                    IntrinsicOp::SMax => IntCC::SignedGreaterThan,
                    IntrinsicOp::SMin => IntCC::SignedLessThan,
                    IntrinsicOp::UMax => IntCC::UnsignedGreaterThan,
                    _ => IntCC::UnsignedLessThan,
                };
                let first = self.b.ins().icmp(cc, v[0], v[1]);
                self.select(first, v[0], v[1])
            }
            IntrinsicOp::Abs => self.b.ins().iabs(v[0]),
            IntrinsicOp::SMax => self.b.ins().smax(v[0], v[1]),
            IntrinsicOp::SMin => self.b.ins().smin(v[0], v[1]),
            IntrinsicOp::UMax => self.b.ins().umax(v[0], v[1]),
            IntrinsicOp::UMin => self.b.ins().umin(v[0], v[1]),
            IntrinsicOp::UAddSat => {
                let sum = self.b.ins().iadd(v[0], v[1]);
                let wrapped = self.b.ins().icmp(IntCC::UnsignedLessThan, sum, v[0]);
                let max = self.int_const(t, -1);
                self.select(wrapped, max, sum)
            }
            IntrinsicOp::USubSat => {
                let below = self.b.ins().icmp(IntCC::UnsignedLessThan, v[0], v[1]);
                let difference = self.b.ins().isub(v[0], v[1]);
                let zero = self.int_const(t, 0);
                self.select(below, zero, difference)
            }
            IntrinsicOp::SAddSat | IntrinsicOp::SSubSat => {
                // Overflow when the operands' signs make it possible and the result's differs from
                // a's; the clamp is then toward a's sign.
                let (result, possible) = if op == IntrinsicOp::SAddSat {
                    let sum = self.b.ins().iadd(v[0], v[1]);
                    let same = self.b.ins().bxor(v[0], v[1]);
                    (sum, self.b.ins().bnot(same))
                } else {
                    (self.b.ins().isub(v[0], v[1]), self.b.ins().bxor(v[0], v[1]))
                };
                let changed = self.b.ins().bxor(v[0], result);
                let both = self.b.ins().band(possible, changed);
                let overflow = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, both, 0);
                let negative = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, v[0], 0);
                let min = self.int_const(t, i128::MIN >> (128 - bits));
                let max = self.int_const(t, i128::MAX >> (128 - bits));
                let clamp = self.select(negative, min, max);
                self.select(overflow, clamp, result)
            }
            // A funnel shift of a value with itself is a rotate (by the amount modulo N, as Cranelift's
            // rotates take it): one `rol`/`ror` instead of two shifts and an or.
            IntrinsicOp::Fshl if v[0] == v[1] && bits <= 64 => self.b.ins().rotl(v[0], v[2]),
            IntrinsicOp::Fshr if v[0] == v[1] && bits <= 64 => self.b.ins().rotr(v[0], v[2]),
            IntrinsicOp::Fshl | IntrinsicOp::Fshr => {
                // With s = shift % N in 0..N, shifting the other half by 1 and then by N - 1 - s
                // (s ^ (N - 1)) never needs a shift by N, which Cranelift would take modulo N.
                let s = self.b.ins().band_imm_s(v[2], bits - 1);
                let rest = self.b.ins().bxor_imm_s(s, bits - 1);
                if op == IntrinsicOp::Fshl {
                    let high = self.b.ins().ishl(v[0], s);
                    let low = self.b.ins().ushr_imm_s(v[1], 1);
                    let low = self.b.ins().ushr(low, rest);
                    self.b.ins().bor(high, low)
                } else {
                    let low = self.b.ins().ushr(v[1], s);
                    let high = self.b.ins().ishl_imm_s(v[0], 1);
                    let high = self.b.ins().ishl(high, rest);
                    self.b.ins().bor(high, low)
                }
            }
            IntrinsicOp::Expect => v[0],
            IntrinsicOp::Fabs => self.b.ins().fabs(v[0]),
            IntrinsicOp::Sqrt => self.b.ins().sqrt(v[0]),
            IntrinsicOp::Floor => self.b.ins().floor(v[0]),
            IntrinsicOp::Ceil => self.b.ins().ceil(v[0]),
            IntrinsicOp::Trunc => self.b.ins().trunc(v[0]),
            IntrinsicOp::RoundEven => self.b.ins().nearest(v[0]),
            IntrinsicOp::Round => {
                // Ties away from zero: trunc, then one step away from zero if the part cut off is at
                // least a half (exact: x - trunc(x) needs no rounding). NaN stays NaN, -0.4 gives -0.
                let truncated = self.b.ins().trunc(v[0]);
                let cut = self.b.ins().fsub(v[0], truncated);
                let cut = self.b.ins().fabs(cut);
                let half = self.float_constant(t, 0.5);
                let far = self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, cut, half);
                let one = self.float_constant(t, 1.0);
                let step = self.b.ins().fcopysign(one, v[0]);
                let away = self.b.ins().fadd(truncated, step);
                self.b.ins().select(far, away, truncated)
            }
            IntrinsicOp::CopySign => self.b.ins().fcopysign(v[0], v[1]),
            IntrinsicOp::Minimum => self.b.ins().fmin(v[0], v[1]),
            IntrinsicOp::Maximum => self.b.ins().fmax(v[0], v[1]),
            IntrinsicOp::MinNum | IntrinsicOp::MaxNum => {
                // A NaN operand yields the other one (IEEE minNum/maxNum); Cranelift's fmin/fmax
                // propagate NaNs.
                let both = if op == IntrinsicOp::MinNum {
                    self.b.ins().fmin(v[0], v[1])
                } else {
                    self.b.ins().fmax(v[0], v[1])
                };
                let b_nan = self.b.ins().fcmp(FloatCC::Unordered, v[1], v[1]);
                let a_or_both = self.b.ins().select(b_nan, v[0], both);
                let a_nan = self.b.ins().fcmp(FloatCC::Unordered, v[0], v[0]);
                self.b.ins().select(a_nan, v[1], a_or_both)
            }
            IntrinsicOp::Fma => self.b.ins().fma(v[0], v[1], v[2]),
            IntrinsicOp::FMulAdd if self.arch.fuses_multiply_add() => self.b.ins().fma(v[0], v[1], v[2]),
            IntrinsicOp::FMulAdd => {
                let product = self.b.ins().fmul(v[0], v[1]);
                // `a * b + -c` is `a * b - c` (LLVM leaves a NaN's sign unspecified): clang writes
                // `x*x - y*y` as fmuladd(x, x, fneg(y*y)), and llc-19 folds the negation the same way.
                match self.negated(v[2]) {
                    Some(c) => self.b.ins().fsub(product, c),
                    None => self.b.ins().fadd(product, v[2]),
                }
            }
        }
    }

    /// `x`'s bits reversed, for a 16-, 32- or 64-bit `t`: its bytes swapped, then within each byte
    /// its nibbles, bit pairs and bits (each step `((x >> k) & m) + ((x & m) << k)`: the halves'
    /// bits are disjoint, so the add is their or, and x86-64 makes the shift and add of the pair and
    /// bit steps one `lea` as llc-19 does).
    fn reversed_by_bytes(&mut self, t: clif::Type, x: clif::Value) -> clif::Value {
        let mut x = self.b.ins().bswap(x);
        for (k, mask) in [(4, 0x0f0f_0f0f_0f0f_0f0f_u64), (2, 0x3333_3333_3333_3333), (1, 0x5555_5555_5555_5555)] {
            let mask = self.b.ins().iconst(t, (mask >> (64 - t.bits())) as i64);
            let high = self.b.ins().ushr_imm_s(x, k);
            let high = self.b.ins().band(high, mask);
            let low = self.b.ins().band(x, mask);
            let low = self.b.ins().ishl_imm_s(low, k);
            x = self.b.ins().iadd(high, low);
        }
        x
    }

    /// An integer intrinsic on an `iN` narrower than its container (an `i24` in an I32): the
    /// operands are canonical (zero-extended), and so must the result be. Computed in the container,
    /// which holds every exact sum or difference of two N-bit values.
    fn narrow_intrinsic_op(&mut self, op: IntrinsicOp, ty: &Type, n: u8, v: &[clif::Value]) -> clif::Value {
        let t = clif_type(ty);
        let unused = i64::from(t.bits()) - i64::from(n);
        let n = i64::from(n);
        let result = match op {
            IntrinsicOp::Ctpop => self.b.ins().popcnt(v[0]),
            IntrinsicOp::UMax => self.b.ins().umax(v[0], v[1]),
            IntrinsicOp::UMin => self.b.ins().umin(v[0], v[1]),
            IntrinsicOp::USubSat => {
                let below = self.b.ins().icmp(IntCC::UnsignedLessThan, v[0], v[1]);
                let difference = self.b.ins().isub(v[0], v[1]);
                let zero = self.b.ins().iconst(t, 0);
                self.b.ins().select(below, zero, difference)
            }
            IntrinsicOp::Expect => v[0],
            IntrinsicOp::Ctlz => {
                let zeros = self.b.ins().clz(v[0]);
                self.b.ins().iadd_imm_s(zeros, -unused)
            }
            IntrinsicOp::Cttz => {
                // A zero has N trailing zeros: a bit just above the value stops the count there.
                let stop = self.b.ins().bor_imm_u(v[0], 1i64 << n);
                self.b.ins().ctz(stop)
            }
            IntrinsicOp::Bswap => {
                let swapped = self.b.ins().bswap(v[0]);
                self.b.ins().ushr_imm_s(swapped, unused)
            }
            IntrinsicOp::Bitreverse => {
                let reversed = self.b.ins().bitrev(v[0]);
                self.b.ins().ushr_imm_s(reversed, unused)
            }
            IntrinsicOp::Abs | IntrinsicOp::SMax | IntrinsicOp::SMin => {
                let a = self.signed(ty, v[0]);
                match op {
                    IntrinsicOp::Abs => self.b.ins().iabs(a),
                    _ => {
                        let b = self.signed(ty, v[1]);
                        if op == IntrinsicOp::SMax {
                            self.b.ins().smax(a, b)
                        } else {
                            self.b.ins().smin(a, b)
                        }
                    }
                }
            }
            IntrinsicOp::UAddSat => {
                let sum = self.b.ins().iadd(v[0], v[1]);
                let max = self.b.ins().iconst(t, ((1u64 << n) - 1) as i64);
                self.b.ins().umin(sum, max)
            }
            IntrinsicOp::SAddSat | IntrinsicOp::SSubSat => {
                let (a, b) = (self.signed(ty, v[0]), self.signed(ty, v[1]));
                let exact = if op == IntrinsicOp::SAddSat { self.b.ins().iadd(a, b) } else { self.b.ins().isub(a, b) };
                let (min, max) =
                    (self.b.ins().iconst(t, -(1i64 << (n - 1))), self.b.ins().iconst(t, (1i64 << (n - 1)) - 1));
                let low = self.b.ins().smax(exact, min);
                self.b.ins().smin(low, max)
            }
            IntrinsicOp::Fshl | IntrinsicOp::Fshr => {
                // The amount is taken modulo N; shifting the other operand by N (< the container's
                // width) gives 0, so an amount of 0 needs no special case.
                let s = self.b.ins().urem_imm_u(v[2], n);
                let width = self.b.ins().iconst(t, n);
                let rest = self.b.ins().isub(width, s);
                let (high, low) = if op == IntrinsicOp::Fshl {
                    (self.b.ins().ishl(v[0], s), self.b.ins().ushr(v[1], rest))
                } else {
                    (self.b.ins().ishl(v[0], rest), self.b.ins().ushr(v[1], s))
                };
                self.b.ins().bor(high, low)
            }
            _ => unreachable!("the float intrinsics have float types"),
        };
        self.canonical(ty, result)
    }

    /// Whether `ctlz`/`cttz`'s second operand (`v[1]`, an `i1` constant) says a zero operand gives
    /// poison, which lets the count be anything there.
    fn zero_is_poison(&self, v: &[clif::Value]) -> bool {
        let Some(&flag) = v.get(1) else { return false };
        let dfg = &self.b.func.dfg;
        let clif::ValueDef::Result(inst, 0) = dfg.value_def(flag) else { return false };
        matches!(dfg.insts[inst], clif::InstructionData::UnaryImm { opcode: clif::Opcode::Iconst, imm } if imm.bits() & 1 != 0)
    }

    /// `x` if `v` is `fneg x` in the function built so far.
    fn negated(&self, v: clif::Value) -> Option<clif::Value> {
        let dfg = &self.b.func.dfg;
        let clif::ValueDef::Result(inst, 0) = dfg.value_def(v) else { return None };
        match dfg.insts[inst] {
            clif::InstructionData::Unary { opcode: clif::Opcode::Fneg, arg } => Some(arg),
            _ => None,
        }
    }

    fn float_constant(&mut self, t: clif::Type, x: f64) -> clif::Value {
        if t == types::F32 {
            self.b.ins().f32const(x as f32)
        } else {
            self.b.ins().f64const(x)
        }
    }

    /// `memcpy`, `memmove` and `memset`: a constant length up to Cranelift's small-copy limit
    /// becomes loads and stores, anything else a call of the C library's function.
    fn memory_intrinsic(&mut self, intrinsic: Intrinsic, args: &[Operand], v: &[clif::Value]) {
        let config = self.isa.frontend_config();
        let length = match args[2].value {
            Value::Const(crate::ir::Const::Int(n)) if args[2].ty == Type::I32 => Some(u64::from(n as u32)),
            Value::Const(crate::ir::Const::Int(n)) => Some(n as u64),
            _ => None,
        };
        // Cranelift's small copies take at most 4 accesses of the largest power of two (up to 8)
        // that divides the length; longer ones call the C library.
        let small = length.filter(|&n| n > 0 && n / (1u64 << n.trailing_zeros().min(3)) <= 4);
        let flags = MemFlagsData::new();
        match (intrinsic, small) {
            (Intrinsic::MemSet, Some(n)) => {
                if let Value::Const(crate::ir::Const::Int(byte)) = args[1].value {
                    self.b.emit_small_memset(config, v[0], byte as u8, n, 1, flags);
                    return;
                }
            }
            (Intrinsic::MemCpy | Intrinsic::MemMove, Some(n)) => {
                let non_overlapping = intrinsic == Intrinsic::MemCpy;
                self.b.emit_small_memory_copy(config, v[0], v[1], n, 1, 1, non_overlapping, flags);
                return;
            }
            _ if length == Some(0) => return,
            _ => {}
        }
        let size = if args[2].ty == Type::I64 { v[2] } else { self.b.ins().uextend(types::I64, v[2]) };
        match intrinsic {
            Intrinsic::MemSet => {
                // Takes the byte as an i8 and widens it for C's `int` itself.
                self.b.call_memset(config, v[0], v[1], size);
            }
            Intrinsic::MemCpy => self.b.call_memcpy(config, v[0], v[1], size),
            _ => self.b.call_memmove(config, v[0], v[1], size),
        }
    }
}
