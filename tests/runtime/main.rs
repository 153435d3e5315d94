//! The runtime side: patching JIT code, exit stubs, the entry that captures every register and the
//! frame-table walker, dynamic allocas, resuming in the interpreter, and
//! the `cargo run --example` demos.

#[path = "../generator/mod.rs"]
mod generator;
#[path = "../support/mod.rs"]
mod support;

mod dynamic_alloca;
mod entry;
mod examples;
mod exit_stub;
mod exits;
mod frame_walk;
mod handlers;
mod interp_resume;
mod jit_thread_locals;
mod patch;
mod register_bank;
