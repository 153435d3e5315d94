//! The command line, and the vendored Cranelift tree checked against the published crates.

#[path = "../support/mod.rs"]
mod support;

mod cli;
mod vendor;
