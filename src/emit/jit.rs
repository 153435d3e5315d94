//! In-process JIT code through cranelift-jit. Declared functions resolve to the process's symbols
//! (`putchar`, `malloc`, ...).

use std::collections::HashMap;

use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::default_libcall_names;

use super::{define_module, section};
use crate::compile::{CallError, CompileError, EmitError, Options, Target, TargetError, TrapKind};
use crate::ir::{self, Type};
use crate::stackmap::{Endian, Frame, StackMapView, Version};

/// A function's finished code in memory.
#[derive(Clone, Copy, Debug)]
pub struct JitFunction {
    /// The address of the function's first instruction.
    pub address: *const u8,
    /// The code's length in bytes.
    pub size: usize,
}

/// Where an address lies in a module's code: see [`JitCode::locate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeLocation<'a> {
    /// The function whose code holds the address.
    pub function: &'a str,
    /// The address's offset from the function's first instruction.
    pub offset: usize,
    /// What the instruction there checks, when it is one of Cranelift's trapping instructions.
    pub trap: Option<TrapKind>,
    /// The function's machine frame: where its prologue saved the caller's registers, as the
    /// frame-table layout ([`Version::FrameTable`]) describes it, whatever version the section has.
    pub frame: &'a Frame,
}

/// A record's point in JIT code and the bytes after it a runtime may overwrite: see
/// [`JitCode::sites`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatchSite {
    /// The record's ID.
    pub id: u64,
    /// The record's index in the section ([`StackMapView::record`]).
    pub record: usize,
    /// The point: a stack map's address, a patch point region's first byte, a statepoint's return
    /// address.
    pub address: *mut u8,
    /// How many bytes from `address` a runtime may overwrite: the stack map's shadow, the patch
    /// point's region (0 for statepoints).
    pub len: usize,
    /// Whether those bytes are reserved for patching (a patch point's region: nops or the call to
    /// its target). A stack map's shadow is not: as LLVM's, it holds the code after the point
    /// unless that code is shorter, and overwriting it destroys that code (a runtime invalidating
    /// the function does that on purpose).
    pub reserved: bool,
}

/// One function's code range, trap records and frame, for [`JitCode::locate`].
struct CodeRange {
    start: usize,
    size: usize,
    name: String,
    traps: Vec<(u32, TrapKind)>,
    frame: Frame,
}

/// A module compiled into executable memory. The code lives as long as this value.
pub struct JitCode {
    /// The address the code knows as `__dso_handle`.
    dso_handle: Box<u8>,
    /// The code's unwind tables as the process's unwinder knows them; deregistered (dropped) before
    /// the code is freed.
    _frames: Option<RegisteredFrames>,
    /// Owns the executable memory.
    _module: JITModule,
    functions: HashMap<String, (ir::FuncId, JitFunction)>,
    signatures: Vec<(Type, Vec<Type>)>,
    /// The `.llvm_stackmaps` section with absolute function addresses (empty without function records).
    stack_map: Vec<u8>,
    /// The section's layout.
    version: Version,
    /// Each record's site, in section order (v1 sections cannot tell their functions apart).
    sites: Vec<PatchSite>,
    /// The functions' code, by address.
    ranges: Vec<CodeRange>,
    /// Whether the constructors have run (the program started).
    started: std::cell::Cell<bool>,
    /// The static constructors, in the order they run; taken when they run.
    constructors: std::cell::RefCell<Vec<extern "C" fn()>>,
    /// The static destructors, in the order they run; taken when they run.
    destructors: std::cell::RefCell<Vec<extern "C" fn()>>,
}

/// The address of `name` in this process, in the C math library (which generated code calls for
/// IR `frem`, `sqrt`, `floor` and the like), in libgcc (`__divti3` and the other i128 division
/// routines, the unwinder's `__register_frame`) or in libstdc++ (C++ code's runtime), which a Rust
/// program need not have loaded or exported.
fn host_symbol(name: &str) -> Option<*const u8> {
    static LIBRARIES: std::sync::OnceLock<[usize; 3]> = std::sync::OnceLock::new();
    let name = std::ffi::CString::new(name).ok()?;
    // SAFETY: dlopen/dlsym with valid C strings; a null handle or result is checked.
    unsafe {
        let own = libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr());
        if !own.is_null() {
            return Some(own as *const u8);
        }
        let libraries = LIBRARIES.get_or_init(|| {
            [c"libm.so.6", c"libgcc_s.so.1", c"libstdc++.so.6"]
                .map(|library| libc::dlopen(library.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) as usize)
        });
        libraries.iter().filter(|&&library| library != 0).find_map(|&library| {
            let found = libc::dlsym(library as *mut libc::c_void, name.as_ptr());
            (!found.is_null()).then_some(found as *const u8)
        })
    }
}

extern "C" {
    fn fflush(stream: *mut std::ffi::c_void) -> i32;
}

/// The symbol by which C++ code registers its static objects' destructors with `__cxa_atexit`.
const DSO_HANDLE: &str = "__dso_handle";

impl JitCode {
    /// Compiles every function of `module` for the host.
    pub fn compile(module: &ir::Module, options: &Options) -> Result<JitCode, CompileError> {
        JitCode::compile_with_symbols(module, options, &[])
    }

    /// Compiles every function of `module` for the host, resolving the declared functions named in
    /// `symbols` to the given addresses (the embedder's runtime functions) before the process's own.
    pub fn compile_with_symbols(
        module: &ir::Module,
        options: &Options,
        symbols: &[(&str, *const u8)],
    ) -> Result<JitCode, CompileError> {
        let embedder = symbols;
        let host = Target::host()?;
        let target = options.resolve_target(module)?;
        if target.arch != host.arch && options.target.is_none() && module.triple.is_some() {
            // The module's own triple chose the target.
            let message = format!("cannot run {} code on this {} host", target.triple, host.triple);
            return Err(module.error(module.triple_span, message).into());
        }
        if target.arch != host.arch {
            return Err(TargetError::NotHost {
                file: module.file.clone(),
                target: target.triple.to_string(),
                host: host.triple.to_string(),
            }
            .into());
        }
        // `JitCode::frame` offers every function's frame to a runtime walking them.
        let isas = host.isas(options.opt, false, true)?;
        let isa = isas.kept.clone();
        let mut builder = JITBuilder::with_isa(isa.clone(), default_libcall_names());
        builder
            .symbol_lookup_fn(Box::new(host_symbol))
            .symbol(crate::lower::dynamic_stack::STATE, crate::lower::dynamic_stack::jit_thread_state as *const u8);
        builder.symbols(symbols.iter().map(|&(name, address)| (name.to_string(), address)));
        // C++'s `__cxa_atexit` registers static objects' destructors under the DSO they belong to,
        // which the linker names `__dso_handle`; the JIT's code is a DSO of its own, finalized when
        // it is dropped.
        let dso_handle = Box::new(0u8);
        builder.symbol(DSO_HANDLE, &*dso_handle as *const u8);
        // Landing pads need the unwinder to find this code's tables: without libgcc's registration
        // an exception could not land, so refuse them rather than reach `std::terminate`.
        let landing = module.functions.iter().filter(|f| f.emits_code()).find_map(|f| {
            f.insts.iter().find(|i| {
                matches!(
                    i.kind,
                    ir::Inst::Call { invoke: Some(_), .. } | ir::Inst::LandingPad { .. } | ir::Inst::Resume { .. }
                )
            })
        });
        let registry = FrameRegistry::find();
        if let (Some(inst), None) = (landing, registry) {
            let message = "unsupported in the JIT here: 'invoke', 'landingpad' and 'resume' need the unwinder to \
                           find this code's exception tables, and this process's unwinder has no \
                           '__register_frame' (compile to an object instead)";
            return Err(module.error(inst.span, message).into());
        }
        // cranelift-jit panics on a symbol it cannot resolve: find them first.
        let external = module
            .functions
            .iter()
            // Names under `llvm.` are intrinsics, or unknown ones the verifier names.
            .filter(|f| !f.emits_code() && !f.name.starts_with("llvm.") && f.linkage != ir::Linkage::ExternWeak)
            .map(|f| &f.name)
            .chain(
                module
                    .globals
                    .iter()
                    // An external thread-local is refused with its position (`EmulatedTls`).
                    .filter(|g| {
                        (g.init.is_none() || g.linkage == ir::Linkage::AvailableExternally)
                            && g.linkage != ir::Linkage::ExternWeak
                            && !g.placement.thread_local
                    })
                    .map(|g| &g.name),
            );
        for name in external {
            if !symbols.iter().any(|(given, _)| given == name) && name != DSO_HANDLE && host_symbol(name).is_none() {
                return Err(EmitError::Unresolved(name.clone()).into());
            }
        }
        let mut out = JITModule::new(builder);
        let (symbols, compiled, relatives) =
            define_module(module, &mut out, &isas, false, options.statepoint_registers(), |_| false)?;
        out.finalize_definitions().map_err(|e| EmitError::Finalize(Box::new(e)))?;
        // Relative references, now that every address is known (their globals are writable here).
        for r in &relatives {
            let base = out.get_finalized_data(symbols.global(r.global)).0 as i64;
            let target = match r.target {
                ir::Symbol::Global(g) => out.get_finalized_data(symbols.global(g)).0,
                ir::Symbol::Func(f) => {
                    out.get_finalized_function(symbols.function(f).expect("checked when the global was defined"))
                }
            } as i64;
            let distance = target.wrapping_sub(base).wrapping_add(r.addend);
            let place = (base as u64 + r.offset) as *mut u8;
            if r.size == 4 {
                let Ok(distance) = i32::try_from(distance) else {
                    let name = module.global(r.global).name.clone();
                    return Err(EmitError::RelativeOutOfRange { global: name, distance }.into());
                };
                // SAFETY: the place lies in the writable global, which nothing reads yet.
                unsafe { place.cast::<i32>().write_unaligned(distance) };
            } else {
                // SAFETY: as above.
                unsafe { place.cast::<i64>().write_unaligned(distance) };
            }
        }
        let address = |f: &crate::compile::CompiledFunction| {
            out.get_finalized_function(symbols.function(f.func).expect("defined functions have symbols"))
        };
        let functions = compiled
            .iter()
            .map(|f| {
                let code = JitFunction { address: address(f), size: f.code.len() };
                (module.function(f.func).name.clone(), (f.func, code))
            })
            .collect();
        // Patch points whose target is a function: its address is known only now.
        for f in &compiled {
            for &(offset, target) in &f.symbol_calls {
                let callee = out.get_finalized_function(symbols.function(target).expect("targets are not intrinsics"));
                let region = address(f).wrapping_add(offset as usize) as *mut u8;
                let error = |source| EmitError::PatchPoint { function: module.function(f.func).name.clone(), source };
                let call = host.arch.encode_call(callee as u64).map_err(|e| error(e.into()))?;
                // SAFETY: the region is code just finalized for this module; nothing runs it yet.
                unsafe { crate::runtime::patch_code(host.arch, region, call.len(), &call) }.map_err(error)?;
            }
        }
        let name = |f: &crate::compile::CompiledFunction| module.function(f.func).name.clone();
        let map = section::stack_map(&compiled, options.stackmap_version, |f| address(f) as u64, name)?;
        let stack_map =
            if map.functions.is_empty() { Vec::new() } else { section::section_bytes(&map, options.stackmap_version)? };
        // What the writer wrote reads back (the frame-table writer refuses a blob its reader would call
        // ambiguous); checked once here so that `stack_map` need not return an error.
        if !stack_map.is_empty() {
            StackMapView::parse_version(&stack_map, options.stackmap_version, Endian::Little)
                .map_err(EmitError::StackMap)?;
        }
        let signatures =
            module.functions.iter().map(|f| (f.ret.clone(), f.params.iter().map(|p| p.ty.clone()).collect())).collect();
        let sites = compiled
            .iter()
            .flat_map(|f| f.points.iter().map(move |p| (f, p)))
            .enumerate()
            .map(|(record, (f, p))| PatchSite {
                id: p.id,
                record,
                address: address(f).wrapping_add(p.offset as usize) as *mut u8,
                len: p.shadow as usize,
                reserved: p.target.is_some(),
            })
            .collect();
        let mut ranges: Vec<CodeRange> = compiled
            .iter()
            .map(|f| CodeRange {
                start: address(f) as usize,
                size: f.code.len(),
                name: module.function(f.func).name.clone(),
                traps: f.traps.clone(),
                frame: f.frame.clone(),
            })
            .collect();
        ranges.sort_by_key(|r| r.start);
        let version = options.stackmap_version;
        let statics = module.static_functions()?;
        let addresses = |phase| -> Vec<extern "C" fn()> {
            ir::StaticFunction::run_order(&statics, phase)
                .into_iter()
                // SAFETY: a verified static function is a defined `void ()` function of this module.
                .map(|f| unsafe {
                    std::mem::transmute::<*const u8, extern "C" fn()>(
                        out.get_finalized_function(symbols.function(f).expect("verified: not an intrinsic")),
                    )
                })
                .collect()
        };
        let frames = match registry {
            Some(registry) => {
                // Addresses of what the code reaches by name: the embedder's symbols, the module's
                // definitions, the process's symbols (checked above).
                let by_name = |name: &str| {
                    embedder.iter().find(|(given, _)| *given == name).map(|&(_, a)| a).or_else(|| host_symbol(name))
                };
                let function_address = |id: ir::FuncId| match symbols.function(id) {
                    Some(f) if module.function(id).emits_code() => Some(out.get_finalized_function(f) as u64),
                    _ => by_name(&module.function(id).name).map(|a| a as u64),
                };
                let typeinfo = |g: ir::GlobalId| {
                    let global = module.global(g);
                    // Defined here as `Symbols::declare` decides it for the JIT.
                    if global.init.is_some() && global.is_emitted(false) {
                        out.get_finalized_data(symbols.global(g)).0 as u64
                    } else {
                        by_name(&global.name).map_or(0, |a| a as u64)
                    }
                };
                Some(registry.register(module, isa.as_ref(), &compiled, address, function_address, typeinfo)?)
            }
            None => None,
        };
        let constructors = addresses(ir::StaticPhase::Constructor).into();
        let destructors = addresses(ir::StaticPhase::Destructor).into();
        Ok(JitCode {
            dso_handle,
            _frames: frames,
            _module: out,
            functions,
            signatures,
            stack_map,
            version,
            sites,
            ranges,
            started: std::cell::Cell::new(false),
            constructors,
            destructors,
        })
    }

    /// Runs the module's static constructors (`@llvm.global_ctors`), by priority, unless they have
    /// run: [`JitCode::call_i64`] does so before its first call. Code called through
    /// [`JitCode::function`]'s address needs this first where the module has constructors.
    ///
    /// # Safety
    /// Runs generated code: the constructors' IR must be free of undefined behaviour.
    pub unsafe fn run_constructors(&self) {
        self.started.set(true);
        let constructors = std::mem::take(&mut *self.constructors.borrow_mut());
        for constructor in constructors {
            constructor();
        }
    }

    /// Runs the module's static destructors (`@llvm.global_dtors`) in the order a program's exit
    /// runs them, unless they have run; dropping a `JitCode` whose constructors ran does so. C's
    /// streams are flushed afterwards.
    ///
    /// # Safety
    /// Runs generated code: the destructors' IR must be free of undefined behaviour, and the
    /// program must be done with whatever they tear down.
    pub unsafe fn run_destructors(&self) {
        let destructors = std::mem::take(&mut *self.destructors.borrow_mut());
        for destructor in &destructors {
            destructor();
        }
        if !destructors.is_empty() {
            // SAFETY: fflush(NULL) flushes every C output stream; it has no other precondition.
            unsafe { fflush(std::ptr::null_mut()) };
        }
    }

    /// The module's `.llvm_stackmaps` section, in the version of the compile options, with the
    /// functions' absolute addresses; empty when the module has no stack map records (in the
    /// frame-table layout, which lists every function: when it defines none).
    pub fn stack_map_section(&self) -> &[u8] {
        &self.stack_map
    }

    /// [`JitCode::stack_map_section`] parsed in the version of the compile options (so a version-2
    /// section is never taken for the other layout with byte 2), little-endian as written; `None` when
    /// the section is empty. With [`Version::FrameTable`] its function records hold each
    /// function's absolute address, code size, frame flags and saved registers, and its records the
    /// call sizes: the view's [`function`](StackMapView::function),
    /// [`frame_registers`](StackMapView::frame_registers) and [`records`](StackMapView::records).
    pub fn stack_map(&self) -> Option<StackMapView<'_>> {
        if self.stack_map.is_empty() {
            return None;
        }
        // Parsed once in `compile_with_symbols`: this parse succeeds.
        StackMapView::parse_version(&self.stack_map, self.version, Endian::Little).ok()
    }

    /// The machine frame of the defined function `name` (records or not): its code size, flags, frame
    /// base register and where its prologue saved registers, as [`Version::FrameTable`] writes it,
    /// whatever version the section has. A runtime walking generated frames needs it for every
    /// function on the stack, not only those with records.
    pub fn frame(&self, name: &str) -> Option<&Frame> {
        self.ranges.iter().find(|r| r.name == name).map(|r| &r.frame)
    }

    /// Where the records with this ID begin in the code (a stack map's point, a patch point's region):
    /// the addresses a runtime reads values at or patches, in section order.
    pub fn record_addresses(&self, id: u64) -> Vec<*mut u8> {
        self.sites.iter().filter(|s| s.id == id).map(|s| s.address).collect()
    }

    /// Every record's site, in section order: where its point is and what a runtime may overwrite
    /// there. The section gives neither a shadow's nor a region's length; the compiler knows both.
    pub fn sites(&self) -> &[PatchSite] {
        &self.sites
    }

    /// Every defined function: name, address and size.
    pub fn functions(&self) -> impl Iterator<Item = (&str, JitFunction)> + '_ {
        self.functions.iter().map(|(name, (_, code))| (name.as_str(), *code))
    }

    /// The function, offset and frame of a code address (a faulting instruction's, a return address),
    /// and the trap record of the instruction there. Allocates nothing and takes no lock, so a signal
    /// handler may call it.
    pub fn locate(&self, address: usize) -> Option<CodeLocation<'_>> {
        let after = self.ranges.partition_point(|r| r.start <= address);
        let range = self.ranges[..after].last().filter(|r| address - r.start < r.size)?;
        let offset = address - range.start;
        let trap = range.traps.binary_search_by_key(&offset, |t| t.0 as usize).ok().map(|i| range.traps[i].1);
        Some(CodeLocation { function: &range.name, offset, trap, frame: &range.frame })
    }

    /// The code of a defined function, by name.
    pub fn function(&self, name: &str) -> Option<JitFunction> {
        self.functions.get(name).map(|f| f.1)
    }

    /// Calls function `name`, whose parameters and result are integers or pointers (or a void
    /// result, read as 0), with `args`, each truncated to its parameter's width. The result is
    /// sign-extended from its width. C's standard streams are flushed afterwards, so output the
    /// code wrote with `putchar` appears before whatever the caller prints next.
    ///
    /// # Safety
    /// Runs generated code: the IR must be free of undefined behaviour for these arguments.
    pub unsafe fn call_i64(&self, name: &str, args: &[i64]) -> Result<i64, CompileError> {
        let (id, code) = self.functions.get(name).ok_or_else(|| CallError::NoSuchFunction(name.to_string()))?;
        let (ret, params) = &self.signatures[id.0 as usize];
        let integer = |t: &Type| t.is_int() || t.is_ptr();
        if params.len() != args.len() {
            let function = name.to_string();
            return Err(CallError::ArgumentCount { function, params: params.len(), given: args.len() }.into());
        }
        if !params.iter().all(integer) || !(integer(ret) || *ret == Type::Void) || args.len() > 6 {
            return Err(CallError::Signature(name.to_string()).into());
        }
        // SAFETY: the caller's contract covers the module's constructors.
        unsafe { self.run_constructors() };
        let a = |i: usize| args.get(i).copied().unwrap_or(0);
        // Passing unused arguments is harmless in the C conventions of both targets.
        // SAFETY: the address is a finished function of this module with at most six integer
        // parameters (checked above) in the C convention.
        let f: extern "C" fn(i64, i64, i64, i64, i64, i64) -> i64 = unsafe { std::mem::transmute(code.address) };
        let raw = f(a(0), a(1), a(2), a(3), a(4), a(5));
        // SAFETY: fflush(NULL) flushes every C output stream; it has no other precondition.
        unsafe { fflush(std::ptr::null_mut()) };
        Ok(match ret {
            Type::Void => 0,
            Type::Int(1) => raw & 1,
            Type::Int(bits) if *bits < 64 => (raw << (64 - bits)) >> (64 - bits),
            _ => raw,
        })
    }
}

impl Drop for JitCode {
    /// Runs the static destructors of a module whose constructors ran (a program that started),
    /// before its code is freed.
    fn drop(&mut self) {
        if self.started.get() {
            // SAFETY: whoever ran the constructors (an unsafe call) accepted the module's behaviour,
            // its destructors' included.
            unsafe { self.run_destructors() };
        }
        // The destructors the code registered with `__cxa_atexit` run now, as `dlclose` runs a
        // library's, not at exit, when the code is gone.
        if let Some(finalize) = host_symbol("__cxa_finalize") {
            // SAFETY: `__cxa_finalize(void *dso)` runs the functions registered under `dso`, which
            // only this module's code can have used; none is a harmless call.
            unsafe {
                let finalize = std::mem::transmute::<*const u8, unsafe extern "C" fn(*const u8)>(finalize);
                finalize(&*self.dso_handle);
            }
        }
    }
}

/// The process's unwinder's registration of frame tables outside any loaded object: libgcc's
/// `__register_frame` and `__deregister_frame`, which C++'s and Rust's unwinding on Linux use.
#[derive(Clone, Copy)]
struct FrameRegistry {
    register: unsafe extern "C" fn(*const u8),
    deregister: unsafe extern "C" fn(*const u8),
}

impl FrameRegistry {
    fn find() -> Option<FrameRegistry> {
        let register = host_symbol("__register_frame")?;
        let deregister = host_symbol("__deregister_frame")?;
        // SAFETY: both are libgcc's functions of one `void *` argument.
        unsafe {
            Some(FrameRegistry {
                register: std::mem::transmute::<*const u8, unsafe extern "C" fn(*const u8)>(register),
                deregister: std::mem::transmute::<*const u8, unsafe extern "C" fn(*const u8)>(deregister),
            })
        }
    }

    /// Writes the `.eh_frame` of the finished functions `compiled` (at `address`) with the LSDAs of
    /// those with landing pads, and registers it, so that exceptions and backtraces pass through the
    /// code and land in its landing pads.
    fn register(
        self,
        module: &ir::Module,
        isa: &dyn cranelift_codegen::isa::TargetIsa,
        compiled: &[crate::compile::CompiledFunction],
        address: impl Fn(&crate::compile::CompiledFunction) -> *const u8,
        function_address: impl Fn(ir::FuncId) -> Option<u64>,
        typeinfo: impl Fn(ir::GlobalId) -> u64,
    ) -> Result<RegisteredFrames, CompileError> {
        let mut with_pads = Vec::new();
        let mut personalities = Vec::new();
        for f in compiled {
            let Some(e) = &f.exceptions else { continue };
            let personality = module.function(f.func).personality.as_ref().expect("verified: pads need a personality");
            let declared = module.function_by_name(&personality.name);
            let Some(personality_address) = declared.and_then(&function_address) else {
                let message = format!("personality '@{}' is not a function of this process", personality.name);
                return Err(module.error(personality.span, message).into());
            };
            with_pads.push(super::lsda::lsda(e, f.code.len() as u32));
            personalities.push(personality_address);
        }
        let lsdas = super::lsda::LsdasInMemory::place(&with_pads.iter().collect::<Vec<_>>(), typeinfo);
        let mut pads = personalities.iter().zip(&lsdas.addresses);
        let entries: Vec<super::eh_frame::MemoryFrameEntry<'_>> = compiled
            .iter()
            .filter_map(|f| {
                let unwind = f.unwind.as_ref()?;
                let exceptions = f.exceptions.as_ref().map(|_| {
                    let (&personality, &lsda) = pads.next().expect("one LSDA per function with pads");
                    (personality, lsda)
                });
                Some(super::eh_frame::MemoryFrameEntry { address: address(f) as u64, unwind, exceptions })
            })
            .collect();
        let eh_frame = super::eh_frame::in_memory(isa, &entries)?.unwrap_or_default().into_boxed_slice();
        if !eh_frame.is_empty() {
            // SAFETY: a complete table ended by a zero length, kept alive (with the LSDAs it points
            // at) until `RegisteredFrames` deregisters it.
            unsafe { (self.register)(eh_frame.as_ptr()) };
        }
        Ok(RegisteredFrames { registry: self, eh_frame, _lsdas: lsdas })
    }
}

/// A registered `.eh_frame` table and the LSDAs it points at.
struct RegisteredFrames {
    registry: FrameRegistry,
    eh_frame: Box<[u8]>,
    _lsdas: super::lsda::LsdasInMemory,
}

impl Drop for RegisteredFrames {
    fn drop(&mut self) {
        if !self.eh_frame.is_empty() {
            // SAFETY: registered by `FrameRegistry::register` with this address.
            unsafe { (self.registry.deregister)(self.eh_frame.as_ptr()) };
        }
    }
}
