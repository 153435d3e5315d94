//! The `llvm.*` functions the subset knows: what each name denotes and the signature its declaration
//! must have. The verifier checks declarations against [`Intrinsic::signature`]; the lowering and the
//! interpreter give each its meaning.

use super::{BinOp, Signature, StructType, Type};

/// An intrinsic function, by what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Intrinsic {
    /// `llvm.experimental.stackmap(i64 id, i32 shadow, live...)`
    StackMap,
    /// `llvm.experimental.patchpoint.<ty>(i64 id, i32 bytes, ptr target, i32 nargs, args..., live...)`
    PatchPoint,
    /// `llvm.experimental.gc.statepoint.p0(i64 id, i32 patch_bytes, ptr elementtype(FNTY) target,
    /// i32 nargs, i32 flags, args..., i32 0, i32 0) [bundles]`: a call at which a garbage collector
    /// may run, returning a `token` (`statepoints` decodes the operands).
    Statepoint,
    /// `llvm.experimental.gc.result.<ty>(token)`: the statepoint's call result.
    GcResult,
    /// `llvm.experimental.gc.relocate.<ptr ty>(token, i32 base, i32 derived)`: a `gc-live` pointer
    /// as the collector left it after the statepoint.
    GcRelocate,
    /// An operation on its operands' values alone, of one overloaded type.
    Op(IntrinsicOp),
    /// `llvm.memcpy.p0.p0.iN(ptr dst, ptr src, iN len, i1 volatile)`: non-overlapping.
    MemCpy,
    /// `llvm.memmove.p0.p0.iN(ptr dst, ptr src, iN len, i1 volatile)`.
    MemMove,
    /// `llvm.memset.p0.iN(ptr dst, i8 byte, iN len, i1 volatile)`.
    MemSet,
    /// `llvm.trap()`, `llvm.debugtrap()`, `llvm.ubsantrap(i8)`: stop the program.
    Trap,
    /// `llvm.{s,u}{add,sub,mul}.with.overflow.iN(a, b)`: `{ iN, i1 }`, the wrapped result and
    /// whether it overflowed.
    WithOverflow(Overflow),
    /// `llvm.objectsize.iN.p0(ptr, i1 min, i1 nullunknown, i1 dynamic)`: the size is never known
    /// here, so 0 with `min`, else -1, as LLVM folds an unknown size.
    ObjectSize,
    /// `llvm.is.constant.T(x)`: whether the operand is a constant in the IR.
    IsConstant,
    /// `llvm.ptrmask.p0.i64(ptr, i64 mask)`: the pointer with its address masked.
    PtrMask,
    /// `llvm.load.relative.iN(ptr base, iN offset)`: `base` plus the `i32` at `base + offset`,
    /// sign-extended (an entry of a relative lookup table, which holds `target - base`).
    LoadRelative,
    /// `llvm.threadlocal.address.p0(ptr @g)`: this thread's copy of a `thread_local` global, which
    /// the global's address already is here.
    ThreadLocalAddress,
    /// `llvm.stacksave.p0()`: the current top of the dynamic stack, for `stackrestore`.
    StackSave,
    /// `llvm.stackrestore.p0(ptr)`: frees dynamic allocas made since the matching `stacksave`.
    StackRestore,
    /// Hints with no effect on the program's result: `lifetime.start/end`, `assume`,
    /// `experimental.noalias.scope.decl`, `dbg.*` (their metadata operands are dropped), `donothing`,
    /// `sideeffect`, `invariant.start/end`-free markers.
    Hint,
    /// `llvm.va_start[.p0](ptr ap)`: fills the `va_list` at `ap` to read this variadic function's
    /// extra arguments (the target's layout: `arch::VaListLayout`).
    VaStart,
    /// `llvm.fptosi.sat.<I>.<F>(F x)` (`signed`) and `llvm.fptoui.sat`: `x` rounded toward zero and
    /// clamped to `I`'s range, NaN as 0 (lane by lane for vectors).
    FloatToIntSat {
        /// `fptosi.sat`: the result is signed.
        signed: bool,
    },
    /// `llvm.is.fpclass.<F>(F x, i32 classes)`: whether `x` is of a class the constant mask names
    /// (bit 0 signalling NaN, 1 quiet NaN, 2 -infinity, 3 -normal, 4 -subnormal, 5 -0, 6 +0,
    /// 7 +subnormal, 8 +normal, 9 +infinity), lane by lane for vectors.
    IsFpClass,
    /// `llvm.thread.pointer()` (LLVM 19; `llvm.thread.pointer.p0()` later): the thread pointer
    /// (`%fs:0` on x86-64, `tpidr_el0` on AArch64), C's `__builtin_thread_pointer()`.
    ThreadPointer,
    /// `llvm.returnaddress(i32 depth)`: this function's return address (depth 0) or that of the
    /// frame `depth` frames up, followed through the saved frame pointers.
    ReturnAddress,
    /// Its first operand, unchanged: `llvm.launder.invariant.group`/`strip.invariant.group`
    /// (clang++'s `-fstrict-vtable-pointers`), `llvm.ptr.annotation`, `llvm.annotation`
    /// (`__attribute__((annotate))`).
    PassThrough,
    /// `llvm.invariant.start.p0(i64 size, ptr)`: a descriptor for `invariant.end`, which marks
    /// nothing here (clang++ writes it for `const` globals with dynamic initialisers): null.
    InvariantStart,
    /// A floating-point operation the C runtime computes ([`FloatRoutine`]).
    FloatRoutine(FloatRoutine),
    /// `llvm.scmp.<R>.<T>(T a, T b)` (`signed`) and `llvm.ucmp.<R>.<T>`: -1, 0 or 1 of integer type
    /// `R` as `a` is below, equal to or above `b` (lane by lane for vectors).
    ThreeWayCompare {
        /// `scmp`: the operands are signed.
        signed: bool,
    },
    /// `llvm.va_end[.p0](ptr ap)`: nothing to release on either target.
    VaEnd,
    /// `llvm.va_copy[.p0](ptr dst, ptr src)`: copies the `va_list` (a plain struct on both targets).
    VaCopy,
    /// `llvm.frameaddress.p0(i32 depth)`: the frame pointer of this function (depth 0) or of the
    /// caller `depth` frames up, followed through the saved frame pointers.
    FrameAddress,
    /// `llvm.addressofreturnaddress.p0()`: where this function's return address is stored (the
    /// caller's stack just above it, on both targets: x86-64's pushed address, AArch64's saved lr).
    AddressOfReturnAddress,
    /// `llvm.experimental.retwr(T hwreg(metadata !N) v, ...)`: right before the `ret void` of an
    /// `explicitcc` function, the registers it returns with (see `ir::explicit`).
    ReturnWithRegisters,
    /// `llvm.eh.typeid.for.p0(ptr @typeinfo)`: the selector value a landing pad of this function
    /// receives for an exception caught by that type (its index in the function's type table).
    TypeIdFor,
    /// `llvm.vector.reduce.<op>.vNT(<N x T> v)` (`fadd`/`fmul` take a start value first): the
    /// vector's lanes folded into one.
    Reduce(ReduceOp),
}

/// How `llvm.vector.reduce.*` folds two lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// `add`, `mul`, `and`, `or`, `xor`, and `fadd`/`fmul` (in lane order from the start value).
    Binary(BinOp),
    /// `smax`, `smin`, `umax`, `umin`, `fmax`/`fmin` (as `maxnum`/`minnum`), `fmaximum`/`fminimum`.
    Op(IntrinsicOp),
}

impl ReduceOp {
    /// Each `llvm.vector.reduce.` name's operation.
    const TABLE: [(&'static str, ReduceOp); 15] = [
        ("add", ReduceOp::Binary(BinOp::Add)),
        ("mul", ReduceOp::Binary(BinOp::Mul)),
        ("and", ReduceOp::Binary(BinOp::And)),
        ("or", ReduceOp::Binary(BinOp::Or)),
        ("xor", ReduceOp::Binary(BinOp::Xor)),
        ("fadd", ReduceOp::Binary(BinOp::FAdd)),
        ("fmul", ReduceOp::Binary(BinOp::FMul)),
        ("smax", ReduceOp::Op(IntrinsicOp::SMax)),
        ("smin", ReduceOp::Op(IntrinsicOp::SMin)),
        ("umax", ReduceOp::Op(IntrinsicOp::UMax)),
        ("umin", ReduceOp::Op(IntrinsicOp::UMin)),
        ("fmax", ReduceOp::Op(IntrinsicOp::MaxNum)),
        ("fmin", ReduceOp::Op(IntrinsicOp::MinNum)),
        ("fmaximum", ReduceOp::Op(IntrinsicOp::Maximum)),
        ("fminimum", ReduceOp::Op(IntrinsicOp::Minimum)),
    ];

    /// Whether the lanes are floating-point (else integers).
    pub fn is_float(self) -> bool {
        match self {
            ReduceOp::Binary(op) => op.is_float(),
            ReduceOp::Op(op) => op.is_float(),
        }
    }
}

/// The arithmetic of a `*.with.overflow` intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Overflow {
    /// `sadd`: signed addition.
    SAdd,
    /// `uadd`: unsigned addition.
    UAdd,
    /// `ssub`: signed subtraction.
    SSub,
    /// `usub`: unsigned subtraction.
    USub,
    /// `smul`: signed multiplication.
    SMul,
    /// `umul`: unsigned multiplication.
    UMul,
}

/// Floating-point intrinsics with an integer operand or result, computed by a C runtime routine
/// as llc-19 calls them (`half` computed in `float`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatRoutine {
    /// `llvm.powi.<F>.i32(F x, i32 n)`: `x` to the `n`th power by repeated multiplication
    /// (`__powidf2`, `__powisf2`: libgcc's and compiler-rt's).
    Powi,
    /// `llvm.ldexp.<F>.i32(F x, i32 n)`: `x` times 2 to the `n` (`ldexp`, `ldexpf`).
    Ldexp,
    /// `llvm.lround.<I>.<F>(F x)`: to nearest, ties away from zero (`lround`, `lroundf`).
    Lround,
    /// `llvm.llround.<I>.<F>(F x)` (`llround`, `llroundf`).
    Llround,
    /// `llvm.lrint.<I>.<F>(F x)`: to nearest in the current rounding mode (`lrint`, `lrintf`).
    Lrint,
    /// `llvm.llrint.<I>.<F>(F x)` (`llrint`, `llrintf`).
    Llrint,
}

impl FloatRoutine {
    /// Whether the routine takes the float and an `i32` and returns a float (else it takes the
    /// float and returns a C `long`/`long long`).
    pub fn scales(self) -> bool {
        matches!(self, FloatRoutine::Powi | FloatRoutine::Ldexp)
    }

    /// The routine's name for a `double` (else `float`) operand.
    fn name(self, double: bool) -> &'static str {
        let [d, f] = match self {
            FloatRoutine::Powi => ["__powidf2", "__powisf2"],
            FloatRoutine::Ldexp => ["ldexp", "ldexpf"],
            FloatRoutine::Lround => ["lround", "lroundf"],
            FloatRoutine::Llround => ["llround", "llroundf"],
            FloatRoutine::Lrint => ["lrint", "lrintf"],
            FloatRoutine::Llrint => ["llrint", "llrintf"],
        };
        if double {
            d
        } else {
            f
        }
    }
}

/// A C library or runtime routine that an intrinsic is a call of, with the routine's own types.
#[derive(Clone, Debug, PartialEq)]
pub struct LibraryRoutine {
    /// Its symbol.
    pub name: &'static str,
    /// Its result type.
    pub ret: Type,
    /// Its parameter types.
    pub params: Vec<Type>,
}

/// The C library's functions that are intrinsics of one overloaded float type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathFunction {
    /// `sin.fN(x)`.
    Sin,
    /// `cos.fN(x)`.
    Cos,
    /// `tan.fN(x)`.
    Tan,
    /// `exp.fN(x)`: e to the x.
    Exp,
    /// `exp2.fN(x)`.
    Exp2,
    /// `log.fN(x)`: the natural logarithm.
    Log,
    /// `log2.fN(x)`.
    Log2,
    /// `log10.fN(x)`.
    Log10,
    /// `pow.fN(x, y)`.
    Pow,
}

/// The value operations among the intrinsics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntrinsicOp {
    /// `ctpop.iN(x)`.
    Ctpop,
    /// `ctlz.iN(x, i1 zero_poison)`: leading zeros (N for 0).
    Ctlz,
    /// `cttz.iN(x, i1 zero_poison)`: trailing zeros (N for 0).
    Cttz,
    /// `bswap.iN(x)`.
    Bswap,
    /// `bitreverse.iN(x)`.
    Bitreverse,
    /// `abs.iN(x, i1 int_min_poison)`.
    Abs,
    /// `smax.iN(a, b)`.
    SMax,
    /// `smin.iN(a, b)`.
    SMin,
    /// `umax.iN(a, b)`.
    UMax,
    /// `umin.iN(a, b)`.
    UMin,
    /// `sadd.sat.iN(a, b)`: signed addition clamped to the type's range.
    SAddSat,
    /// `uadd.sat.iN(a, b)`.
    UAddSat,
    /// `ssub.sat.iN(a, b)`.
    SSubSat,
    /// `usub.sat.iN(a, b)`.
    USubSat,
    /// `fshl.iN(a, b, s)`: the high N bits of `a:b << s % N`.
    Fshl,
    /// `fshr.iN(a, b, s)`: the low N bits of `a:b >> s % N`.
    Fshr,
    /// `expect.iN(x, expected)` and `expect.with.probability.iN(x, expected, double)`: `x`.
    Expect,
    /// `fabs.fN(x)`.
    Fabs,
    /// `sqrt.fN(x)`.
    Sqrt,
    /// `floor.fN(x)`.
    Floor,
    /// `ceil.fN(x)`.
    Ceil,
    /// `trunc.fN(x)`: toward zero.
    Trunc,
    /// `round.fN(x)`: to nearest, ties away from zero.
    Round,
    /// `rint`, `nearbyint`, `roundeven.fN(x)`: to nearest, ties to even (the default rounding mode).
    RoundEven,
    /// `copysign.fN(mag, sign)`.
    CopySign,
    /// `minnum.fN(a, b)`: a NaN operand yields the other.
    MinNum,
    /// `maxnum.fN(a, b)`: a NaN operand yields the other.
    MaxNum,
    /// `minimum.fN(a, b)`: NaN if either is.
    Minimum,
    /// `maximum.fN(a, b)`: NaN if either is.
    Maximum,
    /// `fma.fN(a, b, c)`: `a * b + c` rounded once.
    Fma,
    /// `fmuladd.fN(a, b, c)`: `a * b + c`, fused where the target's LLVM backend fuses it.
    FMulAdd,
    /// `sin.fN(x)` and the C library's other functions ([`MathFunction`]): a call of the C
    /// library's routine ([`IntrinsicOp::library_routine`]), as llc-19 makes of them on both targets.
    Math(MathFunction),
}

impl IntrinsicOp {
    /// The `llvm.` name's stem and the number of operands of the overloaded type, for each op.
    const TABLE: [(&'static str, IntrinsicOp, usize); 43] = [
        ("sadd.sat", IntrinsicOp::SAddSat, 2),
        ("uadd.sat", IntrinsicOp::UAddSat, 2),
        ("ssub.sat", IntrinsicOp::SSubSat, 2),
        ("usub.sat", IntrinsicOp::USubSat, 2),
        ("ctpop", IntrinsicOp::Ctpop, 1),
        ("ctlz", IntrinsicOp::Ctlz, 1),
        ("cttz", IntrinsicOp::Cttz, 1),
        ("bswap", IntrinsicOp::Bswap, 1),
        ("bitreverse", IntrinsicOp::Bitreverse, 1),
        ("abs", IntrinsicOp::Abs, 1),
        ("smax", IntrinsicOp::SMax, 2),
        ("smin", IntrinsicOp::SMin, 2),
        ("umax", IntrinsicOp::UMax, 2),
        ("umin", IntrinsicOp::UMin, 2),
        ("fshl", IntrinsicOp::Fshl, 3),
        ("fshr", IntrinsicOp::Fshr, 3),
        ("expect", IntrinsicOp::Expect, 2),
        ("expect.with.probability", IntrinsicOp::Expect, 2),
        ("fabs", IntrinsicOp::Fabs, 1),
        ("sqrt", IntrinsicOp::Sqrt, 1),
        ("floor", IntrinsicOp::Floor, 1),
        ("ceil", IntrinsicOp::Ceil, 1),
        ("trunc", IntrinsicOp::Trunc, 1),
        ("round", IntrinsicOp::Round, 1),
        ("rint", IntrinsicOp::RoundEven, 1),
        ("nearbyint", IntrinsicOp::RoundEven, 1),
        ("roundeven", IntrinsicOp::RoundEven, 1),
        ("copysign", IntrinsicOp::CopySign, 2),
        ("minnum", IntrinsicOp::MinNum, 2),
        ("maxnum", IntrinsicOp::MaxNum, 2),
        ("minimum", IntrinsicOp::Minimum, 2),
        ("maximum", IntrinsicOp::Maximum, 2),
        ("fma", IntrinsicOp::Fma, 3),
        ("fmuladd", IntrinsicOp::FMulAdd, 3),
        ("sin", IntrinsicOp::Math(MathFunction::Sin), 1),
        ("cos", IntrinsicOp::Math(MathFunction::Cos), 1),
        ("tan", IntrinsicOp::Math(MathFunction::Tan), 1),
        ("exp", IntrinsicOp::Math(MathFunction::Exp), 1),
        ("exp2", IntrinsicOp::Math(MathFunction::Exp2), 1),
        ("log", IntrinsicOp::Math(MathFunction::Log), 1),
        ("log2", IntrinsicOp::Math(MathFunction::Log2), 1),
        ("log10", IntrinsicOp::Math(MathFunction::Log10), 1),
        ("pow", IntrinsicOp::Math(MathFunction::Pow), 2),
    ];

    /// How many operands of the overloaded type the operation takes.
    pub fn operand_count(self) -> usize {
        IntrinsicOp::TABLE.iter().find(|&&(_, o, _)| o == self).map_or(0, |&(_, _, n)| n)
    }

    /// The C library routine that computes `self` on lanes of type `lane` and the type it takes
    /// (`half` is computed in `float`, as LLVM legalises it): `sin` for `double`, `sinf` for
    /// `float`. `None` for the operations computed inline.
    pub fn library_routine(self, lane: &Type) -> Option<(&'static str, Type)> {
        let IntrinsicOp::Math(function) = self else { return None };
        let [double, single] = match function {
            MathFunction::Sin => ["sin", "sinf"],
            MathFunction::Cos => ["cos", "cosf"],
            MathFunction::Tan => ["tan", "tanf"],
            MathFunction::Exp => ["exp", "expf"],
            MathFunction::Exp2 => ["exp2", "exp2f"],
            MathFunction::Log => ["log", "logf"],
            MathFunction::Log2 => ["log2", "log2f"],
            MathFunction::Log10 => ["log10", "log10f"],
            MathFunction::Pow => ["pow", "powf"],
        };
        match lane {
            Type::Double => Some((double, Type::Double)),
            Type::Float | Type::Half => Some((single, Type::Float)),
            _ => None,
        }
    }

    /// Whether the overloaded type is a floating-point one (else an integer).
    pub fn is_float(self) -> bool {
        matches!(
            self,
            IntrinsicOp::Fabs
                | IntrinsicOp::Sqrt
                | IntrinsicOp::Floor
                | IntrinsicOp::Ceil
                | IntrinsicOp::Trunc
                | IntrinsicOp::Round
                | IntrinsicOp::RoundEven
                | IntrinsicOp::CopySign
                | IntrinsicOp::MinNum
                | IntrinsicOp::MaxNum
                | IntrinsicOp::Minimum
                | IntrinsicOp::Maximum
                | IntrinsicOp::Fma
                | IntrinsicOp::FMulAdd
                | IntrinsicOp::Math(_)
        )
    }
}

/// Intrinsics with no overloaded type, by full name after `llvm.`.
const FIXED: [(&str, Intrinsic); 13] = [
    ("experimental.stackmap", Intrinsic::StackMap),
    ("thread.pointer", Intrinsic::ThreadPointer),
    // `_mm_pause()` in spin loops: a hint; no code (Cranelift has no `pause`).
    ("x86.sse2.pause", Intrinsic::Hint),
    ("returnaddress", Intrinsic::ReturnAddress),
    ("experimental.retwr", Intrinsic::ReturnWithRegisters),
    ("trap", Intrinsic::Trap),
    ("debugtrap", Intrinsic::Trap),
    ("ubsantrap", Intrinsic::Trap),
    ("assume", Intrinsic::Hint),
    ("donothing", Intrinsic::Hint),
    ("sideeffect", Intrinsic::Hint),
    ("experimental.noalias.scope.decl", Intrinsic::Hint),
    ("va_end", Intrinsic::VaEnd),
];

/// Intrinsics whose name goes on with overloaded types (`.p0`, `.i64`, ...), by the part before.
const OVERLOADED: [(&str, Intrinsic); 46] = [
    ("thread.pointer", Intrinsic::ThreadPointer),
    ("fptosi.sat", Intrinsic::FloatToIntSat { signed: true }),
    ("fptoui.sat", Intrinsic::FloatToIntSat { signed: false }),
    ("is.fpclass", Intrinsic::IsFpClass),
    ("launder.invariant.group", Intrinsic::PassThrough),
    ("strip.invariant.group", Intrinsic::PassThrough),
    ("ptr.annotation", Intrinsic::PassThrough),
    ("annotation", Intrinsic::PassThrough),
    ("var.annotation", Intrinsic::Hint),
    ("invariant.start", Intrinsic::InvariantStart),
    ("invariant.end", Intrinsic::Hint),
    ("powi", Intrinsic::FloatRoutine(FloatRoutine::Powi)),
    ("ldexp", Intrinsic::FloatRoutine(FloatRoutine::Ldexp)),
    ("lround", Intrinsic::FloatRoutine(FloatRoutine::Lround)),
    ("llround", Intrinsic::FloatRoutine(FloatRoutine::Llround)),
    ("lrint", Intrinsic::FloatRoutine(FloatRoutine::Lrint)),
    ("llrint", Intrinsic::FloatRoutine(FloatRoutine::Llrint)),
    ("scmp", Intrinsic::ThreeWayCompare { signed: true }),
    ("ucmp", Intrinsic::ThreeWayCompare { signed: false }),
    ("eh.typeid.for", Intrinsic::TypeIdFor),
    ("frameaddress", Intrinsic::FrameAddress),
    ("addressofreturnaddress", Intrinsic::AddressOfReturnAddress),
    ("experimental.gc.statepoint", Intrinsic::Statepoint),
    ("experimental.gc.result", Intrinsic::GcResult),
    ("experimental.gc.relocate", Intrinsic::GcRelocate),
    ("sadd.with.overflow", Intrinsic::WithOverflow(Overflow::SAdd)),
    ("uadd.with.overflow", Intrinsic::WithOverflow(Overflow::UAdd)),
    ("ssub.with.overflow", Intrinsic::WithOverflow(Overflow::SSub)),
    ("usub.with.overflow", Intrinsic::WithOverflow(Overflow::USub)),
    ("smul.with.overflow", Intrinsic::WithOverflow(Overflow::SMul)),
    ("umul.with.overflow", Intrinsic::WithOverflow(Overflow::UMul)),
    ("objectsize", Intrinsic::ObjectSize),
    ("is.constant", Intrinsic::IsConstant),
    ("ptrmask", Intrinsic::PtrMask),
    ("load.relative", Intrinsic::LoadRelative),
    ("threadlocal.address", Intrinsic::ThreadLocalAddress),
    ("prefetch", Intrinsic::Hint),
    ("memcpy", Intrinsic::MemCpy),
    ("memcpy.inline", Intrinsic::MemCpy),
    ("memmove", Intrinsic::MemMove),
    ("memset", Intrinsic::MemSet),
    ("memset.inline", Intrinsic::MemSet),
    ("stacksave", Intrinsic::StackSave),
    ("stackrestore", Intrinsic::StackRestore),
    ("lifetime.start", Intrinsic::Hint),
    ("lifetime.end", Intrinsic::Hint),
];

impl Intrinsic {
    /// The intrinsic a function name denotes, if the subset knows it.
    pub fn from_name(name: &str) -> Option<Intrinsic> {
        let rest = name.strip_prefix("llvm.")?;
        if rest.starts_with("dbg.") {
            return Some(Intrinsic::Hint);
        }
        match rest {
            "va_start" | "va_start.p0" => return Some(Intrinsic::VaStart),
            "va_end.p0" => return Some(Intrinsic::VaEnd),
            "va_copy" | "va_copy.p0" | "va_copy.p0.p0" => return Some(Intrinsic::VaCopy),
            _ => {}
        }
        if let Some(result) = rest.strip_prefix("experimental.patchpoint.") {
            return super::points::patchpoint_result_of_suffix(result).map(|_| Intrinsic::PatchPoint);
        }
        if let Some(&(_, i)) = FIXED.iter().find(|(n, _)| *n == rest) {
            return Some(i);
        }
        // Any suffix: the result type is the declaration's (LLVM's own tests name struct results
        // `.struct`, not by the mangling).
        if rest.starts_with("experimental.gc.result.") {
            return Some(Intrinsic::GcResult);
        }
        let (stem, suffix) = split_overloads(rest)?;
        if let Some(&(_, i)) = OVERLOADED.iter().find(|(n, _)| *n == stem) {
            return Some(i);
        }
        if let Some(op) = stem.strip_prefix("vector.reduce.") {
            return ReduceOp::TABLE.iter().find(|(n, _)| *n == op).map(|&(_, r)| Intrinsic::Reduce(r));
        }
        // Value operations are always overloaded.
        if suffix.is_empty() {
            return None;
        }
        IntrinsicOp::TABLE.iter().find(|(n, _, _)| *n == stem).map(|&(_, op, _)| Intrinsic::Op(op))
    }

    /// The C library or runtime routine a call of this intrinsic is, for a declaration with result
    /// type `ret` (lane by lane for vectors); `None` for intrinsics computed inline.
    pub fn library_routine(self, ret: &Type, params: &[Type]) -> Option<LibraryRoutine> {
        match self {
            Intrinsic::Op(op) => {
                let (name, ty) = op.library_routine(ret.lane_type())?;
                Some(LibraryRoutine { name, ret: ty.clone(), params: vec![ty; op.operand_count()] })
            }
            Intrinsic::FloatRoutine(routine) => {
                let float = if routine.scales() { ret } else { params.first()? };
                let double = *float == Type::Double;
                let ty = if double { Type::Double } else { Type::Float };
                let name = routine.name(double);
                Some(match routine.scales() {
                    true => LibraryRoutine { name, ret: ty.clone(), params: vec![ty, Type::I32] },
                    // C's `long` and `long long` are 64 bits on both targets.
                    false => LibraryRoutine { name, ret: Type::I64, params: vec![ty] },
                })
            }
            _ => None,
        }
    }

    /// Whether calls of the intrinsic carry `metadata` operands, which the parser drops.
    pub fn takes_metadata(name: &str) -> bool {
        name.starts_with("llvm.dbg.") || name == "llvm.experimental.noalias.scope.decl"
    }

    /// Whether a declaration of `name` with `declared` is a later LLVM's form of the intrinsic that
    /// means the same here: LLVM 21's `llvm.lifetime.start/end(ptr)` without the size (rustc
    /// writes it; a hint either way).
    pub fn later_form(self, name: &str, declared: &Signature) -> bool {
        self == Intrinsic::Hint
            && name.starts_with("llvm.lifetime.")
            && declared.ret == Type::Void
            && declared.params == [Type::PTR]
            && !declared.varargs
    }

    /// The signature a declaration of `name` (which denotes `self`) must have; `None` when the name's
    /// overloaded types do not fit the intrinsic. Patch points are checked by `points`.
    pub fn signature(self, name: &str) -> Option<Signature> {
        let rest = name.strip_prefix("llvm.")?;
        let types: Vec<Type> = match split_overloads(rest) {
            Some((_, suffix)) => {
                suffix.split('.').filter(|s| !s.is_empty()).map(mangled_type).collect::<Option<_>>()?
            }
            None => Vec::new(),
        };
        let sig = |ret: Type, params: Vec<Type>| {
            Some(Signature { ret, params, varargs: false, abi: Box::default(), ext: Default::default() })
        };
        match self {
            Intrinsic::StackMap | Intrinsic::PatchPoint => None,
            Intrinsic::Statepoint => match &types[..] {
                [Type::PTR] => Some(Signature {
                    ret: Type::Token,
                    params: vec![Type::I64, Type::I32, Type::PTR, Type::I32, Type::I32],
                    varargs: true,
                    abi: Box::default(),
                    ext: Default::default(),
                }),
                _ => None,
            },
            // The declaration's result type: see `verify`.
            Intrinsic::GcResult => None,
            Intrinsic::GcRelocate => match &types[..] {
                [ty @ Type::Ptr(_)] => sig(ty.clone(), vec![Type::Token, Type::I32, Type::I32]),
                // A vector of GC pointers is relocated whole (`gc.relocate.v2p1`).
                [ty @ Type::Vector(_, lane)] if matches!(**lane, Type::Ptr(_)) => {
                    sig(ty.clone(), vec![Type::Token, Type::I32, Type::I32])
                }
                _ => None,
            },
            Intrinsic::Reduce(op) => {
                let [vector @ Type::Vector(_, elem)] = &types[..] else { return None };
                let lane = &**elem;
                if op.is_float() != lane.is_float() || !(lane.is_float() || lane.is_int()) {
                    return None;
                }
                let params = match op {
                    ReduceOp::Binary(BinOp::FAdd | BinOp::FMul) => vec![lane.clone(), vector.clone()],
                    _ => vec![vector.clone()],
                };
                sig(lane.clone(), params)
            }
            Intrinsic::Op(op) => {
                let [ty] = &types[..] else { return None };
                let lane = ty.lane_type();
                if op.is_float() != lane.is_float() || !(lane.is_float() || lane.is_int()) || *lane == Type::I1 {
                    return None;
                }
                if op == IntrinsicOp::Bswap && lane.int_bits().is_none_or(|b| b % 16 != 0) {
                    return None;
                }
                let (_, _, n) = IntrinsicOp::TABLE
                    .iter()
                    .find(|(stem, o, _)| *o == op && split_overloads(rest).is_some_and(|(s, _)| s == *stem))?;
                let mut params = vec![ty.clone(); *n];
                match op {
                    IntrinsicOp::Ctlz | IntrinsicOp::Cttz | IntrinsicOp::Abs => params.push(Type::I1),
                    IntrinsicOp::Expect if rest.starts_with("expect.with.probability") => params.push(Type::Double),
                    _ => {}
                }
                sig(ty.clone(), params)
            }
            Intrinsic::MemCpy | Intrinsic::MemMove => match &types[..] {
                [Type::PTR, Type::PTR, len @ Type::Int(32 | 64)] => {
                    sig(Type::Void, vec![Type::PTR, Type::PTR, len.clone(), Type::I1])
                }
                _ => None,
            },
            Intrinsic::MemSet => match &types[..] {
                [Type::PTR, len @ Type::Int(32 | 64)] => {
                    sig(Type::Void, vec![Type::PTR, Type::I8, len.clone(), Type::I1])
                }
                _ => None,
            },
            Intrinsic::StackSave => types.iter().all(|t| *t == Type::PTR).then(|| sig(Type::PTR, vec![]))?,
            Intrinsic::StackRestore => {
                types.iter().all(|t| *t == Type::PTR).then(|| sig(Type::Void, vec![Type::PTR]))?
            }
            Intrinsic::WithOverflow(op) => match &types[..] {
                // The lowering has no signed 128-bit multiply with overflow yet.
                [ty @ Type::Int(8 | 16 | 32 | 64 | 128)] if !(op == Overflow::SMul && *ty == Type::I128) => {
                    let result = StructType::new(None, false, Some(vec![ty.clone(), Type::I1]));
                    sig(Type::Struct(std::sync::Arc::new(result)), vec![ty.clone(), ty.clone()])
                }
                _ => None,
            },
            Intrinsic::FloatToIntSat { .. } => {
                let [ret, operand] = &types[..] else { return None };
                // Cranelift converts to at most 64 bits.
                let fits = ret.lane_type().int_bits().is_some_and(|b| b <= 64) && operand.lane_type().is_float();
                (fits && ret.lanes() == operand.lanes()).then(|| sig(ret.clone(), vec![operand.clone()]))?
            }
            Intrinsic::IsFpClass => {
                let [operand] = &types[..] else { return None };
                let ret = match operand {
                    Type::Vector(n, _) => Type::Vector(*n, Box::new(Type::I1)),
                    _ => Type::I1,
                };
                operand.lane_type().is_float().then(|| sig(ret, vec![operand.clone(), Type::I32]))?
            }
            Intrinsic::ReturnAddress => sig(Type::PTR, vec![Type::I32]),
            Intrinsic::ThreadPointer => types.iter().all(|t| *t == Type::PTR).then(|| sig(Type::PTR, vec![]))?,
            Intrinsic::FloatRoutine(routine) => match &types[..] {
                [float, Type::I32] if routine.scales() && float.is_float() => {
                    sig(float.clone(), vec![float.clone(), Type::I32])
                }
                [int @ Type::Int(32 | 64), float] if !routine.scales() && float.is_float() => {
                    sig(int.clone(), vec![float.clone()])
                }
                _ => None,
            },
            Intrinsic::ThreeWayCompare { .. } => {
                let [ret, operand] = &types[..] else { return None };
                // LLVM asks for room for -1, 0 and 1: at least 2 bits.
                let fits = ret.lane_type().int_bits().is_some_and(|b| b >= 2) && operand.lane_type().is_int();
                (fits && ret.lanes() == operand.lanes()).then(|| sig(ret.clone(), vec![operand.clone(); 2]))?
            }
            Intrinsic::ObjectSize => match &types[..] {
                [size @ Type::Int(32 | 64), Type::PTR] => {
                    sig(size.clone(), vec![Type::PTR, Type::I1, Type::I1, Type::I1])
                }
                _ => None,
            },
            Intrinsic::IsConstant => match &types[..] {
                [ty] if ty.is_scalar() => sig(Type::I1, vec![ty.clone()]),
                _ => None,
            },
            Intrinsic::ThreadLocalAddress => match &types[..] {
                [Type::PTR] => sig(Type::PTR, vec![Type::PTR]),
                _ => None,
            },
            Intrinsic::TypeIdFor => match &types[..] {
                [Type::PTR] => sig(Type::I32, vec![Type::PTR]),
                _ => None,
            },
            Intrinsic::PtrMask => match &types[..] {
                [Type::PTR, Type::I64] => sig(Type::PTR, vec![Type::PTR, Type::I64]),
                _ => None,
            },
            Intrinsic::LoadRelative => match &types[..] {
                [offset @ Type::Int(32 | 64)] => sig(Type::PTR, vec![Type::PTR, offset.clone()]),
                _ => None,
            },
            Intrinsic::Hint if rest.starts_with("prefetch") => match &types[..] {
                [Type::PTR] => sig(Type::Void, vec![Type::PTR, Type::I32, Type::I32, Type::I32]),
                _ => None,
            },
            Intrinsic::Trap if rest == "ubsantrap" => sig(Type::Void, vec![Type::I8]),
            Intrinsic::Trap => sig(Type::Void, vec![]),
            Intrinsic::Hint if rest.starts_with("var.annotation.") => match &types[..] {
                [Type::PTR, Type::PTR] => sig(Type::Void, vec![Type::PTR, Type::PTR, Type::PTR, Type::I32, Type::PTR]),
                _ => None,
            },
            Intrinsic::Hint if rest.starts_with("invariant.end.") => match &types[..] {
                [Type::PTR] => sig(Type::Void, vec![Type::PTR, Type::I64, Type::PTR]),
                _ => None,
            },
            Intrinsic::InvariantStart => match &types[..] {
                [Type::PTR] => sig(Type::PTR, vec![Type::I64, Type::PTR]),
                _ => None,
            },
            Intrinsic::PassThrough if rest.starts_with("ptr.annotation.") => match &types[..] {
                [Type::PTR, Type::PTR] => sig(Type::PTR, vec![Type::PTR, Type::PTR, Type::PTR, Type::I32, Type::PTR]),
                _ => None,
            },
            Intrinsic::PassThrough if rest.starts_with("annotation.") => match &types[..] {
                [int @ Type::Int(_), Type::PTR] => sig(int.clone(), vec![int.clone(), Type::PTR, Type::PTR, Type::I32]),
                _ => None,
            },
            Intrinsic::PassThrough => match &types[..] {
                [Type::PTR] => sig(Type::PTR, vec![Type::PTR]),
                _ => None,
            },
            Intrinsic::Hint if rest.starts_with("lifetime.") => match &types[..] {
                [Type::PTR] => sig(Type::Void, vec![Type::I64, Type::PTR]),
                _ => None,
            },
            Intrinsic::Hint if rest == "assume" => sig(Type::Void, vec![Type::I1]),
            // Metadata operands are dropped (`takes_metadata`), the others take none.
            Intrinsic::Hint => sig(Type::Void, vec![]),
            Intrinsic::VaStart | Intrinsic::VaEnd => sig(Type::Void, vec![Type::PTR]),
            Intrinsic::VaCopy => sig(Type::Void, vec![Type::PTR, Type::PTR]),
            Intrinsic::FrameAddress => match &types[..] {
                [Type::PTR] => sig(Type::PTR, vec![Type::I32]),
                _ => None,
            },
            Intrinsic::AddressOfReturnAddress => match &types[..] {
                [Type::PTR] => sig(Type::PTR, vec![]),
                _ => None,
            },
            Intrinsic::ReturnWithRegisters => Some(Signature {
                ret: Type::Void,
                params: vec![],
                varargs: true,
                abi: Box::default(),
                ext: Default::default(),
            }),
        }
    }
}

/// Splits `memcpy.p0.p0.i64` into `memcpy` and `p0.p0.i64`: the suffix starts at the first part
/// that is a mangled type (`iN`, `f32`, `f64`, `p0`). `None` without a suffix.
fn split_overloads(rest: &str) -> Option<(&str, &str)> {
    let mut at = 0;
    for part in rest.split('.') {
        if at > 0 && mangled_type(part).is_some() {
            return Some((&rest[..at - 1], &rest[at..]));
        }
        at += part.len() + 1;
    }
    Some((rest, ""))
}

/// The name suffix part of `ty` in an overloaded intrinsic's name (what the name's reader turns back
/// into a type): `iN`, `f32`, `f64`, `pN`; other types as written.
pub fn mangled_name(ty: &Type) -> String {
    match ty {
        Type::Half => "f16".to_string(),
        Type::Float => "f32".to_string(),
        Type::Double => "f64".to_string(),
        Type::Ptr(n) => format!("p{n}"),
        Type::Vector(n, elem) => format!("v{n}{}", mangled_name(elem)),
        t => t.to_string(),
    }
}

/// The type a name suffix part mangles: `i1`..`i64`, `i128`, `f32`, `f64`, `p0`. Typed-pointer manglings
/// (`p0i8`, `p1i8`, `p0f_isVoidf`) name a pointee after the address space, which llc-19 drops (it
/// remangles them `p0`, `p1`): they are pointers too.
fn mangled_type(part: &str) -> Option<Type> {
    // `v4i32`, `v2f64`, `v2p0`: a fixed-width vector (scalable ones, `nxv4i32`, are not types here).
    if let Some(rest) = part.strip_prefix('v') {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let n: u32 = rest[..digits].parse().ok().filter(|&n| n > 0)?;
        let elem = mangled_type(&rest[digits..]).filter(Type::is_scalar)?;
        return Some(Type::Vector(n, Box::new(elem)));
    }
    match part {
        "f16" => Some(Type::Half),
        "f32" => Some(Type::Float),
        "f64" => Some(Type::Double),
        _ if part.starts_with('p') => {
            let digits = part[1..].bytes().take_while(u8::is_ascii_digit).count();
            part[1..1 + digits].parse().ok().filter(|&n| n < 256).map(Type::Ptr)
        }
        _ => match part.strip_prefix('i')?.parse::<u8>().ok()? {
            bits @ (1..=64 | 128) => Some(Type::Int(bits)),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_denote_intrinsics() {
        assert_eq!(Intrinsic::from_name("llvm.ctpop.i32"), Some(Intrinsic::Op(IntrinsicOp::Ctpop)));
        assert_eq!(Intrinsic::from_name("llvm.memcpy.p0.p0.i64"), Some(Intrinsic::MemCpy));
        assert_eq!(Intrinsic::from_name("llvm.lifetime.start.p0"), Some(Intrinsic::Hint));
        assert_eq!(Intrinsic::from_name("llvm.dbg.value"), Some(Intrinsic::Hint));
        assert_eq!(Intrinsic::from_name("llvm.fmuladd.f64"), Some(Intrinsic::Op(IntrinsicOp::FMulAdd)));
        assert_eq!(Intrinsic::from_name("llvm.experimental.patchpoint.void"), Some(Intrinsic::PatchPoint));
        assert_eq!(Intrinsic::from_name("llvm.experimental.patchpoint.x"), None);
        assert_eq!(Intrinsic::from_name("llvm.experimental.patchpoint.i64"), Some(Intrinsic::PatchPoint));
        assert_eq!(Intrinsic::from_name("llvm.experimental.patchpoint.v4i32"), Some(Intrinsic::PatchPoint));
        assert_eq!(Intrinsic::from_name("llvm.experimental.patchpoint.v2f64"), Some(Intrinsic::PatchPoint));
        assert_eq!(Intrinsic::from_name("llvm.experimental.patchpoint.v65i8"), Some(Intrinsic::PatchPoint));
        assert_eq!(Intrinsic::from_name("llvm.experimental.patchpoint.v4097i8"), None);
        assert_eq!(Intrinsic::from_name("llvm.experimental.patchpoint.vi32"), None);
        assert_eq!(Intrinsic::from_name("llvm.experimental.patchpoint.v2void"), None);
        assert_eq!(Intrinsic::from_name("llvm.ctpop"), None);
        assert_eq!(Intrinsic::from_name("llvm.frobnicate.i32"), None);
        assert_eq!(Intrinsic::from_name("ctpop.i32"), None);
    }

    #[test]
    fn signatures_follow_the_overloads() {
        let s = |name: &str| Intrinsic::from_name(name).and_then(|i| i.signature(name)).map(|s| s.to_string());
        assert_eq!(s("llvm.ctlz.i64").as_deref(), Some("i64 (i64, i1)"));
        assert_eq!(
            s("llvm.experimental.gc.relocate.v2p1").as_deref(),
            Some("<2 x ptr addrspace(1)> (token, i32, i32)")
        );
        assert_eq!(s("llvm.experimental.gc.relocate.v2i64"), None);
        assert_eq!(s("llvm.memset.p0.i64").as_deref(), Some("void (ptr, i8, i64, i1)"));
        assert_eq!(s("llvm.fma.f32").as_deref(), Some("float (float, float, float)"));
        assert_eq!(s("llvm.expect.with.probability.i64").as_deref(), Some("i64 (i64, i64, double)"));
        assert_eq!(s("llvm.sqrt.i32"), None);
        assert_eq!(s("llvm.bswap.i8"), None);
        assert_eq!(s("llvm.stacksave.p0").as_deref(), Some("ptr ()"));
        assert_eq!(s("llvm.frameaddress.p0").as_deref(), Some("ptr (i32)"));
        assert_eq!(s("llvm.addressofreturnaddress.p0").as_deref(), Some("ptr ()"));
        assert_eq!(s("llvm.experimental.retwr").as_deref(), Some("void (...)"));
        assert_eq!(s("llvm.frameaddress.i64"), None);
    }
}
