//! The module-level names a lowered function refers to: functions, globals, the libm routines
//! Cranelift has no instruction for, and the dynamic-alloca helpers ([`super::dynamic_stack`]).

use cranelift_codegen::ir::types::{self, Type as ClifType};
use cranelift_codegen::ir::{AbiParam, ArgumentPurpose, Signature};
use cranelift_codegen::isa::TargetIsa;
use cranelift_module::{DataId, FuncId, Linkage, Module};

use super::{clif_type, dynamic_stack};
use crate::ir::{self, Inst, IrError};

/// Declared symbols of one output (an object or a JIT module), shared read-only by the lowering of
/// every function.
pub struct Symbols {
    functions: Vec<Option<FuncId>>,
    globals: Vec<DataId>,
    /// `fmod`, imported when some function uses `frem` on doubles.
    pub fmod: Option<FuncId>,
    /// `fmodf`, imported when some function uses `frem` on floats.
    pub fmodf: Option<FuncId>,
    /// The per-thread arena's helpers, when some function needs dynamic allocas.
    pub dynamic_stack: Option<dynamic_stack::Helpers>,
    /// Whether functions, and data defined in the module, may be reached with short PC-relative
    /// references (objects: the linker resolves them or adds PLT entries; not the JIT). Also what
    /// tells an object (which keeps the arena state in TLS) from the JIT (which asks Rust for it).
    pub colocated: bool,
}

impl Symbols {
    /// The symbol of an IR function; `None` for intrinsics, which are never called.
    pub fn function(&self, id: ir::FuncId) -> Option<FuncId> {
        self.functions[id.0 as usize]
    }
    /// The data object declared for an IR global.
    pub fn global(&self, id: ir::GlobalId) -> DataId {
        self.globals[id.0 as usize]
    }

    /// Declares every function and global of `module` in `out`, and what the lowering will need;
    /// [`Symbols::define_helpers`] then defines the helpers.
    pub fn declare(module: &ir::Module, out: &mut dyn Module, colocated: bool) -> Result<Symbols, IrError> {
        let mut functions = Vec::with_capacity(module.functions.len());
        for f in &module.functions {
            if f.intrinsic().is_some() {
                functions.push(None);
                continue;
            }
            let linkage = match (f.is_declaration(), f.linkage) {
                (true, _) => Linkage::Import,
                (false, ir::Linkage::External) => Linkage::Export,
                (false, _) => Linkage::Local,
            };
            let sig = signature(out.isa(), &f.ret, f.params.iter().map(|p| (&p.ty, &p.abi)));
            let id = out
                .declare_function(&f.name, linkage, &sig)
                .map_err(|e| module.error(f.span, format!("cannot declare function '@{}': {e}", f.name)))?;
            functions.push(Some(id));
        }
        let mut globals = Vec::with_capacity(module.globals.len());
        for g in &module.globals {
            let linkage = match (g.init.is_none(), g.linkage) {
                (true, _) => Linkage::Import,
                (false, ir::Linkage::External) => Linkage::Export,
                (false, _) => Linkage::Local,
            };
            let id = out
                .declare_data(&g.name, linkage, !g.constant, false)
                .map_err(|e| module.error(g.span, format!("cannot declare global '@{}': {e}", g.name)))?;
            globals.push(id);
        }

        let uses = |pred: &dyn Fn(&ir::Function, &ir::InstData) -> bool| {
            module.functions.iter().any(|f| f.insts.iter().any(|i| pred(f, i)))
        };
        let frem = |ty: ir::Type| {
            move |_: &ir::Function, i: &ir::InstData| {
                matches!(i.kind, Inst::Binary { op: ir::BinOp::FRem, .. }) && i.ty == ty
            }
        };
        let mut import = |name: &str, ty: ir::Type| -> Result<FuncId, IrError> {
            let sig = signature(out.isa(), &ty, [(&ty, &ir::ParamAbi::Plain), (&ty, &ir::ParamAbi::Plain)]);
            out.declare_function(name, Linkage::Import, &sig)
                .map_err(|e| module.error(ir::Span::default(), format!("cannot import '{name}': {e}")))
        };
        let fmod = if uses(&frem(ir::Type::Double)) { Some(import("fmod", ir::Type::Double)?) } else { None };
        let fmodf = if uses(&frem(ir::Type::Float)) { Some(import("fmodf", ir::Type::Float)?) } else { None };

        let dynamic_stack = if module.functions.iter().any(needs_dynamic_stack) {
            Some(dynamic_stack::declare(module, out, colocated)?)
        } else {
            None
        };
        Ok(Symbols { functions, globals, fmod, fmodf, dynamic_stack, colocated })
    }
}

impl Symbols {
    /// Defines the dynamic-alloca helpers in `out`, if the module needs them.
    pub fn define_helpers(&self, out: &mut dyn Module) -> Result<(), crate::compile::EmitError> {
        match &self.dynamic_stack {
            Some(helpers) => dynamic_stack::define(helpers, out, self.colocated),
            None => Ok(()),
        }
    }
}

/// A Cranelift signature in the target's C calling convention. An aggregate parameter or result
/// is passed as its scalars, one after the other, which is how LLVM lowers the aggregates front ends
/// write (clang's `[2 x i64]`, `{ double, double }`, `{ i64, i32 }`); `byval` is Cranelift's struct
/// argument on x86-64 (AArch64 callers check it away first), `sret` its struct return pointer.
pub fn signature<'t>(
    isa: &dyn TargetIsa,
    ret: &ir::Type,
    params: impl IntoIterator<Item = (&'t ir::Type, &'t ir::ParamAbi)>,
) -> Signature {
    plan(isa, ret, params).0
}

/// [`signature`], and per IR parameter the types of the unused arguments placed before it.
///
/// AArch64 passes an aggregate in registers only if all its scalars fit in the ones left, else
/// wholly on the stack, and no later argument of that class takes a register either (AAPCS64
/// C.12/C.14, as LLVM implements it); Cranelift assigns each scalar on its own, so unused arguments
/// take up the registers that are left.
pub fn plan<'t>(
    isa: &dyn TargetIsa,
    ret: &ir::Type,
    params: impl IntoIterator<Item = (&'t ir::Type, &'t ir::ParamAbi)>,
) -> (Signature, Vec<Vec<ClifType>>) {
    const AARCH64_ARGUMENT_REGISTERS: usize = 8;
    let mut sig = Signature::new(isa.default_call_conv());
    let x86 = isa.triple().architecture == target_lexicon::Architecture::X86_64;
    let (mut ints, mut floats) = (0usize, 0usize);
    let mut padding = Vec::new();
    for (ty, abi) in params {
        let mut pad = Vec::new();
        match abi {
            ir::ParamAbi::ByVal(t) if x86 => {
                // Cranelift copies whole eightbytes, as the psABI lays byval copies out.
                let size = t.alloc_size().next_multiple_of(8).min(u32::MAX as u64) as u32;
                sig.params.push(AbiParam::special(types::I64, ArgumentPurpose::StructArgument(size)));
            }
            ir::ParamAbi::StructRet(_) => sig.params.push(AbiParam::special(types::I64, ArgumentPurpose::StructReturn)),
            _ => {
                let mut scalars = Vec::new();
                push_scalars(ty, &mut scalars);
                let float = scalars.iter().filter(|p| p.value_type.is_float()).count();
                let int = scalars.len() - float;
                if !x86 && ty.is_aggregate() {
                    for (used, needed, filler) in [(&mut ints, int, types::I64), (&mut floats, float, types::F64)] {
                        if needed > 0
                            && *used < AARCH64_ARGUMENT_REGISTERS
                            && *used + needed > AARCH64_ARGUMENT_REGISTERS
                        {
                            pad.extend(std::iter::repeat_n(filler, AARCH64_ARGUMENT_REGISTERS - *used));
                            *used = AARCH64_ARGUMENT_REGISTERS;
                        }
                    }
                }
                sig.params.extend(pad.iter().map(|&t| AbiParam::new(t)));
                sig.params.extend(scalars);
                ints += int;
                floats += float;
            }
        }
        padding.push(pad);
    }
    push_scalars(ret, &mut sig.returns);
    (sig, padding)
}

/// Why a result of type `ty` cannot be returned in registers on this target, if it cannot: LLVM
/// would return it through a hidden pointer, which Cranelift does not do for us.
pub fn result_unsupported(isa: &dyn TargetIsa, ty: &ir::Type) -> Option<String> {
    let mut scalars = Vec::new();
    push_scalars(ty, &mut scalars);
    let float = scalars.iter().filter(|p| p.value_type.is_float()).count();
    let int = scalars.len() - float;
    let (limit, target) = match isa.triple().architecture {
        target_lexicon::Architecture::X86_64 => (2, "x86-64"),
        _ => (8, "AArch64"),
    };
    (int > limit || float > limit).then(|| {
        format!(
            "unsupported result of type '{ty}': {int} integer and {float} floating-point scalars, but {target} \
             returns at most {limit} of each in registers (return it through an 'sret' pointer)"
        )
    })
}

/// One ABI parameter per scalar of `ty` (none for `void`).
fn push_scalars(ty: &ir::Type, out: &mut Vec<AbiParam>) {
    if ty.is_aggregate() {
        ty.for_each_leaf(0, &mut |_, t| out.push(AbiParam::new(clif_type(t))));
    } else if *ty != ir::Type::Void {
        out.push(AbiParam::new(clif_type(ty)));
    }
}

/// Whether a function has an `alloca` that cannot live in its frame: a non-constant count, or an
/// alloca outside the entry block (which LLVM allocates anew each time it runs).
pub fn needs_dynamic_stack(f: &ir::Function) -> bool {
    f.blocks.iter().enumerate().any(|(b, block)| {
        block.insts.iter().any(|&i| match &f.inst(i).kind {
            Inst::Alloca { count, .. } => {
                b != 0 || count.as_ref().is_some_and(|c| !matches!(c.value, ir::Value::Const(ir::Const::Int(_))))
            }
            _ => false,
        })
    })
}
