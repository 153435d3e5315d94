//! The scalar operations on value bits: integers zero-extended from their width, `half` as its bits
//! in the low 16 (computed in `float` and rounded back, as LLVM legalises it), `float` as its f32
//! bits in the low 32, `double` as f64 bits, `ptr` as a 64-bit address. Where LLVM leaves a result
//! undefined (poison), these follow what the Cranelift lowering computes, so that interpreted and
//! compiled code agree wherever they can.

use crate::ir::half;
use crate::ir::{
    BinOp, CastOp, Const, FloatPred, FloatRoutine, IntPred, IntrinsicOp, MathFunction, Overflow, RmwOp, Type,
};

/// The width a value of type `ty` is kept zero-extended from.
pub fn width(ty: &Type) -> u8 {
    match ty {
        Type::Int(bits) => *bits,
        Type::Half => 16,
        Type::Float => 32,
        _ => 64,
    }
}

/// The low `bits` bits of `v`.
pub fn mask(bits: u8, v: u64) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

/// `v`'s low `bits` bits read as a signed number (an `i1` 1 is -1).
pub fn sext(bits: u8, v: u64) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        ((v << (64 - bits)) as i64) >> (64 - bits)
    }
}

/// `v` kept to the width of `ty`.
pub fn normalize(ty: &Type, v: u64) -> u64 {
    mask(width(ty), v)
}

/// The bits of constant `c` used at type `ty`; `undef` and `poison` read as 0.
pub fn constant(c: &Const, ty: &Type) -> u64 {
    match c {
        Const::Int(v) | Const::IntToPtr(v) => normalize(ty, *v as u64),
        Const::Float(x) if *ty == Type::Half => u64::from(half::constant_bits(*x)),
        // The interpreter refuses i128 values before it reaches one (see `Interpreter::step`).
        Const::WideInt(v) => **v as u64,
        Const::Float(x) if *ty == Type::Float => u64::from((*x as f32).to_bits()),
        Const::Float(x) => x.to_bits(),
        Const::Zero | Const::Undef | Const::Poison => 0,
        // Resolved by the interpreter, which knows addresses and keeps aggregates in memory.
        Const::Address(..)
        | Const::Relative(_)
        | Const::BlockAddress(_)
        | Const::LabelDifference(_)
        | Const::Aggregate(_) => 0,
    }
}

/// A float or double operand as an f64 (exact for floats, NaN stays NaN).
fn float(ty: &Type, v: u64) -> f64 {
    if *ty == Type::Half {
        half::to_f64(v as u16)
    } else if *ty == Type::Float {
        f64::from(f32::from_bits(v as u32))
    } else {
        f64::from_bits(v)
    }
}

/// `x` rounded to type `ty`, as that type's bits.
fn float_bits(ty: &Type, x: f64) -> u64 {
    if *ty == Type::Half {
        u64::from(half::round(x))
    } else if *ty == Type::Float {
        u64::from((x as f32).to_bits())
    } else {
        x.to_bits()
    }
}

/// `l op r` at type `ty`. Division by zero and signed division overflow (`INT_MIN / -1`, undefined
/// in LLVM) are errors. Shift amounts are taken modulo the width (8 for `i1`), as Cranelift does;
/// LLVM makes over-wide shifts poison.
pub fn binary(op: BinOp, ty: &Type, l: u64, r: u64) -> Result<u64, String> {
    if *ty == Type::Half {
        let x = binary(op, &Type::Float, float_from_half(l), float_from_half(r))?;
        return Ok(half_from_float(x));
    }
    if op.is_float() {
        if *ty == Type::Float {
            let (a, b) = (f32::from_bits(l as u32), f32::from_bits(r as u32));
            let x = match op {
                BinOp::FAdd => a + b,
                BinOp::FSub => a - b,
                BinOp::FMul => a * b,
                BinOp::FDiv => a / b,
                _ => a % b,
            };
            return Ok(u64::from(x.to_bits()));
        }
        let (a, b) = (f64::from_bits(l), f64::from_bits(r));
        let x = match op {
            BinOp::FAdd => a + b,
            BinOp::FSub => a - b,
            BinOp::FMul => a * b,
            BinOp::FDiv => a / b,
            _ => a % b,
        };
        return Ok(x.to_bits());
    }
    let w = width(ty);
    let v = match op {
        BinOp::Add => l.wrapping_add(r),
        BinOp::Sub => l.wrapping_sub(r),
        BinOp::Mul => l.wrapping_mul(r),
        BinOp::UDiv | BinOp::URem if r == 0 => return Err(format!("{} by zero", op.mnemonic())),
        BinOp::UDiv => l / r,
        BinOp::URem => l % r,
        BinOp::SDiv | BinOp::SRem => {
            let (a, b) = (sext(w, l), sext(w, r));
            if b == 0 {
                return Err(format!("{} by zero", op.mnemonic()));
            }
            if b == -1 && a == sext(w, 1u64 << (w - 1)) {
                return Err(format!("{} overflows: {a} / -1 does not fit in {ty}", op.mnemonic()));
            }
            (if op == BinOp::SDiv { a / b } else { a % b }) as u64
        }
        BinOp::And => l & r,
        BinOp::Or => l | r,
        BinOp::Xor => l ^ r,
        BinOp::Shl | BinOp::LShr | BinOp::AShr => {
            // An iN lives in the next larger of 8/16/32/64-bit registers in compiled code, which
            // takes the amount modulo its width; an arithmetic shift fills from bit N-1.
            let container = crate::ir::container_bits(w);
            let amount = r & u64::from(container - 1);
            match op {
                BinOp::Shl => l << amount,
                BinOp::LShr => l >> amount,
                _ => (sext(w, l) >> amount) as u64,
            }
        }
        _ => unreachable!("float operations return above"),
    };
    Ok(mask(w, v))
}

/// `icmp pred` of two integers or pointers of type `ty`.
pub fn icmp(pred: IntPred, ty: &Type, l: u64, r: u64) -> bool {
    let w = width(ty);
    let (a, b) = (sext(w, l), sext(w, r));
    match pred {
        IntPred::Eq => l == r,
        IntPred::Ne => l != r,
        IntPred::Ugt => l > r,
        IntPred::Uge => l >= r,
        IntPred::Ult => l < r,
        IntPred::Ule => l <= r,
        IntPred::Sgt => a > b,
        IntPred::Sge => a >= b,
        IntPred::Slt => a < b,
        IntPred::Sle => a <= b,
    }
}

/// `scmp` (`signed`) or `ucmp` of `l` and `r` (of type `operand`): -1, 0 or 1 as type `ty`.
pub fn three_way(signed: bool, operand: &Type, ty: &Type, l: u64, r: u64) -> u64 {
    let (above, below) = if signed { (IntPred::Sgt, IntPred::Slt) } else { (IntPred::Ugt, IntPred::Ult) };
    let order = i64::from(icmp(above, operand, l, r)) - i64::from(icmp(below, operand, l, r));
    normalize(ty, order as u64)
}

/// `fptosi.sat` (`signed`) or `fptoui.sat` of `x` (of type `from`) to integer type `to`: toward
/// zero, clamped to `to`'s range, NaN as 0.
pub fn saturated_to_int(signed: bool, from: &Type, to: &Type, x: u64) -> u64 {
    let x = float(from, x);
    let bits = u32::from(width(to));
    // Rust's float-to-integer `as` rounds toward zero, saturates and makes NaN 0.
    let v = if signed {
        let limit = 1i128 << (bits - 1);
        (x as i128).clamp(-limit, limit - 1)
    } else {
        (x as i128).clamp(0, (1i128 << bits) - 1)
    };
    mask(bits as u8, v as u64)
}

/// Whether `x`, of floating-point type `ty`, is of a class `llvm.is.fpclass` mask `classes` names.
pub fn of_classes(ty: &Type, x: u64, classes: u32) -> bool {
    let mantissa_bits = match ty {
        Type::Half => 10,
        Type::Float => 23,
        _ => 52,
    };
    let sign = 1u64 << (u32::from(width(ty)) - 1);
    let infinity = (sign - 1) & !((1u64 << mantissa_bits) - 1);
    let quiet = 1u64 << (mantissa_bits - 1);
    let magnitude = x & (sign - 1);
    let negative = x & sign != 0;
    let class = if magnitude > infinity {
        if magnitude & quiet != 0 {
            1
        } else {
            0
        }
    } else {
        let positive_class = match magnitude {
            m if m == infinity => 9,
            0 => 6,
            m if m < 1u64 << mantissa_bits => 7,
            _ => 8,
        };
        if negative {
            11 - positive_class
        } else {
            positive_class
        }
    };
    classes & (1 << class) != 0
}

/// [`FloatRoutine`] `routine` of operands `v` (the first of type `from`) with result type `ty`,
/// computed by the C library's routines (`powi` as libgcc and compiler-rt compute it).
pub fn float_routine(routine: FloatRoutine, from: &Type, ty: &Type, v: &[u64]) -> u64 {
    extern "C" {
        fn ldexp(x: f64, n: i32) -> f64;
        fn ldexpf(x: f32, n: i32) -> f32;
        fn lround(x: f64) -> i64;
        fn lroundf(x: f32) -> i64;
        fn llround(x: f64) -> i64;
        fn llroundf(x: f32) -> i64;
        fn lrint(x: f64) -> i64;
        fn lrintf(x: f32) -> i64;
        fn llrint(x: f64) -> i64;
        fn llrintf(x: f32) -> i64;
    }
    let double = *from == Type::Double;
    let x = float(from, v[0]);
    let n = v.get(1).map_or(0, |&n| n as u32 as i32);
    // SAFETY: the C library's pure functions of numbers.
    unsafe {
        match routine {
            FloatRoutine::Powi if double => powi(x, n).to_bits(),
            FloatRoutine::Powi => float_bits(ty, f64::from(powi(x as f32, n))),
            FloatRoutine::Ldexp if double => ldexp(x, n).to_bits(),
            FloatRoutine::Ldexp => float_bits(ty, f64::from(ldexpf(x as f32, n))),
            _ => {
                let r = match (routine, double) {
                    (FloatRoutine::Lround, true) => lround(x),
                    (FloatRoutine::Lround, false) => lroundf(x as f32),
                    (FloatRoutine::Llround, true) => llround(x),
                    (FloatRoutine::Llround, false) => llroundf(x as f32),
                    (FloatRoutine::Lrint, true) => lrint(x),
                    (FloatRoutine::Lrint, false) => lrintf(x as f32),
                    (_, true) => llrint(x),
                    (_, false) => llrintf(x as f32),
                };
                normalize(ty, r as u64)
            }
        }
    }
}

/// `x` to the `n`th power as libgcc's and compiler-rt's `__powidf2`/`__powisf2` compute it: a
/// multiplication per bit of `|n|`, the reciprocal for negative `n`.
fn powi<F: Copy + std::ops::Mul<Output = F> + std::ops::Div<Output = F> + From<u8>>(mut x: F, n: i32) -> F {
    let mut bits = n.unsigned_abs();
    let mut result = if bits % 2 == 1 { x } else { F::from(1) };
    loop {
        bits /= 2;
        if bits == 0 {
            break;
        }
        x = x * x;
        if bits % 2 == 1 {
            result = result * x;
        }
    }
    if n < 0 {
        F::from(1) / result
    } else {
        result
    }
}

/// `fcmp pred`: ordered predicates are false when either operand is NaN, unordered ones true.
pub fn fcmp(pred: FloatPred, ty: &Type, l: u64, r: u64) -> bool {
    let (a, b) = (float(ty, l), float(ty, r));
    let unordered = a.is_nan() || b.is_nan();
    match pred {
        FloatPred::False => false,
        FloatPred::True => true,
        FloatPred::Oeq => a == b,
        FloatPred::Ogt => a > b,
        FloatPred::Oge => a >= b,
        FloatPred::Olt => a < b,
        FloatPred::Ole => a <= b,
        FloatPred::One => !unordered && a != b,
        FloatPred::Ord => !unordered,
        FloatPred::Ueq => unordered || a == b,
        FloatPred::Ugt => unordered || a > b,
        FloatPred::Uge => unordered || a >= b,
        FloatPred::Ult => unordered || a < b,
        FloatPred::Ule => unordered || a <= b,
        FloatPred::Une => a != b,
        FloatPred::Uno => unordered,
    }
}

/// `half` bits widened to `float` bits (exactly).
fn float_from_half(v: u64) -> u64 {
    u64::from((half::to_f64(v as u16) as f32).to_bits())
}

/// `float` bits rounded to `half` bits.
fn half_from_float(v: u64) -> u64 {
    u64::from(half::round(f64::from(f32::from_bits(v as u32))))
}

/// `fneg`: flips the sign bit, NaN included (a `half` goes through `float` as the lowering takes
/// it, which quiets a signaling NaN).
pub fn fneg(ty: &Type, v: u64) -> u64 {
    if *ty == Type::Half {
        return half_from_float(fneg(&Type::Float, float_from_half(v)));
    }
    v ^ (1u64 << (width(ty) - 1))
}

/// A cast of `v` from type `from` to type `to`. Float-to-integer conversions saturate (NaN gives 0)
/// at 32 bits for narrower results, then truncate, as the Cranelift lowering does; LLVM makes
/// out-of-range conversions poison.
pub fn cast(op: CastOp, from: &Type, to: &Type, v: u64) -> u64 {
    // `half` converts through `float`, as the lowering does; a double narrows in one step.
    if *from == Type::Half && op != CastOp::BitCast {
        return match op {
            CastOp::FPExt if *to == Type::Float => float_from_half(v),
            _ => cast(op, &Type::Float, to, float_from_half(v)),
        };
    }
    if *to == Type::Half && op != CastOp::BitCast {
        return match op {
            CastOp::FPTrunc => float_bits(to, float(from, v)),
            _ => half_from_float(cast(op, from, &Type::Float, v)),
        };
    }
    let (fw, tw) = (width(from), width(to));
    match op {
        CastOp::ZExt
        | CastOp::Trunc
        | CastOp::PtrToInt
        | CastOp::IntToPtr
        | CastOp::BitCast
        | CastOp::AddrSpaceCast => mask(tw, v),
        CastOp::SExt => mask(tw, sext(fw, v) as u64),
        CastOp::SIToFP => {
            let x = sext(fw, v);
            // Converting straight from the integer rounds once; going through f64 would round twice.
            if *to == Type::Float {
                u64::from((x as f32).to_bits())
            } else {
                (x as f64).to_bits()
            }
        }
        CastOp::UIToFP => {
            if *to == Type::Float {
                u64::from((v as f32).to_bits())
            } else {
                (v as f64).to_bits()
            }
        }
        CastOp::FPToSI => {
            let x = float(from, v);
            mask(tw, if tw <= 32 { x as i32 as u32 as u64 } else { x as i64 as u64 })
        }
        CastOp::FPToUI => {
            let x = float(from, v);
            mask(tw, if tw <= 32 { u64::from(x as u32) } else { x as u64 })
        }
        CastOp::FPExt => float(from, v).to_bits(),
        CastOp::FPTrunc => float_bits(to, float(from, v)),
    }
}

/// [`MathFunction`] `$function` of `$x` (and `$y`, evaluated for `pow` only) in the operands' own
/// width: `f32` calls `sinf`, `f64` `sin`.
macro_rules! math {
    ($function:expr, $x:expr, $y:expr) => {
        match $function {
            MathFunction::Sin => $x.sin(),
            MathFunction::Cos => $x.cos(),
            MathFunction::Tan => $x.tan(),
            MathFunction::Exp => $x.exp(),
            MathFunction::Exp2 => $x.exp2(),
            MathFunction::Log => $x.ln(),
            MathFunction::Log2 => $x.log2(),
            MathFunction::Log10 => $x.log10(),
            MathFunction::Pow => $x.powf($y),
        }
    };
}

/// An intrinsic value operation on operands of type `ty`, as the lowering computes it
/// (`llvm.fmuladd` fused where `fused`, as on the target the compiled code would run on).
pub fn intrinsic(op: IntrinsicOp, ty: &Type, v: &[u64], fused: bool) -> u64 {
    if *ty == Type::Half {
        // Every operand of a half intrinsic the lowering promotes is a half.
        let wide: Vec<u64> = v.iter().map(|&x| float_from_half(x)).collect();
        return half_from_float(intrinsic(op, &Type::Float, &wide, fused));
    }
    let bits = width(ty);
    let x = || float(ty, v[0]);
    let y = || float(ty, v[1]);
    let single = *ty == Type::Float;
    let result = match op {
        IntrinsicOp::Ctpop => u64::from(v[0].count_ones()),
        IntrinsicOp::Ctlz => u64::from(v[0].leading_zeros()) - (64 - u64::from(bits)),
        IntrinsicOp::Cttz => u64::from(v[0].trailing_zeros()).min(u64::from(bits)),
        IntrinsicOp::Bswap => v[0].swap_bytes() >> (64 - u32::from(bits)),
        IntrinsicOp::Bitreverse => v[0].reverse_bits() >> (64 - u32::from(bits)),
        IntrinsicOp::Abs => sext(bits, v[0]).wrapping_abs() as u64,
        IntrinsicOp::SMax => sext(bits, v[0]).max(sext(bits, v[1])) as u64,
        IntrinsicOp::SMin => sext(bits, v[0]).min(sext(bits, v[1])) as u64,
        IntrinsicOp::UMax => v[0].max(v[1]),
        IntrinsicOp::UAddSat => v[0].saturating_add(v[1]).min(mask(bits, u64::MAX)),
        IntrinsicOp::USubSat => v[0].saturating_sub(v[1]),
        IntrinsicOp::SAddSat | IntrinsicOp::SSubSat => {
            let (a, b) = (i128::from(sext(bits, v[0])), i128::from(sext(bits, v[1])));
            let exact = if op == IntrinsicOp::SAddSat { a + b } else { a - b };
            let limit = 1i128 << (bits - 1);
            exact.clamp(-limit, limit - 1) as u64
        }
        IntrinsicOp::UMin => v[0].min(v[1]),
        IntrinsicOp::Fshl | IntrinsicOp::Fshr => {
            let s = u32::from(bits).min(64);
            let shift = (v[2] % u64::from(s)) as u32;
            let joined = (u128::from(v[0]) << s) | u128::from(v[1]);
            if op == IntrinsicOp::Fshl {
                ((joined << shift) >> s) as u64
            } else {
                (joined >> shift) as u64
            }
        }
        IntrinsicOp::Expect => v[0],
        IntrinsicOp::Fabs => return mask(bits, v[0] & !(1u64 << (bits - 1))),
        IntrinsicOp::CopySign => {
            let sign = 1u64 << (bits - 1);
            return (v[0] & !sign) | (v[1] & sign);
        }
        IntrinsicOp::Sqrt if single => return u64::from((x() as f32).sqrt().to_bits()),
        IntrinsicOp::Sqrt => return x().sqrt().to_bits(),
        // Rust's `sin` and its kin call the C library's routines, as the compiled code does.
        IntrinsicOp::Math(function) if single => {
            return u64::from(math!(function, x() as f32, y() as f32).to_bits());
        }
        IntrinsicOp::Math(function) => return math!(function, x(), y()).to_bits(),
        IntrinsicOp::Floor => return float_bits(ty, x().floor()),
        IntrinsicOp::Ceil => return float_bits(ty, x().ceil()),
        IntrinsicOp::Trunc => return float_bits(ty, x().trunc()),
        IntrinsicOp::Round => return float_bits(ty, x().round()),
        IntrinsicOp::RoundEven => return float_bits(ty, x().round_ties_even()),
        IntrinsicOp::MinNum => return float_bits(ty, x().min(y())),
        IntrinsicOp::MaxNum => return float_bits(ty, x().max(y())),
        IntrinsicOp::Minimum | IntrinsicOp::Maximum => {
            let (a, b) = (x(), y());
            // NaN if either is; -0 below +0.
            let pick_a = match op {
                IntrinsicOp::Minimum => a < b || (a == b && a.is_sign_negative()),
                _ => a > b || (a == b && a.is_sign_positive()),
            };
            return float_bits(
                ty,
                if a.is_nan() || b.is_nan() {
                    f64::NAN
                } else if pick_a {
                    a
                } else {
                    b
                },
            );
        }
        IntrinsicOp::Fma | IntrinsicOp::FMulAdd if op == IntrinsicOp::Fma || fused => {
            return if single {
                let f = |i: usize| f32::from_bits(v[i] as u32);
                u64::from(f(0).mul_add(f(1), f(2)).to_bits())
            } else {
                let f = |i: usize| f64::from_bits(v[i]);
                f(0).mul_add(f(1), f(2)).to_bits()
            };
        }
        IntrinsicOp::Fma | IntrinsicOp::FMulAdd => {
            return if single {
                let f = |i: usize| f32::from_bits(v[i] as u32);
                u64::from((f(0) * f(1) + f(2)).to_bits())
            } else {
                let f = |i: usize| f64::from_bits(v[i]);
                (f(0) * f(1) + f(2)).to_bits()
            };
        }
    };
    mask(bits, result)
}

/// The value an `atomicrmw` stores, from the old one and the operand.
pub fn rmw(op: RmwOp, ty: &Type, old: u64, v: u64) -> u64 {
    let bits = width(ty);
    let (a, b) = (sext(bits, old), sext(bits, v));
    mask(
        bits,
        match op {
            RmwOp::Xchg => v,
            RmwOp::Add => old.wrapping_add(v),
            RmwOp::Sub => old.wrapping_sub(v),
            RmwOp::And => old & v,
            RmwOp::Nand => !(old & v),
            RmwOp::Or => old | v,
            RmwOp::Xor => old ^ v,
            RmwOp::Max => a.max(b) as u64,
            RmwOp::Min => a.min(b) as u64,
            RmwOp::UMax => old.max(v),
            RmwOp::UMin => old.min(v),
        },
    )
}

/// A `*.with.overflow` intrinsic: the wrapped result and whether the exact one differs.
pub fn with_overflow(op: Overflow, ty: &Type, a: u64, b: u64) -> (u64, bool) {
    let bits = width(ty);
    if op == Overflow::UMul {
        // Two 64-bit unsigned factors overflow an i128: their product fits a u128.
        let exact = u128::from(a) * u128::from(b);
        return (mask(bits, exact as u64), exact >> bits != 0);
    }
    let (sa, sb) = (i128::from(sext(bits, a)), i128::from(sext(bits, b)));
    let (ua, ub) = (i128::from(a), i128::from(b));
    let exact = match op {
        Overflow::SAdd => sa + sb,
        Overflow::UAdd => ua + ub,
        Overflow::SSub => sa - sb,
        Overflow::USub => ua - ub,
        Overflow::SMul => sa * sb,
        Overflow::UMul => ua * ub,
    };
    let wrapped = mask(bits, exact as u64);
    let fits = match op {
        Overflow::SAdd | Overflow::SSub | Overflow::SMul => i128::from(sext(bits, wrapped)) == exact,
        Overflow::UAdd | Overflow::USub | Overflow::UMul => i128::from(wrapped) == exact,
    };
    (wrapped, !fits)
}
