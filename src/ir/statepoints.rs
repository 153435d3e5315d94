//! The operand layout of `llvm.experimental.gc.statepoint` calls and of the `gc.result` and
//! `gc.relocate` calls that read their tokens, decoded in one place: the verifier reports what does
//! not fit, and the lowering and the interpreter read the decoded form of verified calls.

use super::points::LayoutError;
use super::{
    BundleTag, CallConv, Const, Inst, InstData, InstId, Intrinsic, Module, Operand, ParamAbi, Signature, Type, Value,
};

/// A statepoint call, decoded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StatepointCall<'a> {
    /// The record's ID.
    pub id: u64,
    /// NUMPATCHBYTES: when not 0, the call is a region of that many bytes of nops for a runtime to
    /// patch, and the target is not called.
    pub patch_bytes: u32,
    /// What is called.
    pub target: &'a Value,
    /// The target's function type, from `elementtype(...)`.
    pub target_type: &'a Signature,
    /// The call's arguments.
    pub args: &'a [Operand],
    /// FLAGS: bit 0 a GC transition, bit 1 deopt values live into the call.
    pub flags: u32,
    /// The calling convention of the statepoint call itself (the record's first constant).
    pub cc: CallConv,
    /// The `"deopt"` bundle's values.
    pub deopt: &'a [Operand],
    /// The `"gc-live"` bundle's pointers, which `gc.relocate` indexes.
    pub gc_live: &'a [Operand],
    /// The `"gc-transition"` bundle's values (evaluated, not recorded).
    pub transition: &'a [Operand],
    /// An ordinary call with a `"deopt"` bundle, which llc-19 lowers as a statepoint without
    /// (base, derived) pairs.
    pub deopt_call: bool,
    /// Which of `args` the statepoint marks `nest` (the static chain), which `target_type` does
    /// not say; a deopt call's own function type says it.
    pub chain: Option<usize>,
}

/// The record ID of a call with a `"deopt"` bundle and no `"statepoint-id"` (LLVM's
/// `StatepointDirectives::DefaultStatepointID`).
pub const DEFAULT_DEOPT_CALL_ID: u64 = 0xABCD_EF0F;

/// A use of a statepoint's token, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenUse {
    /// `gc.result(token)`: the call's result.
    Result {
        /// The statepoint.
        token: InstId,
    },
    /// `gc.relocate(token, base, derived)`: `gc-live[derived]` after the collector ran, kept at
    /// the same offset from `gc-live[base]`'s object.
    Relocate {
        /// The statepoint.
        token: InstId,
        /// Index of the base pointer in the statepoint's `gc-live` bundle.
        base: u32,
        /// Index of the derived pointer (equal to `base` for a base pointer).
        derived: u32,
        /// Whether the token is the landing pad of the statepoint's `invoke`: the pointer after
        /// the call unwound rather than returned.
        unwound: bool,
    },
}

/// The `invoke` of a statepoint that unwinds to landing pad `pad`: the terminator of the pad
/// block's only predecessor, as LLVM's `GCProjectionInst::getStatepoint` finds it (LLVM requires
/// a statepoint's landing pad to have no other predecessor).
pub fn invoked_statepoint(module: &Module, f: &super::Function, pad: InstId) -> Option<InstId> {
    let pad_block = f.blocks.iter().position(|b| b.insts.contains(&pad))?;
    let mut predecessors = f
        .blocks
        .iter()
        .filter_map(|b| b.insts.last())
        .filter(|&&t| f.inst(t).kind.successors().iter().any(|s| s.0 as usize == pad_block));
    let invoke = *predecessors.next()?;
    if predecessors.next().is_some() {
        return None;
    }
    match &f.inst(invoke).kind {
        Inst::Call { invoke: Some(dests), .. } if dests.unwind.0 as usize == pad_block => {
            StatepointCall::decode(module, f.inst(invoke)).map(|_| invoke)
        }
        _ => None,
    }
}

/// Whether `count`, a transition or deopt operand count, is a zero constant: these operands follow
/// the intrinsic's fixed parameters, so llc-19 takes an integer of any width (LLVM's own tests
/// write `i64 0`).
fn is_zero_count(count: &Operand) -> bool {
    count.ty.is_int() && matches!(count.value, Value::Const(Const::Int(0) | Const::Zero))
}

/// The bit of FLAGS that marks a GC transition.
pub const FLAG_GC_TRANSITION: u32 = 1;
/// The bits FLAGS may have.
pub const FLAGS_ALL: u32 = 3;

/// The operands before the call arguments: ID, NUMPATCHBYTES, target, NUMCALLARGS, FLAGS.
const FIXED: usize = 5;

impl<'a> StatepointCall<'a> {
    /// Decodes `data` if it calls `llvm.experimental.gc.statepoint` in `module`; `None` for any
    /// other instruction. The errors name every operand that breaks the layout.
    pub fn decode(module: &Module, data: &'a InstData) -> Option<Result<StatepointCall<'a>, Vec<LayoutError>>> {
        let Inst::Call { callee: Value::Func(callee), args, cc, sig, bundles, .. } = &data.kind else { return None };
        let callee = module.functions.get(callee.0 as usize)?;
        if callee.intrinsic()? != Intrinsic::Statepoint {
            return None;
        }
        let mut errors = Vec::new();
        let mut error = |operand: Option<usize>, message: String| errors.push(LayoutError { operand, message });
        let int = |i: usize, bits: u8| match args.get(i).map(|a| (&a.value, &a.ty)) {
            Some((Value::Const(Const::Int(v)), Type::Int(b))) if *b == bits && (bits == 64 || *v >= 0) => Some(*v),
            Some((Value::Const(Const::Zero), Type::Int(b))) if *b == bits => Some(0),
            _ => None,
        };
        let id = int(0, 64);
        if id.is_none() {
            error(Some(1), "statepoint ID must be an i64 constant".to_string());
        }
        let patch_bytes = int(1, 32);
        match patch_bytes.map(|b| super::points::patch_bytes_error("statepoint NUMPATCHBYTES", b as u64)) {
            None => error(Some(2), "statepoint NUMPATCHBYTES must be a non-negative i32 constant".to_string()),
            Some(Some(message)) => error(Some(2), message),
            Some(None) => {}
        }
        let target_type = match sig.abi.get(2) {
            Some(ParamAbi::ElementType(t)) => Some(&**t),
            _ => {
                error(
                    Some(3),
                    "the statepoint target needs 'elementtype(FNTY)': the function type it is called with".into(),
                );
                None
            }
        };
        if let Some(t) = target_type {
            if t.varargs && t.ret != Type::Void {
                // As llc-19's verifier: it would crash on the result.
                error(Some(3), format!("a statepoint of a variadic function must return void, not '{}'", t.ret));
            }
            // A called function's declaration must agree with `elementtype`, as a direct `call`'s
            // must agree with its function type: llc-19 calls through `elementtype`'s signature,
            // which is undefined behaviour when the declaration differs, and the declaration's
            // attributes (`byval`, `sret`) are what a direct call passes. A patched region calls
            // nothing, so its target's declaration does not matter.
            if let (Some(Value::Func(fid)), Some(0)) = (args.get(2).map(|a| &a.value), patch_bytes) {
                if let Some(declared) = module.functions.get(fid.0 as usize).filter(|f| f.intrinsic().is_none()) {
                    let same = declared.ret == t.ret
                        && declared.varargs == t.varargs
                        && declared.params.len() == t.params.len()
                        && declared.params.iter().zip(&t.params).all(|(p, ty)| p.ty == *ty);
                    if !same {
                        error(
                            Some(3),
                            format!(
                                "the statepoint calls '@{}' as '{t}' (its elementtype) but it is declared as '{}'",
                                declared.name,
                                super::verify::signature_of(declared)
                            ),
                        );
                    }
                }
            }
        }
        let nargs = int(3, 32);
        if nargs.is_none() {
            error(Some(4), "statepoint NUMCALLARGS must be a non-negative i32 constant".to_string());
        }
        let flags = int(4, 32);
        match flags {
            Some(f) if f as u32 & !FLAGS_ALL == 0 => {}
            Some(f) => error(
                Some(5),
                format!("statepoint FLAGS {f}: only bits 0 (GC transition) and 1 (deopt values live in) are defined"),
            ),
            None => error(Some(5), "statepoint FLAGS must be an i32 constant".to_string()),
        }
        let mut call_args: &[Operand] = &[];
        if let (Some(n), Some(t)) = (nargs, target_type) {
            let n = n as usize;
            let count_error = [(FIXED + n, "transition"), (FIXED + n + 1, "deopt")]
                .into_iter()
                .find(|&(k, _)| k < args.len() && !is_zero_count(&args[k]));
            if n != t.params.len() && !(t.varargs && n > t.params.len()) {
                let takes = if t.varargs { format!("at least {}", t.params.len()) } else { t.params.len().to_string() };
                error(Some(4), format!("statepoint NUMCALLARGS is {n} but the target's type '{t}' takes {takes}"));
            } else if let Some((k, what)) = count_error {
                error(Some(k + 1), format!("the number of {what} operands must be 0: they go in a \"{what}\" bundle"));
            } else if args.len() != FIXED + n + 2 {
                error(
                    None,
                    format!(
                        "statepoint has {} operands but {} are expected: the 5 fixed ones, {n} call argument(s), and \
                         two zero counts (transition and deopt values go in operand bundles)",
                        args.len(),
                        FIXED + n + 2
                    ),
                );
            } else {
                call_args = &args[FIXED..FIXED + n];
                for (i, (a, p)) in call_args.iter().zip(&t.params).enumerate() {
                    if a.ty != *p {
                        error(
                            Some(FIXED + i + 1),
                            format!(
                                "statepoint call argument {i} has type '{}' but the target's type expects '{p}'",
                                a.ty
                            ),
                        );
                    }
                }
            }
        }
        let bundle = |tag: BundleTag| bundles.iter().find(|b| b.tag == tag).map_or(&[][..], |b| &b.operands[..]);
        let first_bundle_operand = args.len() + 1;
        let mut at = first_bundle_operand;
        for b in bundles.iter() {
            for (i, o) in b.operands.iter().enumerate() {
                let span_index = Some(at + i);
                match b.tag {
                    BundleTag::GcLive if !o.ty.lane_type().is_ptr() => error(
                        span_index,
                        format!(
                            "gc-live operand {i} has type '{}': gc-live values are pointers or vectors of them",
                            o.ty
                        ),
                    ),
                    // A vector is recorded whole, in a frame slot (`Indirect` of its size).
                    _ if !o.ty.is_scalar() && !matches!(o.ty, Type::Vector(..)) => error(
                        span_index,
                        format!("{} operand {i} has type '{}': a record locates scalars", b.tag.name(), o.ty),
                    ),
                    _ => {}
                }
            }
            at += b.operands.len();
        }
        if data.ty != Type::Token {
            error(None, format!("a statepoint returns 'token', not '{}'", data.ty));
        }
        if !errors.is_empty() {
            return Some(Err(errors));
        }
        let (Some(id), Some(patch_bytes), Some(target_type), Some(flags)) = (id, patch_bytes, target_type, flags)
        else {
            return Some(Err(errors));
        };
        Some(Ok(StatepointCall {
            id: id as u64,
            patch_bytes: patch_bytes as u32,
            target: &args[2].value,
            target_type,
            args: call_args,
            flags: flags as u32,
            cc: *cc,
            deopt: bundle(BundleTag::Deopt),
            gc_live: bundle(BundleTag::GcLive),
            transition: bundle(BundleTag::GcTransition),
            deopt_call: false,
            chain: (0..call_args.len()).find(|&i| *sig.param_abi(FIXED + i) == ParamAbi::Nest),
        }))
    }

    /// The statepoint llc-19 makes of `data` if it is an ordinary call (not an intrinsic's) with a
    /// `"deopt"` bundle: the call itself, its ID and patch bytes from its statepoint directives.
    pub fn of_deopt_call(module: &Module, data: &'a InstData) -> Option<StatepointCall<'a>> {
        let Inst::Call { callee, args, cc, sig, bundles, directives, .. } = &data.kind else { return None };
        let deopt = bundles.iter().find(|b| b.tag == BundleTag::Deopt)?;
        if let Value::Func(f) = callee {
            if module.functions.get(f.0 as usize)?.intrinsic().is_some() {
                return None;
            }
        }
        let directives = directives.as_deref().copied().unwrap_or_default();
        Some(StatepointCall {
            id: directives.id.unwrap_or(DEFAULT_DEOPT_CALL_ID),
            patch_bytes: directives.patch_bytes.unwrap_or(0),
            target: callee,
            target_type: sig,
            args,
            flags: 0,
            cc: *cc,
            deopt: &deopt.operands,
            gc_live: &[],
            transition: &[],
            deopt_call: true,
            chain: None,
        })
    }
}

impl TokenUse {
    /// Decodes `data` if it calls `gc.result` or `gc.relocate`; the errors name what breaks the
    /// layout, including what only the statepoint can tell (an index beyond its `gc-live` bundle, a
    /// result type other than its target's).
    pub fn decode(module: &Module, f: &super::Function, data: &InstData) -> Option<Result<TokenUse, Vec<LayoutError>>> {
        let Inst::Call { callee: Value::Func(callee), args, .. } = &data.kind else { return None };
        let callee = module.functions.get(callee.0 as usize)?;
        let intrinsic = callee.intrinsic()?;
        if !matches!(intrinsic, Intrinsic::GcResult | Intrinsic::GcRelocate) {
            return None;
        }
        let mut errors = Vec::new();
        let given = match args.first().map(|a| &a.value) {
            Some(Value::Inst(t)) if f.insts.get(t.0 as usize).is_some() => Some(*t),
            _ => None,
        };
        let in_landing_pad = given.is_some_and(|t| matches!(f.inst(t).kind, Inst::LandingPad { .. }));
        // A landing pad's token stands for the statepoint its only predecessor invokes.
        let token = if in_landing_pad { given.and_then(|pad| invoked_statepoint(module, f, pad)) } else { given };
        let statepoint = token.and_then(|t| StatepointCall::decode(module, f.inst(t)).map(|decoded| (t, decoded.ok())));
        let Some((token, statepoint)) = statepoint else {
            let message = if in_landing_pad {
                format!(
                    "the landing pad token of '@{}' must be that of a block whose only predecessor ends in an \
                     'invoke' of a statepoint that unwinds to it",
                    callee.name
                )
            } else {
                format!("the token of '@{}' must be the result of a statepoint", callee.name)
            };
            errors.push(LayoutError { operand: Some(1), message });
            return Some(Err(errors));
        };
        // A malformed statepoint has its own errors.
        let Some(statepoint) = statepoint else { return Some(Err(errors)) };
        if intrinsic == Intrinsic::GcResult && in_landing_pad {
            errors.push(LayoutError {
                operand: Some(1),
                message: "'gc.result' of a landing pad's token: a call that unwound returned no result".to_string(),
            });
            return Some(Err(errors));
        }
        if intrinsic == Intrinsic::GcResult {
            let ret = &statepoint.target_type.ret;
            if *ret == Type::Void {
                errors.push(LayoutError {
                    operand: None,
                    message: "'gc.result' of a statepoint whose target returns void".to_string(),
                });
            } else if data.ty != *ret {
                errors.push(LayoutError {
                    operand: None,
                    message: format!("'gc.result' has type '{}' but the statepoint's target returns '{ret}'", data.ty),
                });
            }
            return Some(if errors.is_empty() { Ok(TokenUse::Result { token }) } else { Err(errors) });
        }
        let live = statepoint.gc_live.len();
        let mut index = |i: usize, what: &str| match args.get(i).map(|a| &a.value) {
            Some(Value::Const(Const::Int(v))) if (0..live as i64).contains(v) => Some(*v as u32),
            Some(Value::Const(Const::Zero)) if live > 0 => Some(0),
            Some(Value::Const(Const::Int(v))) => {
                errors.push(LayoutError {
                    operand: Some(i + 1),
                    message: format!(
                        "'gc.relocate' {what} index {v} is outside the statepoint's {live} gc-live value(s)"
                    ),
                });
                None
            }
            _ => {
                errors.push(LayoutError {
                    operand: Some(i + 1),
                    message: format!("'gc.relocate' {what} index must be an i32 constant"),
                });
                None
            }
        };
        let (base, derived) = (index(1, "base"), index(2, "derived"));
        if let Some(d) = derived {
            let derived_ty = &statepoint.gc_live[d as usize].ty;
            if data.ty != *derived_ty {
                errors.push(LayoutError {
                    operand: None,
                    message: format!(
                        "'gc.relocate' has type '{}' but the derived pointer is a '{derived_ty}'",
                        data.ty
                    ),
                });
            }
        }
        Some(match (base, derived) {
            (Some(base), Some(derived)) if errors.is_empty() => {
                Ok(TokenUse::Relocate { token, base, derived, unwound: in_landing_pad })
            }
            _ => Err(errors),
        })
    }
}

/// The GC strategies whose statepoints llc-19 lowers. Both manage the pointers of address space 1.
pub const GC_STRATEGIES: [&str; 2] = ["statepoint-example", "coreclr"];

/// Whether a value of type `ty` is a pointer the collector manages (`ptr addrspace(1)`, or a vector
/// of them): the deopt values that are also recorded as (base, derived) pairs.
pub fn is_gc_pointer(ty: &Type) -> bool {
    // As LLVM's strategies decide, by the scalar type: a vector of them is one too.
    *ty.lane_type() == Type::Ptr(1)
}
