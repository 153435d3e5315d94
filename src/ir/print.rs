//! The printer: a [`Module`] as LLVM IR text that llc-19 accepts and that [`parse`](super::parse)
//! reads back to the same module (source positions aside).
//!
//! Given names are printed (quoted when needed, made unique when a built module repeats one);
//! unnamed and numbered values, parameters and blocks are numbered by LLVM's rule. Floating-point
//! constants are printed as LLVM hex (the IEEE double bits) so they round-trip exactly. The same
//! naming ([`Names`]) serves the verifier's messages.

use std::collections::HashSet;
use std::fmt::{self, Write};

use super::{
    BlockId, CallConv, CastOp, Clause, Const, Extension, FloatPred, Function, Init, Inst, InstData, IntPred, Module,
    ParamAbi, Signature, StatepointDirectives, Symbol, TailKind, Type, Value,
};

/// `name` as an LLVM identifier after its sigil: bare when possible, else quoted and escaped.
pub fn quote_name(name: &str) -> String {
    let bare = !name.is_empty()
        && !name.as_bytes()[0].is_ascii_digit()
        && name.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_'));
    if bare {
        name.to_string()
    } else {
        format!("\"{}\"", escape(name.as_bytes()))
    }
}

/// Escapes bytes for an LLVM string: printable ASCII except `"` and `\` as is, the rest `\XX`.
pub fn escape(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\' {
            out.push(b as char);
        } else {
            let _ = write!(out, "\\{b:02X}");
        }
    }
    out
}

fn is_numeric(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())
}

/// The printed names (with `%`) of a function's parameters, blocks and instruction results.
pub struct Names {
    params: Vec<String>,
    blocks: Vec<String>,
    insts: Vec<Option<String>>,
}

impl Names {
    /// Names by LLVM's rule: parameters, then each block followed by its results, in order; given
    /// names are kept (made unique), numbered and unnamed ones take the next number.
    pub fn of(f: &Function) -> Names {
        let mut used = HashSet::new();
        let mut counter = 0u32;
        let mut assign = |name: Option<&str>| -> String {
            match name {
                Some(n) if !n.is_empty() && !is_numeric(n) => {
                    let mut unique = n.to_string();
                    let mut k = 1;
                    while !used.insert(unique.clone()) {
                        unique = format!("{n}.{k}");
                        k += 1;
                    }
                    format!("%{}", quote_name(&unique))
                }
                _ => {
                    counter += 1;
                    format!("%{}", counter - 1)
                }
            }
        };
        let params = f.params.iter().map(|p| assign(p.name.as_deref())).collect();
        let mut blocks = Vec::with_capacity(f.blocks.len());
        let mut insts = vec![None; f.insts.len()];
        for b in &f.blocks {
            blocks.push(assign(Some(&b.name)));
            for &id in &b.insts {
                if let Some(d) = f.insts.get(id.0 as usize) {
                    if d.ty != Type::Void && insts[id.0 as usize].is_none() {
                        insts[id.0 as usize] = Some(assign(d.name.as_deref()));
                    }
                }
            }
        }
        Names { params, blocks, insts }
    }

    /// `%label` of a block.
    pub fn block(&self, b: BlockId) -> String {
        self.blocks.get(b.0 as usize).cloned().unwrap_or_else(|| format!("%<block #{}>", b.0))
    }

    /// A value as an operand is written, without its type.
    pub fn value(&self, m: &Module, v: &Value) -> String {
        match v {
            Value::Inst(id) => match self.insts.get(id.0 as usize) {
                Some(Some(n)) => n.clone(),
                _ => format!("%<instruction #{}>", id.0),
            },
            Value::Param(i) => self.params.get(*i as usize).cloned().unwrap_or_else(|| format!("%<parameter #{i}>")),
            Value::Global(g) => match m.globals.get(g.0 as usize) {
                Some(g) => format!("@{}", quote_name(&g.name)),
                None => format!("@<global #{}>", g.0),
            },
            Value::Func(f) => match m.functions.get(f.0 as usize) {
                Some(f) => format!("@{}", quote_name(&f.name)),
                None => format!("@<function #{}>", f.0),
            },
            Value::Const(c) => const_in(Some(m), c, &Type::I64),
        }
    }
}

/// A constant as written after its type `ty`; addresses name their target only as a number.
pub fn const_text(c: &Const, ty: &Type) -> String {
    const_in(None, c, ty)
}

/// `@name` of an address constant's target, by its number without a module.
fn symbol_text(m: Option<&Module>, s: Symbol) -> String {
    match s {
        Symbol::Global(g) => match m.and_then(|m| m.globals.get(g.0 as usize)) {
            Some(g) => format!("@{}", quote_name(&g.name)),
            None => format!("@<global #{}>", g.0),
        },
        Symbol::Func(f) => match m.and_then(|m| m.functions.get(f.0 as usize)) {
            Some(f) => format!("@{}", quote_name(&f.name)),
            None => format!("@<function #{}>", f.0),
        },
    }
}

/// A constant of type `ty` as written after the type, naming addresses through `m`.
pub fn const_in(m: Option<&Module>, c: &Const, ty: &Type) -> String {
    match c {
        Const::Address(s, 0) if ty.is_int() => format!("ptrtoint (ptr {} to {ty})", symbol_text(m, *s)),
        Const::Address(s, offset) if ty.is_int() => {
            format!("add ({ty} ptrtoint (ptr {} to {ty}), {ty} {offset})", symbol_text(m, *s))
        }
        Const::Relative(r) => {
            let address = |s| format!("i64 ptrtoint (ptr {} to i64)", symbol_text(m, s));
            let mut text = format!("sub ({}, {})", address(r.target), address(r.base));
            if r.offset != 0 {
                text = format!("add (i64 {text}, i64 {})", r.offset);
            }
            if *ty == Type::I64 {
                text
            } else {
                format!("trunc (i64 {text} to {ty})")
            }
        }
        Const::BlockAddress(b) => {
            let label =
                if b.block.bytes().all(|c| c.is_ascii_digit()) { b.block.clone() } else { quote_name(&b.block) };
            format!("blockaddress({}, %{label})", symbol_text(m, Symbol::Func(b.function)))
        }
        Const::LabelDifference(pair) => {
            let label = |b: &crate::ir::BlockAddress| {
                let text = const_in(m, &Const::BlockAddress(Box::new(b.clone())), &Type::PTR);
                format!("i64 ptrtoint (ptr {text} to i64)")
            };
            let text = format!("sub ({}, {})", label(&pair.0), label(&pair.1));
            if *ty == Type::I64 {
                text
            } else {
                format!("trunc (i64 {text} to {ty})")
            }
        }
        Const::Address(s, 0) => symbol_text(m, *s),
        Const::Address(s, offset) => format!("getelementptr (i8, ptr {}, i64 {offset})", symbol_text(m, *s)),
        Const::Aggregate(items) if ty.is_vector() => {
            let lane = ty.lane_type();
            let items: Vec<String> = items.iter().map(|c| format!("{lane} {}", const_in(m, c, lane))).collect();
            format!("<{}>", items.join(", "))
        }
        Const::Aggregate(items) => {
            let (open, close) = match ty {
                Type::Struct(s) if s.packed => ("<{ ", " }>"),
                Type::Struct(_) => ("{ ", " }"),
                _ => ("[", "]"),
            };
            let mut out = String::from(open);
            for (i, item) in items.iter().enumerate() {
                let member = ty.member(i as u64).map_or(Type::Void, |m| m.0.clone());
                if i > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "{member} {}", const_in(m, item, &member));
            }
            if items.is_empty() {
                return format!("{}{}", open.trim_end(), close.trim_start());
            }
            out.push_str(close);
            out
        }
        Const::Int(v) if *ty == Type::I1 => (if *v != 0 { "true" } else { "false" }).to_string(),
        Const::Int(v) => v.to_string(),
        Const::Float(v) if *ty == Type::Half => match super::half::exact_bits(*v) {
            Some(bits) => format!("0xH{bits:04X}"),
            None => format!("0x{:016X}", v.to_bits()),
        },
        Const::WideInt(v) => v.to_string(),
        Const::Float(v) => format!("0x{:016X}", v.to_bits()),
        Const::Zero if *ty == Type::PTR => "null".to_string(),
        Const::Zero => "zeroinitializer".to_string(),
        Const::Undef => "undef".to_string(),
        Const::Poison => "poison".to_string(),
        Const::IntToPtr(v) => format!("inttoptr (i64 {v} to ptr)"),
    }
}

pub(crate) fn cast_mnemonic(op: CastOp) -> &'static str {
    match op {
        CastOp::ZExt => "zext",
        CastOp::SExt => "sext",
        CastOp::Trunc => "trunc",
        CastOp::SIToFP => "sitofp",
        CastOp::UIToFP => "uitofp",
        CastOp::FPToSI => "fptosi",
        CastOp::FPToUI => "fptoui",
        CastOp::FPExt => "fpext",
        CastOp::FPTrunc => "fptrunc",
        CastOp::BitCast => "bitcast",
        CastOp::PtrToInt => "ptrtoint",
        CastOp::AddrSpaceCast => "addrspacecast",
        CastOp::IntToPtr => "inttoptr",
    }
}

fn int_pred(p: IntPred) -> &'static str {
    match p {
        IntPred::Eq => "eq",
        IntPred::Ne => "ne",
        IntPred::Ugt => "ugt",
        IntPred::Uge => "uge",
        IntPred::Ult => "ult",
        IntPred::Ule => "ule",
        IntPred::Sgt => "sgt",
        IntPred::Sge => "sge",
        IntPred::Slt => "slt",
        IntPred::Sle => "sle",
    }
}

fn float_pred(p: FloatPred) -> &'static str {
    match p {
        FloatPred::False => "false",
        FloatPred::Oeq => "oeq",
        FloatPred::Ogt => "ogt",
        FloatPred::Oge => "oge",
        FloatPred::Olt => "olt",
        FloatPred::Ole => "ole",
        FloatPred::One => "one",
        FloatPred::Ord => "ord",
        FloatPred::Ueq => "ueq",
        FloatPred::Ugt => "ugt",
        FloatPred::Uge => "uge",
        FloatPred::Ult => "ult",
        FloatPred::Ule => "ule",
        FloatPred::Une => "une",
        FloatPred::Uno => "uno",
        FloatPred::True => "true",
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (", self.ret)?;
        for (i, p) in self.params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{p}")?;
        }
        if self.varargs {
            f.write_str(if self.params.is_empty() { "..." } else { ", ..." })?;
        }
        f.write_str(")")
    }
}

/// ` signext` / ` zeroext` after a parameter's type.
fn ext_text(ext: Extension) -> String {
    match ext {
        Extension::None => String::new(),
        e => format!(" {}", e.keyword()),
    }
}

/// `signext ` / `zeroext ` before a result type.
fn result_ext_text(ext: Extension) -> String {
    match ext {
        Extension::None => String::new(),
        e => format!("{} ", e.keyword()),
    }
}

/// ` byval(T)` / ` sret(T)` / ` hwreg(metadata !N)` after a parameter's type.
fn abi_text(abi: &ParamAbi, metadata: &MetadataNodes) -> String {
    match abi {
        ParamAbi::Plain => String::new(),
        ParamAbi::ByVal(t) => format!(" byval({t})"),
        ParamAbi::StructRet(t) => format!(" sret({t})"),
        ParamAbi::ElementType(sig) => format!(" elementtype({sig})"),
        ParamAbi::Register(r) => format!(" hwreg(metadata !{})", metadata.number(std::slice::from_ref(&r.name))),
        ParamAbi::Nest => " nest".to_string(),
    }
}

/// The metadata tuples of register names that `hwreg` and `noclobber` refer to, numbered in order
/// of first use and printed after the functions as `!N = !{!"rax", ...}`.
#[derive(Default)]
struct MetadataNodes {
    tuples: Vec<Vec<String>>,
}

impl MetadataNodes {
    fn of(m: &Module) -> MetadataNodes {
        let mut nodes = MetadataNodes::default();
        let mut add = |names: Vec<String>| {
            if !nodes.tuples.contains(&names) {
                nodes.tuples.push(names);
            }
        };
        for f in &m.functions {
            for p in &f.params {
                if let ParamAbi::Register(r) = &p.abi {
                    add(vec![r.name.clone()]);
                }
            }
            if let Some(n) = &f.noclobber {
                add(n.registers.iter().map(|r| r.name.clone()).collect());
            }
            for d in &f.insts {
                if let Inst::Call { sig, .. } = &d.kind {
                    for abi in sig.abi.iter() {
                        if let ParamAbi::Register(r) = abi {
                            add(vec![r.name.clone()]);
                        }
                    }
                }
            }
        }
        nodes
    }

    /// The number of the tuple `names` (every tuple printed was collected by [`MetadataNodes::of`]).
    fn number(&self, names: &[String]) -> usize {
        self.tuples.iter().position(|t| t == names).unwrap_or(self.tuples.len())
    }
}

fn cc(c: CallConv) -> &'static str {
    match c {
        CallConv::C => "",
        CallConv::AnyReg => "anyregcc ",
        CallConv::Fast => "fastcc ",
        CallConv::Cold => "coldcc ",
        CallConv::Tail => "tailcc ",
        CallConv::Explicit => "explicitcc ",
    }
}

fn write_init(out: &mut fmt::Formatter<'_>, m: &Module, init: &Init, ty: &Type) -> fmt::Result {
    match (init, ty) {
        (Init::Zero, _) => out.write_str("zeroinitializer"),
        (Init::Scalar(c), _) => out.write_str(&const_in(Some(m), c, ty)),
        (Init::Bytes(b), _) => write!(out, "c\"{}\"", escape(b)),
        (Init::Array(items), Type::Array(_, elem)) => {
            out.write_str("[")?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.write_str(", ")?;
                }
                write!(out, "{elem} ")?;
                write_init(out, m, item, elem)?;
            }
            out.write_str("]")
        }
        (Init::Struct(items), Type::Struct(s)) => {
            let (open, close) = if s.packed { ("<{", "}>") } else { ("{", "}") };
            if items.is_empty() {
                return write!(out, "{open}{close}");
            }
            out.write_str(open)?;
            for (i, (item, field)) in items.iter().zip(s.field_types()).enumerate() {
                write!(out, "{}{field} ", if i == 0 { " " } else { ", " })?;
                write_init(out, m, item, field)?;
            }
            write!(out, " {close}")
        }
        // A mismatch the verifier reports; print something recognisable rather than fail.
        (Init::Array(_) | Init::Struct(_), _) => out.write_str("zeroinitializer"),
    }
}

struct FunctionPrinter<'m> {
    m: &'m Module,
    f: &'m Function,
    names: Names,
    metadata: &'m MetadataNodes,
}

impl FunctionPrinter<'_> {
    /// A pointer operand with its type: `ptr %p`, `ptr addrspace(1) %q` (a constant is a `ptr`).
    fn pointer(&self, v: &Value) -> String {
        let ty = match v {
            Value::Inst(id) => self.f.insts.get(id.0 as usize).map(|d| d.ty.clone()),
            Value::Param(n) => self.f.params.get(*n as usize).map(|p| p.ty.clone()),
            _ => None,
        }
        .filter(Type::is_ptr)
        .unwrap_or(Type::PTR);
        format!("{ty} {}", self.value(v, &ty))
    }

    fn value(&self, v: &Value, ty: &Type) -> String {
        match v {
            Value::Const(c) => const_in(Some(self.m), c, ty),
            _ => self.names.value(self.m, v),
        }
    }

    fn inst(&self, out: &mut fmt::Formatter<'_>, d: &InstData) -> fmt::Result {
        let ty = &d.ty;
        match &d.kind {
            Inst::Binary { op, lhs, rhs } => {
                write!(out, "{} {ty} {}, {}", op.mnemonic(), self.value(lhs, ty), self.value(rhs, ty))
            }
            Inst::FNeg { val } => write!(out, "fneg {ty} {}", self.value(val, ty)),
            Inst::ICmp { pred, ty, lhs, rhs } => {
                write!(out, "icmp {} {ty} {}, {}", int_pred(*pred), self.value(lhs, ty), self.value(rhs, ty))
            }
            Inst::FCmp { pred, ty, lhs, rhs } => {
                write!(out, "fcmp {} {ty} {}, {}", float_pred(*pred), self.value(lhs, ty), self.value(rhs, ty))
            }
            Inst::Select { lanewise, cond, if_true, if_false } => {
                let cty = if *lanewise { ty.with_lanes_of(Type::I1) } else { Type::I1 };
                write!(
                    out,
                    "select {cty} {}, {ty} {}, {ty} {}",
                    self.value(cond, &cty),
                    self.value(if_true, ty),
                    self.value(if_false, ty)
                )
            }
            Inst::Cast { op, from, val } => {
                write!(out, "{} {from} {} to {ty}", cast_mnemonic(*op), self.value(val, from))
            }
            Inst::Alloca { ty: t, count, align } => {
                write!(out, "alloca {t}")?;
                if let Some(c) = count {
                    write!(out, ", {} {}", c.ty, self.value(&c.value, &c.ty))?;
                }
                if let Some(a) = align {
                    write!(out, ", align {a}")?;
                }
                Ok(())
            }
            Inst::Load { ptr, align, volatile, atomic } => {
                let a = if atomic.is_some() { "atomic " } else { "" };
                let v = if *volatile { "volatile " } else { "" };
                write!(out, "load {a}{v}{ty}, {}", self.pointer(ptr))?;
                if let Some(o) = atomic {
                    write!(out, " {}", o.keyword())?;
                }
                if let Some(a) = align {
                    write!(out, ", align {a}")?;
                }
                Ok(())
            }
            Inst::Store { val, ptr, align, volatile, atomic } => {
                let a = if atomic.is_some() { "atomic " } else { "" };
                let v = if *volatile { "volatile " } else { "" };
                write!(out, "store {a}{v}{} {}, {}", val.ty, self.value(&val.value, &val.ty), self.pointer(ptr))?;
                if let Some(o) = atomic {
                    write!(out, " {}", o.keyword())?;
                }
                if let Some(a) = align {
                    write!(out, ", align {a}")?;
                }
                Ok(())
            }
            Inst::AtomicRmw { op, ptr, val, ordering } => write!(
                out,
                "atomicrmw {} {}, {} {} {}",
                op.keyword(),
                self.pointer(ptr),
                val.ty,
                self.value(&val.value, &val.ty),
                ordering.keyword()
            ),
            Inst::Fence { ordering } => write!(out, "fence {}", ordering.keyword()),
            Inst::ClobberAsm { clobbers, nops, output, inputs } => {
                let outputs = output.iter().map(|o| format!("={{{}}}", o.name));
                let ins = inputs.iter().map(|i| format!("{{{}}}", i.0.name));
                let clobbered = clobbers.iter().map(|c| format!("~{{{}}}", c.name));
                let names: Vec<String> = outputs.chain(ins).chain(clobbered).collect();
                let args: Vec<String> =
                    inputs.iter().map(|i| format!("{} {}", i.1.ty, self.value(&i.1.value, &i.1.ty))).collect();
                let template = vec!["nop"; *nops as usize].join("\\0A");
                write!(out, "call {ty} asm sideeffect \"{template}\", \"{}\"({})", names.join(","), args.join(", "))
            }
            Inst::CmpXchg { ptr, cmp, new, success, failure } => write!(
                out,
                "cmpxchg {}, {} {}, {} {} {} {}",
                self.pointer(ptr),
                cmp.ty,
                self.value(&cmp.value, &cmp.ty),
                cmp.ty,
                self.value(new, &cmp.ty),
                success.keyword(),
                failure.keyword()
            ),
            Inst::Freeze { val } => write!(out, "freeze {ty} {}", self.value(val, ty)),
            Inst::Gep { inbounds, source, base, indices, vector_base } => {
                let ib = if *inbounds { "inbounds " } else { "" };
                let base_ty = if *vector_base { ty } else { ty.lane_type() };
                write!(out, "getelementptr {ib}{source}, {base_ty} {}", self.value(base, base_ty))?;
                for i in indices {
                    write!(out, ", {} {}", i.ty, self.value(&i.value, &i.ty))?;
                }
                Ok(())
            }
            Inst::ExtractElement { vec, index } => write!(
                out,
                "extractelement {} {}, {} {}",
                vec.ty,
                self.value(&vec.value, &vec.ty),
                index.ty,
                self.value(&index.value, &index.ty)
            ),
            Inst::InsertElement { vec, val, index } => write!(
                out,
                "insertelement {ty} {}, {} {}, {} {}",
                self.value(vec, ty),
                ty.lane_type(),
                self.value(val, ty.lane_type()),
                index.ty,
                self.value(&index.value, &index.ty)
            ),
            Inst::ShuffleVector { a, b, mask } => {
                write!(
                    out,
                    "shufflevector {} {}, {} {}, ",
                    a.ty,
                    self.value(&a.value, &a.ty),
                    a.ty,
                    self.value(b, &a.ty)
                )?;
                write!(out, "<{} x i32> <", mask.len())?;
                for (i, lane) in mask.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    match lane {
                        Some(l) => write!(out, "{sep}i32 {l}")?,
                        None => write!(out, "{sep}i32 poison")?,
                    }
                }
                out.write_str(">")
            }
            Inst::ExtractValue { agg, indices } => {
                write!(out, "extractvalue {} {}", agg.ty, self.value(&agg.value, &agg.ty))?;
                indices.iter().try_for_each(|i| write!(out, ", {i}"))
            }
            Inst::InsertValue { agg, val, indices } => {
                write!(
                    out,
                    "insertvalue {ty} {}, {} {}",
                    self.value(agg, ty),
                    val.ty,
                    self.value(&val.value, &val.ty)
                )?;
                indices.iter().try_for_each(|i| write!(out, ", {i}"))
            }
            Inst::Phi { incoming } => {
                write!(out, "phi {ty} ")?;
                for (i, (v, b)) in incoming.iter().enumerate() {
                    if i > 0 {
                        out.write_str(", ")?;
                    }
                    write!(out, "[ {}, {} ]", self.value(v, ty), self.names.block(*b))?;
                }
                Ok(())
            }
            Inst::Call { cc: c, callee, sig, args, tail, bundles, directives, invoke } => {
                let t = match tail {
                    TailKind::None => "",
                    TailKind::Tail => "tail ",
                    TailKind::MustTail => "musttail ",
                    TailKind::NoTail => "notail ",
                };
                // The function type may be left out when the arguments spell it, as LLVM prints.
                let implied = !sig.varargs && sig.params.iter().eq(args.iter().map(|a| &a.ty));
                let ret_ext = result_ext_text(sig.ext.ret);
                let call = if invoke.is_some() { "invoke" } else { "call" };
                if implied {
                    write!(out, "{t}{call} {}{ret_ext}{} {}(", cc(*c), sig.ret, self.value(callee, &Type::PTR))?;
                } else {
                    write!(out, "{t}{call} {}{ret_ext}{sig} {}(", cc(*c), self.value(callee, &Type::PTR))?;
                }
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.write_str(", ")?;
                    }
                    write!(
                        out,
                        "{}{}{} {}",
                        a.ty,
                        ext_text(sig.param_ext(i)),
                        abi_text(sig.param_abi(i), self.metadata),
                        self.value(&a.value, &a.ty)
                    )?;
                }
                out.write_str(")")?;
                if let Some(d) = directives {
                    if let Some(id) = d.id {
                        write!(out, " \"{}\"=\"{id}\"", StatepointDirectives::ID)?;
                    }
                    if let Some(bytes) = d.patch_bytes {
                        write!(out, " \"{}\"=\"{bytes}\"", StatepointDirectives::PATCH_BYTES)?;
                    }
                }
                if !bundles.is_empty() {
                    out.write_str(" [ ")?;
                    for (i, b) in bundles.iter().enumerate() {
                        write!(out, "{}\"{}\"(", if i > 0 { ", " } else { "" }, b.tag.name())?;
                        for (j, o) in b.operands.iter().enumerate() {
                            write!(out, "{}{} {}", if j > 0 { ", " } else { "" }, o.ty, self.value(&o.value, &o.ty))?;
                        }
                        out.write_str(")")?;
                    }
                    out.write_str(" ]")?;
                }
                if let Some(d) = invoke {
                    let (normal, unwind) = (self.names.block(d.normal), self.names.block(d.unwind));
                    write!(out, "\n          to label {normal} unwind label {unwind}")?;
                }
                Ok(())
            }
            Inst::LandingPad { cleanup, clauses } => {
                write!(out, "landingpad {ty}")?;
                if *cleanup {
                    out.write_str("\n          cleanup")?;
                }
                for c in clauses {
                    let word = match c {
                        Clause::Catch(_) => "catch",
                        Clause::Filter(_) => "filter",
                    };
                    let o = c.operand();
                    write!(out, "\n          {word} {} {}", o.ty, self.value(&o.value, &o.ty))?;
                }
                Ok(())
            }
            Inst::Resume { val } => write!(out, "resume {} {}", val.ty, self.value(&val.value, &val.ty)),
            Inst::Br { dest } => write!(out, "br label {}", self.names.block(*dest)),
            Inst::CondBr { cond, if_true, if_false } => write!(
                out,
                "br i1 {}, label {}, label {}",
                self.value(cond, &Type::I1),
                self.names.block(*if_true),
                self.names.block(*if_false)
            ),
            Inst::Switch { ty, val, default, cases } => {
                write!(out, "switch {ty} {}, label {} [", self.value(val, ty), self.names.block(*default))?;
                for (v, b) in cases {
                    write!(out, "\n    {ty} {}, label {}", const_text(&Const::Int(*v), ty), self.names.block(*b))?;
                }
                out.write_str("\n  ]")
            }
            Inst::IndirectBr { addr, dests } => {
                let dests: Vec<String> = dests.iter().map(|b| format!("label {}", self.names.block(*b))).collect();
                write!(out, "indirectbr ptr {}, [{}]", self.value(addr, &Type::PTR), dests.join(", "))
            }
            Inst::Ret { val: None } => out.write_str("ret void"),
            Inst::Ret { val: Some(v) } => write!(out, "ret {} {}", v.ty, self.value(&v.value, &v.ty)),
            Inst::Unreachable => out.write_str("unreachable"),
        }
    }

    fn function(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let f = self.f;
        let keyword = if f.is_declaration() { "declare" } else { "define" };
        let ret_ext = result_ext_text(f.ret_ext);
        write!(out, "{keyword} {}{}{ret_ext}{} @{}(", f.linkage.keyword(), cc(f.cc), f.ret, quote_name(&f.name))?;
        for (i, p) in f.params.iter().enumerate() {
            if i > 0 {
                out.write_str(", ")?;
            }
            write!(out, "{}{}{}", p.ty, ext_text(p.ext), abi_text(&p.abi, self.metadata))?;
            if !f.is_declaration() {
                write!(out, " {}", self.names.params[i])?;
            } else if let Some(n) = &p.name {
                write!(out, " %{}", quote_name(n))?;
            }
        }
        if f.varargs {
            out.write_str(if f.params.is_empty() { "..." } else { ", ..." })?;
        }
        out.write_str(")")?;
        if let Some(value) = f.frame_pointer.attribute_value() {
            write!(out, " \"frame-pointer\"=\"{value}\"")?;
        }
        if let Some(s) = &f.placement.section {
            write!(out, " section \"{}\"", escape(s.as_bytes()))?;
        }
        if let Some(c) = &f.placement.comdat {
            write!(out, " comdat(${})", quote_name(c))?;
        }
        if let Some(a) = f.placement.align {
            write!(out, " align {a}")?;
        }
        if let Some(gc) = &f.gc {
            write!(out, " gc \"{}\"", escape(gc.as_bytes()))?;
        }
        if let Some(p) = &f.personality {
            write!(out, " personality ptr @{}", quote_name(&p.name))?;
        }
        if let Some(n) = &f.noclobber {
            let names: Vec<String> = n.registers.iter().map(|r| r.name.clone()).collect();
            write!(out, " noclobber(metadata !{})", self.metadata.number(&names))?;
        }
        if f.is_declaration() {
            return out.write_str("\n");
        }
        out.write_str(" {\n")?;
        for (bi, b) in f.blocks.iter().enumerate() {
            if bi > 0 {
                out.write_str("\n")?;
            }
            writeln!(out, "{}:", &self.names.blocks[bi][1..])?;
            for &id in &b.insts {
                let Some(d) = f.insts.get(id.0 as usize) else { continue };
                out.write_str("  ")?;
                if let Some(Some(n)) = self.names.insts.get(id.0 as usize) {
                    if d.ty != Type::Void {
                        write!(out, "{n} = ")?;
                    }
                }
                self.inst(out, d)?;
                out.write_str("\n")?;
            }
        }
        out.write_str("}\n")
    }
}

impl fmt::Display for Module {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = &self.source_filename {
            writeln!(out, "source_filename = \"{}\"", escape(s.as_bytes()))?;
        }
        if let Some(s) = &self.datalayout {
            writeln!(out, "target datalayout = \"{}\"", escape(s.as_bytes()))?;
        }
        if let Some(s) = &self.triple {
            writeln!(out, "target triple = \"{}\"", escape(s.as_bytes()))?;
        }
        if !self.comdats.is_empty() {
            out.write_str("\n")?;
        }
        for c in &self.comdats {
            writeln!(out, "${} = comdat {}", quote_name(&c.name), c.kind)?;
        }
        if !self.types.is_empty() {
            out.write_str("\n")?;
        }
        for t in &self.types {
            write!(out, "{t} = type ")?;
            t.fmt_body(out)?;
            out.write_str("\n")?;
        }
        if !self.globals.is_empty() {
            out.write_str("\n")?;
        }
        for g in &self.globals {
            let kind = match (g.placement.thread_local, g.constant) {
                (true, true) => "thread_local constant",
                (true, false) => "thread_local global",
                (false, true) => "constant",
                (false, false) => "global",
            };
            match &g.init {
                None => {
                    let linkage = if g.linkage == crate::ir::Linkage::ExternWeak { "extern_weak" } else { "external" };
                    write!(out, "@{} = {linkage} {kind} {}", quote_name(&g.name), g.ty)?
                }
                Some(init) => {
                    write!(out, "@{} = {}{kind} {} ", quote_name(&g.name), g.linkage.keyword(), g.ty)?;
                    write_init(out, self, init, &g.ty)?;
                }
            }
            if let Some(s) = &g.placement.section {
                write!(out, ", section \"{}\"", escape(s.as_bytes()))?;
            }
            if let Some(c) = &g.placement.comdat {
                write!(out, ", comdat(${})", quote_name(c))?;
            }
            if let Some(a) = g.align {
                write!(out, ", align {a}")?;
            }
            out.write_str("\n")?;
        }
        let metadata = MetadataNodes::of(self);
        for f in &self.functions {
            out.write_str("\n")?;
            FunctionPrinter { m: self, f, names: Names::of(f), metadata: &metadata }.function(out)?;
        }
        if !metadata.tuples.is_empty() {
            out.write_str("\n")?;
        }
        for (i, names) in metadata.tuples.iter().enumerate() {
            let strings: Vec<String> = names.iter().map(|n| format!("!\"{}\"", escape(n.as_bytes()))).collect();
            writeln!(out, "!{i} = !{{{}}}", strings.join(", "))?;
        }
        Ok(())
    }
}
