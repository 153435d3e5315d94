//! patchmap: LLVM's stack maps and patch points without LLVM.
//!
//! The pipeline, one module per stage:
//! `ir` (text or builder -> verified module) -> `lower` (Cranelift IR) -> `compile` (machine code and
//! records) -> `stackmap` (the `.llvm_stackmaps` section) -> `emit` (relocatable object or JIT), and the
//! `runtime` side that reads sections and patches code. `interp` runs the IR itself: a reference
//! for the compiled code, and where a deoptimised frame finishes its computation.
//!
//! `arch` holds every per-target fact the stages share; `target` the chosen triple and its Cranelift
//! ISA, which `lower`, `compile` and `emit` all work for.
//!
//! `stackmap` needs no compiler: build with `default-features = false` to embed the section reader alone.

#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

pub mod arch;
pub mod input;
pub mod runtime;
pub mod stackmap;

#[cfg(feature = "compiler")]
pub mod compile;
#[cfg(feature = "compiler")]
pub mod emit;
#[cfg(feature = "compiler")]
pub mod handlers;
#[cfg(feature = "compiler")]
pub mod interp;
#[cfg(feature = "compiler")]
pub mod ir;
#[cfg(feature = "compiler")]
pub mod lower;
#[cfg(feature = "compiler")]
pub mod target;
#[cfg(feature = "compiler")]
mod workers;
