//! Options, and compiling the functions of a module to machine code (in parallel when there are
//! many). Consumes a verified `ir::Module` and the ISA of a [`Target`], lowers each function with
//! `lower`, and hands finished code with its relocations and unwind information to `emit`.

pub mod error;
pub mod frame;
pub mod points;
pub mod trap;

use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::isa::unwind::UnwindInfo;
use cranelift_codegen::FinalizedMachExceptionHandler;
use cranelift_frontend::FunctionBuilderContext;
use cranelift_module::ModuleReloc;

use crate::ir;
use crate::lower::points::CallTarget;
use crate::lower::{self, StatepointRegisters, Symbols};
use crate::stackmap::Version;
use crate::target::Isas;
pub use crate::target::{FramePointers, OptLevel, Target, TargetError};
pub use error::{CallError, CodegenFailure, CompileError, EmitError};
pub use trap::TrapKind;

/// How to compile.
#[derive(Clone, Debug)]
pub struct Options {
    /// `None`: the module's `target triple`, else the host.
    pub target: Option<Target>,
    /// Cranelift's optimisation level.
    pub opt: OptLevel,
    /// The `.llvm_stackmaps` version to write: LLVM's 1, 2 or 3, or the frame-table layout
    /// ([`Version::FrameTable`], with each function's size, frame flags and saved registers and each
    /// record's call size).
    pub stackmap_version: Version,
    /// llc-19's `-max-registers-for-gc-values`: how many GC pointers of a statepoint (NUMPATCHBYTES
    /// 0, or a `"deopt"` call) may stay in callee-saved registers across its call, which the
    /// collector rewrites there. 0 (the default) stores every one in a frame slot, as llc-19 does.
    pub max_registers_for_gc_values: u32,
    /// llc-19's `-use-registers-for-deopt-values`: a statepoint's deopt values stay wherever the
    /// register allocator keeps them across the call (a callee-saved register or a spill slot)
    /// instead of being stored in a frame slot of their own.
    pub use_registers_for_deopt_values: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            target: None,
            opt: OptLevel::Speed,
            stackmap_version: Version::V1,
            max_registers_for_gc_values: 0,
            use_registers_for_deopt_values: false,
        }
    }
}

impl Options {
    /// Options from the command line's words, with one of LLVM's versions 1, 2 or 3 (see
    /// [`Options::with_stackmap_version`] for the frame-table layout).
    pub fn new(target: Option<&str>, opt: &str, stackmap_version: u8) -> Result<Options, TargetError> {
        let target = target.map(Target::parse).transpose()?;
        let stackmap_version =
            Version::from_byte(stackmap_version).ok_or(TargetError::StackMapVersion(stackmap_version))?;
        Ok(Options { target, opt: opt.parse()?, stackmap_version, ..Options::default() })
    }

    /// These options writing `version`, any of them, the frame-table layout included.
    pub fn with_stackmap_version(self, version: Version) -> Options {
        Options { stackmap_version: version, ..self }
    }

    /// These options with up to `n` GC pointers per statepoint in callee-saved registers (see
    /// [`Options::max_registers_for_gc_values`]).
    pub fn with_max_registers_for_gc_values(self, n: u32) -> Options {
        Options { max_registers_for_gc_values: n, ..self }
    }

    /// These options with statepoints' deopt values left in registers or spill slots (see
    /// [`Options::use_registers_for_deopt_values`]).
    pub fn with_registers_for_deopt_values(self, on: bool) -> Options {
        Options { use_registers_for_deopt_values: on, ..self }
    }

    /// What the lowering of statepoints may leave in registers.
    pub(crate) fn statepoint_registers(&self) -> StatepointRegisters {
        StatepointRegisters {
            gc_values: self.max_registers_for_gc_values,
            deopt_values: self.use_registers_for_deopt_values,
        }
    }

    /// The target for a module: `--target` if given, else the module's triple, else the host. A
    /// module's `target triple` that is unusable or contradicts `--target` is an error at its line.
    pub fn resolve_target(&self, module: &ir::Module) -> Result<Target, CompileError> {
        let Some(triple) = &module.triple else { return Ok(self.target.clone().map_or_else(Target::host, Ok)?) };
        let own = Target::parse(triple).map_err(|e| module.error(module.triple_span, e.to_string()))?;
        match &self.target {
            Some(target) if target.arch != own.arch => Err(module
                .error(
                    module.triple_span,
                    format!("the module's target triple '{triple}' contradicts --target {}", target.triple),
                )
                .into()),
            Some(target) => Ok(target.clone()),
            None => Ok(own),
        }
    }
}

/// One function's finished machine code.
pub struct CompiledFunction {
    /// Index of the function in the module.
    pub func: ir::FuncId,
    /// The machine code, with patch point call sequences written.
    pub code: Vec<u8>,
    /// The code's required alignment in bytes.
    pub alignment: u64,
    /// Relocations to apply to `code`, in cranelift-module's form.
    pub relocs: Vec<ModuleReloc>,
    /// Cranelift's unwind information, for `.eh_frame`; `None` if it produced none.
    pub unwind: Option<UnwindInfo>,
    /// Stack map records in code order.
    pub points: Vec<points::PointRecord>,
    /// The machine frame as the frame-table layout describes it.
    pub frame: crate::stackmap::Frame,
    /// LLVM's stack size of the function (`DYNAMIC_STACK_SIZE` with dynamic or over-aligned allocas).
    pub stack_size: u64,
    /// Patch point regions (offset) whose call sequence must be given a function's address.
    pub symbol_calls: Vec<(u32, ir::FuncId)>,
    /// Each trapping instruction's offset and what it checks, in code order.
    pub traps: Vec<(u32, TrapKind)>,
    /// The `invoke`s and tables of the function's LSDA; `None` without `invoke`.
    pub exceptions: Option<lower::exceptions::FunctionExceptions>,
}

/// Compiles every defined function of `module`, which must be verified (the lowering relies on its
/// types, dominance and terminators), in module order. Functions are spread over the machine's cores
/// when there are enough of them to pay for the threads.
pub(crate) fn compile_functions(
    module: &ir::Module,
    isas: &Isas,
    symbols: &Symbols,
    registers: StatepointRegisters,
) -> Result<Vec<CompiledFunction>, CompileError> {
    let defined: Vec<ir::FuncId> =
        (0..module.functions.len() as u32).map(ir::FuncId).filter(|&id| module.function(id).emits_code()).collect();
    // Each thread keeps its Cranelift contexts across the functions it compiles.
    thread_local! {
        static SCRATCH: std::cell::RefCell<Option<Scratch>> = const { std::cell::RefCell::new(None) };
    }
    let results = crate::workers::map(&defined, 4, |&id| {
        SCRATCH.with_borrow_mut(|scratch| {
            let scratch = scratch.get_or_insert_with(|| Scratch {
                ctx: cranelift_codegen::Context::new(),
                fctx: FunctionBuilderContext::new(),
            });
            compile_function(module, id, isas, symbols, registers, scratch)
        })
    });
    results.into_iter().collect()
}

/// What compiling one function needs besides its inputs, kept by each worker across functions so
/// that Cranelift reuses its allocations.
struct Scratch {
    ctx: cranelift_codegen::Context,
    fctx: FunctionBuilderContext,
}

fn compile_function(
    module: &ir::Module,
    id: ir::FuncId,
    isas: &Isas,
    symbols: &Symbols,
    registers: StatepointRegisters,
    scratch: &mut Scratch,
) -> Result<CompiledFunction, CompileError> {
    let name = &module.function(id).name;
    let codegen_error = |failure: CodegenFailure| CompileError::Codegen { function: name.clone(), failure };
    let arch = Target::arch_of(isas.kept.as_ref())?;
    let ctx = &mut scratch.ctx;
    ctx.clear();
    let (planned, exceptions) = lower::lower_function(
        module,
        id,
        isas.kept.as_ref(),
        arch,
        symbols,
        registers,
        &mut ctx.func,
        &mut scratch.fctx,
    )?;
    let function = module.function(id);
    let frame_pointer = function.frame_pointer == ir::FramePointerKind::All
        || needs_frame_pointer(&planned, &ctx.func, chained(isas, function))
        || over_aligned(function);
    let isa = if frame_pointer { &isas.kept } else { &isas.omitted };
    ctx.compile(isa.as_ref(), &mut ControlPlane::default())
        .map_err(|e| codegen_error(CodegenFailure::Cranelift(e.inner)))?;
    let compiled = ctx.compiled_code().expect("compiled code after a successful compile");
    let records = points::resolve(arch, &planned, compiled).map_err(codegen_error)?;
    let unwind = compiled.create_unwind_info(isa.as_ref()).map_err(|e| codegen_error(CodegenFailure::Unwind(e)))?;
    // Each `try_call` names its landing pad by the handler's tag (`lower::exceptions::pad_tag`);
    // an invoked patch point's region ends at its call site, and its landing covers the region.
    let regions: Vec<(u32, u32)> =
        compiled.buffer.stackmaps().filter(|s| s.patchpoint).map(|s| (s.offset + s.shadow, s.offset)).collect();
    let mut landings: Vec<lower::exceptions::Landing> = compiled
        .buffer
        .call_sites()
        .flat_map(|site| {
            let start = regions.iter().find(|r| r.0 == site.ret_addr).map_or(site.ret_addr - 1, |r| r.1);
            site.exception_handlers.iter().filter_map(move |h| match *h {
                FinalizedMachExceptionHandler::Tag(tag, pad_offset) => Some(lower::exceptions::Landing {
                    start,
                    ret_addr: site.ret_addr,
                    pad_offset,
                    pad: lower::exceptions::tagged_pad(tag),
                }),
                _ => None,
            })
        })
        .collect();
    landings.sort_by_key(|l| l.ret_addr);
    let exceptions =
        (!landings.is_empty()).then_some(lower::exceptions::FunctionExceptions { tables: exceptions, landings });
    let module_id = symbols.function(id).expect("a defined function has a symbol");
    let mut code = compiled.buffer.data().to_vec();
    // Patch point regions with a target start with LLVM's call sequence.
    let mut symbol_calls = Vec::new();
    for record in &records {
        let address = match record.target {
            None => continue,
            Some(CallTarget::Null) => {
                // LLVM's longest nops, so that the bytes match llc-19's.
                arch.write_nops(&mut code[record.offset as usize..(record.offset + record.shadow) as usize]);
                continue;
            }
            Some(CallTarget::InlineAsmNops) => {
                arch.write_nop_instructions(
                    &mut code[record.offset as usize..(record.offset + record.shadow) as usize],
                );
                continue;
            }
            Some(CallTarget::Address(a)) => a,
            Some(CallTarget::Function(f)) => {
                // The emitter fills the address in: relocations in objects (`Arch::call_relocations`,
                // some of which cranelift-module cannot express), the function's address in the JIT.
                symbol_calls.push((record.offset, f));
                0
            }
        };
        let sequence = arch
            .encode_call(address)
            .map_err(|source| codegen_error(CodegenFailure::PatchPoint { id: record.id, source: source.into() }))?;
        let (start, end) = (record.offset as usize, (record.offset + record.shadow) as usize);
        code[start..start + sequence.len()].copy_from_slice(&sequence);
        arch.write_nops(&mut code[start + sequence.len()..end]);
    }
    let relocs =
        compiled.buffer.relocs().iter().map(|r| ModuleReloc::from_mach_reloc(r, &ctx.func, module_id)).collect();
    let f = module.function(id);
    // The inline asms' regions are code, not points.
    let mut records = records;
    records.retain(|r| r.target != Some(CallTarget::InlineAsmNops));
    let has_patch_point = records.iter().any(|r| r.target.is_some());
    let frame = frame::frame(arch, compiled, code.len(), has_patch_point).map_err(codegen_error)?;
    let stack_size = if symbols.needs_dynamic_stack(id) || over_aligned(f) {
        crate::stackmap::DYNAMIC_STACK_SIZE
    } else if !frame.has_frame {
        // Without a frame pointer SP moves by the pushes and the `sub` (nothing in a leaf that
        // needs no stack), as LLVM counts a frame without one.
        compiled.buffer.frame_layout().map_or(0, |layout| u64::from(layout.frame_to_fp_offset))
    } else {
        let layout = compiled.buffer.frame_layout().ok_or_else(|| codegen_error(CodegenFailure::NoFrameLayout))?;
        arch.stack_size(layout.frame_to_fp_offset)
    };
    Ok(CompiledFunction {
        func: id,
        frame,
        code,
        alignment: (compiled.buffer.alignment as u64).max(arch.function_alignment()),
        relocs,
        unwind,
        points: records,
        stack_size,
        symbol_calls,
        traps: compiled.buffer.traps().iter().map(|t| (t.offset, TrapKind::of(t.code))).collect(),
        exceptions,
    })
}

/// Whether a lowered function must set up a frame pointer: its records are FP-relative (LLVM too
/// keeps a frame in every function with a stack map, patch point or statepoint), frame and return
/// addresses are read through FP, Cranelift's x86-64 tail calls rebuild the frame they replace,
/// and where a runtime walks frames by FP (`frames_walked`) every function that calls is a link
/// of the chain. (Over-aligned allocas too: the caller checks.)
fn needs_frame_pointer(
    planned: &[lower::points::PlannedPoint],
    func: &cranelift_codegen::ir::Function,
    frames_walked: bool,
) -> bool {
    use cranelift_codegen::ir::Opcode;
    !planned.is_empty()
        || func.layout.blocks().flat_map(|b| func.layout.block_insts(b)).any(|inst| {
            let opcode = func.dfg.insts[inst].opcode();
            matches!(
                opcode,
                Opcode::GetFramePointer | Opcode::GetReturnAddress | Opcode::ReturnCall | Opcode::ReturnCallIndirect
            ) || (frames_walked && opcode.is_call())
        })
}

/// Whether `f`, if it calls, must be a link of the frame-pointer chain: where a runtime walks
/// frames by FP, or where the IR asks for frame pointers in non-leaf functions.
fn chained(isas: &Isas, f: &ir::Function) -> bool {
    isas.frames_walked || f.frame_pointer == ir::FramePointerKind::NonLeaf
}

/// Whether a function has an alloca aligned beyond the stack's 16 bytes, for which LLVM realigns
/// the frame (and records an unknown stack size).
fn over_aligned(f: &ir::Function) -> bool {
    f.insts.iter().any(|i| matches!(i.kind, ir::Inst::Alloca { align: Some(a), .. } if a > 16))
}
