//! Calls from interpreted code into the process's own code: a declared function found by name with
//! `dlsym`, or an address that is no interpreted function. Only the signatures whose C calling
//! convention passes every argument in a register or an 8-byte stack slot are supported: integer,
//! pointer and floating-point arguments (up to 16 beyond the registers), variadic or not, and a
//! scalar or void result.

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

/// Integer argument registers of the host's C convention.
const INT_REGISTERS: usize = if cfg!(target_arch = "aarch64") { 8 } else { 6 };
/// Floating-point argument registers of both conventions.
const FLOAT_REGISTERS: usize = 8;
/// Arguments beyond the registers, passed on the stack.
const STACK_ARGUMENTS: usize = 16;

/// Why a call with this signature cannot go to native code, if it cannot.
pub fn unsupported(ret: &Type, args: &[Operand]) -> Option<String> {
    let integer = |t: &Type| t.is_int() || t.is_ptr();
    let ints = args.iter().filter(|a| integer(&a.ty)).count();
    let floats = args.iter().filter(|a| a.ty.is_float()).count();
    let on_stack = ints.saturating_sub(INT_REGISTERS) + floats.saturating_sub(FLOAT_REGISTERS);
    if let Some(a) = args.iter().find(|a| !integer(&a.ty) && !a.ty.is_float()) {
        Some(format!("it takes a {} argument", a.ty))
    } else if on_stack > STACK_ARGUMENTS {
        Some(format!("it takes {} arguments", args.len()))
    } else if !(integer(ret) || ret.is_float() || *ret == Type::Void) {
        Some(format!("it returns {ret}"))
    } else {
        None
    }
}

/// Calls the C function at `address` with `args` (of the types of `operands`) and returns its raw
/// result register (`ret` says which).
///
/// The call goes through a C-variadic function pointer with every argument register filled, then
/// the stack arguments: integer arguments land in the integer argument registers and floating-point
/// ones in the vector argument registers, in order, and the rest on the stack in argument order, as
/// both targets' C conventions (AArch64 Linux's included) pass them to variadic and other callees
/// alike; x86-64 also gets `%al`. A `float` travels in the low half of a double's register, where a
/// callee reads it; unused registers and trailing stack slots are harmless.
///
/// # Safety
/// `address` must be a function that is safe to call with these arguments, and the signature must
/// have passed [`unsupported`].
pub unsafe fn call(address: u64, args: &[u64], operands: &[Operand], ret: &Type) -> u64 {
    let (mut ints, mut floats, mut stack) = ([0u64; 8], [0f64; FLOAT_REGISTERS], [0u64; STACK_ARGUMENTS]);
    let (mut i, mut f, mut k) = (0, 0, 0);
    for (&bits, operand) in args.iter().zip(operands) {
        if operand.ty.is_float() && f < FLOAT_REGISTERS {
            floats[f] = f64::from_bits(bits);
            f += 1;
        } else if !operand.ty.is_float() && i < INT_REGISTERS {
            ints[i] = bits;
            i += 1;
        } else {
            stack[k] = bits;
            k += 1;
        }
    }
    // SAFETY: per the function's contract.
    let result = unsafe { invoke(address, &ints, &floats, &stack, ret.is_float()) };
    // C's stdout is buffered apart from the interpreter's output: flush it to keep their order.
    // SAFETY: fflush(NULL) flushes every C output stream; it has no other precondition.
    unsafe { fflush(std::ptr::null_mut()) };
    if *ret == Type::Half {
        result & 0xffff
    } else if *ret == Type::Float {
        result & 0xffff_ffff
    } else {
        result
    }
}

/// The call of [`call`], with the host's number of integer argument registers: the raw bits of the
/// integer (or, with `float_result`, the floating-point) result register.
///
/// # Safety
/// As for [`call`].
unsafe fn invoke(address: u64, x: &[u64; 8], d: &[f64; 8], s: &[u64; STACK_ARGUMENTS], float_result: bool) -> u64 {
    macro_rules! with_arguments {
        ($f:expr) => {{
            let f = $f;
            #[cfg(target_arch = "aarch64")]
            let r = f(
                x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], s[0],
                s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14], s[15],
            );
            #[cfg(not(target_arch = "aarch64"))]
            let r = f(
                x[0], x[1], x[2], x[3], x[4], x[5], d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], s[0], s[1], s[2],
                s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14], s[15],
            );
            r
        }};
    }
    if float_result {
        // SAFETY: per the function's contract, a function callable with these arguments.
        let f: unsafe extern "C" fn(u64, ...) -> f64 = unsafe { std::mem::transmute(address as *const u8) };
        unsafe { with_arguments!(f) }.to_bits()
    } else {
        // SAFETY: as above.
        let f: unsafe extern "C" fn(u64, ...) -> u64 = unsafe { std::mem::transmute(address as *const u8) };
        unsafe { with_arguments!(f) }
    }
}
