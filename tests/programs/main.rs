//! Whole programs: what patchmap compiles runs as llc-19's and clang's builds of the same IR do
//! (differential runs, golden files, object layout, the reference interpreter).

#[path = "../generator/mod.rs"]
mod generator;
#[path = "../support/mod.rs"]
mod support;

mod byval;
mod clang_corpus;
mod cxx_corpus;
mod differential;
mod exceptions;
mod explicit;
mod extension_abi;
mod frame_intrinsics;
mod generator_differential;
mod generator_llc;
mod golden;
mod half;
mod int_widths;
mod interp_differential;
mod llvm_forms;
mod nest;
mod object_placement;
mod real_ir;
mod struct_abi;
mod vectors;
mod volatile;
mod zero_globals;
