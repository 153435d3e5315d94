//! Dynamic allocas: `alloca`s Cranelift cannot put in the frame (a run-time count, or an alloca
//! outside the entry block, which LLVM allocates anew each time it runs). Cranelift has no dynamic
//! stack allocation (it addresses stack and spill slots from SP, so SP cannot move in the body), so
//! they come from an *arena*, one per thread.
//!
//! # The arena
//! Each thread has a 32-byte [`ArenaState`]: `top` (first free byte), `limit` (end), `last` (the
//! newest frame header, or 0) and `base` (the memory, or 0 before first use). Objects keep it in a
//! thread-local variable (`.tbss`, reached with the ELF general-dynamic TLS model, which the linker
//! relaxes in executables); the JIT, which has no TLS, gets it from [`jit_thread_state`], a Rust
//! `thread_local!` the JIT module resolves `__patchmap_dynamic_stack_state` to. The memory itself
//! ([`ARENA_BYTES`], 8 MiB) is `malloc`ed on a thread's first use, so static TLS stays 32 bytes and
//! untouched pages cost nothing; it is freed at thread exit (objects: a destructor registered with
//! glibc's `__cxa_thread_atexit_impl`, imported weakly and skipped where the C library lacks it;
//! the JIT: the `thread_local!`'s destructor).
//!
//! # Frames
//! A function with dynamic allocas calls `__patchmap_dynamic_stack_enter(sp)` once on entry, with its
//! stack pointer. The helper (generated Cranelift code, defined locally in every output that needs
//! it) first *releases dead frames*, then pushes a 16-byte header `{prev, sp}` for the caller at the
//! (16-aligned) top and returns the state's address, or 0 when the arena cannot be had or is full
//! (the caller traps with `STACK_OVERFLOW`). The header's address is the frame's mark: each `alloca`
//! bumps `top` (aligned, checked against `limit`, a `STACK_OVERFLOW` trap past it, the byte size
//! checked before it can wrap), and each `ret` sets `top` back to the mark and `last` to `prev`.
//!
//! Releasing: the stack grows down, and a live frame of this thread is an ancestor of whatever runs
//! now, so its stack pointer is strictly above that of any function entered now. A recorded frame
//! whose `sp` is at or below the entering function's is therefore dead: it was left without
//! returning (an exit stub, a deopt, `longjmp`). `enter` pops such headers (the list is ordered, its
//! newest frame the deepest), setting `top` back to each popped mark, so an abandoned frame's space
//! comes back at the next entry at or above its stack pointer at the latest, and whatever returns
//! normally above it frees it too (its mark lies below). Frames keep their space for as long as they
//! are live, whatever the other threads do. A dead frame's allocas thus live exactly as long as its
//! stack memory would: an exit handler running below the stopped frame (as `examples/deopt`'s does,
//! resuming the function in the interpreter with the values read from it) can still use them, and
//! so can compiled code it calls, whose entries lie below too.
//!
//! Limits: code with dynamic allocas must run on its thread's own stack (a signal handler on an
//! alternate stack above the thread's stack, or a coroutine on another stack, would see the frames
//! of the interrupted code as dead); the helper is not async-signal-safe.
//!
//! # Cost
//! Functions without dynamic allocas: none. With them, on entry in the function: reading SP, the
//! call, a null check and a load (the header), 5 instructions on x86-64; in `enter` on the common
//! path (nothing to release, the arena there), about 45 on x86-64 with its prologue and epilogue
//! (objects: the TLS access is `mov %fs:0` and a `lea` after the linker's relaxation in executables,
//! a `__tls_get_addr` call in shared objects; JIT: a call into Rust instead), plus one compare and
//! pop per dead frame released. Each `ret`: a load and two stores. Each `alloca`: two loads, the
//! alignment, two compares and a store. The slow paths (`malloc`, the destructor's registration,
//! failure) are cold blocks.

use std::cell::UnsafeCell;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{
    self as clif, AbiParam, ExtFuncData, ExternalName, GlobalValueData, InstBuilder, MemFlagsData, Signature,
    UserExternalName, UserFuncName,
};
use cranelift_codegen::isa::CallConv;
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_module::{DataDescription, DataId, FuncId, FuncOrDataId, Linkage, Module};

use super::symbols::HelperError;
use super::{DATA_NAMESPACE, FUNCTION_NAMESPACE};
use crate::ir::{self, IrError};

/// Bytes of each thread's arena.
pub const ARENA_BYTES: u64 = 8 << 20;

/// The helper a function with dynamic allocas calls on entry.
pub const ENTER: &str = "__patchmap_dynamic_stack_enter";
/// The thread's [`ArenaState`]: a TLS variable in objects, a function returning its address in the JIT.
pub const STATE: &str = "__patchmap_dynamic_stack_state";
/// Objects: the thread-exit destructor that frees the arena.
const RELEASE: &str = "__patchmap_dynamic_stack_release";

/// Offsets in [`ArenaState`].
pub(super) const TOP: i32 = 0;
pub(super) const LIMIT: i32 = 8;
pub(super) const LAST: i32 = 16;
const BASE: i32 = 24;
const STATE_BYTES: usize = 32;
/// Offsets in a frame header, and its size (which keeps the top 16-aligned after a push).
pub(super) const HEADER_PREV: i32 = 0;
const HEADER_SP: i32 = 8;
const HEADER_BYTES: i64 = 16;

/// One thread's arena, as the generated code reads and writes it (all addresses; 0 before first use).
#[repr(C)]
#[derive(Debug)]
pub struct ArenaState {
    /// The first free byte.
    pub top: usize,
    /// The end of the arena.
    pub limit: usize,
    /// The newest frame header, or 0.
    pub last: usize,
    /// The `malloc`ed memory, or 0.
    pub base: usize,
}

const _: () = {
    assert!(std::mem::offset_of!(ArenaState, top) == TOP as usize);
    assert!(std::mem::offset_of!(ArenaState, limit) == LIMIT as usize);
    assert!(std::mem::offset_of!(ArenaState, last) == LAST as usize);
    assert!(std::mem::offset_of!(ArenaState, base) == BASE as usize);
    assert!(std::mem::size_of::<ArenaState>() == STATE_BYTES);
};

/// The JIT's per-thread state; frees the arena when the thread ends.
struct ThreadArena(UnsafeCell<ArenaState>);

impl Drop for ThreadArena {
    fn drop(&mut self) {
        let state = self.0.get_mut();
        if state.base != 0 {
            // SAFETY: `base` came from the C library's `malloc` (called by the generated helper), and
            // nothing of this thread runs generated code any more.
            unsafe { libc::free(state.base as *mut libc::c_void) };
        }
        *state = ArenaState { top: 0, limit: 0, last: 0, base: 0 };
    }
}

thread_local! {
    static ARENA: ThreadArena = const { ThreadArena(UnsafeCell::new(ArenaState { top: 0, limit: 0, last: 0, base: 0 })) };
}

/// The calling thread's arena state, for JIT code (`__patchmap_dynamic_stack_state`); null once the
/// thread's locals are being destroyed (the helper then fails, and the caller traps).
pub extern "C" fn jit_thread_state() -> *mut ArenaState {
    ARENA.try_with(|a| a.0.get()).unwrap_or(std::ptr::null_mut())
}

/// The helper and what it uses, declared in an output whose module has dynamic allocas.
#[derive(Clone, Copy, Debug)]
pub struct Helpers {
    /// `__patchmap_dynamic_stack_enter`, which functions with dynamic allocas call.
    pub enter: FuncId,
    state: State,
    malloc: FuncId,
    /// Objects: `__cxa_thread_atexit_impl` (to be made a weak symbol) and the destructor.
    thread_exit: Option<(FuncId, FuncId, FuncId)>,
}

impl Helpers {
    /// Objects: the symbol of `__cxa_thread_atexit_impl`, which the emitter makes weak so that a C
    /// library without it links (the arena then outlives its thread).
    pub fn weak_import(&self) -> Option<FuncId> {
        self.thread_exit.map(|t| t.0)
    }
}

#[derive(Clone, Copy, Debug)]
enum State {
    Tls(DataId),
    Function(FuncId),
}

/// Declares the helpers in `out`: for an object (`object`: a TLS variable, the destructor) or the JIT.
pub(super) fn declare(module: &ir::Module, out: &mut dyn Module, object: bool) -> Result<Helpers, IrError> {
    let call_conv = out.isa().default_call_conv();
    let error = |name: &str, e: &dyn std::fmt::Display| {
        module.error(ir::Span::default(), format!("cannot declare '{name}': {e}"))
    };
    let enter = out.declare_function(ENTER, Linkage::Local, &sig(call_conv, 1, true)).map_err(|e| error(ENTER, &e))?;
    let malloc = import(module, out, "malloc", &sig(call_conv, 1, true))?;
    if !object {
        let state =
            out.declare_function(STATE, Linkage::Import, &sig(call_conv, 0, true)).map_err(|e| error(STATE, &e))?;
        return Ok(Helpers { enter, state: State::Function(state), malloc, thread_exit: None });
    }
    let state = out.declare_data(STATE, Linkage::Local, true, true).map_err(|e| error(STATE, &e))?;
    let mut data = DataDescription::new();
    data.define_zeroinit(STATE_BYTES);
    data.set_align(8);
    out.define_data(state, &data)
        .map_err(|e| module.error(ir::Span::default(), format!("cannot define '{STATE}': {e}")))?;
    let atexit = import(module, out, "__cxa_thread_atexit_impl", &sig(call_conv, 3, true))?;
    let free = import(module, out, "free", &sig(call_conv, 1, false))?;
    let release =
        out.declare_function(RELEASE, Linkage::Local, &sig(call_conv, 1, false)).map_err(|e| error(RELEASE, &e))?;
    Ok(Helpers { enter, state: State::Tls(state), malloc, thread_exit: Some((atexit, free, release)) })
}

/// A C library function: the module's own declaration or definition of it when it has one (whatever
/// its IR signature: calls use their own), else an import.
fn import(module: &ir::Module, out: &mut dyn Module, name: &str, signature: &Signature) -> Result<FuncId, IrError> {
    match out.get_name(name) {
        Some(FuncOrDataId::Func(id)) => Ok(id),
        Some(FuncOrDataId::Data(_)) => Err(module.error(
            ir::Span::default(),
            format!("global '@{name}' hides the C library function dynamic allocas need; rename it"),
        )),
        None => out
            .declare_function(name, Linkage::Import, signature)
            .map_err(|e| module.error(ir::Span::default(), format!("cannot import '{name}': {e}"))),
    }
}

/// A signature of `params` i64 parameters and an optional i64 result.
pub(super) fn sig(call_conv: CallConv, params: usize, result: bool) -> Signature {
    let mut s = Signature::new(call_conv);
    s.params.extend((0..params).map(|_| AbiParam::new(I64)));
    if result {
        s.returns.push(AbiParam::new(I64));
    }
    s
}

/// Defines the helpers declared by [`declare`]. `colocated`: whether calls may be PC-relative
/// (objects), as [`super::Symbols::colocated`].
pub(super) fn define(helpers: &Helpers, out: &mut dyn Module, colocated: bool) -> Result<(), HelperError> {
    let (call_conv, config) = (out.isa().default_call_conv(), out.isa().frontend_config());
    let mut ctx = Context::new();
    let mut fctx = FunctionBuilderContext::new();
    ctx.func.signature = sig(call_conv, 1, true);
    ctx.func.name = UserFuncName::user(FUNCTION_NAMESPACE, helpers.enter.as_u32());
    build_enter(helpers, FunctionBuilder::new(&mut ctx.func, &mut fctx), call_conv, config, colocated);
    out.define_function(helpers.enter, &mut ctx)
        .map_err(|source| HelperError { name: ENTER.to_string(), source: Box::new(source) })?;
    if let Some((_, free, release)) = helpers.thread_exit {
        ctx.clear();
        ctx.func.signature = sig(call_conv, 1, false);
        ctx.func.name = UserFuncName::user(FUNCTION_NAMESPACE, release.as_u32());
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        let block = b.create_block();
        b.append_block_params_for_function_params(block);
        b.switch_to_block(block);
        let state = b.block_params(block)[0];
        let flags = MemFlagsData::trusted();
        let base = b.ins().load(I64, flags, state, BASE);
        let zero = b.ins().iconst(I64, 0);
        for offset in [TOP, LIMIT, LAST, BASE] {
            b.ins().store(flags, zero, state, offset);
        }
        let free = import_function(&mut b, free, sig(call_conv, 1, false), colocated);
        b.ins().call(free, &[base]);
        b.ins().return_(&[]);
        b.seal_all_blocks();
        b.finalize(config);
        out.define_function(release, &mut ctx)
            .map_err(|source| HelperError { name: RELEASE.to_string(), source: Box::new(source) })?;
    }
    Ok(())
}

fn import_function(b: &mut FunctionBuilder, id: FuncId, signature: Signature, colocated: bool) -> clif::FuncRef {
    let signature = b.import_signature(signature);
    let name = b.func.declare_imported_user_function(UserExternalName::new(FUNCTION_NAMESPACE, id.as_u32()));
    b.import_function(ExtFuncData { name: ExternalName::user(name), signature, colocated, patchable: false })
}

/// `__patchmap_dynamic_stack_enter(sp) -> state or 0`: see the module's documentation.
fn build_enter(
    helpers: &Helpers,
    mut b: FunctionBuilder,
    call_conv: CallConv,
    config: cranelift_codegen::isa::TargetFrontendConfig,
    colocated: bool,
) {
    let flags = MemFlagsData::trusted();
    let entry = b.create_block();
    let release = b.create_block();
    let check = b.create_block();
    let pop = b.create_block();
    let ready = b.create_block();
    let init = b.create_block();
    let got = b.create_block();
    let push = b.create_block();
    let store = b.create_block();
    let fail = b.create_block();
    for block in [init, got, fail] {
        b.set_cold_block(block);
    }
    b.append_block_params_for_function_params(entry);
    b.append_block_param(release, I64);
    b.append_block_param(check, I64);
    b.append_block_param(pop, I64);
    b.append_block_param(ready, I64);
    b.append_block_param(push, I64);
    b.append_block_param(push, I64);

    b.switch_to_block(entry);
    let sp = b.block_params(entry)[0];
    let state = match helpers.state {
        State::Tls(data) => {
            let name = b.func.declare_imported_user_function(UserExternalName::new(DATA_NAMESPACE, data.as_u32()));
            let gv = b.create_global_value(GlobalValueData::Symbol {
                name: ExternalName::user(name),
                offset: 0.into(),
                colocated: true,
                tls: true,
            });
            b.ins().tls_value(I64, gv)
        }
        State::Function(f) => {
            let f = import_function(&mut b, f, sig(call_conv, 0, true), colocated);
            let call = b.ins().call(f, &[]);
            b.inst_results(call)[0]
        }
    };
    if let State::Function(_) = helpers.state {
        // Null once the thread's locals are gone (a TLS variable's address never is).
        let known = b.create_block();
        b.ins().brif(state, known, &[], fail, &[]);
        b.switch_to_block(known);
    }
    let last = b.ins().load(I64, flags, state, LAST);
    b.ins().jump(release, &[last.into()]);

    // Pop the headers of dead frames: the newest first, while at or below `sp`.
    b.switch_to_block(release);
    let header = b.block_params(release)[0];
    b.ins().brif(header, check, &[header.into()], ready, &[header.into()]);
    b.switch_to_block(check);
    let header = b.block_params(check)[0];
    let header_sp = b.ins().load(I64, flags, header, HEADER_SP);
    let dead = b.ins().icmp(IntCC::UnsignedLessThanOrEqual, header_sp, sp);
    b.ins().brif(dead, pop, &[header.into()], ready, &[header.into()]);
    b.switch_to_block(pop);
    let header = b.block_params(pop)[0];
    let prev = b.ins().load(I64, flags, header, HEADER_PREV);
    b.ins().store(flags, header, state, TOP);
    b.ins().store(flags, prev, state, LAST);
    b.ins().jump(release, &[prev.into()]);

    // The arena, allocated on the thread's first use.
    b.switch_to_block(ready);
    let last = b.block_params(ready)[0];
    let top = b.ins().load(I64, flags, state, TOP);
    b.ins().brif(top, push, &[top.into(), last.into()], init, &[]);
    b.switch_to_block(init);
    let malloc = import_function(&mut b, helpers.malloc, sig(call_conv, 1, true), colocated);
    let bytes = b.ins().iconst(I64, ARENA_BYTES as i64);
    let call = b.ins().call(malloc, &[bytes]);
    let base = b.inst_results(call)[0];
    b.ins().brif(base, got, &[], fail, &[]);
    b.switch_to_block(got);
    let limit = b.ins().iadd_imm_s(base, ARENA_BYTES as i64);
    b.ins().store(flags, base, state, BASE);
    b.ins().store(flags, limit, state, LIMIT);
    b.ins().store(flags, base, state, TOP);
    let zero = b.ins().iconst(I64, 0);
    if let Some((atexit, _, release)) = helpers.thread_exit {
        // Weak: 0 where the C library has no `__cxa_thread_atexit_impl`.
        let atexit = import_function(&mut b, atexit, sig(call_conv, 3, true), false);
        let atexit = b.ins().func_addr(I64, atexit);
        let register = b.create_block();
        b.set_cold_block(register);
        b.ins().brif(atexit, register, &[], push, &[base.into(), zero.into()]);
        b.switch_to_block(register);
        let release = import_function(&mut b, release, sig(call_conv, 1, false), colocated);
        let release = b.ins().func_addr(I64, release);
        let sig_ref = b.import_signature(sig(call_conv, 3, true));
        // The "DSO symbol" (C++ passes `&__dso_handle`): any address in the object that holds the
        // destructor, which glibc keeps loaded while the destructor is pending.
        b.ins().call_indirect(sig_ref, atexit, &[release, state, release]);
    }
    b.ins().jump(push, &[base.into(), zero.into()]);

    // Push the caller's header at the 16-aligned top.
    b.switch_to_block(push);
    let (top, last) = (b.block_params(push)[0], b.block_params(push)[1]);
    let rounded = b.ins().iadd_imm_s(top, HEADER_BYTES - 1);
    let header = b.ins().band_imm_s(rounded, -HEADER_BYTES);
    let new_top = b.ins().iadd_imm_s(header, HEADER_BYTES);
    let limit = b.ins().load(I64, flags, state, LIMIT);
    let full = b.ins().icmp(IntCC::UnsignedGreaterThan, new_top, limit);
    b.ins().brif(full, fail, &[], store, &[]);
    b.switch_to_block(store);
    b.ins().store(flags, last, header, HEADER_PREV);
    b.ins().store(flags, sp, header, HEADER_SP);
    b.ins().store(flags, new_top, state, TOP);
    b.ins().store(flags, header, state, LAST);
    b.ins().return_(&[state]);

    b.switch_to_block(fail);
    let zero = b.ins().iconst(I64, 0);
    b.ins().return_(&[zero]);
    b.seal_all_blocks();
    b.finalize(config);
}
