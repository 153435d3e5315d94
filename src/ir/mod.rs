//! The in-memory IR: a strict subset of LLVM IR (LLVM 15+ syntax, opaque `ptr`).
//!
//! Text enters through [`parse`] (lexer + parser with positions), in-memory construction through
//! [`builder`]; both produce a [`Module`] that [`verify()`] checks and that prints back as LLVM text
//! through its `Display` impl. Nothing here knows of Cranelift: `lower` consumes a verified module.
//!
//! Layout: a [`Module`] owns globals and functions; a [`Function`] owns an arena of instructions
//! ([`InstId`]) and a list of blocks ([`BlockId`]) that order them. Operands are [`Value`]s: the result
//! of an instruction, a parameter, a constant, or the address of a global or function.

pub mod builder;
pub mod error;
pub mod lexer;
pub mod parser;
pub mod print;
pub mod verify;

pub use error::{IrError, Span};
pub use parser::{parse, parse_file};
pub use verify::{verify, verify_all};

use std::fmt;

/// A first-class or aggregate type of the subset.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    /// An integer of 1, 8, 16, 32 or 64 bits.
    Int(u8),
    Float,
    Double,
    Ptr,
    /// `[N x T]`: in globals, allocas and GEP source types.
    Array(u64, Box<Type>),
}

impl Type {
    pub const I1: Type = Type::Int(1);
    pub const I8: Type = Type::Int(8);
    pub const I16: Type = Type::Int(16);
    pub const I32: Type = Type::Int(32);
    pub const I64: Type = Type::Int(64);

    pub fn is_int(&self) -> bool {
        matches!(self, Type::Int(_))
    }
    pub fn is_float(&self) -> bool {
        matches!(self, Type::Float | Type::Double)
    }
    /// Integer, float or pointer: what a register holds.
    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Int(_) | Type::Float | Type::Double | Type::Ptr)
    }
    pub fn int_bits(&self) -> Option<u8> {
        match self {
            Type::Int(b) => Some(*b),
            _ => None,
        }
    }
    /// Allocation size in bytes under the x86-64/AArch64 Linux data layouts (i1 takes a byte).
    pub fn alloc_size(&self) -> u64 {
        match self {
            Type::Void => 0,
            Type::Int(1) | Type::Int(8) => 1,
            Type::Int(16) => 2,
            Type::Int(32) | Type::Float => 4,
            Type::Int(_) | Type::Double | Type::Ptr => 8,
            Type::Array(n, elem) => n.saturating_mul(elem.alloc_size()),
        }
    }
    /// ABI alignment in bytes under the same data layouts.
    pub fn align(&self) -> u64 {
        match self {
            Type::Void => 1,
            Type::Array(_, elem) => elem.align(),
            other => other.alloc_size().max(1),
        }
    }
}

/// Index of a global variable in [`Module::globals`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GlobalId(pub u32);
/// Index of a function in [`Module::functions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);
/// Index of a block in [`Function::blocks`]; block 0 is the entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);
/// Index of an instruction in [`Function::insts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstId(pub u32);

/// An operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// The result of an instruction of the same function.
    Inst(InstId),
    /// The n-th parameter of the enclosing function.
    Param(u32),
    Const(Const),
    /// The address of a global variable.
    Global(GlobalId),
    /// The address of a function.
    Func(FuncId),
}

/// A constant operand. Its type is given by the context it appears in, as in LLVM text.
#[derive(Clone, Debug, PartialEq)]
pub enum Const {
    /// An integer, kept sign-extended from its width to 64 bits (`i8 255` is stored as -1).
    Int(i64),
    /// A float or double; floats are stored widened to f64, which is exact.
    Float(f64),
    /// `null` (ptr) or `zeroinitializer`.
    Zero,
    Undef,
    Poison,
    /// `inttoptr (i64 C to ptr)`.
    IntToPtr(i64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Linkage {
    External,
    Internal,
    Private,
}

/// Calling conventions of the subset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CallConv {
    #[default]
    C,
    /// `anyregcc`: patch point arguments and result in registers of the compiler's choosing.
    AnyReg,
}

/// A global variable's initial contents.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    /// A scalar constant of the global's type.
    Scalar(Const),
    /// `[T v, T v, ...]` for an array type; nested arrays nest.
    Array(Vec<Init>),
    /// `c"..."` for an `[N x i8]`.
    Bytes(Vec<u8>),
    /// `zeroinitializer`.
    Zero,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    pub name: String,
    pub ty: Type,
    pub init: Option<Init>,
    /// `constant` rather than `global`.
    pub constant: bool,
    pub linkage: Linkage,
    pub align: Option<u64>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub ty: Type,
    /// The name without `%`, if the text named it.
    pub name: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The label without `%`; unnamed blocks get their number as text.
    pub name: String,
    /// Instructions in order; the last one is the terminator.
    pub insts: Vec<InstId>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct InstData {
    pub kind: Inst,
    /// The result type; `Void` for instructions without a result.
    pub ty: Type,
    /// The result's name without `%`, if any. Numbered values (`%3`) carry their number as text.
    pub name: Option<String>,
    pub span: Span,
    /// Where each operand of [`Inst::operands`] starts in the text, in the same order; empty for IR
    /// built in memory. The verifier points its errors at the offending operand with these.
    pub operand_spans: Vec<Span>,
}

impl InstData {
    /// An instruction without source position, as the builder makes them.
    pub fn new(kind: Inst, ty: Type, name: Option<String>) -> InstData {
        InstData { kind, ty, name, span: Span::default(), operand_spans: Vec::new() }
    }

    /// The position of the `i`-th operand, or of the instruction when unknown.
    pub fn operand_span(&self, i: usize) -> Span {
        self.operand_spans.get(i).copied().unwrap_or(self.span)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub linkage: Linkage,
    pub cc: CallConv,
    pub ret: Type,
    pub params: Vec<Param>,
    pub varargs: bool,
    /// Empty for a declaration.
    pub blocks: Vec<Block>,
    pub insts: Vec<InstData>,
    pub span: Span,
}

impl Function {
    pub fn is_declaration(&self) -> bool {
        self.blocks.is_empty()
    }
    pub fn inst(&self, id: InstId) -> &InstData {
        &self.insts[id.0 as usize]
    }
    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.0 as usize]
    }
    /// Which intrinsic this function is, by name.
    pub fn intrinsic(&self) -> Option<Intrinsic> {
        Intrinsic::from_name(&self.name)
    }
}

/// The intrinsics the subset knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Intrinsic {
    /// `llvm.experimental.stackmap(i64 id, i32 shadow, live...)`
    StackMap,
    /// `llvm.experimental.patchpoint.<ty>(i64 id, i32 bytes, ptr target, i32 nargs, args..., live...)`
    PatchPoint,
}

impl Intrinsic {
    pub fn from_name(name: &str) -> Option<Intrinsic> {
        if name == "llvm.experimental.stackmap" {
            Some(Intrinsic::StackMap)
        } else if let Some(suffix) = name.strip_prefix("llvm.experimental.patchpoint.") {
            matches!(suffix, "void" | "i64" | "i32" | "i16" | "i8" | "i1" | "p0" | "ptr")
                .then_some(Intrinsic::PatchPoint)
        } else {
            None
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    SDiv,
    UDiv,
    SRem,
    URem,
    And,
    Or,
    Xor,
    Shl,
    LShr,
    AShr,
    FAdd,
    FSub,
    FMul,
    FDiv,
    FRem,
}

impl BinOp {
    pub fn is_float(self) -> bool {
        matches!(self, BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FDiv | BinOp::FRem)
    }
    pub fn mnemonic(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "add",
            Sub => "sub",
            Mul => "mul",
            SDiv => "sdiv",
            UDiv => "udiv",
            SRem => "srem",
            URem => "urem",
            And => "and",
            Or => "or",
            Xor => "xor",
            Shl => "shl",
            LShr => "lshr",
            AShr => "ashr",
            FAdd => "fadd",
            FSub => "fsub",
            FMul => "fmul",
            FDiv => "fdiv",
            FRem => "frem",
        }
    }
}

/// `icmp` predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntPred {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

/// `fcmp` predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatPred {
    False,
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    Uno,
    True,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastOp {
    ZExt,
    SExt,
    Trunc,
    SIToFP,
    UIToFP,
    FPToSI,
    FPToUI,
    FPExt,
    FPTrunc,
    BitCast,
    PtrToInt,
    IntToPtr,
}

/// A typed operand, as in `i64 %x`.
#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    pub ty: Type,
    pub value: Value,
}

/// The instructions of the subset. Operand types are explicit where LLVM text writes them; the
/// result type lives in [`InstData::ty`].
#[derive(Clone, Debug, PartialEq)]
pub enum Inst {
    /// Integer or float binary operation; both operands have type `InstData::ty`.
    Binary {
        op: BinOp,
        lhs: Value,
        rhs: Value,
    },
    FNeg {
        val: Value,
    },
    /// Result `i1`; `ty` is the operands' type (integer or ptr).
    ICmp {
        pred: IntPred,
        ty: Type,
        lhs: Value,
        rhs: Value,
    },
    FCmp {
        pred: FloatPred,
        ty: Type,
        lhs: Value,
        rhs: Value,
    },
    Select {
        cond: Value,
        if_true: Value,
        if_false: Value,
    },
    Cast {
        op: CastOp,
        from: Type,
        val: Value,
    },
    /// `alloca T[, i64 N][, align A]`; the result is a ptr.
    Alloca {
        ty: Type,
        count: Option<Operand>,
        align: Option<u64>,
    },
    Load {
        ptr: Value,
        align: Option<u64>,
        volatile: bool,
    },
    Store {
        val: Operand,
        ptr: Value,
        align: Option<u64>,
        volatile: bool,
    },
    /// `getelementptr [inbounds] T, ptr base, idx...`
    Gep {
        inbounds: bool,
        source: Type,
        base: Value,
        indices: Vec<Operand>,
    },
    Phi {
        incoming: Vec<(Value, BlockId)>,
    },
    /// A call; `sig` is the callee's type as written (`ret (params...)`), args are typed.
    Call {
        cc: CallConv,
        callee: Value,
        sig: Signature,
        args: Vec<Operand>,
        tail: TailKind,
    },
    Br {
        dest: BlockId,
    },
    CondBr {
        cond: Value,
        if_true: BlockId,
        if_false: BlockId,
    },
    Switch {
        ty: Type,
        val: Value,
        default: BlockId,
        cases: Vec<(i64, BlockId)>,
    },
    Ret {
        val: Option<Operand>,
    },
    Unreachable,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TailKind {
    #[default]
    None,
    Tail,
    MustTail,
    NoTail,
}

/// A function type: `ret (params[, ...])`.
#[derive(Clone, Debug, PartialEq)]
pub struct Signature {
    pub ret: Type,
    pub params: Vec<Type>,
    pub varargs: bool,
}

impl Inst {
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            Inst::Br { .. } | Inst::CondBr { .. } | Inst::Switch { .. } | Inst::Ret { .. } | Inst::Unreachable
        )
    }

    /// Blocks this terminator may transfer control to.
    pub fn successors(&self) -> Vec<BlockId> {
        match self {
            Inst::Br { dest } => vec![*dest],
            Inst::CondBr { if_true, if_false, .. } => vec![*if_true, *if_false],
            Inst::Switch { default, cases, .. } => {
                let mut v = vec![*default];
                v.extend(cases.iter().map(|c| c.1));
                v
            }
            _ => Vec::new(),
        }
    }

    /// Calls `f` on every value operand, in the order of [`Inst::operands`].
    pub fn for_each_value_mut(&mut self, mut f: impl FnMut(&mut Value)) {
        match self {
            Inst::Binary { lhs, rhs, .. } | Inst::ICmp { lhs, rhs, .. } | Inst::FCmp { lhs, rhs, .. } => {
                f(lhs);
                f(rhs);
            }
            Inst::FNeg { val } | Inst::Cast { val, .. } => f(val),
            Inst::Select { cond, if_true, if_false } => {
                f(cond);
                f(if_true);
                f(if_false);
            }
            Inst::Alloca { count, .. } => count.iter_mut().for_each(|c| f(&mut c.value)),
            Inst::Load { ptr, .. } => f(ptr),
            Inst::Store { val, ptr, .. } => {
                f(&mut val.value);
                f(ptr);
            }
            Inst::Gep { base, indices, .. } => {
                f(base);
                indices.iter_mut().for_each(|i| f(&mut i.value));
            }
            Inst::Phi { incoming } => incoming.iter_mut().for_each(|i| f(&mut i.0)),
            Inst::Call { callee, args, .. } => {
                f(callee);
                args.iter_mut().for_each(|a| f(&mut a.value));
            }
            Inst::CondBr { cond, .. } => f(cond),
            Inst::Switch { val, .. } => f(val),
            Inst::Ret { val } => val.iter_mut().for_each(|v| f(&mut v.value)),
            Inst::Br { .. } | Inst::Unreachable => {}
        }
    }

    /// Calls `f` on every block this instruction names: successors and phi predecessors.
    pub fn for_each_block_mut(&mut self, mut f: impl FnMut(&mut BlockId)) {
        match self {
            Inst::Br { dest } => f(dest),
            Inst::CondBr { if_true, if_false, .. } => {
                f(if_true);
                f(if_false);
            }
            Inst::Switch { default, cases, .. } => {
                f(default);
                cases.iter_mut().for_each(|c| f(&mut c.1));
            }
            Inst::Phi { incoming } => incoming.iter_mut().for_each(|i| f(&mut i.1)),
            _ => {}
        }
    }

    /// Every value operand, in textual order.
    pub fn operands(&self) -> Vec<&Value> {
        match self {
            Inst::Binary { lhs, rhs, .. } | Inst::ICmp { lhs, rhs, .. } | Inst::FCmp { lhs, rhs, .. } => {
                vec![lhs, rhs]
            }
            Inst::FNeg { val } | Inst::Cast { val, .. } => vec![val],
            Inst::Select { cond, if_true, if_false } => vec![cond, if_true, if_false],
            Inst::Alloca { count, .. } => count.iter().map(|c| &c.value).collect(),
            Inst::Load { ptr, .. } => vec![ptr],
            Inst::Store { val, ptr, .. } => vec![&val.value, ptr],
            Inst::Gep { base, indices, .. } => std::iter::once(base).chain(indices.iter().map(|i| &i.value)).collect(),
            Inst::Phi { incoming } => incoming.iter().map(|i| &i.0).collect(),
            Inst::Call { callee, args, .. } => std::iter::once(callee).chain(args.iter().map(|a| &a.value)).collect(),
            Inst::CondBr { cond, .. } => vec![cond],
            Inst::Switch { val, .. } => vec![val],
            Inst::Ret { val } => val.iter().map(|v| &v.value).collect(),
            Inst::Br { .. } | Inst::Unreachable => Vec::new(),
        }
    }
}

/// A whole translation unit.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Module {
    /// The file name used in error messages (`file:line:col`).
    pub file: String,
    pub source_filename: Option<String>,
    pub datalayout: Option<String>,
    pub triple: Option<String>,
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
}

impl Module {
    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.0 as usize]
    }
    pub fn global(&self, id: GlobalId) -> &Global {
        &self.globals[id.0 as usize]
    }
    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        self.functions.iter().position(|f| f.name == name).map(|i| FuncId(i as u32))
    }
    /// Resets every source position to 0:0, so that a parsed module compares equal to the same IR
    /// built in memory or printed and parsed again.
    pub fn clear_spans(&mut self) {
        for g in &mut self.globals {
            g.span = Span::default();
        }
        for f in &mut self.functions {
            f.span = Span::default();
            for b in &mut f.blocks {
                b.span = Span::default();
            }
            for i in &mut f.insts {
                i.span = Span::default();
                i.operand_spans.clear();
            }
        }
    }

    /// Whether any function calls a stack map or patch point intrinsic.
    pub fn has_stack_map_points(&self) -> bool {
        self.functions.iter().any(|f| f.intrinsic().is_some())
    }

    /// An error positioned in this module's file.
    pub fn error(&self, span: Span, message: impl Into<String>) -> IrError {
        IrError::new(&self.file, span, message)
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Void => f.write_str("void"),
            Type::Int(b) => write!(f, "i{b}"),
            Type::Float => f.write_str("float"),
            Type::Double => f.write_str("double"),
            Type::Ptr => f.write_str("ptr"),
            Type::Array(n, t) => write!(f, "[{n} x {t}]"),
        }
    }
}
