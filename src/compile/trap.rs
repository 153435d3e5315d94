//! Why a trapping instruction of the generated code stops the program, from Cranelift's trap records:
//! how `patchmap run` names a fault (a bare SIGFPE or SIGILL says nothing of the division by zero or
//! the `unreachable` behind it).

use std::fmt;

use cranelift_codegen::ir::TrapCode;

use crate::lower::UNREACHABLE_TRAP;

/// What a trapping instruction checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrapKind {
    /// An integer division or remainder by zero.
    IntegerDivisionByZero,
    /// A signed division overflow (`MIN / -1`).
    IntegerOverflow,
    /// A dynamic alloca past the end of its stack.
    StackOverflow,
    /// `unreachable` was reached.
    Unreachable,
    /// A load or store (the fault is the address's).
    MemoryAccess,
    /// A float-to-integer conversion out of range.
    BadConversion,
    /// Any other check of Cranelift's.
    Other,
}

impl TrapKind {
    pub(crate) fn of(code: TrapCode) -> TrapKind {
        match code {
            TrapCode::INTEGER_DIVISION_BY_ZERO => TrapKind::IntegerDivisionByZero,
            TrapCode::INTEGER_OVERFLOW => TrapKind::IntegerOverflow,
            TrapCode::STACK_OVERFLOW => TrapKind::StackOverflow,
            TrapCode::HEAP_OUT_OF_BOUNDS => TrapKind::MemoryAccess,
            TrapCode::BAD_CONVERSION_TO_INTEGER => TrapKind::BadConversion,
            UNREACHABLE_TRAP => TrapKind::Unreachable,
            _ => TrapKind::Other,
        }
    }
}

impl fmt::Display for TrapKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TrapKind::IntegerDivisionByZero => "integer division by zero",
            TrapKind::IntegerOverflow => "integer overflow in a division",
            TrapKind::StackOverflow => "stack overflow",
            TrapKind::Unreachable => "'unreachable' reached",
            TrapKind::MemoryAccess => "invalid memory access",
            TrapKind::BadConversion => "float-to-integer conversion out of range",
            TrapKind::Other => "a trap",
        })
    }
}
