//! The `.llvm_stackmaps` format alone (no Cranelift): model, writer, parser, printer.
pub mod object_file;
