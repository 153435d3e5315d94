//! Calls from interpreted code into the process's own code: a declared function found by name with
//! `dlsym`, or an address that is no interpreted function. Only the signatures whose C calling
//! convention is the same for every argument kind are supported: at most six integer or pointer
//! arguments (each in a 64-bit argument register), an integer, pointer or void result, no varargs.

use std::ffi::{c_char, c_void, CString};

use crate::ir::{Operand, Type};

extern "C" {
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    fn fflush(stream: *mut c_void) -> i32;
}

#[cfg(target_os = "macos")]
const RTLD_DEFAULT: *mut c_void = -2isize as *mut c_void;
#[cfg(not(target_os = "macos"))]
const RTLD_DEFAULT: *mut c_void = std::ptr::null_mut();

/// The address of the process's symbol `name`, if it has one.
pub fn symbol(name: &str) -> Option<u64> {
    let name = CString::new(name).ok()?;
    // SAFETY: dlsym only reads the NUL-terminated name.
    let address = unsafe { dlsym(RTLD_DEFAULT, name.as_ptr()) };
    (!address.is_null()).then_some(address as u64)
}

/// Why a call with this signature cannot go to native code, if it cannot.
pub fn unsupported(ret: &Type, args: &[Operand], varargs: bool) -> Option<String> {
    let integer = |t: &Type| t.is_int() || *t == Type::Ptr;
    if varargs {
        Some("it is variadic".to_string())
    } else if let Some(a) = args.iter().find(|a| !integer(&a.ty)) {
        Some(format!("it takes a {} argument", a.ty))
    } else if args.len() > 6 {
        Some(format!("it takes {} arguments", args.len()))
    } else if !(integer(ret) || *ret == Type::Void) {
        Some(format!("it returns {ret}"))
    } else {
        None
    }
}

/// Calls the C function at `address` with `args` and returns its raw result register.
///
/// # Safety
/// `address` must be a function that is safe to call with these arguments, and the signature must
/// have passed [`unsupported`].
pub unsafe fn call(address: u64, args: &[u64]) -> u64 {
    let a = |i: usize| args.get(i).copied().unwrap_or(0);
    // Passing unused argument registers is harmless in the C conventions of both targets.
    // SAFETY: per the function's contract, a function callable with these integer arguments.
    let f: extern "C" fn(u64, u64, u64, u64, u64, u64) -> u64 = unsafe { std::mem::transmute(address as *const u8) };
    let result = f(a(0), a(1), a(2), a(3), a(4), a(5));
    // C's stdout is buffered apart from the interpreter's output: flush it to keep their order.
    // SAFETY: fflush(NULL) flushes every C output stream; it has no other precondition.
    unsafe { fflush(std::ptr::null_mut()) };
    result
}
