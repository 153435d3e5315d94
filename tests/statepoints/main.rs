//! GC statepoints: LLVM's forms, records against llc-19's, and a moving collector finding its roots.

#[path = "../generator/mod.rs"]
mod generator;
#[path = "../support/mod.rs"]
mod support;

mod forms;
mod gc_collector;
mod gc_invoke;
mod llc;
mod pressure;
mod registers;
mod vectors;
