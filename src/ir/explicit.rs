//! `explicitcc` functions, as `../shared/seeds/004` proposes them: code for a stack map's shadow or
//! a patch point's region, whose every argument arrives in a register the text names, which
//! preserves the registers it is told to, and returns with chosen registers set.
//!
//! ```llvm
//! define explicitcc void @swap(i64 hwreg(metadata !1) %a, i64 hwreg(metadata !2) %b) noclobber(metadata !0) {
//!   call void (...) @llvm.experimental.retwr(i64 hwreg(metadata !2) %a, i64 hwreg(metadata !1) %b)
//!   ret void
//! }
//! !0 = !{!"rax", !"rbx"}
//! !1 = !{!"rcx"}
//! !2 = !{!"rdx"}
//! ```
//!
//! The module keeps registers by name ([`RegisterName`]: in [`ParamAbi::Register`] of parameters
//! and call arguments, and [`Function::noclobber`]); names mean something only for a target.
//! `check` (run by the verifier) and [`resolve`] (run by the lowering) resolve them with
//! [`Arch::register_by_name`] and report, positioned: a name the target does not have, a register
//! of the wrong class for its value, one that cannot be handed over ([`Arch::register_restriction`]),
//! and registers named twice. The verifier uses the module's `target triple`; without one, the
//! architecture whose names the module uses (x86-64's and AArch64's names are disjoint), which
//! compiling checks again against the real target.
//!
//! Registers named twice: two parameters cannot arrive in one register, and `retwr` cannot set one
//! register twice; a list naming a register twice is an error too (`d0` and `v0` are one register).
//! Across lists: a parameter's register may be in `noclobber` (the argument arrives there and the
//! caller gets it back unchanged: what a handler that only reads the interrupted code's values
//! wants) and may be set by `retwr` (the seed's swap does this), but a `noclobber` register cannot
//! be set by `retwr`, which would contradict it.
//!
//! What a lowering needs comes out of [`resolve`] as an [`ExplicitFunction`]: each parameter's
//! register, the `noclobber` set, and each `retwr` with its operands' registers.

use super::print::Names;
use super::{
    CallConv, Function, Inst, InstData, InstId, Intrinsic, IrError, Module, Operand, ParamAbi, RegisterName, Span,
    Type, Value,
};
use crate::arch::{Arch, NamedRegister, RegisterClass, RegisterUse};

/// An `explicitcc` function's registers, resolved for one target: the hand-off to the lowering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplicitFunction {
    /// The register each parameter arrives in, in parameter order (all distinct).
    pub params: Vec<NamedRegister>,
    /// The registers the function returns unchanged (saved and restored if the body may change
    /// them), in the order written. The stack pointer and the frame pointer always come back
    /// unchanged and need not be listed; every other register may be clobbered.
    pub noclobber: Vec<NamedRegister>,
    /// Each `llvm.experimental.retwr` of the body, each directly before a `ret void`; a
    /// `ret void` without one sets no register.
    pub returns: Vec<RegisterReturn>,
}

/// One `llvm.experimental.retwr` call: what each register holds when the function returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegisterReturn {
    /// The call; the instruction after it is the `ret void`.
    pub call: InstId,
    /// Each operand (an index into the call's arguments) and the register it is returned in (all
    /// distinct, none in `noclobber`).
    pub values: Vec<(usize, NamedRegister)>,
}

/// The registers of `f`, an `explicitcc` function of the verified module `m`, on `arch`; the first
/// error (positioned) if a name does not fit the target.
pub fn resolve(m: &Module, f: &Function, arch: Arch) -> Result<ExplicitFunction, IrError> {
    let mut errors = Vec::new();
    let resolved = walk(m, f, Some(arch), &mut errors);
    match errors.into_iter().min_by_key(|e: &(Span, String)| e.0) {
        Some((span, message)) => Err(m.error(span, message)),
        None => Ok(resolved),
    }
}

/// Every error of `f`'s `explicitcc` parts: conventions, attributes, `retwr`'s place, and, with
/// `arch`, the registers. For the verifier.
pub(crate) fn check(m: &Module, f: &Function, arch: Option<Arch>) -> Vec<(Span, String)> {
    let mut errors = Vec::new();
    if !involved(m, f) {
        return errors;
    }
    walk(m, f, arch, &mut errors);
    errors
}

/// Whether `f` has anything of `explicitcc`: the convention, `hwreg`, `noclobber`, or calls of
/// explicitcc functions or `retwr` (most functions have none, and naming values costs).
fn involved(m: &Module, f: &Function) -> bool {
    let explicit_callee = |callee: &Value| match callee {
        Value::Func(t) => m
            .functions
            .get(t.0 as usize)
            .is_some_and(|t| t.cc == CallConv::Explicit || t.intrinsic() == Some(Intrinsic::ReturnWithRegisters)),
        _ => false,
    };
    f.cc == CallConv::Explicit
        || f.noclobber.is_some()
        || f.params.iter().any(|p| matches!(p.abi, ParamAbi::Register(_)))
        || f.insts.iter().any(|d| match &d.kind {
            Inst::Call { cc, callee, sig, .. } => {
                *cc == CallConv::Explicit
                    || explicit_callee(callee)
                    || sig.abi.iter().any(|a| matches!(a, ParamAbi::Register(_)))
            }
            _ => false,
        })
}

/// The architecture whose register names the verifier checks: the `target triple`'s, else that
/// of the first register name of the module that some architecture knows; `None` without either.
pub(crate) fn module_arch(m: &Module) -> Option<Arch> {
    if let Some(target) = m.triple.as_deref().and_then(|t| crate::target::Target::parse(t).ok()) {
        return Some(target.arch);
    }
    let known = |r: &RegisterName| Arch::ALL.into_iter().find(|a| a.register_by_name(&r.name).is_some());
    for f in &m.functions {
        let params = f.params.iter().map(|p| &p.abi);
        let calls = f.insts.iter().flat_map(|d| match &d.kind {
            Inst::Call { sig, .. } => &sig.abi[..],
            _ => &[],
        });
        for abi in params.chain(calls) {
            if let Some(arch) = match abi {
                ParamAbi::Register(r) => known(r),
                _ => None,
            } {
                return Some(arch);
            }
        }
        if let Some(arch) = f.noclobber.iter().flat_map(|n| &n.registers).find_map(known) {
            return Some(arch);
        }
    }
    None
}

fn class_name(class: RegisterClass) -> &'static str {
    match class {
        RegisterClass::General => "general-purpose",
        RegisterClass::Float => "floating-point",
    }
}

/// The register class a value of type `ty` needs; `None` for a type no register holds.
fn class_of(ty: &Type) -> Option<RegisterClass> {
    match ty {
        Type::Int(_) | Type::Ptr(_) => Some(RegisterClass::General),
        Type::Half | Type::Float | Type::Double => Some(RegisterClass::Float),
        _ => None,
    }
}

/// Resolves names on one architecture, collecting errors.
struct Registers<'e> {
    arch: Option<Arch>,
    errors: &'e mut Vec<(Span, String)>,
}

impl Registers<'_> {
    /// The register `r` names, for a value of `ty` (`None`: any class) used as `usage`.
    fn resolve(&mut self, r: &RegisterName, ty: Option<&Type>, usage: RegisterUse) -> Option<NamedRegister> {
        let Some(arch) = self.arch else {
            // No triple and no name any target knows: nothing to check against but that.
            if Arch::ALL.iter().all(|a| a.register_by_name(&r.name).is_none()) {
                let targets = Arch::ALL.map(Arch::name).join(" or ");
                self.errors.push((r.span, format!("'{}' is not a register of {targets}", r.name)));
            }
            return None;
        };
        let Some(register) = arch.register_by_name(&r.name) else {
            let other = Arch::ALL.into_iter().find(|a| *a != arch && a.register_by_name(&r.name).is_some());
            let hint = other.map_or(String::new(), |o| format!(" (it is an {} register)", o.name()));
            self.errors.push((r.span, format!("'{}' is not a register of {}{hint}", r.name, arch.name())));
            return None;
        };
        if let Some(reason) = arch.register_restriction(register, usage) {
            let role = match usage {
                RegisterUse::Param => "pass a parameter",
                RegisterUse::NoClobber => "be in 'noclobber'",
                RegisterUse::Return => "be set by llvm.experimental.retwr",
            };
            self.errors.push((r.span, format!("register '{}' cannot {role}: {reason}", r.name)));
            return None;
        }
        if let Some(ty) = ty {
            if class_of(ty).is_some_and(|c| c != register.class) {
                self.errors.push((
                    r.span,
                    format!(
                        "'{}' is a {} register: it cannot hold a value of type '{ty}'",
                        r.name,
                        class_name(register.class)
                    ),
                ));
                return None;
            }
        }
        Some(register)
    }
}

/// Pushes an error for each register of `list` named before it in the list; `what` says where.
fn no_repeats(list: &[(NamedRegister, &RegisterName)], errors: &mut Vec<(Span, String)>, what: &str) {
    for (i, (register, name)) in list.iter().enumerate() {
        if let Some((_, first)) = list[..i].iter().find(|(r, _)| r == register) {
            let same = if first.name == name.name { String::new() } else { format!(" (as '{}')", first.name) };
            errors.push((name.span, format!("register '{}' is named twice{same} {what}", name.name)));
        }
    }
}

fn walk(m: &Module, f: &Function, arch: Option<Arch>, errors: &mut Vec<(Span, String)>) -> ExplicitFunction {
    let earlier_errors = errors.len();
    let names = Names::of(f);
    let explicit = f.cc == CallConv::Explicit;
    let mut regs = Registers { arch, errors };
    let mut resolved = ExplicitFunction { params: Vec::new(), noclobber: Vec::new(), returns: Vec::new() };
    if explicit {
        if f.ret != Type::Void {
            regs.errors.push((
                f.span,
                format!(
                    "explicitcc function '@{}' must return void (it returns values in registers, through \
                     llvm.experimental.retwr)",
                    f.name
                ),
            ));
        }
        if f.varargs {
            regs.errors.push((f.span, format!("explicitcc function '@{}' cannot be variadic", f.name)));
        }
    }
    let mut params = Vec::new();
    for (i, p) in f.params.iter().enumerate() {
        let param = names.value(m, &Value::Param(i as u32));
        match (&p.abi, explicit) {
            (ParamAbi::Register(r), true) => {
                if class_of(&p.ty).is_none() {
                    regs.errors.push((
                        r.span,
                        format!("parameter {param} has type '{}': only an integer, pointer, float or double fits a register", p.ty),
                    ));
                } else if let Some(register) = regs.resolve(r, Some(&p.ty), RegisterUse::Param) {
                    params.push((register, r));
                }
            }
            (_, true) => regs.errors.push((
                f.span,
                format!(
                    "parameter {param} of explicitcc function '@{}' has no 'hwreg(metadata !N)': every argument \
                     arrives in the register it names",
                    f.name
                ),
            )),
            (ParamAbi::Register(r), false) => regs.errors.push((
                r.span,
                format!("'hwreg' on parameter {param} of '@{}', which is not an explicitcc function", f.name),
            )),
            _ => {}
        }
    }
    for (i, (register, name)) in params.iter().enumerate() {
        if let Some(j) = params[..i].iter().position(|(r, _)| r == register) {
            let first = names.value(m, &Value::Param(j as u32));
            let this = names.value(m, &Value::Param(i as u32));
            regs.errors.push((name.span, format!("register '{}' is named for both {first} and {this}", name.name)));
        }
    }
    resolved.params = params.iter().map(|(r, _)| *r).collect();
    let mut noclobber = Vec::new();
    if let Some(n) = &f.noclobber {
        if !explicit {
            regs.errors.push((n.span, format!("'noclobber' on '@{}', which is not an explicitcc function", f.name)));
        }
        for name in &n.registers {
            if let Some(register) = regs.resolve(name, None, RegisterUse::NoClobber) {
                noclobber.push((register, name));
            }
        }
        no_repeats(&noclobber, regs.errors, "in 'noclobber'");
    }
    resolved.noclobber = noclobber.iter().map(|(r, _)| *r).collect();
    for block in &f.blocks {
        for (k, &id) in block.insts.iter().enumerate() {
            let Some(d) = f.insts.get(id.0 as usize) else { continue };
            let Inst::Call { cc, callee, sig, args, .. } = &d.kind else { continue };
            let target = match callee {
                Value::Func(t) => m.functions.get(t.0 as usize),
                _ => None,
            };
            let retwr = target.is_some_and(|t| t.intrinsic() == Some(Intrinsic::ReturnWithRegisters));
            if retwr {
                let next = block.insts.get(k + 1).and_then(|n| f.insts.get(n.0 as usize));
                let before_ret = matches!(next, Some(InstData { kind: Inst::Ret { val: None }, .. }));
                if !explicit || !before_ret {
                    regs.errors.push((
                        d.span,
                        "llvm.experimental.retwr must come directly before the 'ret void' of an explicitcc function"
                            .to_string(),
                    ));
                }
                let values = call_registers(&mut regs, d, sig, args, RegisterUse::Return, &names, m);
                let list: Vec<_> = values.iter().map(|&(_, r, n)| (r, n)).collect();
                no_repeats(&list, regs.errors, "in llvm.experimental.retwr");
                for &(_, register, name) in &values {
                    if noclobber.iter().any(|(r, _)| *r == register) {
                        regs.errors.push((
                            name.span,
                            format!(
                                "register '{}' is in the function's 'noclobber' list: llvm.experimental.retwr cannot \
                                 set it",
                                name.name
                            ),
                        ));
                    }
                }
                resolved
                    .returns
                    .push(RegisterReturn { call: id, values: values.iter().map(|&(i, r, _)| (i, r)).collect() });
                continue;
            }
            let callee_explicit = target.is_some_and(|t| t.cc == CallConv::Explicit);
            if *cc == CallConv::Explicit {
                if let Some(t) = target.filter(|t| t.cc != CallConv::Explicit) {
                    regs.errors.push((d.span, format!("'call explicitcc' of '@{}', which is not explicitcc", t.name)));
                }
                let values = call_registers(&mut regs, d, sig, args, RegisterUse::Param, &names, m);
                let list: Vec<_> = values.iter().map(|&(_, r, n)| (r, n)).collect();
                no_repeats(&list, regs.errors, "in the call's arguments");
                if let Some(t) = target.filter(|t| t.cc == CallConv::Explicit) {
                    for (i, p) in t.params.iter().enumerate() {
                        if let (ParamAbi::Register(want), ParamAbi::Register(got)) = (&p.abi, sig.param_abi(i)) {
                            if want.name != got.name {
                                regs.errors.push((
                                    got.span,
                                    format!(
                                        "argument {i} is passed in '{}' but '@{}' takes it in '{}'",
                                        got.name, t.name, want.name
                                    ),
                                ));
                            }
                        }
                    }
                }
            } else {
                if let Some(t) = target.filter(|_| callee_explicit) {
                    regs.errors.push((
                        d.span,
                        format!("'@{}' is an explicitcc function: call it with 'call explicitcc'", t.name),
                    ));
                }
                for abi in sig.abi.iter() {
                    if let ParamAbi::Register(r) = abi {
                        regs.errors.push((
                            r.span,
                            "'hwreg' on an argument of a call that is not 'call explicitcc' nor \
                             llvm.experimental.retwr"
                                .to_string(),
                        ));
                    }
                }
            }
        }
    }
    // With every register resolved: the returns must agree, as one signature returns them.
    if explicit && arch.is_some() && regs.errors.len() == earlier_errors {
        returns_agree(f, &resolved.returns, regs.errors);
    }
    resolved
}

/// Every return of an explicitcc function sets the same registers, in the same order, with values
/// of the same machine types (its signature has one list of returns): each `retwr` as the first
/// one, and no `ret void` without one when the others have one.
fn returns_agree(f: &Function, returns: &[RegisterReturn], errors: &mut Vec<(Span, String)>) {
    let machine_type = |ty: &Type| match ty {
        Type::Ptr(_) => Type::Int(64),
        other => other.clone(),
    };
    let typed = |r: &RegisterReturn| -> Vec<(NamedRegister, Type)> {
        let args = match &f.inst(r.call).kind {
            Inst::Call { args, .. } => &args[..],
            _ => &[],
        };
        r.values.iter().filter_map(|&(i, register)| Some((register, machine_type(&args.get(i)?.ty)))).collect()
    };
    let Some(first) = returns.first().map(typed) else { return };
    for r in &returns[1..] {
        if typed(r) != first {
            errors.push((
                f.inst(r.call).span,
                format!(
                    "this llvm.experimental.retwr sets other registers or types than the first one of '@{}': every \
                     return of an explicitcc function sets the same registers, in the same order",
                    f.name
                ),
            ));
        }
    }
    if first.is_empty() {
        return;
    }
    for block in &f.blocks {
        let Some(&last) = block.insts.last() else { continue };
        if !matches!(f.inst(last).kind, Inst::Ret { .. }) {
            continue;
        }
        let before = block.insts.len().checked_sub(2).map(|k| block.insts[k]);
        if !before.is_some_and(|b| returns.iter().any(|r| r.call == b)) {
            errors.push((
                f.inst(last).span,
                format!(
                    "this 'ret void' of '@{}' sets no register, but its other returns do (with \
                     llvm.experimental.retwr): every return of an explicitcc function sets the same registers",
                    f.name
                ),
            ));
        }
    }
}

/// The registers of a `retwr` or `call explicitcc`'s arguments: (argument index, register, name),
/// every argument needing one.
fn call_registers<'d>(
    regs: &mut Registers<'_>,
    d: &'d InstData,
    sig: &'d super::Signature,
    args: &[Operand],
    usage: RegisterUse,
    names: &Names,
    m: &Module,
) -> Vec<(usize, NamedRegister, &'d RegisterName)> {
    let mut values = Vec::new();
    for (i, a) in args.iter().enumerate() {
        let at = d.operand_span(i + 1);
        let ParamAbi::Register(name) = sig.param_abi(i) else {
            let operand = names.value(m, &a.value);
            let of = match usage {
                RegisterUse::Return => "llvm.experimental.retwr",
                _ => "the explicitcc call",
            };
            regs.errors.push((at, format!("argument {i} ({} {operand}) of {of} has no 'hwreg(metadata !N)'", a.ty)));
            continue;
        };
        if class_of(&a.ty).is_none() {
            regs.errors.push((
                at,
                format!("argument {i} has type '{}': only an integer, pointer, float or double fits a register", a.ty),
            ));
        } else if let Some(register) = regs.resolve(name, Some(&a.ty), usage) {
            values.push((i, register, name));
        }
    }
    values
}
