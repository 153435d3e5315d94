//! Outputs: relocatable objects and in-process JIT code.
pub mod jit;
pub mod object;
