//! Compiling from C: IR text or a file to a relocatable object in memory (`PatchmapBuffer`), or to
//! JIT code in this process (`PatchmapJit`) whose declared functions and globals a C callback
//! resolves. Needs the `compiler` feature (on by default); the header guards these declarations
//! with `PATCHMAP_COMPILER`, which `patchmap.pc` defines.

use std::ffi::{c_char, c_void, CStr, CString};
use std::path::Path;

use patchmap::compile::{CompileError, Options};
use patchmap::emit::jit::JitCode;
use patchmap::ir::{self, Module};
use patchmap::stackmap::Version;

use crate::{fail, guarded, put, size_t, PatchmapStatus};

/// How to compile; a null `const PatchmapCompileOptions *` means every default.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PatchmapCompileOptions {
    /// A target triple or `"x86_64"`, `"aarch64"`; null: the module's `target triple`, else the host.
    /// JIT code is always the host's.
    pub target: *const c_char,
    /// `"speed"` (null: this) or `"none"`.
    pub opt_level: *const c_char,
    /// The section's version: 1, 2 or 3 (0: 3, as LLVM 19), or 0x72 (`'r'`) for the frame-table
    /// layout.
    pub stackmap_version: u32,
    /// llc-19's `-max-registers-for-gc-values` (0: every GC pointer in a frame slot).
    pub max_registers_for_gc_values: u32,
    /// llc-19's `-use-registers-for-deopt-values`.
    pub use_registers_for_deopt_values: bool,
}

/// Bytes the library made (an object file): free with `patchmap_buffer_free`.
pub struct PatchmapBuffer {
    bytes: Vec<u8>,
}

/// A symbol resolver for JIT code: the address of `name` (a function or global the module declares
/// but does not define), or null for "not mine", which leaves it to the library's defaults (this
/// process's symbols, then the C math library).
pub type PatchmapResolve = Option<unsafe extern "C" fn(context: *mut c_void, name: *const c_char) -> *const c_void>;

/// A module compiled into this process's executable memory, with its stack map section (absolute
/// addresses) and its records' patch sites. The code lives until `patchmap_jit_free`.
pub struct PatchmapJit {
    code: JitCode,
}

/// A record's site in JIT code (`patchmap_jit_site`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PatchmapSite {
    /// The record's ID.
    pub id: u64,
    /// The record's index in the section.
    pub record: size_t,
    /// The point: a stack map's address, a patch point region's first byte, a statepoint's return
    /// address.
    pub address: *mut u8,
    /// Bytes from `address` a runtime may overwrite: the stack map's shadow, the patch point's
    /// region (0 for statepoints).
    pub len: size_t,
    /// Whether those bytes are reserved for patching (a patch point's region). A stack map's shadow
    /// may hold the code after the point: overwrite it only to leave the function there.
    pub reserved: bool,
}

/// The C string at `text`, or an error naming `what`.
///
/// # Safety
/// `text` is null or a NUL-terminated string.
unsafe fn c_str<'a>(text: *const c_char, what: &str) -> Result<Option<&'a str>, PatchmapStatus> {
    if text.is_null() {
        return Ok(None);
    }
    // SAFETY: the caller vouches for the string.
    match unsafe { CStr::from_ptr(text) }.to_str() {
        Ok(s) => Ok(Some(s)),
        Err(e) => Err(fail(PatchmapStatus::InvalidArgument, format!("{what} is not UTF-8: {e}"))),
    }
}

/// The library's options for the C ones.
///
/// # Safety
/// `options` is null or valid for a read, its strings null or NUL-terminated.
unsafe fn options(options: *const PatchmapCompileOptions) -> Result<Options, PatchmapStatus> {
    // SAFETY: the caller vouches for the pointer.
    let Some(o) = (unsafe { options.as_ref() }) else {
        return Ok(Options::default().with_stackmap_version(Version::V3));
    };
    // SAFETY: as above, for the strings.
    let (target, opt) = unsafe { (c_str(o.target, "the target")?, c_str(o.opt_level, "the opt level")?) };
    let version = match o.stackmap_version {
        0 | 3 => Version::V3,
        1 => Version::V1,
        2 => Version::V2,
        0x72 => Version::FrameTable,
        other => return Err(fail(PatchmapStatus::InvalidArgument, format!("unknown stack map version {other}"))),
    };
    let options = Options::new(target, opt.unwrap_or("speed"), 3)
        .map_err(|e| fail(PatchmapStatus::InvalidArgument, e.to_string()))?;
    Ok(options
        .with_stackmap_version(version)
        .with_max_registers_for_gc_values(o.max_registers_for_gc_values)
        .with_registers_for_deopt_values(o.use_registers_for_deopt_values))
}

/// The verified module of `len` bytes of IR text at `text`, errors naming `name`.
///
/// # Safety
/// `text` is valid for `len` bytes; `name` is null or NUL-terminated.
unsafe fn module_of_text(text: *const u8, len: size_t, name: *const c_char) -> Result<Module, PatchmapStatus> {
    if text.is_null() {
        return Err(fail(PatchmapStatus::InvalidArgument, "null IR text"));
    }
    // SAFETY: the caller vouches for both.
    let (bytes, name) = unsafe { (std::slice::from_raw_parts(text, len), c_str(name, "the name")?) };
    let name = name.unwrap_or("<input>");
    let text = std::str::from_utf8(bytes).map_err(|e| {
        fail(PatchmapStatus::Compile, format!("{name}: byte {}: the IR text is not UTF-8", e.valid_up_to()))
    })?;
    verified(ir::parse(name, text))
}

/// The verified module of the IR file at `path`.
///
/// # Safety
/// `path` is null or NUL-terminated.
unsafe fn module_of_file(path: *const c_char) -> Result<Module, PatchmapStatus> {
    // SAFETY: the caller vouches for the string.
    let Some(path) = (unsafe { c_str(path, "the path")? }) else {
        return Err(fail(PatchmapStatus::InvalidArgument, "null path"));
    };
    verified(ir::parse_file(Path::new(path)))
}

fn verified(module: Result<Module, ir::IrError>) -> Result<Module, PatchmapStatus> {
    let module = module.map_err(|e| fail(PatchmapStatus::Compile, e.to_string()))?;
    ir::verify(&module).map_err(|e| fail(PatchmapStatus::Compile, e.to_string()))?;
    Ok(module)
}

fn compile_failed(e: CompileError) -> PatchmapStatus {
    fail(PatchmapStatus::Compile, e.to_string())
}

fn object(
    module: Result<Module, PatchmapStatus>,
    options: Result<Options, PatchmapStatus>,
) -> Result<Vec<u8>, PatchmapStatus> {
    patchmap::emit::object::compile(&module?, &options?).map_err(compile_failed)
}

/// Compiles `len` bytes of IR text at `text` to a relocatable object (ELF) for `options`' target.
/// `name` (null: `"<input>"`) is the file name errors begin with (`name:line:col: ...`). On success
/// `*out` is a new buffer (free it with `patchmap_buffer_free`); `PATCHMAP_STATUS_COMPILE` when the IR
/// is invalid or unsupported.
///
/// # Safety
/// `text` is valid for reads of `len` bytes; `name` is null or NUL-terminated; `options` is null or
/// valid; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_compile_object(
    text: *const u8,
    len: size_t,
    name: *const c_char,
    options: *const PatchmapCompileOptions,
    out: *mut *mut PatchmapBuffer,
) -> PatchmapStatus {
    guarded(|| {
        // SAFETY: the caller vouches for every pointer.
        unsafe {
            match object(module_of_text(text, len, name), self::options(options)) {
                Ok(bytes) => put(out, Box::into_raw(Box::new(PatchmapBuffer { bytes }))),
                Err(status) => status,
            }
        }
    })
}

/// `patchmap_compile_object` for the IR file at `path`.
///
/// # Safety
/// `path` is null or NUL-terminated; `options` is null or valid; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_compile_object_file(
    path: *const c_char,
    options: *const PatchmapCompileOptions,
    out: *mut *mut PatchmapBuffer,
) -> PatchmapStatus {
    guarded(|| {
        // SAFETY: the caller vouches for every pointer.
        unsafe {
            match object(module_of_file(path), self::options(options)) {
                Ok(bytes) => put(out, Box::into_raw(Box::new(PatchmapBuffer { bytes }))),
                Err(status) => status,
            }
        }
    })
}

/// The buffer's bytes (valid until it is freed).
///
/// # Safety
/// `buffer` is a live buffer.
#[no_mangle]
pub unsafe extern "C" fn patchmap_buffer_data(buffer: *const PatchmapBuffer) -> *const u8 {
    crate::caught(std::ptr::null(), || {
        // SAFETY: the caller vouches for the handle (null: null).
        unsafe { buffer.as_ref() }.map_or(std::ptr::null(), |b| b.bytes.as_ptr())
    })
}

/// The buffer's length in bytes.
///
/// # Safety
/// `buffer` is a live buffer.
#[no_mangle]
pub unsafe extern "C" fn patchmap_buffer_len(buffer: *const PatchmapBuffer) -> size_t {
    crate::caught(0, || {
        // SAFETY: as above.
        unsafe { buffer.as_ref() }.map_or(0, |b| b.bytes.len())
    })
}

/// Frees a buffer (null: nothing).
///
/// # Safety
/// `buffer` is null or a buffer not yet freed, which no thread uses.
#[no_mangle]
pub unsafe extern "C" fn patchmap_buffer_free(buffer: *mut PatchmapBuffer) {
    // SAFETY: the caller vouches for the handle (see above).
    unsafe { crate::free_boxed(buffer) }
}

/// JIT-compiles `module` with `resolve` asked first for each name it declares.
///
/// # Safety
/// `resolve` is sound to call with `context` during the call.
unsafe fn jit(
    module: Result<Module, PatchmapStatus>,
    options: Result<Options, PatchmapStatus>,
    resolve: PatchmapResolve,
    context: *mut c_void,
) -> Result<PatchmapJit, PatchmapStatus> {
    let (module, options) = (module?, options?);
    let mut symbols: Vec<(String, *const u8)> = Vec::new();
    if let Some(resolve) = resolve {
        // Intrinsics are the compiler's own, never a symbol.
        let declared =
            module.functions.iter().filter(|f| !f.emits_code() && !f.name.starts_with("llvm.")).map(|f| &f.name);
        let globals = module.globals.iter().filter(|g| g.init.is_none()).map(|g| &g.name);
        for name in declared.chain(globals) {
            let Ok(c_name) = CString::new(name.as_str()) else { continue };
            // SAFETY: the caller vouches for the callback and its context.
            let address = unsafe { resolve(context, c_name.as_ptr()) };
            if !address.is_null() {
                symbols.push((name.clone(), address as *const u8));
            }
        }
    }
    let symbols: Vec<(&str, *const u8)> = symbols.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let code = JitCode::compile_with_symbols(&module, &options, &symbols).map_err(compile_failed)?;
    Ok(PatchmapJit { code })
}

/// Compiles `len` bytes of IR text at `text` into executable memory of this process (the host's
/// target; `options->target` must be null or the host's). Each function or global the module
/// declares without defining goes to `resolve(context, name)` first (`resolve` may be null); a null
/// answer leaves it to this process's symbols. On success `*out` is a new handle (free it with
/// `patchmap_jit_free`, which unmaps the code).
///
/// # Safety
/// As `patchmap_compile_object`; `resolve` is null or sound to call with `context` during the call.
#[no_mangle]
pub unsafe extern "C" fn patchmap_jit_compile(
    text: *const u8,
    len: size_t,
    name: *const c_char,
    options: *const PatchmapCompileOptions,
    resolve: PatchmapResolve,
    context: *mut c_void,
    out: *mut *mut PatchmapJit,
) -> PatchmapStatus {
    guarded(|| {
        if out.is_null() {
            return fail(PatchmapStatus::InvalidArgument, "patchmap_jit_compile: null out");
        }
        // SAFETY: the caller vouches for every pointer and the callback.
        unsafe {
            match jit(module_of_text(text, len, name), self::options(options), resolve, context) {
                Ok(jit) => put(out, Box::into_raw(Box::new(jit))),
                Err(status) => status,
            }
        }
    })
}

/// `patchmap_jit_compile` for the IR file at `path`.
///
/// # Safety
/// As `patchmap_jit_compile`.
#[no_mangle]
pub unsafe extern "C" fn patchmap_jit_compile_file(
    path: *const c_char,
    options: *const PatchmapCompileOptions,
    resolve: PatchmapResolve,
    context: *mut c_void,
    out: *mut *mut PatchmapJit,
) -> PatchmapStatus {
    guarded(|| {
        if out.is_null() {
            return fail(PatchmapStatus::InvalidArgument, "patchmap_jit_compile_file: null out");
        }
        // SAFETY: as above.
        unsafe {
            match jit(module_of_file(path), self::options(options), resolve, context) {
                Ok(jit) => put(out, Box::into_raw(Box::new(jit))),
                Err(status) => status,
            }
        }
    })
}

/// Frees JIT code (null: nothing): its memory is unmapped, so nothing may run it any more.
///
/// # Safety
/// `jit` is null or a handle not yet freed, whose code no thread runs.
#[no_mangle]
pub unsafe extern "C" fn patchmap_jit_free(jit: *mut PatchmapJit) {
    // SAFETY: the caller vouches for the handle (see above).
    unsafe { crate::free_boxed(jit) }
}

/// Runs `f` on the handle, or fails for a null one.
///
/// # Safety
/// `jit` is null or a live handle.
unsafe fn with_jit(jit: *const PatchmapJit, f: impl FnOnce(&JitCode) -> PatchmapStatus) -> PatchmapStatus {
    guarded(|| {
        // SAFETY: the caller vouches for the handle.
        match unsafe { jit.as_ref() } {
            Some(j) => f(&j.code),
            None => fail(PatchmapStatus::InvalidArgument, "a null JIT handle"),
        }
    })
}

/// The address and code size of the defined function `name` (size may be null);
/// `PATCHMAP_STATUS_OUT_OF_RANGE` if the module defines no such function.
///
/// # Safety
/// `jit` is a live handle; `name` is NUL-terminated; `address` is valid for a write, `size` null or
/// valid.
#[no_mangle]
pub unsafe extern "C" fn patchmap_jit_function(
    jit: *const PatchmapJit,
    name: *const c_char,
    address: *mut *const c_void,
    size: *mut size_t,
) -> PatchmapStatus {
    // SAFETY: the caller vouches for every pointer.
    unsafe {
        with_jit(jit, |code| {
            let name = match c_str(name, "the function name") {
                Ok(Some(name)) => name,
                Ok(None) => return fail(PatchmapStatus::InvalidArgument, "a null function name"),
                Err(status) => return status,
            };
            let Some(f) = code.function(name) else {
                return fail(PatchmapStatus::OutOfRange, format!("the module defines no function '{name}'"));
            };
            if !size.is_null() {
                size.write(f.size);
            }
            put(address, f.address as *const c_void)
        })
    }
}

/// The module's stack map section, with the functions' absolute addresses, in the options' version
/// (`*len` 0 when the module has no records): parse it with `patchmap_stackmap_parse` and the same
/// version. The bytes belong to the handle.
///
/// # Safety
/// `jit` is a live handle; `data` and `len` are valid for writes.
#[no_mangle]
pub unsafe extern "C" fn patchmap_jit_stackmap_section(
    jit: *const PatchmapJit,
    data: *mut *const u8,
    len: *mut size_t,
) -> PatchmapStatus {
    // SAFETY: the caller vouches for every pointer.
    unsafe {
        with_jit(jit, |code| {
            let section = code.stack_map_section();
            match put(len, section.len()) {
                PatchmapStatus::Ok => put(data, section.as_ptr()),
                status => status,
            }
        })
    }
}

/// How many records (and so sites) the module has.
///
/// # Safety
/// `jit` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn patchmap_jit_num_sites(jit: *const PatchmapJit) -> size_t {
    crate::caught(0, || {
        // SAFETY: the caller vouches for the handle (null: 0).
        unsafe { jit.as_ref() }.map_or(0, |j| j.code.sites().len())
    })
}

/// The site of record `index` (section order): its absolute address and what may be overwritten
/// there.
///
/// # Safety
/// `jit` is a live handle; `out` is valid for a write.
#[no_mangle]
pub unsafe extern "C" fn patchmap_jit_site(
    jit: *const PatchmapJit,
    index: size_t,
    out: *mut PatchmapSite,
) -> PatchmapStatus {
    // SAFETY: the caller vouches for every pointer.
    unsafe {
        with_jit(jit, |code| match code.sites().get(index) {
            Some(s) => put(
                out,
                PatchmapSite { id: s.id, record: s.record, address: s.address, len: s.len, reserved: s.reserved },
            ),
            None => crate::out_of_range("site", index, code.sites().len()),
        })
    }
}
