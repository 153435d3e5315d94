//! The front end: IR text (and the builder) to a verified module, and the positioned errors of
//! everything it refuses.

#[path = "../support/mod.rs"]
mod support;

mod builder;
mod compile_errors;
mod errors;
mod explicit;
mod fuzz;
mod llc_error_cases;
mod llvm_forms;
mod parse;
mod reference;
