//! The operand layout of `llvm.experimental.stackmap` and `llvm.experimental.patchpoint.*` calls,
//! decoded in one place: the verifier reports what does not fit the layout, and the lowering and the
//! interpreter read the decoded form of verified calls.

use super::{CallConv, CastOp, Const, Inst, InstData, Intrinsic, Module, Operand, ParamAbi, Type, Value};
use crate::stackmap::MAX_RECORD_LOCATIONS;

/// A stack map or patch point call, decoded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PointCall<'a> {
    /// `llvm.experimental.stackmap(i64 ID, i32 SHADOW, live...)`.
    StackMap {
        /// The record's ID.
        id: u64,
        /// Bytes after the point that must not hold another point.
        shadow: u32,
        /// The values the record locates.
        live: &'a [Operand],
    },
    /// `llvm.experimental.patchpoint.<ty>(i64 ID, i32 NUMBYTES, ptr TARGET, i32 NUMARGS, args..., live...)`.
    PatchPoint(PatchPointCall<'a>),
}

/// A patch point call's operands, decoded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PatchPointCall<'a> {
    /// The record's ID.
    pub id: u64,
    /// The region's length.
    pub bytes: u32,
    /// What the region calls: null, an address or a function (the lowering folds it).
    pub target: &'a Value,
    /// The NUMARGS call arguments.
    pub args: &'a [Operand],
    /// The values the record locates after them.
    pub live: &'a [Operand],
    /// `anyregcc`: the arguments and the result are recorded (and live in any register).
    pub anyreg: bool,
    /// Which of `args` the call site marks `nest`: the static chain, passed in the target's chain
    /// register as llc-19 passes it.
    pub chain: Option<usize>,
}

/// Folds each patch point TARGET that an instruction computes from a constant (`%t = inttoptr i64 C
/// to ptr`, through any `bitcast` or `addrspacecast` of it) into that constant, as llc's selection
/// DAG folds it: LLVM's own tests write targets this way, and the layout takes constants only. The
/// instructions stay (unused, if nothing else reads them).
pub fn fold_patch_point_targets(module: &mut Module) {
    let is_patch_point: Vec<bool> =
        module.functions.iter().map(|f| f.intrinsic() == Some(Intrinsic::PatchPoint)).collect();
    for f in &mut module.functions {
        for i in 0..f.insts.len() {
            let Inst::Call { callee: Value::Func(callee), args, .. } = &f.insts[i].kind else { continue };
            if !is_patch_point.get(callee.0 as usize).copied().unwrap_or(false) {
                continue;
            }
            let Some(Value::Inst(source)) = args.get(2).map(|a| &a.value) else { continue };
            let Some(folded) = constant_pointer(f, *source) else { continue };
            if let Inst::Call { args, .. } = &mut f.insts[i].kind {
                args[2].value = folded;
            }
        }
    }
}

/// The constant pointer instruction `id` computes, if it is a chain of pointer casts ending in a
/// constant, a function or a global.
fn constant_pointer(f: &super::Function, mut id: super::InstId) -> Option<Value> {
    // Each step goes to an earlier definition in a well-formed function; the bound stops a cycle
    // in one that is not (the verifier reports it).
    for _ in 0..f.insts.len() {
        let Inst::Cast { op, from, val } = &f.insts.get(id.0 as usize)?.kind else { return None };
        match (op, from, val) {
            (CastOp::IntToPtr, Type::Int(bits), Value::Const(Const::Int(v))) => {
                // inttoptr zero-extends a narrower integer to the pointer's width.
                let v = if *bits < 64 { ((*v as u64) & ((1u64 << bits) - 1)) as i64 } else { *v };
                return Some(Value::Const(Const::IntToPtr(v)));
            }
            (CastOp::IntToPtr, Type::Int(_), Value::Const(Const::Zero)) => return Some(Value::Const(Const::Zero)),
            (CastOp::BitCast | CastOp::AddrSpaceCast, Type::Ptr(_), Value::Inst(next)) => id = *next,
            (
                CastOp::BitCast | CastOp::AddrSpaceCast,
                Type::Ptr(_),
                v @ (Value::Const(Const::Zero | Const::IntToPtr(_)) | Value::Func(_) | Value::Global(_)),
            ) => return Some(v.clone()),
            _ => return None,
        }
    }
    None
}

/// The most bytes of one stack map's shadow, patch point's region or statepoint's patch area
/// (64 KiB): each is code the compiler writes (nops), far more than any call sequence or inline
/// cache needs. LLVM allows 2^31 - 1, for which a compiler would write gigabytes.
pub const MAX_PATCH_BYTES: u32 = 1 << 16;

/// The most bytes the shadows, regions and patch areas of one module may add up to (256 MiB, as
/// for globals' stored bytes): a bound on the nops the compiler may have to write.
pub const MAX_MODULE_PATCH_BYTES: u64 = 256 << 20;

/// The error for `bytes` of shadow, region or patch area (`what`) past [`MAX_PATCH_BYTES`].
pub(crate) fn patch_bytes_error(what: &str, bytes: u64) -> Option<String> {
    (bytes > u64::from(MAX_PATCH_BYTES)).then(|| {
        format!(
            "{what} of {bytes} bytes is larger than the limit, {MAX_PATCH_BYTES} bytes (patchmap writes them as nops)"
        )
    })
}

/// The most arguments and live values one patch point may have. Each is an operand of one
/// instruction, with the result and a scratch register, and the register allocator numbers an
/// instruction's operands in 16 bits (65536 at most).
pub const MAX_PATCHPOINT_OPERANDS: usize = 65534;

/// What is wrong with a point call's operands: the operand (its position among the call's operands,
/// 0 the callee) or the whole call (`None`), and the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutError {
    /// The operand at fault, as [`InstData::operand_span`] numbers them.
    pub operand: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl<'a> PointCall<'a> {
    /// Decodes `data` if it calls a stack map or patch point intrinsic of `module`; `None` for any
    /// other instruction. The errors name every operand that breaks the layout.
    pub fn decode(module: &Module, data: &'a InstData) -> Option<Result<PointCall<'a>, Vec<LayoutError>>> {
        let Inst::Call { callee: Value::Func(callee), args, cc, sig, .. } = &data.kind else { return None };
        let callee = module.functions.get(callee.0 as usize)?;
        let intrinsic = callee.intrinsic()?;
        let mut errors = Vec::new();
        for (i, a) in args.iter().enumerate() {
            if a.ty.is_aggregate() {
                errors.push(LayoutError {
                    operand: Some(i + 1),
                    message: format!(
                        "operand of aggregate type '{}': a record locates scalars (pass the fields, from \
                         'extractvalue')",
                        a.ty
                    ),
                });
            }
        }
        let decoded = match intrinsic {
            Intrinsic::StackMap => {
                let id = immediate(args, 0, 64, "stackmap ID", &mut errors);
                let shadow = immediate(args, 1, 32, "stackmap SHADOW (number of shadow bytes)", &mut errors);
                if let Some(message) = shadow.and_then(|s| patch_bytes_error("stackmap SHADOW", s as u64)) {
                    errors.push(LayoutError { operand: Some(2), message });
                }
                match (id, shadow) {
                    (Some(id), Some(shadow)) => {
                        Some(PointCall::StackMap { id: id as u64, shadow: shadow as u32, live: &args[2..] })
                    }
                    _ => None,
                }
            }
            Intrinsic::PatchPoint => {
                let id = immediate(args, 0, 64, "patchpoint ID", &mut errors);
                let bytes = immediate(args, 1, 32, "patchpoint NUMBYTES", &mut errors);
                if let Some(message) = bytes.and_then(|b| patch_bytes_error("patchpoint NUMBYTES", b as u64)) {
                    errors.push(LayoutError { operand: Some(2), message });
                }
                let target = args.get(2).map(|a| &a.value);
                if !matches!(
                    target,
                    Some(Value::Const(Const::Zero | Const::IntToPtr(_)) | Value::Func(_) | Value::Global(_))
                ) {
                    errors.push(LayoutError {
                        operand: Some(3),
                        message: "patchpoint TARGET must be a constant pointer (null, inttoptr or a function address)"
                            .to_string(),
                    });
                }
                let nargs = immediate(args, 3, 32, "patchpoint NUMARGS", &mut errors);
                if let Some(n) = nargs {
                    let available = args.len().saturating_sub(4);
                    if n as usize > available {
                        errors.push(LayoutError {
                            operand: Some(4),
                            message: format!(
                                "patchpoint NUMARGS is {n} but only {available} argument(s) follow the fixed operands"
                            ),
                        });
                    }
                }
                if let Some(want) = patchpoint_result(&callee.name) {
                    if data.ty != want {
                        errors.push(LayoutError {
                            operand: None,
                            message: format!(
                                "'@{}' returns '{want}' but the call's result type is '{}'",
                                callee.name, data.ty
                            ),
                        });
                    }
                }
                match (id, bytes, target, nargs) {
                    (Some(id), Some(bytes), Some(target), Some(n)) if errors.is_empty() => {
                        let (call_args, live) = args[4..].split_at(n as usize);
                        Some(PointCall::PatchPoint(PatchPointCall {
                            id: id as u64,
                            bytes: bytes as u32,
                            target,
                            args: call_args,
                            live,
                            anyreg: *cc == CallConv::AnyReg,
                            chain: (0..n as usize).find(|&i| *sig.param_abi(4 + i) == ParamAbi::Nest),
                        }))
                    }
                    _ => None,
                }
            }
            _ => return None,
        };
        if let Some(call) = &decoded {
            if let Some(e) = too_many_locations(call, args.len(), data.ty != Type::Void) {
                errors.push(e);
            } else if let PointCall::PatchPoint(p) = call {
                let operands = p.args.len() + p.live.len();
                if operands > MAX_PATCHPOINT_OPERANDS {
                    errors.push(LayoutError {
                        operand: Some(5 + MAX_PATCHPOINT_OPERANDS),
                        message: format!(
                            "patchpoint with {operands} arguments and live values: at most \
                             {MAX_PATCHPOINT_OPERANDS} fit in one instruction"
                        ),
                    });
                }
            }
        }
        Some(match decoded {
            Some(call) if errors.is_empty() => Ok(call),
            _ => Err(errors),
        })
    }

    /// The record's ID.
    pub fn id(&self) -> u64 {
        match *self {
            PointCall::StackMap { id, .. } | PointCall::PatchPoint(PatchPointCall { id, .. }) => id,
        }
    }

    /// The values the record locates after any anyregcc result and arguments.
    pub fn live(&self) -> &'a [Operand] {
        match *self {
            PointCall::StackMap { live, .. } | PointCall::PatchPoint(PatchPointCall { live, .. }) => live,
        }
    }
}

/// The error for a record of more locations than the format counts, at the first operand past the
/// limit: the live values, after anyregcc's result and arguments. `operands` is the call's argument
/// count, the live values its last ones.
fn too_many_locations(call: &PointCall, operands: usize, has_result: bool) -> Option<LayoutError> {
    let fixed = match call {
        PointCall::PatchPoint(p) if p.anyreg => p.args.len() + usize::from(has_result),
        _ => 0,
    };
    let live = call.live();
    let count = fixed + live.len();
    if count <= MAX_RECORD_LOCATIONS {
        return None;
    }
    // The operand of the first location past the limit. Operands are numbered from 1 (0 is the
    // callee): a patch point's arguments start at 5, the live values end the call's arguments.
    let past = MAX_RECORD_LOCATIONS;
    let operand = match call {
        PointCall::PatchPoint(p) if p.anyreg && past - usize::from(has_result) < p.args.len() => {
            Some(5 + past - usize::from(has_result))
        }
        _ => Some(operands - live.len() + (past - fixed) + 1),
    };
    Some(LayoutError {
        operand,
        message: format!(
            "this record would hold {count} locations: a stack map record holds at most {MAX_RECORD_LOCATIONS} \
             (the format counts them in 16 bits)"
        ),
    })
}

/// The return type a patch point intrinsic's name promises.
pub(crate) fn patchpoint_result(name: &str) -> Option<Type> {
    patchpoint_result_of_suffix(name.strip_prefix("llvm.experimental.patchpoint.")?)
}

/// The result type a patch point's name suffix (`i64`, `v4i32`, ...) stands for.
pub(crate) fn patchpoint_result_of_suffix(suffix: &str) -> Option<Type> {
    // A vector (`v4i32`, `v2f64`, `v16i8`): returned in the C convention's vector register(s).
    if let Some(vector) = suffix.strip_prefix('v').filter(|v| v.starts_with(|c: char| c.is_ascii_digit())) {
        let digits = vector.find(|c: char| !c.is_ascii_digit())?;
        let n: u32 = vector[..digits].parse().ok()?;
        let lane = patchpoint_result_of_suffix(&vector[digits..])?;
        let fits = (1..=super::MAX_VECTOR_LANES).contains(&u64::from(n));
        return (fits && lane.is_scalar() && lane != Type::Void).then(|| Type::Vector(n, Box::new(lane)));
    }
    Some(match suffix {
        "void" => Type::Void,
        "i64" => Type::I64,
        "i32" => Type::I32,
        "i16" => Type::I16,
        "i8" => Type::I8,
        "i1" => Type::I1,
        "p0" | "ptr" => Type::PTR,
        "f16" => Type::Half,
        "f32" => Type::Float,
        "f64" => Type::Double,
        _ => return None,
    })
}

/// Operand `i`, which must be a non-negative integer constant of `bits` (an `i64` may be any value).
fn immediate(args: &[Operand], i: usize, bits: u8, what: &str, errors: &mut Vec<LayoutError>) -> Option<i64> {
    let operand = Some(i + 1);
    match args.get(i).map(|a| (&a.value, &a.ty)) {
        Some((Value::Const(Const::Int(v)), Type::Int(b))) if *b == bits => {
            if *v < 0 && bits < 64 {
                errors.push(LayoutError { operand, message: format!("{what} must not be negative, found {v}") });
                return None;
            }
            Some(*v)
        }
        _ => {
            errors.push(LayoutError { operand, message: format!("{what} must be an i{bits} constant") });
            None
        }
    }
}
