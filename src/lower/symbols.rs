//! The module-level names a lowered function refers to: functions, globals, the libm routines
//! Cranelift has no instruction for, and the dynamic-alloca helpers ([`super::dynamic_stack`]).

use cranelift_codegen::binemit::Reloc;
use cranelift_codegen::ir::types::{self, Type as ClifType};
use cranelift_codegen::ir::{AbiParam, ArgumentPurpose, Signature};
use cranelift_codegen::isa::CallConv;
use cranelift_module::{DataDescription, DataId, FuncId, Linkage, Module, ModuleError, ModuleReloc, ModuleRelocTarget};

use super::dynamic_stack;
use crate::arch::Arch;
use crate::ir::{self, Inst, IrError};
use crate::target::Target;

/// Why a helper the lowering generates (the dynamic-alloca arena's, a variadic thunk) could not be
/// defined in the output; `emit` reports it as any other definition that failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot define '{name}': {source}")]
pub struct HelperError {
    /// The helper's symbol.
    pub name: String,
    /// cranelift-module's reason.
    pub source: Box<ModuleError>,
}

/// Declared symbols of one output (an object or a JIT module), shared read-only by the lowering of
/// every function.
pub struct Symbols {
    functions: Vec<Option<FuncId>>,
    globals: Vec<DataId>,
    /// `fmod`, imported when some function uses `frem` on doubles.
    pub fmod: Option<FuncId>,
    /// `fmodf`, imported when some function uses `frem` on floats.
    pub fmodf: Option<FuncId>,
    /// The C library's and runtime's routines for intrinsics such as `llvm.sin.f64`
    /// ([`ir::Intrinsic::library_routine`]), each imported when the module declares its intrinsic.
    math: Vec<(&'static str, FuncId)>,
    /// `_Unwind_Resume(ptr)`, imported when some function has a `resume`.
    pub unwind_resume: Option<FuncId>,
    /// The JIT's thread-local globals, when the module has some.
    pub emulated_tls: Option<EmulatedTls>,
    /// The conversions to and from `half` that the target makes library calls, when some function
    /// computes with `half` ([`Arch::converts_half_by_libcall`]).
    pub half_libcalls: Option<HalfLibcalls>,
    /// The C runtime's `i128` division routines ([`I128_DIVISION`]), each imported when some
    /// function uses its operation.
    i128_division: [Option<FuncId>; 4],
    /// The per-thread arena's helpers, when some function needs dynamic allocas.
    pub dynamic_stack: Option<dynamic_stack::Helpers>,
    /// For each function, whether it uses the dynamic stack ([`uses_dynamic_stack`]).
    dynamic_stack_functions: Vec<bool>,
    /// For each declared variadic function, the thunk that its calls with floating-point arguments
    /// go through where the target needs one (`Arch::variadic_thunk`).
    variadic_thunks: Vec<Option<FuncId>>,
    /// The output's architecture.
    arch: Arch,
    /// Functions in a section of their own (`section` or `comdat`, objects only), which the object
    /// emitter places itself: cranelift-object puts all code in `.text`.
    placed: Vec<bool>,
    /// Zero-initialised globals in a NOBITS section of their own ([`zero_section`], objects only), which
    /// the object emitter places itself: cranelift-object gives a custom section file bytes.
    placed_globals: Vec<bool>,
    /// Whether functions, and data defined in the module, may be reached with short PC-relative
    /// references (objects: the linker resolves them or adds PLT entries; not the JIT). Also what
    /// tells an object (which keeps the arena state in TLS) from the JIT (which asks Rust for it).
    pub colocated: bool,
    /// The blocks whose address the module takes ([`ir::Module::block_addresses`]).
    pub block_addresses: Vec<(ir::FuncId, ir::BlockId)>,
}

/// Thread-local globals in the JIT, which has no TLS segment: LLVM's emulated TLS
/// (`-femulated-tls`) as libgcc implements it. A global's initial value stays an ordinary global,
/// the template; a control block `__emutls_v.NAME` (size, alignment, the index libgcc assigns, the
/// template) names it to `__emutls_get_address`, which returns the calling thread's copy, made
/// from the template at the thread's first access and freed when the thread exits.
pub struct EmulatedTls {
    /// `void *__emutls_get_address(struct __emutls_object *)`.
    pub get_address: FuncId,
    /// Each thread-local global's control block, by global.
    controls: Vec<Option<EmulatedControl>>,
}

#[derive(Clone, Copy)]
struct EmulatedControl {
    id: DataId,
    size: u64,
    align: u64,
    template: DataId,
}

impl EmulatedTls {
    /// The signature of `__emutls_get_address`: a pointer from a pointer.
    pub fn get_address_signature(call_conv: CallConv) -> Signature {
        let mut sig = Signature::new(call_conv);
        sig.params.push(AbiParam::new(types::I64));
        sig.returns.push(AbiParam::new(types::I64));
        sig
    }

    /// The control block of thread-local global `g`.
    pub fn control(&self, g: ir::GlobalId) -> Option<DataId> {
        self.controls.get(g.0 as usize).copied().flatten().map(|c| c.id)
    }

    /// Defines the control blocks: libgcc's `struct __emutls_object { size, align, loc, templ }`.
    fn define(&self, out: &mut dyn Module) -> Result<(), HelperError> {
        for control in self.controls.iter().flatten() {
            let mut data = DataDescription::new();
            let words = [control.size, control.align, 0, 0];
            data.define(words.iter().flat_map(|w| w.to_ne_bytes()).collect());
            let template = out.declare_data_in_data(control.template, &mut data);
            data.write_data_addr(24, template, 0);
            out.define_data(control.id, &data).map_err(|source| HelperError {
                name: format!("emulated TLS control block {}", control.id.as_u32()),
                source: Box::new(source),
            })?;
        }
        Ok(())
    }
}

/// The libgcc/compiler-rt conversions llc-19 calls for `half` on a target without instructions
/// for them (x86-64 without F16C).
#[derive(Clone, Copy, Debug)]
pub struct HalfLibcalls {
    /// `float __extendhfsf2(half)`.
    pub extend_to_float: FuncId,
    /// `half __truncsfhf2(float)`.
    pub trunc_float: FuncId,
    /// `half __truncdfhf2(double)`.
    pub trunc_double: FuncId,
}

/// The routines of compiler-rt and libgcc that llc-19 calls for `i128` division on x86-64 and
/// AArch64 alike (`__divti3(a, b)` returns `a / b`), which the C runtime every program links has.
pub const I128_DIVISION: [(ir::BinOp, &str); 4] = [
    (ir::BinOp::SDiv, "__divti3"),
    (ir::BinOp::UDiv, "__udivti3"),
    (ir::BinOp::SRem, "__modti3"),
    (ir::BinOp::URem, "__umodti3"),
];

/// The library routines a module's instructions call, found in one pass over all of them (a
/// module of thousands of functions pays for each pass).
#[derive(Default)]
struct LibraryNeeds {
    /// Some instruction computes with `half` (converted by libcalls on some targets).
    half: bool,
    /// `frem double`: `fmod`.
    fmod: bool,
    /// `frem float` or `frem half` (computed as float): `fmodf`.
    fmodf: bool,
    /// Each of [`I128_DIVISION`]'s operations on `i128`.
    i128_division: [bool; 4],
    /// `resume`: `_Unwind_Resume`.
    unwind_resume: bool,
}

impl LibraryNeeds {
    fn of(module: &ir::Module) -> LibraryNeeds {
        let half = ir::Type::Half;
        let mut needs = LibraryNeeds::default();
        for i in module.functions.iter().flat_map(|f| &f.insts) {
            // Vectors compute lane by lane: their lane type decides.
            let lane = i.ty.lane_type();
            needs.half |= match &i.kind {
                Inst::Cast { op: ir::CastOp::BitCast, .. }
                | Inst::Load { .. }
                | Inst::Phi { .. }
                | Inst::Select { .. } => false,
                Inst::Cast { from, .. } => *from.lane_type() == half || *lane == half,
                Inst::FCmp { ty, .. } => *ty.lane_type() == half,
                Inst::Call { args, .. } => args.iter().any(|a| *a.ty.lane_type() == half) || *lane == half,
                _ => *lane == half,
            };
            needs.unwind_resume |= matches!(i.kind, Inst::Resume { .. });
            let Inst::Binary { op, .. } = i.kind else { continue };
            match *lane {
                ir::Type::Double if op == ir::BinOp::FRem => needs.fmod = true,
                ir::Type::Float | ir::Type::Half if op == ir::BinOp::FRem => needs.fmodf = true,
                ir::Type::I128 => {
                    for (used, (o, _)) in needs.i128_division.iter_mut().zip(I128_DIVISION) {
                        *used |= o == op;
                    }
                }
                _ => {}
            }
        }
        needs
    }
}

impl Symbols {
    /// The routine imported for `op` on `i128` ([`I128_DIVISION`]); `None` for other operations
    /// and for those no function uses.
    pub fn i128_division(&self, op: ir::BinOp) -> Option<FuncId> {
        let at = I128_DIVISION.iter().position(|&(o, _)| o == op)?;
        self.i128_division[at]
    }

    /// The C library routine `name` imported for an intrinsic ([`ir::Intrinsic::library_routine`]).
    pub fn math_routine(&self, name: &str) -> Option<FuncId> {
        self.math.iter().find(|&&(n, _)| n == name).map(|&(_, id)| id)
    }

    /// The symbol of an IR function; `None` for intrinsics, which are never called.
    pub fn function(&self, id: ir::FuncId) -> Option<FuncId> {
        self.functions[id.0 as usize]
    }
    /// Whether function `id` uses the dynamic stack (an `alloca` that cannot live in its frame, or
    /// `llvm.stacksave`/`llvm.stackrestore`), as found once for the module.
    pub fn needs_dynamic_stack(&self, id: ir::FuncId) -> bool {
        self.dynamic_stack_functions[id.0 as usize]
    }
    /// The thunk calls of variadic function `id` with floating-point arguments go through, if the
    /// target needs one.
    pub fn variadic_thunk(&self, id: ir::FuncId) -> Option<FuncId> {
        self.variadic_thunks.get(id.0 as usize).copied().flatten()
    }
    /// Whether function `id` is placed in a section of its own by the object emitter (declared
    /// as an import until then).
    pub fn placed(&self, id: ir::FuncId) -> bool {
        self.placed[id.0 as usize]
    }
    /// Whether global `id` is placed in a NOBITS section of its own by the object emitter (declared as
    /// an import until then).
    pub fn placed_global(&self, id: ir::GlobalId) -> bool {
        self.placed_globals[id.0 as usize]
    }
    /// The data object declared for an IR global.
    pub fn global(&self, id: ir::GlobalId) -> DataId {
        self.globals[id.0 as usize]
    }

    /// Declares every function and global of `module` in `out`, and what the lowering will need;
    /// [`Symbols::define_helpers`] then defines the helpers.
    pub fn declare(module: &ir::Module, out: &mut dyn Module, colocated: bool) -> Result<Symbols, IrError> {
        let arch = Target::arch_of(out.isa()).map_err(|e| module.error(ir::Span::default(), e.to_string()))?;
        let call_conv = out.isa().default_call_conv();
        let mut functions = Vec::with_capacity(module.functions.len());
        let placed: Vec<bool> = module
            .functions
            .iter()
            .map(|f| colocated && f.emits_code() && (f.placement.section.is_some() || f.placement.comdat.is_some()))
            .collect();
        for (f, &placed) in module.functions.iter().zip(&placed) {
            if f.intrinsic().is_some() {
                functions.push(None);
                continue;
            }
            let linkage = match (f.emits_code() && !placed, f.linkage) {
                (false, l) => import(l),
                (true, l) => definition(l),
            };
            let sig = if f.cc == ir::CallConv::Explicit {
                super::explicit::signature(module, f, arch)?
            } else {
                signature(call_conv, arch, (&f.ret, f.ret_ext), f.params.iter().map(|p| (&p.ty, &p.abi, p.ext)))
            };
            let id = out
                .declare_function(&f.name, linkage, &sig)
                .map_err(|e| module.error(f.span, format!("cannot declare function '@{}': {e}", f.name)))?;
            functions.push(Some(id));
        }
        let mut globals = Vec::with_capacity(module.globals.len());
        let mut tls_controls: Vec<Option<EmulatedControl>> = Vec::new();
        let placed_globals: Vec<bool> = module.globals.iter().map(|g| colocated && zero_section(g).is_some()).collect();
        for (g, &placed) in module.globals.iter().zip(&placed_globals) {
            let emitted = g.is_emitted(colocated);
            let linkage = match (g.init.is_some() && emitted && !placed, g.linkage) {
                (false, l) => import(l),
                (true, l) => definition(l),
            };
            // cranelift-jit has no TLS: the JIT emulates it (`EmulatedTls`).
            let emulated = g.placement.thread_local && !colocated;
            if emulated && (g.init.is_none() || !emitted) {
                let message = format!(
                    "external thread_local global '@{}' is not supported in the JIT (its threads' copies are \
                     another module's)",
                    g.name
                );
                return Err(module.error(g.span, message));
            }
            // The JIT writes relative references once the data has its address: writable there.
            let writable = !g.constant || (!colocated && g.init.as_ref().is_some_and(ir::Init::has_relative));
            let id = out
                .declare_data(&g.name, linkage, writable, g.placement.thread_local && !emulated)
                .map_err(|e| module.error(g.span, format!("cannot declare global '@{}': {e}", g.name)))?;
            globals.push(id);
            if emulated {
                let name = format!("__emutls_v.{}", g.name);
                // libgcc writes the index it assigns into the control block.
                let control = out
                    .declare_data(&name, Linkage::Local, true, false)
                    .map_err(|e| module.error(g.span, format!("cannot declare '{name}': {e}")))?;
                let align = g.align.unwrap_or_else(|| g.ty.align()).max(1);
                tls_controls.resize(module.globals.len(), None);
                tls_controls[globals.len() - 1] =
                    Some(EmulatedControl { id: control, size: g.ty.alloc_size(), align, template: id });
            }
        }

        let needs = LibraryNeeds::of(module);
        let mut import_conversion = |name: &str, from: ir::Type, to: ir::Type| -> Result<FuncId, IrError> {
            let plain = (&from, &ir::ParamAbi::Plain, ir::Extension::None);
            let sig = signature(call_conv, arch, (&to, ir::Extension::None), [plain]);
            out.declare_function(name, Linkage::Import, &sig)
                .map_err(|e| module.error(ir::Span::default(), format!("cannot import '{name}': {e}")))
        };
        let half_libcalls = if arch.converts_half_by_libcall() && needs.half {
            use ir::Type::{Double, Float, Half};
            Some(HalfLibcalls {
                extend_to_float: import_conversion("__extendhfsf2", Half, Float)?,
                trunc_float: import_conversion("__truncsfhf2", Float, Half)?,
                trunc_double: import_conversion("__truncdfhf2", Double, Half)?,
            })
        } else {
            None
        };
        let emulated_tls = if tls_controls.is_empty() {
            None
        } else {
            let name = "__emutls_get_address";
            let get_address = out
                .declare_function(name, Linkage::Import, &EmulatedTls::get_address_signature(call_conv))
                .map_err(|e| module.error(ir::Span::default(), format!("cannot import '{name}': {e}")))?;
            Some(EmulatedTls { get_address, controls: tls_controls })
        };
        let unwind_resume = if needs.unwind_resume {
            let mut sig = Signature::new(call_conv);
            sig.params.push(cranelift_codegen::ir::AbiParam::new(cranelift_codegen::ir::types::I64));
            let name = "_Unwind_Resume";
            let id = out
                .declare_function(name, Linkage::Import, &sig)
                .map_err(|e| module.error(ir::Span::default(), format!("cannot import '{name}': {e}")))?;
            Some(id)
        } else {
            None
        };
        let mut import = |name: &str, ty: ir::Type| -> Result<FuncId, IrError> {
            let plain = (&ty, &ir::ParamAbi::Plain, ir::Extension::None);
            let sig = signature(call_conv, arch, (&ty, ir::Extension::None), [plain, plain]);
            out.declare_function(name, Linkage::Import, &sig)
                .map_err(|e| module.error(ir::Span::default(), format!("cannot import '{name}': {e}")))
        };
        let fmod = if needs.fmod { Some(import("fmod", ir::Type::Double)?) } else { None };
        let fmodf = if needs.fmodf { Some(import("fmodf", ir::Type::Float)?) } else { None };
        let mut i128_division = [None; 4];
        for ((routine, (_, name)), used) in i128_division.iter_mut().zip(I128_DIVISION).zip(needs.i128_division) {
            if used {
                *routine = Some(import(name, ir::Type::I128)?);
            }
        }
        let mut math: Vec<(&'static str, FuncId)> = Vec::new();
        for f in &module.functions {
            let params: Vec<ir::Type> = f.params.iter().map(|p| p.ty.clone()).collect();
            let Some(routine) = f.intrinsic().and_then(|i| i.library_routine(&f.ret, &params)) else { continue };
            if math.iter().any(|&(n, _)| n == routine.name) {
                continue;
            }
            let plain: Vec<_> = routine.params.iter().map(|p| (p, &ir::ParamAbi::Plain, ir::Extension::None)).collect();
            let sig = signature(call_conv, arch, (&routine.ret, ir::Extension::None), plain);
            let id = out.declare_function(routine.name, Linkage::Import, &sig).map_err(|e| {
                module.error(f.span, format!("cannot import '{}' for '@{}': {e}", routine.name, f.name))
            })?;
            math.push((routine.name, id));
        }

        let stack_intrinsics = stack_intrinsics(module);
        let dynamic_stack_functions: Vec<bool> =
            module.functions.iter().map(|f| uses_dynamic_stack(f, &stack_intrinsics)).collect();
        let dynamic_stack = if dynamic_stack_functions.contains(&true) {
            Some(dynamic_stack::declare(module, out, colocated)?)
        } else {
            None
        };
        let mut variadic_thunks = vec![None; module.functions.len()];
        if arch.variadic_thunk(colocated).is_some() {
            // One pass over the calls: which functions are called with variadic floats.
            let mut called_with_floats = vec![false; module.functions.len()];
            for inst in module.functions.iter().flat_map(|f| &f.insts) {
                if let Inst::Call { callee: ir::Value::Func(callee), sig, args, .. } = &inst.kind {
                    if sig.varargs && args.iter().any(|a| a.ty.is_float()) {
                        called_with_floats[callee.0 as usize] = true;
                    }
                }
            }
            for (i, f) in module.functions.iter().enumerate() {
                if f.varargs && f.intrinsic().is_none() && called_with_floats[i] {
                    let name = format!("__patchmap_variadic.{}", f.name);
                    let sig = Signature::new(call_conv);
                    let id = out
                        .declare_function(&name, Linkage::Local, &sig)
                        .map_err(|e| module.error(f.span, format!("cannot declare '{name}': {e}")))?;
                    variadic_thunks[i] = Some(id);
                }
            }
        }
        Ok(Symbols {
            functions,
            globals,
            fmod,
            fmodf,
            math,
            unwind_resume,
            emulated_tls,
            half_libcalls,
            i128_division,
            dynamic_stack,
            dynamic_stack_functions,
            variadic_thunks,
            arch,
            placed,
            placed_globals,
            colocated,
            block_addresses: module.block_addresses(),
        })
    }
}

impl Symbols {
    /// Defines the dynamic-alloca helpers and the variadic thunks in `out`, if the module needs them.
    pub fn define_helpers(&self, out: &mut dyn Module) -> Result<(), HelperError> {
        if let Some(helpers) = &self.dynamic_stack {
            dynamic_stack::define(helpers, out, self.colocated)?;
        }
        if let Some(tls) = &self.emulated_tls {
            tls.define(out)?;
        }
        for (callee, thunk) in self.variadic_thunks.iter().enumerate() {
            let (Some(thunk), Some(Some(callee))) = (thunk, self.functions.get(callee)) else { continue };
            let (code, field) = self.arch.variadic_thunk(self.colocated).expect("declared where the target needs one");
            let (kind, addend) = if self.colocated { (Reloc::X86CallPLTRel4, -4) } else { (Reloc::Abs8, 0) };
            let relocation =
                ModuleReloc { offset: field, kind, name: ModuleRelocTarget::user(0, callee.as_u32()), addend };
            out.define_function_bytes(*thunk, 16, code, &[relocation]).map_err(|source| HelperError {
                name: format!("variadic thunk {}", thunk.as_u32()),
                source: Box::new(source),
            })?;
        }
        Ok(())
    }
}

/// The Cranelift linkage of a symbol the module refers to but does not emit: an undefined weak symbol
/// for `extern_weak` (null where nothing defines it), else an import.
fn import(linkage: ir::Linkage) -> Linkage {
    if linkage == ir::Linkage::ExternWeak {
        Linkage::Preemptible
    } else {
        Linkage::Import
    }
}

/// The NOBITS section llc-19 gives a zero-initialised global defined here, when it is not `.bss`
/// itself: a `section` named like `.bss` (llc's magic names: `.bss`, `.sbss`, their `.`-suffixed
/// forms and the linkonce spellings) whatever the global's constness, or `.bss.<name>` for a
/// writable COMDAT member without a `section`. Other sections hold zeros as bytes (PROGBITS).
pub fn zero_section(g: &ir::Global) -> Option<String> {
    if !g.is_emitted(true) || g.placement.thread_local || !g.init.as_ref().is_some_and(ir::Init::is_zero) {
        return None;
    }
    match (&g.placement.section, &g.placement.comdat) {
        (Some(section), _) => ir::is_bss_section(section).then(|| section.clone()),
        (None, Some(_)) if !g.constant => Some(format!(".bss.{}", g.name)),
        (None, _) => None,
    }
}

/// The Cranelift linkage of a symbol the module defines: weak for the weak linkages, local for the
/// local ones.
fn definition(linkage: ir::Linkage) -> Linkage {
    if linkage.is_local() {
        Linkage::Local
    } else if linkage.is_weak() {
        Linkage::Preemptible
    } else {
        Linkage::Export
    }
}

/// A Cranelift signature in the target's C calling convention. An aggregate parameter or result
/// is passed as its scalars, one after the other, which is how LLVM lowers the aggregates front ends
/// write (clang's `[2 x i64]`, `{ double, double }`, `{ i64, i32 }`); `byval` is Cranelift's struct
/// argument (the caller copies the object into the outgoing argument area, in eightbytes, on both
/// targets as LLVM's `CCPassByVal<8, 8>`; clang passes large C aggregates by reference on AArch64,
/// but IR may say `byval` there too), `sret` its struct return pointer;
/// `signext`/`zeroext` integers are passed extended (see [`super::abi_type`]).
pub fn signature<'t>(
    call_conv: CallConv,
    arch: Arch,
    ret: (&ir::Type, ir::Extension),
    params: impl IntoIterator<Item = (&'t ir::Type, &'t ir::ParamAbi, ir::Extension)>,
) -> Signature {
    plan(call_conv, arch, ret, params).0
}

/// [`signature`], and per IR parameter the types of the unused arguments placed before it.
///
/// Where the target passes an aggregate in registers only if all its scalars fit in the ones left
/// (`Arch::whole_aggregate_registers`), Cranelift, which assigns each scalar on its own, gets unused
/// arguments that take up the registers left.
pub fn plan<'t>(
    call_conv: CallConv,
    arch: Arch,
    (ret, ret_ext): (&ir::Type, ir::Extension),
    params: impl IntoIterator<Item = (&'t ir::Type, &'t ir::ParamAbi, ir::Extension)>,
) -> (Signature, Vec<Vec<ClifType>>) {
    let mut sig = Signature::new(call_conv);
    let (mut ints, mut floats) = (0usize, 0usize);
    let mut padding = Vec::new();
    for (ty, abi, ext) in params {
        let mut pad = Vec::new();
        match abi {
            ir::ParamAbi::ByVal(t) => {
                // Cranelift copies whole eightbytes, as both targets lay byval copies out.
                let size = t.alloc_size().next_multiple_of(8).min(u32::MAX as u64) as u32;
                sig.params.push(AbiParam::special(types::I64, ArgumentPurpose::StructArgument(size)));
            }
            ir::ParamAbi::StructRet(_) => sig.params.push(AbiParam::special(types::I64, ArgumentPurpose::StructReturn)),
            // The vendored Cranelift leaves a parameter in a named register out of the
            // convention's assignment, as LLVM assigns the chain before the others.
            ir::ParamAbi::Nest => {
                sig.params.push(AbiParam::new(types::I64).in_register(super::explicit::preg(arch, arch.static_chain())))
            }
            _ => {
                let mut scalars = Vec::new();
                push_scalars(arch, ty, ext, &mut scalars);
                let (int, float) = register_counts(&scalars);
                if let (Some(registers), true) = (arch.whole_aggregate_registers(), *ty == ir::Type::I128) {
                    if arch.i128_starts_at_even_register() && ints % 2 == 1 && ints < registers {
                        // Cranelift skips an odd register before a pair itself, but would give the
                        // last one to a later argument once the i128 goes on the stack: fill it.
                        if ints + 1 == registers {
                            pad.push(types::I64);
                        }
                        ints += 1;
                    }
                }
                // Not for a vector split into several registers: LLVM passes each part by itself
                // (the first in the last free register, the rest on the stack).
                if let (Some(registers), true) = (arch.whole_aggregate_registers(), ty.is_aggregate()) {
                    for (used, needed, filler) in [(&mut ints, int, types::I64), (&mut floats, float, types::F64)] {
                        if needed > 0 && *used < registers && *used + needed > registers {
                            pad.extend(std::iter::repeat_n(filler, registers - *used));
                            *used = registers;
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
    push_scalars(arch, ret, ret_ext, &mut sig.returns);
    (sig, padding)
}

/// Why a `byval` parameter or argument of this kind cannot be passed, if it cannot: LLVM aligns the
/// copy of a type aligned to more than 8 bytes to that alignment in the argument area (both targets'
/// `CCPassByVal<8, 8>` take the larger), which Cranelift's struct arguments (8-byte slots) do not.
pub fn byval_unsupported(abi: &ir::ParamAbi) -> Option<String> {
    match abi {
        ir::ParamAbi::ByVal(t) if t.align() > 8 => Some(format!(
            "unsupported 'byval' of type '{t}', aligned to {} bytes: LLVM aligns its copy so in the \
             argument area, which patchmap's 8-byte slots do not",
            t.align()
        )),
        _ => None,
    }
}

/// Why a result of type `ty` cannot be returned in registers on this target, if it cannot: LLVM
/// would return it through a hidden pointer, which Cranelift does not do for us.
pub fn result_unsupported(arch: Arch, ty: &ir::Type) -> Option<String> {
    let mut scalars = Vec::new();
    push_scalars(arch, ty, ir::Extension::None, &mut scalars);
    let (int, float) = register_counts(&scalars);
    let (limit, target) = (arch.result_registers(), arch.name());
    (int > limit || float > limit).then(|| {
        format!(
            "unsupported result of type '{ty}': {int} integer and {float} floating-point scalars, but {target} \
             returns at most {limit} of each in registers (return it through an 'sret' pointer)"
        )
    })
}

/// How many integer and floating-point registers `scalars` take: an I128 takes two.
fn register_counts(scalars: &[AbiParam]) -> (usize, usize) {
    let float = scalars.iter().filter(|p| p.value_type.is_float() || p.value_type.is_vector()).count();
    let int = scalars.iter().filter(|p| p.value_type.is_int()).map(|p| p.value_type.bytes().div_ceil(8) as usize).sum();
    (int, float)
}

/// One ABI parameter per scalar of `ty` (none for `void`), extended as `ext` says.
fn push_scalars(arch: Arch, ty: &ir::Type, ext: ir::Extension, out: &mut Vec<AbiParam>) {
    if ty.is_split() {
        // Vectors cross as their register pieces; the lowering refuses the shapes that cannot.
        let mut pieces = Vec::new();
        let _ = super::vectors::push_abi_pieces(arch, ty, &mut pieces);
        out.extend(pieces.into_iter().map(AbiParam::new));
    } else if *ty != ir::Type::Void {
        out.push(AbiParam::new(super::abi_type(ty, ext)));
    }
}

/// For each function of the module, whether it is `llvm.stacksave` or `llvm.stackrestore`: found
/// once, not at every call.
fn stack_intrinsics(module: &ir::Module) -> Vec<bool> {
    module
        .functions
        .iter()
        .map(|f| matches!(f.intrinsic(), Some(ir::Intrinsic::StackSave | ir::Intrinsic::StackRestore)))
        .collect()
}

/// Whether a function has an `alloca` that cannot live in its frame (a non-constant count, or an
/// alloca outside the entry block, which LLVM allocates anew each time it runs) or saves and
/// restores the dynamic stack (calls one of the module's [`stack_intrinsics`]).
fn uses_dynamic_stack(f: &ir::Function, stack_intrinsics: &[bool]) -> bool {
    f.blocks.iter().enumerate().any(|(b, block)| {
        block.insts.iter().any(|&i| match &f.inst(i).kind {
            Inst::Alloca { count, .. } => {
                b != 0 || count.as_ref().is_some_and(|c| !matches!(c.value, ir::Value::Const(ir::Const::Int(_))))
            }
            // `stacksave`/`stackrestore` bracket dynamic allocas (a VLA in a loop, say).
            Inst::Call { callee: ir::Value::Func(callee), .. } => stack_intrinsics[callee.0 as usize],
            _ => false,
        })
    })
}
